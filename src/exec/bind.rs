//! Bind values and term evaluation: turning the terms of a statement into
//! values of their column's type, with `?` and `:name` markers taken from
//! the values a prepared statement is executed with.

use std::borrow::Cow;

use crate::error::Error;
use crate::syntax::ast::{
    AssignmentKind, BatchStatement, ColumnRef, ConditionKind, IfClause, InValues, InsertSource,
    Relation, RelationKind, Selector, SelectorKind, Statement, SubSelection, Term, TermKind,
    UsingItem,
};
use crate::types::{coerce_term, DataType, TermError, Value};

use super::functions::FunctionContext;

/// The values of a prepared statement's markers, by where each marker was
/// written (markers are numbered in the order they appear in the text).
/// Borrowed from the caller: each value is copied once, into the cell it
/// becomes, not first into a statement-long list of its own.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Binds<'v> {
    /// Byte offsets of the markers, ascending.
    offsets: &'v [usize],
    values: &'v [Value],
}

impl<'v> Binds<'v> {
    /// No markers: a statement executed as text.
    pub(crate) fn none() -> Binds<'static> {
        Binds::default()
    }

    /// Pairs `values` with markers at `offsets` (from [`marker_offsets`],
    /// computed once when the statement was prepared), checking the count
    /// as Cassandra does.
    pub(crate) fn with_offsets(
        offsets: &'v [usize],
        values: &'v [Value],
    ) -> Result<Binds<'v>, Error> {
        if offsets.len() != values.len() {
            return Err(Error::invalid(format!(
                "There were {} markers(?) in CQL but {} bound variables",
                offsets.len(),
                values.len()
            )));
        }
        Ok(Binds { offsets, values })
    }

    fn get(&self, term: &Term) -> Option<&Value> {
        let i = self.offsets.binary_search(&term.span.start).ok()?;
        self.values.get(i)
    }
}

/// The index of the bind value `term` takes, when it is a marker, among
/// markers at `offsets` (from [`marker_offsets`]).
pub(crate) fn marker_index(term: &Term, offsets: &[usize]) -> Option<usize> {
    match term.kind {
        TermKind::Marker(_) => offsets.binary_search(&term.span.start).ok(),
        _ => None,
    }
}

/// Evaluates `term` as a value of `ty` for column `column`.
pub(crate) fn eval_term(
    term: &Term,
    ty: &DataType,
    column: &str,
    binds: &Binds,
    fcx: &mut FunctionContext<'_>,
) -> Result<Value, Error> {
    match &term.kind {
        TermKind::Marker(_) => {
            let value = binds.get(term).ok_or_else(|| {
                Error::invalid("Invalid amount of bind variables").with_span(term.span)
            })?;
            conform(value, ty, column).map_err(|e| e.with_span(term.span))
        }
        TermKind::FunctionCall { name, args } => {
            super::call::eval_term_call(name, args, ty, column, binds, fcx).map_err(|e| {
                if e.span().is_some() {
                    e
                } else {
                    e.with_span(term.span)
                }
            })
        }
        TermKind::TypeHint { term: inner, .. } if contains_marker(inner) => {
            eval_term(inner, ty, column, binds, fcx)
        }
        _ => match coerce_term(term, ty, column) {
            Ok(value) => Ok(value),
            // A literal Cassandra cannot read is refused when preparing.
            Err(TermError::Invalid(error)) => Err(error.as_refusal()),
            Err(TermError::NotConstant(_)) => eval_composite(term, ty, column, binds, fcx),
        },
    }
}

