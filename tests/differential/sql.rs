//! The SQL text of the model's reads: the view a CQL read sees, its
//! conditions, its selection and Cassandra's order.
//!
//! The view (`base`) has one row per CQL row: each clustering row joined to
//! its partition's statics, plus, when Cassandra returns it, one row per
//! static-only partition with null clustering and regular columns
//! (results.md "Static-only partitions"; `SelectStatement.processPartition`
//! returns it when `returnStaticContentOnPartitionWithNoRows`: no
//! clustering and no *regular* column restriction, as
//! `hasRegularColumnsRestrictions` counts regular columns only). DISTINCT
//! reads one row per live partition instead: its key and statics.

use super::case::{Agg, CkRestriction, Filter, Multi, PkRestriction, Read, Selection, Slice};
use super::schema::{Kind, Lit, Table, Ty};

/// A quoted SQLite identifier.
pub fn q(name: &str) -> String {
    format!("\"{name}\"")
}

pub fn in_list(values: &[Lit]) -> String {
    let v: Vec<String> = values.iter().map(Lit::sql).collect();
    format!("IN ({})", v.join(", "))
}

fn bound(op: &str, inclusive: bool) -> String {
    format!("{op}{}", if inclusive { "=" } else { "" })
}

pub fn slice_conditions(table: &Table, s: &Slice, out: &mut Vec<String>) {
    let col = q(table.name(s.col));
    if let Some(b) = &s.lower {
        out.push(format!(
            "{col} {} {}",
            bound(">", b.inclusive),
            b.value.sql()
        ));
    }
    if let Some(b) = &s.upper {
        out.push(format!(
            "{col} {} {}",
            bound("<", b.inclusive),
            b.value.sql()
        ));
    }
}

/// A multi-column relation. SQLite row values compare lexicographically
/// by value, which is what the relation means whatever each column's
/// clustering direction (Cassandra's SelectMultiColumnRelationTest,
/// testMixedOrderColumns1).
pub fn multi_conditions(table: &Table, cols: &[usize], m: &Multi, out: &mut Vec<String>) {
    let names: Vec<String> = cols.iter().map(|&c| q(table.name(c))).collect();
    let names = format!("({})", names.join(", "));
    let tuple = |v: &[Lit]| {
        format!(
            "({})",
            v.iter().map(Lit::sql).collect::<Vec<_>>().join(", ")
        )
    };
    match m {
        Multi::Eq(v) => out.push(format!("{names} = {}", tuple(v))),
        Multi::In(vs) => {
            let rows: Vec<String> = vs.iter().map(|v| tuple(v)).collect();
            out.push(format!("{names} IN (VALUES {})", rows.join(", ")));
        }
        Multi::Slice { lower, upper } => {
            if let Some((inclusive, v)) = lower {
                out.push(format!("{names} {} {}", bound(">", *inclusive), tuple(v)));
            }
            if let Some((inclusive, v)) = upper {
                out.push(format!("{names} {} {}", bound("<", *inclusive), tuple(v)));
            }
        }
    }
}

/// The view a read runs over (see the module documentation).
pub fn base_view(t: &Table, read: &Read) -> String {
    let all: Vec<usize> = (0..t.columns.len()).collect();
    let pk_on = |a: &str, b: &str| -> String {
        let on: Vec<String> = t
            .pk()
            .into_iter()
            .map(|i| format!("{a}.{0} = {b}.{0}", q(t.name(i))))
            .collect();
        on.join(" AND ")
    };
    // Each column of the view, from table `row` (or null), `s` for statics.
    let view = |row: Option<&str>, key: &str| -> String {
        let cols: Vec<String> = all
            .iter()
            .map(|&i| {
                let from = match (t.columns[i].kind, row) {
                    (Kind::Static, _) => "s",
                    (Kind::Partition, _) => key,
                    (_, Some(row)) => row,
                    (_, None) => return format!("NULL AS {}", q(t.name(i))),
                };
                format!("{from}.{0} AS {0}", q(t.name(i)))
            })
            .collect();
        cols.join(", ")
    };
    if let Selection::Distinct(_) = read.selection {
        let keys: Vec<String> = t.pk().into_iter().map(|i| q(t.name(i))).collect();
        let keys = keys.join(", ");
        return format!(
            "SELECT {} FROM (SELECT {keys} FROM rows UNION SELECT {keys} FROM statics) p LEFT JOIN statics s ON {}",
            view(None, "p"),
            pk_on("s", "p")
        );
    }
    let mut base = format!(
        "SELECT {} FROM rows r LEFT JOIN statics s ON {}",
        view(Some("r"), "r"),
        pk_on("s", "r")
    );
    let regular_filter = read
        .filters
        .iter()
        .any(|(c, _)| t.columns[*c].kind == Kind::Regular);
    if !read.restricts_clustering() && !regular_filter {
        base.push_str(&format!(
            " UNION ALL SELECT {} FROM statics s WHERE NOT EXISTS (SELECT 1 FROM rows r WHERE {})",
            view(None, "s"),
            pk_on("s", "r")
        ));
    }
    base
}

