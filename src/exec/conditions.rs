//! Lightweight transactions: `IF NOT EXISTS`, `IF EXISTS` and `IF`
//! conditions, checked against the row as stored before the write, with
//! the result Cassandra returns — `[applied]`, and when not applied the
//! current values (`ModificationStatement.buildCasResultSet`): every column
//! for `IF [NOT] EXISTS`, the condition columns in IF order otherwise (the
//! primary key first inside a batch), nothing more when the row is absent.

use std::borrow::Cow;

use crate::error::Error;
use crate::schema::{Column, Table};
use crate::storage::{ClusteringKey, PartitionPosition, Store};
use crate::syntax::ast::{
    AssignmentKind, ColumnRef, ConditionKind, IfClause, InValues, NativeType, Operator,
};
use crate::types::{DataType, Value};

use super::bind::eval_term;
use super::cas_read::{self, CasRead};
use super::mutation::{Mutation, Op, RowRef};
use super::result::{ColumnSpec, ResultSet};
use super::view::RowView;
use super::write::WriteEnv;

/// Where a condition applies: the partition's static row or one
/// clustering row (`Clustering.STATIC_CLUSTERING` or a clustering in
/// `CQL3CasRequest`).
#[derive(Debug, Clone, PartialEq, Eq)]
enum Target {
    Static,
    Row(ClusteringKey),
}

/// The kind of condition a statement puts on a row, which
/// `CQL3CasRequest` refuses to mix on one row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Exists,
    NotExists,
    Columns,
}

/// One conditional statement's verdict and what its Paxos read fetches.
pub(crate) struct Check<'t> {
    table: &'t Table,
    position: PartitionPosition,
    applied: bool,
    /// The columns to show when not applied, regular ones first then
    /// static ones (`ColumnConditions.getColumns`); `None` for IF [NOT]
    /// EXISTS, which shows every column.
    columns: Option<Vec<&'t Column>>,
    conditions: Vec<(Target, Kind)>,
    updates_static: bool,
    updates_regular: bool,
}

/// The result of the conditional statements of one request.
pub(crate) struct Outcome {
    pub(crate) applied: bool,
    pub(crate) result: ResultSet,
}

fn spec(column: &Column) -> ColumnSpec {
    ColumnSpec {
        name: column.name.clone(),
        data_type: column.data_type.clone(),
    }
}

/// The error of a conditional write that names no partition. When a token
/// relation dropped its one key, Cassandra 5.0.8 fails inside
/// `ModificationStatement` reading the first key of an empty list, and
/// says so as a server error; widerow answers the same.
fn no_partition_error(statement: &super::Write<'_>) -> Error {
    let relations = match statement {
        super::Write::Update(u) => u.where_clause.as_slice(),
        super::Write::Delete(d) => d.where_clause.as_slice(),
        super::Write::Insert(_) => &[],
    };
    if relations
        .iter()
        .any(|r| matches!(r.kind, crate::syntax::ast::RelationKind::Token { .. }))
    {
        return Error::new(
            crate::ErrorKind::ServerError,
            "java.lang.IndexOutOfBoundsException: Index 0 out of bounds for length 0",
        );
    }
    Error::invalid("IN on the partition key is not supported with conditional updates")
}

