//! Prepared reads of one partition take a compiled path (`exec::compiled`);
//! each must answer exactly as the same read written as text, which takes
//! the general one — rows, order, metrics, warnings and errors alike.

use std::sync::Arc;

use widerow::session::{ManualClock, SeededIds, Session};
use widerow::types::Value;

const START: i64 = 1_748_736_000_000_000;

fn session() -> (Session, ManualClock) {
    let clock = ManualClock::at_micros(START);
    let mut s = Session::with_sources(Arc::new(clock.clone()), Box::new(SeededIds::new(3)))
        .with_settings(widerow::schema::SchemaSettings::permissive());
    s.execute_script(
        "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
         USE ks;
         CREATE TABLE t (k text, b int, c1 int, c2 text, v int, a ascii, tags set<text>,
             PRIMARY KEY ((k, b), c1, c2)) WITH CLUSTERING ORDER BY (c1 DESC, c2 ASC);
         CREATE TABLE one (k int PRIMARY KEY, v text);
         CREATE TABLE packed (k int, c timestamp, v int, d double, w text, PRIMARY KEY (k, c));
         INSERT INTO packed (k, c, v, d, w) VALUES (1, 1, 10, 1.5, 'a');
         INSERT INTO packed (k, c, v, d) VALUES (1, 2, 20, -0.0) USING TTL 10;
         INSERT INTO packed (k, c, v) VALUES (1, 3, 30) USING TTL 100;
         INSERT INTO packed (k, c, d) VALUES (1, 4, NaN);
         INSERT INTO packed (k, c, v, d, w) VALUES (1, 5, 50, 5.0, 'e');
         UPDATE packed SET v = 51 WHERE k = 1 AND c = 5;
         UPDATE packed SET w = 'f' WHERE k = 1 AND c = 6;
         INSERT INTO packed (k, c) VALUES (1, 7);
         CREATE MATERIALIZED VIEW by_v AS SELECT * FROM t
             WHERE v IS NOT NULL AND k IS NOT NULL AND b IS NOT NULL AND c1 IS NOT NULL AND c2 IS NOT NULL
             PRIMARY KEY ((v), k, b, c1, c2);
         INSERT INTO one (k, v) VALUES (1, 'x');",
    )
    .expect("schema");
    for c1 in 0..6 {
        for c2 in ["a", "b", "c"] {
            let ttl = if c1 == 2 { " USING TTL 10" } else { "" };
            s.execute(&format!(
                "INSERT INTO t (k, b, c1, c2, v, a, tags) VALUES ('p', 1, {c1}, '{c2}', {}, 'x{c1}', {{'{c2}'}}){ttl}",
                c1 % 3
            ))
            .expect("insert");
        }
    }
    s.execute_script(
        "DELETE FROM t WHERE k = 'p' AND b = 1 AND c1 = 4 AND c2 = 'b';
         DELETE FROM t WHERE k = 'p' AND b = 1 AND c1 = 1;
         UPDATE t SET v = null WHERE k = 'p' AND b = 1 AND c1 = 5 AND c2 = 'c';
         INSERT INTO t (k, b, c1, c2) VALUES ('q', 1, 0, '');",
    )
    .expect("deletes");
    clock.advance_secs(11);
    (s, clock)
}

/// Runs `prepared` with `values`, and `text` (the same read, values
/// written in), and checks they agree.
fn agree(s: &mut Session, prepared: &str, values: &[Value], text: &str) {
    let p = s.prepare(prepared).expect("prepare");
    let compiled = s.execute_prepared(&p, values);
    let general = s.execute(text);
    match (compiled, general) {
        (Ok(a), Ok(b)) => {
            assert_eq!(a.columns, b.columns, "{text}");
            assert_eq!(a.rows, b.rows, "{text}");
            // The nodes are left out: a plan made with `?` markers cannot
            // name the replicas of a key it has not seen.
            let cost = |m: &widerow::exec::Metrics| {
                (m.partitions_touched, m.rows_scanned, m.rows_returned)
            };
            assert_eq!(cost(&a.metrics), cost(&b.metrics), "{text}");
            assert_eq!(a.warnings, b.warnings, "{text}");
            assert_eq!(a.class, b.class, "{text}");
        }
        (Err(a), Err(b)) => assert_eq!(a.message(), b.message(), "{text}"),
        (a, b) => panic!("{text}: prepared gave {a:?}, text gave {b:?}"),
    }
}

