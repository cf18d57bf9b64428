//! Aggregate functions (language.md §4.4) as accumulators, computing what Cassandra 5.0's
//! `AggregateFcts` computes:
//!
//! * `count(*)` / `count(1)` counts rows, `count(col)` the non-null values (an empty
//!   value counts): both `bigint`, 0 on no input.
//! * `min`/`max` keep the smallest/largest value by the type's order (§3.3; empty
//!   values sort first), null on no input. Durations compare by their bytes, as
//!   Cassandra's byte-ordered `DurationType` does.
//! * `sum` is in the input's type: tinyint, smallint, int and bigint/counter wrap on
//!   overflow like Java's arithmetic; float and double sum in double with Kahan
//!   compensation (then narrowed for float); varint and decimal exactly.
//! * `avg` is in the input's type: the integer types sum in a 64-bit long that switches
//!   to a big integer on overflow, then divide truncating (`avg(1, 2)` over int is 1);
//!   float/double as the sum, switching to `BigDecimal` on overflow; varint truncates;
//!   decimal is a running mean, each step rounded half-even at the running scale
//!   (`avg = avg + (x - avg) / n`), so `avg(1, 2)` over decimal is `1`.
//! * With no input, `sum` and `avg` are 0 of their type.
//!
//! Null values are skipped by all but `count(*)`; so are empty values by `sum`/`avg`.
//!
//! Resolution follows Cassandra too: `count`, `min` and `max` exist for every native type
//! and `sum`/`avg` for the nine numeric ones, chosen like any overloaded function. A
//! collection, tuple or UDT passed to `min`/`max` gets Cassandra 5.0's overload for its
//! own type (`AggregateFcts.makeMinFunction`/`makeMaxFunction` over any type): the result
//! is a value of that type, compared by the type's order.

use num_bigint::BigInt;
use num_traits::{ToPrimitive, Zero};

use crate::error::Error;
use crate::syntax::ast::NativeType;
use crate::types::{DataType, Decimal, Value};

use super::functions::decimal::{self, Rounding};
use super::functions::{adapt, pick_overload, ArgKind, CallArg};

/// The aggregate functions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AggregateFunction {
    /// `count(*)`, or `count(<literal>)`: rows.
    CountRows,
    /// `count(col)`: non-null values.
    Count,
    /// `min(col)`
    Min,
    /// `max(col)`
    Max,
    /// `sum(col)`
    Sum,
    /// `avg(col)`
    Avg,
}

#[allow(dead_code)] // the executor's API (see the module documentation)
impl AggregateFunction {
    /// The aggregate called `name` (case-insensitive, `system.` allowed); `None` for a
    /// name that is not an aggregate, which the executor then resolves as a scalar
    /// function. `count(*)` is [`AggregateFunction::CountRows`], never looked up by name.
    pub(crate) fn from_name(name: &str) -> Option<AggregateFunction> {
        let lower = name.to_lowercase();
        Some(match lower.strip_prefix("system.").unwrap_or(&lower) {
            "count" => AggregateFunction::Count,
            "min" => AggregateFunction::Min,
            "max" => AggregateFunction::Max,
            "sum" => AggregateFunction::Sum,
            "avg" => AggregateFunction::Avg,
            _ => return None,
        })
    }

