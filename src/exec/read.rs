//! Finding the rows a SELECT reads, in the order Cassandra returns them.
//!
//! Partitions come from the partition key when `=`/`IN` pin it (in the key
//! type's order, duplicates dropped — results.md), otherwise from a scan
//! of the ring in token order. Within a partition, rows come in clustering
//! order (or its reverse), seeking to the pinned clustering keys or slice
//! when the clause allows and testing every relation on every row read.

use std::ops::Bound as StdBound;

use crate::planner::Direction;
use crate::schema::{Column, ColumnKind, Table};
use crate::storage::{
    bounds_ordered, prefetch, ClusteringKey, Partition, SlotRef, StoredKey, StoredRow, TableData,
    PREFETCH_ROWS,
};
use crate::types::Value;

use super::cell_filter::CellFilter;
use super::restrict::{self, Predicate};
use super::view::RowView;

/// How to walk the rows.
pub(crate) struct Walk<'a, 'p> {
    pub(crate) table: &'a Table,
    pub(crate) data: &'a TableData,
    pub(crate) predicates: &'p [Predicate<'a>],
    pub(crate) direction: Direction,
    pub(crate) now_secs: i64,
    /// Return one row per partition (DISTINCT).
    pub(crate) distinct: bool,
    /// Column slots for the row views (see [`super::view::slot_cache`]).
    pub(crate) slots: &'a [(&'a Column, Option<usize>)],
    /// Where to read in each partition (see [`seek`]).
    pub(crate) seek: &'p Seek,
}

/// What a walk cost.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct WalkCost {
    pub(crate) partitions: u64,
    pub(crate) rows_scanned: u64,
}

/// The partitions a walk reads, in Cassandra's order.
pub(crate) fn partitions<'a>(
    walk: &Walk<'a, '_>,
) -> Result<Vec<&'a Partition>, crate::error::Error> {
    let pk = restrict::partition_columns(walk.table);
    if let Some(keys) = restrict::key_combinations(walk.predicates, &pk) {
        let mut found = Vec::with_capacity(keys.len());
        for key in &keys {
            let pos = restrict::partition_position(key)?;
            if restrict::token_admits(walk.predicates, pos.token) {
                found.extend(walk.data.partition(&pos));
            }
        }
        return Ok(found);
    }
    Ok(walk
        .data
        .partitions
        .iter()
        .filter(|(pos, _)| restrict::token_admits(walk.predicates, pos.token))
        .map(|(_, p)| p)
        .collect())
}

/// Where a walk reads within each partition and what it still tests:
/// the same for every partition, so worked out once per walk.
pub(crate) struct Seek {
    /// Full clustering keys pinned by `=`/`IN`, in read order; `None`
    /// when the walk reads ranges.
    exact_keys: Option<Vec<ClusteringKey>>,
    /// Storage ranges to read, in read order, when there are no exact keys.
    ranges: Vec<(StdBound<ClusteringKey>, StdBound<ClusteringKey>)>,
    /// How each predicate is tested on each row.
    checks: Vec<Check>,
    /// The same tests on a row's cells, when every check is a
    /// [`Check::Cell`] or guaranteed: a filtering scan's fast path.
    cells: Option<CellFilter>,
    /// Whether any predicate restricts clustering columns.
    restricts_clustering: bool,
}

/// How a row is tested against one predicate.
#[derive(Debug, Clone, Copy)]
enum Check {
    /// The way rows were found guarantees it.
    Guaranteed,
    /// A comparison on a regular column, read straight from the column's
    /// storage slot (`None`: never written) — the test a filtering scan
    /// makes on every row.
    Cell(Option<usize>),
    /// Anything else: [`restrict::matches`].
    Row,
}

