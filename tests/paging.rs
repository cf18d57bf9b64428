//! Paging and what Cassandra refuses only while paging: an ORDER BY over an
//! IN on the partition key needs the partitions' rows merged, which
//! `SelectStatement` refuses for a paged query ("Cannot page queries with
//! both ORDER BY and a IN restriction …") and runs unpaged. cqlsh pages by
//! 100 rows until `PAGING OFF`; a driver without a fetch size, and
//! Cassandra's internal execution, do not page. Checked against Cassandra
//! 5.0.8 (tests/conformance/ordering.cql has the rows).

use std::process::{Command, Stdio};

use widerow::types::Value;
use widerow::Session;

const SCHEMA: &str = "
CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
CREATE TABLE ks.e (p text, ts int, PRIMARY KEY (p, ts));
INSERT INTO ks.e (p, ts) VALUES ('a', 10);
INSERT INTO ks.e (p, ts) VALUES ('b', 5);
INSERT INTO ks.e (p, ts) VALUES ('a', 30);
";
const MERGE: &str = "SELECT p, ts FROM ks.e WHERE p IN ('a', 'b') ORDER BY ts DESC";
const REFUSAL: &str = "Cannot page queries with both ORDER BY and a IN restriction on the partition key; you must either remove the ORDER BY or the IN and sort client side, or disable paging for this query";

#[test]
fn the_library_is_unpaged_by_default_and_refuses_once_paged() {
    let mut s = Session::new();
    s.execute_script(SCHEMA).expect("schema");
    assert_eq!(s.page_size(), None);
    let merged = s.execute(MERGE).expect("unpaged merge");
    let ts: Vec<&Value> = merged.rows.iter().map(|r| &r[1]).collect();
    assert_eq!(ts, [&Value::Int(30), &Value::Int(10), &Value::Int(5)]);
    s.set_page_size(Some(100));
    assert_eq!(s.execute(MERGE).expect_err("paged").message(), REFUSAL);
}

#[test]
fn paging_off_in_a_script_lifts_the_refusal() {
    let script = format!("{SCHEMA}\n{MERGE};\nPAGING OFF;\n{MERGE};\nPAGING ON;\n{MERGE};\n");
    let out = Command::new(env!("CARGO_BIN_EXE_widerow"))
        .args(["--format", "json", "-e", &script])
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .expect("run widerow");
    assert_eq!(out.status.code(), Some(2), "two statements fail");
    let records: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .filter(|r: &serde_json::Value| r["kind"] != "output")
        .collect();
    let reads: Vec<&serde_json::Value> = records.iter().skip(5).collect();
    assert_eq!(reads[0]["message"], REFUSAL);
    assert_eq!(
        reads[1]["rows"],
        serde_json::json!([["a", 30], ["a", 10], ["b", 5]])
    );
    assert_eq!(reads[2]["message"], REFUSAL);
}
