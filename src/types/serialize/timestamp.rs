//! `timestamp`: milliseconds since the epoch, read from Cassandra's date patterns the
//! way commons-lang3's strict `FastDateParser` reads them (Julian before 1582-10-15).

use super::numeric::serialize_bigint;
use super::temporal::{days_from_civil, gregorian_month_length, is_java_integer, parse_usual_date};
use super::ParseError;

/// `timestamp`: milliseconds since 1970-01-01T00:00Z as 8-byte big-endian two's
/// complement, i.e. exactly a `bigint`. Pre-1970 instants are negative.
pub fn serialize_timestamp(millis: i64) -> Vec<u8> {
    serialize_bigint(millis)
}
/// Parses a `timestamp` value as Cassandra's `TimestampSerializer.dateStringToTimestamp`
/// does, returning milliseconds since the epoch.
///
/// * `now` (any case) is the current time; it is supplied by the caller because this
///   module has no clock, and only called when needed.
/// * Digits only (optionally `-`): milliseconds; overflow gives "Unable to make long (for
///   date) from: '…'".
/// * Otherwise one of Cassandra's patterns: `yyyy-MM-dd`, optionally followed by
///   `' '` or `'T'` and `HH:mm`, `HH:mm:ss` or `HH:mm:ss.SSS`, optionally followed by a
///   zone. Anything else: "Unable to coerce '…' to a formatted date (long)".
///
/// Cassandra matches those patterns with commons-lang3's `DateUtils.parseDateStrictly`
/// (a `FastDateParser` over a non-lenient `GregorianCalendar`). Behaviour carried over
/// from it, which matters for exact values:
///
/// * Numeric fields take any number of digits (`2025-6-1 8:5` is fine), may be preceded
///   by whitespace (`2025-06-01  08:00` parses), and are then range-checked. `.SSS` is an
///   integer count of milliseconds, so `.5` is 5 ms and `.1000` is an error.
/// * Dates before 1582-10-15 are in the **Julian** calendar (where `GregorianCalendar`
///   switches), so e.g. `0001-01-01` lands two days away from the proleptic Gregorian
///   reading that the `date` type uses. The ten skipped days 1582-10-05…14 are rejected.
///   Years start at 1.
/// * Zones: directly attached `Z`, `±hh`, `±hhmm`, `±hh:mm`, or after one space `±hhmm`,
///   `GMT±h:mm`, `UTC` or `GMT` (the names case-insensitive). Offsets of 24 hours or
///   more, or with minutes above 59, are errors. With no zone, UTC is assumed (the
///   coordinator's default zone in Cassandra).
///
/// Not reproduced: region zone names such as `PST` or `Europe/Paris` (Java resolves any
/// display name of its zone database, at the zone's standard or daylight offset) and
/// non-ASCII digits; both fail here.
pub fn parse_timestamp(text: &str, now: impl FnOnce() -> i64) -> Result<i64, ParseError> {
    if text.eq_ignore_ascii_case("now") {
        return Ok(now());
    }
    if is_java_integer(text) {
        return text.parse::<i64>().map_err(|_| {
            ParseError::new(format!("Unable to make long (for date) from: '{text}'"))
        });
    }
    parse_formatted_timestamp(text).ok_or_else(|| {
        ParseError::new(format!(
            "Unable to coerce '{text}' to a formatted date (long)"
        ))
    })
}

/// Java's `Character.isWhitespace`: Unicode space separators except the non-breaking
/// ones, line/paragraph separators, and the ASCII controls \t \n \v \f \r and
/// U+001C–U+001F. It differs from Rust's `char::is_whitespace` in both directions.
fn is_java_whitespace(c: char) -> bool {
    match c {
        '\u{1C}'..='\u{1F}' => true,
        '\u{85}' | '\u{A0}' | '\u{2007}' | '\u{202F}' => false,
        _ => c.is_whitespace(),
    }
}

