//! Cells on the wire: a CQL type as the protocol's `[option]`, a value as
//! its serialized bytes (the same encoding tokens are hashed from, see
//! [`crate::types::serialize`]), and bytes a driver bound back into a
//! [`Value`] of the type the marker receives.

use crate::exec::decode_native;
use crate::syntax::ast::NativeType;
use crate::types::{DataType, Value};

use super::wire::{Reader, Writer};

/// Writes `ty` as the protocol's `[option]` (spec section 6: 0x0001 ascii …
/// 0x0030 UDT, 0x0031 tuple; a vector is the custom type Cassandra names).
pub fn write_type(w: &mut Writer, ty: &DataType) {
    match ty {
        DataType::Native(n) => {
            w.short(native_id(*n));
        }
        DataType::List { element, .. } => {
            w.short(0x0020);
            write_type(w, element);
        }
        DataType::Set { element, .. } => {
            w.short(0x0022);
            write_type(w, element);
        }
        DataType::Map { key, value, .. } => {
            w.short(0x0021);
            write_type(w, key);
            write_type(w, value);
        }
        DataType::Tuple(items) => {
            w.short(0x0031).short(items.len() as u16);
            items.iter().for_each(|t| write_type(w, t));
        }
        DataType::Udt {
            keyspace,
            name,
            fields,
            ..
        } => {
            w.short(0x0030).string(keyspace).string(name);
            w.short(fields.len() as u16);
            for (field, t) in fields {
                w.string(field);
                write_type(w, t);
            }
        }
        DataType::Vector { .. } | DataType::Custom(_) => {
            w.short(0x0000).string(&marshal_name(ty));
        }
    }
}

fn native_id(n: NativeType) -> u16 {
    use NativeType as T;
    match n {
        T::Ascii => 0x0001,
        T::Bigint => 0x0002,
        T::Blob => 0x0003,
        T::Boolean => 0x0004,
        T::Counter => 0x0005,
        T::Decimal => 0x0006,
        T::Double => 0x0007,
        T::Float => 0x0008,
        T::Int => 0x0009,
        T::Timestamp => 0x000B,
        T::Uuid => 0x000C,
        T::Text | T::Varchar => 0x000D,
        T::Varint => 0x000E,
        T::Timeuuid => 0x000F,
        T::Inet => 0x0010,
        T::Date => 0x0011,
        T::Time => 0x0012,
        T::Smallint => 0x0013,
        T::Tinyint => 0x0014,
        T::Duration => 0x0015,
    }
}

/// The Java class name Cassandra gives a type where the protocol has no id
/// for it (`org.apache.cassandra.db.marshal.VectorType(…,3)`).
fn marshal_name(ty: &DataType) -> String {
    const PREFIX: &str = "org.apache.cassandra.db.marshal.";
    let frozen = |inner: String, frozen: bool| {
        if frozen {
            format!("{PREFIX}FrozenType({inner})")
        } else {
            inner
        }
    };
    match ty {
        DataType::Native(n) => format!("{PREFIX}{}", native_class(*n)),
        DataType::List { element, frozen: f } => {
            frozen(format!("{PREFIX}ListType({})", marshal_name(element)), *f)
        }
        DataType::Set { element, frozen: f } => {
            frozen(format!("{PREFIX}SetType({})", marshal_name(element)), *f)
        }
        DataType::Map {
            key,
            value,
            frozen: f,
        } => frozen(
            format!(
                "{PREFIX}MapType({},{})",
                marshal_name(key),
                marshal_name(value)
            ),
            *f,
        ),
        DataType::Tuple(items) => format!(
            "{PREFIX}TupleType({})",
            items.iter().map(marshal_name).collect::<Vec<_>>().join(",")
        ),
        DataType::Vector { element, dimension } => {
            format!("{PREFIX}VectorType({},{dimension})", marshal_name(element))
        }
        DataType::Custom(class) => class.clone(),
        DataType::Udt { .. } => format!("{PREFIX}BytesType"),
    }
}

