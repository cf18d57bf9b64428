//! Values as JSON, the way Cassandra's `toJson()` / `SELECT JSON` writes them
//! (`AbstractType.toJSONString` of each type), and as the JSON Lines output carries them.
//!
//! The two differ in one place only. Cassandra writes NaN and ±Infinity as `null` (JSON
//! has no such numbers); the project's JSON Lines contract (DESIGN.md, "Machine output")
//! writes them as the strings `"NaN"`, `"Infinity"`, `"-Infinity"`, which keeps them
//! distinguishable from a null cell.
//!
//! Numbers keep Cassandra's exact digits (`1.5E+3` for a decimal, `1.0E10` for a double,
//! any number of varint digits): `serde_json` is built with `arbitrary_precision`, so a
//! [`serde_json::Number`] holds the text rather than an `f64`. Its parser writes the
//! exponent mark in lower case (`1.5e+3`), which every JSON reader takes as the same number.

use std::fmt::Write;

use serde_json::{Map, Number, Value as Json};

use super::calendar::{iso_local_date, java_timestamp, time_text};
use super::data_type::DataType;
use super::duration::duration_to_string;
use super::format::{blob_hex, java_host_address, uuid_text};
use super::javafloat::{java_double_to_string, java_float_to_string};
use super::number::decimal_to_string;
use super::value::{date_days, Value};

impl Value {
    /// Cassandra's `toJson()` text of this value of type `ty`, byte for byte:
    /// `"2025-06-01 08:00:00.000Z"`, `[1, 2]`, `{"a": 1}`, `{"city": "Austin", "zip": null}`.
    pub fn to_json_text(&self, ty: &DataType) -> String {
        let mut out = String::new();
        write_json(&mut out, self, Some(ty));
        out
    }

    /// The value for JSON Lines output: Cassandra's JSON as a [`serde_json::Value`], but
    /// with NaN and infinities as strings (see the module documentation).
    pub fn to_json(&self, ty: &DataType) -> Json {
        to_json(self, Some(ty))
    }

    /// [`Value::to_json`] written compactly to `out`, byte for byte as `serde_json`
    /// writes it, without building the tree for the common scalar types: JSON Lines
    /// output prints rows by the million.
    pub fn push_json(&self, ty: &DataType, out: &mut Vec<u8>) {
        use std::io::Write as _;
        let _ = match self {
            Value::Null => out.write_all(b"null"),
            Value::Boolean(b) => out.write_all(if *b { b"true" } else { b"false" }),
            Value::Tinyint(v) => write!(out, "{v}"),
            Value::Smallint(v) => write!(out, "{v}"),
            Value::Int(v) => write!(out, "{v}"),
            Value::Bigint(v) | Value::Counter(v) => write!(out, "{v}"),
            Value::Ascii(text) | Value::Text(text) => {
                serde_json::to_writer(&mut *out, text.as_str()).map_err(std::io::Error::from)
            }
            Value::Float(_) | Value::Double(_) => match finite_text(self) {
                Some(text) => push_number(&text, out),
                None => serde_json::to_writer(&mut *out, &self.to_json(ty)).map_err(Into::into),
            },
            _ => match string_form(self) {
                Some(text) => serde_json::to_writer(&mut *out, &text).map_err(Into::into),
                None => serde_json::to_writer(&mut *out, &self.to_json(ty)).map_err(Into::into),
            },
        };
    }
}

/// Java's text of a finite float as `serde_json` writes the [`Number`] parsed from it:
/// the same digits, the exponent mark in lower case and signed (`1.0E10` → `1.0e+10`).
fn push_number(text: &str, out: &mut Vec<u8>) -> std::io::Result<()> {
    let (mantissa, exponent) = text.split_once('E').unwrap_or((text, ""));
    out.extend_from_slice(mantissa.as_bytes());
    if !exponent.is_empty() {
        out.push(b'e');
        if !exponent.starts_with('-') {
            out.push(b'+');
        }
        out.extend_from_slice(exponent.as_bytes());
    }
    Ok(())
}