/// A collection, tuple or UDT literal with a marker or a function call
/// inside: its parts are evaluated one by one.
fn eval_composite(
    term: &Term,
    ty: &DataType,
    column: &str,
    binds: &Binds,
    fcx: &mut FunctionContext<'_>,
) -> Result<Value, Error> {
    let unsupported = || {
        Error::invalid(format!(
            "Invalid value for column {column}: expressions are not supported here"
        ))
        .with_span(term.span)
    };
    match (&term.kind, ty) {
        (TermKind::List(items), DataType::List { element, .. }) => Ok(Value::List(
            items
                .iter()
                .map(|t| eval_element(t, element, column, binds, fcx))
                .collect::<Result<_, _>>()?,
        )),
        (TermKind::Set(items), DataType::Set { element, .. }) => Ok(Value::set_from(
            items
                .iter()
                .map(|t| eval_element(t, element, column, binds, fcx))
                .collect::<Result<_, _>>()?,
        )),
        (TermKind::Map(entries), DataType::Map { key, value, .. }) => {
            let mut out = Vec::with_capacity(entries.len());
            for (k, v) in entries {
                out.push((
                    eval_element(k, key, column, binds, fcx)?,
                    eval_element(v, value, column, binds, fcx)?,
                ));
            }
            Ok(Value::map_from(out))
        }
        (TermKind::Tuple(items), DataType::Tuple(types)) if items.len() <= types.len() => {
            let mut out = Vec::with_capacity(items.len());
            for (t, ty) in items.iter().zip(types) {
                let v = eval_term(t, ty, column, binds, fcx)?;
                out.push((!v.is_null()).then_some(v));
            }
            Ok(Value::Tuple(out))
        }
        (TermKind::TypeHint { term, .. }, _) => eval_term(term, ty, column, binds, fcx),
        _ => Err(unsupported()),
    }
}

fn eval_element(
    term: &Term,
    ty: &DataType,
    column: &str,
    binds: &Binds,
    fcx: &mut FunctionContext<'_>,
) -> Result<Value, Error> {
    let value = eval_term(term, ty, column, binds, fcx)?;
    if value.is_null() {
        return Err(Error::invalid("null is not supported inside collections").with_span(term.span));
    }
    Ok(value)
}

fn contains_marker(term: &Term) -> bool {
    let mut found = false;
    visit_term(term, &mut |t| {
        found |= matches!(t.kind, TermKind::Marker(_))
    });
    found
}

/// Makes a bound value a value of `ty`: exact types pass, integers widen,
/// text and ascii interchange where the text fits.
pub(crate) fn conform(value: &Value, ty: &DataType, column: &str) -> Result<Value, Error> {
    use crate::syntax::ast::NativeType as N;
    let native = match ty {
        DataType::Native(n) => Some(*n),
        _ => None,
    };
    let converted = match (value, native) {
        (Value::Null, _) => Some(Value::Null),
        (Value::Int(v), Some(N::Bigint)) => Some(Value::Bigint(i64::from(*v))),
        (Value::Int(v), Some(N::Varint)) => Some(Value::varint(*v)),
        (Value::Bigint(v), Some(N::Varint)) => Some(Value::varint(*v)),
        (Value::Bigint(v), Some(N::Timestamp)) => Some(Value::Timestamp(*v)),
        (Value::Bigint(v), Some(N::Counter)) => Some(Value::Counter(*v)),
        (Value::Int(v), Some(N::Counter)) => Some(Value::Counter(i64::from(*v))),
        (Value::Float(v), Some(N::Double)) => Some(Value::Double(f64::from(*v))),
        (Value::Text(s), Some(N::Ascii)) if s.is_ascii() => Some(Value::Ascii(s.clone())),
        (Value::Ascii(s), Some(N::Text | N::Varchar)) => Some(Value::Text(s.clone())),
        _ => fitted(value, ty),
    };
    converted.ok_or_else(|| {
        Error::invalid(format!(
            "Invalid value for column {column}: expected a value of type {ty}"
        ))
    })
}

/// [`conform`], borrowing a value already of `ty` (which `conform` would
/// give back unchanged) rather than copying it. In line, so that a
/// prepared statement's values, nearly always of their columns' types,
/// are checked without a call each.
#[inline]
pub(crate) fn conform_borrowed<'v>(
    value: &'v Value,
    ty: &DataType,
    column: &str,
) -> Result<Cow<'v, Value>, Error> {
    if value_fits(value, ty) {
        return Ok(Cow::Borrowed(value));
    }
    conform(value, ty, column).map(Cow::Owned)
}

/// Whether bound key value `value` is ordinary (neither null nor empty)
/// and already of `ty`: what [`ordinary_key_value`] borrows as it is,
/// checked in line by the compiled statements' common case.
#[inline]
pub(crate) fn fits_as_key(value: &Value, ty: &DataType) -> bool {
    !matches!(value, Value::Null | Value::Empty) && value_fits(value, ty)
}

/// A bound key value a compiled statement can use as it is: `None` for a
/// null or empty value (which Cassandra refuses, or treats apart) and for
/// one that does not fit, all left to the general path to answer.
pub(crate) fn ordinary_key_value<'v>(
    value: &'v Value,
    ty: &DataType,
    column: &str,
) -> Option<Cow<'v, Value>> {
    if matches!(value, Value::Null | Value::Empty) {
        return None;
    }
    conform_borrowed(value, ty, column).ok()
}

