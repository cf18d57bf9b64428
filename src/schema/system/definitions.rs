//! The system keyspaces' definitions, read from the node's own DESCRIBE
//! output (`cql/*.cql`) once per process.
//!
//! Each CREATE TABLE runs through the ordinary DDL path in a scratch
//! keyspace (the real names are refused there, as they must be for users),
//! and the tables are then moved into their keyspace: the definitions get
//! the same validation and option handling as a user's table, and nothing
//! is written by hand twice.

use std::sync::OnceLock;

use indexmap::IndexMap;

use crate::schema::{Catalog, DroppedColumn, Keyspace, Replication};
use crate::syntax::ast::NativeType;
use crate::types::DataType;

/// Each keyspace with its replication and its definitions' CQL, in name
/// order.
const SOURCES: [(&str, Replication, &str); 7] = [
    ("system", Replication::Local, include_str!("cql/system.cql")),
    (
        "system_auth",
        Replication::Simple { factor: 1 },
        include_str!("cql/system_auth.cql"),
    ),
    (
        "system_distributed",
        Replication::Simple { factor: 3 },
        include_str!("cql/system_distributed.cql"),
    ),
    (
        "system_schema",
        Replication::Local,
        include_str!("cql/system_schema.cql"),
    ),
    (
        "system_traces",
        Replication::Simple { factor: 2 },
        include_str!("cql/system_traces.cql"),
    ),
    (
        "system_views",
        Replication::Local,
        include_str!("cql/system_views.cql"),
    ),
    (
        "system_virtual_schema",
        Replication::Local,
        include_str!("cql/system_virtual_schema.cql"),
    ),
];

/// The scratch keyspace the definitions are created in.
const SCRATCH: &str = "widerow_system_bootstrap";

/// The system keyspaces, built on first use and shared by every session
/// after that (each clones them into its catalog).
pub fn system_keyspaces() -> &'static [Keyspace] {
    static KEYSPACES: OnceLock<Vec<Keyspace>> = OnceLock::new();
    KEYSPACES.get_or_init(|| SOURCES.iter().map(load).collect())
}

/// One keyspace from its CQL. A definition that failed to load would be
/// missing (the tests check that every one loads).
fn load((name, replication, cql): &(&str, Replication, &str)) -> Keyspace {
    let mut scratch = Catalog::new();
    let create = format!(
        "CREATE KEYSPACE {SCRATCH} WITH replication = {{'class': 'SimpleStrategy', 'replication_factor': 1}}"
    );
    if let Ok(statement) = crate::syntax::parse_statement(&create) {
        let _ = scratch.apply(&statement, None);
    }
    let prefix = format!("CREATE TABLE {name}.");
    let on = format!(" ON {name}.");
    for statement in crate::split_statements(cql) {
        let text = statement
            .text
            .replacen(&prefix, "CREATE TABLE ", 1)
            .replacen(&on, " ON ", 1);
        if let Ok(parsed) = crate::syntax::parse_statement(&text) {
            let _ = scratch.apply(&parsed, Some(SCRATCH));
        }
    }
    let tables = scratch
        .keyspaces
        .shift_remove(SCRATCH)
        .map(|ks| ks.tables)
        .unwrap_or_default();
    let mut keyspace = Keyspace {
        name: name.to_string(),
        replication: replication.clone(),
        durable_writes: true,
        tables,
        types: IndexMap::new(),
    };
    for table in keyspace.tables.values_mut() {
        table.keyspace = name.to_string();
    }
    if *name == "system" {
        // The node remembers `thrift_version` as dropped from
        // `system.local`, at `Long.MAX_VALUE` (`SystemKeyspace`).
        if let Some(local) = keyspace.tables.get_mut("local") {
            local.dropped_columns.insert(
                "thrift_version".to_string(),
                DroppedColumn {
                    data_type: DataType::Native(NativeType::Text),
                    is_static: false,
                    timestamp: Some(i64::MAX.to_string()),
                },
            );
        }
    }
    keyspace
}

impl Catalog {
    /// Puts the system keyspaces first in the catalog, where they are
    /// missing (a catalog built by hand, or a context handed to a
    /// session): every session has them.
    pub fn install_system_keyspaces(&mut self) {
        let system = system_keyspaces();
        if system
            .iter()
            .all(|ks| self.keyspaces.contains_key(&ks.name))
        {
            return;
        }
        let mut keyspaces = super::super::NameMap::default();
        for ks in system {
            let kept = self.keyspaces.shift_remove(&ks.name);
            keyspaces.insert(ks.name.clone(), kept.unwrap_or_else(|| ks.clone()));
        }
        keyspaces.extend(std::mem::take(&mut self.keyspaces));
        self.keyspaces = keyspaces;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_definition_loads() {
        let counts: Vec<(&str, usize)> = system_keyspaces()
            .iter()
            .map(|ks| (ks.name.as_str(), ks.tables.len()))
            .collect();
        // The node's DESCRIBE KEYSPACE counts (Cassandra 5.0.8).
        assert_eq!(
            counts,
            vec![
                ("system", 23),
                ("system_auth", 8),
                ("system_distributed", 4),
                ("system_schema", 11),
                ("system_traces", 2),
                ("system_views", 43),
                ("system_virtual_schema", 3),
            ]
        );
        for (_, _, cql) in &SOURCES {
            let statements = crate::split_statements(cql).len();
            let tables = cql.matches("CREATE TABLE").count();
            let indexes = cql.matches("CREATE CUSTOM INDEX").count();
            assert_eq!(statements, tables + indexes);
        }
    }
}
