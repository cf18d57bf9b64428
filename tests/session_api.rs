//! The embedding API: what a test suite that embeds widerow relies on —
//! cheap independent clones, `Send`, injectable time and ids, prepared
//! statements with positional and named markers, metrics and warnings.

use std::sync::Arc;

use widerow::session::{ManualClock, SeededIds, Session};
use widerow::types::Value;
use widerow::{ErrorKind, QueryClass};

const START: i64 = 1_748_736_000_000_000;

fn session() -> (Session, ManualClock) {
    let clock = ManualClock::at_micros(START);
    let mut s = Session::with_sources(Arc::new(clock.clone()), Box::new(SeededIds::new(7)))
        .with_settings(widerow::schema::SchemaSettings::permissive());
    s.execute_script(
        "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
         USE ks;
         CREATE TABLE readings (sensor text, day date, ts timestamp, temp double, PRIMARY KEY ((sensor, day), ts)) WITH CLUSTERING ORDER BY (ts DESC);
         CREATE TABLE kv (k int PRIMARY KEY, v text, id timeuuid, u uuid);",
    )
    .expect("schema");
    (s, clock)
}

#[test]
fn a_session_is_send_and_clones_into_an_independent_copy() {
    fn assert_send<T: Send>(_: &T) {}
    let (mut original, _) = session();
    assert_send(&original);
    original
        .execute("INSERT INTO kv (k, v) VALUES (1, 'shared')")
        .unwrap();
    let mut copy = original.clone();
    copy.execute("INSERT INTO kv (k, v) VALUES (2, 'only in the copy')")
        .unwrap();
    copy.execute("DELETE FROM kv WHERE k = 1").unwrap();
    let count = |s: &mut Session| s.execute("SELECT count(*) FROM kv").unwrap().rows[0][0].clone();
    assert_eq!(count(&mut original), Value::Bigint(1));
    assert_eq!(count(&mut copy), Value::Bigint(1));
    let v = original.execute("SELECT v FROM kv WHERE k = 1").unwrap();
    assert_eq!(v.rows, vec![vec![Value::Text("shared".into())]]);
    // The copy sends to another thread and works there.
    let handle =
        std::thread::spawn(move || copy.execute("SELECT v FROM kv WHERE k = 2").unwrap().rows);
    assert_eq!(
        handle.join().unwrap(),
        vec![vec![Value::Text("only in the copy".into())]]
    );
}

#[test]
fn prepared_statements_bind_positional_named_and_in_markers() {
    let (mut s, _) = session();
    let insert = s
        .prepare("INSERT INTO kv (k, v) VALUES (?, :v) USING TTL ?")
        .unwrap();
    assert_eq!(insert.marker_count(), 3);
    for k in 0..5 {
        s.execute_prepared(
            &insert,
            &[Value::Int(k), Value::Text(format!("v{k}")), Value::Int(60)],
        )
        .unwrap();
    }
    let select = s.prepare("SELECT k, v FROM kv WHERE k IN ?").unwrap();
    let r = s
        .execute_prepared(
            &select,
            &[Value::List(vec![
                Value::Int(3),
                Value::Int(1),
                Value::Int(3),
            ])],
        )
        .unwrap();
    assert_eq!(r.class, Some(QueryClass::MultiPartition));
    assert_eq!(
        r.rows,
        vec![
            vec![Value::Int(1), Value::Text("v1".into())],
            vec![Value::Int(3), Value::Text("v3".into())]
        ]
    );
    let wrong = s.execute_prepared(&select, &[]).unwrap_err();
    assert_eq!(wrong.kind(), ErrorKind::InvalidRequest);
    let bad_type = s.execute_prepared(
        &insert,
        &[Value::Text("x".into()), Value::Null, Value::Int(1)],
    );
    assert!(
        bad_type.is_err(),
        "a text bound to an int column is refused"
    );
}