fn native_class(n: NativeType) -> &'static str {
    use NativeType as T;
    match n {
        T::Ascii => "AsciiType",
        T::Bigint => "LongType",
        T::Blob => "BytesType",
        T::Boolean => "BooleanType",
        T::Counter => "CounterColumnType",
        T::Date => "SimpleDateType",
        T::Decimal => "DecimalType",
        T::Double => "DoubleType",
        T::Duration => "DurationType",
        T::Float => "FloatType",
        T::Inet => "InetAddressType",
        T::Int => "Int32Type",
        T::Smallint => "ShortType",
        T::Text | T::Varchar => "UTF8Type",
        T::Time => "TimeType",
        T::Timestamp => "TimestampType",
        T::Timeuuid => "TimeUUIDType",
        T::Tinyint => "ByteType",
        T::Uuid => "UUIDType",
        T::Varint => "IntegerType",
    }
}

/// Writes one result cell as `[bytes]`: null as length −1. A value that
/// cannot be serialized (never one the engine produced) is sent as null.
pub fn write_cell(w: &mut Writer, value: &Value) {
    if value.is_null() {
        w.int(-1);
        return;
    }
    let at = w.out.len();
    w.int(0);
    match value.serialize_into(&mut w.out) {
        Ok(()) => {
            let len = i32::try_from(w.out.len() - at - 4).unwrap_or(i32::MAX);
            w.out[at..at + 4].copy_from_slice(&len.to_be_bytes());
        }
        Err(_) => {
            w.out.truncate(at);
            w.int(-1);
        }
    }
}

/// Why bound bytes are not a value of the receiver's type, in Cassandra's
/// words where the check is Cassandra's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError(pub String);

/// The value of type `ty` whose serialized bytes are `bytes`.
pub fn decode(ty: &DataType, bytes: &[u8]) -> Result<Value, DecodeError> {
    let bad = || DecodeError(format!("Invalid {} bytes for type {}", bytes.len(), ty));
    match ty {
        DataType::Native(n) => decode_native(*n, bytes).ok_or_else(bad),
        DataType::List { element, .. } => Ok(Value::List(elements(element, bytes)?)),
        DataType::Set { element, .. } => Ok(Value::set_from(elements(element, bytes)?)),
        DataType::Map { key, value, .. } => {
            let mut r = Reader::new(bytes);
            let n = count(&mut r)?;
            let mut entries = Vec::with_capacity(n.min(1024));
            for _ in 0..n {
                let k = element(&mut r, key)?.ok_or_else(null_in_collection)?;
                let v = element(&mut r, value)?.ok_or_else(null_in_collection)?;
                entries.push((k, v));
            }
            trailing(&r)?;
            Ok(Value::map_from(entries))
        }
        DataType::Tuple(types) => Ok(Value::Tuple(fields(types.iter(), bytes)?)),
        DataType::Udt { fields: f, .. } => {
            let mut values = fields(f.iter().map(|(_, t)| t), bytes)?;
            values.resize(f.len(), None);
            Ok(Value::Udt(values))
        }
        DataType::Vector { element, dimension } => vector(element, *dimension, bytes),
        DataType::Custom(_) => Ok(Value::Blob(bytes.to_vec())),
    }
}

fn null_in_collection() -> DecodeError {
    DecodeError("null is not supported inside collections".into())
}

fn count(r: &mut Reader<'_>) -> Result<usize, DecodeError> {
    let n = r.int().map_err(|e| DecodeError(e.0))?;
    usize::try_from(n).map_err(|_| DecodeError(format!("Invalid collection size {n}")))
}

fn element(r: &mut Reader<'_>, ty: &DataType) -> Result<Option<Value>, DecodeError> {
    match r.bytes().map_err(|e| DecodeError(e.0))? {
        None => Ok(None),
        Some(b) => decode(ty, &b).map(Some),
    }
}

fn trailing(r: &Reader<'_>) -> Result<(), DecodeError> {
    if r.remaining() == 0 {
        Ok(())
    } else {
        Err(DecodeError(format!(
            "Unexpected extraneous bytes after collection value: {} left",
            r.remaining()
        )))
    }
}

fn elements(ty: &DataType, bytes: &[u8]) -> Result<Vec<Value>, DecodeError> {
    let mut r = Reader::new(bytes);
    let n = count(&mut r)?;
    let mut out = Vec::with_capacity(n.min(1024));
    for _ in 0..n {
        out.push(element(&mut r, ty)?.ok_or_else(null_in_collection)?);
    }
    trailing(&r)?;
    Ok(out)
}

