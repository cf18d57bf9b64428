//! Cassandra 5.0's system keyspaces: `system`, `system_schema`,
//! `system_auth`, `system_distributed`, `system_traces` and the virtual
//! `system_views` and `system_virtual_schema`, with the very table
//! definitions a 5.0.8 node has.
//!
//! Drivers and cqlsh read `system.local`, `system.peers(_v2)` and the
//! `system_schema` tables when they connect and after every schema change,
//! so every [`Session`](crate::Session) holds them from the start. The
//! definitions are the node's own DESCRIBE output, kept as CQL under
//! `cql/` and read once per process; the rows are made from the catalog
//! ([`schema_tables`], [`virtual_schema`]) and the simulated ring
//! ([`nodes`]), and written into storage by the executor after each schema
//! change — never on the path of a data statement.

mod definitions;
pub mod md5;
pub mod nodes;
pub mod schema_tables;
pub mod virtual_schema;

use crate::types::Value;

pub use definitions::system_keyspaces;

/// `release_version` of `system.local` and `system.peers`: the oracle
/// node's, so drivers pick the protocol and features they pick against it.
pub const RELEASE_VERSION: &str = "5.0.8";
/// `cql_version` of `system.local`.
pub const CQL_VERSION: &str = "3.4.7";
/// `native_protocol_version` of `system.local`.
pub const NATIVE_PROTOCOL_VERSION: &str = "5";
/// The partitioner every simulated node names.
pub const PARTITIONER: &str = "org.apache.cassandra.dht.Murmur3Partitioner";
/// The port drivers connect to on every simulated node.
pub const NATIVE_PORT: i32 = 9042;
/// The internode (storage) port a node advertises.
pub const STORAGE_PORT: i32 = 7000;

/// The local system keyspaces (`SchemaConstants.LOCAL_SYSTEM_KEYSPACE_NAMES`):
/// schema statements on them are `Unauthorized`.
pub const LOCAL_KEYSPACES: [&str; 2] = ["system", "system_schema"];
/// The replicated system keyspaces (`REPLICATED_SYSTEM_KEYSPACE_NAMES`):
/// only their replication may be altered.
pub const REPLICATED_KEYSPACES: [&str; 3] = ["system_auth", "system_distributed", "system_traces"];
/// The virtual keyspaces (`VIRTUAL_SYSTEM_KEYSPACE_NAMES`): not in
/// `system_schema`, their tables refuse writes and TRUNCATE.
pub const VIRTUAL_KEYSPACES: [&str; 2] = ["system_views", "system_virtual_schema"];

/// Whether `name` is one of the seven keyspaces a node starts with: what
/// `DESCRIBE SCHEMA`, SAVE, COPY and the linter leave out.
pub fn is_system_keyspace(name: &str) -> bool {
    is_local_keyspace(name) || is_replicated_keyspace(name) || is_virtual_keyspace(name)
}

/// Whether `name` is `system` or `system_schema`.
pub fn is_local_keyspace(name: &str) -> bool {
    LOCAL_KEYSPACES.contains(&name)
}

/// Whether `name` is `system_auth`, `system_distributed` or `system_traces`.
pub fn is_replicated_keyspace(name: &str) -> bool {
    REPLICATED_KEYSPACES.contains(&name)
}

/// Whether `name` is `system_views` or `system_virtual_schema`.
pub fn is_virtual_keyspace(name: &str) -> bool {
    VIRTUAL_KEYSPACES.contains(&name)
}

/// One row of a system table: its table and each column's value (columns
/// left out are null).
#[derive(Debug, Clone, PartialEq)]
pub struct SystemRow {
    /// The keyspace of the table.
    pub keyspace: &'static str,
    /// The table.
    pub table: &'static str,
    /// Column name and value.
    pub cells: Vec<(&'static str, Value)>,
}

impl SystemRow {
    /// A row of `keyspace.table`.
    pub fn new(keyspace: &'static str, table: &'static str) -> SystemRow {
        SystemRow {
            keyspace,
            table,
            cells: Vec::new(),
        }
    }

    /// The row with `column` set to `value`.
    pub fn with(mut self, column: &'static str, value: Value) -> SystemRow {
        self.cells.push((column, value));
        self
    }

    /// Adds the row's content to a digest: table, then each cell.
    pub fn digest_into(&self, md5: &mut md5::Md5) {
        md5.update(self.table.as_bytes());
        for (column, value) in &self.cells {
            md5.update(column.as_bytes());
            md5.update(&value.serialize().unwrap_or_default());
            md5.update(&[0xff]);
        }
    }
}

/// A table's id: for the system keyspaces the node's
/// (`TableId.forSystemTable`, the name-based UUID of keyspace and table
/// names); for user tables the same construction, so ids stay stable where
/// Cassandra would pick a time-based one (`docs/divergences.md`).
pub fn table_id(keyspace: &str, table: &str) -> [u8; 16] {
    let mut bytes = Vec::with_capacity(keyspace.len() + table.len());
    bytes.extend_from_slice(keyspace.as_bytes());
    bytes.extend_from_slice(table.as_bytes());
    md5::name_uuid(&bytes)
}

/// The schema version every node reports: a name-based UUID of the
/// per-keyspace digests, in keyspace-name order, so it is the same for the
/// same schema and changes with every change.
pub fn schema_version<'a>(digests: impl Iterator<Item = (&'a str, &'a [u8; 16])>) -> [u8; 16] {
    let mut md5 = md5::Md5::new();
    for (name, digest) in digests {
        md5.update(name.as_bytes());
        md5.update(digest);
    }
    md5::version_3(md5.finish())
}

/// The digest of one keyspace's rows.
pub fn digest(rows: &[SystemRow]) -> [u8; 16] {
    let mut md5 = md5::Md5::new();
    for row in rows {
        row.digest_into(&mut md5);
    }
    md5.finish()
}
