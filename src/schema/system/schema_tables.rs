//! The rows of `system_schema`'s tables for one keyspace, as a Cassandra
//! 5.0 node writes them (`SchemaKeyspace.makeCreateKeyspaceMutation` and
//! friends): the keyspace, its tables and views with their options, every
//! column, dropped column, type and index.
//!
//! Every table of `system_schema` is partitioned by `keyspace_name`, so a
//! schema change rewrites the partitions of the keyspace it touched and no
//! other.

use std::collections::BTreeMap;

use super::SystemRow;
use crate::schema::table_options::{
    as_map, as_text, boolean, caching, compaction, compression, effective_option, speculative_retry,
};
use crate::schema::{ColumnKind, Index, IndexKind, Keyspace, Replication, Table};
use crate::syntax::ast::{IndexTargetKind, Order, PropertyValue};
use crate::types::Value;

const KS: &str = "system_schema";

fn text(s: &str) -> Value {
    Value::Text(s.to_string())
}

/// A `map<text, text>` value, sorted by key as the type orders it.
fn text_map(entries: impl IntoIterator<Item = (String, String)>) -> Value {
    let sorted: BTreeMap<String, String> = entries.into_iter().collect();
    Value::Map(
        sorted
            .into_iter()
            .map(|(k, v)| (Value::Text(k), Value::Text(v)))
            .collect(),
    )
}

/// A `list<text>` value.
fn text_list(items: impl IntoIterator<Item = String>) -> Value {
    Value::List(items.into_iter().map(Value::Text).collect())
}

/// Every `system_schema` row describing `ks`.
pub fn keyspace_rows(ks: &Keyspace) -> Vec<SystemRow> {
    let mut rows = vec![SystemRow::new(KS, "keyspaces")
        .with("keyspace_name", text(&ks.name))
        .with("durable_writes", Value::Boolean(ks.durable_writes))
        .with("replication", replication(&ks.replication))];
    for table in ks.tables.values() {
        if table.is_view() {
            rows.push(view_row(ks, table));
        } else {
            rows.push(table_row(table));
        }
        column_rows(KS, table, &mut rows);
        for (column, dropped) in &table.dropped_columns {
            let time = dropped
                .timestamp
                .as_deref()
                .and_then(|t| t.parse::<i64>().ok())
                .map_or(Value::Null, |micros| Value::Timestamp(micros / 1000));
            rows.push(
                SystemRow::new(KS, "dropped_columns")
                    .with("keyspace_name", text(&ks.name))
                    .with("table_name", text(&table.name))
                    .with("column_name", text(column))
                    .with("dropped_time", time)
                    .with(
                        "kind",
                        text(if dropped.is_static {
                            "static"
                        } else {
                            "regular"
                        }),
                    )
                    .with("type", text(&dropped.data_type.to_string())),
            );
        }
        for index in &table.indexes {
            rows.push(index_row(table, index));
        }
    }
    for ty in ks.types.values() {
        rows.push(
            SystemRow::new(KS, "types")
                .with("keyspace_name", text(&ks.name))
                .with("type_name", text(&ty.name))
                .with(
                    "field_names",
                    text_list(ty.fields.iter().map(|(n, _)| n.clone())),
                )
                .with(
                    "field_types",
                    text_list(ty.fields.iter().map(|(_, t)| t.to_string())),
                ),
        );
    }
    rows
}

/// `replication` as the node stores it: the strategy's full class name and
/// its options.
fn replication(replication: &Replication) -> Value {
    let class = |short: &str| {
        (
            "class".to_string(),
            format!("org.apache.cassandra.locator.{short}"),
        )
    };
    match replication {
        Replication::Simple { factor } => text_map([
            class("SimpleStrategy"),
            ("replication_factor".to_string(), factor.to_string()),
        ]),
        Replication::NetworkTopology { factors } => text_map(
            std::iter::once(class("NetworkTopologyStrategy"))
                .chain(factors.iter().map(|(dc, n)| (dc.clone(), n.to_string()))),
        ),
        Replication::Local => text_map([class("LocalStrategy")]),
    }
}

