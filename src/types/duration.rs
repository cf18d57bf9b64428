//! `duration` literals read as Cassandra's `Duration.from` reads them, and the text form
//! both Cassandra (`Duration.toString`) and cqlsh (`duration_as_str`) print.

use super::value::CqlDuration;

const NANOS_PER_MICRO: i64 = 1_000;
const NANOS_PER_MILLI: i64 = 1_000 * NANOS_PER_MICRO;
const NANOS_PER_SECOND: i64 = 1_000 * NANOS_PER_MILLI;
const NANOS_PER_MINUTE: i64 = 60 * NANOS_PER_SECOND;
const NANOS_PER_HOUR: i64 = 60 * NANOS_PER_MINUTE;

/// The units in the order a duration must list them; the index is Cassandra's
/// `currentUnitIndex` (years = 1 … nanoseconds = 10).
const UNIT_NAMES: [&str; 11] = [
    "",
    "years",
    "months",
    "weeks",
    "days",
    "hours",
    "minutes",
    "seconds",
    "milliseconds",
    "microseconds",
    "nanoseconds",
];

/// Accumulates units, enforcing Cassandra's order and overflow rules (`Duration.Builder`).
struct Builder {
    negative: bool,
    months: i64,
    days: i64,
    nanos: i64,
    current_unit: usize,
}

impl Builder {
    fn new(negative: bool) -> Builder {
        Builder {
            negative,
            months: 0,
            days: 0,
            nanos: 0,
            current_unit: 0,
        }
    }

    /// Adds `count` of unit number `unit` (1 = years … 10 = nanoseconds).
    fn add(&mut self, unit: usize, count: i64) -> Result<(), String> {
        if unit == self.current_unit {
            return Err(format!(
                "Invalid duration. The {} are specified multiple times",
                UNIT_NAMES[unit]
            ));
        }
        if unit < self.current_unit {
            return Err(format!(
                "Invalid duration. The {} should be after {}",
                UNIT_NAMES[self.current_unit], UNIT_NAMES[unit]
            ));
        }
        self.current_unit = unit;
        // Cassandra's check: units <= (MAX - total) / per_unit, and its message names
        // Integer.MAX_VALUE even for nanoseconds.
        let check = |count: i64, limit: i64, name: &str| -> Result<(), String> {
            if count <= limit {
                Ok(())
            } else {
                Err(format!(
                    "Invalid duration. The total number of {name} must be less or equal to {}",
                    i32::MAX
                ))
            }
        };
        let int_max = i64::from(i32::MAX);
        match unit {
            1 | 2 => {
                let per = if unit == 1 { 12 } else { 1 };
                check(count, (int_max - self.months) / per, "months")?;
                self.months += count * per;
            }
            3 | 4 => {
                let per = if unit == 3 { 7 } else { 1 };
                check(count, (int_max - self.days) / per, "days")?;
                self.days += count * per;
            }
            _ => {
                let per = match unit {
                    5 => NANOS_PER_HOUR,
                    6 => NANOS_PER_MINUTE,
                    7 => NANOS_PER_SECOND,
                    8 => NANOS_PER_MILLI,
                    9 => NANOS_PER_MICRO,
                    _ => 1,
                };
                check(count, (i64::MAX - self.nanos) / per, "nanoseconds")?;
                self.nanos += count * per;
            }
        }
        Ok(())
    }

    fn build(self) -> CqlDuration {
        // The checks above keep months and days within i32.
        let sign = if self.negative { -1 } else { 1 };
        CqlDuration {
            months: (self.months * sign) as i32,
            days: (self.days * sign) as i32,
            nanos: self.nanos * sign,
        }
    }
}

/// Parses a duration literal (`Duration.from`): `-`? then the compact form `12h30m`, ISO
/// 8601 `P1Y2M3DT4H5M6S` / `P2W`, or the alternative `P0001-02-03T04:05:06`.
///
/// Errors are Cassandra's messages; note they quote the text *without* its leading `-`,
/// as Cassandra does.
pub fn parse_duration(input: &str) -> Result<CqlDuration, String> {
    let negative = input.starts_with('-');
    let source = if negative { &input[1..] } else { input };
    let unable = || format!("Unable to convert '{source}' to a duration");
    let mut builder = Builder::new(negative);
    if let Some(body) = source.strip_prefix('P') {
        if source.ends_with('W') {
            let weeks = body.strip_suffix('W').ok_or_else(unable)?;
            builder.add(3, digits(weeks).ok_or_else(unable)?)?;
        } else if source.contains('-') {
            parse_alternative(body, &mut builder).ok_or_else(unable)??;
        } else {
            parse_iso(body, &mut builder).ok_or_else(unable)??;
        }
        return Ok(builder.build());
    }
    parse_compact(source, &mut builder).ok_or_else(unable)??;
    Ok(builder.build())
}

