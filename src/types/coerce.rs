//! Constants of a statement turned into values of a column's type, accepting exactly what
//! Cassandra accepts (`Constants.Literal.testAssignment`, then the type's `fromString`)
//! and failing with Cassandra's messages, all `InvalidRequest`.
//!
//! Two steps, as in Cassandra:
//!
//! 1. *Assignability*, by the kind of constant alone (`language.md` §3.2): a string fits
//!    `ascii`, `text`, `inet`, `date`, `time` and `timestamp`; an integer fits every
//!    numeric type and `date`, `time`, `timestamp`, `duration`; and so on. A mismatch is
//!    `Invalid STRING constant (abc) for "id" of type int`.
//! 2. *Parsing* the constant's text as the type (`AbstractType.fromString`), whose
//!    failures carry the type's own message (`Unable to make int from '…'`).
//!
//! Collection, tuple and UDT literals are handled in `coerce_term.rs`, which calls back
//! into this file for each element.

use std::borrow::Cow;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::error::Error;
use crate::syntax::ast::{Literal, NativeType};

use super::data_type::DataType;
use super::duration::parse_duration;
use super::number::{parse_decimal, parse_varint};
use super::serialize::{parse_date, parse_time, parse_timestamp, serialize_inet, serialize_uuid};
use super::value::{raw_date, Value};

/// Turns one constant into a value of type `ty` for the column named `column` (used in
/// messages; for elements of collections Cassandra's names are `value(l)`, `key(m)`,
/// `t[0]`, `u.field`).
///
/// `NULL` gives [`Value::Null`] for every type but `counter`. An empty string gives
/// [`Value::Empty`] for `inet`, `date`, `time` and `timestamp`, as in Cassandra. The
/// string `'now'` for a `timestamp` reads the system clock.
pub fn coerce(literal: &Literal, ty: &DataType, column: &str) -> Result<Value, Error> {
    if !literal_assignable(literal, ty) {
        return Err(not_assignable(literal, ty, column));
    }
    match literal {
        Literal::Null => Ok(Value::Null),
        Literal::Hex(digits) => hex_value(digits, ty),
        _ => from_string(ty, &literal_text(literal)).map_err(|message| match message {
            FromStringError::Message(m) => Error::invalid(m),
            FromStringError::Unsupported => not_assignable(literal, ty, column),
        }),
    }
}

/// [`coerce`] of a constant other than `NULL` or a blob, of `kind`'s kind
/// (its text ignored) and whose text, as [`literal_text`] gives it, is
/// `text`; `None` where `coerce` fails. For callers that hold the text
/// already, so that no constant is built for it: the empty strings of
/// `kind` allocate nothing.
pub(crate) fn coerce_text(kind: &Literal, text: &str, ty: &DataType) -> Option<Value> {
    if !literal_assignable(kind, ty) {
        return None;
    }
    from_string(ty, text).ok()
}

/// The kind of constant, as Cassandra names it in messages.
pub(crate) fn literal_kind(literal: &Literal) -> &'static str {
    match literal {
        Literal::String(_) => "STRING",
        Literal::Integer(_) => "INTEGER",
        Literal::Float(_) => "FLOAT",
        Literal::Boolean(_) => "BOOLEAN",
        Literal::Duration(_) => "DURATION",
        Literal::Uuid(_) => "UUID",
        Literal::Hex(_) => "HEX",
        Literal::Null => "NULL",
    }
}

/// The constant's text as Cassandra holds it: strings without quotes, blobs with `0x`.
pub(crate) fn literal_text(literal: &Literal) -> Cow<'_, str> {
    match literal {
        Literal::String(s)
        | Literal::Integer(s)
        | Literal::Float(s)
        | Literal::Duration(s)
        | Literal::Uuid(s) => Cow::Borrowed(s),
        Literal::Boolean(b) => Cow::Borrowed(if *b { "true" } else { "false" }),
        Literal::Hex(digits) => Cow::Owned(format!("0x{digits}")),
        Literal::Null => Cow::Borrowed("NULL"),
    }
}

/// `Invalid <KIND> constant (<text>) for "<column>" of type <type>`.
fn not_assignable(literal: &Literal, ty: &DataType, column: &str) -> Error {
    if matches!(literal, Literal::Null) {
        return Error::invalid("Invalid null value for counter increment/decrement");
    }
    Error::invalid(format!(
        "Invalid {} constant ({}) for \"{column}\" of type {ty}",
        literal_kind(literal),
        literal_text(literal)
    ))
}

