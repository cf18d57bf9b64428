//! The statements of a generated case, as data, and their CQL text.
//!
//! Statements are plain data so that proptest can shrink a failing case to
//! the few writes and the one read that show the disagreement, and so that
//! the SQLite model ([`super::model`]) reads the same description the CQL
//! text is printed from.

use std::fmt::Write as _;

use widerow::types::Value;

use super::schema::{Lit, Table};

/// A value for a non-key column: `None` writes null (a tombstone).
pub type Cell = Option<Lit>;

/// Values restricting one key column: one value is `=`, more are `IN`.
pub type KeyValues = Vec<Lit>;

/// One bound of a slice: the value and whether it is included.
#[derive(Clone, Debug)]
pub struct Bound {
    pub value: Lit,
    pub inclusive: bool,
}

/// `col > lo AND col <= hi` on one column (either side may be absent, not both).
#[derive(Clone, Debug)]
pub struct Slice {
    pub col: usize,
    pub lower: Option<Bound>,
    pub upper: Option<Bound>,
}

/// The WHERE clause of a write: the partition key columns (each `=` or
/// `IN`), then a prefix of the clustering columns (each `=` or `IN`) and, for
/// range deletes, a slice on the next clustering column.
#[derive(Clone, Debug)]
pub struct KeyWhere {
    pub pk: Vec<KeyValues>,
    pub ck: Vec<KeyValues>,
    pub slice: Option<Slice>,
    /// A multi-column relation from the first clustering column (DELETE
    /// only; then `ck` and `slice` are empty).
    pub multi: Option<(Vec<usize>, Multi)>,
}

#[derive(Clone, Debug)]
pub enum Write {
    /// `INSERT INTO t (cols) VALUES (...)`: every key column is in `values`
    /// (the clustering ones may all be left out for a static-only insert).
    Insert {
        values: Vec<(usize, Cell)>,
        style: Style,
    },
    /// `UPDATE t SET ... WHERE ...`: the full clustering key, or none when
    /// only statics are set.
    Update {
        set: Vec<(usize, Cell)>,
        at: KeyWhere,
        style: Style,
    },
    /// `DELETE FROM t WHERE ...`: a partition, rows or a clustering range.
    Delete { at: KeyWhere, style: Style },
    /// `DELETE a, b FROM t WHERE ...`: cells of one row (or statics).
    DeleteColumns {
        cols: Vec<usize>,
        at: KeyWhere,
        style: Style,
    },
}

/// A filter on a regular or static column (needs ALLOW FILTERING).
#[derive(Clone, Debug)]
pub enum Filter {
    Cmp(&'static str, Lit),
    In(Vec<Lit>),
}

/// A restriction on a clustering column in a read.
#[derive(Clone, Debug)]
pub enum CkRestriction {
    Eq(KeyValues),
    Slice(Slice),
}

/// An aggregate function.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Agg {
    CountStar,
    Count(usize),
    Min(usize),
    Max(usize),
}

