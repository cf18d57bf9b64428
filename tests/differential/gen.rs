//! The generator: tables and statements decoded from lists of random
//! numbers.
//!
//! Proptest generates plain `Vec<u32>`s (one for the table, one per
//! statement) and this module decodes them. Shrinking then works without
//! custom shrinkers: proptest drops whole statements and moves numbers
//! towards 0, and every decision here is arranged so that 0 is the simplest
//! choice (one `int` key column, no clustering, `SELECT *`, no restriction,
//! no optional clause). A number list that runs out reads as zeros.
//!
//! Only statements Cassandra accepts are generated (restrictions.md), with
//! deliberate exceptions whose error is checked: a statement naming an
//! empty single-column partition key ("Key may not be empty", §2.7) and,
//! as widerow pages like cqlsh, `IN` on the partition key with ORDER BY
//! (§2.6).

use super::case::{
    Agg, Bound, CkRestriction, Filter, KeyWhere, Multi, Op, PkRestriction, Read, Selection, Slice,
    Style, Write,
};
use super::schema::{Column, Kind, Lit, Table, ALL_TYPES};

/// Reads decisions from a list of numbers.
pub struct Draw<'a> {
    src: &'a [u32],
    at: usize,
}

impl<'a> Draw<'a> {
    pub fn new(src: &'a [u32]) -> Draw<'a> {
        Draw { src, at: 0 }
    }

    /// A number in `0..n`.
    fn below(&mut self, n: usize) -> usize {
        let v = self.src.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        v as usize % n.max(1)
    }

    /// True with `pct` percent probability; false when the number is 0.
    fn chance(&mut self, pct: usize) -> bool {
        self.below(100) >= 100 - pct
    }

    /// A non-empty subset of `from`, in the order given.
    fn subset(&mut self, from: &[usize]) -> Vec<usize> {
        let mut out: Vec<usize> = from.iter().copied().filter(|_| self.chance(50)).collect();
        if out.is_empty() && !from.is_empty() {
            out.push(from[self.below(from.len())]);
        }
        out
    }
}

pub fn table(d: &mut Draw) -> Table {
    let npk = 1 + d.below(2);
    let nck = d.below(3);
    let nst = if nck > 0 { d.below(3) } else { 0 };
    let nreg = 1 + d.below(3);
    let mut columns = Vec::new();
    let mut add = |d: &mut Draw, name: String, kind: Kind| {
        let ty = ALL_TYPES[d.below(ALL_TYPES.len())];
        columns.push(Column { name, ty, kind });
    };
    for i in 0..npk {
        add(d, format!("pk{i}"), Kind::Partition);
    }
    for i in 0..nck {
        let desc = d.chance(40);
        add(d, format!("ck{i}"), Kind::Clustering { desc });
    }
    // Declared out of alphabetical order, so SELECT * must sort them.
    let statics = ["sz", "sa"];
    for name in statics.iter().take(nst) {
        add(d, name.to_string(), Kind::Static);
    }
    let regulars = ["val", "amount", "note"];
    let start = d.below(3);
    for i in 0..nreg {
        add(d, regulars[(start + i) % 3].to_string(), Kind::Regular);
    }
    Table { columns }
}

/// A value of column `col`'s type. Key columns mostly take one of the
/// first values of the pool (two for partition keys, three for clustering
/// columns), so that writes hit the same rows and reads find them.
fn lit(d: &mut Draw, t: &Table, col: usize) -> Lit {
    let pool = t.ty(col).pool();
    let core = match t.columns[col].kind {
        Kind::Partition => 2,
        Kind::Clustering { .. } => 3,
        _ => pool.len(),
    }
    .min(pool.len());
    let n = if d.chance(10) { pool.len() } else { core };
    pool[d.below(n)].clone()
}

fn cell(d: &mut Draw, t: &Table, col: usize) -> Option<Lit> {
    if d.chance(15) {
        None
    } else {
        Some(lit(d, t, col))
    }
}

/// One value (`=`) or, if allowed, sometimes two or three (`IN`) and now
/// and then none (`IN ()`, which selects nothing: an empty IN once deleted
/// a whole partition).
fn key_values(d: &mut Draw, t: &Table, col: usize, allow_in: bool) -> Vec<Lit> {
    let n = if allow_in && d.chance(20) {
        if d.chance(15) {
            0
        } else {
            2 + d.below(2)
        }
    } else {
        1
    };
    (0..n).map(|_| lit(d, t, col)).collect()
}

fn slice(d: &mut Draw, t: &Table, col: usize) -> Slice {
    let (lower, upper) = match d.below(3) {
        0 => (true, false),
        1 => (false, true),
        _ => (true, true),
    };
    let bound = |d: &mut Draw, on: bool| {
        on.then(|| Bound {
            inclusive: d.chance(50),
            value: lit(d, t, col),
        })
    };
    let mut lower = bound(d, lower);
    let mut upper = bound(d, upper);
    // Mostly a non-empty range; sometimes an inverted one.
    if let (Some(l), Some(u)) = (&mut lower, &mut upper) {
        if !d.chance(10) && sql_greater(&l.value, &u.value) {
            std::mem::swap(&mut l.value, &mut u.value);
        }
    }
    Slice { col, lower, upper }
}

/// A multi-column relation on the first one or more clustering columns.
/// `mixed_slices`: whether a slice may span columns of mixed directions.
fn multi_relation(d: &mut Draw, t: &Table) -> (Vec<usize>, Multi) {
    let ck = t.ck();
    let cols = ck[..1 + d.below(ck.len())].to_vec();
    let tuple = |d: &mut Draw| -> Vec<Lit> { cols.iter().map(|&c| lit(d, t, c)).collect() };
    let m = match d.below(3) {
        0 => Multi::Eq(tuple(d)),
        1 => Multi::In((0..2 + d.below(2)).map(|_| tuple(d)).collect()),
        _ => {
            let bound = |d: &mut Draw| Some((d.chance(50), tuple(d)));
            let (mut lower, mut upper) = match d.below(3) {
                0 => (bound(d), None),
                1 => (None, bound(d)),
                _ => (bound(d), bound(d)),
            };
            if let (Some((_, l)), Some((_, u))) = (&mut lower, &mut upper) {
                let greater = l
                    .iter()
                    .zip(u.iter())
                    .find(|(a, b)| a != b)
                    .is_some_and(|(a, b)| sql_greater(a, b));
                if greater && !d.chance(10) {
                    std::mem::swap(l, u);
                }
            }
            Multi::Slice { lower, upper }
        }
    };
    (cols, m)
}

/// `a > b` in CQL's order for values of one type (which SQLite's order
/// matches; see `schema.rs`).
fn sql_greater(a: &Lit, b: &Lit) -> bool {
    match (a, b) {
        (Lit::Int(x), Lit::Int(y)) => x > y,
        (Lit::Double(x), Lit::Double(y)) => x > y,
        (Lit::Text(x), Lit::Text(y)) => x.as_bytes() > y.as_bytes(),
        (Lit::Blob(x), Lit::Blob(y)) => x > y,
        (Lit::Bool(x), Lit::Bool(y)) => x > y,
        _ => false,
    }
}

/// Mostly plain literals; sometimes other spellings, sometimes a prepared
/// statement with bound values.
fn style(d: &mut Draw) -> Style {
    Style {
        alt: d.chance(20),
        bind: d.chance(25),
    }
}

pub fn op(d: &mut Draw, t: &Table) -> Op {
    if d.chance(40) {
        Op::Read(read(d, t))
    } else {
        Op::Write(write(d, t))
    }
}

fn write(d: &mut Draw, t: &Table) -> Write {
    let style = style(d);
    let (pk, ck, statics) = (t.pk(), t.ck(), t.statics());
    let non_key: Vec<usize> = statics.iter().copied().chain(t.regulars()).collect();
    let only_statics = |cols: &[usize]| cols.iter().all(|c| statics.contains(c));
    let pk_values =
        |d: &mut Draw| -> Vec<Vec<Lit>> { pk.iter().map(|&c| key_values(d, t, c, true)).collect() };
    match d.below(20) {
        0..=9 => {
            let mut values: Vec<(usize, Option<Lit>)> =
                pk.iter().map(|&c| (c, Some(lit(d, t, c)))).collect();
            if !statics.is_empty() && d.chance(15) {
                // A static-only insert: no clustering value (restrictions.md §7).
                for c in d.subset(&statics) {
                    values.push((c, cell(d, t, c)));
                }
            } else {
                values.extend(ck.iter().map(|&c| (c, Some(lit(d, t, c)))));
                for &c in &non_key {
                    if d.chance(50) {
                        values.push((c, cell(d, t, c)));
                    }
                }
            }
            Write::Insert { values, style }
        }
        10..=13 => {
            let set: Vec<(usize, Option<Lit>)> = d
                .subset(&non_key)
                .into_iter()
                .map(|c| (c, cell(d, t, c)))
                .collect();
            let cols: Vec<usize> = set.iter().map(|(c, _)| *c).collect();
            let pk = pk_values(d);
            let ck = if only_statics(&cols) {
                Vec::new()
            } else {
                ck.iter().map(|&c| key_values(d, t, c, true)).collect()
            };
            Write::Update {
                set,
                at: KeyWhere {
                    pk,
                    ck,
                    slice: None,
                    multi: None,
                },
                style,
            }
        }
        14..=16 => {
            let pk = pk_values(d);
            let mut at = KeyWhere {
                pk,
                ck: Vec::new(),
                slice: None,
                multi: None,
            };
            if !ck.is_empty() && d.chance(20) {
                at.multi = Some(multi_relation(d, t));
            } else if !ck.is_empty() && !d.chance(25) {
                // Rows, or a clustering range: a prefix of `=`/`IN`, then maybe a slice.
                let p = d.below(ck.len() + 1);
                at.ck = ck[..p].iter().map(|&c| key_values(d, t, c, true)).collect();
                if p < ck.len() && (p == 0 || d.chance(70)) {
                    at.slice = Some(slice(d, t, ck[p]));
                }
            }
            Write::Delete { at, style }
        }
        _ => {
            let cols = d.subset(&non_key);
            let pk = pk_values(d);
            let ck = if only_statics(&cols) {
                Vec::new()
            } else {
                ck.iter().map(|&c| key_values(d, t, c, true)).collect()
            };
            Write::DeleteColumns {
                cols,
                at: KeyWhere {
                    pk,
                    ck,
                    slice: None,
                    multi: None,
                },
                style,
            }
        }
    }
}

/// Whether Cassandra rejects the write for an empty single-column
/// partition key ("Key may not be empty", restrictions.md §2.7).
pub fn rejects_empty_key(t: &Table, w: &Write) -> bool {
    if t.pk().len() != 1 {
        return false;
    }
    match w {
        Write::Insert { values, .. } => values
            .iter()
            .any(|(c, v)| *c == t.pk()[0] && v.as_ref().is_some_and(Lit::is_empty)),
        Write::Update { at, .. } | Write::Delete { at, .. } | Write::DeleteColumns { at, .. } => {
            at.pk[0].iter().any(Lit::is_empty)
        }
    }
}

/// Whether a read names an empty single-column partition key.
fn empty_key_read(t: &Table, read: &Read) -> bool {
    t.pk().len() == 1
        && matches!(&read.pk[0], Some(PkRestriction::Eq(v)) if v.iter().any(Lit::is_empty))
}

/// The error Cassandra raises when executing `read`, if any: an empty
/// single-column partition key (restrictions.md §2.7, checked as the
/// partitions are listed), then — widerow runs statements as cqlsh sends
/// them, with paging on — `IN` on the partition key with ORDER BY (§2.6).
pub fn read_error(t: &Table, read: &Read) -> Option<&'static str> {
    if empty_key_read(t, read) {
        Some("Key may not be empty")
    } else if read.multi_partition() && read.order.is_some() {
        Some("Cannot page queries with both ORDER BY and a IN restriction on the partition key; you must either remove the ORDER BY or the IN and sort client side, or disable paging for this query")
    } else {
        None
    }
}

