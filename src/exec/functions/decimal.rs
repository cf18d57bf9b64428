//! The few `java.math.BigDecimal` operations Cassandra's `decimal` arithmetic and
//! aggregates use, on [`Decimal`] (`unscaled × 10^-scale`), with Java's result scales:
//! exact `add`/`subtract`/`multiply`, `divide(divisor, scale, mode)`, `remainder`,
//! `setScale`, `stripTrailingZeros`, `BigDecimal.valueOf(double)` and `doubleValue()`.
//!
//! Scales are kept in `i64` while computing so that adding two `i32` scales cannot
//! overflow; a result whose scale leaves the `i32` range is an error, as in Java
//! ("Overflow"/"Underflow").

use num_bigint::{BigInt, Sign};
use num_traits::{Signed, Zero};

use crate::syntax::ast::NativeType;
use crate::types::{DataType, Decimal, Value};

/// How a division or rescaling rounds the digits it drops (`java.math.RoundingMode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Rounding {
    /// Toward zero.
    Down,
    /// To nearest, ties away from zero.
    HalfUp,
    /// To nearest, ties to the even neighbour.
    HalfEven,
}

fn ten_pow(n: u64) -> BigInt {
    num_traits::pow(BigInt::from(10), n as usize)
}

fn make(unscaled: BigInt, scale: i64) -> Result<Decimal, String> {
    let scale = i32::try_from(scale)
        .map_err(|_| if scale > 0 { "Underflow" } else { "Overflow" }.to_string())?;
    Ok(Decimal { unscaled, scale })
}

/// `BigDecimal.precision()`: the number of digits of the unscaled value (1 for zero).
pub(crate) fn precision(d: &Decimal) -> i64 {
    if d.unscaled.is_zero() {
        1
    } else {
        d.unscaled.magnitude().to_str_radix(10).len() as i64
    }
}

/// `unscaled` of `d` brought to the larger scale `scale`.
fn unscaled_at(d: &Decimal, scale: i64) -> BigInt {
    &d.unscaled * ten_pow((scale - i64::from(d.scale)) as u64)
}

/// `a.add(b)`: exact, at the larger scale.
pub(crate) fn add(a: &Decimal, b: &Decimal) -> Result<Decimal, String> {
    let scale = i64::from(a.scale.max(b.scale));
    make(unscaled_at(a, scale) + unscaled_at(b, scale), scale)
}

/// `a.subtract(b)`: exact, at the larger scale.
pub(crate) fn subtract(a: &Decimal, b: &Decimal) -> Result<Decimal, String> {
    let scale = i64::from(a.scale.max(b.scale));
    make(unscaled_at(a, scale) - unscaled_at(b, scale), scale)
}

/// `a.multiply(b)`: exact, scales added.
pub(crate) fn multiply(a: &Decimal, b: &Decimal) -> Result<Decimal, String> {
    make(
        &a.unscaled * &b.unscaled,
        i64::from(a.scale) + i64::from(b.scale),
    )
}

/// `n / d` rounded to an integer by `mode` (`d` not zero).
fn round_quotient(n: &BigInt, d: &BigInt, mode: Rounding) -> BigInt {
    let q = n / d; // truncated toward zero
    let r = n - &q * d;
    if r.is_zero() {
        return q;
    }
    let negative = (n.sign() == Sign::Minus) != (d.sign() == Sign::Minus);
    let twice = r.abs() * 2u32;
    let half = twice.cmp(&d.abs());
    let away = match mode {
        Rounding::Down => false,
        Rounding::HalfUp => half != std::cmp::Ordering::Less,
        Rounding::HalfEven => match half {
            std::cmp::Ordering::Greater => true,
            std::cmp::Ordering::Less => false,
            std::cmp::Ordering::Equal => (&q % 2u32) != BigInt::zero(),
        },
    };
    match (away, negative) {
        (false, _) => q,
        (true, false) => q + 1u32,
        (true, true) => q - 1u32,
    }
}

/// `a.divide(b, scale, mode)`: the quotient rounded to exactly `scale` digits after the
/// point. The caller has checked that `b` is not zero.
pub(crate) fn divide_to_scale(
    a: &Decimal,
    b: &Decimal,
    scale: i64,
    mode: Rounding,
) -> Result<Decimal, String> {
    // a / b = (ua / ub) * 10^(sb - sa); scaled by 10^scale.
    let shift = scale - i64::from(a.scale) + i64::from(b.scale);
    let (n, d) = if shift >= 0 {
        (&a.unscaled * ten_pow(shift as u64), b.unscaled.clone())
    } else {
        (
            a.unscaled.clone(),
            &b.unscaled * ten_pow(shift.unsigned_abs()),
        )
    };
    make(round_quotient(&n, &d, mode), scale)
}

