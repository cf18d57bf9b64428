//! SELECT, its selectors, and WHERE relations (shared with UPDATE, DELETE
//! and materialized views).

use nom::combinator::map;
use nom::sequence::preceded;
use nom::Parser;

use super::super::ast::{
    ArithmeticOp, InValues, Literal, MetadataFunction, Operator, Order, Ordering, Relation,
    RelationKind, Select, SelectClause, SelectItem, Selector, SelectorKind, SubSelection, Term,
    TermKind,
};
use super::super::keyword::Keyword;
use super::super::lexer::TokenKind;
use super::super::span::Span;
use super::common::{at_kw, is_name_token, kw, name, qualified_name, tok};
use super::input::{attempt, Class, ExpectedSet, PError, PResult, Tokens};
use super::optional::{opt, passed_over, separated_list0, separated_list1};
use super::term::{
    function_name, hint_type, integer_or_marker, is_function_start, native_type, starts_term, term,
};

/// `SELECT [JSON] [DISTINCT] … FROM t [WHERE …] [GROUP BY …] [ORDER BY …]
/// [PER PARTITION LIMIT n] [LIMIT n] [ALLOW FILTERING]`
pub(crate) fn select(i: Tokens<'_>) -> PResult<'_, Select> {
    let start = i;
    let (i, _) = kw(Keyword::Select)(i)?;
    let (i, json) = modifier(i, Keyword::Json)?;
    let (i, distinct) = modifier(i, Keyword::Distinct)?;
    let (i, selection) = select_clause(i)?;
    let (i, _) = kw(Keyword::From)(i)?;
    let (i, from) = qualified_name(i)?;
    let (i, where_clause) = opt_where(i)?;
    let (i, group_by) = opt(preceded(
        (kw(Keyword::Group), kw(Keyword::By)),
        separated_list1(tok(TokenKind::Comma), selector),
    ))
    .parse(i)?;
    let (i, order_by) = opt(preceded(
        (kw(Keyword::Order), kw(Keyword::By)),
        separated_list1(tok(TokenKind::Comma), ordering),
    ))
    .parse(i)?;
    let (i, per_partition_limit) = opt(preceded(
        (kw(Keyword::Per), kw(Keyword::Partition), kw(Keyword::Limit)),
        integer_or_marker,
    ))
    .parse(i)?;
    let (i, limit) = opt(preceded(kw(Keyword::Limit), integer_or_marker)).parse(i)?;
    let (i, allow_filtering) = opt((kw(Keyword::Allow), kw(Keyword::Filtering))).parse(i)?;
    Ok((
        i,
        Select {
            json,
            distinct,
            selection,
            from,
            where_clause,
            group_by: group_by.unwrap_or_default(),
            order_by: order_by.unwrap_or_default(),
            per_partition_limit,
            limit,
            allow_filtering: allow_filtering.is_some(),
            span: i.span_since(start),
        },
    ))
}

/// `JSON` and `DISTINCT` are unreserved: `SELECT json FROM t` selects a
/// column named json. Cassandra settles it with a syntactic predicate: the
/// word is a modifier when a selection can be read after it, as its
/// parser's lookahead reads one (see [`selection_follows`]). So
/// `SELECT json - json FROM t` is the JSON of `-json`, while
/// `SELECT json AS j FROM t` selects the column json as `j`.
fn modifier(i: Tokens<'_>, k: Keyword) -> PResult<'_, bool> {
    if !at_kw(i, k) {
        return Ok((i, false));
    }
    let after = i.advance(1);
    // After JSON the selection may itself start with the DISTINCT modifier.
    let follows = selection_follows(after)?
        || (k == Keyword::Json
            && at_kw(after, Keyword::Distinct)
            && selection_follows(after.advance(1))?);
    Ok(if follows { (after, true) } else { (i, false) })
}

/// Whether a selection starts at `i` as Cassandra's prediction tells one
/// apart (checked against a 5.0 node): `*` on its own, or a first item
/// that ends where a selection goes on (`,`) or ends (`FROM`) — so in
/// `json AS j` the `as` is no column of a JSON selection, but in
/// `json as FROM t` it is.
fn selection_follows(i: Tokens<'_>) -> Result<bool, nom::Err<PError>> {
    if i.peek_kind() == Some(TokenKind::Star) {
        return Ok(true);
    }
    Ok(attempt(select_item(i))?.is_some_and(|(rest, _)| {
        rest.peek_kind() == Some(TokenKind::Comma) || at_kw(rest, Keyword::From)
    }))
}

/// `*` or selectors with optional aliases.
pub(crate) fn select_clause(i: Tokens<'_>) -> PResult<'_, SelectClause> {
    if let Ok((rest, _)) = tok(TokenKind::Star)(i) {
        return Ok((rest, SelectClause::Star));
    }
    map(
        separated_list1(tok(TokenKind::Comma), select_item),
        SelectClause::Items,
    )
    .parse(i)
}

fn select_item(i: Tokens<'_>) -> PResult<'_, SelectItem> {
    let (i, selector) = selector(i)?;
    let (i, alias) = opt(preceded(kw(Keyword::As), name)).parse(i)?;
    Ok((i, SelectItem { selector, alias }))
}

fn ordering(i: Tokens<'_>) -> PResult<'_, Ordering> {
    let (i, column) = name(i)?;
    let (i, order) = opt(direction).parse(i)?;
    Ok((i, Ordering { column, order }))
}

/// `ASC` or `DESC`.
pub(crate) fn direction(i: Tokens<'_>) -> PResult<'_, Order> {
    match i.peek_kind() {
        Some(TokenKind::Keyword(Keyword::Asc)) => Ok((i.advance(1), Order::Asc)),
        Some(TokenKind::Keyword(Keyword::Desc)) => Ok((i.advance(1), Order::Desc)),
        _ => {
            let mut set = ExpectedSet::default();
            set.keyword(Keyword::Asc);
            set.keyword(Keyword::Desc);
            i.expected(set)
        }
    }
}

fn wrap(kind: SelectorKind, span: Span) -> Selector {
    Selector { kind, span }
}

/// A selector, with arithmetic (`* / %` binding tighter than `+ -`).
pub(crate) fn selector(i: Tokens<'_>) -> PResult<'_, Selector> {
    let start = i;
    let (mut i, mut left) = selector_product(i)?;
    loop {
        let op = match i.peek_kind() {
            Some(TokenKind::Plus) => ArithmeticOp::Add,
            Some(TokenKind::Minus) => ArithmeticOp::Sub,
            Some(TokenKind::Integer | TokenKind::Float)
                if i.peek().is_some_and(|t| i.text(t).starts_with('-')) =>
            {
                let (rest, right) = negative_literal_operand(i, start)?;
                left = binary(ArithmeticOp::Sub, left, right, rest.span_since(start));
                i = rest;
                continue;
            }
            _ => break,
        };
        let Some((rest, right)) = attempt(selector_product(i.advance(1)))? else {
            break;
        };
        left = binary(op, left, right, rest.span_since(start));
        i = rest;
    }
    Ok((i, left))
}

/// `a -1` in a selector reads as `a - 1`, like in a term.
fn negative_literal_operand<'a>(i: Tokens<'a>, _start: Tokens<'a>) -> PResult<'a, Selector> {
    let Some(t) = i.peek() else {
        return i.expected_class(Class::Term);
    };
    let text = i.text(t)[1..].to_string();
    let literal = if t.kind == TokenKind::Integer {
        Literal::Integer(text)
    } else {
        Literal::Float(text)
    };
    let span = Span::new(t.span.start + 1, t.span.end);
    let first = wrap(
        SelectorKind::Term(Term {
            kind: TermKind::Literal(literal),
            span,
        }),
        span,
    );
    selector_product_continuing(i.advance(1), i, first)
}

fn binary(op: ArithmeticOp, left: Selector, right: Selector, span: Span) -> Selector {
    wrap(
        SelectorKind::Binary {
            op,
            left: Box::new(left),
            right: Box::new(right),
        },
        span,
    )
}

fn selector_product(i: Tokens<'_>) -> PResult<'_, Selector> {
    let start = i;
    let (i, first) = selector_unary(i)?;
    selector_product_continuing(i, start, first)
}

fn selector_product_continuing<'a>(
    mut i: Tokens<'a>,
    start: Tokens<'a>,
    first: Selector,
) -> PResult<'a, Selector> {
    let mut left = first;
    loop {
        let op = match i.peek_kind() {
            Some(TokenKind::Star) => ArithmeticOp::Mul,
            Some(TokenKind::Slash) => ArithmeticOp::Div,
            Some(TokenKind::Percent) => ArithmeticOp::Rem,
            _ => break,
        };
        let Some((rest, right)) = attempt(selector_unary(i.advance(1)))? else {
            break;
        };
        left = binary(op, left, right, rest.span_since(start));
        i = rest;
    }
    Ok((i, left))
}

/// `-s`, where `s` may be negated again (`- -x`): Cassandra's
/// `selectionGroup` is `'-' selectionGroup`, unlike a term, which takes one
/// minus only. The nesting check bounds the chain before parsing.
fn selector_unary(i: Tokens<'_>) -> PResult<'_, Selector> {
    if i.peek_kind() != Some(TokenKind::Minus) {
        return selector_postfix(i);
    }
    let start = i;
    let (i, inner) = selector_unary(i.advance(1))?;
    let span = i.span_since(start);
    let kind = match inner.kind {
        SelectorKind::Term(Term {
            kind: TermKind::Literal(Literal::Integer(t)),
            ..
        }) if !t.starts_with('-') => literal_selector(Literal::Integer(format!("-{t}")), span),
        SelectorKind::Term(Term {
            kind: TermKind::Literal(Literal::Float(t)),
            ..
        }) if !t.starts_with('-') => literal_selector(Literal::Float(format!("-{t}")), span),
        other => SelectorKind::Negate(Box::new(wrap(other, inner.span))),
    };
    Ok((i, wrap(kind, span)))
}

fn literal_selector(literal: Literal, span: Span) -> SelectorKind {
    SelectorKind::Term(Term {
        kind: TermKind::Literal(literal),
        span,
    })
}

/// A selector followed by any number of `[…]`, `[a..b]` or `.field`.
fn selector_postfix(i: Tokens<'_>) -> PResult<'_, Selector> {
    let start = i;
    let (mut i, mut selector) = selector_primary(i)?;
    loop {
        let (rest, sub) = match i.peek_kind() {
            Some(TokenKind::LBracket) => sub_element(i)?,
            Some(TokenKind::Dot) if is_name_token(i.peek_kind_at(1)) => {
                let (rest, field) = name(i.advance(1))?;
                (rest, SubSelection::Field(field))
            }
            _ => break,
        };
        selector = wrap(
            SelectorKind::Sub {
                selector: Box::new(selector),
                sub,
            },
            rest.span_since(start),
        );
        i = rest;
    }
    Ok((i, selector))
}

/// `[term]` or `[from..to]` with either bound optional.
pub(crate) fn sub_element(i: Tokens<'_>) -> PResult<'_, SubSelection> {
    let (i, _) = tok(TokenKind::LBracket)(i)?;
    let (i, from) = opt(term).parse(i)?;
    if let Ok((i, _)) = tok(TokenKind::DotDot)(i) {
        let (i, to) = opt(term).parse(i)?;
        let (i, _) = tok(TokenKind::RBracket)(i)?;
        return Ok((i, SubSelection::Slice(from.map(Box::new), to.map(Box::new))));
    }
    let Some(element) = from else {
        return i.expected_class(Class::Term);
    };
    let (i, _) = tok(TokenKind::RBracket)(i)?;
    Ok((i, SubSelection::Element(element)))
}

fn metadata_function(k: Keyword) -> Option<MetadataFunction> {
    match k {
        Keyword::Writetime => Some(MetadataFunction::WriteTime),
        Keyword::Maxwritetime => Some(MetadataFunction::MaxWriteTime),
        Keyword::Ttl => Some(MetadataFunction::Ttl),
        _ => None,
    }
}

fn selector_primary(i: Tokens<'_>) -> PResult<'_, Selector> {
    let start = i;
    let kind = i.peek_kind();
    let call = i.peek_kind_at(1) == Some(TokenKind::LParen);
    let (i, kind) = match kind {
        Some(TokenKind::Keyword(Keyword::Count))
            if call && i.peek_kind_at(2) == Some(TokenKind::Star) =>
        {
            let (i, _) = (
                kw(Keyword::Count),
                tok(TokenKind::LParen),
                tok(TokenKind::Star),
                tok(TokenKind::RParen),
            )
                .parse(i)?;
            (i, SelectorKind::CountStar)
        }
        Some(TokenKind::Keyword(k)) if call && metadata_function(k).is_some() => metadata(i)?,
        Some(TokenKind::Keyword(Keyword::Cast)) if call => selector_cast(i)?,
        // Reserved, `token` only names the function: Cassandra's parser
        // wants the `(` after it.
        Some(TokenKind::Keyword(Keyword::Token)) if !call => {
            return i.advance(1).expected_kind(TokenKind::LParen)
        }
        k if is_function_start(i, k) => {
            let (i, name) = function_name(i)?;
            let (i, _) = tok(TokenKind::LParen)(i)?;
            let (i, args) = separated_list0(tok(TokenKind::Comma), selector).parse(i)?;
            let (i, _) = tok(TokenKind::RParen)(i)?;
            let name = Box::new(name);
            (i, SelectorKind::Function { name, args })
        }
        k if is_name_token(k) => map(name, SelectorKind::Column).parse(i)?,
        Some(TokenKind::LParen) => selector_hint_or_tuple(i)?,
        Some(TokenKind::LBracket) => {
            let (i, _) = tok(TokenKind::LBracket)(i)?;
            let (i, items) = separated_list0(tok(TokenKind::Comma), selector).parse(i)?;
            let (i, _) = tok(TokenKind::RBracket)(i)?;
            (i, SelectorKind::List(items))
        }
        Some(TokenKind::LBrace) => selector_braces(i)?,
        _ if starts_term(i) => map(super::term::simple_term, SelectorKind::Term).parse(i)?,
        _ => return i.expected_class(Class::Name),
    };
    Ok((i, wrap(kind, i.span_since(start))))
}

/// `WRITETIME(c)`, `MAXWRITETIME(c)` or `TTL(c)`, with an optional element
/// or field of the column.
fn metadata(i: Tokens<'_>) -> PResult<'_, SelectorKind> {
    let function = match i.peek_kind() {
        Some(TokenKind::Keyword(k)) => metadata_function(k),
        _ => None,
    };
    let Some(function) = function else {
        return i.expected_class(Class::Name);
    };
    let (i, _) = tok(TokenKind::LParen)(i.advance(1))?;
    let (i, column) = name(i)?;
    let (i, sub) = match i.peek_kind() {
        Some(TokenKind::LBracket) => map(sub_element, Some).parse(i)?,
        Some(TokenKind::Dot) => {
            let (i, field) = name(i.advance(1))?;
            (i, Some(SubSelection::Field(field)))
        }
        _ => (i, None),
    };
    let (i, _) = tok(TokenKind::RParen)(i)?;
    Ok((
        i,
        SelectorKind::Metadata {
            function,
            column,
            sub: sub.map(Box::new),
        },
    ))
}

fn selector_cast(i: Tokens<'_>) -> PResult<'_, SelectorKind> {
    let (i, _) = kw(Keyword::Cast)(i)?;
    let (i, _) = tok(TokenKind::LParen)(i)?;
    let (i, inner) = selector(i)?;
    let (i, _) = kw(Keyword::As)(i)?;
    let (i, ty) = native_type(i)?;
    let (i, _) = tok(TokenKind::RParen)(i)?;
    Ok((
        i,
        SelectorKind::Cast {
            selector: Box::new(inner),
            ty: super::super::ast::CqlType::Native(ty),
        },
    ))
}

/// `(type) selector` or a tuple. As in Cassandra's `selectionTypeHint`, the
/// hint covers a primary only: `(int) m[1]` subscripts the hinted `m`, and
/// `(a) - b` is a tuple minus `b`, not a hint on `-b`. Nor is a primary
/// that a name follows hinted (`(a) AS b`: not the column `as` hinted as
/// type `a`), as Cassandra's lookahead sees no selector there.
fn selector_hint_or_tuple(i: Tokens<'_>) -> PResult<'_, SelectorKind> {
    let (after_paren, _) = tok(TokenKind::LParen)(i)?;
    if let (rest, Some(ty)) = hint_type(after_paren)? {
        match selector_primary(rest) {
            Ok((rest, _)) if is_name_token(rest.peek_kind()) && !at_kw(rest, Keyword::As) => {}
            Ok((rest, hinted)) => {
                return Ok((
                    rest,
                    SelectorKind::TypeHint {
                        ty,
                        selector: Box::new(hinted),
                    },
                ))
            }
            Err(nom::Err::Failure(e)) => return Err(nom::Err::Failure(e)),
            Err(_) => {}
        }
    }
    let (i, items) = separated_list1(tok(TokenKind::Comma), selector).parse(after_paren)?;
    let (i, _) = tok(TokenKind::RParen)(i)?;
    Ok((i, SelectorKind::Tuple(items)))
}

fn selector_braces(i: Tokens<'_>) -> PResult<'_, SelectorKind> {
    let (i, _) = tok(TokenKind::LBrace)(i)?;
    let (i, braced) = super::common::braced(i, selector)?;
    Ok((
        i,
        match braced {
            super::common::Braced::Set(items) => SelectorKind::Set(items),
            super::common::Braced::Map(entries) => SelectorKind::Map(entries),
        },
    ))
}

/// `WHERE relation AND relation …`, or nothing.
pub(crate) fn opt_where(i: Tokens<'_>) -> PResult<'_, Vec<Relation>> {
    if !at_kw(i, Keyword::Where) {
        let mut set = ExpectedSet::default();
        set.keyword(Keyword::Where);
        passed_over(i, set);
        return Ok((i, Vec::new()));
    }
    where_clause(i)
}

/// `WHERE relation AND relation …`
pub(crate) fn where_clause(i: Tokens<'_>) -> PResult<'_, Vec<Relation>> {
    let (i, _) = kw(Keyword::Where)(i)?;
    separated_list1(kw(Keyword::And), relation).parse(i)
}

/// A comparison operator.
pub(crate) fn operator(i: Tokens<'_>) -> PResult<'_, Operator> {
    let op = match i.peek_kind() {
        Some(TokenKind::Eq) => Operator::Eq,
        Some(TokenKind::Ne) => Operator::Ne,
        Some(TokenKind::Lt) => Operator::Lt,
        Some(TokenKind::Le) => Operator::Le,
        Some(TokenKind::Gt) => Operator::Gt,
        Some(TokenKind::Ge) => Operator::Ge,
        _ => {
            let mut set = ExpectedSet::default();
            for kind in [
                TokenKind::Eq,
                TokenKind::Ne,
                TokenKind::Lt,
                TokenKind::Le,
                TokenKind::Gt,
                TokenKind::Ge,
            ] {
                set.kind(kind);
            }
            return i.expected(set);
        }
    };
    Ok((i.advance(1), op))
}

/// `IN (…)` or `IN ?` after the IN keyword.
pub(crate) fn in_values(i: Tokens<'_>) -> PResult<'_, InValues> {
    if matches!(i.peek_kind(), Some(TokenKind::Question | TokenKind::Colon)) {
        return map(super::term::simple_term, InValues::Marker).parse(i);
    }
    let (i, _) = tok(TokenKind::LParen)(i)?;
    let (i, values) = separated_list0(tok(TokenKind::Comma), term).parse(i)?;
    let (i, _) = tok(TokenKind::RParen)(i)?;
    Ok((i, InValues::List(values)))
}

/// The `KEY` of `CONTAINS KEY`, if present. KEY is unreserved, so in
/// `CONTAINS key.f(x)` it is the keyspace of a function instead, which the
/// `.` after it shows.
pub(crate) fn contains_key(i: Tokens<'_>) -> (Tokens<'_>, bool) {
    if at_kw(i, Keyword::Key) && i.peek_kind_at(1) != Some(TokenKind::Dot) {
        (i.advance(1), true)
    } else {
        (i, false)
    }
}

/// One WHERE restriction.
pub(crate) fn relation(i: Tokens<'_>) -> PResult<'_, Relation> {
    let start = i;
    let (i, kind) = match i.peek_kind() {
        Some(TokenKind::Keyword(Keyword::Token)) => token_relation(i)?,
        Some(TokenKind::LParen) => match multi_column_relation(i) {
            Ok(found) => found,
            Err(nom::Err::Error(_)) => {
                let (i, _) = tok(TokenKind::LParen)(i)?;
                let (i, inner) = relation(i)?;
                let (i, _) = tok(TokenKind::RParen)(i)?;
                (i, inner.kind)
            }
            Err(e) => return Err(e),
        },
        _ => single_column_relation(i)?,
    };
    Ok((
        i,
        Relation {
            kind,
            span: i.span_since(start),
        },
    ))
}

fn token_relation(i: Tokens<'_>) -> PResult<'_, RelationKind> {
    let (i, _) = kw(Keyword::Token)(i)?;
    let (i, _) = tok(TokenKind::LParen)(i)?;
    let (i, columns) = separated_list0(tok(TokenKind::Comma), name).parse(i)?;
    let (i, _) = tok(TokenKind::RParen)(i)?;
    let (i, op) = operator(i)?;
    let (i, value) = term(i)?;
    Ok((i, RelationKind::Token { columns, op, value }))
}

fn multi_column_relation(i: Tokens<'_>) -> PResult<'_, RelationKind> {
    let (i, _) = tok(TokenKind::LParen)(i)?;
    let (i, columns) = separated_list1(tok(TokenKind::Comma), name).parse(i)?;
    let (i, _) = tok(TokenKind::RParen)(i)?;
    if let Ok((i, _)) = kw(Keyword::In)(i) {
        let (i, values) = in_values(i)?;
        return Ok((i, RelationKind::MultiIn { columns, values }));
    }
    let (i, op) = operator(i)?;
    let (i, value) = term(i)?;
    Ok((i, RelationKind::MultiCompare { columns, op, value }))
}

fn single_column_relation(i: Tokens<'_>) -> PResult<'_, RelationKind> {
    let (i, column) = name(i)?;
    match i.peek_kind() {
        Some(TokenKind::Keyword(Keyword::In)) => {
            let (i, values) = in_values(i.advance(1))?;
            Ok((i, RelationKind::In { column, values }))
        }
        Some(TokenKind::Keyword(Keyword::Contains)) => {
            let (i, key) = contains_key(i.advance(1));
            let (i, value) = term(i)?;
            Ok((i, RelationKind::Contains { column, key, value }))
        }
        Some(TokenKind::Keyword(Keyword::Like)) => {
            let (i, value) = term(i.advance(1))?;
            Ok((i, RelationKind::Like { column, value }))
        }
        Some(TokenKind::Keyword(Keyword::Is)) => {
            let (i, _) = (kw(Keyword::Is), kw(Keyword::Not), kw(Keyword::Null)).parse(i)?;
            Ok((i, RelationKind::IsNotNull { column }))
        }
        Some(TokenKind::LBracket) => {
            let (i, _) = tok(TokenKind::LBracket)(i)?;
            let (i, key) = term(i)?;
            let (i, _) = tok(TokenKind::RBracket)(i)?;
            let (i, op) = operator(i)?;
            let (i, value) = term(i)?;
            Ok((
                i,
                RelationKind::MapEntry {
                    column,
                    key: Box::new(key),
                    op,
                    value,
                },
            ))
        }
        _ => {
            let mut set = ExpectedSet::default();
            set.keyword(Keyword::In);
            set.keyword(Keyword::Contains);
            set.keyword(Keyword::Like);
            set.keyword(Keyword::Is);
            set.kind(TokenKind::LBracket);
            i.expected::<()>(set).ok();
            let (i, op) = operator(i)?;
            let (i, value) = term(i)?;
            Ok((i, RelationKind::Compare { column, op, value }))
        }
    }
}
