//! UPDATE's assignments as operations on one row: plain values, collection
//! elements set by index or key, additions and removals, counters and UDT
//! fields — each checked against the column's type and, where it depends
//! on them, the cells stored before the statement.

use crate::error::Error;
use crate::planner::element_spec;
use crate::schema::{Column, Table};
use crate::storage::{Cell, ClusteringKey};
use crate::syntax::ast::{ArithmeticSign, AssignmentKind, ColumnRef, NativeType, Term};
use crate::types::{DataType, Value};

use super::{
    add_elements, check_collection_size, current, field_key, is_collection_cells, list_keys,
    row_ref, slot, write_value, Stamp, WriteEnv,
};
use crate::exec::bind::eval_term;
use crate::exec::mutation::{Mutation, Op};
pub(super) fn assign(
    table: &Table,
    m: &Mutation,
    key: Option<&ClusteringKey>,
    kind: &AssignmentKind,
    stamp: Stamp,
    env: &mut WriteEnv<'_, '_>,
) -> Result<Vec<Op>, Error> {
    let mut ops = Vec::new();
    let lookup = |name: &crate::syntax::ast::Ident| {
        table.column(&name.name).ok_or_else(|| {
            Error::invalid(format!("Undefined column name {}", name.name)).with_span(name.span)
        })
    };
    match kind {
        AssignmentKind::Set {
            target: ColumnRef::Column(name),
            value,
        } => {
            let column = lookup(name)?;
            let v = eval_term(value, &column.data_type, &column.name, env.binds, env.fcx)?;
            write_value(table, column, row_ref(column, key), v, stamp, env, &mut ops)?;
        }
        AssignmentKind::Set {
            target: ColumnRef::Element(name, index),
            value,
        } => {
            let column = lookup(name)?;
            set_element(table, m, key, column, index, value, stamp, env, &mut ops)?;
        }
        AssignmentKind::Set {
            target: ColumnRef::Field(name, field),
            value,
        } => {
            let column = lookup(name)?;
            let DataType::Udt { fields, .. } = &column.data_type else {
                return Err(Error::invalid(format!(
                    "Invalid field {} for non-UDT column {}",
                    field.name, column.name
                )));
            };
            let Some(index) = fields.iter().position(|(f, _)| *f == field.name) else {
                return Err(Error::invalid(format!(
                    "UDT column {} does not have a field named {}",
                    column.name, field.name
                )));
            };
            let v = eval_term(value, &fields[index].1, &field.name, env.binds, env.fcx)?;
            if is_collection_cells(&column.data_type) {
                let cell = if v.is_null() {
                    Cell::tombstone(stamp.timestamp)
                } else {
                    Cell::live(v, stamp.timestamp, stamp.expiry)
                };
                ops.push(Op::Element {
                    row: row_ref(column, key),
                    slot: slot(env.data, table, column)?,
                    key: field_key(index),
                    cell,
                });
                return Ok(ops);
            }
            let mut parts = match current(m, key, column, env) {
                Value::Udt(parts) => parts,
                _ => vec![None; fields.len()],
            };
            parts[index] = (!v.is_null()).then_some(v);
            write_value(
                table,
                column,
                row_ref(column, key),
                Value::Udt(parts),
                stamp,
                env,
                &mut ops,
            )?;
        }
        AssignmentKind::Apply {
            column: name,
            op,
            value,
            ..
        } => {
            let column = lookup(name)?;
            apply_operation(table, m, key, column, *op, value, stamp, env, &mut ops)?;
        }
        AssignmentKind::Prepend {
            column: name,
            value,
        } => {
            let column = lookup(name)?;
            let v = eval_term(value, &column.data_type, &column.name, env.binds, env.fcx)?;
            let slot = slot(env.data, table, column)?;
            add_elements(
                &column.data_type,
                row_ref(column, key),
                slot,
                v,
                stamp,
                true,
                env,
                &mut ops,
            );
        }
    }
    Ok(ops)
}

