//! The time functions (language.md §4.2) and `timestamp`/`date` ± `duration`, following
//! Cassandra 5.0's `TimeFcts`, `TemporalType` and `Duration.addTo`.

use crate::syntax::ast::NativeType;
use crate::types::serialize::days_from_civil;
use crate::types::value::{date_days, raw_date};
use crate::types::{timeuuid, CqlDuration, DataType, Value};

const MILLIS_PER_DAY: i64 = 86_400_000;
const MICROS_PER_DAY: i64 = 86_400_000_000;
const NANOS_PER_MILLI: i64 = 1_000_000;

/// `TemporalType.toTimeInMillis` of a `timestamp`, `date` or `timeuuid` value; `None`
/// for anything else (an empty value included: the functions return null for it).
pub(super) fn to_millis(value: &Value) -> Option<i64> {
    match value {
        Value::Timestamp(ms) => Some(*ms),
        Value::Date(raw) => Some(i64::from(date_days(*raw)) * MILLIS_PER_DAY),
        Value::Timeuuid(u) => Some(timeuuid::unix_millis(u)),
        _ => None,
    }
}

/// `SimpleDateType.fromTimeInMillis`: Cassandra's `Duration.ofMillis(ms).toDays()`, which
/// divides whole seconds by 86 400 *toward zero* — so any instant of 1969-12-31 becomes
/// 1970-01-01, a Cassandra quirk kept here. Out-of-range days wrap like Java's `(int)`.
pub(super) fn date_from_millis(ms: i64) -> Value {
    let days = ms.div_euclid(1000) / 86_400;
    Value::Date(raw_date(days as i32))
}

/// `current_timestamp()` from the statement's clock.
pub(super) fn current_timestamp(now_micros: i64) -> Value {
    Value::Timestamp(now_micros.div_euclid(1000))
}

/// `current_date()`: today in UTC.
pub(super) fn current_date(now_micros: i64) -> Value {
    date_from_millis(now_micros.div_euclid(1000))
}

/// `current_time()`: nanoseconds since midnight UTC (at microsecond resolution).
pub(super) fn current_time(now_micros: i64) -> Value {
    Value::Time(now_micros.rem_euclid(MICROS_PER_DAY) * 1000)
}

/// `to_timestamp(x)`.
pub(super) fn to_timestamp(value: &Value) -> Value {
    to_millis(value).map_or(Value::Null, Value::Timestamp)
}

/// `to_date(x)`.
pub(super) fn to_date(value: &Value) -> Value {
    to_millis(value).map_or(Value::Null, date_from_millis)
}

/// `to_unix_timestamp(x)`: bigint milliseconds.
pub(super) fn to_unix_timestamp(value: &Value) -> Value {
    to_millis(value).map_or(Value::Null, Value::Bigint)
}

/// `min_timeuuid(t)` / `max_timeuuid(t)`.
pub(super) fn extreme_timeuuid(value: &Value, max: bool) -> Value {
    match to_millis(value) {
        Some(ms) if max => Value::Timeuuid(timeuuid::max_timeuuid(ms)),
        Some(ms) => Value::Timeuuid(timeuuid::min_timeuuid(ms)),
        None => Value::Null,
    }
}

/// `temporal ± duration` for a `timestamp` or `date` (`TemporalType.addDuration` /
/// `substractDuration`), with the precision checks of each type; the error text is the
/// cause that the caller wraps into "the operation '…' failed: …".
pub(super) fn add_duration(
    temporal: &Value,
    duration: &CqlDuration,
    subtract: bool,
) -> Result<Value, String> {
    let (is_date, millis) = match temporal {
        Value::Date(_) => (true, to_millis(temporal)),
        _ => (false, to_millis(temporal)),
    };
    let Some(millis) = millis else {
        return Ok(Value::Null);
    };
    if is_date && duration.nanos != 0 {
        return Err(format!(
            "The duration must have a day precision. Was: {}",
            crate::types::duration_to_string(duration)
        ));
    }
    // `Duration.hasMillisecondPrecision`: the low six bits of the nanoseconds are zero
    // (a cheap test Cassandra uses; `64ns` passes it).
    if !is_date && duration.nanos.trailing_zeros() < 6 {
        return Err(format!(
            "The duration must have a millisecond precision. Was: {}",
            crate::types::duration_to_string(duration)
        ));
    }
    let (months, days, nanos) = if subtract {
        (
            duration.months.wrapping_neg(),
            duration.days.wrapping_neg(),
            duration.nanos.wrapping_neg(),
        )
    } else {
        (duration.months, duration.days, duration.nanos)
    };
    let result = add_to_millis(millis, months, days, nanos);
    Ok(if is_date {
        date_from_millis(result)
    } else {
        Value::Timestamp(result)
    })
}