/// Works out the [`Seek`] of a walk of `data` with `predicates`.
pub(crate) fn seek(
    table: &Table,
    data: &TableData,
    predicates: &[Predicate<'_>],
    direction: Direction,
) -> Seek {
    let ck = restrict::clustering_columns(table);
    let exact_keys = full_keys(table, predicates, direction, &ck);
    let ranges = if exact_keys.is_some() {
        Vec::new()
    } else {
        ordered_prefixes(table, predicates, direction, &ck)
            .iter()
            .map(|prefix| restrict::slice_bounds(table, predicates, prefix))
            .filter(|(start, end)| bounds_ordered(start, end))
            .collect()
    };
    let checks: Vec<Check> = row_checks(table, predicates, exact_keys.is_some())
        .into_iter()
        .zip(predicates)
        .map(|(needed, p)| match p {
            _ if !needed => Check::Guaranteed,
            Predicate::Compare { column, .. } if column.kind == ColumnKind::Regular => {
                Check::Cell(data.slot(&column.name))
            }
            _ => Check::Row,
        })
        .collect();
    Seek {
        cells: cell_filter(predicates, &checks),
        checks,
        exact_keys,
        ranges,
        restricts_clustering: predicates.iter().any(restricts_clustering),
    }
}

/// Calls `visit` with each matching row of `partition`, in order, until it
/// returns false. Returns false when the visitor stopped the walk.
pub(crate) fn rows_of<'a>(
    walk: &Walk<'a, '_>,
    partition: &'a Partition,
    cost: &mut WalkCost,
    visit: &mut dyn FnMut(RowView<'a>) -> bool,
) -> bool {
    let seek = walk.seek;
    if walk.distinct {
        if !partition.is_live(walk.now_secs) {
            return true;
        }
        cost.rows_scanned += 1;
        return offer(walk, partition, None, None, false, visit);
    }
    let mut any_live_row = false;
    let cells = seek.cells.as_ref();
    // The filter test inline, the rest (row view, general test, visitor)
    // out of line: most rows of a filtering scan fail the filter.
    let mut on_row = |key: &'a StoredKey, row: &'a StoredRow, cost: &mut WalkCost| -> bool {
        if !row.is_live(walk.now_secs) {
            return true;
        }
        any_live_row = true;
        cost.rows_scanned += 1;
        match cells.map(|f| f.passes(row, walk.now_secs)) {
            Some(Some(false)) => true,
            fast => offer(walk, partition, Some(key), Some(row), fast.is_some(), visit),
        }
    };
    // Live packed rows the filter rejects, passed over in line: most rows
    // of a filtering scan.
    let mut rejected = 0;
    let mut rejects = |row: &StoredRow| {
        let skip = cells.is_some_and(|f| f.rejects_live_packed(row, walk.now_secs));
        rejected += u64::from(skip);
        skip
    };
    if let Some(keys) = &seek.exact_keys {
        for key in keys {
            if let Some((k, row)) = partition.rows.get_key_value(key) {
                if !on_row(k, row, cost) {
                    return false;
                }
            }
        }
    } else {
        for (start, end) in &seek.ranges {
            let runs = partition.rows.range_runs((start.as_ref(), end.as_ref()));
            let mut visit = |k, r| !rejects(r) && !on_row(k, r, cost);
            let stopped = if walk.direction == Direction::Reversed {
                runs.rev().any(|(keys, rows)| {
                    (0..rows.len()).rev().any(|i| {
                        if let Some(ahead) = i.checked_sub(PREFETCH_ROWS) {
                            prefetch(&rows[ahead]);
                        }
                        visit(&keys[i], &rows[i])
                    })
                })
            } else {
                runs.into_iter().any(|(keys, rows)| {
                    keys.iter().zip(rows).enumerate().any(|(i, (k, r))| {
                        if let Some(ahead) = rows.get(i + PREFETCH_ROWS) {
                            prefetch(ahead);
                        }
                        visit(k, r)
                    })
                })
            };
            if stopped {
                cost.rows_scanned += rejected;
                return false;
            }
        }
    }
    cost.rows_scanned += rejected;
    if rejected == 0 && !any_live_row && static_row_stands_in(walk, partition) {
        cost.rows_scanned += 1;
        return offer(walk, partition, None, None, false, visit);
    }
    true
}

/// Hands a live row to `visit` if it passes the walk's tests (`passed`:
/// already known to). Returns false when the visitor stopped the walk.
#[inline(never)]
fn offer<'a>(
    walk: &Walk<'a, '_>,
    partition: &'a Partition,
    clustering: Option<&'a StoredKey>,
    row: Option<&'a StoredRow>,
    passed: bool,
    visit: &mut dyn FnMut(RowView<'a>) -> bool,
) -> bool {
    let v = RowView {
        table: walk.table,
        data: walk.data,
        partition,
        clustering,
        row,
        now_secs: walk.now_secs,
        slots: walk.slots,
    };
    let passes = passed
        || walk
            .predicates
            .iter()
            .zip(&walk.seek.checks)
            .all(|(p, check)| match check {
                Check::Guaranteed => true,
                Check::Cell(slot) => cell_passes(p, *slot, &v),
                Check::Row => restrict::matches(p, &v),
            });
    !passes || visit(v)
}

/// The [`CellFilter`] testing what `checks` test, if every check is a
/// cell comparison or guaranteed.
fn cell_filter(predicates: &[Predicate<'_>], checks: &[Check]) -> Option<CellFilter> {
    let mut tests = Vec::with_capacity(checks.len());
    for (p, check) in predicates.iter().zip(checks) {
        match (check, p) {
            (Check::Guaranteed, _) => {}
            (Check::Cell(slot), Predicate::Compare { op, value, .. }) => {
                tests.push((*slot, *op, value));
            }
            _ => return None,
        }
    }
    Some(CellFilter::new(tests))
}

/// [`restrict::matches`] for a comparison on a regular column, reading
/// its cell from `slot` without looking the column up.
fn cell_passes(predicate: &Predicate<'_>, slot: Option<usize>, row: &RowView<'_>) -> bool {
    let Predicate::Compare { op, value, .. } = predicate else {
        return restrict::matches(predicate, row);
    };
    match slot.and_then(|s| row.row?.slot(s)) {
        None => false,
        Some(SlotRef::Cell(cell)) => {
            restrict::compare_holds(*op, cell.live_value(row.now_secs), value)
        }
        Some(SlotRef::Collection(_)) => restrict::matches(predicate, row),
    }
}

/// Which predicates a row must still be tested against: not the ones the
/// way rows were found already guarantees — a partition key `=`/`IN` when
/// partitions were looked up by key (found by the key's bytes, so its values
/// are equal), a clustering `=`/`IN` when rows were looked up by full key
/// (found by the clustering order's equality), and token relations (tested
/// per partition). Only the first `=`/`IN` on a column is the one the lookup
/// used; any other relation is tested.
fn row_checks(table: &Table, predicates: &[Predicate<'_>], exact_keys: bool) -> Vec<bool> {
    let pk_by_key = restrict::partition_columns(table)
        .iter()
        .all(|c| first_pin(predicates, c).is_some());
    predicates
        .iter()
        .enumerate()
        .map(|(i, p)| match p {
            Predicate::Token { .. } => false,
            Predicate::Compare {
                column,
                op: crate::syntax::ast::Operator::Eq,
                ..
            }
            | Predicate::In { column, .. } => {
                let used = (column.is_partition_key() && pk_by_key)
                    || (column.is_clustering() && exact_keys);
                !(used && first_pin(predicates, column) == Some(i))
            }
            _ => true,
        })
        .collect()
}

/// The index of the first `=`/`IN` predicate on `column` (the one
/// [`restrict::pinned`] takes).
fn first_pin(predicates: &[Predicate<'_>], column: &Column) -> Option<usize> {
    predicates.iter().position(|p| match p {
        Predicate::Compare {
            column: c,
            op: crate::syntax::ast::Operator::Eq,
            ..
        }
        | Predicate::In { column: c, .. } => c.name == column.name,
        _ => false,
    })
}

/// A partition with static values and no rows reads as one row of its key
/// and statics, unless the query restricts clustering columns.
fn static_row_stands_in(walk: &Walk<'_, '_>, partition: &Partition) -> bool {
    !walk.seek.restricts_clustering
        && partition.static_row.has_live_cells(walk.now_secs)
        && !partition.rows.values().any(|r| r.is_live(walk.now_secs))
}

fn restricts_clustering(p: &Predicate<'_>) -> bool {
    match p {
        Predicate::Compare { column, .. } | Predicate::In { column, .. } => column.is_clustering(),
        Predicate::MultiCompare { .. } | Predicate::MultiIn { .. } => true,
        _ => false,
    }
}

/// Full clustering keys pinned by `=`/`IN`, in read order.
fn full_keys(
    table: &Table,
    predicates: &[Predicate<'_>],
    direction: Direction,
    ck: &[&Column],
) -> Option<Vec<ClusteringKey>> {
    if ck.is_empty() {
        return Some(vec![ClusteringKey::exact(Vec::<Value>::new(), 0)]);
    }
    let combos = restrict::key_combinations(predicates, ck)?;
    Some(in_read_order(table, combos, direction))
}

/// Key values as clustering keys, in the order a walk in `direction`
/// meets them, duplicates dropped.
fn in_read_order(
    table: &Table,
    combos: Vec<Vec<Value>>,
    direction: Direction,
) -> Vec<ClusteringKey> {
    let mask = restrict::descending_mask(table);
    let mut keys: Vec<ClusteringKey> = combos
        .into_iter()
        .map(|k| ClusteringKey::exact(k, mask))
        .collect();
    keys.sort();
    keys.dedup();
    if direction == Direction::Reversed {
        keys.reverse();
    }
    keys
}

/// The longest clustering prefix pinned by `=`/`IN`, each combination in
/// read order.
fn ordered_prefixes(
    table: &Table,
    predicates: &[Predicate<'_>],
    direction: Direction,
    ck: &[&Column],
) -> Vec<Vec<Value>> {
    for len in (1..ck.len()).rev() {
        if let Some(combos) = restrict::key_combinations(predicates, &ck[..len]) {
            return in_read_order(table, combos, direction)
                .into_iter()
                .map(|k| k.values().to_vec())
                .collect();
        }
    }
    vec![Vec::new()]
}
