//! The ring of a running server changing under its drivers, at the byte
//! level: `CLUSTER NODES` and a keyspace naming a data centre the ring
//! lacks add nodes that answer on their own addresses, announced with
//! TOPOLOGY_CHANGE `NEW_NODE`; nodes removed hang up, stop answering and
//! are announced with `REMOVED_NODE`; nodes whose tokens moved with
//! `MOVED_NODE`. A rebuild the server cannot listen for changes nothing.
//! Real drivers' view of the same is in `tests/drivers/python/test_control.py`.

mod server_client;

use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use server_client::op::{EVENT, READY, REGISTER};
use server_client::{
    hung_up, query, query_ok, read_plain_frame, request, rows, started, string_list,
};
use widerow::server::TestServer;
use widerow::Session;

/// A connection registered for node events.
fn watcher(addr: SocketAddr) -> TcpStream {
    let mut s = started(addr);
    let body = string_list(&["TOPOLOGY_CHANGE", "STATUS_CHANGE"]);
    let f = request(&mut s, 2, REGISTER, &body).unwrap();
    assert_eq!(f.opcode(), READY);
    s
}

/// An EVENT body read back: its type, change and node address.
fn event_of(body: &[u8]) -> (String, String, SocketAddr) {
    let mut at = 0;
    let mut string = || {
        let len = u16::from_be_bytes([body[at], body[at + 1]]) as usize;
        let text = String::from_utf8(body[at + 2..at + 2 + len].to_vec()).unwrap();
        at += 2 + len;
        text
    };
    let (kind, change) = (string(), string());
    assert_eq!(body[at], 4, "an IPv4 address");
    let ip = Ipv4Addr::new(body[at + 1], body[at + 2], body[at + 3], body[at + 4]);
    let port = i32::from_be_bytes(body[at + 5..at + 9].try_into().unwrap());
    (kind, change, SocketAddr::new(IpAddr::V4(ip), port as u16))
}

/// The events pushed to `s` until `last` arrives, in order.
fn events_until(s: &mut TcpStream, last: (&str, SocketAddr)) -> Vec<(String, String, SocketAddr)> {
    let mut events = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(10);
    while Instant::now() < deadline {
        let f = read_plain_frame(s).unwrap();
        assert_eq!((f.stream(), f.opcode()), (-1, EVENT), "{f:?}");
        let event = event_of(&f.body);
        let done = event.1 == last.0 && event.2 == last.1;
        events.push(event);
        if done {
            return events;
        }
    }
    panic!("no {last:?} among {events:?}")
}

fn node(server: &TestServer, n: u8) -> SocketAddr {
    SocketAddr::new(
        IpAddr::V4(Ipv4Addr::new(127, 0, 0, n)),
        server.addr().port(),
    )
}

fn peer_count(s: &mut TcpStream) -> usize {
    rows(&query_ok(s, "SELECT peer FROM system.peers").body).len()
}

#[test]
fn nodes_added_by_cluster_nodes_answer_and_are_announced() {
    let server = TestServer::start(Session::new()).unwrap();
    let mut events = watcher(server.addr());
    let mut s = started(server.addr());
    query_ok(&mut s, "CLUSTER NODES 6");

    let told = events_until(&mut events, ("NEW_NODE", node(&server, 6)));
    let news: Vec<_> = told
        .iter()
        .filter(|e| e.1 == "NEW_NODE")
        .map(|e| e.2)
        .collect();
    assert_eq!(news, [node(&server, 5), node(&server, 6)], "{told:?}");
    for (kind, change, address) in &told {
        assert_eq!(kind, "TOPOLOGY_CHANGE");
        if change != "NEW_NODE" {
            assert_eq!(
                change, "MOVED_NODE",
                "the old nodes' tokens moved: {told:?}"
            );
            assert!(server.addresses()[..4].contains(address));
        }
    }
    assert_eq!(server.addresses().len(), 6);
    let mut on_node6 = started(node(&server, 6));
    assert_eq!(peer_count(&mut on_node6), 5);
    let local = query_ok(&mut on_node6, "SELECT broadcast_address FROM system.local");
    assert_eq!(
        rows(&local.body)[0][0].as_deref(),
        Some(&[127, 0, 0, 6][..])
    );
}

