//! Python's `strptime` for DATETIMEFORMAT and the driver's `Date` and `Time`: the
//! regular expressions `_strptime` builds are reproduced with their alternatives in
//! order and their backtracking, then the matched fields checked as `datetime` checks
//! them.

use smallvec::SmallVec;

use crate::types::serialize::days_from_civil;

use super::timefmt::{civil, DAYS, MONTHS};

/// What `strptime` matched.
#[derive(Debug, Clone, Copy, Default)]
struct Fields {
    year: Option<i64>,
    short_year: Option<i64>,
    month: Option<u32>,
    day: Option<u32>,
    hour: Option<u32>,
    hour12: Option<u32>,
    pm: Option<bool>,
    minute: u32,
    second: u32,
    micros: u32,
    julian: Option<u32>,
    offset: Option<i64>,
}

/// A DATETIMEFORMAT compiled once for [`TimeFormat::parse_millis`].
#[derive(Debug, Clone)]
pub(super) struct TimeFormat {
    text: String,
    items: Result<Vec<Item>, String>,
}

impl TimeFormat {
    /// Compiles `format` (a bad directive fails every parse, as in Python).
    pub(super) fn new(format: &str) -> TimeFormat {
        TimeFormat {
            text: format.to_string(),
            items: compile(format),
        }
    }

    /// The format as given.
    pub(super) fn text(&self) -> &str {
        &self.text
    }

    /// `datetime.strptime(value, format).timestamp() * 1000`, in whole milliseconds (a
    /// time without `%z` is taken as UTC), with Python's messages.
    pub(super) fn parse_millis(&self, value: &str) -> Result<i64, String> {
        let items = self.items.as_ref().map_err(String::clone)?;
        let mut fields = Fields::default();
        let end = match_items(items, value, 0, &mut fields).ok_or_else(|| {
            format!(
                "time data {} does not match format {}",
                repr(value),
                repr(&self.text)
            )
        })?;
        if end < value.len() {
            return Err(format!("unconverted data remains: {}", &value[end..]));
        }
        to_millis(&fields)
    }
}

/// [`TimeFormat::parse_millis`] of a format used once.
pub(super) fn strptime_millis(text: &str, format: &str) -> Result<i64, String> {
    TimeFormat::new(format).parse_millis(text)
}

