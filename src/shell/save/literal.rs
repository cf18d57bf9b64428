//! Values as CQL literals that read back to the very same value: text with
//! quotes doubled, blobs as `0x…`, decimals keeping their scale, floats in
//! their shortest exact form (`NaN`, `Infinity`), timestamps, dates and
//! times as quoted strings, collections, tuples and UDTs spelled out with
//! their element types. (cqlsh's display forms round numbers and drop
//! quotes, so they cannot serve.)

use num_bigint::Sign;

use crate::shell::describe::cql::name;
use crate::types::duration_to_string;
use crate::types::value::date_days;
use crate::types::{DataType, Decimal, Value};

/// `value` (of type `ty`) as a CQL literal.
pub fn literal(value: &Value, ty: &DataType) -> String {
    match value {
        Value::Null => "null".to_string(),
        Value::Empty => format!("blobas{ty}(0x)"),
        Value::Ascii(s) | Value::Text(s) => quote(s),
        Value::Tinyint(v) => v.to_string(),
        Value::Smallint(v) => v.to_string(),
        Value::Int(v) => v.to_string(),
        Value::Bigint(v) | Value::Counter(v) => v.to_string(),
        Value::Varint(v) => v.to_string(),
        Value::Decimal(d) => decimal(d),
        Value::Float(v) => float(f64::from(*v), format!("{v:?}")),
        Value::Double(v) => float(*v, format!("{v:?}")),
        Value::Boolean(b) => b.to_string(),
        Value::Blob(bytes) => format!("0x{}", hex(bytes)),
        Value::Uuid(u) | Value::Timeuuid(u) => uuid(u),
        Value::Timestamp(ms) => timestamp(*ms),
        Value::Date(raw) => date(*raw),
        Value::Time(ns) => quote(&time(*ns)),
        Value::Duration(d) => match duration_to_string(d) {
            text if text.is_empty() => "0s".to_string(),
            text => text,
        },
        Value::Inet(addr) => quote(&addr.to_string()),
        Value::List(items) | Value::Vector(items) => {
            format!("[{}]", elements(items, element_type(ty)))
        }
        Value::Set(items) => format!("{{{}}}", elements(items, element_type(ty))),
        Value::Map(entries) => map(entries, ty),
        Value::Tuple(fields) => tuple(fields, ty),
        Value::Udt(fields) => udt(fields, ty),
    }
}

/// A string literal: single quotes, `'` doubled.
pub fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

/// The element type of a list, set or vector (text when unknown).
fn element_type(ty: &DataType) -> &DataType {
    match ty {
        DataType::List { element, .. }
        | DataType::Set { element, .. }
        | DataType::Vector { element, .. } => element,
        _ => ty,
    }
}

fn elements(items: &[Value], ty: &DataType) -> String {
    items
        .iter()
        .map(|v| literal(v, ty))
        .collect::<Vec<_>>()
        .join(", ")
}

fn map(entries: &[(Value, Value)], ty: &DataType) -> String {
    let (key, value) = match ty {
        DataType::Map { key, value, .. } => (key.as_ref(), value.as_ref()),
        _ => (ty, ty),
    };
    let parts: Vec<String> = entries
        .iter()
        .map(|(k, v)| format!("{}: {}", literal(k, key), literal(v, value)))
        .collect();
    format!("{{{}}}", parts.join(", "))
}

/// `(a, null, c)`; a tuple shorter than its type stays short.
fn tuple(fields: &[Option<Value>], ty: &DataType) -> String {
    let types: &[DataType] = match ty {
        DataType::Tuple(types) => types,
        _ => &[],
    };
    let parts: Vec<String> = fields
        .iter()
        .enumerate()
        .map(|(i, f)| match (f, types.get(i)) {
            (Some(v), Some(t)) => literal(v, t),
            (Some(v), None) => literal(v, ty),
            (None, _) => "null".to_string(),
        })
        .collect();
    format!("({})", parts.join(", "))
}

/// `{field: value, …}`, every field named, null ones included.
fn udt(fields: &[Option<Value>], ty: &DataType) -> String {
    let DataType::Udt { fields: types, .. } = ty else {
        return "null".to_string();
    };
    let parts: Vec<String> = types
        .iter()
        .enumerate()
        .map(|(i, (field, t))| {
            let value = fields
                .get(i)
                .and_then(Option::as_ref)
                .map_or_else(|| "null".to_string(), |v| literal(v, t));
            format!("{}: {value}", name(field))
        })
        .collect();
    format!("{{{}}}", parts.join(", "))
}

