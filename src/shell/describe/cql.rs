//! The CREATE statements DESCRIBE prints, in Cassandra 5.0's server format
//! (`KeyspaceMetadata`, `UserType`, `TableMetadata`, `IndexMetadata` and
//! `ViewMetadata.toCqlString`): four-space indentation, names quoted only
//! where needed, every table option in its fixed order.

use std::collections::BTreeMap;

use super::options::{option_lines, quoted};
use crate::schema::{Column, ColumnKind, Index, IndexKind, Keyspace, Replication, Table, UserType};
use crate::syntax::ast::IndexTargetKind;
use crate::types::DataType;

/// A name as CQL writes it: bare when it lexes back to itself, else
/// double-quoted (`ColumnIdentifier.maybeQuote`).
pub fn name(text: &str) -> String {
    let mut out = String::new();
    let _ = crate::syntax::ast::write_name(&mut out, text);
    out
}

/// `ks.name`, each part quoted where needed.
pub fn qualified(keyspace: &str, object: &str) -> String {
    format!("{}.{}", name(keyspace), name(object))
}

/// Every statement `DESCRIBE KEYSPACE` prints for `ks`: the keyspace, then
/// (unless `only`) its types with each one's dependencies first, then its
/// tables by name, each followed by its indexes and its views by name.
pub fn keyspace_elements(ks: &Keyspace, only: bool) -> Vec<String> {
    let mut out = vec![keyspace_cql(ks)];
    if only {
        return out;
    }
    out.extend(sorted_types(ks).into_iter().map(|t| type_cql(&ks.name, t)));
    let mut tables: Vec<&Table> = ks.tables.values().filter(|t| !t.is_view()).collect();
    tables.sort_by(|a, b| a.name.cmp(&b.name));
    for table in tables {
        out.extend(table_elements(ks, table, true));
    }
    out
}

/// A table's statement followed by its indexes by name and, when
/// `with_views`, the views built on it by name.
pub fn table_elements(ks: &Keyspace, table: &Table, with_views: bool) -> Vec<String> {
    let mut out = vec![table_cql(table)];
    let mut indexes: Vec<&Index> = table.indexes.iter().collect();
    indexes.sort_by(|a, b| a.name.cmp(&b.name));
    out.extend(indexes.into_iter().map(|i| index_cql(table, i)));
    if with_views {
        let mut views: Vec<&Table> = ks
            .tables
            .values()
            .filter(|v| v.view_of.as_deref() == Some(table.name.as_str()))
            .collect();
        views.sort_by(|a, b| a.name.cmp(&b.name));
        out.extend(views.into_iter().map(view_cql));
    }
    out
}

/// `CREATE KEYSPACE …` — with the two spaces Cassandra puts before `AND`.
pub fn keyspace_cql(ks: &Keyspace) -> String {
    format!(
        "CREATE KEYSPACE {} WITH replication = {}  AND durable_writes = {};",
        name(&ks.name),
        replication(&ks.replication),
        ks.durable_writes
    )
}

/// The replication map: the strategy's short name (classes of Cassandra's
/// `org.apache.cassandra.locator` package are named without it), then the
/// options in the order Cassandra holds them.
fn replication(r: &Replication) -> String {
    let (class, options): (&str, Vec<(String, String)>) = match r {
        Replication::Simple { factor } => (
            "SimpleStrategy",
            vec![("replication_factor".to_string(), factor.to_string())],
        ),
        Replication::NetworkTopology { factors } => (
            "NetworkTopologyStrategy",
            hash_map_order(factors.iter().map(|(dc, n)| (dc.clone(), n.to_string()))),
        ),
        Replication::Local => ("LocalStrategy", Vec::new()),
    };
    let mut out = format!("{{'class': {}", quoted(class));
    for (k, v) in options {
        out.push_str(&format!(", {}: {}", quoted(&k), quoted(&v)));
    }
    out.push('}');
    out
}

/// The data centre factors in the order Cassandra 5.0 prints them:
/// `ReplicationParams.fromMap` copies the stored map (sorted, `class`
/// included) into a `java.util.HashMap` and removes `class`, so the order is
/// that HashMap's bucket order.
fn hash_map_order(entries: impl Iterator<Item = (String, String)>) -> Vec<(String, String)> {
    let sorted: BTreeMap<String, String> = entries.collect();
    let count = sorted.len() + 1;
    // `new HashMap<>(map)`: capacity tableSizeFor((int) (n / 0.75f + 1)).
    let wanted = (count as f32 / 0.75 + 1.0) as usize;
    let capacity = wanted.next_power_of_two().max(1);
    let mut keyed: Vec<(usize, (String, String))> = sorted
        .into_iter()
        .map(|(k, v)| (java_bucket(&k, capacity), (k, v)))
        .collect();
    keyed.sort_by_key(|(bucket, _)| *bucket);
    keyed.into_iter().map(|(_, kv)| kv).collect()
}