fn text(s: &str) -> Value {
    Value::Text(s.into())
}

#[test]
fn point_lookups_agree() {
    let (mut s, _) = session();
    let q = "SELECT c1, c2, v, a, tags FROM t WHERE k = ? AND b = ? AND c1 = ? AND c2 = ?";
    for (c1, c2) in [
        (0, "a"),
        (2, "a"),
        (4, "b"),
        (4, "c"),
        (1, "a"),
        (5, "c"),
        (9, "a"),
    ] {
        agree(
            &mut s,
            q,
            &[text("p"), Value::Int(1), Value::Int(c1), text(c2)],
            &format!("SELECT c1, c2, v, a, tags FROM t WHERE k = 'p' AND b = 1 AND c1 = {c1} AND c2 = '{c2}'"),
        );
    }
    agree(
        &mut s,
        "SELECT * FROM one WHERE k = ?",
        &[Value::Int(1)],
        "SELECT * FROM one WHERE k = 1",
    );
    agree(
        &mut s,
        "SELECT k AS key, v FROM one WHERE k = ?",
        &[Value::Int(2)],
        "SELECT k AS key, v FROM one WHERE k = 2",
    );
}

#[test]
fn slices_agree_in_both_directions_and_with_limits() {
    let (mut s, _) = session();
    let cases: &[(&str, Vec<Value>, &str)] = &[
        (
            "SELECT * FROM t WHERE k = ? AND b = ?",
            vec![text("p"), Value::Int(1)],
            "SELECT * FROM t WHERE k = 'p' AND b = 1",
        ),
        (
            "SELECT c1, c2 FROM t WHERE k = ? AND b = ? AND c1 > ? AND c1 <= ?",
            vec![text("p"), Value::Int(1), Value::Int(1), Value::Int(4)],
            "SELECT c1, c2 FROM t WHERE k = 'p' AND b = 1 AND c1 > 1 AND c1 <= 4",
        ),
        (
            "SELECT c1, c2 FROM t WHERE k = ? AND b = ? AND c1 >= ? ORDER BY c1 ASC LIMIT ?",
            vec![text("p"), Value::Int(1), Value::Int(2), Value::Int(4)],
            "SELECT c1, c2 FROM t WHERE k = 'p' AND b = 1 AND c1 >= 2 ORDER BY c1 ASC LIMIT 4",
        ),
        (
            "SELECT c2, v FROM t WHERE k = ? AND b = ? AND c1 = ? AND c2 > ? LIMIT 1",
            vec![text("p"), Value::Int(1), Value::Int(3), text("a")],
            "SELECT c2, v FROM t WHERE k = 'p' AND b = 1 AND c1 = 3 AND c2 > 'a' LIMIT 1",
        ),
        (
            "SELECT c1 FROM t WHERE k = ? AND b = ? AND c1 > ? AND c1 < ?",
            vec![text("p"), Value::Int(1), Value::Int(4), Value::Int(2)],
            "SELECT c1 FROM t WHERE k = 'p' AND b = 1 AND c1 > 4 AND c1 < 2",
        ),
        (
            "SELECT k, b, c1, c2 FROM by_v WHERE v = ?",
            vec![Value::Int(0)],
            "SELECT k, b, c1, c2 FROM by_v WHERE v = 0",
        ),
        (
            "SELECT c2 FROM t WHERE k = ? AND b = ?",
            vec![text("q"), Value::Int(1)],
            "SELECT c2 FROM t WHERE k = 'q' AND b = 1",
        ),
    ];
    for (prepared, values, written) in cases {
        agree(&mut s, prepared, values, written);
    }
}

