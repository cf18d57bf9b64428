//! Java's `Double.toString` and `Float.toString` as the JDKs Cassandra 5.0 runs on (11
//! and 17) compute them, which is what `toJson()` writes for `double` and `float`.
//!
//! Those JDKs do not print the shortest round-trip digits: their `FloatingDecimal`
//! sometimes adds a digit (`1.13132703E18` for a float whose shortest form is
//! `1.131327E18`) and breaks ties its own way (`2247983.2`, not `.3`). JDK 19 replaced the
//! algorithm; Cassandra's output is the old one, so this is a port of
//! `FloatingDecimal.BinaryToASCIIBuffer.dtoa` and its helpers, including the overflow
//! behaviour of its `int` and `long` fast paths. It was checked against JDK 17 on 400 000
//! random doubles and floats.

use num_bigint::BigUint;

const EXP_SHIFT: i32 = 52;
const FRACT_HOB: u64 = 1 << EXP_SHIFT;

/// `insignificantDigitsNumber`: how many low decimal digits of an integer with `p2`
/// binary digits beyond the significand carry no information.
const INSIGNIFICANT_DIGITS: [i32; 64] = [
    0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7, 8, 8, 8, 9, 9,
    9, 9, 10, 10, 10, 11, 11, 11, 12, 12, 12, 12, 13, 13, 13, 14, 14, 14, 15, 15, 15, 15, 16, 16,
    16, 17, 17, 17, 18, 18, 18, 19,
];

/// `N_5_BITS`: approximately ⌈log2(5^i)⌉.
const N_5_BITS: [i32; 27] = [
    0, 3, 5, 7, 10, 12, 14, 17, 19, 21, 24, 26, 28, 31, 33, 35, 38, 40, 42, 45, 47, 49, 52, 54, 56,
    59, 61,
];

fn pow5(i: i32) -> i64 {
    5i64.pow(i as u32)
}

/// The decimal digits of a value and its exponent: the value is `0.d₁d₂… × 10^exponent`.
struct JavaDigits {
    digits: Vec<u8>,
    exponent: i32,
}

/// `Double.toString(v)`.
pub(crate) fn java_double_to_string(v: f64) -> String {
    if let Some(special) = special(v.is_nan(), v.is_infinite(), v == 0.0, v.is_sign_negative()) {
        return special;
    }
    let bits = v.to_bits();
    let mut fract_bits = bits & (FRACT_HOB - 1);
    let mut bin_exp = ((bits >> EXP_SHIFT) & 0x7ff) as i32;
    let n_significant_bits;
    if bin_exp == 0 {
        // Subnormal: normalize so that the hidden bit position is set.
        let leading_zeros = fract_bits.leading_zeros() as i32;
        let shift = leading_zeros - (63 - EXP_SHIFT);
        fract_bits <<= shift;
        bin_exp = 1 - shift;
        n_significant_bits = 64 - leading_zeros;
    } else {
        fract_bits |= FRACT_HOB;
        n_significant_bits = EXP_SHIFT + 1;
    }
    let digits = dtoa(bin_exp - 1023, fract_bits, n_significant_bits);
    layout(v < 0.0, &digits)
}

/// `Float.toString(v)`: the same algorithm on the float's 24-bit significand.
pub(crate) fn java_float_to_string(v: f32) -> String {
    if let Some(special) = special(v.is_nan(), v.is_infinite(), v == 0.0, v.is_sign_negative()) {
        return special;
    }
    const SINGLE_EXP_SHIFT: i32 = 23;
    let bits = v.to_bits();
    let mut fract_bits = bits & ((1 << SINGLE_EXP_SHIFT) - 1);
    let mut bin_exp = ((bits >> SINGLE_EXP_SHIFT) & 0xff) as i32;
    let n_significant_bits;
    if bin_exp == 0 {
        let leading_zeros = fract_bits.leading_zeros() as i32;
        let shift = leading_zeros - (31 - SINGLE_EXP_SHIFT);
        fract_bits <<= shift;
        bin_exp = 1 - shift;
        n_significant_bits = 32 - leading_zeros;
    } else {
        fract_bits |= 1 << SINGLE_EXP_SHIFT;
        n_significant_bits = SINGLE_EXP_SHIFT + 1;
    }
    let widened = u64::from(fract_bits) << (EXP_SHIFT - SINGLE_EXP_SHIFT);
    let digits = dtoa(bin_exp - 127, widened, n_significant_bits);
    layout(v < 0.0, &digits)
}

