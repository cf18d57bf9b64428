//! Range scans: which nodes a coordinator asks, piece by piece, to read a token range.
//!
//! An unrestricted `SELECT`, a `token(k) > …` restriction, a secondary-index query or
//! `ALLOW FILTERING` over a table reads a range of tokens rather than one partition.
//! Cassandra's coordinator (`ReplicaPlanIterator` and `ReplicaPlanMerger`) cuts the range
//! at every ring token, so each piece has one replica set, plans each piece at the
//! consistency level, and then merges consecutive pieces while the replicas they share
//! still satisfy the level, so a scan with a replication factor of 3 on four nodes asks
//! two nodes, not four. The plan shows exactly those requests, so "nodes contacted" and
//! the cost of a scan are Cassandra's.

use super::consistency::{
    assure_available, read_candidates, read_contacts, sufficient_for_read, ConsistencyLevel,
};
use super::replication::natural_replicas;
use super::ring::{NodeIndex, Ring, TokenRange};
use crate::cluster::murmur3::MIN_TOKEN;
use crate::error::{Error, Result};
use crate::schema::Replication;

/// The message Cassandra refuses a serial read of several partitions with
/// (`SelectStatement`): Paxos works one partition at a time.
pub const SERIAL_MULTI_PARTITION: &str =
    "SERIAL/LOCAL_SERIAL consistency may only be requested for one partition at a time";

/// One request of a range scan: a token range and the replicas asked for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RangeRead {
    /// The tokens this request covers; never wraps (it may end at the minimum token,
    /// meaning the end of the ring).
    pub range: TokenRange,
    /// The ring pieces merged into this request, in scan order (one unless merged).
    pub pieces: Vec<TokenRange>,
    /// The replicas every piece shares, live or not, in the first piece's order.
    pub replicas: Vec<NodeIndex>,
    /// The live shared replicas the level may use, in preference order.
    pub candidates: Vec<NodeIndex>,
    /// The replicas the request is sent to.
    pub contacts: Vec<NodeIndex>,
}

/// Plans a scan of `range` at `consistency` coordinated by `coordinator`: the requests
/// in scan (token) order.
///
/// Fails with `InvalidRequest` for ANY and the serial levels ([`SERIAL_MULTI_PARTITION`]),
/// and with `Unavailable` for the first piece, in scan order, whose replicas cannot
/// satisfy the level, as Cassandra plans the pieces one after the other.
pub fn plan_range_read(
    ring: &Ring,
    replication: &Replication,
    range: TokenRange,
    consistency: ConsistencyLevel,
    coordinator: NodeIndex,
) -> Result<Vec<RangeRead>> {
    consistency.validate_for_read()?;
    if consistency.is_serial() {
        return Err(Error::invalid(SERIAL_MULTI_PARTITION));
    }
    let local_dc = ring.node(coordinator).datacenter.as_str();
    let block_for = consistency.block_for(replication, local_dc);
    let mut pieces = Vec::new();
    for piece in ring.split_range(range) {
        let replicas = natural_replicas(ring, replication, piece.end, coordinator);
        let candidates = read_candidates(ring, &replicas, consistency, coordinator);
        let contacts = read_contacts(ring, replication, consistency, block_for, &candidates);
        assure_available(
            ring,
            replication,
            consistency,
            block_for,
            &contacts,
            local_dc,
        )?;
        pieces.push(RangeRead {
            range: piece,
            pieces: vec![piece],
            replicas,
            candidates,
            contacts,
        });
    }

    let mut reads: Vec<RangeRead> = Vec::with_capacity(pieces.len());
    let mut rest = pieces.into_iter().peekable();
    while let Some(mut current) = rest.next() {
        while let Some(next) = rest.peek() {
            // A request ending at the minimum token reaches the end of the ring; merging
            // past it would wrap, which replicas cannot read in one request.
            if current.range.end == MIN_TOKEN {
                break;
            }
            match merge(
                ring,
                replication,
                consistency,
                block_for,
                local_dc,
                &current,
                next,
            ) {
                Some(merged) => {
                    current = merged;
                    rest.next();
                }
                None => break,
            }
        }
        reads.push(current);
    }
    Ok(reads)
}

