//! Planning INSERT, UPDATE and DELETE: which rows they address and the
//! rules of restrictions.md §7, checked in Cassandra's order.

use crate::error::Error;
use crate::schema::{Column, Table};
use crate::syntax::ast::{
    ArithmeticSign, AssignmentKind, ConditionKind, Delete, Ident, IfClause, Insert, InsertSource,
    Literal, Term, TermKind, Update, UsingItem,
};
use crate::types::DataType;

use super::relations::{undefined_column, StatementType, WhereClause};
use super::restriction::{Restriction, Shape};

/// The restrictions a write addresses, checked.
pub(crate) struct WriteTarget<'a> {
    pub(crate) pk: Vec<Restriction<'a>>,
    pub(crate) ck: Vec<Restriction<'a>>,
    /// The write touches only static columns (no clustering key needed).
    pub(crate) static_only: bool,
}

fn column<'a>(table: &'a Table, name: &Ident) -> Result<&'a Column, Error> {
    table
        .column(&name.name)
        .ok_or_else(|| undefined_column(table, name))
}

/// Checks USING TTL / TIMESTAMP literals as Cassandra's `Attributes` does.
/// `USING TIMESTAMP` beside `IF EXISTS` or `IF NOT EXISTS`: Cassandra refuses
/// it in `ModificationStatement.validate`, after the WHERE clause and the
/// key were checked (column conditions refuse it earlier, while prepared).
fn check_exists_timestamp(using: &[UsingItem], exists: bool) -> Result<(), Error> {
    if exists {
        check_using(using, true, false)?;
    }
    Ok(())
}

fn check_using(using: &[UsingItem], conditional: bool, counter: bool) -> Result<(), Error> {
    for item in using {
        match item {
            UsingItem::Timestamp(term) if conditional => {
                return Err(Error::invalid(
                    "Cannot provide custom timestamp for conditional updates",
                )
                .with_span(term.span));
            }
            UsingItem::Ttl(term) => {
                if counter {
                    return Err(
                        Error::invalid("Cannot provide custom TTL for counter updates")
                            .with_span(term.span),
                    );
                }
                if let TermKind::Literal(Literal::Integer(text)) = &term.kind {
                    let ttl: i64 = text.parse().unwrap_or(i64::MAX);
                    if ttl < 0 {
                        return Err(Error::invalid(format!(
                            "A TTL must be greater or equal to 0, but was {text}"
                        ))
                        .with_span(term.span));
                    }
                    if ttl > 630_720_000 {
                        return Err(Error::invalid(format!(
                            "ttl is too large. requested ({text}) maximum (630720000)"
                        ))
                        .with_span(term.span));
                    }
                }
            }
            UsingItem::Timestamp(term) if counter => {
                return Err(
                    Error::invalid("Cannot provide custom timestamp for counter updates")
                        .with_span(term.span),
                );
            }
            UsingItem::Timestamp(_) => {}
        }
    }
    Ok(())
}

/// Whether every partition key column is restricted by `=` or IN: then a
/// token relation only filters the keys named, and a write may have one
/// (`PartitionKeyRestrictions.isOnToken` is false; checked on a Cassandra
/// 5.0.8 node).
fn key_fixed(table: &Table, clause: &WhereClause<'_>) -> bool {
    super::select::key_state(table, clause) == super::select::KeyState::Exact
}

