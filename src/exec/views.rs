//! Materialized views kept in step with their base table.
//!
//! A view row is a projection of a base row: the view's key columns taken
//! from the base row (which must all be non-null and pass the view's WHERE
//! clause), its other columns copied cell by cell with their write times and
//! expiry. Before a write, the projections of every row of the partitions it
//! touches are noted; after it, they are computed again; rows whose
//! projection disappeared or moved are removed from the view, the others
//! rewritten. Views are derived data, so this edits the view's storage
//! directly rather than through tombstones.

use crate::planner::PlanContext;
use crate::schema::{ColumnKind, Table};
use crate::storage::{
    ClusteringKey, Liveness, PartitionPosition, Row, Slot, SlotRef, Slots, Store,
};
use crate::types::Value;

use super::bind::Binds;
use super::functions::FunctionContext;
use super::mutation::Mutation;
use super::restrict;
use super::view::RowView;

/// The qualified names of the views of base table `base` (`ks.table`).
pub(crate) fn views_of(ctx: &PlanContext, base: &str) -> Vec<String> {
    let Some((keyspace, table)) = base.split_once('.') else {
        return Vec::new();
    };
    ctx.catalog
        .keyspace(keyspace)
        .map(|ks| {
            ks.tables
                .values()
                .filter(|t| t.view_of.as_deref() == Some(table))
                .map(Table::qualified_name)
                .collect()
        })
        .unwrap_or_default()
}

/// Whether table `base` has views: asked for every write, and almost
/// always no, so it names nothing on the heap.
pub(crate) fn has_views(ctx: &PlanContext, base: &Table) -> bool {
    ctx.catalog.keyspace(&base.keyspace).is_some_and(|ks| {
        ks.tables
            .values()
            .any(|t| t.view_of.as_deref() == Some(base.name.as_str()))
    })
}

/// A view row computed from a base row.
struct Projection {
    view: String,
    key: Vec<Value>,
    clustering: Vec<Value>,
    liveness: Option<Liveness>,
    cells: Vec<(String, Slot)>,
}

/// What [`before`] noted: the base partitions a write touches and the view
/// rows they projected to.
pub(crate) struct Touched {
    partitions: Vec<(String, PartitionPosition)>,
    before: Vec<Projection>,
}

/// Notes the view rows of every base partition `mutations` touch.
pub(crate) fn before(
    ctx: &PlanContext,
    store: &Store,
    mutations: &[Mutation<'_>],
    now_secs: i64,
) -> Touched {
    let mut partitions: Vec<(String, PartitionPosition)> = Vec::new();
    for m in mutations {
        if !has_views(ctx, m.table) {
            continue;
        }
        let entry = (m.table.qualified_name(), m.position.clone());
        if !partitions.contains(&entry) {
            partitions.push(entry);
        }
    }
    let before = project_all(ctx, store, &partitions, now_secs);
    Touched { partitions, before }
}

/// Brings the views of the touched partitions in line after the write.
pub(crate) fn after(
    ctx: &PlanContext,
    store: &mut Store,
    touched: Touched,
    _timestamp: i64,
    now_secs: i64,
) {
    if touched.partitions.is_empty() {
        return;
    }
    let after = project_all(ctx, store, &touched.partitions, now_secs);
    for old in &touched.before {
        remove(ctx, store, old);
    }
    for new in after {
        put(ctx, store, new);
    }
}

/// Builds view `view` (`ks.name`) from its base table's current rows.
pub(crate) fn rebuild(ctx: &PlanContext, store: &mut Store, view: &str, now_secs: i64) {
    let Some((keyspace, name)) = view.split_once('.') else {
        return;
    };
    let Some(base) = ctx
        .catalog
        .table(keyspace, name)
        .and_then(|v| v.view_of.as_deref())
        .map(|b| format!("{keyspace}.{b}"))
    else {
        return;
    };
    let partitions: Vec<(String, PartitionPosition)> = store
        .table(&base)
        .map(|d| {
            d.partitions
                .keys()
                .map(|p| (base.clone(), p.clone()))
                .collect()
        })
        .unwrap_or_default();
    for p in project_all(ctx, store, &partitions, now_secs) {
        if p.view == view {
            put(ctx, store, p);
        }
    }
}

fn table<'c>(ctx: &'c PlanContext, qualified: &str) -> Option<&'c Table> {
    let (keyspace, name) = qualified.split_once('.')?;
    ctx.catalog.table(keyspace, name)
}

fn project_all(
    ctx: &PlanContext,
    store: &Store,
    partitions: &[(String, PartitionPosition)],
    now_secs: i64,
) -> Vec<Projection> {
    let mut out = Vec::new();
    for (base_name, position) in partitions {
        let (Some(base), Some(data)) = (table(ctx, base_name), store.table(base_name)) else {
            continue;
        };
        let Some(partition) = data.partition(position) else {
            continue;
        };
        for view_name in views_of(ctx, base_name) {
            let Some(view) = table(ctx, &view_name) else {
                continue;
            };
            let filters = view_filters(base, view);
            for (key, row) in &partition.rows {
                if !row.is_live(now_secs) {
                    continue;
                }
                let base_row = RowView {
                    table: base,
                    data,
                    partition,
                    clustering: Some(key),
                    row: Some(row),
                    now_secs,
                    slots: &[],
                };
                if !filters.iter().all(|p| restrict::matches(p, &base_row)) {
                    continue;
                }
                if let Some(p) = project(&view_name, view, &base_row) {
                    out.push(p);
                }
            }
        }
    }
    out
}

