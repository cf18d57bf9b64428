//! `date` and `time`, and the proleptic Gregorian calendar arithmetic they share with
//! `timestamp`.

use super::numeric::serialize_bigint;
use super::ParseError;

/// `date` from signed days since 1970-01-01.
///
/// Cassandra stores `days + 2³¹` as an unsigned 32-bit number so that unsigned byte order
/// equals chronological order: the epoch is `80000000`, the day before it `7fffffff`.
/// Adding 2³¹ modulo 2³² is the same as flipping the top bit.
pub fn serialize_date(days_since_epoch: i32) -> Vec<u8> {
    ((days_since_epoch as u32) ^ 0x8000_0000)
        .to_be_bytes()
        .to_vec()
}

/// `time`: nanoseconds since midnight, 8-byte big-endian. The caller guarantees the range
/// `0..86_400_000_000_000` (see [`parse_time`]); the encoding itself does not care.
pub fn serialize_time(nanos_since_midnight: i64) -> Vec<u8> {
    serialize_bigint(nanos_since_midnight)
}

/// Days from 1970-01-01 to a date of the *proleptic Gregorian* calendar (the one CQL's
/// `date` type and Java's `LocalDate` use, extended backwards without a Julian switch).
///
/// Works for any year, including zero and negative years (astronomical numbering), via
/// Howard Hinnant's era arithmetic: shift the year to start in March so the leap day is
/// the last day of the year, then count whole 400-year eras of 146 097 days. The caller
/// must pass a valid month (1–12) and day.
pub fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400; // 0..=399
    let march_month = i64::from((month + 9) % 12); // March = 0 … February = 11
    let day_of_year = (153 * march_month + 2) / 5 + i64::from(day) - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// Parses a `date` value the way Cassandra's `SimpleDateSerializer.dateStringToDays` does,
/// returning signed days since the epoch (ready for [`serialize_date`]).
///
/// Two forms exist, and the difference matters:
///
/// * Digits only (optionally `-`): the *raw unsigned storage number*, where `2147483648`
///   (2³¹) is 1970-01-01 and `0` is the minimum date −5877641-06-23. So `0` does **not**
///   mean the epoch. Out of `0..=4294967295`: "Unable to make unsigned int (for date)
///   from: '…'".
/// * ISO `yyyy-mm-dd` (`DateTimeFormatter.ISO_LOCAL_DATE`, strict): at least four year
///   digits; a year with more than four digits needs a leading `+`, one with exactly four
///   must not have it; `-` allows years before year 0 (astronomical numbering). Month
///   and day are exactly two digits and must form a real date (`2025-02-30` fails).
///   Failures: "Unable to coerce '…' to a formatted date (long)"; dates outside the
///   `i32` day range have Cassandra's dedicated out-of-range messages.
///
/// The error messages are Cassandra's.
pub fn parse_date(text: &str) -> Result<i32, ParseError> {
    if let Some(days) = parse_usual_date(text.as_bytes()) {
        return Ok(days);
    }
    if is_java_integer(text) {
        let raw_error = || {
            ParseError::new(format!(
                "Unable to make unsigned int (for date) from: '{text}'"
            ))
        };
        let raw: i64 = text.parse().map_err(|_| raw_error())?;
        let raw = u32::try_from(raw).map_err(|_| raw_error())?;
        return Ok((raw ^ 0x8000_0000) as i32);
    }

    let coerce_error = || {
        ParseError::new(format!(
            "Unable to coerce '{text}' to a formatted date (long)"
        ))
    };
    let days = parse_iso_local_date(text).ok_or_else(coerce_error)?;
    // Cassandra converts to epoch milliseconds before its range check, so dates whose
    // milliseconds overflow a long fail as unparsable rather than as out of range.
    if days.checked_mul(86_400_000).is_none() {
        return Err(coerce_error());
    }
    i32::try_from(days).map_err(|_| {
        if days < 0 {
            ParseError::new(format!(
                "Input date {text} is less than min supported date -5877641-06-23T00:00Z"
            ))
        } else {
            ParseError::new(format!(
                "Input date {text} is greater than max supported date +5881580-07-11T00:00Z"
            ))
        }
    })
}

/// The layout nearly every date literal has, `yyyy-MM-dd` with a year from
/// 1 to 9999, read at fixed positions: what [`parse_iso_local_date`]
/// gives it, for a fraction of the cost (a load reads one per row).
/// `None` for anything else, valid or not, which the general reading reads.
pub(super) fn parse_usual_date(text: &[u8]) -> Option<i32> {
    let [y0, y1, y2, y3, b'-', m0, m1, b'-', d0, d1] = *text else {
        return None;
    };
    let digits = [y0, y1, y2, y3, m0, m1, d0, d1];
    if !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let number = |ds: &[u8]| ds.iter().fold(0, |n, d| n * 10 + u32::from(d - b'0'));
    let year = i64::from(number(&digits[..4]));
    let (month, day) = (number(&digits[4..6]), number(&digits[6..]));
    if year == 0
        || !(1..=12).contains(&month)
        || day == 0
        || day > gregorian_month_length(year, month)
    {
        return None;
    }
    i32::try_from(days_from_civil(year, month, day)).ok()
}

