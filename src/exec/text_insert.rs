//! Text INSERTs of constants, run as the prepared statement of their shape.
//!
//! A script that loads data repeats one `INSERT … VALUES (constants)` with
//! different constants. Parsing, planning and writing each one through the
//! general path costs ten times what writing its row does. So a session
//! keeps, per shape (the text with its constants cut out, see
//! [`crate::syntax::shape`]), the statement compiled as if its constants
//! were bind markers ([`CompiledInsert`]); a statement of that shape then
//! converts its constants to its columns' types as the general path would
//! ([`coerce`]) and is written as a prepared execution.
//!
//! The result must be the general path's, plan included, and a plan names
//! the partition's key, token and replicas. A statement's plan is made by
//! the planner from the shape's statement with the statement's constants
//! put in place of the markers — the statement the parser would have made
//! of the text — and kept: a statement of the same shape whose partition
//! key constants are written the same way has the same plan, as an
//! INSERT's plan depends only on its table and partition key, and loads
//! arrive grouped by partition more often than not.
//!
//! Every doubt declines to the general path, before anything is written or
//! a write timestamp taken: a shape that does not compile, a constant that
//! does not convert, a value the compiled write would not take, a changed
//! schema (the context stamp), a key written as `'now'`. That path then
//! gives Cassandra's answer or error.

use std::sync::Arc;

use rustc_hash::FxHashMap;
use smallvec::SmallVec;

use crate::planner::{Plan, PlanContext};
use crate::storage::Store;
use crate::syntax::ast::{Insert, InsertSource, Literal, Statement, TermKind};
use crate::syntax::keyword::Keyword;
use crate::syntax::lexer::{Token, TokenKind};
use crate::syntax::shape::InsertShape;
use crate::types::coerce::{coerce, coerce_text};
use crate::types::{DataType, Value};

use super::compiled_insert::{compile_insert, CompiledInsert};

/// How many shapes a session keeps. Past this the map is emptied and
/// refilled: a script has a handful of shapes, and one that writes
/// thousands of distinct ones gains nothing from keeping them.
const KEPT_SHAPES: usize = 256;

/// A session's text INSERT shapes and what each has compiled to.
#[derive(Debug, Clone, Default)]
pub(crate) struct TextInserts {
    /// The statement being run, cut (buffers reused).
    cut: InsertShape,
    /// Whether `cut` holds a shape: the last statement was one.
    cut_is_shape: bool,
    /// Its partition key constants' text, as the plans are keyed.
    key: Vec<u8>,
    /// Its constants, converted: lent to the [`Ready`] statement, so that
    /// running it copies neither them nor the shape's shared parts.
    values: SmallVec<[Value; 8]>,
    /// The shape of `cut`, kept out of `shapes` while it is the one in use
    /// so that a run of statements of one shape looks nothing up.
    current: Option<Shape>,
    /// Every other shape met, by its text.
    shapes: FxHashMap<String, Shape>,
}

/// What one shape compiled to under one context stamp.
#[derive(Debug, Clone)]
struct Shape {
    stamp: u64,
    /// `None` when the shape is not one a compiled INSERT serves.
    compiled: Option<Compiled>,
}

#[derive(Debug, Clone)]
struct Compiled {
    /// The shape parsed, its constants bind markers.
    statement: Statement,
    insert: Arc<CompiledInsert>,
    /// Each constant's column name and type, in the order written, and
    /// the index of each partition key column's constant, in key order:
    /// `insert`'s, laid out for the statements that read them (walking
    /// `insert`'s parts per statement cost about 500 instructions more).
    columns: Vec<(String, DataType)>,
    partition_key: SmallVec<[usize; 2]>,
    /// The plan of the last partition planned, and its key constants' text.
    last_plan: Option<(Vec<u8>, Arc<Plan>)>,
}

