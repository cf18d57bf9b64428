//! The warnings a batch earns for its size and its spread, as Cassandra
//! weighs them (`BatchStatement.verifyBatchSize` and `verifyBatchType`).
//!
//! Cassandra weighs a batch after it has grouped the statements' changes
//! into mutations: one per keyspace and partition key (two tables of one
//! keyspace whose keys serialize alike share one), holding one update per
//! table whose rows merge as storage would merge them. A batch of one
//! mutation is never weighed. An update's size (`PartitionUpdate.dataSize`)
//! counts no partition key and a fixed cost for every part it holds, which
//! these constants name; each was measured on a 5.0.8 node.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::ops::Bound;

use crate::schema::Table;
use crate::storage::{Cell, ClusteringKey, PartitionPosition, Store};
use crate::types::{DataType, Value};

use super::mutation::{Mutation, Op, RowRef};

/// A row's liveness: its timestamp (a row without a marker has the empty
/// one, the same size).
const LIVENESS: usize = 8;
/// A marker written with a TTL adds the TTL and its expiry time.
const EXPIRING_LIVENESS: usize = LIVENESS + 4 + 8;
/// A row's deletion: a deletion time and whether it is shadowable.
const ROW_DELETION: usize = 8 + 4 + 1;
/// A cell's timestamp, TTL and local deletion time, before its value.
const CELL: usize = 8 + 4 + 8;
/// A non-frozen collection's or UDT's own deletion time.
const COMPLEX_DELETION: usize = 8 + 4;
/// The partition's deletion time (`DeletionInfo`).
const PARTITION_DELETION: usize = 8;
/// A range tombstone list's length, before its ranges.
const RANGE_LIST: usize = 4;
/// A range tombstone's deletion time, beside its two bounds.
const RANGE_DELETION: usize = 8 + 4;
/// A list element's path: a time UUID (widerow's own list keys are wider).
const LIST_PATH: usize = 16;
/// A counter update's value: a context of one local shard (a 2-byte
/// header count, a 2-byte header entry, then id, clock and count).
const COUNTER_UPDATE: usize = 2 + 2 + 16 + 8 + 8;

/// What Cassandra's weighing of a batch finds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Weight {
    /// The data size of every update, when the batch spans more than one
    /// mutation (`None` otherwise: Cassandra does not weigh it).
    pub(crate) bytes: Option<usize>,
    /// The partition keys written, across tables: what the warning about
    /// an unlogged batch counts.
    pub(crate) keys: usize,
}

/// Weighs the batch's mutations (`store` knows their columns' slots).
pub(crate) fn weigh(mutations: &[Mutation<'_>], store: &Store) -> Weight {
    let mut keyspaces: HashSet<(&str, &PartitionPosition)> = HashSet::new();
    let mut keys: HashSet<&PartitionPosition> = HashSet::new();
    for m in mutations {
        keyspaces.insert((m.table.keyspace.as_str(), &m.position));
        keys.insert(&m.position);
    }
    Weight {
        bytes: (keyspaces.len() > 1).then(|| data_size(mutations, store)),
        keys: keys.len(),
    }
}

/// `IMutation.dataSize`: the size of each table's update of each
/// partition, the statements' changes to it merged.
fn data_size(mutations: &[Mutation<'_>], store: &Store) -> usize {
    let mut updates: HashMap<(*const Table, &PartitionPosition), (&Table, Vec<&Op>)> =
        HashMap::new();
    for m in mutations {
        updates
            .entry((std::ptr::from_ref(m.table), &m.position))
            .or_insert_with(|| (m.table, Vec::new()))
            .1
            .extend(&m.ops);
    }
    updates
        .values()
        .map(|(table, ops)| update_size(ops, &list_slots(table, store)))
        .sum()
}

/// The slots of `table`'s non-frozen lists, whose element paths Cassandra
/// sizes as time UUIDs.
fn list_slots(table: &Table, store: &Store) -> Vec<usize> {
    let Some(data) = store.table_in(&table.keyspace, &table.name) else {
        return Vec::new();
    };
    table
        .columns
        .values()
        .filter(|c| matches!(c.data_type, DataType::List { frozen: false, .. }))
        .filter_map(|c| data.slot(&c.name))
        .collect()
}

/// One row of an update as it merges.
#[derive(Default)]
struct RowParts<'a> {
    liveness: usize,
    simple: BTreeMap<usize, &'a Cell>,
    complex: BTreeMap<usize, BTreeMap<&'a Value, &'a Cell>>,
    counters: HashSet<usize>,
}

impl RowParts<'_> {
    fn size(&self, clustering: usize, lists: &[usize]) -> usize {
        let simple: usize = self.simple.values().map(|c| CELL + cell_value(c)).sum();
        let complex: usize = self
            .complex
            .iter()
            .map(|(slot, elements)| {
                let path = |key: &Value| {
                    if lists.contains(slot) {
                        LIST_PATH
                    } else {
                        bytes(key)
                    }
                };
                let cells: usize = elements
                    .iter()
                    .map(|(key, c)| CELL + cell_value(c) + path(key))
                    .sum();
                COMPLEX_DELETION + cells
            })
            .sum();
        let counters = self.counters.len() * (CELL + COUNTER_UPDATE);
        clustering + self.liveness.max(LIVENESS) + ROW_DELETION + simple + complex + counters
    }
}

