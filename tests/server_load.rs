//! 1,000 clients at once: every connection is opened and started, each
//! sends one write at the same moment, every write is acknowledged, and
//! every acknowledged write is read back — none lost.
//!
//! The server runs in this process, so the test needs about 2,000 file
//! descriptors (a client and a server end per connection) plus slack: it
//! raises its own soft RLIMIT_NOFILE to 4,096 when it is lower, and fails
//! saying how to raise the hard limit when that is lower still.

mod server_client;

use std::io::Write;
use std::net::SocketAddr;
use std::sync::{Arc, Barrier};
use std::thread;

use nix::sys::resource::{getrlimit, setrlimit, Resource};
use server_client::*;
use widerow::server::TestServer;
use widerow::Session;

const CONNECTIONS: usize = 1_000;
/// Client threads; each owns `CONNECTIONS / THREADS` connections.
const THREADS: usize = 10;
/// Descriptors the test needs at least (both ends, the runtime, slack).
const FDS_NEEDED: u64 = 2_200;

/// Raises the soft open-file limit to what the test needs, or fails
/// saying how.
fn enough_file_descriptors() {
    let (soft, hard) = getrlimit(Resource::RLIMIT_NOFILE).expect("getrlimit");
    if soft >= FDS_NEEDED {
        return;
    }
    let wanted = hard.min(4_096);
    assert!(
        wanted >= FDS_NEEDED,
        "this test needs {FDS_NEEDED} open files but the hard limit is {hard}: \
         raise it (as root: `ulimit -Hn 4096`, or `LimitNOFILE=` / limits.conf) and run again"
    );
    setrlimit(Resource::RLIMIT_NOFILE, wanted, hard).expect("setrlimit");
}

/// Opens and starts `n` connections, waits for every thread, then writes
/// key `first + i` on connection `i` and checks each is acknowledged.
fn client(addr: SocketAddr, first: usize, n: usize, go: Arc<Barrier>) -> Vec<usize> {
    let mut conns: Vec<_> = (0..n).map(|_| started(addr)).collect();
    go.wait();
    for (i, c) in conns.iter_mut().enumerate() {
        let key = first + i;
        let cql = format!("INSERT INTO ks.t (k, v) VALUES ({key}, 'v{key}')");
        c.write_all(&frame(4, 2, op::QUERY, &query_body(&cql)))
            .unwrap();
    }
    conns
        .iter_mut()
        .enumerate()
        .map(|(i, c)| {
            let f = read_frame(c).unwrap_or_else(|e| panic!("key {}: no answer: {e}", first + i));
            assert_eq!(f.opcode(), op::RESULT, "key {}: {:?}", first + i, f.error());
            assert_eq!(&f.body[..4], &[0, 0, 0, 1], "a Void result");
            first + i
        })
        .collect()
}

#[test]
fn a_thousand_concurrent_writers_lose_nothing() {
    enough_file_descriptors();
    let server = TestServer::start(Session::new()).unwrap();
    let mut admin = started(server.addr());
    query_ok(
        &mut admin,
        "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}",
    );
    query_ok(&mut admin, "CREATE TABLE ks.t (k int PRIMARY KEY, v text)");
    let per = CONNECTIONS / THREADS;
    let go = Arc::new(Barrier::new(THREADS));
    let clients: Vec<_> = (0..THREADS)
        .map(|t| {
            let go = go.clone();
            let addr = server.addr();
            thread::spawn(move || client(addr, t * per, per, go))
        })
        .collect();
    let mut acknowledged: Vec<usize> = clients
        .into_iter()
        .flat_map(|c| c.join().expect("a client thread failed"))
        .collect();
    acknowledged.sort_unstable();
    assert_eq!(acknowledged, (0..CONNECTIONS).collect::<Vec<_>>());

    let count = query_ok(&mut admin, "SELECT COUNT(*) FROM ks.t");
    assert_eq!(bigint_cell(&rows(&count.body)[0][0]), CONNECTIONS as i64);
    let all = query_ok(&mut admin, "SELECT k, v FROM ks.t");
    let mut read: Vec<(i32, Vec<u8>)> = rows(&all.body)
        .iter()
        .map(|r| (int_cell(&r[0]), r[1].clone().unwrap()))
        .collect();
    read.sort();
    let written: Vec<(i32, Vec<u8>)> = (0..CONNECTIONS as i32)
        .map(|k| (k, format!("v{k}").into_bytes()))
        .collect();
    assert_eq!(read, written, "every acknowledged write reads back");
}
