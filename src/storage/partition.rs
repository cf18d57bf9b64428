//! A partition: its key, its static row, its clustering rows in order, and
//! the deletions that shadow older writes.

use std::ops::Bound as RangeBound;

use super::key::ClusteringKey;
use super::rows::RowMap;
use super::stored::{RowEdit, StoredRow};
use crate::types::Value;

/// A deletion of a slice of clustering keys (`DELETE … WHERE c > 3`): it
/// removes the rows it covers now and shadows older writes that arrive later.
#[derive(Debug, Clone, PartialEq)]
pub struct RangeDeletion {
    /// Lower end.
    pub start: RangeBound<ClusteringKey>,
    /// Upper end.
    pub end: RangeBound<ClusteringKey>,
    /// Its timestamp.
    pub timestamp: i64,
}

impl RangeDeletion {
    fn covers(&self, key: &ClusteringKey) -> bool {
        let above = match &self.start {
            RangeBound::Included(s) => key >= s,
            RangeBound::Excluded(s) => key > s,
            RangeBound::Unbounded => true,
        };
        let below = match &self.end {
            RangeBound::Included(e) => key <= e,
            RangeBound::Excluded(e) => key < e,
            RangeBound::Unbounded => true,
        };
        above && below
    }
}

/// Readies the partitions a scan reaches next, the scan being at
/// `partitions[at]`.
///
/// A partition's rows sit two or three pointers away from the list a scan
/// walks: the partition (which holds its first chunk), its other chunks,
/// the chunk's rows. Fetched when the scan reaches it, each is a wait on
/// memory. So each step asks, a partition apart, for the next link of the
/// three partitions ahead, whose previous link an earlier step asked for:
/// the whole partition three ahead (several cache lines, its first chunk
/// among them), the chunk list two ahead if it has more than one chunk,
/// the first rows one ahead. (The scan asks for the rest of a partition's
/// rows as it reads them: see [`super::PREFETCH_ROWS`].)
#[inline]
pub fn prefetch_ahead(partitions: &[&Partition], at: usize) {
    if let Some(partition) = partitions.get(at + 3) {
        super::prefetch_all(*partition);
    }
    if let Some(partition) = partitions.get(at + 2) {
        partition.rows.prefetch_chunks();
    }
    if let Some(partition) = partitions.get(at + 1) {
        partition.rows.prefetch_first_rows();
    }
}

/// One partition of a table.
#[derive(Debug, Clone, PartialEq)]
pub struct Partition {
    /// The partition key values, in key order.
    pub key: Box<[Value]>,
    /// Everything written at or before this time is deleted.
    pub deleted_at: Option<i64>,
    /// The static columns.
    pub static_row: StoredRow,
    /// The clustering rows, in clustering order.
    pub rows: RowMap,
    /// Range deletions still shadowing older writes.
    pub range_deletions: Vec<RangeDeletion>,
}

impl Partition {
    /// An empty partition for `key`.
    pub fn new(key: Box<[Value]>) -> Partition {
        Partition {
            key,
            deleted_at: None,
            static_row: StoredRow::default(),
            rows: RowMap::new(),
            range_deletions: Vec::new(),
        }
    }

    /// The newest deletion covering row `key` from outside the row: the
    /// partition's own and any range deletion.
    pub fn floor(&self, key: Option<&ClusteringKey>) -> Option<i64> {
        let ranges = key.and_then(|k| {
            self.range_deletions
                .iter()
                .filter(|r| r.covers(k))
                .map(|r| r.timestamp)
                .max()
        });
        self.deleted_at.max(ranges)
    }

    /// The row at `key`, created empty if absent, unpacked for writing.
    pub fn row_mut(&mut self, key: ClusteringKey) -> RowEdit<'_> {
        self.rows.row_mut(key).edit()
    }

    /// Deletes the whole partition as of `timestamp`.
    pub fn delete_at(&mut self, timestamp: i64) {
        if self.deleted_at.is_none_or(|d| d < timestamp) {
            self.deleted_at = Some(timestamp);
        }
        self.static_row.edit().purge(timestamp);
        self.rows.retain(|_, r| {
            r.edit().purge(timestamp);
            r.liveness().is_some() || r.has_cells() || r.deleted_at().is_some_and(|d| d > timestamp)
        });
        self.range_deletions.retain(|r| r.timestamp > timestamp);
    }

    /// Deletes the rows between two bounds as of `timestamp`.
    pub fn delete_range(&mut self, deletion: RangeDeletion) {
        if !bounds_ordered(&deletion.start, &deletion.end) {
            return;
        }
        let range = (deletion.start.as_ref(), deletion.end.as_ref());
        for (_, row) in self.rows.range_mut(range) {
            row.edit().purge(deletion.timestamp);
        }
        self.range_deletions.push(deletion);
    }

    /// Whether anything in the partition is live at `now_secs`.
    pub fn is_live(&self, now_secs: i64) -> bool {
        self.static_row.has_live_cells(now_secs) || self.rows.values().any(|r| r.is_live(now_secs))
    }
}

/// Whether `start..end` is a range `BTreeMap::range` accepts (it panics on
/// a start above the end, or equal ends both excluded).
pub fn bounds_ordered(start: &RangeBound<ClusteringKey>, end: &RangeBound<ClusteringKey>) -> bool {
    match (start, end) {
        (RangeBound::Unbounded, _) | (_, RangeBound::Unbounded) => true,
        (RangeBound::Included(s), RangeBound::Included(e)) => s <= e,
        (RangeBound::Included(s) | RangeBound::Excluded(s), RangeBound::Excluded(e))
        | (RangeBound::Excluded(s), RangeBound::Included(e)) => s < e,
    }
}
