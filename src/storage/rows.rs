//! A partition's clustering rows: sorted runs of contiguous rows (chunks of
//! at most [`CHUNK`]) rather than a B-tree, because rows are read far more
//! than they are written, and read in order.
//!
//! A scan walks memory front to back instead of hopping between half-full
//! B-tree nodes; a key is found by two binary searches (over the chunks'
//! last keys, then within one chunk). Appending at either end — time series
//! written in clustering order, ASC or DESC — fills the end chunk and then
//! starts a new one; a key landing in the middle shifts at most one chunk,
//! splitting it when full, so a wide partition written in random order
//! costs O(log n + CHUNK) per row, not O(n).

use std::ops::Bound;

use smallvec::SmallVec;

use super::key::{ClusteringKey, StoredKey};
use super::stored::StoredRow;

/// Most rows in one chunk: a middle insert moves at most this many.
const CHUNK: usize = 128;

/// One sorted run: keys and the rows beside them, in two parallel buffers so
/// that a binary search touches only keys and a scan that tests rows before
/// their keys walks only rows. Never empty while in a [`RowMap`].
#[derive(Debug, Clone, Default)]
struct Chunk {
    /// The first and last keys as numbers, when both are one integer-like
    /// value ([`ends_of`] the keys, kept by every change to them): a search
    /// guesses where its key sits from these (see [`guess`]) without
    /// reading the two keys, each a wait on memory in a large table.
    ends: Option<(i64, i64)>,
    keys: Vec<StoredKey>,
    rows: Vec<StoredRow>,
}

impl Chunk {
    fn single(key: StoredKey, row: StoredRow) -> Chunk {
        Chunk::of(vec![key], vec![row])
    }

    fn of(keys: Vec<StoredKey>, rows: Vec<StoredRow>) -> Chunk {
        Chunk {
            ends: ends_of(&keys),
            keys,
            rows,
        }
    }

    /// Brings `ends` up to date after a change at either end of the keys.
    fn refresh_ends(&mut self) {
        self.ends = ends_of(&self.keys);
    }

    fn len(&self) -> usize {
        self.keys.len()
    }

    /// Starts loading row `i` and its key, if there is one.
    #[inline(always)]
    fn prefetch(&self, i: usize) {
        if let (Some(key), Some(row)) = (self.keys.get(i), self.rows.get(i)) {
            super::prefetch(key);
            super::prefetch(row);
        }
    }

    /// Room for one more row, grown by an eighth rather than doubled when
    /// full: spare room is most of what a table holds beyond its keys and
    /// rows (a doubling buffer leaves a quarter of it empty on average, 100
    /// rows in room for 128; an eighth leaves 100 in room for 109), and the
    /// extra copies of a gentler growth stay amortized O(1). A chunk never
    /// needs room for more than [`CHUNK`] rows.
    fn make_room(&mut self) {
        let len = self.len();
        if len == self.keys.capacity() || len == self.rows.capacity() {
            let more = (len / 8).max(4).min(CHUNK.saturating_sub(len).max(1));
            self.keys.reserve_exact(more);
            self.rows.reserve_exact(more);
        }
    }

    fn insert(&mut self, i: usize, key: StoredKey, row: StoredRow) {
        self.make_room();
        self.keys.insert(i, key);
        self.rows.insert(i, row);
        if i == 0 || i + 1 == self.keys.len() {
            self.refresh_ends();
        }
    }

    /// The first place whose key does not satisfy `before`, searched from
    /// a guess at where `probe` sits.
    fn partition_point(&self, probe: &ClusteringKey, before: impl Fn(&StoredKey) -> bool) -> usize {
        debug_assert_eq!(self.ends, ends_of(&self.keys), "stale chunk ends");
        partition_point_from_guess(&self.keys, self.ends, probe, before)
    }
}

/// A place between rows: chunk, then index within it. Normalised so that
/// the index is below the chunk's length, except at the very end.
type Pos = (usize, usize);

/// The clustering rows of a partition, in clustering order, with the
/// subset of `BTreeMap`'s interface storage needs.
#[derive(Debug, Clone, Default)]
pub struct RowMap {
    /// The chunks in order; the first is kept in line (most partitions
    /// hold one), so that a lookup reads it with the partition rather than
    /// after one more wait on memory.
    chunks: SmallVec<[Chunk; 1]>,
    len: usize,
}