/// A small cursor over the timestamp text (byte positions, char-aware where needed).
struct Cursor<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Cursor<'a> {
    fn rest(&self) -> &'a str {
        &self.text[self.pos..]
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    fn eat(&mut self, byte: u8) -> bool {
        if self.peek() == Some(byte) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn skip_java_whitespace(&mut self) {
        let skipped: usize = self
            .rest()
            .chars()
            .take_while(|&c| is_java_whitespace(c))
            .map(char::len_utf8)
            .sum();
        self.pos += skipped;
    }

    /// A numeric field: optional leading whitespace, then one or more digits read
    /// greedily as an `int` (overflow fails, as `Integer.parseInt` does).
    fn number(&mut self) -> Option<i64> {
        if !self.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.skip_java_whitespace();
        }
        let rest = &self.text.as_bytes()[self.pos..];
        let len = rest.iter().take_while(|b| b.is_ascii_digit()).count();
        let value = digits_value(&rest[..len])?;
        self.pos += len;
        Some(i64::from(value))
    }

    /// Exactly `n` ASCII digits, as the zone regexes' `\d{n}` (no whitespace).
    fn fixed_digits(&mut self, n: usize) -> Option<i64> {
        let digits = self.rest().as_bytes().get(..n)?;
        if !digits.iter().all(u8::is_ascii_digit) {
            return None;
        }
        self.pos += n;
        digits_value(digits).map(i64::from)
    }
}

/// ASCII digits as an `int`, `None` when there are none or they overflow:
/// what `str::parse::<i32>` gives them, without its sign and radix handling,
/// since every write of a timestamp literal reads seven or more fields.
fn digits_value(digits: &[u8]) -> Option<i32> {
    let digit = |d: &u8| i32::from(d - b'0');
    match digits.len() {
        0 => None,
        // Nine digits always fit.
        1..=9 => Some(digits.iter().fold(0, |value, d| value * 10 + digit(d))),
        _ => digits.iter().try_fold(0i32, |value, d| {
            value.checked_mul(10)?.checked_add(digit(d))
        }),
    }
}

fn parse_formatted_timestamp(text: &str) -> Option<i64> {
    if let Some(millis) = parse_usual_timestamp(text.as_bytes()) {
        return Some(millis);
    }
    let mut c = Cursor { text, pos: 0 };
    let year = c.number()?;
    c.eat(b'-').then_some(())?;
    let month = c.number()?;
    c.eat(b'-').then_some(())?;
    let day = c.number()?;

    // After the date, 'T' always starts a time. A space starts a time when a number
    // follows it (numeric fields skip whitespace); otherwise it introduces a zone
    // ("2011-02-03 UTC"), whose patterns never begin with a digit or whitespace.
    let (mut hour, mut minute, mut second, mut milli) = (0, 0, 0, 0);
    let time_follows = c.peek() == Some(b'T')
        || (c.peek() == Some(b' ') && {
            let after_space = c.rest()[1..].trim_start_matches(is_java_whitespace);
            after_space.starts_with(|ch: char| ch.is_ascii_digit())
        });
    if time_follows {
        c.pos += 1;
        hour = c.number()?;
        c.eat(b':').then_some(())?;
        minute = c.number()?;
        if c.eat(b':') {
            second = c.number()?;
            if c.eat(b'.') {
                milli = c.number()?;
            }
        }
    }

    let offset_minutes = parse_zone(&mut c)?;
    if !c.rest().is_empty() {
        return None;
    }

    // Non-lenient calendar field checks.
    if !(0..24).contains(&hour)
        || !(0..60).contains(&minute)
        || !(0..60).contains(&second)
        || !(0..1000).contains(&milli)
        || !(1..=12).contains(&month)
        || year < 1
    {
        return None;
    }
    let days = java_calendar_days(year, month as u32, day)?;
    let millis = i128::from(days) * 86_400_000
        + i128::from(((hour * 60 + minute) * 60 + second) * 1000 + milli)
        - i128::from(offset_minutes) * 60_000;
    i64::try_from(millis).ok()
}

