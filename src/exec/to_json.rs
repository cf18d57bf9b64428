//! `toJson(x)` as a selector: any value as Cassandra's JSON text
//! (`FromJsonFct`'s sibling `ToJsonFct`, declared `system.tojson(any)`), so
//! it is compiled here rather than among the natively typed functions.

use crate::error::Error;
use crate::syntax::ast::{FunctionName, Literal, Selector, SelectorKind, TermKind};
use crate::types::{DataType, Value};

use super::selector::header;

/// Whether `name` calls the native `toJson` (any spelling, `system.` or not).
pub(crate) fn is_to_json(name: &FunctionName) -> bool {
    name.name.name.eq_ignore_ascii_case("tojson")
        && name
            .keyspace
            .as_ref()
            .is_none_or(|k| k.name.eq_ignore_ascii_case("system"))
}

/// The one argument of a `toJson` call, refused with Cassandra's messages
/// when there is not exactly one or its type cannot be known (`?`, `NULL`).
pub(crate) fn argument(args: &[Selector]) -> Result<&Selector, Error> {
    let [arg] = args else {
        return Err(Error::invalid(
            "Invalid number of arguments for function system.tojson(any)",
        ));
    };
    let untyped = match &arg.kind {
        SelectorKind::Term(term) => matches!(
            term.kind,
            TermKind::Marker(_) | TermKind::Literal(Literal::Null)
        ),
        _ => false,
    };
    if untyped {
        return Err(Error::invalid(format!(
            "Cannot infer type of argument {} in call to function system.tojson(any): use \
             type casts to disambiguate",
            header(arg)
        )));
    }
    Ok(arg)
}

/// The JSON text of `value` of type `ty`: `null` for a null, as Cassandra's
/// `ToJsonFct` writes it.
pub(crate) fn text(value: &Value, ty: &DataType) -> Value {
    if value.is_null() {
        return Value::Text("null".into());
    }
    Value::Text(value.to_json_text(ty))
}