/// `ISO_LOCAL_DATE` in strict mode: `[+-]yyyy[yyyyyy]-MM-dd`, returning epoch days.
fn parse_iso_local_date(text: &str) -> Option<i64> {
    let (sign, rest) = match text.as_bytes().first()? {
        b'+' => (Some(false), &text[1..]),
        b'-' => (Some(true), &text[1..]),
        _ => (None, text),
    };
    let year_len = rest.bytes().take_while(u8::is_ascii_digit).count();
    // Width 4..=10; strict "exceeds pad" sign rules: '+' exactly when wider than 4.
    if !(4..=10).contains(&year_len) {
        return None;
    }
    match sign {
        Some(false) if year_len <= 4 => return None,
        None if year_len > 4 => return None,
        _ => {}
    }
    let year: i64 = rest[..year_len].parse().ok()?;
    if sign == Some(true) && year == 0 {
        return None; // strict parsing rejects "-0000"
    }
    let year = if sign == Some(true) { -year } else { year };
    // LocalDate's year range.
    if year.abs() > 999_999_999 {
        return None;
    }
    let tail = &rest.as_bytes()[year_len..];
    if tail.len() != 6 || tail[0] != b'-' || tail[3] != b'-' {
        return None;
    }
    let two = |hi: u8, lo: u8| -> Option<u32> {
        (hi.is_ascii_digit() && lo.is_ascii_digit())
            .then(|| u32::from(hi - b'0') * 10 + u32::from(lo - b'0'))
    };
    let month = two(tail[1], tail[2])?;
    let day = two(tail[4], tail[5])?;
    if !(1..=12).contains(&month) || day < 1 || day > gregorian_month_length(year, month) {
        return None;
    }
    Some(days_from_civil(year, month, day))
}

pub(super) fn gregorian_month_length(year: i64, month: u32) -> u32 {
    match month {
        4 | 6 | 9 | 11 => 30,
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        _ => 31,
    }
}

