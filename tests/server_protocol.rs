//! The native protocol server at the byte level: what a driver's first
//! frames get, and what malformed or hostile frames get — a protocol
//! error on that connection, never a crash, never a disturbed neighbour.
//! The expected texts and framings are the ones a Cassandra 5.0.8 node
//! sends for the same bytes (captured from the oracle node).
//!
//! Real drivers are tested against the server by `scripts/drivers`.

mod server_client;

use std::io::{Read, Write};

use server_client::{
    connect, error_of, frame, op, query_body, read_plain_frame, request, started, startup_body,
};
use widerow::server::TestServer;
use widerow::Session;

#[test]
fn options_answers_supported_with_the_served_versions() {
    let server = TestServer::start(Session::new()).unwrap();
    let mut s = connect(server.addr());
    s.write_all(&frame(4, 7, 0x05, &[])).unwrap();
    let f = read_plain_frame(&mut s).unwrap();
    assert_eq!(&f.header[..5], &[0x84, 0, 0, 7, 0x06]);
    let text = String::from_utf8_lossy(&f.body);
    for expected in [
        "PROTOCOL_VERSIONS",
        "4/v4",
        "5/v5",
        "COMPRESSION",
        "lz4",
        "3.4.7",
    ] {
        assert!(text.contains(expected), "{expected} in {text}");
    }
}

#[test]
fn an_unsupported_version_gets_the_error_that_makes_drivers_fall_back() {
    let server = TestServer::start(Session::new()).unwrap();
    for version in [0x42u8, 6, 3] {
        let mut s = connect(server.addr());
        s.write_all(&frame(version, 0, 0x05, &[])).unwrap();
        let f = read_plain_frame(&mut s).unwrap();
        assert_eq!(
            f.header[0], 0x85,
            "answered in v5's framing, as Cassandra does"
        );
        assert_eq!(
            error_of(&f.body),
            (
                0x000A,
                format!(
                    "Invalid or unsupported protocol version ({version}); supported versions are (4/v4, 5/v5)"
                )
            )
        );
        // And the connection is closed.
        let mut rest = Vec::new();
        assert_eq!(s.read_to_end(&mut rest).unwrap_or(0), 0);
    }
}

#[test]
fn a_query_before_startup_is_refused_as_cassandra_refuses_it() {
    let server = TestServer::start(Session::new()).unwrap();
    let mut s = connect(server.addr());
    s.write_all(&frame(4, 3, 0x07, &query_body("SELECT 1")))
        .unwrap();
    let f = read_plain_frame(&mut s).unwrap();
    assert_eq!(f.header[2..4], 3i16.to_be_bytes());
    assert_eq!(
        error_of(&f.body),
        (
            0x000A,
            "Unexpected message QUERY, expecting STARTUP or OPTIONS".into()
        )
    );
}

#[test]
fn a_second_startup_is_refused_and_the_connection_stays() {
    let server = TestServer::start(Session::new()).unwrap();
    let mut s = started(server.addr());
    let again = request(&mut s, 2, op::STARTUP, &startup_body()).unwrap();
    assert_eq!(
        again.error(),
        Some((
            0x000A,
            "Unexpected message STARTUP, the connection is already initialized".into()
        ))
    );
    let options = request(&mut s, 3, op::OPTIONS, &[]).unwrap();
    assert_eq!(options.opcode(), op::SUPPORTED);
}

#[test]
fn statements_run_and_errors_carry_cassandras_codes() {
    let server = TestServer::start(Session::new()).unwrap();
    let mut s = started(server.addr());
    s.write_all(&frame(
        4,
        2,
        0x07,
        &query_body(
            "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}",
        ),
    ))
    .unwrap();
    let f = read_plain_frame(&mut s).unwrap();
    assert_eq!(f.header[4], 0x08, "RESULT");
    assert_eq!(&f.body[..4], &[0, 0, 0, 5], "Schema_change");
    s.write_all(&frame(4, 3, 0x07, &query_body("SELEC x")))
        .unwrap();
    let body = read_plain_frame(&mut s).unwrap().body;
    assert_eq!(error_of(&body).0, 0x2000);
    s.write_all(&frame(4, 4, 0x07, &query_body("SELECT * FROM ks.nope")))
        .unwrap();
    let body = read_plain_frame(&mut s).unwrap().body;
    assert_eq!(
        error_of(&body),
        (0x2200, "table nope does not exist".into())
    );
    s.write_all(&frame(
        4,
        5,
        0x07,
        &query_body(
            "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}",
        ),
    ))
    .unwrap();
    let body = read_plain_frame(&mut s).unwrap().body;
    let (code, message) = error_of(&body);
    assert_eq!(
        (code, message.as_str()),
        (0x2400, "Cannot add existing keyspace \"ks\"")
    );
    let rest = &body[6 + message.len()..];
    assert_eq!(
        rest,
        &[0, 2, b'k', b's', 0, 0],
        "keyspace, then an empty table"
    );
}

#[test]
fn garbage_and_oversized_frames_close_only_their_own_connection() {
    let server = TestServer::start(Session::new()).unwrap();
    let mut neighbour = started(server.addr());
    // An opcode no client sends, a truncated body, then a frame claiming
    // a body far past the limit.
    let mut s = started(server.addr());
    s.write_all(&frame(4, 9, 0x33, &[])).unwrap();
    let body = read_plain_frame(&mut s).unwrap().body;
    assert_eq!(error_of(&body), (0x000A, "Unknown opcode 51".into()));
    s.write_all(&frame(4, 10, 0x07, &[0, 0, 0, 200, b'x']))
        .unwrap();
    let body = read_plain_frame(&mut s).unwrap().body;
    assert_eq!(error_of(&body).0, 0x000A);
    let mut huge = frame(4, 11, 0x07, &[]);
    huge[5..9].copy_from_slice(&(1u32 << 30).to_be_bytes());
    s.write_all(&huge).unwrap();
    let body = read_plain_frame(&mut s).unwrap().body;
    let (code, message) = error_of(&body);
    assert_eq!(code, 0x000A);
    assert!(message.starts_with("Request is too big"), "{message}");
    let mut rest = Vec::new();
    assert_eq!(s.read_to_end(&mut rest).unwrap_or(0), 0, "closed");
    // Random bytes on a fresh connection.
    let mut g = connect(server.addr());
    let _ = g.write_all(&[0xde, 0xad, 0xbe, 0xef, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    let _ = g.read_to_end(&mut rest);
    // The neighbour still gets answers.
    neighbour.write_all(&frame(4, 1, 0x05, &[])).unwrap();
    let f = read_plain_frame(&mut neighbour).unwrap();
    assert_eq!(f.header[4], 0x06);
}
