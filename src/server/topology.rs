//! The ring a running server shows its drivers, kept in step with the
//! session's. The ring changes under a server three ways: `CLUSTER DOWN` /
//! `UP`, `CLUSTER NODES` (and `CLUSTER RESTORE`/`RESET` of a snapshot taken
//! on another ring), and a keyspace naming a data centre the ring lacks,
//! which adds its nodes. After each, every node of the ring has a listener
//! on its own address, the nodes no longer in it stop answering, and
//! registered clients hear what a real cluster would tell them:
//! TOPOLOGY_CHANGE `NEW_NODE`, `REMOVED_NODE` and `MOVED_NODE` (its tokens
//! changed), and STATUS_CHANGE `UP`/`DOWN`.
//!
//! A listener, once bound, stays until the server stops: a node removed
//! and added again answers on the same socket, and its address refuses
//! connections (accepts and hangs up, as a down node) while it is out of
//! the ring.

use std::collections::HashSet;
use std::io;
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpListener};

use tokio::sync::mpsc;

use crate::cluster::Ring;

/// One node as listeners and connections see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NodeState {
    /// The node's own address (127.0.0.N for nodeN on the default ring).
    pub address: Ipv4Addr,
    /// Whether it answers.
    pub up: bool,
}

/// Each node of `ring`, in ring order.
pub fn node_states(ring: &Ring) -> Vec<NodeState> {
    ring.nodes()
        .iter()
        .map(|n| NodeState {
            address: n.address,
            up: n.up,
        })
        .collect()
}

/// Whose connections a listener takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answers {
    /// The node with this address, wherever it stands in the ring.
    Address(Ipv4Addr),
    /// node1 (a server on a host other than 127.0.0.1 listens only there).
    FirstNode,
}

impl Answers {
    /// The ring index of the node a connection arriving here reaches:
    /// `None` while that node is down or out of the ring.
    pub fn node(self, states: &[NodeState]) -> Option<usize> {
        let index = match self {
            Answers::FirstNode => 0,
            Answers::Address(address) => states.iter().position(|n| n.address == address)?,
        };
        states.get(index).filter(|n| n.up).map(|_| index)
    }
}

/// What a topology tells its registered clients.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeEvent {
    /// STATUS_CHANGE: a node went up or down.
    Status {
        /// The node's address and native port.
        address: SocketAddr,
        /// Up (true) or down.
        up: bool,
    },
    /// TOPOLOGY_CHANGE: a node joined, left or moved its tokens.
    Topology {
        /// Which.
        change: TopologyChange,
        /// The node's address and native port.
        address: SocketAddr,
    },
}

/// The kinds of TOPOLOGY_CHANGE.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TopologyChange {
    /// A node joined the ring.
    NewNode,
    /// A node left it.
    RemovedNode,
    /// A node's tokens changed.
    MovedNode,
}

impl TopologyChange {
    /// The change as the protocol spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            TopologyChange::NewNode => "NEW_NODE",
            TopologyChange::RemovedNode => "REMOVED_NODE",
            TopologyChange::MovedNode => "MOVED_NODE",
        }
    }
}

/// A node as drivers were last told of it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Told {
    address: Ipv4Addr,
    tokens: Vec<i64>,
    up: bool,
}

fn told(ring: &Ring) -> Vec<Told> {
    ring.nodes()
        .iter()
        .map(|n| Told {
            address: n.address,
            tokens: n.tokens.clone(),
            up: n.up,
        })
        .collect()
}

/// A listener bound for a node that joined, on its way to the accept loop.
pub type NewListener = (Answers, TcpListener);

/// The listeners behind a server's ring and what its drivers were last
/// told of the ring.
#[derive(Debug)]
pub struct Topology {
    host: IpAddr,
    port: u16,
    listening: HashSet<Ipv4Addr>,
    told: Vec<Told>,
    listeners: Option<mpsc::UnboundedSender<NewListener>>,
}

impl Topology {
    /// The topology of `ring` served on `host`:`port`, where `listening`
    /// are the node addresses already bound; `listeners` takes the
    /// listeners of nodes that join later (without it, they get none).
    pub fn new(
        ring: &Ring,
        host: IpAddr,
        port: u16,
        listening: impl IntoIterator<Item = Ipv4Addr>,
        listeners: Option<mpsc::UnboundedSender<NewListener>>,
    ) -> Topology {
        Topology {
            host,
            port,
            listening: listening.into_iter().collect(),
            told: told(ring),
            listeners,
        }
    }

    /// The native port every node listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Whether each node answers on its own loopback address.
    fn per_node(&self) -> bool {
        self.host == IpAddr::V4(Ipv4Addr::LOCALHOST)
    }

