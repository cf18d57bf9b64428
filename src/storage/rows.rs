//! A partition's clustering rows: one contiguous, sorted buffer rather than
//! a B-tree, because rows are read far more than they are inserted out of
//! order, and reading them in order is the common case.
//!
//! A scan walks memory front to back instead of hopping between half-full
//! B-tree nodes; a key is found by binary search. The buffer is a ring
//! (`VecDeque`), so appending at either end — time series written in
//! clustering order, ASC or DESC — costs no more than a push; only a key
//! landing in the middle shifts the shorter side.

use std::collections::vec_deque::{self, VecDeque};
use std::ops::Bound;

use super::key::ClusteringKey;
use super::row::Row;

/// The clustering rows of a partition, in clustering order, with the
/// subset of `BTreeMap`'s interface storage needs.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RowMap {
    entries: VecDeque<(ClusteringKey, Row)>,
}

/// An iterator over `(key, row)` pairs in clustering order.
pub type Iter<'a> = std::iter::Map<
    vec_deque::Iter<'a, (ClusteringKey, Row)>,
    fn(&'a (ClusteringKey, Row)) -> (&'a ClusteringKey, &'a Row),
>;

fn split(entry: &(ClusteringKey, Row)) -> (&ClusteringKey, &Row) {
    (&entry.0, &entry.1)
}

impl RowMap {
    /// No rows.
    pub fn new() -> RowMap {
        RowMap::default()
    }

    /// How many rows are stored, live or not.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no row is stored.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    fn search(&self, key: &ClusteringKey) -> Result<usize, usize> {
        self.entries.binary_search_by(|(k, _)| k.cmp(key))
    }

    /// The row at `key`.
    pub fn get(&self, key: &ClusteringKey) -> Option<&Row> {
        self.get_key_value(key).map(|(_, r)| r)
    }

    /// The stored key and row at `key`.
    pub fn get_key_value(&self, key: &ClusteringKey) -> Option<(&ClusteringKey, &Row)> {
        let i = self.search(key).ok()?;
        self.entries.get(i).map(split)
    }

    /// The row at `key`, created empty if absent (`entry(key).or_default()`).
    pub fn row_mut(&mut self, key: ClusteringKey) -> &mut Row {
        let i = match self.search(&key) {
            Ok(i) => i,
            Err(i) => {
                self.entries.insert(i, (key, Row::default()));
                i
            }
        };
        &mut self.entries[i].1
    }

    /// Stores `row` at `key`, returning the row it replaces.
    pub fn insert(&mut self, key: ClusteringKey, row: Row) -> Option<Row> {
        match self.search(&key) {
            Ok(i) => Some(std::mem::replace(&mut self.entries[i].1, row)),
            Err(i) => {
                self.entries.insert(i, (key, row));
                None
            }
        }
    }

    /// Removes the row at `key`, returning it.
    pub fn remove(&mut self, key: &ClusteringKey) -> Option<Row> {
        let i = self.search(key).ok()?;
        self.entries.remove(i).map(|(_, r)| r)
    }

    /// Every `(key, row)`, in clustering order.
    pub fn iter<'a>(&'a self) -> Iter<'a> {
        let f: fn(&'a (ClusteringKey, Row)) -> (&'a ClusteringKey, &'a Row) = split;
        self.entries.iter().map(f)
    }

    /// Every row, in clustering order.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &Row> + '_ {
        self.entries.iter().map(|(_, r)| r)
    }

    /// Every row, mutably, in clustering order.
    pub fn values_mut(&mut self) -> impl DoubleEndedIterator<Item = &mut Row> + '_ {
        self.entries.iter_mut().map(|(_, r)| r)
    }

    /// Keeps the rows for which `keep` holds.
    pub fn retain(&mut self, mut keep: impl FnMut(&ClusteringKey, &mut Row) -> bool) {
        self.entries.retain_mut(|(k, r)| keep(k, r));
    }

    /// The index range of the keys between `start` and `end` (empty when
    /// they are out of order, where `BTreeMap::range` would panic).
    fn bounds(&self, start: Bound<&ClusteringKey>, end: Bound<&ClusteringKey>) -> (usize, usize) {
        let lo = match start {
            Bound::Unbounded => 0,
            Bound::Included(s) => self.entries.partition_point(|(k, _)| k < s),
            Bound::Excluded(s) => self.entries.partition_point(|(k, _)| k <= s),
        };
        let hi = match end {
            Bound::Unbounded => self.entries.len(),
            Bound::Included(e) => self.entries.partition_point(|(k, _)| k <= e),
            Bound::Excluded(e) => self.entries.partition_point(|(k, _)| k < e),
        };
        (lo, hi.max(lo))
    }

    /// The rows with keys between two bounds, in clustering order.
    pub fn range<'a>(
        &'a self,
        (start, end): (Bound<&ClusteringKey>, Bound<&ClusteringKey>),
    ) -> Iter<'a> {
        let (lo, hi) = self.bounds(start, end);
        let f: fn(&'a (ClusteringKey, Row)) -> (&'a ClusteringKey, &'a Row) = split;
        self.entries.range(lo..hi).map(f)
    }

    /// The rows with keys between two bounds, mutably.
    pub fn range_mut(
        &mut self,
        (start, end): (Bound<&ClusteringKey>, Bound<&ClusteringKey>),
    ) -> impl DoubleEndedIterator<Item = (&ClusteringKey, &mut Row)> + '_ {
        let (lo, hi) = self.bounds(start, end);
        self.entries.range_mut(lo..hi).map(|(k, r)| (&*k, r))
    }
}