/// A JSON string as Jackson's `quoteAsString` writes it (Cassandra's
/// `JsonUtils.quoteAsJsonString`): `"` and `\` escaped, control characters as `\b \t \n
/// \f \r` or `\u00XX` (upper-case hex), nothing else (not `/`, not non-ASCII).
fn write_quoted(out: &mut String, text: &str) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{08}' => out.push_str("\\b"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\u{0c}' => out.push_str("\\f"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04X}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Whether a float is written as a JSON number (finite) or not.
fn finite_text(value: &Value) -> Option<String> {
    match value {
        Value::Float(v) if v.is_finite() => Some(java_float_to_string(*v)),
        Value::Double(v) if v.is_finite() => Some(java_double_to_string(*v)),
        _ => None,
    }
}

fn element_type(ty: Option<&DataType>) -> Option<&DataType> {
    match ty {
        Some(
            DataType::List { element, .. }
            | DataType::Set { element, .. }
            | DataType::Vector { element, .. },
        ) => Some(element),
        _ => None,
    }
}

fn map_types(ty: Option<&DataType>) -> (Option<&DataType>, Option<&DataType>) {
    match ty {
        Some(DataType::Map { key, value, .. }) => (Some(key), Some(value)),
        _ => (None, None),
    }
}

fn tuple_types(ty: Option<&DataType>) -> Vec<&DataType> {
    match ty {
        Some(DataType::Tuple(items)) => items.iter().collect(),
        _ => Vec::new(),
    }
}

/// A UDT field name as Cassandra's `UserType.toJSONString` writes it: names that are not
/// all lower case keep their CQL double quotes (`"\"Zip\""`).
fn udt_field_key(ty: Option<&DataType>, index: usize) -> (String, Option<&DataType>) {
    match ty {
        Some(DataType::Udt { fields, .. }) => match fields.get(index) {
            Some((name, t)) if *name == name.to_lowercase() => (name.clone(), Some(t)),
            Some((name, t)) => (format!("\"{name}\""), Some(t)),
            None => (format!("field{index}"), None),
        },
        _ => (format!("field{index}"), None),
    }
}

/// The text of values Cassandra writes as JSON strings, unquoted; `None` for the others.
fn string_form(value: &Value) -> Option<String> {
    Some(match value {
        Value::Empty => String::new(),
        Value::Ascii(s) | Value::Text(s) => s.clone(),
        Value::Blob(b) => blob_hex(b),
        Value::Uuid(u) | Value::Timeuuid(u) => uuid_text(u),
        Value::Timestamp(ms) => java_timestamp(*ms),
        Value::Date(raw) => iso_local_date(date_days(*raw)),
        Value::Time(ns) => time_text(*ns),
        Value::Duration(d) => duration_to_string(d),
        Value::Inet(addr) => java_host_address(addr),
        _ => return None,
    })
}

/// The text of values Cassandra writes as bare JSON numbers or literals.
fn scalar_text(value: &Value) -> Option<String> {
    Some(match value {
        Value::Null => "null".into(),
        Value::Tinyint(v) => v.to_string(),
        Value::Smallint(v) => v.to_string(),
        Value::Int(v) => v.to_string(),
        Value::Bigint(v) | Value::Counter(v) => v.to_string(),
        Value::Varint(v) => v.to_string(),
        Value::Decimal(d) => decimal_to_string(d),
        Value::Boolean(b) => b.to_string(),
        Value::Float(_) | Value::Double(_) => finite_text(value).unwrap_or_else(|| "null".into()),
        _ => return None,
    })
}

