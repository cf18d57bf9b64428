//! The generated tables and values, and how each is spelled on both sides.
//!
//! Only CQL types whose values and order SQLite reproduces exactly are used:
//! `int`, `bigint` and `timestamp` as SQLite integers, `double` as a real
//! (only values that are exact in binary, so equality is exact), `text` as
//! SQLite text under the default BINARY collation (a memcmp of the UTF-8
//! bytes: CQL's order, language.md §3.3), `blob` as a SQLite blob (unsigned
//! bytes, shorter prefix first) and `boolean` as 0/1 (false < true).

use widerow::types::Value;

/// A CQL column type the harness can model in SQLite.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    Int,
    Bigint,
    Text,
    Blob,
    Timestamp,
    Double,
    Boolean,
}

pub const ALL_TYPES: [Ty; 7] = [
    Ty::Int,
    Ty::Bigint,
    Ty::Text,
    Ty::Blob,
    Ty::Timestamp,
    Ty::Double,
    Ty::Boolean,
];

impl Ty {
    pub fn cql(self) -> &'static str {
        match self {
            Ty::Int => "int",
            Ty::Bigint => "bigint",
            Ty::Text => "text",
            Ty::Blob => "blob",
            Ty::Timestamp => "timestamp",
            Ty::Double => "double",
            Ty::Boolean => "boolean",
        }
    }

    /// The SQLite column type of a STRICT table.
    pub fn sql(self) -> &'static str {
        match self {
            Ty::Int | Ty::Bigint | Ty::Timestamp | Ty::Boolean => "INTEGER",
            Ty::Double => "REAL",
            Ty::Text => "TEXT",
            Ty::Blob => "BLOB",
        }
    }

    /// The values generated for this type. The first four are the "core"
    /// that key columns draw from most of the time, so writes collide.
    pub fn pool(self) -> Vec<Lit> {
        match self {
            Ty::Int => [0, 1, 2, -1, 3, 7, -3, i32::MIN as i64, i32::MAX as i64]
                .map(Lit::Int)
                .to_vec(),
            Ty::Bigint => [
                0,
                1,
                2,
                -1,
                3,
                9_000_000_000,
                -5_000_000_000,
                i64::MIN,
                i64::MAX,
            ]
            .map(Lit::Int)
            .to_vec(),
            Ty::Timestamp => [0, 1000, -1000, 1_700_000_000_000, 2000, 86_400_000]
                .map(Lit::Int)
                .to_vec(),
            Ty::Double => [0.0, 1.5, -0.5, 2.0, 1.0, -2.5, 3.0, 1e10, 0.25]
                .map(Lit::Double)
                .to_vec(),
            Ty::Boolean => vec![Lit::Bool(false), Lit::Bool(true)],
            // Non-ASCII included on purpose: U+FFFD sorts before U+1D11E in
            // UTF-8 (code point) order but after it in UTF-16 order.
            Ty::Text => [
                "a", "b", "B", "é", "", "ab", "it's", "z", "ÿ", "€", "\u{FFFD}", "𝄞", "a b",
            ]
            .map(|s| Lit::Text(s.to_string()))
            .to_vec(),
            Ty::Blob => [
                &[0x01][..],
                &[0x00],
                &[0xff],
                &[],
                &[0x80],
                &[0x7f],
                &[0x00, 0x00],
                &[0x00, 0xff],
                &[0x01, 0x02, 0x03],
            ]
            .map(|b| Lit::Blob(b.to_vec()))
            .to_vec(),
        }
    }
}

/// A non-null value of one of the types of [`Ty`].
#[derive(Clone, Debug, PartialEq)]
pub enum Lit {
    Int(i64),
    Double(f64),
    Text(String),
    Blob(Vec<u8>),
    Bool(bool),
}

impl Lit {
    /// Whether Cassandra rejects this as a single-column partition key
    /// ("Key may not be empty", restrictions.md §2.7).
    pub fn is_empty(&self) -> bool {
        matches!(self, Lit::Text(s) if s.is_empty()) || matches!(self, Lit::Blob(b) if b.is_empty())
    }

    /// The CQL literal. `alt` picks another accepted spelling of the same
    /// value (a timestamp string, a `$$` string, an integer literal for a
    /// whole double, upper-case keywords) so the parser's variants get used.
    pub fn cql(&self, ty: Ty, alt: bool) -> String {
        match (self, ty) {
            (Lit::Int(ms), Ty::Timestamp) if alt => match timestamp_text(*ms) {
                Some(text) => format!("'{text}'"),
                None => ms.to_string(),
            },
            (Lit::Int(i), _) => i.to_string(),
            (Lit::Double(d), _) if alt && d.fract() == 0.0 && d.abs() < 1e9 => {
                format!("{}", *d as i64)
            }
            (Lit::Double(d), _) => format!("{d:?}"),
            (Lit::Text(s), _) if alt && !s.contains('$') => format!("$${s}$$"),
            (Lit::Text(s), _) => format!("'{}'", s.replace('\'', "''")),
            (Lit::Blob(b), _) => format!("{}{}", if alt { "0X" } else { "0x" }, hex(b)),
            (Lit::Bool(b), _) if alt => if *b { "TRUE" } else { "FALSE" }.to_string(),
            (Lit::Bool(b), _) => b.to_string(),
        }
    }