impl<'a> IntoIterator for &'a RowMap {
    type Item = (&'a ClusteringKey, &'a Row);
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Value;

    fn key(v: i32, desc: u32) -> ClusteringKey {
        ClusteringKey::exact(vec![Value::Int(v)], desc)
    }

    #[test]
    fn rows_stay_in_clustering_order_whatever_the_insert_order() {
        for desc in [0, 1] {
            let mut rows = RowMap::new();
            for v in [5, 1, 9, 3, 7, 0, 10] {
                rows.row_mut(key(v, desc));
            }
            let mut got: Vec<i32> = rows
                .iter()
                .map(|(k, _)| match k.values() {
                    [Value::Int(v)] => *v,
                    _ => -1,
                })
                .collect();
            if desc == 1 {
                got.reverse();
            }
            assert_eq!(got, vec![0, 1, 3, 5, 7, 9, 10]);
        }
    }

    #[test]
    fn ranges_match_a_btree_map() {
        let mut rows = RowMap::new();
        let mut reference = std::collections::BTreeMap::new();
        for v in (0..40).step_by(3) {
            rows.row_mut(key(v, 0));
            reference.insert(key(v, 0), Row::default());
        }
        let bounds = |v: i32| {
            [
                Bound::Unbounded,
                Bound::Included(key(v, 0)),
                Bound::Excluded(key(v, 0)),
            ]
        };
        for a in 0..42 {
            for b in a..42 {
                for s in bounds(a) {
                    for e in bounds(b) {
                        if matches!((&s, &e), (Bound::Excluded(_), Bound::Excluded(_))) && a == b {
                            continue;
                        }
                        let range = (s.as_ref(), e.as_ref());
                        let mine: Vec<_> = rows.range(range).map(|(k, _)| k.clone()).collect();
                        let theirs: Vec<_> = reference
                            .range::<ClusteringKey, _>(range)
                            .map(|(k, _)| k.clone())
                            .collect();
                        assert_eq!(mine, theirs);
                    }
                }
            }
        }
    }

    #[test]
    fn insert_get_and_remove() {
        let mut rows = RowMap::new();
        assert!(rows.insert(key(2, 0), Row::default()).is_none());
        assert!(rows.insert(key(2, 0), Row::default()).is_some());
        assert!(rows.get(&key(2, 0)).is_some());
        assert!(rows.remove(&key(2, 0)).is_some());
        assert!(rows.is_empty());
    }
}
