//! A filtering scan on regular columns tests rows straight from their
//! cells; adding a relation only the general per-row test reads (`k > …`,
//! true of every row) must not change what it returns or what it reports
//! (bar the aggregation warning, which a partition key relation silences) —
//! over range, row, cell and partition deletions, expired TTLs, nulls,
//! NaN and −0.0, statics and limits.

use std::sync::Arc;

use widerow::session::{ManualClock, SeededIds, Session};

fn session() -> Session {
    let clock = ManualClock::at_micros(1_748_736_000_000_000);
    let mut s = Session::with_sources(Arc::new(clock.clone()), Box::new(SeededIds::new(7)));
    s.execute_script(
        "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
         USE ks;
         CREATE TABLE t (k int, c int, v double, w int, s int static, PRIMARY KEY (k, c));
         INSERT INTO t (k, c, v, w) VALUES (1, 0, 0.0, 0);
         INSERT INTO t (k, c, v, w) VALUES (1, 1, -0.0, 1);
         INSERT INTO t (k, c, v, w) VALUES (1, 2, NaN, 2);
         INSERT INTO t (k, c, v, w) VALUES (1, 3, 3.5, 3);
         INSERT INTO t (k, c, v, w) VALUES (1, 4, -Infinity, 4);
         INSERT INTO t (k, c, v, w) VALUES (1, 5, 7.25, 5);
         INSERT INTO t (k, c) VALUES (1, 6);
         INSERT INTO t (k, c, v, w) VALUES (2, 0, 1.0, 9) USING TIMESTAMP 10;
         INSERT INTO t (k, c, v, w) VALUES (2, 3, 4.0, 9) USING TIMESTAMP 10;
         INSERT INTO t (k, c, v, w) VALUES (2, 4, 5.0, 9) USING TIMESTAMP 10;
         INSERT INTO t (k, c, v, w) VALUES (2, 7, 6.0, 9) USING TIMESTAMP 10;
         DELETE FROM t USING TIMESTAMP 20 WHERE k = 2 AND c > 2 AND c < 6;
         INSERT INTO t (k, c, v, w) VALUES (2, 4, 8.0, 1) USING TIMESTAMP 15;
         UPDATE t USING TIMESTAMP 30 SET v = 2.0 WHERE k = 2 AND c = 5;
         INSERT INTO t (k, c, v, w) VALUES (3, 1, 5.0, 5);
         INSERT INTO t (k, c, v, w) VALUES (3, 2, 6.0, 6);
         DELETE FROM t WHERE k = 3 AND c = 1;
         DELETE v FROM t WHERE k = 3 AND c = 2;
         UPDATE t SET v = 9.0 WHERE k = 3 AND c = 3;
         UPDATE t USING TTL 5 SET v = 9.0 WHERE k = 4 AND c = 0;
         INSERT INTO t (k, c, v, w) VALUES (4, 1, 9.0, 1) USING TTL 5;
         INSERT INTO t (k, c, w) VALUES (4, 2, 2);
         UPDATE t USING TTL 5 SET v = 9.0 WHERE k = 4 AND c = 2;
         UPDATE t USING TTL 50 SET v = 9.5 WHERE k = 4 AND c = 3;
         UPDATE t SET w = 3 WHERE k = 4 AND c = 4;
         UPDATE t USING TTL 5 SET v = 1.0 WHERE k = 4 AND c = 4;
         INSERT INTO t (k, s) VALUES (5, 1);
         INSERT INTO t (k, c, v, w, s) VALUES (6, 0, 4.0, 4, 4) USING TIMESTAMP 10;
         DELETE FROM t USING TIMESTAMP 20 WHERE k = 6;
         INSERT INTO t (k, c, v) VALUES (6, 1, 5.0) USING TIMESTAMP 15;
         INSERT INTO t (k, c, v) VALUES (6, 2, 6.0) USING TIMESTAMP 25;
         INSERT INTO t (k, c, v, w, s) VALUES (7, 0, 1.0, 1, 7);",
    )
    .expect("schema and data");
    clock.advance_secs(10);
    s
}

#[test]
fn a_cell_filter_answers_as_the_general_row_test_does() {
    let mut s = session();
    let filters = [
        "v > 2",
        "v >= 0.0",
        "v > -0.0",
        "v <= -0.0",
        "v < 5",
        "v = NaN",
        "v < NaN",
        "v >= -Infinity",
        "v = 9.0",
        "v > 1 AND w < 5",
        "w >= 2",
        "w < 9 AND v > 0",
    ];
    let shapes = [
        ("SELECT k, c, v, w, s FROM t WHERE ", ""),
        ("SELECT k, c, v FROM t WHERE ", " LIMIT 3"),
        ("SELECT k, c, v FROM t WHERE ", " PER PARTITION LIMIT 1"),
        ("SELECT count(*), max(v) FROM t WHERE ", ""),
        ("SELECT k, c, v FROM t WHERE k = 1 AND ", " ORDER BY c DESC"),
        ("SELECT k, c, v FROM t WHERE k = 2 AND c > 0 AND ", ""),
        ("SELECT DISTINCT k, s FROM t WHERE ", ""),
    ];
    let mut compared = 0;
    for filter in filters {
        for (head, tail) in shapes {
            let fast = s.execute(&format!("{head}{filter}{tail} ALLOW FILTERING"));
            let general = s.execute(&format!(
                "{head}{filter} AND k > -1000{tail} ALLOW FILTERING"
            ));
            let (fast, general) = match (fast, general) {
                (Ok(f), Ok(g)) => (f, g),
                (Err(_), _) | (_, Err(_)) => continue,
            };
            let seen = |r: &widerow::ResultSet| {
                (
                    format!("{:?}", r.rows),
                    r.metrics.partitions_touched,
                    r.metrics.rows_scanned,
                    r.metrics.rows_returned,
                )
            };
            assert_eq!(seen(&fast), seen(&general), "{head}{filter}{tail}");
            compared += 1;
        }
    }
    assert!(compared >= 40, "only {compared} queries ran");
}

#[test]
fn a_cell_filter_sees_deletions_and_expiry() {
    let mut s = session();
    let r = s
        .execute("SELECT k, c FROM t WHERE v > 0 ALLOW FILTERING")
        .unwrap();
    let keys = format!("{:?}", r.rows);
    for gone in [
        "Int(2), Int(3)",
        "Int(2), Int(4)",
        "Int(3), Int(1)",
        "Int(3), Int(2)",
    ] {
        assert!(!keys.contains(gone), "{gone} in {keys}");
    }
    assert!(!keys.contains("Int(4), Int(0)"), "expired: {keys}");
    assert!(keys.contains("Int(4), Int(3)"), "still live: {keys}");
    assert!(
        keys.contains("Int(6), Int(2)"),
        "written after the deletion: {keys}"
    );
    assert!(!keys.contains("Int(6), Int(1)"), "shadowed: {keys}");
}