/// Whether `value` is already a value of `ty`. A native type, the common
/// case, is checked here in line; anything else by [`composite_fits`],
/// which recurses into elements.
#[inline]
pub(crate) fn value_fits(value: &Value, ty: &DataType) -> bool {
    match ty {
        DataType::Native(n) => matches!(value, Value::Empty) || native_fits(value, *n),
        _ => composite_fits(value, ty),
    }
}

fn native_fits(value: &Value, n: crate::syntax::ast::NativeType) -> bool {
    use crate::syntax::ast::NativeType as N;
    matches!(
        (value, n),
        (Value::Ascii(_), N::Ascii)
            | (Value::Text(_), N::Text | N::Varchar)
            | (Value::Tinyint(_), N::Tinyint)
            | (Value::Smallint(_), N::Smallint)
            | (Value::Int(_), N::Int)
            | (Value::Bigint(_), N::Bigint)
            | (Value::Counter(_), N::Counter)
            | (Value::Varint(_), N::Varint)
            | (Value::Decimal(_), N::Decimal)
            | (Value::Float(_), N::Float)
            | (Value::Double(_), N::Double)
            | (Value::Boolean(_), N::Boolean)
            | (Value::Blob(_), N::Blob)
            | (Value::Uuid(_), N::Uuid)
            | (Value::Timeuuid(_), N::Timeuuid | N::Uuid)
            | (Value::Timestamp(_), N::Timestamp)
            | (Value::Date(_), N::Date)
            | (Value::Time(_), N::Time)
            | (Value::Duration(_), N::Duration)
            | (Value::Inet(_), N::Inet)
    )
}

/// Whether a tuple's or UDT's components are one per type, each null or
/// of its type.
fn components_fit<'t>(
    items: &[Option<Value>],
    types: impl ExactSizeIterator<Item = &'t DataType>,
) -> bool {
    items.len() == types.len()
        && items
            .iter()
            .zip(types)
            .all(|(v, t)| v.as_ref().is_none_or(|v| value_fits(v, t)))
}

/// A tuple's or UDT's components conformed to `types`, missing trailing
/// ones null (as Cassandra reads a value with fewer components than its
/// type); `None` for more components than types, or one that does not fit.
fn components_in_order<'t>(
    items: &[Option<Value>],
    types: impl ExactSizeIterator<Item = &'t DataType>,
) -> Option<Vec<Option<Value>>> {
    if items.len() > types.len() {
        return None;
    }
    let mut components = items.iter().chain(std::iter::repeat(&None));
    types
        .map(|t| match components.next()? {
            None => Some(None),
            Some(v) => fitted(v, t).map(Some),
        })
        .collect()
}

/// `value` as a value of `ty`: itself if it fits, else
/// [`in_collection_order`] of it.
fn fitted(value: &Value, ty: &DataType) -> Option<Value> {
    if value_fits(value, ty) {
        Some(value.clone())
    } else {
        in_collection_order(value, ty)
    }
}

/// `value` as a value of collection type `ty` where it differs only in
/// order or form, at any depth: a set's elements (given as a set or a
/// list) sorted with each kept once, a map's entries sorted by key with the
/// last value of a repeated key, as Cassandra rebuilds a bound collection
/// before storing it, and a tuple or UDT short of trailing components
/// filled with nulls. `None` if anything else does not fit.
fn in_collection_order(value: &Value, ty: &DataType) -> Option<Value> {
    let elements = |items: &[Value], t: &DataType| -> Option<Vec<Value>> {
        items.iter().map(|v| fitted(v, t)).collect()
    };
    Some(match (value, ty) {
        (Value::List(items) | Value::Set(items), DataType::Set { element, .. }) => {
            Value::set_from(elements(items, element)?)
        }
        (Value::List(items), DataType::List { element, .. }) => {
            Value::List(elements(items, element)?)
        }
        (Value::Vector(items), DataType::Vector { element, dimension })
            if items.len() == *dimension as usize =>
        {
            Value::Vector(elements(items, element)?)
        }
        (Value::Tuple(items), DataType::Tuple(types)) => {
            Value::Tuple(components_in_order(items, types.iter())?)
        }
        (Value::Udt(items), DataType::Udt { fields, .. }) => {
            Value::Udt(components_in_order(items, fields.iter().map(|(_, t)| t))?)
        }
        (Value::Map(entries), DataType::Map { key, value, .. }) => Value::map_from(
            entries
                .iter()
                .map(|(k, v)| Some((fitted(k, key)?, fitted(v, value)?)))
                .collect::<Option<_>>()?,
        ),
        _ => return None,
    })
}