/// One or more ASCII digits as a `long` (`Long.parseLong` of a `\d+` group).
fn digits(text: &str) -> Option<i64> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// `P((\d+)Y)?((\d+)M)?((\d+)D)?(T((\d+)H)?((\d+)M)?((\d+)S)?)?`, the whole text. `None`
/// when it does not match; `Some(Err)` when a unit overflows.
fn parse_iso(body: &str, builder: &mut Builder) -> Option<Result<(), String>> {
    let (date, time) = match body.split_once('T') {
        Some((d, t)) => (d, Some(t)),
        None => (body, None),
    };
    let mut parts = Vec::new();
    collect_designated(date, &[('Y', 1), ('M', 2), ('D', 4)], &mut parts)?;
    if let Some(time) = time {
        collect_designated(time, &[('H', 5), ('M', 6), ('S', 7)], &mut parts)?;
    }
    Some(
        parts
            .into_iter()
            .try_for_each(|(unit, n)| builder.add(unit, n)),
    )
}

/// Reads `(\d+X)?(\d+Y)?…` for the given designators, in order, consuming all of `text`.
fn collect_designated(
    text: &str,
    designators: &[(char, usize)],
    out: &mut Vec<(usize, i64)>,
) -> Option<()> {
    let mut rest = text;
    let mut next = 0;
    while !rest.is_empty() {
        let len = rest.bytes().take_while(u8::is_ascii_digit).count();
        let letter = rest[len..].chars().next()?;
        let position = designators[next..].iter().position(|&(d, _)| d == letter)?;
        let n = digits(&rest[..len])?;
        out.push((designators[next + position].1, n));
        next += position + 1;
        rest = &rest[len + letter.len_utf8()..];
    }
    Some(())
}

/// `P(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})` after the `P`.
fn parse_alternative(body: &str, builder: &mut Builder) -> Option<Result<(), String>> {
    let b = body.as_bytes();
    let shape = b"dddd-dd-ddTdd:dd:dd";
    if b.len() != shape.len() {
        return None;
    }
    for (&c, &s) in b.iter().zip(shape) {
        let ok = if s == b'd' {
            c.is_ascii_digit()
        } else {
            c == s
        };
        if !ok {
            return None;
        }
    }
    let field = |from: usize, to: usize| digits(&body[from..to]).unwrap_or(0);
    let units = [
        (1, field(0, 4)),
        (2, field(5, 7)),
        (4, field(8, 10)),
        (5, field(11, 13)),
        (6, field(14, 16)),
        (7, field(17, 19)),
    ];
    Some(
        units
            .into_iter()
            .try_for_each(|(unit, n)| builder.add(unit, n)),
    )
}

/// The compact form: `(\d+)(unit)` repeated to the end. Units are case-insensitive; `µ`
/// (U+00B5) is accepted for micro. Among units sharing a prefix Cassandra's regex tries
/// `mo` and `ms` before `m`.
fn parse_compact(source: &str, builder: &mut Builder) -> Option<Result<(), String>> {
    let mut rest = source;
    let mut parts = Vec::new();
    while !rest.is_empty() {
        let len = rest.bytes().take_while(u8::is_ascii_digit).count();
        let n = digits(&rest[..len])?;
        let after = &rest[len..];
        let lower: String = after.chars().take(2).flat_map(char::to_lowercase).collect();
        let (unit, width) = if lower.starts_with("mo") {
            (2, 2)
        } else if lower.starts_with("ms") {
            (8, 2)
        } else if lower.starts_with("us") {
            (9, 2)
        } else if lower.starts_with("µs") {
            (9, 'µ'.len_utf8() + 1)
        } else if lower.starts_with("ns") {
            (10, 2)
        } else {
            match lower.chars().next()? {
                'y' => (1, 1),
                'w' => (3, 1),
                'd' => (4, 1),
                'h' => (5, 1),
                'm' => (6, 1),
                's' => (7, 1),
                _ => return None,
            }
        };
        parts.push((unit, n));
        rest = after.get(width..)?;
    }
    if parts.is_empty() {
        return None;
    }
    Some(
        parts
            .into_iter()
            .try_for_each(|(unit, n)| builder.add(unit, n)),
    )
}