/// The view's WHERE relations other than `IS NOT NULL`, as predicates on
/// the base table.
fn view_filters<'t>(base: &'t Table, view: &Table) -> Vec<restrict::Predicate<'t>> {
    let Some(definition) = &view.view else {
        return Vec::new();
    };
    let mut next = || [0u8; 16];
    let mut next_time = || [0u8; 16];
    let mut fcx = FunctionContext {
        now_micros: 0,
        next_timeuuid: &mut next_time,
        next_uuid: &mut next,
    };
    restrict::compile(
        base,
        &definition.where_clause,
        &Binds::none(),
        &mut fcx,
        &crate::limits::Limits::UNBOUNDED,
    )
    .unwrap_or_default()
}

fn project(view_name: &str, view: &Table, base_row: &RowView<'_>) -> Option<Projection> {
    let mut key = Vec::new();
    let mut clustering = Vec::new();
    for column in view
        .partition_key_columns()
        .chain(view.clustering_columns())
    {
        let base_column = base_row.table.column(&column.name)?;
        let value = base_row.value(base_column).into_owned();
        if value.is_null() {
            return None;
        }
        match column.kind {
            ColumnKind::PartitionKey(_) => key.push(value),
            _ => clustering.push(value),
        }
    }
    let base = base_row.row?;
    let cells = view
        .columns
        .values()
        .filter(|c| !c.is_primary_key())
        .filter_map(|c| {
            let slot = base.slot(base_row.data.slot(&c.name)?)?;
            Some((c.name.clone(), slot.to_slot()))
        })
        .collect();
    // A view keyed by a regular base column lives exactly as long as that
    // column's cell (Cassandra's computeLivenessInfoForEntry), whatever the
    // base row's own marker says.
    let key_cell = view
        .partition_key_columns()
        .chain(view.clustering_columns())
        .filter_map(|c| base_row.table.column(&c.name))
        .find(|c| !c.is_primary_key())
        .and_then(|c| base.slot(base_row.data.slot(&c.name)?));
    if let Some(SlotRef::Cell(cell)) = key_cell {
        return Some(Projection {
            view: view_name.to_string(),
            key,
            clustering,
            liveness: Some(Liveness {
                timestamp: cell.timestamp,
                expiry: cell.expiry,
            }),
            cells,
        });
    }
    // A base row kept alive only by its cells (never INSERTed) gives a view
    // row that lives as long as its newest cell, expiry included.
    let liveness = base.liveness().or_else(|| {
        let (timestamp, expiry) = base
            .slots()
            .filter_map(|(_, s)| match s {
                SlotRef::Cell(c) => c
                    .live_value(base_row.now_secs)
                    .map(|_| (c.timestamp, c.expiry)),
                SlotRef::Collection(c) => c.max_timestamp(base_row.now_secs).map(|t| (t, None)),
            })
            .max_by_key(|(t, e)| (*t, e.map_or(i64::MAX, |e| e.expires_at())))?;
        Some(Liveness { timestamp, expiry })
    });
    Some(Projection {
        view: view_name.to_string(),
        key,
        clustering,
        liveness,
        cells,
    })
}

fn remove(ctx: &PlanContext, store: &mut Store, p: &Projection) {
    let Ok(position) = restrict::unchecked_partition_position(&p.key) else {
        return;
    };
    let Some(view) = table(ctx, &p.view) else {
        return;
    };
    let mask = restrict::descending_mask(view);
    let data = store.table_mut(&p.view);
    if let Some(partition) = data.partitions.get_mut(&position) {
        partition
            .rows
            .remove(&ClusteringKey::exact(p.clustering.clone(), mask));
        if partition.rows.is_empty() {
            data.partitions.remove(&position);
        }
    }
}

fn put(ctx: &PlanContext, store: &mut Store, p: Projection) {
    let Ok(position) = restrict::unchecked_partition_position(&p.key) else {
        return;
    };
    let Some(view) = table(ctx, &p.view) else {
        return;
    };
    let mask = restrict::descending_mask(view);
    let data = store.table_mut(&p.view);
    let mut row = Row {
        liveness: p.liveness,
        deleted_at: None,
        cells: Slots::new(),
    };
    for (name, slot) in p.cells {
        let index = data.slot_or_allocate(&name);
        if row.cells.len() <= index {
            row.cells.resize(index + 1, None);
        }
        row.cells[index] = Some(slot);
    }
    data.partition_mut(position, &p.key)
        .rows
        .insert(ClusteringKey::exact(p.clustering, mask), row.into());
}
