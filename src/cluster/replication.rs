//! Replica placement: which nodes hold a token's data under a keyspace's replication.
//!
//! The planner shows the replicas of every partition it touches, and consistency levels
//! count them, so placement must pick the same nodes *in the same order* as Cassandra's
//! `AbstractReplicationStrategy.getNaturalReplicas`: the order decides which replicas a
//! coordinator contacts first and which one a token-aware driver sends a query to.
//!
//! * `SimpleStrategy` walks the ring clockwise from the token's primary replica and takes
//!   the first `replication_factor` distinct nodes, blind to data centres and racks.
//! * `NetworkTopologyStrategy` walks the ring once, and offers each node to its data
//!   centre's quota: a node from a rack the data centre has not used yet is always
//!   taken; one from a rack already used only while the data centre has fewer racks than
//!   its factor (and only as many times as that shortfall). That is Cassandra's
//!   `DatacenterEndpoints.addEndpointAndCheckIfDone`, which spreads replicas over racks
//!   first without a second pass. Replicas of all data centres come out interleaved, in
//!   ring order.
//! * `LocalStrategy` keeps one copy, on the node that is asked (system keyspaces).
//!
//! A factor above the number of nodes available yields as many replicas as there are
//! nodes: Cassandra accepts such a keyspace (with a warning, see
//! [`replication_warnings`]) and it is the consistency level that later fails.

use indexmap::IndexMap;

use super::ring::{NodeIndex, Ring};
use crate::schema::Replication;

/// The natural replicas of `token`, in Cassandra's order; `local` is the node that is
/// asked, which holds the only replica under `LocalStrategy`.
pub fn natural_replicas(
    ring: &Ring,
    replication: &Replication,
    token: i64,
    local: NodeIndex,
) -> Vec<NodeIndex> {
    match replication {
        Replication::Simple { factor } => simple_strategy(ring, token, *factor),
        Replication::NetworkTopology { factors } => network_topology_strategy(ring, token, factors),
        Replication::Local => vec![local],
    }
}

/// `SimpleStrategy.calculateNaturalReplicas`: the first `factor` distinct nodes met
/// walking clockwise from the range holding `token`.
pub fn simple_strategy(ring: &Ring, token: i64, factor: u32) -> Vec<NodeIndex> {
    let wanted = (factor as usize).min(ring.len());
    let mut replicas = Vec::with_capacity(wanted);
    for (_, node) in ring.walk(token) {
        if replicas.len() >= wanted {
            break;
        }
        if !replicas.contains(&node) {
            replicas.push(node);
        }
    }
    replicas
}

/// One data centre's remaining quota during a `NetworkTopologyStrategy` walk
/// (Cassandra's `DatacenterEndpoints`).
struct Quota {
    /// Replicas still to place: the factor, capped at the data centre's node count.
    left: usize,
    /// How many more replicas may go to a rack already used: the factor minus the
    /// number of racks, which is ≤ 0 when there are racks enough for every replica.
    rack_repeats: i64,
}

