//! widerow's `CLUSTER` statements and deadlines at the byte level: what a
//! client sees on the wire when a node is taken down and brought back (an
//! announced STATUS_CHANGE, its connections hung up, its address refusing
//! new ones), and a read or write stopped by its deadline (ReadTimeout's and
//! WriteTimeout's bodies, a CAS write's as v4 and v5 tell it).
//! Real drivers' view of the same is in `tests/drivers/python/test_control.py`.

mod server_client;

use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

use server_client::op::{ERROR, EVENT, QUERY, READY, REGISTER, RESULT};
use server_client::{
    connect, error_of, frame, hung_up, query_body, read_plain_frame, request, rows, started,
    startup, string_list, V5,
};
use widerow::deadline::Timeouts;
use widerow::server::{Config, TestServer};
use widerow::Session;

/// A STATUS_CHANGE body: the change and the node's address.
fn status_change(change: &str, addr: SocketAddr) -> Vec<u8> {
    let mut out = string_list(&["STATUS_CHANGE", change])[2..].to_vec();
    let SocketAddr::V4(v4) = addr else {
        panic!("IPv4 nodes")
    };
    out.push(4);
    out.extend_from_slice(&v4.ip().octets());
    out.extend_from_slice(&i32::from(v4.port()).to_be_bytes());
    out
}

/// The next frame pushed to `s`: (stream, opcode, body).
fn next_frame(s: &mut TcpStream) -> (i16, u8, Vec<u8>) {
    let f = read_plain_frame(s).unwrap();
    (f.stream(), f.opcode(), f.body)
}

fn start_on(addr: SocketAddr) -> TcpStream {
    let (s, f) = startup(addr).unwrap();
    assert_eq!(f.opcode(), READY);
    s
}

/// Sends `body` as `opcode` on stream `stream`: the answer's opcode and body.
fn send(s: &mut TcpStream, stream: i16, opcode: u8, body: &[u8]) -> (u8, Vec<u8>) {
    let f = request(s, stream, opcode, body).unwrap();
    (f.opcode(), f.body)
}

#[test]
fn a_node_taken_down_hangs_up_is_announced_and_comes_back() {
    let server = TestServer::start(Session::new()).unwrap();
    let node2 = server.addresses()[1];
    let mut watcher = started(server.addr());
    let (opcode, _) = send(&mut watcher, 2, REGISTER, &string_list(&["STATUS_CHANGE"]));
    assert_eq!(opcode, READY);
    let mut on_node2 = start_on(node2);

    let (opcode, body) = send(&mut watcher, 3, QUERY, &query_body("CLUSTER DOWN node2"));
    assert_eq!(opcode, RESULT, "{:?}", error_of(&body));
    assert_eq!(
        next_frame(&mut watcher),
        (-1, EVENT, status_change("DOWN", node2))
    );
    assert!(hung_up(&mut on_node2), "node2's connection closes");
    assert!(hung_up(&mut connect(node2)), "node2 hangs up on new ones");

    // Down is down for the planner too: at ALL, RF 4 needs node2.
    for (stream, cql) in [
        (
            4,
            "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', \
             'replication_factor': 4}",
        ),
        (5, "CREATE TABLE ks.t (k int PRIMARY KEY)"),
    ] {
        let (opcode, body) = send(&mut watcher, stream, QUERY, &query_body(cql));
        assert_eq!(opcode, RESULT, "{cql}: {:?}", error_of(&body));
    }
    let mut at_all = query_body("SELECT * FROM ks.t WHERE k = 1");
    let flags_at = at_all.len() - 3;
    at_all[flags_at..].copy_from_slice(&[0x00, 0x05, 0x00]); // ALL, no flags
    let (opcode, body) = send(&mut watcher, 6, QUERY, &at_all);
    assert_eq!((opcode, error_of(&body).0), (ERROR, 0x1000), "Unavailable");

    let (opcode, _) = send(&mut watcher, 7, QUERY, &query_body("CLUSTER UP node2"));
    assert_eq!(opcode, RESULT);
    assert_eq!(
        next_frame(&mut watcher),
        (-1, EVENT, status_change("UP", node2))
    );
    let mut back = start_on(node2);
    let (opcode, _) = send(
        &mut back,
        2,
        QUERY,
        &query_body("SELECT * FROM system.local"),
    );
    assert_eq!(opcode, RESULT);
}

#[test]
fn control_statements_refuse_what_they_cannot_do() {
    let server = TestServer::start(Session::new()).unwrap();
    let mut s = started(server.addr());
    for (cql, message) in [
        ("CLUSTER DOWN node9", "node9"),
        (
            "CLUSTER RESTORE never_saved",
            "No snapshot named 'never_saved'",
        ),
        ("CLUSTER CLOCK ADVANCE 1mo", "months have no fixed length"),
        ("CLUSTER JUMP", "Improper CLUSTER statement"),
    ] {
        let (opcode, body) = send(&mut s, 2, QUERY, &query_body(cql));
        assert_eq!(opcode, ERROR, "{cql}");
        let (code, text) = error_of(&body);
        assert_eq!(code, 0x2200, "{cql}: {text}");
        assert!(text.contains(message), "{cql}: {text}");
    }
}

