//! Dates and times as text: cqlsh's display (Python `datetime`, proleptic Gregorian,
//! years 1–9999 only) and Cassandra's JSON (Java formatters: `timestamp` through a
//! `GregorianCalendar`, Julian before 1582-10-15; `date` through `java.time`, proleptic).

use super::serialize::days_from_civil;

const MILLIS_PER_DAY: i64 = 86_400_000;
const MICROS_PER_DAY: i64 = 86_400_000_000;

/// The proleptic Gregorian date of a day count from 1970-01-01 (the inverse of
/// [`days_from_civil`]): `(year, month, day)`.
///
/// Days from about 32,800 BC to 2.9 million AD — every date a timestamp's
/// display shows — are converted by Neri and Schneider's 32-bit algorithm
/// ("Euclidean affine functions and their application to calendar
/// algorithms", 2022), which replaces the era arithmetic's divisions with
/// a few multiplications: results print dates by the million. Any other
/// day goes through [`civil_from_days_by_eras`], the reference a property
/// test holds it to.
pub(crate) fn civil_from_days(days: i64) -> (i64, u32, u32) {
    // The shift that puts the window's first day at 0, a multiple of 400
    // years of days past the algorithm's March-based origin.
    const SHIFT_ERAS: u32 = 82;
    const SHIFT: u32 = 719_468 + 146_097 * SHIFT_ERAS;
    let Some(n) = u32::try_from(days + i64::from(SHIFT))
        .ok()
        .filter(|&n| n <= (u32::MAX - 3) / 4)
    else {
        return civil_from_days_by_eras(days);
    };
    let n1 = 4 * n + 3;
    let century = n1 / 146_097;
    let day_of_century = n1 % 146_097 / 4;
    let n2 = 4 * day_of_century + 3;
    let p2 = 2_939_745u64 * u64::from(n2);
    let year_of_century = (p2 >> 32) as u32;
    let day_of_year = (p2 as u32) / 2_939_745 / 4;
    let n3 = 2141 * day_of_year + 197_913;
    let month = n3 / 65_536;
    let day = n3 % 65_536 / 2141 + 1;
    let past_december = day_of_year >= 306;
    let year = i64::from(100 * century + year_of_century) - i64::from(400 * SHIFT_ERAS)
        + i64::from(past_december);
    let month = if past_december { month - 12 } else { month };
    (year, month, day)
}

