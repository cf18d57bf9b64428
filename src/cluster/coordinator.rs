//! Which node coordinates a request.
//!
//! The coordinator matters to a plan because it decides the "local" data centre of the
//! LOCAL_* levels and, when it is not itself a replica, costs a network hop. cqlsh
//! connects to one node and sends everything there; an application's driver is usually
//! token-aware and sends each request to a replica of its partition. Both are modelled,
//! deterministically: where a real driver would shuffle or round-robin, widerow takes
//! the first choice.

use super::replication::natural_replicas;
use super::ring::{NodeIndex, Ring};
use crate::error::Result;
use crate::schema::Replication;

/// How requests pick their coordinator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Coordinator {
    /// Always this node, as cqlsh connected to it (`--coordinator node2`).
    Node(NodeIndex),
    /// A token-aware driver (`--coordinator token-aware`): the first live replica of the
    /// partition in the driver's local data centre, that of the contact point (the
    /// ring's first node). A request without a partition (a scan) goes to the contact
    /// point.
    TokenAware,
}

impl Default for Coordinator {
    /// `node1`, as cqlsh connected to 127.0.0.1.
    fn default() -> Coordinator {
        Coordinator::Node(NodeIndex(0))
    }
}

impl Coordinator {
    /// The spelling a user types: `token-aware` (also `token_aware`, `tokenaware`, any
    /// case), or a node's id or address.
    pub fn parse(text: &str, ring: &Ring) -> Result<Coordinator> {
        let key: String = text
            .trim()
            .chars()
            .filter(|c| *c != '-' && *c != '_')
            .collect();
        if key.eq_ignore_ascii_case("tokenaware") {
            Ok(Coordinator::TokenAware)
        } else {
            ring.lookup(text).map(Coordinator::Node)
        }
    }

    /// The coordinator of a request for the partition at `token`.
    pub fn for_token(&self, ring: &Ring, replication: &Replication, token: i64) -> NodeIndex {
        match *self {
            Coordinator::Node(node) => node,
            Coordinator::TokenAware => {
                let contact = contact_point(ring);
                let local_dc = &ring.node(contact).datacenter;
                natural_replicas(ring, replication, token, contact)
                    .into_iter()
                    .find(|&r| ring.is_up(r) && &ring.node(r).datacenter == local_dc)
                    .unwrap_or_else(|| self.for_scan(ring))
            }
        }
    }

    /// The coordinator of a request that names no single partition (a range scan, a
    /// multi-partition `IN`, a schema change): the fixed node, or for a token-aware
    /// driver its contact point, or the first live node of its data centre if that one
    /// is down.
    pub fn for_scan(&self, ring: &Ring) -> NodeIndex {
        match *self {
            Coordinator::Node(node) => node,
            Coordinator::TokenAware => {
                let contact = contact_point(ring);
                if ring.is_up(contact) {
                    return contact;
                }
                let local_dc = &ring.node(contact).datacenter;
                ring.indices()
                    .find(|&i| ring.is_up(i) && &ring.node(i).datacenter == local_dc)
                    .unwrap_or(contact)
            }
        }
    }

    /// A display form for plans: the node's id, or `token-aware`.
    pub fn describe(&self, ring: &Ring) -> String {
        match *self {
            Coordinator::Node(node) => ring.node(node).id.clone(),
            Coordinator::TokenAware => "token-aware".to_string(),
        }
    }
}

/// The node a driver first connects to: the ring's first node (`node1`; a ring always
/// has one).
fn contact_point(_ring: &Ring) -> NodeIndex {
    NodeIndex(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn simple(factor: u32) -> Replication {
        Replication::Simple { factor }
    }

    #[test]
    fn parse_fixed_and_token_aware() {
        let ring = Ring::default();
        assert_eq!(
            Coordinator::parse("node3", &ring).unwrap(),
            Coordinator::Node(NodeIndex(2))
        );
        assert_eq!(
            Coordinator::parse("127.0.0.2", &ring).unwrap(),
            Coordinator::Node(NodeIndex(1))
        );
        for text in ["token-aware", "TOKEN_AWARE", "tokenaware"] {
            assert_eq!(
                Coordinator::parse(text, &ring).unwrap(),
                Coordinator::TokenAware
            );
        }
        assert!(Coordinator::parse("node7", &ring).is_err());
        assert_eq!(Coordinator::default(), Coordinator::Node(NodeIndex(0)));
        assert_eq!(Coordinator::TokenAware.describe(&ring), "token-aware");
        assert_eq!(Coordinator::Node(NodeIndex(3)).describe(&ring), "node4");
    }

    #[test]
    fn token_aware_picks_the_first_live_replica() {
        let mut ring = Ring::default();
        let r = simple(3);
        let c = Coordinator::TokenAware;
        assert_eq!(c.for_token(&ring, &r, 0), NodeIndex(2));
        assert_eq!(c.for_token(&ring, &r, 1), NodeIndex(3));
        ring.set_down("node3").unwrap();
        assert_eq!(c.for_token(&ring, &r, 0), NodeIndex(3));
        assert_eq!(c.for_scan(&ring), NodeIndex(0));
        ring.set_down("node1").unwrap();
        assert_eq!(c.for_scan(&ring), NodeIndex(1));
        // A fixed coordinator stays put.
        assert_eq!(
            Coordinator::Node(NodeIndex(1)).for_token(&ring, &r, 0),
            NodeIndex(1)
        );
    }

    #[test]
    fn token_aware_stays_in_the_contact_points_datacenter() {
        let ring = Ring::with_datacenters(&[("dc1", 2), ("dc2", 2)]).unwrap();
        let r = Replication::NetworkTopology {
            factors: [("dc1".to_string(), 1), ("dc2".to_string(), 1)]
                .into_iter()
                .collect(),
        };
        // Token 1: the ring walk meets node4 (dc2, token 100) before node1 (dc1).
        let replicas = natural_replicas(&ring, &r, 1, NodeIndex(0));
        assert_eq!(replicas, [NodeIndex(3), NodeIndex(0)]);
        assert_eq!(
            Coordinator::TokenAware.for_token(&ring, &r, 1),
            NodeIndex(0)
        );
    }
}