/// The layout nearly every timestamp literal has — the one cqlsh prints,
/// `2025-06-01 08:00:00.000000+0000`, and its shorter forms: a four-digit
/// Gregorian year, two-digit fields, `' '` or `'T'`, optional seconds and
/// fraction, and no zone, `Z` or `±hhmm`. Read at fixed positions, it
/// costs half the general reading, which a script of a million
/// INSERTs does a million times. `None` for anything else, valid or not:
/// [`parse_formatted_timestamp`] then reads it, and gives the same answer
/// for everything read here.
fn parse_usual_timestamp(text: &[u8]) -> Option<i64> {
    let two = |at: usize| -> Option<i64> {
        match text.get(at..at + 2)? {
            [a @ b'0'..=b'9', b @ b'0'..=b'9'] => Some(i64::from((a - b'0') * 10 + (b - b'0'))),
            _ => None,
        }
    };
    // The date in a date literal's usual layout; Julian dates and the
    // cutover, before 1583, are the general reading's to place.
    let date = text.get(..10)?;
    if date[..4] < b"1583"[..] {
        return None;
    }
    let days = i64::from(parse_usual_date(date)?);
    if !matches!(text.get(10), Some(b' ' | b'T')) || text.get(13) != Some(&b':') {
        return None;
    }
    let (hour, minute) = (two(11)?, two(14)?);
    let mut at = 16;
    let mut second = 0;
    let mut milli = 0;
    if text.get(at) == Some(&b':') {
        second = two(at + 1)?;
        at += 3;
        if text.get(at) == Some(&b'.') {
            let digits = text[at + 1..]
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .count();
            // Nine digits at most, so the count cannot overflow; a count of
            // a thousand or more is the general reading's error to give.
            if !(1..=9).contains(&digits) {
                return None;
            }
            let fraction = &text[at + 1..at + 1 + digits];
            milli = fraction.iter().fold(0, |v, d| v * 10 + i64::from(d - b'0'));
            at += 1 + digits;
        }
    }
    let offset_minutes = match &text[at..] {
        [] | [b'Z'] => 0,
        [sign @ (b'+' | b'-'), ..] if text.len() == at + 5 => {
            gmt_offset(*sign == b'-', two(at + 1)?, two(at + 3)?)?
        }
        _ => return None,
    };
    if hour > 23 || minute > 59 || second > 59 || milli > 999 {
        return None;
    }
    Some(
        days * 86_400_000 + ((hour * 60 + minute) * 60 + second) * 1000 + milli
            - offset_minutes * 60_000,
    )
}

/// The zone suffix, as an offset in minutes east of UTC (0 when absent).
fn parse_zone(c: &mut Cursor<'_>) -> Option<i64> {
    match c.peek() {
        None => Some(0),
        // X, XX, XXX: attached directly. `Z` is case-sensitive here.
        Some(b'Z') => {
            c.pos += 1;
            Some(0)
        }
        Some(sign @ (b'+' | b'-')) => {
            c.pos += 1;
            let hours = c.fixed_digits(2)?;
            let minutes = if c.eat(b':') {
                c.fixed_digits(2)?
            } else if c.rest().is_empty() {
                0
            } else {
                c.fixed_digits(2)?
            };
            gmt_offset(sign == b'-', hours, minutes)
        }
        // z, zz, zzz: exactly one space, then an RFC 822 offset, GMT±h:mm or a name.
        Some(b' ') => {
            c.pos += 1;
            if let Some(sign @ (b'+' | b'-')) = c.peek() {
                c.pos += 1;
                let hours = c.fixed_digits(2)?;
                let minutes = c.fixed_digits(2)?;
                return gmt_offset(sign == b'-', hours, minutes);
            }
            let rest = c.rest();
            let gmt_prefix = rest.get(..3).is_some_and(|p| p.eq_ignore_ascii_case("GMT"));
            if let (true, Some(sign @ (b'+' | b'-'))) = (gmt_prefix, rest.as_bytes().get(3)) {
                let negative = *sign == b'-';
                c.pos += 4;
                let hour_len = c.rest().bytes().take_while(u8::is_ascii_digit).count();
                if !(1..=2).contains(&hour_len) {
                    return None;
                }
                let hours = c.fixed_digits(hour_len)?;
                c.eat(b':').then_some(())?;
                let minutes = c.fixed_digits(2)?;
                return gmt_offset(negative, hours, minutes);
            }
            if rest.eq_ignore_ascii_case("UTC") || rest.eq_ignore_ascii_case("GMT") {
                c.pos = c.text.len();
                return Some(0);
            }
            None
        }
        Some(_) => None,
    }
}

