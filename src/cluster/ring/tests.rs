use super::*;
use std::ops::Bound::{Excluded, Included, Unbounded};

const Q: i64 = 4_611_686_018_427_387_904;

fn ids(ring: &Ring, nodes: &[NodeIndex]) -> Vec<String> {
    nodes.iter().map(|&i| ring.node(i).id.clone()).collect()
}

#[test]
fn default_ring_matches_the_contract() {
    let ring = Ring::default();
    assert_eq!(ring.len(), 4);
    assert_eq!(ring.datacenters(), ["datacenter1"]);
    let expected = [
        ("node1", "127.0.0.1", i64::MIN),
        ("node2", "127.0.0.2", -Q),
        ("node3", "127.0.0.3", 0),
        ("node4", "127.0.0.4", Q),
    ];
    for (node, (id, address, token)) in ring.nodes().iter().zip(expected) {
        assert_eq!(node.id, id);
        assert_eq!(node.address.to_string(), address);
        assert_eq!(node.datacenter, "datacenter1");
        assert_eq!(node.rack, "rack1");
        assert_eq!(node.tokens, [token]);
        assert!(node.up);
    }
}

#[test]
fn a_node_owns_from_its_predecessor_exclusive_to_its_token_inclusive() {
    let ring = Ring::default();
    let primary = |t: i64| ring.node(ring.primary(t)).id.clone();
    assert_eq!(primary(i64::MIN), "node1");
    assert_eq!(primary(i64::MIN + 1), "node2");
    assert_eq!(primary(-Q), "node2");
    assert_eq!(primary(-Q + 1), "node3");
    assert_eq!(primary(0), "node3");
    assert_eq!(primary(1), "node4");
    assert_eq!(primary(Q), "node4");
    // Past the largest token the ring wraps to the smallest.
    assert_eq!(primary(Q + 1), "node1");
    assert_eq!(primary(i64::MAX), "node1");
    assert_eq!(
        ring.primary_ranges(NodeIndex(0)),
        [TokenRange::new(Q, i64::MIN)]
    );
    assert_eq!(ring.primary_ranges(NodeIndex(2)), [TokenRange::new(-Q, 0)]);
}

#[test]
fn ccm_token_layout_across_datacenters() {
    let ring = Ring::with_datacenters(&[("dc1", 3), ("dc2", 2)]).unwrap();
    let third = (1i128 << 64) / 3;
    let t = |i: i128| (i * third + i64::MIN as i128) as i64;
    let got: Vec<(String, String, Vec<i64>)> = ring
        .nodes()
        .iter()
        .map(|n| (n.id.clone(), n.datacenter.clone(), n.tokens.clone()))
        .collect();
    assert_eq!(
        got,
        [
            ("node1".into(), "dc1".into(), vec![t(0)]),
            ("node2".into(), "dc1".into(), vec![t(1)]),
            ("node3".into(), "dc1".into(), vec![t(2)]),
            ("node4".into(), "dc2".into(), vec![i64::MIN + 100]),
            ("node5".into(), "dc2".into(), vec![100]),
        ]
    );
    assert_eq!(ring.node(NodeIndex(4)).address.to_string(), "127.0.0.5");
    assert_eq!(ring.datacenters(), ["dc1", "dc2"]);
}

#[test]
fn vnodes_are_evenly_spaced_and_dealt_in_turn() {
    let ring = Ring::with_vnodes(&[("datacenter1", 4)], 4).unwrap();
    assert_eq!(ring.tokens().len(), 16);
    let step = 1i128 << 60;
    for (i, &(token, owner)) in ring.tokens().iter().enumerate() {
        assert_eq!(token as i128, i64::MIN as i128 + i as i128 * step);
        assert_eq!(owner, NodeIndex(i % 4));
    }
    assert_eq!(ring.node(NodeIndex(1)).tokens.len(), 4);
    assert_eq!(ring.primary_ranges(NodeIndex(1)).len(), 4);
    // One token per node is the default ring.
    assert_eq!(
        Ring::with_vnodes(&[("datacenter1", 4)], 1).unwrap(),
        Ring::default()
    );
}

