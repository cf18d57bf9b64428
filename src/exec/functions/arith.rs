//! Numbers: Java's `Number` conversions between the numeric types, the selector
//! operators `+ - * / %` and unary `-` (Cassandra 5.0 `OperationFcts` over each
//! `NumberType`), the math functions `abs`, `exp`, `log`, `log10`, `round` (`MathFcts`),
//! and `+` on strings.
//!
//! Every operation runs in its *result* type, with both operands first converted to it
//! the way Java's `Number.intValue()`, `floatValue()`, … and `DecimalType.toBigDecimal`
//! do: fixed-width integers wrap, a float-to-int conversion saturates, a `double` becomes
//! a decimal through its `Double.toString` text (`1` → `1.0`).

use num_bigint::BigInt;
use num_traits::{Signed, ToPrimitive, Zero};

use crate::syntax::ast::{ArithmeticOp, NativeType};
use crate::types::{Decimal, Value};

use super::decimal::{self, Rounding};

/// A numeric value, decoded once.
enum Num {
    /// tinyint, smallint, int, bigint, counter (widened).
    Int(i64),
    F32(f32),
    F64(f64),
    Big(BigInt),
    Dec(Decimal),
}

/// The number in `value`; `None` for null, empty and non-numeric values (Cassandra's
/// argument deserializers turn an empty numeric value into null).
fn num(value: &Value) -> Option<Num> {
    Some(match value {
        Value::Tinyint(v) => Num::Int(i64::from(*v)),
        Value::Smallint(v) => Num::Int(i64::from(*v)),
        Value::Int(v) => Num::Int(i64::from(*v)),
        Value::Bigint(v) | Value::Counter(v) => Num::Int(*v),
        Value::Float(v) => Num::F32(*v),
        Value::Double(v) => Num::F64(*v),
        Value::Varint(v) => Num::Big((**v).clone()),
        Value::Decimal(d) => Num::Dec((**d).clone()),
        _ => return None,
    })
}

/// The low 64 bits of a big integer, two's complement (`BigInteger.longValue`).
fn low_bits(v: &BigInt) -> i64 {
    let bytes = v.to_signed_bytes_le();
    let fill = if v.is_negative() { 0xff } else { 0 };
    let mut word = [fill; 8];
    for (slot, byte) in word.iter_mut().zip(bytes.iter()) {
        *slot = *byte;
    }
    i64::from_le_bytes(word)
}

impl Num {
    /// `Number.longValue()`; `intValue`, `shortValue`, `byteValue` truncate it further
    /// (for floats Java saturates at the *int* range first, which `as` reproduces).
    fn long(&self) -> i64 {
        match self {
            Num::Int(v) => *v,
            Num::F32(v) => *v as i64,
            Num::F64(v) => *v as i64,
            Num::Big(v) => low_bits(v),
            Num::Dec(d) => low_bits(&decimal::to_bigint(d)),
        }
    }

    fn int(&self) -> i32 {
        match self {
            Num::F32(v) => *v as i32,
            Num::F64(v) => *v as i32,
            other => other.long() as i32,
        }
    }

    fn float(&self) -> f32 {
        match self {
            Num::Int(v) => *v as f32,
            Num::F32(v) => *v,
            Num::F64(v) => *v as f32,
            Num::Big(v) => v.to_string().parse().unwrap_or(f32::NAN),
            Num::Dec(d) => decimal::to_f32(d),
        }
    }

    fn double(&self) -> f64 {
        match self {
            Num::Int(v) => *v as f64,
            Num::F32(v) => f64::from(*v),
            Num::F64(v) => *v,
            Num::Big(v) => v.to_string().parse().unwrap_or(f64::NAN),
            Num::Dec(d) => decimal::to_f64(d),
        }
    }

    /// `IntegerType.toBigInteger`: a varint as is, anything else through `longValue`.
    fn big(&self) -> BigInt {
        match self {
            Num::Big(v) => v.clone(),
            other => BigInt::from(other.long()),
        }
    }

    /// `DecimalType.toBigDecimal`: decimals and varints exactly, anything else through
    /// `BigDecimal.valueOf(doubleValue())`, refusing NaN and infinities.
    fn dec(&self) -> Result<Decimal, String> {
        match self {
            Num::Dec(d) => Ok(d.clone()),
            Num::Big(v) => Ok(decimal::from_bigint(v.clone())),
            other => {
                let d = other.double();
                if d.is_nan() {
                    Err("A NaN cannot be converted into a decimal".into())
                } else if d.is_infinite() {
                    Err("An infinite number cannot be converted into a decimal".into())
                } else {
                    Ok(decimal::from_java_double(d))
                }
            }
        }
    }
}