#[test]
fn the_injected_clock_drives_timestamps_and_expiry() {
    let (mut s, clock) = session();
    s.execute("INSERT INTO kv (k, v) VALUES (1, 'a') USING TTL 10")
        .unwrap();
    let r = s
        .execute("SELECT writetime(v), ttl(v) FROM kv WHERE k = 1")
        .unwrap();
    assert_eq!(r.rows, vec![vec![Value::Bigint(START), Value::Int(10)]]);
    clock.advance_secs(4);
    let r = s.execute("SELECT ttl(v) FROM kv WHERE k = 1").unwrap();
    assert_eq!(r.rows, vec![vec![Value::Int(6)]]);
    clock.advance_secs(6);
    assert!(s
        .execute("SELECT * FROM kv WHERE k = 1")
        .unwrap()
        .rows
        .is_empty());
}

#[test]
fn seeded_ids_make_uuid_and_now_reproducible() {
    let run = || {
        let (mut s, _) = session();
        s.execute("INSERT INTO kv (k, id, u) VALUES (1, now(), uuid())")
            .unwrap();
        s.execute("INSERT INTO kv (k, id, u) VALUES (2, now(), uuid())")
            .unwrap();
        s.execute("SELECT id, u FROM kv WHERE k IN (1, 2)")
            .unwrap()
            .rows
    };
    let (first, second) = (run(), run());
    assert_eq!(first, second);
    assert_ne!(first[0], first[1], "every call gives a new value");
}

#[test]
fn metrics_count_partitions_rows_and_nodes() {
    let (mut s, _) = session();
    let insert = s
        .prepare("INSERT INTO readings (sensor, day, ts, temp) VALUES (?, '2025-06-01', ?, 20.5)")
        .unwrap();
    for sensor in ["a", "b", "c"] {
        for minute in 0..10 {
            s.execute_prepared(
                &insert,
                &[
                    Value::Text(sensor.into()),
                    Value::Timestamp(minute * 60_000),
                ],
            )
            .unwrap();
        }
    }
    let slice = s
        .execute("SELECT ts FROM readings WHERE sensor = 'a' AND day = '2025-06-01' AND ts >= '1970-01-01 00:05:00+0000'")
        .unwrap();
    assert_eq!(slice.class, Some(QueryClass::PartitionScan));
    assert_eq!(slice.metrics.partitions_touched, 1);
    assert_eq!(
        slice.metrics.rows_scanned, 5,
        "a slice seeks instead of scanning the partition"
    );
    assert_eq!(slice.metrics.rows_returned, 5);
    assert_eq!(slice.nodes_contacted().len(), 1);
    let scan = s
        .execute("SELECT * FROM readings WHERE temp > 20 ALLOW FILTERING")
        .unwrap();
    assert_eq!(scan.class, Some(QueryClass::ScatterGather));
    assert_eq!(scan.metrics.partitions_touched, 3);
    assert_eq!(scan.metrics.rows_scanned, 30);
    assert_eq!(scan.nodes_contacted().len(), 4);
}

#[test]
fn a_partition_holding_most_of_a_large_table_is_reported_hot() {
    let (mut s, _) = session();
    let insert = s
        .prepare("INSERT INTO readings (sensor, day, ts, temp) VALUES (?, '2025-06-01', ?, 1.0)")
        .unwrap();
    for i in 0..6_000 {
        s.execute_prepared(&insert, &[Value::Text("hot".into()), Value::Timestamp(i)])
            .unwrap();
    }
    for i in 0..4_000 {
        s.execute_prepared(
            &insert,
            &[Value::Text(format!("s{i}")), Value::Timestamp(0)],
        )
        .unwrap();
    }
    let r = s
        .execute("SELECT count(*) FROM readings WHERE sensor = 'hot' AND day = '2025-06-01'")
        .unwrap();
    assert_eq!(r.rows, vec![vec![Value::Bigint(6_000)]]);
    // A note, not a warning: Cassandra sends no client warning for it.
    assert!(
        r.notes
            .iter()
            .any(|w| w.starts_with("Hot partition (hot, 2025-06-01)")),
        "{:?}",
        r.notes
    );
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    let cold = s
        .execute("SELECT * FROM readings WHERE sensor = 's1' AND day = '2025-06-01'")
        .unwrap();
    assert!(cold.warnings.is_empty());
}

