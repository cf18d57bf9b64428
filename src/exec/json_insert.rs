//! `INSERT INTO t JSON '…' [DEFAULT NULL | UNSET]` and `fromJson()`: JSON read into
//! values the way Cassandra 5.0 reads it (`Json.parseJson`, `JsonUtils`, and each
//! type's `fromJSONObject`), with Cassandra's messages.
//!
//! Cassandra parses the text with Jackson into plain Java objects first, and the types
//! then judge those objects, so the shape rules follow Java's classes: a JSON integer
//! is an `Integer` when it fits 32 bits, a `Long` when it fits 64, a `BigInteger`
//! otherwise; a number with a fraction or exponent is a `Double`. Hence an `int` column
//! refuses `3000000000` ("got a Long"), a `timestamp` takes a JSON integer only when it
//! is a `Long`, and a `decimal` given a JSON number with a fraction gets that `Double`'s
//! text (`1.10` becomes `1.1`). Strings always go through the type's `fromString`
//! ([`crate::types::coerce::from_string`]), the parser CQL literals use.

use std::borrow::Cow;

use num_bigint::BigInt;
use serde_json::{Number, Value as Json};

use crate::error::Error;
use crate::schema::{Column, Table};
use crate::syntax::ast::NativeType;
use crate::types::coerce::{from_string, FromStringError};
use crate::types::{DataType, Value};

/// The columns and values of an INSERT JSON object: every column of the table
/// when `default_unset` is false (missing ones as Value::Null), only the given
/// ones when it is true.
///
/// Values are decoded column by column in definition order before unknown keys are
/// reported, as Cassandra does, so a bad value wins over an unknown column.
pub(crate) fn columns_from_json<'t>(
    table: &'t Table,
    text: &str,
    default_unset: bool,
) -> Result<Vec<(&'t Column, Value)>, Error> {
    let object = match parse_json(text) {
        Ok(Json::Object(object)) => object,
        Ok(Json::Null) => return Err(Error::invalid("Got null for INSERT JSON values")),
        Ok(other) => {
            return Err(not_a_map(
                &format!("cannot read a map from {}", java_class(&other)),
                text,
            ))
        }
        Err(detail) => return Err(not_a_map(&detail, text)),
    };
    let mut entries = fold_keys(object.into_iter().collect());
    let mut out = Vec::with_capacity(table.columns.len());
    for column in table.columns.values() {
        match entries.iter().position(|(key, _)| *key == column.name) {
            Some(at) => {
                let (_, json) = entries.remove(at);
                out.push((column, from_json(&json, &column.data_type, &column.name)?));
            }
            None if default_unset => {}
            None => out.push((column, Value::Null)),
        }
    }
    match entries.first() {
        Some((key, _)) => Err(Error::invalid(format!(
            "JSON values map contains unrecognized column: {key}"
        ))),
        None => Ok(out),
    }
}

/// A JSON value (already parsed) as a value of type `ty`, as Cassandra's fromJson reads it.
///
/// `null` is [`Value::Null`]; anything else failing is `Error decoding JSON value for
/// <column>: <detail>`, the wrapping `Json.parseJson` gives INSERT JSON.
pub(crate) fn from_json(json: &Json, ty: &DataType, column: &str) -> Result<Value, Error> {
    if json.is_null() {
        return Ok(Value::Null);
    }
    decode(json, ty).map_err(|detail| {
        Error::invalid(format!("Error decoding JSON value for {column}: {detail}"))
    })
}

/// `Could not decode JSON string as a map: …`, Cassandra's message for text that is not a
/// JSON object (the detail is Jackson's there; here it is serde's or a description).
fn not_a_map(detail: &str, text: &str) -> Error {
    Error::invalid(format!(
        "Could not decode JSON string as a map: {detail}. (String was: {text})"
    ))
}

/// Parses JSON text as Jackson's `ObjectMapper.readValue` does by default: the first
/// value is read and anything after it ignored (Jackson does not fail on trailing tokens).
pub(crate) fn parse_json(text: &str) -> Result<Json, String> {
    let mut values = serde_json::Deserializer::from_str(text).into_iter::<Json>();
    match values.next() {
        Some(parsed) => parsed.map_err(|e| e.to_string()),
        None => Err("No content to map due to end-of-input".to_string()),
    }
}