/// The result type of `left op right` for two numeric types (`OperationFcts.returnType`):
/// floating point if either side is (float, double, decimal), and the wider of the two
/// sizes — 1 tinyint, 2 smallint, 4 int/float, 8 bigint/double/counter, unbounded
/// varint/decimal. So `int + float` is float, `bigint + float` double, `varint + float`
/// decimal, `counter + counter` bigint.
pub(super) fn result_type(left: NativeType, right: NativeType) -> Option<NativeType> {
    fn size(t: NativeType) -> Option<u32> {
        Some(match t {
            NativeType::Tinyint => 1,
            NativeType::Smallint => 2,
            NativeType::Int | NativeType::Float => 4,
            NativeType::Bigint | NativeType::Double | NativeType::Counter => 8,
            NativeType::Varint | NativeType::Decimal => u32::MAX,
            _ => return None,
        })
    }
    let floating = |t| {
        matches!(
            t,
            NativeType::Float | NativeType::Double | NativeType::Decimal
        )
    };
    let size = size(left)?.max(size(right)?);
    Some(if floating(left) || floating(right) {
        match size {
            4 => NativeType::Float,
            8 => NativeType::Double,
            _ => NativeType::Decimal,
        }
    } else {
        match size {
            1 => NativeType::Tinyint,
            2 => NativeType::Smallint,
            4 => NativeType::Int,
            8 => NativeType::Bigint,
            _ => NativeType::Varint,
        }
    })
}

/// The numeric types in Cassandra's registration order (`OperationFcts`, `CastFcts`).
pub(super) const NUMERIC: [NativeType; 9] = [
    NativeType::Tinyint,
    NativeType::Smallint,
    NativeType::Int,
    NativeType::Bigint,
    NativeType::Float,
    NativeType::Double,
    NativeType::Decimal,
    NativeType::Varint,
    NativeType::Counter,
];

/// `left op right` computed in `result`. `Ok(Null)` when an operand is null or empty;
/// `Err` carries the Java exception message (`/ by zero`, `BigInteger divide by zero`,
/// `A NaN cannot be converted into a decimal`), which the caller wraps.
pub(super) fn operate(
    op: ArithmeticOp,
    result: NativeType,
    left: &Value,
    right: &Value,
) -> Result<Value, String> {
    let (Some(a), Some(b)) = (num(left), num(right)) else {
        return Ok(Value::Null);
    };
    use ArithmeticOp::*;
    macro_rules! fixed {
        ($t:ty, $x:expr, $y:expr, $wrap:expr) => {{
            let (x, y): ($t, $t) = ($x, $y);
            let r = match op {
                Add => x.wrapping_add(y),
                Sub => x.wrapping_sub(y),
                Mul => x.wrapping_mul(y),
                Div | Rem if y == 0 => return Err("/ by zero".into()),
                Div => x.wrapping_div(y),
                Rem => x.wrapping_rem(y),
            };
            $wrap(r)
        }};
    }
    macro_rules! float {
        ($x:expr, $y:expr, $wrap:expr) => {{
            let (x, y) = ($x, $y);
            $wrap(match op {
                Add => x + y,
                Sub => x - y,
                Mul => x * y,
                Div => x / y,
                Rem => x % y,
            })
        }};
    }
    Ok(match result {
        NativeType::Tinyint => fixed!(i8, a.int() as i8, b.int() as i8, Value::Tinyint),
        NativeType::Smallint => fixed!(i16, a.int() as i16, b.int() as i16, Value::Smallint),
        NativeType::Int => fixed!(i32, a.int(), b.int(), Value::Int),
        NativeType::Bigint | NativeType::Counter => {
            fixed!(i64, a.long(), b.long(), Value::Bigint)
        }
        NativeType::Float => float!(a.float(), b.float(), Value::Float),
        NativeType::Double => float!(a.double(), b.double(), Value::Double),
        NativeType::Varint => {
            let (x, y) = (a.big(), b.big());
            if matches!(op, Div | Rem) && y.is_zero() {
                return Err("BigInteger divide by zero".into());
            }
            Value::varint(match op {
                Add => x + y,
                Sub => x - y,
                Mul => x * y,
                Div => x / y,
                Rem => x % y,
            })
        }
        NativeType::Decimal => {
            let (x, y) = (a.dec()?, b.dec()?);
            Value::Decimal(Box::new(match op {
                Add => decimal::add(&x, &y)?,
                Sub => decimal::subtract(&x, &y)?,
                Mul => decimal::multiply(&x, &y)?,
                Div => divide_decimals(&x, &y)?,
                Rem => decimal::remainder(&x, &y)?,
            }))
        }
        _ => return Ok(Value::Null),
    })
}