impl PartialEq for RowMap {
    /// Equal rows, however they are split into chunks.
    fn eq(&self, other: &RowMap) -> bool {
        self.len == other.len && self.iter().eq(other.iter())
    }
}

impl RowMap {
    /// No rows.
    pub fn new() -> RowMap {
        RowMap::default()
    }

    /// How many rows are stored, live or not.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no row is stored.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The first place whose key does not satisfy `before` (keys satisfying
    /// it all come first): a partition point over every row.
    ///
    /// The chunk is chosen without reading the last chunk's last key: the
    /// last chunk is where every key past the other chunks' goes. Within
    /// it, `probe` (the key `before` compares with) lets the search start
    /// from a guess at where its value sits ([`partition_point_from_guess`],
    /// made from the chunk's `ends`); a lookup then reads a key or two,
    /// each a wait on memory in a large table.
    fn partition_point(&self, probe: &ClusteringKey, before: impl Fn(&StoredKey) -> bool) -> Pos {
        let Some((_, others)) = self.chunks.split_last() else {
            return (0, 0);
        };
        let c = others.partition_point(|chunk| chunk.keys.last().is_some_and(&before));
        (c, self.chunks[c].partition_point(probe, before))
    }

    fn end(&self) -> Pos {
        match self.chunks.len() {
            0 => (0, 0),
            n => (n - 1, self.chunks[n - 1].len()),
        }
    }

    /// Where `key` is, or where it would go, for a write. A key above
    /// every stored one (rows written in clustering order) is placed by one
    /// comparison.
    fn search(&self, key: &ClusteringKey) -> (usize, Result<usize, usize>) {
        let last = self.chunks.last().and_then(|chunk| chunk.keys.last());
        if last.is_some_and(|last| last.cmp_to(key).is_lt()) {
            let (c, i) = self.end();
            return (c, Err(i));
        }
        self.find(key)
    }

    /// Where `key` is, or where it would go, by searching alone (no
    /// shortcut for appends): what a read wants.
    fn find(&self, key: &ClusteringKey) -> (usize, Result<usize, usize>) {
        let (c, i) = self.partition_point(key, |k| k.cmp_to(key).is_lt());
        match self.chunks.get(c) {
            Some(chunk) if chunk.keys.get(i).is_some_and(|k| k.cmp_to(key).is_eq()) => (c, Ok(i)),
            _ => (c, Err(i)),
        }
    }

    /// Starts loading the chunk list, when it is not held in line (see
    /// [`super::prefetch_ahead`]).
    #[inline]
    pub(super) fn prefetch_chunks(&self) {
        if self.chunks.spilled() {
            super::prefetch_all(&self.chunks[0]);
        }
    }

    /// Starts loading the first rows and keys (see
    /// [`super::prefetch_ahead`]).
    #[inline]
    pub(super) fn prefetch_first_rows(&self) {
        if let Some(first) = self.chunks.first() {
            for i in 0..super::PREFETCH_ROWS {
                first.prefetch(i);
            }
        }
    }

    /// The row at `key`.
    pub fn get(&self, key: &ClusteringKey) -> Option<&StoredRow> {
        self.get_key_value(key).map(|(_, r)| r)
    }

    /// The stored key and row at `key`.
    pub fn get_key_value(&self, key: &ClusteringKey) -> Option<(&StoredKey, &StoredRow)> {
        let (c, found) = self.find(key);
        let i = found.ok()?;
        let chunk = self.chunks.get(c)?;
        Some((chunk.keys.get(i)?, chunk.rows.get(i)?))
    }

    /// Puts a new row at place `(c, i)`; returns where it ended up.
    fn insert_at(&mut self, (c, i): Pos, key: StoredKey, row: StoredRow) -> Pos {
        self.len += 1;
        let last = self.chunks.len().saturating_sub(1);
        let Some(chunk) = self.chunks.get_mut(c) else {
            // Most partitions never hold more than one chunk.
            self.chunks.reserve_exact(1);
            self.chunks.push(Chunk::single(key, row));
            return (self.chunks.len() - 1, 0);
        };
        let n = chunk.len();
        if n < CHUNK {
            chunk.insert(i, key, row);
            return (c, i);
        }
        if c == last && i == n {
            self.chunks.push(Chunk::single(key, row));
            return (c + 1, 0);
        }
        if c == 0 && i == 0 {
            self.chunks.insert(0, Chunk::single(key, row));
            return (0, 0);
        }
        let half = n / 2;
        let tail = Chunk::of(chunk.keys.split_off(half), chunk.rows.split_off(half));
        chunk.refresh_ends();
        self.chunks.insert(c + 1, tail);
        let (c, i) = if i <= half { (c, i) } else { (c + 1, i - half) };
        self.chunks[c].insert(i, key, row);
        (c, i)
    }

