//! Constructors for AST nodes with empty spans, and the left-associative
//! folding that terms and selectors share.

use proptest::prelude::*;
use widerow::syntax::ast::{
    ArithmeticOp, Ident, QualifiedName, Selector, SelectorKind, Term, TermKind,
};
use widerow::syntax::span::Span;

/// A term of the given shape.
pub fn term(kind: TermKind) -> Term {
    Term {
        kind,
        span: Span::default(),
    }
}

/// A selector of the given shape.
pub fn selector(kind: SelectorKind) -> Selector {
    Selector {
        kind,
        span: Span::default(),
    }
}

/// `keyspace.name` or `name`.
pub fn qualified(keyspace: Option<Ident>, name: Ident) -> QualifiedName {
    QualifiedName {
        keyspace,
        name,
        span: Span::default(),
    }
}

/// `operand { op operand }` folded to the left: `a - b - c` is `(a - b) - c`.
///
/// The printer writes no parentheses (they would make a tuple), so a tree
/// is only printable when every right operand binds tighter than its
/// parent operator. Callers get that by passing, for [`ADDITIVE`], operands
/// that are themselves [`MULTIPLICATIVE`] chains, and for those, unary
/// operands.
pub fn left_assoc<T: Clone + std::fmt::Debug + 'static>(
    operand: BoxedStrategy<T>,
    ops: &'static [ArithmeticOp],
    combine: fn(ArithmeticOp, T, T) -> T,
) -> BoxedStrategy<T> {
    let tail = super::few((prop::sample::select(ops), operand.clone()), 3);
    (operand, tail)
        .prop_map(move |(first, rest)| {
            rest.into_iter()
                .fold(first, |left, (op, right)| combine(op, left, right))
        })
        .boxed()
}

/// `+` and `-`.
pub const ADDITIVE: &[ArithmeticOp] = &[ArithmeticOp::Add, ArithmeticOp::Sub];

/// `*`, `/` and `%`, which bind tighter.
pub const MULTIPLICATIVE: &[ArithmeticOp] =
    &[ArithmeticOp::Mul, ArithmeticOp::Div, ArithmeticOp::Rem];
