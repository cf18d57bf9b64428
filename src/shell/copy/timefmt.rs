//! DATETIMEFORMAT on export: timestamps decoded as the Python driver decodes them
//! (float noise included) and written with Python's `strftime` (glibc's directives plus
//! Python's `%f`, `%z`, `%Z`), in UTC, then cut to milliseconds as COPY TO does. Reading
//! them back is `strptime.rs`.

use crate::types::serialize::days_from_civil;

/// A UTC date and time, as Python's `datetime` holds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Civil {
    /// 1–9999.
    pub year: i64,
    /// 1–12.
    pub month: u32,
    /// 1–31.
    pub day: u32,
    /// 0–23.
    pub hour: u32,
    /// 0–59.
    pub minute: u32,
    /// 0–59.
    pub second: u32,
    /// 0–999999.
    pub micros: u32,
}

pub(super) const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];
pub(super) const DAYS: [&str; 7] = [
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
];

/// The UTC `datetime` the driver decodes a timestamp to, or `None` outside years
/// 1–9999, where cqlsh writes the milliseconds instead. COPY ignores `TZ`: it always
/// writes UTC.
pub(super) fn civil(millis: i64) -> Option<Civil> {
    let micros = python_float_seconds_to_micros(millis as f64 / 1000.0);
    let days = micros.div_euclid(MICROS_PER_DAY);
    let within = micros.rem_euclid(MICROS_PER_DAY) as i64;
    let (year, month, day) = civil_from_days(i64::try_from(days).ok()?);
    if !(1..=9999).contains(&year) {
        return None;
    }
    let seconds = within / 1_000_000;
    Some(Civil {
        year,
        month,
        day,
        hour: (seconds / 3600) as u32,
        minute: (seconds / 60 % 60) as u32,
        second: (seconds % 60) as u32,
        micros: (within % 1_000_000) as u32,
    })
}

const MICROS_PER_DAY: i128 = 86_400_000_000;

/// CPython's `timedelta(seconds=x)` for a float `x` (how the driver decodes a
/// timestamp), in microseconds: the whole seconds exactly, the fraction times 10⁶ in
/// double arithmetic, truncated, and the leftover rounded half-to-even against the
/// running total — so far from 1970 the microseconds carry the float's noise, as in
/// cqlsh (the same arithmetic as the display's, in `types/calendar.rs`).
fn python_float_seconds_to_micros(seconds: f64) -> i128 {
    let whole = seconds.trunc();
    let fraction = seconds - whole;
    let mut total = whole as i128 * 1_000_000;
    if fraction == 0.0 {
        return total;
    }
    let scaled = fraction * 1e6;
    let scaled_whole = scaled.trunc();
    total += scaled_whole as i128;
    let leftover = scaled - scaled_whole;
    let mut rounded = leftover.round();
    if (rounded - leftover).abs() == 0.5 {
        let odd = (total & 1) as f64;
        rounded = 2.0 * ((leftover + odd) * 0.5).round() - odd;
    }
    total + rounded as i128
}

/// The proleptic Gregorian date of a day count from 1970-01-01 (Howard Hinnant's
/// algorithm, the inverse of [`days_from_civil`]).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z - era * 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let march_month = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * march_month + 2) / 5 + 1) as u32;
    let month = if march_month < 10 {
        march_month + 3
    } else {
        march_month - 9
    } as u32;
    (year_of_era + era * 400 + i64::from(month <= 2), month, day)
}

impl Civil {
    fn days(&self) -> i64 {
        days_from_civil(self.year, self.month, self.day)
    }

    /// Sunday = 0.
    fn weekday(&self) -> usize {
        (self.days() + 4).rem_euclid(7) as usize
    }

    fn day_of_year(&self) -> i64 {
        self.days() - days_from_civil(self.year, 1, 1) + 1
    }

    fn hour12(&self) -> u32 {
        match self.hour % 12 {
            0 => 12,
            h => h,
        }
    }
}

/// `datetime.strftime(format)` for a UTC time.
pub(super) fn strftime(format: &str, t: &Civil) -> String {
    let mut out = String::with_capacity(format.len() + 16);
    let mut chars = format.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some(d) => directive(&mut out, d, t),
            None => out.push('%'),
        }
    }
    out
}

