//! A value's serialized bytes, through the per-type serializers of [`super::serialize`]:
//! what a partition key is hashed from, and what identifies a partition (two decimals
//! `1.0` and `1.00` are equal values but different keys).

use crate::error::Error;

use super::serialize::{
    serialize_bigint, serialize_boolean, serialize_collection, serialize_double, serialize_float,
    serialize_inet_addr, serialize_int, serialize_map, serialize_smallint, serialize_time,
    serialize_timestamp, serialize_tinyint, serialize_tuple,
};
use super::value::{CqlDuration, Value};

impl Value {
    /// Appends [`Value::serialize`]'s bytes to `out`: a partition key is
    /// composed in one buffer, without one of its own for each scalar part.
    pub fn serialize_into(&self, out: &mut Vec<u8>) -> Result<(), Error> {
        match self {
            Value::Ascii(s) | Value::Text(s) => out.extend_from_slice(s.as_bytes()),
            Value::Int(v) => out.extend_from_slice(&v.to_be_bytes()),
            Value::Bigint(v) | Value::Counter(v) | Value::Timestamp(v) => {
                out.extend_from_slice(&v.to_be_bytes())
            }
            Value::Date(raw) => out.extend_from_slice(&raw.to_be_bytes()),
            Value::Uuid(u) | Value::Timeuuid(u) => out.extend_from_slice(u),
            Value::Blob(b) => out.extend_from_slice(b),
            _ => out.extend(self.serialize()?),
        }
        Ok(())
    }

    /// The length of [`Value::serialize_into`]'s bytes where it is known
    /// without serializing: a key of such parts is composed in a buffer of
    /// its exact size, which boxing it as a partition's key then keeps
    /// instead of reallocating.
    fn known_serialized_len(&self) -> Option<usize> {
        Some(match self {
            Value::Ascii(s) | Value::Text(s) => s.len(),
            Value::Int(_) | Value::Date(_) => 4,
            Value::Bigint(_) | Value::Counter(_) | Value::Timestamp(_) => 8,
            Value::Uuid(_) | Value::Timeuuid(_) => 16,
            Value::Blob(b) => b.len(),
            _ => return None,
        })
    }

    /// The bytes of a partition key made of `parts`, as
    /// [`crate::cluster::murmur3::compose_partition_key`] lays them out — one
    /// part as it is, several each framed by a two-byte length and a zero —
    /// composed in one buffer. The length is not checked: a part too long
    /// for its two-byte length makes the whole key too long, which
    /// [`crate::cluster::murmur3::check_key_len`] refuses.
    pub fn compose_key<V: std::borrow::Borrow<Value>>(parts: &[V]) -> Result<Vec<u8>, Error> {
        let mut out = Vec::new();
        Value::compose_key_into(parts, &mut out)?;
        Ok(out)
    }

    /// [`Value::compose_key`] appended to `out`, which a caller composing
    /// one key after another keeps (room for the key is reserved at once).
    pub fn compose_key_into<V: std::borrow::Borrow<Value>>(
        parts: &[V],
        out: &mut Vec<u8>,
    ) -> Result<(), Error> {
        let framing = if parts.len() == 1 { 0 } else { 3 };
        let exact: Option<usize> = parts
            .iter()
            .map(|part| Some(part.borrow().known_serialized_len()? + framing))
            .sum();
        out.reserve(exact.unwrap_or(24 * parts.len()));
        if let [only] = parts {
            return only.borrow().serialize_into(out);
        }
        for part in parts {
            let at = out.len();
            out.extend_from_slice(&[0, 0]);
            part.borrow().serialize_into(out)?;
            let len = (out.len() - at - 2).min(usize::from(u16::MAX)) as u16;
            out[at..at + 2].copy_from_slice(&len.to_be_bytes());
            out.push(0x00);
        }
        Ok(())
    }

