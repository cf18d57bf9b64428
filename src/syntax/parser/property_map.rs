//! The map form of a property value (`replication = {…}`, a role's
//! `OPTIONS = {…}`), read as Cassandra reads it: any term on either side of
//! each `:` (`fullMapLiteral`), then every key and value checked to be a
//! constant (`convertPropertyMap`). A bind marker, a function call or a
//! collection there is not a syntax error at its first token but this
//! check's SyntaxException, which names the term as Cassandra prints it.

use super::super::ast::{Literal, Term, TermKind};
use super::super::lexer::TokenKind;
use super::common::tok;
use super::input::{PResult, Tokens};
use super::term::term;

/// What Cassandra adds when the term refused is a bind marker.
const MARKER_NOTE: &str = " (bind variables are not supported in DDL queries)";

/// `{ term : term, … }` whose keys and values are all constants.
pub(crate) fn constant_map(i: Tokens<'_>) -> PResult<'_, Vec<(Literal, Literal)>> {
    let (mut i, _) = tok(TokenKind::LBrace)(i)?;
    let mut entries = Vec::new();
    if let Ok((rest, _)) = tok(TokenKind::RBrace)(i) {
        return Ok((rest, Vec::new()));
    }
    loop {
        let (rest, key) = term(i)?;
        let (rest, _) = tok(TokenKind::Colon)(rest)?;
        let (rest, value) = term(rest)?;
        entries.push((key, value));
        i = rest;
        if let Ok((rest, _)) = tok(TokenKind::Comma)(i) {
            i = rest;
            continue;
        }
        let (rest, _) = tok(TokenKind::RBrace)(i)?;
        return constants(rest, entries);
    }
}

/// The entries as constants (parsing goes on at `rest`), or the refusal of
/// the first key or value that is not one (entry by entry, key first).
fn constants(rest: Tokens<'_>, entries: Vec<(Term, Term)>) -> PResult<'_, Vec<(Literal, Literal)>> {
    let mut out = Vec::with_capacity(entries.len());
    for (key, value) in entries {
        let Some(k) = constant(&key) else {
            let message = format!("Invalid property name: {}{}", java_text(&key), note(&key));
            return rest.fail(message, key.span);
        };
        let Some(v) = constant(&value) else {
            let message = format!(
                "Invalid property value: {} for property: {}{}",
                java_text(&value),
                java_text(&key),
                note(&value)
            );
            return rest.fail(message, value.span);
        };
        out.push((k, v));
    }
    Ok((rest, out))
}

/// The term's constant: anything but NULL (`Constants.Literal`).
fn constant(term: &Term) -> Option<Literal> {
    match &term.kind {
        TermKind::Literal(Literal::Null) => None,
        TermKind::Literal(l) => Some(l.clone()),
        _ => None,
    }
}

fn note(term: &Term) -> &'static str {
    if matches!(term.kind, TermKind::Marker(_)) {
        MARKER_NOTE
    } else {
        ""
    }
}

/// A term as Cassandra's `Term.Raw.toString` prints it: strings quoted
/// without escaping, every marker `?`, operators and CAST as the system
/// functions they become, a type hint glued to its term.
fn java_text(term: &Term) -> String {
    let list = |items: &[Term]| items.iter().map(java_text).collect::<Vec<_>>().join(", ");
    let pairs = |pairs: Vec<(String, String)>| {
        pairs
            .into_iter()
            .map(|(k, v)| format!("{k}: {v}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match &term.kind {
        TermKind::Literal(Literal::String(s)) => format!("'{s}'"),
        TermKind::Literal(l) => l.to_string(),
        TermKind::Marker(_) => "?".to_string(),
        TermKind::List(items) => format!("[{}]", list(items)),
        TermKind::Set(items) => format!("{{{}}}", list(items)),
        TermKind::Tuple(items) => format!("({})", list(items)),
        TermKind::Map(entries) => format!(
            "{{{}}}",
            pairs(
                entries
                    .iter()
                    .map(|(k, v)| (java_text(k), java_text(v)))
                    .collect()
            )
        ),
        TermKind::Udt(fields) => format!(
            "{{{}}}",
            pairs(
                fields
                    .iter()
                    .map(|(f, v)| (f.to_string(), java_text(v)))
                    .collect()
            )
        ),
        TermKind::FunctionCall { name, args } => format!("{name}({})", list(args)),
        TermKind::TypeHint { ty, term } => format!("({ty}){}", java_text(term)),
        TermKind::Cast { term, ty } => format!("system.cast_as_{ty}({})", java_text(term)),
        TermKind::Negate(term) => format!("system.\"_negate\"({})", java_text(term)),
        TermKind::Binary { op, left, right } => format!(
            "system.\"{}\"({}, {})",
            op.function_name(),
            java_text(left),
            java_text(right)
        ),
    }
}
