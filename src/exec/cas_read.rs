//! What a failed lightweight transaction returns beside `[applied] = false`:
//! the rows of the Paxos read, as Cassandra builds them.
//!
//! `CQL3CasRequest.readCommand` reads the clustering rows the conditions
//! name (or, with conditions on the static row only, the partition's first
//! live row), fetching every static column when a statement writes one and
//! only the conditioned statics otherwise (`columnsToRead`), and likewise
//! for regular columns. `ModificationStatement.buildCasFailureResultSet`
//! then projects that partition as a SELECT would: a partition with no
//! clustering row but live static cells gives one row of its statics and
//! nulls; a partition with nothing read gives no row, so `[applied]` stands
//! alone.

use std::collections::BTreeSet;

use crate::schema::{Column, ColumnKind, Table};
use crate::storage::{ClusteringKey, Partition, PartitionPosition, Store, StoredKey, StoredRow};
use crate::types::Value;

use super::view::RowView;

/// What one request's Paxos read fetches.
pub(super) struct CasRead<'t> {
    pub(super) table: &'t Table,
    pub(super) position: &'t PartitionPosition,
    /// The clustering rows named by conditions, IF EXISTS or IF NOT EXISTS.
    pub(super) rows: BTreeSet<ClusteringKey>,
    /// Whether a statement writes a static column.
    pub(super) updates_static: bool,
    /// Whether a statement writes a clustering row.
    pub(super) updates_regular: bool,
    /// The columns the conditions name.
    pub(super) condition_columns: Vec<&'t Column>,
}

/// The result rows (without `[applied]`) of `selection` over the read.
pub(super) fn failure_rows(
    read: &CasRead<'_>,
    selection: &[&Column],
    store: &Store,
    now_secs: i64,
) -> Vec<Vec<Value>> {
    let partition = store
        .table(&read.table.qualified_name())
        .and_then(|data| Some((data, data.partition(read.position)?)));
    let Some((data, partition)) = partition else {
        return Vec::new();
    };
    let view = |key, row| RowView {
        table: read.table,
        data,
        partition,
        clustering: key,
        row,
        now_secs,
        slots: &[],
    };
    let rows = read_rows(read, partition, |k, r| {
        read.visible(&view(Some(k), Some(r)))
    });
    if rows.is_empty() {
        let statics = view(None, None);
        let present = read
            .table
            .columns
            .values()
            .any(|c| c.is_static() && read.fetches(c) && !statics.value(c).is_null());
        return if present {
            vec![project(read, selection, &statics)]
        } else {
            Vec::new()
        };
    }
    rows.into_iter()
        .map(|(k, r)| project(read, selection, &view(Some(k), Some(r))))
        .collect()
}

/// The clustering rows the read returns, in clustering order.
fn read_rows<'p>(
    read: &CasRead<'_>,
    partition: &'p Partition,
    visible: impl Fn(&'p StoredKey, &'p StoredRow) -> bool,
) -> Vec<(&'p StoredKey, &'p StoredRow)> {
    if read.rows.is_empty() {
        return partition
            .rows
            .iter()
            .find(|(k, r)| visible(k, r))
            .into_iter()
            .collect();
    }
    read.rows
        .iter()
        .filter_map(|key| partition.rows.get_key_value(key))
        .filter(|(k, r)| visible(k, r))
        .collect()
}

fn project(read: &CasRead<'_>, selection: &[&Column], view: &RowView<'_>) -> Vec<Value> {
    selection
        .iter()
        .map(|c| {
            if read.fetches(c) {
                view.value(c).into_owned()
            } else {
                Value::Null
            }
        })
        .collect()
}

impl CasRead<'_> {
    /// Whether the read's column filter includes `column`.
    fn fetches(&self, column: &Column) -> bool {
        let named = || self.condition_columns.iter().any(|c| c.name == column.name);
        match column.kind {
            ColumnKind::Static => self.updates_static || named(),
            ColumnKind::Regular => self.updates_regular || named(),
            _ => true,
        }
    }

    /// Whether a stored row comes back from the read: live, and alive
    /// through its INSERT marker or a fetched cell.
    fn visible(&self, view: &RowView<'_>) -> bool {
        let Some(row) = view.row else { return false };
        if !row.is_live(view.now_secs) {
            return false;
        }
        self.updates_regular
            || row.liveness().is_some_and(|l| l.is_live(view.now_secs))
            || self.table.columns.values().any(|c| {
                c.kind == ColumnKind::Regular && self.fetches(c) && !view.value(c).is_null()
            })
    }
}