#[test]
fn a_failed_statement_changes_nothing() {
    let (mut s, _) = session();
    s.execute("INSERT INTO kv (k, v) VALUES (1, 'before')")
        .unwrap();
    let error = s
        .execute("BEGIN BATCH INSERT INTO kv (k, v) VALUES (2, 'x'); UPDATE kv SET v = 'after' WHERE k = 1; INSERT INTO kv (k, v) VALUES (3, 42); APPLY BATCH")
        .unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidRequest);
    let rows = s.execute("SELECT k, v FROM kv").unwrap().rows;
    assert_eq!(
        rows,
        vec![vec![Value::Int(1), Value::Text("before".into())]]
    );
}

#[test]
fn a_prepared_statement_is_planned_again_after_the_schema_or_settings_change() {
    let (mut s, _) = session();
    let select = s.prepare("SELECT v FROM kv WHERE k = ?").unwrap();
    s.execute("INSERT INTO kv (k, v) VALUES (1, 'one')")
        .unwrap();
    let first = s.execute_prepared(&select, &[Value::Int(1)]).unwrap();
    assert_eq!(first.rows, vec![vec![Value::Text("one".into())]]);
    assert_eq!(first.plan.as_ref().unwrap().consistency, "ONE");
    // The plan follows the consistency level of the moment…
    s.set_consistency(widerow::cluster::ConsistencyLevel::Quorum);
    let quorum = s.execute_prepared(&select, &[Value::Int(1)]).unwrap();
    assert_eq!(quorum.plan.as_ref().unwrap().consistency, "QUORUM");
    // …a clone made before a schema change keeps working on its own schema…
    let before_drop = s.clone();
    s.execute("DROP TABLE kv").unwrap();
    let gone = s.execute_prepared(&select, &[Value::Int(1)]).unwrap_err();
    assert_eq!(gone.kind(), ErrorKind::InvalidRequest);
    let mut before_drop = before_drop;
    let still = before_drop
        .execute_prepared(&select, &[Value::Int(1)])
        .unwrap();
    assert_eq!(still.rows, vec![vec![Value::Text("one".into())]]);
    // …and a table created again under the same name is read afresh.
    s.execute("CREATE TABLE kv (k int PRIMARY KEY, v text)")
        .unwrap();
    let empty = s.execute_prepared(&select, &[Value::Int(1)]).unwrap();
    assert!(empty.rows.is_empty());
    // Limits the planner enforces apply to a statement prepared before them.
    let three = s.prepare("SELECT v FROM kv WHERE k IN (1, 2, 3)").unwrap();
    s.execute_prepared(&three, &[]).unwrap();
    let mut limits = *s.limits();
    limits.in_select_cartesian_product = 2;
    s.set_limits(limits);
    let refused = s.execute_prepared(&three, &[]).unwrap_err();
    assert!(
        refused.message().contains("in_select_cartesian_product"),
        "{}",
        refused.message()
    );
}

/// Runs `literal` beside the one row a prepared INSERT wrote, checks that
/// `select` reads the two rows alike, and returns the row.
fn written_alike(s: &mut Session, literal: &str, select: &str) -> Vec<Value> {
    s.execute(literal).expect("literal insert");
    let rows = s.execute(select).expect("select");
    assert_eq!(rows.rows.len(), 2);
    assert_eq!(rows.rows[0], rows.rows[1]);
    rows.rows[0].to_vec()
}