fn composite_fits(value: &Value, ty: &DataType) -> bool {
    match (value, ty) {
        (Value::Empty, _) => true,
        (Value::List(items), DataType::List { element, .. }) => {
            items.iter().all(|v| value_fits(v, element))
        }
        (Value::Vector(items), DataType::Vector { element, dimension }) => {
            items.len() == *dimension as usize && items.iter().all(|v| value_fits(v, element))
        }
        // A set or map fits only in its stored order: sorted, each element
        // or key once (see `in_collection_order`).
        (Value::Set(items), DataType::Set { element, .. }) => {
            items.iter().all(|v| value_fits(v, element)) && items.is_sorted_by(|a, b| a < b)
        }
        (Value::Map(entries), DataType::Map { key, value, .. }) => {
            entries
                .iter()
                .all(|(k, v)| value_fits(k, key) && value_fits(v, value))
                && entries.is_sorted_by(|(a, _), (b, _)| a < b)
        }
        (Value::Tuple(items), DataType::Tuple(types)) => components_fit(items, types.iter()),
        (Value::Udt(items), DataType::Udt { fields, .. }) => {
            components_fit(items, fields.iter().map(|(_, t)| t))
        }
        (value, DataType::Native(n)) => native_fits(value, *n),
        _ => false,
    }
}

/// The byte offsets of every bind marker of `statement`, ascending.
pub(crate) fn marker_offsets(statement: &Statement) -> Vec<usize> {
    let mut offsets = Vec::new();
    visit_statement_terms(statement, &mut |t| {
        if matches!(t.kind, TermKind::Marker(_)) {
            offsets.push(t.span.start);
        }
    });
    offsets.sort_unstable();
    offsets.dedup();
    offsets
}

/// Calls `f` on every term (and sub-term) of a data statement.
fn visit_statement_terms(statement: &Statement, f: &mut dyn FnMut(&Term)) {
    match statement {
        Statement::Select(s) => {
            if let crate::syntax::ast::SelectClause::Items(items) = &s.selection {
                for item in items {
                    visit_selector(&item.selector, f);
                }
            }
            visit_relations(&s.where_clause, f);
            for t in s.per_partition_limit.iter().chain(s.limit.iter()) {
                visit_term(t, f);
            }
        }
        Statement::Insert(i) => visit_insert(i, f),
        Statement::Update(u) => visit_update(u, f),
        Statement::Delete(d) => visit_delete(d, f),
        Statement::Batch(b) => {
            visit_using(&b.using, f);
            for s in &b.statements {
                match s {
                    BatchStatement::Insert(i) => visit_insert(i, f),
                    BatchStatement::Update(u) => visit_update(u, f),
                    BatchStatement::Delete(d) => visit_delete(d, f),
                }
            }
        }
        _ => {}
    }
}

fn visit_insert(insert: &crate::syntax::ast::Insert, f: &mut dyn FnMut(&Term)) {
    match &insert.source {
        InsertSource::Values { values, .. } => values.iter().for_each(|t| visit_term(t, f)),
        InsertSource::Json { value, .. } => visit_term(value, f),
    }
    visit_using(&insert.using, f);
}

fn visit_update(update: &crate::syntax::ast::Update, f: &mut dyn FnMut(&Term)) {
    visit_using(&update.using, f);
    for a in &update.assignments {
        match &a.kind {
            AssignmentKind::Set { target, value } => {
                visit_column_ref(target, f);
                visit_term(value, f);
            }
            AssignmentKind::Apply { value, .. } | AssignmentKind::Prepend { value, .. } => {
                visit_term(value, f)
            }
        }
    }
    visit_relations(&update.where_clause, f);
    visit_if(&update.if_clause, f);
}

fn visit_delete(delete: &crate::syntax::ast::Delete, f: &mut dyn FnMut(&Term)) {
    delete.targets.iter().for_each(|t| visit_column_ref(t, f));
    visit_using(&delete.using, f);
    visit_relations(&delete.where_clause, f);
    visit_if(&delete.if_clause, f);
}