#[test]
fn datacenter_growth_appends_nodes_with_offset_tokens() {
    let mut ring = Ring::default();
    let factors = [("datacenter1".to_string(), 3), ("eu-west".to_string(), 2)]
        .into_iter()
        .collect();
    let added = ring
        .ensure_datacenters(&Replication::NetworkTopology { factors })
        .unwrap();
    assert_eq!(added, ["eu-west"]);
    assert_eq!(ring.len(), 8);
    assert_eq!(
        ids(&ring, &ring.datacenter_nodes("eu-west")),
        ["node5", "node6", "node7", "node8"]
    );
    assert_eq!(ring.node(NodeIndex(4)).address.to_string(), "127.0.0.5");
    assert_eq!(ring.node(NodeIndex(4)).tokens, [i64::MIN + 100]);
    assert_eq!(ring.node(NodeIndex(6)).tokens, [100]);
    // Nothing more to add the second time; earlier indices are unchanged.
    let factors = [("eu-west".to_string(), 2)].into_iter().collect();
    let again = ring
        .ensure_datacenters(&Replication::NetworkTopology { factors })
        .unwrap();
    assert!(again.is_empty());
    assert_eq!(ring.node(NodeIndex(0)).id, "node1");
    assert!(ring.add_datacenter("eu-west", 2).is_err());
}

#[test]
fn up_and_down_by_name_or_address() {
    let mut ring = Ring::default();
    assert_eq!(ring.set_down("node2").unwrap(), NodeIndex(1));
    assert!(!ring.is_up(NodeIndex(1)));
    ring.set_down("127.0.0.3").unwrap();
    assert!(!ring.is_up(NodeIndex(2)));
    ring.set_up("NODE2").unwrap();
    assert!(ring.is_up(NodeIndex(1)));
    let err = ring.set_down("node9").unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidRequest);
    assert_eq!(
        err.message(),
        "Unknown node 'node9': the ring has node1, node2, node3, node4"
    );
}

#[test]
fn invalid_rings_are_refused() {
    assert!(Ring::new(Vec::new()).is_err());
    assert!(Ring::with_nodes(0).is_err());
    assert!(Ring::with_vnodes(&[("dc1", 2)], 0).is_err());
    assert!(Ring::with_datacenters(&[("dc1", 2), ("dc1", 2)]).is_err());
    assert!(Ring::with_nodes(MAX_NODES + 1).is_err());
    let a = Node::new("a", Ipv4Addr::new(10, 0, 0, 1), "dc", "r", vec![5]);
    let b = Node::new("b", Ipv4Addr::new(10, 0, 0, 2), "dc", "r", vec![5]);
    let err = Ring::new(vec![a.clone(), b]).unwrap_err();
    assert_eq!(err.message(), "Nodes 'a' and 'b' both claim token 5");
    let same_name = Node::new("A", Ipv4Addr::new(10, 0, 0, 3), "dc", "r", vec![6]);
    assert!(Ring::new(vec![a.clone(), same_name]).is_err());
    let no_token = Node::new("c", Ipv4Addr::new(10, 0, 0, 4), "dc", "r", vec![]);
    assert!(Ring::new(vec![a, no_token]).is_err());
}

#[test]
fn token_range_containment_and_wrapping() {
    let r = TokenRange::new(-10, 10);
    assert!(!r.contains(-10) && r.contains(-9) && r.contains(10) && !r.contains(11));
    let w = TokenRange::new(10, -10);
    assert!(w.wraps());
    assert!(w.contains(11) && w.contains(i64::MAX) && w.contains(-10) && !w.contains(0));
    let full = TokenRange::full();
    assert!(full.is_full() && !full.wraps());
    assert!(full.contains(0) && full.contains(i64::MIN) && full.contains(i64::MAX));
    assert_eq!(r.to_string(), "(-10, 10]");
}

