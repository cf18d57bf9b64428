//! DELETE as mutations: whole partitions, rows and ranges of rows as
//! tombstones, and single cells, collection elements and UDT fields.

use crate::error::Error;
use crate::planner::element_spec;
use crate::schema::{Column, Table};
use crate::storage::{Cell, ClusteringKey};
use crate::syntax::ast::{ColumnRef, Delete, NativeType};
use crate::types::{DataType, Value};

use super::{
    current, field_key, is_collection_cells, list_keys, mutation, row_ref, slot, stamp, targets,
    write_value, Stamp, WriteEnv,
};
use crate::exec::bind::eval_term;
use crate::exec::mutation::{Mutation, Op};
use crate::exec::restrict::{self, Predicate};
/// The mutations of a DELETE.
pub(crate) fn delete<'t>(
    table: &'t Table,
    delete: &Delete,
    env: &mut WriteEnv<'_, '_>,
) -> Result<Vec<Mutation<'t>>, Error> {
    let stamp = stamp(table, &delete.using, env)?;
    let timestamp = stamp.timestamp;
    let predicates =
        restrict::compile(table, &delete.where_clause, env.binds, env.fcx, &env.limits)?;
    let targets = targets(table, &predicates)?;
    let mask = restrict::descending_mask(table);
    let ck = restrict::clustering_columns(table);
    let mut out = Vec::with_capacity(targets.partitions.len());
    for key in targets.partitions {
        let mut m = mutation(table, key)?;
        if delete.targets.is_empty() {
            match &targets.rows {
                Some(rows) if !ck.is_empty() => {
                    for r in rows {
                        m.ops.push(Op::DeleteRow {
                            key: ClusteringKey::exact(r.clone(), mask),
                            timestamp,
                        });
                    }
                }
                Some(_) => m.ops.push(Op::DeletePartition { timestamp }),
                None => {
                    // An empty IN pins no prefix: nothing is deleted, not the
                    // partition (ModificationStatement.addUpdates returns when
                    // the restricted clusterings or slices are empty).
                    let prefixes = pinned_prefixes(&predicates, &ck);
                    let restricted = !prefixes.iter().all(Vec::is_empty)
                        || has_slice(&predicates)
                        || prefixes.is_empty();
                    if !restricted {
                        m.ops.push(Op::DeletePartition { timestamp });
                    }
                    for prefix in prefixes.into_iter().filter(|_| restricted) {
                        for (start, end) in restrict::slice_ranges(table, &predicates, &prefix) {
                            m.ops.push(Op::DeleteRange {
                                start,
                                end,
                                timestamp,
                            });
                        }
                    }
                }
            }
        } else {
            let rows: Vec<Option<ClusteringKey>> = match &targets.rows {
                Some(rows) => rows
                    .iter()
                    .map(|r| Some(ClusteringKey::exact(r.clone(), mask)))
                    .collect(),
                None => vec![None],
            };
            for row_key in &rows {
                for target in &delete.targets {
                    delete_target(table, &mut m, row_key.as_ref(), target, stamp, env)?;
                }
            }
        }
        out.push(m);
    }
    Ok(out)
}

fn has_slice(predicates: &[Predicate<'_>]) -> bool {
    predicates.iter().any(|p| match p {
        Predicate::Compare { column, op, .. } => column.is_clustering() && op.is_slice(),
        Predicate::MultiCompare { op, .. } => op.is_slice(),
        _ => false,
    })
}

/// The combinations of the longest clustering prefix pinned by `=`/`IN`.
fn pinned_prefixes(predicates: &[Predicate<'_>], ck: &[&Column]) -> Vec<Vec<Value>> {
    for len in (0..=ck.len()).rev() {
        if let Some(combos) = restrict::key_combinations(predicates, &ck[..len]) {
            return combos;
        }
    }
    vec![Vec::new()]
}

fn delete_target(
    table: &Table,
    m: &mut Mutation,
    key: Option<&ClusteringKey>,
    target: &ColumnRef,
    stamp: Stamp,
    env: &mut WriteEnv<'_, '_>,
) -> Result<(), Error> {
    let name = target.column();
    let column = table.column(&name.name).ok_or_else(|| {
        Error::invalid(format!("Undefined column name {}", name.name)).with_span(name.span)
    })?;
    let slot = slot(env.data, table, column)?;
    let row = row_ref(column, key);
    let timestamp = stamp.timestamp;
    match target {
        ColumnRef::Column(_) if is_collection_cells(&column.data_type) => {
            m.ops.push(Op::DeleteCollection {
                row,
                slot,
                timestamp,
            })
        }
        ColumnRef::Column(_) => m.ops.push(Op::Cell {
            row,
            slot,
            cell: Cell::tombstone(timestamp),
        }),
        ColumnRef::Element(_, index) => match &column.data_type {
            DataType::List { .. } => {
                let i = eval_term(
                    index,
                    &DataType::Native(NativeType::Int),
                    &column.name,
                    env.binds,
                    env.fcx,
                )?;
                let elements = list_keys(m, key, column, env);
                let Value::Int(i) = i else {
                    return Err(Error::invalid("Invalid null value for list index"));
                };
                if elements.is_empty() {
                    return Err(Error::invalid(
                        "Attempted to delete an element from a list which is null",
                    ));
                }
                let Some((k, _)) = usize::try_from(i).ok().and_then(|i| elements.get(i)) else {
                    return Err(Error::invalid(format!(
                        "List index {i} out of bound, list has size {}",
                        elements.len()
                    )));
                };
                m.ops.push(Op::Element {
                    row,
                    slot,
                    key: k.clone(),
                    cell: Cell::tombstone(timestamp),
                });
            }
            DataType::Map { key: kt, .. } | DataType::Set { element: kt, .. } => {
                let k = eval_term(
                    index,
                    kt,
                    &element_spec("key", &column.name),
                    env.binds,
                    env.fcx,
                )?;
                m.ops.push(Op::Element {
                    row,
                    slot,
                    key: k,
                    cell: Cell::tombstone(timestamp),
                });
            }
            _ => {
                return Err(Error::invalid(format!(
                    "Invalid deletion operation for non collection column {}",
                    column.name
                )))
            }
        },
        ColumnRef::Field(_, field) => {
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
            if is_collection_cells(&column.data_type) {
                m.ops.push(Op::Element {
                    row,
                    slot,
                    key: field_key(index),
                    cell: Cell::tombstone(timestamp),
                });
            } else if let Value::Udt(mut parts) = current(m, key, column, env) {
                parts[index] = None;
                write_value(
                    table,
                    column,
                    row,
                    Value::Udt(parts),
                    stamp,
                    env,
                    &mut m.ops,
                )?;
            }
        }
    }
    Ok(())
}
