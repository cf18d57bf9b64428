//! The system tables' rows in storage, kept in step with the catalog and
//! the ring: after each schema change the `system_schema` partitions of the
//! keyspace it touched are rewritten and every node's `schema_version`
//! moves; when the coordinator or the ring changes, `system.local` and
//! `system.peers(_v2)` are rewritten. Data statements never come here.
//!
//! The system keyspaces' own rows never change, so they are made once per
//! process ([`SystemTables::base`]) and shared by every session's store.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use crate::cluster::{NodeIndex, Ring};
use crate::planner::PlanContext;
use crate::schema::system::{self, SystemRow};
use crate::schema::{Catalog, SchemaChange, SchemaObject};
use crate::storage::{Cell, ClusteringKey, Liveness, Store};
use crate::types::Value;

use super::mutation::{self, Mutation, Op, RowRef};
use super::restrict;

/// The `system_schema` tables a keyspace's rows live in.
const SCHEMA_TABLES: [&str; 11] = [
    "keyspaces",
    "tables",
    "columns",
    "dropped_columns",
    "types",
    "indexes",
    "views",
    "functions",
    "aggregates",
    "triggers",
    "column_masks",
];

/// The `system_virtual_schema` tables a virtual keyspace's rows live in.
const VIRTUAL_SCHEMA_TABLES: [&str; 3] = ["keyspaces", "tables", "columns"];

/// What a session knows about its system tables' rows: each keyspace's
/// digest (for `schema_version`) and the ring view `system.local` was
/// written for.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct SystemTables {
    digests: BTreeMap<String, [u8; 16]>,
    version: [u8; 16],
    /// The node `system.local` describes and the ring the rows came from.
    nodes: Option<(NodeIndex, Ring)>,
    /// The port the nodes advertise to drivers, when not the default
    /// 9042 (a server on another port).
    native_port: Option<u16>,
}