/// A fixed offset as commons-lang3's `FastTimeZone.getGmtTimeZone` builds it: hours
/// must be below 24 and minutes below 60, otherwise it throws and the pattern fails.
fn gmt_offset(negative: bool, hours: i64, minutes: i64) -> Option<i64> {
    if hours > 23 || minutes > 59 {
        return None;
    }
    let total = hours * 60 + minutes;
    Some(if negative { -total } else { total })
}

/// Epoch days for a year-month-day read by Java's default `GregorianCalendar`: Gregorian
/// from 1582-10-15, Julian before, with the ten days in between not existing. Returns
/// `None` for a day that does not exist in the applicable calendar.
fn java_calendar_days(year: i64, month: u32, day: i64) -> Option<i64> {
    let day = u32::try_from(day).ok().filter(|&d| d >= 1)?;
    let is_gregorian = (year, month, day) >= (1582, 10, 15);
    if is_gregorian {
        if day > gregorian_month_length(year, month) {
            return None;
        }
        return Some(days_from_civil(year, month, day));
    }
    if (year, month, day) >= (1582, 10, 5) {
        return None; // the cutover gap
    }
    let julian_length = match month {
        2 if year % 4 == 0 => 29,
        2 => 28,
        m => gregorian_month_length(year, m),
    };
    if day > julian_length {
        return None;
    }
    // Julian 1582-10-04 is the day before Gregorian 1582-10-15.
    let anchor = days_from_civil(1582, 10, 15) - 1 - julian_day_count(1582, 10, 4);
    Some(julian_day_count(year, month, day) + anchor)
}