    /// The value a driver would bind for a column of type `ty`.
    pub fn value(&self, ty: Ty) -> Value {
        match (self, ty) {
            (Lit::Int(i), Ty::Int) => Value::Int(*i as i32),
            (Lit::Int(i), Ty::Bigint) => Value::Bigint(*i),
            (Lit::Int(i), _) => Value::Timestamp(*i),
            (Lit::Double(d), _) => Value::Double(*d),
            (Lit::Text(s), _) => Value::Text(s.clone()),
            (Lit::Blob(b), _) => Value::Blob(b.clone()),
            (Lit::Bool(b), _) => Value::Boolean(*b),
        }
    }

    /// The SQLite literal.
    pub fn sql(&self) -> String {
        match self {
            Lit::Int(i) => i.to_string(),
            Lit::Double(d) => format!("{d:?}"),
            Lit::Text(s) => format!("'{}'", s.replace('\'', "''")),
            Lit::Blob(b) => format!("X'{}'", hex(b)),
            Lit::Bool(b) => i64::from(*b).to_string(),
        }
    }
}

/// Spellings of some timestamps in the string forms of language.md §3.2.
fn timestamp_text(ms: i64) -> Option<&'static str> {
    Some(match ms {
        0 => "1970-01-01 00:00:00+0000",
        1000 => "1970-01-01T00:00:01Z",
        -1000 => "1969-12-31 23:59:59.000+0000",
        2000 => "1970-01-01 00:00:02.000Z",
        86_400_000 => "1970-01-02",
        1_700_000_000_000 => "2023-11-14 22:13:20+0000",
        _ => return None,
    })
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Where a column sits in the primary key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Partition,
    Clustering { desc: bool },
    Static,
    Regular,
}

#[derive(Clone, Debug)]
pub struct Column {
    pub name: String,
    pub ty: Ty,
    pub kind: Kind,
}

/// A generated table. Columns are in declaration order: partition key,
/// clustering, then statics and regulars in the (shuffled) order written,
/// so that the `SELECT *` order (results.md) differs from it.
#[derive(Clone, Debug)]
pub struct Table {
    pub columns: Vec<Column>,
}

impl Table {
    fn of(&self, pred: impl Fn(Kind) -> bool) -> Vec<usize> {
        (0..self.columns.len())
            .filter(|&i| pred(self.columns[i].kind))
            .collect()
    }
    pub fn pk(&self) -> Vec<usize> {
        self.of(|k| k == Kind::Partition)
    }
    pub fn ck(&self) -> Vec<usize> {
        self.of(|k| matches!(k, Kind::Clustering { .. }))
    }
    pub fn statics(&self) -> Vec<usize> {
        self.of(|k| k == Kind::Static)
    }
    pub fn regulars(&self) -> Vec<usize> {
        self.of(|k| k == Kind::Regular)
    }
    pub fn name(&self, i: usize) -> &str {
        &self.columns[i].name
    }
    pub fn ty(&self, i: usize) -> Ty {
        self.columns[i].ty
    }
    pub fn desc(&self, i: usize) -> bool {
        matches!(self.columns[i].kind, Kind::Clustering { desc: true })
    }

    /// The columns of `SELECT *` (results.md "Columns of SELECT *").
    pub fn star(&self) -> Vec<usize> {
        let by_name = |mut v: Vec<usize>| {
            v.sort_by(|&a, &b| self.name(a).cmp(self.name(b)));
            v
        };
        let mut out = self.pk();
        out.extend(self.ck());
        out.extend(by_name(self.statics()));
        out.extend(by_name(self.regulars()));
        out
    }

    pub fn create_cql(&self) -> String {
        let cols: Vec<String> = self
            .columns
            .iter()
            .map(|c| {
                let st = if c.kind == Kind::Static {
                    " static"
                } else {
                    ""
                };
                format!("{} {}{st}", c.name, c.ty.cql())
            })
            .collect();
        let names = |v: Vec<usize>| -> Vec<String> {
            v.into_iter().map(|i| self.name(i).to_string()).collect()
        };
        let mut key = format!("({})", names(self.pk()).join(", "));
        for c in names(self.ck()) {
            key.push_str(", ");
            key.push_str(&c);
        }
        let mut cql = format!("CREATE TABLE t ({}, PRIMARY KEY ({key}))", cols.join(", "));
        let ck = self.ck();
        if ck.iter().any(|&i| self.desc(i)) {
            let order: Vec<String> = ck
                .iter()
                .map(|&i| {
                    format!(
                        "{} {}",
                        self.name(i),
                        if self.desc(i) { "DESC" } else { "ASC" }
                    )
                })
                .collect();
            cql.push_str(&format!(" WITH CLUSTERING ORDER BY ({})", order.join(", ")));
        }
        cql
    }

    /// Converts a SQLite value of column type `ty` to the widerow value
    /// Cassandra would return, so results compare with `==`.
    pub fn value_of(ty: Ty, v: rusqlite::types::Value) -> Value {
        use rusqlite::types::Value as S;
        match (ty, v) {
            (_, S::Null) => Value::Null,
            (Ty::Int, S::Integer(i)) => Value::Int(i as i32),
            (Ty::Bigint, S::Integer(i)) => Value::Bigint(i),
            (Ty::Timestamp, S::Integer(i)) => Value::Timestamp(i),
            (Ty::Boolean, S::Integer(i)) => Value::Boolean(i != 0),
            (Ty::Double, S::Real(d)) => Value::Double(d),
            (Ty::Double, S::Integer(i)) => Value::Double(i as f64),
            (Ty::Text, S::Text(s)) => Value::Text(s),
            (Ty::Blob, S::Blob(b)) => Value::Blob(b),
            (ty, v) => panic!("harness: SQLite gave {v:?} for a {ty:?} column"),
        }
    }
}