/// Checks the condition of one conditional statement against stored data.
pub(crate) fn check<'t>(
    table: &'t Table,
    statement: &super::Write<'_>,
    mutations: &[Mutation],
    env: &mut WriteEnv<'_, '_>,
) -> Result<Check<'t>, Error> {
    let Some(m) = mutations.first() else {
        return Err(no_partition_error(statement));
    };
    let target = match target_of(table, m) {
        Target::Static if !applies_only_to_static(table, statement) => {
            row_of_where(table, statement, env)?.map_or(Target::Static, Target::Row)
        }
        target => target,
    };
    let key = match &target {
        Target::Row(k) => Some(k),
        Target::Static => None,
    };
    let data = env.store.table(&table.qualified_name());
    let partition = data.and_then(|d| d.partition(&m.position));
    let row = partition.and_then(|p| key.and_then(|k| p.rows.get_key_value(k)));
    let now_secs = env.now_secs;
    let view = match (data, partition) {
        (Some(data), Some(partition)) => Some(RowView {
            table,
            data,
            partition,
            clustering: row.map(|(k, _)| k),
            row: row.map(|(_, r)| r),
            now_secs,
            slots: &[],
        }),
        _ => None,
    };
    let exists = match (&view, key) {
        (Some(v), Some(_)) => v.row.is_some_and(|r| r.is_live(now_secs)),
        (Some(v), None) => v.partition.static_row.has_live_cells(now_secs),
        (None, _) => false,
    };
    let (applied, columns, conditions) = match statement {
        super::Write::Insert(_) => (!exists, None, vec![(target.clone(), Kind::NotExists)]),
        super::Write::Update(u) => evaluate(table, &u.if_clause, &target, exists, &view, env)?,
        super::Write::Delete(d) => evaluate(table, &d.if_clause, &target, exists, &view, env)?,
    };
    Ok(Check {
        table,
        position: m.position.clone(),
        applied,
        columns,
        conditions,
        updates_static: m.ops.iter().any(writes_static) || assigns_static(table, statement),
        updates_regular: key.is_some(),
    })
}

/// The row a statement's conditions apply to: its clustering row, the
/// only row of a table without clustering columns, or the static row.
fn target_of(table: &Table, m: &Mutation<'_>) -> Target {
    if table.clustering_columns().next().is_none() {
        return Target::Row(ClusteringKey::exact(Vec::new(), 0));
    }
    match addressed_row(m) {
        Some(key) => Target::Row(key.clone()),
        None => Target::Static,
    }
}

/// Whether a write touches the static row alone: no regular column among
/// its assignments, deleted columns or conditions, and at least one static
/// one (`ModificationStatement.appliesOnlyToStaticColumns`). Any other
/// write addresses the row its WHERE clause names, even when it writes no
/// cell there (an empty collection added, an UPDATE whose only cells are
/// static but whose IF reads a regular column).
fn applies_only_to_static(table: &Table, statement: &super::Write<'_>) -> bool {
    let is_static = |name: &str| table.column(name).is_some_and(Column::is_static);
    let (columns, clause): (Vec<&str>, _) = match statement {
        super::Write::Update(u) => (assigned_columns(u), &u.if_clause),
        super::Write::Delete(d) if d.targets.is_empty() => return false,
        super::Write::Delete(d) => (
            d.targets.iter().map(|t| t.column().name.as_str()).collect(),
            &d.if_clause,
        ),
        super::Write::Insert(_) => return true,
    };
    let conditioned: Vec<&str> = match clause {
        Some(IfClause::Conditions(conditions)) => conditions
            .iter()
            .map(|c| match &c.kind {
                ConditionKind::Compare { target, .. } | ConditionKind::In { target, .. } => {
                    target.column().name.as_str()
                }
                ConditionKind::Contains { column, .. } => column.name.as_str(),
            })
            .collect(),
        _ => Vec::new(),
    };
    let all: Vec<&str> = columns.into_iter().chain(conditioned).collect();
    all.iter().all(|c| is_static(c)) && all.iter().any(|c| is_static(c))
}

/// The columns an UPDATE assigns, in order.
fn assigned_columns(update: &crate::syntax::ast::Update) -> Vec<&str> {
    update
        .assignments
        .iter()
        .map(|a| match &a.kind {
            AssignmentKind::Set { target, .. } => target.column().name.as_str(),
            AssignmentKind::Apply { column, .. } | AssignmentKind::Prepend { column, .. } => {
                column.name.as_str()
            }
        })
        .collect()
}

/// Whether an UPDATE assigns a static column or a DELETE names one, even
/// when that writes no cell (`s = s - {}`): Cassandra's Paxos read fetches
/// the statics for any statement whose updated columns include one.
fn assigns_static(table: &Table, statement: &super::Write<'_>) -> bool {
    let is_static = |name: &str| table.column(name).is_some_and(Column::is_static);
    match statement {
        super::Write::Update(u) => assigned_columns(u).into_iter().any(is_static),
        super::Write::Delete(d) => d.targets.iter().any(|t| is_static(&t.column().name)),
        super::Write::Insert(_) => false,
    }
}

