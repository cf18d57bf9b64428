//! `widerow web`'s JSON API, over real HTTP on a free port: the seed's four
//! cases as the engine answers them, the controls (a node down turning
//! QUORUM into Unavailable), the tabs' cap and expiry, statement deadlines,
//! and the refusals of requests the page would not send (another host or
//! origin, a body that is not JSON, too large, too many statements).
#![cfg(feature = "web")]

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::OnceLock;
use std::time::Duration;

use serde_json::{json, Value as Json};
use widerow::deadline::Timeouts;
use widerow::web::{presets, Config, WebServer};
use widerow::Session;

/// The preloaded session, built once for every server the tests start.
fn base() -> Session {
    static BASE: OnceLock<Session> = OnceLock::new();
    BASE.get_or_init(|| presets::base_session().expect("the presets load"))
        .clone()
}

/// A server on a free port, running on its own runtime until the process
/// ends.
fn start(config: Config) -> SocketAddr {
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async move {
            let server = WebServer::bind(base(), config).await.unwrap();
            sender.send(server.local_addr().unwrap()).unwrap();
            server.run(std::future::pending()).await;
        });
    });
    receiver.recv().unwrap()
}

fn local() -> Config {
    Config {
        port: 0,
        ..Config::default()
    }
}

fn shared() -> SocketAddr {
    static ADDR: OnceLock<SocketAddr> = OnceLock::new();
    *ADDR.get_or_init(|| start(local()))
}

/// Sends raw bytes and returns the status and the body.
fn raw(addr: SocketAddr, request: &[u8]) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    stream.write_all(request).unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).unwrap();
    let text = String::from_utf8_lossy(&answer).to_string();
    let status = text[9..12].parse().unwrap();
    let body = text
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap();
    (status, body)
}

fn post_with(addr: SocketAddr, path: &str, body: &str, headers: &str) -> (u16, Json) {
    let request = format!(
        "POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\n\
         {headers}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        addr.port(),
        body.len()
    );
    let (status, body) = raw(addr, request.as_bytes());
    (status, serde_json::from_str(&body).unwrap())
}

fn post(addr: SocketAddr, path: &str, body: &Json) -> (u16, Json) {
    post_with(addr, path, &body.to_string(), "")
}

fn ok(addr: SocketAddr, path: &str, body: &Json) -> Json {
    let (status, answer) = post(addr, path, body);
    assert_eq!(status, 200, "{path}: {answer}");
    answer
}

fn tab(addr: SocketAddr) -> String {
    ok(addr, "/api/tab", &json!({}))["tab"]
        .as_str()
        .unwrap()
        .to_string()
}

fn run(addr: SocketAddr, tab: &str, cql: &str) -> Json {
    ok(addr, "/api/run", &json!({ "tab": tab, "cql": cql }))["focus"].clone()
}

fn preset(model: &str, query: &str) -> String {
    presets::models()
        .into_iter()
        .find(|m| m.id == model)
        .unwrap()
        .queries
        .into_iter()
        .find(|q| q.id == query)
        .unwrap()
        .cql
}

