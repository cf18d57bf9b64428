//! Lightweight transactions: `IF NOT EXISTS`, `IF EXISTS` and `IF`
//! conditions, checked against the row as stored before the write, with
//! the result Cassandra returns — `[applied]`, and when not applied the
//! current values (`ModificationStatement.buildCasResultSet`): every column
//! for `IF [NOT] EXISTS`, the condition columns in IF order otherwise (the
//! primary key first inside a batch), nothing more when the row is absent.

use std::borrow::Cow;

use crate::error::Error;
use crate::schema::{Column, Table};
use crate::storage::ClusteringKey;
use crate::syntax::ast::{ColumnRef, ConditionKind, IfClause, InValues, NativeType, Operator};
use crate::types::{DataType, Value};

use super::bind::eval_term;
use super::mutation::{Mutation, Op};
use super::result::{ColumnSpec, ResultSet};
use super::view::RowView;
use super::write::WriteEnv;

/// One conditional statement's verdict.
pub(crate) struct Check {
    applied: bool,
    /// The columns to show when not applied (besides `[applied]`).
    columns: Vec<ColumnSpec>,
    /// Their current values, when the row exists.
    row: Option<Vec<Value>>,
    key_columns: Vec<ColumnSpec>,
    key_values: Vec<Value>,
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
pub(crate) fn check(
    table: &Table,
    statement: &super::Write<'_>,
    mutations: &[Mutation],
    env: &mut WriteEnv<'_, '_>,
) -> Result<Check, Error> {
    let Some(m) = mutations.first() else {
        return Err(no_partition_error(statement));
    };
    let key = addressed_row(m);
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
        (Some(v), None) => v.partition.is_live(now_secs),
        (None, _) => false,
    };
    let key_columns: Vec<ColumnSpec> = table
        .partition_key_columns()
        .chain(table.clustering_columns())
        .map(spec)
        .collect();
    let key_values: Vec<Value> = m
        .key
        .iter()
        .cloned()
        .chain(key.map(|k| k.values().to_vec()).unwrap_or_default())
        .collect();
    let value_of = |c: &Column| -> Value {
        view.as_ref()
            .filter(|_| exists || c.is_partition_key())
            .map_or(Value::Null, |v| v.value(c).into_owned())
    };
    let (applied, columns): (bool, Vec<&Column>) = match statement {
        super::Write::Insert(_) => (!exists, table.star_columns()),
        super::Write::Update(u) => evaluate(table, &u.if_clause, exists, &view, env)?,
        super::Write::Delete(d) => evaluate(table, &d.if_clause, exists, &view, env)?,
    };
    let row = exists.then(|| columns.iter().map(|c| value_of(c)).collect());
    Ok(Check {
        applied,
        columns: columns.into_iter().map(spec).collect(),
        row,
        key_columns,
        key_values,
    })
}

/// The clustering row a write addresses, if it addresses one.
fn addressed_row<'m>(m: &'m Mutation<'_>) -> Option<&'m ClusteringKey> {
    m.ops.iter().find_map(|op| match op {
        Op::DeleteRow { key, .. } => Some(key),
        other => super::mutation::row_op_key(other),
    })
}

fn evaluate<'t>(
    table: &'t Table,
    clause: &Option<IfClause>,
    exists: bool,
    view: &Option<RowView<'_>>,
    env: &mut WriteEnv<'_, '_>,
) -> Result<(bool, Vec<&'t Column>), Error> {
    let conditions = match clause {
        Some(IfClause::Exists) => return Ok((exists, table.star_columns())),
        Some(IfClause::Conditions(c)) => c,
        None => return Ok((true, Vec::new())),
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
    Ok((holds, columns))
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
/// when none was conditional.
pub(crate) fn outcome(checks: &[Check], is_batch: bool) -> Option<Outcome> {
    if checks.is_empty() {
        return None;
    }
    let applied = checks.iter().all(|c| c.applied);
    let applied_column = ColumnSpec {
        name: "[applied]".into(),
        data_type: DataType::Native(NativeType::Boolean),
    };
    let mut columns = vec![applied_column];
    let mut rows = Vec::new();
    if applied {
        rows.push(vec![Value::Boolean(true)]);
    } else if is_batch {
        let mut extra: Vec<ColumnSpec> = checks[0].key_columns.clone();
        for c in checks {
            for spec in &c.columns {
                if !extra.iter().any(|e| e.name == spec.name) {
                    extra.push(spec.clone());
                }
            }
        }
        for c in checks.iter().filter(|c| c.row.is_some()) {
            let mut row = vec![Value::Boolean(false)];
            for spec in &extra {
                let value = c
                    .key_columns
                    .iter()
                    .position(|k| k.name == spec.name)
                    .and_then(|i| c.key_values.get(i).cloned())
                    .or_else(|| {
                        let i = c.columns.iter().position(|s| s.name == spec.name)?;
                        c.row.as_ref()?.get(i).cloned()
                    })
                    .unwrap_or(Value::Null);
                row.push(value);
            }
            rows.push(row);
        }
        if rows.is_empty() {
            rows.push(vec![Value::Boolean(false)]);
        } else {
            columns.extend(extra);
        }
    } else {
        let check = &checks[0];
        match &check.row {
            Some(values) if !check.columns.is_empty() => {
                columns.extend(check.columns.iter().cloned());
                let mut row = vec![Value::Boolean(false)];
                row.extend(values.iter().cloned());
                rows.push(row);
            }
            _ => rows.push(vec![Value::Boolean(false)]),
        }
    }
    Some(Outcome {
        applied,
        result: ResultSet::rows(columns, rows),
    })
}
