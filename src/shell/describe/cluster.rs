//! `DESCRIBE CLUSTER`: the cluster's name, partitioner and snitch as a 5.0
//! server reports them (package prefixes trimmed), and, with a keyspace in
//! use, the replicas of every token range of the simulated ring.

use crate::cluster::replication::natural_replicas;
use crate::cluster::NodeIndex;
use crate::planner::PlanContext;

/// The simulated cluster's name: widerow's, as `SHOW HOST` gives it.
pub const CLUSTER_NAME: &str = "widerow";

/// The partitioner, as the server names it (`org.apache.cassandra.dht.`
/// trimmed).
pub const PARTITIONER: &str = "Murmur3Partitioner";

/// The snitch class a default 5.0 node reports: `dynamic_snitch` wraps the
/// configured snitch in `DynamicEndpointSnitch` (package trimmed).
pub const SNITCH: &str = "DynamicEndpointSnitch";

/// The port in the endpoints of the range map (`storage_port`).
const STORAGE_PORT: u16 = 7000;

/// What cqlsh prints for `DESCRIBE CLUSTER`.
pub fn describe_cluster(ctx: &PlanContext) -> String {
    let mut out =
        format!("\nCluster: {CLUSTER_NAME}\nPartitioner: {PARTITIONER}\nSnitch: {SNITCH}\n\n");
    let keyspace = ctx
        .keyspace
        .as_deref()
        .and_then(|ks| ctx.catalog.keyspace(ks));
    if let Some(ks) = keyspace {
        out.push_str("Range ownership:\n");
        for (token, hosts) in range_ownership(ctx, &ks.replication) {
            out.push_str(&format!(" {token:>39}  [{}]\n", hosts.join(", ")));
        }
        out.push('\n');
    }
    out
}

/// Every range's end token with the endpoints replicating it, sorted as the
/// server serializes the map: by the token's text.
fn range_ownership(
    ctx: &PlanContext,
    replication: &crate::schema::Replication,
) -> Vec<(String, Vec<String>)> {
    let ring = &ctx.ring;
    let mut entries: Vec<(String, Vec<String>)> = ring
        .tokens()
        .iter()
        .map(|&(token, _)| {
            let hosts = natural_replicas(ring, replication, token, NodeIndex(0))
                .into_iter()
                .map(|n| format!("{}:{STORAGE_PORT}", ring.node(n).address))
                .collect();
            (token.to_string(), hosts)
        })
        .collect();
    entries.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    entries
}
