//! Mutations: what a write statement does to storage, decided in full
//! before anything is applied — so a statement (or a batch) that fails
//! while being decided changes nothing, and applying cannot fail.

use std::ops::Bound as StdBound;

use crate::schema::Table;
use crate::storage::{
    Cell, ClusteringKey, Liveness, Partition, PartitionPosition, PositionRef, RangeDeletion, Row,
    RowEdit, RowEntry, Slot, Store, StoredRow, TableData,
};
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
pub(crate) struct Mutation<'t> {
    /// The table, borrowed from the schema: naming it `ks.name` on the
    /// heap for every write would cost more than the write.
    pub(crate) table: &'t Table,
    /// The partition key values.
    pub(crate) key: Vec<Value>,
    /// Its place on the ring.
    pub(crate) position: PartitionPosition,
    /// The changes, applied in order.
    pub(crate) ops: Vec<Op>,
}

/// Applies mutations in order, moving their values into storage. Column
/// slots must have been allocated when the mutations were built.
pub(crate) fn apply(store: &mut Store, mutations: Vec<Mutation<'_>>, now_secs: i64) {
    for m in mutations {
        let data = store.table_mut_in(&m.table.keyspace, &m.table.name);
        let (key, ops) = (m.key, m.ops);
        in_partition(
            data,
            m.position,
            || key.into_boxed_slice(),
            |partition| apply_ops(partition, ops, now_secs),
        );
    }
}

/// One row's liveness then cells, in slots already allocated: the
/// mutation of a plain INSERT, without its operations built one by one.
pub(crate) struct RowWrite<'v> {
    /// The row's clustering key.
    pub(crate) key: ClusteringKey,
    /// Its row marker, whose time and expiry every cell shares.
    pub(crate) liveness: Liveness,
    /// Each cell's slot (no two alike) and value (`Null` deletes the
    /// cell), in the order they are written.
    pub(crate) cells: &'v [(usize, &'v Value)],
    /// One past the highest slot written: what a new row reserves.
    pub(crate) width: usize,
}

/// Applies `row` to the partition at `position` (made for partition key
/// `key` if absent) exactly as [`apply`] applies the equivalent
/// [`Op::Liveness`] and [`Op::Cell`]s.
pub(crate) fn apply_row(
    data: &mut TableData,
    position: PositionRef<'_>,
    key: impl FnOnce() -> Box<[Value]>,
    row: RowWrite<'_>,
    now_secs: i64,
) {
    in_partition(data, position, key, |partition| {
        let floor = partition.floor(Some(&row.key));
        let RowWrite {
            key,
            liveness,
            cells,
            width,
        } = row;
        let shadowed = floor.is_some_and(|f| liveness.timestamp <= f);
        let mut target = match partition.rows.entry(key) {
            RowEntry::Occupied(stored) => stored.edit(),
            RowEntry::Vacant(vacant) => {
                if !shadowed {
                    // The common INSERT: a new row, built packed at once.
                    if let Some(packed) =
                        StoredRow::inserted(liveness.timestamp, liveness.expiry, cells)
                    {
                        vacant.insert(packed);
                        return;
                    }
                }
                vacant.insert(StoredRow::default()).edit()
            }
        };
        write_row(&mut target, floor, liveness, cells, width, now_secs);
    });
}

/// Writes a marker and cells sharing its time and expiry into `target`,
/// under the deletions of its partition and range (`floor`).
fn write_row(
    target: &mut Row,
    floor: Option<i64>,
    liveness: Liveness,
    cells: &[(usize, &Value)],
    width: usize,
    now_secs: i64,
) {
    if target.cells.len() < width {
        // Every slot written at once, not one by one as cells arrive.
        target.cells.resize(width, None);
    }
    target.write_liveness(liveness, floor, now_secs);
    for &(slot, value) in cells {
        let cell = match value {
            Value::Null => Cell::tombstone(liveness.timestamp),
            value => Cell::live(value.clone(), liveness.timestamp, liveness.expiry),
        };
        target.write_cell(slot, cell, floor);
    }
}

/// Runs `write` on the partition at `position` — a new one for `key` if
/// there is none — and keeps the partition only if it has content left.
fn in_partition(
    data: &mut TableData,
    position: impl WritePosition,
    key: impl FnOnce() -> Box<[Value]>,
    write: impl FnOnce(&mut Partition),
) {
    match data.partitions.get_mut_at(position.at()) {
        Some(partition) => {
            write(partition);
            if !partition_has_content(partition) {
                data.partitions.remove(&position.into_owned());
            }
        }
        None => {
            let mut partition = Partition::new(key());
            write(&mut partition);
            if partition_has_content(&partition) {
                data.partitions.insert(position.into_owned(), partition);
            }
        }
    }
}

/// A partition's position as a write names it: owned, or borrowed from a
/// key composed for the one write (its bytes copied only for a partition
/// the write creates, or removes).
trait WritePosition {
    fn at(&self) -> PositionRef<'_>;
    fn into_owned(self) -> PartitionPosition;
}

impl WritePosition for PartitionPosition {
    fn at(&self) -> PositionRef<'_> {
        self.borrowed()
    }

    fn into_owned(self) -> PartitionPosition {
        self
    }
}

impl WritePosition for PositionRef<'_> {
    fn at(&self) -> PositionRef<'_> {
        *self
    }

    fn into_owned(self) -> PartitionPosition {
        self.to_owned()
    }
}

