//! Selectors: what SELECT returns and GROUP BY groups on.
//!
//! The layers mirror Cassandra's `selectionAddition`: `selector = product
//! {(+|-) product}`, `product = unary {(*|/|%) unary}`, `unary = ['-']
//! postfix`, `postfix = primary {sub-selection}`, and a primary is a
//! column, literal, marker, function, CAST, `COUNT(*)`, cell metadata, a
//! type hint over another primary, or a tuple/list/set/map of selectors.

use proptest::prelude::*;
use widerow::syntax::ast::{
    ArithmeticOp, CqlType, Literal, MetadataFunction, Selector, SelectorKind, SubSelection,
    TermKind,
};

use super::few;
use super::literals::is_unsigned_number;
use super::names::{function_name, ident};
use super::nodes::{left_assoc, selector as node, ADDITIVE, MULTIPLICATIVE};
use super::terms::{cql_type, native_type, term, value};

/// A selector with arithmetic, nesting at most `depth` levels of brackets.
pub fn selector(depth: u32) -> BoxedStrategy<Selector> {
    let product = left_assoc(unary(depth), MULTIPLICATIVE, binary);
    left_assoc(product, ADDITIVE, binary)
}

fn binary(op: ArithmeticOp, left: Selector, right: Selector) -> Selector {
    node(SelectorKind::Binary {
        op,
        left: Box::new(left),
        right: Box::new(right),
    })
}

/// `['-'] postfix`; as in terms, a minus folds into an unsigned number.
fn unary(depth: u32) -> BoxedStrategy<Selector> {
    let negated = postfix(depth)
        .prop_filter("a minus folds into an unsigned number", |s| {
            !matches!(&s.kind, SelectorKind::Term(t)
                if matches!(&t.kind, TermKind::Literal(l) if is_unsigned_number(l)))
        })
        .prop_map(|s| node(SelectorKind::Negate(Box::new(s))));
    prop_oneof![5 => postfix(depth), 1 => negated].boxed()
}

/// A primary followed by element, slice and field selections.
fn postfix(depth: u32) -> BoxedStrategy<Selector> {
    (primary(depth), few(sub_selection(), 3))
        .prop_map(|(base, subs)| {
            subs.into_iter().fold(base, |selector, sub| {
                node(SelectorKind::Sub {
                    selector: Box::new(selector),
                    sub,
                })
            })
        })
        .boxed()
}

/// `[term]`, `[from..to]` with either end open, or `.field`.
pub fn sub_selection() -> BoxedStrategy<SubSelection> {
    prop_oneof![
        term(0).prop_map(SubSelection::Element),
        (prop::option::of(term(0)), prop::option::of(term(0)))
            .prop_map(|(from, to)| SubSelection::Slice(from.map(Box::new), to.map(Box::new))),
        ident().prop_map(SubSelection::Field),
    ]
    .boxed()
}

/// `WRITETIME(c)`, `MAXWRITETIME(c[k])`, `TTL(c.f)`.
fn metadata() -> BoxedStrategy<Selector> {
    let function = prop::sample::select(vec![
        MetadataFunction::WriteTime,
        MetadataFunction::MaxWriteTime,
        MetadataFunction::Ttl,
    ]);
    (function, ident(), prop::option::of(sub_selection()))
        .prop_map(|(function, column, sub)| {
            node(SelectorKind::Metadata {
                function,
                column,
                sub: sub.map(Box::new),
            })
        })
        .boxed()
}

/// Selectors without inner selectors.
fn leaf() -> BoxedStrategy<Selector> {
    prop_oneof![
        6 => ident().prop_map(SelectorKind::Column).prop_map(node),
        // Of the terms, a selector is only ever a literal or a marker:
        // brackets and function calls are read as selectors.
        3 => value().prop_map(SelectorKind::Term).prop_map(node),
        1 => Just(node(SelectorKind::CountStar)),
        1 => metadata(),
    ]
    .boxed()
}

fn primary(depth: u32) -> BoxedStrategy<Selector> {
    if depth == 0 {
        return leaf();
    }
    let inner = selector(depth - 1);
    let items = |min: usize| prop::collection::vec(inner.clone(), min..4);
    prop_oneof![
        8 => leaf(),
        1 => (inner.clone(), native_type()).prop_map(|(s, ty)| {
            node(SelectorKind::Cast {
                selector: Box::new(s),
                ty: CqlType::Native(ty),
            })
        }),
        2 => (function_name(), items(0))
            .prop_map(|(name, args)| {
                node(SelectorKind::Function {
                    name: Box::new(name),
                    args,
                })
            }),
        1 => (cql_type(1), primary(depth - 1)).prop_map(|(ty, s)| {
            node(SelectorKind::TypeHint {
                ty,
                selector: Box::new(s),
            })
        }),
        1 => items(1)
            .prop_filter("a one-element tuple of a type-like selector", |items| {
                !matches!(items.as_slice(), [only] if reads_as_type(only))
            })
            .prop_map(SelectorKind::Tuple)
            .prop_map(node),
        1 => items(0).prop_map(SelectorKind::List).prop_map(node),
        1 => items(0).prop_map(SelectorKind::Set).prop_map(node),
        // `{}` is the empty set; a map has at least one entry.
        1 => prop::collection::vec((inner.clone(), inner.clone()), 1..4)
            .prop_map(SelectorKind::Map)
            .prop_map(node),
    ]
    .boxed()
}

/// Whether `(selector)` also reads as `(type)`: a column (a user-defined
/// type name), `ks.t` (a qualified one) or a string (a custom class).
///
/// Cassandra's grammar tries `'(' type ')' selector` before the tuple, so a
/// one-element tuple of such a selector followed by anything that starts a
/// selector (`(a) AS x` — `AS` is an unreserved word —, `(a)[1]`,
/// `GROUP BY (a) PER PARTITION LIMIT 1`) is read as a type hint. The tuple
/// cannot be written unambiguously, so it is not generated.
fn reads_as_type(selector: &Selector) -> bool {
    match &selector.kind {
        SelectorKind::Column(_) => true,
        SelectorKind::Term(t) => matches!(t.kind, TermKind::Literal(Literal::String(_))),
        SelectorKind::Sub {
            selector,
            sub: SubSelection::Field(_),
        } => matches!(selector.kind, SelectorKind::Column(_)),
        _ => false,
    }
}