impl SystemTables {
    /// The system keyspaces' rows on the default ring, made once: a new
    /// session starts from a clone of this store.
    pub(crate) fn base() -> &'static (Store, SystemTables) {
        static BASE: OnceLock<(Store, SystemTables)> = OnceLock::new();
        BASE.get_or_init(|| {
            let mut ctx = PlanContext::new();
            ctx.catalog.install_system_keyspaces();
            let mut store = Store::new();
            super::sync_storage(&ctx, &mut store);
            let mut tables = SystemTables::default();
            tables.sync(&ctx, &mut store, 0);
            // A node writes its default role `USING TIMESTAMP 0`.
            write_rows(
                &ctx.catalog,
                &mut store,
                &[crate::auth::default_role_row()],
                0,
            );
            (store, tables)
        })
    }

    /// The schema version every node reports.
    pub(crate) fn schema_version(&self) -> [u8; 16] {
        self.version
    }

    /// Brings every row in line with `ctx`: keyspaces created or dropped
    /// behind the session's back (a context handed over whole), then the
    /// node rows. Keyspaces already described are left as they are.
    pub(crate) fn sync(&mut self, ctx: &PlanContext, store: &mut Store, now_micros: i64) {
        let gone: Vec<String> = self
            .digests
            .keys()
            .filter(|name| ctx.catalog.keyspace(name).is_none())
            .cloned()
            .collect();
        for name in &gone {
            self.rewrite_keyspace(ctx, store, name, now_micros);
        }
        let missing: Vec<String> = ctx
            .catalog
            .keyspaces()
            .filter(|ks| !self.digests.contains_key(&ks.name))
            .map(|ks| ks.name.clone())
            .collect();
        for name in &missing {
            self.rewrite_keyspace(ctx, store, name, now_micros);
        }
        self.version = system::schema_version(self.digests.iter().map(|(k, v)| (k.as_str(), v)));
        self.sync_nodes(
            ctx,
            store,
            now_micros,
            !gone.is_empty() || !missing.is_empty(),
        );
    }

    /// [`SystemTables::sync`] after the catalog may have changed in any way
    /// (a context handed over or lent out whole): every user keyspace is
    /// described again.
    pub(crate) fn resync(&mut self, ctx: &PlanContext, store: &mut Store, now_micros: i64) {
        let mut names: Vec<String> = self
            .digests
            .keys()
            .filter(|name| !system::is_system_keyspace(name))
            .cloned()
            .collect();
        names.extend(
            ctx.catalog
                .keyspaces()
                .filter(|ks| !system::is_system_keyspace(&ks.name))
                .map(|ks| ks.name.clone()),
        );
        names.sort();
        names.dedup();
        let before = self.version;
        for name in &names {
            self.rewrite_keyspace(ctx, store, name, now_micros);
        }
        self.sync(ctx, store, now_micros);
        if self.version != before {
            self.sync_nodes(ctx, store, now_micros, true);
        }
    }

    /// After a successful schema statement: the keyspace it changed is
    /// described again, and the nodes report the new schema version.
    pub(crate) fn after_change(
        &mut self,
        ctx: &PlanContext,
        store: &mut Store,
        change: &SchemaChange,
        now_micros: i64,
    ) {
        let object = match change {
            SchemaChange::Created(o) | SchemaChange::Altered(o) | SchemaChange::Dropped(o) => o,
            _ => return,
        };
        let keyspace = match object {
            SchemaObject::Keyspace(ks) => ks,
            SchemaObject::Table { keyspace, .. }
            | SchemaObject::MaterializedView { keyspace, .. }
            | SchemaObject::Index { keyspace, .. }
            | SchemaObject::Type { keyspace, .. } => keyspace,
        };
        self.rewrite_keyspace(ctx, store, keyspace, now_micros);
        self.version = system::schema_version(self.digests.iter().map(|(k, v)| (k.as_str(), v)));
        self.sync_nodes(ctx, store, now_micros, true);
    }

    /// Makes the nodes advertise `port` as their native port.
    pub(crate) fn set_native_port(
        &mut self,
        ctx: &PlanContext,
        store: &mut Store,
        now_micros: i64,
        port: u16,
    ) {
        self.native_port = Some(port);
        self.sync_nodes(ctx, store, now_micros, true);
    }

    /// Rewrites `system.local` and `system.peers(_v2)` when the coordinator
    /// or the ring changed since they were written (or `force`).
    pub(crate) fn sync_nodes(
        &mut self,
        ctx: &PlanContext,
        store: &mut Store,
        now_micros: i64,
        force: bool,
    ) {
        let local = ctx.coordinator.for_scan(&ctx.ring);
        let current = self
            .nodes
            .as_ref()
            .is_some_and(|(node, ring)| *node == local && *ring == ctx.ring);
        if current && !force {
            return;
        }
        for table in ["local", "peers", "peers_v2"] {
            if ctx.catalog.table("system", table).is_some() {
                store.table_mut_in("system", table).clear();
            }
        }
        let port = self.native_port.map_or(system::NATIVE_PORT, i32::from);
        let rows = system::nodes::node_rows(&ctx.ring, local, self.version, port);
        write_rows(&ctx.catalog, store, &rows, now_micros);
        self.nodes = Some((local, ctx.ring.clone()));
    }

    /// Replaces the rows describing keyspace `name` (none when it is gone)
    /// and its digest.
    fn rewrite_keyspace(&mut self, ctx: &PlanContext, store: &mut Store, name: &str, now: i64) {
        let virtual_keyspace = system::is_virtual_keyspace(name);
        let (schema, tables): (&str, &[&str]) = if virtual_keyspace {
            ("system_virtual_schema", &VIRTUAL_SCHEMA_TABLES)
        } else {
            ("system_schema", &SCHEMA_TABLES)
        };
        clear_keyspace(&ctx.catalog, store, schema, tables, name);
        let Some(ks) = ctx.catalog.keyspace(name) else {
            self.digests.remove(name);
            return;
        };
        let rows = if virtual_keyspace {
            system::virtual_schema::keyspace_rows(ks)
        } else {
            system::schema_tables::keyspace_rows(ks)
        };
        write_rows(&ctx.catalog, store, &rows, now);
        self.digests.insert(name.to_string(), system::digest(&rows));
    }
}

/// Writes role `name`'s row of `system_auth.roles` again after a role
/// statement: replaced by `role`'s, or removed when `role` is `None`.
pub(crate) fn rewrite_role(
    catalog: &Catalog,
    store: &mut Store,
    name: &str,
    role: Option<&crate::auth::Role>,
    now: i64,
) {
    clear_keyspace(catalog, store, "system_auth", &["roles"], name);
    if let Some(role) = role {
        write_rows(catalog, store, &[crate::auth::role_row(name, role)], now);
    }
}

