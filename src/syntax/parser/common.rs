//! Productions every statement uses: keywords, punctuation, names,
//! constants, USING clauses and property lists.

use nom::combinator::map;
use nom::sequence::{delimited, pair};
use nom::Parser;

use super::super::ast::{BindMarker, Ident, Literal, Property, PropertyValue, QualifiedName};
use super::super::keyword::Keyword;
use super::super::lexer::TokenKind;
use super::super::span::Span;
use super::input::{Class, ExpectedSet, PResult, Tokens};
use super::optional::{opt, separated_list1};

/// Matches one keyword.
pub(crate) fn kw<'a>(k: Keyword) -> impl Fn(Tokens<'a>) -> PResult<'a, Span> {
    move |i: Tokens<'a>| match i.peek() {
        Some(t) if t.kind == TokenKind::Keyword(k) => Ok((i.advance(1), t.span)),
        _ => i.expected_keyword(k),
    }
}

/// Matches one token of a given kind (punctuation, mostly).
pub(crate) fn tok<'a>(kind: TokenKind) -> impl Fn(Tokens<'a>) -> PResult<'a, Span> {
    move |i: Tokens<'a>| match i.peek() {
        Some(t) if t.kind == kind => Ok((i.advance(1), t.span)),
        _ => i.expected_kind(kind),
    }
}

/// Whether the next token is keyword `k`, without consuming it or recording
/// an expectation.
pub(crate) fn at_kw(i: Tokens<'_>, k: Keyword) -> bool {
    i.peek_kind() == Some(TokenKind::Keyword(k))
}

/// `IF NOT EXISTS`, or nothing.
pub(crate) fn if_not_exists(i: Tokens<'_>) -> PResult<'_, bool> {
    map(
        opt((kw(Keyword::If), kw(Keyword::Not), kw(Keyword::Exists))),
        |o| o.is_some(),
    )
    .parse(i)
}

/// `IF EXISTS`, or nothing.
pub(crate) fn if_exists(i: Tokens<'_>) -> PResult<'_, bool> {
    map(opt(pair(kw(Keyword::If), kw(Keyword::Exists))), |o| {
        o.is_some()
    })
    .parse(i)
}

/// `( p, p, … )` with at least one item.
pub(crate) fn parenthesized_list<'a, O>(
    item: impl Parser<Tokens<'a>, Output = O, Error = super::input::PError>,
) -> impl Parser<Tokens<'a>, Output = Vec<O>, Error = super::input::PError> {
    delimited(
        tok(TokenKind::LParen),
        separated_list1(tok(TokenKind::Comma), item),
        tok(TokenKind::RParen),
    )
}

/// Whether a token can serve as a name: an identifier, a quoted identifier
/// or an unreserved keyword.
pub(crate) fn is_name_token(kind: Option<TokenKind>) -> bool {
    match kind {
        Some(TokenKind::Ident | TokenKind::QuotedIdent) => true,
        Some(TokenKind::Keyword(k)) => !k.is_reserved(),
        _ => false,
    }
}

