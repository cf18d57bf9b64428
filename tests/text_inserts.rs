//! Text INSERTs of constants are run through the compiled INSERT of their
//! shape (`exec::text_insert`) once their shape and partition have been
//! seen. Each must give exactly what the general path gives for the same
//! text — result, plan, error, cells, write times, TTLs — statement after
//! statement, across schema changes that make compiled shapes stale.

use std::sync::Arc;

use proptest::prelude::*;
use widerow::session::{ManualClock, SeededIds, Session};

const START: i64 = 1_748_736_000_000_000;

const SCHEMA: &str = "
    CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};
    CREATE KEYSPACE other WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
    USE ks;
    CREATE TABLE readings (s text, day date, ts timestamp, t double, n bigint, a ascii, b blob,
        PRIMARY KEY ((s, day), ts));
    CREATE TABLE other.readings (s text, day date, ts timestamp, t double, n bigint, a ascii,
        b blob, PRIMARY KEY ((s, day), ts));
    CREATE TABLE mixed (k int, c text, i inet, u uuid, f float, v varint, d decimal, o boolean,
        du duration, tm time, PRIMARY KEY (k, c)) WITH CLUSTERING ORDER BY (c DESC);
    CREATE TABLE stamped (k timestamp PRIMARY KEY, v int);";

/// Columns of each table, and constants each may be given: some fit the
/// column, some fit another type, some are malformed, so the general
/// path's errors are compared too.
/// A column's name and the constants it may be given.
type Column = (&'static str, &'static [&'static str]);

const TABLES: &[(&str, &[Column])] = &[
    (
        "readings",
        &[
            (
                "s",
                &["'s1'", "'s2'", "''", "'it''s'", "$$s1$$", "1", "null"],
            ),
            (
                "day",
                &[
                    "'2025-06-01'",
                    "'2025-06-02'",
                    "20000",
                    "'2025-13-01'",
                    "''",
                    "null",
                ],
            ),
            (
                "ts",
                &[
                    "'2025-06-01 00:00:00.000000+0000'",
                    "1748736000000",
                    "'2025-06-01T10:00Z'",
                    "'x'",
                    "null",
                    "1.5",
                ],
            ),
            (
                "t",
                &["21.5", "-3", "NaN", "'warm'", "null", "1e308", "-Infinity"],
            ),
            (
                "n",
                &[
                    "7",
                    "-9223372036854775808",
                    "9223372036854775808",
                    "7.0",
                    "null",
                ],
            ),
            ("a", &["'plain'", "'caf\u{e9}'", "null", "''"]),
            ("b", &["0xcafe", "0x", "0xABC", "'cafe'", "null"]),
        ],
    ),
    (
        "mixed",
        &[
            ("k", &["1", "2", "-0", "2147483648", "'1'", "null"]),
            ("c", &["'a'", "'b'", "''", "null", "$$a$$"]),
            ("i", &["'127.0.0.1'", "'::1'", "'300.1.1.1'", "null"]),
            (
                "u",
                &[
                    "123e4567-e89b-12d3-a456-426614174000",
                    "'123e4567-e89b-12d3-a456-426614174000'",
                    "0xcafe",
                ],
            ),
            ("f", &["1.5", "3", "3.5e39", "null"]),
            ("v", &["123456789012345678901234567890", "-1", "1.5"]),
            ("d", &["1.50", "-0.0", "12345678901234567890.5", "'x'"]),
            ("o", &["true", "FALSE", "'true'", "1"]),
            ("du", &["1h30m", "P1D", "-2d", "5", "'1h'"]),
            (
                "tm",
                &["'10:00:00'", "36000000000000", "'25:00:00'", "null"],
            ),
        ],
    ),
    (
        "stamped",
        &[
            ("k", &["0", "'2025-06-01'", "1748736000000", "''"]),
            ("v", &["1", "2", "null"]),
        ],
    ),
];

/// Statements mixed in between INSERTs: each may make compiled shapes
/// stale or change what an INSERT writes over.
const OTHERS: &[&str] = &[
    "ALTER TABLE readings ADD extra int",
    "ALTER TABLE readings DROP a",
    "ALTER TABLE readings ADD a ascii",
    "USE other",
    "USE ks",
    "DELETE FROM readings WHERE s = 's1' AND day = '2025-06-01'",
    "DELETE FROM mixed WHERE k = 1 AND c < 'b'",
    "UPDATE mixed SET o = true WHERE k = 2 AND c = 'a'",
    "CREATE INDEX IF NOT EXISTS ON mixed (o)",
    "DROP INDEX IF EXISTS mixed_o_idx",
    "CREATE MATERIALIZED VIEW IF NOT EXISTS by_n AS SELECT * FROM readings WHERE n IS NOT NULL AND s IS NOT NULL AND day IS NOT NULL AND ts IS NOT NULL PRIMARY KEY (n, s, day, ts)",
    "DROP MATERIALIZED VIEW IF EXISTS by_n",
    "TRUNCATE readings",
];

fn session() -> (Session, ManualClock) {
    let clock = ManualClock::at_micros(START);
    let mut s = Session::with_sources(Arc::new(clock.clone()), Box::new(SeededIds::new(5)));
    s.execute_script(SCHEMA).expect("schema");
    (s, clock)
}

/// A small deterministic generator, so that one seed gives one choice.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) as usize) % n
    }

    /// An index into `pool`: mostly one of its first two constants, which
    /// fit, so that partitions repeat and whole statements convert.
    fn constant(&mut self, pool: &[&str], fitting: usize) -> usize {
        if self.below(fitting) > 0 {
            self.below(2.min(pool.len()))
        } else {
            self.below(pool.len())
        }
    }
}