/// `DecimalType.divide` (5.0): at least 32 digits after the point and at least 32
/// significant digits as predicted from the operands' magnitudes (never more than 1000
/// digits after the point), rounded half-up, trailing zeros stripped.
fn divide_decimals(x: &Decimal, y: &Decimal) -> Result<Decimal, String> {
    let magnitude = |d: &Decimal| decimal::precision(d) - i64::from(d.scale);
    let first_digit = magnitude(x) - magnitude(y);
    let scale = (32 - first_digit)
        .max(i64::from(x.scale))
        .max(i64::from(y.scale))
        .clamp(32, 1000);
    if y.unscaled.is_zero() {
        // Java divides in longs when the rescaled dividend fits one (`/ by zero`), in
        // BigIntegers otherwise.
        let raise = scale + i64::from(y.scale) - i64::from(x.scale);
        let fits = x.unscaled.is_zero()
            || (raise <= 0 && x.unscaled.to_i64().is_some())
            || (raise < 19
                && raise > 0
                && (&x.unscaled * BigInt::from(10).pow(raise as u32))
                    .to_i64()
                    .is_some());
        return Err(if fits {
            "/ by zero"
        } else {
            "BigInteger divide by zero"
        }
        .into());
    }
    Ok(decimal::strip_trailing_zeros(&decimal::divide_to_scale(
        x,
        y,
        scale,
        Rounding::HalfUp,
    )?))
}

/// Unary minus in the operand's own type (fixed widths wrap: `-(-128)` is `-128`).
pub(super) fn negate(value: &Value) -> Value {
    match value {
        Value::Tinyint(v) => Value::Tinyint(v.wrapping_neg()),
        Value::Smallint(v) => Value::Smallint(v.wrapping_neg()),
        Value::Int(v) => Value::Int(v.wrapping_neg()),
        Value::Bigint(v) => Value::Bigint(v.wrapping_neg()),
        Value::Counter(v) => Value::Counter(v.wrapping_neg()),
        Value::Float(v) => Value::Float(-v),
        Value::Double(v) => Value::Double(-v),
        Value::Varint(v) => Value::varint(-(**v).clone()),
        Value::Decimal(d) => Value::decimal(-d.unscaled.clone(), d.scale),
        _ => Value::Null,
    }
}

/// `a + b` on text and ascii: concatenation (the result is ascii only when both are).
pub(super) fn concat(result: NativeType, left: &Value, right: &Value) -> Value {
    let text = |v: &Value| match v {
        Value::Text(s) | Value::Ascii(s) => Some(s.clone()),
        Value::Empty => Some(String::new()),
        _ => None,
    };
    match (text(left), text(right)) {
        (Some(a), Some(b)) if result == NativeType::Ascii => Value::Ascii(a + &b),
        (Some(a), Some(b)) => Value::Text(a + &b),
        _ => Value::Null,
    }
}

/// The math functions of `MathFcts`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum MathFn {
    /// `abs(x)`
    Abs,
    /// `exp(x)`
    Exp,
    /// `log(x)`, natural
    Log,
    /// `log10(x)`
    Log10,
    /// `round(x)`
    Round,
}

impl MathFn {
    /// The function's name.
    pub(crate) fn name(self) -> &'static str {
        match self {
            MathFn::Abs => "abs",
            MathFn::Exp => "exp",
            MathFn::Log => "log",
            MathFn::Log10 => "log10",
            MathFn::Round => "round",
        }
    }

    /// Looks a name up (lower case).
    pub(crate) fn from_name(name: &str) -> Option<MathFn> {
        [
            MathFn::Abs,
            MathFn::Exp,
            MathFn::Log,
            MathFn::Log10,
            MathFn::Round,
        ]
        .into_iter()
        .find(|f| f.name() == name)
    }

    /// Whether widerow computes this function for `ty`. `exp`, `log` and `log10` of a
    /// varint or decimal need Cassandra's arbitrary-precision `BigDecimalMath`, which is
    /// not reproduced.
    pub(crate) fn supports(self, ty: NativeType) -> bool {
        !matches!(self, MathFn::Exp | MathFn::Log | MathFn::Log10)
            || !matches!(ty, NativeType::Varint | NativeType::Decimal)
    }
}