/// `NetworkTopologyStrategy.calculateNaturalReplicas` for `factors` (data centre →
/// factor). Data centres with factor 0, or that the ring lacks, get no replica.
pub fn network_topology_strategy(
    ring: &Ring,
    token: i64,
    factors: &IndexMap<String, u32>,
) -> Vec<NodeIndex> {
    let mut quotas: IndexMap<&str, Quota> = IndexMap::new();
    for (dc, &factor) in factors {
        let nodes = ring.datacenter_size(dc);
        if factor == 0 || nodes == 0 {
            continue;
        }
        let racks = ring.racks(dc).len();
        quotas.insert(
            dc.as_str(),
            Quota {
                left: (factor as usize).min(nodes),
                rack_repeats: i64::from(factor) - racks as i64,
            },
        );
    }
    let mut to_fill = quotas.len();
    let mut replicas = Vec::new();
    // (data centre, rack) pairs already holding a replica, shared by all data centres as
    // in Cassandra; the pair keeps equal rack names of different data centres apart.
    let mut used_racks: Vec<(&str, &str)> = Vec::new();
    for (_, index) in ring.walk(token) {
        if to_fill == 0 {
            break;
        }
        let node = ring.node(index);
        let Some(quota) = quotas.get_mut(node.datacenter.as_str()) else {
            continue;
        };
        if quota.left == 0 || replicas.contains(&index) {
            continue;
        }
        let location = (node.datacenter.as_str(), node.rack.as_str());
        if used_racks.contains(&location) {
            if quota.rack_repeats <= 0 {
                // The remaining replicas must go to racks not used yet.
                continue;
            }
            quota.rack_repeats -= 1;
        } else {
            used_racks.push(location);
        }
        replicas.push(index);
        quota.left -= 1;
        if quota.left == 0 {
            to_fill -= 1;
        }
    }
    replicas
}

/// The total replication factor, Cassandra's `getReplicationFactor().allReplicas`: the
/// factor, the sum over data centres (as declared, present in the ring or not), or 1.
pub fn replication_factor(replication: &Replication) -> u32 {
    match replication {
        Replication::Simple { factor } => *factor,
        Replication::NetworkTopology { factors } => {
            factors.values().fold(0u32, |sum, &f| sum.saturating_add(f))
        }
        Replication::Local => 1,
    }
}

/// The factor of data centre `dc`: its declared factor under `NetworkTopologyStrategy`
/// (0 if undeclared), and `None` for strategies without per-data-centre factors.
pub fn datacenter_factor(replication: &Replication, dc: &str) -> Option<u32> {
    match replication {
        Replication::NetworkTopology { factors } => Some(factors.get(dc).copied().unwrap_or(0)),
        _ => None,
    }
}

