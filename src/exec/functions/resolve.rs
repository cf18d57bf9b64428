//! Which native function a call means: the overloads ("candidates") registered under a
//! name, and Cassandra's `FunctionResolver` choosing among them by how well each argument
//! fits each parameter — an exact match wins at once, otherwise exactly one weakly
//! assignable overload must remain — with its error messages.
//!
//! Names are looked up in lower case (unquoted identifiers are case-insensitive), both
//! the 5.0 snake_case names and the legacy camelCase ones (lower-cased: `totimestamp`).
//! Overloads are listed in Cassandra's registration order, which the "known type
//! signatures" of its messages follow.

use num_bigint::BigInt;

use crate::error::Error;
use crate::syntax::ast::{ArithmeticOp, Literal, NativeType};
use crate::types::coerce::{from_string, literal_assignable};
use crate::types::{DataType, Value};

use super::arith::{result_type, MathFn, NUMERIC};
use super::decimal;
use super::{ArgKind, CallArg};

/// What a resolved call computes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// `uuid()`
    Uuid,
    /// `now()`, `current_timeuuid()`
    Now,
    /// `current_timestamp()`
    CurrentTimestamp,
    /// `current_date()`
    CurrentDate,
    /// `current_time()`
    CurrentTime,
    /// `to_timestamp(x)`
    ToTimestamp,
    /// `to_date(x)`
    ToDate,
    /// `to_unix_timestamp(x)`
    ToUnixTimestamp,
    /// `min_timeuuid(t)`
    MinTimeuuid,
    /// `max_timeuuid(t)`
    MaxTimeuuid,
    /// `<type>_as_blob(x)`
    AsBlob,
    /// `blob_as_<type>(b)`
    BlobAs,
    /// `abs`, `exp`, `log`, `log10`, `round`
    Math(MathFn),
    /// `a op b` on numbers, `temporal ± duration`, or `+` on strings
    Operation(ArithmeticOp),
    /// `-a`
    Negate,
    /// `CAST(a AS type)` to another type
    Cast,
    /// `CAST(a AS type)` to the type `a` already has: `a` itself
    Identity,
}

/// One overload: what it computes, its full name (`system.to_timestamp`), its parameter
/// types and its return type.
#[derive(Debug, Clone)]
pub(super) struct Signature {
    pub(super) kind: Kind,
    pub(super) name: String,
    pub(super) args: Vec<NativeType>,
    pub(super) ret: NativeType,
}

impl Signature {
    fn new(kind: Kind, name: &str, args: &[NativeType], ret: NativeType) -> Signature {
        Signature {
            kind,
            name: format!("system.{name}"),
            args: args.to_vec(),
            ret,
        }
    }
}

/// `AbstractFunction.toString`: `system.to_timestamp : (timeuuid) -> timestamp`.
impl std::fmt::Display for Signature {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let args: Vec<&str> = self.args.iter().map(|t| t.name()).collect();
        write!(
            f,
            "{} : ({}) -> {}",
            self.name,
            args.join(", "),
            self.ret.name()
        )
    }
}

/// The native type names as function names use them (`varchar` is its own name for the
/// blob conversions, typed as `text`).
fn type_named(name: &str) -> Option<NativeType> {
    match NativeType::from_name(name)? {
        NativeType::Varchar => Some(NativeType::Text),
        t => Some(t),
    }
}