fn row_of_where(
    table: &Table,
    statement: &super::Write<'_>,
    env: &mut WriteEnv<'_, '_>,
) -> Result<Option<ClusteringKey>, Error> {
    match statement {
        super::Write::Update(u) => super::write::pinned_row(table, &u.where_clause, env),
        super::Write::Delete(d) => super::write::pinned_row(table, &d.where_clause, env),
        super::Write::Insert(_) => Ok(None),
    }
}

fn writes_static(op: &Op) -> bool {
    matches!(
        op,
        Op::Cell {
            row: RowRef::Static,
            ..
        } | Op::Element {
            row: RowRef::Static,
            ..
        } | Op::DeleteCollection {
            row: RowRef::Static,
            ..
        } | Op::CounterAdd {
            row: RowRef::Static,
            ..
        }
    )
}

/// The clustering row a write addresses, if it addresses one.
fn addressed_row<'m>(m: &'m Mutation<'_>) -> Option<&'m ClusteringKey> {
    m.ops.iter().find_map(|op| match op {
        Op::DeleteRow { key, .. } => Some(key),
        other => super::mutation::row_op_key(other),
    })
}

/// Whether a statement's IF clause holds, the columns it shows when not,
/// and the conditions it puts on each row.
type Verdict<'t> = (bool, Option<Vec<&'t Column>>, Vec<(Target, Kind)>);

fn evaluate<'t>(
    table: &'t Table,
    clause: &Option<IfClause>,
    target: &Target,
    exists: bool,
    view: &Option<RowView<'_>>,
    env: &mut WriteEnv<'_, '_>,
) -> Result<Verdict<'t>, Error> {
    let conditions = match clause {
        Some(IfClause::Exists) => return Ok((exists, None, vec![(target.clone(), Kind::Exists)])),
        Some(IfClause::Conditions(c)) => c,
        None => return Ok((true, Some(Vec::new()), Vec::new())),
    };
    let mut columns: Vec<&Column> = Vec::new();
    let mut holds = true;
    for condition in conditions {
        let target = match &condition.kind {
            ConditionKind::Compare { target, .. } | ConditionKind::In { target, .. } => {
                target.column()
            }
            ConditionKind::Contains { column, .. } => column,
        };
        let column = table.column(&target.name).ok_or_else(|| {
            Error::invalid(format!("Undefined column name {}", target.name)).with_span(target.span)
        })?;
        if !columns.iter().any(|c| c.name == column.name) {
            columns.push(column);
        }
        let current: Cow<'_, Value> = match view {
            Some(v) if exists || column.is_static() => v.value(column),
            _ => Cow::Owned(Value::Null),
        };
        holds &= condition_holds(&condition.kind, column, &current, env).map_err(|e| {
            if e.span().is_some() {
                e
            } else {
                e.with_span(condition.span)
            }
        })?;
    }
    let (statics, regulars): (Vec<&Column>, Vec<&Column>) =
        columns.into_iter().partition(|c| c.is_static());
    let mut rows = Vec::new();
    if !regulars.is_empty() {
        rows.push((target.clone(), Kind::Columns));
    }
    if !statics.is_empty() {
        rows.push((Target::Static, Kind::Columns));
    }
    let shown = regulars.into_iter().chain(statics).collect();
    Ok((holds, Some(shown), rows))
}