impl Agg {
    /// The aggregated column, if any.
    pub fn column(&mut self) -> Option<&mut usize> {
        match self {
            Agg::CountStar => None,
            Agg::Count(c) | Agg::Min(c) | Agg::Max(c) => Some(c),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Selection {
    Star,
    Columns(Vec<usize>),
    /// `SELECT DISTINCT` of partition key and static columns.
    Distinct(Vec<usize>),
    /// One aggregate over every selected row: one result row.
    Aggregate(Agg),
    /// `SELECT <key columns>, agg ... GROUP BY <partition key>, <the first n
    /// clustering columns>`: one row per group.
    GroupBy(usize, Agg),
}

impl Selection {
    /// One result row whatever the data.
    pub fn is_aggregate(&self) -> bool {
        matches!(self, Selection::Aggregate(_))
    }

    /// The key columns a GROUP BY groups on.
    pub fn group_columns(&self, table: &Table) -> Vec<usize> {
        match self {
            Selection::GroupBy(n, _) => table
                .pk()
                .into_iter()
                .chain(table.ck().into_iter().take(*n))
                .collect(),
            _ => Vec::new(),
        }
    }
}

#[derive(Clone, Debug)]
pub struct Read {
    pub selection: Selection,
    /// Per partition key column (in key order): unrestricted, or `=`/`IN`
    /// values, or (with ALLOW FILTERING) a slice.
    pub pk: Vec<Option<PkRestriction>>,
    /// Restrictions on clustering columns, each on a distinct column.
    pub ck: Vec<(usize, CkRestriction)>,
    /// A multi-column relation on a prefix of the clustering columns (then
    /// `ck` is empty).
    pub multi: Option<(Vec<usize>, Multi)>,
    pub filters: Vec<(usize, Filter)>,
    /// The clustering columns of ORDER BY and whether they reverse the
    /// table's order (each one's written direction is derived from it).
    pub order: Option<(Vec<usize>, bool)>,
    pub per_partition_limit: Option<u32>,
    pub limit: Option<u32>,
    pub allow_filtering: bool,
    pub style: Style,
}

/// `(c1, c2) = (…)`, `(c1, c2) IN ((…), (…))`, `(c1, c2) > (…) [AND (c1, c2) <= (…)]`.
#[derive(Clone, Debug)]
pub enum Multi {
    Eq(Vec<Lit>),
    In(Vec<Vec<Lit>>),
    Slice {
        lower: Option<(bool, Vec<Lit>)>,
        upper: Option<(bool, Vec<Lit>)>,
    },
}

#[derive(Clone, Debug)]
pub enum PkRestriction {
    Eq(KeyValues),
    Slice(Slice),
}

impl Read {
    /// Whether any clustering column is restricted.
    pub fn restricts_clustering(&self) -> bool {
        !self.ck.is_empty() || self.multi.is_some()
    }

    /// Every partition key column restricted by `=`/`IN`: the partitions
    /// are named (restrictions.md §2.1 EXACT).
    pub fn exact_key(&self) -> bool {
        self.pk
            .iter()
            .all(|r| matches!(r, Some(PkRestriction::Eq(_))))
    }

    /// More than one partition named: results come in key order.
    pub fn multi_partition(&self) -> bool {
        self.exact_key()
            && self
                .pk
                .iter()
                .any(|r| matches!(r, Some(PkRestriction::Eq(v)) if v.len() > 1))
    }
}

#[derive(Clone, Debug)]
pub enum Op {
    Write(Write),
    Read(Read),
}

/// A generated case: one table and the statements run against it.
#[derive(Clone, Debug)]
pub struct Case {
    pub table: Table,
    pub ops: Vec<Op>,
}

/// How a statement is written: `alt` picks alternative spellings of
/// literals and keywords, `bind` sends every value as a `?` marker of a
/// prepared statement (`Session::prepare` + `execute_prepared`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Style {
    pub alt: bool,
    pub bind: bool,
}

/// A statement being written: its text and, when bound, its values.
struct Out<'a> {
    table: &'a Table,
    style: Style,
    binds: Vec<Value>,
}

impl Out<'_> {
    fn lit(&mut self, col: usize, v: &Lit) -> String {
        let ty = self.table.ty(col);
        if self.style.bind {
            self.binds.push(v.value(ty));
            "?".into()
        } else {
            v.cql(ty, self.style.alt)
        }
    }

    fn cell(&mut self, col: usize, v: &Cell) -> String {
        match v {
            Some(v) => self.lit(col, v),
            None if self.style.bind => {
                self.binds.push(Value::Null);
                "?".into()
            }
            None => "null".into(),
        }
    }

    fn key_relation(&mut self, col: usize, values: &KeyValues) -> String {
        let name = self.table.name(col).to_string();
        if values.len() == 1 {
            format!("{name} = {}", self.lit(col, &values[0]))
        } else {
            let list: Vec<String> = values.iter().map(|v| self.lit(col, v)).collect();
            format!("{name} IN ({})", list.join(", "))
        }
    }

    fn slice(&mut self, s: &Slice, out: &mut Vec<String>) {
        let name = self.table.name(s.col).to_string();
        if let Some(b) = &s.lower {
            let op = if b.inclusive { ">=" } else { ">" };
            out.push(format!("{name} {op} {}", self.lit(s.col, &b.value)));
        }
        if let Some(b) = &s.upper {
            let op = if b.inclusive { "<=" } else { "<" };
            out.push(format!("{name} {op} {}", self.lit(s.col, &b.value)));
        }
    }

