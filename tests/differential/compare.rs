//! Comparing widerow's result with the model's.
//!
//! How strictly depends on what Cassandra defines (results.md "Order of
//! rows"):
//!
//! * named partitions (`=` or `IN` on the whole partition key): the exact
//!   order — clustering order within a partition, partitions in key order;
//! * scans (no or a partial partition key restriction): partitions come in
//!   token order, which the model does not compute. When every partition
//!   key column is selected the check is still strict about the rest: each
//!   partition's rows must be contiguous and in clustering order, and a
//!   LIMIT must cut the stream after whole partitions plus a prefix of one.
//!   Otherwise the rows are compared as a multiset (a sub-multiset of the
//!   right size under LIMIT);
//! * aggregates: the single row; GROUP BY: one row per group, like rows.
//!
//! Headers are compared too: `SELECT *` has its own column order, and
//! aggregates have Cassandra's names (`count`, `system.max(v)`).

use std::collections::HashMap;

use widerow::exec::ResultSet;
use widerow::types::Value;

use super::case::{Agg, Read, Selection};
use super::model::Expected;
use super::schema::Table;

type Row = Vec<Value>;

fn show(rows: &[Row]) -> String {
    if rows.is_empty() {
        return "  (no rows)\n".into();
    }
    rows.iter().map(|r| format!("  {r:?}\n")).collect()
}

fn mismatch(what: &str, expected: &[Row], actual: &[Row]) -> String {
    format!(
        "{what}\nexpected ({} rows):\n{}actual ({} rows):\n{}",
        expected.len(),
        show(expected),
        actual.len(),
        show(actual)
    )
}

/// The headers Cassandra gives the selection.
pub fn headers(table: &Table, selection: &Selection) -> Vec<String> {
    let names = |cols: Vec<usize>| {
        cols.into_iter()
            .map(|c| table.name(c).to_string())
            .collect()
    };
    match selection {
        Selection::Star => names(table.star()),
        Selection::Columns(cols) | Selection::Distinct(cols) => names(cols.clone()),
        Selection::Aggregate(a) => vec![agg_header(table, *a)],
        Selection::GroupBy(_, a) => {
            let mut h: Vec<String> = names(selection.group_columns(table));
            h.push(agg_header(table, *a));
            h
        }
    }
}

fn agg_header(table: &Table, a: Agg) -> String {
    match a {
        Agg::CountStar => "count".into(),
        Agg::Count(c) => format!("system.count({})", table.name(c)),
        Agg::Min(c) => format!("system.min({})", table.name(c)),
        Agg::Max(c) => format!("system.max({})", table.name(c)),
    }
}

/// Where each partition key column sits in the selection, if all do.
fn key_positions(table: &Table, selection: &Selection) -> Option<Vec<usize>> {
    let cols = match selection {
        Selection::Star => table.star(),
        Selection::Columns(cols) | Selection::Distinct(cols) => cols.clone(),
        Selection::GroupBy(..) => selection.group_columns(table),
        _ => return None,
    };
    table
        .pk()
        .into_iter()
        .map(|k| cols.iter().position(|&c| c == k))
        .collect()
}

pub fn check(
    table: &Table,
    read: &Read,
    expected: &Expected,
    actual: &ResultSet,
) -> Result<(), String> {
    let want_headers = headers(table, &read.selection);
    let got_headers: Vec<String> = actual.columns.iter().map(|c| c.name.clone()).collect();
    if want_headers != got_headers {
        return Err(format!(
            "headers differ: expected {want_headers:?}, actual {got_headers:?}"
        ));
    }
    let all: Vec<Row> = expected.rows.iter().map(|(_, r)| r.clone()).collect();
    let limit = read.limit.map_or(usize::MAX, |n| n as usize);
    let got = &actual.rows.to_vecs();

    if read.selection.is_aggregate() || read.exact_key() {
        let want: Vec<Row> = all
            .iter()
            .take(if read.selection.is_aggregate() {
                usize::MAX
            } else {
                limit
            })
            .cloned()
            .collect();
        return if &want == got {
            Ok(())
        } else {
            Err(mismatch("rows differ (order is defined)", &want, got))
        };
    }
    match key_positions(table, &read.selection) {
        Some(pos) => check_grouped(expected, got, &pos, limit),
        None => check_multiset(&all, got, limit),
    }
}

