//! A statement that fails for any reason changes nothing: every write path
//! is made to fail half-way — after some of its work is decided — and every
//! table (and the schema) must be exactly as before, down to write times.

use std::sync::Arc;

use widerow::session::{ManualClock, SeededIds, Session};
use widerow::types::Value;

fn session() -> Session {
    let clock = ManualClock::at_micros(1_750_000_000_000_000);
    let mut s = Session::with_sources(Arc::new(clock), Box::new(SeededIds::new(3)))
        .with_settings(widerow::schema::SchemaSettings::permissive());
    s.execute_script(
        "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
         USE ks;
         CREATE TABLE users (id int PRIMARY KEY, name text, age int, tags list<text>, prefs map<text, text>);
         CREATE TABLE events (user_id int, at timestamp, kind text, PRIMARY KEY (user_id, at));
         CREATE TABLE counts (id int PRIMARY KEY, hits counter);
         CREATE MATERIALIZED VIEW users_by_name AS SELECT * FROM users WHERE name IS NOT NULL AND id IS NOT NULL PRIMARY KEY (name, id);
         INSERT INTO users (id, name, age, tags, prefs) VALUES (1, 'ann', 30, ['a', 'b'], {'k': 'v'});
         INSERT INTO users (id, name, age) VALUES (2, 'bob', 40) USING TTL 3600;
         INSERT INTO events (user_id, at, kind) VALUES (1, '2025-06-01 10:00:00+0000', 'login');
         UPDATE counts SET hits = hits + 5 WHERE id = 1;",
    )
    .expect("fixture");
    s
}

/// Everything a session holds: data (with write times and expiry) and schema.
fn state(s: &Session) -> String {
    format!("{:?}\n{:?}", s.store(), s.context().catalog)
}

/// Runs `cql`, which must fail (or not apply), and checks nothing changed.
fn fails_without_change(cql: &str) {
    let mut s = session();
    let before = state(&s);
    match s.execute(cql) {
        Err(_) => {}
        Ok(result) => assert_eq!(
            result.rows.first().and_then(|r| r.first()),
            Some(&Value::Boolean(false)),
            "{cql} succeeded"
        ),
    }
    assert_eq!(before, state(&s), "{cql} changed the session");
}

#[test]
fn a_bad_value_in_the_third_statement_of_a_batch() {
    fails_without_change(
        "BEGIN BATCH
           INSERT INTO users (id, name) VALUES (3, 'cid');
           UPDATE users SET name = 'ANN' WHERE id = 1;
           INSERT INTO events (user_id, at, kind) VALUES (1, 'not a time', 'x');
         APPLY BATCH",
    );
}

#[test]
fn a_type_error_in_the_last_assignment() {
    fails_without_change("UPDATE users SET name = 'changed', age = 'old' WHERE id = 1");
}

#[test]
fn a_failed_lwt_condition() {
    fails_without_change("UPDATE users SET name = 'x', age = 1 WHERE id = 1 IF age = 99");
    fails_without_change("INSERT INTO users (id, name) VALUES (1, 'again') IF NOT EXISTS");
    fails_without_change(
        "BEGIN BATCH
           UPDATE users SET age = 31 WHERE id = 1;
           UPDATE users SET name = 'z' WHERE id = 1 IF name = 'nobody';
         APPLY BATCH",
    );
}

#[test]
fn a_list_index_out_of_bounds_after_other_writes() {
    fails_without_change(
        "BEGIN BATCH
           UPDATE users SET name = 'ann2' WHERE id = 1;
           UPDATE users SET tags[5] = 'x' WHERE id = 1;
         APPLY BATCH",
    );
    fails_without_change("DELETE tags[9] FROM users WHERE id = 1");
}

#[test]
fn a_conditional_batch_across_partitions_applies_nothing() {
    fails_without_change(
        "BEGIN BATCH
           INSERT INTO users (id, name) VALUES (7, 'g') IF NOT EXISTS;
           INSERT INTO users (id, name) VALUES (8, 'h') IF NOT EXISTS;
         APPLY BATCH",
    );
}

