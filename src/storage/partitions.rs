//! A table's partitions, found by hash and walked in ring order.
//!
//! Point reads and writes name one partition and want it in constant time;
//! scans want every partition, or a token range, in Cassandra's order. A
//! tree holding the partitions themselves serves both but makes every
//! lookup a descent through nodes of large values, a cache miss or more
//! per level. So the partitions live in a hash map keyed by position,
//! hashed by token alone (a Murmur3 token is already a good hash), and a
//! separate ordered set of positions gives the order for scans.
//!
//! The map holds each partition boxed: its buckets stay small (a position
//! and a pointer), so the table mostly stays in cache and its spare room
//! costs little memory, where a bucket holding the whole partition would
//! waste its size in every empty slot. A bucket keeps a short key's bytes
//! in line (see [`Slot`]): a lookup compares them in the bucket it has
//! just loaded rather than following a pointer to them, one wait on
//! memory fewer in a table larger than the caches.

use std::collections::BTreeSet;
use std::fmt;
use std::ops::RangeBounds;

use std::hash::{Hash, Hasher};

use hashbrown::hash_map::Entry;
use rustc_hash::FxBuildHasher;
use smallvec::SmallVec;

use super::key::{PartitionPosition, PositionRef};
use super::partition::Partition;

/// Partitions by position: lookups by hash, iteration in token order (then
/// key bytes), as a full scan reads them in Cassandra.
#[derive(Clone, Default)]
pub struct PartitionMap {
    by_position: hashbrown::HashMap<Slot, Box<Partition>, FxBuildHasher>,
    order: BTreeSet<PartitionPosition>,
}

/// A position as the hash map keys it: the token and the key's bytes, in
/// line when they are short (an `int`, a `uuid`, a name and a date).
#[derive(Clone, PartialEq, Eq)]
struct Slot {
    token: i64,
    key: SmallVec<[u8; 24]>,
}

impl Slot {
    fn of(position: PositionRef<'_>) -> Slot {
        Slot {
            token: position.token,
            key: SmallVec::from_slice(position.key),
        }
    }
}

/// Hashed as a [`PartitionPosition`] is: by token alone.
impl Hash for Slot {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.token.hash(state);
    }
}

impl hashbrown::Equivalent<Slot> for PositionRef<'_> {
    fn equivalent(&self, slot: &Slot) -> bool {
        self.token == slot.token && self.key == &slot.key[..]
    }
}

impl PartitionMap {
    /// An empty map.
    pub fn new() -> PartitionMap {
        PartitionMap::default()
    }

    /// The number of partitions.
    pub fn len(&self) -> usize {
        self.by_position.len()
    }

    /// Whether there are no partitions.
    pub fn is_empty(&self) -> bool {
        self.by_position.is_empty()
    }

    /// The partition at `position`: one hash probe, the point lookup path.
    pub fn get(&self, position: &PartitionPosition) -> Option<&Partition> {
        self.get_at(position.borrowed())
    }

    /// The partition at a borrowed `position`.
    pub fn get_at(&self, position: PositionRef<'_>) -> Option<&Partition> {
        self.by_position.get(&position).map(|p| &**p)
    }

    /// The partition at `position` for writing, without touching the order.
    pub fn get_mut(&mut self, position: &PartitionPosition) -> Option<&mut Partition> {
        self.get_mut_at(position.borrowed())
    }

    /// The partition at a borrowed `position` for writing.
    pub fn get_mut_at(&mut self, position: PositionRef<'_>) -> Option<&mut Partition> {
        self.by_position.get_mut(&position).map(|p| &mut **p)
    }

    /// The partition at `position`, created by `new` if absent: the order
    /// is updated only when a partition is created.
    pub fn get_or_insert_with(
        &mut self,
        position: PartitionPosition,
        new: impl FnOnce() -> Partition,
    ) -> &mut Partition {
        match self.by_position.entry(Slot::of(position.borrowed())) {
            Entry::Occupied(found) => found.into_mut(),
            Entry::Vacant(absent) => {
                self.order.insert(position);
                absent.insert(Box::new(new()))
            }
        }
    }

    /// Puts `partition` at `position`, returning the one it replaces.
    pub fn insert(
        &mut self,
        position: PartitionPosition,
        partition: Partition,
    ) -> Option<Partition> {
        match self.by_position.entry(Slot::of(position.borrowed())) {
            Entry::Occupied(mut found) => Some(*found.insert(Box::new(partition))),
            Entry::Vacant(absent) => {
                self.order.insert(position);
                absent.insert(Box::new(partition));
                None
            }
        }
    }

    /// Takes the partition at `position` out.
    pub fn remove(&mut self, position: &PartitionPosition) -> Option<Partition> {
        let removed = self.by_position.remove(&position.borrowed())?;
        self.order.remove(position);
        Some(*removed)
    }

    /// Removes every partition (TRUNCATE).
    pub fn clear(&mut self) {
        self.by_position.clear();
        self.order.clear();
    }

