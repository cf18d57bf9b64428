//! Terms (values) and types.
//!
//! ```text
//! term    = product { ('+' | '-') product }     -- `a -1` also reads as `a - 1`
//! product = unary { ('*' | '/' | '%') unary }
//! unary   = ['-'] simple
//! simple  = literal | marker | collection | tuple | '(' type ')' simple
//!         | CAST '(' term AS native_type ')' | function_call
//! ```

use nom::combinator::map;
use nom::Parser;

use super::super::ast::{
    ArithmeticOp, CqlType, FunctionName, Ident, Literal, NativeType, QualifiedName, Term, TermKind,
};
use super::super::keyword::Keyword;
use super::super::lexer::TokenKind;
use super::common::{
    at_kw, bind_marker, is_name_token, kw, literal_at, name, qualified_name, string, tok,
};
use super::input::{attempt, Class, ExpectedSet, PResult, Tokens};
use super::optional::{opt, separated_list0};

/// A term, with arithmetic.
pub(crate) fn term(i: Tokens<'_>) -> PResult<'_, Term> {
    let start = i;
    let (mut i, mut left) = product(i)?;
    loop {
        let (rest, op, right) = match i.peek_kind() {
            Some(TokenKind::Plus) => match attempt(product(i.advance(1)))? {
                Some((rest, right)) => (rest, ArithmeticOp::Add, right),
                None => break,
            },
            Some(TokenKind::Minus) => match attempt(product(i.advance(1)))? {
                Some((rest, right)) => (rest, ArithmeticOp::Sub, right),
                None => break,
            },
            Some(TokenKind::Integer | TokenKind::Float) if starts_with_minus(i) => {
                let (rest, right) = negative_literal_as_subtrahend(i)?;
                (rest, ArithmeticOp::Sub, right)
            }
            _ => break,
        };
        left = Term {
            kind: TermKind::Binary {
                op,
                left: Box::new(left),
                right: Box::new(right),
            },
            span: rest.span_since(start),
        };
        i = rest;
    }
    Ok((i, left))
}

fn starts_with_minus(i: Tokens<'_>) -> bool {
    i.peek().is_some_and(|t| i.text(t).starts_with('-'))
}

/// `a -1` lexes as `a`, `-1`; Cassandra reads it as `a - 1`. The result is
/// the positive literal, continued into a product (`a -1 * b` is `a - 1 * b`).
fn negative_literal_as_subtrahend(i: Tokens<'_>) -> PResult<'_, Term> {
    let Some(t) = i.peek() else {
        return i.expected_class(Class::Term);
    };
    let text = &i.text(t)[1..];
    let literal = match t.kind {
        TokenKind::Integer => Literal::Integer(text.to_string()),
        _ => Literal::Float(text.to_string()),
    };
    let first = Term {
        kind: TermKind::Literal(literal),
        span: super::super::span::Span::new(t.span.start + 1, t.span.end),
    };
    product_continuing(i.advance(1), i, first)
}

fn product(i: Tokens<'_>) -> PResult<'_, Term> {
    let start = i;
    let (i, first) = unary(i)?;
    product_continuing(i, start, first)
}

fn product_continuing<'a>(mut i: Tokens<'a>, start: Tokens<'a>, first: Term) -> PResult<'a, Term> {
    let mut left = first;
    loop {
        let op = match i.peek_kind() {
            Some(TokenKind::Star) => ArithmeticOp::Mul,
            Some(TokenKind::Slash) => ArithmeticOp::Div,
            Some(TokenKind::Percent) => ArithmeticOp::Rem,
            _ => break,
        };
        let Some((rest, right)) = attempt(unary(i.advance(1)))? else {
            break;
        };
        left = Term {
            kind: TermKind::Binary {
                op,
                left: Box::new(left),
                right: Box::new(right),
            },
            span: rest.span_since(start),
        };
        i = rest;
    }
    Ok((i, left))
}

/// `-x`: a minus before a positive number literal folds into the literal.
fn unary(i: Tokens<'_>) -> PResult<'_, Term> {
    if i.peek_kind() != Some(TokenKind::Minus) {
        return simple_term(i);
    }
    let start = i;
    let (i, inner) = simple_term(i.advance(1))?;
    let kind = match inner.kind {
        TermKind::Literal(Literal::Integer(t)) if !t.starts_with('-') => {
            TermKind::Literal(Literal::Integer(format!("-{t}")))
        }
        TermKind::Literal(Literal::Float(t)) if !t.starts_with('-') => {
            TermKind::Literal(Literal::Float(format!("-{t}")))
        }
        other => TermKind::Negate(Box::new(Term {
            kind: other,
            span: inner.span,
        })),
    };
    Ok((
        i,
        Term {
            kind,
            span: i.span_since(start),
        },
    ))
}

/// A term without arithmetic at its top.
pub(crate) fn simple_term(i: Tokens<'_>) -> PResult<'_, Term> {
    let start = i;
    let (i, kind) = match i.peek_kind() {
        Some(TokenKind::Question | TokenKind::Colon) => {
            map(bind_marker, TermKind::Marker).parse(i)?
        }
        Some(TokenKind::LBracket) => list_literal(i)?,
        Some(TokenKind::LBrace) => brace_literal(i)?,
        Some(TokenKind::LParen) => hint_or_tuple(i)?,
        Some(TokenKind::Keyword(Keyword::Cast)) if i.peek_kind_at(1) == Some(TokenKind::LParen) => {
            cast(i)?
        }
        kind if is_function_start(i, kind) => function_call(i)?,
        _ => match literal_at(i) {
            Some((rest, lit)) => (rest, TermKind::Literal(lit)),
            None => return i.expected_class(Class::Term),
        },
    };
    Ok((
        i,
        Term {
            kind,
            span: i.span_since(start),
        },
    ))
}

/// Whether a function call starts here: `name (` or `ks . name (`.
pub(crate) fn is_function_start(i: Tokens<'_>, kind: Option<TokenKind>) -> bool {
    let is_fn_name =
        |k: Option<TokenKind>| is_name_token(k) || k == Some(TokenKind::Keyword(Keyword::Token));
    if !is_fn_name(kind) {
        return false;
    }
    match i.peek_kind_at(1) {
        Some(TokenKind::LParen) => true,
        Some(TokenKind::Dot) => {
            is_fn_name(i.peek_kind_at(2)) && i.peek_kind_at(3) == Some(TokenKind::LParen)
        }
        _ => false,
    }
}

fn fn_name(i: Tokens<'_>) -> PResult<'_, Ident> {
    match i.peek() {
        Some(t) if t.kind == TokenKind::Keyword(Keyword::Token) => Ok((
            i.advance(1),
            Ident {
                name: "token".into(),
                span: t.span,
            },
        )),
        _ => name(i),
    }
}

/// A function name: a name, `token`, optionally keyspace-qualified.
pub(crate) fn function_name(i: Tokens<'_>) -> PResult<'_, FunctionName> {
    let (i, first) = fn_name(i)?;
    if i.peek_kind() == Some(TokenKind::Dot) {
        let (i, second) = fn_name(i.advance(1))?;
        return Ok((
            i,
            FunctionName {
                keyspace: Some(first),
                name: second,
            },
        ));
    }
    Ok((
        i,
        FunctionName {
            keyspace: None,
            name: first,
        },
    ))
}

fn function_call(i: Tokens<'_>) -> PResult<'_, TermKind> {
    let (i, name) = function_name(i)?;
    let (i, _) = tok(TokenKind::LParen)(i)?;
    let (i, args) = separated_list0(tok(TokenKind::Comma), term).parse(i)?;
    let (i, _) = tok(TokenKind::RParen)(i)?;
    Ok((
        i,
        TermKind::FunctionCall {
            name: Box::new(name),
            args,
        },
    ))
}

fn cast(i: Tokens<'_>) -> PResult<'_, TermKind> {
    let (i, _) = kw(Keyword::Cast)(i)?;
    let (i, _) = tok(TokenKind::LParen)(i)?;
    let (i, inner) = term(i)?;
    let (i, _) = kw(Keyword::As)(i)?;
    let (i, ty) = native_type(i)?;
    let (i, _) = tok(TokenKind::RParen)(i)?;
    Ok((
        i,
        TermKind::Cast {
            term: Box::new(inner),
            ty: CqlType::Native(ty),
        },
    ))
}

fn list_literal(i: Tokens<'_>) -> PResult<'_, TermKind> {
    let (i, _) = tok(TokenKind::LBracket)(i)?;
    let (i, items) = separated_list0(tok(TokenKind::Comma), term).parse(i)?;
    let (i, _) = tok(TokenKind::RBracket)(i)?;
    Ok((i, TermKind::List(items)))
}

/// `{}`, `{a, b}`, `{k: v}` or `{field: v}`: a field name followed by `:`
/// makes it a user-defined type value, since a map key is never a bare name.
fn brace_literal(i: Tokens<'_>) -> PResult<'_, TermKind> {
    let (i, _) = tok(TokenKind::LBrace)(i)?;
    if is_name_token(i.peek_kind()) && i.peek_kind_at(1) == Some(TokenKind::Colon) {
        return udt_literal(i);
    }
    let (i, braced) = super::common::braced(i, term)?;
    Ok((
        i,
        match braced {
            super::common::Braced::Set(items) => TermKind::Set(items),
            super::common::Braced::Map(entries) => TermKind::Map(entries),
        },
    ))
}

fn udt_literal(i: Tokens<'_>) -> PResult<'_, TermKind> {
    let mut fields = Vec::new();
    let mut i = i;
    loop {
        let (rest, field) = name(i)?;
        let (rest, _) = tok(TokenKind::Colon)(rest)?;
        let (rest, value) = term(rest)?;
        fields.push((field, value));
        i = rest;
        match opt(tok(TokenKind::Comma)).parse(i)? {
            (rest, Some(_)) => i = rest,
            (_, None) => break,
        }
    }
    let (i, _) = tok(TokenKind::RBrace)(i)?;
    Ok((i, TermKind::Udt(fields)))
}

/// Whether a type could start at the next token: a name (native types and
/// most type constructors are unreserved keywords), the reserved `SET`, or
/// a custom class string. Checked before trying a type hint, so that
/// `(1, 2)` or `()` do not report "expected type" where only a term makes
/// sense.
pub(crate) fn starts_type(i: Tokens<'_>) -> bool {
    matches!(
        i.peek_kind(),
        Some(TokenKind::String | TokenKind::DollarString | TokenKind::Keyword(Keyword::Set))
    ) || is_name_token(i.peek_kind())
}

/// The `type )` of a possible type hint, read after its `(`; `None` (and
/// the input untouched) when no type closes there. A failure that rules
/// out every reading, such as a vector of no dimensions, is passed on
/// rather than taken for "not a hint".
pub(crate) fn hint_type(after_paren: Tokens<'_>) -> PResult<'_, Option<CqlType>> {
    if !starts_type(after_paren) {
        return Ok((after_paren, None));
    }
    match (cql_type, tok(TokenKind::RParen)).parse(after_paren) {
        Ok((rest, (ty, _))) => Ok((rest, Some(ty))),
        Err(nom::Err::Failure(e)) => Err(nom::Err::Failure(e)),
        Err(_) => Ok((after_paren, None)),
    }
}

/// `(type) term` is a type hint; anything else in parentheses is a tuple.
fn hint_or_tuple(i: Tokens<'_>) -> PResult<'_, TermKind> {
    let (after_paren, _) = tok(TokenKind::LParen)(i)?;
    if let (rest, Some(ty)) = hint_type(after_paren)? {
        match simple_term(rest) {
            Ok((rest, hinted)) => {
                return Ok((
                    rest,
                    TermKind::TypeHint {
                        ty,
                        term: Box::new(hinted),
                    },
                ))
            }
            Err(nom::Err::Failure(e)) => return Err(nom::Err::Failure(e)),
            Err(_) => {}
        }
    }
    let (i, items) = separated_list0(tok(TokenKind::Comma), term).parse(after_paren)?;
    if items.is_empty() {
        return i.expected_class(Class::Term);
    }
    let (i, _) = tok(TokenKind::RParen)(i)?;
    Ok((i, TermKind::Tuple(items)))
}

/// A native type name (an unreserved keyword such as `int`).
pub(crate) fn native_type(i: Tokens<'_>) -> PResult<'_, NativeType> {
    if let Some(TokenKind::Keyword(k)) = i.peek_kind() {
        if let Some(t) = NativeType::from_name(k.as_str()) {
            return Ok((i.advance(1), t));
        }
    }
    i.expected_class(Class::Type)
}

fn angle<'a, O>(i: Tokens<'a>, inner: impl Fn(Tokens<'a>) -> PResult<'a, O>) -> PResult<'a, O> {
    let (i, _) = tok(TokenKind::Lt)(i)?;
    let (i, out) = inner(i)?;
    let (i, _) = tok(TokenKind::Gt)(i)?;
    Ok((i, out))
}

/// What Cassandra's parser throws for `frozen<>`: the missing type is a
/// null its action then freezes.
const FROZEN_NULL: &str =
    "Cannot invoke \"org.apache.cassandra.cql3.CQL3Type$Raw.freeze()\" because \"f\" is null";
/// What it throws for a tuple with a missing element (`tuple<>`,
/// `tuple<int,>`): the null element is asked whether it can be frozen.
const TUPLE_NULL: &str = "Cannot invoke \"org.apache.cassandra.cql3.CQL3Type$Raw.supportsFreezing()\" because \"t\" is null";

/// The span of the next token when it is one of `closers`, so that a type
/// is missing right before it: where ANTLR recovers with a null type.
fn empty_type(i: Tokens<'_>, closers: &[TokenKind]) -> Option<super::super::span::Span> {
    i.peek()
        .filter(|t| closers.contains(&t.kind))
        .map(|t| t.span)
}

/// A CQL type: native, collection, tuple, frozen, vector, user-defined or
/// a custom class given as a string.
pub(crate) fn cql_type(i: Tokens<'_>) -> PResult<'_, CqlType> {
    let constructor = match i.peek_kind() {
        Some(TokenKind::Keyword(k)) if i.peek_kind_at(1) == Some(TokenKind::Lt) => Some(k),
        _ => None,
    };
    let after = i.advance(1);
    match constructor {
        Some(Keyword::List) => angle(after, |i| {
            map(cql_type, |t| CqlType::List(Box::new(t))).parse(i)
        }),
        Some(Keyword::Set) => angle(after, |i| {
            map(cql_type, |t| CqlType::Set(Box::new(t))).parse(i)
        }),
        Some(Keyword::Frozen) => angle(after, |i| {
            if let Some(empty) = empty_type(i, &[TokenKind::Gt]) {
                return i.fail_runtime("NullPointerException", FROZEN_NULL, empty);
            }
            map(cql_type, |t| CqlType::Frozen(Box::new(t))).parse(i)
        }),
        Some(Keyword::Map) => angle(after, |i| {
            let (i, k) = cql_type(i)?;
            let (i, _) = tok(TokenKind::Comma)(i)?;
            let (i, v) = cql_type(i)?;
            Ok((i, CqlType::Map(Box::new(k), Box::new(v))))
        }),
        Some(Keyword::Tuple) => angle(after, |i| {
            let element = |i| match empty_type(i, &[TokenKind::Gt, TokenKind::Comma]) {
                Some(empty) => i.fail_runtime("NullPointerException", TUPLE_NULL, empty),
                None => cql_type(i),
            };
            let (i, items) =
                nom::multi::separated_list1(tok(TokenKind::Comma), element).parse(i)?;
            Ok((i, CqlType::Tuple(items)))
        }),
        Some(Keyword::Vector) => angle(after, vector_body),
        _ => simple_type(i),
    }
}

fn vector_body(i: Tokens<'_>) -> PResult<'_, CqlType> {
    let (i, element) = cql_type(i)?;
    let (i, _) = tok(TokenKind::Comma)(i)?;
    let Some(t) = i.peek() else {
        return i.expected_kind(TokenKind::Integer);
    };
    if t.kind != TokenKind::Integer {
        return i.expected_kind(TokenKind::Integer);
    }
    // Cassandra reads the dimension with `Integer.parseInt` while parsing
    // (a number beyond an int is a syntax error) and refuses one below 1
    // only when it builds the type, after the statement's keyspace.
    let text = i.text(t);
    match text.parse::<i32>() {
        Ok(n) => Ok((i.advance(1), CqlType::Vector(Box::new(element), n))),
        Err(_) => i.fail_runtime(
            "NumberFormatException",
            &format!("For input string: \"{text}\""),
            t.span,
        ),
    }
}

fn simple_type(i: Tokens<'_>) -> PResult<'_, CqlType> {
    // `int.address` is the type `address` of a keyspace named int: native
    // type names are unreserved, so they are keyspace names too.
    let qualified = i.peek_kind_at(1) == Some(TokenKind::Dot);
    if !qualified {
        if let Ok((rest, t)) = native_type(i) {
            return Ok((rest, CqlType::Native(t)));
        }
    }
    if matches!(
        i.peek_kind(),
        Some(TokenKind::String | TokenKind::DollarString)
    ) {
        let (rest, class) = string(i)?;
        return Ok((rest, CqlType::Custom(class)));
    }
    if is_name_token(i.peek_kind()) {
        let (rest, name): (_, QualifiedName) = qualified_name(i)?;
        return Ok((rest, CqlType::Udt(Box::new(name))));
    }
    i.expected_class(Class::Type)
}

/// `INTEGER` or a bind marker: what LIMIT, TTL and TIMESTAMP take.
pub(crate) fn integer_or_marker(i: Tokens<'_>) -> PResult<'_, Term> {
    let start = i;
    let (i, kind) = match i.peek_kind() {
        Some(TokenKind::Question | TokenKind::Colon) => {
            map(bind_marker, TermKind::Marker).parse(i)?
        }
        Some(TokenKind::Integer) => map(super::common::integer, TermKind::Literal).parse(i)?,
        _ => return i.expected(value_or_marker(TokenKind::Integer)),
    };
    Ok((
        i,
        Term {
            kind,
            span: i.span_since(start),
        },
    ))
}

/// A literal of `kind` or a bind marker: the alternatives of Cassandra's
/// `intValue` and JSON value rules, so a wrong token there is "no viable
/// alternative", not a mismatch.
pub(crate) fn value_or_marker(kind: TokenKind) -> ExpectedSet {
    let mut set = ExpectedSet::default();
    set.kind(kind);
    set.kind(TokenKind::Question);
    set.kind(TokenKind::Colon);
    set
}

/// Whether a term could start at the next token (used to decide between
/// readings without consuming anything).
pub(crate) fn starts_term(i: Tokens<'_>) -> bool {
    let kind = i.peek_kind();
    match kind {
        Some(
            TokenKind::String
            | TokenKind::DollarString
            | TokenKind::Integer
            | TokenKind::Float
            | TokenKind::Duration
            | TokenKind::Uuid
            | TokenKind::Hex
            | TokenKind::Boolean
            | TokenKind::Question
            | TokenKind::Colon
            | TokenKind::LBracket
            | TokenKind::LBrace
            | TokenKind::LParen
            | TokenKind::Minus,
        ) => true,
        Some(TokenKind::Keyword(Keyword::Null | Keyword::Nan | Keyword::Infinity)) => true,
        _ => is_function_start(i, kind) || at_kw(i, Keyword::Cast),
    }
}
