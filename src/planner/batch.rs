//! `BatchStatement.validate`: what Cassandra refuses about a batch as a
//! whole, in its order — timestamps set twice, counters mixed with other
//! writes or in the wrong kind of batch, conditions across tables.

use crate::error::Error;
use crate::syntax::ast::{Batch, BatchKind, BatchStatement, QualifiedName, UsingItem};

use super::PlanContext;

fn sets_timestamp(using: &[UsingItem]) -> bool {
    using.iter().any(|u| matches!(u, UsingItem::Timestamp(_)))
}

fn parts(statement: &BatchStatement) -> (&QualifiedName, &[UsingItem], bool) {
    match statement {
        BatchStatement::Insert(s) => (&s.table, &s.using, s.if_not_exists),
        BatchStatement::Update(s) => (&s.table, &s.using, s.if_clause.is_some()),
        BatchStatement::Delete(s) => (&s.table, &s.using, s.if_clause.is_some()),
    }
}

/// Whether any statement of the batch has a condition, which makes the
/// whole batch one lightweight transaction.
pub(crate) fn is_conditional(batch: &Batch) -> bool {
    batch.statements.iter().any(|s| parts(s).2)
}

/// Refuses a batch Cassandra refuses before executing it.
pub(crate) fn validate(ctx: &PlanContext, batch: &Batch) -> Result<(), Error> {
    for item in &batch.using {
        if let UsingItem::Ttl(term) = item {
            return Err(
                Error::invalid("Global TTL on the BATCH statement is not supported.")
                    .with_span(term.span),
            );
        }
    }
    let conditional = batch.statements.iter().any(|s| parts(s).2);
    let timestamp = sets_timestamp(&batch.using);
    if timestamp && conditional {
        return Err(Error::invalid(
            "Cannot provide custom timestamp for conditional BATCH",
        ));
    }
    if timestamp && batch.kind == BatchKind::Counter {
        return Err(Error::invalid(
            "Cannot provide custom timestamp for counter BATCH",
        ));
    }
    let (mut counters, mut others) = (false, false);
    let mut tables: Vec<String> = Vec::new();
    for statement in &batch.statements {
        let (name, using, _) = parts(statement);
        if timestamp && sets_timestamp(using) {
            return Err(Error::invalid(
                "Timestamp must be set either on BATCH or individual statements",
            ));
        }
        let table = ctx.catalog.resolve_table(ctx.keyspace.as_deref(), name)?;
        if table.is_counter_table() {
            counters = true;
        } else {
            others = true;
        }
        let qualified = table.qualified_name();
        if !tables.contains(&qualified) {
            tables.push(qualified);
        }
    }
    if batch.kind == BatchKind::Counter && others {
        return Err(Error::invalid(
            "Cannot include non-counter statement in a counter batch",
        ));
    }
    if counters && others {
        return Err(Error::invalid(
            "Counter and non-counter mutations cannot exist in the same batch",
        ));
    }
    if batch.kind == BatchKind::Logged && counters {
        return Err(Error::invalid(
            "Cannot include a counter statement in a logged batch",
        ));
    }
    if conditional && tables.len() > 1 {
        return Err(Error::invalid(
            "Batch with conditions cannot span multiple tables",
        ));
    }
    Ok(())
}