/// The text Cassandra's `Duration.toString` and cqlsh's `duration_as_str` both produce:
/// `-`? then `y mo d h m s ms us ns`, omitting zero units. A zero duration is the empty
/// string (cqlsh shows an empty cell).
pub fn duration_to_string(d: &CqlDuration) -> String {
    let mut out = String::new();
    if d.months < 0 || d.days < 0 || d.nanos < 0 {
        out.push('-');
    }
    let mut append = |dividend: u64, divisor: u64, unit: &str| -> u64 {
        if dividend == 0 || dividend < divisor {
            return dividend;
        }
        out.push_str(&(dividend / divisor).to_string());
        out.push_str(unit);
        dividend % divisor
    };
    let months = u64::from(d.months.unsigned_abs());
    let remainder = append(months, 12, "y");
    append(remainder, 1, "mo");
    append(u64::from(d.days.unsigned_abs()), 1, "d");
    if d.nanos != 0 {
        let mut remainder = d.nanos.unsigned_abs();
        for (divisor, unit) in [
            (NANOS_PER_HOUR, "h"),
            (NANOS_PER_MINUTE, "m"),
            (NANOS_PER_SECOND, "s"),
            (NANOS_PER_MILLI, "ms"),
            (NANOS_PER_MICRO, "us"),
            (1, "ns"),
        ] {
            remainder = append(remainder, divisor as u64, unit);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(months: i32, days: i32, nanos: i64) -> CqlDuration {
        CqlDuration {
            months,
            days,
            nanos,
        }
    }

    #[test]
    fn compact_forms() {
        assert_eq!(parse_duration("1h30m"), Ok(d(0, 0, 90 * NANOS_PER_MINUTE)));
        assert_eq!(parse_duration("1y2mo3d"), Ok(d(14, 3, 0)));
        assert_eq!(parse_duration("-3w"), Ok(d(0, -21, 0)));
        assert_eq!(parse_duration("500MS"), Ok(d(0, 0, 500 * NANOS_PER_MILLI)));
        assert_eq!(parse_duration("1us500ns"), Ok(d(0, 0, 1500)));
        assert_eq!(parse_duration("2µs"), Ok(d(0, 0, 2000)));
        assert_eq!(parse_duration("1Mo1M"), Ok(d(1, 0, NANOS_PER_MINUTE)));
    }

    #[test]
    fn iso_forms() {
        assert_eq!(
            parse_duration("P1Y2M3DT4H5M6S"),
            Ok(d(
                14,
                3,
                4 * NANOS_PER_HOUR + 5 * NANOS_PER_MINUTE + 6 * NANOS_PER_SECOND
            ))
        );
        assert_eq!(parse_duration("PT5M"), Ok(d(0, 0, 5 * NANOS_PER_MINUTE)));
        assert_eq!(parse_duration("P2W"), Ok(d(0, 14, 0)));
        assert_eq!(parse_duration("-P1D"), Ok(d(0, -1, 0)));
        assert_eq!(
            parse_duration("P0001-02-03T04:05:06"),
            Ok(d(
                14,
                3,
                4 * NANOS_PER_HOUR + 5 * NANOS_PER_MINUTE + 6 * NANOS_PER_SECOND
            ))
        );
    }

    #[test]
    fn cassandra_errors() {
        let err = |s: &str| parse_duration(s).unwrap_err();
        assert_eq!(err("5"), "Unable to convert '5' to a duration");
        assert_eq!(err("-5"), "Unable to convert '5' to a duration");
        assert_eq!(err("1h1x"), "Unable to convert '1h1x' to a duration");
        assert_eq!(err("P1M1Y"), "Unable to convert 'P1M1Y' to a duration");
        assert_eq!(
            err("1h1h"),
            "Invalid duration. The hours are specified multiple times"
        );
        assert_eq!(
            err("1m1h"),
            "Invalid duration. The minutes should be after hours"
        );
        assert_eq!(
            err("178956971y"),
            "Invalid duration. The total number of months must be less or equal to 2147483647"
        );
    }

    #[test]
    fn text_form() {
        assert_eq!(duration_to_string(&d(0, 0, 90 * NANOS_PER_MINUTE)), "1h30m");
        assert_eq!(duration_to_string(&d(14, 3, 0)), "1y2mo3d");
        assert_eq!(duration_to_string(&d(0, 0, 1500)), "1us500ns");
        assert_eq!(
            duration_to_string(&d(-1, -2, -3 * NANOS_PER_MILLI)),
            "-1mo2d3ms"
        );
        assert_eq!(duration_to_string(&d(0, 0, 0)), "");
        assert!(duration_to_string(&d(i32::MIN, 0, i64::MIN)).len() > 1);
    }
}
