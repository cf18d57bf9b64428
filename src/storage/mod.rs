//! Tables in memory, organised as Cassandra organises them: partitions
//! ordered by token, rows ordered by clustering key, cells carrying their
//! write time and expiry, and deletions kept as long as they shadow older
//! writes.
//!
//! Storage knows nothing of CQL: the executor decides what to write and
//! read. A [`Store`] clones cheaply — tables are shared until one copy
//! writes to them — so a test suite can load a schema once and give every
//! test its own copy.

mod cell;
mod compact;
mod key;
mod partition;
mod partitions;
mod row;
mod rows;
mod stored;
mod table;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use rustc_hash::FxBuildHasher;

pub use cell::{Cell, Collection, Element, Expiry, Liveness, Slot};
pub use compact::Compact;
pub use key::{Bound, ClusteringKey, KeyValues, PartitionPosition, PositionRef, StoredKey};
pub use partition::{bounds_ordered, prefetch_ahead, Partition, RangeDeletion};
pub use partitions::PartitionMap;
pub use row::{Row, Slots, INLINE_SLOTS};
pub use rows::{RowEntry, RowMap, VacantRow};
pub use stored::{CellRef, IsCollection, RowEdit, SlotRef, StoredRow};
pub use table::TableData;

/// How many rows ahead of the one it reads a scan asks for: far enough that
/// a row has arrived from memory by the time it is read, near enough that
/// it is still in cache.
pub const PREFETCH_ROWS: usize = 8;

/// Asks the processor to start loading the cache line holding `value`.
///
/// A scan of a table larger than the caches waits on memory for most of
/// its time, one row at a time: the hardware's own prefetching stops at
/// every page boundary and every chunk. Asking a few rows ahead
/// ([`PREFETCH_ROWS`]) overlaps those waits. A hint only: it reads
/// nothing, cannot fault, and does nothing on other architectures.
#[inline(always)]
pub fn prefetch<T>(value: &T) {
    prefetch_address((value as *const T).cast());
}

/// Asks the processor to start loading every cache line of `value`: a
/// value larger than a line (a partition, its first chunk of rows held in
/// it) is read at several places.
#[inline(always)]
pub fn prefetch_all<T>(value: &T) {
    let start: *const u8 = (value as *const T).cast();
    for offset in (0..std::mem::size_of::<T>()).step_by(64) {
        prefetch_address(start.wrapping_add(offset));
    }
}

#[inline(always)]
fn prefetch_address(address: *const u8) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch loads no value into the program and cannot fault,
    // whatever the address. SSE, which the instruction needs, is part of
    // every x86-64 processor.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(address.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = address;
}

/// Calls `f` with `keyspace.name`, built on the stack for the usual short
/// names: every statement looks its table up by it.
fn with_qualified_name<R>(keyspace: &str, name: &str, f: impl FnOnce(&str) -> R) -> R {
    const ROOM: usize = 96;
    let len = keyspace.len() + 1 + name.len();
    if len > ROOM {
        return f(&format!("{keyspace}.{name}"));
    }
    let mut buffer = [0u8; ROOM];
    buffer[..keyspace.len()].copy_from_slice(keyspace.as_bytes());
    buffer[keyspace.len()] = b'.';
    buffer[keyspace.len() + 1..len].copy_from_slice(name.as_bytes());
    // Two strings joined by an ASCII dot are UTF-8.
    f(std::str::from_utf8(&buffer[..len]).unwrap_or_default())
}

/// Every table's data, by qualified name (`ks.table`).
#[derive(Debug, Clone, Default)]
pub struct Store {
    /// In the order the tables were first written, so that a statement run
    /// again can find its table at the place it found it before
    /// ([`TableHint`]) instead of hashing and comparing its name.
    tables: indexmap::IndexMap<String, Arc<TableData>, FxBuildHasher>,
}

/// Where a statement last found its table's data in a [`Store`]: tried
/// first, and checked by name, so a stale hint (a table dropped, another
/// store) costs one comparison. Shared by the clones of a compiled
/// statement, hence atomic; reads and writes of it are plain moves.
#[derive(Debug, Default)]
pub struct TableHint(AtomicUsize);

impl Clone for TableHint {
    fn clone(&self) -> TableHint {
        TableHint(AtomicUsize::new(self.0.load(Ordering::Relaxed)))
    }
}

impl Store {
    /// An empty store.
    pub fn new() -> Store {
        Store::default()
    }

    /// The data of table `name`, if it has any.
    pub fn table(&self, name: &str) -> Option<&TableData> {
        self.tables.get(name).map(Arc::as_ref)
    }

