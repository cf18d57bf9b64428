//! UNSET bind values (protocol v4+): a value "not set" leaves its column as
//! it is. The statement is bound without what an unset value feeds — the
//! INSERT column, the UPDATE assignment, the USING TTL or TIMESTAMP — as
//! Cassandra skips those operations; an unset value where a value is
//! needed (a key, a condition) is refused with Cassandra's message.

use crate::error::Error;
use crate::syntax::ast::{
    AssignmentKind, ColumnRef, InsertSource, Statement, Term, TermKind, UsingItem,
};

/// `statement` without the parts whose marker (by text offset) is in
/// `unset` (each with its receiver's name, for the message), `None` when
/// nothing is left to do (an UPDATE whose every assignment is unset), or
/// Cassandra's error when an unset value sits where it cannot be skipped —
/// an INSERT's primary key column among them (`is_key` tells which).
pub fn without_unset(
    statement: &Statement,
    unset: &[(usize, String)],
    is_key: &dyn Fn(&str) -> bool,
) -> Result<Option<Statement>, Error> {
    let is_unset = |t: &Term| {
        matches!(t.kind, TermKind::Marker(_)) && unset.iter().any(|(at, _)| *at == t.span.start)
    };
    let mut out = statement.clone();
    let mut skipped = 0;
    let skip_using = |using: &mut Vec<UsingItem>, skipped: &mut usize| {
        using.retain(|item| {
            let (UsingItem::Ttl(t) | UsingItem::Timestamp(t)) = item;
            let keep = !is_unset(t);
            *skipped += usize::from(!keep);
            keep
        });
    };
    match &mut out {
        Statement::Insert(insert) => {
            skip_using(&mut insert.using, &mut skipped);
            if let InsertSource::Values { columns, values } = &mut insert.source {
                let mut kept_columns = Vec::new();
                let mut kept_values = Vec::new();
                for (c, v) in columns.drain(..).zip(values.drain(..)) {
                    if is_unset(&v) && !is_key(&c.name) {
                        skipped += 1;
                    } else {
                        kept_columns.push(c);
                        kept_values.push(v);
                    }
                }
                *columns = kept_columns;
                *values = kept_values;
            }
        }
        Statement::Update(update) => {
            skip_using(&mut update.using, &mut skipped);
            update.assignments.retain(|a| {
                let value = match &a.kind {
                    AssignmentKind::Set { target, value } => {
                        if let ColumnRef::Element(_, key) = target {
                            if is_unset(key) {
                                return true;
                            }
                        }
                        value
                    }
                    AssignmentKind::Apply { value, .. } | AssignmentKind::Prepend { value, .. } => {
                        value
                    }
                };
                let keep = !is_unset(value);
                skipped += usize::from(!keep);
                keep
            });
        }
        Statement::Delete(delete) => skip_using(&mut delete.using, &mut skipped),
        Statement::Select(select) => {
            for limit in [&mut select.limit, &mut select.per_partition_limit] {
                if limit.as_ref().is_some_and(&is_unset) {
                    *limit = None;
                    skipped += 1;
                }
            }
        }
        _ => {}
    }
    if skipped < unset.len() {
        // Some unset value feeds a part that cannot be skipped: find which.
        let remaining = crate::exec::marker_offsets(&out);
        if let Some((_, name)) = unset.iter().find(|(at, _)| remaining.contains(at)) {
            // `IN ?` is named `in(k)` in the metadata, `k` in the message.
            let column = name
                .strip_prefix("in(")
                .and_then(|n| n.strip_suffix(')'))
                .unwrap_or(name);
            return Err(Error::invalid(format!(
                "Invalid unset value for column {column}"
            )));
        }
    }
    if let Statement::Update(update) = &out {
        if update.assignments.is_empty() {
            return Ok(None);
        }
    }
    Ok(Some(out))
}
