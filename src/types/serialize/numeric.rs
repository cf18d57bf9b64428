//! Numbers: the fixed-width integers and IEEE floats, and the arbitrary precision
//! `varint` and `decimal`, whose shortest two's complement form is Java's
//! `BigInteger.toByteArray()`.

use super::ParseError;

// ---------------------------------------------------------------------------------------
// Fixed-width numbers
// ---------------------------------------------------------------------------------------

/// `tinyint`: one byte two's complement. Negative values are bytes ≥ 0x80, which is
/// exactly the case the Murmur3 tail quirk is about.
pub fn serialize_tinyint(value: i8) -> Vec<u8> {
    value.to_be_bytes().to_vec()
}

/// `smallint`: 2-byte big-endian two's complement (Java's byte order, not the host's).
pub fn serialize_smallint(value: i16) -> Vec<u8> {
    value.to_be_bytes().to_vec()
}

/// `int`: 4-byte big-endian two's complement (Java's byte order, not the host's).
pub fn serialize_int(value: i32) -> Vec<u8> {
    value.to_be_bytes().to_vec()
}

/// `bigint`: 8-byte big-endian two's complement. Also the encoding of `counter` and of
/// `timestamp`, which is why a bigint and a timestamp with equal numbers share a token.
pub fn serialize_bigint(value: i64) -> Vec<u8> {
    value.to_be_bytes().to_vec()
}

/// `counter`: stored like `bigint`. Kept as its own entry point so a per-type dispatch
/// never has to remember the aliasing.
pub fn serialize_counter(value: i64) -> Vec<u8> {
    serialize_bigint(value)
}

/// `float`: IEEE-754 binary32 bits, big-endian. The raw bits are used, so `-0.0` and
/// `0.0` are different keys, and NaN is whatever NaN bit pattern the caller holds
/// (Rust's and Java's default NaN are both `7fc00000`).
pub fn serialize_float(value: f32) -> Vec<u8> {
    value.to_bits().to_be_bytes().to_vec()
}

/// `double`: IEEE-754 binary64 bits, big-endian; the same raw-bits caveats as
/// [`serialize_float`] apply.
pub fn serialize_double(value: f64) -> Vec<u8> {
    value.to_bits().to_be_bytes().to_vec()
}

// ---------------------------------------------------------------------------------------
// Arbitrary precision numbers
// ---------------------------------------------------------------------------------------

/// `varint` from a value that fits `i128`.
///
/// The encoding is Java's `BigInteger.toByteArray()`: the *shortest* big-endian two's
/// complement form, so `128` needs a leading `00` (`0080`) to stay positive and `-129`
/// is `ff7f`. Padding to a fixed width would change the key, hence the trimming.
pub fn serialize_varint_i128(value: i128) -> Vec<u8> {
    minimal_twos_complement(value.to_be_bytes().to_vec())
}

/// `varint` from its decimal text, for values of any size.
///
/// Mirrors `IntegerType.fromString`: the empty string is the empty value (zero bytes);
/// otherwise `new BigInteger(text)`, i.e. an optional `+` or `-`, then at least one ASCII
/// digit, leading zeros allowed.
pub fn serialize_varint(text: &str) -> Result<Vec<u8>, ParseError> {
    if text.is_empty() {
        return Ok(Vec::new());
    }
    parse_big_integer(text)
        .map(|(negative, magnitude)| big_to_twos_complement(negative, &magnitude))
        .ok_or_else(|| ParseError::new(format!("unable to make int from '{text}'")))
}

/// `decimal` from an unscaled value and a scale, i.e. the number `unscaled × 10^-scale`.
///
/// Layout: 4-byte big-endian scale, then the unscaled value as a varint. The scale is
/// kept exactly as given, so `1.5` (15, scale 1) and `1.50` (150, scale 2) are different
/// keys even though they compare equal as numbers.
pub fn serialize_decimal_parts(unscaled: i128, scale: i32) -> Vec<u8> {
    let mut out = scale.to_be_bytes().to_vec();
    out.extend(serialize_varint_i128(unscaled));
    out
}