#[test]
fn a_null_key_and_a_null_counter_increment() {
    fails_without_change(
        "BEGIN UNLOGGED BATCH
           INSERT INTO events (user_id, at, kind) VALUES (2, '2025-06-02 00:00:00+0000', 'a');
           INSERT INTO events (user_id, at, kind) VALUES (null, '2025-06-02 00:00:00+0000', 'b');
         APPLY BATCH",
    );
    fails_without_change(
        "BEGIN COUNTER BATCH
           UPDATE counts SET hits = hits + 1 WHERE id = 1;
           UPDATE counts SET hits = hits + null WHERE id = 2;
         APPLY BATCH",
    );
}

#[test]
fn a_failed_write_leaves_the_view_alone() {
    fails_without_change(
        "BEGIN BATCH
           UPDATE users SET name = 'renamed' WHERE id = 1;
           INSERT INTO users (id, name, age) VALUES (9, 'ivy', 'nine');
         APPLY BATCH",
    );
}

#[test]
fn bad_json_and_bad_bind_values() {
    fails_without_change(r#"INSERT INTO users JSON '{"id": 4, "name": "d", "nope": 1}'"#);
    let mut s = session();
    let before = state(&s);
    let insert = s
        .prepare("INSERT INTO users (id, name, age) VALUES (?, ?, ?)")
        .unwrap();
    let error = s.execute_prepared(
        &insert,
        &[
            Value::Int(5),
            Value::Text("e".into()),
            Value::Text("x".into()),
        ],
    );
    assert!(error.is_err());
    assert_eq!(before, state(&s));
}

#[test]
fn a_failed_schema_statement_changes_no_schema() {
    fails_without_change("CREATE TABLE users (id int PRIMARY KEY)");
    fails_without_change("ALTER TABLE users ADD name text");
    fails_without_change("DROP TABLE nope");
    fails_without_change("CREATE TABLE bad (id int PRIMARY KEY, c counter, v int)");
}

#[test]
fn limits_refuse_with_a_clear_error_and_change_nothing() {
    use widerow::limits::Limits;
    let mut s = session();
    s.set_limits(Limits {
        statement_size: 400,
        in_list_length: 3,
        collection_size: 2,
        batch_size_warn_threshold: 20,
        batch_size_fail_threshold: 200,
        ..Limits::default()
    });
    let before = state(&s);
    let long = format!(
        "INSERT INTO users (id, name) VALUES (10, '{}')",
        "x".repeat(500)
    );
    let e = s.execute(&long).unwrap_err();
    assert!(
        e.message().contains("[limits] statement_size"),
        "{}",
        e.message()
    );
    let e = s
        .execute("SELECT * FROM users WHERE id IN (1, 2, 3, 4)")
        .unwrap_err();
    assert!(
        e.message().contains("[limits] in_list_length"),
        "{}",
        e.message()
    );
    let e = s
        .execute("UPDATE users SET tags = ['a', 'b', 'c'] WHERE id = 1")
        .unwrap_err();
    assert!(
        e.message().contains("[limits] collection_size"),
        "{}",
        e.message()
    );
    let e = s
        .execute("BEGIN BATCH INSERT INTO users (id, name) VALUES (11, 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'); INSERT INTO users (id, name) VALUES (12, 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb'); APPLY BATCH")
        .unwrap_err();
    assert_eq!(e.message(), "Batch too large");
    assert_eq!(before, state(&s));
    // One partition is one mutation, which Cassandra never weighs.
    let one = s
        .execute("BEGIN BATCH INSERT INTO users (id, name) VALUES (11, 'aaaaaaaaaaaaaaaaaaaaaaaaa'); APPLY BATCH")
        .unwrap();
    assert!(one.warnings.is_empty(), "{:?}", one.warnings);
    let warned = s
        .execute("BEGIN BATCH INSERT INTO users (id, name) VALUES (11, 'a'); INSERT INTO users (id, name) VALUES (12, 'b'); APPLY BATCH")
        .unwrap();
    assert!(
        warned.warnings[0].starts_with("Batch for [ks.users] is of size ")
            && warned.warnings[0].contains(", exceeding specified threshold of 20 by "),
        "{:?}",
        warned.warnings
    );
}

/// IN lists whose cartesian product names more keys than
/// `in_select_cartesian_product` allows are refused with Cassandra's
/// guardrail message (the cases of Cassandra's own guardrail test, with a
/// threshold of 25), on the partition key and on the clustering key, in
/// reads and in writes, before anything is materialised or changed.
#[test]
fn in_cartesian_products_past_the_limit_are_refused() {
    use widerow::limits::Limits;
    let mut s = session();
    s.execute("CREATE TABLE grid (pk1 int, pk2 int, ck1 int, ck2 int, v int, PRIMARY KEY ((pk1, pk2), ck1, ck2))")
        .unwrap();
    s.set_limits(Limits {
        in_select_cartesian_product: 25,
        ..Limits::default()
    });
    let terms = |n: usize| (0..n).map(|i| i.to_string()).collect::<Vec<_>>().join(", ");
    let select = |pk1, pk2, ck1, ck2| {
        format!(
            "SELECT * FROM grid WHERE pk1 IN ({}) AND pk2 IN ({}) AND ck1 IN ({}) AND ck2 IN ({})",
            terms(pk1),
            terms(pk2),
            terms(ck1),
            terms(ck2)
        )
    };
    let message = |what: &str, n: usize| {
        format!(
            "Guardrail in_select_cartesian_product violated: Aborting query because the cartesian product of the IN restrictions on {what} produces {n} values, this exceeds fail threshold of 25."
        )
    };
    for (pk1, pk2, ck1, ck2) in [(5, 5, 5, 5), (1, 25, 25, 1), (1, 1, 3, 8)] {
        s.execute(&select(pk1, pk2, ck1, ck2)).unwrap();
    }
    let before = state(&s);
    for (pk1, pk2) in [(1, 26), (5, 6), (26, 1)] {
        let e = s.execute(&select(pk1, pk2, 1, 1)).unwrap_err();
        assert_eq!(e.message(), message("partition key", pk1 * pk2));
    }
    for (ck1, ck2) in [(1, 26), (5, 6), (6, 5)] {
        let e = s.execute(&select(1, 1, ck1, ck2)).unwrap_err();
        assert_eq!(e.message(), message("clustering key", ck1 * ck2));
    }
    let e = s
        .execute(&format!(
            "DELETE FROM grid WHERE pk1 = 0 AND pk2 = 0 AND ck1 IN ({}) AND ck2 IN ({})",
            terms(5),
            terms(6)
        ))
        .unwrap_err();
    assert_eq!(e.message(), message("clustering key", 30));
    let e = s
        .execute(&format!(
            "UPDATE grid SET v = 1 WHERE pk1 IN ({}) AND pk2 IN ({}) AND ck1 = 0 AND ck2 = 0",
            terms(2),
            terms(13)
        ))
        .unwrap_err();
    assert_eq!(e.message(), message("partition key", 26));
    // Bind markers: the lists are counted when the statement runs.
    let ints = |n: i32| Value::List((0..n).map(Value::Int).collect());
    let select = s
        .prepare("SELECT * FROM grid WHERE pk1 IN ? AND pk2 IN ? AND ck1 IN ? AND ck2 = 0")
        .unwrap();
    s.execute_prepared(&select, &[ints(5), ints(5), ints(25)])
        .unwrap();
    let e = s
        .execute_prepared(&select, &[ints(5), ints(6), ints(1)])
        .unwrap_err();
    assert_eq!(e.message(), message("partition key", 30));
    let e = s
        .execute_prepared(&select, &[ints(1), ints(1), ints(26)])
        .unwrap_err();
    assert_eq!(e.message(), message("clustering key", 26));
    let delete = s
        .prepare("DELETE FROM grid WHERE pk1 = 0 AND pk2 = 0 AND ck1 IN ? AND ck2 IN ?")
        .unwrap();
    let e = s
        .execute_prepared(&delete, &[ints(6), ints(5)])
        .unwrap_err();
    assert_eq!(e.message(), message("clustering key", 30));
    assert_eq!(before, state(&s));
}