    /// Binds a listener on each address of `ring` that has none yet: all
    /// of them, or none and the error of the first that failed.
    pub fn listen_for(&mut self, ring: &Ring) -> io::Result<()> {
        let Some(sender) = self.listeners.as_ref().filter(|_| self.per_node()) else {
            return Ok(());
        };
        let mut bound = Vec::new();
        for node in ring.nodes() {
            if self.listening.contains(&node.address) {
                continue;
            }
            let at = SocketAddr::new(IpAddr::V4(node.address), self.port);
            let listener = TcpListener::bind(at)
                .and_then(|l| l.set_nonblocking(true).map(|()| l))
                .map_err(|e| io::Error::new(e.kind(), format!("cannot listen on {at}: {e}")))?;
            bound.push((node.address, listener));
        }
        for (address, listener) in bound {
            if sender.send((Answers::Address(address), listener)).is_ok() {
                self.listening.insert(address);
            }
        }
        Ok(())
    }

    /// What changed in `ring` since drivers were last told, as the events
    /// that tell them, in ring order: nodes gone first, then each node's
    /// arrival, move or change of state.
    pub fn follow(&mut self, ring: &Ring) -> Vec<NodeEvent> {
        let now = told(ring);
        let at = |address: Ipv4Addr| SocketAddr::new(IpAddr::V4(address), self.port);
        let topology = |change, address| NodeEvent::Topology {
            change,
            address: at(address),
        };
        let mut events: Vec<NodeEvent> = self
            .told
            .iter()
            .filter(|old| !now.iter().any(|n| n.address == old.address))
            .map(|old| topology(TopologyChange::RemovedNode, old.address))
            .collect();
        for node in &now {
            match self.told.iter().find(|old| old.address == node.address) {
                None => events.push(topology(TopologyChange::NewNode, node.address)),
                Some(old) => {
                    if old.tokens != node.tokens {
                        events.push(topology(TopologyChange::MovedNode, node.address));
                    }
                    if old.up != node.up {
                        events.push(NodeEvent::Status {
                            address: at(node.address),
                            up: node.up,
                        });
                    }
                }
            }
        }
        self.told = now;
        events
    }

    /// Every address a client reaches a node of `ring` on, in ring order.
    pub fn addresses(&self, ring: &Ring) -> Vec<SocketAddr> {
        if !self.per_node() {
            return vec![SocketAddr::new(self.host, self.port)];
        }
        ring.nodes()
            .iter()
            .filter(|n| self.listening.contains(&n.address))
            .map(|n| SocketAddr::new(IpAddr::V4(n.address), self.port))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn topology(ring: &Ring) -> Topology {
        let listening = ring.nodes().iter().map(|n| n.address);
        Topology::new(ring, IpAddr::V4(Ipv4Addr::LOCALHOST), 9042, listening, None)
    }

    fn topology_event(change: TopologyChange, last_octet: u8) -> NodeEvent {
        NodeEvent::Topology {
            change,
            address: SocketAddr::new(IpAddr::V4(Ipv4Addr::new(127, 0, 0, last_octet)), 9042),
        }
    }

    #[test]
    fn a_grown_ring_announces_its_new_nodes_and_the_moved_ones() {
        let four = Ring::with_nodes(4).unwrap();
        let mut topology = topology(&four);
        assert_eq!(topology.follow(&four), vec![], "nothing changed");
        let six = Ring::with_nodes(6).unwrap();
        let events = topology.follow(&six);
        let moved = |n| topology_event(TopologyChange::MovedNode, n);
        let new = |n| topology_event(TopologyChange::NewNode, n);
        assert_eq!(events, vec![moved(2), moved(3), moved(4), new(5), new(6)]);
        assert_eq!(topology.follow(&six), vec![], "told once");
    }

    #[test]
    fn a_shrunk_ring_announces_the_removed_nodes_first() {
        let mut topology = topology(&Ring::with_nodes(3).unwrap());
        let events = topology.follow(&Ring::with_nodes(2).unwrap());
        assert_eq!(
            events,
            vec![
                topology_event(TopologyChange::RemovedNode, 3),
                topology_event(TopologyChange::MovedNode, 2),
            ]
        );
    }

    #[test]
    fn a_node_down_is_a_status_change() {
        let mut ring = Ring::with_nodes(3).unwrap();
        let mut topology = topology(&ring);
        ring.set_down("node2").unwrap();
        let node2 = SocketAddr::new(IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2)), 9042);
        assert_eq!(
            topology.follow(&ring),
            vec![NodeEvent::Status {
                address: node2,
                up: false
            }]
        );
    }

    #[test]
    fn a_listener_answers_for_its_node_while_it_is_up_and_in_the_ring() {
        let mut ring = Ring::with_nodes(3).unwrap();
        let here = Answers::Address(Ipv4Addr::new(127, 0, 0, 3));
        assert_eq!(here.node(&node_states(&ring)), Some(2));
        ring.set_down("node3").unwrap();
        assert_eq!(here.node(&node_states(&ring)), None);
        assert_eq!(here.node(&node_states(&Ring::with_nodes(2).unwrap())), None);
        assert_eq!(Answers::FirstNode.node(&node_states(&ring)), Some(0));
    }
}
