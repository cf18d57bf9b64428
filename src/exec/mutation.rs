//! Mutations: what a write statement does to storage, decided in full
//! before anything is applied — so a statement (or a batch) that fails
//! while being decided changes nothing, and applying cannot fail.

use std::ops::Bound as StdBound;

use crate::storage::{Cell, ClusteringKey, Liveness, PartitionPosition, RangeDeletion, Store};
use crate::types::Value;

/// Which row of a partition an operation addresses.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum RowRef {
    /// The static row.
    Static,
    /// The clustering row with this key.
    Row(ClusteringKey),
}

/// One change to one partition.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Op {
    /// Delete the partition.
    DeletePartition { timestamp: i64 },
    /// Delete a slice of rows.
    DeleteRange {
        start: StdBound<ClusteringKey>,
        end: StdBound<ClusteringKey>,
        timestamp: i64,
    },
    /// Delete a row.
    DeleteRow { key: ClusteringKey, timestamp: i64 },
    /// INSERT's row marker.
    Liveness {
        key: ClusteringKey,
        liveness: Liveness,
    },
    /// Write (or delete) a simple cell.
    Cell {
        row: RowRef,
        slot: usize,
        cell: Cell,
    },
    /// Write (or delete) one collection element.
    Element {
        row: RowRef,
        slot: usize,
        key: Value,
        cell: Cell,
    },
    /// Delete a whole non-frozen collection.
    DeleteCollection {
        row: RowRef,
        slot: usize,
        timestamp: i64,
    },
    /// Add to a counter.
    CounterAdd {
        row: RowRef,
        slot: usize,
        delta: i64,
        timestamp: i64,
    },
}

/// The changes to one partition of one table.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Mutation {
    /// The table, `ks.name`.
    pub(crate) table: String,
    /// The partition key values.
    pub(crate) key: Vec<Value>,
    /// Its place on the ring.
    pub(crate) position: PartitionPosition,
    /// The changes, applied in order.
    pub(crate) ops: Vec<Op>,
}

impl Mutation {
    /// The bytes of data the mutation writes (keys and values), the size
    /// Cassandra weighs batches by.
    pub(crate) fn data_size(&self) -> usize {
        let bytes = |v: &Value| v.serialize().map_or(0, |b| b.len());
        let cell = |c: &Cell| c.value.as_ref().map_or(0, bytes);
        let key = |k: &ClusteringKey| k.values().iter().map(bytes).sum::<usize>();
        let ops: usize = self
            .ops
            .iter()
            .map(|op| match op {
                Op::Cell { cell: c, .. } => 8 + cell(c),
                Op::Element {
                    key: k, cell: c, ..
                } => 8 + bytes(k) + cell(c),
                Op::Liveness { key: k, .. } | Op::DeleteRow { key: k, .. } => key(k),
                Op::CounterAdd { .. } => 8,
                _ => 0,
            })
            .sum();
        self.position.key.len() + ops
    }
}

/// Applies mutations in order. Column slots must have been allocated when
/// the mutations were built.
pub(crate) fn apply(store: &mut Store, mutations: &[Mutation], now_secs: i64) {
    for m in mutations {
        let data = store.table_mut(&m.table);
        let partition = data.partition_mut(m.position.clone(), &m.key);
        for op in &m.ops {
            apply_op(partition, op, now_secs);
        }
        if !partition_has_content(partition) {
            data.partitions.remove(&m.position);
        }
    }
}

fn partition_has_content(p: &crate::storage::Partition) -> bool {
    p.deleted_at.is_some()
        || !p.rows.is_empty()
        || !p.range_deletions.is_empty()
        || p.static_row.cells.iter().any(Option::is_some)
}

fn apply_op(partition: &mut crate::storage::Partition, op: &Op, now_secs: i64) {
    match op {
        Op::DeletePartition { timestamp } => partition.delete_at(*timestamp),
        Op::DeleteRange {
            start,
            end,
            timestamp,
        } => partition.delete_range(RangeDeletion {
            start: start.clone(),
            end: end.clone(),
            timestamp: *timestamp,
        }),
        Op::DeleteRow { key, timestamp } => {
            let floor = partition.floor(Some(key));
            if floor.is_some_and(|f| *timestamp <= f) {
                return;
            }
            partition.row_mut(key.clone()).delete_at(*timestamp);
        }
        Op::Liveness { key, liveness } => {
            let floor = partition.floor(Some(key));
            partition
                .row_mut(key.clone())
                .write_liveness(*liveness, floor);
        }
        Op::Cell { row, slot, cell } => {
            let (target, floor) = row_and_floor(partition, row);
            target.write_cell(*slot, cell.clone(), floor, now_secs);
        }
        Op::Element {
            row,
            slot,
            key,
            cell,
        } => {
            let (target, floor) = row_and_floor(partition, row);
            let shadowed = target
                .deleted_at
                .max(floor)
                .is_some_and(|d| cell.timestamp <= d);
            if let Some(collection) = target.collection_mut(*slot).filter(|_| !shadowed) {
                collection.write(key.clone(), cell.clone(), now_secs);
            }
        }
        Op::DeleteCollection {
            row,
            slot,
            timestamp,
        } => {
            let (target, _) = row_and_floor(partition, row);
            if let Some(collection) = target.collection_mut(*slot) {
                collection.delete_at(*timestamp);
            }
        }
        Op::CounterAdd {
            row,
            slot,
            delta,
            timestamp,
        } => {
            let (target, floor) = row_and_floor(partition, row);
            let current = match target.slot(*slot) {
                Some(crate::storage::Slot::Cell(c)) => match c.live_value(now_secs) {
                    Some(Value::Counter(v)) => *v,
                    _ => 0,
                },
                _ => 0,
            };
            let stamp = match target.slot(*slot) {
                Some(crate::storage::Slot::Cell(c)) => c.timestamp.max(*timestamp),
                _ => *timestamp,
            };
            let cell = Cell::live(Value::Counter(current.wrapping_add(*delta)), stamp, None);
            if let Some(crate::storage::Slot::Cell(_)) = target.slot(*slot) {
                target.cells[*slot] = None;
            }
            target.write_cell(*slot, cell, floor, now_secs);
        }
    }
}

fn row_and_floor<'p>(
    partition: &'p mut crate::storage::Partition,
    row: &RowRef,
) -> (&'p mut crate::storage::Row, Option<i64>) {
    match row {
        RowRef::Static => {
            let floor = partition.floor(None);
            (&mut partition.static_row, floor)
        }
        RowRef::Row(key) => {
            let floor = partition.floor(Some(key));
            (partition.row_mut(key.clone()), floor)
        }
    }
}
