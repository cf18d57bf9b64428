//! Bind markers, types and terms.
//!
//! Terms follow the grammar's layers: `term = product {(+|-) product}`,
//! `product = unary {(*|/|%) unary}`, `unary = ['-'] simple`, and `simple`
//! is a literal, marker, collection, tuple, UDT value, function call, type
//! hint or CAST.

use proptest::prelude::*;
use widerow::syntax::ast::{
    ArithmeticOp, BindMarker, CqlType, InValues, Literal, NativeType, Term, TermKind,
};

use super::few;
use super::literals::{self, is_unsigned_number};
use super::names::{function_name, ident, qualified_name};
use super::nodes::{left_assoc, term as node, ADDITIVE, MULTIPLICATIVE};

/// `?` or `:name`.
pub fn marker() -> BoxedStrategy<BindMarker> {
    prop_oneof![
        Just(BindMarker::Anonymous),
        ident().prop_map(BindMarker::Named),
    ]
    .boxed()
}

/// One of the 21 native types.
pub fn native_type() -> BoxedStrategy<NativeType> {
    prop::sample::select(NativeType::ALL.to_vec()).boxed()
}

/// Any CQL type: native, collection, tuple, frozen, vector, user-defined
/// (possibly keyspace-qualified) or a custom class string.
pub fn cql_type(depth: u32) -> BoxedStrategy<CqlType> {
    let leaf = prop_oneof![
        4 => native_type().prop_map(CqlType::Native),
        2 => qualified_name().prop_map(|name| CqlType::Udt(Box::new(name))),
        1 => literals::string().prop_map(CqlType::Custom),
    ];
    if depth == 0 {
        return leaf.boxed();
    }
    let inner = cql_type(depth - 1);
    let boxed = || inner.clone().prop_map(Box::new);
    prop_oneof![
        3 => leaf,
        1 => boxed().prop_map(CqlType::List),
        1 => boxed().prop_map(CqlType::Set),
        1 => (boxed(), boxed()).prop_map(|(k, v)| CqlType::Map(k, v)),
        1 => prop::collection::vec(inner.clone(), 1..4).prop_map(CqlType::Tuple),
        1 => boxed().prop_map(CqlType::Frozen),
        // Any Java int parses (one below 1 is refused when the type is
        // resolved, not by the parser).
        1 => (boxed(), prop_oneof![1i32..5, i32::MIN..=i32::MAX])
            .prop_map(|(t, n)| CqlType::Vector(t, n)),
    ]
    .boxed()
}

/// A term with arithmetic, nesting at most `depth` levels of brackets.
pub fn term(depth: u32) -> BoxedStrategy<Term> {
    let product = left_assoc(unary(depth), MULTIPLICATIVE, binary);
    left_assoc(product, ADDITIVE, binary)
}

fn binary(op: ArithmeticOp, left: Term, right: Term) -> Term {
    node(TermKind::Binary {
        op,
        left: Box::new(left),
        right: Box::new(right),
    })
}

/// `['-'] simple`. A minus before an unsigned number becomes part of the
/// literal, so `Negate` wraps everything but those.
fn unary(depth: u32) -> BoxedStrategy<Term> {
    let negated = simple_term(depth)
        .prop_filter(
            "a minus folds into an unsigned number",
            |t| !matches!(&t.kind, TermKind::Literal(l) if is_unsigned_number(l)),
        )
        .prop_map(|t| node(TermKind::Negate(Box::new(t))));
    prop_oneof![5 => simple_term(depth), 1 => negated].boxed()
}

/// A literal or a bind marker: the terms without inner terms.
pub fn value() -> BoxedStrategy<Term> {
    prop_oneof![
        4 => literals::literal().prop_map(|l| node(TermKind::Literal(l))),
        1 => marker().prop_map(|m| node(TermKind::Marker(m))),
    ]
    .boxed()
}

/// A term without arithmetic at its top.
pub fn simple_term(depth: u32) -> BoxedStrategy<Term> {
    if depth == 0 {
        return value();
    }
    let inner = term(depth - 1);
    let items = |min: usize| prop::collection::vec(inner.clone(), min..4);
    let entries = prop::collection::vec((inner.clone(), inner.clone()), 1..4).prop_filter(
        "a map key ending in ('…') reads as a type hint on the value",
        |entries| !entries.iter().any(|(key, _)| ends_in_string_tuple(key)),
    );
    let fields = prop::collection::vec((ident(), inner.clone()), 1..4);
    prop_oneof![
        6 => value(),
        1 => items(0).prop_map(TermKind::List).prop_map(node),
        // `{}` reads as an empty set, so an empty map or UDT value cannot
        // be written: those have at least one entry.
        1 => items(0).prop_map(TermKind::Set).prop_map(node),
        1 => entries.prop_map(TermKind::Map).prop_map(node),
        1 => fields.prop_map(TermKind::Udt).prop_map(node),
        // `()` is not a tuple.
        1 => items(1).prop_map(TermKind::Tuple).prop_map(node),
        1 => (function_name(), items(0))
            .prop_map(|(name, args)| {
                node(TermKind::FunctionCall {
                    name: Box::new(name),
                    args,
                })
            }),
        1 => (cql_type(1), simple_term(depth - 1)).prop_map(|(ty, t)| {
            node(TermKind::TypeHint {
                ty,
                term: Box::new(t),
            })
        }),
        1 => (inner.clone(), native_type()).prop_map(|(t, ty)| {
            node(TermKind::Cast {
                term: Box::new(t),
                ty: CqlType::Native(ty),
            })
        }),
    ]
    .boxed()
}

/// Whether the term's text ends in a one-element tuple of a string, `('a')`.
///
/// `('a')` also reads as the type hint `(custom class) …` over whatever
/// simple term follows, and in a map entry a named marker follows the key:
/// `{('a'): f()}` reads as `('a') :f` and then fails at `(`. The parser, like
/// Cassandra's, commits to the hint, so such keys are not generated.
fn ends_in_string_tuple(term: &Term) -> bool {
    match &term.kind {
        TermKind::Tuple(items) => {
            matches!(items.as_slice(), [only] if matches!(only.kind, TermKind::Literal(Literal::String(_))))
        }
        TermKind::Binary { right: last, .. }
        | TermKind::Negate(last)
        | TermKind::TypeHint { term: last, .. } => ends_in_string_tuple(last),
        _ => false,
    }
}

/// `IN (…)` (possibly empty) or `IN ?`.
pub fn in_values(item: BoxedStrategy<Term>) -> BoxedStrategy<InValues> {
    prop_oneof![
        3 => few(item, 4).prop_map(InValues::List),
        1 => marker().prop_map(|m| InValues::Marker(node(TermKind::Marker(m)))),
    ]
    .boxed()
}

/// An integer literal or a marker: what LIMIT, TTL and TIMESTAMP take.
pub fn integer_or_marker() -> BoxedStrategy<Term> {
    prop_oneof![
        3 => literals::integer().prop_map(|l| node(TermKind::Literal(l))),
        1 => marker().prop_map(|m| node(TermKind::Marker(m))),
    ]
    .boxed()
}

/// A tuple literal or a marker: the right side of a multi-column relation.
pub fn tuple_or_marker(depth: u32) -> BoxedStrategy<Term> {
    prop_oneof![
        3 => prop::collection::vec(term(depth), 1..4).prop_map(|items| node(TermKind::Tuple(items))),
        1 => marker().prop_map(|m| node(TermKind::Marker(m))),
    ]
    .boxed()
}