#[test]
fn bound_sets_and_maps_are_stored_in_their_order_as_literals_are() {
    let (mut s, _) = session();
    s.execute(
        "CREATE TABLE c (k int, tags frozen<set<int>>, m frozen<map<int, text>>, \
         nested frozen<list<frozen<set<int>>>>, PRIMARY KEY (k, tags))",
    )
    .expect("table");
    let int = |v: &[i32]| v.iter().map(|n| Value::Int(*n)).collect::<Vec<_>>();
    let text = |t: &str| Value::Text(t.into());
    let insert = s
        .prepare("INSERT INTO c (k, tags, m, nested) VALUES (?, ?, ?, ?)")
        .expect("prepare");
    // A set given as a list with a repeat, a map out of order with a
    // repeated key (the last value wins), a set unsorted inside a list.
    let bound = [
        Value::Int(1),
        Value::List(int(&[3, 1, 3])),
        Value::Map(vec![
            (Value::Int(2), text("a")),
            (Value::Int(1), text("b")),
            (Value::Int(2), text("c")),
        ]),
        Value::List(vec![Value::Set(int(&[9, 7])), Value::List(int(&[5, 5]))]),
    ];
    s.execute_prepared(&insert, &bound)
        .expect("prepared insert");
    let stored = written_alike(
        &mut s,
        "INSERT INTO c (k, tags, m, nested) VALUES (2, {3, 1, 3}, {2: 'a', 1: 'b', 2: 'c'}, [{9, 7}, {5, 5}])",
        "SELECT tags, m, nested FROM c",
    );
    assert_eq!(stored[0], Value::Set(int(&[1, 3])));
    // The clustering key is found by a bound set in any order.
    let read = s
        .prepare("SELECT k FROM c WHERE k = ? AND tags = ?")
        .expect("prepare read");
    let found = s
        .execute_prepared(&read, &[Value::Int(1), Value::Set(int(&[3, 1]))])
        .expect("read");
    assert_eq!(found.rows.len(), 1);
}

#[test]
fn a_bound_vector_of_another_dimension_is_refused_and_changes_nothing() {
    let (mut s, _) = session();
    s.execute("CREATE TABLE emb (k int PRIMARY KEY, v vector<float, 3>)")
        .expect("table");
    let insert = s
        .prepare("INSERT INTO emb (k, v) VALUES (?, ?)")
        .expect("prepare");
    let short = Value::Vector(vec![Value::Float(1.0)]);
    let err = s
        .execute_prepared(&insert, &[Value::Int(1), short])
        .expect_err("a vector of one element for three");
    assert_eq!(err.kind(), ErrorKind::InvalidRequest, "{err}");
    assert!(err.to_string().contains("vector<float, 3>"), "{err}");
    let three = Value::Vector(vec![
        Value::Float(1.0),
        Value::Float(2.0),
        Value::Float(3.0),
    ]);
    s.execute_prepared(&insert, &[Value::Int(2), three])
        .expect("three elements");
    let rows = s.execute("SELECT k FROM emb").expect("select");
    assert_eq!(rows.rows.len(), 1);
}

#[test]
fn bound_tuples_and_udts_are_checked_component_by_component() {
    let (mut s, _) = session();
    s.execute_script(
        "CREATE TYPE point (x int, label text);
         CREATE TABLE shapes (k int PRIMARY KEY, t frozen<tuple<int, text>>, p frozen<point>);",
    )
    .expect("schema");
    let insert = s
        .prepare("INSERT INTO shapes (k, t, p) VALUES (?, ?, ?)")
        .expect("prepare");
    let one = |v: Value| Value::Tuple(vec![Some(v)]);
    // Fewer components than the type: the rest are null, as Cassandra reads them.
    s.execute_prepared(
        &insert,
        &[
            Value::Int(1),
            one(Value::Int(7)),
            Value::Udt(vec![Some(Value::Int(2))]),
        ],
    )
    .expect("short tuple and UDT");
    written_alike(
        &mut s,
        "INSERT INTO shapes (k, t, p) VALUES (2, (7, null), {x: 2})",
        "SELECT t, p FROM shapes",
    );
    // More components than the type, or one of another type: refused.
    let text = |t: &str| Some(Value::Text(t.into()));
    for (t, p) in [
        (
            Value::Tuple(vec![Some(Value::Int(1)), text("a"), text("b")]),
            Value::Udt(vec![]),
        ),
        (Value::Tuple(vec![text("a")]), Value::Udt(vec![])),
        (
            Value::Tuple(vec![]),
            Value::Udt(vec![Some(Value::Int(1)), text("a"), text("b")]),
        ),
    ] {
        let err = s
            .execute_prepared(&insert, &[Value::Int(3), t, p])
            .expect_err("a component that does not fit");
        assert_eq!(err.kind(), ErrorKind::InvalidRequest, "{err}");
    }
    assert_eq!(
        s.execute("SELECT k FROM shapes")
            .expect("select")
            .rows
            .len(),
        2
    );
}