/// `JsonUtils.handleCaseSensitivity`: a key wrapped in double quotes loses them and keeps
/// its case, any other key is lower-cased. Java re-inserts each changed key into its
/// `LinkedHashMap` (moving it to the end, or overwriting an equal key in place), and that
/// order decides which unknown key a message names, so it is replayed exactly.
fn fold_keys(mut entries: Vec<(String, Json)>) -> Vec<(String, Json)> {
    let keys: Vec<String> = entries.iter().map(|(key, _)| key.clone()).collect();
    for key in keys {
        let renamed = if key.len() >= 2 && key.starts_with('"') && key.ends_with('"') {
            key[1..key.len() - 1].to_string()
        } else {
            let lowered = key.to_lowercase();
            if lowered == key {
                continue;
            }
            lowered
        };
        let Some(at) = entries.iter().position(|(k, _)| *k == key) else {
            continue;
        };
        let (_, value) = entries.remove(at);
        match entries.iter_mut().find(|(k, _)| *k == renamed) {
            Some(slot) => slot.1 = value,
            None => entries.push((renamed, value)),
        }
    }
    entries
}

/// A non-null JSON value as type `ty`, failing with the text of Cassandra's
/// `MarshalException` (which `fromJson()` reports bare and INSERT JSON wraps).
pub(crate) fn decode(json: &Json, ty: &DataType) -> Result<Value, String> {
    use NativeType::*;
    let native = match ty {
        DataType::Native(native) => *native,
        DataType::List { element, .. } => return decode_list(json, element, None).map(Value::List),
        DataType::Set { element, .. } => {
            let expected = Some("a list (representing a set)");
            return decode_list(json, element, expected).map(Value::set_from);
        }
        DataType::Map { key, value, .. } => return decode_map(json, key, value),
        DataType::Tuple(types) => return decode_tuple(json, types),
        DataType::Udt { name, fields, .. } => return decode_udt(json, name, fields),
        DataType::Vector { element, dimension } => {
            return decode_vector(json, element, *dimension).map(Value::Vector)
        }
        DataType::Custom(_) => return Err(format!("Values of type {ty} cannot be read from JSON")),
    };
    let got = |what: &str| expected_shape(what, json);
    let parse = |text: &str| match from_string(ty, text) {
        Ok(value) => Ok(value),
        Err(FromStringError::Message(message)) => Err(message),
        Err(FromStringError::Unsupported) => Err(format!("Unable to make {ty} from '{text}'")),
    };
    let number = match json {
        Json::Number(n) => Some(JavaNumber::of(n)),
        _ => None,
    };
    match (native, json, number) {
        (_, Json::String(s), _) if !matches!(native, Varint | Decimal | Blob) => parse(s),
        (Ascii, ..) => Err(got("an ascii string")),
        (Text | Varchar, ..) => Err(got("a UTF-8 string")),
        (Boolean, Json::Bool(b), _) => Ok(Value::Boolean(*b)),
        (Boolean, ..) => Err(got("a boolean value")),
        // `fromString(String.valueOf(parsed))`: any number, as Java prints it.
        (Tinyint | Smallint, Json::Number(_), _) => parse(&java_text(json)),
        (Tinyint, ..) => Err(got("a byte value")),
        (Smallint, ..) => Err(got("a short value")),
        (Int, _, Some(JavaNumber::Integer(i))) => Ok(Value::Int(i)),
        (Int, ..) => Err(got("an int value")),
        (Bigint, _, Some(JavaNumber::Integer(i))) => Ok(Value::Bigint(i64::from(i))),
        (Bigint, _, Some(JavaNumber::Long(l))) => Ok(Value::Bigint(l)),
        (Bigint, ..) => Err(got("a bigint value")),
        // `new BigInteger(parsed.toString())` / `new BigDecimal(parsed.toString())`.
        (Varint | Decimal, ..) => {
            let text = java_text(json);
            let invalid =
                || format!("Value '{text}' is not a valid representation of a {ty} value");
            if text.is_empty() {
                return Err(invalid());
            }
            parse(&text).map_err(|_| invalid())
        }
        (Float, _, Some(n)) => Ok(Value::Float(n.float_value())),
        (Float, ..) => Err(got("a float value")),
        (Double, _, Some(n)) => Ok(Value::Double(n.double_value())),
        (Double, ..) => Err(got("a double value")),
        (Blob, ..) => decode_blob(json, parse),
        (Timestamp, _, Some(JavaNumber::Long(millis))) => Ok(Value::Timestamp(millis)),
        (Timestamp, ..) => Err(got(
            "a long or a datestring representation of a timestamp value",
        )),
        (Uuid, ..) => Err(got("a string representation of a uuid")),
        (Timeuuid, ..) => Err(got("a string representation of a timeuuid")),
        (Date, ..) => Err(got("a string representation of a date value")),
        (Time, ..) => Err(got("a string representation of a time value")),
        (Duration, ..) => Err(got("a string representation of a duration")),
        (Inet, ..) => Err(got("a string representation of an inet value")),
        (Counter, ..) => Err(format!("Values of type {ty} cannot be read from JSON")),
    }
}

