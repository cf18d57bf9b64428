//! COPY FROM's converters for the native types (`ImportConversion._get_converter`), with
//! the Python behaviour they inherit: `int()` and `float()` leniency, `bytes.fromhex`
//! after dropping the first two characters of a blob, any text other than BOOLSTYLE's
//! true one reading as false, and the timestamp fallbacks of `convert_datetime`. Values
//! the driver would refuse to serialize leave a [`BindError`] behind.

use num_bigint::BigInt;

use crate::syntax::ast::NativeType;
use crate::types::coerce::{from_string, FromStringError};
use crate::types::{parse_duration, DataType, Value};

use super::convert::{BindError, BindSlot, Converter};
use super::python;
use super::strptime::strptime_millis;

/// A native-type field, already unquoted when it came from inside a collection.
pub(super) fn native(
    c: &Converter,
    ty: NativeType,
    text: &str,
    bind: &mut BindSlot,
) -> Result<Value, String> {
    use NativeType::*;
    match ty {
        Text | Varchar => Ok(Value::Text(text.to_string())),
        Ascii => Ok(ascii(text, bind)),
        Tinyint => integer(c, text, bind, i64::from(i8::MIN), i64::from(i8::MAX))
            .map(|v| Value::Tinyint(v as i8)),
        Smallint => integer(c, text, bind, i64::from(i16::MIN), i64::from(i16::MAX))
            .map(|v| Value::Smallint(v as i16)),
        Int => integer(c, text, bind, i64::from(i32::MIN), i64::from(i32::MAX))
            .map(|v| Value::Int(v as i32)),
        Bigint => integer(c, text, bind, i64::MIN, i64::MAX).map(Value::Bigint),
        Counter => integer(c, text, bind, i64::MIN, i64::MAX).map(Value::Bigint),
        Varint => python::int(&without_thousands(c, text)).map(Value::varint),
        Float => {
            let v = python::float(&decimal_text(c, text))?;
            let narrowed = v as f32;
            if v.is_finite() && narrowed.is_infinite() {
                bind_error(
                    bind,
                    "OverflowError",
                    "float too large to pack with f format".into(),
                );
            }
            Ok(Value::Float(narrowed))
        }
        Double => python::float(&decimal_text(c, text)).map(Value::Double),
        Decimal => decimal(&decimal_text(c, text)),
        Boolean => Ok(Value::Boolean(text.to_lowercase() == c.true_style)),
        Blob => blob(text),
        Uuid | Timeuuid => uuid(ty, text),
        Timestamp => timestamp(c, text).map(Value::Timestamp),
        Date => date(text),
        Time => time(text),
        Duration => parse_duration(text).map(Value::Duration),
        Inet => Ok(inet(text, bind)),
    }
}

fn bind_error(bind: &mut BindSlot, class: &'static str, message: String) {
    if bind.is_none() {
        *bind = Some(BindError { class, message });
    }
}

fn without_thousands(c: &Converter, text: &str) -> String {
    if c.thousands_sep.is_empty() {
        text.to_string()
    } else {
        text.replace(&c.thousands_sep, "")
    }
}

/// `get_convert_decimal_fcn`: THOUSANDSSEP removed, DECIMALSEP turned into `.`.
fn decimal_text(c: &Converter, text: &str) -> String {
    let text = without_thousands(c, text);
    if c.decimal_sep.is_empty() {
        text
    } else {
        text.replace(&c.decimal_sep, ".")
    }
}

/// `int(v)`, then the range check of the driver's `struct.pack`.
fn integer(
    c: &Converter,
    text: &str,
    bind: &mut BindSlot,
    min: i64,
    max: i64,
) -> Result<i64, String> {
    let value = python::int(&without_thousands(c, text))?;
    match i64::try_from(&value) {
        Ok(v) if (min..=max).contains(&v) => Ok(v),
        _ => {
            bind_error(bind, "error", range_message(min, max));
            Ok(0)
        }
    }
}

/// The driver's message for a number its type cannot hold.
fn range_message(min: i64, max: i64) -> String {
    match max {
        127 => "byte format requires -128 <= number <= 127".into(),
        32_767 | 2_147_483_647 => {
            let code = if max == 32_767 { 'h' } else { 'i' };
            format!("'{code}' format requires {min} <= number <= {max}")
        }
        _ => "int too large to convert".into(),
    }
}

fn ascii(text: &str, bind: &mut BindSlot) -> Value {
    if let Some((i, c)) = text.chars().enumerate().find(|(_, c)| !c.is_ascii()) {
        let message = format!(
            "'ascii' codec can't encode character {} in position {i}: ordinal not in range(128)",
            python::char_repr(c)
        );
        bind_error(bind, "UnicodeEncodeError", message);
    }
    Value::Ascii(text.to_string())
}

fn inet(text: &str, bind: &mut BindSlot) -> Value {
    match from_string(&DataType::Native(NativeType::Inet), text) {
        Ok(value) => value,
        Err(_) => {
            let message = format!("can't interpret {} as an inet address", python::repr(text));
            bind_error(bind, "ValueError", message);
            Value::Null
        }
    }
}