/// `f(x)` in `x`'s type, as each `NumberType` computes it: the double result of
/// `Math.exp`/`log`/`log10` narrowed like a Java cast, `abs` wrapping at the minimum,
/// `round` the identity on integers, `Math.round` on floats, half-up on decimals.
pub(super) fn math(f: MathFn, value: &Value) -> Value {
    let Some(n) = num(value) else {
        return Value::Null;
    };
    let real = |x: f64| match f {
        MathFn::Exp => x.exp(),
        MathFn::Log => x.ln(),
        MathFn::Log10 => x.log10(),
        MathFn::Abs | MathFn::Round => x,
    };
    match value {
        Value::Tinyint(v) => Value::Tinyint(match f {
            MathFn::Abs => v.wrapping_abs(),
            MathFn::Round => *v,
            _ => real(f64::from(*v)) as i32 as i8,
        }),
        Value::Smallint(v) => Value::Smallint(match f {
            MathFn::Abs => v.wrapping_abs(),
            MathFn::Round => *v,
            _ => real(f64::from(*v)) as i32 as i16,
        }),
        Value::Int(v) => Value::Int(match f {
            MathFn::Abs => v.wrapping_abs(),
            MathFn::Round => *v,
            _ => real(f64::from(*v)) as i32,
        }),
        Value::Bigint(_) | Value::Counter(_) => {
            let v = n.long();
            let r = match f {
                MathFn::Abs => v.wrapping_abs(),
                MathFn::Round => v,
                _ => real(v as f64) as i64,
            };
            if matches!(value, Value::Counter(_)) {
                Value::Counter(r)
            } else {
                Value::Bigint(r)
            }
        }
        Value::Float(v) => Value::Float(match f {
            MathFn::Abs => v.abs(),
            // Math.round(float): floor(x + 0.5) as an int (saturating, NaN → 0).
            MathFn::Round => java_round_f32(*v) as f32,
            _ => real(f64::from(*v)) as f32,
        }),
        Value::Double(v) => Value::Double(match f {
            MathFn::Abs => v.abs(),
            MathFn::Round => java_round_f64(*v) as f64,
            _ => real(*v),
        }),
        Value::Varint(v) => match f {
            MathFn::Abs => Value::varint(v.abs()),
            MathFn::Round => Value::Varint(v.clone()),
            _ => Value::Null,
        },
        Value::Decimal(d) => match f {
            MathFn::Abs => Value::decimal(d.unscaled.abs(), d.scale),
            MathFn::Round => decimal::set_scale(d, 0, Rounding::HalfUp)
                .map_or(Value::Null, |r| Value::Decimal(Box::new(r))),
            _ => Value::Null,
        },
        _ => Value::Null,
    }
}

/// Java's `Math.round(float)`.
fn java_round_f32(v: f32) -> i32 {
    if v.is_nan() {
        0
    } else {
        (f64::from(v) + 0.5).floor() as i32
    }
}

/// Java's `Math.round(double)` (exact for the halves `x + 0.5` cannot represent).
fn java_round_f64(v: f64) -> i64 {
    if v.is_nan() {
        return 0;
    }
    let floor = v.floor();
    let r = if v - floor >= 0.5 { floor + 1.0 } else { floor };
    r as i64
}