/// The overloads registered under `name` (lower case, without `system.`), or `None` when
/// Cassandra 5.0 has no such native scalar function.
pub(super) fn candidates(name: &str) -> Option<Vec<Signature>> {
    use NativeType as T;
    let one = |kind, args: &[NativeType], ret| Some(vec![Signature::new(kind, name, args, ret)]);
    let each = |kind, inputs: &[NativeType], ret: Option<NativeType>| {
        Some(
            inputs
                .iter()
                .map(|t| Signature::new(kind, name, &[*t], ret.unwrap_or(*t)))
                .collect::<Vec<_>>(),
        )
    };
    match name {
        "uuid" => one(Kind::Uuid, &[], T::Uuid),
        "now" | "current_timeuuid" | "currenttimeuuid" => one(Kind::Now, &[], T::Timeuuid),
        "current_timestamp" | "currenttimestamp" => one(Kind::CurrentTimestamp, &[], T::Timestamp),
        "current_date" | "currentdate" => one(Kind::CurrentDate, &[], T::Date),
        "current_time" | "currenttime" => one(Kind::CurrentTime, &[], T::Time),
        "to_timestamp" | "totimestamp" => each(
            Kind::ToTimestamp,
            &[T::Timeuuid, T::Date],
            Some(T::Timestamp),
        ),
        "to_date" | "todate" => each(Kind::ToDate, &[T::Timeuuid, T::Timestamp], Some(T::Date)),
        "to_unix_timestamp" | "tounixtimestamp" => each(
            Kind::ToUnixTimestamp,
            &[T::Timeuuid, T::Timestamp, T::Date],
            Some(T::Bigint),
        ),
        "min_timeuuid" | "mintimeuuid" => one(Kind::MinTimeuuid, &[T::Timestamp], T::Timeuuid),
        "max_timeuuid" | "maxtimeuuid" => one(Kind::MaxTimeuuid, &[T::Timestamp], T::Timeuuid),
        _ => {
            if let Some(f) = MathFn::from_name(name) {
                // MathFcts' order: tinyint, smallint, int, float, bigint, double, varint,
                // decimal, counter.
                let order = [
                    T::Tinyint,
                    T::Smallint,
                    T::Int,
                    T::Float,
                    T::Bigint,
                    T::Double,
                    T::Varint,
                    T::Decimal,
                    T::Counter,
                ];
                return each(Kind::Math(f), &order, None);
            }
            let cast_to = name
                .strip_prefix("cast_as_")
                .or_else(|| name.strip_prefix("castas"));
            if let Some(to) = cast_to {
                return cast_candidates(name, to);
            }
            let blob_type = |t: &str| type_named(t).filter(|t| *t != T::Blob);
            let to_blob = name
                .strip_suffix("_as_blob")
                .or_else(|| name.strip_suffix("asblob"));
            if let Some(t) = to_blob.and_then(blob_type) {
                return one(Kind::AsBlob, &[t], T::Blob);
            }
            let from_blob = name
                .strip_prefix("blob_as_")
                .or_else(|| name.strip_prefix("blobas"));
            if let Some(t) = from_blob.and_then(blob_type) {
                return one(Kind::BlobAs, &[T::Blob], t);
            }
            None
        }
    }
}

/// The casts to the type named `to` (`cast_as_int`), in `CastFcts`' registration order;
/// `None` when Cassandra has none (`cast_as_boolean`, and `cast_as_varchar`: its casts
/// to text are all named `cast_as_text`).
fn cast_candidates(name: &str, to: &str) -> Option<Vec<Signature>> {
    use NativeType as T;
    let to = NativeType::from_name(to)?;
    let mut pairs: Vec<(NativeType, NativeType)> = Vec::new();
    let numeric_targets = [
        T::Tinyint,
        T::Smallint,
        T::Int,
        T::Bigint,
        T::Float,
        T::Double,
        T::Decimal,
        T::Varint,
        T::Ascii,
        T::Text,
    ];
    // CastFcts lists counter before varint among the inputs.
    let inputs = [
        T::Tinyint,
        T::Smallint,
        T::Int,
        T::Bigint,
        T::Float,
        T::Double,
        T::Decimal,
        T::Counter,
        T::Varint,
    ];
    for from in inputs {
        for target in numeric_targets {
            if from != target {
                pairs.push((from, target));
            }
        }
    }
    pairs.push((T::Ascii, T::Text));
    for (from, targets) in [
        (T::Inet, &[T::Ascii, T::Text][..]),
        (T::Boolean, &[T::Ascii, T::Text]),
        (T::Timeuuid, &[T::Date, T::Timestamp, T::Ascii, T::Text]),
        (T::Timestamp, &[T::Date, T::Ascii, T::Text]),
        (T::Date, &[T::Timestamp, T::Ascii, T::Text]),
        (T::Time, &[T::Ascii, T::Text]),
        (T::Uuid, &[T::Ascii, T::Text]),
    ] {
        pairs.extend(targets.iter().map(|t| (from, *t)));
    }
    let out: Vec<Signature> = pairs
        .into_iter()
        .filter(|(_, target)| *target == to)
        .map(|(from, target)| Signature::new(Kind::Cast, name, &[from], target))
        .collect();
    (!out.is_empty()).then_some(out)
}

