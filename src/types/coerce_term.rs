//! Whole terms — constants, collection, tuple and UDT literals — turned into values of a
//! column's type, following Cassandra's `Lists`, `Sets`, `Maps`, `Tuples`, `UserTypes` and
//! `Vectors` literals step by step so that the *first* error reported is Cassandra's:
//!
//! 1. every element is tested for assignability (`value 'x' is not of type int`);
//! 2. elements are prepared in order (parse errors, then a bind marker inside a
//!    collection: `bind variables are not supported inside collection literals`);
//! 3. a fully constant collection is bound (`null is not supported inside collections`).
//!
//! Terms whose value only exists at execution — bind markers, function calls, arithmetic,
//! casts — are not errors: they come back as [`TermError::NotConstant`] so the caller can
//! say "bound at execution" (or evaluate the function itself).

use crate::error::Error;
use crate::syntax::ast::{BindMarker, CqlType, Literal, Term, TermKind};
use crate::syntax::span::Span;

use super::coerce::{coerce, literal_assignable, literal_text};
use super::data_type::DataType;
use super::value::Value;

/// Why [`coerce_term`] gave no value.
#[derive(Debug, Clone)]
pub enum TermError {
    /// Cassandra refuses the term; the error is an `InvalidRequest` with its message.
    Invalid(Error),
    /// The term is valid so far but its value is only known at execution.
    NotConstant(NotConstant),
}

impl From<Error> for TermError {
    fn from(error: Error) -> Self {
        TermError::Invalid(error)
    }
}

/// A term (or a part of one) whose value is not known before execution.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotConstant {
    /// What makes it so.
    pub reason: NotConstantReason,
    /// Where that part was written.
    pub span: Span,
}

/// What makes a term non-constant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotConstantReason {
    /// A bind marker (`?`, `:name`), anywhere inside the term. Takes precedence over the
    /// other reasons when both occur.
    BindMarker,
    /// A function call such as `now()` or `uuid()`.
    FunctionCall,
    /// Arithmetic, a cast, a negation, or a type hint this module does not resolve.
    Expression,
}

/// Turns a term into a value of type `ty` for the column named `column`.
///
/// Literals go through [`coerce`]; `[…]`, `{…}`, `{k: v}`, `(…)` and `{field: v}` are
/// checked against list/vector, set (or an empty map), map, tuple (or UDT, positionally,
/// as Cassandra allows) and UDT types. Sets come back sorted and deduplicated, maps sorted
/// by key, UDTs with one slot per field of the type.
pub fn coerce_term(term: &Term, ty: &DataType, column: &str) -> Result<Value, TermError> {
    match prepare(term, ty, column)? {
        Prepared::Value(v) => Ok(v),
        Prepared::Deferred(n) => Err(TermError::NotConstant(n)),
    }
}

/// A term as Cassandra writes it in messages (`Term.Raw.getText`): strings in quotes
/// *without* doubling inner quotes, collections with `, ` separators.
pub fn term_text(term: &Term) -> String {
    let join = |items: &mut dyn Iterator<Item = String>| items.collect::<Vec<_>>().join(", ");
    match &term.kind {
        TermKind::Literal(Literal::String(s)) => {
            // Every text key of a planned statement comes here: no
            // formatting machinery for a quote on each side.
            let mut text = String::with_capacity(s.len() + 2);
            text.push('\'');
            text.push_str(s);
            text.push('\'');
            text
        }
        TermKind::Literal(l) => literal_text(l).into_owned(),
        TermKind::Marker(BindMarker::Anonymous) => "?".into(),
        TermKind::Marker(BindMarker::Named(name)) => format!(":{}", name.name),
        TermKind::List(items) => format!("[{}]", join(&mut items.iter().map(term_text))),
        TermKind::Set(items) => format!("{{{}}}", join(&mut items.iter().map(term_text))),
        TermKind::Tuple(items) => format!("({})", join(&mut items.iter().map(term_text))),
        TermKind::Map(entries) => format!(
            "{{{}}}",
            join(
                &mut entries
                    .iter()
                    .map(|(k, v)| format!("{}: {}", term_text(k), term_text(v)))
            )
        ),
        TermKind::Udt(fields) => format!(
            "{{{}}}",
            join(
                &mut fields
                    .iter()
                    .map(|(f, v)| format!("{}: {}", f.name, term_text(v)))
            )
        ),
        TermKind::FunctionCall { name, args } => {
            let prefix = name
                .keyspace
                .as_ref()
                .map(|k| format!("{}.", k.name))
                .unwrap_or_default();
            format!(
                "{prefix}{}({})",
                name.name.name,
                join(&mut args.iter().map(term_text))
            )
        }
        TermKind::TypeHint { ty, term } => format!("({ty}){}", term_text(term)),
        _ => term.to_string(),
    }
}