    /// [`Store::table`], tried first where `hint` says it was.
    #[inline]
    pub fn table_hinted(&self, name: &str, hint: &TableHint) -> Option<&TableData> {
        let at = self.index_hinted(name, hint)?;
        Some(&self.tables[at])
    }

    /// Where table `name`'s data is, tried first where `hint` says and
    /// looked up by name otherwise, the hint then moved there.
    #[inline]
    fn index_hinted(&self, name: &str, hint: &TableHint) -> Option<usize> {
        let hinted = hint.0.load(Ordering::Relaxed);
        if matches!(self.tables.get_index(hinted), Some((found, _)) if found == name) {
            return Some(hinted);
        }
        let at = self.tables.get_index_of(name)?;
        hint.0.store(at, Ordering::Relaxed);
        Some(at)
    }

    /// The data of table `name` of `keyspace`: [`Store::table`] without
    /// building the qualified name on the heap, for every statement's path.
    pub fn table_in(&self, keyspace: &str, name: &str) -> Option<&TableData> {
        with_qualified_name(keyspace, name, |qualified| self.table(qualified))
    }

    /// The data of table `name` for writing: created if absent, copied
    /// first if another clone of the store shares it. The name is copied
    /// to the heap only when the table has no data yet: every write
    /// statement's path.
    pub fn table_mut(&mut self, name: &str) -> &mut TableData {
        let at = self.table_index(name);
        Arc::make_mut(&mut self.tables[at])
    }

    /// [`Store::table_mut`], tried first where `hint` says it was.
    pub fn table_mut_hinted(&mut self, name: &str, hint: &TableHint) -> &mut TableData {
        let at = match self.index_hinted(name, hint) {
            Some(at) => at,
            None => {
                let at = self.table_index(name);
                hint.0.store(at, Ordering::Relaxed);
                at
            }
        };
        Arc::make_mut(&mut self.tables[at])
    }

    /// Where table `name`'s data is, created empty if absent.
    fn table_index(&mut self, name: &str) -> usize {
        match self.tables.get_index_of(name) {
            Some(at) => at,
            None => self.tables.insert_full(name.to_string(), Arc::default()).0,
        }
    }

    /// [`Store::table_mut`] by keyspace and name.
    pub fn table_mut_in(&mut self, keyspace: &str, name: &str) -> &mut TableData {
        with_qualified_name(keyspace, name, |qualified| self.table_mut(qualified))
    }

    /// The names of the tables holding data.
    pub fn table_names(&self) -> impl Iterator<Item = &str> + '_ {
        self.tables.keys().map(String::as_str)
    }

    /// Forgets table `name` (DROP TABLE, DROP MATERIALIZED VIEW).
    pub fn drop_table(&mut self, name: &str) {
        self.tables.shift_remove(name);
    }

    /// Forgets every table of keyspace `keyspace` (DROP KEYSPACE).
    pub fn drop_keyspace(&mut self, keyspace: &str) {
        let prefix = format!("{keyspace}.");
        self.tables.retain(|name, _| !name.starts_with(&prefix));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each table's data marked by the slot its name allocates.
    fn store_of(names: &[&str]) -> Store {
        let mut store = Store::new();
        for name in names {
            store.table_mut(name).slot_or_allocate(name);
        }
        store
    }

    #[test]
    fn a_stale_hint_still_finds_its_table() {
        let mut store = store_of(&["ks.a", "ks.b", "ks.c"]);
        let hint = TableHint::default();
        let found = |store: &Store, hint: &TableHint, name: &str| {
            store.table_hinted(name, hint).and_then(|d| d.slot(name))
        };
        assert_eq!(found(&store, &hint, "ks.c"), Some(0));
        // Dropping a table moves the others; the hint then points elsewhere.
        store.drop_table("ks.a");
        assert_eq!(found(&store, &hint, "ks.c"), Some(0));
        assert_eq!(found(&store, &hint, "ks.b"), Some(0));
        assert_eq!(store.table_hinted("ks.a", &hint).map(|_| ()), None);
        store.table_mut_hinted("ks.c", &hint).slot_or_allocate("v");
        assert_eq!(store.table("ks.c").and_then(|d| d.slot("v")), Some(1));
        store
            .table_mut_hinted("ks.d", &hint)
            .slot_or_allocate("ks.d");
        assert_eq!(found(&store, &hint, "ks.d"), Some(0));
        assert_eq!(store.table("ks.b").and_then(|d| d.slot("v")), None);
    }
}