/// The client warnings Cassandra (4.1 and later, `maybeWarnOnOptions`) gives when a
/// keyspace asks for more replicas than there are nodes, in the keyspace's data centre
/// order. Cassandra accepts the keyspace; reads and writes then fail at any
/// consistency level needing the missing replicas. Like Cassandra, it says nothing of a
/// data centre without nodes (call [`Ring::ensure_datacenters`] first).
pub fn replication_warnings(ring: &Ring, keyspace: &str, replication: &Replication) -> Vec<String> {
    match replication {
        Replication::Simple { factor } if *factor as usize > ring.len() => vec![format!(
            "Your replication factor {factor} for keyspace {keyspace} is higher than the \
             number of nodes {}",
            ring.len()
        )],
        Replication::NetworkTopology { factors } => factors
            .iter()
            .filter_map(|(dc, &factor)| {
                let nodes = ring.datacenter_size(dc);
                (nodes != 0 && factor as usize > nodes).then(|| {
                    format!(
                        "Your replication factor {factor} for keyspace {keyspace} is higher \
                         than the number of nodes {nodes} for datacenter {dc}"
                    )
                })
            })
            .collect(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::ring::Node;
    use std::net::Ipv4Addr;

    const Q: i64 = 4_611_686_018_427_387_904;

    fn ids(ring: &Ring, nodes: &[NodeIndex]) -> Vec<String> {
        nodes.iter().map(|&i| ring.node(i).id.clone()).collect()
    }

    fn nts(pairs: &[(&str, u32)]) -> Replication {
        Replication::NetworkTopology {
            factors: pairs.iter().map(|&(dc, f)| (dc.to_string(), f)).collect(),
        }
    }

    fn simple(factor: u32) -> Replication {
        Replication::Simple { factor }
    }

    #[test]
    fn simple_strategy_on_the_default_ring() {
        let ring = Ring::default();
        let at = |token: i64, factor: u32| {
            ids(
                &ring,
                &natural_replicas(&ring, &simple(factor), token, NodeIndex(0)),
            )
        };
        assert_eq!(at(0, 3), ["node3", "node4", "node1"]);
        assert_eq!(at(1, 3), ["node4", "node1", "node2"]);
        assert_eq!(at(i64::MAX, 3), ["node1", "node2", "node3"]);
        assert_eq!(at(i64::MIN, 1), ["node1"]);
        assert_eq!(at(-Q, 2), ["node2", "node3"]);
        assert_eq!(at(0, 4), ["node3", "node4", "node1", "node2"]);
        // More replicas than nodes: every node once.
        assert_eq!(at(0, 7), ["node3", "node4", "node1", "node2"]);
        assert!(at(0, 0).is_empty());
    }

    #[test]
    fn simple_strategy_ignores_datacenters() {
        let ring = Ring::with_datacenters(&[("dc1", 2), ("dc2", 2)]).unwrap();
        // Tokens: node1 MIN, node2 0, node3 MIN+100, node4 100.
        let replicas = simple_strategy(&ring, 1, 3);
        assert_eq!(ids(&ring, &replicas), ["node4", "node1", "node3"]);
    }

    #[test]
    fn simple_strategy_with_vnodes_takes_distinct_nodes() {
        let ring = Ring::with_vnodes(&[("datacenter1", 4)], 4).unwrap();
        // Tokens go node1, node2, node3, node4, node1, … every 2^60.
        let replicas = simple_strategy(&ring, 1, 3);
        // Token 0 is the ninth (index 8, node1's); the first token ≥ 1 is the tenth,
        // 2^60, dealt to node2.
        assert_eq!(ids(&ring, &replicas), ["node2", "node3", "node4"]);
        let replicas = simple_strategy(&ring, 0, 4);
        assert_eq!(ids(&ring, &replicas), ["node1", "node2", "node3", "node4"]);
        // Each node is primary for four ranges.
        let owned = ring
            .indices()
            .map(|i| ring.primary_ranges(i).len())
            .collect::<Vec<_>>();
        assert_eq!(owned, [4, 4, 4, 4]);
    }

    #[test]
    fn network_topology_across_two_datacenters() {
        let ring = Ring::with_datacenters(&[("dc1", 3), ("dc2", 2)]).unwrap();
        // Tokens in ring order: node1 MIN, node4 MIN+100, node2 -3074457345618258603,
        // node5 100, node3 3074457345618258602.
        let r = nts(&[("dc1", 2), ("dc2", 1)]);
        let at = |token: i64| ids(&ring, &natural_replicas(&ring, &r, token, NodeIndex(0)));
        assert_eq!(at(i64::MIN), ["node1", "node4", "node2"]);
        assert_eq!(at(0), ["node5", "node3", "node1"]);
        assert_eq!(at(i64::MAX), ["node1", "node4", "node2"]);
        // A factor above a data centre's node count: all of its nodes.
        let r = nts(&[("dc1", 5), ("dc2", 5)]);
        let got = natural_replicas(&ring, &r, 0, NodeIndex(0));
        assert_eq!(
            ids(&ring, &got),
            ["node5", "node3", "node1", "node4", "node2"]
        );
        // A factor of 0, or a data centre the ring lacks, places nothing there.
        let r = nts(&[("dc1", 0), ("dc2", 2), ("dc9", 3)]);
        let got = natural_replicas(&ring, &r, 0, NodeIndex(0));
        assert_eq!(ids(&ring, &got), ["node5", "node4"]);
    }

    /// dc1 has racks r1, r1, r2, r2 in ring order (tokens 10, 20, 30, 40); dc2 one rack.
    fn racked_ring() -> Ring {
        let node = |n: u8, dc: &str, rack: &str, token: i64| {
            Node::new(
                format!("node{n}"),
                Ipv4Addr::new(127, 0, 0, n),
                dc,
                rack,
                vec![token],
            )
        };
        Ring::new(vec![
            node(1, "dc1", "r1", 10),
            node(2, "dc1", "r1", 20),
            node(3, "dc1", "r2", 30),
            node(4, "dc1", "r2", 40),
            node(5, "dc2", "r1", 15),
            node(6, "dc2", "r1", 35),
        ])
        .unwrap()
    }

    #[test]
    fn network_topology_spreads_replicas_over_racks_first() {
        let ring = racked_ring();
        assert_eq!(ring.racks("dc1"), ["r1", "r2"]);
        assert_eq!(ring.racks("dc2"), ["r1"]);
        assert_eq!(
            (ring.datacenter_size("dc1"), ring.datacenter_size("dc9")),
            (4, 0)
        );
        let at = |r: &Replication, token: i64| {
            ids(&ring, &natural_replicas(&ring, r, token, NodeIndex(0)))
        };
        // RF 2 with two racks: node2 shares node1's rack, so the walk skips it for node3.
        assert_eq!(at(&nts(&[("dc1", 2)]), 10), ["node1", "node3"]);
        // Starting in rack r2: node3, then node4 (r2 again) is skipped for node1 (r1).
        assert_eq!(at(&nts(&[("dc1", 2)]), 30), ["node3", "node1"]);
        // RF 3 with two racks: one repeat allowed, taken by the first repeat met (node2).
        assert_eq!(at(&nts(&[("dc1", 3)]), 10), ["node1", "node2", "node3"]);
        // Same rack name in another data centre is another rack; replicas interleave.
        assert_eq!(
            at(&nts(&[("dc1", 2), ("dc2", 2)]), 10),
            ["node1", "node5", "node3", "node6"]
        );
        // SimpleStrategy ignores racks.
        assert_eq!(at(&simple(2), 10), ["node1", "node5"]);
    }

    #[test]
    fn local_strategy_is_the_asked_node() {
        let ring = Ring::default();
        let got = natural_replicas(&ring, &Replication::Local, 0, NodeIndex(2));
        assert_eq!(got, [NodeIndex(2)]);
    }

    #[test]
    fn factors_and_warnings() {
        assert_eq!(replication_factor(&simple(3)), 3);
        assert_eq!(replication_factor(&nts(&[("a", 3), ("b", 2)])), 5);
        assert_eq!(replication_factor(&Replication::Local), 1);
        assert_eq!(datacenter_factor(&nts(&[("a", 3)]), "a"), Some(3));
        assert_eq!(datacenter_factor(&nts(&[("a", 3)]), "b"), Some(0));
        assert_eq!(datacenter_factor(&simple(3), "a"), None);
        let ring = Ring::default();
        assert!(replication_warnings(&ring, "ks", &simple(3)).is_empty());
        assert_eq!(
            replication_warnings(&ring, "ks", &simple(5)),
            ["Your replication factor 5 for keyspace ks is higher than the number of nodes 4"]
        );
        assert_eq!(
            replication_warnings(&ring, "ks", &nts(&[("datacenter1", 5), ("dc2", 1)])),
            [
                "Your replication factor 5 for keyspace ks is higher than the number of nodes 4 \
              for datacenter datacenter1"
            ]
        );
    }

    #[test]
    fn placement_is_deterministic() {
        let ring = Ring::with_vnodes(&[("dc1", 3), ("dc2", 3)], 8).unwrap();
        let r = nts(&[("dc1", 3), ("dc2", 2)]);
        let tokens = [i64::MIN, -1, 0, 1, 42, i64::MAX];
        let first: Vec<_> = tokens
            .iter()
            .map(|&t| natural_replicas(&ring, &r, t, NodeIndex(0)))
            .collect();
        let again = Ring::with_vnodes(&[("dc1", 3), ("dc2", 3)], 8).unwrap();
        let second: Vec<_> = tokens
            .iter()
            .map(|&t| natural_replicas(&again, &r, t, NodeIndex(0)))
            .collect();
        assert_eq!(first, second);
        for replicas in &first {
            assert_eq!(replicas.len(), 5);
        }
    }
}