    /// Positions and partitions in ring order: a full scan.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (&PartitionPosition, &Partition)> + '_ {
        self.in_order(self.order.iter())
    }

    /// Positions in ring order.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &PartitionPosition> + '_ {
        self.order.iter()
    }

    /// Partitions in ring order.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &Partition> + '_ {
        self.iter().map(|(_, p)| p)
    }

    /// Positions and partitions within `range`, in ring order: token-range
    /// reads and the partitions sharing a token.
    pub fn range<R: RangeBounds<PartitionPosition>>(
        &self,
        range: R,
    ) -> impl DoubleEndedIterator<Item = (&PartitionPosition, &Partition)> + '_ {
        self.in_order(self.order.range(range))
    }

    /// Pairs each position of `positions` with its partition.
    fn in_order<'a>(
        &'a self,
        positions: impl DoubleEndedIterator<Item = &'a PartitionPosition> + 'a,
    ) -> impl DoubleEndedIterator<Item = (&'a PartitionPosition, &'a Partition)> + 'a {
        positions.filter_map(|p| {
            let partition = self.by_position.get(&p.borrowed())?;
            Some((p, &**partition))
        })
    }
}

/// Equal when they hold the same partitions with the same content; the
/// order is a function of the positions, so it needs no comparing.
impl PartialEq for PartitionMap {
    fn eq(&self, other: &Self) -> bool {
        self.by_position == other.by_position
    }
}

/// Lists the partitions in ring order, so the output is deterministic.
impl fmt::Debug for PartitionMap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use proptest::prelude::*;

    use super::*;
    use crate::types::Value;

    fn position(token: i64, key: &[u8]) -> PartitionPosition {
        PartitionPosition {
            token,
            key: key.into(),
        }
    }

    fn partition(n: i32) -> Partition {
        Partition::new(vec![Value::Int(n)].into_boxed_slice())
    }

    #[test]
    fn iterates_by_token_then_key_bytes() {
        let mut map = PartitionMap::new();
        let positions = [
            position(5, b"b"),
            position(-3, b"z"),
            position(5, b"a"),
            position(i64::MIN, b""),
            position(5, b"ab"),
            position(i64::MAX, b"a"),
        ];
        for (n, p) in positions.iter().enumerate() {
            map.insert(p.clone(), partition(n as i32));
        }
        let mut sorted = positions.to_vec();
        sorted.sort();
        assert_eq!(map.keys().cloned().collect::<Vec<_>>(), sorted);
        let same_token: Vec<_> = map
            .range(position(5, b"")..position(6, b""))
            .map(|(p, _)| p.key.to_vec())
            .collect();
        assert_eq!(same_token, [b"a".to_vec(), b"ab".to_vec(), b"b".to_vec()]);
    }

    #[derive(Debug, Clone)]
    enum Op {
        Insert(i64, u8, i32),
        GetOrInsert(i64, u8, i32),
        Remove(i64, u8),
        Clear,
    }

    fn op() -> impl Strategy<Value = Op> {
        // Few tokens and keys, so positions repeat and tokens collide.
        let token = -3i64..3;
        let key = 0u8..4;
        prop_oneof![
            4 => (token.clone(), key.clone(), any::<i32>()).prop_map(|(t, k, n)| Op::Insert(t, k, n)),
            2 => (token.clone(), key.clone(), any::<i32>())
                .prop_map(|(t, k, n)| Op::GetOrInsert(t, k, n)),
            3 => (token, key).prop_map(|(t, k)| Op::Remove(t, k)),
            1 => Just(Op::Clear),
        ]
    }

    /// Keys of 0 to 30 bytes: kept in a bucket, and past its 24 bytes.
    fn key_bytes(k: u8) -> Vec<u8> {
        vec![b'k'; usize::from(k) * 10]
    }

    proptest! {
        #[test]
        fn agrees_with_an_ordered_map(ops in proptest::collection::vec(op(), 0..60)) {
            let mut map = PartitionMap::new();
            let mut model: BTreeMap<PartitionPosition, Partition> = BTreeMap::new();
            for op in ops {
                match op {
                    Op::Insert(t, k, n) => {
                        let p = position(t, &key_bytes(k));
                        prop_assert_eq!(
                            map.insert(p.clone(), partition(n)),
                            model.insert(p, partition(n))
                        );
                    }
                    Op::GetOrInsert(t, k, n) => {
                        let p = position(t, &key_bytes(k));
                        let got = map.get_or_insert_with(p.clone(), || partition(n)).clone();
                        let want = model.entry(p).or_insert_with(|| partition(n)).clone();
                        prop_assert_eq!(got, want);
                    }
                    Op::Remove(t, k) => {
                        let p = position(t, &key_bytes(k));
                        prop_assert_eq!(map.remove(&p), model.remove(&p));
                    }
                    Op::Clear => {
                        map.clear();
                        model.clear();
                    }
                }
                prop_assert_eq!(map.len(), model.len());
                prop_assert!(map.iter().eq(model.iter()));
                for t in -3i64..3 {
                    for k in 0u8..4 {
                        let p = position(t, &key_bytes(k));
                        prop_assert_eq!(map.get(&p), model.get(&p));
                    }
                }
                let from = position(0, b"");
                prop_assert!(map.range(from.clone()..).eq(model.range(from..)));
            }
        }
    }
}