fn condition_holds(
    kind: &ConditionKind,
    column: &Column,
    current: &Value,
    env: &mut WriteEnv<'_, '_>,
) -> Result<bool, Error> {
    match kind {
        ConditionKind::Compare { target, op, value } => {
            let (actual, ty) = target_value(target, column, current, env)?;
            let expected = eval_term(value, &ty, &column.name, env.binds, env.fcx)?;
            compare(*op, &actual, &expected)
        }
        ConditionKind::In { target, values } => {
            let (actual, ty) = target_value(target, column, current, env)?;
            let candidates = match values {
                InValues::List(terms) => terms
                    .iter()
                    .map(|t| eval_term(t, &ty, &column.name, env.binds, env.fcx))
                    .collect::<Result<Vec<_>, _>>()?,
                InValues::Marker(m) => {
                    let list = DataType::List {
                        element: Box::new(ty.clone()),
                        frozen: true,
                    };
                    match eval_term(m, &list, &column.name, env.binds, env.fcx)? {
                        Value::List(items) => items,
                        _ => Vec::new(),
                    }
                }
            };
            Ok(candidates.contains(&actual))
        }
        ConditionKind::Contains { key, value, .. } => {
            let ty = match (&column.data_type, key) {
                (DataType::Map { key: k, .. }, true) => (**k).clone(),
                (DataType::Map { value: v, .. }, false) => (**v).clone(),
                (DataType::List { element, .. } | DataType::Set { element, .. }, _) => {
                    (**element).clone()
                }
                (other, _) => other.clone(),
            };
            let needle = eval_term(value, &ty, &column.name, env.binds, env.fcx)?;
            Ok(match current {
                Value::List(items) | Value::Set(items) => items.contains(&needle),
                Value::Map(entries) if *key => entries.iter().any(|(k, _)| *k == needle),
                Value::Map(entries) => entries.iter().any(|(_, v)| *v == needle),
                _ => false,
            })
        }
    }
}

/// The value a condition's target reads — the column, a list element, a
/// map entry or a UDT field — and its type.
fn target_value(
    target: &ColumnRef,
    column: &Column,
    current: &Value,
    env: &mut WriteEnv<'_, '_>,
) -> Result<(Value, DataType), Error> {
    match target {
        ColumnRef::Column(_) => Ok((current.clone(), column.data_type.clone())),
        ColumnRef::Element(_, index) => match &column.data_type {
            DataType::List { element, .. } => {
                let i = eval_term(
                    index,
                    &DataType::Native(NativeType::Int),
                    &column.name,
                    env.binds,
                    env.fcx,
                )?;
                let value = match (current, i) {
                    (Value::List(items), Value::Int(i)) => {
                        usize::try_from(i).ok().and_then(|i| items.get(i)).cloned()
                    }
                    _ => None,
                };
                Ok((value.unwrap_or(Value::Null), (**element).clone()))
            }
            DataType::Map { key, value, .. } => {
                let k = eval_term(index, key, &column.name, env.binds, env.fcx)?;
                let found = match current {
                    Value::Map(entries) => entries
                        .iter()
                        .find(|(ek, _)| *ek == k)
                        .map(|(_, v)| v.clone()),
                    _ => None,
                };
                Ok((found.unwrap_or(Value::Null), (**value).clone()))
            }
            _ => Err(Error::invalid(format!(
                "Invalid element access syntax for non-collection column {}",
                column.name
            ))),
        },
        ColumnRef::Field(_, field) => match &column.data_type {
            DataType::Udt { fields, .. } => {
                let i = fields
                    .iter()
                    .position(|(f, _)| *f == field.name)
                    .ok_or_else(|| {
                        Error::invalid(format!(
                            "Unknown field {} for column {}",
                            field.name, column.name
                        ))
                    })?;
                let value = match current {
                    Value::Udt(parts) => parts.get(i).cloned().flatten(),
                    _ => None,
                };
                Ok((value.unwrap_or(Value::Null), fields[i].1.clone()))
            }
            _ => Err(Error::invalid(format!(
                "Invalid field selection for non-UDT column {}",
                column.name
            ))),
        },
    }
}

fn compare(op: Operator, actual: &Value, expected: &Value) -> Result<bool, Error> {
    use std::cmp::Ordering::*;
    match op {
        Operator::Eq => Ok(actual == expected),
        Operator::Ne => Ok(actual != expected),
        _ if expected.is_null() => Err(Error::invalid(format!(
            "Invalid comparison with null for operator \"{}\"",
            op.symbol()
        ))),
        _ if actual.is_null() => Ok(false),
        Operator::Lt => Ok(actual.cmp(expected) == Less),
        Operator::Le => Ok(actual.cmp(expected) != Greater),
        Operator::Gt => Ok(actual.cmp(expected) == Greater),
        Operator::Ge => Ok(actual.cmp(expected) != Less),
    }
}

