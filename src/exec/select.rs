//! SELECT: walk the rows the plan reads, project them, aggregate or group
//! them, order rows merged from several partitions, apply the limits, and
//! report what it cost.

use smallvec::SmallVec;

use crate::error::Error;
use crate::planner::{Plan, PlanContext};
use crate::schema::{Column, Table};
use crate::storage::{prefetch_ahead, Partition, TableData};
use crate::syntax::ast::{NativeType, Select, Term};
use crate::types::{DataType, Value};

use super::bind::{eval_term, Binds};
use super::functions::FunctionContext;
use super::read::{self, Walk, WalkCost};
use super::restrict;
use super::result::{ColumnSpec, ResultSet};
use super::rows::Rows;
use super::selector::{self, Projection, Sel};
use super::view::RowView;
use super::Run;

/// Cassandra's guidance for a partition: past this many rows it is large.
const LARGE_PARTITION_ROWS: usize = 100_000;

/// A table needs at least this many rows before one partition holding
/// most of them counts as hot.
const HOT_TABLE_ROWS: usize = 10_000;

/// Runs a planned SELECT.
pub(crate) fn run(run: &mut Run<'_, '_>, select: &Select, plan: &Plan) -> Result<ResultSet, Error> {
    let table = run
        .ctx
        .catalog
        .resolve_table(run.ctx.keyspace.as_deref(), &select.from)
        .map_err(Error::as_refusal)?;
    let empty = TableData::default();
    let data = run
        .store
        .table_in(&table.keyspace, &table.name)
        .unwrap_or(&empty);
    let now_secs = run.now_secs();
    let fcx = &mut *run.fcx;
    let mut predicates =
        restrict::compile(table, &select.where_clause, run.binds, fcx, &run.limits)?;
    predicates.extend(super::index_lookup::same_bytes(table, plan, &predicates));
    let projection =
        selector::compile(table, &select.selection, run.binds, fcx).map_err(Error::as_refusal)?;
    let limit = limit(&select.limit, "LIMIT", run.binds, fcx)?;
    let per_partition = limit_of_partition(&select.per_partition_limit, run.binds, fcx)?;
    let groups = select
        .group_by
        .iter()
        .map(|g| selector::compile_one(table, g, run.binds, fcx))
        .collect::<Result<Vec<_>, _>>()?;
    let slots = super::view::slot_cache(table, data);
    let seek = read::seek(table, data, &predicates, plan.order);
    let walk = Walk {
        table,
        data,
        predicates: &predicates,
        direction: plan.order,
        now_secs,
        distinct: select.distinct,
        slots: &slots,
        seek: &seek,
    };
    let partitions = read::partitions(&walk)?;
    let merge = !select.order_by.is_empty() && key_in_relation(table, select);
    if merge && run.paged {
        // Rows merged across partitions must all be read before the LIMIT
        // applies (`SelectStatement.getDataLimits`), so with paging on —
        // cqlsh's default — Cassandra refuses whatever the LIMIT.
        return Err(Error::invalid(
            "Cannot page queries with both ORDER BY and a IN restriction on the partition key; you must either remove the ORDER BY or the IN and sort client side, or disable paging for this query",
        ));
    }
    let mut cost = WalkCost::default();
    let mut rows = Rows::with_capacity(projection.items.len(), 0);
    let mut warnings = Vec::new();
    if projection.aggregates() || !groups.is_empty() {
        rows = Rows::from(aggregate(
            &walk,
            &partitions,
            &projection,
            &groups,
            per_partition,
            limit,
            &mut cost,
            fcx,
        )?);
    } else if !merge {
        // Rows come in result order: each is projected as it is read, with
        // no list of row views kept for a second pass. Nothing but the
        // projection has side effects (`now()`, `uuid()`), and it runs on
        // the same rows in the same order as a second pass would.
        let mut error = None;
        let plain_columns = plain_columns(&projection.items);
        for (at, partition) in partitions.iter().enumerate() {
            stop_if_past_deadline()?;
            prefetch_ahead(&partitions, at);
            cost.partitions += 1;
            let mut taken = 0u64;
            let keep_going = read::rows_of(&walk, partition, &mut cost, &mut |v| {
                if let Some(columns) = &plain_columns {
                    rows.push_with(columns.len(), |out| {
                        for column in columns {
                            v.put_value(column, out);
                        }
                    });
                } else {
                    let mut row: SmallVec<[Value; 8]> = SmallVec::new();
                    for item in &projection.items {
                        match selector::eval(item, Some(&v), &[], fcx) {
                            Ok(value) => row.push(value),
                            Err(e) => {
                                error = Some(e);
                                return false;
                            }
                        }
                    }
                    rows.push(row);
                }
                taken += 1;
                per_partition.is_none_or(|n| taken < n)
                    && limit.is_none_or(|n| (rows.len() as u64) < n)
            });
            if let Some(e) = error.take() {
                return Err(e);
            }
            if !keep_going && limit.is_some_and(|n| rows.len() as u64 >= n) {
                break;
            }
        }
    } else {
        let mut views: Vec<RowView<'_>> = Vec::new();
        let cap = if merge { None } else { limit };
        for partition in &partitions {
            stop_if_past_deadline()?;
            cost.partitions += 1;
            let mut taken = 0u64;
            let keep_going = read::rows_of(&walk, partition, &mut cost, &mut |v| {
                views.push(v);
                taken += 1;
                per_partition.is_none_or(|n| taken < n)
                    && cap.is_none_or(|n| (views.len() as u64) < n)
            });
            if !keep_going && cap.is_some_and(|n| views.len() as u64 >= n) {
                break;
            }
        }
        if merge {
            sort_merged(table, select, &mut views);
        }
        if let Some(n) = limit {
            views.truncate(usize::try_from(n).unwrap_or(usize::MAX));
        }
        for v in &views {
            let row = projection
                .items
                .iter()
                .map(|item| selector::eval(item, Some(v), &[], fcx))
                .collect::<Result<Vec<_>, _>>()?;
            rows.push(row);
        }
    }
    let mut notes = Vec::new();
    partition_notes(table, data, &partitions, &mut notes);
    if projection.aggregates() || !groups.is_empty() {
        warnings.extend(aggregation_warning(&predicates));
    }
    let mut result = if select.json {
        let (columns, rows) = json_rows(&projection.columns, &rows);
        ResultSet::rows(columns, rows)
    } else {
        ResultSet::rows(projection.columns.clone(), rows)
    };
    result.warnings = warnings;
    result.notes = notes;
    result.metrics.partitions_touched = cost.partitions;
    result.metrics.rows_scanned = cost.rows_scanned;
    result.metrics.rows_returned = result.rows.len() as u64;
    Ok(result)
}