/// `decimal` from its text, mirroring `DecimalType.fromString`: the empty string is the
/// empty value (zero bytes); anything else goes through Java's `new BigDecimal(text)`.
///
/// Accepted: optional sign, digits with an optional `.` (at least one digit overall),
/// optional exponent `e`/`E` with optional sign. The scale is "digits after the point
/// minus the exponent": `1.5` → (15, 1), `-3.14` → (-314, 2), `100` → (100, 0),
/// `1.5E+3` → (15, -2). `NaN` and `Infinity` are rejected because `BigDecimal` has no
/// such values.
pub fn serialize_decimal(text: &str) -> Result<Vec<u8>, ParseError> {
    if text.is_empty() {
        return Ok(Vec::new());
    }
    let error = || ParseError::new(format!("unable to make BigDecimal from '{text}'"));
    let (negative, rest) = split_sign(text);
    let (mantissa, exponent) = match rest.find(['e', 'E']) {
        Some(at) => (&rest[..at], Some(&rest[at + 1..])),
        None => (rest, None),
    };
    let (int_digits, frac_digits) = match mantissa.split_once('.') {
        Some((int_part, frac_part)) => (int_part, frac_part),
        None => (mantissa, ""),
    };
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if int_digits.len() + frac_digits.len() == 0
        || !all_digits(int_digits)
        || !all_digits(frac_digits)
    {
        return Err(error());
    }
    let exponent: i64 = match exponent {
        None => 0,
        Some(e) => {
            let (exp_negative, exp_digits) = split_sign(e);
            if exp_digits.is_empty() || !all_digits(exp_digits) {
                return Err(error());
            }
            // BigDecimal requires the exponent itself to fit an int.
            let magnitude: i64 = exp_digits.parse().map_err(|_| error())?;
            let value = if exp_negative { -magnitude } else { magnitude };
            if i32::try_from(value).is_err() {
                return Err(error());
            }
            value
        }
    };
    let scale = i32::try_from(frac_digits.len() as i64 - exponent).map_err(|_| error())?;

    let mut digits = String::with_capacity(int_digits.len() + frac_digits.len());
    digits.push_str(int_digits);
    digits.push_str(frac_digits);
    let magnitude = decimal_digits_to_magnitude(&digits);
    let mut out = scale.to_be_bytes().to_vec();
    out.extend(big_to_twos_complement(negative, &magnitude));
    Ok(out)
}

/// Splits off one leading `+` or `-`, reporting whether it was a minus.
fn split_sign(text: &str) -> (bool, &str) {
    if let Some(rest) = text.strip_prefix('-') {
        (true, rest)
    } else if let Some(rest) = text.strip_prefix('+') {
        (false, rest)
    } else {
        (false, text)
    }
}

