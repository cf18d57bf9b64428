//! The order of values: Cassandra's comparator for each type (`language.md` §3.3), which
//! decides clustering order, `ORDER BY`, slices, `min`/`max`, set order and map-key order.
//!
//! `Value` implements [`Ord`] directly rather than through a `cmp_as(&DataType)`: every
//! variant names its type (`Uuid` and `Timeuuid`, `Ascii` and `Text` are distinct
//! variants), so the schema adds nothing. `DESC` clustering is the caller's `.reverse()`.
//!
//! Equality is *comparator* equality, because that is what Cassandra uses wherever it
//! asks "same value?" of a clustering, a set element or a map key:
//!
//! * decimals compare numerically, so `1.0 == 1.00` (one clustering row, one set element)
//!   although their bytes differ;
//! * floats follow Java's `Float.compare`: every NaN equals every NaN, `-0.0 < 0.0`;
//! * a tuple or UDT with trailing null components equals the one without them.
//!
//! Partition keys are the exception: Cassandra identifies a partition by its key *bytes*
//! (so `1.0` and `1.00` are two partitions). Use [`Value::serialize`] for partition identity.
//!
//! Values of different variants (a type mismatch, which the schema should prevent) are
//! ordered by variant, with `Null` first and `Empty` next, so the order stays total.

use std::cmp::Ordering;
use std::hash::{Hash, Hasher};

use num_bigint::{BigInt, Sign};
use num_traits::Signed;

use super::value::{Decimal, Value};

impl Ord for Value {
    /// The types keys and filters compare most are compared here, inline;
    /// the rest in [`cmp_any`], whose size makes every call to it pay for
    /// saving and restoring registers.
    #[inline]
    fn cmp(&self, other: &Value) -> Ordering {
        use Value::*;
        crate::work::count_comparison();
        match (self, other) {
            (Int(a), Int(b)) => a.cmp(b),
            (Bigint(a), Bigint(b)) | (Timestamp(a), Timestamp(b)) => a.cmp(b),
            (Double(a), Double(b)) => java_f64(*a).total_cmp(&java_f64(*b)),
            (Text(a), Text(b)) => a.as_bytes().cmp(b.as_bytes()),
            _ => cmp_any(self, other),
        }
    }
}

/// [`Ord::cmp`] for every pair of values.
#[inline(never)]
fn cmp_any(this: &Value, other: &Value) -> Ordering {
    use Value::*;
    match (this, other) {
        (Ascii(a), Ascii(b)) | (Text(a), Text(b)) => a.as_bytes().cmp(b.as_bytes()),
        (Tinyint(a), Tinyint(b)) => a.cmp(b),
        (Smallint(a), Smallint(b)) => a.cmp(b),
        (Int(a), Int(b)) => a.cmp(b),
        (Bigint(a), Bigint(b)) | (Counter(a), Counter(b)) => a.cmp(b),
        (Timestamp(a), Timestamp(b)) | (Time(a), Time(b)) => a.cmp(b),
        (Varint(a), Varint(b)) => a.cmp(b),
        (Decimal(a), Decimal(b)) => cmp_decimal(a, b),
        (Float(a), Float(b)) => java_f32(*a).total_cmp(&java_f32(*b)),
        (Double(a), Double(b)) => java_f64(*a).total_cmp(&java_f64(*b)),
        (Boolean(a), Boolean(b)) => a.cmp(b),
        (Blob(a), Blob(b)) => a.cmp(b),
        (Uuid(a), Uuid(b)) => cmp_uuid(a, b),
        (Timeuuid(a), Timeuuid(b)) => cmp_timeuuid(a, b),
        (Date(a), Date(b)) => a.cmp(b),
        // Not orderable in CQL (no duration key); any consistent order serves equality.
        (Duration(a), Duration(b)) => (a.months, a.days, a.nanos).cmp(&(b.months, b.days, b.nanos)),
        // Unsigned bytes, then length: a v4 address that prefixes a v6 one sorts first.
        (Inet(a), Inet(b)) => octets(a).as_slice().cmp(octets(b).as_slice()),
        (List(a), List(b)) | (Set(a), Set(b)) | (Vector(a), Vector(b)) => a.cmp(b),
        (Map(a), Map(b)) => a.cmp(b),
        (Tuple(a), Tuple(b)) | (Udt(a), Udt(b)) => cmp_components(a, b),
        _ => rank(this).cmp(&rank(other)),
    }
}