/// `Duration.add`: plain milliseconds when there are no months; otherwise a UTC
/// calendar's `add(MONTH)` (the day of month pinned to the new month's length), then
/// `add(DAY_OF_MONTH)`, then `add(MILLISECOND, (int) (nanos / 10^6))`. The calendar is
/// proleptic Gregorian here (Java's switches to Julian before 1582-10-15).
fn add_to_millis(millis: i64, months: i32, days: i32, nanos: i64) -> i64 {
    if months == 0 {
        let delta = i64::from(days)
            .wrapping_mul(MILLIS_PER_DAY)
            .wrapping_add(nanos / NANOS_PER_MILLI);
        return millis.wrapping_add(delta);
    }
    let day_number = millis.div_euclid(MILLIS_PER_DAY);
    let within_day = millis.rem_euclid(MILLIS_PER_DAY);
    let (year, month, day) = civil(day_number);
    let month_index = year * 12 + i64::from(month) - 1 + i64::from(months);
    let (new_year, new_month) = (
        month_index.div_euclid(12),
        (month_index.rem_euclid(12) + 1) as u32,
    );
    let first = days_from_civil(new_year, new_month, 1);
    let next_first = if new_month == 12 {
        days_from_civil(new_year + 1, 1, 1)
    } else {
        days_from_civil(new_year, new_month + 1, 1)
    };
    let pinned_day = i64::from(day).min(next_first - first);
    let new_day_number = first + pinned_day - 1 + i64::from(days);
    new_day_number
        .wrapping_mul(MILLIS_PER_DAY)
        .wrapping_add(within_day)
        .wrapping_add(i64::from((nanos / NANOS_PER_MILLI) as i32))
}

