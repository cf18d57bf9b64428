//! Keys that order storage: partitions by token (then key bytes), rows by
//! their clustering values honouring each column's ASC or DESC.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};

use smallvec::SmallVec;

use super::compact::Compact;
use crate::types::Value;

/// Clustering values held inline when there is one (the common case): no
/// allocation per key, and comparing a stored key does not chase a pointer.
pub type KeyValues = SmallVec<[Value; 1]>;

/// Where a partition sits on the ring: ordered by Murmur3 token, ties by
/// the serialized key's bytes — the order of a full scan in Cassandra.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct PartitionPosition {
    /// The Murmur3 token.
    pub token: i64,
    /// The serialized partition key.
    pub key: Box<[u8]>,
}

/// Hashes the token alone: a Murmur3 token already spreads keys well,
/// equal positions have equal tokens, and a lookup skips hashing the bytes.
impl Hash for PartitionPosition {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.token.hash(state);
    }
}

impl PartitionPosition {
    /// The position borrowed, to look its partition up.
    pub fn borrowed(&self) -> PositionRef<'_> {
        PositionRef {
            token: self.token,
            key: &self.key,
        }
    }
}

/// A [`PartitionPosition`] whose key bytes are borrowed: a point read or
/// write composes its key in a buffer of its own and finds the partition
/// with it, boxing the bytes only for a partition it creates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PositionRef<'k> {
    /// The Murmur3 token.
    pub token: i64,
    /// The serialized partition key.
    pub key: &'k [u8],
}

impl PositionRef<'_> {
    /// The position with its own copy of the key.
    pub fn to_owned(self) -> PartitionPosition {
        PartitionPosition {
            token: self.token,
            key: self.key.into(),
        }
    }
}

/// Hashed as the [`PartitionPosition`] it borrows: by token alone.
impl Hash for PositionRef<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.token.hash(state);
    }
}

/// Where a clustering key sits relative to the keys it is a prefix of:
/// stored keys are [`Bound::Exact`]; `Before`/`After` make a prefix compare
/// below or above every key that starts with it, for range reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// Below every key with this prefix.
    Before,
    /// A key itself.
    Exact,
    /// Above every key with this prefix.
    After,
}

/// A row's clustering values with the table's per-column direction.
#[derive(Debug, Clone)]
pub struct ClusteringKey {
    values: KeyValues,
    descending: u32,
    bound: Bound,
}

impl ClusteringKey {
    /// The key of a stored row. `descending` has bit `i` set when clustering
    /// column `i` is DESC.
    pub fn exact(values: impl Into<KeyValues>, descending: u32) -> ClusteringKey {
        ClusteringKey {
            values: values.into(),
            descending,
            bound: Bound::Exact,
        }
    }

    /// A bound for range reads: `values` is a prefix.
    pub fn bound(values: impl Into<KeyValues>, descending: u32, bound: Bound) -> ClusteringKey {
        ClusteringKey {
            values: values.into(),
            descending,
            bound,
        }
    }

    /// The clustering values.
    pub fn values(&self) -> &[Value] {
        &self.values
    }
}

impl PartialEq for ClusteringKey {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for ClusteringKey {}

impl PartialOrd for ClusteringKey {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for ClusteringKey {
    fn cmp(&self, other: &Self) -> Ordering {
        if let ([a], [b]) = (self.values.as_slice(), other.values.as_slice()) {
            // One clustering column, the common case, without the loop.
            return match a.cmp(b) {
                Ordering::Equal => rank(self.bound).cmp(&rank(other.bound)),
                order if self.descending & 1 != 0 => order.reverse(),
                order => order,
            };
        }
        for (i, (a, b)) in self.values.iter().zip(other.values.iter()).enumerate() {
            let order = a.cmp(b);
            if order != Ordering::Equal {
                let desc = i < 32 && self.descending & (1 << i) != 0;
                return if desc { order.reverse() } else { order };
            }
        }
        // One is a prefix of the other (or they are equal): a shorter key
        // sits below every key it prefixes unless it is an `After` bound.
        match self.values.len().cmp(&other.values.len()) {
            Ordering::Equal => rank(self.bound).cmp(&rank(other.bound)),
            Ordering::Less if self.bound == Bound::After => Ordering::Greater,
            Ordering::Less => Ordering::Less,
            Ordering::Greater if other.bound == Bound::After => Ordering::Less,
            Ordering::Greater => Ordering::Greater,
        }
    }
}

impl ClusteringKey {
    /// The clustering values, taken out.
    pub fn into_values(self) -> KeyValues {
        self.values
    }

