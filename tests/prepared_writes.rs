//! Prepared INSERTs of bind values take a compiled path
//! (`exec::compiled_insert`); each must leave storage exactly as the same
//! INSERT written as text and run through the general path — cells, write
//! times, TTLs, results and errors alike, statement after statement.

use std::sync::Arc;

use widerow::exec::ResultSet;
use widerow::session::{ManualClock, SeededIds, Session};
use widerow::types::Value;

const START: i64 = 1_748_736_000_000_000;

const SCHEMA: &str = "
    CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
    USE ks;
    CREATE TABLE single (k int PRIMARY KEY, v text, d double);
    CREATE TABLE readings (s text, day date, ts timestamp, t double, n bigint,
        PRIMARY KEY ((s, day), ts));
    CREATE TABLE ordered (k text, c1 int, c2 ascii, a ascii, f frozen<list<int>>,
        PRIMARY KEY (k, c1, c2)) WITH CLUSTERING ORDER BY (c1 DESC, c2 ASC);
    CREATE TABLE expiring (k int PRIMARY KEY, v int) WITH default_time_to_live = 100;
    CREATE TABLE stat (k int, c int, s int static, v int, PRIMARY KEY (k, c));
    CREATE TABLE tagged (k int PRIMARY KEY, tags set<text>);
    CREATE TABLE viewed (k int, c int, v int, PRIMARY KEY (k, c));
    CREATE MATERIALIZED VIEW by_v AS SELECT * FROM viewed
        WHERE v IS NOT NULL AND k IS NOT NULL AND c IS NOT NULL PRIMARY KEY (v, k, c);";

/// Every table and view, with the regular columns whose write time and TTL
/// are compared.
const TABLES: &[(&str, &[&str])] = &[
    ("single", &["v", "d"]),
    ("readings", &["t", "n"]),
    ("ordered", &["a", "f"]),
    ("expiring", &["v"]),
    ("stat", &["s", "v"]),
    ("tagged", &[]),
    ("viewed", &["v"]),
    ("by_v", &[]),
];

/// A session and its clock; two made alike stay alike under the same
/// statements, timestamps included.
fn session() -> (Session, ManualClock) {
    let clock = ManualClock::at_micros(START);
    let mut s = Session::with_sources(Arc::new(clock.clone()), Box::new(SeededIds::new(5)))
        .with_settings(widerow::schema::SchemaSettings::permissive());
    s.execute_script(SCHEMA).expect("schema");
    (s, clock)
}

/// One INSERT: prepared with values, and the same written as text.
struct Step {
    prepared: &'static str,
    values: Vec<Value>,
    text: String,
}

fn step(prepared: &'static str, values: Vec<Value>, text: impl Into<String>) -> Step {
    Step {
        prepared,
        values,
        text: text.into(),
    }
}

fn text(s: &str) -> Value {
    Value::Text(s.into())
}

/// Checks the two results of one step agree; the compiled result's plan
/// and nodes must be the prepared statement's own plan.
fn same_result(
    step: &Step,
    prepared: &Session,
    a: Result<ResultSet, String>,
    b: Result<ResultSet, String>,
) {
    let what = &step.text;
    match (a, b) {
        (Ok(a), Ok(b)) => {
            assert_eq!(a.kind, b.kind, "{what}");
            assert_eq!(a.class, b.class, "{what}");
            assert_eq!(a.columns, b.columns, "{what}");
            assert_eq!(a.rows, b.rows, "{what}");
            assert_eq!(a.warnings, b.warnings, "{what}");
            let cost = |m: &widerow::exec::Metrics| {
                (m.partitions_touched, m.rows_scanned, m.rows_returned)
            };
            assert_eq!(cost(&a.metrics), cost(&b.metrics), "{what}");
            let plan = prepared.plan(step.prepared).expect("plan");
            assert_eq!(a.plan.as_deref(), Some(&plan), "{what}");
            assert_eq!(a.nodes_contacted(), &*plan.nodes, "{what}");
        }
        (Err(a), Err(b)) => assert_eq!(a, b, "{what}"),
        (a, b) => panic!("{what}: prepared gave {a:?}, text gave {b:?}"),
    }
}

