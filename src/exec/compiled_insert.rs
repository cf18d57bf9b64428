//! Prepared INSERTs of bind values, compiled once.
//!
//! Loading data is mostly one prepared `INSERT INTO t (…) VALUES (?, …)`
//! run again and again. The general path redoes, on every execution, work
//! that depends only on the statement: resolving the table and every
//! column by name, evaluating each term, finding storage slots, building
//! one operation per cell (each with its own copy of the clustering key)
//! and checking for views. A [`CompiledInsert`] does that work once, when
//! the statement's plan is made; each execution conforms its bind values
//! and writes the row with the storage calls [`super::mutation::apply`]
//! makes.
//!
//! It runs in steps so that declining costs nothing: [`CompiledInsert::fits`]
//! checks the values in line (or [`CompiledInsert::conformed`] converts
//! them), and [`CompiledInsert::bind`] borrows them and serializes the key;
//! any of them declines (`None`) on anything out of the ordinary — a null
//! or empty key, a mistyped value, a key or collection too large — before
//! the session takes a write timestamp; the general path then gives
//! Cassandra's answer or error, consuming the timestamp itself.
//! [`CompiledInsert::write`] cannot fail.

use std::sync::Arc;

use smallvec::SmallVec;

use crate::planner::{Plan, PlanContext};
use crate::schema::{ColumnKind, Table};
use crate::storage::{
    ClusteringKey, Expiry, KeyValues, Liveness, PositionRef, Store, TableData, TableHint,
};
use crate::syntax::ast::{Insert, InsertSource};
use crate::types::{DataType, Value};

use super::bind;
use super::each_or_none;
use super::mutation::{self, RowWrite};
use super::restrict;
use super::result::{Columns, Metrics, ResultKind, ResultSet};
use super::rows::Rows;
use super::write;

/// An INSERT of bind values into plain columns, with everything that
/// depends only on the statement and the schema resolved.
#[derive(Debug)]
pub(crate) struct CompiledInsert {
    /// The table's qualified name (`ks.table`), as the store keys its
    /// data: built once rather than on every execution.
    table: String,
    /// The bind value of each partition key column, in key order.
    partition_key: Vec<Part>,
    /// The bind value of each clustering column, in clustering order.
    clustering: Vec<Part>,
    /// The regular columns written, in the statement's order (the order
    /// the general path writes their cells in).
    cells: Vec<Part>,
    /// Which clustering columns are DESC.
    descending: u32,
    /// The table's `default_time_to_live`, as [`write::stamp`] reads it.
    ttl: i32,
    /// One past the highest slot written: the room a new row reserves.
    width: usize,
    /// Where the table's data was last found in the store.
    data_hint: TableHint,
}

/// A column written from one bind value.
#[derive(Debug)]
struct Part {
    /// The bind value's index.
    bind: usize,
    /// The column's name and type, for [`bind::conform`].
    name: String,
    data_type: DataType,
    /// The storage slot of a regular column (unused for key columns).
    slot: usize,
}

