//! Function calls inside terms (`INSERT … VALUES (now(), …)`,
//! `WHERE t > minTimeuuid('2025-06-01')`): resolved against the receiving
//! column's type, arguments evaluated, result checked assignable.

use crate::error::Error;
use crate::syntax::ast::{FunctionName, Term, TermKind};
use crate::types::{coerce, term_text, DataType, Value};

use super::bind::{conform, Binds};
use super::functions::{self, CallArg, FunctionContext, ResolvedCall};

/// The full name of a call as written: `ks.name` or `name`.
pub(crate) fn written_name(name: &FunctionName) -> String {
    match &name.keyspace {
        Some(ks) => format!("{}.{}", ks.name, name.name.name),
        None => name.name.name.clone(),
    }
}

/// Resolves a call in a term, its nested calls first.
fn resolve(
    name: &FunctionName,
    args: &[Term],
    receiver: Option<&DataType>,
) -> Result<(ResolvedCall, Vec<Option<ResolvedCall>>), Error> {
    let texts: Vec<String> = args.iter().map(term_text).collect();
    let mut nested = Vec::with_capacity(args.len());
    for arg in args {
        nested.push(match &arg.kind {
            TermKind::FunctionCall { name, args } => Some(resolve(name, args, None)?.0),
            _ => None,
        });
    }
    let call_args: Vec<CallArg<'_>> = args
        .iter()
        .zip(&texts)
        .zip(&nested)
        .map(|((arg, text), inner)| match (&arg.kind, inner) {
            (TermKind::Literal(lit), _) => Ok(CallArg::literal(lit, text)),
            (TermKind::Marker(_), _) => Ok(CallArg::marker(text)),
            (_, Some(inner)) => Ok(CallArg::typed(inner.return_type(), text)),
            _ => Err(Error::invalid(format!(
                "Invalid argument {text} for function {}: only constants, bind markers and function calls are supported",
                written_name(name)
            ))
            .with_span(arg.span)),
        })
        .collect::<Result<_, _>>()?;
    let lower = written_name(name).to_lowercase();
    let call =
        functions::resolve_function(&written_name(name), &call_args, receiver).map_err(|e| {
            // In a term Cassandra words an unknown function differently.
            if e.message() == format!("Unknown function '{lower}'") {
                functions::unknown_function(&lower, false)
            } else {
                e
            }
        })?;
    Ok((call, nested))
}

/// Evaluates a call written as a term, for a receiver of type `ty`.
pub(crate) fn eval_term_call(
    name: &FunctionName,
    args: &[Term],
    ty: &DataType,
    column: &str,
    binds: &Binds,
    fcx: &mut FunctionContext<'_>,
) -> Result<Value, Error> {
    let (call, _) = resolve(name, args, Some(ty)).map_err(Error::as_refusal)?;
    let returned = call.return_type().clone();
    if !assignable(&returned, ty) {
        return Err(Error::invalid(format!(
            "Type error: cannot assign result of function {} (type {returned}) to {column} (type {ty})",
            call.name()
        ))
        .as_refusal());
    }
    let value = evaluate(&call, args, binds, fcx)?;
    conform(&value, ty, column)
}

fn evaluate(
    call: &ResolvedCall,
    args: &[Term],
    binds: &Binds,
    fcx: &mut FunctionContext<'_>,
) -> Result<Value, Error> {
    let mut values = Vec::with_capacity(args.len());
    for (arg, param) in args.iter().zip(call.arg_types()) {
        let value = match &arg.kind {
            TermKind::Literal(lit) => coerce(lit, param, "argument").map_err(Error::as_refusal)?,
            TermKind::FunctionCall { name, args: inner } => {
                let (nested, _) = resolve(name, inner, Some(param))?;
                evaluate(&nested, inner, binds, fcx)?
            }
            _ => super::bind::eval_term(arg, param, "argument", binds, fcx)?,
        };
        values.push(value);
    }
    call.evaluate(&values, fcx)
}

/// Whether a function's result may be stored in a receiver of type `to`.
fn assignable(from: &DataType, to: &DataType) -> bool {
    use crate::syntax::ast::NativeType as N;
    from == to
        || matches!(
            (from, to),
            (DataType::Native(N::Timeuuid), DataType::Native(N::Uuid))
                | (
                    DataType::Native(N::Ascii),
                    DataType::Native(N::Text | N::Varchar)
                )
                | (DataType::Native(N::Text), DataType::Native(N::Varchar))
        )
}
