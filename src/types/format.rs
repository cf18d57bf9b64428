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

use super::calendar::{push_cqlsh_date, push_cqlsh_timestamp, push_time_text};
use super::data_type::DataType;
use super::duration::duration_to_string;
use super::number::{decimal_to_string, push_cqlsh_float};
use super::value::{date_days, Value};

/// cqlsh's `float_precision` and `double_precision` defaults.
const PRECISION: i64 = 5;

impl Value {
    /// The cell text cqlsh prints for this value of type `ty`: `null` for a null, an
    /// empty cell for an empty value or a zero duration.
    pub fn cqlsh_display(&self, ty: &DataType) -> String {
        let mut out = String::new();
        self.push_cqlsh_display(ty, &mut out);
        out
    }

    /// [`Value::cqlsh_display`] appended to `out`: the renderers write a page of cells
    /// into one buffer instead of allocating a string per value.
    pub fn push_cqlsh_display(&self, ty: &DataType, out: &mut String) {
        display(self, Some(ty), false, out);
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

fn display(value: &Value, ty: Option<&DataType>, quote: bool, out: &mut String) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Empty => {}
        Value::Ascii(s) | Value::Text(s) => escape_text(s, quote, out),
        Value::Tinyint(v) => push_display(v, out),
        Value::Smallint(v) => push_display(v, out),
        Value::Int(v) => push_display(v, out),
        Value::Bigint(v) | Value::Counter(v) => push_display(v, out),
        Value::Varint(v) => push_display(v, out),
        Value::Decimal(d) => out.push_str(&decimal_to_string(d)),
        Value::Float(v) => push_cqlsh_float(f64::from(*v), PRECISION, out),
        Value::Double(v) => push_cqlsh_float(*v, PRECISION, out),
        Value::Boolean(b) => out.push_str(if *b { "True" } else { "False" }),
        Value::Blob(bytes) => push_blob_hex(bytes, out),
        Value::Uuid(u) | Value::Timeuuid(u) => push_uuid_text(u, out),
        Value::Timestamp(ms) => quoted(quote, out, |out| push_cqlsh_timestamp(*ms, out)),
        Value::Date(raw) => push_cqlsh_date(date_days(*raw), out),
        Value::Time(ns) => push_time_text(*ns, out),
        Value::Duration(d) => out.push_str(&duration_to_string(d)),
        Value::Inet(addr) => quoted(quote, out, |out| out.push_str(&inet_ntop(addr))),
        Value::List(items) | Value::Vector(items) => {
            let element = element_type(ty);
            out.push('[');
            push_joined(out, items, |v, out| display(v, element, true, out));
            out.push(']');
        }
        Value::Set(items) => {
            let element = element_type(ty);
            let mut sorted: Vec<&Value> = items.iter().collect();
            sorted.sort_by(|a, b| python_cmp(a, b));
            out.push('{');
            push_joined(out, &sorted, |v, out| display(v, element, true, out));
            out.push('}');
        }
        Value::Map(entries) => display_map(entries, ty, out),
        Value::Tuple(fields) => display_tuple(fields, ty, out),
        Value::Udt(fields) => display_udt(fields, ty, out),
    }
}

/// `value` as its `Display` writes it, appended.
fn push_display(value: impl std::fmt::Display, out: &mut String) {
    let _ = write!(out, "{value}");
}

/// What `push` writes, single-quoted when `quote` is set (inside a collection).
fn quoted(quote: bool, out: &mut String, push: impl FnOnce(&mut String)) {
    if quote {
        out.push('\'');
    }
    push(out);
    if quote {
        out.push('\'');
    }
}

/// Each item written by `push`, separated by `, `.
fn push_joined<T>(out: &mut String, items: &[T], mut push: impl FnMut(&T, &mut String)) {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        push(item, out);
    }
}

