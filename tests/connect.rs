//! Connect mode (`widerow --connect`) against `widerow serve` started in
//! this process, and — when `WIDEROW_CONNECT_ORACLE=HOST:PORT` names one, as
//! `.ci/run` does — against a real Cassandra node too:
//!
//! - one script (`tests/connect/script.cql`) gives the same output through
//!   `widerow -f` and `widerow --connect -f`, in every format (JSON Lines
//!   without the metrics only widerow can know);
//! - EXPLAIN's replicas are the ones the cluster's own `system.local` /
//!   `system.peers` tokens give, walked here by hand;
//! - a traced prepared point read went where widerow predicted;
//! - failures (no node, a refused login, a cluster gone mid-session) are
//!   clear, and the shell stays usable;
//! - a node going down mid-session, and coming back, reaches the mirror's
//!   ring, so EXPLAIN contacts the replicas still up.

use std::net::SocketAddr;
use std::path::Path;
use std::process::{Command, Output};

use widerow::cluster::{ConsistencyLevel, Coordinator};
use widerow::connect::{mirror, Cluster, ConnectOptions, Request};
use widerow::server::TestServer;
use widerow::shell::{Format, Settings, Shell};
use widerow::types::Value;
use widerow::{ScriptStatement, Session};

const SCRIPT: &str = "tests/connect/script.cql";

fn widerow(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_widerow"))
        .args(args)
        .env("NO_COLOR", "1")
        .env("HOME", std::env::temp_dir())
        .output()
        .expect("widerow runs")
}

fn text(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).to_string() + &String::from_utf8_lossy(&output.stderr)
}

/// The targets: widerow's own server, and the real node when CI names one.
fn targets(server: &TestServer) -> Vec<String> {
    let mut targets = vec![server.addr().to_string()];
    if let Ok(oracle) = std::env::var("WIDEROW_CONNECT_ORACLE") {
        targets.push(oracle);
    }
    targets
}