/// Java's `^-?\d+$` (ASCII digits), the test Cassandra uses to decide that a date, time
/// or timestamp string is a raw number rather than a formatted value.
pub(super) fn is_java_integer(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// Parses a `time` value as Cassandra's `TimeSerializer.timeStringToLong` does, returning
/// nanoseconds since midnight.
///
/// * Digits only (optionally `-`): nanoseconds, which must lie in
///   `0..86_400_000_000_000`; otherwise "Unable to make long (for time) from: '…'".
/// * Otherwise, after trimming surrounding whitespace, `h:m:s[.f]`: hour 0–23, minute and
///   second 0–59, each an `Integer.parseInt` (so `+5` and `-0` are accepted), and 1–9
///   fraction digits, right-padded to nanoseconds (`.5` is 500 ms). Failures:
///   "(TimeType) Unable to coerce '…' to a formatted time (long)".
///
/// The error messages are Cassandra's.
pub fn parse_time(text: &str) -> Result<i64, ParseError> {
    const NANOS_PER_DAY: i64 = 86_400_000_000_000;
    if is_java_integer(text) {
        return text
            .parse::<i64>()
            .ok()
            .filter(|n| (0..NANOS_PER_DAY).contains(n))
            .ok_or_else(|| {
                ParseError::new(format!("Unable to make long (for time) from: '{text}'"))
            });
    }
    parse_time_strictly(text).ok_or_else(|| {
        ParseError::new(format!(
            "(TimeType) Unable to coerce '{text}' to a formatted time (long)"
        ))
    })
}

fn parse_time_strictly(text: &str) -> Option<i64> {
    // Java's String.trim() strips every char <= U+0020, not just Unicode whitespace.
    let s = text.trim_matches(|c: char| c <= ' ');
    let first_colon = s.find(':').filter(|&i| i > 0)?;
    let second_colon = first_colon + 1 + s[first_colon + 1..].find(':')?;
    if second_colon >= s.len() - 1 {
        return None;
    }
    let hour = i64::from(java_parse_int(&s[..first_colon])?);
    let minute = i64::from(java_parse_int(&s[first_colon + 1..second_colon])?);
    if !(0..24).contains(&hour) || !(0..60).contains(&minute) {
        return None;
    }
    let after = &s[second_colon + 1..];
    let (second_text, fraction) = match after.find('.') {
        // A '.' that is the seconds field's first character or the last character fails.
        Some(0) => return None,
        Some(dot) if dot == after.len() - 1 => return None,
        Some(dot) => (&after[..dot], Some(&after[dot + 1..])),
        None => (after, None),
    };
    let second = i64::from(java_parse_int(second_text)?);
    if !(0..60).contains(&second) {
        return None;
    }
    let nanos = match fraction {
        None => 0,
        Some(f) => {
            if f.chars().count() > 9 || !f.starts_with(|c: char| c.is_ascii_digit()) {
                return None;
            }
            let padded = format!("{f:0<9}");
            i64::from(java_parse_int(&padded)?)
        }
    };
    Some(((hour * 60 + minute) * 60 + second) * 1_000_000_000 + nanos)
}

/// `Integer.parseInt`: optional sign, ASCII digits, `i32` range. Rust's parser has the
/// same grammar (it also accepts a leading `+`).
fn java_parse_int(s: &str) -> Option<i32> {
    s.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::serialize::hex;

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]
        /// Wherever the fixed-position reading answers, the general one
        /// gives the same day.
        #[test]
        fn the_usual_date_reading_agrees_with_the_general_one(
            text in "[0-9+-]?[0-9]{3,5}-[0-9]{1,2}-[0-9]{2,3}|[0-9]{4}-(0[1-9]|1[0-3])-(0[0-9]|[12][0-9]|3[0-2])",
        ) {
            if let Some(days) = parse_usual_date(text.as_bytes()) {
                proptest::prop_assert_eq!(Some(i64::from(days)), parse_iso_local_date(&text), "{}", text);
            }
        }
    }

    #[test]
    fn usual_dates_take_the_fast_path() {
        for text in ["2025-06-01", "0001-01-01", "9999-12-31", "2024-02-29"] {
            let fast = parse_usual_date(text.as_bytes()).map(i64::from);
            assert!(fast.is_some(), "{text}");
            assert_eq!(fast, parse_iso_local_date(text), "{text}");
        }
        for text in [
            "2025-02-29",
            "0000-01-01",
            "2025-13-01",
            "+2025-06-01",
            "2025-6-01",
        ] {
            assert_eq!(parse_usual_date(text.as_bytes()), None, "{text}");
        }
    }

    #[test]
    fn date_examples_from_the_reference() {
        for (text, expected) in [
            ("1970-01-01", "80000000"),
            ("2025-06-01", "80004f10"),
            ("1969-12-31", "7fffffff"),
            ("2000-02-29", "80002b08"),
            ("9999-12-31", "802cc0a0"),
            ("0001-01-01", "7ff506c6"),
        ] {
            assert_eq!(
                hex(&serialize_date(parse_date(text).unwrap())),
                expected,
                "{text}"
            );
        }
    }

    #[test]
    fn date_raw_numbers_and_limits() {
        assert_eq!(parse_date("2147483648"), Ok(0));
        assert_eq!(parse_date("0"), Ok(i32::MIN));
        assert_eq!(parse_date("4294967295"), Ok(i32::MAX));
        assert!(parse_date("4294967296").is_err());
        assert!(parse_date("-1")
            .unwrap_err()
            .message()
            .contains("unsigned int"));
        // The documented extremes of the day range.
        assert_eq!(parse_date("-5877641-06-23"), Ok(i32::MIN));
        assert_eq!(parse_date("+5881580-07-11"), Ok(i32::MAX));
        assert!(parse_date("-5877641-06-22")
            .unwrap_err()
            .message()
            .contains("less than min supported date"));
        assert!(parse_date("+5881580-07-12")
            .unwrap_err()
            .message()
            .contains("greater than max supported date"));
        for bad in [
            "2025-02-30",
            "2025-2-01",
            "+2025-01-01",
            "12025-01-01",
            "-0000-01-01",
            "2025-13-01",
            "2025-01-01 ",
            "",
        ] {
            assert!(
                parse_date(bad).unwrap_err().message().contains("coerce"),
                "{bad:?}"
            );
        }
        assert_eq!(parse_date("+12025-01-01").map(|d| d > 0), Ok(true));
        assert_eq!(
            parse_date("-0001-12-31"),
            Ok(days_from_civil(-1, 12, 31) as i32)
        );
    }

    #[test]
    fn time_parsing() {
        assert_eq!(parse_time("00:00:00"), Ok(0));
        assert_eq!(parse_time("08:12:54"), Ok(29_574_000_000_000));
        assert_eq!(parse_time("08:12:54.123456789"), Ok(29_574_123_456_789));
        assert_eq!(parse_time("08:12:54.5"), Ok(29_574_500_000_000));
        assert_eq!(parse_time(" 1:2:3 "), Ok(3_723_000_000_000));
        assert_eq!(parse_time("86399999999999"), Ok(86_399_999_999_999));
        assert!(parse_time("86400000000000")
            .unwrap_err()
            .message()
            .starts_with("Unable to make long (for time)"));
        for bad in [
            "24:00:00",
            "12:60:00",
            "12:00:60",
            "12:00",
            "12:00:",
            "12:00:00.",
            "12:00:00.1234567890",
            "12:00:00.+5",
            ":12:00",
            "a:b:c",
        ] {
            assert!(
                parse_time(bad).unwrap_err().message().contains("coerce"),
                "{bad:?}"
            );
        }
        assert_eq!(hex(&serialize_time(1)), "0000000000000001");
    }
}