fn display_map(entries: &[(Value, Value)], ty: Option<&DataType>, out: &mut String) {
    let (key_type, value_type) = match ty {
        Some(DataType::Map { key, value, .. }) => (Some(key.as_ref()), Some(value.as_ref())),
        _ => (None, None),
    };
    let mut sorted: Vec<&(Value, Value)> = entries.iter().collect();
    sorted.sort_by(|(a, _), (b, _)| python_cmp(a, b));
    out.push('{');
    push_joined(out, &sorted, |(k, v), out| {
        display(k, key_type, true, out);
        out.push_str(": ");
        display(v, value_type, true, out);
    });
    out.push('}');
}

fn display_tuple(fields: &[Option<Value>], ty: Option<&DataType>, out: &mut String) {
    let types: &[DataType] = match ty {
        Some(DataType::Tuple(items)) => items,
        _ => &[],
    };
    // The driver pads a short tuple with None up to its type's arity; a null
    // component is Python's None (cqlsh prints it through str()).
    let arity = fields.len().max(types.len());
    let indexes: Vec<usize> = (0..arity).collect();
    out.push('(');
    push_joined(out, &indexes, |&i, out| match fields.get(i) {
        Some(Some(v)) => display(v, types.get(i), true, out),
        _ => out.push_str("None"),
    });
    out.push(')');
}

fn display_udt(fields: &[Option<Value>], ty: Option<&DataType>, out: &mut String) {
    let types: &[(String, DataType)] = match ty {
        Some(DataType::Udt { fields, .. }) => fields,
        _ => &[],
    };
    let indexes: Vec<usize> = (0..fields.len()).collect();
    out.push('{');
    push_joined(out, &indexes, |&i, out| {
        let field_type = match types.get(i) {
            Some((name, t)) => {
                escape_text(name, false, out);
                Some(t)
            }
            None => {
                let _ = write!(out, "field{i}");
                None
            }
        };
        out.push_str(": ");
        match &fields[i] {
            Some(v) => display(v, field_type, true, out),
            None => out.push_str("null"),
        }
    });
    out.push('}');
}

/// cqlsh's `format_value_text`: backslashes doubled, `'` doubled when quoted, and the
/// characters U+0000–U+001F and U+007F–U+00A0 written as Python's `repr` writes them
/// (`\t`, `\n`, `\r`, otherwise `\xHH`).
fn escape_text(text: &str, quote: bool, out: &mut String) {
    if !quote && !text.bytes().any(needs_escape) {
        return out.push_str(text);
    }
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
}

/// Whether a UTF-8 byte may start something [`escape_text`] rewrites: a backslash, a
/// C0 control or DEL, or the lead byte `0xC2` of U+0080–U+00BF.
fn needs_escape(b: u8) -> bool {
    b == b'\\' || b < 0x20 || b == 0x7f || b == 0xc2
}

/// `0x` and lower-case hex; `0x` alone for an empty blob.
pub(crate) fn blob_hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(2 + bytes.len() * 2);
    push_blob_hex(bytes, &mut out);
    out
}

/// [`blob_hex`] appended to `out`.
fn push_blob_hex(bytes: &[u8], out: &mut String) {
    out.push_str("0x");
    for &b in bytes {
        push_hex_byte(b, out);
    }
}

/// The canonical lower-case `8-4-4-4-12` form.
pub(crate) fn uuid_text(u: &[u8; 16]) -> String {
    let mut out = String::with_capacity(36);
    push_uuid_text(u, &mut out);
    out
}

/// [`uuid_text`] appended to `out`.
fn push_uuid_text(u: &[u8; 16], out: &mut String) {
    for (i, &b) in u.iter().enumerate() {
        if matches!(i, 4 | 6 | 8 | 10) {
            out.push('-');
        }
        push_hex_byte(b, out);
    }
}

/// Two lower-case hex digits.
fn push_hex_byte(b: u8, out: &mut String) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push(char::from(HEX[usize::from(b >> 4)]));
    out.push(char::from(HEX[usize::from(b & 15)]));
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
