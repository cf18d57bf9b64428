//! The cluster's schema and token ring, copied into a [`Session`] that holds
//! no data: the planner and the linter work on it exactly as on an
//! in-memory session, so EXPLAIN names the cluster's real replicas and the
//! linter judges the cluster's real tables.
//!
//! The schema comes from the cluster's own `DESCRIBE SCHEMA` (server-side
//! since Cassandra 4.0), run statement by statement into the mirror; the
//! ring from the driver's view of `system.local` and `system.peers`: each
//! node's data centre, rack and tokens, named by its address.

use std::net::{IpAddr, Ipv4Addr};

use crate::cluster::{Coordinator, Node, NodeIndex, Ring};
use crate::error::{Error, ErrorKind};
use crate::exec::ResultSet;
use crate::planner::PlanContext;
use crate::types::Value;
use crate::Session;

use super::{Cluster, SYSTEM_READ};

/// What the mirror could not copy: statements of the cluster's schema that
/// widerow refused, each with widerow's message. The planner then knows less
/// than the cluster; the shell says so once.
pub type Gaps = Vec<String>;

/// A data-less session shaped as the cluster is now.
pub fn mirror(cluster: &Cluster) -> Result<(Session, Gaps), Error> {
    cluster.mark_mirrored();
    let ring = ring(cluster)?;
    let mut ctx = PlanContext::new();
    ctx.ring = ring;
    // Statement text carries no routing key: the driver sends it to the
    // first node by address (`routing::FirstReplica`), the ring's first.
    ctx.coordinator = Coordinator::Node(NodeIndex(0));
    let mut session = Session::new().with_context(ctx);
    {
        let settings = session.schema_settings_mut();
        // What the cluster holds it accepted; the mirror only follows.
        settings.materialized_views_enabled = true;
        settings.sasi_indexes_enabled = true;
    }
    let gaps = copy_schema(cluster, &mut session)?;
    Ok((session, gaps))
}

/// Runs the cluster's `DESCRIBE SCHEMA` into `session`.
pub fn copy_schema(cluster: &Cluster, session: &mut Session) -> Result<Gaps, Error> {
    let mut gaps = Gaps::new();
    for statement in described(cluster)? {
        if let Err(error) = session.execute(&statement) {
            let first = statement.lines().next().unwrap_or_default();
            gaps.push(format!("{first} — {}", error.message()));
        }
    }
    Ok(gaps)
}

/// The cluster's schema as one CQL text, each statement ending in `;`.
pub fn schema_text(cluster: &Cluster) -> Result<String, Error> {
    let mut text = String::new();
    for statement in described(cluster)? {
        text.push_str(statement.trim_end());
        if !statement.trim_end().ends_with(';') {
            text.push(';');
        }
        text.push_str("\n\n");
    }
    Ok(text)
}

/// The create statements `DESCRIBE SCHEMA` gives, in its order.
fn described(cluster: &Cluster) -> Result<Vec<String>, Error> {
    let described = cluster.execute("DESCRIBE SCHEMA", &SYSTEM_READ)?.result;
    let column = column_index(&described, "create_statement")?;
    Ok(described
        .rows
        .iter()
        .filter_map(|row| match &row[column] {
            Value::Text(statement) => Some(statement.clone()),
            _ => None,
        })
        .collect())
}

/// The ring as the driver sees it (it reads `system.local` and
/// `system.peers` of its control connection once, so the two agree): nodes
/// in address order, each with its data centre, rack and tokens.
fn ring(cluster: &Cluster) -> Result<Ring, Error> {
    let state = cluster.driver.get_cluster_state();
    let mut owned: Vec<(Ipv4Addr, Vec<i64>, String, String)> = Vec::new();
    for info in state.get_nodes_info() {
        let address = ipv4(info.address.ip())?;
        let tokens = state
            .replica_locator()
            .ring()
            .iter()
            .filter(|(_, owner)| owner.host_id == info.host_id)
            .map(|(token, _)| token.value())
            .collect();
        owned.push((
            address,
            tokens,
            info.datacenter.clone().unwrap_or_default(),
            info.rack.clone().unwrap_or_default(),
        ));
    }
    owned.sort_by_key(|(address, ..)| *address);
    let nodes = owned
        .into_iter()
        .map(|(address, mut tokens, datacenter, rack)| {
            tokens.sort_unstable();
            Node::new(address.to_string(), address, datacenter, rack, tokens)
        })
        .collect();
    Ring::new(nodes).map_err(|e| {
        Error::new(
            ErrorKind::ServerError,
            format!("the cluster's ring cannot be mirrored: {}", e.message()),
        )
    })
}

fn ipv4(address: IpAddr) -> Result<Ipv4Addr, Error> {
    match address {
        IpAddr::V4(v4) => Ok(v4),
        IpAddr::V6(v6) => v6.to_ipv4_mapped().ok_or_else(|| {
            Error::new(
                ErrorKind::ServerError,
                format!("connect mode mirrors IPv4 rings only; node {v6} has an IPv6 address"),
            )
        }),
    }
}

fn column_index(result: &ResultSet, name: &str) -> Result<usize, Error> {
    result
        .columns
        .iter()
        .position(|c| c.name == name)
        .ok_or_else(|| {
            Error::new(
                ErrorKind::ServerError,
                format!("the cluster's answer has no column {name}"),
            )
        })
}
