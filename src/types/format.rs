//! Values as cqlsh 6.2 shows them (`cqlshlib/formatting.py` over the Python driver's
//! decoded objects), default settings: float and double precision 5, UTC, no colour.
//!
//! Inside collections, tuples and UDTs, text, ascii, inet and timestamp values are
//! single-quoted (with `'` doubled); numbers, booleans, uuids, blobs, dates, times and
//! durations are not. Sets and map keys appear in *Python's* order, which the driver and
//! cqlsh impose (`SortedSet`, `sorted(map.items())`): the same as Cassandra's except that
//! uuids compare as 128-bit integers and inet addresses as their text.

use std::cmp::Ordering;
use std::fmt::Write;
use std::net::{IpAddr, Ipv6Addr};

use super::calendar::{cqlsh_date, cqlsh_timestamp, time_text};
use super::data_type::DataType;
use super::duration::duration_to_string;
use super::number::{cqlsh_float, decimal_to_string};
use super::value::{date_days, Value};

/// cqlsh's `float_precision` and `double_precision` defaults.
const PRECISION: i64 = 5;

impl Value {
    /// The cell text cqlsh prints for this value of type `ty`: `null` for a null, an
    /// empty cell for an empty value or a zero duration.
    pub fn cqlsh_display(&self, ty: &DataType) -> String {
        display(self, Some(ty), false)
    }
}

/// The element types of a composite type, if `ty` is one.
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

fn display(value: &Value, ty: Option<&DataType>, quote: bool) -> String {
    let quoted = |text: String| if quote { format!("'{text}'") } else { text };
    match value {
        Value::Null => "null".into(),
        Value::Empty => String::new(),
        Value::Ascii(s) | Value::Text(s) => escape_text(s, quote),
        Value::Tinyint(v) => v.to_string(),
        Value::Smallint(v) => v.to_string(),
        Value::Int(v) => v.to_string(),
        Value::Bigint(v) | Value::Counter(v) => v.to_string(),
        Value::Varint(v) => v.to_string(),
        Value::Decimal(d) => decimal_to_string(d),
        Value::Float(v) => cqlsh_float(f64::from(*v), PRECISION),
        Value::Double(v) => cqlsh_float(*v, PRECISION),
        Value::Boolean(b) => if *b { "True" } else { "False" }.into(),
        Value::Blob(bytes) => blob_hex(bytes),
        Value::Uuid(u) | Value::Timeuuid(u) => uuid_text(u),
        Value::Timestamp(ms) => quoted(cqlsh_timestamp(*ms)),
        Value::Date(raw) => cqlsh_date(date_days(*raw)),
        Value::Time(ns) => time_text(*ns),
        Value::Duration(d) => duration_to_string(d),
        Value::Inet(addr) => quoted(inet_ntop(addr)),
        Value::List(items) | Value::Vector(items) => {
            let element = element_type(ty);
            let parts: Vec<String> = items.iter().map(|v| display(v, element, true)).collect();
            format!("[{}]", parts.join(", "))
        }
        Value::Set(items) => {
            let element = element_type(ty);
            let mut sorted: Vec<&Value> = items.iter().collect();
            sorted.sort_by(|a, b| python_cmp(a, b));
            let parts: Vec<String> = sorted.iter().map(|v| display(v, element, true)).collect();
            format!("{{{}}}", parts.join(", "))
        }
        Value::Map(entries) => {
            let (key_type, value_type) = match ty {
                Some(DataType::Map { key, value, .. }) => {
                    (Some(key.as_ref()), Some(value.as_ref()))
                }
                _ => (None, None),
            };
            let mut sorted: Vec<&(Value, Value)> = entries.iter().collect();
            sorted.sort_by(|(a, _), (b, _)| python_cmp(a, b));
            let parts: Vec<String> = sorted
                .iter()
                .map(|(k, v)| {
                    format!(
                        "{}: {}",
                        display(k, key_type, true),
                        display(v, value_type, true)
                    )
                })
                .collect();
            format!("{{{}}}", parts.join(", "))
        }
        Value::Tuple(fields) => {
            let types: Vec<&DataType> = match ty {
                Some(DataType::Tuple(items)) => items.iter().collect(),
                _ => Vec::new(),
            };
            // The driver pads a short tuple with None up to its type's arity; a null
            // component is Python's None (cqlsh prints it through str()).
            let arity = fields.len().max(types.len());
            let parts: Vec<String> = (0..arity)
                .map(|i| match fields.get(i) {
                    Some(Some(v)) => display(v, types.get(i).copied(), true),
                    _ => "None".to_string(),
                })
                .collect();
            format!("({})", parts.join(", "))
        }
        Value::Udt(fields) => {
            let types: &[(String, DataType)] = match ty {
                Some(DataType::Udt { fields, .. }) => fields,
                _ => &[],
            };
            let parts: Vec<String> = fields
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    let (name, field_type) = match types.get(i) {
                        Some((n, t)) => (escape_text(n, false), Some(t)),
                        None => (format!("field{i}"), None),
                    };
                    let shown = match v {
                        Some(v) => display(v, field_type, true),
                        None => "null".to_string(),
                    };
                    format!("{name}: {shown}")
                })
                .collect();
            format!("{{{}}}", parts.join(", "))
        }
    }
}

