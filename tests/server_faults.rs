//! Misbehaving clients: killed mid-frame, trickling a frame a byte at a
//! time, or sending without ever reading. The server stays up, every other
//! connection is answered promptly (within [`PROMPT`]), the one that never
//! reads costs a bounded amount of memory, and writes acknowledged before
//! are all readable after. And `widerow serve` itself, as a process, exits
//! 0 on SIGTERM with clients connected — one of them not reading — and
//! closes their connections.
//!
//! The tests run one at a time (the memory bound is measured on this
//! process, which hosts the server).

mod server_client;

use std::io::{BufRead, BufReader, ErrorKind, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::thread;
use std::time::{Duration, Instant};

use server_client::*;
use widerow::server::TestServer;
use widerow::Session;

/// How long a good request on another connection may take while a client
/// misbehaves: generous for two loaded cores, far below a stall.
const PROMPT: Duration = Duration::from_secs(2);
/// The blob each big row holds: a SELECT of it is a 100 KB answer.
const BLOB: usize = 100 * 1024;

static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(|p| p.into_inner())
}

/// A server with `ks.t (k int PRIMARY KEY, v blob)`, keys `0..n` written
/// and acknowledged, and an open connection.
fn server_with_rows(n: i32) -> (TestServer, TcpStream) {
    let server = TestServer::start(Session::new()).unwrap();
    let mut c = started(server.addr());
    create_schema(&mut c);
    for k in 0..n {
        query_ok(
            &mut c,
            &format!("INSERT INTO ks.t (k, v) VALUES ({k}, 0x{k:04x})"),
        );
    }
    (server, c)
}

fn create_schema(c: &mut TcpStream) {
    query_ok(
        c,
        "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}",
    );
    query_ok(c, "CREATE TABLE ks.t (k int PRIMARY KEY, v blob)");
}

/// Every key of `0..n` reads back with its value.
fn all_readable(c: &mut TcpStream, n: i32) {
    let f = query_ok(c, "SELECT k, v FROM ks.t WHERE k < 100000 ALLOW FILTERING");
    let mut read: Vec<(i32, Vec<u8>)> = rows(&f.body)
        .iter()
        .map(|r| (int_cell(&r[0]), r[1].clone().unwrap()))
        .filter(|(k, _)| *k < n)
        .collect();
    read.sort();
    let written: Vec<_> = (0..n)
        .map(|k| (k, (k as u16).to_be_bytes().to_vec()))
        .collect();
    assert_eq!(read, written, "acknowledged writes read back");
}

/// OPTIONS and a QUERY on `c` are answered, within [`PROMPT`].
fn answered_promptly(c: &mut TcpStream, what: &str) {
    let start = Instant::now();
    c.write_all(&frame(4, 5, op::OPTIONS, &[])).unwrap();
    let f = read_frame(c).unwrap_or_else(|e| panic!("{what}: no SUPPORTED: {e}"));
    assert_eq!(f.opcode(), op::SUPPORTED, "{what}");
    query_ok(c, "SELECT v FROM ks.t WHERE k = 0");
    let took = start.elapsed();
    assert!(took < PROMPT, "{what}: a good request took {took:?}");
}

#[test]
fn clients_killed_mid_frame_leave_the_server_serving() {
    let _serial = serial();
    let (server, mut neighbour) = server_with_rows(50);
    let query = frame(4, 3, op::QUERY, &query_body("SELECT * FROM ks.t"));
    let mut big = frame(4, 4, op::QUERY, &[0; 100]);
    big[5..9].copy_from_slice(&(1u32 << 20).to_be_bytes());
    let kills: Vec<(&str, Vec<u8>, bool)> = vec![
        ("half a header", query[..4].to_vec(), false),
        (
            "a header and half a body",
            query[..query.len() / 2].to_vec(),
            true,
        ),
        ("100 bytes of a 1 MiB body", big, true),
        ("half a header, not started", query[..5].to_vec(), false),
    ];
    for round in 0..5 {
        for (what, bytes, start) in &kills {
            let mut s = if *start {
                started(server.addr())
            } else {
                connect(server.addr())
            };
            s.write_all(bytes).unwrap();
            drop(s);
            answered_promptly(&mut neighbour, &format!("after {what} (round {round})"));
        }
        // A v5 connection killed inside a segment.
        let mut v5 = V5::start(server.addr());
        let mut segment = Vec::new();
        widerow::server::segment::encode_segments(&query, false, &mut segment);
        v5.stream.write_all(&segment[..segment.len() - 3]).unwrap();
        drop(v5);
    }
    answered_promptly(&mut started(server.addr()), "a new connection");
    all_readable(&mut neighbour, 50);
}