/// A decimal that reads back with the same unscaled value and scale:
/// `150`, `1.50`, `0.001`, `15E+1`.
fn decimal(d: &Decimal) -> String {
    let sign = if d.unscaled.sign() == Sign::Minus {
        "-"
    } else {
        ""
    };
    let digits = d.unscaled.magnitude().to_string();
    match d.scale {
        0 => format!("{sign}{digits}"),
        scale if scale < 0 => format!("{sign}{digits}E+{}", -i64::from(scale)),
        scale => {
            let scale = scale as usize;
            let padded = format!("{digits:0>width$}", width = scale + 1);
            let (whole, fraction) = padded.split_at(padded.len() - scale);
            format!("{sign}{whole}.{fraction}")
        }
    }
}

/// A float or double: its shortest exact text (`debug`), or CQL's words
/// for the special values.
fn float(v: f64, debug: String) -> String {
    if v.is_nan() {
        "NaN".to_string()
    } else if v.is_infinite() {
        if v > 0.0 { "Infinity" } else { "-Infinity" }.to_string()
    } else {
        debug
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn uuid(u: &[u8; 16]) -> String {
    let h = hex(u);
    format!(
        "{}-{}-{}-{}-{}",
        &h[..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..]
    )
}

/// `'2024-05-01 12:00:00.000+0000'`, or the milliseconds for years
/// outside 1–9999.
fn timestamp(ms: i64) -> String {
    let days = ms.div_euclid(86_400_000);
    let in_day = ms.rem_euclid(86_400_000);
    match civil(days) {
        Some((y, m, d)) => {
            let (h, rest) = (in_day / 3_600_000, in_day % 3_600_000);
            let (min, rest) = (rest / 60_000, rest % 60_000);
            let (s, milli) = (rest / 1000, rest % 1000);
            format!("'{y:04}-{m:02}-{d:02} {h:02}:{min:02}:{s:02}.{milli:03}+0000'")
        }
        None => ms.to_string(),
    }
}

/// `'2024-05-01'`, or the raw day number for years outside 1–9999.
fn date(raw: u32) -> String {
    match civil(i64::from(date_days(raw))) {
        Some((y, m, d)) => format!("'{y:04}-{m:02}-{d:02}'"),
        None => raw.to_string(),
    }
}

/// `HH:MM:SS.nnnnnnnnn`.
fn time(ns: i64) -> String {
    let (h, rest) = (ns / 3_600_000_000_000, ns % 3_600_000_000_000);
    let (m, rest) = (rest / 60_000_000_000, rest % 60_000_000_000);
    let (s, nanos) = (rest / 1_000_000_000, rest % 1_000_000_000);
    format!("{h:02}:{m:02}:{s:02}.{nanos:09}")
}

/// The proleptic Gregorian date of a day count from 1970-01-01, when its
/// year is 1–9999 (Howard Hinnant's `civil_from_days`).
fn civil(days: i64) -> Option<(i64, u32, u32)> {
    let z = days.checked_add(719_468)?;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (1..=9999).contains(&y).then_some((y, m, d))
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigInt;

    fn dec(unscaled: i64, scale: i32) -> String {
        decimal(&Decimal {
            unscaled: BigInt::from(unscaled),
            scale,
        })
    }

    #[test]
    fn decimals_keep_their_scale() {
        assert_eq!(dec(150, 2), "1.50");
        assert_eq!(dec(-1, 3), "-0.001");
        assert_eq!(dec(15, -1), "15E+1");
        assert_eq!(dec(7, 0), "7");
    }

    #[test]
    fn calendar_values() {
        assert_eq!(timestamp(0), "'1970-01-01 00:00:00.000+0000'");
        assert_eq!(timestamp(-1), "'1969-12-31 23:59:59.999+0000'");
        assert_eq!(date(0x8000_0000 + 19_723), "'2024-01-01'");
        assert_eq!(time(3_723_000_000_004), "01:02:03.000000004");
        assert_eq!(timestamp(i64::MAX), i64::MAX.to_string());
    }
}