fn directive(out: &mut String, d: char, t: &Civil) {
    let text = match d {
        'Y' => t.year.to_string(),
        'C' => format!("{:02}", t.year / 100),
        'y' => format!("{:02}", t.year % 100),
        'm' => format!("{:02}", t.month),
        'd' => format!("{:02}", t.day),
        'e' => format!("{:2}", t.day),
        'H' => format!("{:02}", t.hour),
        'k' => format!("{:2}", t.hour),
        'I' => format!("{:02}", t.hour12()),
        'l' => format!("{:2}", t.hour12()),
        'M' => format!("{:02}", t.minute),
        'S' => format!("{:02}", t.second),
        'f' => format!("{:06}", t.micros),
        'z' => "+0000".into(),
        'Z' => "UTC".into(),
        'j' => format!("{:03}", t.day_of_year()),
        'p' => if t.hour < 12 { "AM" } else { "PM" }.into(),
        'P' => if t.hour < 12 { "am" } else { "pm" }.into(),
        'b' | 'h' => MONTHS[t.month as usize - 1][..3].into(),
        'B' => MONTHS[t.month as usize - 1].into(),
        'a' => DAYS[t.weekday()][..3].into(),
        'A' => DAYS[t.weekday()].into(),
        'w' => t.weekday().to_string(),
        'u' => (((t.weekday() + 6) % 7) + 1).to_string(),
        's' => {
            (t.days() * 86_400 + i64::from(t.hour * 3600 + t.minute * 60 + t.second)).to_string()
        }
        'F' => strftime("%Y-%m-%d", t),
        'T' | 'X' => strftime("%H:%M:%S", t),
        'D' | 'x' => strftime("%m/%d/%y", t),
        'R' => strftime("%H:%M", t),
        'r' => strftime("%I:%M:%S %p", t),
        'c' => strftime("%a %b %e %H:%M:%S %Y", t),
        'n' => "\n".into(),
        't' => "\t".into(),
        '%' => "%".into(),
        other => format!("%{other}"),
    };
    out.push_str(&text);
}

/// COPY TO's `round_microseconds`: the last `.` followed by 1–6 digits becomes three
/// digits of milliseconds (truncated, not rounded).
pub(super) fn round_microseconds(text: &str) -> String {
    let bytes = text.as_bytes();
    let Some(dot) = (0..bytes.len().saturating_sub(1))
        .rev()
        .find(|&i| bytes[i] == b'.' && bytes[i + 1].is_ascii_digit())
    else {
        return text.to_string();
    };
    let digits: String = text[dot + 1..]
        .chars()
        .take_while(char::is_ascii_digit)
        .take(6)
        .collect();
    let value: u64 = digits.parse().unwrap_or(0);
    let millis = match digits.len() {
        n if n <= 3 => value * 10u64.pow(3 - n as u32),
        n => value / 10u64.pow(n as u32 - 3),
    };
    let rest = &text[dot + 1 + digits.len()..];
    format!("{}.{millis:03}{rest}", &text[..dot])
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEFAULT: &str = "%Y-%m-%d %H:%M:%S.%f%z";

    #[test]
    fn writes_cqlsh_s_default_format() {
        let t = civil(1_748_764_800_123).expect("in range");
        assert_eq!(
            round_microseconds(&strftime(DEFAULT, &t)),
            "2025-06-01 08:00:00.123+0000"
        );
        assert_eq!(
            strftime("%d/%m/%y %a %B %j %p", &t),
            "01/06/25 Sun June 152 AM"
        );
        assert_eq!(civil(i64::MAX), None);
        // The driver's float arithmetic shows through far from 1970, as in cqlsh.
        let late = civil(253_402_300_799_999).expect("in range");
        assert_eq!((late.year, late.second, late.micros), (9999, 59, 998_993));
    }

    #[test]
    fn rounds_to_milliseconds_like_cqlsh() {
        assert_eq!(
            round_microseconds("12:00:00.999999+0000"),
            "12:00:00.999+0000"
        );
        assert_eq!(round_microseconds("a.5 b.12"), "a.5 b.120");
        assert_eq!(round_microseconds("no fraction"), "no fraction");
    }
}