#[test]
fn a_client_trickling_a_frame_holds_up_no_one() {
    let _serial = serial();
    let (server, mut neighbour) = server_with_rows(10);
    let addr = server.addr();
    let slow = thread::spawn(move || {
        let mut s = started(addr);
        let mut bytes = Vec::new();
        for k in 100..104 {
            let cql = format!("INSERT INTO ks.t (k, v) VALUES ({k}, 0x{k:04x})");
            bytes.extend(frame(4, k as i16, op::QUERY, &query_body(&cql)));
        }
        for b in &bytes {
            s.write_all(&[*b]).unwrap();
            thread::sleep(Duration::from_millis(3));
        }
        (100..104)
            .map(|k| {
                let f = read_frame(&mut s).unwrap();
                assert_eq!((f.opcode(), f.stream()), (op::RESULT, k as i16));
            })
            .count()
    });
    let mut checks = 0;
    while !slow.is_finished() {
        answered_promptly(&mut neighbour, "while a client trickles");
        checks += 1;
        thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(slow.join().unwrap(), 4, "the trickled writes acknowledged");
    assert!(
        checks > 5,
        "the neighbour was checked while the client trickled"
    );
    all_readable(&mut neighbour, 10);
    for k in 100..104 {
        let f = query_ok(&mut neighbour, &format!("SELECT v FROM ks.t WHERE k = {k}"));
        assert_eq!(
            rows(&f.body),
            vec![vec![Some((k as u16).to_be_bytes().to_vec())]]
        );
    }
}

/// This process's resident memory, in bytes.
fn rss() -> usize {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    let kb: usize = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    kb * 1024
}

/// Writes the row with the big blob (key 1000).
fn write_big_row(c: &mut TcpStream) {
    let cql = "INSERT INTO ks.t (k, v) VALUES (1000, ?)";
    c.write_all(&frame(
        4,
        9,
        op::QUERY,
        &query_values_body(cql, &[&[7u8; BLOB]]),
    ))
    .unwrap();
    let f = read_frame(c).unwrap();
    assert_eq!(f.opcode(), op::RESULT, "{:?}", f.error());
}

/// Sends SELECTs of the big row (a 100 KB answer each, a 40-byte request)
/// without reading, until the server stops reading them; returns the
/// socket (still unread) and how many were sent. Panics if the server
/// takes 64 MiB of requests without pushing back.
fn flood_without_reading(addr: SocketAddr) -> (TcpStream, usize) {
    let mut s = started(addr);
    s.set_write_timeout(Some(Duration::from_millis(500)))
        .unwrap();
    let one = frame(
        4,
        1,
        op::QUERY,
        &query_body("SELECT v FROM ks.t WHERE k = 1000"),
    );
    let batch: Vec<u8> = one.repeat(100);
    let mut sent = 0;
    while sent * one.len() < 64 << 20 {
        match s.write(&batch) {
            Ok(n) => sent += n / one.len(),
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                return (s, sent);
            }
            Err(e) => panic!("flooding: {e}"),
        }
    }
    panic!("the server took {sent} requests without reading its answers and never pushed back");
}

#[test]
fn a_client_that_never_reads_is_held_back_and_holds_up_no_one() {
    let _serial = serial();
    let (server, mut neighbour) = server_with_rows(20);
    write_big_row(&mut neighbour);
    let before = rss();
    let (flooder, sent) = flood_without_reading(server.addr());
    // The server may still be answering what it read: watch its memory
    // settle for a while, serving the neighbour meanwhile.
    let mut peak = rss();
    for _ in 0..10 {
        answered_promptly(&mut neighbour, "while a client does not read");
        thread::sleep(Duration::from_millis(100));
        peak = peak.max(rss());
    }
    let grown = peak.saturating_sub(before);
    assert!(
        grown < 64 << 20,
        "{sent} unread requests grew the server by {} MiB",
        grown >> 20
    );
    drop(flooder);
    answered_promptly(&mut started(server.addr()), "after the flooder left");
    all_readable(&mut neighbour, 20);
}

/// `widerow serve --port 0`, killed when dropped if still running.
struct Serve {
    child: Child,
    addr: SocketAddr,
}

impl Serve {
    fn start() -> Serve {
        let mut child = Command::new(env!("CARGO_BIN_EXE_widerow"))
            .args(["serve", "--port", "0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("widerow serve");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let addr = line
            .trim()
            .strip_prefix("listening on ")
            .unwrap_or_else(|| panic!("the first line was {line:?}"))
            .parse()
            .unwrap();
        Serve { child, addr }
    }

    /// Sends SIGTERM and waits up to `limit` for the exit code.
    fn terminate(&mut self, limit: Duration) -> Option<i32> {
        use nix::sys::signal::{kill, Signal};
        use nix::unistd::Pid;
        kill(Pid::from_raw(self.child.id() as i32), Signal::SIGTERM).unwrap();
        let start = Instant::now();
        while start.elapsed() < limit {
            if let Some(status) = self.child.try_wait().unwrap() {
                return Some(status.code().unwrap_or(-1));
            }
            thread::sleep(Duration::from_millis(20));
        }
        None
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn sigterm_closes_every_connection_and_exits_zero() {
    let _serial = serial();
    let mut serve = Serve::start();
    let mut idle = started(serve.addr);
    create_schema(&mut idle);
    write_big_row(&mut idle);
    let mut mid_frame = started(serve.addr);
    mid_frame
        .write_all(&frame(4, 1, op::QUERY, &[0, 0])[..7])
        .unwrap();
    let mut v5 = V5::start(serve.addr);
    let (mut flooder, _) = flood_without_reading(serve.addr);
    assert_eq!(
        serve.terminate(Duration::from_secs(10)),
        Some(0),
        "widerow serve exits 0 within 10 s of SIGTERM, a client not reading"
    );
    for (what, s) in [
        ("idle", &mut idle),
        ("mid-frame", &mut mid_frame),
        ("v5", &mut v5.stream),
    ] {
        let rest = read_to_close(s).unwrap_or_else(|e| panic!("{what}: no EOF: {e}"));
        assert!(rest.is_empty(), "{what}: {rest:?} before EOF");
    }
    read_to_close(&mut flooder).expect("the flooder sees its answers, then EOF");
}