/// One execution's values, checked: all that is left is to write them.
/// Every value is borrowed from the bind values (a [`Value`] moved about
/// is stored piecewise and copied whole, a copy the processor cannot
/// forward from those stores), and kept inline for the usual few key parts
/// and columns, so that an execution allocates nothing of its own to hold
/// them.
pub(crate) struct BoundRow<'v> {
    key: SmallVec<[&'v Value; 2]>,
    /// The partition's token, and its key's bytes in the caller's buffer.
    position: PositionRef<'v>,
    clustering: KeyValues,
    /// Each regular column's slot and value (`Null` for a tombstone).
    cells: SmallVec<[(usize, &'v Value); 4]>,
}

/// Compiles `insert` if it is a plain INSERT of bind values this module
/// writes exactly as the general path; `offsets` are the byte offsets of
/// its markers (see [`bind::marker_offsets`]).
pub(crate) fn compile_insert(
    ctx: &PlanContext,
    store: &Store,
    insert: &Insert,
    offsets: &[usize],
) -> Option<CompiledInsert> {
    // USING and IF NOT EXISTS need evaluation or a read per execution;
    // JSON needs parsing.
    if insert.if_not_exists || !insert.using.is_empty() {
        return None;
    }
    let InsertSource::Values { columns, values } = &insert.source else {
        return None;
    };
    let table = ctx
        .catalog
        .resolve_table(ctx.keyspace.as_deref(), &insert.table)
        .ok()?;
    if !plain_table(ctx, table) || columns.len() != values.len() {
        return None;
    }
    let data = store.table_in(&table.keyspace, &table.name)?;
    let mut partition_key: Vec<Option<Part>> = table.partition_key.iter().map(|_| None).collect();
    let mut clustering: Vec<Option<Part>> = table.clustering.iter().map(|_| None).collect();
    let mut cells = Vec::with_capacity(columns.len());
    for (name, term) in columns.iter().zip(values) {
        let index = table.columns.get_index_of(&name.name)?;
        let column = &table.columns[index];
        let mut part = Part {
            bind: bind::marker_index(term, offsets)?,
            name: column.name.clone(),
            data_type: column.data_type.clone(),
            slot: 0,
        };
        let pinned = match column.kind {
            ColumnKind::PartitionKey(i) => partition_key.get_mut(i)?,
            ColumnKind::Clustering(i, _) => clustering.get_mut(i)?,
            // A non-frozen collection is written element by element, a
            // static column into the partition's static row.
            ColumnKind::Regular if !write::is_collection_cells(&column.data_type) => {
                part.slot = data.slot(&column.name)?;
                if cells.iter().any(|c: &Part| c.slot == part.slot) {
                    return None;
                }
                cells.push(part);
                continue;
            }
            _ => return None,
        };
        if pinned.replace(part).is_some() {
            return None;
        }
    }
    let ttl = i32::try_from(table.default_ttl()).unwrap_or(i32::MAX);
    let width = cells.iter().map(|c| c.slot + 1).max().unwrap_or(0);
    Some(CompiledInsert {
        table: format!("{}.{}", table.keyspace, table.name),
        // A key column missing is the general path's error to give.
        partition_key: partition_key.into_iter().collect::<Option<_>>()?,
        clustering: clustering.into_iter().collect::<Option<_>>()?,
        cells,
        descending: restrict::descending_mask(table),
        ttl,
        width,
        data_hint: TableHint::default(),
    })
}

/// Whether writes to `table` are only its own rows: no views to maintain,
/// no counters, no indexes.
fn plain_table(ctx: &PlanContext, table: &Table) -> bool {
    !table.is_view()
        && !table.is_counter_table()
        && table.indexes.is_empty()
        && !super::views::has_views(ctx, table)
}

impl CompiledInsert {
    /// Each column written from a bind value, as the bind value's index,
    /// the column's name and its type.
    pub(crate) fn bind_columns(&self) -> impl Iterator<Item = (usize, &str, &DataType)> {
        let parts = self.partition_key.iter();
        parts
            .chain(&self.clustering)
            .chain(&self.cells)
            .map(|p| (p.bind, p.name.as_str(), &p.data_type))
    }

    /// The bind value index of each partition key column, in key order.
    pub(crate) fn partition_key_binds(&self) -> impl Iterator<Item = usize> + '_ {
        self.partition_key.iter().map(|p| p.bind)
    }

    /// Whether bind `values` can be written as they are: every one
    /// present and already of its column's type (or null, for a regular
    /// column), no key part null or empty, no collection over
    /// `collection_size` elements (the session's `[limits]`). Nearly always
    /// so, and checked in line.
    #[inline(always)]
    pub(crate) fn fits(&self, values: &[Value], collection_size: usize) -> bool {
        let key_fits = |p: &Part| {
            values
                .get(p.bind)
                .is_some_and(|value| bind::fits_as_key(value, &p.data_type))
        };
        // A null cell is written as a tombstone.
        let cell_fits = |p: &Part| {
            values.get(p.bind).is_some_and(|value| {
                value.is_null()
                    || bind::value_fits(value, &p.data_type)
                        && write::collection_len(value).is_none_or(|n| n <= collection_size)
            })
        };
        self.partition_key.iter().all(key_fits)
            && self.clustering.iter().all(key_fits)
            && self.cells.iter().all(cell_fits)
    }

    /// Bind `values` converted to their columns' types (an `int` widened
    /// for a `bigint` column, say), or `None` when the general path must
    /// answer: a value that does not convert, a null or empty key part, a
    /// collection over the limit. The rare case beside [`Self::fits`].
    #[cold]
    #[inline(never)]
    pub(crate) fn conformed(&self, values: &[Value], collection_size: usize) -> Option<Vec<Value>> {
        let mut conformed = values.to_vec();
        let keys = self.partition_key.iter().chain(&self.clustering);
        for p in keys {
            let value = values.get(p.bind)?;
            let key = bind::ordinary_key_value(value, &p.data_type, &p.name)?;
            conformed[p.bind] = key.into_owned();
        }
        for p in &self.cells {
            let value = bind::conform(values.get(p.bind)?, &p.data_type, &p.name).ok()?;
            write::check_collection_size(&value, &p.name, collection_size).ok()?;
            conformed[p.bind] = value;
        }
        self.fits(&conformed, collection_size).then_some(conformed)
    }

    /// Borrows bind `values`, which [`Self::fits`] has accepted, for
    /// writing, serializing the partition key into `key_bytes`, a buffer
    /// the caller keeps; `None` if the key cannot be serialized.
    #[inline(always)]
    pub(crate) fn bind<'v>(
        &self,
        values: &'v [Value],
        key_bytes: &'v mut restrict::KeyBuffer,
    ) -> Option<BoundRow<'v>> {
        let key = each_or_none(&self.partition_key, |p| values.get(p.bind))?;
        let token = key_bytes.token_of_likely_repeated(&key).ok()?;
        let position = PositionRef {
            token,
            key: key_bytes.bytes(),
        };
        let clustering = each_or_none(&self.clustering, |p| values.get(p.bind).cloned())?;
        let cells = each_or_none(&self.cells, |p| Some((p.slot, values.get(p.bind)?)))?;
        Some(BoundRow {
            key,
            position,
            clustering,
            cells,
        })
    }

    /// Writes `row` at write time `timestamp` and returns the general
    /// path's result for it under `plan`.
    #[inline(always)]
    pub(crate) fn write(
        &self,
        store: &mut Store,
        row: BoundRow<'_>,
        timestamp: i64,
        now_micros: i64,
        plan: &Arc<Plan>,
    ) -> ResultSet {
        let now_secs = now_micros.div_euclid(1_000_000);
        let expiry = Expiry::after(self.ttl, now_secs);
        let BoundRow {
            key,
            position,
            clustering,
            cells,
        } = row;
        let write = RowWrite {
            key: ClusteringKey::exact(clustering, self.descending),
            liveness: Liveness { timestamp, expiry },
            cells: &cells,
            width: self.width,
        };
        let data: &mut TableData = store.table_mut_hinted(&self.table, &self.data_hint);
        let partition_key = || key.into_iter().cloned().collect();
        mutation::apply_row(data, position, partition_key, write, now_secs);
        // One literal, which the compiler builds in the caller's place,
        // where filling in a default result copies it whole on return.
        ResultSet {
            kind: ResultKind::Ok,
            class: Some(plan.class),
            columns: Columns::default(),
            rows: Rows::default(),
            warnings: Vec::new(),
            notes: Vec::new(),
            metrics: Metrics {
                partitions_touched: 1,
                rows_scanned: 0,
                rows_returned: 0,
            },
            plan: Some(plan.clone()),
            schema_change: None,
        }
    }
}