fn special(nan: bool, infinite: bool, zero: bool, negative: bool) -> Option<String> {
    Some(
        match (nan, infinite, zero, negative) {
            (true, ..) => "NaN",
            (_, true, _, false) => "Infinity",
            (_, true, _, true) => "-Infinity",
            (_, _, true, false) => "0.0",
            (_, _, true, true) => "-0.0",
            _ => return None,
        }
        .to_string(),
    )
}

/// The `int` and `long` digit loops, with Java's wrapping arithmetic: `m` may overflow,
/// which the JDK detects by its sign. Returns `(low, high, sign of 2b - 10s)`.
macro_rules! small_digits {
    ($t:ty, $b:expr, $s:expr, $m:expr, $dec_exp:ident, $digits:ident) => {{
        let (mut b, s, mut m): ($t, $t, $t) = ($b, $s, $m);
        let tens = s.wrapping_mul(10);
        let q = b / s;
        b = (b % s).wrapping_mul(10);
        m = m.wrapping_mul(10);
        let mut low = b < m;
        let mut high = b.wrapping_add(m) > tens;
        if q == 0 && !high {
            $dec_exp -= 1;
        } else {
            $digits.push(b'0' + q as u8);
        }
        // E-form always shows a digit after the point, so it needs a second digit.
        if !(-3..8).contains(&$dec_exp) {
            high = false;
            low = false;
        }
        while !low && !high {
            let q = b / s;
            b = (b % s).wrapping_mul(10);
            m = m.wrapping_mul(10);
            if m > 0 {
                low = b < m;
                high = b.wrapping_add(m) > tens;
            } else {
                low = true;
                high = true;
            }
            $digits.push(b'0' + q as u8);
        }
        let difference = b.wrapping_shl(1).wrapping_sub(tens);
        (low, high, i64::from(difference).signum())
    }};
}

/// `BinaryToASCIIBuffer.dtoa` in its "compatible format" mode (the one `toString` uses).
fn dtoa(bin_exp: i32, mut fract_bits: u64, n_significant_bits: i32) -> JavaDigits {
    let tail_zeros = fract_bits.trailing_zeros() as i32;
    let n_fract_bits = EXP_SHIFT + 1 - tail_zeros;
    let n_tiny_bits = (n_fract_bits - bin_exp - 1).max(0);

    // Easy case: an integer that fits a long; print it, dropping insignificant digits.
    if (-21..=62).contains(&bin_exp)
        && n_tiny_bits < 27
        && n_fract_bits + N_5_BITS[n_tiny_bits as usize] < 64
        && n_tiny_bits == 0
    {
        let insignificant = if bin_exp > n_significant_bits {
            let p2 = bin_exp - n_significant_bits - 1;
            if p2 > 1 && p2 < 64 {
                INSIGNIFICANT_DIGITS[p2 as usize]
            } else {
                0
            }
        } else {
            0
        };
        if bin_exp >= EXP_SHIFT {
            fract_bits <<= bin_exp - EXP_SHIFT;
        } else {
            fract_bits >>= EXP_SHIFT - bin_exp;
        }
        return develop_long_digits(fract_bits as i64, insignificant);
    }

    // Hard case: B / S is the value scaled into [1, 10), M half an ulp scaled like B.
    let mut dec_exp = estimate_dec_exp(fract_bits, bin_exp);
    let b5 = (-dec_exp).max(0);
    let mut b2 = b5 + n_tiny_bits + bin_exp;
    let s5 = dec_exp.max(0);
    let mut s2 = s5 + n_tiny_bits;
    let m5 = b5;
    let mut m2 = b2 - n_significant_bits;
    fract_bits >>= tail_zeros;
    b2 -= n_fract_bits - 1;
    let common = b2.min(s2);
    b2 -= common;
    s2 -= common;
    m2 -= common;
    // Below a power of two the next smaller value is only half as far.
    if n_fract_bits == 1 {
        m2 -= 1;
    }
    if m2 < 0 {
        b2 -= m2;
        s2 -= m2;
        m2 = 0;
    }
    let five_bits = |e: i32| if e < 27 { N_5_BITS[e as usize] } else { e * 3 };
    let b_bits = n_fract_bits + b2 + five_bits(b5);
    let ten_s_bits = s2 + 1 + five_bits(s5 + 1);

    let mut digits = Vec::with_capacity(20);
    let (low, high, low_digit_difference) = if b_bits < 64 && ten_s_bits < 64 {
        if b_bits < 32 && ten_s_bits < 32 {
            let b = (fract_bits as i32)
                .wrapping_mul(pow5(b5) as i32)
                .wrapping_shl(b2 as u32);
            let s = (pow5(s5) as i32).wrapping_shl(s2 as u32);
            let m = (pow5(m5) as i32).wrapping_shl(m2 as u32);
            small_digits!(i32, b, s, m, dec_exp, digits)
        } else {
            let b = (fract_bits as i64)
                .wrapping_mul(pow5(b5))
                .wrapping_shl(b2 as u32);
            let s = pow5(s5).wrapping_shl(s2 as u32);
            let m = pow5(m5).wrapping_shl(m2 as u32);
            small_digits!(i64, b, s, m, dec_exp, digits)
        }
    } else {
        big_digits(
            fract_bits,
            (b5, b2),
            (s5, s2),
            (m5, m2),
            &mut dec_exp,
            &mut digits,
        )
    };

    let mut result = JavaDigits {
        digits,
        exponent: dec_exp + 1,
    };
    // The last digit is rounded by the stopping condition; a tie goes to even.
    if high {
        let round_up = !low
            || low_digit_difference > 0
            || (low_digit_difference == 0 && result.digits.last().is_some_and(|d| d & 1 == 1));
        if round_up {
            roundup(&mut result);
        }
    }
    result
}