/// A read past its time limit stops with Cassandra's ReadTimeout and its
/// numbers; writes have their own limit, and without limits reads run to
/// the end.
#[test]
fn reads_past_their_deadline_stop_with_read_timeout() {
    use std::time::Duration;
    use widerow::deadline::Timeouts;
    use widerow::error::ErrorInfo;
    let mut s = Session::new();
    s.execute_script(
        "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};
         CREATE TABLE ks.t (k int PRIMARY KEY, v int);
         INSERT INTO ks.t (k, v) VALUES (1, 1);
         INSERT INTO ks.t (k, v) VALUES (2, 2);",
    )
    .expect("schema");
    s.set_timeouts(Some(Timeouts {
        read: Duration::ZERO,
        range: Duration::ZERO,
        ..Timeouts::default()
    }));
    s.set_consistency("QUORUM".parse().unwrap());
    let err = s
        .execute("SELECT * FROM ks.t")
        .expect_err("a scan past its deadline");
    assert_eq!(err.kind(), ErrorKind::ReadTimeout);
    assert_eq!(
        err.message(),
        "Operation timed out - received only 0 responses."
    );
    assert_eq!(
        err.info(),
        Some(&ErrorInfo::ReadTimeout {
            consistency: "QUORUM".into(),
            received_responses: 0,
            required_responses: 2,
            data_retrieved: false,
        })
    );
    let err = s
        .execute("SELECT * FROM ks.t WHERE k = 1")
        .expect_err("a point read too");
    assert_eq!(err.kind(), ErrorKind::ReadTimeout);
    s.execute("INSERT INTO ks.t (k, v) VALUES (3, 3)")
        .expect("writes have their own time");
    s.set_timeouts(Some(Timeouts::default()));
    assert_eq!(
        s.execute("SELECT * FROM ks.t").expect("in time").rows.len(),
        3
    );
    s.set_timeouts(None);
    assert_eq!(
        s.execute("SELECT * FROM ks.t")
            .expect("unlimited")
            .rows
            .len(),
        3
    );
}

