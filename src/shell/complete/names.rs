//! What completion offers from the catalog (keyspaces, tables, columns,
//! indexes, types) and the fixed word lists of cqlsh's grammar.

use super::Cand;
use crate::planner::PlanContext;
use crate::schema::Table;
use crate::syntax::ast::{write_name, NativeType};

/// Every statement and shell command a line may start with (cqlsh.md §4,
/// first row), then widerow's own commands.
pub(crate) const STARTS: &[&str] = &[
    "SELECT",
    "INSERT",
    "UPDATE",
    "DELETE",
    "BEGIN",
    "TRUNCATE",
    "CREATE",
    "DROP",
    "ALTER",
    "USE",
    "GRANT",
    "REVOKE",
    "LIST",
    "DESC",
    "DESCRIBE",
    "SHOW",
    "HELP",
    "?",
    "CONSISTENCY",
    "SERIAL",
    "SOURCE",
    "CAPTURE",
    "COPY",
    "LOGIN",
    "TRACING",
    "EXPAND",
    "PAGING",
    "CLEAR",
    "CLS",
    "DEBUG",
    "exit",
    "quit",
    "history",
    // widerow's own
    "EXPLAIN",
    "SAVE",
    "CLUSTER",
];

/// The consistency levels CONSISTENCY accepts.
pub(crate) const LEVELS: &[&str] = &[
    "ANY",
    "ONE",
    "TWO",
    "THREE",
    "QUORUM",
    "ALL",
    "LOCAL_QUORUM",
    "EACH_QUORUM",
    "SERIAL",
    "LOCAL_SERIAL",
    "LOCAL_ONE",
    "NODE_LOCAL",
];

/// Table options after `WITH` (Cassandra 5.0's, as cqlsh offers them).
pub(crate) const TABLE_OPTIONS: &[&str] = &[
    "additional_write_policy",
    "allow_auto_snapshot",
    "bloom_filter_fp_chance",
    "caching",
    "cdc",
    "comment",
    "compaction",
    "compression",
    "default_time_to_live",
    "gc_grace_seconds",
    "incremental_backups",
    "max_index_interval",
    "memtable",
    "memtable_flush_period_in_ms",
    "min_index_interval",
    "read_repair",
    "speculative_retry",
    "CLUSTERING",
    "COMPACT",
];

/// HELP's topics: the shell commands, then the CQL topics (cqlsh.md §2).
pub(crate) const HELP_TOPICS: &[&str] = &[
    "CAPTURE",
    "CLS",
    "COPY",
    "DESCRIBE",
    "EXPAND",
    "HISTORY",
    "PAGING",
    "SHOW",
    "TRACING",
    "CLEAR",
    "CONSISTENCY",
    "DESC",
    "EXIT",
    "HELP",
    "LOGIN",
    "SERIAL",
    "SOURCE",
    "UNICODE",
    "AGGREGATES",
    "ALTER_KEYSPACE",
    "ALTER_MATERIALIZED_VIEW",
    "ALTER_TABLE",
    "ALTER_TYPE",
    "ALTER_USER",
    "APPLY",
    "ASCII",
    "BATCH",
    "BEGIN",
    "BLOB",
    "BOOLEAN",
    "COUNTER",
    "CREATE_AGGREGATE",
    "CREATE_COLUMNFAMILY",
    "CREATE_FUNCTION",
    "CREATE_INDEX",
    "CREATE_KEYSPACE",
    "CREATE_MATERIALIZED_VIEW",
    "CREATE_ROLE",
    "CREATE_TABLE",
    "CREATE_TRIGGER",
    "CREATE_TYPE",
    "CREATE_USER",
    "DATE",
    "DELETE",
    "DROP_AGGREGATE",
    "DROP_COLUMNFAMILY",
    "DROP_FUNCTION",
    "DROP_INDEX",
    "DROP_KEYSPACE",
    "DROP_MATERIALIZED_VIEW",
    "DROP_ROLE",
    "DROP_TABLE",
    "DROP_TRIGGER",
    "DROP_TYPE",
    "DROP_USER",
    "FUNCTIONS",
    "GRANT",
    "INSERT",
    "INSERT_JSON",
    "INT",
    "JSON",
    "KEYWORDS",
    "LIST_PERMISSIONS",
    "LIST_ROLES",
    "LIST_USERS",
    "PERMISSIONS",
    "REVOKE",
    "SELECT",
    "SELECT_JSON",
    "TEXT",
    "TIME",
    "TIMESTAMP",
    "TRUNCATE",
    "TYPES",
    "UPDATE",
    "USE",
    "UUID",
];

/// A name as CQL writes it: double-quoted when it is not a plain
/// lower-case identifier.
pub(crate) fn quoted(name: &str) -> String {
    let mut out = String::new();
    let _ = write_name(&mut out, name);
    out
}

/// Every keyspace name.
pub(crate) fn keyspaces(ctx: &PlanContext) -> Vec<Cand> {
    ctx.catalog
        .keyspaces()
        .map(|k| Cand::word(quoted(&k.name)))
        .collect()
}

/// `ks.` for every keyspace: the start of a qualified name.
pub(crate) fn keyspace_prefixes(ctx: &PlanContext) -> Vec<Cand> {
    ctx.catalog
        .keyspaces()
        .map(|k| Cand::word(format!("{}.", quoted(&k.name))))
        .collect()
}