/// Removes partition `keyspace` from each of `tables` of `schema`.
fn clear_keyspace(
    catalog: &Catalog,
    store: &mut Store,
    schema: &str,
    tables: &[&str],
    keyspace: &str,
) {
    let Ok(position) = restrict::partition_position(&[Value::Text(keyspace.to_string())]) else {
        return;
    };
    for table in tables {
        if catalog.table(schema, table).is_none() {
            continue;
        }
        if let Some(data) = store.table(&format!("{schema}.{table}")) {
            if data.partition(&position).is_none() {
                continue;
            }
        }
        store
            .table_mut_in(schema, table)
            .partitions
            .remove(&position);
    }
}

/// Writes `rows` as INSERTs at `now` would: a row marker and a cell per
/// column given (non-frozen collections element by element).
pub(crate) fn write_rows(catalog: &Catalog, store: &mut Store, rows: &[SystemRow], now: i64) {
    let mut mutations = Vec::with_capacity(rows.len());
    for row in rows {
        let Some(table) = catalog.table(row.keyspace, row.table) else {
            continue;
        };
        let Some(data) = store.table_in(row.keyspace, row.table) else {
            continue;
        };
        let value_of = |name: &str| {
            row.cells
                .iter()
                .find(|(c, _)| *c == name)
                .map_or(Value::Null, |(_, v)| v.clone())
        };
        let key: Vec<Value> = table.partition_key.iter().map(|c| value_of(c)).collect();
        let clustering: Vec<Value> = table.clustering.iter().map(|c| value_of(c)).collect();
        let Ok(position) = restrict::partition_position(&key) else {
            continue;
        };
        let row_key = ClusteringKey::exact(clustering, restrict::descending_mask(table));
        let mut ops = vec![Op::Liveness {
            key: row_key.clone(),
            liveness: Liveness {
                timestamp: now,
                expiry: None,
            },
        }];
        for (name, value) in &row.cells {
            let Some(column) = table.column(name) else {
                continue;
            };
            let Some(slot) = data.slot(name) else {
                continue;
            };
            if column.is_primary_key() || value.is_null() {
                continue;
            }
            let target = if column.is_static() {
                RowRef::Static
            } else {
                RowRef::Row(row_key.clone())
            };
            element_ops(column, target, slot, value, now, &mut ops);
        }
        mutations.push(Mutation {
            table,
            key,
            position,
            ops,
        });
    }
    mutation::apply(store, mutations, now.div_euclid(1_000_000));
}

/// The operations writing `value` into `column`: one cell, or one per
/// element of a non-frozen set or map.
fn element_ops(
    column: &crate::schema::Column,
    row: RowRef,
    slot: usize,
    value: &Value,
    now: i64,
    ops: &mut Vec<Op>,
) {
    let live = |v: Value| Cell::live(v, now, None);
    if !super::write::is_collection_cells(&column.data_type) {
        ops.push(Op::Cell {
            row,
            slot,
            cell: live(value.clone()),
        });
        return;
    }
    match value {
        Value::Set(items) => {
            for item in items {
                ops.push(Op::Element {
                    row: row.clone(),
                    slot,
                    key: item.clone(),
                    cell: live(Value::Null),
                });
            }
        }
        Value::Map(entries) => {
            for (k, v) in entries {
                ops.push(Op::Element {
                    row: row.clone(),
                    slot,
                    key: k.clone(),
                    cell: live(v.clone()),
                });
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_base_describes_every_system_keyspace() {
        let (store, tables) = SystemTables::base();
        let names: Vec<&str> = tables.digests.keys().map(String::as_str).collect();
        assert_eq!(names.len(), 7, "{names:?}");
        let columns = store.table("system_schema.columns").map(|d| d.row_count());
        // The node's `SELECT count(*) FROM system_schema.columns` counts
        // 313 rows for its system keyspaces.
        assert_eq!(columns, Some(313));
        let virtual_columns = store
            .table("system_virtual_schema.columns")
            .map(|d| d.row_count());
        assert_eq!(virtual_columns, Some(456));
    }
}