/// Java's `Number` conversion of a numeric value to another numeric type, for `CAST`
/// (`byteValue()`, …, `floatValue()`, and to decimal: `Float.toString` text for floats,
/// `BigDecimal.valueOf` for doubles, exact for varints, `valueOf(longValue())` for the
/// integers; to varint: `BigInteger.valueOf(longValue())`).
pub(super) fn convert(value: &Value, to: NativeType) -> Result<Value, String> {
    let Some(n) = num(value) else {
        return Ok(Value::Null);
    };
    Ok(match to {
        NativeType::Tinyint => Value::Tinyint(n.int() as i8),
        NativeType::Smallint => Value::Smallint(n.int() as i16),
        NativeType::Int => Value::Int(n.int()),
        NativeType::Bigint => Value::Bigint(n.long()),
        NativeType::Float => Value::Float(n.float()),
        NativeType::Double => Value::Double(n.double()),
        NativeType::Varint => Value::varint(n.long()),
        NativeType::Decimal => Value::Decimal(Box::new(match n {
            Num::F32(v) if !v.is_finite() => return Err(non_finite(f64::from(v))),
            Num::F64(v) if !v.is_finite() => return Err(non_finite(v)),
            Num::F32(v) => decimal::from_java_float(v),
            Num::F64(v) => decimal::from_java_double(v),
            Num::Big(v) => decimal::from_bigint(v),
            Num::Dec(d) => d,
            Num::Int(v) => decimal::from_bigint(BigInt::from(v)),
        })),
        _ => return Ok(Value::Null),
    })
}

