//! `<type>_as_blob` / `<type>AsBlob` and `blob_as_<type>` / `blobAs<type>` (language.md
//! §4.5): a value to its serialized bytes, and bytes back to a value once they pass the
//! type's `validate` (Cassandra's functions only relabel the bytes; the check is what
//! `blobAsX` adds).

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use num_bigint::BigInt;

use crate::error::Error;
use crate::syntax::ast::NativeType;
use crate::types::{CqlDuration, Decimal, Value};

/// `x_as_blob(v)`: the serialized bytes (`0x` for an empty value).
pub(super) fn as_blob(value: &Value) -> Result<Value, Error> {
    Ok(Value::Blob(value.serialize()?))
}

/// `blob_as_<ty>(b)`: the bytes as a value of `ty`, or Cassandra's error naming the
/// function (`system.blobasbigint`) when the type's `validate` refuses them.
pub(super) fn blob_as(function: &str, ty: NativeType, value: &Value) -> Result<Value, Error> {
    let bytes: &[u8] = match value {
        Value::Blob(b) => b,
        Value::Empty => &[],
        _ => return Ok(Value::Null),
    };
    decode(ty, bytes).ok_or_else(|| {
        Error::invalid(format!(
            "In call to function {function}, value {} is not a valid binary representation \
             for type {}",
            crate::types::Value::Blob(bytes.to_vec())
                .cqlsh_display(&crate::types::DataType::Native(NativeType::Blob)),
            ty.name()
        ))
    })
}

/// The value of `ty` whose serialized form is `bytes`, if `ty`'s serializer accepts them.
///
/// Zero bytes are the empty value for the types whose `validate` allows it (int, bigint,
/// float, double, timestamp, uuid, timeuuid, boolean, inet, counter, decimal, varint) and
/// the empty string for text and ascii; `tinyint`, `smallint`, `date` and `time` demand
/// their exact width, as in Cassandra.
pub(crate) fn decode(ty: NativeType, bytes: &[u8]) -> Option<Value> {
    use NativeType as T;
    let empty_ok = matches!(
        ty,
        T::Int
            | T::Bigint
            | T::Float
            | T::Double
            | T::Timestamp
            | T::Uuid
            | T::Timeuuid
            | T::Boolean
            | T::Inet
            | T::Counter
            | T::Decimal
            | T::Varint
    );
    if bytes.is_empty() && empty_ok {
        return Some(Value::Empty);
    }
    let fixed = |n: usize| (bytes.len() == n).then_some(bytes);
    Some(match ty {
        T::Ascii => Value::Ascii(
            std::str::from_utf8(bytes)
                .ok()
                .filter(|s| s.is_ascii())?
                .to_string(),
        ),
        T::Text | T::Varchar => Value::Text(std::str::from_utf8(bytes).ok()?.to_string()),
        T::Blob => Value::Blob(bytes.to_vec()),
        T::Tinyint => Value::Tinyint(fixed(1)?[0] as i8),
        T::Smallint => Value::Smallint(i16::from_be_bytes(fixed(2)?.try_into().ok()?)),
        T::Int => Value::Int(i32::from_be_bytes(fixed(4)?.try_into().ok()?)),
        T::Bigint => Value::Bigint(i64::from_be_bytes(fixed(8)?.try_into().ok()?)),
        T::Counter => Value::Counter(i64::from_be_bytes(fixed(8)?.try_into().ok()?)),
        T::Float => Value::Float(f32::from_be_bytes(fixed(4)?.try_into().ok()?)),
        T::Double => Value::Double(f64::from_be_bytes(fixed(8)?.try_into().ok()?)),
        T::Timestamp => Value::Timestamp(i64::from_be_bytes(fixed(8)?.try_into().ok()?)),
        T::Date => Value::Date(u32::from_be_bytes(fixed(4)?.try_into().ok()?)),
        T::Time => Value::Time(i64::from_be_bytes(fixed(8)?.try_into().ok()?)),
        T::Boolean => match bytes {
            [b] => Value::Boolean(*b != 0),
            _ => return None,
        },
        T::Uuid => Value::Uuid(fixed(16)?.try_into().ok()?),
        T::Timeuuid => {
            let u: [u8; 16] = fixed(16)?.try_into().ok()?;
            if u[6] >> 4 != 1 {
                return None;
            }
            Value::Timeuuid(u)
        }
        T::Varint => Value::varint(BigInt::from_signed_bytes_be(bytes)),
        T::Decimal => {
            if bytes.len() < 4 {
                return None;
            }
            let (scale, unscaled) = bytes.split_at(4);
            Value::Decimal(Box::new(Decimal {
                unscaled: BigInt::from_signed_bytes_be(unscaled),
                scale: i32::from_be_bytes(scale.try_into().ok()?),
            }))
        }
        T::Inet => match bytes.len() {
            4 => Value::Inet(IpAddr::V4(Ipv4Addr::from(<[u8; 4]>::try_from(bytes).ok()?))),
            16 => {
                // Java's InetAddress.getByAddress turns an IPv4-mapped address into an
                // Inet4Address; the interpreter stores it that way too.
                let v6 = Ipv6Addr::from(<[u8; 16]>::try_from(bytes).ok()?);
                Value::Inet(match v6.to_ipv4_mapped() {
                    Some(v4) => IpAddr::V4(v4),
                    None => IpAddr::V6(v6),
                })
            }
            _ => return None,
        },
        T::Duration => Value::Duration(decode_duration(bytes)?),
    })
}

