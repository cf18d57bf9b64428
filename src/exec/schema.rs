//! Schema statements on a session with data: the catalog changes through
//! the planner's context, and storage follows — dropped tables lose their
//! rows, TRUNCATE empties a table (and its views), new columns get storage
//! slots, a new materialized view is built from its base table.

use crate::error::Error;
use crate::planner::PlanContext;
use crate::schema::{SchemaChange, SchemaObject};
use crate::storage::Store;
use crate::syntax::ast::Statement;

use super::result::ResultSet;

/// Applies a schema statement or `USE` and brings storage in line, the
/// system tables' rows included.
pub(crate) fn run_schema(
    ctx: &mut PlanContext,
    store: &mut Store,
    system: &mut super::system_tables::SystemTables,
    statement: &Statement,
    now_micros: i64,
) -> Result<ResultSet, Error> {
    let applied = ctx.apply_schema(statement)?;
    sync_storage(ctx, store);
    system.after_change(ctx, store, &applied.change, now_micros);
    match &applied.change {
        SchemaChange::Truncated { keyspace, table } => {
            let base = format!("{keyspace}.{table}");
            store.table_mut(&base).clear();
            for view in super::views::views_of(ctx, &base) {
                store.table_mut(&view).clear();
            }
        }
        SchemaChange::Created(SchemaObject::MaterializedView { keyspace, name, .. }) => {
            super::views::rebuild(
                ctx,
                store,
                &format!("{keyspace}.{name}"),
                now_micros.div_euclid(1_000_000),
            );
        }
        _ => {}
    }
    let mut result = ResultSet::ok();
    result.schema_change = applied.change.event().map(Box::new);
    result.warnings = applied.warnings;
    result.notes = applied.notes;
    if let Statement::CreateIndex(index) = statement {
        // `SASIIndex.USAGE_WARNING`, sent with every CREATE of a SASI index.
        if index.using.as_deref() == Some("org.apache.cassandra.index.sasi.SASIIndex") {
            result.warnings.push(
                "SASI indexes are experimental and are not recommended for production use.".into(),
            );
        }
    }
    if matches!(statement, Statement::CreateMaterializedView(_)) {
        // `View.USAGE_WARNING`, sent with every CREATE MATERIALIZED VIEW.
        result.warnings.push(
            "Materialized views are experimental and are not recommended for production use."
                .into(),
        );
    }
    Ok(result)
}

/// Makes storage match the catalog: a slot for every non-key column of
/// every table, none for dropped columns, no data for dropped tables.
/// Tables already in line are not touched (so a cloned session keeps
/// sharing them).
pub(crate) fn sync_storage(ctx: &PlanContext, store: &mut Store) {
    let mut known = rustc_hash::FxHashSet::default();
    for keyspace in ctx.catalog.keyspaces() {
        for table in keyspace.tables.values() {
            let name = table.qualified_name();
            let columns: Vec<&str> = table
                .columns
                .values()
                .filter(|c| !c.is_primary_key())
                .map(|c| c.name.as_str())
                .collect();
            let in_line = store.table(&name).is_some_and(|d| {
                columns.iter().all(|c| d.slot(c).is_some())
                    && d.slot_names().all(|s| columns.contains(&s))
            });
            if !in_line {
                let data = store.table_mut(&name);
                let stale: Vec<String> = data
                    .slot_names()
                    .filter(|s| !columns.contains(s))
                    .map(str::to_string)
                    .collect();
                for s in stale {
                    data.drop_column(&s);
                }
                for c in &columns {
                    data.slot_or_allocate(c);
                }
            }
            known.insert(name);
        }
    }
    let gone: Vec<String> = store
        .table_names()
        .filter(|n| !known.contains(*n))
        .map(str::to_string)
        .collect();
    for name in gone {
        store.drop_table(&name);
    }
}