/// A statement ready to be written as a prepared execution, borrowed from
/// its shape.
pub(crate) struct Ready<'a> {
    /// The shape's compiled INSERT.
    pub(crate) insert: &'a CompiledInsert,
    /// The constants, converted, in bind order.
    pub(crate) values: &'a [Value],
    /// The general path's plan for the statement.
    pub(crate) plan: &'a Arc<Plan>,
}

impl TextInserts {
    /// `text` ready to be written by its shape, or `None` when the general
    /// path must run it. `stamp` is the session's context stamp.
    pub(crate) fn prepare(
        &mut self,
        text: &str,
        ctx: &PlanContext,
        store: &Store,
        stamp: u64,
    ) -> Option<Ready<'_>> {
        if !starts_with_insert(text) {
            // Left as it is: the shape in use stays in use for the INSERTs
            // between which other statements run.
            return None;
        }
        if !(self.cut_is_shape && self.cut.read_like(text)) {
            self.shelve_current();
            self.cut_is_shape = self.cut.read(text);
            if !self.cut_is_shape {
                return None;
            }
            self.current = self.shapes.remove(&self.cut.text);
        }
        if !matches!(&self.current, Some(shape) if shape.stamp == stamp) {
            let compiled = compile(&self.cut, ctx, store);
            self.current = Some(Shape { stamp, compiled });
        }
        let compiled = self.current.as_mut()?.compiled.as_mut()?;
        if !partition_key_text(
            &self.cut.constants,
            &compiled.partition_key,
            text,
            &mut self.key,
        ) {
            return None;
        }
        if !matches!(&compiled.last_plan, Some((key, _)) if *key == self.key) {
            let plan = Arc::new(plan_with_constants(compiled, &self.cut, text, ctx)?);
            compiled.last_plan = Some((self.key.clone(), plan));
        }
        let columns = &compiled.columns;
        each_constant(&self.cut.constants, columns, text, &mut self.values)?;
        Some(Ready {
            insert: &compiled.insert,
            values: &self.values,
            plan: &compiled.last_plan.as_ref()?.1,
        })
    }

    /// Puts the current shape back among the others, before `cut` is
    /// overwritten by a statement of another shape.
    fn shelve_current(&mut self) {
        let Some(shape) = self.current.take() else {
            return;
        };
        if self.cut_is_shape {
            if self.shapes.len() >= KEPT_SHAPES {
                self.shapes.clear();
            }
            self.shapes.insert(self.cut.text.clone(), shape);
        }
    }
}