/// Days since an arbitrary fixed origin in the Julian calendar, using the same March-based
/// year trick as [`days_from_civil`] with a 4-year cycle of 1461 days (leap every 4th
/// year, no century rule). Only differences between two results are meaningful.
fn julian_day_count(year: i64, month: u32, day: u32) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let cycle = year.div_euclid(4);
    let year_of_cycle = year - cycle * 4;
    let march_month = i64::from((month + 9) % 12);
    let day_of_year = (153 * march_month + 2) / 5 + i64::from(day) - 1;
    cycle * 1461 + year_of_cycle * 365 + day_of_year
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::serialize::hex;

    #[test]
    fn timestamp_patterns() {
        let now = || panic!("clock must not be read");
        let expected = 1_748_764_800_000; // 2025-06-01T08:00:00Z
        for text in [
            "2025-06-01 08:00:00+0000",
            "2025-06-01 08:00+0000",
            "2025-06-01T08:00:00Z",
            "2025-06-01T08:00:00.000+00:00",
            "2025-06-01 08:00:00.000 UTC",
            "2025-06-01 08:00:00 gmt",
            "2025-06-01 08:00:00 +0000",
            "2025-06-01 10:00:00+02",
            "2025-06-01 10:00:00 GMT+2:00",
            "2025-06-01 03:30:00-04:30",
            "2025-6-1 8:0",
            "2025-06-01 08:00:00",
            "000002025-06-01 08:00:00.000000000",
            "2025-06-01 08:00:00.0000000000+0000",
            "1748764800000",
        ] {
            assert_eq!(parse_timestamp(text, now), Ok(expected), "{text}");
        }
        assert_eq!(
            parse_timestamp("2011-02-03+0000", now),
            Ok(1_296_691_200_000)
        );
        assert_eq!(parse_timestamp("2011-02-03", now), Ok(1_296_691_200_000));
        // .SSS is a count of milliseconds, not a fraction.
        assert_eq!(parse_timestamp("1970-01-01 00:00:00.5", now), Ok(5));
        assert_eq!(parse_timestamp("NOW", || 42), Ok(42));
        // Numeric fields skip leading whitespace, as FastDateParser does.
        assert_eq!(parse_timestamp(" 2025-06-01  08:00", now), Ok(expected));
        assert_eq!(parse_timestamp("2025-06-01T\t08:00Z", now), Ok(expected));
        for bad in [
            "2025-06-01 24:00",
            "2025-06-01 08:00:00.1000",
            "2025-02-29",
            "2025-06-01 08",
            "2025-06-01 PST",
            "0000-01-01",
            "1582-10-10",
            "2025-06-01T",
            "2025-06-01 08:00 ",
            "2025-06-01 08:00  UTC",
            "2025-06-01 08:00 Z",
            "2025-06-01 08:00z",
            "1970-01-01 00:00+2500",
            "1970-01-01 00:00+0060",
            "1970-01-01 00:00 GMT+24:00",
            "1970-01-01 00:00+05:3",
            "2147483648-01-01",
            "2025-06-01 08:00:00.2147483648",
        ] {
            assert!(parse_timestamp(bad, now).is_err(), "{bad:?}");
        }
        assert!(parse_timestamp("99999999999999999999", now)
            .unwrap_err()
            .message()
            .starts_with("Unable to make long (for date)"));
    }

    /// The general reading alone, without [`parse_usual_timestamp`] in front.
    fn generally(text: &str) -> Option<i64> {
        let without_fast_path = format!(" {text}");
        // Numeric fields skip leading whitespace, so a leading space changes
        // no answer and keeps the fast path out.
        parse_formatted_timestamp(&without_fast_path)
    }

    #[test]
    fn usual_timestamps_take_the_fast_path() {
        for text in [
            "2025-06-01 08:00:00.000000+0000",
            "2025-06-01 08:00:00+0000",
            "2025-06-01T08:00:00.123Z",
            "2025-06-01 08:00",
            "2024-02-29 23:59:59.999-0130",
        ] {
            let fast = parse_usual_timestamp(text.as_bytes());
            assert!(fast.is_some(), "{text}");
            assert_eq!(fast, generally(text), "{text}");
        }
    }

    /// Mostly a value in `usual`, sometimes any in `any`: most cases take
    /// the fast path, and the rest test where it must decline.
    fn mostly(
        usual: std::ops::RangeInclusive<u32>,
        any: std::ops::Range<u32>,
    ) -> impl proptest::strategy::Strategy<Value = u32> {
        proptest::prop_oneof![9 => usual, 1 => any]
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]
        #[test]
        fn the_fast_path_agrees_with_the_general_reading(
            year in proptest::sample::select(vec!["1582", "1583", "1600", "1900", "2000", "2024", "2025", "9999", "0001", "12345", "202"]),
            month in mostly(1..=12, 0..100),
            day in mostly(1..=31, 0..100),
            separator in proptest::sample::select(vec![" ", "T", " ", "T", "  ", "t"]),
            hour in mostly(0..=23, 0..100),
            minute in mostly(0..=59, 0..100),
            second in proptest::option::weighted(0.8, mostly(0..=59, 0..100)),
            fraction in proptest::option::weighted(0.7, "[0-9]{0,10}"),
            zone in proptest::sample::select(vec!["", "Z", "+0000", "-0130", "+2359", "", "+0000", "+2400", "+0060", "+00", "+01:00", " UTC", "z", "+000"]),
            width in mostly(2..=2, 1..3),
        ) {
            let width = width as usize;
            let mut text = format!("{year}-{month:0width$}-{day:0width$}{separator}{hour:02}:{minute:02}");
            if let Some(second) = second {
                text += &format!(":{second:02}");
                if let Some(fraction) = fraction {
                    text += &format!(".{fraction}");
                }
            }
            text += zone;
            if let Some(fast) = parse_usual_timestamp(text.as_bytes()) {
                proptest::prop_assert_eq!(Some(fast), generally(&text), "{}", text);
            }
            proptest::prop_assert_eq!(parse_formatted_timestamp(&text), generally(&text), "{}", text);
        }
    }

    #[test]
    fn timestamps_before_the_gregorian_cutover_are_julian() {
        let now = || 0;
        let day = 86_400_000i64;
        let cutover = parse_timestamp("1582-10-15", now).unwrap();
        assert_eq!(cutover, days_from_civil(1582, 10, 15) * day);
        assert_eq!(parse_timestamp("1582-10-04", now).unwrap(), cutover - day);
        // Julian 1500 is a leap year, Gregorian 1500 is not.
        assert!(parse_timestamp("1500-02-29", now).is_ok());
        // Julian 0001-01-01 is Gregorian 0000-12-30.
        assert_eq!(
            parse_timestamp("0001-01-01", now).unwrap(),
            days_from_civil(0, 12, 30) * day
        );
    }
    #[test]
    fn timestamp_bytes_are_a_bigint() {
        assert_eq!(hex(&serialize_timestamp(-1)), "ffffffffffffffff");
        assert_eq!(serialize_timestamp(42), serialize_bigint(42));
    }
}