    /// The row at `key`, created empty if absent (`entry(key).or_default()`).
    pub fn row_mut(&mut self, key: ClusteringKey) -> &mut StoredRow {
        match self.entry(key) {
            RowEntry::Occupied(row) => row,
            RowEntry::Vacant(vacant) => vacant.insert(StoredRow::default()),
        }
    }

    /// The row at `key`, or the place it would go: one search for a write
    /// that builds a new row otherwise than it edits an old one.
    pub fn entry(&mut self, key: ClusteringKey) -> RowEntry<'_> {
        match self.search(&key) {
            (c, Ok(i)) => RowEntry::Occupied(&mut self.chunks[c].rows[i]),
            (c, Err(i)) => RowEntry::Vacant(VacantRow {
                map: self,
                place: (c, i),
                key,
            }),
        }
    }

    /// Stores `row` at `key`, returning the row it replaces.
    pub fn insert(&mut self, key: ClusteringKey, row: StoredRow) -> Option<StoredRow> {
        match self.search(&key) {
            (c, Ok(i)) => Some(std::mem::replace(&mut self.chunks[c].rows[i], row)),
            (c, Err(i)) => {
                self.insert_at((c, i), StoredKey::new(key), row);
                None
            }
        }
    }

    /// Removes the row at `key`, returning it.
    pub fn remove(&mut self, key: &ClusteringKey) -> Option<StoredRow> {
        let (c, found) = self.search(key);
        let i = found.ok()?;
        let chunk = self.chunks.get_mut(c)?;
        chunk.keys.remove(i);
        let row = chunk.rows.remove(i);
        chunk.refresh_ends();
        if chunk.keys.is_empty() {
            self.chunks.remove(c);
        }
        self.len -= 1;
        Some(row)
    }

    /// Every `(key, row)`, in clustering order.
    pub fn iter(&self) -> Iter<'_> {
        Iter::new(&self.chunks, (0, 0), self.end(), self.len)
    }

    /// Every row, in clustering order.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &StoredRow> + '_ {
        self.chunks.iter().flat_map(|chunk| chunk.rows.iter())
    }

    /// Every row, mutably, in clustering order.
    pub fn values_mut(&mut self) -> impl DoubleEndedIterator<Item = &mut StoredRow> + '_ {
        self.chunks
            .iter_mut()
            .flat_map(|chunk| chunk.rows.iter_mut())
    }

    /// Keeps the rows for which `keep` holds.
    pub fn retain(&mut self, mut keep: impl FnMut(&StoredKey, &mut StoredRow) -> bool) {
        for chunk in &mut self.chunks {
            let kept: Vec<bool> = chunk
                .keys
                .iter()
                .zip(chunk.rows.iter_mut())
                .map(|(k, r)| keep(k, r))
                .collect();
            let mut flags = kept.iter();
            chunk.keys.retain(|_| flags.next().copied().unwrap_or(true));
            let mut flags = kept.iter();
            chunk.rows.retain(|_| flags.next().copied().unwrap_or(true));
            chunk.refresh_ends();
        }
        self.chunks.retain(|chunk| !chunk.keys.is_empty());
        self.len = self.chunks.iter().map(Chunk::len).sum();
    }

    /// The places of the keys between `start` and `end` (an empty span when
    /// they are out of order, where `BTreeMap::range` would panic).
    fn bounds(&self, start: Bound<&ClusteringKey>, end: Bound<&ClusteringKey>) -> (Pos, Pos) {
        let lo = match start {
            Bound::Unbounded => (0, 0),
            Bound::Included(s) => self.partition_point(s, |k| k.cmp_to(s).is_lt()),
            Bound::Excluded(s) => self.partition_point(s, |k| k.cmp_to(s).is_le()),
        };
        let hi = match end {
            Bound::Unbounded => self.end(),
            Bound::Included(e) => self.partition_point(e, |k| k.cmp_to(e).is_le()),
            Bound::Excluded(e) => self.partition_point(e, |k| k.cmp_to(e).is_lt()),
        };
        (lo, hi.max(lo))
    }

    /// How many rows lie between two places.
    fn count(&self, (c0, i0): Pos, (c1, i1): Pos) -> usize {
        if (c0, i0) >= (c1, i1) {
            return 0;
        }
        let whole: usize = self.chunks[c0..c1].iter().map(Chunk::len).sum();
        whole + i1 - i0
    }

    /// The rows with keys between two bounds, in clustering order.
    pub fn range(&self, (start, end): (Bound<&ClusteringKey>, Bound<&ClusteringKey>)) -> Iter<'_> {
        let (lo, hi) = self.bounds(start, end);
        Iter::new(&self.chunks, lo, hi, self.count(lo, hi))
    }

    /// The rows with keys between two bounds as runs of contiguous keys and
    /// rows, in clustering order: a scan's inner loop then walks two slices
    /// instead of stepping an iterator across chunks row by row.
    pub fn range_runs(
        &self,
        (start, end): (Bound<&ClusteringKey>, Bound<&ClusteringKey>),
    ) -> impl DoubleEndedIterator<Item = (&[StoredKey], &[StoredRow])> + '_ {
        let ((c0, i0), (c1, i1)) = self.bounds(start, end);
        let chunks = match self.chunks.get(c0..=c1) {
            Some(chunks) if (c0, i0) < (c1, i1) => chunks,
            _ => &[],
        };
        chunks.iter().enumerate().map(move |(n, chunk)| {
            let len = chunk.len();
            let lo = if n == 0 { i0.min(len) } else { 0 };
            let hi = if c0 + n == c1 { i1.min(len) } else { len }.max(lo);
            (&chunk.keys[lo..hi], &chunk.rows[lo..hi])
        })
    }

    /// The rows with keys between two bounds, mutably.
    pub fn range_mut(
        &mut self,
        (start, end): (Bound<&ClusteringKey>, Bound<&ClusteringKey>),
    ) -> impl DoubleEndedIterator<Item = (&StoredKey, &mut StoredRow)> + '_ {
        let ((c0, i0), (c1, i1)) = self.bounds(start, end);
        let chunks = match self.chunks.get_mut(c0..=c1) {
            Some(chunks) if (c0, i0) < (c1, i1) => chunks,
            _ => &mut [],
        };
        chunks.iter_mut().enumerate().flat_map(move |(n, chunk)| {
            let Chunk { keys, rows, .. } = chunk;
            let lo = if n == 0 { i0 } else { 0 };
            let hi = if c0 + n == c1 { i1 } else { keys.len() };
            let (lo, hi) = (
                lo.min(keys.len()),
                hi.min(keys.len()).max(lo.min(keys.len())),
            );
            keys[lo..hi].iter().zip(rows[lo..hi].iter_mut())
        })
    }
}