/// `BytesType.fromJSONObject`: a string starting `0x`, then hex digits; every failure,
/// a non-string's `ClassCastException` included, is wrapped in one message.
fn decode_blob(
    json: &Json,
    parse: impl Fn(&str) -> Result<Value, String>,
) -> Result<Value, String> {
    let text = java_text(json);
    let result = match json {
        Json::String(s) => match s.strip_prefix("0x") {
            Some(hex) => parse(hex),
            None => Err(format!(
                "String representation of blob is missing 0x prefix: {s}"
            )),
        },
        _ => {
            let package = match java_class(json) {
                "BigInteger" => "java.math",
                "ArrayList" | "LinkedHashMap" => "java.util",
                _ => "java.lang",
            };
            let class = format!("{package}.{}", java_class(json));
            Err(format!(
                "class {class} cannot be cast to class java.lang.String ({class} and \
                 java.lang.String are in module java.base of loader 'bootstrap')"
            ))
        }
    };
    result.map_err(|m| format!("Value '{text}' is not a valid blob representation: {m}"))
}

/// Collections, tuples and UDTs also accept their JSON written inside a string
/// (`JsonUtils.decodeJson`), which is how map keys of those types arrive.
fn unwrap_string(json: &Json) -> Result<Cow<'_, Json>, String> {
    match json {
        Json::String(s) => parse_json(s)
            .map(Cow::Owned)
            .map_err(|e| format!("Error decoding JSON string: {e}")),
        other => Ok(Cow::Borrowed(other)),
    }
}

/// `ListType`/`SetType.fromJSONObject`: an array of non-null elements (`expected` names
/// the set's shape in the message; the caller sorts and deduplicates a set).
fn decode_list(
    json: &Json,
    element: &DataType,
    expected: Option<&str>,
) -> Result<Vec<Value>, String> {
    let json = unwrap_string(json)?;
    let Json::Array(items) = &*json else {
        return Err(expected_shape(expected.unwrap_or("a list"), &json));
    };
    let kind = if expected.is_some() { "set" } else { "list" };
    let decode_one = |item: &Json| match item {
        Json::Null => Err(format!("Invalid null element in {kind}")),
        _ => decode(item, element),
    };
    items.iter().map(decode_one).collect()
}

/// `VectorType.fromJSONObject`: a list of exactly `dimension` elements.
fn decode_vector(json: &Json, element: &DataType, dimension: u32) -> Result<Vec<Value>, String> {
    let json = unwrap_string(json)?;
    match &*json {
        Json::Array(items) if items.len() != dimension as usize => Err(format!(
            "List had incorrect size: expected {dimension} but given {}; {}",
            items.len(),
            java_text(&json)
        )),
        Json::Array(_) => decode_list(&json, element, None),
        _ => Err(expected_shape("a list", &json)),
    }
}

/// `MapType.fromJSONObject`: an object whose keys (JSON strings) are read as the key
/// type, as if each were a JSON string value (`"1"` for an `int` key).
fn decode_map(json: &Json, key: &DataType, value: &DataType) -> Result<Value, String> {
    let json = unwrap_string(json)?;
    let Json::Object(object) = &*json else {
        return Err(expected_shape("a map", &json));
    };
    let mut entries = Vec::with_capacity(object.len());
    for (k, v) in object {
        if v.is_null() {
            return Err("Invalid null value in map".to_string());
        }
        entries.push((decode(&Json::String(k.clone()), key)?, decode(v, value)?));
    }
    Ok(Value::map_from(entries))
}