/// `BigInteger(String)` grammar: sign, then one or more ASCII digits. Returns the sign
/// and the magnitude as big-endian bytes.
fn parse_big_integer(text: &str) -> Option<(bool, Vec<u8>)> {
    let (negative, digits) = split_sign(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((negative, decimal_digits_to_magnitude(digits)))
}

/// Converts ASCII decimal digits to a big-endian magnitude by schoolbook
/// multiply-by-ten-and-add. Quadratic, but keys are short and this avoids a bignum crate.
fn decimal_digits_to_magnitude(digits: &str) -> Vec<u8> {
    // Little-endian while building, so carries propagate towards the growing end.
    let mut le: Vec<u8> = Vec::new();
    for digit in digits.bytes() {
        let mut carry = u32::from(digit - b'0');
        for byte in le.iter_mut() {
            let v = u32::from(*byte) * 10 + carry;
            *byte = v as u8;
            carry = v >> 8;
        }
        while carry > 0 {
            le.push(carry as u8);
            carry >>= 8;
        }
    }
    le.reverse();
    le
}

/// Two's complement of `±magnitude`, then trimmed to the shortest form.
fn big_to_twos_complement(negative: bool, magnitude: &[u8]) -> Vec<u8> {
    // One spare leading byte guarantees room for the sign bit before trimming.
    let mut bytes = Vec::with_capacity(magnitude.len() + 1);
    bytes.push(0);
    bytes.extend_from_slice(magnitude);
    if negative {
        // -x == !x + 1, applied from the least significant (last) byte.
        let mut carry = true;
        for byte in bytes.iter_mut().rev() {
            let (sum, overflow) = (!*byte).overflowing_add(u8::from(carry));
            *byte = sum;
            carry = overflow;
        }
    }
    minimal_twos_complement(bytes)
}

/// Drops leading bytes that only repeat the sign: a `00` before a byte < 0x80, or an `ff`
/// before a byte ≥ 0x80. What remains is what `BigInteger.toByteArray()` produces. Only
/// a byte that has a successor can be dropped, so zero stays one `00` byte and never
/// becomes empty (an empty value would mean "no value").
fn minimal_twos_complement(mut bytes: Vec<u8>) -> Vec<u8> {
    let redundant = bytes
        .windows(2)
        .take_while(|w| (w[0] == 0x00 && w[1] < 0x80) || (w[0] == 0xff && w[1] >= 0x80))
        .count();
    bytes.drain(..redundant);
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::serialize::hex;

    #[test]
    fn varint_examples_from_the_reference() {
        for (text, expected) in [
            ("0", "00"),
            ("127", "7f"),
            ("128", "0080"),
            ("-1", "ff"),
            ("-129", "ff7f"),
            ("-128", "80"),
            ("255", "00ff"),
            ("256", "0100"),
            ("-0", "00"),
            ("+7", "07"),
            ("0007", "07"),
            ("18446744073709551616", "010000000000000000"),
            ("-18446744073709551616", "ff0000000000000000"),
        ] {
            assert_eq!(hex(&serialize_varint(text).unwrap()), expected, "{text}");
        }
        assert_eq!(serialize_varint(""), Ok(Vec::new()));
        for bad in ["-", "+", "1.0", "1e3", " 1", "0x10"] {
            assert!(serialize_varint(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn varint_text_and_i128_agree() {
        for v in [
            0i128,
            1,
            -1,
            127,
            128,
            -128,
            -129,
            255,
            256,
            32767,
            -32768,
            i64::MAX as i128,
            i64::MIN as i128,
            i128::MAX,
            i128::MIN,
        ] {
            assert_eq!(
                serialize_varint(&v.to_string()).unwrap(),
                serialize_varint_i128(v),
                "{v}"
            );
        }
    }

    #[test]
    fn decimal_examples() {
        for (text, expected) in [
            ("1.5", "000000010f"),
            ("0", "0000000000"),
            ("-3.14", "00000002fec6"),
            ("100", "0000000064"),
            ("1.50", "000000020096"),
            ("1.5E+3", "fffffffe0f"),
            ("1.5e-3", "000000040f"),
            ("-0.00", "0000000200"),
            (".5", "0000000105"),
            ("5.", "0000000005"),
        ] {
            assert_eq!(hex(&serialize_decimal(text).unwrap()), expected, "{text}");
        }
        assert_eq!(
            serialize_decimal("-3.14").unwrap(),
            serialize_decimal_parts(-314, 2)
        );
        assert_eq!(serialize_decimal(""), Ok(Vec::new()));
        for bad in [".", "NaN", "Infinity", "1e", "1.2.3", "e5", "1e99999999999"] {
            assert!(serialize_decimal(bad).is_err(), "{bad:?}");
        }
    }
    #[test]
    fn fixed_width() {
        assert_eq!(hex(&serialize_int(-1)), "ffffffff");
        assert_eq!(hex(&serialize_bigint(1)), "0000000000000001");
        assert_eq!(hex(&serialize_smallint(-32768)), "8000");
        assert_eq!(hex(&serialize_tinyint(-128)), "80");
        assert_eq!(hex(&serialize_float(1.0)), "3f800000");
        assert_eq!(hex(&serialize_float(-0.0)), "80000000");
        assert_eq!(hex(&serialize_double(1.0)), "3ff0000000000000");
        assert_eq!(hex(&serialize_double(f64::NAN)), "7ff8000000000000");
        assert_eq!(hex(&serialize_counter(2)), hex(&serialize_bigint(2)));
    }
}
