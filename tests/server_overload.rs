//! The bytes of requests in flight, as Cassandra bounds them: past the
//! limit, a client whose STARTUP asked for THROW_ON_OVERLOAD is refused
//! with Overloaded at once (nothing runs), any other client is answered
//! once the requests ahead of it are. The engine is held busy by the test
//! itself (it takes the session's lock), so what is in flight is known
//! exactly rather than raced for.

mod server_client;

use std::io::Write;
use std::net::{SocketAddr, TcpStream};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use server_client::*;
use widerow::server::inflight::Limits;
use widerow::server::{Config, TestServer};
use widerow::Session;

const OVERLOADED: (i32, &str) = (
    0x1001,
    "Server is in overloaded state. Cannot accept more requests at this point",
);

/// A read of `system.local` whose QUERY body is `len` bytes long.
fn query_of_length(len: usize) -> String {
    let cql = "SELECT release_version FROM system.local";
    let padding = len - query_body(cql).len();
    format!("{cql}{}", " ".repeat(padding))
}

/// A v4 connection whose STARTUP asked for THROW_ON_OVERLOAD.
fn started_throwing(addr: SocketAddr) -> TcpStream {
    let mut s = connect(addr);
    let body = string_map(&[("CQL_VERSION", "3.0.0"), ("THROW_ON_OVERLOAD", "1")]);
    let f = request(&mut s, 1, op::STARTUP, &body).unwrap();
    assert_eq!(f.opcode(), op::READY, "STARTUP answered {f:?}");
    s
}

fn send_query(s: &mut TcpStream, stream: i16, cql: &str) {
    s.write_all(&frame(4, stream, op::QUERY, &query_body(cql)))
        .unwrap();
}

fn wait_for_in_flight(server: &TestServer, bytes: u64) {
    let start = Instant::now();
    while server.shared().in_flight().in_flight() != bytes {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "in flight: {} bytes, {bytes} expected",
            server.shared().in_flight().in_flight()
        );
        thread::sleep(Duration::from_millis(5));
    }
}

fn nothing_answered_yet(s: &mut TcpStream) {
    s.set_read_timeout(Some(Duration::from_millis(300)))
        .unwrap();
    let read = read_frame(s);
    assert!(
        read.is_err(),
        "answered while the engine was busy: {read:?}"
    );
    s.set_read_timeout(Some(IO_TIMEOUT)).unwrap();
}

#[test]
fn past_the_limit_a_throwing_client_gets_overloaded_and_the_others_wait_their_turn() {
    let config = Config {
        in_flight: Limits {
            total: 100_000,
            per_ip: 1_000,
        },
        ..Config::default()
    };
    let server = TestServer::start_with(Session::new(), config).unwrap();
    let mut first = started(server.addr());
    let mut throwing = started_throwing(server.addr());
    let mut second = started(server.addr());
    let (release, released) = mpsc::channel::<()>();
    let (holding, held) = mpsc::channel::<()>();
    thread::scope(|scope| {
        let shared = server.shared();
        scope.spawn(move || {
            shared.with_session(|_| {
                holding.send(()).unwrap();
                let _ = released.recv();
            })
        });
        held.recv().unwrap();
        send_query(&mut first, 5, &query_of_length(900));
        wait_for_in_flight(&server, 900);

        let refused = query(&mut throwing, 7, &query_of_length(200)).unwrap();
        assert_eq!(refused.stream(), 7);
        let (code, message) = refused.error().expect("an ERROR");
        assert_eq!((code, message.as_str()), OVERLOADED);
        wait_for_in_flight(&server, 900);

        send_query(&mut second, 9, &query_of_length(200));
        wait_for_in_flight(&server, 1_100);
        nothing_answered_yet(&mut second);
        release.send(()).unwrap();
    });

    for (s, stream) in [(&mut first, 5), (&mut second, 9)] {
        let f = read_frame(s).unwrap();
        assert_eq!(
            (f.stream(), f.opcode()),
            (stream, op::RESULT),
            "{:?}",
            f.error()
        );
    }
    wait_for_in_flight(&server, 0);
    let again = query(&mut throwing, 11, &query_of_length(200)).unwrap();
    assert_eq!(again.opcode(), op::RESULT, "{:?}", again.error());
}

#[test]
fn a_long_statement_holds_no_thread_other_connections_need() {
    let server = TestServer::start(Session::new()).unwrap();
    let mut busy: Vec<TcpStream> = (0..4).map(|_| started(server.addr())).collect();
    let (release, released) = mpsc::channel::<()>();
    let (holding, held) = mpsc::channel::<()>();
    thread::scope(|scope| {
        let shared = server.shared();
        scope.spawn(move || {
            shared.with_session(|_| {
                holding.send(()).unwrap();
                let _ = released.recv();
            })
        });
        held.recv().unwrap();
        // More statements waiting on the engine than the runtime has
        // threads: OPTIONS, STARTUP and new connections are still answered.
        for (i, s) in busy.iter_mut().enumerate() {
            send_query(s, i as i16 + 2, "SELECT release_version FROM system.local");
        }
        let mut fresh = started(server.addr());
        let options = request(&mut fresh, 3, op::OPTIONS, &[]).unwrap();
        assert_eq!(options.opcode(), op::SUPPORTED);
        release.send(()).unwrap();
    });
    for (i, s) in busy.iter_mut().enumerate() {
        let f = read_frame(s).unwrap();
        assert_eq!((f.stream(), f.opcode()), (i as i16 + 2, op::RESULT));
    }
}
