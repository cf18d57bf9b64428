//! Number texts: reading `varint`/`decimal` literals into values, Java's
//! `BigDecimal.toString` (Cassandra's `toJson` and, identically, Python's `str(Decimal)`
//! that cqlsh prints), and cqlsh's `%g`-based float display. Java's float texts are in
//! `javafloat.rs`.

use num_bigint::BigInt;

use super::serialize::{serialize_decimal, serialize_varint};
use super::value::Decimal;

/// Reads a `varint` from decimal text (`BigInteger(String)`), reusing the tested
/// serializer: its bytes are exactly `BigInteger.toByteArray()`.
pub(crate) fn parse_varint(text: &str) -> Result<BigInt, String> {
    serialize_varint(text)
        .map(|bytes| BigInt::from_signed_bytes_be(&bytes))
        .map_err(|e| e.message().to_string())
}

/// Reads a `decimal` from text (`BigDecimal(String)`), reusing the tested serializer,
/// whose bytes are the 4-byte scale followed by the unscaled varint.
pub(crate) fn parse_decimal(text: &str) -> Result<Decimal, String> {
    let bytes = serialize_decimal(text).map_err(|e| e.message().to_string())?;
    // The empty text is the empty value, which has no scale: not a decimal number.
    let Some((scale, unscaled)) = bytes.split_first_chunk::<4>() else {
        return Err(format!("unable to make BigDecimal from '{text}'"));
    };
    Ok(Decimal {
        unscaled: BigInt::from_signed_bytes_be(unscaled),
        scale: i32::from_be_bytes(*scale),
    })
}

/// `BigDecimal.toString()` — and equally Python's `str(Decimal)`, which cqlsh prints —
/// both being the "to-scientific-string" of the decimal arithmetic specification: plain
/// digits while the scale is not negative and the leading digit is no further than six
/// places after the point, otherwise `d.dddE±n`.
pub(crate) fn decimal_to_string(d: &Decimal) -> String {
    let digits = d.unscaled.magnitude().to_str_radix(10);
    let negative = d.unscaled.sign() == num_bigint::Sign::Minus;
    let n = digits.len() as i64;
    let scale = i64::from(d.scale);
    let adjusted = n - 1 - scale;
    let mut out = String::with_capacity(digits.len() + 8);
    if negative {
        out.push('-');
    }
    if scale >= 0 && adjusted >= -6 {
        if scale == 0 {
            out.push_str(&digits);
        } else if n > scale {
            let point = (n - scale) as usize;
            out.push_str(&digits[..point]);
            out.push('.');
            out.push_str(&digits[point..]);
        } else {
            out.push_str("0.");
            out.extend(std::iter::repeat_n('0', (scale - n) as usize));
            out.push_str(&digits);
        }
    } else {
        out.push_str(&digits[..1]);
        if n > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        out.push('E');
        if adjusted > 0 {
            out.push('+');
        }
        out.push_str(&adjusted.to_string());
    }
    out
}

/// cqlsh's `format_floating_point_type` at precision `precision` (5 by default, for
/// float and double alike; a float is widened to double first).
///
/// `e = int(log10(|v|))` (truncated; `|v| <= 2.2e-16`, machine epsilon, counts as a huge
/// negative exponent). If `-4 <= e < p`, Python's `%.{p+e+1}g`, else `%.{p}g`.
#[cfg(test)]
pub(crate) fn cqlsh_float(v: f64, precision: i64) -> String {
    let mut out = String::new();
    push_cqlsh_float(v, precision, &mut out);
    out
}

/// [`cqlsh_float`] appended to `out`: results print doubles by the million, and the
/// exact-precision formatting behind `%g` costs several times the shortest digits that
/// [`push_shortest_g`] starts from.
pub(crate) fn push_cqlsh_float(v: f64, precision: i64, out: &mut String) {
    if v.is_nan() {
        return out.push_str("NaN");
    }
    if v.is_infinite() {
        return out.push_str(if v > 0.0 { "Infinity" } else { "-Infinity" });
    }
    if push_short_decimal(v, precision, out) {
        return;
    }
    let precision = g_precision(v, precision, v.abs().log10().trunc() as i64);
    if !push_shortest_g(v, precision, out) {
        out.push_str(&python_g(v, precision));
    }
}

