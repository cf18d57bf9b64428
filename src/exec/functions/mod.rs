//! Native scalar functions, `CAST` and selector arithmetic, as Cassandra 5.0 defines them
//! (language.md §4.1, §4.2, §4.5), for the executor to call in two steps:
//!
//! 1. **Resolve** at prepare time, from the argument *types*:
//!    [`resolve_function`], [`resolve_operation`], [`resolve_negation`],
//!    [`resolve_cast`]. Each picks the overload Cassandra's `FunctionResolver` would
//!    pick (or fails with its message) and returns a [`ResolvedCall`] that knows its
//!    parameter and return types. Literal arguments are described as literals
//!    ([`ArgKind::Literal`]) so that, as in Cassandra, `min_timeuuid('2013-01-01')`
//!    reads the string as a timestamp; the executor then coerces each literal to
//!    [`ResolvedCall::arg_types`] with [`crate::types::coerce()`].
//! 2. **Evaluate** per row with [`ResolvedCall::evaluate`] on values. Inputs that are
//!    not a function of the arguments — the clock and random UUIDs — come from a
//!    [`FunctionContext`] the session supplies, so a statement sees one clock and
//!    tests are reproducible.
//!
//! Not handled here: `token(…)` (the executor hashes the partition key), the
//! aggregates (`super::aggregate`), `writetime`/`ttl` (cell metadata), and the
//! functions outside the subset (`floor`, collection functions, `to_json`, masking,
//! vector similarity), which are reported as unknown.
//!
//! Null arguments give null for every function here, as Cassandra's do; so does an
//! empty value for the numeric and temporal ones.
//!
//! Files: `resolve.rs` (overloads and resolution), `time.rs`, `blob.rs`, `cast.rs`,
//! `arith.rs` (operators and math functions), `decimal.rs` (Java `BigDecimal`
//! arithmetic, shared with the aggregates).

mod arith;
mod blob;
mod cast;
pub(crate) mod decimal;
mod resolve;
mod time;

#[cfg(feature = "server")]
pub(crate) use blob::decode as decode_native;
pub(crate) use resolve::Kind;

use crate::error::{Error, ErrorKind};
use crate::syntax::ast::{ArithmeticOp, Literal, NativeType};
use crate::types::{timeuuid, DataType, Value};

use resolve::{Signature, Site};

/// The statement-wide inputs of the non-deterministic functions. One context serves a
/// whole statement: every `now()` in it asks `next_timeuuid` for a new (distinct) value,
/// while `current_timestamp()` and friends all read the same `now_micros`.
pub(crate) struct FunctionContext<'a> {
    /// The coordinator's clock, microseconds since the Unix epoch.
    pub now_micros: i64,
    /// A new version-1 UUID for each `now()` / `current_timeuuid()` call, distinct from
    /// every earlier one (see [`timeuuid::Generator`]).
    pub next_timeuuid: &'a mut dyn FnMut() -> [u8; 16],
    /// Sixteen random bytes for each `uuid()` call; the version and variant bits are
    /// set here ([`timeuuid::random_v4`]).
    pub next_uuid: &'a mut dyn FnMut() -> [u8; 16],
}

/// What the resolver knows about one argument of a call.
#[derive(Debug, Clone, Copy)]
pub(crate) enum ArgKind<'a> {
    /// A selector or term whose type is known: a column, a function result, a cast, a
    /// type-hinted literal.
    Typed(&'a DataType),
    /// An untyped constant (`'2013-01-01'`, `3`, `1.5`, `NULL`), which fits every
    /// parameter type Cassandra's literal rules allow and prefers one of them.
    Literal(&'a Literal),
    /// A bind marker (`?`, `:name`), which fits anything.
    Marker,
}

/// One argument of a call: what it is and how Cassandra prints it in messages (the
/// column name, the literal as written with its quotes, `?`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct CallArg<'a> {
    /// The argument.
    pub kind: ArgKind<'a>,
    /// Its text in error messages.
    pub text: &'a str,
}