/// Every table's rows, write times and TTLs, and its storage, agree.
fn same_contents(a: &mut Session, b: &mut Session, after: &str) {
    for (table, columns) in TABLES {
        let mut queries = vec![format!("SELECT * FROM {table}")];
        for c in *columns {
            queries.push(format!("SELECT writetime({c}), ttl({c}) FROM {table}"));
        }
        for q in queries {
            let x = a.execute(&q).expect("select").rows;
            let y = b.execute(&q).expect("select").rows;
            assert_eq!(x, y, "{q}, after {after}");
        }
        assert_eq!(
            a.store().table_in("ks", table),
            b.store().table_in("ks", table),
            "storage of {table}, after {after}"
        );
    }
}

/// Runs every step prepared in one session and as text in another, the
/// clocks moving alike, and compares after each.
fn run(steps: &[Step]) {
    let (mut a, clock_a) = session();
    let (mut b, clock_b) = session();
    for step in steps {
        let p = a.prepare(step.prepared).expect("prepare");
        let x = a
            .execute_prepared(&p, &step.values)
            .map_err(|e| e.message().to_string());
        // Through the general path: `execute` would run a text INSERT of
        // constants through its shape's compiled INSERT too.
        let y = widerow::parse_statement(&step.text)
            .and_then(|s| b.execute_statement(&s))
            .map_err(|e| e.message().to_string());
        same_result(step, &a, x, y);
        same_contents(&mut a, &mut b, &step.text);
        clock_a.advance_secs(7);
        clock_b.advance_secs(7);
    }
}

const SINGLE: &str = "INSERT INTO single (k, v, d) VALUES (?, ?, ?)";
const READINGS: &str = "INSERT INTO readings (s, day, ts, t, n) VALUES (?, ?, ?, ?, ?)";
const ORDERED: &str = "INSERT INTO ordered (c2, k, a, c1, f) VALUES (?, ?, ?, ?, ?)";

#[test]
fn plain_inserts_agree() {
    run(&[
        step(
            SINGLE,
            vec![Value::Int(1), text("a"), Value::Double(1.5)],
            "INSERT INTO single (k, v, d) VALUES (1, 'a', 1.5)",
        ),
        step(
            SINGLE,
            vec![Value::Int(2), text("b"), Value::Double(2.5)],
            "INSERT INTO single (k, v, d) VALUES (2, 'b', 2.5)",
        ),
        // An overwrite, a null (a tombstone) and an ascii value for text.
        step(
            SINGLE,
            vec![Value::Int(1), Value::Ascii("c".into()), Value::Null],
            "INSERT INTO single (k, v, d) VALUES (1, 'c', null)",
        ),
        step(
            "INSERT INTO single (k) VALUES (?)",
            vec![Value::Int(3)],
            "INSERT INTO single (k) VALUES (3)",
        ),
        step(
            "INSERT INTO single (d, k) VALUES (:d, :k)",
            vec![Value::Float(0.5), Value::Int(4)],
            "INSERT INTO single (d, k) VALUES (0.5, 4)",
        ),
    ]);
}

#[test]
fn composite_keys_and_conversions_agree() {
    let day = |d: i32| Value::date_from_days(d);
    run(&[
        step(
            READINGS,
            vec![
                text("s1"),
                day(20_000),
                Value::Timestamp(1_000),
                Value::Double(20.5),
                Value::Bigint(7),
            ],
            "INSERT INTO readings (s, day, ts, t, n) VALUES ('s1', '2024-10-04', 1000, 20.5, 7)",
        ),
        step(
            READINGS,
            vec![
                text("s1"),
                day(20_000),
                Value::Timestamp(2_000),
                Value::Double(21.5),
                Value::Int(8),
            ],
            "INSERT INTO readings (s, day, ts, t, n) VALUES ('s1', '2024-10-04', 2000, 21.5, 8)",
        ),
        step(
            READINGS,
            vec![
                Value::Ascii("s2".into()),
                day(20_001),
                Value::Bigint(1_000),
                Value::Null,
                Value::Int(-1),
            ],
            "INSERT INTO readings (s, day, ts, t, n) VALUES ('s2', '2024-10-05', 1000, null, -1)",
        ),
        step(
            ORDERED,
            vec![
                text("x"),
                text("p"),
                text("ascii"),
                Value::Int(3),
                Value::List(vec![Value::Int(1), Value::Int(2)]),
            ],
            "INSERT INTO ordered (c2, k, a, c1, f) VALUES ('x', 'p', 'ascii', 3, [1, 2])",
        ),
        step(
            ORDERED,
            vec![
                Value::Ascii("y".into()),
                text("p"),
                Value::Ascii("b".into()),
                Value::Int(5),
                Value::Null,
            ],
            "INSERT INTO ordered (c2, k, a, c1, f) VALUES ('y', 'p', 'b', 5, null)",
        ),
        step(
            ORDERED,
            vec![
                text(""),
                text("p"),
                text(""),
                Value::Int(4),
                Value::List(vec![]),
            ],
            "INSERT INTO ordered (c2, k, a, c1, f) VALUES ('', 'p', '', 4, [])",
        ),
    ]);
}

