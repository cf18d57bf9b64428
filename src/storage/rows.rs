//! A partition's clustering rows: contiguous sorted buffers (keys, and the
//! rows beside them) rather than a B-tree, because rows are read far more than they are inserted out of
//! order, and reading them in order is the common case.
//!
//! A scan walks memory front to back instead of hopping between half-full
//! B-tree nodes; a key is found by binary search. The buffers are rings
//! (`VecDeque`), so appending at either end — time series written in
//! clustering order, ASC or DESC — costs no more than a push; only a key
//! landing in the middle shifts the shorter side.

use std::collections::vec_deque::{self, VecDeque};
use std::ops::Bound;

use super::key::ClusteringKey;
use super::row::Row;

/// The clustering rows of a partition, in clustering order, with the
/// subset of `BTreeMap`'s interface storage needs.
///
/// Keys and rows are kept in two parallel buffers: a binary search touches
/// only keys, and a scan that tests rows before their keys walks only rows.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RowMap {
    keys: VecDeque<ClusteringKey>,
    rows: VecDeque<Row>,
}

/// An iterator over `(key, row)` pairs in clustering order.
pub type Iter<'a> = std::iter::Zip<vec_deque::Iter<'a, ClusteringKey>, vec_deque::Iter<'a, Row>>;

impl RowMap {
    /// No rows.
    pub fn new() -> RowMap {
        RowMap::default()
    }

    /// How many rows are stored, live or not.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether no row is stored.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    fn search(&self, key: &ClusteringKey) -> Result<usize, usize> {
        self.keys.binary_search_by(|k| k.cmp(key))
    }

    /// The row at `key`.
    pub fn get(&self, key: &ClusteringKey) -> Option<&Row> {
        self.get_key_value(key).map(|(_, r)| r)
    }

    /// The stored key and row at `key`.
    pub fn get_key_value(&self, key: &ClusteringKey) -> Option<(&ClusteringKey, &Row)> {
        let i = self.search(key).ok()?;
        Some((self.keys.get(i)?, self.rows.get(i)?))
    }

    /// The row at `key`, created empty if absent (`entry(key).or_default()`).
    pub fn row_mut(&mut self, key: ClusteringKey) -> &mut Row {
        let i = match self.search(&key) {
            Ok(i) => i,
            Err(i) => {
                self.keys.insert(i, key);
                self.rows.insert(i, Row::default());
                i
            }
        };
        &mut self.rows[i]
    }

    /// Stores `row` at `key`, returning the row it replaces.
    pub fn insert(&mut self, key: ClusteringKey, row: Row) -> Option<Row> {
        match self.search(&key) {
            Ok(i) => Some(std::mem::replace(&mut self.rows[i], row)),
            Err(i) => {
                self.keys.insert(i, key);
                self.rows.insert(i, row);
                None
            }
        }
    }

    /// Removes the row at `key`, returning it.
    pub fn remove(&mut self, key: &ClusteringKey) -> Option<Row> {
        let i = self.search(key).ok()?;
        self.keys.remove(i);
        self.rows.remove(i)
    }

    /// Every `(key, row)`, in clustering order.
    pub fn iter(&self) -> Iter<'_> {
        self.keys.iter().zip(self.rows.iter())
    }

    /// Every row, in clustering order.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &Row> + '_ {
        self.rows.iter()
    }

    /// Every row, mutably, in clustering order.
    pub fn values_mut(&mut self) -> impl DoubleEndedIterator<Item = &mut Row> + '_ {
        self.rows.iter_mut()
    }

    /// Keeps the rows for which `keep` holds.
    pub fn retain(&mut self, mut keep: impl FnMut(&ClusteringKey, &mut Row) -> bool) {
        let kept: Vec<bool> = self
            .keys
            .iter()
            .zip(self.rows.iter_mut())
            .map(|(k, r)| keep(k, r))
            .collect();
        let mut flags = kept.iter();
        self.keys.retain(|_| flags.next().copied().unwrap_or(true));
        let mut flags = kept.iter();
        self.rows.retain(|_| flags.next().copied().unwrap_or(true));
    }

    /// The index range of the keys between `start` and `end` (empty when
    /// they are out of order, where `BTreeMap::range` would panic).
    fn bounds(&self, start: Bound<&ClusteringKey>, end: Bound<&ClusteringKey>) -> (usize, usize) {
        let lo = match start {
            Bound::Unbounded => 0,
            Bound::Included(s) => self.keys.partition_point(|k| k < s),
            Bound::Excluded(s) => self.keys.partition_point(|k| k <= s),
        };
        let hi = match end {
            Bound::Unbounded => self.keys.len(),
            Bound::Included(e) => self.keys.partition_point(|k| k <= e),
            Bound::Excluded(e) => self.keys.partition_point(|k| k < e),
        };
        (lo, hi.max(lo))
    }

    /// The rows with keys between two bounds, in clustering order.
    pub fn range(&self, (start, end): (Bound<&ClusteringKey>, Bound<&ClusteringKey>)) -> Iter<'_> {
        let (lo, hi) = self.bounds(start, end);
        self.keys.range(lo..hi).zip(self.rows.range(lo..hi))
    }

    /// The rows with keys between two bounds, mutably.
    pub fn range_mut(
        &mut self,
        (start, end): (Bound<&ClusteringKey>, Bound<&ClusteringKey>),
    ) -> impl DoubleEndedIterator<Item = (&ClusteringKey, &mut Row)> + '_ {
        let (lo, hi) = self.bounds(start, end);
        self.keys.range(lo..hi).zip(self.rows.range_mut(lo..hi))
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
    fn retain_keeps_keys_and_rows_together() {
        let mut rows = RowMap::new();
        for v in 0..10 {
            let row = rows.row_mut(key(v, 0));
            row.deleted_at = Some(i64::from(v));
        }
        rows.retain(|_, r| r.deleted_at.is_some_and(|d| d % 3 == 0));
        let got: Vec<(i32, Option<i64>)> = rows
            .iter()
            .map(|(k, r)| match k.values() {
                [Value::Int(v)] => (*v, r.deleted_at),
                _ => (-1, None),
            })
            .collect();
        assert_eq!(
            got,
            vec![(0, Some(0)), (3, Some(3)), (6, Some(6)), (9, Some(9))]
        );
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