/// The proleptic Gregorian `(year, month, day)` of a day count since 1970-01-01, read
/// back from the ISO text `types` formats dates with (its calendar helpers are private
/// to that module).
fn civil(day_number: i64) -> (i64, u32, u32) {
    let days =
        i32::try_from(day_number).unwrap_or(if day_number < 0 { i32::MIN } else { i32::MAX });
    let json = Value::Date(raw_date(days)).to_json_text(&DataType::Native(NativeType::Date));
    let text = json.trim_matches('"');
    let (negative, body) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let mut parts = body.splitn(3, '-');
    let mut next = || {
        parts
            .next()
            .and_then(|p| p.parse::<i64>().ok())
            .unwrap_or(1)
    };
    let (year, month, day) = (next(), next(), next());
    (
        if negative { -year } else { year },
        month as u32,
        day as u32,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::serialize::parse_timestamp;

    fn ts(text: &str) -> i64 {
        parse_timestamp(text, || 0).expect("valid timestamp")
    }

    fn date(y: i64, m: u32, d: u32) -> Value {
        Value::date_from_days(days_from_civil(y, m, d) as i32)
    }

    fn dur(text: &str) -> CqlDuration {
        crate::types::parse_duration(text).expect("valid duration")
    }

    #[test]
    fn conversions_between_temporal_types() {
        let t = ts("2015-05-21 11:03:02+0000");
        let u = Value::Timeuuid(timeuuid::from_unix_micros(t * 1000 + 7, 1, 2));
        assert!(matches!(to_timestamp(&u), Value::Timestamp(ms) if ms == t));
        assert!(matches!(to_unix_timestamp(&u), Value::Bigint(ms) if ms == t));
        assert_eq!(to_date(&u), date(2015, 5, 21));
        assert_eq!(to_date(&Value::Timestamp(t)), date(2015, 5, 21));
        let midnight = ts("2015-05-21+0000");
        assert!(matches!(to_timestamp(&date(2015, 5, 21)), Value::Timestamp(ms) if ms == midnight));
        assert!(matches!(
            to_unix_timestamp(&date(1970, 1, 2)),
            Value::Bigint(86_400_000)
        ));
        assert!(to_date(&Value::Empty).is_null());
        assert!(to_unix_timestamp(&Value::Empty).is_null());
    }

    #[test]
    fn pre_epoch_dates_round_toward_zero() {
        // Duration.ofMillis(-1).toDays() == 0: the last millisecond of 1969 is 1970-01-01.
        assert_eq!(to_date(&Value::Timestamp(-1)), date(1970, 1, 1));
        assert_eq!(to_date(&Value::Timestamp(-86_400_001)), date(1969, 12, 31));
    }

    #[test]
    fn current_values_come_from_the_clock() {
        let now = ts("2025-06-01 08:00:00.123+0000") * 1000 + 456;
        assert!(
            matches!(current_timestamp(now), Value::Timestamp(ms) if ms == ts("2025-06-01 08:00:00.123+0000"))
        );
        assert_eq!(current_date(now), date(2025, 6, 1));
        assert!(matches!(current_time(now), Value::Time(ns) if ns == 28_800_123_456_000));
    }

    #[test]
    fn min_and_max_timeuuid_of_a_timestamp() {
        let t = ts("2013-01-01 00:05+0000");
        let Value::Timeuuid(min) = extreme_timeuuid(&Value::Timestamp(t), false) else {
            panic!()
        };
        assert_eq!(&min[8..], &[0x80; 8]);
        let Value::Timeuuid(max) = extreme_timeuuid(&Value::Timestamp(t), true) else {
            panic!()
        };
        assert_eq!(&max[8..], &[0x7f; 8]);
        assert!(extreme_timeuuid(&Value::Empty, true).is_null());
    }

    #[test]
    fn timestamp_and_duration() {
        let t = Value::Timestamp(ts("2016-09-27 16:10:00+0000"));
        let minus = add_duration(&t, &dur("10m"), true).expect("valid");
        assert!(matches!(minus, Value::Timestamp(ms) if ms == ts("2016-09-27 16:00:00+0000")));
        let jan31 = Value::Timestamp(ts("2016-01-31 12:00:00+0000"));
        let plus = add_duration(&jan31, &dur("1mo1d"), false).expect("valid");
        // Jan 31 + 1 month pins to Feb 29 (2016 is a leap year), + 1 day = Mar 1.
        assert!(matches!(plus, Value::Timestamp(ms) if ms == ts("2016-03-01 12:00:00+0000")));
        let back = add_duration(&jan31, &dur("1y2mo"), true).expect("valid");
        assert!(matches!(back, Value::Timestamp(ms) if ms == ts("2014-11-30 12:00:00+0000")));
        assert_eq!(
            add_duration(&t, &dur("10us"), true).unwrap_err(),
            "The duration must have a millisecond precision. Was: 10us"
        );
        // Cassandra's low-six-bits test lets 64ns through.
        assert!(add_duration(&t, &dur("64ns"), false).is_ok());
    }

    #[test]
    fn date_and_duration() {
        let d = date(2016, 10, 4);
        assert_eq!(add_duration(&d, &dur("5d"), true), Ok(date(2016, 9, 29)));
        assert_eq!(add_duration(&d, &dur("1mo"), false), Ok(date(2016, 11, 4)));
        assert_eq!(
            add_duration(&date(1960, 3, 31), &dur("1mo"), true),
            Ok(date(1960, 2, 29))
        );
        assert_eq!(
            add_duration(&d, &dur("10m"), true).unwrap_err(),
            "The duration must have a day precision. Was: 10m"
        );
        assert_eq!(
            add_duration(&Value::Empty, &dur("1d"), true),
            Ok(Value::Null)
        );
    }

    #[test]
    fn civil_reads_signed_years() {
        assert_eq!(civil(0), (1970, 1, 1));
        assert_eq!(civil(days_from_civil(-1, 12, 31)), (-1, 12, 31));
        assert_eq!(civil(days_from_civil(12345, 6, 7)), (12345, 6, 7));
    }
}