/// Whether `text` starts with the word `INSERT` (after white space): any
/// other statement is no shape, and is told so without lexing.
fn starts_with_insert(text: &str) -> bool {
    let bytes = text.as_bytes();
    let blanks = bytes
        .iter()
        .take_while(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
        .count();
    let text = &bytes[blanks..];
    text.get(..6)
        .is_some_and(|w| w.eq_ignore_ascii_case(b"insert"))
        && !text
            .get(6)
            .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
}

/// Compiles a shape: its text parsed as a prepared INSERT, compiled as
/// [`compile_insert`] compiles one.
fn compile(cut: &InsertShape, ctx: &PlanContext, store: &Store) -> Option<Compiled> {
    let statement = crate::syntax::parse_statement(&cut.text).ok()?;
    let offsets = super::marker_offsets(&statement);
    let Statement::Insert(insert) = &statement else {
        return None;
    };
    if offsets.len() != cut.constants.len() {
        return None;
    }
    let compiled = compile_insert(ctx, store, insert, &offsets)?;
    let mut columns: Vec<Option<(String, DataType)>> = vec![None; offsets.len()];
    for (bind, name, data_type) in compiled.bind_columns() {
        *columns.get_mut(bind)? = Some((name.to_string(), data_type.clone()));
    }
    Some(Compiled {
        columns: columns.into_iter().collect::<Option<_>>()?,
        partition_key: compiled.partition_key_binds().collect(),
        insert: Arc::new(compiled),
        statement,
        last_plan: None,
    })
}

/// The plan of the statement `cut` holds: the shape's statement with the
/// constants, as the parser reads them, in place of its markers (the
/// VALUES terms, in order). `None` when the planner refuses it: the
/// general path then gives the refusal.
fn plan_with_constants(
    compiled: &Compiled,
    cut: &InsertShape,
    text: &str,
    ctx: &PlanContext,
) -> Option<Plan> {
    let mut statement = compiled.statement.clone();
    let Statement::Insert(Insert {
        source: InsertSource::Values { values, .. },
        ..
    }) = &mut statement
    else {
        return None;
    };
    if values.len() != cut.constants.len() {
        return None;
    }
    for (term, token) in values.iter_mut().zip(&cut.constants) {
        term.kind = TermKind::Literal(constant(token, text)?);
    }
    crate::planner::plan_statement(ctx, &statement).ok()
}

/// The constant a token is, as the parser reads it.
fn constant(token: &Token, text: &str) -> Option<Literal> {
    match token.kind {
        TokenKind::Keyword(Keyword::Null) => Some(Literal::Null),
        kind => crate::syntax::token_constant(kind, token.text(text)),
    }
}

/// Writes the text of the partition key constants into `key`, each after
/// its length so that no two lists give the same text. `false` when a key
/// constant reads the clock (`'now'` as a timestamp), as its plan's token
/// would change from one statement to the next.
fn partition_key_text(
    constants: &[Token],
    partition_key: &[usize],
    text: &str,
    key: &mut Vec<u8>,
) -> bool {
    key.clear();
    for &at in partition_key {
        let Some(token) = constants.get(at) else {
            return false;
        };
        let constant = token.text(text);
        if token.kind == TokenKind::String
            && constant[1..constant.len() - 1].eq_ignore_ascii_case("now")
        {
            return false;
        }
        // The length as a fixed four bytes: cheaper than decimal digits.
        let length = u32::try_from(constant.len()).unwrap_or(u32::MAX);
        key.extend_from_slice(&length.to_le_bytes());
        key.extend_from_slice(constant.as_bytes());
    }
    true
}

/// Each constant converted to its column's type as the general path
/// converts it, into `values`, or `None` if one does not convert (the
/// general path then gives the error).
fn each_constant(
    constants: &[Token],
    columns: &[(String, DataType)],
    text: &str,
    values: &mut SmallVec<[Value; 8]>,
) -> Option<()> {
    values.clear();
    for (token, (name, data_type)) in constants.iter().zip(columns) {
        let value = match plain_constant(token.kind, token.text(text)) {
            Some((kind, plain)) => coerce_text(&kind, plain, data_type)?,
            None => coerce(&constant(token, text)?, data_type, name).ok()?,
        };
        values.push(value);
    }
    Some(())
}

/// The commonest constants — a string with no quote to unescape, an
/// integer, a float written in digits — as their kind (holding nothing)
/// and the text the parser would give them, borrowed from the token's.
fn plain_constant(kind: TokenKind, text: &str) -> Option<(Literal, &str)> {
    match kind {
        TokenKind::String => {
            let body = &text[1..text.len() - 1];
            (!body.contains('\'')).then_some((Literal::String(String::new()), body))
        }
        TokenKind::Integer => Some((Literal::Integer(String::new()), text)),
        // `NaN` and `Infinity` are spelled over by the parser.
        TokenKind::Float
            if text
                .bytes()
                .all(|b| b.is_ascii_digit() || b".eE+-".contains(&b)) =>
        {
            Some((Literal::Float(String::new()), text))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::starts_with_insert;

    #[test]
    fn only_inserts_are_read_for_a_shape() {
        for text in ["INSERT INTO t", " \n\tinsert(", "Insert"] {
            assert!(starts_with_insert(text), "{text:?}");
        }
        for text in ["SELECT", "INSERTS", "insert_x", "-- c\nINSERT", "INSER", ""] {
            assert!(!starts_with_insert(text), "{text:?}");
        }
    }
}