/// A write past its time limit fails with Cassandra's WriteTimeout — its
/// level, the acknowledgements it waited for and its kind of write — and
/// leaves every table as it was, through each path a write takes (text,
/// prepared, batch, counter, conditional).
#[test]
fn writes_past_their_deadline_fail_with_write_timeout_and_change_nothing() {
    use std::time::Duration;
    use widerow::deadline::Timeouts;
    use widerow::error::{ErrorInfo, WriteType};
    let mut s = Session::new();
    s.execute_script(
        "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};
         CREATE TABLE ks.t (k int PRIMARY KEY, v int);
         CREATE TABLE ks.c (k int PRIMARY KEY, n counter);
         INSERT INTO ks.t (k, v) VALUES (1, 1);",
    )
    .expect("schema");
    let insert = s.prepare("INSERT INTO ks.t (k, v) VALUES (?, ?)").unwrap();
    s.execute_prepared(&insert, &[Value::Int(2), Value::Int(2)])
        .expect("in time, before the limit");
    s.set_timeouts(Some(Timeouts {
        write: Duration::ZERO,
        ..Timeouts::default()
    }));
    s.set_consistency("QUORUM".parse().unwrap());
    let info = |err: &widerow::Error| match err.info() {
        Some(ErrorInfo::WriteTimeout {
            consistency,
            received_responses: 0,
            required_responses,
            write_type,
        }) => (consistency.clone(), *required_responses, *write_type),
        other => panic!("{}: {other:?}", err.message()),
    };
    let quorum = |kind| ("QUORUM".to_string(), 2, kind);
    for (cql, expected) in [
        ("INSERT INTO ks.t (k, v) VALUES (3, 3)", quorum(WriteType::Simple)),
        ("UPDATE ks.t SET v = 9 WHERE k = 1", quorum(WriteType::Simple)),
        ("DELETE FROM ks.t WHERE k = 1", quorum(WriteType::Simple)),
        (
            // The batch log's write, to two of the other three nodes.
            "BEGIN BATCH INSERT INTO ks.t (k, v) VALUES (3, 3); INSERT INTO ks.t (k, v) VALUES (4, 4); APPLY BATCH",
            ("TWO".to_string(), 2, WriteType::BatchLog),
        ),
        (
            "BEGIN UNLOGGED BATCH INSERT INTO ks.t (k, v) VALUES (3, 3); INSERT INTO ks.t (k, v) VALUES (4, 4); APPLY BATCH",
            quorum(WriteType::UnloggedBatch),
        ),
        (
            "BEGIN BATCH INSERT INTO ks.t (k, v) VALUES (3, 3); UPDATE ks.t SET v = 4 WHERE k = 3; APPLY BATCH",
            quorum(WriteType::Simple),
        ),
        ("UPDATE ks.c SET n = n + 1 WHERE k = 1", quorum(WriteType::Counter)),
        (
            "INSERT INTO ks.t (k, v) VALUES (3, 3) IF NOT EXISTS",
            ("SERIAL".to_string(), 2, WriteType::Cas),
        ),
    ] {
        let err = s.execute(cql).expect_err(cql);
        assert_eq!(err.kind(), ErrorKind::WriteTimeout, "{cql}");
        assert_eq!(info(&err), expected, "{cql}");
    }
    let err = s
        .execute("UPDATE ks.t SET v = 9 WHERE k = 1 IF v = 1")
        .expect_err("a conditional update");
    assert_eq!(
        err.message(),
        "CAS operation timed out - encountered contentions: 0"
    );
    let err = s
        .execute_prepared(&insert, &[Value::Int(5), Value::Int(5)])
        .expect_err("a prepared insert too");
    assert_eq!(info(&err), quorum(WriteType::Simple));
    assert_eq!(
        err.message(),
        "Operation timed out - received only 0 responses."
    );
    // Reads keep their own limits; nothing was written.
    let rows = s
        .execute("SELECT k, v FROM ks.t")
        .expect("reads in time")
        .rows;
    let mut seen: Vec<_> = rows.iter().map(|r| (r[0].clone(), r[1].clone())).collect();
    seen.sort();
    assert_eq!(
        seen,
        [
            (Value::Int(1), Value::Int(1)),
            (Value::Int(2), Value::Int(2))
        ]
    );
    assert!(s.execute("SELECT * FROM ks.c").unwrap().rows.is_empty());
    s.set_timeouts(Some(Timeouts::default()));
    s.execute("INSERT INTO ks.t (k, v) VALUES (3, 3)")
        .expect("in time again");
}

/// Timeouts read in the shell as cqlsh 6.2 prints them from the Python
/// driver's exceptions (seen against `widerow serve`): the driver rebuilds
/// the info map, the level first and required before received.
#[test]
fn timeouts_read_as_cqlsh_prints_them() {
    use std::time::Duration;
    use widerow::deadline::Timeouts;
    let mut s = Session::new();
    s.execute_script(
        "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};
         CREATE TABLE ks.t (k int PRIMARY KEY, v int);
         INSERT INTO ks.t (k, v) VALUES (1, 1);",
    )
    .expect("schema");
    s.set_timeouts(Some(Timeouts {
        range: Duration::ZERO,
        write: Duration::ZERO,
        ..Timeouts::default()
    }));
    let mut text = |cql| s.execute(cql).expect_err(cql).cqlsh_text();
    let summary = "Error from server: code={code} [Coordinator node timed out waiting for replica nodes' responses] message=";
    assert_eq!(
        text("INSERT INTO ks.t (k, v) VALUES (1, 1) IF NOT EXISTS"),
        format!(
            "WriteTimeout: {}\"CAS operation timed out - encountered contentions: 0\" \
             info={{'consistency': 'SERIAL', 'required_responses': 2, 'received_responses': 0, 'write_type': 'CAS'}}",
            summary.replace("{code}", "1100")
        )
    );
    assert_eq!(
        text("SELECT * FROM ks.t"),
        format!(
            "ReadTimeout: {}\"Operation timed out - received only 0 responses.\" \
             info={{'consistency': 'ONE', 'required_responses': 1, 'received_responses': 0}}",
            summary.replace("{code}", "1200")
        )
    );
}