/// New rows written into partitions holding deletions: a row a later
/// deletion shadows is left as the general path leaves it, and a row
/// written after an older deletion is written whole.
#[test]
fn inserts_under_deletions_agree() {
    const LATER: i64 = 1_900_000_000_000_000;
    let day = || Value::date_from_days(20_000);
    let reading = |s: &str, ts: i64| {
        step(
            READINGS,
            vec![text(s), day(), Value::Timestamp(ts), Value::Double(2.5), Value::Bigint(1)],
            format!("INSERT INTO readings (s, day, ts, t, n) VALUES ('{s}', '2024-10-04', {ts}, 2.5, 1)"),
        )
    };
    let delete = |at: i64, s: &str| {
        step(
            "DELETE FROM readings USING TIMESTAMP ? WHERE s = ? AND day = ?",
            vec![Value::Bigint(at), text(s), day()],
            format!(
                "DELETE FROM readings USING TIMESTAMP {at} WHERE s = '{s}' AND day = '2024-10-04'"
            ),
        )
    };
    run(&[
        reading("s1", 1),
        step(
            "DELETE FROM readings USING TIMESTAMP ? WHERE s = ? AND day = ? AND ts > ?",
            vec![Value::Bigint(LATER), text("s1"), day(), Value::Timestamp(5)],
            format!("DELETE FROM readings USING TIMESTAMP {LATER} WHERE s = 's1' AND day = '2024-10-04' AND ts > 5"),
        ),
        reading("s1", 10),
        reading("s1", 3),
        delete(START, "s2"),
        reading("s2", 1),
        delete(LATER, "s3"),
        reading("s3", 1),
    ]);
}

#[test]
fn default_ttl_statics_collections_and_views_agree() {
    run(&[
        step(
            "INSERT INTO expiring (k, v) VALUES (?, ?)",
            vec![Value::Int(1), Value::Int(10)],
            "INSERT INTO expiring (k, v) VALUES (1, 10)",
        ),
        step(
            "INSERT INTO expiring (k, v) VALUES (?, ?)",
            vec![Value::Int(1), Value::Int(11)],
            "INSERT INTO expiring (k, v) VALUES (1, 11)",
        ),
        step(
            "INSERT INTO stat (k, c, s, v) VALUES (?, ?, ?, ?)",
            vec![Value::Int(1), Value::Int(1), Value::Int(9), Value::Int(1)],
            "INSERT INTO stat (k, c, s, v) VALUES (1, 1, 9, 1)",
        ),
        step(
            "INSERT INTO stat (k, s) VALUES (?, ?)",
            vec![Value::Int(2), Value::Int(8)],
            "INSERT INTO stat (k, s) VALUES (2, 8)",
        ),
        step(
            "INSERT INTO stat (k, c, v) VALUES (?, ?, ?)",
            vec![Value::Int(2), Value::Int(1), Value::Int(3)],
            "INSERT INTO stat (k, c, v) VALUES (2, 1, 3)",
        ),
        step(
            "INSERT INTO tagged (k, tags) VALUES (?, ?)",
            vec![Value::Int(1), Value::Set(vec![text("a"), text("b")])],
            "INSERT INTO tagged (k, tags) VALUES (1, {'a', 'b'})",
        ),
        step(
            "INSERT INTO viewed (k, c, v) VALUES (?, ?, ?)",
            vec![Value::Int(1), Value::Int(1), Value::Int(5)],
            "INSERT INTO viewed (k, c, v) VALUES (1, 1, 5)",
        ),
        step(
            "INSERT INTO viewed (k, c, v) VALUES (?, ?, ?)",
            vec![Value::Int(1), Value::Int(1), Value::Int(6)],
            "INSERT INTO viewed (k, c, v) VALUES (1, 1, 6)",
        ),
        step(
            "INSERT INTO single (k, v) VALUES (?, ?) USING TTL ?",
            vec![Value::Int(1), text("t"), Value::Int(50)],
            "INSERT INTO single (k, v) VALUES (1, 't') USING TTL 50",
        ),
        step(
            "INSERT INTO single (k, v) VALUES (?, ?) IF NOT EXISTS",
            vec![Value::Int(1), text("u")],
            "INSERT INTO single (k, v) VALUES (1, 'u') IF NOT EXISTS",
        ),
    ]);
}