/// Whether Cassandra's `testAssignment` lets this constant be assigned to `ty`.
///
/// Tuples, vectors and custom types are not "native" to Cassandra's test, which then
/// waves every constant through and leaves the type's `fromString` to decide (so `5`
/// or `'1:2'` is a valid `tuple<int, int>`).
pub(crate) fn literal_assignable(literal: &Literal, ty: &DataType) -> bool {
    use NativeType::*;
    let native = match ty {
        DataType::Native(n) => *n,
        DataType::Tuple(_) | DataType::Vector { .. } | DataType::Custom(_) => return true,
        _ => return matches!(literal, Literal::Null),
    };
    match literal {
        Literal::Null => native != Counter,
        Literal::String(_) => matches!(
            native,
            Ascii | Text | Varchar | Inet | Date | Time | Timestamp
        ),
        Literal::Integer(_) => matches!(
            native,
            Bigint
                | Counter
                | Date
                | Decimal
                | Double
                | Duration
                | Float
                | Int
                | Smallint
                | Time
                | Timestamp
                | Tinyint
                | Varint
        ),
        Literal::Float(_) => matches!(native, Decimal | Double | Float),
        Literal::Uuid(_) => matches!(native, Uuid | Timeuuid),
        Literal::Boolean(_) => native == Boolean,
        // `tinyint` too: the "preferred type" of a hex constant is the one-byte type.
        Literal::Hex(_) => matches!(native, Blob | Tinyint),
        Literal::Duration(_) => native == Duration,
    }
}

/// A hex constant: Cassandra decodes the digits as a blob whatever the column type, then
/// the bytes must be a valid value of that type.
fn hex_value(digits: &str, ty: &DataType) -> Result<Value, Error> {
    let bytes = hex_bytes(digits).map_err(Error::invalid)?;
    match ty {
        DataType::Native(NativeType::Tinyint) => match bytes.as_slice() {
            [] => Ok(Value::Empty),
            [b] => Ok(Value::Tinyint(*b as i8)),
            _ => Err(Error::invalid(format!(
                "Expected 1 byte for a tinyint ({})",
                bytes.len()
            ))),
        },
        _ => Ok(Value::Blob(bytes)),
    }
}

/// `BytesType.fromString`: hex digits (no `0x`), an even number of them.
pub(crate) fn hex_bytes(digits: &str) -> Result<Vec<u8>, String> {
    let error = || format!("cannot parse '{digits}' as hex bytes");
    if digits.len() % 2 != 0 {
        return Err(error());
    }
    digits
        .as_bytes()
        .chunks_exact(2)
        .map(|pair| {
            let hi = (pair[0] as char).to_digit(16).ok_or_else(error)?;
            let lo = (pair[1] as char).to_digit(16).ok_or_else(error)?;
            Ok((hi * 16 + lo) as u8)
        })
        .collect()
}

/// Why `fromString` failed: Cassandra's message, or a type this interpreter does not read
/// from text (vectors, custom types, collections inside a tuple string).
pub(crate) enum FromStringError {
    Message(String),
    Unsupported,
}

impl From<String> for FromStringError {
    fn from(message: String) -> Self {
        FromStringError::Message(message)
    }
}

/// `AbstractType.fromString` of each type: the text of a constant (already known to be
/// assignable) read as a value, with the type's own failure message.
pub(crate) fn from_string(ty: &DataType, text: &str) -> Result<Value, FromStringError> {
    use NativeType::*;
    let native = match ty {
        DataType::Native(n) => *n,
        DataType::Tuple(items) => return tuple_from_string(items, ty, text),
        _ => return Err(FromStringError::Unsupported),
    };
    // Every type but the string types reads "" as the empty value.
    if text.is_empty() && !matches!(native, Ascii | Text | Varchar | Blob) {
        return Ok(if native == Boolean {
            Value::Boolean(false)
        } else {
            Value::Empty
        });
    }
    let make = |what: &str| format!("Unable to make {what} from '{text}'");
    let value = match native {
        Ascii => Value::Ascii(ascii(text)?),
        Text | Varchar => Value::Text(text.to_string()),
        Tinyint => Value::Tinyint(text.parse().map_err(|_| make("byte"))?),
        Smallint => Value::Smallint(text.parse().map_err(|_| make("short"))?),
        Int => Value::Int(text.parse().map_err(|_| make("int"))?),
        Bigint => Value::Bigint(text.parse().map_err(|_| make("long"))?),
        Counter => Value::Counter(text.parse().map_err(|_| make("long"))?),
        Varint => Value::varint(parse_varint(text)?),
        Decimal => Value::Decimal(Box::new(parse_decimal(text)?)),
        // Java's parseFloat/parseDouble: any NaN becomes the one canonical NaN.
        Float => Value::Float(canonical_f32(text.parse().map_err(|_| make("float"))?)),
        Double => Value::Double(canonical_f64(
            parse_f64(text).ok_or_else(|| make("double"))?,
        )),
        Boolean => {
            if text.eq_ignore_ascii_case("true") {
                Value::Boolean(true)
            } else if text.eq_ignore_ascii_case("false") {
                Value::Boolean(false)
            } else {
                return Err(make("boolean").into());
            }
        }
        Blob => Value::Blob(hex_bytes(text)?),
        Uuid => Value::Uuid(uuid_bytes(text)?),
        Timeuuid => {
            let bytes = uuid_bytes(text)?;
            if bytes[6] >> 4 != 1 {
                return Err("TimeUUID supports only version 1 UUIDs".to_string().into());
            }
            Value::Timeuuid(bytes)
        }
        Timestamp => Value::Timestamp(
            parse_timestamp(text, now_millis).map_err(|e| e.message().to_string())?,
        ),
        Date => Value::Date(raw_date(
            parse_date(text).map_err(|e| e.message().to_string())?,
        )),
        Time => Value::Time(parse_time(text).map_err(|e| e.message().to_string())?),
        Duration => Value::Duration(parse_duration(text)?),
        Inet => inet(text)?,
    };
    Ok(value)
}