/// `TupleType.fromJSONObject`: an array with exactly one element per component; a null
/// element is a null component.
fn decode_tuple(json: &Json, types: &[DataType]) -> Result<Value, String> {
    let json = unwrap_string(json)?;
    let Json::Array(items) = &*json else {
        return Err(expected_shape("a list representation of a tuple", &json));
    };
    if items.len() != types.len() {
        let how = if items.len() > types.len() {
            "contains extra"
        } else {
            "is missing"
        };
        return Err(format!(
            "Tuple {how} items (expected {}): {}",
            types.len(),
            java_text(&json)
        ));
    }
    let values = items.iter().zip(types).map(|(item, ty)| match item {
        Json::Null => Ok(None),
        _ => decode(item, ty).map(Some),
    });
    Ok(Value::Tuple(values.collect::<Result<_, _>>()?))
}

/// `UserType.fromJSONObject`: an object of field names, read like column names; missing
/// and null fields are null, field values are decoded before unknown fields are refused.
fn decode_udt(json: &Json, name: &str, fields: &[(String, DataType)]) -> Result<Value, String> {
    let json = unwrap_string(json)?;
    let Json::Object(object) = &*json else {
        return Err(expected_shape("a map", &json));
    };
    let given = fold_keys(object.clone().into_iter().collect());
    let mut values = Vec::with_capacity(fields.len());
    for (field, ty) in fields {
        values.push(match given.iter().find(|(k, _)| k == field) {
            Some((_, v)) if !v.is_null() => Some(decode(v, ty)?),
            _ => None,
        });
    }
    if let Some((unknown, _)) = given
        .iter()
        .find(|(k, _)| !fields.iter().any(|(f, _)| f == k))
    {
        return Err(format!(
            "Unknown field '{unknown}' in value of user defined type {name}"
        ));
    }
    Ok(Value::Udt(values))
}

/// `Expected <what>, but got a <Class>: <value>`, the shape complaint of every type.
fn expected_shape(what: &str, json: &Json) -> String {
    format!(
        "Expected {what}, but got a {}: {}",
        java_class(json),
        java_text(json)
    )
}

/// A JSON number as the Java object Jackson makes of it.
enum JavaNumber {
    Integer(i32),
    Long(i64),
    BigInteger(BigInt),
    Double(f64),
}

impl JavaNumber {
    /// Jackson's choice: integers by size, anything with a fraction or exponent a double.
    fn of(n: &Number) -> JavaNumber {
        let text = n.to_string();
        if text.contains(['.', 'e', 'E']) {
            JavaNumber::Double(text.parse().unwrap_or(f64::NAN))
        } else if let Ok(i) = text.parse() {
            JavaNumber::Integer(i)
        } else if let Ok(l) = text.parse() {
            JavaNumber::Long(l)
        } else {
            JavaNumber::BigInteger(text.parse().unwrap_or_default())
        }
    }

    /// `Number.floatValue()`: integers round straight to the nearest float, a double
    /// rounds from its own (already rounded) value.
    fn float_value(&self) -> f32 {
        match self {
            JavaNumber::Double(d) => *d as f32,
            other => other.to_string().parse().unwrap_or(f32::NAN),
        }
    }

    /// `Number.doubleValue()`.
    fn double_value(&self) -> f64 {
        match self {
            JavaNumber::Double(d) => *d,
            other => other.to_string().parse().unwrap_or(f64::NAN),
        }
    }
}

/// Java's `toString` of the number.
impl std::fmt::Display for JavaNumber {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            JavaNumber::Integer(i) => write!(f, "{i}"),
            JavaNumber::Long(l) => write!(f, "{l}"),
            JavaNumber::BigInteger(b) => write!(f, "{b}"),
            JavaNumber::Double(d) => f.write_str(&java_double(*d)),
        }
    }
}