/// A prepared term: a value, or the reason it is only known at execution.
enum Prepared {
    Value(Value),
    Deferred(NotConstant),
}

impl Prepared {
    fn has_marker(&self) -> bool {
        matches!(self, Prepared::Deferred(n) if n.reason == NotConstantReason::BindMarker)
    }
}

/// Combines the deferred parts of a composite: any marker wins, otherwise the first.
fn deferred_of<'a>(parts: impl Iterator<Item = &'a Prepared>) -> Option<NotConstant> {
    let mut first = None;
    for part in parts {
        if let Prepared::Deferred(n) = part {
            if n.reason == NotConstantReason::BindMarker {
                return Some(*n);
            }
            first = first.or(Some(*n));
        }
    }
    first
}

fn deferred(reason: NotConstantReason, span: Span) -> Prepared {
    Prepared::Deferred(NotConstant { reason, span })
}

/// Cassandra's `testAssignment`: may `term` be assigned to `ty` at all? An `Err` is an
/// error Cassandra raises from the test itself (a `[…]` literal for a type that is neither
/// a list nor a vector).
fn assignable(term: &Term, ty: &DataType) -> Result<bool, Error> {
    Ok(match (&term.kind, ty) {
        (TermKind::Literal(l), _) => literal_assignable(l, ty),
        (TermKind::List(items), DataType::List { element, .. }) => all_assignable(items, element)?,
        (TermKind::List(items), DataType::Vector { element, dimension }) => {
            items.len() == *dimension as usize && all_assignable(items, element)?
        }
        (TermKind::List(_), _) => return Err(unexpected_array_receiver(ty)),
        (TermKind::Set(items), DataType::Set { element, .. }) => all_assignable(items, element)?,
        (TermKind::Set(items), DataType::Map { .. }) => items.is_empty(),
        (TermKind::Set(_), _) => false,
        (TermKind::Map(entries), DataType::Map { key, value, .. }) => {
            for (k, v) in entries {
                if !assignable(k, key)? || !assignable(v, value)? {
                    return Ok(false);
                }
            }
            true
        }
        (TermKind::Map(_), _) => false,
        // Tuples and UDTs test by trying their validation and catching any error.
        (TermKind::Tuple(items), _) => match components(ty) {
            Some(types) => {
                items.len() <= types.len()
                    && items
                        .iter()
                        .zip(types)
                        .all(|(item, t)| assignable(item, t).unwrap_or(false))
            }
            None => false,
        },
        (TermKind::Udt(fields), DataType::Udt { fields: types, .. }) => {
            fields.iter().all(|(name, v)| {
                types
                    .iter()
                    .find(|(n, _)| *n == name.name)
                    .is_none_or(|(_, t)| assignable(v, t).unwrap_or(false))
            })
        }
        (TermKind::Udt(_), _) => false,
        // Markers, function calls and expressions: decided at execution (or by the caller).
        _ => true,
    })
}