/// The `%g` precision cqlsh uses for `v` at `precision`, given `int(log10(|v|))`.
fn g_precision(v: f64, precision: i64, exponent: i64) -> i64 {
    if v.abs() > f64::EPSILON && (-4..precision).contains(&exponent) {
        precision + exponent + 1
    } else {
        precision
    }
}

/// `int(log10(a))` for `a` whose leading digit is at 10^`x`: worked out from `x`
/// when `a` is well clear of the powers of ten around it (where no rounding of the
/// logarithm can move it to an integer), from the logarithm otherwise.
fn truncated_log10(a: f64, x: i64) -> i64 {
    let low = 10f64.powi(x as i32);
    if a > low * (1.0 + 1e-9) && a < low * 10.0 * (1.0 - 1e-9) {
        if x >= 0 {
            x
        } else {
            x + 1
        }
    } else {
        a.log10().trunc() as i64
    }
}

/// Powers of ten that doubles hold exactly, for [`push_short_decimal`].
const POW10: [f64; 7] = [1.0, 10.0, 100.0, 1e3, 1e4, 1e5, 1e6];

/// cqlsh's text of `v` at `precision` when `v` is a decimal of at most six places shown
/// in plain notation within 15 digits, found by arithmetic alone: the first scale `10^s`
/// at which `m = round(|v| × 10^s)` divides back to `v` makes `m / 10^s` a text that
/// reads back as `v` — within half an ulp of it, so, as in [`push_shortest_g`], the
/// rounding of `v` to the `%g` precision. False (nothing written) otherwise: other
/// values, and those `%g` writes in scientific notation, take the general paths.
fn push_short_decimal(v: f64, precision: i64, out: &mut String) -> bool {
    let a = v.abs();
    if !v.is_normal() || a >= 1e15 {
        return false;
    }
    let Some((mut m, mut s)) = (0..POW10.len()).find_map(|s| {
        let m = (a * POW10[s]).round();
        (m < 1e15 && m / POW10[s] == a).then_some((m as u64, s))
    }) else {
        return false;
    };
    while s > 0 && m % 10 == 0 {
        m /= 10;
        s -= 1;
    }
    let digits = i64::from(m.checked_ilog10().unwrap_or(0)) + 1;
    let exponent = digits - 1 - s as i64;
    let precision = g_precision(v, precision, truncated_log10(a, exponent));
    if precision > 15 || digits > precision || exponent < -4 || exponent >= precision {
        return false;
    }
    if v < 0.0 {
        out.push('-');
    }
    let unit = 10u64.pow(s as u32);
    push_digits(m / unit, 1, out);
    if s > 0 {
        out.push('.');
        push_digits(m % unit, s, out);
    }
    true
}

/// `n` in decimal, zero-padded to `width` digits: by hand, since the formatting
/// machinery cost more than the rest of printing a double.
fn push_digits(mut n: u64, width: usize, out: &mut String) {
    let mut digits = [b'0'; 20];
    let mut at = digits.len();
    while n > 0 || at == digits.len() {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
    }
    let start = at.min(digits.len().saturating_sub(width));
    out.extend(digits[start..].iter().map(|&d| char::from(d)));
}