/// A tuple's or a UDT's components: each `[bytes]`, fewer than the type
/// has allowed (the rest are null), more refused.
fn fields<'t>(
    types: impl Iterator<Item = &'t DataType>,
    bytes: &[u8],
) -> Result<Vec<Option<Value>>, DecodeError> {
    let mut r = Reader::new(bytes);
    let mut out = Vec::new();
    for ty in types {
        if r.remaining() == 0 {
            break;
        }
        out.push(element(&mut r, ty)?);
    }
    if r.remaining() != 0 {
        return Err(DecodeError(
            "Invalid remaining data after end of tuple value".into(),
        ));
    }
    Ok(out)
}

fn vector(element: &DataType, dimension: u32, bytes: &[u8]) -> Result<Value, DecodeError> {
    let fixed = match element {
        DataType::Native(n) => fixed_width(*n),
        _ => None,
    };
    let mut out = Vec::new();
    let mut rest = bytes;
    for _ in 0..dimension {
        let len = match fixed {
            Some(len) => len,
            None => {
                let (len, used) = read_unsigned_vint(rest)
                    .ok_or_else(|| DecodeError("Invalid vector element length".into()))?;
                rest = &rest[used..];
                usize::try_from(len).map_err(|_| DecodeError("Vector element too long".into()))?
            }
        };
        if rest.len() < len {
            return Err(DecodeError(format!(
                "Expected {dimension} elements in a vector, the bytes end early"
            )));
        }
        out.push(decode(element, &rest[..len])?);
        rest = &rest[len..];
    }
    if !rest.is_empty() {
        return Err(DecodeError(format!(
            "Unexpected {} extraneous bytes after vector value",
            rest.len()
        )));
    }
    Ok(Value::Vector(out))
}

fn fixed_width(n: NativeType) -> Option<usize> {
    use NativeType as T;
    Some(match n {
        T::Boolean | T::Tinyint => 1,
        T::Smallint => 2,
        T::Int | T::Float | T::Date => 4,
        T::Bigint | T::Double | T::Timestamp | T::Time => 8,
        T::Uuid | T::Timeuuid => 16,
        _ => return None,
    })
}

/// Cassandra's unsigned vint (`VIntCoding.readUnsignedVInt`): the count of
/// extra bytes as the first byte's leading ones.
fn read_unsigned_vint(bytes: &[u8]) -> Option<(u64, usize)> {
    let first = *bytes.first()?;
    let extra = first.leading_ones() as usize;
    if bytes.len() < 1 + extra {
        return None;
    }
    let mut value = if extra >= 8 {
        0
    } else {
        u64::from(first & (0xffu8 >> extra))
    };
    for b in &bytes[1..=extra] {
        value = (value << 8) | u64::from(*b);
    }
    Some((value, 1 + extra))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(ty: DataType, value: Value) {
        let mut w = Writer::new();
        write_cell(&mut w, &value);
        let mut r = Reader::new(&w.out);
        let bytes = r.bytes().unwrap().unwrap();
        assert_eq!(decode(&ty, &bytes).unwrap(), value, "{ty}");
    }

    #[test]
    fn values_round_trip_through_their_bytes() {
        let int = DataType::Native(NativeType::Int);
        let text = DataType::Native(NativeType::Text);
        round_trip(int.clone(), Value::Int(-7));
        round_trip(
            DataType::Map {
                key: Box::new(text.clone()),
                value: Box::new(int.clone()),
                frozen: false,
            },
            Value::map_from(vec![(Value::Text("a".into()), Value::Int(1))]),
        );
        round_trip(
            DataType::Tuple(vec![int.clone(), text.clone()]),
            Value::Tuple(vec![Some(Value::Int(1)), None]),
        );
        round_trip(
            DataType::Vector {
                element: Box::new(text.clone()),
                dimension: 2,
            },
            Value::Vector(vec![Value::Text("x".into()), Value::Text("yz".into())]),
        );
        round_trip(
            DataType::Vector {
                element: Box::new(DataType::Native(NativeType::Float)),
                dimension: 3,
            },
            Value::Vector(vec![
                Value::Float(1.0),
                Value::Float(2.5),
                Value::Float(-3.0),
            ]),
        );
    }

    #[test]
    fn garbage_is_refused_not_panicked_on() {
        let list = DataType::List {
            element: Box::new(DataType::Native(NativeType::Int)),
            frozen: false,
        };
        for bytes in [
            &[0x7f, 0xff, 0xff, 0xff][..],
            &[0, 0, 0, 1, 0, 0, 0, 9],
            &[1],
        ] {
            assert!(decode(&list, bytes).is_err());
        }
        assert!(decode(&DataType::Native(NativeType::Int), &[1, 2, 3]).is_err());
    }
}