    fn key_where(&mut self, at: &KeyWhere) -> String {
        let mut rel: Vec<String> = Vec::new();
        for (col, values) in self.table.pk().into_iter().zip(&at.pk) {
            rel.push(self.key_relation(col, values));
        }
        for (col, values) in self.table.ck().into_iter().zip(&at.ck) {
            rel.push(self.key_relation(col, values));
        }
        if let Some(s) = &at.slice {
            self.slice(s, &mut rel);
        }
        if let Some((cols, m)) = &at.multi {
            self.multi(cols, m, &mut rel);
        }
        rel.join(" AND ")
    }

    fn multi(&mut self, cols: &[usize], m: &Multi, rel: &mut Vec<String>) {
        let names = format!("({})", self.names(cols));
        let tuple = |out: &mut Self, vals: &[Lit]| -> String {
            let v: Vec<String> = cols.iter().zip(vals).map(|(c, v)| out.lit(*c, v)).collect();
            format!("({})", v.join(", "))
        };
        match m {
            Multi::Eq(v) => rel.push(format!("{names} = {}", tuple(self, v))),
            Multi::In(vs) => {
                let list: Vec<String> = vs.iter().map(|v| tuple(self, v)).collect();
                rel.push(format!("{names} IN ({})", list.join(", ")));
            }
            Multi::Slice { lower, upper } => {
                if let Some((inclusive, v)) = lower {
                    rel.push(format!(
                        "{names} {} {}",
                        if *inclusive { ">=" } else { ">" },
                        tuple(self, v)
                    ));
                }
                if let Some((inclusive, v)) = upper {
                    rel.push(format!(
                        "{names} {} {}",
                        if *inclusive { "<=" } else { "<" },
                        tuple(self, v)
                    ));
                }
            }
        }
    }

    fn names(&self, cols: &[usize]) -> String {
        let names: Vec<&str> = cols.iter().map(|c| self.table.name(*c)).collect();
        names.join(", ")
    }

    fn write(&mut self, w: &Write) -> String {
        match w {
            Write::Insert { values, .. } => {
                let cols: Vec<usize> = values.iter().map(|(c, _)| *c).collect();
                let vals: Vec<String> = values.iter().map(|(c, v)| self.cell(*c, v)).collect();
                format!(
                    "INSERT INTO t ({}) VALUES ({})",
                    self.names(&cols),
                    vals.join(", ")
                )
            }
            Write::Update { set, at, .. } => {
                let sets: Vec<String> = set
                    .iter()
                    .map(|(c, v)| format!("{} = {}", self.table.name(*c), self.cell(*c, v)))
                    .collect();
                format!(
                    "UPDATE t SET {} WHERE {}",
                    sets.join(", "),
                    self.key_where(at)
                )
            }
            Write::Delete { at, .. } => format!("DELETE FROM t WHERE {}", self.key_where(at)),
            Write::DeleteColumns { cols, at, .. } => {
                format!(
                    "DELETE {} FROM t WHERE {}",
                    self.names(cols),
                    self.key_where(at)
                )
            }
        }
    }

