//! Structure-aware executor fuzzing: the input is decoded (`arbitrary`) into
//! a list of operations over a small fixed schema — writes with TTLs,
//! timestamps, conditions and collection operations, batches, reads with
//! restrictions, filtering, ordering, limits and aggregates, prepared
//! statements with bind values, index, view and ALTER TABLE changes, and
//! clock moves — rendered as CQL and run against one session. Mostly-valid
//! statements reach far deeper into the executor than random bytes.
//!
//! Checked, besides "never panic":
//! * a statement that fails, and any SELECT, leaves schema and data as they
//!   were (`common::check_unchanged`);
//! * a `SELECT *` with a WHERE clause returns as many rows as `count(*)`
//!   with the same clause, and only rows the full scan also returns;
//! * every few operations and at the end, every table passes the full-scan
//!   checks of `common::check_full_scans`.

#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use widerow::types::Value;
use widerow::{ResultSet, Session};

#[path = "common/mod.rs"]
mod common;

const MAX_OPS: usize = 48;
const CHECK_EVERY: usize = 24;

const SCHEMA: &[&str] = &[
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 2}",
    "USE ks",
    "CREATE TYPE pt (x int, y text)",
    TABLE_DDL[0],
    TABLE_DDL[1],
    TABLE_DDL[2],
    TABLE_DDL[3],
];

const TABLE_DDL: [&str; 4] = [
    "CREATE TABLE kv (k int PRIMARY KEY, v text, n int, s set<int>, l list<int>, m map<int, text>, f frozen<list<int>>, p pt, t tuple<int, text>)",
    "CREATE TABLE wide (a int, b text, c int, d int, st int STATIC, v int, w text, PRIMARY KEY ((a, b), c, d)) WITH CLUSTERING ORDER BY (c DESC, d ASC)",
    "CREATE TABLE cnt (k int, c int, n counter, m counter, PRIMARY KEY (k, c))",
    "CREATE TABLE odd (k blob, c decimal, d double, v varint, PRIMARY KEY (k, c, d)) WITH CLUSTERING ORDER BY (c ASC, d DESC)",
];

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Ty {
    Int,
    Text,
    Blob,
    Decimal,
    Double,
    Varint,
    Counter,
    SetInt,
    ListInt,
    MapIntText,
    FrozenList,
    Udt,
    Tuple,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Role {
    Pk,
    Ck,
    Static,
    Regular,
}

struct Col {
    name: &'static str,
    ty: Ty,
    role: Role,
}

const fn col(name: &'static str, ty: Ty, role: Role) -> Col {
    Col { name, ty, role }
}

struct TableDef {
    name: &'static str,
    cols: &'static [Col],
}

const TABLES: [TableDef; 4] = [
    TableDef {
        name: "kv",
        cols: &[
            col("k", Ty::Int, Role::Pk),
            col("v", Ty::Text, Role::Regular),
            col("n", Ty::Int, Role::Regular),
            col("s", Ty::SetInt, Role::Regular),
            col("l", Ty::ListInt, Role::Regular),
            col("m", Ty::MapIntText, Role::Regular),
            col("f", Ty::FrozenList, Role::Regular),
            col("p", Ty::Udt, Role::Regular),
            col("t", Ty::Tuple, Role::Regular),
        ],
    },
    TableDef {
        name: "wide",
        cols: &[
            col("a", Ty::Int, Role::Pk),
            col("b", Ty::Text, Role::Pk),
            col("c", Ty::Int, Role::Ck),
            col("d", Ty::Int, Role::Ck),
            col("st", Ty::Int, Role::Static),
            col("v", Ty::Int, Role::Regular),
            col("w", Ty::Text, Role::Regular),
        ],
    },
    TableDef {
        name: "cnt",
        cols: &[
            col("k", Ty::Int, Role::Pk),
            col("c", Ty::Int, Role::Ck),
            col("n", Ty::Counter, Role::Regular),
            col("m", Ty::Counter, Role::Regular),
        ],
    },
    TableDef {
        name: "odd",
        cols: &[
            col("k", Ty::Blob, Role::Pk),
            col("c", Ty::Decimal, Role::Ck),
            col("d", Ty::Double, Role::Ck),
            col("v", Ty::Varint, Role::Regular),
        ],
    },
];

impl TableDef {
    fn with_role(&self, role: Role) -> impl Iterator<Item = &Col> + '_ {
        self.cols.iter().filter(move |c| c.role == role)
    }
    fn non_key(&self) -> Vec<&Col> {
        self.cols
            .iter()
            .filter(|c| matches!(c.role, Role::Static | Role::Regular))
            .collect()
    }
    fn pick(&self, b: u8) -> &Col {
        &self.cols[b as usize % self.cols.len()]
    }
}

#[derive(Arbitrary, Debug, Clone, Copy)]
struct Tbl(u8);

impl Tbl {
    fn def(self) -> &'static TableDef {
        &TABLES[self.0 as usize % TABLES.len()]
    }
}