/// Scans with the partition key selected: rows grouped by partition, each
/// group in clustering order, groups in any order.
fn check_grouped(
    expected: &Expected,
    got: &[Row],
    pos: &[usize],
    limit: usize,
) -> Result<(), String> {
    let all: Vec<Row> = expected.rows.iter().map(|(_, r)| r.clone()).collect();
    let fail = |what: &str| {
        Err(mismatch(
            &format!("{what} (scan: partitions in any order, rows of each in clustering order)"),
            &all,
            got,
        ))
    };
    let mut groups: Vec<(Row, Vec<Row>)> = Vec::new();
    for (key, row) in &expected.rows {
        match groups.last_mut() {
            Some((k, rows)) if k == key => rows.push(row.clone()),
            _ => groups.push((key.clone(), vec![row.clone()])),
        }
    }
    let by_key: HashMap<String, &Vec<Row>> = groups
        .iter()
        .map(|(k, rows)| (format!("{k:?}"), rows))
        .collect();
    if got.len() != all.len().min(limit) {
        return fail("wrong number of rows");
    }
    let mut seen: Vec<String> = Vec::new();
    let mut i = 0;
    while i < got.len() {
        let key: Row = pos.iter().map(|&p| got[i][p].clone()).collect();
        let k = format!("{key:?}");
        let Some(group) = by_key.get(&k) else {
            return fail(&format!("a partition the model does not return: {key:?}"));
        };
        if seen.contains(&k) {
            return fail(&format!("partition {key:?} is split"));
        }
        seen.push(k);
        let take = group.len().min(got.len() - i);
        if got[i..i + take] != group[..take] {
            return fail(&format!("rows of partition {key:?} differ"));
        }
        if take < group.len() && i + take < limit {
            return fail(&format!("partition {key:?} is cut short"));
        }
        i += take;
    }
    Ok(())
}

fn check_multiset(all: &[Row], got: &[Row], limit: usize) -> Result<(), String> {
    let mut pool: HashMap<String, usize> = HashMap::new();
    for r in all {
        *pool.entry(format!("{r:?}")).or_default() += 1;
    }
    let fail = |what: &str| {
        Err(mismatch(
            &format!("{what} (compared as a multiset)"),
            all,
            got,
        ))
    };
    if got.len() != all.len().min(limit) {
        return fail("wrong number of rows");
    }
    for r in got {
        match pool.get_mut(&format!("{r:?}")) {
            Some(n) if *n > 0 => *n -= 1,
            _ => return fail(&format!("unexpected row {r:?}")),
        }
    }
    Ok(())
}

/// The scan comparison accepts any partition order and nothing looser.
#[test]
fn scans_compare_partitions_in_any_order_and_nothing_looser() {
    use widerow::types::Value::Int;
    // Partition 1 has rows (1, 10), (1, 11); partition 2 has (2, 20).
    let expected = Expected {
        rows: vec![
            (vec![Int(1)], vec![Int(1), Int(10)]),
            (vec![Int(1)], vec![Int(1), Int(11)]),
            (vec![Int(2)], vec![Int(2), Int(20)]),
        ],
    };
    let rows =
        |v: &[(i32, i32)]| -> Vec<Row> { v.iter().map(|&(k, c)| vec![Int(k), Int(c)]).collect() };
    let check =
        |got: &[(i32, i32)], limit| check_grouped(&expected, &rows(got), &[0], limit).is_ok();
    assert!(check(&[(2, 20), (1, 10), (1, 11)], usize::MAX));
    assert!(check(&[(1, 10), (1, 11), (2, 20)], usize::MAX));
    assert!(
        !check(&[(1, 10), (2, 20), (1, 11)], usize::MAX),
        "split partition"
    );
    assert!(
        !check(&[(1, 11), (1, 10), (2, 20)], usize::MAX),
        "clustering order"
    );
    assert!(!check(&[(1, 10), (1, 11)], usize::MAX), "missing partition");
    assert!(
        check(&[(2, 20), (1, 10)], 2),
        "LIMIT cuts the last partition"
    );
    assert!(check(&[(1, 10), (1, 11)], 2));
    assert!(
        !check(&[(1, 10), (2, 20)], 2),
        "LIMIT cuts only the last partition"
    );
    assert!(check_multiset(
        &rows(&[(1, 11), (2, 20), (1, 10)]),
        &rows(&[(1, 10), (1, 11), (2, 20)]),
        usize::MAX
    )
    .is_ok());
    assert!(check_multiset(&rows(&[(1, 11)]), &rows(&[(1, 10)]), usize::MAX).is_err());
}