/// A run of INSERTs of one shape into one partition (as loads arrive),
/// differing in their other constants. `shape` picks the table's columns,
/// their order, the text's style and the key; each of `values` the rest.
fn insert_run() -> impl Strategy<Value = Vec<String>> {
    (
        0..TABLES.len(),
        any::<u64>(),
        0u8..4,
        prop::collection::vec(any::<u64>(), 1..6),
    )
        .prop_map(|(t, shape, style, values)| {
            let (table, columns) = TABLES[t];
            let mut pick = Lcg(shape);
            // Two thirds of the runs write every column in the order
            // declared; the rest a shuffled subset.
            let every = pick.below(3) > 0;
            let mut chosen: Vec<(usize, Option<usize>)> = Vec::new();
            for (i, (_, pool)) in columns.iter().enumerate() {
                // Key columns (the first three or two) are nearly always there.
                let key = i < 3;
                if every || pick.below(10) < if key { 9 } else { 6 } {
                    chosen.push((i, key.then(|| pick.constant(pool, 4))));
                }
            }
            if chosen.is_empty() {
                chosen.push((0, Some(0)));
            }
            if !every {
                for i in (1..chosen.len()).rev() {
                    let j = pick.below(i + 1);
                    chosen.swap(i, j);
                }
            }
            let names: Vec<&str> = chosen.iter().map(|&(i, _)| columns[i].0).collect();
            values
                .into_iter()
                .map(|seed| {
                    let mut pick = Lcg(seed);
                    let values: Vec<&str> = chosen
                        .iter()
                        .map(|&(i, at)| {
                            let pool = columns[i].1;
                            pool[at.unwrap_or_else(|| pick.constant(pool, 8))]
                        })
                        .collect();
                    insert_text(table, &names, &values, style)
                })
                .collect()
        })
}

fn insert_text(table: &str, names: &[&str], values: &[&str], style: u8) -> String {
    match style {
        0 => format!(
            "INSERT INTO {table} ({}) VALUES ({})",
            names.join(", "),
            values.join(", ")
        ),
        1 => format!(
            "insert into ks.{table}({})values({});",
            names.join(","),
            values.join(",")
        ),
        2 => format!(
            "INSERT  INTO \"{table}\" ({})\n VALUES ({}) ;;",
            names.join(" , "),
            values.join(" , ")
        ),
        _ => format!(
            "INSERT INTO {table} ({}) VALUES ({})",
            names.join(", "),
            values.join(", ")
        ),
    }
}

