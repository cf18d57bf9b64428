//! The constant operands of INSERT values and UPDATE assignments, checked
//! against their column's type while the statement is prepared.
//!
//! Cassandra prepares every operation (`Operation.RawUpdate.prepare`,
//! `Operation.SetValue` for INSERT's values) before it builds the WHERE
//! clause's restrictions, so `SET t = (1, 'a', 3) WHERE nope = 1` answers
//! with the tuple literal's error, not with the undefined column's. Values
//! bound at execution (markers, function calls) pass here and are checked
//! by the executor when they are known.

use crate::error::Error;
use crate::schema::Column;
use crate::syntax::ast::{ArithmeticSign, AssignmentKind, ColumnRef, NativeType, Term, TermKind};
use crate::types::{coerce_term, term_text, DataType, TermError};

/// The type the operand of `column = column ± value` must have: a set of
/// keys to take from a map, a bigint to add to a counter, otherwise the
/// column's own type (`Operation.Addition`/`Substraction`).
pub(crate) fn operand_type(column: &Column, op: ArithmeticSign) -> DataType {
    match (&column.data_type, op) {
        (DataType::Map { key, .. }, ArithmeticSign::Minus) => DataType::Set {
            element: key.clone(),
            frozen: true,
        },
        (DataType::Native(NativeType::Counter), _) => DataType::Native(NativeType::Bigint),
        (ty, _) => ty.clone(),
    }
}

/// Cassandra's `Operation.Addition`/`Substraction` replace any error in a
/// map operand's literal with one message naming the literal as written.
pub(crate) fn map_operand_error(
    error: Error,
    ty: &DataType,
    op: ArithmeticSign,
    value: &Term,
) -> Error {
    let is_literal = !matches!(value.kind, TermKind::Marker(_));
    if !matches!(ty, DataType::Map { .. })
        || !is_literal
        || error.kind() != crate::error::ErrorKind::InvalidRequest
    {
        return error;
    }
    let (what, wanted) = match op {
        ArithmeticSign::Plus => ("addition", "map"),
        ArithmeticSign::Minus => ("substraction", "set"),
    };
    let message = format!(
        "Value for a map {what} has to be a {wanted}, but was: '{}'",
        term_text(value)
    );
    let mut replaced = Error::invalid(message);
    if let Some(span) = error.span() {
        replaced = replaced.with_span(span);
    }
    if error.is_refusal() {
        replaced = replaced.as_refusal();
    }
    replaced
}

/// Checks a constant against `ty`; terms known only at execution pass.
pub(crate) fn check_constant(term: &Term, ty: &DataType, column: &str) -> Result<(), Error> {
    match coerce_term(term, ty, column) {
        Ok(_) | Err(TermError::NotConstant(_)) => Ok(()),
        Err(TermError::Invalid(e)) => Err(if e.span().is_some() {
            e
        } else {
            e.with_span(term.span)
        }),
    }
}

/// The name Cassandra gives the index, key or value of `column[…] = …` in
/// its messages (`Lists.indexSpecOf`, `Maps.keySpecOf`, `valueSpecOf`):
/// `idx(l)`, `key(m)`, `value(m)`.
pub(crate) fn element_spec(part: &str, column: &str) -> String {
    format!("{part}({column})")
}

/// Checks the constants of one UPDATE assignment to `column` (already
/// looked up and checked for its kind of operation).
pub(crate) fn check_assignment_operands(
    column: &Column,
    kind: &AssignmentKind,
) -> Result<(), Error> {
    let ty = &column.data_type;
    let name = column.name.as_str();
    match kind {
        AssignmentKind::Set {
            target: ColumnRef::Column(_),
            value,
        } => check_constant(value, ty, name),
        AssignmentKind::Set {
            target: ColumnRef::Element(_, index),
            value,
        } => match ty {
            DataType::List { element, .. } => {
                let int = DataType::Native(NativeType::Int);
                check_constant(index, &int, &element_spec("idx", name))?;
                check_constant(value, element, &element_spec("value", name))
            }
            DataType::Map { key, value: vt, .. } => {
                check_constant(index, key, &element_spec("key", name))?;
                check_constant(value, vt, &element_spec("value", name))
            }
            _ => Ok(()),
        },
        AssignmentKind::Set {
            target: ColumnRef::Field(_, field),
            value,
        } => match ty {
            DataType::Udt { fields, .. } => match fields.iter().find(|(f, _)| *f == field.name) {
                Some((_, field_type)) => check_constant(value, field_type, &field.name),
                None => Ok(()),
            },
            _ => Ok(()),
        },
        AssignmentKind::Apply { op, value, .. } => {
            check_constant(value, &operand_type(column, *op), name)
                .map_err(|e| map_operand_error(e, ty, *op, value))
        }
        AssignmentKind::Prepend { value, .. } => check_constant(value, ty, name),
    }
}