/// `AsciiType.fromString`: the US-ASCII encoder's failure, as Java prints it. The input
/// length is in UTF-16 units (2 for a character beyond the BMP).
fn ascii(text: &str) -> Result<String, String> {
    match text.chars().find(|c| !c.is_ascii()) {
        None => Ok(text.to_string()),
        Some(c) => Err(format!(
            "Invalid ASCII character in string literal: \
             java.nio.charset.UnmappableCharacterException: Input length = {}",
            c.len_utf16()
        )),
    }
}

fn uuid_bytes(text: &str) -> Result<[u8; 16], String> {
    let bytes = serialize_uuid(text).map_err(|e| e.message().to_string())?;
    bytes
        .try_into()
        .map_err(|_| format!("Unable to make UUID from '{text}'"))
}

/// `InetAddressType.fromString`, keeping the address as Cassandra stores it (an
/// IPv4-mapped IPv6 address becomes IPv4).
fn inet(text: &str) -> Result<Value, String> {
    let bytes = serialize_inet(text).map_err(|e| e.message().to_string())?;
    Ok(match <[u8; 4]>::try_from(bytes.as_slice()) {
        Ok(v4) => Value::Inet(IpAddr::V4(Ipv4Addr::from(v4))),
        Err(_) => match <[u8; 16]>::try_from(bytes.as_slice()) {
            Ok(v6) => Value::Inet(IpAddr::V6(Ipv6Addr::from(v6))),
            Err(_) => Value::Empty,
        },
    })
}

fn canonical_f32(v: f32) -> f32 {
    if v.is_nan() {
        f32::NAN
    } else {
        v
    }
}

/// `text` as a double, as `str::parse` reads it: a plain decimal of at
/// most fifteen digits (`23.4`, `-1003`, nearly every double a load
/// writes) is read here as its digits divided by a power of ten, which is
/// exact and so rounds as parsing does (Clinger's fast path: both are
/// doubles exactly, and one division rounds correctly), at half the
/// general parser's cost; anything else goes to `str::parse`.
fn parse_f64(text: &str) -> Option<f64> {
    /// The powers of ten a double holds exactly.
    const POWERS: [f64; 16] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
    ];
    let (negative, digits) = match text.as_bytes() {
        [b'-', rest @ ..] => (true, rest),
        rest => (false, rest),
    };
    let mut mantissa: u64 = 0;
    let mut count = 0;
    let mut fraction = None;
    for (at, &byte) in digits.iter().enumerate() {
        match byte {
            b'0'..=b'9' => {
                mantissa = mantissa * 10 + u64::from(byte - b'0');
                count += 1;
            }
            b'.' if fraction.is_none() => fraction = Some(digits.len() - at - 1),
            _ => return text.parse().ok(),
        }
        if count > 15 {
            return text.parse().ok();
        }
    }
    let scale = fraction.unwrap_or(0);
    // `1.` and `.5` are for the general reading to accept or refuse.
    if count == 0 || count == scale || scale == 0 && fraction.is_some() {
        return text.parse().ok();
    }
    let value = mantissa as f64 / POWERS[scale];
    Some(if negative { -value } else { value })
}

fn canonical_f64(v: f64) -> f64 {
    if v.is_nan() {
        f64::NAN
    } else {
        v
    }
}

fn now_millis() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// `TupleType.fromString`: components separated by unescaped `:`, `@` for null, `\:` and
/// `\@` for the characters themselves; each component read by its own type.
fn tuple_from_string(
    items: &[DataType],
    ty: &DataType,
    text: &str,
) -> Result<Value, FromStringError> {
    let fields = split_unescaped_colons(text);
    if fields.len() > items.len() {
        return Err(format!(
            "Invalid tuple literal: too many elements. Type {ty} expects {} but got {}",
            items.len(),
            fields.len()
        )
        .into());
    }
    let mut values = Vec::with_capacity(fields.len());
    for (field, item) in fields.iter().zip(items) {
        if field == "@" {
            values.push(None);
            continue;
        }
        let unescaped = field.replace("\\:", ":").replace("\\@", "@");
        values.push(Some(from_string(item, &unescaped)?));
    }
    Ok(Value::Tuple(values))
}

/// `AbstractCompositeType.split`: `:` not preceded by a backslash separates; the empty
/// string has no components.
fn split_unescaped_colons(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    if text.is_empty() {
        return out;
    }
    let mut current = String::new();
    let mut previous = '\0';
    for c in text.chars() {
        if c == ':' && previous != '\\' {
            out.push(std::mem::take(&mut current));
        } else {
            current.push(c);
        }
        previous = c;
    }
    out.push(current);
    out
}

#[cfg(test)]
#[path = "coerce_tests.rs"]
mod tests;
