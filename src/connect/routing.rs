//! Where the driver sends a statement: to the first live replica of its
//! partition, in the order the ring gives the replicas — the coordinator
//! widerow's planner predicts for a token-aware client. The driver's default
//! policy picks a replica at random (or in a fixed random order), which no
//! prediction can match; this one is deterministic, so TRACING ON can say
//! whether the cluster really did what widerow planned. A statement without
//! a routing token (schema changes, unprepared text) goes to the nodes in
//! address order.

use scylla::cluster::{ClusterState, NodeRef};
use scylla::policies::load_balancing::{FallbackPlan, LoadBalancingPolicy, RoutingInfo};
use scylla::routing::Shard;

/// The first-replica policy.
#[derive(Debug, Default)]
pub struct FirstReplica;

impl FirstReplica {
    fn order<'a>(request: &RoutingInfo<'_>, cluster: &'a ClusterState) -> Vec<NodeRef<'a>> {
        let nodes = cluster.get_nodes_info();
        let mut ordered: Vec<NodeRef<'a>> = Vec::with_capacity(nodes.len());
        if let (Some(token), Some(table)) = (request.token, request.table) {
            let replicas = cluster.get_token_endpoints(table.ks_name(), table.table_name(), token);
            for (replica, _) in replicas {
                if let Some(node) = nodes.iter().find(|n| n.host_id == replica.host_id) {
                    ordered.push(node);
                }
            }
        }
        let mut rest: Vec<NodeRef<'a>> = nodes
            .iter()
            .filter(|n| !ordered.iter().any(|o| o.host_id == n.host_id))
            .collect();
        rest.sort_by_key(|n| n.address.ip());
        ordered.extend(rest);
        // Nodes the driver holds connections to first, keeping the order.
        ordered.sort_by_key(|n| !n.is_connected());
        ordered
    }
}

impl LoadBalancingPolicy for FirstReplica {
    fn pick<'a>(
        &'a self,
        request: &'a RoutingInfo,
        cluster: &'a ClusterState,
    ) -> Option<(NodeRef<'a>, Option<Shard>)> {
        FirstReplica::order(request, cluster)
            .into_iter()
            .next()
            .map(|node| (node, None))
    }

    fn fallback<'a>(
        &'a self,
        request: &'a RoutingInfo,
        cluster: &'a ClusterState,
    ) -> FallbackPlan<'a> {
        Box::new(
            FirstReplica::order(request, cluster)
                .into_iter()
                .map(|node| (node, None)),
        )
    }

    fn name(&self) -> String {
        "widerow-first-replica".to_string()
    }
}
