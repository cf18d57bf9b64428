//! A table's data: partitions in ring order, and the map from column names
//! to the slots rows keep their cells in.

use rustc_hash::FxHashMap;

use super::key::PartitionPosition;
use super::partition::Partition;
use super::partitions::PartitionMap;
use crate::types::Value;

/// The rows of one table (or materialized view).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TableData {
    /// The partitions: by hash for point access, in token order for scans.
    pub partitions: PartitionMap,
    slots: FxHashMap<String, usize>,
    next_slot: usize,
}

impl TableData {
    /// The storage slot of column `name`, if it has one.
    pub fn slot(&self, name: &str) -> Option<usize> {
        self.slots.get(name).copied()
    }

    /// The slot of column `name`, allocated on first use. A column dropped
    /// and added again gets a new slot, so data written before the drop
    /// stays invisible, as in Cassandra.
    pub fn slot_or_allocate(&mut self, name: &str) -> usize {
        if let Some(slot) = self.slots.get(name) {
            return *slot;
        }
        let slot = self.next_slot;
        self.next_slot += 1;
        self.slots.insert(name.to_string(), slot);
        slot
    }

    /// The names of the columns that have slots.
    pub fn slot_names(&self) -> impl Iterator<Item = &str> + '_ {
        self.slots.keys().map(String::as_str)
    }

    /// Forgets column `name` (ALTER TABLE … DROP).
    pub fn drop_column(&mut self, name: &str) {
        self.slots.remove(name);
    }

    /// Gives column `old`'s slot to `new` (ALTER TABLE … RENAME).
    pub fn rename_column(&mut self, old: &str, new: &str) {
        if let Some(slot) = self.slots.remove(old) {
            self.slots.insert(new.to_string(), slot);
        }
    }

    /// The partition at `position`.
    pub fn partition(&self, position: &PartitionPosition) -> Option<&Partition> {
        self.partitions.get(position)
    }

    /// The partition at `position`, created empty for `key` if absent.
    pub fn partition_mut(&mut self, position: PartitionPosition, key: &[Value]) -> &mut Partition {
        self.partitions
            .get_or_insert_with(position, || Partition::new(key.into()))
    }

    /// Removes every row (TRUNCATE).
    pub fn clear(&mut self) {
        self.partitions.clear();
    }

    /// Rows stored, live or not: the size figure for hot-partition checks.
    pub fn row_count(&self) -> usize {
        self.partitions.values().map(|p| p.rows.len().max(1)).sum()
    }
}