/// A value for a column of any type: `sel` picks a scalar (weighted
/// towards a few small values so keys collide), `items` make collections.
#[derive(Arbitrary, Debug, Clone)]
struct Val {
    sel: u8,
    items: Vec<u8>,
}

const TEXTS: &[&str] = &["a", "b", "c", "", "é", "a b", "it''s", "Z"];
const BLOBS: &[&str] = &["0x", "0x00", "0x01", "0xff", "0x0000", "0xcafe"];
const DECIMALS: &[&str] = &[
    "1", "1.0", "1.00", "0", "-0.0", "2.5", "-1e3", "1E+3", "0.001",
];
const DOUBLES: &[&str] = &[
    "1",
    "-0.0",
    "0.0",
    "NaN",
    "Infinity",
    "-Infinity",
    "2.5",
    "1e308",
    "-1",
];
const VARINTS: &[&str] = &["0", "-1", "7", "123456789012345678901234567890"];

fn pick<'a>(list: &[&'a str], b: u8) -> &'a str {
    list[b as usize % list.len()]
}

fn int_lit(b: u8) -> String {
    match b {
        0..=199 => (b % 6).to_string(),
        200..=214 => format!("-{}", b % 3 + 1),
        215..=219 => "2147483647".into(),
        220..=224 => "-2147483648".into(),
        225..=244 => "null".into(),
        _ => "blobAsInt(0x)".into(),
    }
}

fn is_null_sel(b: u8) -> bool {
    b >= 240
}