/// The arbitrary-precision digit loop. Unlike the fast paths it stops on
/// `b + m >= 10s` (not `>`), as `FDBigInteger.addAndCmp` makes it.
fn big_digits(
    fract_bits: u64,
    (b5, b2): (i32, i32),
    (s5, s2): (i32, i32),
    (m5, m2): (i32, i32),
    dec_exp: &mut i32,
    digits: &mut Vec<u8>,
) -> (bool, bool, i64) {
    let pow52 = |p5: i32, p2: i32| BigUint::from(5u32).pow(p5 as u32) << (p2 as usize);
    let s = pow52(s5, s2);
    let ten_s = pow52(s5 + 1, s2 + 1);
    let mut b = BigUint::from(fract_bits) * pow52(b5, b2);
    let mut m = pow52(m5 + 1, m2 + 1);
    let ten = BigUint::from(10u32);
    let next_digit = |b: &mut BigUint| -> u8 {
        let q = &*b / &s;
        *b = (&*b % &s) * &ten;
        q.to_u32_digits().first().copied().unwrap_or(0) as u8
    };
    let q = next_digit(&mut b);
    let mut low = b < m;
    let mut high = &b + &m >= ten_s;
    if q == 0 && !high {
        *dec_exp -= 1;
    } else {
        digits.push(b'0' + q);
    }
    if !(-3..8).contains(dec_exp) {
        high = false;
        low = false;
    }
    while !low && !high {
        let q = next_digit(&mut b);
        m *= &ten;
        low = b < m;
        high = &b + &m >= ten_s;
        digits.push(b'0' + q);
    }
    let difference = if high && low {
        match (&b << 1usize).cmp(&ten_s) {
            std::cmp::Ordering::Less => -1,
            std::cmp::Ordering::Equal => 0,
            std::cmp::Ordering::Greater => 1,
        }
    } else {
        0
    };
    (low, high, difference)
}

/// `estimateDecExp`: ⌊log10(value)⌋ estimated from the significand and binary exponent.
/// The constants are the JDK's, digit for digit (its log10(2) is slightly short of
/// `LOG10_2`, and the estimate's rounding must match).
#[allow(clippy::approx_constant)]
fn estimate_dec_exp(fract_bits: u64, bin_exp: i32) -> i32 {
    let d2 = f64::from_bits(0x3ff0_0000_0000_0000 | (fract_bits & (FRACT_HOB - 1)));
    let d = (d2 - 1.5) * 0.289529654 + 0.176091259 + f64::from(bin_exp) * 0.301029995663981;
    d.floor() as i32
}

/// `developLongDigits`: the digits of an integer, after rounding away `insignificant`
/// low digits (half up), without trailing zeros.
fn develop_long_digits(mut value: i64, insignificant: i32) -> JavaDigits {
    let mut exponent = 0;
    if insignificant != 0 {
        let pow10 = pow5(insignificant) << insignificant;
        let residue = value % pow10;
        value /= pow10;
        exponent += insignificant;
        if residue >= pow10 >> 1 {
            value += 1;
        }
    }
    let mut text = value.to_string().into_bytes();
    while text.len() > 1 && text.last() == Some(&b'0') {
        text.pop();
        exponent += 1;
    }
    exponent += text.len() as i32 - 1;
    JavaDigits {
        digits: text,
        exponent: exponent + 1,
    }
}