fn non_finite(v: f64) -> String {
    if v.is_nan() {
        "java.lang.NumberFormatException: Character N is neither a decimal digit number, \
         decimal point, nor \"e\" notation exponential mark."
            .into()
    } else {
        "java.lang.NumberFormatException: Infinite or NaN".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ArithmeticOp::*;
    use NativeType as T;

    fn dec(text: &str) -> Value {
        crate::types::coerce::from_string(&crate::types::DataType::Native(T::Decimal), text)
            .ok()
            .expect("decimal")
    }

    fn text(v: &Value) -> String {
        match v {
            Value::Decimal(d) => decimal::to_text(d),
            other => format!("{other:?}"),
        }
    }

    fn op(o: ArithmeticOp, l: &Value, r: &Value) -> Result<Value, String> {
        let ty = |v: &Value| match v {
            Value::Tinyint(_) => T::Tinyint,
            Value::Smallint(_) => T::Smallint,
            Value::Int(_) => T::Int,
            Value::Bigint(_) => T::Bigint,
            Value::Counter(_) => T::Counter,
            Value::Float(_) => T::Float,
            Value::Double(_) => T::Double,
            Value::Varint(_) => T::Varint,
            _ => T::Decimal,
        };
        operate(o, result_type(ty(l), ty(r)).expect("numeric"), l, r)
    }

    #[test]
    fn result_types_follow_operation_fcts() {
        assert_eq!(result_type(T::Tinyint, T::Tinyint), Some(T::Tinyint));
        assert_eq!(result_type(T::Smallint, T::Tinyint), Some(T::Smallint));
        assert_eq!(result_type(T::Int, T::Float), Some(T::Float));
        assert_eq!(result_type(T::Bigint, T::Float), Some(T::Double));
        assert_eq!(result_type(T::Varint, T::Float), Some(T::Decimal));
        assert_eq!(result_type(T::Varint, T::Bigint), Some(T::Varint));
        assert_eq!(result_type(T::Counter, T::Counter), Some(T::Bigint));
        assert_eq!(result_type(T::Counter, T::Float), Some(T::Double));
        assert_eq!(result_type(T::Text, T::Int), None);
    }

    #[test]
    fn single_operations_from_cassandras_tests() {
        // OperationFctsTest.testSingleOperations: a=1 tinyint, b=2 smallint, c=3 int,
        // d=4 bigint, e=5.5 float, f=6.5 double, g=7 varint, h=8.5 decimal.
        let h = dec("8.5");
        assert!(matches!(
            op(Add, &Value::Tinyint(1), &Value::Tinyint(1)),
            Ok(Value::Tinyint(2))
        ));
        assert!(
            matches!(op(Add, &Value::Float(5.5), &Value::Bigint(4)), Ok(Value::Double(v)) if v == 9.5)
        );
        assert_eq!(text(&op(Add, &h, &Value::Tinyint(1)).unwrap()), "9.5");
        assert_eq!(text(&op(Mul, &Value::Tinyint(1), &h).unwrap()), "8.50");
        assert_eq!(
            text(&op(Mul, &Value::Float(5.5), &Value::varint(7)).unwrap()),
            "38.5"
        );
        assert!(
            matches!(op(Div, &Value::Float(5.5), &Value::Int(3)), Ok(Value::Float(v)) if v == 1.833_333_4)
        );
        assert_eq!(
            text(&op(Div, &h, &Value::Int(3)).unwrap()),
            "2.83333333333333333333333333333333"
        );
        assert_eq!(
            text(&op(Div, &Value::Tinyint(1), &h).unwrap()),
            "0.11764705882352941176470588235294"
        );
        assert_eq!(
            text(&op(Div, &Value::Float(5.5), &Value::varint(7)).unwrap()),
            "0.78571428571428571428571428571429"
        );
        assert_eq!(text(&op(Div, &h, &h).unwrap()), "1");
        assert_eq!(text(&op(Rem, &Value::Tinyint(1), &h).unwrap()), "1.0");
        assert_eq!(text(&op(Rem, &Value::varint(7), &h).unwrap()), "7");
        assert!(
            matches!(op(Rem, &Value::Float(5.5), &Value::Int(3)), Ok(Value::Float(v)) if v == 2.5)
        );
        // testDivisionWithDecimals.
        assert_eq!(
            text(
                &op(
                    Div,
                    &dec("8.5"),
                    &dec("200000000000000000000000000000000000")
                )
                .unwrap()
            ),
            "4.25E-35"
        );
        assert_eq!(
            text(&op(Div, &dec("10000"), &dec("3")).unwrap()),
            "3333.33333333333333333333333333333333"
        );
    }

    #[test]
    fn overflow_wraps_and_division_by_zero_fails() {
        assert!(matches!(
            op(Add, &Value::Int(i32::MAX), &Value::Int(1)),
            Ok(Value::Int(i32::MIN))
        ));
        assert!(matches!(
            op(Add, &Value::Tinyint(127), &Value::Tinyint(1)),
            Ok(Value::Tinyint(-128))
        ));
        assert!(matches!(
            op(Div, &Value::Int(i32::MIN), &Value::Int(-1)),
            Ok(Value::Int(i32::MIN))
        ));
        assert_eq!(
            op(Div, &Value::Int(1), &Value::Tinyint(0)).unwrap_err(),
            "/ by zero"
        );
        assert_eq!(
            op(Rem, &Value::Bigint(1), &Value::Bigint(0)).unwrap_err(),
            "/ by zero"
        );
        assert_eq!(
            op(Div, &Value::varint(7), &Value::Tinyint(0)).unwrap_err(),
            "BigInteger divide by zero"
        );
        // testWithDivisionByZero: 'decimal / tinyint' failed: BigInteger divide by zero.
        assert_eq!(
            op(Div, &dec("8.5"), &Value::Tinyint(0)).unwrap_err(),
            "BigInteger divide by zero"
        );
        assert!(
            matches!(op(Div, &Value::Float(5.5), &Value::Tinyint(0)), Ok(Value::Float(v)) if v == f32::INFINITY)
        );
        assert_eq!(
            op(Add, &dec("1"), &Value::Double(f64::NAN)).unwrap_err(),
            "A NaN cannot be converted into a decimal"
        );
        assert_eq!(
            op(Add, &dec("1"), &Value::Float(f32::NEG_INFINITY)).unwrap_err(),
            "An infinite number cannot be converted into a decimal"
        );
        assert!(op(Add, &Value::Empty, &Value::Int(1)).unwrap().is_null());
    }

    #[test]
    fn counters_compute_as_bigint() {
        assert!(matches!(
            op(Add, &Value::Counter(2), &Value::Counter(2)),
            Ok(Value::Bigint(4))
        ));
        assert!(
            matches!(op(Add, &Value::Counter(2), &Value::Double(1.5)), Ok(Value::Double(v)) if v == 3.5)
        );
        assert_eq!(
            text(&op(Div, &Value::Counter(2), &dec("0.5")).unwrap()),
            "4"
        );
        assert_eq!(
            text(&op(Rem, &Value::Counter(2), &dec("0.5")).unwrap()),
            "0.0"
        );
    }

    #[test]
    fn negation_and_concatenation() {
        assert!(matches!(
            negate(&Value::Tinyint(-128)),
            Value::Tinyint(-128)
        ));
        assert!(matches!(negate(&Value::Counter(2)), Value::Counter(-2)));
        assert_eq!(text(&negate(&dec("8.5"))), "-8.5");
        assert!(negate(&Value::Empty).is_null());
        assert!(matches!(
            concat(T::Text, &Value::Text("जॉन".into()), &Value::Ascii(" Doe".into())),
            Value::Text(s) if s == "जॉन Doe"
        ));
        assert!(matches!(
            concat(T::Ascii, &Value::Ascii("a".into()), &Value::Ascii("b".into())),
            Value::Ascii(s) if s == "ab"
        ));
    }

    #[test]
    fn math_functions_keep_the_input_type() {
        assert!(matches!(
            math(MathFn::Abs, &Value::Int(i32::MIN)),
            Value::Int(i32::MIN)
        ));
        assert!(matches!(
            math(MathFn::Abs, &Value::Tinyint(-5)),
            Value::Tinyint(5)
        ));
        assert!(matches!(math(MathFn::Exp, &Value::Int(1)), Value::Int(2)));
        // (byte) Math.exp(10): 22026.46 → int 22026 → byte 10, Java's narrowing.
        assert!(matches!(
            math(MathFn::Exp, &Value::Tinyint(10)),
            Value::Tinyint(10)
        ));
        assert!(matches!(
            math(MathFn::Log, &Value::Int(0)),
            Value::Int(i32::MIN)
        ));
        assert!(matches!(
            math(MathFn::Log10, &Value::Bigint(1000)),
            Value::Bigint(3)
        ));
        assert!(matches!(math(MathFn::Round, &Value::Float(2.5)), Value::Float(v) if v == 3.0));
        assert!(matches!(math(MathFn::Round, &Value::Double(-2.5)), Value::Double(v) if v == -2.0));
        assert!(
            matches!(math(MathFn::Round, &Value::Double(0.499_999_999_999_999_94)), Value::Double(v) if v == 0.0)
        );
        assert!(matches!(math(MathFn::Exp, &Value::Double(0.0)), Value::Double(v) if v == 1.0));
        assert_eq!(text(&math(MathFn::Round, &dec("-2.5"))), "-3");
        assert_eq!(text(&math(MathFn::Abs, &dec("-2.50"))), "2.50");
        assert!(
            matches!(math(MathFn::Abs, &Value::varint(-3)), Value::Varint(v) if *v == BigInt::from(3))
        );
        assert!(!MathFn::Exp.supports(T::Decimal));
        assert!(MathFn::Round.supports(T::Decimal));
        assert!(math(MathFn::Abs, &Value::Empty).is_null());
    }

    #[test]
    fn casts_between_numbers_are_javas() {
        // CastFctsTest: 5.2f → tinyint 5, decimal 5.2; 6.3 → float 6.3f; int → decimal 3.
        assert!(matches!(
            convert(&Value::Float(5.2), T::Tinyint),
            Ok(Value::Tinyint(5))
        ));
        assert_eq!(
            text(&convert(&Value::Float(5.2), T::Decimal).unwrap()),
            "5.2"
        );
        assert_eq!(
            text(&convert(&Value::Double(6.3), T::Decimal).unwrap()),
            "6.3"
        );
        assert_eq!(text(&convert(&Value::Int(3), T::Decimal).unwrap()), "3");
        assert!(
            matches!(convert(&Value::Double(6.3), T::Float), Ok(Value::Float(v)) if v == 6.3f32)
        );
        assert!(matches!(convert(&dec("6.3"), T::Int), Ok(Value::Int(6))));
        assert!(matches!(
            convert(&Value::Int(300), T::Tinyint),
            Ok(Value::Tinyint(44))
        ));
        assert!(matches!(
            convert(&Value::Double(1e20), T::Int),
            Ok(Value::Int(i32::MAX))
        ));
        assert!(matches!(
            convert(&Value::Double(1e20), T::Tinyint),
            Ok(Value::Tinyint(-1))
        ));
        assert!(matches!(
            convert(&Value::Double(f64::NAN), T::Bigint),
            Ok(Value::Bigint(0))
        ));
        assert!(matches!(
            convert(&Value::varint(BigInt::from(u64::MAX) + 2u32), T::Bigint),
            Ok(Value::Bigint(1))
        ));
        // python3: (-150000000000000000000) & (2**64 - 1), as a signed long.
        assert!(
            matches!(convert(&dec("-1.5E+20"), T::Varint), Ok(Value::Varint(v)) if *v == BigInt::from(-2_426_047_410_323_587_072i64))
        );
        assert!(matches!(convert(&Value::Counter(2), T::Double), Ok(Value::Double(v)) if v == 2.0));
        assert!(convert(&Value::Double(f64::INFINITY), T::Decimal).is_err());
    }
}