    /// Where a stored key (always [`Bound::Exact`]) with `len` values sits
    /// relative to this key, once their first `len.min(self.len)` values
    /// compare equal.
    fn place_of_prefix_equal(&self, len: usize) -> Ordering {
        match len.cmp(&self.values.len()) {
            Ordering::Equal => rank(Bound::Exact).cmp(&rank(self.bound)),
            Ordering::Less => Ordering::Less,
            Ordering::Greater if self.bound == Bound::After => Ordering::Less,
            Ordering::Greater => Ordering::Greater,
        }
    }

    /// The first value as a number, when the key has exactly one value of
    /// an integer-like type (the kinds [`Compact::as_integer`] reads).
    pub(super) fn single_integer(&self) -> Option<i64> {
        Some(match self.values.as_slice() {
            [Value::Int(v)] => i64::from(*v),
            [Value::Bigint(v) | Value::Timestamp(v) | Value::Time(v)] => *v,
            [Value::Date(v)] => i64::from(*v),
            [Value::Smallint(v)] => i64::from(*v),
            [Value::Tinyint(v)] => i64::from(*v),
            _ => return None,
        })
    }

    fn directed(&self, i: usize, order: Ordering) -> Ordering {
        if i < 32 && self.descending & (1 << i) != 0 {
            order.reverse()
        } else {
            order
        }
    }
}

/// A stored row's clustering values, kept compact: one value in 16 bytes
/// (the common single-column key), several behind one pointer. Stored keys
/// carry no direction or bound: every stored key is exact, and the
/// direction comes from the key it is compared with ([`StoredKey::cmp_to`]).
#[derive(Clone)]
pub struct StoredKey(KeyRepr);

#[derive(Clone)]
enum KeyRepr {
    One(Compact),
    /// Boxed twice so that the pointer is thin and the key stays 16 bytes.
    Many(Box<Box<[Compact]>>),
}

impl StoredKey {
    /// The stored form of `key`'s values.
    pub fn new(key: ClusteringKey) -> StoredKey {
        let mut values = key.into_values();
        if values.len() == 1 {
            if let Some(value) = values.pop() {
                return StoredKey(KeyRepr::One(Compact::new(value)));
            }
        }
        StoredKey(KeyRepr::Many(Box::new(
            values.into_iter().map(Compact::new).collect(),
        )))
    }

    /// The clustering values as stored, in clustering order.
    pub fn parts(&self) -> &[Compact] {
        match &self.0 {
            KeyRepr::One(value) => std::slice::from_ref(value),
            KeyRepr::Many(values) => values,
        }
    }

    /// How many clustering values it holds.
    pub fn len(&self) -> usize {
        self.parts().len()
    }

    /// Whether it holds none (a table without clustering columns).
    pub fn is_empty(&self) -> bool {
        self.parts().is_empty()
    }

    /// Clustering value `i`.
    pub fn value(&self, i: usize) -> Option<Cow<'_, Value>> {
        self.parts().get(i).map(Compact::value)
    }

    /// The clustering values, copied out.
    pub fn values(&self) -> KeyValues {
        self.parts()
            .iter()
            .map(|c| c.value().into_owned())
            .collect()
    }

    /// The key as a [`ClusteringKey`] of a table with direction bits
    /// `descending`.
    pub fn to_key(&self, descending: u32) -> ClusteringKey {
        ClusteringKey::exact(self.values(), descending)
    }

    /// The key as a number, when it is one integer-like value (see
    /// [`Compact::as_integer`]).
    #[inline]
    pub(super) fn as_integer(&self) -> Option<i64> {
        match &self.0 {
            KeyRepr::One(value) => value.as_integer(),
            KeyRepr::Many(_) => None,
        }
    }

    /// Where this key sits relative to `key`, in `key`'s clustering order:
    /// what [`ClusteringKey::cmp`] gives for this key made exact with
    /// `key`'s directions.
    #[inline]
    pub fn cmp_to(&self, key: &ClusteringKey) -> Ordering {
        if let (KeyRepr::One(a), [b]) = (&self.0, key.values.as_slice()) {
            // One clustering column, the common case, without the loop.
            return match a.cmp_value(b) {
                Ordering::Equal => key.place_of_prefix_equal(1),
                order => key.directed(0, order),
            };
        }
        let parts = self.parts();
        for (i, (a, b)) in parts.iter().zip(key.values.iter()).enumerate() {
            let order = a.cmp_value(b);
            if order != Ordering::Equal {
                return key.directed(i, order);
            }
        }
        key.place_of_prefix_equal(parts.len())
    }
}

/// Keys are equal when their values are.
impl PartialEq for StoredKey {
    fn eq(&self, other: &StoredKey) -> bool {
        self.values() == other.values()
    }
}

impl fmt::Debug for StoredKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.parts().iter().map(Compact::value))
            .finish()
    }
}

