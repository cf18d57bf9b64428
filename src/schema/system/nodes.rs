//! `system.local`, `system.peers` and `system.peers_v2`: how the simulated
//! ring looks from the coordinator, the node a driver is connected to.
//! Drivers learn the cluster's nodes, tokens and data centres from these
//! rows, and wait for every node's `schema_version` to agree after DDL.

use std::net::IpAddr;

use super::STORAGE_PORT;
use super::{md5, SystemRow};
use super::{CQL_VERSION, NATIVE_PROTOCOL_VERSION, PARTITIONER, RELEASE_VERSION};
use crate::cluster::{Node, NodeIndex, Ring};
use crate::types::Value;

/// The cluster's name in `system.local` (DESCRIBE CLUSTER's too).
pub const CLUSTER_NAME: &str = "widerow";

/// `gossip_generation`: a node's start time in seconds on a real node; one
/// fixed value here, so outputs stay reproducible.
pub const GOSSIP_GENERATION: i32 = 1;

/// A node's `host_id`: a name-based UUID of its name, the same in every
/// session and process.
pub fn host_id(node: &Node) -> [u8; 16] {
    md5::name_uuid(format!("widerow host {}", node.id).as_bytes())
}

/// A node's tokens as `system.local` holds them: text, in the set's order.
fn tokens(node: &Node) -> Value {
    let mut texts: Vec<String> = node.tokens.iter().map(i64::to_string).collect();
    texts.sort();
    texts.dedup();
    Value::Set(texts.into_iter().map(Value::Text).collect())
}

fn text(s: &str) -> Value {
    Value::Text(s.to_string())
}

/// The rows of `system.local` (one, for `local`), `system.peers` and
/// `system.peers_v2` (one per other node) as node `local` reports them,
/// every node answering drivers on `native_port`.
pub fn node_rows(
    ring: &Ring,
    local: NodeIndex,
    schema_version: [u8; 16],
    native_port: i32,
) -> Vec<SystemRow> {
    let mut rows = Vec::with_capacity(ring.len() * 2);
    let version = Value::Uuid(schema_version);
    if local.get() < ring.len() {
        let me = ring.node(local);
        let address = Value::Inet(IpAddr::V4(me.address));
        rows.push(
            SystemRow::new("system", "local")
                .with("key", text("local"))
                .with("bootstrapped", text("COMPLETED"))
                .with("broadcast_address", address.clone())
                .with("broadcast_port", Value::Int(STORAGE_PORT))
                .with("cluster_name", text(CLUSTER_NAME))
                .with("cql_version", text(CQL_VERSION))
                .with("data_center", text(&me.datacenter))
                .with("gossip_generation", Value::Int(GOSSIP_GENERATION))
                .with("host_id", Value::Uuid(host_id(me)))
                .with("listen_address", address.clone())
                .with("listen_port", Value::Int(STORAGE_PORT))
                .with("native_protocol_version", text(NATIVE_PROTOCOL_VERSION))
                .with("partitioner", text(PARTITIONER))
                .with("rack", text(&me.rack))
                .with("release_version", text(RELEASE_VERSION))
                .with("rpc_address", address)
                .with("rpc_port", Value::Int(native_port))
                .with("schema_version", version.clone())
                .with("tokens", tokens(me)),
        );
    }
    for index in ring.indices().filter(|&i| i != local) {
        let peer = ring.node(index);
        let address = Value::Inet(IpAddr::V4(peer.address));
        let id = Value::Uuid(host_id(peer));
        rows.push(
            SystemRow::new("system", "peers")
                .with("peer", address.clone())
                .with("data_center", text(&peer.datacenter))
                .with("host_id", id.clone())
                .with("rack", text(&peer.rack))
                .with("release_version", text(RELEASE_VERSION))
                .with("rpc_address", address.clone())
                .with("schema_version", version.clone())
                .with("tokens", tokens(peer)),
        );
        rows.push(
            SystemRow::new("system", "peers_v2")
                .with("peer", address.clone())
                .with("peer_port", Value::Int(STORAGE_PORT))
                .with("data_center", text(&peer.datacenter))
                .with("host_id", id)
                .with("native_address", address)
                .with("native_port", Value::Int(native_port))
                .with("rack", text(&peer.rack))
                .with("release_version", text(RELEASE_VERSION))
                .with("schema_version", version.clone())
                .with("tokens", tokens(peer)),
        );
    }
    rows
}