#[test]
fn token_restrictions_become_ranges_as_cassandra_bounds_them() {
    let range = TokenRange::from_bounds;
    assert_eq!(range(Excluded(5), Included(9)), Some(TokenRange::new(5, 9)));
    assert_eq!(range(Included(5), Excluded(9)), Some(TokenRange::new(4, 8)));
    assert_eq!(range(Included(5), Included(5)), Some(TokenRange::new(4, 5)));
    assert_eq!(range(Excluded(5), Included(5)), None);
    assert_eq!(range(Included(5), Excluded(5)), None);
    assert_eq!(range(Included(9), Included(5)), None);
    assert_eq!(range(Unbounded, Unbounded), Some(TokenRange::full()));
    assert_eq!(
        range(Excluded(5), Unbounded),
        Some(TokenRange::new(5, i64::MIN))
    );
    assert_eq!(
        range(Unbounded, Included(0)),
        Some(TokenRange::new(i64::MIN, 0))
    );
    // The minimum token as an upper bound means "to the end of the ring".
    assert_eq!(
        range(Excluded(5), Included(i64::MIN)),
        Some(TokenRange::new(5, i64::MIN))
    );
    assert_eq!(
        range(Included(i64::MIN), Included(3)),
        Some(TokenRange::new(i64::MIN, 3))
    );
    assert_eq!(range(Excluded(i64::MAX), Unbounded), None);
    assert_eq!(range(Unbounded, Excluded(i64::MIN + 1)), None);
}

#[test]
fn full_scan_visits_every_node_in_token_order() {
    let ring = Ring::default();
    assert_eq!(
        ring.split_range(TokenRange::full()),
        [
            TokenRange::new(i64::MIN, -Q),
            TokenRange::new(-Q, 0),
            TokenRange::new(0, Q),
            TokenRange::new(Q, i64::MIN),
        ]
    );
    assert_eq!(
        ids(&ring, &ring.range_owners(TokenRange::full())),
        ["node2", "node3", "node4", "node1"]
    );
}

#[test]
fn partial_scans_are_cut_at_ring_tokens() {
    let ring = Ring::default();
    // Inside one node's range: one piece.
    assert_eq!(
        ring.split_range(TokenRange::new(1, 100)),
        [TokenRange::new(1, 100)]
    );
    assert_eq!(
        ids(&ring, &ring.range_owners(TokenRange::new(1, 100))),
        ["node4"]
    );
    // Ending exactly at a node's token: not cut there.
    assert_eq!(
        ring.split_range(TokenRange::new(-100, 0)),
        [TokenRange::new(-100, 0)]
    );
    // Starting exactly at a node's token: the next node's range.
    assert_eq!(
        ids(&ring, &ring.range_owners(TokenRange::new(0, 5))),
        ["node4"]
    );
    // Across two tokens.
    assert_eq!(
        ring.split_range(TokenRange::new(-Q - 5, 5)),
        [
            TokenRange::new(-Q - 5, -Q),
            TokenRange::new(-Q, 0),
            TokenRange::new(0, 5)
        ]
    );
    // To the end of the ring.
    assert_eq!(
        ids(&ring, &ring.range_owners(TokenRange::new(5, i64::MIN))),
        ["node4", "node1"]
    );
    // A range that wraps is cut at the minimum token.
    assert_eq!(
        ring.split_range(TokenRange::new(Q + 5, -Q - 5)),
        [
            TokenRange::new(Q + 5, i64::MIN),
            TokenRange::new(i64::MIN, -Q - 5)
        ]
    );
}

#[test]
fn scans_on_a_ring_without_the_minimum_token_are_cut_there() {
    let nodes = vec![
        Node::new("a", Ipv4Addr::new(10, 0, 0, 1), "dc", "r", vec![-100]),
        Node::new("b", Ipv4Addr::new(10, 0, 0, 2), "dc", "r", vec![100]),
    ];
    let ring = Ring::new(nodes).unwrap();
    assert_eq!(
        ring.split_range(TokenRange::full()),
        [
            TokenRange::new(i64::MIN, -100),
            TokenRange::new(-100, 100),
            TokenRange::new(100, i64::MIN),
        ]
    );
    assert_eq!(
        ids(&ring, &ring.range_owners(TokenRange::full())),
        ["a", "b"]
    );
}

#[test]
fn balanced_tokens_follow_ccm() {
    assert_eq!(balanced_tokens(4, 0), [i64::MIN, -Q, 0, Q]);
    assert_eq!(balanced_tokens(1, 100), [i64::MIN + 100]);
    // ccm: [(i * (2**64 // 3)) - 2**63 for i in range(3)]
    assert_eq!(
        balanced_tokens(3, 0),
        [
            -9223372036854775808,
            -3074457345618258603,
            3074457345618258602
        ]
    );
    assert!(balanced_tokens(0, 0).is_empty());
}