/// The bucket of a String key in a `java.util.HashMap` of `capacity`.
fn java_bucket(key: &str, capacity: usize) -> usize {
    let hash = key.encode_utf16().fold(0i32, |h, unit| {
        h.wrapping_mul(31).wrapping_add(i32::from(unit))
    });
    let spread = (hash as u32) ^ ((hash as u32) >> 16);
    spread as usize & (capacity - 1)
}

/// A keyspace's types, each preceded by the types it uses (`Types.sortedStream`).
pub fn sorted_types(ks: &Keyspace) -> Vec<&UserType> {
    let mut names: Vec<&String> = ks.types.keys().collect();
    names.sort();
    let mut out: Vec<&UserType> = Vec::new();
    for n in names {
        add_with_dependencies(ks, n, &mut out);
    }
    out
}

fn add_with_dependencies<'a>(ks: &'a Keyspace, type_name: &str, out: &mut Vec<&'a UserType>) {
    let Some(t) = ks.types.get(type_name) else {
        return;
    };
    if out.iter().any(|u| u.name == t.name) {
        return;
    }
    for (_, ty) in &t.fields {
        let mut used = Vec::new();
        udt_names(ty, &mut used);
        for u in used {
            add_with_dependencies(ks, &u, out);
        }
    }
    if !out.iter().any(|u| u.name == t.name) {
        out.push(t);
    }
}

/// The names of the user types `ty` mentions, outermost first.
fn udt_names(ty: &DataType, out: &mut Vec<String>) {
    match ty {
        DataType::List { element, .. }
        | DataType::Set { element, .. }
        | DataType::Vector { element, .. } => udt_names(element, out),
        DataType::Map { key, value, .. } => {
            udt_names(key, out);
            udt_names(value, out);
        }
        DataType::Tuple(items) => items.iter().for_each(|t| udt_names(t, out)),
        DataType::Udt { name, fields, .. } => {
            fields.iter().for_each(|(_, t)| udt_names(t, out));
            out.push(name.clone());
        }
        DataType::Native(_) | DataType::Custom(_) => {}
    }
}

/// `CREATE TYPE ks.t (\n    field type,\n …\n);`
pub fn type_cql(keyspace: &str, t: &UserType) -> String {
    let fields: Vec<String> = t
        .fields
        .iter()
        .map(|(f, ty)| format!("    {} {ty}", name(f)))
        .collect();
    format!(
        "CREATE TYPE {} (\n{}\n);",
        qualified(keyspace, &t.name),
        fields.join(",\n")
    )
}

/// The columns in the order of the CREATE statement: partition key,
/// clustering, then static and regular columns, each group with simple
/// columns by name before non-frozen collections and UDTs by name.
pub fn create_order(table: &Table) -> Vec<&Column> {
    let group = |kind: ColumnKind| {
        let mut cols: Vec<&Column> = table.columns.values().filter(|c| c.kind == kind).collect();
        cols.sort_by(|a, b| {
            (a.data_type.is_multi_cell(), a.name.as_bytes())
                .cmp(&(b.data_type.is_multi_cell(), b.name.as_bytes()))
        });
        cols
    };
    table
        .partition_key_columns()
        .chain(table.clustering_columns())
        .chain(group(ColumnKind::Static))
        .chain(group(ColumnKind::Regular))
        .collect()
}

/// `CREATE TABLE …` (or `CREATE MATERIALIZED VIEW …` for a view).
pub fn table_cql(table: &Table) -> String {
    if table.is_view() {
        return view_cql(table);
    }
    let single_key = table.partition_key.len() == 1 && table.clustering.is_empty();
    let mut lines: Vec<String> = create_order(table)
        .into_iter()
        .map(|c| {
            let stat = if c.is_static() { " static" } else { "" };
            let key = if single_key && c.is_partition_key() {
                " PRIMARY KEY"
            } else {
                ""
            };
            format!("    {} {}{stat}{key}", name(&c.name), c.data_type)
        })
        .collect();
    if !single_key {
        lines.push(format!("    {}", primary_key(table)));
    }
    format!(
        "CREATE TABLE {} (\n{}\n) WITH {}",
        qualified(&table.keyspace, &table.name),
        lines.join(",\n"),
        with_clause(table)
    )
}