/// A clustering key's place in a [`RowMap`] (see [`RowMap::entry`]).
pub enum RowEntry<'a> {
    /// The row stored at the key.
    Occupied(&'a mut StoredRow),
    /// No row at the key yet.
    Vacant(VacantRow<'a>),
}

/// Where the row of a key absent from a [`RowMap`] goes, found by
/// [`RowMap::entry`] so that storing it needs no second search.
pub struct VacantRow<'a> {
    map: &'a mut RowMap,
    place: Pos,
    key: ClusteringKey,
}

impl<'a> VacantRow<'a> {
    /// Stores `row` at the key.
    pub fn insert(self, row: StoredRow) -> &'a mut StoredRow {
        let (c, i) = self
            .map
            .insert_at(self.place, StoredKey::new(self.key), row);
        &mut self.map.chunks[c].rows[i]
    }
}

/// An iterator over `(key, row)` pairs in clustering order, from either end.
#[derive(Debug, Clone)]
pub struct Iter<'a> {
    chunks: &'a [Chunk],
    /// The next place to read from the front.
    front: Pos,
    /// One past the next place to read from the back.
    back: Pos,
    /// Rows left between the two.
    left: usize,
}

impl<'a> Iter<'a> {
    fn new(chunks: &'a [Chunk], front: Pos, back: Pos, left: usize) -> Iter<'a> {
        Iter {
            chunks,
            front,
            back,
            left,
        }
    }
}

impl<'a> Iterator for Iter<'a> {
    type Item = (&'a StoredKey, &'a StoredRow);