fn read(d: &mut Draw, t: &Table) -> Read {
    let (pk, ck) = (t.pk(), t.ck());
    let all: Vec<usize> = (0..t.columns.len()).collect();
    let any_col = |d: &mut Draw| all[d.below(all.len())];
    let agg = |d: &mut Draw| match d.below(6) {
        0..=1 => Agg::CountStar,
        2 => Agg::Count(any_col(d)),
        3..=4 => Agg::Min(any_col(d)),
        _ => Agg::Max(any_col(d)),
    };
    let mut selection = match d.below(24) {
        0..=7 => Selection::Star,
        8..=13 => {
            let mut cols = d.subset(&all);
            let r = d.below(cols.len());
            cols.rotate_left(r);
            Selection::Columns(cols)
        }
        14..=19 => Selection::Aggregate(agg(d)),
        20..=21 => Selection::GroupBy(d.below(ck.len() + 1), agg(d)),
        _ => {
            let keys: Vec<usize> = pk.iter().chain(&t.statics()).copied().collect();
            Selection::Distinct(d.subset(&keys))
        }
    };
    let distinct = matches!(selection, Selection::Distinct(_));

    let pk_restrictions: Vec<Option<PkRestriction>> = match d.below(20) {
        0..=9 => pk
            .iter()
            .map(|&c| Some(PkRestriction::Eq(vec![lit(d, t, c)])))
            .collect(),
        10..=12 => {
            let wide = d.below(pk.len());
            pk.iter()
                .enumerate()
                .map(|(i, &c)| {
                    let n = if i == wide { 2 + d.below(2) } else { 1 };
                    Some(PkRestriction::Eq((0..n).map(|_| lit(d, t, c)).collect()))
                })
                .collect()
        }
        13..=16 => vec![None; pk.len()],
        _ => {
            // A filtered partition key: part of a composite key, or a slice.
            let target = d.below(pk.len());
            let as_slice = pk.len() == 1 || d.chance(50);
            pk.iter()
                .enumerate()
                .map(|(i, &c)| match (i == target, as_slice) {
                    (false, _) => None,
                    (true, true) => Some(PkRestriction::Slice(slice(d, t, c))),
                    (true, false) => Some(PkRestriction::Eq(vec![lit(d, t, c)])),
                })
                .collect()
        }
    };
    let exact = pk_restrictions
        .iter()
        .all(|r| matches!(r, Some(PkRestriction::Eq(_))));
    let filtered_key = !exact && pk_restrictions.iter().any(Option::is_some);

    let mut ck_restrictions: Vec<(usize, CkRestriction)> = Vec::new();
    let mut multi = None;
    let mut ck_filtered = false;
    match d.below(12) {
        _ if ck.is_empty() || distinct => {}
        0..=4 => {}
        10..=11 => multi = Some(multi_relation(d, t)),
        5..=8 => {
            // Seekable: `=`/`IN` on a prefix, then maybe a slice (§3.1).
            let p = d.below(ck.len() + 1);
            for &c in &ck[..p] {
                ck_restrictions.push((c, CkRestriction::Eq(key_values(d, t, c, true))));
            }
            if p < ck.len() && d.chance(60) {
                ck_restrictions.push((ck[p], CkRestriction::Slice(slice(d, t, ck[p]))));
            }
        }
        _ => {
            // Any clustering restrictions: filtered (needs ALLOW FILTERING).
            ck_filtered = true;
            for &c in &ck {
                if d.chance(50) {
                    let r = if d.chance(50) {
                        CkRestriction::Slice(slice(d, t, c))
                    } else {
                        CkRestriction::Eq(key_values(d, t, c, true))
                    };
                    ck_restrictions.push((c, r));
                }
            }
        }
    }

    // Filters on regular and static columns; DISTINCT allows static ones only.
    let mut filters: Vec<(usize, Filter)> = Vec::new();
    if d.chance(30) {
        let filterable: Vec<usize> = if distinct {
            t.statics()
        } else {
            t.statics().into_iter().chain(t.regulars()).collect()
        };
        for c in d.subset(&filterable) {
            let f = match d.below(6) {
                0 => Filter::Cmp("=", lit(d, t, c)),
                1 => Filter::Cmp("<", lit(d, t, c)),
                2 => Filter::Cmp("<=", lit(d, t, c)),
                3 => Filter::Cmp(">", lit(d, t, c)),
                4 => Filter::Cmp(">=", lit(d, t, c)),
                _ => Filter::In((0..1 + d.below(3)).map(|_| lit(d, t, c)).collect()),
            };
            filters.push((c, f));
        }
    }

    // A selection of only key and static columns may not come with
    // clustering restrictions (restrictions.md §4.5).
    if !ck_restrictions.is_empty() || multi.is_some() {
        let regular = t.regulars()[0];
        match &mut selection {
            Selection::Columns(cols)
                if cols
                    .iter()
                    .all(|&c| matches!(t.columns[c].kind, Kind::Partition | Kind::Static)) =>
            {
                cols.push(regular);
            }
            Selection::Aggregate(a) | Selection::GroupBy(0, a) => {
                if let Some(c) = a.column().filter(|c| t.columns[**c].kind == Kind::Static) {
                    *c = regular;
                }
            }
            _ => {}
        }
    }
    // DISTINCT over a range must select the whole partition key (§6.3).
    if let Selection::Distinct(cols) = &mut selection {
        if !exact {
            for &c in pk.iter().rev() {
                if !cols.contains(&c) {
                    cols.insert(0, c);
                }
            }
        }
    }

    let mut order = None;
    let plain = matches!(selection, Selection::Star | Selection::Columns(_));
    let orderable = plain || matches!(selection, Selection::GroupBy(..));
    if exact && !ck.is_empty() && orderable && d.chance(30) {
        // ORDER BY may start after clustering columns fixed by `=` (§6.1).
        let fixed = match &multi {
            Some((cols, Multi::Eq(_))) => cols.len(),
            _ => ck
                .iter()
                .take_while(|&&c| {
                    ck_restrictions
                        .iter()
                        .any(|(r, x)| *r == c && matches!(x, CkRestriction::Eq(v) if v.len() == 1))
                })
                .count(),
        }
        .min(ck.len() - 1);
        let start = d.below(fixed + 1);
        let len = 1 + d.below(ck.len() - start);
        order = Some((ck[start..start + len].to_vec(), d.chance(50)));
    }
    let per_partition_limit = (plain && d.chance(15)).then(|| 1 + d.below(3) as u32);
    let limit = d.chance(25).then(|| 1 + d.below(5) as u32);
    // restrictions.md §5.1 corollary: filtering is needed for a filtered
    // partition key, clustering restrictions without a named partition or
    // not seekable, and any regular or static column restriction.
    let restricts_ck = !ck_restrictions.is_empty() || multi.is_some();
    let needs_af = filtered_key || ck_filtered || (!exact && restricts_ck) || !filters.is_empty();
    let allow_filtering = needs_af || d.chance(10);
    Read {
        selection,
        pk: pk_restrictions,
        ck: ck_restrictions,
        multi,
        filters,
        order,
        per_partition_limit,
        limit,
        allow_filtering,
        style: style(d),
    }
}
