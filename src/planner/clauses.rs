//! The rules of SELECT's other clauses — DISTINCT, GROUP BY, PER PARTITION
//! LIMIT, ORDER BY and LIMIT — checked after the restrictions, in the order
//! Cassandra checks them (restrictions.md §6).

use crate::error::Error;
use crate::schema::{Column, ColumnKind, Table};
use crate::syntax::ast::{Literal, Order, Select, SelectClause, SelectorKind, Term, TermKind};

use super::select::{KeyState, SelectAnalysis};

/// Names of the native aggregate functions.
const AGGREGATES: [&str; 5] = ["count", "min", "max", "sum", "avg"];

/// Whether the selection aggregates rows.
pub(crate) fn is_aggregate(select: &Select) -> bool {
    let SelectClause::Items(items) = &select.selection else {
        return false;
    };
    items.iter().any(|item| is_aggregate_call(&item.selector))
}

fn is_aggregate_call(selector: &crate::syntax::ast::Selector) -> bool {
    match &selector.kind {
        SelectorKind::CountStar => true,
        SelectorKind::Function { name, .. } => {
            name.keyspace.is_none() && AGGREGATES.contains(&name.name.name.as_str())
        }
        _ => false,
    }
}

/// Aggregates may not nest (`max(min(x))`).
pub(crate) fn check_nested_aggregates(select: &Select) -> Result<(), Error> {
    fn contains_aggregate(selector: &crate::syntax::ast::Selector) -> bool {
        is_aggregate_call(selector)
            || match &selector.kind {
                SelectorKind::Function { args, .. } => args.iter().any(contains_aggregate),
                SelectorKind::Cast { selector, .. } => contains_aggregate(selector),
                _ => false,
            }
    }
    let SelectClause::Items(items) = &select.selection else {
        return Ok(());
    };
    for item in items {
        if let SelectorKind::Function { args, .. } = &item.selector.kind {
            if is_aggregate_call(&item.selector) && args.iter().any(contains_aggregate) {
                return Err(Error::invalid(
                    "aggregate functions cannot be used as arguments of aggregate functions",
                )
                .with_span(item.selector.span));
            }
        }
    }
    Ok(())
}

/// Whether `column` is restricted by `=` (a one-value IN counts).
fn restricted_by_eq(analysis: &SelectAnalysis<'_>, column: &Column) -> bool {
    let restrictions = match column.kind {
        ColumnKind::PartitionKey(_) => &analysis.clause.pk,
        ColumnKind::Clustering(..) => &analysis.clause.ck,
        _ => &analysis.clause.nonpk,
    };
    restrictions
        .iter()
        .any(|r| r.shape.is_eq() && r.columns.iter().any(|c| c.name == column.name))
}

/// DISTINCT, GROUP BY, PER PARTITION LIMIT and ORDER BY.
pub(crate) fn validate(
    analysis: &SelectAnalysis<'_>,
    select: &Select,
    columns: &[&Column],
) -> Result<(), Error> {
    if select.distinct {
        check_distinct(analysis, select, columns)?;
    }
    check_group_by(analysis, select)?;
    if select.per_partition_limit.is_some() && select.group_by.is_empty() && is_aggregate(select) {
        return Err(Error::invalid(
            "PER PARTITION LIMIT is not allowed with aggregate queries.",
        ));
    }
    check_order_by(analysis, select)
}

fn check_distinct(
    analysis: &SelectAnalysis<'_>,
    select: &Select,
    columns: &[&Column],
) -> Result<(), Error> {
    if select.per_partition_limit.is_some() {
        return Err(Error::invalid(
            "PER PARTITION LIMIT is not allowed with SELECT DISTINCT queries",
        ));
    }
    let restricts_rows = !analysis.clause.ck.is_empty()
        || analysis
            .clause
            .nonpk
            .iter()
            .any(|r| r.columns.iter().any(|c| !c.is_static()));
    if restricts_rows {
        return Err(Error::invalid(
            "SELECT DISTINCT with WHERE clause only supports restriction by partition key and/or static columns.",
        ));
    }
    if let Some(column) = columns
        .iter()
        .find(|c| !c.is_partition_key() && !c.is_static())
    {
        return Err(Error::invalid(format!(
            "SELECT DISTINCT queries must only request partition key columns and/or static columns (not {})",
            column.name
        )));
    }
    if analysis.key != KeyState::Exact {
        let missing: Vec<&str> = analysis
            .table
            .partition_key
            .iter()
            .filter(|pk| !columns.iter().any(|c| &&c.name == pk))
            .map(String::as_str)
            .collect();
        if !missing.is_empty() {
            return Err(Error::invalid(format!(
                "SELECT DISTINCT queries must request all the partition key columns (missing {})",
                missing.join(", ")
            )));
        }
    }
    Ok(())
}

