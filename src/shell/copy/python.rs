//! The bits of Python that cqlsh's COPY messages and conversions show through: `repr` of
//! strings, lists and dicts, `int()` and `float()` of text with their error messages, and
//! `os.path.normpath(os.path.expanduser(path))`.

use num_bigint::BigInt;

/// Python's `repr` of a `str`: single quotes unless the text holds a `'` and no `"`,
/// backslash escapes for the quote, backslashes and non-printable characters.
pub(super) fn repr(text: &str) -> String {
    let quote = if text.contains('\'') && !text.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(text.len() + 2);
    out.push(quote);
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c => push_printable(&mut out, c),
        }
    }
    out.push(quote);
    out
}

/// A character as `repr` shows it inside a string: itself when printable, else `\xhh`,
/// `\uhhhh` or `\Uhhhhhhhh`.
fn push_printable(out: &mut String, c: char) {
    let code = c as u32;
    if c.is_control() || (0x7f..=0xa0).contains(&code) || c == '\u{ad}' {
        if code <= 0xff {
            out.push_str(&format!("\\x{code:02x}"));
        } else if code <= 0xffff {
            out.push_str(&format!("\\u{code:04x}"));
        } else {
            out.push_str(&format!("\\U{code:08x}"));
        }
    } else {
        out.push(c);
    }
}

/// Python's `repr` of a one-character string, for encoding errors (`'\xe9'`).
pub(super) fn char_repr(c: char) -> String {
    repr(&c.to_string())
}

/// Python's `repr` of a list of strings: `['a', 'b']`.
pub(super) fn list_repr(items: &[String]) -> String {
    let parts: Vec<String> = items.iter().map(|s| repr(s)).collect();
    format!("[{}]", parts.join(", "))
}

/// Python's `repr` of a dict of strings: `{'header': 'true'}`.
pub(super) fn dict_repr(items: &[(String, String)]) -> String {
    let parts: Vec<String> = items
        .iter()
        .map(|(k, v)| format!("{}: {}", repr(k), repr(v)))
        .collect();
    format!("{{{}}}", parts.join(", "))
}

/// The digits of a Python numeric literal with its underscores removed, when every
/// underscore sits between two digits (`1_000`); `None` otherwise.
fn without_underscores(text: &str) -> Option<String> {
    if !text.contains('_') {
        return Some(text.to_string());
    }
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    for (i, &c) in chars.iter().enumerate() {
        if c == '_' {
            let before = i > 0 && chars[i - 1].is_ascii_digit();
            let after = chars.get(i + 1).is_some_and(|n| n.is_ascii_digit());
            if !(before && after) {
                return None;
            }
        } else {
            out.push(c);
        }
    }
    Some(out)
}

/// Python's `int(text)` in base 10: surrounding whitespace, a sign and underscores
/// between digits allowed.
pub(super) fn int(text: &str) -> Result<BigInt, String> {
    let error = || format!("invalid literal for int() with base 10: {}", repr(text));
    let trimmed = text.trim();
    let digits = trimmed
        .strip_prefix(['+', '-'])
        .unwrap_or(trimmed)
        .to_string();
    if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit() || c == '_') {
        return Err(error());
    }
    let cleaned = without_underscores(trimmed).ok_or_else(error)?;
    let cleaned = cleaned.strip_prefix('+').unwrap_or(&cleaned);
    cleaned.parse::<BigInt>().map_err(|_| error())
}

/// Python's `int(text)` for an option that must fit a machine integer.
pub(super) fn int_i64(text: &str) -> Result<i64, String> {
    let value = int(text)?;
    i64::try_from(&value).map_err(|_| "Python int too large to convert to C long".to_string())
}

/// Python's `float(text)`: surrounding whitespace, underscores between digits, `nan`,
/// `inf` and `infinity` in any case.
pub(super) fn float(text: &str) -> Result<f64, String> {
    let error = || format!("could not convert string to float: {}", repr(text));
    let trimmed = text.trim();
    let unsigned = trimmed.strip_prefix(['+', '-']).unwrap_or(trimmed);
    let negative = trimmed.starts_with('-');
    let special = match unsigned.to_ascii_lowercase().as_str() {
        "nan" => Some(f64::NAN),
        "inf" | "infinity" => Some(f64::INFINITY),
        _ => None,
    };
    if let Some(value) = special {
        return Ok(if negative { -value } else { value });
    }
    let numeric = |c: char| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '+' | '-' | '_');
    if unsigned.is_empty() || !unsigned.chars().all(numeric) {
        return Err(error());
    }
    let cleaned = without_underscores(trimmed).ok_or_else(error)?;
    cleaned.parse::<f64>().map_err(|_| error())
}

/// `os.path.normpath(os.path.expanduser(path))`, or the empty string unchanged (cqlsh's
/// `safe_normpath`).
pub(super) fn normpath(path: &str) -> String {
    if path.is_empty() {
        return String::new();
    }
    let expanded = expand_user(path);
    let leading = expanded.len() - expanded.trim_start_matches('/').len();
    let prefix = match leading {
        0 => "",
        2 => "//",
        _ => "/",
    };
    let mut parts: Vec<&str> = Vec::new();
    for part in expanded.split('/') {
        match part {
            "" | "." => {}
            ".." if parts.last().is_some_and(|p| *p != "..") => {
                parts.pop();
            }
            ".." if !prefix.is_empty() => {}
            part => parts.push(part),
        }
    }
    let joined = format!("{prefix}{}", parts.join("/"));
    if joined.is_empty() {
        ".".to_string()
    } else {
        joined
    }
}

/// `~` and `~/…` with `$HOME`.
fn expand_user(path: &str) -> String {
    let home = std::env::var("HOME").unwrap_or_default();
    if home.is_empty() {
        return path.to_string();
    }
    if path == "~" {
        return home;
    }
    match path.strip_prefix("~/") {
        Some(rest) => format!("{}/{rest}", home.trim_end_matches('/')),
        None => path.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repr_picks_python_s_quotes() {
        assert_eq!(repr("abc"), "'abc'");
        assert_eq!(repr("x'y"), "\"x'y\"");
        assert_eq!(repr("a\nb\\"), "'a\\nb\\\\'");
        assert_eq!(repr("it's \"q\""), "'it\\'s \"q\"'");
        assert_eq!(char_repr('é'), "'é'");
        assert_eq!(repr("\u{85}"), "'\\x85'");
    }

    #[test]
    fn int_and_float_accept_what_python_accepts() {
        assert_eq!(int(" 1_000 ").map(|v| v.to_string()), Ok("1000".into()));
        assert_eq!(int("+7").map(|v| v.to_string()), Ok("7".into()));
        assert_eq!(
            int("1.5"),
            Err("invalid literal for int() with base 10: '1.5'".into())
        );
        assert!(int("1__0").is_err());
        assert_eq!(float(" -Infinity "), Ok(f64::NEG_INFINITY));
        assert_eq!(float("1_0.5"), Ok(10.5));
        assert_eq!(
            float("x'y"),
            Err("could not convert string to float: \"x'y\"".into())
        );
    }

    #[test]
    fn normpath_is_posixpath_s() {
        assert_eq!(normpath("a/./b//c/../d"), "a/b/d");
        assert_eq!(normpath("/../x"), "/x");
        assert_eq!(normpath("../x"), "../x");
        assert_eq!(normpath(""), "");
        assert_eq!(normpath("./"), ".");
    }
}
