//! The statements both parser benchmarks read: a fixed-seed generator of
//! realistic SELECT, INSERT, UPDATE and CREATE TABLE statements, written as
//! CQL for widerow and as the equivalent SQL for sqlparser's
//! `GenericDialect`, and the loops that parse them. Shared by
//! `benches/parse.rs` (criterion and the per-kind summary) and
//! `benches/compare.rs` (W5), which each use part of it.
#![allow(dead_code)]

use std::fmt::Write as _;
use std::hint::black_box;

use sqlparser::dialect::GenericDialect;
use sqlparser::parser::Parser;

/// SplitMix64: a tiny deterministic generator, so the corpus (and so the
/// figures) are the same on every run without a `rand` dependency.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// A number in `low..=high`.
    pub fn range(&mut self, low: usize, high: usize) -> usize {
        low + (self.next() % (high - low + 1) as u64) as usize
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.range(0, items.len() - 1)]
    }

    /// `count` distinct items, in random order.
    pub fn distinct<'a, T>(&mut self, items: &'a [T], count: usize) -> Vec<&'a T> {
        let mut order: Vec<usize> = (0..items.len()).collect();
        for i in 0..count {
            let j = self.range(i, order.len() - 1);
            order.swap(i, j);
        }
        order[..count].iter().map(|&i| &items[i]).collect()
    }

    pub fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

pub const KEYSPACES: [&str; 4] = ["shop", "iot", "social", "billing"];

pub const TABLES: [&str; 10] = [
    "orders_by_user",
    "orders_by_id",
    "sensor_readings",
    "events_by_day",
    "inbox_by_user",
    "user_sessions",
    "page_views",
    "invoices_by_account",
    "device_status",
    "followers_by_user",
];

/// Column names, each with the type it has in every table; none is a
/// keyword in either language.
pub const COLUMNS: [(&str, &str); 24] = [
    ("user_id", "bigint"),
    ("order_id", "bigint"),
    ("account_id", "int"),
    ("device_id", "int"),
    ("session_id", "bigint"),
    ("created_at", "timestamp"),
    ("updated_at", "timestamp"),
    ("shipped_on", "date"),
    ("reading_ts", "timestamp"),
    ("email_address", "text"),
    ("country_code", "text"),
    ("page_url", "text"),
    ("referrer", "text"),
    ("note_text", "text"),
    ("region", "text"),
    ("order_state", "text"),
    ("temperature", "double"),
    ("humidity", "double"),
    ("unit_price", "decimal"),
    ("amount_cents", "bigint"),
    ("item_count", "int"),
    ("score", "double"),
    ("is_active", "boolean"),
    ("version_no", "int"),
];

pub const WORDS: [&str; 12] = [
    "alpha", "berlin", "pending", "shipped", "mobile", "north", "checkout", "home", "fr", "de",
    "premium", "retry",
];

/// The kinds of statement in the corpus, for the per-kind summary.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Select,
    Insert,
    Update,
    CreateTable,
}

impl Kind {
    pub const ALL: [Kind; 4] = [Kind::Select, Kind::Insert, Kind::Update, Kind::CreateTable];

    pub fn name(self) -> &'static str {
        match self {
            Kind::Select => "SELECT",
            Kind::Insert => "INSERT",
            Kind::Update => "UPDATE",
            Kind::CreateTable => "CREATE TABLE",
        }
    }
}

/// One statement in both languages.
pub struct Pair {
    pub kind: Kind,
    pub cql: String,
    pub sql: String,
}

/// A constant of the column's type, written the same way in CQL and SQL.
pub fn value(rng: &mut Rng, ty: &str) -> String {
    match ty {
        "int" | "bigint" => rng.range(0, 9_999_999).to_string(),
        "double" | "decimal" => format!("{}.{:02}", rng.range(0, 99_999), rng.range(0, 99)),
        "boolean" => rng.chance(50).to_string(),
        "timestamp" => format!(
            "'2025-{:02}-{:02} {:02}:{:02}:{:02}'",
            rng.range(1, 12),
            rng.range(1, 28),
            rng.range(0, 23),
            rng.range(0, 59),
            rng.range(0, 59)
        ),
        "date" => format!("'2025-{:02}-{:02}'", rng.range(1, 12), rng.range(1, 28)),
        _ => format!(
            "'{}_{}_{}'",
            rng.pick(&WORDS),
            rng.pick(&WORDS),
            rng.range(0, 99_999)
        ),
    }
}

pub fn table(rng: &mut Rng) -> String {
    format!("{}.{}", rng.pick(&KEYSPACES), rng.pick(&TABLES))
}

/// `a = 1 AND b >= 'x' AND c IN (1, 2, 3)`: equality first, as on a
/// partition key, then a range or an IN on the columns after it.
pub fn where_clause(rng: &mut Rng, out: &mut String) {
    let count = rng.range(1, 3);
    let columns = rng.distinct(&COLUMNS, count);
    for (n, (column, ty)) in columns.into_iter().enumerate() {
        if n > 0 {
            out.push_str(" AND ");
        }
        if n > 0 && rng.chance(25) {
            let count = rng.range(2, 5);
            let values: Vec<String> = (0..count).map(|_| value(rng, ty)).collect();
            let _ = write!(out, "{column} IN ({})", values.join(", "));
        } else {
            let op = if n == 0 {
                "="
            } else {
                *rng.pick(&["=", "<", ">", "<=", ">="])
            };
            let _ = write!(out, "{column} {op} {}", value(rng, ty));
        }
    }
}