/// GROUP BY: primary key columns in order, skipping only EQ-restricted
/// ones, never part of the partition key (restrictions.md §6.4).
fn check_group_by(analysis: &SelectAnalysis<'_>, select: &Select) -> Result<(), Error> {
    if select.group_by.is_empty() {
        return Ok(());
    }
    let table = analysis.table;
    let order_message =
        "Group by currently only support groups of columns following their declared order in the PRIMARY KEY";
    let key_columns: Vec<&Column> = table
        .partition_key_columns()
        .chain(table.clustering_columns())
        .collect();
    let mut next = 0;
    let mut clustering_grouped = false;
    for (i, item) in select.group_by.iter().enumerate() {
        let name = match &item.kind {
            SelectorKind::Column(name) => name,
            SelectorKind::Function { args, .. } => {
                if i + 1 != select.group_by.len() {
                    return Err(Error::invalid(
                        "Functions are only supported on the last element of the GROUP BY clause",
                    ));
                }
                match args.iter().find_map(|a| match &a.kind {
                    SelectorKind::Column(c) => Some(c),
                    _ => None,
                }) {
                    Some(name) => name,
                    None => return Err(Error::invalid(order_message)),
                }
            }
            _ => return Err(Error::invalid(order_message)),
        };
        let column = table
            .column(&name.name)
            .ok_or_else(|| super::relations::undefined_column(table, name))?;
        if !column.is_primary_key() {
            return Err(Error::invalid(format!(
                "Group by is currently only supported on the columns of the PRIMARY KEY, got {}",
                column.name
            )));
        }
        loop {
            let Some(key_column) = key_columns.get(next) else {
                return Err(Error::invalid(order_message));
            };
            next += 1;
            if key_column.is_clustering() {
                clustering_grouped = true;
            }
            if key_column.name == column.name {
                break;
            }
            if !restricted_by_eq(analysis, key_column) {
                return Err(Error::invalid(order_message));
            }
        }
    }
    if clustering_grouped && select.distinct {
        return Err(Error::invalid(
            "Grouping on clustering columns is not allowed for SELECT DISTINCT queries",
        ));
    }
    if key_columns.get(next).is_some_and(|c| c.is_partition_key()) {
        return Err(Error::invalid(
            "Group by is not supported on only a part of the partition key",
        ));
    }
    Ok(())
}

/// ORDER BY (restrictions.md §6.1).
fn check_order_by(analysis: &SelectAnalysis<'_>, select: &Select) -> Result<(), Error> {
    if select.order_by.is_empty() {
        return Ok(());
    }
    if analysis.uses_index {
        return Err(Error::invalid(
            "ORDER BY with 2ndary indexes is not supported, except for ANN queries.",
        ));
    }
    if analysis.key_range {
        return Err(Error::invalid(
            "ORDER BY is only supported when the partition key is restricted by an EQ or an IN.",
        ));
    }
    let table = analysis.table;
    let mut next_position = 0;
    let mut reversed: Option<bool> = None;
    for ordering in &select.order_by {
        let column = table
            .column(&ordering.column.name)
            .ok_or_else(|| super::relations::undefined_column(table, &ordering.column))?;
        let ColumnKind::Clustering(position, declared) = column.kind else {
            return Err(Error::invalid(format!(
                "Order by is currently only supported on the clustered columns of the PRIMARY KEY, got {}",
                column.name
            ))
            .with_span(ordering.column.span));
        };
        let in_order = position >= next_position
            && table
                .clustering_columns()
                .filter(|c| {
                    matches!(c.kind, ColumnKind::Clustering(p, _) if p >= next_position && p < position)
                })
                .all(|c| restricted_by_eq(analysis, c));
        if !in_order {
            return Err(Error::invalid(
                "Order by currently only supports the ordering of columns following their declared order in the PRIMARY KEY",
            )
            .with_span(ordering.column.span));
        }
        next_position = position + 1;
        let wanted = ordering.order.unwrap_or(Order::Asc);
        let this_reversed = wanted != declared;
        if reversed.is_some_and(|r| r != this_reversed) {
            return Err(
                Error::invalid("Unsupported order by relation").with_span(ordering.column.span)
            );
        }
        reversed = Some(this_reversed);
    }
    Ok(())
}

/// Whether the read runs in the reverse of the clustering order.
pub(crate) fn is_reversed(table: &Table, select: &Select) -> bool {
    select.order_by.first().is_some_and(|ordering| {
        matches!(
            table.column(&ordering.column.name).map(|c| c.kind),
            Some(ColumnKind::Clustering(_, declared)) if ordering.order.unwrap_or(Order::Asc) != declared
        )
    })
}

/// A literal LIMIT or PER PARTITION LIMIT of zero or less is refused as it
/// would be when the statement runs.
pub(crate) fn check_limits(select: &Select) -> Result<(), Error> {
    for limit in [&select.limit, &select.per_partition_limit]
        .into_iter()
        .flatten()
    {
        if let Term {
            kind: TermKind::Literal(Literal::Integer(text)),
            span,
        } = limit
        {
            let positive = text.parse::<i64>().is_ok_and(|n| n > 0)
                || (!text.starts_with('-') && text.trim_start_matches('0').len() > 18);
            if !positive {
                return Err(Error::invalid("LIMIT must be strictly positive").with_span(*span));
            }
        }
    }
    Ok(())
}