/// `PRIMARY KEY (a, b)` or `PRIMARY KEY ((a, b), c)`.
fn primary_key(table: &Table) -> String {
    let names = |list: &[String]| list.iter().map(|n| name(n)).collect::<Vec<_>>().join(", ");
    let partition = if table.partition_key.len() > 1 {
        format!("({})", names(&table.partition_key))
    } else {
        names(&table.partition_key)
    };
    if table.clustering.is_empty() {
        format!("PRIMARY KEY ({partition})")
    } else {
        format!("PRIMARY KEY ({partition}, {})", names(&table.clustering))
    }
}

/// What follows `WITH `: the clustering order when there are clustering
/// columns, then every option, one per line, and the closing `;`.
fn with_clause(table: &Table) -> String {
    let mut items = Vec::new();
    let order: Vec<String> = table
        .clustering_columns()
        .map(|c| match c.kind {
            ColumnKind::Clustering(_, order) => format!("{} {}", name(&c.name), order.as_str()),
            _ => name(&c.name),
        })
        .collect();
    if !order.is_empty() {
        items.push(format!("CLUSTERING ORDER BY ({})", order.join(", ")));
    }
    items.extend(option_lines(table));
    format!("{};", items.join("\n    AND "))
}

/// `CREATE MATERIALIZED VIEW ks.v AS SELECT … FROM … WHERE … PRIMARY KEY …
/// WITH …`, over several lines with the ` WITH` one space in.
pub fn view_cql(view: &Table) -> String {
    let definition = view.view.as_ref();
    let selection = if definition.is_some_and(|d| d.include_all_columns) {
        "*".to_string()
    } else {
        select_order(view)
            .into_iter()
            .map(|c| name(&c.name))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let relations: Vec<String> = definition
        .map(|d| d.where_clause.iter().map(|r| r.to_string()).collect())
        .unwrap_or_default();
    format!(
        "CREATE MATERIALIZED VIEW {} AS\n    SELECT {selection}\n    FROM {}\n    WHERE {}\n    {}\n WITH {}",
        qualified(&view.keyspace, &view.name),
        qualified(&view.keyspace, view.view_of.as_deref().unwrap_or_default()),
        relations.join(" AND "),
        primary_key(view),
        with_clause(view)
    )
}

/// The columns in `SELECT *` order: key columns, then the others by name.
fn select_order(table: &Table) -> Vec<&Column> {
    let mut rest: Vec<&Column> = table
        .columns
        .values()
        .filter(|c| !c.is_primary_key())
        .collect();
    rest.sort_by(|a, b| a.name.as_bytes().cmp(b.name.as_bytes()));
    table
        .partition_key_columns()
        .chain(table.clustering_columns())
        .chain(rest)
        .collect()
}

/// `CREATE INDEX …` or, for an index with a class, `CREATE CUSTOM INDEX …
/// USING '…' [WITH OPTIONS = {…}]`.
pub fn index_cql(table: &Table, index: &Index) -> String {
    let on = qualified(&table.keyspace, &table.name);
    let target = index_target(table, index);
    let class = match (&index.class_name, &index.kind) {
        (Some(class), _) => class.clone(),
        (None, IndexKind::Legacy) => {
            return format!("CREATE INDEX {} ON {on} ({target});", name(&index.name));
        }
        (None, IndexKind::Sai) => "StorageAttachedIndex".to_string(),
        (None, IndexKind::Sasi) => "org.apache.cassandra.index.sasi.SASIIndex".to_string(),
        (None, IndexKind::Custom(class)) => class.clone(),
    };
    let mut out = format!(
        "CREATE CUSTOM INDEX {} ON {on} ({target}) USING {}",
        name(&index.name),
        quoted(&class)
    );
    if !index.options.is_empty() {
        let sorted: BTreeMap<&String, &String> = index.options.iter().collect();
        let entries: Vec<String> = sorted
            .into_iter()
            .map(|(k, v)| format!("{}: {}", quoted(k), quoted(v)))
            .collect();
        out.push_str(&format!(" WITH OPTIONS = {{{}}}", entries.join(", ")));
    }
    out.push(';');
    out
}

/// The index target as Cassandra stores it: the column, or `keys(m)`,
/// `values(c)`, `entries(m)`, `full(c)`; an index on a whole non-frozen
/// collection is on its values.
fn index_target(table: &Table, index: &Index) -> String {
    let column = name(&index.column);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_string_hash_buckets() {
        // "dc1".hashCode() == 100 * 31 * 31 + 99 * 31 + 49 == 99_218.
        let h: u32 = 99_218;
        assert_eq!(java_bucket("dc1", 8), ((h ^ (h >> 16)) & 7) as usize);
    }

    #[test]
    fn one_data_centre_needs_no_ordering() {
        let order = hash_map_order(vec![("datacenter1".to_string(), "3".to_string())].into_iter());
        assert_eq!(order, vec![("datacenter1".to_string(), "3".to_string())]);
    }
}