/// Rows written by one INSERT are kept packed; expired, updated and
/// marker-only rows beside them are read the same way by both paths.
#[test]
fn packed_rows_agree() {
    let (mut s, _) = session();
    agree(
        &mut s,
        "SELECT c, v, d, w, k FROM packed WHERE k = ?",
        &[Value::Int(1)],
        "SELECT c, v, d, w, k FROM packed WHERE k = 1",
    );
    agree(
        &mut s,
        "SELECT w, d FROM packed WHERE k = ? AND c >= ? AND c < ? ORDER BY c DESC",
        &[Value::Int(1), Value::Timestamp(2), Value::Timestamp(7)],
        "SELECT w, d FROM packed WHERE k = 1 AND c >= 2 AND c < 7 ORDER BY c DESC",
    );
    for c in 1..=8 {
        agree(
            &mut s,
            "SELECT * FROM packed WHERE k = ? AND c = ?",
            &[Value::Int(1), Value::Timestamp(c)],
            &format!("SELECT * FROM packed WHERE k = 1 AND c = {c}"),
        );
    }
}

#[test]
fn unusual_values_get_the_general_paths_answer() {
    let (mut s, _) = session();
    let q = "SELECT v FROM t WHERE k = ? AND b = ? AND c1 = ? AND c2 = ?";
    let p = s.prepare(q).unwrap();
    let null = s
        .execute_prepared(&p, &[Value::Null, Value::Int(1), Value::Int(0), text("a")])
        .unwrap_err();
    assert_eq!(
        null.message(),
        "Invalid null value in condition for column k"
    );
    let mistyped = s
        .execute_prepared(&p, &[text("p"), text("1"), Value::Int(0), text("a")])
        .unwrap_err();
    assert_eq!(
        mistyped.message(),
        "Invalid value for column b: expected a value of type int"
    );
    let limit = s
        .prepare("SELECT v FROM t WHERE k = ? AND b = ? LIMIT ?")
        .unwrap();
    let zero = s
        .execute_prepared(&limit, &[text("p"), Value::Int(1), Value::Int(0)])
        .unwrap_err();
    assert_eq!(zero.message(), "LIMIT must be strictly positive");
    let empty = s.prepare("SELECT v FROM one WHERE k = ?").unwrap();
    let found = s.execute_prepared(&empty, &[Value::Empty]);
    let written = s.execute("SELECT v FROM one WHERE k = blobAsInt(0x)");
    assert_eq!(
        found.map(|r| r.rows).map_err(|e| e.message().to_string()),
        written.map(|r| r.rows).map_err(|e| e.message().to_string())
    );
    // An ascii column bound with a text value holding only ASCII reads as
    // the general path converts it.
    agree(
        &mut s,
        "SELECT c1 FROM t WHERE k = ? AND b = ? AND c1 = ? AND c2 = ?",
        &[
            Value::Ascii("p".into()),
            Value::Int(1),
            Value::Int(0),
            Value::Ascii("a".into()),
        ],
        "SELECT c1 FROM t WHERE k = 'p' AND b = 1 AND c1 = 0 AND c2 = 'a'",
    );
}

/// A prepared read run before and after its table's columns change reads
/// the columns as they are: a column dropped and added again is empty, and
/// a new column is read from its own storage.
#[test]
fn a_prepared_read_follows_its_tables_columns() {
    let (mut s, _) = session();
    let read = "SELECT k, c, v, w FROM packed WHERE k = ? AND c = ?";
    let values = [Value::Int(1), Value::Timestamp(1)];
    let p = s.prepare(read).expect("prepare");
    let before = s.execute_prepared(&p, &values).expect("read");
    assert_eq!(before.rows[0][2], Value::Int(10));
    s.execute_script(
        "ALTER TABLE packed DROP v;
         ALTER TABLE packed ADD v int;
         ALTER TABLE packed ADD x int;
         INSERT INTO packed (k, c, x) VALUES (1, 1, 7);",
    )
    .expect("alter");
    let after = s.execute_prepared(&p, &values).expect("read");
    assert_eq!(after.rows[0][2], Value::Null);
    assert_eq!(after.rows[0][3], Value::Text("a".into()));
    agree(
        &mut s,
        read,
        &values,
        "SELECT k, c, v, w FROM packed WHERE k = 1 AND c = 1",
    );
    let with_x = "SELECT x, v FROM packed WHERE k = ? AND c = ?";
    agree(
        &mut s,
        with_x,
        &values,
        "SELECT x, v FROM packed WHERE k = 1 AND c = 1",
    );
    let p = s.prepare(with_x).expect("prepare");
    let got = s.execute_prepared(&p, &values).expect("read");
    assert_eq!(got.rows[0][0], Value::Int(7));
}