    /// The function's name in headers and messages.
    pub(crate) fn name(self) -> &'static str {
        match self {
            AggregateFunction::CountRows | AggregateFunction::Count => "count",
            AggregateFunction::Min => "min",
            AggregateFunction::Max => "max",
            AggregateFunction::Sum => "sum",
            AggregateFunction::Avg => "avg",
        }
    }

    /// Resolves a call written as `called` (`MAX`, `system.sum`) with `args` to one
    /// overload, at prepare time. Errors are Cassandra's: `Invalid call to function sum,
    /// none of its type signatures match (known type signatures: system.sum : (tinyint)
    /// -> tinyint, …)`, or an ambiguity for an untyped argument.
    pub(crate) fn resolve(self, called: &str, args: &[CallArg<'_>]) -> Result<Aggregate, Error> {
        if self == AggregateFunction::CountRows {
            return Ok(Aggregate::count_rows());
        }
        if let Some(extreme) = self.composite_extreme(args) {
            return Ok(extreme);
        }
        let overloads = self.overloads();
        let index = pick_overload(
            &called.to_lowercase(),
            &format!("system.{}", self.name()),
            &overloads,
            args,
        )?;
        let (arg, ret) = overloads[index];
        Ok(Aggregate {
            function: self,
            arg_type: Some(DataType::Native(arg)),
            return_type: DataType::Native(ret),
        })
    }

    /// `min`/`max` of one collection, tuple or UDT argument: an overload of its
    /// own type, whose result is the value frozen (a collection's result type is
    /// written without `frozen`, as the node's result metadata writes it).
    fn composite_extreme(self, args: &[CallArg<'_>]) -> Option<Aggregate> {
        if !matches!(self, AggregateFunction::Min | AggregateFunction::Max) {
            return None;
        }
        let [CallArg {
            kind: ArgKind::Typed(ty),
            ..
        }] = args
        else {
            return None;
        };
        let ty = match (*ty).clone().frozen() {
            DataType::List { element, .. } => DataType::List {
                element,
                frozen: false,
            },
            DataType::Set { element, .. } => DataType::Set {
                element,
                frozen: false,
            },
            DataType::Map { key, value, .. } => DataType::Map {
                key,
                value,
                frozen: false,
            },
            ty @ (DataType::Tuple(_) | DataType::Udt { .. }) => ty,
            _ => return None,
        };
        Some(Aggregate {
            function: self,
            arg_type: Some(ty.clone()),
            return_type: ty,
        })
    }

    /// `(parameter, return)` of each overload, in Cassandra's registration order.
    fn overloads(self) -> Vec<(NativeType, NativeType)> {
        use NativeType as T;
        let numeric = [
            T::Tinyint,
            T::Smallint,
            T::Int,
            T::Bigint,
            T::Float,
            T::Double,
            T::Decimal,
            T::Varint,
            T::Counter,
        ];
        let natives = NativeType::ALL.into_iter().filter(|t| *t != T::Varchar);
        match self {
            AggregateFunction::Sum | AggregateFunction::Avg => {
                numeric.iter().map(|t| (*t, *t)).collect()
            }
            AggregateFunction::Count | AggregateFunction::CountRows => {
                natives.map(|t| (t, T::Bigint)).collect()
            }
            AggregateFunction::Min | AggregateFunction::Max => natives.map(|t| (t, t)).collect(),
        }
    }
}

/// An aggregate call resolved to one overload: its argument and result types, and a
/// factory of accumulators (one per group).
#[derive(Debug, Clone)]
pub(crate) struct Aggregate {
    function: AggregateFunction,
    arg_type: Option<DataType>,
    return_type: DataType,
}

#[allow(dead_code)] // the executor's API (see the module documentation)
impl Aggregate {
    /// `count(*)` (and `count(1)`): a bigint count of rows.
    pub(crate) fn count_rows() -> Aggregate {
        Aggregate {
            function: AggregateFunction::CountRows,
            arg_type: None,
            return_type: DataType::Native(NativeType::Bigint),
        }
    }

    /// Which aggregate.
    pub(crate) fn function(&self) -> AggregateFunction {
        self.function
    }

    /// The parameter type a literal argument is coerced to; `None` for `count(*)`.
    pub(crate) fn arg_type(&self) -> Option<&DataType> {
        self.arg_type.as_ref()
    }

    /// The result's type.
    pub(crate) fn return_type(&self) -> &DataType {
        &self.return_type
    }

    /// The result column's header (language.md §2.9): `count` for `count(*)`, else
    /// `system.<fn>(<argument header>)`, e.g. `system.max(score)`.
    pub(crate) fn column_name(&self, arg: &str) -> String {
        match self.function {
            AggregateFunction::CountRows => "count".to_string(),
            f => format!("system.{}({arg})", f.name()),
        }
    }

    /// A fresh accumulator for one group.
    pub(crate) fn accumulator(&self) -> Accumulator {
        use NativeType as T;
        let ty = match &self.return_type {
            DataType::Native(t) => *t,
            _ => T::Blob,
        };
        let state = match self.function {
            AggregateFunction::CountRows => State::CountRows(0),
            AggregateFunction::Count => State::Count(0),
            AggregateFunction::Min => State::Extreme {
                best: None,
                max: false,
            },
            AggregateFunction::Max => State::Extreme {
                best: None,
                max: true,
            },
            AggregateFunction::Sum => match ty {
                T::Float | T::Double => State::FloatSum(Kahan::default()),
                T::Decimal => State::DecimalSum(Decimal {
                    unscaled: BigInt::zero(),
                    scale: 0,
                }),
                T::Varint => State::VarintSum(BigInt::zero()),
                _ => State::IntSum(0),
            },
            AggregateFunction::Avg => match ty {
                T::Float | T::Double => State::FloatAvg {
                    kahan: Kahan::default(),
                    count: 0,
                    big: None,
                },
                T::Decimal => State::DecimalAvg {
                    avg: Decimal {
                        unscaled: BigInt::zero(),
                        scale: 0,
                    },
                    count: 0,
                },
                T::Varint => State::VarintAvg {
                    sum: BigInt::zero(),
                    count: 0,
                },
                _ => State::IntAvg {
                    sum: 0,
                    count: 0,
                    big: None,
                },
            },
        };
        Accumulator {
            state,
            arg_type: self.arg_type.clone(),
            ty,
        }
    }
}

/// Kahan-compensated double sum, with the plain sum kept to recover an infinity that
/// compensation turned into NaN (`FloatSumAggregate`).
#[derive(Debug, Clone, Default)]
struct Kahan {
    sum: f64,
    compensation: f64,
    simple: f64,
}

impl Kahan {
    fn add(&mut self, d: f64) {
        self.simple += d;
        let tmp = d - self.compensation;
        let rounded = self.sum + tmp;
        self.compensation = (rounded - self.sum) - tmp;
        self.sum = rounded;
    }

    fn total(&self) -> f64 {
        let tmp = self.sum + self.compensation;
        if tmp.is_nan() && self.simple.is_infinite() {
            self.simple
        } else {
            tmp
        }
    }
}

#[derive(Debug, Clone)]
enum State {
    CountRows(i64),
    Count(i64),
    Extreme {
        best: Option<Value>,
        max: bool,
    },
    /// Fixed-width integer sums, wrapped to the type at each step.
    IntSum(i64),
    FloatSum(Kahan),
    DecimalSum(Decimal),
    VarintSum(BigInt),
    IntAvg {
        sum: i64,
        count: i64,
        big: Option<BigInt>,
    },
    FloatAvg {
        kahan: Kahan,
        count: i64,
        big: Option<Decimal>,
    },
    DecimalAvg {
        avg: Decimal,
        count: i64,
    },
    VarintAvg {
        sum: BigInt,
        count: i64,
    },
}

/// One group's running aggregate: feed it with [`Accumulator::add`] (once per row, with
/// the argument's value; anything for `count(*)`), read it with
/// [`Accumulator::finish`].
#[derive(Debug, Clone)]
pub(crate) struct Accumulator {
    state: State,
    arg_type: Option<DataType>,
    ty: NativeType,
}

/// A numeric value as Java's `Number.longValue()` / `doubleValue()` see it.
fn long_of(value: &Value) -> Option<i64> {
    Some(match value {
        Value::Tinyint(v) => i64::from(*v),
        Value::Smallint(v) => i64::from(*v),
        Value::Int(v) => i64::from(*v),
        Value::Bigint(v) | Value::Counter(v) => *v,
        _ => return None,
    })
}

fn double_of(value: &Value) -> Option<f64> {
    match value {
        Value::Float(v) => Some(f64::from(*v)),
        Value::Double(v) => Some(*v),
        _ => long_of(value).map(|v| v as f64),
    }
}

/// Wraps a 64-bit sum to the width of `ty`, as Java's `byte`/`short`/`int` sums do.
fn wrap(ty: NativeType, v: i64) -> Value {
    match ty {
        NativeType::Tinyint => Value::Tinyint(v as i8),
        NativeType::Smallint => Value::Smallint(v as i16),
        NativeType::Int => Value::Int(v as i32),
        NativeType::Counter => Value::Counter(v),
        _ => Value::Bigint(v),
    }
}

#[allow(dead_code)] // the executor's API (see the module documentation)
impl Accumulator {
    /// Adds one row's argument value. Fails only when a decimal sum or mean leaves
    /// `BigDecimal`'s scale range (Java's `Overflow`/`Underflow`).
    pub(crate) fn add(&mut self, value: &Value) -> Result<(), Error> {
        if let State::CountRows(n) = &mut self.state {
            *n += 1;
            return Ok(());
        }
        if value.is_null() {
            return Ok(());
        }
        let value = match &self.arg_type {
            Some(ty) => adapt(value, ty),
            None => value.clone(),
        };
        let overflow = Error::invalid;
        match &mut self.state {
            State::CountRows(_) => {}
            State::Count(n) => *n += 1,
            State::Extreme { best, max } => {
                let replace = match best.as_ref() {
                    None => true,
                    Some(current) => {
                        let ordering = compare(current, &value);
                        if *max {
                            ordering.is_lt()
                        } else {
                            ordering.is_gt()
                        }
                    }
                };
                if replace {
                    *best = Some(value);
                }
            }
            State::IntSum(sum) => {
                if let Some(v) = long_of(&value) {
                    // Java sums in the type's own width; wrapping the i64 at each
                    // step and truncating at the end gives the same bits.
                    *sum = sum.wrapping_add(v);
                }
            }
            State::FloatSum(kahan) => {
                if let Some(d) = double_of(&value) {
                    kahan.add(d);
                }
            }
            State::DecimalSum(sum) => {
                if let Value::Decimal(d) = &value {
                    *sum = decimal::add(sum, d).map_err(overflow)?;
                }
            }
            State::VarintSum(sum) => {
                if let Value::Varint(v) = &value {
                    *sum += &**v;
                }
            }
            State::IntAvg { sum, count, big } => {
                if let Some(l) = long_of(&value) {
                    *count += 1;
                    match big {
                        Some(b) => *b += l,
                        None => match sum.checked_add(l) {
                            Some(s) => *sum = s,
                            None => *big = Some(BigInt::from(*sum) + l),
                        },
                    }
                }
            }
            State::FloatAvg { kahan, count, big } => {
                let Some(d) = double_of(&value) else {
                    return Ok(());
                };
                *count += 1;
                match big {
                    // BigDecimal.valueOf refuses infinities and NaN; Cassandra would
                    // fail there, widerow leaves the exact sum as it is.
                    Some(b) if d.is_finite() => {
                        *b = decimal::add(b, &decimal::from_java_double(d)).map_err(overflow)?;
                    }
                    Some(_) => {}
                    None => {
                        let previous = kahan.sum;
                        kahan.add(d);
                        if kahan.sum.is_infinite() && !d.is_infinite() {
                            *big = Some(
                                decimal::add(
                                    &decimal::from_java_double(previous),
                                    &decimal::from_java_double(d),
                                )
                                .map_err(overflow)?,
                            );
                        }
                    }
                }
            }
            State::DecimalAvg { avg, count } => {
                if let Value::Decimal(d) = &value {
                    *count += 1;
                    let n = Decimal {
                        unscaled: BigInt::from(*count),
                        scale: 0,
                    };
                    // avg = avg + (value - avg) / count, at (value - avg)'s scale.
                    let diff = decimal::subtract(d, avg).map_err(overflow)?;
                    let scale = i64::from(diff.scale);
                    let step = decimal::divide_to_scale(&diff, &n, scale, Rounding::HalfEven)
                        .map_err(overflow)?;
                    *avg = decimal::add(avg, &step).map_err(overflow)?;
                }
            }
            State::VarintAvg { sum, count } => {
                if let Value::Varint(v) = &value {
                    *sum += &**v;
                    *count += 1;
                }
            }
        }
        Ok(())
    }

    /// The aggregate of everything added so far.
    pub(crate) fn finish(&self) -> Value {
        match &self.state {
            State::CountRows(n) | State::Count(n) => Value::Bigint(*n),
            State::Extreme { best, .. } => best.clone().unwrap_or(Value::Null),
            State::IntSum(sum) => wrap(self.ty, *sum),
            State::FloatSum(kahan) => self.float(kahan.total()),
            State::DecimalSum(sum) => Value::Decimal(Box::new(sum.clone())),
            State::VarintSum(sum) => Value::varint(sum.clone()),
            State::IntAvg { sum, count, big } => {
                let avg = match (big, *count) {
                    (Some(b), n) => {
                        let q = b / BigInt::from(n);
                        let low = &q & BigInt::from(u64::MAX);
                        low.to_u64().unwrap_or(0) as i64
                    }
                    (None, 0) => 0,
                    (None, n) => sum / n,
                };
                wrap(self.ty, avg)
            }
            State::FloatAvg { kahan, count, big } => {
                let avg = match (big, *count) {
                    (_, 0) => 0.0,
                    (Some(b), n) => {
                        let n = Decimal {
                            unscaled: BigInt::from(n),
                            scale: 0,
                        };
                        decimal::divide_to_scale(b, &n, i64::from(b.scale), Rounding::HalfEven)
                            .map_or(f64::NAN, |q| decimal::to_f64(&q))
                    }
                    (None, n) => kahan.total() / n as f64,
                };
                self.float(avg)
            }
            State::DecimalAvg { avg, .. } => Value::Decimal(Box::new(avg.clone())),
            State::VarintAvg { sum, count } => {
                if *count == 0 {
                    Value::varint(0)
                } else {
                    Value::varint(sum / BigInt::from(*count))
                }
            }
        }
    }

    fn float(&self, v: f64) -> Value {
        if self.ty == NativeType::Float {
            Value::Float(v as f32)
        } else {
            Value::Double(v)
        }
    }
}

/// The comparator of `min`/`max`: the type's order, except durations, which Cassandra
/// orders by their serialized bytes.
fn compare(a: &Value, b: &Value) -> std::cmp::Ordering {
    match (a, b) {
        (Value::Duration(_), Value::Duration(_)) => a
            .serialize()
            .unwrap_or_default()
            .cmp(&b.serialize().unwrap_or_default()),
        _ => a.cmp(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::ast::Literal;
    use NativeType as T;

    fn resolve(f: AggregateFunction, ty: NativeType) -> Aggregate {
        let ty = DataType::Native(ty);
        f.resolve(f.name(), &[CallArg::typed(&ty, "v")])
            .expect("resolves")
    }

    fn run(f: AggregateFunction, ty: NativeType, values: &[Value]) -> Value {
        let mut acc = resolve(f, ty).accumulator();
        for v in values {
            acc.add(v).expect("adds");
        }
        acc.finish()
    }

    fn dec(text: &str) -> Value {
        crate::types::coerce::from_string(&DataType::Native(T::Decimal), text)
            .ok()
            .expect("decimal")
    }

    fn dec_text(v: &Value) -> String {
        match v {
            Value::Decimal(d) => decimal::to_text(d),
            other => panic!("{other:?}"),
        }
    }

    use AggregateFunction::*;

    #[test]
    fn names_and_headers() {
        assert_eq!(AggregateFunction::from_name("MAX"), Some(Max));
        assert_eq!(AggregateFunction::from_name("system.count"), Some(Count));
        assert_eq!(AggregateFunction::from_name("now"), None);
        assert_eq!(Aggregate::count_rows().column_name("*"), "count");
        assert_eq!(
            resolve(Max, T::Int).column_name("score"),
            "system.max(score)"
        );
        assert_eq!(
            resolve(Count, T::Text).column_name("name"),
            "system.count(name)"
        );
    }

    #[test]
    fn result_types() {
        assert_eq!(
            resolve(Count, T::Text).return_type(),
            &DataType::Native(T::Bigint)
        );
        assert_eq!(
            resolve(Max, T::Timeuuid).return_type(),
            &DataType::Native(T::Timeuuid)
        );
        assert_eq!(
            resolve(Sum, T::Smallint).return_type(),
            &DataType::Native(T::Smallint)
        );
        assert_eq!(
            resolve(Avg, T::Counter).return_type(),
            &DataType::Native(T::Counter)
        );
        // A frozen list gets a max of its own type, written without `frozen`.
        let list = DataType::List {
            element: Box::new(DataType::Native(T::Int)),
            frozen: true,
        };
        let max = Max.resolve("max", &[CallArg::typed(&list, "l")]).unwrap();
        assert_eq!(max.return_type().to_string(), "list<int>");
    }

    #[test]
    fn sum_and_avg_refuse_non_numbers() {
        let text = DataType::Native(T::Text);
        let err = Sum
            .resolve("SUM", &[CallArg::typed(&text, "name")])
            .unwrap_err();
        assert_eq!(
            err.message(),
            "Invalid call to function sum, none of its type signatures match (known type \
             signatures: system.sum : (tinyint) -> tinyint, system.sum : (smallint) -> \
             smallint, system.sum : (int) -> int, system.sum : (bigint) -> bigint, \
             system.sum : (float) -> float, system.sum : (double) -> double, system.sum : \
             (decimal) -> decimal, system.sum : (varint) -> varint, system.sum : (counter) \
             -> counter)"
        );
        // An integer literal prefers int.
        let one = Literal::Integer("1".into());
        let sum = Sum.resolve("sum", &[CallArg::literal(&one, "1")]).unwrap();
        assert_eq!(sum.arg_type(), Some(&DataType::Native(T::Int)));
    }

    #[test]
    fn empty_input() {
        assert!(matches!(run(Count, T::Int, &[]), Value::Bigint(0)));
        let mut rows = Aggregate::count_rows().accumulator();
        assert!(matches!(rows.finish(), Value::Bigint(0)));
        rows.add(&Value::Null).expect("adds");
        rows.add(&Value::Null).expect("adds");
        assert!(matches!(rows.finish(), Value::Bigint(2)));
        assert!(run(Min, T::Int, &[]).is_null());
        assert!(run(Max, T::Text, &[Value::Null]).is_null());
        assert!(matches!(run(Sum, T::Int, &[]), Value::Int(0)));
        assert!(matches!(run(Avg, T::Tinyint, &[]), Value::Tinyint(0)));
        assert!(matches!(run(Sum, T::Float, &[]), Value::Float(v) if v == 0.0));
        assert!(matches!(run(Avg, T::Double, &[]), Value::Double(v) if v == 0.0));
        assert_eq!(dec_text(&run(Sum, T::Decimal, &[])), "0");
        assert_eq!(dec_text(&run(Avg, T::Decimal, &[])), "0");
        assert!(matches!(run(Avg, T::Varint, &[]), Value::Varint(v) if v.is_zero()));
        assert!(matches!(run(Sum, T::Counter, &[]), Value::Counter(0)));
    }

    #[test]
    fn count_min_max() {
        let values = [Value::Int(3), Value::Null, Value::Int(-1), Value::Int(7)];
        assert!(matches!(run(Count, T::Int, &values), Value::Bigint(3)));
        assert!(matches!(run(Min, T::Int, &values), Value::Int(-1)));
        assert!(matches!(run(Max, T::Int, &values), Value::Int(7)));
        // Text by bytes: 'B' < 'a'.
        let words = [Value::Text("a".into()), Value::Text("B".into())];
        assert!(matches!(run(Min, T::Text, &words), Value::Text(s) if s == "B"));
        // An empty value counts and sorts first.
        assert!(matches!(
            run(Count, T::Int, &[Value::Empty]),
            Value::Bigint(1)
        ));
        assert!(matches!(
            run(Min, T::Int, &[Value::Int(1), Value::Empty]),
            Value::Empty
        ));
        // Doubles: NaN is the largest.
        let doubles = [
            Value::Double(1.0),
            Value::Double(f64::NAN),
            Value::Double(-0.0),
        ];
        assert!(matches!(run(Max, T::Double, &doubles), Value::Double(v) if v.is_nan()));
        assert!(
            matches!(run(Min, T::Double, &doubles), Value::Double(v) if v == 0.0 && v.is_sign_negative())
        );
        // Timeuuids by time, then signed bytes.
        let early = Value::Timeuuid(crate::types::timeuuid::max_timeuuid(1));
        let late = Value::Timeuuid(crate::types::timeuuid::min_timeuuid(2));
        assert_eq!(run(Max, T::Timeuuid, &[late.clone(), early.clone()]), late);
        assert_eq!(run(Min, T::Timeuuid, &[late, early.clone()]), early);
        assert!(matches!(
            run(Max, T::Counter, &[Value::Counter(5), Value::Counter(9)]),
            Value::Counter(9)
        ));
    }

    #[test]
    fn integer_sums_wrap_and_averages_truncate() {
        let big = [Value::Int(i32::MAX), Value::Int(1)];
        assert!(matches!(run(Sum, T::Int, &big), Value::Int(i32::MIN)));
        // avg is computed in a long: no overflow.
        assert!(matches!(run(Avg, T::Int, &big), Value::Int(1_073_741_824)));
        assert!(matches!(
            run(Avg, T::Int, &[Value::Int(1), Value::Int(2)]),
            Value::Int(1)
        ));
        assert!(matches!(
            run(Avg, T::Int, &[Value::Int(-1), Value::Int(-2)]),
            Value::Int(-1)
        ));
        let bytes = [Value::Tinyint(100), Value::Tinyint(100)];
        assert!(matches!(run(Sum, T::Tinyint, &bytes), Value::Tinyint(-56)));
        assert!(matches!(run(Avg, T::Tinyint, &bytes), Value::Tinyint(100)));
        let longs = [Value::Bigint(i64::MAX), Value::Bigint(i64::MAX)];
        assert!(matches!(run(Sum, T::Bigint, &longs), Value::Bigint(-2)));
        // The long sum overflows into a BigInteger: the average is exact.
        assert!(matches!(
            run(Avg, T::Bigint, &longs),
            Value::Bigint(i64::MAX)
        ));
        let counters = [Value::Counter(2), Value::Counter(3)];
        assert!(matches!(run(Sum, T::Counter, &counters), Value::Counter(5)));
        assert!(matches!(run(Avg, T::Counter, &counters), Value::Counter(2)));
        // Empty values are skipped.
        assert!(matches!(
            run(Avg, T::Int, &[Value::Int(4), Value::Empty]),
            Value::Int(4)
        ));
    }

    #[test]
    fn floating_point() {
        let tenths = vec![Value::Double(0.1); 10];
        // Kahan summation gives exactly 1.0, where a plain loop gives 0.9999999999999999.
        assert!(matches!(run(Sum, T::Double, &tenths), Value::Double(v) if v == 1.0));
        assert!(matches!(run(Avg, T::Double, &tenths), Value::Double(v) if v == 0.1));
        let floats = [Value::Float(1.5), Value::Float(2.25)];
        assert!(matches!(run(Sum, T::Float, &floats), Value::Float(v) if v == 3.75));
        assert!(matches!(run(Avg, T::Float, &floats), Value::Float(v) if v == 1.875));
        let inf = [Value::Double(f64::INFINITY), Value::Double(f64::INFINITY)];
        assert!(matches!(run(Sum, T::Double, &inf), Value::Double(v) if v == f64::INFINITY));
        // Overflowing doubles: the average switches to BigDecimal.
        let huge = [Value::Double(f64::MAX), Value::Double(f64::MAX)];
        assert!(matches!(run(Avg, T::Double, &huge), Value::Double(v) if v == f64::MAX));
        assert!(matches!(run(Sum, T::Double, &huge), Value::Double(v) if v == f64::INFINITY));
    }

    #[test]
    fn exact_types() {
        let decimals = [dec("1.5"), dec("2.25"), Value::Null];
        assert_eq!(dec_text(&run(Sum, T::Decimal, &decimals)), "3.75");
        // Running mean rounded half-even at the running scale: (1 + 2) / 2 is 1.
        assert_eq!(dec_text(&run(Avg, T::Decimal, &[dec("1"), dec("2")])), "1");
        assert_eq!(
            dec_text(&run(Avg, T::Decimal, &[dec("1.0"), dec("2.0")])),
            "1.5"
        );
        assert_eq!(dec_text(&run(Avg, T::Decimal, &decimals)), "1.88");
        let varints = [Value::varint(7), Value::varint(-2), Value::varint(1)];
        assert!(matches!(run(Sum, T::Varint, &varints), Value::Varint(v) if *v == BigInt::from(6)));
        assert!(matches!(run(Avg, T::Varint, &varints), Value::Varint(v) if *v == BigInt::from(2)));
    }

    #[test]
    fn durations_compare_by_bytes() {
        let d = |months, days, nanos| {
            Value::Duration(crate::types::CqlDuration {
                months,
                days,
                nanos,
            })
        };
        // Zig-zag vint bytes: 1 month is 02 00 00, -1 month 01 00 00, 64 days
        // 00 80 80 00 — so 64 days is the smallest, where (months, days, nanos) order
        // would pick -1 month.
        let values = [d(1, 0, 0), d(0, 64, 0), d(-1, 0, 0)];
        assert_eq!(run(Max, T::Duration, &values), d(1, 0, 0));
        assert_eq!(run(Min, T::Duration, &values), d(0, 64, 0));
    }
}