/// Where a bound sits among the keys equal to its values.
fn rank(bound: Bound) -> u8 {
    match bound {
        Bound::Before => 0,
        Bound::Exact => 1,
        Bound::After => 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(values: &[i32], desc: u32) -> ClusteringKey {
        ClusteringKey::exact(
            values.iter().map(|v| Value::Int(*v)).collect::<Vec<_>>(),
            desc,
        )
    }

    #[test]
    fn one_column_keys_order_by_value_direction_and_bound() {
        for desc in [0, 1] {
            let at = |v: i32, bound| ClusteringKey::bound(vec![Value::Int(v)], desc, bound);
            let mut keys = [
                at(2, Bound::After),
                at(1, Bound::Exact),
                at(2, Bound::Before),
                at(1, Bound::After),
                at(2, Bound::Exact),
                at(1, Bound::Before),
            ];
            keys.sort();
            let order: Vec<(i32, Bound)> = keys
                .iter()
                .map(|k| match k.values() {
                    [Value::Int(v)] => (*v, k.bound),
                    _ => (0, k.bound),
                })
                .collect();
            let (first, second) = if desc == 0 { (1, 2) } else { (2, 1) };
            assert_eq!(
                order,
                [
                    (first, Bound::Before),
                    (first, Bound::Exact),
                    (first, Bound::After),
                    (second, Bound::Before),
                    (second, Bound::Exact),
                    (second, Bound::After),
                ]
            );
        }
    }

    #[test]
    fn descending_columns_reverse_their_component_only() {
        assert!(key(&[1, 5], 0b10) < key(&[1, 3], 0b10));
        assert!(key(&[1, 5], 0b10) < key(&[2, 9], 0b10));
        assert!(key(&[2, 0], 0b01) < key(&[1, 0], 0b01));
    }

    #[test]
    fn prefix_bounds_enclose_every_key_with_the_prefix() {
        let before = ClusteringKey::bound(vec![Value::Int(1)], 0, Bound::Before);
        let after = ClusteringKey::bound(vec![Value::Int(1)], 0, Bound::After);
        for k in [
            key(&[1, i32::MIN], 0),
            key(&[1, 0], 0),
            key(&[1, i32::MAX], 0),
        ] {
            assert!(before < k && k < after);
        }
        assert!(after < key(&[2, i32::MIN], 0));
        assert!(key(&[0, i32::MAX], 0) < before);
        let inner = ClusteringKey::bound(vec![Value::Int(1), Value::Int(5)], 0, Bound::After);
        assert!(inner < after && before < inner);
    }

    #[test]
    fn a_stored_key_sits_where_its_clustering_key_does() {
        let values = [i32::MIN, -1, 0, 1, 5, i32::MAX];
        let mut keys = Vec::new();
        for &a in &values {
            keys.push(vec![a]);
            for &b in &values {
                keys.push(vec![a, b]);
            }
        }
        for desc in [0, 0b01, 0b10, 0b11] {
            let probes: Vec<ClusteringKey> = keys
                .iter()
                .flat_map(|k| {
                    let values: Vec<Value> = k.iter().map(|v| Value::Int(*v)).collect();
                    [Bound::Before, Bound::Exact, Bound::After]
                        .map(|b| ClusteringKey::bound(values.clone(), desc, b))
                })
                .collect();
            for stored in keys.iter().map(|k| key(k, desc)) {
                let compact = StoredKey::new(stored.clone());
                assert_eq!(compact.to_key(desc), stored);
                for probe in &probes {
                    assert_eq!(
                        compact.cmp_to(probe),
                        stored.cmp(probe),
                        "{stored:?} {probe:?}"
                    );
                }
            }
        }
        assert_eq!(std::mem::size_of::<StoredKey>(), 16);
    }

    #[test]
    fn a_one_column_key_is_one_value_and_its_bound() {
        // smallvec's `union` layout: the inline value shares the spilled
        // pointer's room instead of sitting behind its own tag.
        assert_eq!(std::mem::size_of::<ClusteringKey>(), 48);
    }
}