/// The shared partition and clustering key rules of restrictions.md §7.
fn check_key<'a>(
    table: &'a Table,
    clause: WhereClause<'a>,
    statement: StatementType,
    static_only: bool,
) -> Result<WriteTarget<'a>, Error> {
    if let Some(token) = clause.token.as_ref().filter(|_| !key_fixed(table, &clause)) {
        let span = token.relations.first().map(|r| r.span).unwrap_or_default();
        return Err(Error::invalid(format!(
            "The token function cannot be used in WHERE clauses for {} statements",
            statement.name()
        ))
        .with_span(span));
    }
    let missing: Vec<&str> = table
        .partition_key
        .iter()
        .filter(|pk| !clause.pk.iter().any(|r| &r.first().name == *pk))
        .map(String::as_str)
        .collect();
    if !missing.is_empty() {
        return Err(Error::invalid(format!(
            "Some partition key parts are missing: {}",
            missing.join(", ")
        )));
    }
    if clause
        .pk
        .iter()
        .any(|r| !(r.shape.is_eq() || r.shape.is_in()))
    {
        return Err(Error::invalid(format!(
            "Only EQ and IN relation are supported on the partition key (unless you use the token() function) for {} statements",
            statement.name()
        )));
    }
    if static_only && !clause.ck.is_empty() {
        return Err(Error::invalid(format!(
            "Invalid restrictions on clustering columns since the {} statement modifies only static columns",
            statement.name()
        )));
    }
    if statement == StatementType::Update {
        if clause.ck.iter().any(|r| r.shape.is_slice()) {
            return Err(Error::invalid(
                "Slice restrictions are not supported on the clustering columns in UPDATE statements",
            ));
        }
        if !static_only {
            check_full_clustering(table, &clause.ck)?;
        }
    } else if super::select::clustering_needs_filtering(&clause.ck) {
        check_delete_prefix(table, &clause.ck)?;
    }
    if !clause.nonpk.is_empty() {
        let names: Vec<&str> = clause
            .nonpk
            .iter()
            .map(|r| r.first().name.as_str())
            .collect();
        return Err(Error::invalid(format!(
            "Non PRIMARY KEY columns found in where clause: {} ",
            names.join(", ")
        )));
    }
    super::relations::check_nulls(&clause, &[])?;
    Ok(WriteTarget {
        pk: clause.pk,
        ck: clause.ck,
        static_only,
    })
}