/// `Decimal(v)`.
fn decimal(text: &str) -> Result<Value, String> {
    let error = || "[<class 'decimal.ConversionSyntax'>]".to_string();
    let trimmed = text.trim();
    if trimmed.is_empty() || trimmed.contains("__") {
        return Err(error());
    }
    let cleaned = trimmed.replace('_', "");
    from_string(&DataType::Native(NativeType::Decimal), &cleaned).map_err(|_| error())
}

/// `bytes.fromhex(v[2:])`: the first two characters are dropped whatever they are;
/// whitespace may separate the bytes.
fn blob(text: &str) -> Result<Value, String> {
    let digits: Vec<char> = text.chars().skip(2).collect();
    let error =
        |at: usize| format!("non-hexadecimal number found in fromhex() arg at position {at}");
    let mut bytes = Vec::with_capacity(digits.len() / 2);
    let mut i = 0;
    while i < digits.len() {
        if digits[i].is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let high = digits[i].to_digit(16).ok_or_else(|| error(i))?;
        let low = digits
            .get(i + 1)
            .and_then(|c| c.to_digit(16))
            .ok_or_else(|| error(i + 1))?;
        bytes.push((high * 16 + low) as u8);
        i += 2;
    }
    Ok(Value::Blob(bytes))
}

/// `UUID(v)`: braces, `urn:uuid:` and hyphens allowed around 32 hex digits.
fn uuid(ty: NativeType, text: &str) -> Result<Value, String> {
    let hex = text.replace("urn:", "").replace("uuid:", "");
    let hex = hex.trim_matches(|c| c == '{' || c == '}').replace('-', "");
    if hex.len() != 32 || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err("badly formed hexadecimal UUID string".into());
    }
    let canonical = format!(
        "{}-{}-{}-{}-{}",
        &hex[..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..]
    );
    from_string(&DataType::Native(ty), &canonical).map_err(|e| match e {
        FromStringError::Message(m) => m,
        FromStringError::Unsupported => "badly formed hexadecimal UUID string".into(),
    })
}

/// `convert_datetime`: DATETIMEFORMAT, else cqlsh's own pattern, else milliseconds.
fn timestamp(c: &Converter, text: &str) -> Result<i64, String> {
    if let Ok(millis) = c.datetime_format.parse_millis(text) {
        return Ok(millis);
    }
    if let Some(result) = cqlsh_pattern(text) {
        return result;
    }
    match python::int(text).ok().and_then(|v| i64::try_from(&v).ok()) {
        Some(millis) => Ok(millis),
        None => Err(format!(
            "can't interpret {} as a date with format {} or as int",
            python::repr(text),
            c.datetime_format.text()
        )),
    }
}

/// cqlsh's fallback pattern, matched at the start of the text only:
/// `YYYY-MM-DD[ ]['T'][HH:MM:SS[.ffffff]][(+|-)HH[:]MM]`. Its quirks are kept: an ISO
/// `T` separator ends the match (the time is ignored), and the offset is *added*.
fn cqlsh_pattern(text: &str) -> Option<Result<i64, String>> {
    let b = text.as_bytes();
    let digits_at = |at: usize, n: usize| -> Option<i64> {
        let part = b.get(at..at + n)?;
        part.iter()
            .all(u8::is_ascii_digit)
            .then(|| part.iter().fold(0, |acc, d| acc * 10 + i64::from(d - b'0')))
    };
    let year = digits_at(0, 4)?;
    (b.get(4) == Some(&b'-')).then_some(())?;
    let month = digits_at(5, 2)?;
    (b.get(7) == Some(&b'-')).then_some(())?;
    let day = digits_at(8, 2)?;
    let mut at = 10;
    if b.get(at).is_some_and(u8::is_ascii_whitespace) {
        at += 1;
    }
    if b.get(at..at + 3) == Some(b"'T'") {
        at += 3;
    }
    let (mut seconds, mut millis) = (0, 0);
    if let (Some(h), Some(m), Some(s)) =
        (digits_at(at, 2), digits_at(at + 3, 2), digits_at(at + 6, 2))
    {
        if b.get(at + 2) == Some(&b':') && b.get(at + 5) == Some(&b':') {
            seconds = h * 3600 + m * 60 + s;
            at += 8;
            let fraction: Vec<u8> = b
                .iter()
                .skip(at + 1)
                .take_while(|d| d.is_ascii_digit())
                .take(6)
                .copied()
                .collect();
            if b.get(at) == Some(&b'.') && !fraction.is_empty() {
                let value: i64 = std::str::from_utf8(&fraction).ok()?.parse().ok()?;
                millis = match fraction.len() {
                    n if n <= 3 => value * 10i64.pow(3 - n as u32),
                    n => value / 10i64.pow(n as u32 - 3),
                };
                at += 1 + fraction.len();
            }
        }
    }
    let mut offset = 0;
    if let (Some(sign @ (b'+' | b'-')), Some(h)) = (b.get(at), digits_at(at + 1, 2)) {
        let minute_at = if b.get(at + 3) == Some(&b':') {
            at + 4
        } else {
            at + 3
        };
        if let Some(m) = digits_at(minute_at, 2) {
            offset = (h * 3600 + m * 60) * if *sign == b'-' { -1 } else { 1 };
        }
    }
    if !(1..=12).contains(&month) {
        return Some(Err("month must be in 1..12".into()));
    }
    if !(1..=9999).contains(&year) {
        return Some(Err(format!("year {year} is out of range")));
    }
    let days = crate::types::serialize::days_from_civil(year, month as u32, 1) + day - 1;
    Some(Ok((days * 86_400 + seconds + offset) * 1000 + millis))
}