impl PartialOrd for Value {
    fn partial_cmp(&self, other: &Value) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Value {
    fn eq(&self, other: &Value) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Value {}

/// Hashes what equality looks at: a decimal by its normalized form, a float NaN as the one
/// canonical NaN, a tuple without its trailing nulls.
impl Hash for Value {
    fn hash<H: Hasher>(&self, state: &mut H) {
        use Value::*;
        rank(self).hash(state);
        match self {
            Null | Empty => {}
            Ascii(s) | Text(s) => s.hash(state),
            Tinyint(v) => v.hash(state),
            Smallint(v) => v.hash(state),
            Int(v) => v.hash(state),
            Bigint(v) | Counter(v) | Timestamp(v) | Time(v) => v.hash(state),
            Varint(v) => v.hash(state),
            Decimal(d) => d.normalized().hash(state),
            Float(v) => java_f32(*v).to_bits().hash(state),
            Double(v) => java_f64(*v).to_bits().hash(state),
            Boolean(v) => v.hash(state),
            Blob(v) => v.hash(state),
            Uuid(v) | Timeuuid(v) => v.hash(state),
            Date(v) => v.hash(state),
            Duration(v) => v.hash(state),
            Inet(v) => octets(v).hash(state),
            List(v) | Set(v) | Vector(v) => v.hash(state),
            Map(v) => v.hash(state),
            Tuple(v) | Udt(v) => {
                let significant = v.iter().rposition(Option::is_some).map_or(0, |i| i + 1);
                v[..significant].hash(state);
            }
        }
    }
}

/// Orders variants against each other: `Null`, then `Empty` (Cassandra sorts empty values
/// before all others), then the types in a fixed arbitrary order.
fn rank(value: &Value) -> u8 {
    use Value::*;
    match value {
        Null => 0,
        Empty => 1,
        Ascii(_) => 2,
        Text(_) => 3,
        Tinyint(_) => 4,
        Smallint(_) => 5,
        Int(_) => 6,
        Bigint(_) => 7,
        Counter(_) => 8,
        Varint(_) => 9,
        Decimal(_) => 10,
        Float(_) => 11,
        Double(_) => 12,
        Boolean(_) => 13,
        Blob(_) => 14,
        Uuid(_) => 15,
        Timeuuid(_) => 16,
        Timestamp(_) => 17,
        Date(_) => 18,
        Time(_) => 19,
        Duration(_) => 20,
        Inet(_) => 21,
        List(_) => 22,
        Set(_) => 23,
        Map(_) => 24,
        Tuple(_) => 25,
        Udt(_) => 26,
        Vector(_) => 27,
    }
}

/// Java compares floats through `floatToIntBits`, which folds every NaN into one; after
/// that, IEEE total order is Java's order (−0.0 < 0.0, NaN above +∞).
fn java_f32(v: f32) -> f32 {
    if v.is_nan() {
        f32::NAN
    } else {
        v
    }
}

fn java_f64(v: f64) -> f64 {
    if v.is_nan() {
        f64::NAN
    } else {
        v
    }
}

pub(crate) fn octets(addr: &std::net::IpAddr) -> Vec<u8> {
    match addr {
        std::net::IpAddr::V4(v4) => v4.octets().to_vec(),
        std::net::IpAddr::V6(v6) => v6.octets().to_vec(),
    }
}

/// Tuples and UDTs (`TupleType.compareCustom`): component by component, a null component
/// before any value; when one side runs out, the rest of the other side decides only if
/// it holds a non-null component ("trailing nulls" equal missing components).
///
/// Cassandra also lets a trailing *empty* component equal a missing one, which breaks
/// transitivity (`(1, null) = (1) = (1, '')` but `(1, null) < (1, '')`); here only nulls
/// are ignored, keeping the order total.
fn cmp_components(a: &[Option<Value>], b: &[Option<Value>]) -> Ordering {
    for (x, y) in a.iter().zip(b) {
        let ordering = match (x, y) {
            (None, None) => Ordering::Equal,
            (None, Some(_)) => Ordering::Less,
            (Some(_), None) => Ordering::Greater,
            (Some(x), Some(y)) => x.cmp(y),
        };
        if ordering != Ordering::Equal {
            return ordering;
        }
    }
    let common = a.len().min(b.len());
    if a[common..].iter().any(Option::is_some) {
        Ordering::Greater
    } else if b[common..].iter().any(Option::is_some) {
        Ordering::Less
    } else {
        Ordering::Equal
    }
}

/// `decimal` by numeric value (`BigDecimal.compareTo`), without ever materialising
/// `10^scale` for a huge scale: first sign, then the position of the leading digit, and
/// only when those agree (so the scales differ by at most the digit counts) by aligning
/// the unscaled values.
pub(crate) fn cmp_decimal(a: &Decimal, b: &Decimal) -> Ordering {
    let sign_rank = |s: Sign| match s {
        Sign::Minus => 0,
        Sign::NoSign => 1,
        Sign::Plus => 2,
    };
    let (sa, sb) = (a.unscaled.sign(), b.unscaled.sign());
    if sa != sb {
        return sign_rank(sa).cmp(&sign_rank(sb));
    }
    let magnitude = match sa {
        Sign::NoSign => return Ordering::Equal,
        _ => cmp_magnitude(a, b),
    };
    if sa == Sign::Minus {
        magnitude.reverse()
    } else {
        magnitude
    }
}

fn cmp_magnitude(a: &Decimal, b: &Decimal) -> Ordering {
    let digits = |d: &Decimal| d.unscaled.magnitude().to_str_radix(10).len() as i64;
    // The leading digit's power of ten is digits - scale - 1; compare without the -1.
    let lead_a = digits(a) - i64::from(a.scale);
    let lead_b = digits(b) - i64::from(b.scale);
    if lead_a != lead_b {
        return lead_a.cmp(&lead_b);
    }
    let (ma, mb) = (a.unscaled.abs(), b.unscaled.abs());
    let shift = i64::from(a.scale) - i64::from(b.scale);
    let ten = BigInt::from(10);
    if shift >= 0 {
        ma.cmp(&(mb * ten.pow(shift as u32)))
    } else {
        (ma * ten.pow((-shift) as u32)).cmp(&mb)
    }
}

/// The 60-bit timestamp of a version-1 UUID: `time_hi` (the low 12 bits of bytes 6–7),
/// then `time_mid` (bytes 4–5), then `time_low` (bytes 0–3).
pub(crate) fn uuid_timestamp(u: &[u8; 16]) -> u64 {
    let time_low = u64::from(u32::from_be_bytes([u[0], u[1], u[2], u[3]]));
    let time_mid = u64::from(u16::from_be_bytes([u[4], u[5]]));
    let time_hi = u64::from(u16::from_be_bytes([u[6], u[7]]) & 0x0fff);
    (time_hi << 48) | (time_mid << 32) | time_low
}

/// `uuid`: version nibble first; two version-1 values by timestamp; then the bytes as
/// unsigned (for the same timestamp and version only the last 8 can still differ).
fn cmp_uuid(a: &[u8; 16], b: &[u8; 16]) -> Ordering {
    let (va, vb) = (a[6] >> 4, b[6] >> 4);
    va.cmp(&vb)
        .then_with(|| {
            if va == 1 {
                uuid_timestamp(a).cmp(&uuid_timestamp(b))
            } else {
                Ordering::Equal
            }
        })
        .then_with(|| a.cmp(b))
}

/// `timeuuid` (`TimeUUIDType.compareCustom`): the most significant long rearranged to
/// version + timestamp and compared signed, then the clock sequence and node bytes
/// compared as *signed* bytes — a quirk kept for compatibility, which is why
/// `max_timeuuid` ends in `7f7f…` and `min_timeuuid` in `8080…`.
fn cmp_timeuuid(a: &[u8; 16], b: &[u8; 16]) -> Ordering {
    let high = |u: &[u8; 16]| ((u64::from(u[6] >> 4) << 60) | uuid_timestamp(u)) as i64;
    high(a).cmp(&high(b)).then_with(|| {
        let signed = |u: &[u8; 16]| -> [i8; 8] { std::array::from_fn(|i| u[8 + i] as i8) };
        signed(a).cmp(&signed(b))
    })
}

#[cfg(test)]
#[path = "order_tests.rs"]
mod tests;