/// `d.setScale(scale, mode)`.
pub(crate) fn set_scale(d: &Decimal, scale: i64, mode: Rounding) -> Result<Decimal, String> {
    let one = Decimal {
        unscaled: BigInt::from(1),
        scale: 0,
    };
    divide_to_scale(d, &one, scale, mode)
}

/// `d.stripTrailingZeros()`; zero becomes `0` (Java 8+).
pub(crate) fn strip_trailing_zeros(d: &Decimal) -> Decimal {
    d.normalized()
}

/// `a.remainder(b)` (no `MathContext`): `a - q·b` with `q` the integer part of `a / b`,
/// at the scale Java's `divideToIntegralValue` gives `q` (its preferred scale
/// `a.scale - b.scale`, trailing zeros of `q` stripped toward it when negative).
/// Errors are Java's: `Division by zero`, `Division undefined` for `0 % 0`.
pub(crate) fn remainder(a: &Decimal, b: &Decimal) -> Result<Decimal, String> {
    if b.unscaled.is_zero() {
        return Err(if a.unscaled.is_zero() {
            "Division undefined"
        } else {
            "Division by zero"
        }
        .to_string());
    }
    let preferred = i64::from(a.scale) - i64::from(b.scale);
    let quotient = if compare_magnitude(a, b) == std::cmp::Ordering::Less {
        Decimal {
            unscaled: BigInt::zero(),
            scale: i32::try_from(preferred).map_err(|_| "Overflow".to_string())?,
        }
    } else {
        let q = divide_to_scale(a, b, 0, Rounding::Down)?.unscaled;
        if preferred >= 0 {
            make(q * ten_pow(preferred as u64), preferred)?
        } else {
            let mut q = q;
            let mut scale = 0i64;
            let ten = BigInt::from(10);
            while scale > preferred && !q.is_zero() && (&q % &ten).is_zero() {
                q /= &ten;
                scale -= 1;
            }
            make(q, scale)?
        }
    };
    subtract(a, &multiply(&quotient, b)?)
}

fn compare_magnitude(a: &Decimal, b: &Decimal) -> std::cmp::Ordering {
    let scale = i64::from(a.scale.max(b.scale));
    unscaled_at(a, scale)
        .magnitude()
        .cmp(unscaled_at(b, scale).magnitude())
}

/// `BigDecimal.valueOf(double)`: the decimal of Java's `Double.toString(v)` (`1.0` for
/// `1`, `1.0E10` for `1e10`). `v` must be finite.
pub(crate) fn from_java_double(v: f64) -> Decimal {
    let text = Value::Double(v).to_json_text(&DataType::Native(NativeType::Double));
    parse(&text)
}

/// `new BigDecimal(Float.toString(v))`, what `CAST(float AS decimal)` builds (5.0, after
/// CASSANDRA-18647): `5.2` for the float nearest 5.2. `v` must be finite.
pub(crate) fn from_java_float(v: f32) -> Decimal {
    let text = Value::Float(v).to_json_text(&DataType::Native(NativeType::Float));
    parse(&text)
}

/// `new BigDecimal(BigInteger)`.
pub(crate) fn from_bigint(v: BigInt) -> Decimal {
    Decimal {
        unscaled: v,
        scale: 0,
    }
}

/// `BigDecimal.toString()` (scientific notation when Java uses it).
pub(crate) fn to_text(d: &Decimal) -> String {
    Value::Decimal(Box::new(d.clone())).to_json_text(&DataType::Native(NativeType::Decimal))
}

/// `BigDecimal.doubleValue()`: the nearest double (±Infinity beyond the range).
pub(crate) fn to_f64(d: &Decimal) -> f64 {
    to_text(d).parse().unwrap_or(f64::NAN)
}

/// `BigDecimal.floatValue()`: the nearest float.
pub(crate) fn to_f32(d: &Decimal) -> f32 {
    to_text(d).parse().unwrap_or(f32::NAN)
}

/// `BigDecimal.toBigInteger()`: the integer part, truncated toward zero.
pub(crate) fn to_bigint(d: &Decimal) -> BigInt {
    if d.scale <= 0 {
        &d.unscaled * ten_pow(u64::from(d.scale.unsigned_abs()))
    } else {
        &d.unscaled / ten_pow(u64::from(d.scale.unsigned_abs()))
    }
}