/// `cassandra.util.Date(v)`: `%Y-%m-%d`, an optional leading `+`.
fn date(text: &str) -> Result<Value, String> {
    let text = text.strip_prefix('+').unwrap_or(text);
    let millis = strptime_millis(text, "%Y-%m-%d")?;
    Ok(Value::date_from_days(millis.div_euclid(86_400_000) as i32))
}

/// `cassandra.util.Time(v)`: `HH:MM:SS[.fffffffff]`.
fn time(text: &str) -> Result<Value, String> {
    let error = || format!("can't interpret {} as a time", python::repr(text));
    let mut parts = text.split('.');
    let base = parts.next().unwrap_or("");
    let seconds = strptime_millis(&format!("1970-01-01 {base}"), "%Y-%m-%d %H:%M:%S")
        .map_err(|_| error())?
        / 1000;
    let mut nanos = seconds * 1_000_000_000;
    if let Some(fraction) = parts.next() {
        let padded = format!("{fraction:0<9}");
        let value: BigInt = python::int(&padded).map_err(|_| error())?;
        nanos += i64::try_from(&value).map_err(|_| error())?;
    }
    Ok(Value::Time(nanos))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shell::copy::strptime::TimeFormat;

    fn converter() -> Converter {
        Converter {
            nullval: String::new(),
            true_style: "true".into(),
            decimal_sep: ".".into(),
            thousands_sep: String::new(),
            datetime_format: TimeFormat::new("%Y-%m-%d %H:%M:%S.%f%z"),
        }
    }

    fn read(ty: NativeType, text: &str) -> (Result<Value, String>, BindSlot) {
        let mut bind = None;
        let value = native(&converter(), ty, text, &mut bind);
        (value, bind)
    }

    #[test]
    fn numbers_follow_python() {
        assert_eq!(read(NativeType::Int, " 42 ").0, Ok(Value::Int(42)));
        let (_, bind) = read(NativeType::Int, "3000000000");
        assert_eq!(
            bind.map(|b| b.message),
            Some("'i' format requires -2147483648 <= number <= 2147483647".into())
        );
        assert_eq!(read(NativeType::Double, "1e3").0, Ok(Value::Double(1000.0)));
        assert_eq!(
            read(NativeType::Decimal, "x").0,
            Err("[<class 'decimal.ConversionSyntax'>]".into())
        );
        assert_eq!(
            read(NativeType::Boolean, "yes").0,
            Ok(Value::Boolean(false))
        );
    }

    #[test]
    fn blobs_drop_two_characters() {
        assert_eq!(
            read(NativeType::Blob, "0xcafe").0,
            Ok(Value::Blob(vec![0xca, 0xfe]))
        );
        assert_eq!(
            read(NativeType::Blob, "cafe").0,
            Ok(Value::Blob(vec![0xfe]))
        );
        assert_eq!(
            read(NativeType::Blob, "0xcaz").0,
            Err("non-hexadecimal number found in fromhex() arg at position 2".into())
        );
    }

    #[test]
    fn timestamps_fall_back_like_cqlsh() {
        let ts = |t| read(NativeType::Timestamp, t).0;
        assert_eq!(
            ts("2025-06-01 08:00:00.123+0000"),
            Ok(Value::Timestamp(1_748_764_800_123))
        );
        assert_eq!(
            ts("2025-06-01 08:00:00"),
            Ok(Value::Timestamp(1_748_764_800_000))
        );
        assert_eq!(
            ts("2025-06-01T08:00:00Z"),
            Ok(Value::Timestamp(1_748_736_000_000))
        );
        assert_eq!(
            ts("2025-06-01 08:00:00+0100"),
            Ok(Value::Timestamp(1_748_768_400_000))
        );
        assert_eq!(ts("1748764800123"), Ok(Value::Timestamp(1_748_764_800_123)));
        assert!(ts("soon").is_err());
    }

    #[test]
    fn dates_and_times() {
        assert_eq!(
            read(NativeType::Date, "1970-01-02").0,
            Ok(Value::date_from_days(1))
        );
        assert_eq!(
            read(NativeType::Time, "00:00:01.5").0,
            Ok(Value::Time(1_500_000_000))
        );
        assert_eq!(
            read(NativeType::Time, "x").0,
            Err("can't interpret 'x' as a time".into())
        );
    }
}
