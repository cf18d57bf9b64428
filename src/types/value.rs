//! [`Value`]: one CQL value of any type, as the interpreter stores and compares it.
//!
//! A value is held in a decoded, typed form rather than as Cassandra's serialized bytes:
//! comparing, formatting and aggregating then need no decoding, and the bytes (for tokens)
//! are one call away ([`Value::serialize`]). Each variant names its CQL type, so two values
//! can be ordered without consulting the schema (see `order.rs`).
//!
//! Size matters because every cell of every row is a `Value`: the enum is kept at 32 bytes
//! (a `String`/`Vec` plus the tag). The two arbitrary-precision numbers, rare in practice and
//! large inline, are boxed.

use std::net::IpAddr;

use num_bigint::BigInt;

/// A CQL value.
///
/// Invariants that the constructors in this module ([`crate::types::coerce`] and friends)
/// uphold, and that ordering and serialization rely on:
///
/// * `Set` elements are sorted by [`Ord`] and unique; `Map` entries are sorted by key with
///   unique keys. (`Ord` is Cassandra's comparator, see `order.rs`.)
/// * `Inet` never holds an IPv4-mapped IPv6 address: Cassandra stores those as 4 bytes, so
///   they are kept as [`IpAddr::V4`].
/// * `Tuple` may be shorter than its type (a literal may omit trailing components, and the
///   serialized value then has fewer fields); `Udt` always has one slot per field of its
///   type, in declaration order.
#[derive(Debug)]
pub enum Value {
    /// No value. Only meaningful at the top level of a cell or as a bind result; inside
    /// tuples and UDTs a missing component is `None` instead.
    Null,
    /// A zero-length value of a type whose values are otherwise never empty (an `int`
    /// written as `blobAsInt(0x)`, a `timestamp` written as `''`). Cassandra keeps such values
    /// distinct from null, sorts them before every other value, and cqlsh shows them as an
    /// empty cell. Empty `text`, `ascii` and `blob` values are plain `Text("")` etc.
    Empty,
    /// `ascii`: only code points 0–127.
    Ascii(String),
    /// `text` / `varchar`.
    Text(String),
    /// `tinyint`
    Tinyint(i8),
    /// `smallint`
    Smallint(i16),
    /// `int`
    Int(i32),
    /// `bigint`
    Bigint(i64),
    /// `counter`: a 64-bit count, changed only by increments.
    Counter(i64),
    /// `varint`: an integer of any size.
    Varint(Box<BigInt>),
    /// `decimal`: `unscaled × 10^-scale`, with the scale kept as written (`1.50` ≠ `1.5`
    /// in bytes, equal as numbers).
    Decimal(Box<Decimal>),
    /// `float`
    Float(f32),
    /// `double`
    Double(f64),
    /// `boolean`
    Boolean(bool),
    /// `blob`
    Blob(Vec<u8>),
    /// `uuid`: the 16 bytes in written order.
    Uuid([u8; 16]),
    /// `timeuuid`: a version-1 UUID (distinct from [`Value::Uuid`] because the two types
    /// order differently).
    Timeuuid([u8; 16]),
    /// `timestamp`: milliseconds since 1970-01-01T00:00Z.
    Timestamp(i64),
    /// `date`: Cassandra's raw unsigned day number, where 2³¹ is 1970-01-01. Stored raw
    /// because that is both the serialized form and, as an unsigned number, the order.
    Date(u32),
    /// `time`: nanoseconds since midnight, `0..86_400_000_000_000`.
    Time(i64),
    /// `duration`
    Duration(CqlDuration),
    /// `inet`
    Inet(IpAddr),
    /// `list<T>`, frozen or not, in list order.
    List(Vec<Value>),
    /// `set<T>`: sorted and deduplicated.
    Set(Vec<Value>),
    /// `map<K, V>`: sorted by key, keys unique.
    Map(Vec<(Value, Value)>),
    /// `tuple<…>`: `None` is a null component.
    Tuple(Vec<Option<Value>>),
    /// A user-defined type's value, field by field in the type's declaration order (the
    /// names live in the [`crate::types::DataType`], not in every value).
    Udt(Vec<Option<Value>>),
    /// `vector<T, n>`
    Vector(Vec<Value>),
}