pub fn select(rng: &mut Rng) -> String {
    let mut out = String::from("SELECT ");
    if rng.chance(15) {
        out.push('*');
    } else {
        let count = rng.range(2, 6);
        let columns = rng.distinct(&COLUMNS, count);
        let names: Vec<&str> = columns.iter().map(|(name, _)| *name).collect();
        out.push_str(&names.join(", "));
    }
    let _ = write!(out, " FROM {} WHERE ", table(rng));
    where_clause(rng, &mut out);
    if rng.chance(60) {
        let (column, _) = rng.pick(&COLUMNS);
        let direction = if rng.chance(50) { "ASC" } else { "DESC" };
        let _ = write!(out, " ORDER BY {column} {direction}");
    }
    if rng.chance(80) {
        let _ = write!(out, " LIMIT {}", rng.range(1, 1000));
    }
    out
}

pub fn insert(rng: &mut Rng) -> String {
    let count = rng.range(5, 8);
    let columns = rng.distinct(&COLUMNS, count);
    let names: Vec<&str> = columns.iter().map(|(name, _)| *name).collect();
    let values: Vec<String> = columns.iter().map(|(_, ty)| value(rng, ty)).collect();
    format!(
        "INSERT INTO {} ({}) VALUES ({})",
        table(rng),
        names.join(", "),
        values.join(", ")
    )
}

pub fn update(rng: &mut Rng) -> String {
    let mut out = format!("UPDATE {} SET ", table(rng));
    let count = rng.range(1, 4);
    let columns = rng.distinct(&COLUMNS, count);
    let assignments: Vec<String> = columns
        .into_iter()
        .map(|(column, ty)| format!("{column} = {}", value(rng, ty)))
        .collect();
    out.push_str(&assignments.join(", "));
    out.push_str(" WHERE ");
    where_clause(rng, &mut out);
    out
}

/// CQL and SQL texts of one CREATE TABLE: the same columns and key, with the
/// key's partition part and the clustering order only in CQL.
pub fn create_table(rng: &mut Rng) -> (String, String) {
    let count = rng.range(6, 10);
    let columns = rng.distinct(&COLUMNS, count);
    let name = table(rng);
    let definitions: Vec<String> = columns
        .iter()
        .map(|(column, ty)| format!("{column} {ty}"))
        .collect();
    let definitions = definitions.join(", ");
    let partition = rng.range(1, 2);
    let clustering = rng.range(1, 2);
    let names: Vec<&str> = columns.iter().map(|(name, _)| *name).collect();
    let (partition_names, clustering_names) = names[..partition + clustering].split_at(partition);
    let partition_key = if partition == 1 {
        partition_names[0].to_string()
    } else {
        format!("({})", partition_names.join(", "))
    };
    let mut cql = format!(
        "CREATE TABLE {name} ({definitions}, PRIMARY KEY ({partition_key}, {}))",
        clustering_names.join(", ")
    );
    if rng.chance(50) {
        let _ = write!(
            cql,
            " WITH CLUSTERING ORDER BY ({} DESC)",
            clustering_names[0]
        );
    }
    let sql = format!(
        "CREATE TABLE {name} ({definitions}, PRIMARY KEY ({}))",
        names[..partition + clustering].join(", ")
    );
    (cql, sql)
}

/// `count` statements from a fixed seed: the same corpus on every run.
pub fn corpus(count: usize) -> Vec<Pair> {
    let mut rng = Rng(0x5eed_cafe_f00d_0001);
    (0..count)
        .map(|_| {
            let kind = *rng.pick(&Kind::ALL);
            let (cql, sql) = match kind {
                Kind::Select => {
                    let text = select(&mut rng);
                    (text.clone(), text)
                }
                Kind::Insert => {
                    let text = insert(&mut rng);
                    (text.clone(), text)
                }
                Kind::Update => {
                    let text = update(&mut rng);
                    (text.clone(), text)
                }
                Kind::CreateTable => create_table(&mut rng),
            };
            Pair { kind, cql, sql }
        })
        .collect()
}

/// Every statement must parse in both, or a parser would be timed on its
/// (possibly cheaper) error path.
pub fn check(pairs: &[Pair]) {
    for pair in pairs {
        if let Err(e) = widerow::parse_statement(&pair.cql) {
            panic!("widerow refuses {:?}: {}", pair.cql, e.message());
        }
        if let Err(e) = Parser::parse_sql(&GenericDialect {}, &pair.sql) {
            panic!("sqlparser refuses {:?}: {e}", pair.sql);
        }
    }
}

pub fn parse_widerow(statements: &[&str]) {
    for text in statements {
        black_box(widerow::parse_statement(black_box(text)).is_ok());
    }
}

pub fn parse_sqlparser(statements: &[&str]) {
    let dialect = GenericDialect {};
    for text in statements {
        black_box(Parser::parse_sql(&dialect, black_box(text)).is_ok());
    }
}

pub fn total_bytes(statements: &[&str]) -> usize {
    statements.iter().map(|s| s.len()).sum()
}