/// Every overload of an operator: numbers with numbers (result per
/// [`result_type`]), then `timestamp`/`date` ± `duration`, then `+` on text and ascii.
pub(super) fn operation_candidates(op: ArithmeticOp) -> Vec<Signature> {
    use NativeType as T;
    let name = op.function_name();
    let kind = Kind::Operation(op);
    let mut out = Vec::new();
    for left in NUMERIC {
        for right in NUMERIC {
            if let Some(ret) = result_type(left, right) {
                out.push(Signature::new(kind, name, &[left, right], ret));
            }
        }
    }
    if matches!(op, ArithmeticOp::Add | ArithmeticOp::Sub) {
        for t in [T::Timestamp, T::Date] {
            out.push(Signature::new(kind, name, &[t, T::Duration], t));
        }
    }
    if op == ArithmeticOp::Add {
        for (l, r, ret) in [
            (T::Text, T::Text, T::Text),
            (T::Ascii, T::Ascii, T::Ascii),
            (T::Ascii, T::Text, T::Text),
            (T::Text, T::Ascii, T::Text),
        ] {
            out.push(Signature::new(kind, name, &[l, r], ret));
        }
    }
    out
}

/// The negation overloads, one per numeric type.
pub(super) fn negation_candidates() -> Vec<Signature> {
    NUMERIC
        .iter()
        .map(|t| Signature::new(Kind::Negate, "_negate", &[*t], *t))
        .collect()
}

/// How well an argument fits a parameter (`AssignmentTestable.TestResult`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Fit {
    No,
    Weak,
    Exact,
}

/// Whether a value of type `arg` may be passed where `receiver` is expected without
/// being of that type (`AbstractType.isValueCompatibleWith`): any type as a blob, ascii
/// as text, timestamp and bigint as each other, int as date, the integers and timestamp
/// as varint, timeuuid as uuid.
fn value_compatible(receiver: NativeType, arg: &DataType) -> bool {
    use NativeType as T;
    if receiver == T::Blob {
        return true;
    }
    let DataType::Native(t) = arg else {
        return false;
    };
    match receiver {
        T::Text => *t == T::Ascii,
        T::Bigint => *t == T::Timestamp,
        T::Timestamp => *t == T::Bigint,
        T::Date => *t == T::Int,
        T::Varint => matches!(t, T::Int | T::Bigint | T::Timestamp),
        T::Uuid => *t == T::Timeuuid,
        _ => false,
    }
}

fn type_fit(receiver: NativeType, arg: &DataType) -> Fit {
    if *arg == DataType::Native(receiver) {
        Fit::Exact
    } else if value_compatible(receiver, arg) {
        Fit::Weak
    } else {
        Fit::No
    }
}

/// The type a constant prefers (`Constants.Type.getPreferedTypeFor`): text for strings,
/// the smallest of int, bigint and varint for integers, double for a float whose text
/// is exactly a double's (`1.5`, not `1.50` or `1e3`) and decimal otherwise; the 1-byte
/// type for hex (the quirk that makes hex assignable to tinyint).
fn preferred(literal: &Literal) -> Option<NativeType> {
    use NativeType as T;
    Some(match literal {
        Literal::String(_) => T::Text,
        Literal::Integer(text) => match text.parse::<BigInt>() {
            Ok(v) if i32::try_from(&v).is_ok() => T::Int,
            Ok(v) if i64::try_from(&v).is_ok() => T::Bigint,
            _ => T::Varint,
        },
        Literal::Float(text) => {
            if matches!(text.as_str(), "NaN" | "-NaN" | "Infinity" | "-Infinity") {
                return Some(T::Double);
            }
            match from_string(&DataType::Native(T::Decimal), text) {
                Ok(Value::Decimal(d)) => {
                    let double = decimal::to_f64(&d);
                    if double.is_finite() && decimal::from_java_double(double) == *d {
                        T::Double
                    } else {
                        T::Decimal
                    }
                }
                _ => T::Double,
            }
        }
        Literal::Boolean(_) => T::Boolean,
        Literal::Duration(_) => T::Duration,
        Literal::Uuid(_) => T::Uuid,
        Literal::Hex(_) => T::Tinyint,
        Literal::Null => return None,
    })
}

fn arg_fit(arg: &CallArg<'_>, param: NativeType) -> Fit {
    match arg.kind {
        ArgKind::Marker => Fit::Weak,
        ArgKind::Typed(t) => type_fit(param, t),
        ArgKind::Literal(l) => {
            if !literal_assignable(l, &DataType::Native(param)) {
                Fit::No
            } else if preferred(l) == Some(param) {
                Fit::Exact
            } else {
                Fit::Weak
            }
        }
    }
}