/// `roundup`: adds one to the last digit, carrying; `99` becomes `10` one place up (the
/// digit count stays, so zeros may trail).
fn roundup(d: &mut JavaDigits) {
    let Some(mut i) = d.digits.len().checked_sub(1) else {
        return;
    };
    while d.digits[i] == b'9' && i > 0 {
        d.digits[i] = b'0';
        i -= 1;
    }
    if d.digits[i] == b'9' {
        d.exponent += 1;
        d.digits[0] = b'1';
    } else {
        d.digits[i] += 1;
    }
}

/// `getChars`: plain `ddd.ddd` for exponents 1–7 and `0.00ddd` down to 10⁻³, otherwise
/// `d.dddE±n`; a lone digit before or after the point gets a `0` companion.
fn layout(negative: bool, d: &JavaDigits) -> String {
    // The digit loop always yields at least one digit; "0" only guards the slicing below.
    let digits = match std::str::from_utf8(&d.digits) {
        Ok(text) if !text.is_empty() => text,
        _ => "0",
    };
    let n = digits.len();
    let e = d.exponent;
    let mut out = String::with_capacity(n + 8);
    if negative {
        out.push('-');
    }
    if e > 0 && e < 8 {
        let int_len = n.min(e as usize);
        out.push_str(&digits[..int_len]);
        if int_len < e as usize {
            out.extend(std::iter::repeat_n('0', e as usize - int_len));
            out.push_str(".0");
        } else {
            out.push('.');
            out.push_str(if int_len < n { &digits[int_len..] } else { "0" });
        }
    } else if e <= 0 && e > -3 {
        out.push_str("0.");
        out.extend(std::iter::repeat_n('0', (-e) as usize));
        out.push_str(digits);
    } else {
        out.push_str(&digits[..1]);
        out.push('.');
        out.push_str(if n > 1 { &digits[1..] } else { "0" });
        out.push('E');
        out.push_str(&(if e <= 0 { -(-e + 1) } else { e - 1 }).to_string());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jdk17_outputs() {
        // Each expected text is what JDK 17's Double/Float.toString printed.
        assert_eq!(java_double_to_string(1.0), "1.0");
        assert_eq!(java_double_to_string(1e10), "1.0E10");
        assert_eq!(java_double_to_string(1e7), "1.0E7");
        assert_eq!(java_double_to_string(9999999.0), "9999999.0");
        assert_eq!(java_double_to_string(0.001), "0.001");
        assert_eq!(java_double_to_string(0.0001), "1.0E-4");
        assert_eq!(java_double_to_string(-1.5e-5), "-1.5E-5");
        assert_eq!(java_double_to_string(123.456), "123.456");
        assert_eq!(java_double_to_string(-0.0), "-0.0");
        assert_eq!(java_double_to_string(f64::from_bits(1)), "4.9E-324");
        assert_eq!(java_double_to_string(1e23), "9.999999999999999E22");
        assert_eq!(java_double_to_string(0.3), "0.3");
        assert_eq!(
            java_double_to_string(f64::from_bits(0x436b_506b_9d77_d7d1)),
            "6.1505980038299272E16"
        );
        assert_eq!(
            java_double_to_string(f64::from_bits(0x43b4_0773_ac7e_29fb)),
            "1.44324939028378291E18"
        );
        assert_eq!(java_float_to_string(1.1), "1.1");
        assert_eq!(java_float_to_string(3.4028235e38), "3.4028235E38");
        assert_eq!(java_float_to_string(100.0), "100.0");
        assert_eq!(java_float_to_string(f32::from_bits(1)), "1.4E-45");
        assert_eq!(
            java_float_to_string(f32::from_bits(0x5d7b_347f)),
            "1.13132703E18"
        );
        assert_eq!(
            java_float_to_string(f32::from_bits(0x4a09_34bd)),
            "2247983.2"
        );
        assert_eq!(
            java_float_to_string(f32::from_bits(0x5691_84e7)),
            "7.9999999E13"
        );
        assert_eq!(java_float_to_string(f32::NAN), "NaN");
        assert_eq!(java_float_to_string(f32::NEG_INFINITY), "-Infinity");
    }
}