fn repr(text: &str) -> String {
    super::python::repr(text)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Item {
    Literal(char),
    Space,
    Directive(char),
}

fn compile(format: &str) -> Result<Vec<Item>, String> {
    let mut items = Vec::new();
    let mut chars = format.chars().peekable();
    while let Some(c) = chars.next() {
        let item = match c {
            '%' => match chars.next() {
                Some('%') => Item::Literal('%'),
                Some(d) if "YymdHIMSfzZjpbBaA".contains(d) => Item::Directive(d),
                Some(d) => {
                    return Err(format!(
                        "'{d}' is a bad directive in format {}",
                        repr(format)
                    ))
                }
                None => return Err(format!("stray % in format {}", repr(format))),
            },
            c if c.is_whitespace() => {
                while chars.peek().is_some_and(|n| n.is_whitespace()) {
                    chars.next();
                }
                Item::Space
            }
            c => Item::Literal(c),
        };
        items.push(item);
    }
    Ok(items)
}

/// Matches `items` against `text` from `pos` as Python's compiled regular expression
/// would (alternatives in order, backtracking), returning where the match ends.
fn match_items(items: &[Item], text: &str, pos: usize, fields: &mut Fields) -> Option<usize> {
    let Some((item, rest)) = items.split_first() else {
        return Some(pos);
    };
    let tail = &text[pos..];
    match item {
        Item::Literal(c) => {
            let next = tail.chars().next()?;
            let same = next == *c || next.to_lowercase().eq(c.to_lowercase());
            if !same {
                return None;
            }
            match_items(rest, text, pos + next.len_utf8(), fields)
        }
        Item::Space => {
            let spaces: Vec<usize> = tail
                .char_indices()
                .take_while(|(_, c)| c.is_whitespace())
                .map(|(i, c)| i + c.len_utf8())
                .collect();
            spaces
                .iter()
                .rev()
                .find_map(|len| match_items(rest, text, pos + len, fields))
        }
        Item::Directive(d) => candidates(*d, tail).into_iter().find_map(|(len, setter)| {
            let mut trial = *fields;
            (setter.set)(&mut trial, setter.value);
            let end = match_items(rest, text, pos + len, &mut trial)?;
            *fields = trial;
            Some(end)
        }),
    }
}

/// What a match sets: `set(fields, value)`.
#[derive(Clone, Copy)]
struct Setter {
    set: fn(&mut Fields, i64),
    value: i64,
}

/// The ways a directive matches, best first.
type Candidates = SmallVec<[(usize, Setter); 4]>;

/// The ways directive `d` can match the start of `tail`, in the order Python's regular
/// expression tries them.
fn candidates(d: char, tail: &str) -> Candidates {
    let numbers = |alternatives: &[&str], set: fn(&mut Fields, i64)| -> Candidates {
        alternatives
            .iter()
            .filter_map(|pattern| digit_pattern(pattern, tail))
            .map(|(len, value)| (len, Setter { set, value }))
            .collect()
    };
    match d {
        'Y' => numbers(&["dddd"], |f, v| f.year = Some(v)),
        'y' => numbers(&["dd"], |f, v| f.short_year = Some(v)),
        'm' => numbers(&["1[0-2]", "0[1-9]", "[1-9]"], |f, v| {
            f.month = Some(v as u32)
        }),
        'd' => numbers(
            &["3[0-1]", "[1-2]d", "0[1-9]", "[1-9]", " [1-9]"],
            |f, v| f.day = Some(v as u32),
        ),
        'H' => numbers(&["2[0-3]", "[0-1]d", "d"], |f, v| f.hour = Some(v as u32)),
        'I' => numbers(&["1[0-2]", "0[1-9]", "[1-9]"], |f, v| {
            f.hour12 = Some(v as u32)
        }),
        'M' => numbers(&["[0-5]d", "d"], |f, v| f.minute = v as u32),
        'S' => numbers(&["6[0-1]", "[0-5]d", "d"], |f, v| f.second = v as u32),
        'j' => numbers(
            &[
                "36[0-6]", "3[0-5]d", "[1-2]dd", "0[1-9]d", "00[1-9]", "[1-9]d", "0[1-9]", "[1-9]",
            ],
            |f, v| f.julian = Some(v as u32),
        ),
        'f' => fraction(tail),
        'z' => offset(tail),
        'Z' => names(&["UTC", "GMT"], tail, |_, _| {}),
        'p' => names(&["AM", "PM"], tail, |f, i| f.pm = Some(i == 1)),
        'b' => names(&MONTHS.map(|m| &m[..3]), tail, |f, i| {
            f.month = Some(i as u32 + 1)
        }),
        'B' => names(&MONTHS, tail, |f, i| f.month = Some(i as u32 + 1)),
        'a' => names(&DAYS.map(|m| &m[..3]), tail, |_, _| {}),
        'A' => names(&DAYS, tail, |_, _| {}),
        _ => Candidates::new(),
    }
}

/// A tiny pattern language for Python's digit alternatives: `d` any digit, `[a-b]` a
/// range, anything else itself.
fn digit_pattern(pattern: &str, tail: &str) -> Option<(usize, i64)> {
    let bytes = tail.as_bytes();
    let p = pattern.as_bytes();
    let (mut i, mut j) = (0, 0);
    while j < p.len() {
        let b = *bytes.get(i)?;
        let ok = match p[j] {
            b'd' => b.is_ascii_digit(),
            b'[' => {
                let (lo, hi) = (p[j + 1], p[j + 3]);
                j += 4;
                (lo..=hi).contains(&b)
            }
            other => b == other,
        };
        if !ok {
            return None;
        }
        i += 1;
        j += 1;
    }
    let value = tail[..i].trim().parse().ok()?;
    Some((i, value))
}

fn fraction(tail: &str) -> Candidates {
    let n = tail.bytes().take_while(u8::is_ascii_digit).take(6).count();
    (1..=n)
        .rev()
        .map(|len| {
            let digits: i64 = tail[..len].parse().unwrap_or(0);
            let value = digits * 10i64.pow(6 - len as u32);
            let set: fn(&mut Fields, i64) = |f, v| f.micros = v as u32;
            (len, Setter { set, value })
        })
        .collect()
}

/// `%z`: `Z`, or `±HH[:]MM[[:]SS[.ffffff]]`.
fn offset(tail: &str) -> Candidates {
    let b = tail.as_bytes();
    let digit = |i: usize| b.get(i).is_some_and(u8::is_ascii_digit);
    let num = |i: usize| i64::from(b[i] - b'0') * 10 + i64::from(b[i + 1] - b'0');
    let mut out = Candidates::new();
    let set: fn(&mut Fields, i64) = |f, v| f.offset = Some(v);
    if b.first() == Some(&b'Z') {
        out.push((1, Setter { set, value: 0 }));
        return out;
    }
    let sign = match b.first() {
        Some(b'+') => 1,
        Some(b'-') => -1,
        _ => return out,
    };
    if !(digit(1) && digit(2)) {
        return out;
    }
    let minute_at = if b.get(3) == Some(&b':') { 4 } else { 3 };
    if !(digit(minute_at) && digit(minute_at + 1)) || b[minute_at] > b'5' {
        return out;
    }
    let seconds = sign * (num(1) * 3600 + num(minute_at) * 60);
    let mut len = minute_at + 2;
    let second_at = if b.get(len) == Some(&b':') {
        len + 1
    } else {
        len
    };
    let mut extra = 0;
    if digit(second_at) && digit(second_at + 1) && b[second_at] <= b'5' {
        extra = sign * num(second_at);
        len = second_at + 2;
    }
    out.push((
        len,
        Setter {
            set,
            value: seconds + extra,
        },
    ));
    out
}

fn names(list: &[&str], tail: &str, set: fn(&mut Fields, i64)) -> Candidates {
    let mut order: Vec<usize> = (0..list.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(list[i].len()));
    order
        .into_iter()
        .filter(|&i| {
            tail.get(..list[i].len())
                .is_some_and(|t| t.eq_ignore_ascii_case(list[i]))
        })
        .map(|i| {
            let value = i as i64;
            (list[i].len(), Setter { set, value })
        })
        .collect()
}

fn to_millis(f: &Fields) -> Result<i64, String> {
    let year = match (f.year, f.short_year) {
        (Some(y), _) => y,
        (None, Some(y)) if y < 69 => 2000 + y,
        (None, Some(y)) => 1900 + y,
        (None, None) => 1900,
    };
    let hour = match (f.hour12, f.pm) {
        (Some(h), Some(pm)) => h % 12 + if pm { 12 } else { 0 },
        (Some(h), None) => h,
        (None, _) => f.hour.unwrap_or(0),
    };
    let (month, day) = match (f.julian, f.month, f.day) {
        (Some(j), None, None) => {
            let days = days_from_civil(year, 1, 1) + i64::from(j) - 1;
            let c = civil(days * 86_400_000).ok_or("year is out of range")?;
            (c.month, c.day)
        }
        _ => (f.month.unwrap_or(1), f.day.unwrap_or(1)),
    };
    if !(1..=9999).contains(&year) {
        return Err(format!("year {year} is out of range"));
    }
    if day > days_in_month(year, month) {
        return Err("day is out of range for month".into());
    }
    if f.second > 59 {
        return Err("second must be in 0..59".into());
    }
    let seconds = days_from_civil(year, month, day) * 86_400
        + i64::from(hour * 3600 + f.minute * 60 + f.second)
        - f.offset.unwrap_or(0);
    Ok((seconds * 1_000_000 + i64::from(f.micros)) / 1000)
}

/// The number of days in `month` of `year` (proleptic Gregorian).
pub(super) fn days_in_month(year: i64, month: u32) -> u32 {
    let next = if month == 12 {
        days_from_civil(year + 1, 1, 1)
    } else {
        days_from_civil(year, month + 1, 1)
    };
    (next - days_from_civil(year, month, 1)) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEFAULT: &str = "%Y-%m-%d %H:%M:%S.%f%z";

    #[test]
    fn reads_what_python_reads() {
        let ms = strptime_millis("2025-06-01 08:00:00.123+0000", DEFAULT);
        assert_eq!(ms, Ok(1_748_764_800_123));
        assert_eq!(
            strptime_millis("2025-06-01 09:00:00.5+01:00", DEFAULT),
            Ok(1_748_764_800_500)
        );
        assert_eq!(
            strptime_millis("2025-6-1", "%Y-%m-%d"),
            Ok(1_748_736_000_000)
        );
        assert_eq!(
            strptime_millis("2020-02-30", "%Y-%m-%d"),
            Err("day is out of range for month".into())
        );
        assert_eq!(
            strptime_millis("2020-13-01", "%Y-%m-%d"),
            Err("time data '2020-13-01' does not match format '%Y-%m-%d'".into())
        );
        assert_eq!(
            strptime_millis("2020-01-01x", "%Y-%m-%d"),
            Err("unconverted data remains: x".into())
        );
        assert_eq!(
            strptime_millis("01 jan 2000 1PM", "%d %b %Y %I%p"),
            Ok(946_731_600_000)
        );
    }
}