    fn read(&mut self, r: &Read) -> String {
        let t = self.table;
        let alt = self.style.alt;
        let sel = match &r.selection {
            Selection::Star => "*".to_string(),
            Selection::Columns(cols) => self.names(cols),
            Selection::Distinct(cols) => format!("DISTINCT {}", self.names(cols)),
            Selection::Aggregate(a) => agg_text(t, *a, alt),
            Selection::GroupBy(_, a) => {
                format!(
                    "{}, {}",
                    self.names(&r.selection.group_columns(t)),
                    agg_text(t, *a, alt)
                )
            }
        };
        let mut rel: Vec<String> = Vec::new();
        for (col, restriction) in t.pk().into_iter().zip(&r.pk) {
            match restriction {
                None => {}
                Some(PkRestriction::Eq(v)) => rel.push(self.key_relation(col, v)),
                Some(PkRestriction::Slice(s)) => self.slice(s, &mut rel),
            }
        }
        for (col, restriction) in &r.ck {
            match restriction {
                CkRestriction::Eq(v) => rel.push(self.key_relation(*col, v)),
                CkRestriction::Slice(s) => self.slice(s, &mut rel),
            }
        }
        if let Some((cols, m)) = &r.multi {
            self.multi(cols, m, &mut rel);
        }
        for (col, f) in &r.filters {
            let name = t.name(*col);
            match f {
                Filter::Cmp(op, v) => rel.push(format!("{name} {op} {}", self.lit(*col, v))),
                Filter::In(vs) => {
                    let list: Vec<String> = vs.iter().map(|v| self.lit(*col, v)).collect();
                    rel.push(format!("{name} IN ({})", list.join(", ")));
                }
            }
        }
        let mut cql = format!("SELECT {sel} FROM t");
        if !rel.is_empty() {
            let _ = write!(cql, " WHERE {}", rel.join(" AND "));
        }
        if let Selection::GroupBy(..) = r.selection {
            let _ = write!(
                cql,
                " GROUP BY {}",
                self.names(&r.selection.group_columns(t))
            );
        }
        if let Some((cols, reversed)) = &r.order {
            let parts: Vec<String> = cols
                .iter()
                .map(|&c| match (t.desc(c) != *reversed, alt) {
                    (true, _) => format!("{} DESC", t.name(c)),
                    (false, true) => t.name(c).to_string(),
                    (false, false) => format!("{} ASC", t.name(c)),
                })
                .collect();
            let _ = write!(cql, " ORDER BY {}", parts.join(", "));
        }
        if let Some(n) = r.per_partition_limit {
            let _ = write!(cql, " PER PARTITION LIMIT {n}");
        }
        if let Some(n) = r.limit {
            let _ = write!(cql, " LIMIT {n}");
        }
        if r.allow_filtering {
            cql.push_str(" ALLOW FILTERING");
        }
        cql
    }
}

fn agg_text(t: &Table, a: Agg, alt: bool) -> String {
    match a {
        Agg::CountStar => if alt { "COUNT(*)" } else { "count(*)" }.to_string(),
        Agg::Count(c) => format!("count({})", t.name(c)),
        Agg::Min(c) => format!("min({})", t.name(c)),
        Agg::Max(c) => format!("max({})", t.name(c)),
    }
}

impl Op {
    pub fn style(&self) -> Style {
        match self {
            Op::Write(Write::Insert { style, .. })
            | Op::Write(Write::Update { style, .. })
            | Op::Write(Write::Delete { style, .. })
            | Op::Write(Write::DeleteColumns { style, .. }) => *style,
            Op::Read(r) => r.style,
        }
    }

    /// The statement as sent: text with `?` markers and their values when
    /// bound, else text with literals.
    pub fn render(&self, table: &Table) -> (String, Vec<Value>) {
        let mut out = Out {
            table,
            style: self.style(),
            binds: Vec::new(),
        };
        let text = match self {
            Op::Write(w) => out.write(w),
            Op::Read(r) => out.read(r),
        };
        (text, out.binds)
    }

    /// The statement with literals (for scripts and reports).
    pub fn cql(&self, table: &Table) -> String {
        let style = Style {
            bind: false,
            ..self.style()
        };
        let mut out = Out {
            table,
            style,
            binds: Vec::new(),
        };
        match self {
            Op::Write(w) => out.write(w),
            Op::Read(r) => out.read(r),
        }
    }
}

impl Case {
    /// The case as a CQL script (what a bug report needs), up to op `upto`.
    pub fn script(&self, upto: usize) -> String {
        let mut out = String::from(
            "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\nUSE ks;\n",
        );
        let _ = writeln!(out, "{};", self.table.create_cql());
        for op in self.ops.iter().take(upto + 1) {
            if op.style().bind {
                let _ = writeln!(out, "-- prepared, with these values bound to `?` markers:");
            }
            let _ = writeln!(out, "{};", op.cql(&self.table));
        }
        out
    }
}