/// `DurationSerializer.validate` + `deserialize`: three zig-zag vints, nothing after
/// them, months and days within `int`, all three of the same sign.
fn decode_duration(bytes: &[u8]) -> Option<CqlDuration> {
    if bytes.len() < 3 {
        return None;
    }
    let mut rest = bytes;
    let mut next = || -> Option<i64> {
        let (raw, used) = read_unsigned_vint(rest)?;
        rest = &rest[used..];
        Some(((raw >> 1) as i64) ^ -((raw & 1) as i64))
    };
    let (months, days, nanos) = (next()?, next()?, next()?);
    if !rest.is_empty() {
        return None;
    }
    let months = i32::try_from(months).ok()?;
    let days = i32::try_from(days).ok()?;
    let same_sign =
        (months >= 0 && days >= 0 && nanos >= 0) || (months <= 0 && days <= 0 && nanos <= 0);
    same_sign.then_some(CqlDuration {
        months,
        days,
        nanos,
    })
}

/// Cassandra's unsigned vint: as many extra bytes as leading one bits in the first byte.
fn read_unsigned_vint(bytes: &[u8]) -> Option<(u64, usize)> {
    let first = *bytes.first()?;
    let extra = first.leading_ones() as usize;
    if bytes.len() < 1 + extra {
        return None;
    }
    let mut value = if extra >= 8 {
        0
    } else {
        u64::from(first & (0xff >> extra))
    };
    for b in &bytes[1..=extra] {
        value = (value << 8) | u64::from(*b);
    }
    Some((value, 1 + extra))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::ast::NativeType as T;

    fn hex(v: &Value) -> String {
        v.serialize()
            .expect("bytes")
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }

    #[test]
    fn reference_examples() {
        // language.md §4.5.
        let blob = as_blob(&Value::Bigint(3)).expect("bytes");
        assert_eq!(hex(&blob), "0000000000000003");
        assert_eq!(
            hex(&as_blob(&Value::Text("a".into())).expect("bytes")),
            "61"
        );
        assert_eq!(hex(&as_blob(&Value::Int(1)).expect("bytes")), "00000001");
        let back = blob_as("system.blobasbigint", T::Bigint, &blob).expect("valid");
        assert!(matches!(back, Value::Bigint(3)));
        assert_eq!(hex(&as_blob(&Value::Empty).expect("bytes")), "");
    }

    #[test]
    fn wrong_length_is_refused_with_cassandras_message() {
        let err = blob_as(
            "system.blobasbigint",
            T::Bigint,
            &Value::Blob(vec![0, 0, 0, 0x7b]),
        )
        .unwrap_err();
        assert_eq!(
            err.message(),
            "In call to function system.blobasbigint, value 0x0000007b is not a valid \
             binary representation for type bigint"
        );
    }

    #[test]
    fn every_native_type_round_trips() {
        use std::str::FromStr;
        let values = [
            (T::Ascii, Value::Ascii("abc".into())),
            (T::Text, Value::Text("héllo".into())),
            (T::Tinyint, Value::Tinyint(-5)),
            (T::Smallint, Value::Smallint(-300)),
            (T::Int, Value::Int(i32::MIN)),
            (T::Bigint, Value::Bigint(i64::MAX)),
            (T::Counter, Value::Counter(42)),
            (T::Float, Value::Float(1.5)),
            (T::Double, Value::Double(-2.25)),
            (T::Boolean, Value::Boolean(true)),
            (T::Uuid, Value::Uuid([7; 16])),
            (
                T::Timeuuid,
                Value::Timeuuid(crate::types::timeuuid::min_timeuuid(0)),
            ),
            (T::Timestamp, Value::Timestamp(-1)),
            (T::Date, Value::date_from_days(-3)),
            (T::Time, Value::Time(86_399_999_999_999)),
            (
                T::Varint,
                Value::varint(BigInt::from_str("-123456789012345678901").unwrap()),
            ),
            (T::Decimal, Value::decimal(-12345, 3)),
            (T::Inet, Value::Inet("::1".parse().unwrap())),
            (T::Inet, Value::Inet("10.0.0.1".parse().unwrap())),
            (
                T::Duration,
                Value::Duration(CqlDuration {
                    months: -14,
                    days: -3,
                    nanos: -1_000_000_007,
                }),
            ),
        ];
        for (ty, value) in values {
            let bytes = value.serialize().expect("bytes");
            let back = decode(ty, &bytes).unwrap_or_else(|| panic!("{ty:?} refused"));
            assert_eq!(back.serialize().expect("bytes"), bytes, "{ty:?}");
            assert_eq!(back, value, "{ty:?}");
        }
    }

    #[test]
    fn empty_blobs_follow_each_types_validate() {
        for ty in [
            T::Int,
            T::Bigint,
            T::Boolean,
            T::Decimal,
            T::Varint,
            T::Uuid,
            T::Inet,
        ] {
            assert!(matches!(decode(ty, &[]), Some(Value::Empty)), "{ty:?}");
        }
        assert!(matches!(decode(T::Text, &[]), Some(Value::Text(s)) if s.is_empty()));
        for ty in [T::Tinyint, T::Smallint, T::Date, T::Time, T::Duration] {
            assert!(decode(ty, &[]).is_none(), "{ty:?}");
        }
    }

    #[test]
    fn invalid_contents_are_refused() {
        assert!(decode(T::Ascii, "é".as_bytes()).is_none());
        assert!(decode(T::Text, &[0xff]).is_none());
        assert!(decode(T::Timeuuid, &[0x40; 16]).is_none(), "version 4");
        assert!(decode(T::Boolean, &[0, 1]).is_none());
        assert!(decode(T::Decimal, &[0, 0, 1]).is_none());
        assert!(decode(T::Inet, &[1, 2, 3]).is_none());
        assert!(decode(T::Duration, &[2, 1, 6]).is_none(), "mixed signs");
        assert!(
            decode(T::Duration, &[2, 4, 6, 0]).is_none(),
            "trailing byte"
        );
        // An IPv4-mapped IPv6 address reads as IPv4, as Java's InetAddress does.
        let mut mapped = [0u8; 16];
        mapped[10] = 0xff;
        mapped[11] = 0xff;
        mapped[12..].copy_from_slice(&[1, 2, 3, 4]);
        assert_eq!(
            decode(T::Inet, &mapped),
            Some(Value::Inet("1.2.3.4".parse().unwrap()))
        );
    }
}