/// [`civil_from_days`] for any day, by 400-year eras.
fn civil_from_days_by_eras(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z - era * 146_097; // 0..=146096
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let march_month = (5 * day_of_year + 2) / 153; // March = 0
    let day = (day_of_year - (153 * march_month + 2) / 5 + 1) as u32;
    let month = if march_month < 10 {
        march_month + 3
    } else {
        march_month - 9
    } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// The Julian calendar date of a day count from 1970-01-01: what Java's default
/// `GregorianCalendar` shows for instants before 1582-10-15.
fn julian_from_days(days: i64) -> (i64, u32, u32) {
    // Julian day number 2440588 is 1970-01-01; this is the standard JDN → Julian algorithm.
    let jdn = days + 2_440_588;
    let c = jdn + 32_082;
    let d = (4 * c + 3).div_euclid(1461);
    let e = c - (1461 * d).div_euclid(4);
    let m = (5 * e + 2).div_euclid(153);
    let day = (e - (153 * m + 2).div_euclid(5) + 1) as u32;
    let month = (m + 3 - 12 * m.div_euclid(10)) as u32;
    let year = d - 4800 + m.div_euclid(10);
    (year, month, day)
}

/// `HH:MM:SS` of a non-negative count of units within a day, and what is left.
fn clock(units_of_day: i64, per_second: i64) -> (i64, i64, i64, i64) {
    let seconds = units_of_day / per_second;
    (
        seconds / 3600,
        seconds / 60 % 60,
        seconds % 60,
        units_of_day % per_second,
    )
}

/// cqlsh's display of a `timestamp` (UTC): `2025-06-01 08:00:00.000000+0000`.
///
/// The driver turns the milliseconds into a Python `datetime` via
/// `timedelta(seconds=ms / 1000.0)`, a float, so far from 1970 the microseconds show
/// rounding noise (`9999-12-31 23:59:59.998993+0000`); that arithmetic is reproduced.
/// Outside years 1–9999 cqlsh prints the raw millisecond number instead. Years below
/// 1000 are not zero-padded (glibc's `%Y`, as seen under Python 3.11).
#[cfg(test)]
pub(crate) fn cqlsh_timestamp(millis: i64) -> String {
    let mut out = String::with_capacity(31);
    push_cqlsh_timestamp(millis, &mut out);
    out
}

/// [`cqlsh_timestamp`] appended to `out`, so a page of results is written into one
/// buffer.
pub(crate) fn push_cqlsh_timestamp(millis: i64, out: &mut String) {
    let utc = displayed_micros(millis);
    let offset_secs = display_offset_secs(utc);
    // Years 1–9999 are well inside an i64 of microseconds, whose
    // division is a fraction of an i128's.
    let Ok(micros) = i64::try_from(utc + i128::from(offset_secs) * 1_000_000) else {
        return push_raw(millis, out);
    };
    let days = micros.div_euclid(MICROS_PER_DAY);
    let within = micros.rem_euclid(MICROS_PER_DAY);
    let (year, month, day) = civil_from_days(days);
    if !(1..=9999).contains(&year) {
        return push_raw(millis, out);
    }
    let (h, m, s, us) = clock(within, 1_000_000);
    let sign = if offset_secs < 0 { '-' } else { '+' };
    let (oh, om) = (offset_secs.abs() / 3600, offset_secs.abs() % 3600 / 60);
    push_date(out, year, 1, month, day);
    out.push(' ');
    push_clock(out, (h, m, s), us, 6);
    out.push(sign);
    push_padded(out, oh.unsigned_abs().into(), 2);
    push_padded(out, om.unsigned_abs().into(), 2);
}

/// A number as `str()` writes it, for the values cqlsh cannot show as a calendar date.
fn push_raw(n: impl std::fmt::Display, out: &mut String) {
    let _ = std::fmt::Write::write_fmt(out, format_args!("{n}"));
}

/// Appends `n` in decimal, zero-padded to at least `width` digits. Calendar
/// texts are built with this rather than `format!`, whose padding machinery
/// cost several times the calendar arithmetic: results print timestamps by
/// the million, and text INSERTs are generated with them.
#[inline(always)]
fn push_padded(out: &mut String, n: u64, width: usize) {
    // What is printed by the million — two-digit fields, four-digit years
    // (padded or not), microseconds — is written two digits at a time
    // where the call is (`width` is a constant there).
    match width {
        2 if n < 100 => push_pair(out, n),
        1 | 4 if n < 10_000 && (width == 4 || n >= 1000) => {
            push_pair(out, n / 100);
            push_pair(out, n % 100);
        }
        6 if n < 1_000_000 => {
            push_pair(out, n / 10_000);
            push_pair(out, n / 100 % 100);
            push_pair(out, n % 100);
        }
        _ => push_digits(out, n, width),
    }
}

/// Appends `n` (below 100) as two digits.
#[inline(always)]
fn push_pair(out: &mut String, n: u64) {
    out.push(char::from(b'0' + (n / 10) as u8));
    out.push(char::from(b'0' + (n % 10) as u8));
}

/// [`push_padded`] for any number and width.
fn push_digits(out: &mut String, mut n: u64, width: usize) {
    let mut digits = [b'0'; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    let start = at.min(digits.len().saturating_sub(width));
    for &d in &digits[start..] {
        out.push(char::from(d));
    }
}

/// Appends `year-MM-dd`, the year (not negative) padded to `year_width` digits.
#[inline(always)]
fn push_date(out: &mut String, year: i64, year_width: usize, month: u32, day: u32) {
    push_padded(out, year.unsigned_abs(), year_width);
    out.push('-');
    push_padded(out, month.into(), 2);
    out.push('-');
    push_padded(out, day.into(), 2);
}

/// Appends `HH:mm:ss.fraction`, the fraction padded to `fraction_width` digits.
#[inline(always)]
fn push_clock(out: &mut String, (h, m, s): (i64, i64, i64), fraction: i64, fraction_width: usize) {
    for (i, part) in [h, m, s].into_iter().enumerate() {
        if i > 0 {
            out.push(':');
        }
        push_padded(out, part.unsigned_abs(), 2);
    }
    out.push('.');
    push_padded(out, fraction.unsigned_abs(), fraction_width);
}

/// The zone timestamps are shown in: UTC unless set, as cqlsh shows them
/// unless `TZ` names a zone.
static DISPLAY_TIME_ZONE: std::sync::OnceLock<jiff::tz::TimeZone> = std::sync::OnceLock::new();

/// Shows timestamps in the IANA zone `name` (what cqlsh does with `TZ`),
/// for the rest of the process. Fails for an unknown zone.
pub fn set_display_time_zone(name: &str) -> Result<(), String> {
    let zone = jiff::tz::TimeZone::get(name).map_err(|e| format!("TZ={name}: {e}"))?;
    let _ = DISPLAY_TIME_ZONE.set(zone);
    Ok(())
}

/// The display zone's offset from UTC at the instant `utc_micros`, in seconds.
fn display_offset_secs(utc_micros: i128) -> i32 {
    let Some(zone) = DISPLAY_TIME_ZONE.get() else {
        return 0;
    };
    i64::try_from(utc_micros)
        .ok()
        .and_then(|us| jiff::Timestamp::from_microsecond(us).ok())
        .map_or(0, |t| zone.to_offset(t).seconds())
}

/// The microseconds cqlsh shows for `millis`: the driver's float
/// arithmetic ([`python_float_seconds_to_micros`]), which for whole
/// seconds that a double holds exactly is the exact product, taken
/// without the float and 128-bit work.
fn displayed_micros(millis: i64) -> i128 {
    const EXACT: u64 = 1 << 53;
    if millis % 1000 == 0 && millis.unsigned_abs() <= EXACT {
        return i128::from(millis) * 1000;
    }
    python_float_seconds_to_micros(millis as f64 / 1000.0)
}

/// CPython's `timedelta(seconds=x)` for a float `x`, in microseconds: the whole seconds
/// exactly, the fraction times 10⁶ in double arithmetic, truncated, and the leftover
/// rounded half-to-even against the running total.
fn python_float_seconds_to_micros(seconds: f64) -> i128 {
    let whole = seconds.trunc();
    let fraction = seconds - whole; // exact, as modf is
    let mut total = whole as i128 * 1_000_000;
    if fraction == 0.0 {
        return total;
    }
    let scaled = fraction * 1e6;
    let scaled_whole = scaled.trunc();
    total += scaled_whole as i128;
    let leftover = scaled - scaled_whole;
    let mut rounded = leftover.round(); // half away from zero
    if (rounded - leftover).abs() == 0.5 {
        let odd = (total & 1) as f64;
        rounded = 2.0 * ((leftover + odd) * 0.5).round() - odd;
    }
    total + rounded as i128
}

/// cqlsh's display of a `date`: `%04d-%02d-%02d` while the year is within 1–9999,
/// otherwise the signed number of days since 1970-01-01 (the driver's `Date.__str__`).
#[cfg(test)]
pub(crate) fn cqlsh_date(days_since_epoch: i32) -> String {
    let mut out = String::with_capacity(10);
    push_cqlsh_date(days_since_epoch, &mut out);
    out
}

/// [`cqlsh_date`] appended to `out`.
pub(crate) fn push_cqlsh_date(days_since_epoch: i32, out: &mut String) {
    let (year, month, day) = civil_from_days(i64::from(days_since_epoch));
    if (1..=9999).contains(&year) {
        push_date(out, year, 4, month, day);
    } else {
        push_raw(days_since_epoch, out);
    }
}

/// A `time` as both cqlsh and Cassandra print it: `08:12:54.123456789`, always nine
/// fraction digits.
pub(crate) fn time_text(nanos: i64) -> String {
    let mut out = String::with_capacity(18);
    push_time_text(nanos, &mut out);
    out
}

/// [`time_text`] appended to `out`.
pub(crate) fn push_time_text(nanos: i64, out: &mut String) {
    let (h, m, s, ns) = clock(nanos.max(0), 1_000_000_000);
    push_clock(out, (h, m, s), ns, 9);
}

/// Cassandra's JSON text of a `timestamp`: `yyyy-MM-dd HH:mm:ss.SSSX` in UTC, e.g.
/// `2025-06-01 08:00:00.000Z`, formatted by a `GregorianCalendar` (Julian dates before
/// 1582-10-15; `yyyy` is the year of era, so 1 BC prints as `0001`).
pub(crate) fn java_timestamp(millis: i64) -> String {
    let days = millis.div_euclid(MILLIS_PER_DAY);
    let within = millis.rem_euclid(MILLIS_PER_DAY);
    let gregorian_start = days_from_civil(1582, 10, 15);
    let (year, month, day) = if days >= gregorian_start {
        civil_from_days(days)
    } else {
        julian_from_days(days)
    };
    let year_of_era = if year <= 0 { 1 - year } else { year };
    let (h, m, s, ms) = clock(within, 1000);
    let mut out = String::with_capacity(24);
    push_date(&mut out, year_of_era, 4, month, day);
    out.push(' ');
    push_clock(&mut out, (h, m, s), ms, 3);
    out.push('Z');
    out
}

/// Cassandra's JSON text of a `date`: `DateTimeFormatter.ISO_LOCAL_DATE`, proleptic
/// Gregorian, four-digit years padded, a sign beyond four digits or below year 0
/// (`+12345-01-01`, `-0001-12-31`).
pub(crate) fn iso_local_date(days_since_epoch: i32) -> String {
    let (year, month, day) = civil_from_days(i64::from(days_since_epoch));
    let year_text = if year > 9999 {
        format!("+{year}")
    } else if year < 0 {
        format!("-{:04}", -year)
    } else {
        format!("{year:04}")
    };
    format!("{year_text}-{month:02}-{day:02}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn the_short_conversion_agrees_with_the_eras(
            days in prop_oneof![
                -800_000i64..3_000_000,
                -12_699_500i64..-12_699_300,
                1_061_042_300i64..1_061_042_500,
                -20_000_000i64..1_100_000_000,
                any::<i32>().prop_map(i64::from),
            ],
        ) {
            prop_assert_eq!(civil_from_days(days), civil_from_days_by_eras(days), "{}", days);
        }

        #[test]
        fn whole_seconds_are_shown_as_the_floats_give_them(
            seconds in prop_oneof![-100_000_000_000i64..100_000_000_000, -9_007_199_254_741i64..9_007_199_254_741, -9_000_000_000_000_000i64..9_000_000_000_000_000],
        ) {
            let millis = seconds * 1000;
            prop_assert_eq!(
                displayed_micros(millis),
                python_float_seconds_to_micros(millis as f64 / 1000.0)
            );
        }

        #[test]
        fn push_padded_pads_as_format_does(
            n in prop_oneof![0u64..200, 0u64..20_000, 0u64..2_000_000, any::<u64>()],
            width in 0usize..12,
        ) {
            let mut out = String::from("x");
            push_padded(&mut out, n, width);
            prop_assert_eq!(out, format!("x{n:0width$}"));
        }
    }

    #[test]
    fn civil_round_trips() {
        for days in [
            -1_000_000i64,
            -719_468,
            -1,
            0,
            1,
            20_000,
            2_932_896,
            i32::MIN.into(),
            i32::MAX.into(),
        ] {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days, "{days}");
        }
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
    }

    #[test]
    fn julian_dates() {
        let cutover = days_from_civil(1582, 10, 15);
        assert_eq!(julian_from_days(cutover - 1), (1582, 10, 4));
        // Julian 0001-01-01 is Gregorian 0000-12-30.
        assert_eq!(julian_from_days(days_from_civil(0, 12, 30)), (1, 1, 1));
    }

    #[test]
    fn cqlsh_timestamps_match_cqlsh_622() {
        // Each expected text was produced by cqlsh 6.2.2's own formatting code.
        for (ms, shown) in [
            (0, "1970-01-01 00:00:00.000000+0000"),
            (-1, "1969-12-31 23:59:59.999000+0000"),
            (1_748_764_800_000, "2025-06-01 08:00:00.000000+0000"),
            (-62_135_596_800_000, "1-01-01 00:00:00.000000+0000"),
            (-62_135_596_800_001, "-62135596800001"),
            (253_402_300_799_999, "9999-12-31 23:59:59.998993+0000"),
            (253_402_300_800_000, "253402300800000"),
            (9_999_999_999_999, "2286-11-20 17:46:39.999001+0000"),
            (12_345_678_901_234, "2361-03-21 19:15:01.233999+0000"),
            (100_000_000_000_123, "5138-11-16 09:46:40.123001+0000"),
            (-50_000_000_000_123, "385-07-25 07:06:39.876999+0000"),
        ] {
            assert_eq!(cqlsh_timestamp(ms), shown, "{ms}");
        }
    }

    #[test]
    fn dates_and_times() {
        assert_eq!(cqlsh_date(20_240), "2025-06-01");
        assert_eq!(cqlsh_date(-1_000_000_000), "-1000000000");
        assert_eq!(cqlsh_date(0), "1970-01-01");
        assert_eq!(time_text(29_574_000_000_000), "08:12:54.000000000");
        assert_eq!(time_text(29_574_123_456_789), "08:12:54.123456789");
        assert_eq!(iso_local_date(20_240), "2025-06-01");
        assert_eq!(iso_local_date(i32::MAX), "+5881580-07-11");
        assert_eq!(iso_local_date(i32::MIN), "-5877641-06-23");
        assert_eq!(
            java_timestamp(1_748_764_800_000),
            "2025-06-01 08:00:00.000Z"
        );
        assert_eq!(java_timestamp(-1), "1969-12-31 23:59:59.999Z");
        let julian_day_one = days_from_civil(0, 12, 30) * MILLIS_PER_DAY;
        assert_eq!(java_timestamp(julian_day_one), "0001-01-01 00:00:00.000Z");
    }
}