/// Java's `Double.toString`: plain digits with at least one decimal for magnitudes in
/// [10⁻³, 10⁷), otherwise `d.dddE±n`; the shortest digits that read back the same.
fn java_double(v: f64) -> String {
    if v.is_nan() {
        return "NaN".to_string();
    }
    if v.is_infinite() {
        return if v > 0.0 { "Infinity" } else { "-Infinity" }.to_string();
    }
    let magnitude = v.abs();
    if magnitude == 0.0 || (1e-3..1e7).contains(&magnitude) {
        let plain = format!("{v}");
        return if plain.contains('.') {
            plain
        } else {
            format!("{plain}.0")
        };
    }
    let scientific = format!("{v:e}");
    let (mantissa, exponent) = scientific.split_once('e').unwrap_or((&scientific, "0"));
    let point = if mantissa.contains('.') { "" } else { ".0" };
    format!("{mantissa}{point}E{exponent}")
}

/// The simple name of the Java class Jackson gives a JSON value (`getSimpleName()`).
fn java_class(json: &Json) -> &'static str {
    match json {
        Json::Null => "null",
        Json::Bool(_) => "Boolean",
        Json::Number(n) => match JavaNumber::of(n) {
            JavaNumber::Integer(_) => "Integer",
            JavaNumber::Long(_) => "Long",
            JavaNumber::BigInteger(_) => "BigInteger",
            JavaNumber::Double(_) => "Double",
        },
        Json::String(_) => "String",
        Json::Array(_) => "ArrayList",
        Json::Object(_) => "LinkedHashMap",
    }
}