fn check_full_clustering(table: &Table, ck: &[Restriction<'_>]) -> Result<(), Error> {
    let missing: Vec<&str> = table
        .clustering
        .iter()
        .filter(|name| {
            !ck.iter()
                .any(|r| r.columns.iter().any(|c| &&c.name == name))
        })
        .map(String::as_str)
        .collect();
    if missing.is_empty() {
        Ok(())
    } else {
        Err(Error::invalid(format!(
            "Some clustering keys are missing: {}",
            missing.join(", ")
        )))
    }
}

fn check_delete_prefix(table: &Table, ck: &[Restriction<'_>]) -> Result<(), Error> {
    let mut restricted: Vec<&Column> = ck.iter().flat_map(|r| r.columns.iter().copied()).collect();
    restricted.sort_by_key(|c| super::relations::position(c));
    for (column, expected) in restricted.iter().zip(&table.clustering) {
        if &column.name != expected {
            return Err(Error::invalid(format!(
                "PRIMARY KEY column \"{}\" cannot be restricted as preceding column \"{expected}\" is not restricted",
                column.name
            )));
        }
    }
    Ok(())
}

/// Refuses conditions on key columns and conditional writes on counters.
fn check_conditions(table: &Table, clause: &Option<IfClause>) -> Result<(), Error> {
    let Some(clause) = clause else {
        return Ok(());
    };
    if table.is_counter_table() {
        return Err(Error::invalid(
            "Conditional updates are not supported on counter tables",
        ));
    }
    if let IfClause::Conditions(conditions) = clause {
        for condition in conditions {
            let name = match &condition.kind {
                ConditionKind::Compare { target, .. } | ConditionKind::In { target, .. } => {
                    target.column()
                }
                ConditionKind::Contains { column, .. } => column,
            };
            let col = column(table, name)?;
            if col.is_primary_key() {
                return Err(Error::invalid(format!(
                    "PRIMARY KEY column '{}' cannot have IF conditions",
                    col.name
                ))
                .with_span(condition.span));
            }
            if let ConditionKind::Contains { key, .. } = &condition.kind {
                check_contains(col, *key).map_err(|e| e.with_span(condition.span))?;
            }
        }
    }
    Ok(())
}

/// `IF c CONTAINS [KEY] v` needs a collection (a map for KEY), as
/// Cassandra's `ColumnCondition.Raw.prepare` checks.
fn check_contains(column: &Column, key: bool) -> Result<(), Error> {
    if key && !matches!(column.data_type, DataType::Map { .. }) {
        return Err(Error::invalid(format!(
            "Cannot use CONTAINS KEY on non-map column {}",
            column.name
        )));
    }
    if !column.data_type.is_collection() {
        return Err(Error::invalid(format!(
            "Cannot use CONTAINS on non-collection column {}",
            column.name
        )));
    }
    Ok(())
}

/// Conditional writes may not address several partitions or rows through
/// IN (`ModificationStatement.makeCasRequest`). Inside a batch the
/// partition key is left to the executor: `BatchStatement.makeCasRequest`
/// refuses it there, with its own message, statement by statement.
pub(crate) fn check_conditional_in(
    target: &WriteTarget<'_>,
    what: &str,
    in_batch: bool,
) -> Result<(), Error> {
    if !in_batch && target.pk.iter().any(|r| r.shape.is_in()) {
        return Err(Error::invalid(format!(
            "IN on the partition key is not supported with conditional {what}"
        )));
    }
    if target.ck.iter().any(|r| r.shape.is_in()) {
        return Err(Error::invalid(format!(
            "IN on the clustering key columns is not supported with conditional {what}"
        )));
    }
    Ok(())
}

/// Writes into a virtual table, which none of the ones widerow models
/// accepts (`AbstractVirtualTable.apply`). The tables of `system` and
/// `system_schema` take writes, as a 5.0 node's do.
fn refuse_virtual(table: &Table) -> Result<(), Error> {
    if crate::schema::system::is_virtual_keyspace(&table.keyspace) {
        return Err(Error::invalid(format!(
            "Modification is not supported by table {}",
            table.qualified_name()
        )));
    }
    Ok(())
}

/// INSERT: the key columns given become `=` restrictions.
pub(crate) fn insert<'a>(table: &'a Table, insert: &'a Insert) -> Result<WriteTarget<'a>, Error> {
    refuse_virtual(table)?;
    if table.is_counter_table() {
        return Err(Error::invalid(
            "INSERT statements are not allowed on counter tables, use UPDATE instead",
        ));
    }
    check_using(&insert.using, false, false)?;
    let (columns, values): (&[Ident], &[Term]) = match &insert.source {
        InsertSource::Values { columns, values } => {
            if columns.len() != values.len() {
                return Err(Error::invalid("Unmatched column names/values"));
            }
            for (i, c) in columns.iter().enumerate() {
                if columns[..i].iter().any(|d| d.name == c.name) {
                    return Err(Error::invalid("The column names contains duplicates"));
                }
            }
            (columns, values)
        }
        InsertSource::Json { .. } => (&[], &[]),
    };
    // Looked up once, in the order written: each is asked about again below.
    let mut resolved = Vec::with_capacity(columns.len());
    // Each value is checked as its column is reached, before the key's
    // restrictions (`ParsedInsert.prepareInternal`).
    for (i, name) in columns.iter().enumerate() {
        let column = table.column_hinted(&name.name, i);
        let column = column.ok_or_else(|| undefined_column(table, name))?;
        if !column.is_primary_key() {
            super::operands::check_constant(&values[i], &column.data_type, &column.name)?;
        }
        resolved.push(column);
    }
    let static_only = resolved
        .iter()
        .all(|c| c.is_static() || c.is_partition_key())
        && resolved.iter().any(|c| c.is_static());
    if matches!(insert.source, InsertSource::Json { .. }) {
        return Ok(WriteTarget {
            pk: Vec::new(),
            ck: Vec::new(),
            static_only,
        });
    }
    let written = resolved.into_iter().zip(columns).zip(values);
    let clause = WhereClause::of_key_values(table, written.map(|((c, n), v)| (c, n, v)))?;
    let target = check_key(table, clause, StatementType::Update, static_only)?;
    check_exists_timestamp(&insert.using, insert.if_not_exists)?;
    Ok(target)
}

/// UPDATE.
pub(crate) fn update<'a>(table: &'a Table, update: &'a Update) -> Result<WriteTarget<'a>, Error> {
    refuse_virtual(table)?;
    check_using(
        &update.using,
        matches!(update.if_clause, Some(IfClause::Conditions(_))),
        table.is_counter_table(),
    )?;
    let mut all_static = true;
    for assignment in &update.assignments {
        let name = match &assignment.kind {
            AssignmentKind::Set { target, .. } => target.column(),
            AssignmentKind::Apply { column, .. } | AssignmentKind::Prepend { column, .. } => column,
        };
        let col = column(table, name)?;
        if col.is_primary_key() {
            return Err(
                Error::invalid(format!("PRIMARY KEY part {} found in SET part", col.name))
                    .with_span(assignment.span),
            );
        }
        check_assignment(col, &assignment.kind, assignment.span)?;
        super::operands::check_assignment_operands(col, &assignment.kind)?;
        all_static &= col.is_static();
    }
    check_conditions(table, &update.if_clause)?;
    let conditions_static = conditions_all_static(table, &update.if_clause);
    let clause = WhereClause::build(table, &update.where_clause, StatementType::Update, false)?;
    let target = check_key(
        table,
        clause,
        StatementType::Update,
        all_static && conditions_static,
    )?;
    check_exists_timestamp(&update.using, update.if_clause == Some(IfClause::Exists))?;
    Ok(target)
}

fn conditions_all_static(table: &Table, clause: &Option<IfClause>) -> bool {
    match clause {
        Some(IfClause::Conditions(conditions)) => conditions.iter().all(|c| {
            let name = match &c.kind {
                ConditionKind::Compare { target, .. } | ConditionKind::In { target, .. } => {
                    target.column()
                }
                ConditionKind::Contains { column, .. } => column,
            };
            table.column(&name.name).is_some_and(Column::is_static)
        }),
        _ => true,
    }
}

/// Counters can only be incremented; only counters can be.
fn check_assignment(
    column: &Column,
    kind: &AssignmentKind,
    span: crate::syntax::span::Span,
) -> Result<(), Error> {
    let counter = column.data_type.is_counter();
    match kind {
        AssignmentKind::Set { .. } if counter => Err(Error::invalid(format!(
            "Cannot set the value of counter column {} (counters can only be incremented/decremented, not set)",
            column.name
        ))
        .with_span(span)),
        AssignmentKind::Apply { .. } | AssignmentKind::Prepend { .. }
            if column.data_type.is_collection() && !column.data_type.is_multi_cell() =>
        {
            Err(Error::invalid(format!(
                "Invalid operation ({}) for frozen collection column {}",
                kind_text(kind),
                column.name
            ))
            .with_span(span))
        }
        AssignmentKind::Set {
            target: crate::syntax::ast::ColumnRef::Element(..),
            ..
        } if column.data_type.is_collection() && !column.data_type.is_multi_cell() => {
            Err(Error::invalid(format!(
                "Invalid operation ({}) for frozen collection column {}",
                kind_text(kind),
                column.name
            ))
            .with_span(span))
        }
        // Operation.Addition refuses tuples (a UDT is a tuple there) first.
        AssignmentKind::Apply {
            op: ArithmeticSign::Plus,
            ..
        } if matches!(column.data_type, DataType::Tuple(_) | DataType::Udt { .. }) => {
            Err(Error::invalid(format!(
                "Invalid operation ({}) for tuple column {}",
                kind_text(kind),
                column.name
            ))
            .with_span(span))
        }
        AssignmentKind::Apply { .. } if !counter && !column.data_type.is_collection() => {
            Err(Error::invalid(format!(
                "Invalid operation ({}) for non counter column {}",
                kind_text(kind),
                column.name
            ))
            .with_span(span))
        }
        _ => Ok(()),
    }
}

fn kind_text(kind: &AssignmentKind) -> String {
    crate::syntax::ast::Assignment {
        kind: kind.clone(),
        span: Default::default(),
    }
    .to_string()
}

/// DELETE.
pub(crate) fn delete<'a>(table: &'a Table, delete: &'a Delete) -> Result<WriteTarget<'a>, Error> {
    refuse_virtual(table)?;
    for item in &delete.using {
        if let UsingItem::Ttl(term) = item {
            return Err(
                Error::syntax("TTL is not allowed in DELETE statements").with_span(term.span)
            );
        }
    }
    check_using(
        &delete.using,
        matches!(delete.if_clause, Some(IfClause::Conditions(_))),
        table.is_counter_table(),
    )?;
    let mut all_static = !delete.targets.is_empty();
    for target in &delete.targets {
        let col = column(table, target.column())?;
        if matches!(target, crate::syntax::ast::ColumnRef::Element(..))
            && col.data_type.is_collection()
            && !col.data_type.is_multi_cell()
        {
            return Err(Error::invalid(format!(
                "Invalid deletion operation for frozen collection column {}",
                col.name
            )));
        }
        if col.is_primary_key() {
            return Err(Error::invalid(format!(
                "Invalid identifier {} for deletion (should not be a PRIMARY KEY part)",
                col.name
            )));
        }
        all_static &= col.is_static();
    }
    check_conditions(table, &delete.if_clause)?;
    // Conditions on regular columns make it more than a static deletion
    // (`ModificationStatement.appliesOnlyToStaticColumns`), which may then
    // name its row.
    let only_static = all_static && conditions_all_static(table, &delete.if_clause);
    let clause = WhereClause::build(table, &delete.where_clause, StatementType::Delete, false)?;
    let mut target = check_key(table, clause, StatementType::Delete, only_static)?;
    target.static_only = all_static && target.ck.is_empty();
    check_exists_timestamp(&delete.using, delete.if_clause == Some(IfClause::Exists))?;
    let full_row = target.ck.iter().all(|r| r.shape.is_eq() || r.shape.is_in())
        && table.clustering.iter().all(|name| {
            target
                .ck
                .iter()
                .any(|r| r.columns.iter().any(|c| &c.name == name))
        });
    if !delete.targets.is_empty() && !all_static && !full_row {
        return Err(Error::invalid(
            "Range deletions are not supported for specific columns",
        ));
    }
    if delete.if_clause.is_some() && !full_row {
        if !all_static {
            return Err(Error::invalid(
                "DELETE statements must restrict all PRIMARY KEY columns with equality relations in order to delete non static columns",
            ));
        }
        if !conditions_all_static(table, &delete.if_clause) {
            return Err(Error::invalid(
                "DELETE statements must restrict all PRIMARY KEY columns with equality relations in order to use IF condition on non static columns",
            ));
        }
    }
    Ok(target)
}

/// Whether a write addresses exactly one row (or, for a table without
/// clustering columns, one partition).
pub(crate) fn addresses_one_row(table: &Table, target: &WriteTarget<'_>) -> bool {
    !target.static_only
        && target.ck.iter().all(|r| r.shape.is_eq())
        && table.clustering.iter().all(|name| {
            target
                .ck
                .iter()
                .any(|r| r.columns.iter().any(|c| &c.name == name))
        })
}

/// Whether any key restriction names several values.
pub(crate) fn several_partitions(target: &WriteTarget<'_>) -> bool {
    target.pk.iter().any(|r| matches!(r.shape, Shape::In(_)))
}