fn statements() -> impl Strategy<Value = Vec<String>> {
    prop_oneof![
        8 => insert_run(),
        1 => (0..OTHERS.len()).prop_map(|i| vec![OTHERS[i].to_string()]),
    ]
}

/// Every table's rows, write times and TTLs, and its storage, agree.
fn same_contents(a: &mut Session, b: &mut Session, after: &str) {
    for (keyspace, table) in [
        ("ks", "readings"),
        ("other", "readings"),
        ("ks", "mixed"),
        ("ks", "stamped"),
    ] {
        let q = format!("SELECT * FROM {keyspace}.{table}");
        let x = a.execute(&q).map(|r| r.rows);
        let y = b.execute(&q).map(|r| r.rows);
        assert_eq!(x.is_ok(), y.is_ok(), "{q}, after {after}");
        if let (Ok(x), Ok(y)) = (x, y) {
            assert_eq!(x, y, "{q}, after {after}");
        }
        assert_eq!(
            a.store().table_in(keyspace, table),
            b.store().table_in(keyspace, table),
            "storage of {keyspace}.{table}, after {after}"
        );
    }
}

/// Runs `statements` through `execute` in one session and through the
/// general path (parse, then `execute_statement`) in another.
fn agree(statements: &[String]) {
    let (mut a, clock_a) = session();
    let (mut b, clock_b) = session();
    for text in statements {
        let x = a.execute(text);
        let y = widerow::parse_statement(text).and_then(|s| b.execute_statement(&s));
        match (&x, &y) {
            (Ok(x), Ok(y)) => assert_eq!(x, y, "{text}"),
            (Err(x), Err(y)) => {
                assert_eq!(x.kind(), y.kind(), "{text}");
                assert_eq!(x.message(), y.message(), "{text}");
            }
            _ => panic!("{text}: by shape {x:?}, general path {y:?}"),
        }
        same_contents(&mut a, &mut b, text);
        clock_a.advance_secs(1);
        clock_b.advance_secs(1);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn text_inserts_agree_with_the_general_path(
        runs in prop::collection::vec(statements(), 1..20)
    ) {
        agree(&runs.concat());
    }
}

/// A fixed run that passes through every way the shape path is taken or
/// declined: first sight of a shape, a repeated partition, a new
/// partition, a stale shape after a schema change, a view, a clock key.
#[test]
fn a_load_agrees_with_the_general_path() {
    let mut statements = Vec::new();
    for day in ["'2025-06-01'", "'2025-06-02'"] {
        for ts in 0..5 {
            statements.push(format!(
                "INSERT INTO readings (s, day, ts, t, n) VALUES ('s1', {day}, {ts}, {ts}.5, {ts})"
            ));
        }
    }
    statements.push("ALTER TABLE readings ADD extra int".into());
    statements.push(
        "INSERT INTO readings (s, day, ts, t, n) VALUES ('s1', '2025-06-02', 9, 0.5, 1)".into(),
    );
    statements.push(
        "INSERT INTO readings (s, day, ts, t, n) VALUES ('s1', '2025-06-02', 10, 'x', 1)".into(),
    );
    statements.push(
        "INSERT INTO readings (s, day, ts, t, n) VALUES ('s1', '2025-06-02', 11, 1, 1)".into(),
    );
    statements.push(OTHERS[10].into());
    statements.push(
        "INSERT INTO readings (s, day, ts, t, n) VALUES ('s1', '2025-06-02', 12, 1, 1)".into(),
    );
    agree(&statements);
}

/// A key written as `'now'` is the clock's time when the statement runs:
/// each statement's plan must carry its own token, never a kept one.
#[test]
fn a_key_read_from_the_clock_is_planned_each_time() {
    let (mut s, _) = session();
    let mut tokens = Vec::new();
    for v in 0..3 {
        let result = s
            .execute(&format!("INSERT INTO stamped (k, v) VALUES ('now', {v})"))
            .expect("insert");
        let plan = result.plan.expect("plan");
        let widerow::planner::Partitions::Keys { partitions } = &plan.partitions else {
            panic!("{plan:?}");
        };
        tokens.push(partitions[0].token);
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    tokens.dedup();
    assert_eq!(tokens.len(), 3, "{tokens:?}");
}