    fn next(&mut self) -> Option<Self::Item> {
        if self.left == 0 {
            return None;
        }
        let (mut c, mut i) = self.front;
        while i >= self.chunks.get(c)?.len() {
            (c, i) = (c + 1, 0);
        }
        let chunk = self.chunks.get(c)?;
        self.front = (c, i + 1);
        self.left -= 1;
        chunk.prefetch(i + super::PREFETCH_ROWS);
        Some((chunk.keys.get(i)?, chunk.rows.get(i)?))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        if self.left == 0 {
            return None;
        }
        let (mut c, mut i) = self.back;
        while i == 0 {
            c = c.checked_sub(1)?;
            i = self.chunks.get(c)?.len();
        }
        let chunk = self.chunks.get(c)?;
        self.back = (c, i - 1);
        self.left -= 1;
        if let Some(ahead) = (i - 1).checked_sub(super::PREFETCH_ROWS) {
            chunk.prefetch(ahead);
        }
        Some((chunk.keys.get(i - 1)?, chunk.rows.get(i - 1)?))
    }
}

impl ExactSizeIterator for Iter<'_> {}

impl<'a> IntoIterator for &'a RowMap {
    type Item = (&'a StoredKey, &'a StoredRow);
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

/// `keys.partition_point(before)`, starting from a guess at where
/// `probe`'s value sits when both are single integers (a timestamp, a
/// sequence number).
///
/// A binary search reads about seven of a chunk's keys, and in a table
/// larger than the caches each is a wait on memory. Rows written at a
/// steady pace (a reading a minute) sit where the line from the first key
/// to the last puts them, so the search reads those two and the key at the
/// guess, usually with its neighbour in the same cache line. The guess
/// only decides where to look: whatever it is, the keys at and beside it
/// bound the answer, and a binary search finds it in what is left.
fn partition_point_from_guess(
    keys: &[StoredKey],
    ends: Option<(i64, i64)>,
    probe: &ClusteringKey,
    before: impl Fn(&StoredKey) -> bool,
) -> usize {
    let Some(g) = guess(keys.len(), ends, probe) else {
        return keys.partition_point(before);
    };
    if before(&keys[g]) {
        let after = &keys[g + 1..];
        match after.first() {
            Some(next) if before(next) => g + 2 + after[1..].partition_point(before),
            _ => g + 1,
        }
    } else if g == 0 || before(&keys[g - 1]) {
        g
    } else {
        keys[..g - 1].partition_point(before)
    }
}

/// The first and last of `keys` as numbers, when both are one
/// integer-like value (what a [`Chunk`] keeps as its `ends`).
fn ends_of(keys: &[StoredKey]) -> Option<(i64, i64)> {
    Some((keys.first()?.as_integer()?, keys.last()?.as_integer()?))
}

/// Where `probe`'s value would sit among `len` keys if they were evenly
/// spread from the first to the last (`ends`, ascending or descending), or
/// `None` when the ends or the probe are not single integers.
fn guess(len: usize, ends: Option<(i64, i64)>, probe: &ClusteringKey) -> Option<usize> {
    let target = probe.single_integer()? as f64;
    let (first, last) = ends?;
    let (first, last) = (first as f64, last as f64);
    let top = len.checked_sub(1)?;
    if first == last {
        return Some(0);
    }
    let at = (target - first) / (last - first) * top as f64 + 0.5;
    // `as` saturates: a probe beyond either end is guessed at that end.
    Some((at as usize).min(top))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::Bound as KeyBound;
    use crate::types::Value;
    use proptest::prelude::*;

    proptest! {
        /// Searching from a guess finds what a binary search finds, for
        /// keys spread evenly or not, either direction, and probes inside,
        /// between and beyond them, exact or bounds.
        #[test]
        fn a_guess_changes_no_answer(
            steps in prop::collection::vec(prop_oneof![Just(60_000i64), 1..1_000_000i64], 1..130),
            start in -1_000_000i64..1_000_000,
            probe_at in -2_000_000i64..200_000_000,
            descending in any::<bool>(),
            bound in prop_oneof![Just(KeyBound::Exact), Just(KeyBound::Before), Just(KeyBound::After)],
            exact_hit in any::<prop::sample::Index>(),
            hit in any::<bool>(),
        ) {
            let desc = u32::from(descending);
            let mut values: Vec<i64> = steps
                .iter()
                .scan(start, |at, step| { *at += step; Some(*at) })
                .collect();
            if descending {
                values.reverse();
            }
            let keys: Vec<StoredKey> = values
                .iter()
                .map(|v| StoredKey::new(ClusteringKey::exact(vec![Value::Timestamp(*v)], desc)))
                .collect();
            let target = if hit { values[exact_hit.index(values.len())] } else { probe_at };
            let probe = ClusteringKey::bound(vec![Value::Timestamp(target)], desc, bound);
            let lt = |k: &StoredKey| k.cmp_to(&probe).is_lt();
            let le = |k: &StoredKey| k.cmp_to(&probe).is_le();
            let ends = ends_of(&keys);
            prop_assert_eq!(partition_point_from_guess(&keys, ends, &probe, lt), keys.partition_point(lt));
            prop_assert_eq!(partition_point_from_guess(&keys, ends, &probe, le), keys.partition_point(le));
        }
    }

    #[test]
    fn evenly_spread_keys_are_guessed_exactly() {
        let keys: Vec<StoredKey> = (0..100)
            .map(|i| {
                StoredKey::new(ClusteringKey::exact(
                    vec![Value::Timestamp(5_000 + i * 60_000)],
                    0,
                ))
            })
            .collect();
        for i in [0, 1, 37, 98, 99] {
            let probe = ClusteringKey::exact(vec![Value::Timestamp(5_000 + i * 60_000)], 0);
            assert_eq!(guess(keys.len(), ends_of(&keys), &probe), Some(i as usize));
        }
    }

    fn key(v: i32, desc: u32) -> ClusteringKey {
        ClusteringKey::exact(vec![Value::Int(v)], desc)
    }

    #[test]
    fn runs_hold_the_rows_of_a_range() {
        let mut rows = RowMap::new();
        for v in (0..1000).map(|v| v * 7 % 1000) {
            rows.row_mut(key(v, 0));
        }
        for (lo, hi) in [(0, 999), (5, 5), (100, 700), (7, 3), (990, 2000), (-5, 0)] {
            let (lo, hi) = (key(lo, 0), key(hi, 0));
            let bounds = (Bound::Included(&lo), Bound::Excluded(&hi));
            let runs: Vec<&StoredKey> = rows
                .range_runs(bounds)
                .flat_map(|(keys, _)| keys.iter())
                .collect();
            let expected: Vec<&StoredKey> = rows.range(bounds).map(|(k, _)| k).collect();
            assert_eq!(runs, expected);
            let back: Vec<&StoredKey> = rows
                .range_runs(bounds)
                .rev()
                .flat_map(|(keys, _)| keys.iter().rev())
                .collect();
            assert_eq!(back, expected.into_iter().rev().collect::<Vec<_>>());
        }
    }

    #[test]
    fn chunks_grow_gently_and_never_past_a_chunk() {
        let mut rows = RowMap::new();
        for v in 0..100 {
            rows.row_mut(key(v, 0));
        }
        let chunk = &rows.chunks[0];
        assert!(chunk.rows.capacity() <= 110 && chunk.keys.capacity() <= 110);
        for v in 100..1000 {
            rows.row_mut(key(v, 0));
        }
        for v in (0..1000).map(|v| v * 7 % 1000) {
            rows.insert(key(v, 0), StoredRow::default());
        }
        assert_eq!(rows.len(), 1000);
        assert!(rows
            .chunks
            .iter()
            .all(|c| c.len() <= CHUNK && c.rows.capacity() <= CHUNK));
    }

    #[test]
    fn rows_stay_in_clustering_order_whatever_the_insert_order() {
        for desc in [0, 1] {
            let mut rows = RowMap::new();
            for v in [5, 1, 9, 3, 7, 0, 10] {
                rows.row_mut(key(v, desc));
                assert!(ends_are_fresh(&rows));
            }
            let mut got: Vec<i32> = rows
                .iter()
                .map(|(k, _)| match k.values().as_slice() {
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
            reference.insert(key(v, 0), StoredRow::default());
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
                        let mine: Vec<_> = rows.range(range).map(|(k, _)| k.to_key(0)).collect();
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
            row.edit().deleted_at = Some(i64::from(v));
        }
        rows.retain(|_, r| r.deleted_at().is_some_and(|d| d % 3 == 0));
        let got: Vec<(i32, Option<i64>)> = rows
            .iter()
            .map(|(k, r)| match k.values().as_slice() {
                [Value::Int(v)] => (*v, r.deleted_at()),
                _ => (-1, None),
            })
            .collect();
        assert_eq!(
            got,
            vec![(0, Some(0)), (3, Some(3)), (6, Some(6)), (9, Some(9))]
        );
    }

    /// Thousands of rows inserted and removed in scrambled order, across
    /// many chunks, read forwards, backwards and by range exactly as a
    /// `BTreeMap` holding the same keys.
    #[test]
    fn many_chunks_in_any_order_match_a_btree_map() {
        for desc in [0, 1] {
            let mut rows = RowMap::new();
            let mut reference = std::collections::BTreeMap::new();
            let scrambled = |n: i32| (n * 7919) % 5003;
            for n in 0..5003 {
                let v = scrambled(n);
                rows.row_mut(key(v, desc)).edit().deleted_at = Some(i64::from(v));
                reference.insert(key(v, desc), i64::from(v));
            }
            assert!(ends_are_fresh(&rows));
            for v in 5003..5200 {
                rows.row_mut(key(v, desc)).edit().deleted_at = Some(i64::from(v));
                reference.insert(key(v, desc), i64::from(v));
            }
            assert!(ends_are_fresh(&rows));
            for n in (0..5003).step_by(3) {
                let v = scrambled(n * 2 % 5003);
                assert_eq!(
                    rows.remove(&key(v, desc)).map(|r| r.deleted_at()),
                    reference.remove(&key(v, desc)).map(Some)
                );
            }
            assert_eq!(rows.len(), reference.len());
            assert!(ends_are_fresh(&rows));
            let mine: Vec<_> = rows
                .iter()
                .map(|(k, r)| (k.to_key(desc), r.deleted_at()))
                .collect();
            let theirs: Vec<_> = reference
                .iter()
                .map(|(k, v)| (k.clone(), Some(*v)))
                .collect();
            assert_eq!(mine, theirs);
            let backwards: Vec<_> = rows.iter().rev().map(|(k, _)| k.to_key(desc)).collect();
            let expected: Vec<_> = reference.keys().rev().cloned().collect();
            assert_eq!(backwards, expected);
            for (a, b) in [(0, 5003), (100, 140), (1000, 1500), (4000, 3999), (17, 17)] {
                let range = (
                    Bound::Included(&key(a, desc)),
                    Bound::Excluded(&key(b, desc)),
                );
                if key(a, desc) > key(b, desc) {
                    assert_eq!(rows.range(range).count(), 0);
                    continue;
                }
                let mine: Vec<_> = rows
                    .range(range)
                    .rev()
                    .map(|(k, _)| k.to_key(desc))
                    .collect();
                let theirs: Vec<_> = reference
                    .range::<ClusteringKey, _>(range)
                    .rev()
                    .map(|(k, _)| k.clone())
                    .collect();
                assert_eq!(mine, theirs);
                assert_eq!(rows.range(range).len(), theirs.len());
                let mutated = rows
                    .range_mut(range)
                    .map(|(_, r)| r.edit().deleted_at = None)
                    .count();
                assert_eq!(mutated, theirs.len());
            }
            rows.retain(|_, r| r.deleted_at().is_some());
            reference.retain(|k, _| rows.get(k).is_some());
            assert_eq!(rows.len(), reference.len());
            assert!(rows.values().all(|r| r.deleted_at().is_some()));
            assert!(ends_are_fresh(&rows));
        }
    }

    fn ends_are_fresh(rows: &RowMap) -> bool {
        rows.chunks.iter().all(|c| c.ends == ends_of(&c.keys))
    }

    #[test]
    fn insert_get_and_remove() {
        let mut rows = RowMap::new();
        assert!(rows.insert(key(2, 0), StoredRow::default()).is_none());
        assert!(rows.insert(key(2, 0), StoredRow::default()).is_some());
        assert!(rows.get(&key(2, 0)).is_some());
        assert!(rows.remove(&key(2, 0)).is_some());
        assert!(rows.is_empty());
    }
}
