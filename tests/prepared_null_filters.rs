//! Null values bound into a filtering relation are refused when the
//! statement runs, as Cassandra's row filter refuses them
//! (`RowFilter.SimpleExpression.validate`,
//! `RowFilter.MapEqualityExpression.validate`). Each message was checked
//! on a Cassandra 5.0.8 node with the Python driver's prepared statements.

use widerow::session::Session;
use widerow::types::Value;

fn session() -> Session {
    let mut s = Session::new();
    s.execute_script(
        "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
         USE ks;
         CREATE TABLE t (k int PRIMARY KEY, v int, m map<int, int>);
         INSERT INTO t (k, v, m) VALUES (1, 2, {1: 2});",
    )
    .expect("schema");
    s
}

fn refusal(s: &mut Session, query: &str, values: &[Value]) -> String {
    let prepared = s.prepare(query).expect("prepares");
    match s.execute_prepared(&prepared, values) {
        Ok(result) => panic!("{query} ran: {:?}", result.rows),
        Err(e) => e.message().to_string(),
    }
}

#[test]
fn a_null_map_key_is_refused() {
    let mut s = session();
    let q = "SELECT * FROM t WHERE m[?] = 2 ALLOW FILTERING";
    assert_eq!(
        refusal(&mut s, q, &[Value::Null]),
        "Unsupported null map key for column m"
    );
    let q = "SELECT * FROM t WHERE k = 1 AND m[?] = 2 ALLOW FILTERING";
    assert_eq!(
        refusal(&mut s, q, &[Value::Null]),
        "Unsupported null map key for column m"
    );
}

#[test]
fn a_null_map_value_is_refused() {
    let mut s = session();
    let q = "SELECT * FROM t WHERE m[1] = ? ALLOW FILTERING";
    assert_eq!(
        refusal(&mut s, q, &[Value::Null]),
        "Unsupported null map value for column m"
    );
}

#[test]
fn the_key_is_checked_before_the_value() {
    let mut s = session();
    let q = "SELECT * FROM t WHERE m[?] = ? ALLOW FILTERING";
    assert_eq!(
        refusal(&mut s, q, &[Value::Null, Value::Null]),
        "Unsupported null map key for column m"
    );
}

#[test]
fn a_null_contained_value_is_refused() {
    let mut s = session();
    for q in [
        "SELECT * FROM t WHERE m CONTAINS ? ALLOW FILTERING",
        "SELECT * FROM t WHERE m CONTAINS KEY ? ALLOW FILTERING",
    ] {
        assert_eq!(
            refusal(&mut s, q, &[Value::Null]),
            "Unsupported null value for column m"
        );
    }
}

#[test]
fn a_null_compared_value_is_refused() {
    let mut s = session();
    for q in [
        "SELECT * FROM t WHERE v = ? ALLOW FILTERING",
        "SELECT * FROM t WHERE v > ? ALLOW FILTERING",
        "SELECT * FROM t WHERE k = 1 AND v = ? ALLOW FILTERING",
    ] {
        assert_eq!(
            refusal(&mut s, q, &[Value::Null]),
            "Unsupported null value for column v"
        );
    }
}