/// The tables of `keyspace` (the current one when `None`); views with
/// `views`.
pub(crate) fn tables(ctx: &PlanContext, keyspace: Option<&str>, views: bool) -> Vec<Cand> {
    let Some(ks) = keyspace
        .or(ctx.keyspace.as_deref())
        .and_then(|k| ctx.catalog.keyspace(k))
    else {
        return Vec::new();
    };
    ks.tables
        .values()
        .filter(|t| t.is_view() == views)
        .map(|t| Cand::word(quoted(&t.name)))
        .collect()
}

/// A table position: the current keyspace's tables and every `ks.`.
pub(crate) fn table_position(ctx: &PlanContext) -> Vec<Cand> {
    let mut out = tables(ctx, None, false);
    out.extend(keyspace_prefixes(ctx));
    out
}

/// The index names of the current keyspace.
pub(crate) fn indexes(ctx: &PlanContext) -> Vec<Cand> {
    current(ctx)
        .map(|ks| {
            ks.tables
                .values()
                .flat_map(|t| &t.indexes)
                .map(|i| Cand::word(quoted(&i.name)))
                .collect()
        })
        .unwrap_or_default()
}

/// The user types of the current keyspace.
pub(crate) fn types(ctx: &PlanContext) -> Vec<Cand> {
    current(ctx)
        .map(|ks| ks.types.keys().map(|n| Cand::word(quoted(n))).collect())
        .unwrap_or_default()
}

fn current(ctx: &PlanContext) -> Option<&crate::schema::Keyspace> {
    ctx.keyspace
        .as_deref()
        .and_then(|k| ctx.catalog.keyspace(k))
}

/// Every type name a column may have (cqlsh.md §4: `CREATE TABLE t (a `),
/// and the current keyspace's user types.
pub(crate) fn type_names(ctx: &PlanContext, collections: bool) -> Vec<Cand> {
    let mut out: Vec<Cand> = NativeType::ALL
        .iter()
        .map(|t| Cand::word(native_name(*t)))
        .collect();
    if collections {
        out.extend(super::words(&["list", "map", "set", "frozen", "vector"]));
    }
    out.extend(types(ctx));
    out
}

fn native_name(t: NativeType) -> String {
    format!("{t:?}").to_ascii_lowercase()
}

/// Column names of a table, quoted where needed.
pub(crate) fn column_names<'a>(columns: impl Iterator<Item = &'a str>) -> Vec<Cand> {
    columns.map(|c| Cand::word(quoted(c))).collect()
}

/// The columns WHERE may restrict next (cqlsh.md §4): the partition-key
/// columns up to the first one not yet restricted, the clustering columns
/// likewise, and the indexed columns.
pub(crate) fn restrictable(table: &Table, restricted: &[String]) -> Vec<Cand> {
    let mut out = Vec::new();
    for key in [&table.partition_key, &table.clustering] {
        for name in key {
            out.push(Cand::word(quoted(name)));
            if !restricted.contains(name) {
                break;
            }
        }
    }
    for index in &table.indexes {
        out.push(Cand::word(quoted(&index.column)));
    }
    out
}

/// INSERT's column list (cqlsh.md §4): the first primary-key column not yet
/// listed, then, once the key is complete, the other columns.
pub(crate) fn insert_columns(table: &Table, listed: &[String]) -> Vec<Cand> {
    let key = table.partition_key.iter().chain(&table.clustering);
    if let Some(next) = key.clone().find(|k| !listed.contains(k)) {
        return vec![Cand::word(quoted(next))];
    }
    let rest = table
        .columns
        .keys()
        .filter(|c| !listed.contains(c) && !key.clone().any(|k| k == *c));
    column_names(rest.map(String::as_str))
}

/// The columns that are not part of the primary key.
pub(crate) fn regular_columns(table: &Table) -> Vec<Cand> {
    column_names(
        table
            .columns
            .values()
            .filter(|c| !c.is_primary_key())
            .map(|c| c.name.as_str()),
    )
}

/// File names for an open `'…` (SOURCE, CAPTURE): the entries of the
/// directory typed so far that start with the rest, `~` expanded as cqlsh
/// does; directories end in `/` and stay open, files are closed with `'`.
pub(crate) fn files(partial: &str) -> Vec<Cand> {
    // Inside the string a quote is written twice.
    let typed = partial
        .strip_prefix('\'')
        .unwrap_or(partial)
        .replace("''", "'");
    let (head, tail) = match typed.rfind('/') {
        Some(at) => typed.split_at(at + 1),
        None => ("", typed.as_str()),
    };
    let dir = match head.strip_prefix("~/") {
        Some(rest) => std::env::var_os("HOME")
            .map(|home| std::path::PathBuf::from(home).join(rest))
            .unwrap_or_else(|| head.into()),
        None if head.is_empty() => ".".into(),
        None => head.into(),
    };
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.starts_with(tail) {
            continue;
        }
        let is_dir = entry.path().is_dir();
        let end = if is_dir { "/" } else { "'" };
        let path = format!("{head}{name}").replace('\'', "''");
        out.push(Cand::word(format!("'{path}{end}")));
    }
    out
}
