//! Keyspaces: replication, durable writes, and what they hold.

use indexmap::IndexMap;

use super::table::Table;
use crate::types::DataType;

/// How a keyspace places replicas.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Replication {
    /// `SimpleStrategy`: `factor` replicas walking the ring.
    Simple {
        /// `replication_factor`
        factor: u32,
    },
    /// `NetworkTopologyStrategy`: a factor per data centre.
    NetworkTopology {
        /// Data centre name to replica count, as written.
        factors: IndexMap<String, u32>,
    },
    /// `LocalStrategy` (system keyspaces): one replica, the local node.
    Local,
}

/// A user-defined type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserType {
    /// Its name.
    pub name: String,
    /// Fields in declaration order.
    pub fields: Vec<(String, DataType)>,
}

/// A keyspace and its contents.
#[derive(Debug, Clone, PartialEq)]
pub struct Keyspace {
    /// The keyspace's name.
    pub name: String,
    /// Replica placement.
    pub replication: Replication,
    /// `durable_writes`
    pub durable_writes: bool,
    /// Tables and materialized views, in creation order.
    pub tables: super::NameMap<Table>,
    /// User-defined types, in creation order.
    pub types: IndexMap<String, UserType>,
}