#[allow(dead_code)] // the executor's entry point (see the module documentation)
impl<'a> CallArg<'a> {
    /// An argument of a known type.
    pub(crate) fn typed(ty: &'a DataType, text: &'a str) -> CallArg<'a> {
        CallArg {
            kind: ArgKind::Typed(ty),
            text,
        }
    }

    /// A constant.
    pub(crate) fn literal(literal: &'a Literal, text: &'a str) -> CallArg<'a> {
        CallArg {
            kind: ArgKind::Literal(literal),
            text,
        }
    }

    /// A bind marker.
    pub(crate) fn marker(text: &'a str) -> CallArg<'a> {
        CallArg {
            kind: ArgKind::Marker,
            text,
        }
    }
}

/// A call resolved to one overload: what it computes, with which parameter types, and
/// what it returns. Cheap to clone; evaluate it once per row.
#[derive(Debug, Clone)]
pub(crate) struct ResolvedCall {
    kind: Kind,
    name: String,
    arg_types: Vec<DataType>,
    return_type: DataType,
}

/// `Unknown function '<name>'` for a selector, `Unknown function <name> called` in a
/// term (language.md §4.2), with the name as Cassandra prints it (lower case unless it
/// was quoted). Also the answer for the functions 5.0 removed (`dateOf`,
/// `unixTimestampOf`).
#[allow(dead_code)] // the executor's entry point (see the module documentation)
pub(crate) fn unknown_function(name: &str, in_selector: bool) -> Error {
    if in_selector {
        Error::invalid(format!("Unknown function '{name}'"))
    } else {
        Error::invalid(format!("Unknown function {name} called"))
    }
}