/// The `[applied]` result of a request's conditional statements, or `None`
/// when none was conditional (`ModificationStatement.buildCasResultSet`).
pub(crate) fn outcome(
    checks: &[Check<'_>],
    is_batch: bool,
    store: &Store,
    now_secs: i64,
) -> Result<Option<Outcome>, Error> {
    let Some(first) = checks.first() else {
        return Ok(None);
    };
    check_mixing(checks)?;
    let applied = checks.iter().all(|c| c.applied);
    let mut columns = vec![ColumnSpec {
        name: "[applied]".into(),
        data_type: DataType::Native(NativeType::Boolean),
    }];
    let mut rows = Vec::new();
    if !applied {
        let selection = selection(checks, is_batch);
        let read = cas_read(checks, first);
        rows = cas_read::failure_rows(&read, &selection, store, now_secs);
        if !rows.is_empty() {
            columns.extend(selection.iter().map(|c| spec(c)));
        }
    }
    let rows = if rows.is_empty() {
        vec![vec![Value::Boolean(applied)]]
    } else {
        rows.into_iter()
            .map(|r| std::iter::once(Value::Boolean(false)).chain(r).collect())
            .collect()
    };
    Ok(Some(Outcome {
        applied,
        result: ResultSet::rows(columns, rows),
    }))
}

/// The columns a failed request shows: every column after IF [NOT]
/// EXISTS, else the condition columns in statement order — behind the
/// primary key in a batch, to tell its rows apart.
fn selection<'t>(checks: &[Check<'t>], is_batch: bool) -> Vec<&'t Column> {
    let table = checks[0].table;
    if checks.iter().any(|c| c.columns.is_none()) {
        return table.star_columns();
    }
    let mut out: Vec<&Column> = Vec::new();
    if is_batch {
        out.extend(
            table
                .partition_key_columns()
                .chain(table.clustering_columns()),
        );
    }
    for column in checks.iter().flat_map(|c| c.columns.iter().flatten()) {
        if !out.iter().any(|o| o.name == column.name) {
            out.push(column);
        }
    }
    out
}

fn cas_read<'t>(checks: &'t [Check<'t>], first: &'t Check<'t>) -> CasRead<'t> {
    let rows = checks
        .iter()
        .flat_map(|c| &c.conditions)
        .filter_map(|(t, _)| match t {
            Target::Row(key) => Some(key.clone()),
            Target::Static => None,
        })
        .collect();
    let condition_columns = checks
        .iter()
        .flat_map(|c| c.columns.iter().flatten().copied())
        .collect();
    CasRead {
        table: first.table,
        position: &first.position,
        rows,
        updates_static: checks.iter().any(|c| c.updates_static),
        updates_regular: checks.iter().any(|c| c.updates_regular),
        condition_columns,
    }
}

/// `CQL3CasRequest.addExistsCondition` / `addConditions`: one row cannot
/// carry both IF EXISTS and IF NOT EXISTS, nor those and IF conditions.
fn check_mixing(checks: &[Check<'_>]) -> Result<(), Error> {
    let mut seen: Vec<(&Target, Kind)> = Vec::new();
    for (target, kind) in checks.iter().flat_map(|c| &c.conditions) {
        let Some(&(_, previous)) = seen.iter().find(|(t, _)| *t == target) else {
            seen.push((target, *kind));
            continue;
        };
        let message = match (previous, *kind) {
            (a, b) if a == b => continue,
            (Kind::Exists | Kind::NotExists, Kind::Exists | Kind::NotExists) => {
                "Cannot mix IF EXISTS and IF NOT EXISTS conditions for the same row"
            }
            (_, Kind::Exists) => "Cannot mix IF conditions and IF EXISTS for the same row",
            _ => "Cannot mix IF conditions and IF NOT EXISTS for the same row",
        };
        return Err(Error::invalid(message));
    }
    Ok(())
}