fn write_json(out: &mut String, value: &Value, ty: Option<&DataType>) {
    if let Some(text) = string_form(value) {
        return write_quoted(out, &text);
    }
    if let Some(text) = scalar_text(value) {
        out.push_str(&text);
        return;
    }
    let separator = |out: &mut String, i: usize| {
        if i > 0 {
            out.push_str(", ");
        }
    };
    match value {
        Value::List(items) | Value::Set(items) | Value::Vector(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                separator(out, i);
                write_json(out, item, element_type(ty));
            }
            out.push(']');
        }
        Value::Map(entries) => {
            let (key_type, value_type) = map_types(ty);
            out.push('{');
            for (i, (k, v)) in entries.iter().enumerate() {
                separator(out, i);
                let key = map_key(k, key_type);
                write_quoted(out, &key);
                out.push_str(": ");
                write_json(out, v, value_type);
            }
            out.push('}');
        }
        Value::Tuple(fields) => {
            let types = tuple_types(ty);
            out.push('[');
            for i in 0..fields.len().max(types.len()) {
                separator(out, i);
                match fields.get(i) {
                    Some(Some(v)) => write_json(out, v, types.get(i).copied()),
                    _ => out.push_str("null"),
                }
            }
            out.push(']');
        }
        Value::Udt(fields) => {
            out.push('{');
            for (i, field) in fields.iter().enumerate() {
                separator(out, i);
                let (name, field_type) = udt_field_key(ty, i);
                write_quoted(out, &name);
                out.push_str(": ");
                match field {
                    Some(v) => write_json(out, v, field_type),
                    None => out.push_str("null"),
                }
            }
            out.push('}');
        }
        _ => out.push_str("null"),
    }
}

/// A map key as an object key (`MapType.toJSONString`): a key whose JSON is a string is
/// used as that string; any other key's JSON text becomes the string (`1` → `"1"`,
/// `[1, 2]` → `"[1, 2]"`).
fn map_key(key: &Value, ty: Option<&DataType>) -> String {
    match string_form(key) {
        Some(text) => text,
        None => {
            let mut text = String::new();
            write_json(&mut text, key, ty);
            text
        }
    }
}

/// A number from Java's exact text; the text is always valid JSON number syntax.
fn number(text: &str) -> Json {
    serde_json::from_str::<Number>(text)
        .map_or_else(|_| Json::String(text.to_string()), Json::Number)
}

fn to_json(value: &Value, ty: Option<&DataType>) -> Json {
    if let Some(text) = string_form(value) {
        return Json::String(text);
    }
    match value {
        Value::Null => Json::Null,
        Value::Boolean(b) => Json::Bool(*b),
        Value::Float(_) | Value::Double(_) => match finite_text(value) {
            Some(text) => number(&text),
            None => {
                let v = match value {
                    Value::Float(f) => f64::from(*f),
                    Value::Double(d) => *d,
                    _ => 0.0,
                };
                Json::String(java_double_to_string(v))
            }
        },
        Value::List(items) | Value::Set(items) | Value::Vector(items) => {
            let element = element_type(ty);
            Json::Array(items.iter().map(|v| to_json(v, element)).collect())
        }
        Value::Map(entries) => {
            let (key_type, value_type) = map_types(ty);
            let mut object = Map::new();
            for (k, v) in entries {
                object.insert(map_key(k, key_type), to_json(v, value_type));
            }
            Json::Object(object)
        }
        Value::Tuple(fields) => {
            let types = tuple_types(ty);
            Json::Array(
                (0..fields.len().max(types.len()))
                    .map(|i| match fields.get(i) {
                        Some(Some(v)) => to_json(v, types.get(i).copied()),
                        _ => Json::Null,
                    })
                    .collect(),
            )
        }
        Value::Udt(fields) => {
            let mut object = Map::new();
            for (i, field) in fields.iter().enumerate() {
                let (name, field_type) = udt_field_key(ty, i);
                let v = field
                    .as_ref()
                    .map_or(Json::Null, |v| to_json(v, field_type));
                object.insert(name, v);
            }
            Json::Object(object)
        }
        _ => scalar_text(value).map_or(Json::Null, |text| number(&text)),
    }
}

#[cfg(test)]
#[path = "json_tests.rs"]
mod tests;