#[allow(clippy::too_many_arguments)]
fn set_element(
    table: &Table,
    m: &Mutation,
    key: Option<&ClusteringKey>,
    column: &Column,
    index: &Term,
    value: &Term,
    stamp: Stamp,
    env: &mut WriteEnv<'_, '_>,
    ops: &mut Vec<Op>,
) -> Result<(), Error> {
    let slot = slot(env.data, table, column)?;
    let row = row_ref(column, key);
    match &column.data_type {
        DataType::List { element, .. } => {
            let i = eval_term(
                index,
                &DataType::Native(NativeType::Int),
                &element_spec("idx", &column.name),
                env.binds,
                env.fcx,
            )?;
            let v = eval_term(
                value,
                element,
                &element_spec("value", &column.name),
                env.binds,
                env.fcx,
            )?;
            // Cassandra's SetElement refuses a null index before it reads
            // the list.
            let Value::Int(i) = i else {
                return Err(Error::invalid("Invalid null value for list index"));
            };
            let elements = list_keys(m, key, column, env);
            if elements.is_empty() {
                return Err(Error::invalid(
                    "Attempted to set an element on a list which is null",
                ));
            }
            let Some((k, _)) = usize::try_from(i).ok().and_then(|i| elements.get(i)) else {
                return Err(Error::invalid(format!(
                    "List index {i} out of bound, list has size {}",
                    elements.len()
                )));
            };
            let cell = if v.is_null() {
                Cell::tombstone(stamp.timestamp)
            } else {
                Cell::live(v, stamp.timestamp, stamp.expiry)
            };
            ops.push(Op::Element {
                row,
                slot,
                key: k.clone(),
                cell,
            });
        }
        DataType::Map {
            key: kt, value: vt, ..
        } => {
            let k = eval_term(
                index,
                kt,
                &element_spec("key", &column.name),
                env.binds,
                env.fcx,
            )?;
            if k.is_null() {
                return Err(Error::invalid("Invalid null map key"));
            }
            let v = eval_term(
                value,
                vt,
                &element_spec("value", &column.name),
                env.binds,
                env.fcx,
            )?;
            let cell = if v.is_null() {
                Cell::tombstone(stamp.timestamp)
            } else {
                Cell::live(v, stamp.timestamp, stamp.expiry)
            };
            ops.push(Op::Element {
                row,
                slot,
                key: k,
                cell,
            });
        }
        _ => {
            return Err(Error::invalid(format!(
                "Invalid operation ({}[…] = …) for non list/map column {}",
                column.name, column.name
            )))
        }
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn apply_operation(
    table: &Table,
    m: &Mutation,
    key: Option<&ClusteringKey>,
    column: &Column,
    op: ArithmeticSign,
    value: &Term,
    stamp: Stamp,
    env: &mut WriteEnv<'_, '_>,
    ops: &mut Vec<Op>,
) -> Result<(), Error> {
    let slot = slot(env.data, table, column)?;
    let row = row_ref(column, key);
    let ty = crate::planner::operand_type(column, op);
    let v = eval_term(value, &ty, &column.name, env.binds, env.fcx)
        .map_err(|e| crate::planner::map_operand_error(e, &column.data_type, op, value))?;
    check_collection_size(&v, &column.name, env.limits.collection_size)?;
    match (&column.data_type, op, v) {
        (DataType::Native(NativeType::Counter), _, Value::Null) => {
            return Err(Error::invalid("Invalid null value for counter increment"))
        }
        (DataType::Native(NativeType::Counter), sign, Value::Bigint(d)) => {
            let delta = if sign == ArithmeticSign::Minus {
                d.wrapping_neg()
            } else {
                d
            };
            ops.push(Op::CounterAdd {
                row,
                slot,
                delta,
                timestamp: stamp.timestamp,
            });
        }
        (_, _, Value::Null) => {}
        (DataType::List { .. }, ArithmeticSign::Plus, v) => {
            add_elements(&column.data_type, row, slot, v, stamp, false, env, ops)
        }
        (DataType::List { .. }, ArithmeticSign::Minus, Value::List(remove)) => {
            for (k, existing) in list_keys(m, key, column, env) {
                if remove.contains(&existing) {
                    ops.push(Op::Element {
                        row: row.clone(),
                        slot,
                        key: k,
                        cell: Cell::tombstone(stamp.timestamp),
                    });
                }
            }
        }
        (DataType::Set { .. }, ArithmeticSign::Plus, v) => {
            add_elements(&column.data_type, row, slot, v, stamp, false, env, ops)
        }
        (DataType::Map { .. }, ArithmeticSign::Plus, v) => {
            add_elements(&column.data_type, row, slot, v, stamp, false, env, ops)
        }
        (DataType::Set { .. } | DataType::Map { .. }, ArithmeticSign::Minus, Value::Set(keys)) => {
            for k in keys {
                ops.push(Op::Element {
                    row: row.clone(),
                    slot,
                    key: k,
                    cell: Cell::tombstone(stamp.timestamp),
                });
            }
        }
        _ => {
            let sign = if op == ArithmeticSign::Plus { '+' } else { '-' };
            return Err(Error::invalid(format!(
                "Invalid operation ({0} = {0} {sign} ?) for non counter column {0}",
                column.name
            )));
        }
    }
    Ok(())
}