/// JSON Lines records without `metrics`, which only in-memory mode has.
fn without_metrics(text: &str) -> String {
    text.lines()
        .map(
            |line| match serde_json::from_str::<serde_json::Value>(line) {
                Ok(mut record) => {
                    if let Some(object) = record.as_object_mut() {
                        object.remove("metrics");
                    }
                    record.to_string()
                }
                Err(_) => line.to_string(),
            },
        )
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_script_gives_the_same_output_in_memory_and_on_each_cluster() {
    let server = TestServer::start(Session::new()).expect("server starts");
    for format in ["table", "json", "csv"] {
        let local = widerow(&["--format", format, "-f", SCRIPT]);
        assert_eq!(
            local.status.code(),
            Some(2),
            "the script has failing statements"
        );
        for target in targets(&server) {
            let remote = widerow(&["--format", format, "--connect", &target, "-f", SCRIPT]);
            assert_eq!(
                remote.status.code(),
                local.status.code(),
                "{target} {format}"
            );
            let (want, got) = match format {
                "json" => (
                    without_metrics(&text(&local)),
                    without_metrics(&text(&remote)),
                ),
                _ => (text(&local), text(&remote)),
            };
            if want != got {
                let diff: Vec<String> = want
                    .lines()
                    .zip(got.lines())
                    .filter(|(a, b)| a != b)
                    .take(5)
                    .map(|(a, b)| format!("- {a}\n+ {b}"))
                    .collect();
                panic!("{target} --format {format} differs:\n{}", diff.join("\n"));
            }
        }
    }
}

#[test]
fn statements_from_e_and_standard_input_run_on_the_cluster() {
    let server = TestServer::start(Session::new()).expect("server starts");
    let target = server.addr().to_string();
    let e = widerow(&[
        "--connect",
        &target,
        "-e",
        "SELECT release_version, cql_version FROM system.local",
    ]);
    assert_eq!(e.status.code(), Some(0), "{}", text(&e));
    assert!(text(&e).contains("5.0"), "{}", text(&e));
    let mut child = Command::new(env!("CARGO_BIN_EXE_widerow"))
        .args(["--connect", &target, "--format", "json"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("widerow runs");
    use std::io::Write;
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"SELECT key FROM system.local;\nSHOW HOST;\n")
        .expect("written");
    let output = child.wait_with_output().expect("finished");
    let out = String::from_utf8_lossy(&output.stdout);
    assert!(out.contains(r#"[["local"]]"#), "{out}");
    assert!(
        out.contains(&format!("Connected to cluster at {target}")),
        "{out}"
    );
}

/// The replicas of `token` on a ring given as (address, tokens), walked as
/// SimpleStrategy walks it: the owner of the first token at or after it,
/// then the next distinct nodes clockwise.
fn simple_strategy_replicas(ring: &[(String, Vec<i64>)], token: i64, rf: usize) -> Vec<String> {
    let mut tokens: Vec<(i64, &str)> = ring
        .iter()
        .flat_map(|(node, tokens)| tokens.iter().map(move |t| (*t, node.as_str())))
        .collect();
    tokens.sort();
    let start = tokens.iter().position(|(t, _)| *t >= token).unwrap_or(0);
    let mut replicas: Vec<String> = Vec::new();
    for i in 0..tokens.len() {
        let node = tokens[(start + i) % tokens.len()].1;
        if !replicas.iter().any(|r| r == node) {
            replicas.push(node.to_string());
        }
        if replicas.len() == rf {
            break;
        }
    }
    replicas
}

/// The cluster's ring as its own system tables give it, read with `-e`.
fn ring_of(target: &str) -> Vec<(String, Vec<i64>)> {
    let mut ring = Vec::new();
    for table in ["system.local", "system.peers"] {
        let cql = format!("SELECT rpc_address, tokens FROM {table}");
        let out = widerow(&["--connect", target, "--format", "json", "-e", &cql]);
        let record: serde_json::Value =
            serde_json::from_slice(&out.stdout).expect("one JSON record");
        for row in record["rows"].as_array().expect("rows") {
            let tokens = row[1]
                .as_array()
                .map(|ts| {
                    ts.iter()
                        .filter_map(|t| t.as_str().and_then(|t| t.parse().ok()))
                        .collect()
                })
                .unwrap_or_default();
            ring.push((row[0].as_str().unwrap_or_default().to_string(), tokens));
        }
    }
    ring
}

/// Cassandra's Murmur3 token of the int key 7, as the real node computes it
/// (`SELECT token(k) … WHERE k = 7` on Cassandra 5.0.8).
const TOKEN_OF_7: i64 = 1634052884888577606;

#[test]
fn explain_names_the_replicas_the_clusters_own_tokens_give() {
    let server = TestServer::start(Session::new()).expect("server starts");
    for target in targets(&server) {
        let ring = ring_of(&target);
        let rf = ring.len().min(3);
        let setup = format!(
            "CREATE KEYSPACE IF NOT EXISTS connect_explain WITH replication = \
             {{'class': 'SimpleStrategy', 'replication_factor': {rf}}}; \
             CREATE TABLE IF NOT EXISTS connect_explain.t (k int PRIMARY KEY, v text)"
        );
        let created = widerow(&["--connect", &target, "-e", &setup]);
        assert!(created.status.success(), "{}", text(&created));
        let out = widerow(&[
            "--connect",
            &target,
            "--consistency",
            "ALL",
            "-e",
            "EXPLAIN SELECT * FROM connect_explain.t WHERE k = 7",
        ]);
        let explained = text(&out);
        let replicas = simple_strategy_replicas(&ring, TOKEN_OF_7, rf);
        let line = explained
            .lines()
            .find(|l| l.contains("replicas"))
            .unwrap_or_else(|| panic!("no replicas line:\n{explained}"));
        assert!(line.contains(&format!("token {TOKEN_OF_7}")), "{line}");
        assert!(
            line.contains(&format!("replicas {}", replicas.join(", "))),
            "{target}: expected replicas {replicas:?} in\n{explained}"
        );
    }
}

#[test]
fn a_traced_prepared_point_read_goes_where_widerow_predicted() {
    let server = TestServer::start(Session::new()).expect("server starts");
    for target in targets(&server) {
        let cluster =
            Cluster::open(&ConnectOptions::parse(&target).expect("target")).expect("connected");
        let request = |tracing| Request {
            consistency: ConsistencyLevel::Quorum,
            serial_consistency: ConsistencyLevel::Serial,
            page_size: None,
            tracing,
        };
        let rf = ring_of(&target).len().min(3);
        for cql in [
            format!(
                "CREATE KEYSPACE IF NOT EXISTS connect_trace WITH replication = \
                 {{'class': 'SimpleStrategy', 'replication_factor': {rf}}}"
            ),
            "CREATE TABLE IF NOT EXISTS connect_trace.t (k int PRIMARY KEY, v text)".into(),
            "INSERT INTO connect_trace.t (k, v) VALUES (7, 'seven')".into(),
        ] {
            cluster.execute(&cql, &request(false)).expect(&cql);
        }
        let sent = cluster
            .execute_bound(
                "SELECT v FROM connect_trace.t WHERE k = ?",
                &[Value::Int(7)],
                &request(true),
            )
            .expect("the read runs");
        assert_eq!(sent.result.rows.len(), 1);
        let trace = sent.trace.expect("a trace");

        // The prediction: widerow's plan on the mirror, for a token-aware
        // client (the driver routed the bound key to its first replica).
        let (mut mirror, _) = mirror::mirror(&cluster).expect("mirrored");
        mirror.context_mut().coordinator = Coordinator::TokenAware;
        mirror.set_consistency(ConsistencyLevel::Quorum);
        let plan = mirror
            .plan("SELECT v FROM connect_trace.t WHERE k = 7")
            .expect("planned");
        assert_eq!(trace.coordinator, plan.coordinator, "{target}: {trace:?}");
        let mut predicted: Vec<String> = plan.nodes.iter().cloned().collect();
        predicted.push(plan.coordinator.clone());
        predicted.sort();
        predicted.dedup();
        let mut traced: Vec<String> = trace.nodes().iter().map(|n| n.to_string()).collect();
        traced.sort();
        assert_eq!(traced, predicted, "{target}: {trace:?}");
    }
}

#[test]
fn refuse_scatter_gather_keeps_the_query_back_and_names_the_rule() {
    let server = TestServer::start(Session::new()).expect("server starts");
    let target = server.addr().to_string();
    let out = widerow(&[
        "--connect",
        &target,
        "--format",
        "json",
        "--lint",
        "--refuse",
        "scatter-gather",
        "-e",
        "SELECT * FROM system_schema.tables; SELECT key FROM system.local WHERE key = 'local'",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let records: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    assert_eq!(records[0]["kind"], "error");
    assert_eq!(records[0]["rule"], "scatter-gather");
    assert_eq!(records[1]["kind"], "rows");
    assert!(String::from_utf8_lossy(&out.stderr).contains("Q003 scatter-gather"));
}

#[test]
fn no_node_answering_is_a_clear_start_failure() {
    let free = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
    let port = free.local_addr().expect("addr").port();
    drop(free);
    let out = widerow(&[
        "--connect",
        &format!("127.0.0.1:{port}"),
        "--connect-timeout",
        "2",
        "-e",
        "SELECT * FROM system.local",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("Connection error") && err.contains("NoHostAvailable"),
        "{err}"
    );
}

#[test]
fn in_memory_flags_and_bad_targets_are_refused() {
    for (args, message) in [
        (vec!["--connect", "127.0.0.1:1", "--nodes", "3"], "--nodes"),
        (
            vec!["--connect", "127.0.0.1:x"],
            "expected HOST or HOST:PORT",
        ),
        (
            vec!["--connect", "127.0.0.1", "--protocol-version", "5"],
            "v4 only",
        ),
        (
            vec!["--connect", "127.0.0.1", "-u", "someone"],
            "-u needs a password",
        ),
    ] {
        let mut all = args.clone();
        all.extend(["-e", "SELECT * FROM system.local"]);
        let out = widerow(&all);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(message),
            "{args:?}: {}",
            text(&out)
        );
    }
}

#[test]
fn logins_come_from_the_flags_or_from_cqlshrc() {
    let server = TestServer::start_with_auth(Session::new()).expect("server starts");
    let target = server.addr().to_string();
    let refused = widerow(&[
        "--connect",
        &target,
        "-u",
        "cassandra",
        "-p",
        "wrong",
        "-e",
        "SELECT key FROM system.local",
    ]);
    assert_eq!(refused.status.code(), Some(1));
    assert!(
        text(&refused).contains("Connection error"),
        "{}",
        text(&refused)
    );

    let accepted = widerow(&[
        "--connect",
        &target,
        "-u",
        "cassandra",
        "-p",
        "cassandra",
        "-e",
        "SELECT key FROM system.local",
    ]);
    assert!(accepted.status.success(), "{}", text(&accepted));

    let rc = std::env::temp_dir().join(format!("widerow-cqlshrc-{}", std::process::id()));
    std::fs::write(
        &rc,
        "[authentication]\nusername = cassandra\npassword = cassandra\n",
    )
    .expect("written");
    let from_rc = widerow(&[
        "--connect",
        &target,
        "--cqlshrc",
        rc.to_str().expect("utf-8"),
        "-e",
        "SELECT key FROM system.local",
    ]);
    let _ = std::fs::remove_file(&rc);
    assert!(from_rc.status.success(), "{}", text(&from_rc));
}

fn statement(text: &str) -> ScriptStatement {
    widerow::split_statements(text)
        .into_iter()
        .next()
        .expect("a statement")
}

#[test]
fn a_cluster_gone_mid_session_is_an_error_and_the_shell_stays_usable() {
    let server = TestServer::start(Session::new()).expect("server starts");
    let addr: SocketAddr = server.addr();
    let options = ConnectOptions {
        request_timeout: std::time::Duration::from_secs(2),
        ..ConnectOptions::parse(&addr.to_string()).expect("target")
    };
    let cluster = Cluster::open(&options).expect("connected");
    let (mirror, _) = mirror::mirror(&cluster).expect("mirrored");
    let settings = Settings {
        format: Format::Json,
        ..Settings::default()
    };
    let mut shell = Shell::connected(mirror, settings, Box::new(cluster));
    let before = shell.run("<test>", &statement("SELECT key FROM system.local;"));
    assert!(!before.failed, "{before:?}");
    drop(server);
    let after = shell.run("<test>", &statement("SELECT key FROM system.local;"));
    assert!(after.failed, "{after:?}");
    let record: serde_json::Value = serde_json::from_str(after.stdout().trim()).expect("JSON");
    assert_eq!(record["kind"], "error");
    assert_eq!(record["error"], "NoHostAvailable", "{record}");
    let local = shell.run("<test>", &statement("CONSISTENCY;"));
    assert!(!local.failed);
    let saved = shell.run("<test>", &statement("SAVE 'x.cql';"));
    assert!(
        saved.failed && saved.stdout().contains("in-memory"),
        "{saved:?}"
    );
    assert!(Path::new(SCRIPT).exists());
}

#[test]
fn lint_and_explain_read_the_live_schema() {
    let server = TestServer::start(Session::new()).expect("server starts");
    let target = server.addr().to_string();
    let schema = "CREATE KEYSPACE live WITH replication = \
                  {'class': 'SimpleStrategy', 'replication_factor': 1}; \
                  CREATE TABLE live.by_status (status text PRIMARY KEY, id int); \
                  CREATE TABLE live.t (k int PRIMARY KEY, v text)";
    assert!(widerow(&["--connect", &target, "-e", schema])
        .status
        .success());
    let queries = std::env::temp_dir().join(format!("widerow-live-{}.cql", std::process::id()));
    std::fs::write(
        &queries,
        "SELECT * FROM live.t WHERE v = 'a' ALLOW FILTERING;\n",
    )
    .expect("written");
    let linted = widerow(&[
        "lint",
        "--format",
        "concise",
        "--connect",
        &target,
        queries.to_str().expect("utf-8"),
    ]);
    let _ = std::fs::remove_file(&queries);
    let found = text(&linted);
    assert_eq!(linted.status.code(), Some(0), "warnings only: {found}");
    assert!(
        found.contains("<cluster>:") && found.contains("M002 hot-partition"),
        "{found}"
    );
    assert!(found.contains("Q002 allow-filtering"), "{found}");

    let explained = widerow(&[
        "explain",
        "--connect",
        &target,
        "-e",
        "SELECT * FROM live.t WHERE k = 1",
    ]);
    assert!(explained.status.success(), "{}", text(&explained));
    // Cassandra's token of int 1, and its owner on the default 4-node ring.
    assert!(
        text(&explained).contains("token -4069959284402364209 replicas [127.0.0.3]"),
        "{}",
        text(&explained)
    );
    let unreachable = widerow(&["explain", "--connect", "127.0.0.1:1", "-e", "SELECT 1"]);
    assert_eq!(unreachable.status.code(), Some(2));
}

#[test]
fn another_clients_schema_change_reaches_the_mirror() {
    let server = TestServer::start(Session::new()).expect("server starts");
    let target = server.addr().to_string();
    let cluster = Cluster::open(&ConnectOptions::parse(&target).expect("target")).expect("up");
    let (mirror, _) = mirror::mirror(&cluster).expect("mirrored");
    let mut shell = Shell::connected(mirror, Settings::default(), Box::new(cluster));
    let explain = "EXPLAIN SELECT * FROM elsewhere.t WHERE k = 1;";
    assert!(shell.run("<test>", &statement(explain)).failed);
    let created = widerow(&[
        "--connect",
        &target,
        "-e",
        "CREATE KEYSPACE elsewhere WITH replication = {'class': 'SimpleStrategy', \
         'replication_factor': 1}; CREATE TABLE elsewhere.t (k int PRIMARY KEY)",
    ]);
    assert!(created.status.success(), "{}", text(&created));
    // The shell compares the cluster's schema version at most once a second
    // and copies the mirror again when it moved.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let reply = shell.run("<test>", &statement(explain));
        if !reply.failed {
            assert!(reply.stdout().contains("point-lookup"), "{reply:?}");
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "never seen: {reply:?}"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

#[test]
fn tracing_on_shows_the_clusters_trace_beside_the_prediction() {
    let server = TestServer::start(Session::new()).expect("server starts");
    let target = server.addr().to_string();
    let script = "CREATE KEYSPACE traced WITH replication = {'class': 'SimpleStrategy', \
                  'replication_factor': 3};\n\
                  CREATE TABLE traced.t (k int PRIMARY KEY, v text);\n\
                  INSERT INTO traced.t (k, v) VALUES (7, 'x');\n\
                  CONSISTENCY QUORUM;\nTRACING ON;\n\
                  SELECT v FROM traced.t WHERE k = 7;\n";
    let path = std::env::temp_dir().join(format!("widerow-traced-{}.cql", std::process::id()));
    std::fs::write(&path, script).expect("written");
    let out = widerow(&["--connect", &target, "-f", path.to_str().expect("utf-8")]);
    let _ = std::fs::remove_file(&path);
    let shown = text(&out);
    assert!(out.status.success(), "{shown}");
    assert!(shown.contains("Tracing session: "), "{shown}");
    // Text goes to the first node by address; at QUORUM of three replicas
    // (node4, node1, node2 for token 1634052884888577606) it waits for two.
    assert!(
        shown.contains("coordinator    predicted 127.0.0.1 · traced 127.0.0.1"),
        "{shown}"
    );
    assert!(
        shown.contains("agree: the cluster did what widerow predicted"),
        "{shown}"
    );
}

/// The partition's entry of a JSON Lines EXPLAIN record.
fn explained_partition(shell: &mut Shell, explain: &str) -> serde_json::Value {
    let reply = shell.run("<test>", &statement(explain));
    assert!(!reply.failed, "{reply:?}");
    let record: serde_json::Value = serde_json::from_str(reply.stdout().trim()).expect("JSON");
    record["plan"]["partitions"]["partitions"][0].clone()
}

#[test]
fn a_node_going_down_mid_session_reaches_the_mirror() {
    let server = TestServer::start(Session::new()).expect("server starts");
    let target = server.addr().to_string();
    let schema = "CREATE KEYSPACE lost WITH replication = \
                  {'class': 'SimpleStrategy', 'replication_factor': 3}; \
                  CREATE TABLE lost.t (k int PRIMARY KEY)";
    assert!(widerow(&["--connect", &target, "-e", schema])
        .status
        .success());
    let cluster = Cluster::open(&ConnectOptions::parse(&target).expect("target")).expect("up");
    let (mirror, _) = mirror::mirror(&cluster).expect("mirrored");
    // The driver counts a node lost only once it has reached it.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while cluster.connected_nodes().len() < 4 {
        assert!(
            std::time::Instant::now() < deadline,
            "the driver never reached every node"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let settings = Settings {
        format: Format::Json,
        ..Settings::default()
    };
    let mut shell = Shell::connected(mirror, settings, Box::new(cluster));
    assert!(
        !shell
            .run("<test>", &statement("CONSISTENCY QUORUM;"))
            .failed
    );
    // int 1's replicas on the default ring: node3, node4, node1.
    let explain = "EXPLAIN SELECT * FROM lost.t WHERE k = 1;";
    let before = explained_partition(&mut shell, explain);
    assert_eq!(
        before["replicas"],
        serde_json::json!(["127.0.0.3", "127.0.0.4", "127.0.0.1"])
    );
    assert_eq!(before["down"], serde_json::json!([]), "{before}");

    let control = Cluster::open(&ConnectOptions::parse(&target).expect("target")).expect("up");
    let once = Request {
        consistency: ConsistencyLevel::One,
        serial_consistency: ConsistencyLevel::Serial,
        page_size: None,
        tracing: false,
    };
    let down = control.execute("CLUSTER DOWN node4", &once);
    assert!(down.is_ok(), "{down:?}");
    let wait_for = |shell: &mut Shell, down: serde_json::Value| {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        loop {
            let partition = explained_partition(shell, explain);
            if partition["down"] == down {
                return partition;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "never seen: {partition}"
            );
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
    };
    let lost = wait_for(&mut shell, serde_json::json!(["127.0.0.4"]));
    assert_eq!(
        lost["contacted"],
        serde_json::json!(["127.0.0.3", "127.0.0.1"])
    );
    let up = control.execute("CLUSTER UP node4", &once);
    assert!(up.is_ok(), "{up:?}");
    wait_for(&mut shell, serde_json::json!([]));
}