/// The columns of a selection of plain columns only, which a row copies
/// straight from storage; `None` when any selector computes its value.
fn plain_columns<'t>(items: &[Sel<'t>]) -> Option<SmallVec<[&'t Column; 8]>> {
    super::each_or_none(items, |item| match item {
        Sel::Column(column) => Some(*column),
        _ => None,
    })
}

fn limit(
    term: &Option<Term>,
    what: &str,
    binds: &super::Binds,
    fcx: &mut super::FunctionContext<'_>,
) -> Result<Option<u64>, Error> {
    let Some(term) = term else {
        return Ok(None);
    };
    match eval_term(term, &DataType::Native(NativeType::Int), what, binds, fcx)? {
        Value::Int(n) if n > 0 => Ok(Some(n as u64)),
        Value::Null => Err(Error::invalid(format!(
            "Invalid null value of {}",
            what.to_lowercase()
        ))),
        _ => Err(Error::invalid(format!("{what} must be strictly positive")).with_span(term.span)),
    }
}

fn limit_of_partition(
    term: &Option<Term>,
    binds: &super::Binds,
    fcx: &mut super::FunctionContext<'_>,
) -> Result<Option<u64>, Error> {
    limit(term, "PER PARTITION LIMIT", binds, fcx)
}

/// Whether a partition key column is restricted by an IN of more than one
/// value as written (`restrictions.keyIsInRelation()`: `IN (1, 1)` counts,
/// `IN (1)` is an `=`), so rows must be sorted after reading.
fn key_in_relation(table: &Table, select: &Select) -> bool {
    use crate::syntax::ast::{InValues, RelationKind};
    select.where_clause.iter().any(|r| match &r.kind {
        RelationKind::In { column, values } => {
            table
                .column(&column.name)
                .is_some_and(|c| c.is_partition_key())
                && match values {
                    InValues::List(items) => items.len() > 1,
                    InValues::Marker(_) => true,
                }
        }
        _ => false,
    })
}