#[test]
fn nodes_removed_hang_up_stop_answering_and_can_come_back() {
    let server = TestServer::start(Session::new()).unwrap();
    let mut events = watcher(server.addr());
    let mut s = started(server.addr());
    let mut on_node4 = started(node(&server, 4));
    query_ok(&mut s, "CLUSTER NODES 3");

    let told = events_until(&mut events, ("REMOVED_NODE", node(&server, 4)));
    assert_eq!(told[0].1, "REMOVED_NODE", "removals come first: {told:?}");
    assert!(hung_up(&mut on_node4), "node4's connection closes");
    assert!(hung_up(&mut server_client::connect(node(&server, 4))));
    assert_eq!(peer_count(&mut s), 2);
    assert_eq!(server.addresses().len(), 3);

    // Back in the ring, the node answers on the listener it had.
    query_ok(&mut s, "CLUSTER NODES 4");
    events_until(&mut events, ("NEW_NODE", node(&server, 4)));
    let mut back = started(node(&server, 4));
    assert_eq!(peer_count(&mut back), 3);
}

#[test]
fn a_data_centre_added_by_a_keyspace_brings_nodes_that_answer() {
    let server = TestServer::start(Session::new()).unwrap();
    let mut events = watcher(server.addr());
    let mut s = started(server.addr());
    query_ok(
        &mut s,
        "CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', \
         'datacenter1': 1, 'dc9': 1}",
    );
    let told = events_until(&mut events, ("NEW_NODE", node(&server, 8)));
    let news: Vec<_> = told
        .iter()
        .filter(|e| e.1 == "NEW_NODE")
        .map(|e| e.2)
        .collect();
    assert_eq!(news, (5..=8).map(|n| node(&server, n)).collect::<Vec<_>>());
    let mut in_dc9 = started(node(&server, 5));
    let local = query_ok(&mut in_dc9, "SELECT data_center FROM system.local");
    assert_eq!(rows(&local.body)[0][0].as_deref(), Some(&b"dc9"[..]));
}

#[test]
fn a_rebuild_it_cannot_listen_for_changes_nothing() {
    let server = TestServer::start(Session::new()).unwrap();
    let port = server.addr().port();
    let _taken = std::net::TcpListener::bind(node(&server, 6)).unwrap();
    let mut s = started(server.addr());
    let f = query(&mut s, 3, "CLUSTER NODES 6").unwrap();
    let (code, message) = f.error().expect("refused");
    assert_eq!(code, 0x2300, "{message}");
    assert!(
        message.contains(&format!("cannot listen on 127.0.0.6:{port}")),
        "{message}"
    );
    assert_eq!(server.addresses().len(), 4);
    assert_eq!(peer_count(&mut s), 3);
    assert_eq!(rows(&query_ok(&mut s, "CLUSTER").body).len(), 4);
    // The address it did bind before failing is let go, and a later
    // rebuild that can listen goes through.
    drop(_taken);
    query_ok(&mut s, "CLUSTER NODES 6");
    assert_eq!(server.addresses().len(), 6);
}

#[test]
fn a_bad_node_count_is_refused() {
    let server = TestServer::start(Session::new()).unwrap();
    let mut s = started(server.addr());
    for (cql, message) in [
        (
            "CLUSTER NODES many",
            "CLUSTER NODES: 'many' is not a node count",
        ),
        ("CLUSTER NODES datacenter1:x", "'x' is not a node count"),
        ("CLUSTER NODES 5000", "at most 4096 nodes"),
    ] {
        let f = query(&mut s, 2, cql).unwrap();
        let (code, text) = f.error().unwrap_or_else(|| panic!("{cql} refused"));
        assert_eq!(code, 0x2300, "{cql}: {text}");
        assert!(text.contains(message), "{cql}: {text}");
    }
    assert_eq!(server.addresses().len(), 4);
}