impl Clone for Value {
    /// Copies the fixed-size values every result row is made of in line,
    /// where the caller is; everything else takes [`Value::clone_any`].
    #[inline]
    fn clone(&self) -> Value {
        match self {
            Value::Null => Value::Null,
            Value::Int(v) => Value::Int(*v),
            Value::Bigint(v) => Value::Bigint(*v),
            Value::Double(v) => Value::Double(*v),
            Value::Timestamp(v) => Value::Timestamp(*v),
            Value::Date(v) => Value::Date(*v),
            _ => self.clone_any(),
        }
    }
}

impl Value {
    #[inline(never)]
    fn clone_any(&self) -> Value {
        match self {
            Value::Null => Value::Null,
            Value::Empty => Value::Empty,
            Value::Ascii(v) => Value::Ascii(v.clone()),
            Value::Text(v) => Value::Text(v.clone()),
            Value::Tinyint(v) => Value::Tinyint(*v),
            Value::Smallint(v) => Value::Smallint(*v),
            Value::Int(v) => Value::Int(*v),
            Value::Bigint(v) => Value::Bigint(*v),
            Value::Counter(v) => Value::Counter(*v),
            Value::Varint(v) => Value::Varint(v.clone()),
            Value::Decimal(v) => Value::Decimal(v.clone()),
            Value::Float(v) => Value::Float(*v),
            Value::Double(v) => Value::Double(*v),
            Value::Boolean(v) => Value::Boolean(*v),
            Value::Blob(v) => Value::Blob(v.clone()),
            Value::Uuid(v) => Value::Uuid(*v),
            Value::Timeuuid(v) => Value::Timeuuid(*v),
            Value::Timestamp(v) => Value::Timestamp(*v),
            Value::Date(v) => Value::Date(*v),
            Value::Time(v) => Value::Time(*v),
            Value::Duration(v) => Value::Duration(*v),
            Value::Inet(v) => Value::Inet(*v),
            Value::List(v) => Value::List(v.clone()),
            Value::Set(v) => Value::Set(v.clone()),
            Value::Map(v) => Value::Map(v.clone()),
            Value::Tuple(v) => Value::Tuple(v.clone()),
            Value::Udt(v) => Value::Udt(v.clone()),
            Value::Vector(v) => Value::Vector(v.clone()),
        }
    }
}

/// A `duration`: months, days and nanoseconds, kept apart because a month has no fixed
/// number of days and a day no fixed number of nanoseconds (daylight saving). All three
/// have the same sign.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CqlDuration {
    /// Whole months.
    pub months: i32,
    /// Whole days.
    pub days: i32,
    /// Nanoseconds.
    pub nanos: i64,
}

/// A `decimal`: the number `unscaled × 10^-scale`, as Java's `BigDecimal` holds it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Decimal {
    /// The digits as an integer.
    pub unscaled: BigInt,
    /// How many of those digits are after the decimal point (negative: trailing zeros
    /// implied before it).
    pub scale: i32,
}

impl Value {
    /// Whether the value owns no heap memory, so that dropping it does
    /// nothing: what lets a result's rows be freed without calling the
    /// enum's drop for every value.
    #[inline]
    pub fn owns_nothing(&self) -> bool {
        // Listed by what owns nothing, so that a variant added later is
        // dropped properly until it is listed here.
        matches!(
            self,
            Value::Null
                | Value::Empty
                | Value::Tinyint(_)
                | Value::Smallint(_)
                | Value::Int(_)
                | Value::Bigint(_)
                | Value::Counter(_)
                | Value::Float(_)
                | Value::Double(_)
                | Value::Boolean(_)
                | Value::Uuid(_)
                | Value::Timeuuid(_)
                | Value::Timestamp(_)
                | Value::Date(_)
                | Value::Time(_)
                | Value::Duration(_)
                | Value::Inet(_)
        )
    }

    /// Whether this is [`Value::Null`].
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// A `varint` value.
    pub fn varint(value: impl Into<BigInt>) -> Value {
        Value::Varint(Box::new(value.into()))
    }

    /// A `decimal` value of `unscaled × 10^-scale`.
    pub fn decimal(unscaled: impl Into<BigInt>, scale: i32) -> Value {
        Value::Decimal(Box::new(Decimal {
            unscaled: unscaled.into(),
            scale,
        }))
    }