/// Orders rows read from several partitions by the ORDER BY columns; ties
/// keep partition order. Cassandra merges by the table's clustering
/// comparator, in which a static-only row (no clustering value) comes
/// first: it leads when the ORDER BY follows the table's clustering order
/// and trails when it reverses it (checked against a 5.0.8 node).
fn sort_merged(table: &Table, select: &Select, views: &mut [RowView<'_>]) {
    use crate::syntax::ast::Order;
    use std::cmp::Ordering;
    // Each ORDER BY column, whether the table keeps it descending, and
    // whether the query reads it against the table's order.
    let keys: Vec<(&crate::schema::Column, bool, bool)> = select
        .order_by
        .iter()
        .filter_map(|o| {
            let c = table.column(&o.column.name)?;
            let table_desc = matches!(
                c.kind,
                crate::schema::ColumnKind::Clustering(_, Order::Desc)
            );
            let desc = matches!(o.order, Some(Order::Desc));
            Some((c, table_desc, desc != table_desc))
        })
        .collect();
    views.sort_by(|a, b| {
        for (column, table_desc, reversed) in &keys {
            let (x, y) = (a.value(column), b.value(column));
            let in_table_order = match (x.is_null(), y.is_null()) {
                (true, true) => Ordering::Equal,
                (true, false) => Ordering::Less,
                (false, true) => Ordering::Greater,
                _ if *table_desc => x.as_ref().cmp(y.as_ref()).reverse(),
                _ => x.as_ref().cmp(y.as_ref()),
            };
            let order = if *reversed {
                in_table_order.reverse()
            } else {
                in_table_order
            };
            if order != Ordering::Equal {
                return order;
            }
        }
        Ordering::Equal
    });
}

/// Aggregation: one row per group (GROUP BY), or one row for everything.
#[allow(clippy::too_many_arguments)]
fn aggregate<'a>(
    walk: &Walk<'a, '_>,
    partitions: &[&'a Partition],
    projection: &Projection<'_>,
    groups: &[Sel<'_>],
    per_partition: Option<u64>,
    limit: Option<u64>,
    cost: &mut WalkCost,
    fcx: &mut super::FunctionContext<'_>,
) -> Result<Vec<Vec<Value>>, Error> {
    let mut out = Vec::new();
    let mut state: Option<(Vec<Value>, RowView<'a>, Vec<super::aggregate::Accumulator>)> = None;
    let mut error = None;
    let finish = |state: (Vec<Value>, RowView<'a>, Vec<super::aggregate::Accumulator>),
                  fcx: &mut super::FunctionContext<'_>|
     -> Result<Vec<Value>, Error> {
        let (_, first, accumulators) = state;
        let finished: Vec<Value> = accumulators.into_iter().map(|a| a.finish()).collect();
        projection
            .items
            .iter()
            .map(|item| selector::eval(item, Some(&first), &finished, fcx))
            .collect()
    };
    for (at, partition) in partitions.iter().enumerate() {
        stop_if_past_deadline()?;
        prefetch_ahead(partitions, at);
        cost.partitions += 1;
        let mut groups_here = 0u64;
        let mut rows_here = 0u64;
        let stopped = !read::rows_of(walk, partition, cost, &mut |v| {
            let key: Vec<Value> = match groups
                .iter()
                .map(|g| selector::eval(g, Some(&v), &[], fcx))
                .collect::<Result<Vec<_>, _>>()
            {
                Ok(k) => k,
                Err(e) => {
                    error = Some(e);
                    return false;
                }
            };
            let same = match &state {
                None => false,
                Some(_) if groups.is_empty() => true,
                Some((k, _, _)) => *k == key,
            };
            if groups.is_empty() && per_partition.is_some_and(|n| rows_here >= n) {
                return false;
            }
            rows_here += 1;
            if !same {
                if !groups.is_empty() && per_partition.is_some_and(|n| groups_here >= n) {
                    return false;
                }
                if let Some(done) = state.take() {
                    match finish(done, fcx) {
                        Ok(row) => out.push(row),
                        Err(e) => {
                            error = Some(e);
                            return false;
                        }
                    }
                    if limit.is_some_and(|n| out.len() as u64 >= n) {
                        return false;
                    }
                }
                groups_here += 1;
                state = Some((key, v, projection.accumulators()));
            }
            if let Some((_, _, accumulators)) = state.as_mut() {
                if let Err(e) = selector::accumulate(projection, accumulators, &v, fcx) {
                    error = Some(e);
                    return false;
                }
            }
            true
        });
        if let Some(e) = error.take() {
            return Err(e);
        }
        if stopped && limit.is_some_and(|n| out.len() as u64 >= n) {
            return Ok(out);
        }
    }
    match state {
        Some(done) => out.push(finish(done, fcx)?),
        None if groups.is_empty() => {
            // No rows: aggregates still give one row (count 0, max null).
            let finished: Vec<Value> = projection
                .accumulators()
                .into_iter()
                .map(|a| a.finish())
                .collect();
            let row = projection
                .items
                .iter()
                .map(|item| selector::eval(item, None, &finished, fcx))
                .collect::<Result<Vec<_>, _>>()?;
            out.push(row);
        }
        None => {}
    }
    if let Some(n) = limit {
        out.truncate(usize::try_from(n).unwrap_or(usize::MAX));
    }
    Ok(out)
}

/// Cassandra's warning for an aggregate over more than one partition
/// (`SelectStatement.execute`): none when the partition key is restricted
/// other than by IN.
fn aggregation_warning(predicates: &[restrict::Predicate<'_>]) -> Option<String> {
    let on_key = |p: &restrict::Predicate<'_>| match p {
        restrict::Predicate::Compare { column, .. } | restrict::Predicate::In { column, .. } => {
            column.is_partition_key()
        }
        restrict::Predicate::Token { .. } => true,
        _ => false,
    };
    if !predicates.iter().any(on_key) {
        return Some("Aggregation query used without partition key".into());
    }
    let in_on_key = predicates.iter().any(|p| {
        matches!(p, restrict::Predicate::In { column, values } if column.is_partition_key() && values.len() > 1)
    });
    in_on_key.then(|| "Aggregation query used on multiple partition keys (IN restriction)".into())
}

/// Notes on the partitions a read touched past Cassandra's large-partition
/// guidance or holding most of the table. Cassandra logs large partitions
/// at compaction rather than warning the client, so these are widerow's
/// notes, not client warnings.
pub(crate) fn partition_notes(
    table: &Table,
    data: &TableData,
    partitions: &[&Partition],
    notes: &mut Vec<String>,
) {
    let mut table_rows = None;
    for p in partitions {
        let rows = p.rows.len();
        if rows > LARGE_PARTITION_ROWS {
            notes.push(format!(
                "Large partition {} of {} holds {rows} rows, past Cassandra's guidance of {LARGE_PARTITION_ROWS} rows",
                key_text(table, p),
                table.qualified_name()
            ));
        } else if rows > HOT_TABLE_ROWS / 2 {
            let total = *table_rows.get_or_insert_with(|| data.row_count());
            if total >= HOT_TABLE_ROWS && rows * 2 > total {
                notes.push(format!(
                    "Hot partition {} of {} holds {rows} of the table's {total} rows",
                    key_text(table, p),
                    table.qualified_name()
                ));
            }
        }
    }
}

fn key_text(table: &Table, p: &Partition) -> String {
    let parts: Vec<String> = p
        .key
        .iter()
        .zip(table.partition_key_columns())
        .map(|(v, c)| v.cqlsh_display(&c.data_type))
        .collect();
    format!("({})", parts.join(", "))
}

/// SELECT JSON: one text column `[json]`, a JSON object per row keyed by
/// the result column names (quoted as CQL quotes them when they need it).
fn json_rows(columns: &[ColumnSpec], rows: &Rows) -> (Vec<ColumnSpec>, Vec<Vec<Value>>) {
    let keys: Vec<String> = columns
        .iter()
        .map(|c| {
            // Case-sensitive names keep their double quotes; derived names
            // such as `system.token(k)` do not get any.
            let name = if c.name.chars().any(char::is_uppercase) {
                format!("\"{}\"", c.name.replace('"', "\"\""))
            } else {
                c.name.clone()
            };
            let mut key = String::new();
            json_string(&mut key, &name);
            key
        })
        .collect();
    let rows = rows
        .iter()
        .map(|row| {
            let mut text = String::from("{");
            for (i, (value, column)) in row.iter().zip(columns).enumerate() {
                if i > 0 {
                    text.push_str(", ");
                }
                text.push_str(&keys[i]);
                text.push_str(": ");
                if value.is_null() {
                    text.push_str("null");
                } else {
                    text.push_str(&value.to_json_text(&column.data_type));
                }
            }
            text.push('}');
            vec![Value::Text(text)]
        })
        .collect();
    let column = ColumnSpec {
        name: "[json]".into(),
        data_type: DataType::Native(NativeType::Text),
    };
    (vec![column], rows)
}

fn json_string(out: &mut String, text: &str) {
    out.push_str(&Value::Text(text.to_string()).to_json_text(&DataType::Native(NativeType::Text)));
}

/// The columns `select` returns, known before anything is read: what a
/// PREPARED result describes to the driver, which then decodes each page
/// by it. Fails where the selection needs its bind values to be typed.
pub fn result_columns(ctx: &PlanContext, select: &Select) -> Result<Vec<ColumnSpec>, Error> {
    let table = ctx
        .catalog
        .resolve_table(ctx.keyspace.as_deref(), &select.from)?;
    if select.json {
        return Ok(vec![ColumnSpec {
            name: "[json]".into(),
            data_type: DataType::Native(NativeType::Text),
        }]);
    }
    let mut no_timeuuid = || [0u8; 16];
    let mut no_uuid = || [0u8; 16];
    let mut fcx = FunctionContext {
        now_micros: 0,
        next_timeuuid: &mut no_timeuuid,
        next_uuid: &mut no_uuid,
    };
    Ok(selector::compile(table, &select.selection, &Binds::none(), &mut fcx)?.columns)
}

/// Fails the read with Cassandra's ReadTimeout once its deadline has
/// passed (see [`crate::deadline`]); the session adds the consistency
/// level and the responses it needed.
fn stop_if_past_deadline() -> Result<(), Error> {
    if crate::deadline::passed() {
        return Err(Error::new(
            crate::error::ErrorKind::ReadTimeout,
            "Operation timed out - received only 0 responses.",
        ));
    }
    Ok(())
}