/// Python's (and C's) `%.{p}g` for a finite value: round to `p` significant digits; use
/// fixed notation when the exponent `x` satisfies `-4 <= x < p`, scientific otherwise;
/// strip trailing zeros and a trailing point; exponents have a sign and at least two
/// digits (`1e+05`). Rust's `{:.N e}` rounds the exact binary value half-to-even, as C does.
pub(crate) fn python_g(v: f64, precision: i64) -> String {
    let p = precision.max(1) as usize;
    let scientific = format!("{:.*e}", p - 1, v);
    let (mantissa, exponent) = scientific.split_once('e').unwrap_or((&scientific, "0"));
    let exponent: i64 = exponent.parse().unwrap_or(0);
    if exponent < -4 || exponent >= p as i64 {
        let mantissa = strip_fraction_zeros(mantissa);
        let sign = if exponent < 0 { '-' } else { '+' };
        format!("{mantissa}e{sign}{:02}", exponent.abs())
    } else {
        let decimals = (p as i64 - 1 - exponent) as usize;
        strip_fraction_zeros(&format!("{v:.decimals$}")).to_string()
    }
}

/// `%.{precision}g` of `v` from its shortest round-trip digits, when they are the
/// answer: false (nothing written) otherwise. For a normal double (or zero) whose
/// shortest digits number at most `precision` ≤ 15, those digits lie within half an ulp
/// of `v`, which is far less than half a step of the `precision`-digit grid they sit
/// on, so rounding `v` to `precision` digits gives exactly them. Subnormals, whose ulp
/// is not small beside them, take the exact path.
fn push_shortest_g(v: f64, precision: i64, out: &mut String) -> bool {
    if !(1..=15).contains(&precision) || !(v.is_normal() || v == 0.0) {
        return false;
    }
    let mut text = StackText::default();
    if std::fmt::Write::write_fmt(&mut text, format_args!("{v:e}")).is_err() {
        return false;
    }
    let text = text.as_str();
    let (mantissa, exponent) = text.split_once('e').unwrap_or((text, "0"));
    let Ok(exponent) = exponent.parse::<i64>() else {
        return false;
    };
    let (negative, mantissa) = match mantissa.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, mantissa),
    };
    let (lead, rest) = mantissa.split_at(1);
    let rest = rest.strip_prefix('.').unwrap_or(rest);
    if 1 + rest.len() as i64 > precision {
        return false;
    }
    if negative {
        out.push('-');
    }
    if exponent < -4 || exponent >= precision {
        push_scientific(lead, rest, exponent, out);
    } else {
        push_fixed(lead, rest, exponent, out);
    }
    true
}

/// `d[.ddd]e±XX`, as `%g` writes a scientific value.
fn push_scientific(lead: &str, rest: &str, exponent: i64, out: &mut String) {
    out.push_str(lead);
    if !rest.is_empty() {
        out.push('.');
        out.push_str(rest);
    }
    out.push_str(if exponent < 0 { "e-" } else { "e+" });
    if exponent.abs() < 10 {
        out.push('0');
    }
    let _ = std::fmt::Write::write_fmt(out, format_args!("{}", exponent.abs()));
}

/// The digits `lead` `rest` (no trailing zeros) times 10^`exponent` in plain notation.
fn push_fixed(lead: &str, rest: &str, exponent: i64, out: &mut String) {
    if exponent < 0 {
        out.push_str("0.");
        out.extend(std::iter::repeat_n('0', (-exponent - 1) as usize));
        out.push_str(lead);
        out.push_str(rest);
        return;
    }
    let whole = exponent as usize;
    out.push_str(lead);
    if rest.len() <= whole {
        out.push_str(rest);
        out.extend(std::iter::repeat_n('0', whole - rest.len()));
    } else {
        out.push_str(&rest[..whole]);
        out.push('.');
        out.push_str(&rest[whole..]);
    }
}

/// A few bytes of formatted text on the stack (the longest `{:e}` of a double is 24).
#[derive(Default)]
struct StackText {
    bytes: [u8; 32],
    len: usize,
}

impl StackText {
    fn as_str(&self) -> &str {
        std::str::from_utf8(&self.bytes[..self.len]).unwrap_or("")
    }
}

