//! `CAST(x AS type)` (language.md §4.5; Cassandra 5.0 `CastFcts`): numbers to numbers
//! with Java's `Number` conversions, numbers and a few other types to `text`/`ascii` as
//! `toCQLLiteralNoQuote` writes them, and the temporal conversions `timeuuid` → `date` /
//! `timestamp`, `timestamp` → `date`, `date` → `timestamp`.

use crate::syntax::ast::NativeType;
use crate::types::{DataType, Value};

use super::arith;
use super::time;

/// `CAST(value AS to)` of a value of type `from` (a pair `CastFcts` registers). Null and
/// empty values give null. The error is the Java exception text of a conversion that
/// throws (a NaN or infinity cast to decimal).
pub(super) fn cast(value: &Value, from: NativeType, to: NativeType) -> Result<Value, String> {
    use NativeType as T;
    if matches!(value, Value::Null | Value::Empty) {
        return Ok(Value::Null);
    }
    if matches!(to, T::Text | T::Ascii) {
        let text = literal_text(value, from);
        return Ok(if to == T::Ascii {
            Value::Ascii(text)
        } else {
            Value::Text(text)
        });
    }
    Ok(match (from, to) {
        (T::Timeuuid | T::Timestamp, T::Date) => time::to_date(value),
        (T::Timeuuid | T::Date, T::Timestamp) => time::to_timestamp(value),
        _ => arith::convert(value, to)?,
    })
}

/// `TypeSerializer.toCQLLiteralNoQuote`: Java's `toString` of the value (`1.0` for a
/// double 1, `5.2` for a float, `127.0.0.1`, `true`, a lower-case UUID), a timestamp as
/// `yyyy-MM-dd'T'HH:mm:ss.SSSX` in UTC (`2015-05-21T11:03:02.000Z`), a date as
/// `2015-05-21`, a time as `11:03:02.000000000`.
fn literal_text(value: &Value, from: NativeType) -> String {
    match value {
        Value::Ascii(s) | Value::Text(s) => s.clone(),
        Value::Float(v) if !v.is_finite() => java_special(f64::from(*v)),
        Value::Double(v) if !v.is_finite() => java_special(*v),
        Value::Boolean(b) => b.to_string(),
        _ => {
            let json = value.to_json_text(&DataType::Native(from));
            let text = json
                .strip_prefix('"')
                .and_then(|t| t.strip_suffix('"'))
                .unwrap_or(&json);
            if matches!(value, Value::Timestamp(_)) {
                text.replacen(' ', "T", 1)
            } else {
                text.to_string()
            }
        }
    }
}

fn java_special(v: f64) -> String {
    if v.is_nan() {
        "NaN".into()
    } else if v > 0.0 {
        "Infinity".into()
    } else {
        "-Infinity".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::serialize::parse_timestamp;
    use NativeType as T;

    fn text_of(value: Value, from: NativeType) -> String {
        match cast(&value, from, T::Text).expect("cast") {
            Value::Text(s) => s,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn to_text_is_javas_to_string() {
        // CastFctsTest.testNumericCastsInSelectionClause and friends.
        assert_eq!(text_of(Value::Tinyint(1), T::Tinyint), "1");
        assert_eq!(text_of(Value::Float(5.2), T::Float), "5.2");
        assert_eq!(text_of(Value::Double(6.3), T::Double), "6.3");
        assert_eq!(text_of(Value::Double(1.0), T::Double), "1.0");
        assert_eq!(text_of(Value::Double(1e10), T::Double), "1.0E10");
        assert_eq!(text_of(Value::Double(f64::NAN), T::Double), "NaN");
        assert_eq!(
            text_of(Value::Float(f32::NEG_INFINITY), T::Float),
            "-Infinity"
        );
        assert_eq!(text_of(Value::decimal(63, 1), T::Decimal), "6.3");
        assert_eq!(text_of(Value::varint(4), T::Varint), "4");
        assert_eq!(text_of(Value::Counter(2), T::Counter), "2");
        assert_eq!(text_of(Value::Boolean(true), T::Boolean), "true");
        assert_eq!(
            text_of(Value::Inet("127.0.0.1".parse().unwrap()), T::Inet),
            "127.0.0.1"
        );
        assert_eq!(
            text_of(Value::Inet("::1".parse().unwrap()), T::Inet),
            "0:0:0:0:0:0:0:1"
        );
        assert_eq!(text_of(Value::Ascii("test".into()), T::Ascii), "test");
        let u = crate::types::timeuuid::min_timeuuid(0);
        assert_eq!(
            text_of(Value::Timeuuid(u), T::Timeuuid),
            "13814000-1dd2-11b2-8080-808080808080"
        );
    }

    #[test]
    fn temporal_casts() {
        // CastFctsTest.testTimeCastsInSelectionClause.
        let t = parse_timestamp("2015-05-21 11:03:02+00", || 0).expect("valid");
        assert_eq!(
            text_of(Value::Timestamp(t), T::Timestamp),
            "2015-05-21T11:03:02.000Z"
        );
        let day = Value::date_from_days(16_576);
        assert_eq!(text_of(day.clone(), T::Date), "2015-05-21");
        assert_eq!(
            text_of(Value::Time(39_782_000_000_000), T::Time),
            "11:03:02.000000000"
        );
        let u = Value::Timeuuid(crate::types::timeuuid::from_unix_micros(t * 1000, 0, 0));
        assert!(matches!(cast(&u, T::Timeuuid, T::Timestamp), Ok(Value::Timestamp(ms)) if ms == t));
        assert_eq!(cast(&u, T::Timeuuid, T::Date), Ok(day.clone()));
        assert_eq!(
            cast(&Value::Timestamp(t), T::Timestamp, T::Date),
            Ok(day.clone())
        );
        let midnight = parse_timestamp("2015-05-21+0000", || 0).expect("valid");
        assert!(
            matches!(cast(&day, T::Date, T::Timestamp), Ok(Value::Timestamp(ms)) if ms == midnight)
        );
    }

    #[test]
    fn nulls_and_empties_cast_to_null() {
        assert_eq!(cast(&Value::Empty, T::Int, T::Text), Ok(Value::Null));
        assert_eq!(cast(&Value::Null, T::Int, T::Bigint), Ok(Value::Null));
        assert!(
            matches!(cast(&Value::Int(3), T::Int, T::Double), Ok(Value::Double(v)) if v == 3.0)
        );
        assert!(
            matches!(cast(&Value::Ascii("a".into()), T::Ascii, T::Text), Ok(Value::Text(s)) if s == "a")
        );
    }
}