#[test]
fn refused_values_get_the_general_paths_error() {
    run(&[
        step(
            SINGLE,
            vec![Value::Int(1), text("a"), Value::Double(1.0)],
            "INSERT INTO single (k, v, d) VALUES (1, 'a', 1.0)",
        ),
        step(
            SINGLE,
            vec![Value::Null, text("a"), Value::Double(1.0)],
            "INSERT INTO single (k, v, d) VALUES (null, 'a', 1.0)",
        ),
        step(
            READINGS,
            vec![
                text("s1"),
                Value::Null,
                Value::Timestamp(1),
                Value::Null,
                Value::Null,
            ],
            "INSERT INTO readings (s, day, ts, t, n) VALUES ('s1', null, 1, null, null)",
        ),
        step(
            READINGS,
            vec![
                text("s1"),
                Value::date_from_days(1),
                Value::Null,
                Value::Null,
                Value::Null,
            ],
            "INSERT INTO readings (s, day, ts, t, n) VALUES ('s1', '1970-01-02', null, null, null)",
        ),
        step(
            ORDERED,
            vec![text("x"), text(""), text("a"), Value::Int(1), Value::Null],
            "INSERT INTO ordered (c2, k, a, c1, f) VALUES ('x', '', 'a', 1, null)",
        ),
        step(
            SINGLE,
            vec![Value::Int(2), text("b"), Value::Double(2.0)],
            "INSERT INTO single (k, v, d) VALUES (2, 'b', 2.0)",
        ),
    ]);
}

/// A mistyped bind value is refused with the bind path's message (text
/// has no equivalent) and changes nothing; each refusal takes one write
/// timestamp, as the general path's does, which the next write's time
/// shows (the clock stands still).
#[test]
fn mistyped_values_are_refused_and_change_nothing() {
    let (mut a, _) = session();
    let (mut b, _) = session();
    let p = a.prepare(SINGLE).expect("prepare");
    for values in [
        vec![text("1"), text("a"), Value::Double(1.0)],
        vec![Value::Int(1), Value::Int(5), Value::Double(1.0)],
        vec![Value::Int(1), text("a"), Value::Bigint(1)],
    ] {
        let error = a.execute_prepared(&p, &values).expect_err("mistyped");
        assert!(
            error.message().starts_with("Invalid value for column"),
            "{}",
            error.message()
        );
    }
    let p2 = a
        .prepare("INSERT INTO ordered (c2, k, a, c1) VALUES (?, ?, ?, ?)")
        .expect("prepare");
    let error = a
        .execute_prepared(&p2, &[text("é"), text("p"), text("a"), Value::Int(1)])
        .expect_err("not ascii");
    assert!(
        error.message().starts_with("Invalid value for column c2"),
        "{}",
        error.message()
    );
    a.execute_prepared(&p, &[Value::Int(1), text("a"), Value::Double(1.0)])
        .expect("insert");
    b.execute("INSERT INTO single (k, v, d) VALUES (1, 'a', 1.0)")
        .expect("insert");
    for table in ["single", "ordered"] {
        let q = format!("SELECT * FROM {table}");
        assert_eq!(
            a.execute(&q).expect("select").rows,
            b.execute(&q).expect("select").rows
        );
    }
    let written = a
        .execute("SELECT writetime(v) FROM single")
        .expect("select")
        .rows;
    assert_eq!(written, vec![vec![Value::Bigint(START + 4)]]);
}