/// An option's value as the server holds it, typed as `system_schema.tables`
/// types it. A 5.0.8 node leaves some null: `cdc` always (CDC is off in
/// cassandra.yaml), `allow_auto_snapshot` and `incremental_backups` unless
/// turned off, `memtable` unless another than `default` is named.
fn option_value(table: &Table, name: &str) -> Value {
    let written = table.options.get(name).map(as_text);
    match name {
        "cdc" => return Value::Null,
        "allow_auto_snapshot" | "incremental_backups" => {
            return match written {
                Some(text) if boolean(&text) == "false" => Value::Boolean(false),
                _ => Value::Null,
            }
        }
        "memtable" => {
            return match written {
                Some(text) if text != "default" => Value::Text(text),
                _ => Value::Null,
            }
        }
        _ => {}
    }
    let Some(value) = effective_option(table, name) else {
        return Value::Null;
    };
    let map =
        |f: fn(&BTreeMap<String, String>) -> BTreeMap<String, String>| text_map(f(&as_map(&value)));
    match name {
        "caching" => map(caching),
        "compaction" => map(compaction),
        "compression" => map(compression),
        "extensions" => Value::Map(
            as_map(&value)
                .into_iter()
                .map(|(k, v)| (Value::Text(k), Value::Blob(v.into_bytes())))
                .collect(),
        ),
        "additional_write_policy" | "speculative_retry" => {
            text(&speculative_retry(&as_text(&value)))
        }
        "bloom_filter_fp_chance" | "crc_check_chance" => {
            as_text(&value).parse().map_or(Value::Null, Value::Double)
        }
        "default_time_to_live"
        | "gc_grace_seconds"
        | "max_index_interval"
        | "memtable_flush_period_in_ms"
        | "min_index_interval" => as_text(&value).parse().map_or(Value::Null, Value::Int),
        "read_repair" => text(&as_text(&value).to_uppercase()),
        _ => match &value {
            PropertyValue::Map(_) => Value::Null,
            other => text(&as_text(other)),
        },
    }
}

/// The options every table and view row carries.
const OPTION_COLUMNS: [&str; 19] = [
    "additional_write_policy",
    "allow_auto_snapshot",
    "bloom_filter_fp_chance",
    "caching",
    "cdc",
    "comment",
    "compaction",
    "compression",
    "crc_check_chance",
    "default_time_to_live",
    "extensions",
    "gc_grace_seconds",
    "incremental_backups",
    "max_index_interval",
    "memtable",
    "memtable_flush_period_in_ms",
    "min_index_interval",
    "read_repair",
    "speculative_retry",
];

fn with_options(mut row: SystemRow, table: &Table) -> SystemRow {
    for name in OPTION_COLUMNS {
        if table.is_view() && name == "default_time_to_live" {
            row = row.with(name, Value::Int(0));
            continue;
        }
        row = row.with(name, option_value(table, name));
    }
    row.with("dclocal_read_repair_chance", Value::Double(0.0))
        .with("read_repair_chance", Value::Double(0.0))
        .with(
            "id",
            Value::Uuid(super::table_id(&table.keyspace, &table.name)),
        )
}

/// A `system_schema.tables` row.
fn table_row(table: &Table) -> SystemRow {
    let mut flags = vec![Value::Text("compound".to_string())];
    if table.is_counter_table() {
        flags.push(Value::Text("counter".to_string()));
    }
    let row = SystemRow::new(KS, "tables")
        .with("keyspace_name", text(&table.keyspace))
        .with("table_name", text(&table.name))
        .with("flags", Value::Set(flags));
    with_options(row, table)
}