/// The distinct nodes a scan's requests contact, in the order it first contacts them.
pub fn nodes_contacted(reads: &[RangeRead]) -> Vec<NodeIndex> {
    let mut nodes = Vec::new();
    for node in reads.iter().flat_map(|r| &r.contacts) {
        if !nodes.contains(node) {
            nodes.push(*node);
        }
    }
    nodes
}

/// `ReplicaPlans.maybeMerge`: one request for both, if the live replicas they share
/// still satisfy the level and the merge does not newly involve another data centre.
fn merge(
    ring: &Ring,
    replication: &Replication,
    consistency: ConsistencyLevel,
    block_for: u32,
    local_dc: &str,
    left: &RangeRead,
    right: &RangeRead,
) -> Option<RangeRead> {
    let candidates: Vec<NodeIndex> = left
        .candidates
        .iter()
        .copied()
        .filter(|c| right.candidates.contains(c))
        .collect();
    if !sufficient_for_read(ring, replication, consistency, &candidates, local_dc) {
        return None;
    }
    let contacts = read_contacts(ring, replication, consistency, block_for, &candidates);
    // The snitch's `isWorthMergingForRangeQuery`: one request involving a remote data
    // centre is not worth more than two local ones.
    let remote = |nodes: &[NodeIndex]| nodes.iter().any(|&n| ring.node(n).datacenter != local_dc);
    if remote(&contacts) && !remote(&left.contacts) && !remote(&right.contacts) {
        return None;
    }
    let replicas = left
        .replicas
        .iter()
        .copied()
        .filter(|r| right.replicas.contains(r))
        .collect();
    let mut pieces = left.pieces.clone();
    pieces.extend(&right.pieces);
    Some(RangeRead {
        range: TokenRange::new(left.range.start, right.range.end),
        pieces,
        replicas,
        candidates,
        contacts,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{ErrorInfo, ErrorKind};
    use ConsistencyLevel as CL;

    const Q: i64 = 4_611_686_018_427_387_904;

    fn ids(ring: &Ring, nodes: &[NodeIndex]) -> Vec<String> {
        nodes.iter().map(|&i| ring.node(i).id.clone()).collect()
    }

    fn simple(factor: u32) -> Replication {
        Replication::Simple { factor }
    }

    #[test]
    fn full_scan_at_rf1_asks_every_node_in_token_order() {
        let ring = Ring::default();
        let reads =
            plan_range_read(&ring, &simple(1), TokenRange::full(), CL::One, NodeIndex(0)).unwrap();
        let got: Vec<(TokenRange, Vec<String>)> = reads
            .iter()
            .map(|r| (r.range, ids(&ring, &r.contacts)))
            .collect();
        assert_eq!(
            got,
            [
                (TokenRange::new(i64::MIN, -Q), vec!["node2".to_string()]),
                (TokenRange::new(-Q, 0), vec!["node3".to_string()]),
                (TokenRange::new(0, Q), vec!["node4".to_string()]),
                (TokenRange::new(Q, i64::MIN), vec!["node1".to_string()]),
            ]
        );
        assert_eq!(
            ids(&ring, &nodes_contacted(&reads)),
            ["node2", "node3", "node4", "node1"]
        );
    }

    #[test]
    fn full_scan_at_rf3_merges_pieces_sharing_replicas() {
        let ring = Ring::default();
        let r = simple(3);
        // ONE: (MIN, Q] is held by node4 throughout; the tail by node1, node2, node3.
        let reads = plan_range_read(&ring, &r, TokenRange::full(), CL::One, NodeIndex(0)).unwrap();
        assert_eq!(reads.len(), 2);
        assert_eq!(reads[0].range, TokenRange::new(i64::MIN, Q));
        assert_eq!(reads[0].pieces.len(), 3);
        assert_eq!(ids(&ring, &reads[0].contacts), ["node4"]);
        assert_eq!(reads[1].range, TokenRange::new(Q, i64::MIN));
        assert_eq!(ids(&ring, &reads[1].contacts), ["node1"]);
        // QUORUM: node3 and node4 share (MIN, 0]; node1 and node2 share (0, MIN].
        let reads =
            plan_range_read(&ring, &r, TokenRange::full(), CL::Quorum, NodeIndex(0)).unwrap();
        let got: Vec<(TokenRange, Vec<String>)> = reads
            .iter()
            .map(|r| (r.range, ids(&ring, &r.contacts)))
            .collect();
        assert_eq!(
            got,
            [
                (
                    TokenRange::new(i64::MIN, 0),
                    vec!["node3".to_string(), "node4".to_string()]
                ),
                (
                    TokenRange::new(0, i64::MIN),
                    vec!["node1".to_string(), "node2".to_string()]
                ),
            ]
        );
    }

    #[test]
    fn restricted_scans_read_only_the_owning_nodes() {
        let ring = Ring::default();
        let reads = plan_range_read(
            &ring,
            &simple(1),
            TokenRange::new(-100, 100),
            CL::One,
            NodeIndex(0),
        )
        .unwrap();
        assert_eq!(ids(&ring, &nodes_contacted(&reads)), ["node3", "node4"]);
    }

    #[test]
    fn scans_fail_at_the_first_unavailable_piece() {
        let mut ring = Ring::default();
        ring.set_down("node3").unwrap();
        let err = plan_range_read(&ring, &simple(1), TokenRange::full(), CL::One, NodeIndex(0))
            .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Unavailable);
        assert_eq!(err.message(), "Cannot achieve consistency level ONE");
        assert_eq!(
            err.info(),
            Some(&ErrorInfo::Unavailable {
                consistency: "ONE".into(),
                required_replicas: 1,
                alive_replicas: 0
            })
        );
        // At RF 3 the scan routes around the down node.
        let reads =
            plan_range_read(&ring, &simple(3), TokenRange::full(), CL::One, NodeIndex(0)).unwrap();
        assert!(!nodes_contacted(&reads).contains(&NodeIndex(2)));
        let err = plan_range_read(&ring, &simple(3), TokenRange::full(), CL::All, NodeIndex(0))
            .unwrap_err();
        assert_eq!(err.message(), "Cannot achieve consistency level ALL");
    }

    #[test]
    fn serial_and_any_scans_are_refused() {
        let ring = Ring::default();
        let err = plan_range_read(
            &ring,
            &simple(1),
            TokenRange::full(),
            CL::Serial,
            NodeIndex(0),
        )
        .unwrap_err();
        assert_eq!(err.message(), SERIAL_MULTI_PARTITION);
        assert!(
            plan_range_read(&ring, &simple(1), TokenRange::full(), CL::Any, NodeIndex(0)).is_err()
        );
    }

    #[test]
    fn merging_does_not_newly_involve_a_remote_datacenter() {
        // dc1: node1 MIN, node2 0; dc2: node3 MIN+100, node4 100.
        let ring = Ring::with_datacenters(&[("dc1", 2), ("dc2", 2)]).unwrap();
        let r = simple(2);
        let reads = plan_range_read(&ring, &r, TokenRange::full(), CL::One, NodeIndex(0)).unwrap();
        for read in &reads {
            let remote = read
                .contacts
                .iter()
                .any(|&c| ring.node(c).datacenter != "dc1");
            if remote {
                assert_eq!(read.pieces.len(), 1, "{read:?}");
            }
        }
        // Deterministic.
        let again = plan_range_read(&ring, &r, TokenRange::full(), CL::One, NodeIndex(0)).unwrap();
        assert_eq!(reads, again);
    }
}