/// The WHERE conditions of a read, on the view.
pub fn conditions(t: &Table, read: &Read) -> Vec<String> {
    let mut cond: Vec<String> = Vec::new();
    for (c, r) in t.pk().into_iter().zip(&read.pk) {
        match r {
            None => {}
            Some(PkRestriction::Eq(v)) => cond.push(format!("{} {}", q(t.name(c)), in_list(v))),
            Some(PkRestriction::Slice(s)) => slice_conditions(t, s, &mut cond),
        }
    }
    for (c, r) in &read.ck {
        match r {
            CkRestriction::Eq(v) => cond.push(format!("{} {}", q(t.name(*c)), in_list(v))),
            CkRestriction::Slice(s) => slice_conditions(t, s, &mut cond),
        }
    }
    if let Some((cols, m)) = &read.multi {
        multi_conditions(t, cols, m, &mut cond);
    }
    for (c, f) in &read.filters {
        match f {
            Filter::Cmp(op, v) => cond.push(format!("{} {op} {}", q(t.name(*c)), v.sql())),
            Filter::In(vs) => cond.push(format!("{} {}", q(t.name(*c)), in_list(vs))),
        }
    }
    cond
}

/// An aggregate in SQL, and the CQL type of its result.
fn agg_sql(t: &Table, a: Agg) -> (String, Ty) {
    match a {
        Agg::CountStar => ("count(*)".into(), Ty::Bigint),
        Agg::Count(c) => (format!("count({})", q(t.name(c))), Ty::Bigint),
        Agg::Min(c) => (format!("min({})", q(t.name(c))), t.ty(c)),
        Agg::Max(c) => (format!("max({})", q(t.name(c))), t.ty(c)),
    }
}

/// The selected expressions and their CQL types.
pub fn selection(t: &Table, read: &Read) -> Vec<(String, Ty)> {
    let cols = |cols: Vec<usize>| -> Vec<(String, Ty)> {
        cols.into_iter().map(|i| (q(t.name(i)), t.ty(i))).collect()
    };
    match &read.selection {
        Selection::Star => cols(t.star()),
        Selection::Columns(c) | Selection::Distinct(c) => cols(c.clone()),
        Selection::Aggregate(a) => vec![agg_sql(t, *a)],
        Selection::GroupBy(_, a) => {
            let mut out = cols(read.selection.group_columns(t));
            out.push(agg_sql(t, *a));
            out
        }
    }
}

/// ORDER BY making the SQL order Cassandra's (results.md "Order of rows"):
/// partitions in key order for `IN` (scans are compared without regard to
/// partition order but need each partition's rows together, which this
/// order also gives), rows in clustering order, reversed by a reversing
/// ORDER BY. With `IN` and ORDER BY, rows are merged by the ORDER BY
/// columns first; ties keep partition order (widerow, paging like cqlsh,
/// refuses these, so this part is for completeness).
pub fn order_by(t: &Table, read: &Read) -> String {
    let mut parts: Vec<String> = Vec::new();
    if read.multi_partition() {
        if let Some((cols, _)) = &read.order {
            parts.extend(cols.iter().map(|&c| direction(t, read, c)));
        }
    }
    parts.extend(t.pk().into_iter().map(|c| format!("{} ASC", q(t.name(c)))));
    parts.extend(clustering_order(t, read));
    format!(" ORDER BY {}", parts.join(", "))
}

/// A clustering column in read order: its declared direction, flipped by a
/// reversing ORDER BY. A static-only row (null clustering values) sorts
/// first in the table's order and last in the reverse (SelectStatement's
/// ColumnComparator puts null first, then the comparator is reversed).
fn direction(t: &Table, read: &Read, c: usize) -> String {
    let reversed = read.order.as_ref().is_some_and(|(_, r)| *r);
    let dir = if t.desc(c) != reversed { "DESC" } else { "ASC" };
    let nulls = if reversed {
        "NULLS LAST"
    } else {
        "NULLS FIRST"
    };
    format!("{} {dir} {nulls}", q(t.name(c)))
}

/// The rows of one partition in read order (None: no clustering). With
/// GROUP BY, only the grouped clustering columns exist.
pub fn clustering_order(t: &Table, read: &Read) -> Option<String> {
    let mut ck = t.ck();
    if let Selection::GroupBy(n, _) = read.selection {
        ck.truncate(n);
    }
    let parts: Vec<String> = ck.into_iter().map(|c| direction(t, read, c)).collect();
    (!parts.is_empty()).then(|| parts.join(", "))
}