impl std::fmt::Write for StackText {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let end = self.len + s.len();
        let slot = self.bytes.get_mut(self.len..end).ok_or(std::fmt::Error)?;
        slot.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

fn strip_fraction_zeros(text: &str) -> &str {
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.')
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dec(text: &str) -> String {
        decimal_to_string(&parse_decimal(text).expect("valid decimal"))
    }

    #[test]
    fn decimal_strings_are_java_and_python_alike() {
        for (text, shown) in [
            ("3.14", "3.14"),
            ("1E-14", "1E-14"),
            ("10.0000000000000", "10.0000000000000"),
            ("0.0", "0.0"),
            ("1.5E+3", "1.5E+3"),
            ("0.0000001", "1E-7"),
            ("0.000001", "0.000001"),
            ("-0.00", "0.00"),
            ("-12.5", "-12.5"),
            ("100", "100"),
            ("1e2", "1E+2"),
            ("123.456e-10", "1.23456E-8"),
            ("0e5", "0E+5"),
        ] {
            assert_eq!(dec(text), shown, "{text}");
        }
        assert_eq!(parse_varint("-129").expect("valid"), BigInt::from(-129));
    }

    #[test]
    fn shortest_digits_agree_with_the_exact_path() {
        let mut values = vec![
            0.0, -0.0, 1.0, 0.1, 21.3, -21.3, 1049.0, 99999.4, 1e15, 1e-5, 2.5e-7, 0.0001,
            0.000123, 100.05, 123456.7, 1000.0, 0.01, 0.5, 999999.9, 99999.99, 1e-4, 1e9, 9.999999,
            0.0999999, 0.00099, 10.000001,
        ];
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..50_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            values.push(f64::from_bits(x));
            values.push((x % 1_000_000) as f64 / 10f64.powi((x % 9) as i32));
            values.push(-(((x >> 20) % 100_000_000) as f64) / 10f64.powi((x % 12) as i32));
        }
        for v in values.into_iter().filter(|v| v.is_finite()) {
            for precision in 1..=15 {
                let exact = python_g(v, precision);
                let mut fast = String::new();
                if push_shortest_g(v, precision, &mut fast) {
                    assert_eq!(fast, exact, "shortest: {v:e} at {precision}");
                }
                fast.clear();
                if precision <= 10 && push_short_decimal(v, precision, &mut fast) {
                    let exponent = v.abs().log10().trunc() as i64;
                    let expected = python_g(v, g_precision(v, precision, exponent));
                    assert_eq!(fast, expected, "decimal: {v:e} at {precision}");
                }
            }
        }
    }

    #[test]
    fn cqlsh_float_examples_from_the_reference() {
        let float = |v: f32| cqlsh_float(f64::from(v), 5);
        assert_eq!(float(1.1), "1.1");
        assert_eq!(float(std::f32::consts::PI), "3.14159");
        assert_eq!(float(100000.0), "1e+05");
        assert_eq!(float(123456.7), "1.2346e+05");
        assert_eq!(float(1e-4), "0.0001");
        assert_eq!(float(1e-5), "1e-05");
        let double = |v: f64| cqlsh_float(v, 5);
        assert_eq!(double(1.0), "1");
        assert_eq!(double(12345.6789), "12345.6789");
        assert_eq!(double(99999.4), "99999.4");
        assert_eq!(double(123456.7), "1.2346e+05");
        assert_eq!(double(-0.0), "-0");
        assert_eq!(double(1e300), "1e+300");
        assert_eq!(double(10.0), "10");
        assert_eq!(double(f64::NAN), "NaN");
        assert_eq!(double(f64::INFINITY), "Infinity");
        assert_eq!(double(f64::NEG_INFINITY), "-Infinity");
        // Checked against cqlsh 6.2.2 under Python 3.11.
        assert_eq!(double(1e-300), "1e-300");
        assert_eq!(double(5e-324), "4.9407e-324");
        assert_eq!(double(0.0), "0");
        assert_eq!(double(123456789.0), "1.2346e+08");
        assert_eq!(double(0.00012345678), "0.000123");
    }
}