/// A name: unquoted names and unreserved keywords fold to lower case,
/// quoted names keep their case with `""` read as `"`.
pub(crate) fn name(i: Tokens<'_>) -> PResult<'_, Ident> {
    let Some(t) = i.peek() else {
        return i.expected_class(Class::Name);
    };
    let text = i.text(t);
    let name = match t.kind {
        TokenKind::QuotedIdent => text[1..text.len() - 1].replace("\"\"", "\""),
        kind if is_name_token(Some(kind)) => text.to_ascii_lowercase(),
        _ => return i.expected_class(Class::Name),
    };
    Ok((i.advance(1), Ident { name, span: t.span }))
}

/// `name` or `keyspace.name`.
pub(crate) fn qualified_name(i: Tokens<'_>) -> PResult<'_, QualifiedName> {
    let start = i;
    let (i, first) = name(i)?;
    let mark = i.tracker().mark();
    let (i, second) = nom::combinator::opt(pair(tok(TokenKind::Dot), name)).parse(i)?;
    // ANTLR decides `ks.` or not by the token after the name: one that may
    // follow a table name settles it (the `.` was optional), any other
    // leaves no viable alternative.
    if second.is_none() && may_follow_a_table_name(i.peek_kind()) {
        i.tracker().declined(mark, i.start);
    }
    let (keyspace, name) = match second {
        Some((_, second)) => (Some(first), second),
        None => (None, first),
    };
    Ok((
        i,
        QualifiedName {
            keyspace,
            name,
            span: i.span_since(start),
        },
    ))
}

/// The tokens that follow a table name somewhere in Cassandra's grammar.
pub(crate) fn may_follow_a_table_name(kind: Option<TokenKind>) -> bool {
    use Keyword as K;
    match kind {
        None | Some(TokenKind::Semicolon | TokenKind::LParen) => true,
        Some(TokenKind::Keyword(k)) => matches!(
            k,
            K::Using
                | K::Where
                | K::Set
                | K::With
                | K::If
                | K::Add
                | K::Alter
                | K::Drop
                | K::Rename
                | K::Json
                | K::Group
                | K::Order
                | K::Per
                | K::Limit
                | K::Allow
                | K::As
                | K::To
                | K::From
        ),
        _ => false,
    }
}

/// `?` or `:name`.
pub(crate) fn bind_marker(i: Tokens<'_>) -> PResult<'_, BindMarker> {
    match i.peek_kind() {
        Some(TokenKind::Question) => Ok((i.advance(1), BindMarker::Anonymous)),
        Some(TokenKind::Colon) => map(name, BindMarker::Named).parse(i.advance(1)),
        _ => {
            let mut set = ExpectedSet::default();
            set.kind(TokenKind::Question);
            set.kind(TokenKind::Colon);
            i.expected(set)
        }
    }
}

/// Reads a float token's text in canonical spelling for the specials.
fn float_text(text: &str) -> String {
    let (sign, body) = match text.strip_prefix('-') {
        Some(body) => ("-", body),
        None => ("", text),
    };
    if body.eq_ignore_ascii_case("nan") {
        format!("{sign}NaN")
    } else if body.eq_ignore_ascii_case("infinity") {
        format!("{sign}Infinity")
    } else {
        text.to_string()
    }
}

/// A constant: string, number, boolean, duration, uuid, blob, `NaN`,
/// `Infinity`. `NULL` is not a constant here (see [`literal`]).
pub(crate) fn constant(i: Tokens<'_>) -> PResult<'_, Literal> {
    match constant_at(i) {
        Some(found) => Ok(found),
        None => i.expected_class(Class::Constant),
    }
}

/// A constant or `NULL` if one is next, recording no expectation otherwise:
/// for callers that report a wider class ("term") themselves.
pub(crate) fn literal_at(i: Tokens<'_>) -> Option<(Tokens<'_>, Literal)> {
    if at_kw(i, Keyword::Null) {
        return Some((i.advance(1), Literal::Null));
    }
    constant_at(i)
}

fn constant_at(i: Tokens<'_>) -> Option<(Tokens<'_>, Literal)> {
    let t = i.peek()?;
    let literal = token_constant(t.kind, i.text(t))?;
    Some((i.advance(1), literal))
}

/// The constant a token of `kind` with `text` is, if it is one on its own
/// (`NULL`, a keyword, is not: callers that accept it test for it first).
pub(crate) fn token_constant(kind: TokenKind, text: &str) -> Option<Literal> {
    Some(match kind {
        TokenKind::String => {
            let body = &text[1..text.len() - 1];
            // Most strings have no quote to unescape: a one-byte search is far
            // cheaper than the substring search `replace` sets up.
            Literal::String(if body.contains('\'') {
                body.replace("''", "'")
            } else {
                body.to_string()
            })
        }
        TokenKind::DollarString => Literal::String(text[2..text.len() - 2].to_string()),
        TokenKind::Integer => Literal::Integer(text.to_string()),
        TokenKind::Float => Literal::Float(float_text(text)),
        TokenKind::Keyword(Keyword::Nan) => Literal::Float("NaN".into()),
        TokenKind::Keyword(Keyword::Infinity) => Literal::Float("Infinity".into()),
        TokenKind::Boolean => Literal::Boolean(text.eq_ignore_ascii_case("true")),
        TokenKind::Duration => Literal::Duration(text.to_string()),
        TokenKind::Uuid => Literal::Uuid(text.to_ascii_lowercase()),
        TokenKind::Hex => Literal::Hex(text[2..].to_ascii_lowercase()),
        _ => return None,
    })
}

/// A string constant, unquoted.
pub(crate) fn string(i: Tokens<'_>) -> PResult<'_, String> {
    match i.peek_kind() {
        Some(TokenKind::String | TokenKind::DollarString) => match constant(i)? {
            (rest, Literal::String(s)) => Ok((rest, s)),
            _ => i.expected_kind(TokenKind::String),
        },
        _ => i.expected_kind(TokenKind::String),
    }
}

/// An integer constant, as its text.
pub(crate) fn integer(i: Tokens<'_>) -> PResult<'_, Literal> {
    match i.peek() {
        Some(t) if t.kind == TokenKind::Integer => {
            Ok((i.advance(1), Literal::Integer(i.text(t).to_string())))
        }
        _ => i.expected_kind(TokenKind::Integer),
    }
}

fn property_value(i: Tokens<'_>) -> PResult<'_, PropertyValue> {
    match i.peek_kind() {
        Some(TokenKind::LBrace) => {
            map(super::property_map::constant_map, PropertyValue::Map).parse(i)
        }
        Some(TokenKind::Keyword(k)) if !k.is_reserved() => map(name, PropertyValue::Name).parse(i),
        _ => map(constant, PropertyValue::Constant).parse(i),
    }
}

/// `name = value`.
pub(crate) fn property(i: Tokens<'_>) -> PResult<'_, Property> {
    let start = i;
    let (i, name) = name(i)?;
    if i.peek_kind() != Some(TokenKind::Eq) {
        // Cassandra's two readings (`= value`, `= {map}`) both start with
        // `=`: a missing one leaves no viable alternative.
        let mut set = ExpectedSet::default();
        set.kind(TokenKind::Eq);
        set.class(Class::Constant);
        return i.expected(set);
    }
    let (i, _) = tok(TokenKind::Eq)(i)?;
    let (i, value) = property_value(i)?;
    Ok((
        i,
        Property {
            name,
            value,
            span: i.span_since(start),
        },
    ))
}

/// Cassandra refuses the same property twice as a syntax error.
pub(crate) fn reject_duplicate_property<'a>(
    i: Tokens<'a>,
    seen: &[&Property],
    property: &Property,
) -> PResult<'a, ()> {
    if seen.iter().any(|p| p.name.name == property.name.name) {
        return i.fail(
            format!("Multiple definitions for property '{}'", property.name.name),
            property.name.span,
        );
    }
    Ok((i, ()))
}

/// `name = value AND name = value …`
pub(crate) fn properties(i: Tokens<'_>) -> PResult<'_, Vec<Property>> {
    let (mut i, first) = property(i)?;
    let mut out = vec![first];
    while let (rest, Some(_)) = opt(kw(Keyword::And)).parse(i)? {
        let (rest, next) = property(rest)?;
        let seen: Vec<&Property> = out.iter().collect();
        reject_duplicate_property(rest, &seen, &next)?;
        out.push(next);
        i = rest;
    }
    Ok((i, out))
}

/// What `{…}` held: a set (an empty `{}` included) or a map.
pub(crate) enum Braced<T> {
    Set(Vec<T>),
    Map(Vec<(T, T)>),
}

/// The rest of `{…}` after its opening brace, with elements read by
/// `element` (terms, or selectors), through the closing brace.
pub(crate) fn braced<'a, T>(
    i: Tokens<'a>,
    element: fn(Tokens<'a>) -> PResult<'a, T>,
) -> PResult<'a, Braced<T>> {
    if let Ok((rest, _)) = tok(TokenKind::RBrace)(i) {
        return Ok((rest, Braced::Set(Vec::new())));
    }
    let (mut i, first) = element(i)?;
    if let Ok((rest, _)) = tok(TokenKind::Colon)(i) {
        let (rest, value) = element(rest)?;
        let mut entries = vec![(first, value)];
        i = rest;
        while let (rest, Some(_)) = opt(tok(TokenKind::Comma)).parse(i)? {
            let (rest, key) = element(rest)?;
            let (rest, _) = tok(TokenKind::Colon)(rest)?;
            let (rest, value) = element(rest)?;
            entries.push((key, value));
            i = rest;
        }
        let (i, _) = tok(TokenKind::RBrace)(i)?;
        return Ok((i, Braced::Map(entries)));
    }
    let mut items = vec![first];
    while let (rest, Some(_)) = opt(tok(TokenKind::Comma)).parse(i)? {
        let (rest, item) = element(rest)?;
        items.push(item);
        i = rest;
    }
    let (i, _) = tok(TokenKind::RBrace)(i)?;
    Ok((i, Braced::Set(items)))
}