    /// Cassandra's serialized form of the value: the bytes a token is computed from.
    ///
    /// `Empty` is zero bytes. Sets and maps are written in their (sorted) order, tuples and
    /// UDTs with `-1` lengths for null components. Fails for `Null`, which has no bytes
    /// (callers refuse a null key before hashing), and for collections too large for the
    /// format's 4-byte lengths.
    pub fn serialize(&self) -> Result<Vec<u8>, Error> {
        Ok(match self {
            Value::Null => return Err(Error::invalid("A null value has no serialized form")),
            Value::Empty => Vec::new(),
            Value::Ascii(s) | Value::Text(s) => s.as_bytes().to_vec(),
            Value::Tinyint(v) => serialize_tinyint(*v),
            Value::Smallint(v) => serialize_smallint(*v),
            Value::Int(v) => serialize_int(*v),
            Value::Bigint(v) | Value::Counter(v) => serialize_bigint(*v),
            Value::Varint(v) => v.to_signed_bytes_be(),
            Value::Decimal(d) => {
                let mut out = d.scale.to_be_bytes().to_vec();
                out.extend(d.unscaled.to_signed_bytes_be());
                out
            }
            Value::Float(v) => serialize_float(*v),
            Value::Double(v) => serialize_double(*v),
            Value::Boolean(v) => serialize_boolean(*v),
            Value::Blob(b) => b.clone(),
            Value::Uuid(u) | Value::Timeuuid(u) => u.to_vec(),
            Value::Timestamp(v) => serialize_timestamp(*v),
            Value::Date(raw) => raw.to_be_bytes().to_vec(),
            Value::Time(v) => serialize_time(*v),
            Value::Duration(d) => serialize_duration(d),
            Value::Inet(addr) => serialize_inet_addr(*addr),
            Value::List(items) | Value::Set(items) => {
                let bytes = items
                    .iter()
                    .map(Value::serialize)
                    .collect::<Result<Vec<_>, _>>()?;
                let slices: Vec<&[u8]> = bytes.iter().map(Vec::as_slice).collect();
                serialize_collection(&slices).map_err(|e| Error::invalid(e.message()))?
            }
            Value::Map(entries) => {
                let bytes = entries
                    .iter()
                    .map(|(k, v)| Ok((k.serialize()?, v.serialize()?)))
                    .collect::<Result<Vec<_>, Error>>()?;
                let pairs: Vec<(&[u8], &[u8])> = bytes
                    .iter()
                    .map(|(k, v)| (k.as_slice(), v.as_slice()))
                    .collect();
                serialize_map(&pairs).map_err(|e| Error::invalid(e.message()))?
            }
            Value::Tuple(fields) | Value::Udt(fields) => {
                let bytes = fields
                    .iter()
                    .map(|f| f.as_ref().map(Value::serialize).transpose())
                    .collect::<Result<Vec<_>, _>>()?;
                let slices: Vec<Option<&[u8]>> = bytes.iter().map(|b| b.as_deref()).collect();
                serialize_tuple(&slices).map_err(|e| Error::invalid(e.message()))?
            }
            Value::Vector(items) => serialize_vector(items)?,
        })
    }
}

/// `duration`: months, days and nanoseconds as three zig-zag encoded vints.
fn serialize_duration(d: &CqlDuration) -> Vec<u8> {
    let mut out = Vec::with_capacity(12);
    for n in [i64::from(d.months), i64::from(d.days), d.nanos] {
        write_unsigned_vint(((n << 1) ^ (n >> 63)) as u64, &mut out);
    }
    out
}

/// Cassandra's unsigned vint: the number of extra bytes as leading one bits of the first
/// byte, then the value big-endian (`VIntCoding.writeUnsignedVInt`).
fn write_unsigned_vint(value: u64, out: &mut Vec<u8>) {
    let magnitude = (value | 1).leading_zeros() as usize;
    let size = (639 - magnitude * 9) >> 6; // 1..=9 bytes
    if size == 1 {
        out.push(value as u8);
        return;
    }
    let extra = size - 1;
    let bytes = value.to_be_bytes();
    let mut encoded = if size == 9 {
        vec![0u8]
    } else {
        bytes[8 - size..].to_vec()
    };
    if size == 9 {
        encoded.extend_from_slice(&bytes);
    }
    encoded[0] |= if extra >= 8 { 0xff } else { !(0xffu8 >> extra) };
    out.extend(encoded);
}