#[test]
fn a_read_past_its_deadline_gets_read_timeout() {
    let mut session = Session::new();
    session
        .execute_script(
            "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', \
             'replication_factor': 1}; CREATE TABLE ks.t (k int PRIMARY KEY); \
             INSERT INTO ks.t (k) VALUES (1);",
        )
        .unwrap();
    let config = Config {
        timeouts: Timeouts {
            read: Duration::from_secs(5),
            range: Duration::ZERO,
            ..Timeouts::default()
        },
        ..Config::default()
    };
    let server = TestServer::start_with(session, config).unwrap();
    let mut s = started(server.addr());
    let (opcode, body) = send(&mut s, 2, QUERY, &query_body("SELECT * FROM ks.t"));
    assert_eq!(opcode, ERROR);
    let (code, message) = error_of(&body);
    assert_eq!(
        (code, message.as_str()),
        (0x1200, "Operation timed out - received only 0 responses.")
    );
    // consistency ONE, received 0, block for 1, no data
    let after = 4 + 2 + message.len();
    assert_eq!(&body[after..], &[0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0]);
    // A point read has the (longer) read timeout and answers.
    let (opcode, _) = send(
        &mut s,
        3,
        QUERY,
        &query_body("SELECT * FROM ks.t WHERE k = 1"),
    );
    assert_eq!(opcode, RESULT);
}

/// What follows an error's code and message in its body.
fn error_info(body: &[u8]) -> (String, &[u8]) {
    let (_, message) = error_of(body);
    let after = 4 + 2 + message.len();
    (message, &body[after..])
}

/// A WriteTimeout's fields after the message: level, received, block
/// for, and the kind of write.
fn write_timeout_info(level: u16, block_for: i32, kind: &str) -> Vec<u8> {
    let mut out = level.to_be_bytes().to_vec();
    out.extend_from_slice(&0i32.to_be_bytes());
    out.extend_from_slice(&block_for.to_be_bytes());
    out.extend_from_slice(&(kind.len() as u16).to_be_bytes());
    out.extend_from_slice(kind.as_bytes());
    out
}

#[test]
fn a_write_past_its_deadline_gets_write_timeout_and_is_not_applied() {
    let mut session = Session::new();
    session
        .execute_script(
            "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', \
             'replication_factor': 1}; CREATE TABLE ks.t (k int PRIMARY KEY, v int);",
        )
        .unwrap();
    let config = Config {
        timeouts: Timeouts {
            write: Duration::ZERO,
            ..Timeouts::default()
        },
        ..Config::default()
    };
    let server = TestServer::start_with(session, config).unwrap();
    let mut s = started(server.addr());
    let write = "INSERT INTO ks.t (k, v) VALUES (1, 1)";
    let (opcode, body) = send(&mut s, 2, QUERY, &query_body(write));
    assert_eq!(opcode, ERROR);
    assert_eq!(error_of(&body).0, 0x1100);
    let (message, info) = error_info(&body);
    assert_eq!(message, "Operation timed out - received only 0 responses.");
    assert_eq!(info, write_timeout_info(0x0001, 1, "SIMPLE"));
    // Before v5, Cassandra sends a CAS timeout as a plain WriteTimeout.
    let cas = "INSERT INTO ks.t (k, v) VALUES (1, 1) IF NOT EXISTS";
    let (_, body) = send(&mut s, 3, QUERY, &query_body(cas));
    let (message, info) = error_info(&body);
    assert_eq!(message, "Operation timed out - received only 0 responses.");
    assert_eq!(info, write_timeout_info(0x0008, 1, "CAS"));
    // v5 sends CasWriteTimeoutException, its contentions last.
    let mut v5 = V5::start(server.addr());
    let mut query = (cas.len() as u32).to_be_bytes().to_vec();
    query.extend_from_slice(cas.as_bytes());
    query.extend_from_slice(&[0x00, 0x01, 0, 0, 0, 0]); // ONE, no flags
    v5.send(&frame(5, 4, QUERY, &query)).unwrap();
    let answer = v5.read().unwrap();
    assert_eq!(answer.opcode(), ERROR);
    let (message, info) = error_info(&answer.body);
    assert_eq!(
        message,
        "CAS operation timed out - encountered contentions: 0"
    );
    let mut expected = write_timeout_info(0x0008, 1, "CAS");
    expected.extend_from_slice(&0u16.to_be_bytes());
    assert_eq!(info, expected);
    // Nothing was written.
    let (opcode, body) = send(&mut s, 5, QUERY, &query_body("SELECT * FROM ks.t"));
    assert_eq!(opcode, RESULT);
    assert!(rows(&body).is_empty());
}