/// Java's `toString` of the object Jackson makes of a JSON value: strings bare, lists
/// `[a, b]`, maps `{k=v}`.
fn java_text(json: &Json) -> String {
    let join = |items: Vec<String>| items.join(", ");
    match json {
        Json::Null => "null".to_string(),
        Json::Bool(b) => b.to_string(),
        Json::Number(n) => JavaNumber::of(n).to_string(),
        Json::String(s) => s.clone(),
        Json::Array(items) => format!("[{}]", join(items.iter().map(java_text).collect())),
        Json::Object(map) => format!(
            "{{{}}}",
            join(
                map.iter()
                    .map(|(k, v)| format!("{k}={}", java_text(v)))
                    .collect()
            )
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planner::PlanContext;

    /// The table `ks.t` with `columns`, in a keyspace that also has the UDT `addr`.
    fn table(columns: &str) -> Table {
        let schema = format!(
            "CREATE KEYSPACE ks WITH replication = {{'class': 'SimpleStrategy', 'replication_factor': 1}};
             USE ks;
             CREATE TYPE addr (street text, \"Zip\" int);
             CREATE TABLE t ({columns});"
        );
        let mut ctx = PlanContext::new();
        for statement in crate::split_statements(&schema) {
            let parsed = crate::parse_statement(&statement.text).expect("schema parses");
            ctx.apply_schema(&parsed).expect("schema applies");
        }
        ctx.catalog.table("ks", "t").expect("table exists").clone()
    }

    /// Checks `type | JSON | expected` lines through [`from_json`]: the expected text is
    /// the value's `Debug` form, or `!` and the error's detail; a final `*` matches a prefix.
    fn check(cases: &str) {
        for line in cases.lines().map(str::trim).filter(|l| !l.is_empty()) {
            let [ty, json, expected] =
                <[&str; 3]>::try_from(line.splitn(3, " | ").collect::<Vec<_>>())
                    .unwrap_or_else(|_| panic!("bad case {line}"));
            let t = table(&format!("k int PRIMARY KEY, c {ty}"));
            let parsed = parse_json(json).expect("test JSON parses");
            let got = match from_json(&parsed, &t.column("c").unwrap().data_type, "c") {
                Ok(value) => format!("{value:?}"),
                Err(e) => e
                    .message()
                    .replace("Error decoding JSON value for c: ", "!"),
            };
            let matched = match expected.strip_suffix('*') {
                Some(prefix) => got.starts_with(prefix),
                None => got == expected,
            };
            assert!(matched, "{ty} from {json}: got {got}, expected {expected}");
        }
    }

    /// INSERT JSON into `(k int PRIMARY KEY, v int, "Foo" text)`: `name=value` pairs.
    fn insert(text: &str, unset: bool) -> Result<String, String> {
        let t = table("k int PRIMARY KEY, v int, \"Foo\" text");
        let columns = columns_from_json(&t, text, unset).map_err(|e| e.message().to_string())?;
        let shown: Vec<String> = columns
            .iter()
            .map(|(c, v)| format!("{}={v:?}", c.name))
            .collect();
        Ok(shown.join(" "))
    }

    #[test]
    fn keys_fold_like_identifiers_unless_quoted() {
        let all = insert(r#"{"K": 1, "\"Foo\"": "x"}"#, false);
        assert_eq!(all.unwrap(), r#"k=Int(1) v=Null Foo=Text("x")"#);
        let unknown = |text| insert(text, false).unwrap_err();
        let message = "JSON values map contains unrecognized column: ";
        assert_eq!(unknown(r#"{"k": 1, "Foo": "x"}"#), format!("{message}foo"));
        assert_eq!(unknown(r#"{"k": 1, "\"K\"": 2}"#), format!("{message}K"));
        // Jackson re-inserts changed keys at the end; the first one left over is named.
        assert_eq!(unknown(r#"{"B": 1, "a": 2}"#), format!("{message}a"));
        // Values are decoded before unknown keys are reported.
        let bad = unknown(r#"{"zz": 1, "v": "x"}"#);
        assert_eq!(
            bad,
            "Error decoding JSON value for v: Unable to make int from 'x'"
        );
    }

    #[test]
    fn default_unset_keeps_only_given_columns() {
        let given = insert(r#"{"k": 1, "v": null}"#, true).unwrap();
        assert_eq!(given, "k=Int(1) v=Null");
    }

    #[test]
    fn malformed_or_non_object_text() {
        let failure = |text| insert(text, false).unwrap_err();
        assert!(failure("{\"k\": ").starts_with("Could not decode JSON string as a map: "));
        assert!(failure("").starts_with("Could not decode JSON string as a map: "));
        assert!(failure("[1]").ends_with("(String was: [1])"));
        assert_eq!(failure("null"), "Got null for INSERT JSON values");
        // Jackson ignores whatever follows the first value.
        assert_eq!(insert(r#"{"k": 1} trailing"#, true).unwrap(), "k=Int(1)");
    }

    #[test]
    fn integers() {
        check(
            r#"
            int | 7 | Int(7)
            int | "-7" | Int(-7)
            int | 3000000000 | !Expected an int value, but got a Long: 3000000000
            int | 1.5e10 | !Expected an int value, but got a Double: 1.5E10
            int | [1, "a"] | !Expected an int value, but got a ArrayList: [1, a]
            int | "x" | !Unable to make int from 'x'
            bigint | 3000000000 | Bigint(3000000000)
            bigint | 9223372036854775808 | !Expected a bigint value, but got a BigInteger: *
            smallint | -5 | Smallint(-5)
            smallint | 32768 | !Unable to make short from '32768'
            tinyint | 1.0 | !Unable to make byte from '1.0'
            tinyint | true | !Expected a byte value, but got a Boolean: true
            varint | 123456789012345678901234567890 | Varint(123456789012345678901234567890)
            varint | "" | !Value '' is not a valid representation of a varint value
            varint | 1.5 | !Value '1.5' is not a valid representation of a varint value
            "#,
        );
    }

    #[test]
    fn floats_and_decimals() {
        // A JSON number with a fraction or exponent is a Java double, even for a decimal.
        check(
            r#"
            float | 1.5 | Float(1.5)
            float | 16777217 | Float(16777216.0)
            double | "1e3" | Double(1000.0)
            double | "NaN" | Double(NaN)
            double | true | !Expected a double value, but got a Boolean: true
            decimal | "1.50" | Decimal(Decimal { unscaled: 150, scale: 2 })
            decimal | 1.10 | Decimal(Decimal { unscaled: 11, scale: 1 })
            decimal | 1e2 | Decimal(Decimal { unscaled: 1000, scale: 1 })
            decimal | 12345678901234567890 | Decimal(Decimal { unscaled: 12345678901234567890, *
            decimal | {"a": 1} | !Value '{a=1}' is not a valid representation of a decimal value
            "#,
        );
    }

    #[test]
    fn strings_booleans_and_string_typed_values() {
        check(
            r#"
            text | "héllo" | Text("héllo")
            text | 12 | !Expected a UTF-8 string, but got a Integer: 12
            ascii | "é" | !Invalid ASCII character in string literal*
            boolean | true | Boolean(true)
            boolean | "FALSE" | Boolean(false)
            boolean | 1 | !Expected a boolean value, but got a Integer: 1
            uuid | "6bddc89a-5644-11e4-97fc-56847afe9799" | Uuid([107, 221, *
            timeuuid | 1 | !Expected a string representation of a timeuuid, but got a Integer: 1
            inet | "127.0.0.1" | Inet(127.0.0.1)
            inet | {} | !Expected a string representation of an inet value, but got a LinkedHashMap: {}
            date | "1970-01-02" | Date(2147483649)
            time | "00:00:01" | Time(1000000000)
            duration | "1h" | Duration(CqlDuration { months: 0, days: 0, nanos: 3600000000000 })
            duration | 5 | !Expected a string representation of a duration, but got a Integer: 5
            blob | "0x0aff" | Blob([10, 255])
            blob | "12" | !Value '12' is not a valid blob representation: String representation of blob is missing 0x prefix: 12
            blob | 12 | !Value '12' is not a valid blob representation: class java.lang.Integer cannot be cast*
            "#,
        );
    }

    #[test]
    fn timestamps_take_strings_and_long_numbers() {
        // Jackson makes a small integer an Integer, which TimestampType refuses.
        check(
            r#"
            timestamp | "1970-01-01 00:00:01+0000" | Timestamp(1000)
            timestamp | 123123123123 | Timestamp(123123123123)
            timestamp | 1000 | !Expected a long or a datestring representation of a timestamp value, but got a Integer: 1000
            "#,
        );
    }

    #[test]
    fn collections() {
        check(
            r#"
            list<int> | [3, 1, 3] | List([Int(3), Int(1), Int(3)])
            list<int> | "[2]" | List([Int(2)])
            list<int> | 5 | !Expected a list, but got a Integer: 5
            list<int> | [null] | !Invalid null element in list
            list<int> | "[1" | !Error decoding JSON string: *
            set<int> | [3, 1, 3] | Set([Int(1), Int(3)])
            set<int> | [null] | !Invalid null element in set
            set<int> | {} | !Expected a list (representing a set), but got a LinkedHashMap: {}
            map<int, text> | {"2": "b", "1": "a"} | Map([(Int(1), Text("a")), (Int(2), Text("b"))])
            map<int, text> | {"1": null} | !Invalid null value in map
            map<int, text> | {"x": "a"} | !Unable to make int from 'x'
            map<frozen<list<int>>, int> | {"[1, 2]": 3} | Map([(List([Int(1), Int(2)]), Int(3))])
            vector<int, 2> | [1, 2] | Vector([Int(1), Int(2)])
            vector<int, 2> | [1] | !List had incorrect size: expected 2 but given 1; [1]
            "#,
        );
    }

    #[test]
    fn tuples_and_udts() {
        check(
            r#"
            frozen<tuple<int, text>> | [1, null] | Tuple([Some(Int(1)), None])
            frozen<tuple<int, text>> | [1] | !Tuple is missing items (expected 2): [1]
            frozen<tuple<int, text>> | [1, "a", 2] | !Tuple contains extra items (expected 2): [1, a, 2]
            frozen<tuple<int, text>> | {} | !Expected a list representation of a tuple, but got a LinkedHashMap: {}
            frozen<addr> | {"STREET": "x", "\"Zip\"": 5} | Udt([Some(Text("x")), Some(Int(5))])
            frozen<addr> | {"street": null} | Udt([None, None])
            frozen<addr> | {"zip": 5} | !Unknown field 'zip' in value of user defined type addr
            frozen<addr> | {"zip": 1, "street": 5} | !Expected a UTF-8 string, but got a Integer: 5
            frozen<addr> | 5 | !Expected a map, but got a Integer: 5
            "#,
        );
    }

    #[test]
    fn java_double_texts() {
        let texts = [1.0, 0.001, 1e7, 1.5e-5, -0.0, 123456.789, f64::INFINITY].map(java_double);
        assert_eq!(
            texts,
            [
                "1.0",
                "0.001",
                "1.0E7",
                "1.5E-5",
                "-0.0",
                "123456.789",
                "Infinity"
            ]
        );
    }
}
