//! The cassandra.yaml switches a session mirrors (`[cassandra]` in
//! `widerow.toml`, a flag each), Cassandra's replication-factor warning, and
//! widerow's own notes kept apart from Cassandra's warnings.
//!
//! Sources: stock Cassandra 5.0's `conf/cassandra.yaml` ships
//! `materialized_views_enabled: false` and `sasi_indexes_enabled: false`;
//! `CreateViewStatement` refuses with "Materialized views are disabled.
//! Enable in cassandra.yaml to use." and `CreateIndexStatement` with "SASI
//! indexes are disabled. Enable in cassandra.yaml to use.";
//! `NetworkTopologyStrategy.validateExpectedOptions` refuses an unknown data
//! centre ("Unrecognized strategy option {dc9} passed to
//! NetworkTopologyStrategy for keyspace ks", KeyspaceTest /
//! AlterTest.testAlterKeyspaceWithNTSOnlyAcceptsConfiguredDataCenterNames);
//! `SimpleStrategy.maybeWarnOnOptions` and its NTS twin send "Your
//! replication factor N for keyspace K is higher than the number of nodes M
//! [for datacenter D]" as a client warning.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value as Json;
use widerow::schema::SchemaSettings;
use widerow::Session;

const KEYSPACE: &str =
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}";
const TABLE: &str = "CREATE TABLE ks.t (k int PRIMARY KEY, v int, w text)";
const VIEW: &str = "CREATE MATERIALIZED VIEW ks.by_v AS SELECT * FROM ks.t \
     WHERE v IS NOT NULL AND k IS NOT NULL PRIMARY KEY (v, k)";
const SASI: &str =
    "CREATE CUSTOM INDEX ON ks.t (w) USING 'org.apache.cassandra.index.sasi.SASIIndex'";

fn with_table(session: &mut Session) {
    session.execute(KEYSPACE).expect("keyspace");
    session.execute(TABLE).expect("table");
}

#[test]
fn a_stock_session_refuses_views_and_sasi() {
    let mut s = Session::new();
    with_table(&mut s);
    let view = s.execute(VIEW).expect_err("views are off by default");
    assert_eq!(
        view.message(),
        "Materialized views are disabled. Enable in cassandra.yaml to use."
    );
    let sasi = s.execute(SASI).expect_err("SASI is off by default");
    assert_eq!(
        sasi.message(),
        "SASI indexes are disabled. Enable in cassandra.yaml to use."
    );
    assert!(s.context().catalog.keyspace("ks").is_some());
}

#[test]
fn turned_on_the_switches_accept_them() {
    let mut s = Session::new().with_settings(SchemaSettings::permissive());
    with_table(&mut s);
    let view = s.execute(VIEW).expect("views on");
    assert_eq!(
        view.warnings,
        ["Materialized views are experimental and are not recommended for production use."]
    );
    s.execute(SASI).expect("SASI on");
}

#[test]
fn a_replication_factor_above_the_node_count_is_warned_about() {
    let mut s = Session::new();
    let simple = s
        .execute("CREATE KEYSPACE a WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 5}")
        .expect("created anyway");
    assert_eq!(
        simple.warnings,
        ["Your replication factor 5 for keyspace a is higher than the number of nodes 4"]
    );
    let nts = s
        .execute("CREATE KEYSPACE b WITH replication = {'class': 'NetworkTopologyStrategy', 'datacenter1': 6}")
        .expect("created anyway");
    assert_eq!(
        nts.warnings,
        ["Your replication factor 6 for keyspace b is higher than the number of nodes 4 for datacenter datacenter1"]
    );
    let altered = s
        .execute("ALTER KEYSPACE a WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3}")
        .expect("altered");
    assert!(altered.warnings.is_empty(), "{:?}", altered.warnings);
}

#[test]
fn an_unknown_data_centre_grows_the_ring_with_a_note_or_is_refused_when_strict() {
    let nts =
        "CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'dc9': 1}";
    let mut lenient = Session::new();
    let grown = lenient.execute(nts).expect("grown");
    assert!(grown.warnings.is_empty(), "{:?}", grown.warnings);
    assert_eq!(
        grown.notes,
        ["data centre dc9 was not in the simulated ring: added with 4 nodes"]
    );
    let mut strict = Session::new();
    strict.schema_settings_mut().strict_datacenters = true;
    let refused = strict.execute(nts).expect_err("strict");
    assert_eq!(refused.kind().name(), "ConfigurationException");
    assert_eq!(
        refused.message(),
        "Unrecognized strategy option {dc9} passed to NetworkTopologyStrategy for keyspace ks"
    );
    assert!(strict.context().catalog.keyspace("ks").is_none());
    assert!(!strict.context().ring.has_datacenter("dc9"));
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("switches_{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

fn widerow(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_widerow"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .expect("run widerow")
}

fn records(output: &Output) -> Vec<Json> {
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect()
}

fn script() -> String {
    format!("{KEYSPACE}; {TABLE}; {VIEW};")
}

#[test]
fn the_command_line_takes_the_switches_from_a_flag_or_the_config_file() {
    let dir = scratch("flags");
    let stock = widerow(&dir, &["--format", "json", "-e", &script()]);
    assert_eq!(stock.status.code(), Some(2));
    assert_eq!(records(&stock)[2]["error"], "InvalidRequest");

    let flagged = widerow(
        &dir,
        &["--materialized-views", "--format", "json", "-e", &script()],
    );
    assert_eq!(flagged.status.code(), Some(0), "{flagged:?}");

    std::fs::write(
        dir.join("widerow.toml"),
        "[cassandra]\nmaterialized_views_enabled = true\n",
    )
    .expect("config");
    let configured = widerow(&dir, &["--format", "json", "-e", &script()]);
    assert_eq!(configured.status.code(), Some(0), "{configured:?}");

    std::fs::write(dir.join("widerow.toml"), "[cassandra]\nviews = 1\n").expect("config");
    let bad = widerow(&dir, &["-e", &script()]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&bad.stderr).contains("[cassandra] views must be true or false"),
        "{bad:?}"
    );
}

#[test]
fn notes_are_written_apart_from_warnings() {
    let dir = scratch("notes");
    let nts =
        "CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'dc9': 1};";
    let json = widerow(&dir, &["--format", "json", "-e", nts]);
    let record = &records(&json)[0];
    assert_eq!(record["warnings"], serde_json::json!([]));
    assert_eq!(
        record["notes"],
        serde_json::json!(["data centre dc9 was not in the simulated ring: added with 4 nodes"])
    );
    let table = widerow(&dir, &["-e", nts]);
    let text = String::from_utf8_lossy(&table.stdout).to_string()
        + &String::from_utf8_lossy(&table.stderr);
    assert!(text.contains("Notes :\ndata centre dc9"), "{text}");
    assert!(!text.contains("Warnings :"), "{text}");
}