impl Val {
    fn items(&self) -> impl Iterator<Item = u8> + '_ {
        self.items.iter().copied().take(4)
    }

    fn cql(&self, ty: Ty) -> String {
        let b = self.sel;
        if is_null_sel(b) && ty != Ty::Int {
            return "null".into();
        }
        match ty {
            Ty::Int => int_lit(b),
            Ty::Counter => ((b % 7) as i64 - 2).to_string(),
            Ty::Text => format!("'{}'", pick(TEXTS, b)),
            Ty::Blob => pick(BLOBS, b).into(),
            Ty::Decimal => pick(DECIMALS, b).into(),
            Ty::Double => pick(DOUBLES, b).into(),
            Ty::Varint => pick(VARINTS, b).into(),
            Ty::SetInt => format!(
                "{{{}}}",
                self.items()
                    .map(|i| (i % 6).to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Ty::ListInt | Ty::FrozenList => format!(
                "[{}]",
                self.items()
                    .map(|i| (i % 6).to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Ty::MapIntText => format!(
                "{{{}}}",
                self.items()
                    .map(|i| format!("{}: '{}'", i % 6, pick(TEXTS, i / 6)))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Ty::Udt => match b % 4 {
                0 => format!("{{x: {}}}", int_lit(b / 4)),
                1 => format!("{{y: '{}'}}", pick(TEXTS, b / 4)),
                2 => format!("{{x: {}, y: '{}'}}", b % 6, pick(TEXTS, b / 8)),
                _ => "{}".into(),
            },
            Ty::Tuple => match b % 3 {
                0 => format!("({}, '{}')", b % 6, pick(TEXTS, b / 3)),
                1 => format!("({})", b % 6),
                _ => format!("(null, '{}')", pick(TEXTS, b / 3)),
            },
        }
    }

    /// The value as JSON for `INSERT … JSON`.
    fn json(&self, ty: Ty) -> String {
        let b = self.sel;
        if is_null_sel(b) {
            return "null".into();
        }
        let ints = || {
            self.items()
                .map(|i| (i % 6).to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        match ty {
            Ty::Int => match b {
                0..=199 => (b % 6).to_string(),
                200..=219 => "\"3\"".into(),
                _ => "2147483648".into(),
            },
            Ty::Counter => (b % 5).to_string(),
            Ty::Text => format!("\"{}\"", pick(TEXTS, b).replace("''", "'")),
            Ty::Blob => format!("\"{}\"", pick(BLOBS, b)),
            Ty::Decimal => pick(DECIMALS, b).replace("-0.0", "\"-0.0\""),
            Ty::Double => match pick(DOUBLES, b) {
                "NaN" | "Infinity" | "-Infinity" => format!("\"{}\"", pick(DOUBLES, b)),
                d => d.into(),
            },
            Ty::Varint => pick(VARINTS, b).into(),
            Ty::SetInt | Ty::ListInt | Ty::FrozenList => format!("[{}]", ints()),
            Ty::MapIntText => format!(
                "{{{}}}",
                self.items()
                    .map(|i| format!(
                        "\"{}\": \"{}\"",
                        i % 6,
                        pick(TEXTS, i / 6).replace("''", "'")
                    ))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Ty::Udt => format!(
                "{{\"x\": {}, \"y\": \"{}\"}}",
                b % 6,
                pick(TEXTS, b / 8).replace("''", "'")
            ),
            Ty::Tuple => format!("[{}, \"{}\"]", b % 6, pick(TEXTS, b / 3).replace("''", "'")),
        }
    }

    /// The value as a bind value: usually of the column's type, sometimes
    /// of another (which must be refused, not crash).
    fn bind(&self, ty: Ty) -> Value {
        let b = self.sel;
        let small = (b % 6) as i32;
        match b {
            250..=251 => return Value::Null,
            252 => return Value::Empty,
            253 => return Value::Text("x".into()),
            254 => return Value::Bigint(1),
            255 => return Value::List(vec![Value::Null]),
            _ => {}
        }
        match ty {
            Ty::Int => Value::Int(match b {
                200..=209 => i32::MIN,
                210..=219 => i32::MAX,
                _ => small,
            }),
            Ty::Counter => Value::Counter(small as i64),
            Ty::Text => Value::Text(pick(TEXTS, b).replace("''", "'")),
            Ty::Blob => Value::Blob(vec![0; b as usize % 3]),
            Ty::Decimal => Value::decimal(small, (b % 3) as i32),
            Ty::Double => Value::Double([1.0, -0.0, 0.0, f64::NAN, f64::INFINITY][b as usize % 5]),
            Ty::Varint => Value::varint(small),
            Ty::SetInt => {
                Value::set_from(self.items().map(|i| Value::Int((i % 6) as i32)).collect())
            }
            Ty::ListInt | Ty::FrozenList => {
                Value::List(self.items().map(|i| Value::Int((i % 6) as i32)).collect())
            }
            Ty::MapIntText => Value::map_from(
                self.items()
                    .map(|i| {
                        (
                            Value::Int((i % 6) as i32),
                            Value::Text(pick(TEXTS, i / 6).into()),
                        )
                    })
                    .collect(),
            ),
            Ty::Udt => Value::Udt(vec![Some(Value::Int(small)), None]),
            Ty::Tuple => Value::Tuple(vec![Some(Value::Int(small)), Some(Value::Text("a".into()))]),
        }
    }
}

#[derive(Arbitrary, Debug, Clone)]
struct Using {
    ttl: Option<u8>,
    timestamp: Option<u8>,
}

fn ttl_lit(b: u8) -> String {
    match b % 10 {
        0 => "0".into(),
        1 | 2 => "1".into(),
        3 | 4 => "5".into(),
        5 => "60".into(),
        6 => "3600".into(),
        7 => "-1".into(),
        8 => "630720001".into(),
        _ => "2".into(),
    }
}

fn timestamp_lit(b: u8) -> String {
    match b {
        0 => "0".into(),
        1 => "-1".into(),
        2 => "9223372036854775807".into(),
        3 => "-9223372036854775808".into(),
        _ => (common::START_MICROS + (b as i64 - 128)).to_string(),
    }
}

impl Using {
    fn cql(&self, allow_ttl: bool) -> String {
        let mut parts = Vec::new();
        if let (Some(t), true) = (self.ttl, allow_ttl) {
            parts.push(format!("TTL {}", ttl_lit(t)));
        }
        if let Some(t) = self.timestamp {
            parts.push(format!("TIMESTAMP {}", timestamp_lit(t)));
        }
        if parts.is_empty() {
            String::new()
        } else {
            format!(" USING {}", parts.join(" AND "))
        }
    }
}

#[derive(Arbitrary, Debug, Clone)]
struct Insert {
    table: Tbl,
    /// One entry per column: `None` leaves the column out.
    values: Vec<Option<Val>>,
    keys: Vec<Val>,
    using: Using,
    if_not_exists: bool,
    json: Option<u8>,
}

#[derive(Arbitrary, Debug, Clone)]
struct Update {
    table: Tbl,
    sets: Vec<(u8, u8, Val)>,
    key: Key,
    using: Using,
    condition: Condition,
}

#[derive(Arbitrary, Debug, Clone)]
struct Delete {
    table: Tbl,
    /// Empty: the whole row (or rows).
    columns: Vec<(u8, u8, Val)>,
    key: Key,
    timestamp: Option<u8>,
    condition: Condition,
}

/// A WHERE clause addressing rows to write: the partition key, then some
/// of the clustering key, with IN or a range in places.
#[derive(Arbitrary, Debug, Clone)]
struct Key {
    shape: u8,
    values: Vec<Val>,
    extra: Vec<Val>,
}

#[derive(Arbitrary, Debug, Clone)]
enum Condition {
    None,
    IfExists,
    If(Vec<(u8, u8, Val)>),
}

#[derive(Arbitrary, Debug, Clone)]
enum Write {
    Insert(Insert),
    Update(Update),
    Delete(Delete),
}

#[derive(Arbitrary, Debug, Clone)]
struct Select {
    table: Tbl,
    projection: u8,
    columns: Vec<u8>,
    relations: Vec<(u8, u8, Val, Val)>,
    /// Each modifier applies only for small values (about one time in
    /// six to ten), so that most reads are valid.
    order: u8,
    group_by: u8,
    limit: u8,
    per_partition_limit: u8,
    allow_filtering: bool,
}

/// `Some(b)` when `b` is below `threshold`.
fn sometimes(b: u8, threshold: u8) -> Option<u8> {
    (b < threshold).then_some(b)
}

#[derive(Arbitrary, Debug, Clone)]
enum Op {
    Write(Write),
    Batch {
        kind: u8,
        timestamp: Option<u8>,
        writes: Vec<Write>,
    },
    Select(Select),
    Prepared {
        template: u8,
        values: Vec<Val>,
    },
    Truncate(Tbl),
    Ddl(u8),
    Advance(u8),
}

const DDL: &[&str] = &[
    "CREATE INDEX IF NOT EXISTS kv_v ON kv (v)",
    "CREATE INDEX IF NOT EXISTS kv_s ON kv (s)",
    "CREATE INDEX IF NOT EXISTS kv_mk ON kv (KEYS(m))",
    "CREATE INDEX IF NOT EXISTS kv_me ON kv (ENTRIES(m))",
    "CREATE INDEX IF NOT EXISTS kv_f ON kv (FULL(f))",
    "CREATE INDEX IF NOT EXISTS wide_v ON wide (v) USING 'sai'",
    "CREATE INDEX IF NOT EXISTS wide_st ON wide (st)",
    "CREATE INDEX IF NOT EXISTS wide_c ON wide (c)",
    "CREATE INDEX IF NOT EXISTS wide_b ON wide (b)",
    "CREATE CUSTOM INDEX IF NOT EXISTS wide_w ON wide (w) USING 'org.apache.cassandra.index.sasi.SASIIndex'",
    "CREATE INDEX IF NOT EXISTS odd_v ON odd (v)",
    "DROP INDEX IF EXISTS kv_v",
    "DROP INDEX IF EXISTS kv_s",
    "DROP INDEX IF EXISTS wide_v",
    "DROP INDEX IF EXISTS wide_st",
    "DROP INDEX IF EXISTS wide_c",
    "CREATE MATERIALIZED VIEW IF NOT EXISTS wide_by_v AS SELECT * FROM wide WHERE v IS NOT NULL AND a IS NOT NULL AND b IS NOT NULL AND c IS NOT NULL AND d IS NOT NULL PRIMARY KEY (v, a, b, c, d)",
    "CREATE MATERIALIZED VIEW IF NOT EXISTS kv_by_n AS SELECT k, n, v FROM kv WHERE n IS NOT NULL AND k IS NOT NULL PRIMARY KEY (n, k) WITH CLUSTERING ORDER BY (k DESC)",
    "CREATE MATERIALIZED VIEW IF NOT EXISTS wide_by_c AS SELECT a, b, c, d, w FROM wide WHERE c IS NOT NULL AND a IS NOT NULL AND b IS NOT NULL AND d IS NOT NULL PRIMARY KEY ((c, a), b, d)",
    "CREATE MATERIALIZED VIEW IF NOT EXISTS odd_by_d AS SELECT * FROM odd WHERE d IS NOT NULL AND k IS NOT NULL AND c IS NOT NULL PRIMARY KEY (d, k, c)",
    "DROP MATERIALIZED VIEW IF EXISTS wide_by_v",
    "DROP MATERIALIZED VIEW IF EXISTS kv_by_n",
    "DROP MATERIALIZED VIEW IF EXISTS wide_by_c",
    "DROP MATERIALIZED VIEW IF EXISTS odd_by_d",
    "ALTER TABLE kv ADD x int",
    "ALTER TABLE kv ADD x text",
    "ALTER TABLE kv ADD (y list<int>, z int)",
    "ALTER TABLE kv DROP x",
    "ALTER TABLE kv DROP n",
    "ALTER TABLE kv ADD n int",
    "ALTER TABLE kv DROP (y, z)",
    "ALTER TABLE kv DROP v",
    "ALTER TABLE wide ADD st2 int static",
    "ALTER TABLE wide DROP st2",
    "ALTER TABLE wide DROP w",
    "ALTER TABLE wide ADD w text",
    "ALTER TABLE wide DROP st",
    "ALTER TABLE wide ADD st int static",
    "ALTER TABLE wide RENAME d TO dd",
    "ALTER TABLE wide RENAME dd TO d",
    "ALTER TABLE kv WITH default_time_to_live = 10",
    "ALTER TABLE kv WITH default_time_to_live = 0",
    "ALTER TABLE wide WITH gc_grace_seconds = 0",
    "ALTER TYPE pt ADD z int",
    "ALTER TYPE pt RENAME x TO xx",
    "DROP TABLE IF EXISTS kv",
    "DROP TABLE IF EXISTS wide",
    "DROP TABLE IF EXISTS cnt",
    "DROP TABLE IF EXISTS odd",
    TABLE_DDL[0],
    TABLE_DDL[1],
    TABLE_DDL[2],
    TABLE_DDL[3],
    "CREATE KEYSPACE IF NOT EXISTS ks2 WITH replication = {'class': 'NetworkTopologyStrategy', 'datacenter1': 3}",
    "USE ks2",
    "USE ks",
];

/// Prepared statements and the types of their markers.
const PREPARED: &[(&str, &[Ty])] = &[
    (
        "INSERT INTO kv (k, v, n) VALUES (?, ?, ?)",
        &[Ty::Int, Ty::Text, Ty::Int],
    ),
    (
        "INSERT INTO kv (k, s, m) VALUES (?, ?, ?) USING TTL ?",
        &[Ty::Int, Ty::SetInt, Ty::MapIntText, Ty::Int],
    ),
    (
        "UPDATE kv SET l = l + ?, p = ? WHERE k = ?",
        &[Ty::ListInt, Ty::Udt, Ty::Int],
    ),
    (
        "UPDATE kv SET m[?] = ? WHERE k = ?",
        &[Ty::Int, Ty::Text, Ty::Int],
    ),
    (
        "INSERT INTO wide (a, b, c, d, v, st) VALUES (?, ?, ?, ?, ?, ?)",
        &[Ty::Int, Ty::Text, Ty::Int, Ty::Int, Ty::Int, Ty::Int],
    ),
    (
        "DELETE FROM wide WHERE a = ? AND b = ? AND c > ?",
        &[Ty::Int, Ty::Text, Ty::Int],
    ),
    (
        "UPDATE cnt SET n = n + ? WHERE k = ? AND c = ?",
        &[Ty::Counter, Ty::Int, Ty::Int],
    ),
    (
        "INSERT INTO odd (k, c, d, v) VALUES (?, ?, ?, ?)",
        &[Ty::Blob, Ty::Decimal, Ty::Double, Ty::Varint],
    ),
    (
        "SELECT * FROM wide WHERE a = ? AND b = ? AND (c, d) > (?, ?)",
        &[Ty::Int, Ty::Text, Ty::Int, Ty::Int],
    ),
    ("SELECT * FROM kv WHERE k IN ?", &[Ty::ListInt]),
    (
        "SELECT k, v FROM kv WHERE token(k) > ? LIMIT ?",
        &[Ty::Varint, Ty::Int],
    ),
    (
        "SELECT * FROM odd WHERE k = ? AND c = ? AND d <= ?",
        &[Ty::Blob, Ty::Decimal, Ty::Double],
    ),
];

fn val_at(values: &[Val], i: usize) -> Val {
    values.get(i).cloned().unwrap_or(Val {
        sel: i as u8,
        items: vec![1, 2],
    })
}

impl Key {
    /// `WHERE …` for a write to `table`.
    fn cql(&self, table: &TableDef) -> String {
        // Half the writes address one row by its whole primary key.
        let shape = if self.shape < 128 { 0 } else { self.shape };
        let pk: Vec<&Col> = table.with_role(Role::Pk).collect();
        let ck: Vec<&Col> = table.with_role(Role::Ck).collect();
        let mut relations = Vec::new();
        let mut n = 0;
        let mut next = |values: &[Val]| {
            n += 1;
            val_at(values, n - 1)
        };
        let in_pk = shape % 7 == 1;
        for (i, c) in pk.iter().enumerate() {
            if in_pk && i + 1 == pk.len() {
                let list: Vec<String> = self.extra.iter().take(3).map(|v| v.cql(c.ty)).collect();
                relations.push(format!("{} IN ({})", c.name, list.join(", ")));
            } else {
                relations.push(format!("{} = {}", c.name, next(&self.values).cql(c.ty)));
            }
        }
        // How many clustering columns to restrict, and how the last one is.
        let prefix = match shape % 7 {
            2 => 0,
            3 => ck.len().saturating_sub(1),
            _ => ck.len(),
        };
        for (i, c) in ck.iter().take(prefix).enumerate() {
            let last = i + 1 == prefix;
            let v = next(&self.values).cql(c.ty);
            let relation = match (last, shape % 7) {
                (true, 4) => {
                    let list: Vec<String> =
                        self.extra.iter().take(3).map(|x| x.cql(c.ty)).collect();
                    format!("{} IN ({})", c.name, list.join(", "))
                }
                (true, 5) => format!("{} > {}", c.name, v),
                (true, 6) => format!(
                    "{} >= {} AND {} < {}",
                    c.name,
                    v,
                    c.name,
                    val_at(&self.extra, 0).cql(c.ty)
                ),
                _ => format!("{} = {}", c.name, v),
            };
            relations.push(relation);
        }
        if shape >= 250 && ck.len() == 2 {
            relations.push(format!(
                "(c, d) > ({}, {})",
                val_at(&self.extra, 0).cql(ck[0].ty),
                val_at(&self.extra, 1).cql(ck[1].ty)
            ));
        }
        format!(" WHERE {}", relations.join(" AND "))
    }
}

fn op_symbol(b: u8) -> &'static str {
    [
        "=",
        "!=",
        "<",
        "<=",
        ">",
        ">=",
        "IN",
        "CONTAINS",
        "CONTAINS KEY",
    ][b as usize % 9]
}

impl Condition {
    fn cql(&self, table: &TableDef) -> String {
        match self {
            Condition::None => String::new(),
            Condition::IfExists => " IF EXISTS".into(),
            Condition::If(conditions) => {
                let parts: Vec<String> = conditions
                    .iter()
                    .take(3)
                    .map(|(c, op, v)| {
                        let col = table.pick(*c);
                        let op = op_symbol(*op % 7);
                        let value = if op == "IN" {
                            format!("({}, {})", v.cql(col.ty), int_lit(v.sel / 2))
                        } else {
                            v.cql(col.ty)
                        };
                        match (col.ty, v.sel % 5) {
                            (Ty::MapIntText, 0) => {
                                format!("{}[{}] {op} {}", col.name, v.sel % 6, v.cql(Ty::Text))
                            }
                            (Ty::Udt, 0) => format!("{}.x {op} {}", col.name, int_lit(v.sel)),
                            _ => format!("{} {op} {value}", col.name),
                        }
                    })
                    .collect();
                if parts.is_empty() {
                    " IF EXISTS".into()
                } else {
                    format!(" IF {}", parts.join(" AND "))
                }
            }
        }
    }
}

impl Insert {
    fn cql(&self) -> String {
        let table = self.table.def();
        let mut names = Vec::new();
        let mut values = Vec::new();
        let mut json = Vec::new();
        for (i, c) in table.cols.iter().enumerate() {
            let value = match (c.role, self.values.get(i)) {
                (Role::Pk | Role::Ck, _) => Some(val_at(&self.keys, i)),
                (_, Some(Some(v))) => Some(v.clone()),
                _ => None,
            };
            if let Some(v) = value {
                names.push(c.name);
                values.push(v.cql(c.ty));
                json.push(format!("\"{}\": {}", c.name, v.json(c.ty)));
            }
        }
        let tail = format!(
            "{}{}",
            if self.if_not_exists {
                " IF NOT EXISTS"
            } else {
                ""
            },
            self.using.cql(true)
        );
        match self.json {
            Some(j) => format!(
                "INSERT INTO {} JSON '{{{}}}'{}{}",
                table.name,
                json.join(", ").replace('\'', "''"),
                ["", " DEFAULT UNSET", " DEFAULT NULL"][j as usize % 3],
                tail
            ),
            None => format!(
                "INSERT INTO {} ({}) VALUES ({}){}",
                table.name,
                names.join(", "),
                values.join(", "),
                tail
            ),
        }
    }
}

impl Update {
    fn cql(&self) -> String {
        let table = self.table.def();
        let columns = table.non_key();
        let mut sets = Vec::new();
        for (c, how, v) in self.sets.iter().take(4) {
            let col = columns[*c as usize % columns.len()];
            let name = col.name;
            let value = v.cql(col.ty);
            let set = match (col.ty, how % 5) {
                (Ty::Counter, 0 | 1) => format!("{name} = {name} + {value}"),
                (Ty::Counter, 2) => format!("{name} = {name} - {value}"),
                (Ty::Counter, 3) => format!("{name} += {value}"),
                (Ty::SetInt | Ty::ListInt | Ty::MapIntText, 1) => {
                    format!("{name} = {name} + {value}")
                }
                (Ty::SetInt | Ty::ListInt, 2) => format!("{name} = {name} - {value}"),
                (Ty::MapIntText, 2) => format!("{name} = {name} - {}", v.cql(Ty::SetInt)),
                (Ty::ListInt, 3) => format!("{name} = {value} + {name}"),
                (Ty::ListInt, 4) => format!("{name}[{}] = {}", v.sel % 4, int_lit(v.sel / 4)),
                (Ty::MapIntText, 3) => format!("{name}[{}] = {}", v.sel % 6, v.cql(Ty::Text)),
                (Ty::SetInt | Ty::MapIntText, 4) => format!("{name} += {value}"),
                (Ty::Udt, 1) => format!("{name}.x = {}", int_lit(v.sel)),
                (Ty::Udt, 2) => format!("{name}.y = {}", v.cql(Ty::Text)),
                _ => format!("{name} = {value}"),
            };
            sets.push(set);
        }
        if sets.is_empty() {
            sets.push(format!("{} = null", columns[0].name));
        }
        format!(
            "UPDATE {}{} SET {}{}{}",
            table.name,
            self.using.cql(true),
            sets.join(", "),
            self.key.cql(table),
            self.condition.cql(table)
        )
    }
}

impl Delete {
    fn cql(&self) -> String {
        let table = self.table.def();
        let columns = table.non_key();
        let targets: Vec<String> = self
            .columns
            .iter()
            .take(3)
            .map(|(c, how, v)| {
                let col = columns[*c as usize % columns.len()];
                match (col.ty, how % 3) {
                    (Ty::MapIntText, 1) => format!("{}[{}]", col.name, v.sel % 6),
                    (Ty::ListInt, 1) => format!("{}[{}]", col.name, v.sel % 4),
                    (Ty::SetInt, 1) => format!("{}[{}]", col.name, v.sel % 6),
                    (Ty::Udt, 1) => format!("{}.x", col.name),
                    _ => col.name.to_string(),
                }
            })
            .collect();
        format!(
            "DELETE {}FROM {}{}{}{}",
            if targets.is_empty() {
                String::new()
            } else {
                format!("{} ", targets.join(", "))
            },
            table.name,
            self.timestamp.map_or(String::new(), |t| format!(
                " USING TIMESTAMP {}",
                timestamp_lit(t)
            )),
            self.key.cql(table),
            self.condition.cql(table)
        )
    }
}

impl Write {
    fn cql(&self) -> String {
        match self {
            Write::Insert(i) => i.cql(),
            Write::Update(u) => u.cql(),
            Write::Delete(d) => d.cql(),
        }
    }
}

impl Select {
    /// The statement, and whether it is a plain `SELECT *` whose row count
    /// `count(*)` must match (its WHERE clause returned alongside).
    fn cql(&self) -> (String, Option<String>) {
        let table = self.table.def();
        let mut relations = Vec::new();
        for (c, op, v, w) in self.relations.iter().take(4) {
            let col = table.pick(*c);
            let relation = match op % 12 {
                9 => {
                    let pk: Vec<&str> = table.with_role(Role::Pk).map(|c| c.name).collect();
                    let bound = match w.sel % 6 {
                        0 => "-9223372036854775808".to_string(),
                        1 => "-3485513579396041028".to_string(),
                        2 => "0".to_string(),
                        3 => "9223372036854775807".to_string(),
                        _ => format!(
                            "token({})",
                            pk.iter()
                                .map(|_| int_lit(w.sel / 6))
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    };
                    format!(
                        "token({}) {} {bound}",
                        pk.join(", "),
                        [">", ">=", "<", "<="][v.sel as usize % 4]
                    )
                }
                10 => format!("{} IN ({}, {})", col.name, v.cql(col.ty), w.cql(col.ty)),
                11 if table.with_role(Role::Ck).count() == 2 => {
                    let ck: Vec<&Col> = table.with_role(Role::Ck).collect();
                    format!(
                        "({}, {}) {} ({}, {})",
                        ck[0].name,
                        ck[1].name,
                        [">", ">=", "<", "<=", "="][v.sel as usize % 5],
                        v.cql(ck[0].ty),
                        w.cql(ck[1].ty)
                    )
                }
                o => {
                    let op = op_symbol(o);
                    let value = match (op, col.ty) {
                        ("IN", _) => format!("({})", v.cql(col.ty)),
                        ("CONTAINS", Ty::SetInt | Ty::ListInt | Ty::FrozenList) => int_lit(v.sel),
                        ("CONTAINS", Ty::MapIntText) => v.cql(Ty::Text),
                        ("CONTAINS KEY", _) => int_lit(v.sel),
                        _ => v.cql(col.ty),
                    };
                    format!("{} {op} {value}", col.name)
                }
            };
            relations.push(relation);
        }
        let where_clause = if relations.is_empty() {
            String::new()
        } else {
            format!(" WHERE {}", relations.join(" AND "))
        };
        let column_list = || {
            let list: Vec<&str> = self
                .columns
                .iter()
                .take(4)
                .map(|c| table.pick(*c).name)
                .collect();
            if list.is_empty() {
                "*".to_string()
            } else {
                list.join(", ")
            }
        };
        let first = table.pick(self.columns.first().copied().unwrap_or(0)).name;
        let projection = match self.projection % 14 {
            0..=3 => "*".to_string(),
            4 => column_list(),
            5 => "count(*)".into(),
            6 => format!("writetime({first}), ttl({first}), {first}"),
            7 => format!("max({first}), min({first}), count({first})"),
            8 => format!("JSON {}", column_list()),
            9 => format!(
                "DISTINCT {}",
                table
                    .with_role(Role::Pk)
                    .map(|c| c.name)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            10 => format!("toJson({first}), cast({first} AS text), {first} AS alias"),
            11 => format!("sum({first}), avg({first})"),
            12 => format!(
                "token({}), {first}",
                table
                    .with_role(Role::Pk)
                    .map(|c| c.name)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            _ => format!("{first}, writetime({first}), maxwritetime({first})"),
        };
        let mut tail = String::new();
        if let Some(g) = sometimes(self.group_by, 24) {
            let keys: Vec<&str> = table
                .cols
                .iter()
                .filter(|c| matches!(c.role, Role::Pk | Role::Ck))
                .map(|c| c.name)
                .collect();
            let n = 1 + g as usize % keys.len();
            tail.push_str(&format!(" GROUP BY {}", keys[..n].join(", ")));
        }
        if let Some(o) = sometimes(self.order, 40) {
            if let Some(ck) = table.with_role(Role::Ck).next() {
                tail.push_str(&format!(
                    " ORDER BY {} {}",
                    ck.name,
                    if o % 2 == 1 { "DESC" } else { "ASC" }
                ));
            }
        }
        if let Some(n) = sometimes(self.per_partition_limit, 24) {
            tail.push_str(&format!(" PER PARTITION LIMIT {}", n % 4));
        }
        if let Some(n) = sometimes(self.limit, 40) {
            tail.push_str(&format!(" LIMIT {}", n % 5));
        }
        if self.allow_filtering {
            tail.push_str(" ALLOW FILTERING");
        }
        let plain = projection == "*"
            && sometimes(self.group_by, 24).is_none()
            && sometimes(self.order, 40).is_none()
            && sometimes(self.per_partition_limit, 24).is_none()
            && sometimes(self.limit, 40).is_none();
        let af = if self.allow_filtering {
            " ALLOW FILTERING"
        } else {
            ""
        };
        (
            format!(
                "SELECT {projection} FROM {}{where_clause}{tail}",
                table.name
            ),
            plain.then(|| format!("SELECT count(*) FROM {}{where_clause}{af}", table.name)),
        )
    }
}

/// With `WIDEROW_FUZZ_PRINT` set, prints the script an input runs (as the
/// `exec` target's input format: `-- @advance` lines move the clock), to
/// turn a crash into a plain CQL regression.
fn trace(line: &str) {
    static PRINT: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    if *PRINT.get_or_init(|| std::env::var_os("WIDEROW_FUZZ_PRINT").is_some()) {
        eprintln!("{line}");
    }
}

/// Runs one statement, checking it changed nothing when it failed or read.
fn execute(session: &mut Session, cql: &str) -> Result<ResultSet, widerow::Error> {
    trace(&format!("{cql};"));
    let before = session.clone();
    let outcome = session.execute(cql);
    match &outcome {
        Ok(result) => common::render(result),
        Err(error) => common::render_error(error),
    }
    if let Err(e) = &outcome {
        trace(&format!("--   error: {}", e.message()));
    }
    common::check_unchanged(&before, session, cql, &outcome);
    outcome
}

fuzz_target!(|ops: Vec<Op>| {
    let (mut session, clock) = common::new_session();
    for statement in SCHEMA {
        trace(&format!("{statement};"));
        session
            .execute(statement)
            .expect("the fixed schema applies");
    }
    for (i, op) in ops.iter().take(MAX_OPS).enumerate() {
        match op {
            Op::Write(w) => {
                let _ = execute(&mut session, &w.cql());
            }
            Op::Batch {
                kind,
                timestamp,
                writes,
            } => {
                let inner: Vec<String> = writes
                    .iter()
                    .take(5)
                    .map(|w| format!("  {};", w.cql()))
                    .collect();
                let kind = ["", "UNLOGGED ", "COUNTER "][*kind as usize % 3];
                let using = timestamp.map_or(String::new(), |t| {
                    format!(" USING TIMESTAMP {}", timestamp_lit(t))
                });
                let cql = format!(
                    "BEGIN {kind}BATCH{using}\n{}\nAPPLY BATCH",
                    inner.join("\n")
                );
                let _ = execute(&mut session, &cql);
            }
            Op::Select(select) => {
                let (cql, count_cql) = select.cql();
                let result = execute(&mut session, &cql);
                if let (Ok(rows), Some(count_cql)) = (&result, count_cql) {
                    check_select(&mut session, &cql, rows, &count_cql, select.table.def());
                }
            }
            Op::Prepared { template, values } => {
                let (cql, types) = PREPARED[*template as usize % PREPARED.len()];
                let Ok(prepared) = session.prepare(cql) else {
                    continue;
                };
                let mut binds: Vec<Value> = types
                    .iter()
                    .enumerate()
                    .map(|(i, ty)| val_at(values, i).bind(*ty))
                    .collect();
                // Sometimes one value too few or too many.
                match values.len() {
                    7 => {
                        binds.pop();
                    }
                    8 => binds.push(Value::Int(1)),
                    _ => {}
                }
                trace(&format!("-- prepared: {cql} with {binds:?}"));
                let before = session.clone();
                let outcome = session.execute_prepared(&prepared, &binds);
                match &outcome {
                    Ok(result) => common::render(result),
                    Err(error) => common::render_error(error),
                }
                common::check_unchanged(&before, &session, cql, &outcome);
            }
            Op::Truncate(t) => {
                let _ = execute(&mut session, &format!("TRUNCATE {}", t.def().name));
            }
            Op::Ddl(d) => {
                let _ = execute(&mut session, DDL[*d as usize % DDL.len()]);
            }
            Op::Advance(s) => {
                trace(&format!("-- @advance {}", *s as i64 % 16));
                clock.advance_secs(*s as i64 % 16);
            }
        }
        if (i + 1) % CHECK_EVERY == 0 {
            common::check_full_scans(&mut session);
        }
    }
    common::check_full_scans(&mut session);
});

/// A plain `SELECT * … WHERE …` returns as many rows as its `count(*)`, and
/// every row it returns is a row of the full scan.
fn check_select(
    session: &mut Session,
    cql: &str,
    rows: &ResultSet,
    count_cql: &str,
    table: &TableDef,
) {
    if let Ok(count) = execute(session, count_cql) {
        if let Some(Value::Bigint(n)) = count.rows.first().and_then(|r| r.first()) {
            assert_eq!(
                *n as usize,
                rows.rows.len(),
                "{count_cql} disagrees with {cql}, which returned {:?}",
                rows.rows
            );
        }
    }
    let Ok(all) = execute(session, &format!("SELECT * FROM {}", table.name)) else {
        return;
    };
    if all.columns != rows.columns {
        return;
    }
    for row in &rows.rows {
        assert!(
            all.rows.iter().any(|r| r == row),
            "{cql} returned {row:?}, which the full scan does not have: {:?}",
            all.rows
        );
    }
}