/// Applies one mutation's operations to its partition, in order.
fn apply_ops(partition: &mut Partition, ops: Vec<Op>, now_secs: i64) {
    let mut ops = ops.into_iter();
    while let Some(op) = ops.next() {
        let Some(key) = row_op_key(&op) else {
            apply_op(partition, op, now_secs);
            continue;
        };
        // Consecutive writes to one clustering row (an INSERT's marker and
        // cells) find the row once. None of them moves the row's floor, so
        // it is computed once too.
        let run = ops
            .as_slice()
            .iter()
            .take_while(|o| row_op_key(o).is_some_and(|k| k == key))
            .count();
        let floor = partition.floor(Some(key));
        let mut row = partition.row_mut(key.clone());
        if row.cells.is_empty() {
            // A new row: its cells take exactly the slots written, not the
            // spare room of a growing buffer (a no-op while they fit inline).
            let width = std::iter::once(&op)
                .chain(&ops.as_slice()[..run])
                .filter_map(op_slot)
                .max();
            row.cells.reserve_exact(width.map_or(0, |w| w + 1));
        }
        apply_row_op(&mut row, floor, op, now_secs);
        for op in ops.by_ref().take(run) {
            apply_row_op(&mut row, floor, op, now_secs);
        }
    }
}

/// The clustering row an operation writes without deleting anything, if
/// it writes one.
pub(super) fn row_op_key(op: &Op) -> Option<&ClusteringKey> {
    match op {
        Op::Liveness { key, .. } => Some(key),
        Op::Cell {
            row: RowRef::Row(key),
            ..
        }
        | Op::Element {
            row: RowRef::Row(key),
            ..
        }
        | Op::DeleteCollection {
            row: RowRef::Row(key),
            ..
        }
        | Op::CounterAdd {
            row: RowRef::Row(key),
            ..
        } => Some(key),
        _ => None,
    }
}

/// The slot an operation writes, if it writes one.
fn op_slot(op: &Op) -> Option<usize> {
    match op {
        Op::Cell { slot, .. }
        | Op::Element { slot, .. }
        | Op::DeleteCollection { slot, .. }
        | Op::CounterAdd { slot, .. } => Some(*slot),
        _ => None,
    }
}

fn partition_has_content(p: &Partition) -> bool {
    p.deleted_at.is_some()
        || !p.rows.is_empty()
        || !p.range_deletions.is_empty()
        || p.static_row.has_cells()
}

fn apply_op(partition: &mut Partition, op: Op, now_secs: i64) {
    match op {
        Op::DeletePartition { timestamp } => partition.delete_at(timestamp),
        Op::DeleteRange {
            start,
            end,
            timestamp,
        } => partition.delete_range(RangeDeletion {
            start,
            end,
            timestamp,
        }),
        Op::DeleteRow { key, timestamp } => {
            let floor = partition.floor(Some(&key));
            if floor.is_some_and(|f| timestamp <= f) {
                return;
            }
            partition.row_mut(key).delete_at(timestamp);
        }
        Op::Liveness { ref key, .. } => {
            let floor = partition.floor(Some(key));
            let mut target = partition.row_mut(key.clone());
            apply_row_op(&mut target, floor, op, now_secs);
        }
        Op::Cell { ref row, .. }
        | Op::Element { ref row, .. }
        | Op::DeleteCollection { ref row, .. }
        | Op::CounterAdd { ref row, .. } => {
            let (mut target, floor) = row_and_floor(partition, row);
            apply_row_op(&mut target, floor, op, now_secs);
        }
    }
}

/// Applies an operation that writes into one row (`target`), under the
/// deletions of its partition and range (`floor`).
fn apply_row_op(target: &mut Row, floor: Option<i64>, op: Op, now_secs: i64) {
    match op {
        Op::Liveness { liveness, .. } => target.write_liveness(liveness, floor, now_secs),
        Op::Cell { slot, cell, .. } => {
            target.write_cell(slot, cell, floor);
        }
        Op::Element {
            slot, key, cell, ..
        } => {
            let shadowed = target
                .deleted_at
                .max(floor)
                .is_some_and(|d| cell.timestamp <= d);
            if let Some(collection) = target.collection_mut(slot).filter(|_| !shadowed) {
                collection.write(key, cell);
            }
        }
        Op::DeleteCollection {
            slot, timestamp, ..
        } => {
            if let Some(collection) = target.collection_mut(slot) {
                collection.delete_at(timestamp);
            }
        }
        Op::CounterAdd {
            slot,
            delta,
            timestamp,
            ..
        } => {
            let current = match target.slot(slot) {
                Some(Slot::Cell(c)) => match c.live_value(now_secs) {
                    Some(Value::Counter(v)) => *v,
                    _ => 0,
                },
                _ => 0,
            };
            let stamp = match target.slot(slot) {
                Some(Slot::Cell(c)) => c.timestamp.max(timestamp),
                _ => timestamp,
            };
            let cell = Cell::live(Value::Counter(current.wrapping_add(delta)), stamp, None);
            if let Some(Slot::Cell(_)) = target.slot(slot) {
                target.cells[slot] = None;
            }
            target.write_cell(slot, cell, floor);
        }
        Op::DeletePartition { .. } | Op::DeleteRange { .. } | Op::DeleteRow { .. } => {}
    }
}

fn row_and_floor<'p>(partition: &'p mut Partition, row: &RowRef) -> (RowEdit<'p>, Option<i64>) {
    match row {
        RowRef::Static => {
            let floor = partition.floor(None);
            (partition.static_row.edit(), floor)
        }
        RowRef::Row(key) => {
            let floor = partition.floor(Some(key));
            (partition.row_mut(key.clone()), floor)
        }
    }
}