/// Reads a decimal from Java's own number text (always valid here).
fn parse(text: &str) -> Decimal {
    match crate::types::coerce::from_string(&DataType::Native(NativeType::Decimal), text) {
        Ok(Value::Decimal(d)) => *d,
        _ => Decimal {
            unscaled: BigInt::zero(),
            scale: 0,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn dec(text: &str) -> Decimal {
        parse(text)
    }

    fn s(d: Result<Decimal, String>) -> String {
        to_text(&d.expect("no error"))
    }

    #[test]
    fn exact_operations_keep_java_scales() {
        assert_eq!(s(add(&dec("8.5"), &dec("1.0"))), "9.5");
        assert_eq!(s(subtract(&dec("1"), &dec("0.001"))), "0.999");
        // Cassandra's OperationFctsTest: 1.0 * 8.5 = 8.50.
        assert_eq!(s(multiply(&dec("1.0"), &dec("8.5"))), "8.50");
        assert_eq!(s(multiply(&dec("1E+3"), &dec("2"))), "2E+3");
    }

    #[test]
    fn division_rounds_at_the_requested_scale() {
        assert_eq!(
            s(divide_to_scale(
                &dec("8.5"),
                &dec("3.0"),
                32,
                Rounding::HalfUp
            )),
            "2.83333333333333333333333333333333"
        );
        assert_eq!(
            s(divide_to_scale(&dec("2"), &dec("3"), 0, Rounding::HalfUp)),
            "1"
        );
        assert_eq!(
            s(divide_to_scale(
                &dec("-2.5"),
                &dec("1"),
                0,
                Rounding::HalfUp
            )),
            "-3"
        );
        assert_eq!(
            s(divide_to_scale(
                &dec("-2.5"),
                &dec("1"),
                0,
                Rounding::HalfEven
            )),
            "-2"
        );
        assert_eq!(
            s(divide_to_scale(
                &dec("3.5"),
                &dec("1"),
                0,
                Rounding::HalfEven
            )),
            "4"
        );
        assert_eq!(
            s(divide_to_scale(&dec("-7"), &dec("2"), 0, Rounding::Down)),
            "-3"
        );
        assert_eq!(s(set_scale(&dec("1.25"), 1, Rounding::HalfUp)), "1.3");
        assert_eq!(s(set_scale(&dec("12"), -1, Rounding::HalfUp)), "1E+1");
    }

    #[test]
    fn remainder_matches_cassandra_tests() {
        // OperationFctsTest: 1.0 % 8.5 = 1.0, 7 % 8.5 = 7, 8.5 % 8.5 = 0.0, 8.5 % 3.0 = 2.5.
        assert_eq!(s(remainder(&dec("1.0"), &dec("8.5"))), "1.0");
        assert_eq!(s(remainder(&dec("7"), &dec("8.5"))), "7");
        assert_eq!(s(remainder(&dec("8.5"), &dec("8.5"))), "0.0");
        assert_eq!(s(remainder(&dec("8.5"), &dec("3.0"))), "2.5");
        // testModuloWithDecimals: a 36-digit numerator.
        let n = dec("123456789112345678921234567893123456");
        assert_eq!(s(remainder(&n, &dec("2"))), "0");
        assert_eq!(s(remainder(&n, &dec("2.0"))), "0.0");
        assert_eq!(s(remainder(&dec("-7.5"), &dec("2"))), "-1.5");
        assert_eq!(
            remainder(&dec("1"), &dec("0")).unwrap_err(),
            "Division by zero"
        );
        assert_eq!(
            remainder(&dec("0"), &dec("0.0")).unwrap_err(),
            "Division undefined"
        );
    }

    #[test]
    fn conversions_follow_java() {
        assert_eq!(to_text(&from_java_double(1.0)), "1.0");
        assert_eq!(to_text(&from_java_double(1e10)), "1.0E+10");
        assert_eq!(to_text(&from_java_double(6.3)), "6.3");
        assert_eq!(to_text(&from_java_float(5.2)), "5.2");
        assert_eq!(to_f64(&dec("0.1")), 0.1);
        assert_eq!(to_f32(&dec("5.2")), 5.2f32);
        assert_eq!(to_bigint(&dec("-7.9")), BigInt::from(-7));
        assert_eq!(to_bigint(&dec("1.2E+3")), BigInt::from(1200));
        assert_eq!(precision(&dec("0.00")), 1);
        assert_eq!(precision(&dec("-123.45")), 5);
        assert_eq!(to_text(&strip_trailing_zeros(&dec("100"))), "1E+2");
        assert_eq!(to_text(&strip_trailing_zeros(&dec("0.000"))), "0");
    }
}