/// A `system_schema.views` row.
fn view_row(ks: &Keyspace, view: &Table) -> SystemRow {
    let base = view.view_of.clone().unwrap_or_default();
    let definition = view.view.as_ref();
    let where_clause: Vec<String> = definition
        .map(|d| d.where_clause.iter().map(|r| r.to_string()).collect())
        .unwrap_or_default();
    let row = SystemRow::new(KS, "views")
        .with("keyspace_name", text(&ks.name))
        .with("view_name", text(&view.name))
        .with(
            "base_table_id",
            Value::Uuid(super::table_id(&ks.name, &base)),
        )
        .with("base_table_name", text(&base))
        .with(
            "include_all_columns",
            Value::Boolean(definition.is_some_and(|d| d.include_all_columns)),
        )
        .with("where_clause", text(&where_clause.join(" AND ")));
    with_options(row, view)
}

/// A `columns` row (of `system_schema`, or `system_virtual_schema` when
/// `schema_keyspace` says so) for each column of `table`.
pub(super) fn column_rows(schema_keyspace: &'static str, table: &Table, rows: &mut Vec<SystemRow>) {
    for column in table.columns.values() {
        let (kind, position, order) = match column.kind {
            ColumnKind::PartitionKey(i) => ("partition_key", i as i32, "none"),
            ColumnKind::Clustering(i, Order::Asc) => ("clustering", i as i32, "asc"),
            ColumnKind::Clustering(i, Order::Desc) => ("clustering", i as i32, "desc"),
            ColumnKind::Static => ("static", -1, "none"),
            ColumnKind::Regular => ("regular", -1, "none"),
        };
        rows.push(
            SystemRow::new(schema_keyspace, "columns")
                .with("keyspace_name", text(&table.keyspace))
                .with("table_name", text(&table.name))
                .with("column_name", text(&column.name))
                .with("clustering_order", text(order))
                .with(
                    "column_name_bytes",
                    Value::Blob(column.name.clone().into_bytes()),
                )
                .with("kind", text(kind))
                .with("position", Value::Int(position))
                .with("type", text(&column.data_type.to_string())),
        );
    }
}

/// A `system_schema.indexes` row: `COMPOSITES` for a legacy index, `CUSTOM`
/// with its `class_name` as written otherwise, and the target as Cassandra
/// stores it.
fn index_row(table: &Table, index: &Index) -> SystemRow {
    let mut options: Vec<(String, String)> = index
        .options
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let kind = match (&index.class_name, &index.kind) {
        (None, IndexKind::Legacy) => "COMPOSITES",
        (Some(class), _) => {
            options.push(("class_name".to_string(), class.clone()));
            "CUSTOM"
        }
        (None, IndexKind::Sai) => {
            options.push(("class_name".to_string(), "StorageAttachedIndex".to_string()));
            "CUSTOM"
        }
        (None, IndexKind::Sasi) => {
            options.push((
                "class_name".to_string(),
                "org.apache.cassandra.index.sasi.SASIIndex".to_string(),
            ));
            "CUSTOM"
        }
        (None, IndexKind::Custom(class)) => {
            options.push(("class_name".to_string(), class.clone()));
            "CUSTOM"
        }
    };
    options.push(("target".to_string(), index_target(table, index)));
    SystemRow::new(KS, "indexes")
        .with("keyspace_name", text(&table.keyspace))
        .with("table_name", text(&table.name))
        .with("index_name", text(&index.name))
        .with("kind", text(kind))
        .with("options", text_map(options))
}

/// `keys(m)`, `values(c)`, `entries(m)`, `full(c)` or the column, quoted
/// where CQL needs it; a whole non-frozen collection is indexed on its
/// values.
fn index_target(table: &Table, index: &Index) -> String {
    let column = crate::schema::ddl::quote(&index.column);
    let multi_cell = table
        .column(&index.column)
        .is_some_and(|c| c.data_type.is_multi_cell() && c.data_type.is_collection());
    match index.target {
        IndexTargetKind::Simple if multi_cell => format!("values({column})"),
        IndexTargetKind::Simple => column,
        IndexTargetKind::Keys => format!("keys({column})"),
        IndexTargetKind::Values => format!("values({column})"),
        IndexTargetKind::Entries => format!("entries({column})"),
        IndexTargetKind::Full => format!("full({column})"),
    }
}