    /// A `date` value from signed days since 1970-01-01.
    pub fn date_from_days(days_since_epoch: i32) -> Value {
        Value::Date(raw_date(days_since_epoch))
    }

    /// A `set` value from elements in any order: sorts them and keeps the first of each
    /// group of equal elements (Cassandra builds sets in a `TreeSet`, which ignores a
    /// later equal element).
    pub fn set_from(mut elements: Vec<Value>) -> Value {
        elements.sort(); // stable: the first of equals stays first
        elements.dedup_by(|later, earlier| later == earlier);
        Value::Set(elements)
    }

    /// A `map` value from entries in any order: sorts them by key; for equal keys the
    /// first key is kept with the *last* value, as Java's `TreeMap.put` does.
    pub fn map_from(entries: Vec<(Value, Value)>) -> Value {
        let mut entries: Vec<(usize, (Value, Value))> = entries.into_iter().enumerate().collect();
        entries.sort_by(|(ia, (ka, _)), (ib, (kb, _))| ka.cmp(kb).then(ia.cmp(ib)));
        let mut out: Vec<(Value, Value)> = Vec::with_capacity(entries.len());
        for (_, (key, value)) in entries {
            match out.last_mut() {
                Some((last_key, last_value)) if *last_key == key => *last_value = value,
                _ => out.push((key, value)),
            }
        }
        Value::Map(out)
    }
}

/// Cassandra's raw `date` number for signed days since the epoch: adding 2³¹ modulo 2³²
/// is flipping the top bit.
pub(crate) fn raw_date(days_since_epoch: i32) -> u32 {
    (days_since_epoch as u32) ^ 0x8000_0000
}

/// Signed days since the epoch for a raw `date` number.
pub(crate) fn date_days(raw: u32) -> i32 {
    (raw ^ 0x8000_0000) as i32
}

impl Decimal {
    /// The same number with trailing zeros of the unscaled value removed (`1.50` → `1.5`,
    /// `0.000` → `0`): the canonical form equal decimals share, used for hashing.
    pub fn normalized(&self) -> Decimal {
        use num_traits::Zero;
        if self.unscaled.is_zero() {
            return Decimal {
                unscaled: BigInt::zero(),
                scale: 0,
            };
        }
        let ten = BigInt::from(10);
        let mut unscaled = self.unscaled.clone();
        let mut scale = i64::from(self.scale);
        loop {
            if !(&unscaled % &ten).is_zero() || scale <= i64::from(i32::MIN) {
                break;
            }
            unscaled /= &ten;
            scale -= 1;
        }
        Decimal {
            unscaled,
            scale: scale as i32,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn value_stays_compact() {
        assert_eq!(std::mem::size_of::<Value>(), 32);
        assert_eq!(std::mem::size_of::<Option<Value>>(), 32);
    }

    #[test]
    fn sets_and_maps_are_canonical() {
        let set = Value::set_from(vec![
            Value::Int(3),
            Value::Int(1),
            Value::Int(3),
            Value::Int(2),
        ]);
        assert!(matches!(&set, Value::Set(e) if e.len() == 3));
        let map = Value::map_from(vec![
            (Value::decimal(10, 1), Value::Int(1)),
            (Value::Int(0), Value::Int(0)),
            (Value::decimal(100, 2), Value::Int(2)),
        ]);
        let Value::Map(entries) = map else { panic!() };
        assert_eq!(entries.len(), 2);
        // The first key (1.0) is kept, with the last value.
        let Value::Decimal(key) = &entries[1].0 else {
            panic!()
        };
        assert_eq!(key.scale, 1);
        assert!(matches!(entries[1].1, Value::Int(2)));
    }

    #[test]
    fn dates_round_trip() {
        assert_eq!(raw_date(0), 0x8000_0000);
        assert_eq!(raw_date(-1), 0x7fff_ffff);
        assert_eq!(date_days(0), i32::MIN);
        assert_eq!(date_days(raw_date(12345)), 12345);
    }

    #[test]
    fn decimal_normalization() {
        let d = Decimal {
            unscaled: BigInt::from(1500),
            scale: 3,
        };
        assert_eq!(
            d.normalized(),
            Decimal {
                unscaled: BigInt::from(15),
                scale: 1
            }
        );
        let z = Decimal {
            unscaled: BigInt::from(0),
            scale: 7,
        };
        assert_eq!(z.normalized().scale, 0);
    }
}