/// cqlsh's `format_value_text`: backslashes doubled, `'` doubled when quoted, and the
/// characters U+0000–U+001F and U+007F–U+00A0 written as Python's `repr` writes them
/// (`\t`, `\n`, `\r`, otherwise `\xHH`).
fn escape_text(text: &str, quote: bool) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    if quote {
        out.push('\'');
    }
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\'' if quote => out.push_str("''"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\u{00}'..='\u{1f}' | '\u{7f}'..='\u{a0}' => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            _ => out.push(c),
        }
    }
    if quote {
        out.push('\'');
    }
    out
}

/// `0x` and lower-case hex; `0x` alone for an empty blob.
pub(crate) fn blob_hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(2 + bytes.len() * 2);
    out.push_str("0x");
    for b in bytes {
        let _ = write!(out, "{b:02x}");
    }
    out
}

/// The canonical lower-case `8-4-4-4-12` form.
pub(crate) fn uuid_text(u: &[u8; 16]) -> String {
    let mut out = String::with_capacity(36);
    for (i, b) in u.iter().enumerate() {
        if matches!(i, 4 | 6 | 8 | 10) {
            out.push('-');
        }
        let _ = write!(out, "{b:02x}");
    }
    out
}

/// An address as glibc's `inet_ntop` (which the driver uses) writes it: the longest run
/// of two or more zero groups (the first, on a tie) becomes `::`, and an IPv6 address whose
/// first 96 bits are zero (or 80 zero bits then `ffff`) ends in dotted IPv4 — `::1.2.3.4`,
/// where Rust's own formatting would write `::102:304`.
fn inet_ntop(addr: &IpAddr) -> String {
    let v6 = match addr {
        IpAddr::V4(v4) => return v4.to_string(),
        IpAddr::V6(v6) => v6,
    };
    let words = v6.segments();
    let (mut best, mut current): ((usize, usize), Option<(usize, usize)>) = ((0, 0), None);
    for (i, &w) in words.iter().enumerate() {
        if w == 0 {
            let run = current.map_or((i, 1), |(start, len)| (start, len + 1));
            current = Some(run);
            if run.1 > best.1 {
                best = run;
            }
        } else {
            current = None;
        }
    }
    let (run_start, run_len) = if best.1 >= 2 { best } else { (usize::MAX, 0) };
    let mut out = String::new();
    let mut i = 0;
    while i < 8 {
        if i == run_start {
            out.push(':');
            i += run_len;
            if i == 8 {
                out.push(':');
            }
            continue;
        }
        if i != 0 {
            out.push(':');
        }
        if i == 6 && run_start == 0 && (run_len == 6 || (run_len == 5 && words[5] == 0xffff)) {
            let o = v6.octets();
            let _ = write!(out, "{}.{}.{}.{}", o[12], o[13], o[14], o[15]);
            break;
        }
        let _ = write!(out, "{:x}", words[i]);
        i += 1;
    }
    out
}

/// Java's `Inet6Address.getHostAddress`: eight groups in lower-case hex without leading
/// zeros and without `::` compression (`0:0:0:0:0:0:0:1`); IPv4 dotted.
pub(crate) fn java_host_address(addr: &IpAddr) -> String {
    match addr {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => {
            let groups: Vec<String> = Ipv6Addr::segments(v6)
                .iter()
                .map(|g| format!("{g:x}"))
                .collect();
            groups.join(":")
        }
    }
}

/// The order Python gives the driver's decoded objects, for sets and map keys. It is
/// Cassandra's except for uuids (`UUID` compares its 128-bit integer) and inet
/// addresses (plain `str`), recursively inside frozen lists and tuples.
fn python_cmp(a: &Value, b: &Value) -> Ordering {
    match (a, b) {
        (Value::Uuid(x), Value::Uuid(y)) | (Value::Timeuuid(x), Value::Timeuuid(y)) => x.cmp(y),
        (Value::Inet(x), Value::Inet(y)) => inet_ntop(x).cmp(&inet_ntop(y)),
        (Value::List(x), Value::List(y)) => x
            .iter()
            .zip(y)
            .map(|(p, q)| python_cmp(p, q))
            .find(|o| o.is_ne())
            .unwrap_or_else(|| x.len().cmp(&y.len())),
        _ => a.cmp(b),
    }
}

#[cfg(test)]
#[path = "format_tests.rs"]
mod tests;