fn visit_using(using: &[UsingItem], f: &mut dyn FnMut(&Term)) {
    for item in using {
        match item {
            UsingItem::Ttl(t) | UsingItem::Timestamp(t) => visit_term(t, f),
        }
    }
}

fn visit_column_ref(target: &ColumnRef, f: &mut dyn FnMut(&Term)) {
    if let ColumnRef::Element(_, t) = target {
        visit_term(t, f);
    }
}

fn visit_if(clause: &Option<IfClause>, f: &mut dyn FnMut(&Term)) {
    let Some(IfClause::Conditions(conditions)) = clause else {
        return;
    };
    for c in conditions {
        match &c.kind {
            ConditionKind::Compare { target, value, .. } => {
                visit_column_ref(target, f);
                visit_term(value, f);
            }
            ConditionKind::In { target, values } => {
                visit_column_ref(target, f);
                visit_in(values, f);
            }
            ConditionKind::Contains { value, .. } => visit_term(value, f),
        }
    }
}

fn visit_in(values: &InValues, f: &mut dyn FnMut(&Term)) {
    match values {
        InValues::List(terms) => terms.iter().for_each(|t| visit_term(t, f)),
        InValues::Marker(marker) => visit_term(marker, f),
    }
}

fn visit_relations(relations: &[Relation], f: &mut dyn FnMut(&Term)) {
    for r in relations {
        match &r.kind {
            RelationKind::Compare { value, .. } => visit_term(value, f),
            RelationKind::In { values, .. } | RelationKind::MultiIn { values, .. } => {
                visit_in(values, f)
            }
            RelationKind::Contains { value, .. } | RelationKind::Like { value, .. } => {
                visit_term(value, f)
            }
            RelationKind::MapEntry { key, value, .. } => {
                visit_term(key, f);
                visit_term(value, f);
            }
            RelationKind::MultiCompare { value, .. } => visit_term(value, f),
            RelationKind::Token { value, .. } => visit_term(value, f),
            RelationKind::IsNotNull { .. } => {}
        }
    }
}

fn visit_selector(selector: &Selector, f: &mut dyn FnMut(&Term)) {
    match &selector.kind {
        SelectorKind::Term(t) => visit_term(t, f),
        SelectorKind::Cast { selector, .. }
        | SelectorKind::Negate(selector)
        | SelectorKind::TypeHint { selector, .. } => visit_selector(selector, f),
        SelectorKind::Function { args, .. } => args.iter().for_each(|s| visit_selector(s, f)),
        SelectorKind::Binary { left, right, .. } => {
            visit_selector(left, f);
            visit_selector(right, f);
        }
        SelectorKind::Sub { selector, sub } => {
            visit_selector(selector, f);
            match sub {
                SubSelection::Element(t) => visit_term(t, f),
                SubSelection::Slice(a, b) => {
                    a.iter().chain(b.iter()).for_each(|t| visit_term(t, f))
                }
                SubSelection::Field(_) => {}
            }
        }
        SelectorKind::Tuple(items) | SelectorKind::List(items) | SelectorKind::Set(items) => {
            items.iter().for_each(|s| visit_selector(s, f))
        }
        SelectorKind::Map(entries) => entries.iter().for_each(|(k, v)| {
            visit_selector(k, f);
            visit_selector(v, f);
        }),
        SelectorKind::Column(_) | SelectorKind::CountStar | SelectorKind::Metadata { .. } => {}
    }
}

/// Calls `f` on `term` and each of its sub-terms, outermost first.
pub(crate) fn visit_term(term: &Term, f: &mut dyn FnMut(&Term)) {
    f(term);
    match &term.kind {
        TermKind::List(items) | TermKind::Set(items) | TermKind::Tuple(items) => {
            items.iter().for_each(|t| visit_term(t, f))
        }
        TermKind::Map(entries) => entries.iter().for_each(|(k, v)| {
            visit_term(k, f);
            visit_term(v, f);
        }),
        TermKind::Udt(fields) => fields.iter().for_each(|(_, t)| visit_term(t, f)),
        TermKind::FunctionCall { args, .. } => args.iter().for_each(|t| visit_term(t, f)),
        TermKind::TypeHint { term, .. } | TermKind::Cast { term, .. } | TermKind::Negate(term) => {
            visit_term(term, f)
        }
        TermKind::Binary { left, right, .. } => {
            visit_term(left, f);
            visit_term(right, f);
        }
        TermKind::Literal(_) | TermKind::Marker(_) => {}
    }
}