/// `PartitionUpdate.dataSize`: its rows, its static row (counted even when
/// empty), its deletion and its range tombstones.
fn update_size(ops: &[&Op], lists: &[usize]) -> usize {
    let mut statics = RowParts::default();
    let mut rows: BTreeMap<&ClusteringKey, RowParts<'_>> = BTreeMap::new();
    let mut ranges = Vec::new();
    for op in ops {
        let parts = match op {
            Op::DeletePartition { .. } => continue,
            Op::DeleteRange { start, end, .. } => {
                ranges.push(bound(start) + bound(end) + RANGE_DELETION);
                continue;
            }
            Op::DeleteRow { key, .. } => rows.entry(key).or_default(),
            Op::Liveness { key, liveness } => {
                let parts = rows.entry(key).or_default();
                parts.liveness = if liveness.expiry.is_some() {
                    EXPIRING_LIVENESS
                } else {
                    LIVENESS
                };
                continue;
            }
            Op::Cell { row, .. }
            | Op::Element { row, .. }
            | Op::DeleteCollection { row, .. }
            | Op::CounterAdd { row, .. } => match row {
                RowRef::Static => &mut statics,
                RowRef::Row(key) => rows.entry(key).or_default(),
            },
        };
        match op {
            Op::Cell { slot, cell, .. } => {
                let kept = parts.simple.entry(*slot).or_insert(cell);
                *kept = reconcile(kept, cell);
            }
            Op::Element {
                slot, key, cell, ..
            } => {
                let elements = parts.complex.entry(*slot).or_default();
                let kept = elements.entry(key).or_insert(cell);
                *kept = reconcile(kept, cell);
            }
            Op::DeleteCollection { slot, .. } => {
                parts.complex.entry(*slot).or_default();
            }
            Op::CounterAdd { slot, .. } => {
                parts.counters.insert(*slot);
            }
            _ => {}
        }
    }
    let range_list = if ranges.is_empty() {
        0
    } else {
        RANGE_LIST + ranges.iter().sum::<usize>()
    };
    let rows: usize = rows
        .iter()
        .map(|(key, parts)| parts.size(clustering(key), lists))
        .sum();
    rows + statics.size(0, lists) + PARTITION_DELETION + range_list
}

/// The cell storage keeps of two written to one place (`Cells.reconcile`):
/// the later, then a deletion over a value, then the greater value.
fn reconcile<'a>(kept: &'a Cell, new: &'a Cell) -> &'a Cell {
    if kept.timestamp != new.timestamp {
        return if new.timestamp > kept.timestamp {
            new
        } else {
            kept
        };
    }
    match (&kept.value, &new.value) {
        (None, _) => kept,
        (_, None) => new,
        (Some(a), Some(b)) => {
            if serialized(b) > serialized(a) {
                new
            } else {
                kept
            }
        }
    }
}

fn cell_value(cell: &Cell) -> usize {
    cell.value.as_ref().map_or(0, bytes)
}

fn clustering(key: &ClusteringKey) -> usize {
    key.values().iter().map(bytes).sum()
}

fn bound(bound: &Bound<ClusteringKey>) -> usize {
    match bound {
        Bound::Included(key) | Bound::Excluded(key) => clustering(key),
        Bound::Unbounded => 0,
    }
}

fn serialized(value: &Value) -> Vec<u8> {
    value.serialize().unwrap_or_default()
}

fn bytes(value: &Value) -> usize {
    serialized(value).len()
}