fn args_fit(signature: &Signature, args: &[CallArg<'_>]) -> Fit {
    if signature.args.len() != args.len() {
        return Fit::No;
    }
    args.iter()
        .zip(&signature.args)
        .map(|(a, p)| arg_fit(a, *p))
        .min()
        .unwrap_or(Fit::Exact)
}

/// What is being resolved, for the messages that differ.
#[derive(Debug, Clone, Copy)]
pub(super) enum Site<'a> {
    /// A named function, as called (`totimestamp`, `system.now`).
    Function(&'a str),
    /// An operator.
    Operation(ArithmeticOp),
    /// Unary minus.
    Negation,
}

/// `FunctionResolver.get` over `candidates` (never empty).
pub(super) fn pick(
    site: Site<'_>,
    candidates: Vec<Signature>,
    args: &[CallArg<'_>],
    receiver: Option<&DataType>,
) -> Result<Signature, Error> {
    if let [only] = candidates.as_slice() {
        validate(only, args)?;
        return Ok(only.clone());
    }
    let mut compatibles = Vec::new();
    for candidate in &candidates {
        let returns = match receiver {
            None => Fit::Exact,
            Some(DataType::Native(r)) => type_fit(*r, &DataType::Native(candidate.ret)),
            Some(_) => Fit::No,
        };
        if returns == Fit::No {
            continue;
        }
        match args_fit(candidate, args) {
            Fit::Exact => return Ok(candidate.clone()),
            Fit::Weak => compatibles.push(candidate),
            Fit::No => {}
        }
    }
    let texts = || {
        (
            args.first().map_or("", |a| a.text),
            args.get(1).map_or("", |a| a.text),
        )
    };
    match (compatibles.len(), site) {
        (1, _) => Ok(compatibles[0].clone()),
        (0, Site::Operation(op)) => {
            let (l, r) = texts();
            Err(Error::invalid(format!(
                "the '{}' operation is not supported between {l} and {r}",
                op.symbol()
            )))
        }
        (0, _) => Err(Error::invalid(format!(
            "Invalid call to function {}, none of its type signatures match (known type \
             signatures: {})",
            called_name(site, &candidates),
            list(candidates.iter())
        ))),
        (_, Site::Operation(op)) => {
            let has_marker = args.iter().any(|a| matches!(a.kind, ArgKind::Marker));
            if let (Some(DataType::Native(r)), false) = (receiver, has_marker) {
                if let Some(fun) = compatibles.iter().find(|f| f.args.iter().all(|a| a == r)) {
                    return Ok((*fun).clone());
                }
            }
            let (l, r) = texts();
            Err(Error::invalid(format!(
                "Ambiguous '{}' operation with args {l} and {r}: use type hint to \
                 disambiguate, example '(int) ?'",
                op.symbol()
            )))
        }
        (_, Site::Negation) => Err(Error::invalid(
            "Ambiguous negation: use type casts to disambiguate",
        )),
        (_, Site::Function(_)) => Err(Error::invalid(format!(
            "Ambiguous call to function {} (can be matched by following signatures: {}): use \
             type casts to disambiguate",
            called_name(site, &candidates),
            list(compatibles.into_iter())
        ))),
    }
}

fn called_name(site: Site<'_>, candidates: &[Signature]) -> String {
    match site {
        Site::Function(name) => name.to_lowercase(),
        _ => candidates
            .first()
            .map_or_else(String::new, |c| c.name.clone()),
    }
}

fn list<'s>(signatures: impl Iterator<Item = &'s Signature>) -> String {
    signatures
        .map(Signature::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// `FunctionResolver.validateTypes`, for a name with a single overload.
fn validate(fun: &Signature, args: &[CallArg<'_>]) -> Result<(), Error> {
    if args.len() != fun.args.len() {
        return Err(Error::invalid(format!(
            "Invalid number of arguments in call to function {}: {} required but {} provided",
            fun.name,
            fun.args.len(),
            args.len()
        )));
    }
    for (i, (arg, param)) in args.iter().zip(&fun.args).enumerate() {
        if arg_fit(arg, *param) == Fit::No {
            return Err(Error::invalid(format!(
                "Type error: {} cannot be passed as argument {i} of function {} of type {}",
                arg.text,
                fun.name,
                param.name()
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use NativeType as T;

    fn typed(ty: &DataType) -> CallArg<'_> {
        CallArg::typed(ty, "x")
    }

    fn resolve(name: &str, args: &[CallArg<'_>]) -> Result<Signature, Error> {
        pick(
            Site::Function(name),
            candidates(name).expect("known"),
            args,
            None,
        )
    }

    #[test]
    fn snake_and_legacy_names() {
        for (new, old) in [
            ("current_timeuuid", "currenttimeuuid"),
            ("current_timestamp", "currenttimestamp"),
            ("current_date", "currentdate"),
            ("current_time", "currenttime"),
            ("to_timestamp", "totimestamp"),
            ("to_date", "todate"),
            ("to_unix_timestamp", "tounixtimestamp"),
            ("min_timeuuid", "mintimeuuid"),
            ("max_timeuuid", "maxtimeuuid"),
            ("int_as_blob", "intasblob"),
            ("blob_as_bigint", "blobasbigint"),
            ("varchar_as_blob", "varcharasblob"),
        ] {
            let a = candidates(new).expect(new);
            let b = candidates(old).expect(old);
            assert_eq!(a[0].kind, b[0].kind, "{new}");
            assert_eq!(a[0].name, format!("system.{new}"));
        }
        assert!(candidates("dateof").is_none());
        assert!(candidates("unixtimestampof").is_none());
        assert!(candidates("blob_as_blob").is_none());
        assert!(candidates("blobasblob").is_none());
        assert!(candidates("nosuch").is_none());
        assert_eq!(candidates("blobasvarchar").unwrap()[0].ret, T::Text);
    }

    #[test]
    fn literals_pick_the_overload_they_fit() {
        let date_string = Literal::String("2020-01-01".into());
        let s = resolve(
            "to_timestamp",
            &[CallArg::literal(&date_string, "'2020-01-01'")],
        )
        .expect("resolves");
        assert_eq!(s.args, vec![T::Date]);
        let s =
            resolve("todate", &[CallArg::literal(&date_string, "'2020-01-01'")]).expect("resolves");
        assert_eq!(s.args, vec![T::Timestamp]);
        let err = resolve(
            "to_unix_timestamp",
            &[CallArg::literal(&date_string, "'2020-01-01'")],
        )
        .unwrap_err();
        assert_eq!(
            err.message(),
            "Ambiguous call to function to_unix_timestamp (can be matched by following \
             signatures: system.to_unix_timestamp : (timestamp) -> bigint, \
             system.to_unix_timestamp : (date) -> bigint): use type casts to disambiguate"
        );
        let three = Literal::Integer("3".into());
        let s = resolve("abs", &[CallArg::literal(&three, "3")]).expect("resolves");
        assert_eq!(s.args, vec![T::Int]);
        let big = Literal::Integer("30000000000".into());
        assert_eq!(
            resolve("abs", &[CallArg::literal(&big, "30000000000")])
                .unwrap()
                .args,
            vec![T::Bigint]
        );
        let half = Literal::Float("1.5".into());
        assert_eq!(
            resolve("abs", &[CallArg::literal(&half, "1.5")])
                .unwrap()
                .args,
            vec![T::Double]
        );
        let precise = Literal::Float("1.50".into());
        assert_eq!(
            resolve("abs", &[CallArg::literal(&precise, "1.50")])
                .unwrap()
                .args,
            vec![T::Decimal]
        );
    }

    #[test]
    fn typed_arguments_and_value_compatibility() {
        let timestamp = DataType::Native(T::Timestamp);
        let bigint = DataType::Native(T::Bigint);
        let text = DataType::Native(T::Text);
        let s = resolve("to_date", &[typed(&timestamp)]).expect("resolves");
        assert_eq!((s.args[0], s.ret), (T::Timestamp, T::Date));
        // A bigint is value-compatible with a timestamp (mintimeuuid(writetime(c))).
        assert!(resolve("min_timeuuid", &[typed(&bigint)]).is_ok());
        // Anything passes as a blob.
        assert!(resolve("blob_as_int", &[typed(&text)]).is_ok());
        let err = resolve("min_timeuuid", &[CallArg::typed(&text, "name")]).unwrap_err();
        assert_eq!(
            err.message(),
            "Type error: name cannot be passed as argument 0 of function system.min_timeuuid \
             of type timestamp"
        );
        let err = resolve("totimestamp", &[typed(&text)]).unwrap_err();
        assert_eq!(
            err.message(),
            "Invalid call to function totimestamp, none of its type signatures match (known \
             type signatures: system.totimestamp : (timeuuid) -> timestamp, \
             system.totimestamp : (date) -> timestamp)"
        );
        let err = resolve("uuid", &[typed(&text)]).unwrap_err();
        assert_eq!(
            err.message(),
            "Invalid number of arguments in call to function system.uuid: 0 required but 1 \
             provided"
        );
    }

    #[test]
    fn operations_choose_by_operand_types() {
        let tinyint = DataType::Native(T::Tinyint);
        let boolean = DataType::Native(T::Boolean);
        let one = Literal::Integer("1".into());
        let go = |args: &[CallArg<'_>], receiver| {
            pick(
                Site::Operation(ArithmeticOp::Add),
                operation_candidates(ArithmeticOp::Add),
                args,
                receiver,
            )
        };
        // `a + 1` with a tinyint a: the literal prefers int, so the result is int.
        let s = go(&[typed(&tinyint), CallArg::literal(&one, "1")], None).unwrap();
        assert_eq!((s.args.clone(), s.ret), (vec![T::Tinyint, T::Int], T::Int));
        let err = go(
            &[CallArg::typed(&boolean, "b"), CallArg::literal(&one, "1")],
            None,
        )
        .unwrap_err();
        assert_eq!(
            err.message(),
            "the '+' operation is not supported between b and 1"
        );
        let err = go(&[CallArg::marker("?"), CallArg::literal(&one, "1")], None).unwrap_err();
        assert_eq!(
            err.message(),
            "Ambiguous '+' operation with args ? and 1: use type hint to disambiguate, \
             example '(int) ?'"
        );
        // `WHERE c1 = 1 + 1` with a tinyint c1: only overloads returning something a
        // tinyint accepts remain, so the sum is a tinyint.
        let s = go(
            &[CallArg::literal(&one, "1"), CallArg::literal(&one, "1")],
            Some(&tinyint),
        )
        .unwrap();
        assert_eq!(s.ret, T::Tinyint);
        let text = DataType::Native(T::Text);
        let ascii = DataType::Native(T::Ascii);
        let s = go(&[typed(&ascii), typed(&text)], None).unwrap();
        assert_eq!(s.ret, T::Text);
        let duration = Literal::Duration("10m".into());
        let timestamp = DataType::Native(T::Timestamp);
        let s = go(
            &[typed(&timestamp), CallArg::literal(&duration, "10m")],
            None,
        )
        .unwrap();
        assert_eq!(s.ret, T::Timestamp);
    }

    #[test]
    fn the_cast_table() {
        let inputs = |to: &str| -> Vec<T> {
            candidates(&format!("cast_as_{to}"))
                .map_or_else(Vec::new, |c| c.iter().map(|s| s.args[0]).collect())
        };
        assert_eq!(
            inputs("int"),
            vec![
                T::Tinyint,
                T::Smallint,
                T::Bigint,
                T::Float,
                T::Double,
                T::Decimal,
                T::Counter,
                T::Varint
            ]
        );
        assert!(inputs("text").contains(&T::Ascii));
        assert!(inputs("text").contains(&T::Uuid));
        assert!(!inputs("ascii").contains(&T::Text));
        assert_eq!(inputs("date"), vec![T::Timeuuid, T::Timestamp]);
        assert_eq!(inputs("timestamp"), vec![T::Timeuuid, T::Date]);
        assert!(inputs("boolean").is_empty());
        assert!(inputs("counter").is_empty());
        assert!(inputs("varchar").is_empty());
        assert_eq!(candidates("castasint").unwrap().len(), 8);
    }

    #[test]
    fn negation_overloads() {
        let boolean = DataType::Native(T::Boolean);
        let err = pick(
            Site::Negation,
            negation_candidates(),
            &[CallArg::typed(&boolean, "b")],
            None,
        )
        .unwrap_err();
        assert!(err
            .message()
            .starts_with("Invalid call to function system._negate, none of its type signatures match (known type signatures: system._negate : (tinyint) -> tinyint, "));
        let int = DataType::Native(T::Int);
        assert_eq!(
            pick(Site::Negation, negation_candidates(), &[typed(&int)], None)
                .unwrap()
                .ret,
            T::Int
        );
    }
}
