//! INSERT, UPDATE, DELETE and BATCH.

use nom::sequence::preceded;
use nom::Parser;

use super::super::ast::{
    ArithmeticSign, Assignment, AssignmentKind, Batch, BatchKind, BatchStatement, ColumnRef,
    Condition, ConditionKind, Delete, IfClause, Insert, InsertSource, JsonDefault, Literal, Term,
    TermKind, Update, UsingItem,
};
use super::super::keyword::Keyword;
use super::super::lexer::TokenKind;
use super::common::{at_kw, is_name_token, kw, name, parenthesized_list, qualified_name, tok};
use super::input::{ExpectedSet, PResult, Tokens};
use super::optional::{opt, passed_over, separated_list1};
use super::select::{contains_key, in_values, operator, where_clause};
use super::term::{integer_or_marker, is_function_start, term, value_or_marker};

/// `USING TTL n AND TIMESTAMP n`, or nothing.
pub(crate) fn opt_using(i: Tokens<'_>) -> PResult<'_, Vec<UsingItem>> {
    match opt(kw(Keyword::Using)).parse(i)? {
        (i, Some(_)) => separated_list1(kw(Keyword::And), using_item).parse(i),
        (i, None) => Ok((i, Vec::new())),
    }
}

fn using_item(i: Tokens<'_>) -> PResult<'_, UsingItem> {
    match i.peek_kind() {
        Some(TokenKind::Keyword(Keyword::Ttl)) => {
            let (i, value) = integer_or_marker(i.advance(1))?;
            Ok((i, UsingItem::Ttl(value)))
        }
        Some(TokenKind::Keyword(Keyword::Timestamp)) => {
            let (i, value) = integer_or_marker(i.advance(1))?;
            Ok((i, UsingItem::Timestamp(value)))
        }
        _ => {
            let mut set = ExpectedSet::default();
            set.keyword(Keyword::Ttl);
            set.keyword(Keyword::Timestamp);
            i.expected(set)
        }
    }
}

/// `INSERT INTO t (cols) VALUES (terms) | JSON '…' [DEFAULT NULL|UNSET]
/// [IF NOT EXISTS] [USING …]`
pub(crate) fn insert(i: Tokens<'_>) -> PResult<'_, Insert> {
    let start = i;
    let (i, _) = (kw(Keyword::Insert), kw(Keyword::Into)).parse(i)?;
    let (i, table) = qualified_name(i)?;
    let (i, source) = if at_kw(i, Keyword::Json) {
        insert_json(i.advance(1))?
    } else {
        let (i, columns) = parenthesized_list(name).parse(i)?;
        let (i, _) = kw(Keyword::Values)(i)?;
        let (i, values) = parenthesized_list(term).parse(i)?;
        (i, InsertSource::Values { columns, values })
    };
    let (i, if_not_exists) =
        opt((kw(Keyword::If), kw(Keyword::Not), kw(Keyword::Exists))).parse(i)?;
    let (i, using) = opt_using(i)?;
    Ok((
        i,
        Insert {
            table,
            source,
            if_not_exists: if_not_exists.is_some(),
            using,
            span: i.span_since(start),
        },
    ))
}

fn insert_json(i: Tokens<'_>) -> PResult<'_, InsertSource> {
    let (i, value) = json_value(i)?;
    let (i, default) = opt(preceded(kw(Keyword::Default), json_default)).parse(i)?;
    Ok((i, InsertSource::Json { value, default }))
}

fn json_default(i: Tokens<'_>) -> PResult<'_, JsonDefault> {
    match i.peek_kind() {
        Some(TokenKind::Keyword(Keyword::Null)) => Ok((i.advance(1), JsonDefault::Null)),
        Some(TokenKind::Keyword(Keyword::Unset)) => Ok((i.advance(1), JsonDefault::Unset)),
        _ => {
            let mut set = ExpectedSet::default();
            set.keyword(Keyword::Null);
            set.keyword(Keyword::Unset);
            i.expected(set)
        }
    }
}

/// The JSON document of INSERT JSON: a string or a bind marker.
fn json_value(i: Tokens<'_>) -> PResult<'_, Term> {
    let start = i;
    let (i, kind) = match i.peek_kind() {
        Some(TokenKind::Question | TokenKind::Colon) => {
            let (i, m) = super::common::bind_marker(i)?;
            (i, TermKind::Marker(m))
        }
        Some(TokenKind::String | TokenKind::DollarString) => {
            let (i, s) = super::common::string(i)?;
            (i, TermKind::Literal(Literal::String(s)))
        }
        _ => return i.expected(value_or_marker(TokenKind::String)),
    };
    Ok((
        i,
        Term {
            kind,
            span: i.span_since(start),
        },
    ))
}

/// `UPDATE t [USING …] SET … WHERE … [IF …]`
pub(crate) fn update(i: Tokens<'_>) -> PResult<'_, Update> {
    let start = i;
    let (i, _) = kw(Keyword::Update)(i)?;
    let (i, table) = qualified_name(i)?;
    let (i, using) = opt_using(i)?;
    let (i, _) = kw(Keyword::Set)(i)?;
    let (i, assignments) = separated_list1(tok(TokenKind::Comma), assignment).parse(i)?;
    if let Some((later, name)) = incompatible_setting(&assignments) {
        return i.fail(
            format!("Multiple incompatible setting of column {name}"),
            later.span,
        );
    }
    let (i, where_clause) = where_clause(i)?;
    let (i, if_clause) = opt_if(i)?;
    Ok((
        i,
        Update {
            table,
            using,
            assignments,
            where_clause,
            if_clause,
            span: i.span_since(start),
        },
    ))
}

/// The first assignment that Cql.g's `addRawUpdate` refuses beside an
/// earlier one of the same column (`Operation.RawUpdate.isCompatibleWith`):
/// a whole-column `c = t` goes with nothing else; element settings,
/// additions and removals go together; two settings of one field do not.
fn incompatible_setting(assignments: &[Assignment]) -> Option<(&Assignment, &str)> {
    for (n, later) in assignments.iter().enumerate() {
        let name = setting_column(later);
        let clash = assignments[..n]
            .iter()
            .any(|earlier| setting_column(earlier) == name && !compatible(earlier, later));
        if clash {
            return Some((later, name));
        }
    }
    None
}

fn setting_column(assignment: &Assignment) -> &str {
    match &assignment.kind {
        AssignmentKind::Set { target, .. } => &target.column().name,
        AssignmentKind::Apply { column, .. } | AssignmentKind::Prepend { column, .. } => {
            &column.name
        }
    }
}

fn compatible(earlier: &Assignment, later: &Assignment) -> bool {
    let whole = |a: &Assignment| {
        matches!(
            &a.kind,
            AssignmentKind::Set {
                target: ColumnRef::Column(_),
                ..
            }
        )
    };
    if whole(earlier) || whole(later) {
        return false;
    }
    match (&earlier.kind, &later.kind) {
        (
            AssignmentKind::Set {
                target: ColumnRef::Field(_, a),
                ..
            },
            AssignmentKind::Set {
                target: ColumnRef::Field(_, b),
                ..
            },
        ) => a.name != b.name,
        _ => true,
    }
}

/// `c`, `c[term]` or `c.field`.
fn column_ref(i: Tokens<'_>) -> PResult<'_, ColumnRef> {
    let (i, column) = name(i)?;
    match i.peek_kind() {
        Some(TokenKind::LBracket) => {
            let (i, _) = tok(TokenKind::LBracket)(i)?;
            let (i, element) = term(i)?;
            let (i, _) = tok(TokenKind::RBracket)(i)?;
            Ok((i, ColumnRef::Element(column, Box::new(element))))
        }
        Some(TokenKind::Dot) => {
            let (i, field) = name(i.advance(1))?;
            Ok((i, ColumnRef::Field(column, field)))
        }
        _ => Ok((i, ColumnRef::Column(column))),
    }
}

/// One SET item. `c = c + t`, `c = c - t`, `c = c -1` (the minus lexed with
/// the number) and `c = t + c` must name the same column on both sides;
/// Cassandra reports a mismatch as a syntax error, with these texts.
fn assignment(i: Tokens<'_>) -> PResult<'_, Assignment> {
    let start = i;
    let (i, target) = column_ref(i)?;
    let (i, kind) = match (&target, i.peek_kind()) {
        (ColumnRef::Column(c), Some(TokenKind::PlusEq | TokenKind::MinusEq)) => {
            let op = if i.peek_kind() == Some(TokenKind::PlusEq) {
                ArithmeticSign::Plus
            } else {
                ArithmeticSign::Minus
            };
            let (i, value) = term(i.advance(1))?;
            let kind = AssignmentKind::Apply {
                column: c.clone(),
                op,
                value,
                shorthand: true,
            };
            (i, kind)
        }
        (ColumnRef::Column(c), _) => {
            let (i, _) = tok(TokenKind::Eq)(i)?;
            column_assignment(i, c.clone())?
        }
        _ => {
            let (i, _) = tok(TokenKind::Eq)(i)?;
            let (i, value) = term(i)?;
            (i, AssignmentKind::Set { target, value })
        }
    };
    Ok((
        i,
        Assignment {
            kind,
            span: i.span_since(start),
        },
    ))
}

fn column_assignment(
    i: Tokens<'_>,
    column: super::super::ast::Ident,
) -> PResult<'_, AssignmentKind> {
    let names_a_column = is_name_token(i.peek_kind()) && !is_function_start(i, i.peek_kind());
    if names_a_column {
        let (i, other) = name(i)?;
        let same = other.name == column.name;
        let (i, op, value) = match i.peek_kind() {
            Some(TokenKind::Plus) | Some(TokenKind::Minus) => {
                let op = if i.peek_kind() == Some(TokenKind::Plus) {
                    ArithmeticSign::Plus
                } else {
                    ArithmeticSign::Minus
                };
                if !same {
                    let sign = if op == ArithmeticSign::Plus { "+" } else { "-" };
                    return i.fail(
                        format!("Only expressions of the form X = X {sign}<value> are supported."),
                        other.span,
                    );
                }
                let (i, value) = term(i.advance(1))?;
                (i, op, value)
            }
            Some(TokenKind::Integer) => {
                let t = i.peek().map(|t| (t.span, i.text(t).to_string()));
                let (span, text) = t.unwrap_or_default();
                if !same {
                    let sign = if text.starts_with('-') { '-' } else { '+' };
                    return i.fail(
                        format!("Only expressions of the form X = X {sign} <value> are supported."),
                        other.span,
                    );
                }
                let value = Term {
                    kind: TermKind::Literal(Literal::Integer(text)),
                    span,
                };
                (i.advance(1), ArithmeticSign::Plus, value)
            }
            _ => {
                let mut set = ExpectedSet::default();
                set.kind(TokenKind::Plus);
                set.kind(TokenKind::Minus);
                return i.expected(set);
            }
        };
        return Ok((
            i,
            AssignmentKind::Apply {
                column,
                op,
                value,
                shorthand: false,
            },
        ));
    }
    let (i, value) = term(i)?;
    if i.peek_kind() == Some(TokenKind::Plus) && is_name_token(i.peek_kind_at(1)) {
        let (rest, other) = name(i.advance(1))?;
        if other.name != column.name {
            return i.fail(
                "Only expressions of the form X = <value> + X are supported.",
                other.span,
            );
        }
        return Ok((rest, AssignmentKind::Prepend { column, value }));
    }
    Ok((
        i,
        AssignmentKind::Set {
            target: ColumnRef::Column(column),
            value,
        },
    ))
}

/// `IF EXISTS`, `IF cond AND …`, or nothing.
pub(crate) fn opt_if(i: Tokens<'_>) -> PResult<'_, Option<IfClause>> {
    let (i, Some(_)) = opt(kw(Keyword::If)).parse(i)? else {
        return Ok((i, None));
    };
    // EXISTS is unreserved, so `IF exists = 1` is a condition on a column
    // named exists; the token after it tells which reading is meant.
    let continues_condition = i.peek_kind_at(1).is_some_and(|kind| {
        kind.is_comparison()
            || matches!(
                kind,
                TokenKind::Keyword(Keyword::In | Keyword::Contains)
                    | TokenKind::LBracket
                    | TokenKind::Dot
            )
    });
    if !continues_condition {
        if let Ok((i, _)) = kw(Keyword::Exists)(i) {
            return Ok((i, Some(IfClause::Exists)));
        }
    }
    let (i, conditions) = separated_list1(kw(Keyword::And), condition).parse(i)?;
    Ok((i, Some(IfClause::Conditions(conditions))))
}

fn condition(i: Tokens<'_>) -> PResult<'_, Condition> {
    let start = i;
    let (i, target) = column_ref(i)?;
    let (i, kind) = match (&target, i.peek_kind()) {
        (ColumnRef::Column(c), Some(TokenKind::Keyword(Keyword::Contains))) => {
            let (i, key) = contains_key(i.advance(1));
            let (i, value) = term(i)?;
            let kind = ConditionKind::Contains {
                column: c.clone(),
                key,
                value,
            };
            (i, kind)
        }
        (_, Some(TokenKind::Keyword(Keyword::In))) => {
            let (i, values) = in_values(i.advance(1))?;
            (i, ConditionKind::In { target, values })
        }
        _ => {
            let (i, op) = operator(i)?;
            let (i, value) = term(i)?;
            (i, ConditionKind::Compare { target, op, value })
        }
    };
    Ok((
        i,
        Condition {
            kind,
            span: i.span_since(start),
        },
    ))
}

/// `USING TIMESTAMP n`, or nothing: DELETE takes no TTL (Cassandra's
/// `usingClauseDelete`), so `USING TTL` is a syntax error there.
fn delete_using(i: Tokens<'_>) -> PResult<'_, Vec<UsingItem>> {
    let (i, Some(_)) = opt(kw(Keyword::Using)).parse(i)? else {
        return Ok((i, Vec::new()));
    };
    let (i, _) = kw(Keyword::Timestamp)(i)?;
    let (i, value) = integer_or_marker(i)?;
    Ok((i, vec![UsingItem::Timestamp(value)]))
}

/// `DELETE [targets] FROM t [USING TIMESTAMP n] WHERE … [IF …]`
pub(crate) fn delete(i: Tokens<'_>) -> PResult<'_, Delete> {
    let start = i;
    let (i, _) = kw(Keyword::Delete)(i)?;
    let (i, targets) = if at_kw(i, Keyword::From) {
        (i, Vec::new())
    } else {
        separated_list1(tok(TokenKind::Comma), column_ref).parse(i)?
    };
    let (i, _) = kw(Keyword::From)(i)?;
    let (i, table) = qualified_name(i)?;
    let (i, using) = delete_using(i)?;
    let (i, where_clause) = where_clause(i)?;
    let (i, if_clause) = opt_if(i)?;
    Ok((
        i,
        Delete {
            targets,
            table,
            using,
            where_clause,
            if_clause,
            span: i.span_since(start),
        },
    ))
}

/// `BEGIN [UNLOGGED | COUNTER] BATCH [USING …] stmt; … APPLY BATCH`
pub(crate) fn batch(i: Tokens<'_>) -> PResult<'_, Batch> {
    let start = i;
    let (i, _) = kw(Keyword::Begin)(i)?;
    let (i, kind) = match i.peek_kind() {
        Some(TokenKind::Keyword(Keyword::Unlogged)) => (i.advance(1), BatchKind::Unlogged),
        Some(TokenKind::Keyword(Keyword::Counter)) => (i.advance(1), BatchKind::Counter),
        _ => (i, BatchKind::Logged),
    };
    let (i, _) = kw(Keyword::Batch)(i)?;
    let (mut i, using) = opt_using(i)?;
    let mut statements = Vec::new();
    loop {
        let (rest, statement) = match i.peek_kind() {
            Some(TokenKind::Keyword(Keyword::Insert)) => {
                let (rest, s) = insert(i)?;
                (rest, BatchStatement::Insert(s))
            }
            Some(TokenKind::Keyword(Keyword::Update)) => {
                let (rest, s) = update(i)?;
                (rest, BatchStatement::Update(s))
            }
            Some(TokenKind::Keyword(Keyword::Delete)) => {
                let (rest, s) = delete(i)?;
                (rest, BatchStatement::Delete(s))
            }
            _ => {
                let mut set = ExpectedSet::default();
                set.keyword(Keyword::Insert);
                set.keyword(Keyword::Update);
                set.keyword(Keyword::Delete);
                passed_over(i, set);
                break;
            }
        };
        statements.push(statement);
        i = rest;
        while let (rest, Some(_)) = opt(tok(TokenKind::Semicolon)).parse(i)? {
            i = rest;
        }
    }
    let (i, _) = (kw(Keyword::Apply), kw(Keyword::Batch)).parse(i)?;
    Ok((
        i,
        Batch {
            kind,
            using,
            statements,
            span: i.span_since(start),
        },
    ))
}
