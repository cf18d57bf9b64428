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
pub(crate) fn cqlsh_float(v: f64, precision: i64) -> String {
    if v.is_nan() {
        return "NaN".into();
    }
    if v.is_infinite() {
        return if v > 0.0 { "Infinity" } else { "-Infinity" }.into();
    }
    let mut precision = precision;
    if v.abs() > f64::EPSILON {
        let exponent = v.abs().log10().trunc() as i64;
        if (-4..precision).contains(&exponent) {
            precision += exponent + 1;
        }
    }
    python_g(v, precision)
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