/// `vector<T, n>`: elements of a fixed-width type back to back; others each preceded by
/// its length as an unsigned vint.
fn serialize_vector(items: &[Value]) -> Result<Vec<u8>, Error> {
    let mut out = Vec::new();
    for item in items {
        let bytes = item.serialize()?;
        let fixed = matches!(
            item,
            Value::Int(_)
                | Value::Bigint(_)
                | Value::Float(_)
                | Value::Double(_)
                | Value::Boolean(_)
                | Value::Uuid(_)
                | Value::Timeuuid(_)
                | Value::Timestamp(_)
                | Value::Date(_)
                | Value::Time(_)
                | Value::Tinyint(_)
                | Value::Smallint(_)
        );
        if !fixed {
            write_unsigned_vint(bytes.len() as u64, &mut out);
        }
        out.extend(bytes);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::serialize::{serialize_decimal, serialize_varint};

    fn hex(bytes: &[u8]) -> String {
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }

    #[test]
    fn a_key_of_known_lengths_is_composed_at_its_exact_size() {
        let parts = [
            Value::Text("sensor-1".into()),
            Value::Ascii(String::new()),
            Value::Int(-3),
            Value::Date(7),
            Value::Bigint(1),
            Value::Counter(2),
            Value::Timestamp(3),
            Value::Uuid([1; 16]),
            Value::Timeuuid([2; 16]),
            Value::Blob(vec![4, 5]),
        ];
        for part in &parts {
            let len = part.serialize().expect("bytes").len();
            assert_eq!(part.known_serialized_len(), Some(len), "{part:?}");
        }
        for key in [&parts[..1], &parts[2..4], &parts[..]] {
            let composed = Value::compose_key(key).expect("key");
            assert_eq!(composed.capacity(), composed.len(), "{key:?}");
        }
        assert_eq!(Value::Double(1.0).known_serialized_len(), None);
    }

    #[test]
    fn numbers_match_the_text_serializers() {
        for text in [
            "0",
            "127",
            "128",
            "-1",
            "-129",
            "18446744073709551616",
            "-18446744073709551616",
        ] {
            let v = Value::varint(crate::types::number::parse_varint(text).expect("valid"));
            assert_eq!(
                v.serialize().expect("bytes"),
                serialize_varint(text).expect("valid"),
                "{text}"
            );
        }
        for text in ["1.5", "-3.14", "1.5E+3", "0", "-0.00"] {
            let d = crate::types::number::parse_decimal(text).expect("valid");
            let v = Value::Decimal(Box::new(d));
            assert_eq!(
                v.serialize().expect("bytes"),
                serialize_decimal(text).expect("valid"),
                "{text}"
            );
        }
    }

    #[test]
    fn composite_values() {
        let set = Value::set_from(vec![Value::Int(2), Value::Int(-1)]);
        assert_eq!(
            hex(&set.serialize().expect("bytes")),
            "0000000200000004ffffffff0000000400000002"
        );
        let tuple = Value::Tuple(vec![
            Some(Value::Int(1)),
            None,
            Some(Value::Text(String::new())),
        ]);
        assert_eq!(
            hex(&tuple.serialize().expect("bytes")),
            "0000000400000001ffffffff00000000"
        );
        assert_eq!(
            hex(&Value::date_from_days(0).serialize().expect("bytes")),
            "80000000"
        );
        assert!(Value::Null.serialize().is_err());
        assert_eq!(Value::Empty.serialize().expect("bytes"), Vec::<u8>::new());
    }

    #[test]
    fn durations_are_zigzag_vints() {
        let d = |months, days, nanos| {
            hex(&serialize_duration(&CqlDuration {
                months,
                days,
                nanos,
            }))
        };
        assert_eq!(d(1, 2, 3), "020406");
        assert_eq!(d(-1, 0, 0), "010000");
        // 64 needs two bytes: zig-zag 128 = 0b1000_0000 → 0x80 0x80.
        assert_eq!(d(64, 0, 0), "80800000");
        assert_eq!(d(0, 0, i64::MIN), "0000ffffffffffffffffff");
    }
}