fn nodes_with(focus: &Json, role: &str) -> Vec<String> {
    focus["facts"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n[role] == json!(true))
        .map(|n| n["id"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn the_page_and_its_modules_are_served_from_the_binary() {
    let addr = shared();
    let get = |path: &str| {
        raw(
            addr,
            format!(
                "GET {path} HTTP/1.1\r\nHost: localhost:{}\r\nConnection: close\r\n\r\n",
                addr.port()
            )
            .as_bytes(),
        )
    };
    let (status, page) = get("/");
    assert_eq!(status, 200);
    assert!(page.contains(r#"<script type="module" src="/app.js">"#));
    assert_eq!(get("/app.js").0, 200);
    assert_eq!(get("/views.js").0, 200);
    assert_eq!(get("/app.css").0, 200);
    assert_eq!(get("/../Cargo.toml").0, 404);
    assert_eq!(get("/src/web/mod.rs").0, 404);
    assert_eq!(get("/api/presets").0, 200);
}

#[test]
fn the_seeds_four_cases() {
    let addr = shared();
    let tab = tab(addr);

    // 1. The inbox, a partition range: one partition, some of its rows.
    let inbox = run(addr, &tab, &preset("inbox", "range"));
    assert_eq!(inbox["class"], "partition-scan");
    let table = &inbox["facts"]["tables"][0];
    assert_eq!(table["partitions"].as_array().unwrap().len(), 1);
    let rows = table["partitions"][0]["rows"].as_array().unwrap();
    let marked = rows.iter().filter(|r| r["marked"] == json!(true)).count();
    assert!(
        marked > 0 && marked < rows.len(),
        "{marked} of {}",
        rows.len()
    );
    assert!(rows
        .iter()
        .any(|r| r["cells"].as_array().unwrap().contains(&Json::Null)));
    assert_eq!(nodes_with(&inbox, "replica").len(), 3);
    assert_eq!(nodes_with(&inbox, "coordinator"), ["node1"]);
    let token = table["partitions"][0]["token"].as_str().unwrap();
    assert_eq!(inbox["plan"]["partitions"]["partitions"][0]["token"], token);

    // 2. Orders by id, the whole key: one row.
    let orders = run(addr, &tab, &preset("orders", "key"));
    assert_eq!(orders["class"], "point-lookup");
    assert_eq!(orders["metrics"]["rows_returned"], 1);

    // 3. The status design with its key: a hot partition, not a scan.
    let status = run(addr, &tab, &preset("status", "key"));
    assert_eq!(status["class"], "partition-scan");
    let partitions = status["facts"]["tables"][0]["partitions"]
        .as_array()
        .unwrap();
    assert_eq!(partitions.len(), 1);
    assert_eq!(partitions[0]["hot"], true);
    assert_eq!(nodes_with(&status, "hot"), nodes_with(&status, "replica"));
    assert!(nodes_with(&status, "asked").is_empty());
    let rules: Vec<&str> = status["lint"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["rule"].as_str().unwrap())
        .collect();
    assert_eq!(
        rules,
        ["hot-partition"],
        "the design is judged where it is queried"
    );

    // 4. No partition key: a scatter-gather, every partition in token order.
    let scan = run(addr, &tab, &preset("inbox", "scan"));
    assert_eq!(scan["class"], "scatter-gather");
    assert_eq!(scan["plan"]["partitions"]["kind"], "all");
    assert!(!nodes_with(&scan, "asked").is_empty());
    let tokens: Vec<i64> = scan["facts"]["tables"][0]["partitions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["token"].as_str().unwrap().parse().unwrap())
        .collect();
    assert_eq!(tokens.len(), 3);
    assert!(tokens.windows(2).all(|w| w[0] < w[1]));
    assert!(!scan["suggestion"].is_null() || !scan["lint"].as_array().unwrap().is_empty());
}

#[test]
fn a_refusal_carries_cassandras_message_its_relation_and_the_linter() {
    let addr = shared();
    let tab = tab(addr);
    let cql = preset("inbox", "refused");
    let focus = run(addr, &tab, &cql);
    assert_eq!(focus["kind"], "error");
    assert_eq!(focus["error"], "InvalidRequest");
    assert_eq!(focus["class"], "rejected");
    assert!(focus["message"]
        .as_str()
        .unwrap()
        .ends_with("use ALLOW FILTERING"));
    let (start, end) = (
        focus["underline"]["start"].as_u64().unwrap() as usize,
        focus["underline"]["end"].as_u64().unwrap() as usize,
    );
    assert_eq!(&cql[start..end], "sender = 'boss@work.example.com'");
    assert_eq!(focus["partial"]["table"], "demo.inbox_by_user");
    assert!(focus["lint"]
        .as_array()
        .unwrap()
        .iter()
        .any(|f| f["rule"] == "allow-filtering-required"));
    let suggestion = &focus["suggestion"];
    assert!(suggestion["create_table"]
        .as_str()
        .unwrap()
        .starts_with("CREATE TABLE"));
    // The suggestion, run, serves the query from one partition.
    let script = format!(
        "{}\n{}",
        suggestion["create_table"].as_str().unwrap(),
        suggestion["query"].as_str().unwrap()
    );
    let tried = run(addr, &tab, &script);
    assert_eq!(tried["class"], "partition-scan");
}

#[test]
fn a_node_down_turns_quorum_into_unavailable_and_reset_brings_it_back() {
    let addr = shared();
    let tab = tab(addr);
    let cql = preset("orders", "key");
    let before = run(addr, &tab, &cql);
    let replicas = nodes_with(&before, "replica");
    assert_eq!(replicas.len(), 3);
    ok(
        addr,
        "/api/controls",
        &json!({ "tab": tab, "consistency": "QUORUM", "node": { "id": replicas[0], "up": false } }),
    );
    let one_down = run(addr, &tab, &cql);
    assert_eq!(one_down["class"], "point-lookup");
    assert_eq!(nodes_with(&one_down, "contacted").len(), 2);
    ok(
        addr,
        "/api/controls",
        &json!({ "tab": tab, "node": { "id": replicas[1], "up": false } }),
    );
    let two_down = run(addr, &tab, &cql);
    assert_eq!(two_down["error"], "Unavailable");
    assert_eq!(
        two_down["message"],
        "Cannot achieve consistency level QUORUM"
    );
    let down = &two_down["partial"]["partitions"]["partitions"][0]["down"];
    assert_eq!(down.as_array().unwrap().len(), 2);

    let reset = ok(addr, "/api/reset", &json!({ "tab": tab }));
    assert_eq!(reset["cluster"]["consistency"], "ONE");
    assert_eq!(run(addr, &tab, &cql)["class"], "point-lookup");
}

#[test]
fn tabs_do_not_share_their_sessions() {
    let addr = shared();
    let (a, b) = (tab(addr), tab(addr));
    run(
        addr,
        &a,
        "CREATE TABLE demo.mine (k int PRIMARY KEY, v text); INSERT INTO demo.mine (k, v) VALUES (1, 'a');",
    );
    assert_eq!(
        run(addr, &a, "SELECT * FROM demo.mine WHERE k = 1;")["rows"],
        json!([[1, "a"]])
    );
    assert_eq!(
        run(addr, &b, "SELECT * FROM demo.mine WHERE k = 1;")["error"],
        "InvalidRequest"
    );
}

#[test]
fn controls_change_the_ring_and_bad_ones_change_nothing() {
    let addr = shared();
    let tab = tab(addr);
    let answer = ok(
        addr,
        "/api/controls",
        &json!({ "tab": tab, "nodes": 6, "rf": 2, "second_dc": true }),
    );
    let nodes = answer["cluster"]["nodes"].as_array().unwrap();
    assert_eq!(nodes.len(), 12);
    assert!(nodes.iter().any(|n| n["datacenter"] == "dc2"));
    let focus = run(addr, &tab, &preset("orders", "key"));
    assert_eq!(
        nodes_with(&focus, "replica").len(),
        4,
        "RF 2 in each of two data centres"
    );

    // A bad value anywhere in the request, and nothing of it is applied.
    let (status, error) = post(
        addr,
        "/api/controls",
        &json!({ "tab": tab, "node": { "id": "node1", "up": false }, "consistency": "SOMETIMES" }),
    );
    assert_eq!(status, 400, "{error}");
    let (status, _) = post(
        addr,
        "/api/controls",
        &json!({ "tab": tab, "consistency": "ONE", "node": { "id": "node99", "up": false } }),
    );
    assert_eq!(status, 400);
    let after = run(addr, &tab, &preset("orders", "key"));
    assert!(after["facts"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .all(|n| n["up"] == true));
    assert_eq!(after["plan"]["consistency"], "ONE");
    for bad in [
        json!({ "tab": tab, "nodes": 0 }),
        json!({ "tab": tab, "nodes": 13 }),
        json!({ "tab": tab, "rf": "three" }),
        json!({ "tab": tab, "second_dc": "yes" }),
        json!({ "tab": tab, "node": { "id": "node1" } }),
    ] {
        assert_eq!(post(addr, "/api/controls", &bad).0, 400, "{bad}");
    }
}

#[test]
fn the_lexer_highlights_the_editor() {
    let addr = shared();
    let answer = ok(
        addr,
        "/api/highlight",
        &json!({ "cql": "SELECT 'é' FROM t; -- note" }),
    );
    let spans = answer["spans"].as_array().unwrap();
    assert_eq!(
        spans[0],
        json!({ "start": 0, "end": 6, "style": "keyword" })
    );
    // Offsets count UTF-16 units, as the page's strings do.
    assert_eq!(
        spans[1],
        json!({ "start": 7, "end": 10, "style": "string" })
    );
    assert_eq!(spans.last().unwrap()["style"], "comment");
}

#[test]
fn the_hbase_view_places_the_rows_in_regions() {
    let addr = shared();
    let tab = tab(addr);
    let cql = preset("status", "key");
    run(addr, &tab, &cql);
    let view = ok(
        addr,
        "/api/hbase",
        &json!({ "tab": tab, "table": "demo.orders_by_status", "cql": cql, "split_rows": 1000 }),
    );
    assert_eq!(view["rows"], 12_000);
    let design = |name: &str| {
        view["designs"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["design"] == name)
            .unwrap()
            .clone()
    };
    let time_first = design("time-first");
    assert!(time_first["regions"].as_array().unwrap().len() >= 12);
    assert_eq!(time_first["last_region_share"], 100);
    assert!(design("salted")["last_region_share"].as_u64().unwrap() < 50);
    let touched: u64 = design("primary-key")["regions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["touched"].as_u64().unwrap())
        .sum();
    assert_eq!(touched, 20, "the 20 rows the LIMIT 20 read");
    assert_eq!(
        post(
            addr,
            "/api/hbase",
            &json!({ "tab": tab, "table": "demo.orders_by_status", "split_rows": 1 })
        )
        .0,
        400
    );
    assert_eq!(
        post(
            addr,
            "/api/hbase",
            &json!({ "tab": tab, "table": "demo.nope" })
        )
        .0,
        400
    );
}

#[test]
fn requests_the_page_would_not_send_are_refused() {
    let addr = shared();
    let port = addr.port();
    // Another host name (DNS rebinding) and another origin.
    let (status, _) = raw(
        addr,
        b"GET / HTTP/1.1\r\nHost: attacker.example:8080\r\nConnection: close\r\n\r\n",
    );
    assert_eq!(status, 421);
    let (status, _) = post_with(
        addr,
        "/api/tab",
        "{}",
        "Origin: http://attacker.example\r\n",
    );
    assert_eq!(status, 403);
    let (status, _) = post_with(
        addr,
        "/api/tab",
        "{}",
        &format!("Origin: http://127.0.0.1:{port}\r\nSec-Fetch-Site: cross-site\r\n"),
    );
    assert_eq!(status, 403);
    let (status, _) = post_with(
        addr,
        "/api/tab",
        "{}",
        &format!("Origin: http://localhost:{port}\r\n"),
    );
    assert_eq!(status, 200);
    // Not JSON, the wrong type, the wrong shape.
    let form = format!(
        "POST /api/tab HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: text/plain\r\n\
         Content-Length: 2\r\nConnection: close\r\n\r\n{{}}"
    );
    assert_eq!(raw(addr, form.as_bytes()).0, 415);
    let (status, error) = post_with(addr, "/api/run", "{\"tab\":", "");
    assert_eq!(status, 400);
    assert!(error["error"].as_str().unwrap().contains("not JSON"));
    assert_eq!(post_with(addr, "/api/run", "[1]", "").0, 400);
    assert_eq!(post(addr, "/api/run", &json!({ "tab": 5 })).0, 400);
    assert_eq!(
        post(
            addr,
            "/api/run",
            &json!({ "tab": "nope", "cql": "SELECT 1;" })
        )
        .0,
        400
    );
    assert_eq!(post(addr, "/api/nothing", &json!({})).0, 404);
    // Too large, too many statements, none at all.
    let big = "x".repeat(Config::default().max_body + 1);
    assert_eq!(post_with(addr, "/api/run", &big, "").0, 413);
    let tab = tab(addr);
    let many =
        "SELECT * FROM demo.orders_by_id LIMIT 1;".repeat(widerow::web::api::MAX_STATEMENTS + 1);
    let (status, error) = post(addr, "/api/run", &json!({ "tab": tab, "cql": many }));
    assert_eq!(status, 400);
    assert!(error["error"].as_str().unwrap().contains("at most 500"));
    assert_eq!(
        post(addr, "/api/run", &json!({ "tab": tab, "cql": "  " })).0,
        400
    );
    // Malformed HTTP.
    assert_eq!(raw(addr, b"BROKEN\r\n\r\n").0, 400);
    let chunked = format!(
        "POST /api/tab HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
    );
    assert_eq!(raw(addr, chunked.as_bytes()).0, 411);
    // Still serving.
    assert_eq!(
        run(addr, &tab, &preset("orders", "key"))["class"],
        "point-lookup"
    );
}

#[test]
fn tabs_are_capped_and_idle_ones_expire() {
    let capped = start(Config {
        max_tabs: 2,
        ..local()
    });
    tab(capped);
    tab(capped);
    let (status, error) = post(capped, "/api/tab", &json!({}));
    assert_eq!(status, 503, "{error}");

    let expiring = start(Config {
        idle: Duration::ZERO,
        ..local()
    });
    let first = tab(expiring);
    tab(expiring);
    let (status, error) = post(
        expiring,
        "/api/run",
        &json!({ "tab": first, "cql": "SELECT * FROM demo.orders_by_id;" }),
    );
    assert_eq!(status, 400);
    assert!(error["error"].as_str().unwrap().contains("expired"));
}

#[test]
fn a_read_past_its_deadline_stops() {
    let addr = start(Config {
        timeouts: Timeouts {
            read: Duration::ZERO,
            range: Duration::ZERO,
            ..Timeouts::default()
        },
        ..local()
    });
    let tab = tab(addr);
    let focus = run(addr, &tab, "SELECT * FROM demo.orders_by_status;");
    assert_eq!(focus["error"], "ReadTimeout", "{focus}");
}

#[test]
fn a_large_result_is_counted_and_cut() {
    let addr = shared();
    let tab = tab(addr);
    let focus = run(addr, &tab, "SELECT * FROM demo.orders_by_status;");
    assert_eq!(focus["rows_total"], 12_000);
    assert_eq!(
        focus["rows"].as_array().unwrap().len(),
        widerow::web::api::MAX_ROWS
    );
    assert_eq!(focus["metrics"]["rows_returned"], 12_000);
}

#[test]
fn connections_past_the_cap_are_closed() {
    let addr = start(Config {
        max_connections: 1,
        ..local()
    });
    let held = TcpStream::connect(addr).unwrap();
    std::thread::sleep(Duration::from_millis(200));
    let mut refused = TcpStream::connect(addr).unwrap();
    refused
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let _ = refused.write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    let mut answer = Vec::new();
    let _ = refused.read_to_end(&mut answer);
    assert!(
        answer.is_empty(),
        "the second connection is closed unanswered"
    );
    drop(held);
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(post(addr, "/api/tab", &json!({})).0, 200);
}

/// `widerow web` as a process: one `listening on http://…` line, exit 0 on
/// SIGTERM; exit 1 when its port is taken.
#[test]
fn the_command_prints_its_address_stops_on_sigterm_and_fails_on_a_taken_port() {
    use std::io::BufRead;
    use std::process::{Command, Stdio};

    let mut child = Command::new(env!("CARGO_BIN_EXE_widerow"))
        .args(["web", "--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let port: u16 = line
        .trim()
        .strip_prefix("listening on http://127.0.0.1:")
        .unwrap_or_else(|| panic!("{line:?}"))
        .parse()
        .unwrap();
    let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
    assert_eq!(post(addr, "/api/tab", &json!({})).0, 200);

    let taken = Command::new(env!("CARGO_BIN_EXE_widerow"))
        .args(["web", "--port", &port.to_string()])
        .output()
        .unwrap();
    assert_eq!(taken.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&taken.stderr).contains("cannot listen"));

    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(child.id() as i32),
        nix::sys::signal::Signal::SIGTERM,
    )
    .unwrap();
    assert_eq!(child.wait().unwrap().code(), Some(0));
}