/// Resolves a call of the native function `name` (as written: `toTimestamp`,
/// `system.now`; looked up case-insensitively) with `args`. `receiver` is the type the
/// result is assigned to when known (a column in `WHERE c = f(…)` or `INSERT`), which
/// Cassandra uses to choose among overloads. Fails with Cassandra's messages: unknown
/// function (selector form, see [`unknown_function`]), wrong argument count, a type
/// error, no or several matching overloads.
#[allow(dead_code)] // the executor's entry point (see the module documentation)
pub(crate) fn resolve_function(
    name: &str,
    args: &[CallArg<'_>],
    receiver: Option<&DataType>,
) -> Result<ResolvedCall, Error> {
    let lower = name.to_lowercase();
    let bare = lower.strip_prefix("system.").unwrap_or(&lower);
    if matches!(
        bare,
        "token" | "count" | "min" | "max" | "sum" | "avg" | "writetime" | "maxwritetime" | "ttl"
    ) {
        return Err(Error::new(
            ErrorKind::ServerError,
            format!("{bare}() is not a scalar function; the executor resolves it"),
        ));
    }
    let candidates = resolve::candidates(bare).ok_or_else(|| unknown_function(&lower, true))?;
    let signature = resolve::pick(Site::Function(&lower), candidates, args, receiver)?;
    if let (Kind::Math(f), [arg]) = (signature.kind, signature.args.as_slice()) {
        if !f.supports(*arg) {
            return Err(Error::invalid(format!(
                "{}({}) is not supported by widerow: Cassandra computes it with \
                 arbitrary-precision arithmetic",
                f.name(),
                arg.name()
            )));
        }
    }
    Ok(ResolvedCall::from(signature))
}

/// Resolves `left op right` (Cassandra 5.0 operators on selectors and terms): numbers
/// of any two numeric types (the result in the wider type, see `arith::result_type`),
/// `timestamp`/`date` ± `duration`, and `+` on text/ascii. Errors: `the '+' operation is
/// not supported between a and b`, `Ambiguous '+' operation with args ? and 1: …`.
#[allow(dead_code)] // the executor's entry point (see the module documentation)
pub(crate) fn resolve_operation(
    op: ArithmeticOp,
    left: CallArg<'_>,
    right: CallArg<'_>,
    receiver: Option<&DataType>,
) -> Result<ResolvedCall, Error> {
    let candidates = resolve::operation_candidates(op);
    let signature = resolve::pick(Site::Operation(op), candidates, &[left, right], receiver)?;
    Ok(ResolvedCall::from(signature))
}

/// Resolves unary minus on a non-literal (`-a`, `-(a + b)`): numbers only, in their
/// own type.
#[allow(dead_code)] // the executor's entry point (see the module documentation)
pub(crate) fn resolve_negation(
    arg: CallArg<'_>,
    receiver: Option<&DataType>,
) -> Result<ResolvedCall, Error> {
    let signature = resolve::pick(
        Site::Negation,
        resolve::negation_candidates(),
        &[arg],
        receiver,
    )?;
    Ok(ResolvedCall::from(signature))
}

/// Resolves `CAST(arg AS target)` (language.md §4.5). A cast to the argument's own type
/// is the argument itself (its header stays the argument's). Otherwise the call goes
/// through Cassandra's `cast_as_<target>` overloads; when there are none the error is
/// `<column> cannot be cast to <target>`, where `arg.text` should be the name of the
/// first column the argument reads, as in Cassandra (`a cannot be cast to boolean`).
#[allow(dead_code)] // the executor's entry point (see the module documentation)
pub(crate) fn resolve_cast(arg: CallArg<'_>, target: NativeType) -> Result<ResolvedCall, Error> {
    let target_type = match target {
        NativeType::Varchar => NativeType::Text,
        t => t,
    };
    if let ArgKind::Typed(ty) = arg.kind {
        if *ty == DataType::Native(target_type) {
            return Ok(ResolvedCall {
                kind: Kind::Identity,
                name: String::new(),
                arg_types: vec![ty.clone()],
                return_type: ty.clone(),
            });
        }
    }
    let function = format!("cast_as_{}", target.name());
    let Some(candidates) = resolve::candidates(&function) else {
        return Err(Error::invalid(format!(
            "{} cannot be cast to {}",
            arg.text,
            target.name()
        )));
    };
    let called = format!("system.{function}");
    let signature = resolve::pick(Site::Function(&called), candidates, &[arg], None)?;
    Ok(ResolvedCall::from(signature))
}

/// Chooses among one-argument overloads `(parameter, return)` registered under
/// `full_name` (`system.sum`), as Cassandra's resolver does for a call written as
/// `called`: for the aggregates, whose overloads live in `super::aggregate`. Returns the
/// chosen overload's index.
pub(crate) fn pick_overload(
    called: &str,
    full_name: &str,
    overloads: &[(NativeType, NativeType)],
    args: &[CallArg<'_>],
) -> Result<usize, Error> {
    let bare = full_name.strip_prefix("system.").unwrap_or(full_name);
    let candidates: Vec<Signature> = overloads
        .iter()
        .map(|(arg, ret)| Signature {
            kind: Kind::Identity,
            name: format!("system.{bare}"),
            args: vec![*arg],
            ret: *ret,
        })
        .collect();
    let chosen = resolve::pick(Site::Function(called), candidates, args, None)?;
    Ok(overloads
        .iter()
        .position(|(arg, _)| chosen.args.first() == Some(arg))
        .unwrap_or(0))
}

impl From<Signature> for ResolvedCall {
    fn from(s: Signature) -> ResolvedCall {
        ResolvedCall {
            kind: s.kind,
            name: s.name,
            arg_types: s.args.into_iter().map(DataType::Native).collect(),
            return_type: DataType::Native(s.ret),
        }
    }
}

/// The native type a value holds, when it is a native value.
fn native_of(value: &Value) -> Option<NativeType> {
    use NativeType as T;
    Some(match value {
        Value::Ascii(_) => T::Ascii,
        Value::Text(_) => T::Text,
        Value::Tinyint(_) => T::Tinyint,
        Value::Smallint(_) => T::Smallint,
        Value::Int(_) => T::Int,
        Value::Bigint(_) => T::Bigint,
        Value::Counter(_) => T::Counter,
        Value::Varint(_) => T::Varint,
        Value::Decimal(_) => T::Decimal,
        Value::Float(_) => T::Float,
        Value::Double(_) => T::Double,
        Value::Boolean(_) => T::Boolean,
        Value::Blob(_) => T::Blob,
        Value::Uuid(_) => T::Uuid,
        Value::Timeuuid(_) => T::Timeuuid,
        Value::Timestamp(_) => T::Timestamp,
        Value::Date(_) => T::Date,
        Value::Time(_) => T::Time,
        Value::Duration(_) => T::Duration,
        Value::Inet(_) => T::Inet,
        _ => return None,
    })
}

/// A value passed where a value-compatible type is expected (a bigint for a timestamp,
/// anything for a blob): Cassandra hands the same bytes over, so the value is re-read
/// from its bytes as the parameter type. Values already of that type are unchanged.
pub(crate) fn adapt(value: &Value, param: &DataType) -> Value {
    let DataType::Native(param) = param else {
        return value.clone();
    };
    match native_of(value) {
        None => match value {
            Value::Null | Value::Empty => value.clone(),
            composite if *param == NativeType::Blob => {
                composite.serialize().map_or(Value::Null, Value::Blob)
            }
            other => other.clone(),
        },
        Some(t) if t == *param => value.clone(),
        Some(_) => match value.serialize() {
            Ok(bytes) if *param == NativeType::Blob => Value::Blob(bytes),
            Ok(bytes) => blob::decode(*param, &bytes).unwrap_or(Value::Null),
            Err(_) => Value::Null,
        },
    }
}

#[allow(dead_code)] // the executor's entry point (see the module documentation)
impl ResolvedCall {
    /// What the call computes.
    pub(crate) fn kind(&self) -> Kind {
        self.kind
    }

    /// The function's full name, `system.to_timestamp` (legacy names stay legacy:
    /// `system.totimestamp`); empty for a no-op cast.
    pub(crate) fn name(&self) -> &str {
        &self.name
    }

    /// The parameter types of the chosen overload; literal arguments are to be coerced
    /// to these.
    pub(crate) fn arg_types(&self) -> &[DataType] {
        &self.arg_types
    }

    /// The type of the result (the column type of the selector).
    pub(crate) fn return_type(&self) -> &DataType {
        &self.return_type
    }

    /// Whether the result depends only on the arguments (false for `now()`, `uuid()`
    /// and the `current_*` functions), so that a call on constants may be computed
    /// once at prepare time.
    pub(crate) fn is_pure(&self) -> bool {
        !matches!(
            self.kind,
            Kind::Uuid | Kind::Now | Kind::CurrentTimestamp | Kind::CurrentDate | Kind::CurrentTime
        )
    }

    /// The result column's header given the arguments' headers, as Cassandra names it:
    /// `system.to_timestamp(t)`, `a + b`, `-a`, `cast(a as int)`, and for a no-op cast
    /// the argument's own header.
    pub(crate) fn column_name(&self, args: &[&str]) -> String {
        let arg = |i: usize| args.get(i).copied().unwrap_or("");
        match self.kind {
            Kind::Operation(op) => format!("{} {} {}", arg(0), op.symbol(), arg(1)),
            Kind::Negate => format!("-{}", arg(0)),
            Kind::Identity => arg(0).to_string(),
            Kind::Cast => format!("cast({} as {})", arg(0), self.return_type),
            _ => format!("{}({})", self.name, args.join(", ")),
        }
    }

    /// The result for one row's argument values (of [`Self::arg_types`], or of types
    /// Cassandra lets pass for them). Errors are Cassandra's: an invalid blob for
    /// `blob_as_*`, `the operation 'int / int' failed: / by zero`, a failed cast. Cassandra
    /// raises the last two as `FunctionFailure`; widerow has no such kind and uses
    /// `InvalidRequest`.
    pub(crate) fn evaluate(
        &self,
        args: &[Value],
        ctx: &mut FunctionContext<'_>,
    ) -> Result<Value, Error> {
        if args.iter().any(Value::is_null) {
            return Ok(Value::Null);
        }
        let args: Vec<Value> = args
            .iter()
            .zip(&self.arg_types)
            .map(|(v, t)| adapt(v, t))
            .collect();
        let first = args.first().unwrap_or(&Value::Null);
        let native = |t: &DataType| match t {
            DataType::Native(n) => *n,
            _ => NativeType::Blob,
        };
        let ret = native(&self.return_type);
        Ok(match self.kind {
            Kind::Uuid => Value::Uuid(timeuuid::random_v4((ctx.next_uuid)())),
            Kind::Now => Value::Timeuuid((ctx.next_timeuuid)()),
            Kind::CurrentTimestamp => time::current_timestamp(ctx.now_micros),
            Kind::CurrentDate => time::current_date(ctx.now_micros),
            Kind::CurrentTime => time::current_time(ctx.now_micros),
            Kind::ToTimestamp => time::to_timestamp(first),
            Kind::ToDate => time::to_date(first),
            Kind::ToUnixTimestamp => time::to_unix_timestamp(first),
            Kind::MinTimeuuid => time::extreme_timeuuid(first, false),
            Kind::MaxTimeuuid => time::extreme_timeuuid(first, true),
            Kind::AsBlob => blob::as_blob(first)?,
            Kind::BlobAs => blob::blob_as(&self.name, ret, first)?,
            Kind::Math(f) => arith::math(f, first),
            Kind::Negate => arith::negate(first),
            Kind::Identity => first.clone(),
            Kind::Cast => {
                let from = self.arg_types.first().map_or(NativeType::Blob, native);
                cast::cast(first, from, ret).map_err(|cause| {
                    Error::invalid(format!(
                        "execution of '{}[{}]' failed: {cause}",
                        self.name,
                        from.name()
                    ))
                })?
            }
            Kind::Operation(op) => self.operate(op, ret, &args)?,
        })
    }

    fn operate(&self, op: ArithmeticOp, ret: NativeType, args: &[Value]) -> Result<Value, Error> {
        let null = Value::Null;
        let (left, right) = (args.first().unwrap_or(&null), args.get(1).unwrap_or(&null));
        let types: Vec<&str> = self
            .arg_types
            .iter()
            .map(|t| match t {
                DataType::Native(n) => n.name(),
                _ => "?",
            })
            .collect();
        let result = match (right, ret) {
            (Value::Duration(d), _) => time::add_duration(left, d, op == ArithmeticOp::Sub),
            (_, NativeType::Text | NativeType::Ascii) => Ok(arith::concat(ret, left, right)),
            _ => arith::operate(op, ret, left, right),
        };
        result.map_err(|cause| {
            Error::invalid(format!(
                "the operation '{} {} {}' failed: {cause}",
                types.first().unwrap_or(&"?"),
                op.symbol(),
                types.get(1).unwrap_or(&"?")
            ))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::serialize::parse_timestamp;
    use NativeType as T;

    /// Runs `f` with a context at `now_micros` whose UUID sources count up.
    fn with_context<R>(now_micros: i64, f: impl FnOnce(&mut FunctionContext<'_>) -> R) -> R {
        let mut generator = timeuuid::Generator::new(1, 2);
        let mut next_timeuuid = move || generator.next(now_micros);
        let mut counter = 0u8;
        let mut next_uuid = move || {
            counter += 1;
            [counter; 16]
        };
        let mut ctx = FunctionContext {
            now_micros,
            next_timeuuid: &mut next_timeuuid,
            next_uuid: &mut next_uuid,
        };
        f(&mut ctx)
    }

    fn eval(call: &ResolvedCall, args: &[Value]) -> Result<Value, Error> {
        with_context(0, |ctx| call.evaluate(args, ctx))
    }

    fn ts(text: &str) -> i64 {
        parse_timestamp(text, || 0).expect("valid timestamp")
    }

    #[test]
    fn names_are_case_insensitive_and_legacy_names_work() {
        let tu = DataType::Native(T::Timeuuid);
        for name in [
            "toTimestamp",
            "TO_TIMESTAMP",
            "to_timestamp",
            "system.totimestamp",
        ] {
            let call = resolve_function(name, &[CallArg::typed(&tu, "id")], None).expect(name);
            assert_eq!(call.return_type(), &DataType::Native(T::Timestamp));
        }
        let call = resolve_function("toTimestamp", &[CallArg::typed(&tu, "id")], None).unwrap();
        assert_eq!(call.name(), "system.totimestamp");
        assert_eq!(call.column_name(&["id"]), "system.totimestamp(id)");
        for name in ["now", "current_timeuuid", "currentTimeUUID"] {
            let call = resolve_function(name, &[], None).expect(name);
            assert_eq!(call.return_type(), &DataType::Native(T::Timeuuid));
            assert!(!call.is_pure());
        }
    }

    #[test]
    fn removed_and_unknown_functions() {
        for name in ["dateOf", "unixTimestampOf", "nosuch"] {
            let err = resolve_function(name, &[], None).unwrap_err();
            assert_eq!(
                err.message(),
                format!("Unknown function '{}'", name.to_lowercase())
            );
        }
        assert_eq!(
            unknown_function("dateof", false).message(),
            "Unknown function dateof called"
        );
        let err = resolve_function("token", &[], None).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::ServerError);
    }

    #[test]
    fn now_is_distinct_per_call_and_uuid_is_v4() {
        let now = resolve_function("now", &[], None).unwrap();
        let uuid = resolve_function("uuid", &[], None).unwrap();
        let at = ts("2025-06-01 08:00:00+0000") * 1000;
        let (a, b, u1, u2) = with_context(at, |ctx| {
            (
                now.evaluate(&[], ctx).unwrap(),
                now.evaluate(&[], ctx).unwrap(),
                uuid.evaluate(&[], ctx).unwrap(),
                uuid.evaluate(&[], ctx).unwrap(),
            )
        });
        assert!(a < b, "later now() sorts after");
        let Value::Timeuuid(a) = a else { panic!() };
        assert_eq!(timeuuid::unix_micros(&a), at);
        let (Value::Uuid(u1), Value::Uuid(u2)) = (u1, u2) else {
            panic!()
        };
        assert_ne!(u1, u2);
        assert_eq!(u1[6] >> 4, 4);
    }

    #[test]
    fn current_functions_read_the_context_clock() {
        let at = ts("2025-06-01 08:00:00.250+0000") * 1000;
        let call = |name: &str| {
            let f = resolve_function(name, &[], None).unwrap();
            with_context(at, |ctx| f.evaluate(&[], ctx)).unwrap()
        };
        assert!(matches!(call("currentTimestamp"), Value::Timestamp(ms) if ms * 1000 == at));
        assert_eq!(
            call("current_date"),
            Value::date_from_days(crate::types::serialize::days_from_civil(2025, 6, 1) as i32)
        );
        assert!(matches!(call("currentTime"), Value::Time(ns) if ns == 28_800_250_000_000));
    }

    #[test]
    fn time_conversions_with_literal_arguments() {
        // min_timeuuid('2013-01-01 00:05+0000'): the string is read as a timestamp.
        let text = Literal::String("2013-01-01 00:05+0000".into());
        let call = resolve_function(
            "minTimeuuid",
            &[CallArg::literal(&text, "'2013-01-01 00:05+0000'")],
            None,
        )
        .unwrap();
        assert_eq!(call.arg_types(), &[DataType::Native(T::Timestamp)]);
        let arg = crate::types::coerce(&text, &call.arg_types()[0], "arg0").unwrap();
        let Value::Timeuuid(u) = eval(&call, &[arg]).unwrap() else {
            panic!()
        };
        assert_eq!(
            crate::types::Value::Timeuuid(u).cqlsh_display(&DataType::Native(T::Timeuuid)),
            "e23f1e00-53a6-11e2-8080-808080808080"
        );
        // A bigint (writetime) passes as a timestamp.
        let bigint = DataType::Native(T::Bigint);
        let call = resolve_function("max_timeuuid", &[CallArg::typed(&bigint, "w")], None).unwrap();
        let Value::Timeuuid(u) = eval(&call, &[Value::Bigint(1_000)]).unwrap() else {
            panic!()
        };
        assert_eq!(timeuuid::unix_millis(&u), 1_000);
        let date = DataType::Native(T::Date);
        let call =
            resolve_function("to_unix_timestamp", &[CallArg::typed(&date, "d")], None).unwrap();
        assert!(matches!(
            eval(&call, &[Value::date_from_days(1)]),
            Ok(Value::Bigint(86_400_000))
        ));
        assert!(eval(&call, &[Value::Null]).unwrap().is_null());
        assert!(eval(&call, &[Value::Empty]).unwrap().is_null());
    }

    #[test]
    fn blob_conversions() {
        let bigint = DataType::Native(T::Bigint);
        let to = resolve_function("bigintAsBlob", &[CallArg::typed(&bigint, "b")], None).unwrap();
        assert_eq!(to.return_type(), &DataType::Native(T::Blob));
        let blob = eval(&to, &[Value::Bigint(3)]).unwrap();
        assert_eq!(
            blob.cqlsh_display(&DataType::Native(T::Blob)),
            "0x0000000000000003"
        );
        let blob_type = DataType::Native(T::Blob);
        let back =
            resolve_function("blob_as_bigint", &[CallArg::typed(&blob_type, "b")], None).unwrap();
        assert!(matches!(eval(&back, &[blob]), Ok(Value::Bigint(3))));
        let legacy =
            resolve_function("blobAsBigint", &[CallArg::typed(&blob_type, "b")], None).unwrap();
        let err = eval(&legacy, &[Value::Blob(vec![0, 0, 0, 0x7b])]).unwrap_err();
        assert_eq!(
            err.message(),
            "In call to function system.blobasbigint, value 0x0000007b is not a valid binary \
             representation for type bigint"
        );
        // blobAsBigint(intAsBlob(i)): an int passes as a blob, then fails validation.
        let int = DataType::Native(T::Int);
        let err = eval(
            &resolve_function("blobasbigint", &[CallArg::typed(&int, "i")], None).unwrap(),
            &[Value::Int(123)],
        )
        .unwrap_err();
        assert!(err.message().contains("0x0000007b"));
        let hex = Literal::Hex("61".into());
        let text = resolve_function("blobAsText", &[CallArg::literal(&hex, "0x61")], None).unwrap();
        assert!(
            matches!(eval(&text, &[Value::Blob(b"a".to_vec())]), Ok(Value::Text(s)) if s == "a")
        );
    }

    #[test]
    fn math_functions_resolve_by_argument_type() {
        let int = DataType::Native(T::Int);
        let abs = resolve_function("abs", &[CallArg::typed(&int, "v")], None).unwrap();
        assert_eq!(abs.return_type(), &int);
        assert!(matches!(eval(&abs, &[Value::Int(-4)]), Ok(Value::Int(4))));
        let decimal = DataType::Native(T::Decimal);
        let round = resolve_function("round", &[CallArg::typed(&decimal, "v")], None).unwrap();
        assert_eq!(round.return_type(), &decimal);
        let err = resolve_function("log", &[CallArg::typed(&decimal, "v")], None).unwrap_err();
        assert!(err
            .message()
            .starts_with("log(decimal) is not supported by widerow"));
    }

    #[test]
    fn operations_end_to_end() {
        let int = DataType::Native(T::Int);
        let tinyint = DataType::Native(T::Tinyint);
        let div = resolve_operation(
            ArithmeticOp::Div,
            CallArg::typed(&int, "c2"),
            CallArg::typed(&int, "c1"),
            None,
        )
        .unwrap();
        assert_eq!(div.column_name(&["c2", "c1"]), "c2 / c1");
        // OperationFctsTest.testFunctionException.
        let err = eval(&div, &[Value::Int(2), Value::Int(0)]).unwrap_err();
        assert_eq!(err.message(), "the operation 'int / int' failed: / by zero");
        assert_eq!(err.kind(), ErrorKind::InvalidRequest);
        let mixed = resolve_operation(
            ArithmeticOp::Div,
            CallArg::typed(&tinyint, "b"),
            CallArg::typed(&tinyint, "a"),
            None,
        )
        .unwrap();
        assert_eq!(
            eval(&mixed, &[Value::Tinyint(2), Value::Tinyint(0)])
                .unwrap_err()
                .message(),
            "the operation 'tinyint / tinyint' failed: / by zero"
        );
        assert!(eval(&div, &[Value::Null, Value::Int(1)]).unwrap().is_null());
        let timestamp = DataType::Native(T::Timestamp);
        let us = Literal::Duration("10us".into());
        let sub = resolve_operation(
            ArithmeticOp::Sub,
            CallArg::typed(&timestamp, "time"),
            CallArg::literal(&us, "10us"),
            None,
        )
        .unwrap();
        let d = crate::types::parse_duration("10us").unwrap();
        assert_eq!(
            eval(&sub, &[Value::Timestamp(0), Value::Duration(d)])
                .unwrap_err()
                .message(),
            "the operation 'timestamp - duration' failed: The duration must have a millisecond \
             precision. Was: 10us"
        );
        let text = DataType::Native(T::Text);
        let concat = resolve_operation(
            ArithmeticOp::Add,
            CallArg::typed(&text, "a"),
            CallArg::typed(&text, "a"),
            None,
        )
        .unwrap();
        assert!(matches!(
            eval(&concat, &[Value::Text("x".into()), Value::Text("y".into())]),
            Ok(Value::Text(s)) if s == "xy"
        ));
        let neg = resolve_negation(CallArg::typed(&int, "c"), None).unwrap();
        assert_eq!(neg.column_name(&["c"]), "-c");
        assert!(matches!(eval(&neg, &[Value::Int(3)]), Ok(Value::Int(-3))));
    }

    #[test]
    fn casts_end_to_end() {
        let int = DataType::Native(T::Int);
        let same = resolve_cast(CallArg::typed(&int, "c"), T::Int).unwrap();
        assert_eq!(same.kind(), Kind::Identity);
        assert_eq!(same.column_name(&["c"]), "c");
        let to_double = resolve_cast(CallArg::typed(&int, "c"), T::Double).unwrap();
        assert_eq!(to_double.column_name(&["c"]), "cast(c as double)");
        let to_text = resolve_cast(CallArg::typed(to_double.return_type(), "x"), T::Varchar);
        // Cassandra's cast functions to text are all named cast_as_text.
        assert_eq!(
            to_text.unwrap_err().message(),
            "x cannot be cast to varchar"
        );
        let to_text = resolve_cast(CallArg::typed(to_double.return_type(), "x"), T::Text).unwrap();
        let double = eval(&to_double, &[Value::Int(1)]).unwrap();
        assert!(matches!(eval(&to_text, &[double]), Ok(Value::Text(s)) if s == "1.0"));
        // CastFctsTest.testInvalidQueries.
        let err = resolve_cast(CallArg::typed(&int, "a"), T::Boolean).unwrap_err();
        assert_eq!(err.message(), "a cannot be cast to boolean");
        let boolean = DataType::Native(T::Boolean);
        let err = resolve_cast(CallArg::typed(&boolean, "b"), T::Int).unwrap_err();
        assert!(err.message().starts_with(
            "Invalid call to function system.cast_as_int, none of its type signatures match"
        ));
        let double = DataType::Native(T::Double);
        let to_decimal = resolve_cast(CallArg::typed(&double, "d"), T::Decimal).unwrap();
        let err = eval(&to_decimal, &[Value::Double(f64::INFINITY)]).unwrap_err();
        assert_eq!(
            err.message(),
            "execution of 'system.cast_as_decimal[double]' failed: \
             java.lang.NumberFormatException: Infinite or NaN"
        );
        let timestamp = DataType::Native(T::Timestamp);
        let to_bigint = resolve_cast(CallArg::typed(&timestamp, "t"), T::Bigint).unwrap();
        assert!(matches!(
            eval(&to_bigint, &[Value::Timestamp(42)]),
            Ok(Value::Bigint(42))
        ));
    }
}