fn all_assignable(items: &[Term], element: &DataType) -> Result<bool, Error> {
    for item in items {
        if !assignable(item, element)? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// The component types a tuple literal may fill: a tuple's, or a UDT's fields in order
/// (Cassandra's `UserType` is a `TupleType`).
fn components(ty: &DataType) -> Option<Vec<&DataType>> {
    match ty {
        DataType::Tuple(items) => Some(items.iter().collect()),
        DataType::Udt { fields, .. } => Some(fields.iter().map(|(_, t)| t).collect()),
        _ => None,
    }
}

fn unexpected_array_receiver(ty: &DataType) -> Error {
    Error::invalid(format!(
        "Unexpected receiver type '{ty}'; only list and vector are expected"
    ))
}

fn prepare(term: &Term, ty: &DataType, name: &str) -> Result<Prepared, Error> {
    if let TermKind::TypeHint { ty: hint, .. } = &term.kind {
        // Cassandra prepares the hinted type before looking at the value.
        super::data_type::check_vector_dimensions(hint)?;
    }
    Ok(match &term.kind {
        TermKind::Literal(l) => Prepared::Value(coerce(l, ty, name)?),
        TermKind::Marker(_) => deferred(NotConstantReason::BindMarker, term.span),
        TermKind::FunctionCall { .. } => deferred(NotConstantReason::FunctionCall, term.span),
        TermKind::TypeHint {
            ty: hint,
            term: inner,
        } if hint_matches(hint, ty) => prepare(inner, ty, name)?,
        TermKind::TypeHint { .. }
        | TermKind::Cast { .. }
        | TermKind::Negate(_)
        | TermKind::Binary { .. } => deferred(NotConstantReason::Expression, term.span),
        TermKind::List(items) => prepare_list(items, ty, name)?,
        TermKind::Set(items) => prepare_set(items, ty, name)?,
        TermKind::Map(entries) => prepare_map(entries, ty, name)?,
        TermKind::Tuple(items) => prepare_tuple(items, ty, name)?,
        TermKind::Udt(fields) => prepare_udt(fields, ty, name)?,
    })
}

/// A type hint naming exactly the receiver's native type is a no-op; anything else is
/// left to the caller.
fn hint_matches(hint: &CqlType, ty: &DataType) -> bool {
    DataType::resolve(hint, "", &()).is_ok_and(|h| h == *ty)
}

/// Prepares the elements in order, stopping at the first error or, in a collection, at
/// the first element containing a bind marker.
fn prepare_elements<'t>(
    items: impl Iterator<Item = (&'t Term, &'t DataType, String)>,
    marker_error: &dyn Fn() -> Error,
) -> Result<Vec<Prepared>, Error> {
    let mut out = Vec::new();
    for (item, ty, name) in items {
        let prepared = prepare(item, ty, &name)?;
        if prepared.has_marker() {
            return Err(marker_error());
        }
        out.push(prepared);
    }
    Ok(out)
}

/// The values of fully constant elements, refusing nulls; `None` when some are deferred.
fn bind_elements(prepared: Vec<Prepared>) -> Result<Result<Vec<Value>, NotConstant>, Error> {
    if let Some(n) = deferred_of(prepared.iter()) {
        return Ok(Err(n));
    }
    let mut values = Vec::with_capacity(prepared.len());
    for p in prepared {
        match p {
            Prepared::Value(Value::Null) => {
                return Err(Error::invalid("null is not supported inside collections"))
            }
            Prepared::Value(v) => values.push(v),
            Prepared::Deferred(_) => {}
        }
    }
    Ok(Ok(values))
}

fn prepare_list(items: &[Term], ty: &DataType, name: &str) -> Result<Prepared, Error> {
    let (element, what, vector) = match ty {
        DataType::List { element, .. } => (element.as_ref(), "list", false),
        DataType::Vector { element, dimension } => {
            if items.len() != *dimension as usize {
                return Err(Error::invalid(format!(
                    "Invalid vector literal for {name} of type {ty}; expected {dimension} elements, but given {}",
                    items.len()
                )));
            }
            (element.as_ref(), "vector", true)
        }
        _ => return Err(unexpected_array_receiver(ty)),
    };
    for item in items {
        if !assignable(item, element)? {
            return Err(Error::invalid(format!(
                "Invalid {what} literal for {name}: value {} is not of type {element}",
                term_text(item)
            )));
        }
    }
    let element_name = format!("value({name})");
    let marker_error = || {
        let inside = if vector { "vector" } else { "collection" };
        Error::invalid(format!(
            "Invalid {what} literal for {name}: bind variables are not supported inside {inside} literals"
        ))
    };
    let prepared = prepare_elements(
        items.iter().map(|i| (i, element, element_name.clone())),
        &marker_error,
    )?;
    Ok(match bind_elements(prepared)? {
        Ok(values) if vector => Prepared::Value(Value::Vector(values)),
        Ok(values) => Prepared::Value(Value::List(values)),
        Err(n) => Prepared::Deferred(n),
    })
}

fn prepare_set(items: &[Term], ty: &DataType, name: &str) -> Result<Prepared, Error> {
    let element = match ty {
        DataType::Set { element, .. } => element.as_ref(),
        // `{}` is parsed as a set; an empty map is written the same way.
        DataType::Map { .. } if items.is_empty() => {
            return Ok(Prepared::Value(Value::Map(Vec::new())))
        }
        _ => {
            return Err(Error::invalid(format!(
                "Invalid set literal for {name} of type {ty}"
            )))
        }
    };
    for item in items {
        if !assignable(item, element)? {
            return Err(Error::invalid(format!(
                "Invalid set literal for {name}: value {} is not of type {element}",
                term_text(item)
            )));
        }
    }
    let element_name = format!("value({name})");
    let marker_error = || {
        Error::invalid(format!(
            "Invalid set literal for {name}: bind variables are not supported inside collection literals"
        ))
    };
    let prepared = prepare_elements(
        items.iter().map(|i| (i, element, element_name.clone())),
        &marker_error,
    )?;
    Ok(match bind_elements(prepared)? {
        Ok(values) => Prepared::Value(Value::set_from(values)),
        Err(n) => Prepared::Deferred(n),
    })
}

fn prepare_map(entries: &[(Term, Term)], ty: &DataType, name: &str) -> Result<Prepared, Error> {
    let DataType::Map { key, value, .. } = ty else {
        return Err(Error::invalid(format!(
            "Invalid map literal for {name} of type {ty}"
        )));
    };
    for (k, v) in entries {
        if !assignable(k, key)? {
            return Err(Error::invalid(format!(
                "Invalid map literal for {name}: key {} is not of type {key}",
                term_text(k)
            )));
        }
        if !assignable(v, value)? {
            return Err(Error::invalid(format!(
                "Invalid map literal for {name}: value {} is not of type {value}",
                term_text(v)
            )));
        }
    }
    let (key_name, value_name) = (format!("key({name})"), format!("value({name})"));
    let marker_error = || {
        Error::invalid(format!(
            "Invalid map literal for {name}: bind variables are not supported inside collection literals"
        ))
    };
    // Key then value of each entry, checked for markers once the pair is prepared.
    let mut prepared = Vec::with_capacity(entries.len() * 2);
    for (k, v) in entries {
        let pk = prepare(k, key, &key_name)?;
        let pv = prepare(v, value, &value_name)?;
        if pk.has_marker() || pv.has_marker() {
            return Err(marker_error());
        }
        prepared.push(pk);
        prepared.push(pv);
    }
    Ok(match bind_elements(prepared)? {
        Ok(values) => {
            let mut flat = values.into_iter();
            let mut pairs = Vec::with_capacity(entries.len());
            while let (Some(k), Some(v)) = (flat.next(), flat.next()) {
                pairs.push((k, v));
            }
            Prepared::Value(Value::map_from(pairs))
        }
        Err(n) => Prepared::Deferred(n),
    })
}

fn prepare_tuple(items: &[Term], ty: &DataType, name: &str) -> Result<Prepared, Error> {
    let Some(types) = components(ty) else {
        return Err(Error::invalid(format!(
            "Invalid tuple type literal for {name} of type {ty}"
        )));
    };
    for (i, item) in items.iter().enumerate() {
        let Some(component) = types.get(i) else {
            return Err(Error::invalid(format!(
                "Invalid tuple literal for {name}: too many elements. Type {ty} expects {} but got {}",
                types.len(),
                items.len()
            )));
        };
        if !assignable(item, component).unwrap_or(false) {
            return Err(Error::invalid(format!(
                "Invalid tuple literal for {name}: component {i} is not of type {component}"
            )));
        }
    }
    let mut prepared = Vec::with_capacity(items.len());
    for (i, (item, component)) in items.iter().zip(&types).enumerate() {
        prepared.push(prepare(item, component, &format!("{name}[{i}]"))?);
    }
    if let Some(n) = deferred_of(prepared.iter()) {
        return Ok(Prepared::Deferred(n));
    }
    let mut values: Vec<Option<Value>> = prepared
        .into_iter()
        .map(|p| match p {
            Prepared::Value(Value::Null) | Prepared::Deferred(_) => None,
            Prepared::Value(v) => Some(v),
        })
        .collect();
    Ok(Prepared::Value(if matches!(ty, DataType::Udt { .. }) {
        values.resize(types.len(), None);
        Value::Udt(values)
    } else {
        Value::Tuple(values)
    }))
}

fn prepare_udt(
    fields: &[(crate::syntax::ast::Ident, Term)],
    ty: &DataType,
    name: &str,
) -> Result<Prepared, Error> {
    let DataType::Udt {
        name: type_name,
        fields: types,
        ..
    } = ty
    else {
        return Err(Error::invalid(format!(
            "Invalid user type literal for {name} of type {ty}"
        )));
    };
    // The parser collects fields into a map: a repeated field keeps its last value.
    let given = |field: &str| {
        fields
            .iter()
            .rev()
            .find(|(f, _)| f.name == field)
            .map(|(_, t)| t)
    };
    for (field, field_type) in types {
        if let Some(term) = given(field) {
            if !assignable(term, field_type).unwrap_or(false) {
                return Err(Error::invalid(format!(
                    "Invalid user type literal for {name}: field {field} is not of type {field_type}"
                )));
            }
        }
    }
    let mut prepared = Vec::with_capacity(types.len());
    for (field, field_type) in types {
        prepared.push(match given(field) {
            Some(term) => prepare(term, field_type, &format!("{name}.{field}"))?,
            None => Prepared::Value(Value::Null),
        });
    }
    if let Some((unknown, _)) = fields
        .iter()
        .find(|(f, _)| !types.iter().any(|(n, _)| *n == f.name))
    {
        return Err(Error::invalid(format!(
            "Unknown field '{}' in value of user defined type {type_name}",
            unknown.name
        )));
    }
    if let Some(n) = deferred_of(prepared.iter()) {
        return Ok(Prepared::Deferred(n));
    }
    Ok(Prepared::Value(Value::Udt(
        prepared
            .into_iter()
            .map(|p| match p {
                Prepared::Value(Value::Null) | Prepared::Deferred(_) => None,
                Prepared::Value(v) => Some(v),
            })
            .collect(),
    )))
}

#[cfg(test)]
#[path = "coerce_term_tests.rs"]
mod tests;
