//! The wide-row view: the partitions a statement touched, drawn as the
//! seed's "drawer" — partition key once per partition, its clustering rows
//! in stored order beneath it, one column per schema column with sparse
//! cells left blank — and a `▶` on the rows the statement read or wrote.
//!
//! Big partitions are not printed whole: the marked rows are shown with a
//! little context around them, and the rest is elided with a count, so the
//! view of a 6,000-row hot partition stays one screen.

use std::collections::BTreeMap;

use unicode_width::UnicodeWidthStr;

use crate::planner::{Partitions, Plan, TokenRange, TokenValue};
use crate::schema::{Column, ColumnKind, Table};
use crate::session::Session;
use crate::storage::{Partition, PartitionPosition, SlotRef, StoredKey, StoredRow, TableData};
use crate::types::{DataType, Value};

use super::explain::key_text;
use super::marks::Marks;
use super::paint::{count, plural, Paint, Tone};

/// Most rows the view prints; the rest are elided with a count.
const MAX_ROWS: usize = 12;

/// Rows of context printed before and after each marked row.
const CONTEXT: usize = 2;

/// Rows printed when nothing is marked.
const LEAD: usize = 5;

/// Widest cell, in columns; longer values end with `…`.
const MAX_CELL: usize = 36;

/// The marker of a row the statement read or wrote.
const MARK: &str = "▶";

/// What the marks mean.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Verb {
    /// A SELECT: the rows it returned (or aggregated).
    Read,
    /// An INSERT, UPDATE or BATCH: the rows it wrote, as they are after
    /// the write.
    Written,
    /// A DELETE: the partition after it (deleted rows are gone, so none
    /// is marked).
    Deleted,
}

/// One line of the drawer: a clustering row, or a partition's static row
/// standing in for a partition without clustering rows.
pub(super) struct Entry<'a> {
    /// The partition's place among those shown (0, 1, …).
    pub(super) group: usize,
    pub(super) token: i64,
    pub(super) partition: &'a Partition,
    pub(super) clustering: Option<&'a StoredKey>,
    pub(super) row: Option<&'a StoredRow>,
    pub(super) marked: bool,
}

/// What the view reads storage with.
pub(super) struct Source<'a> {
    /// The table's qualified name, `ks.t`.
    pub(super) name: &'a str,
    pub(super) table: &'a Table,
    pub(super) data: &'a TableData,
    pub(super) now_secs: i64,
}

impl<'a> Source<'a> {
    /// Table `name` of `session` with its rows (`empty` when it holds none
    /// yet), read at the session's clock.
    pub(super) fn of(
        session: &'a Session,
        name: &'a str,
        table: &'a Table,
        empty: &'a TableData,
    ) -> Source<'a> {
        Source {
            name,
            table,
            data: session.store().table(name).unwrap_or(empty),
            now_secs: session.now_micros().div_euclid(1_000_000),
        }
    }
}

/// The view of table `name` (one of the plan's tables), heading first.
pub(crate) fn render(
    session: &Session,
    plan: &Plan,
    name: &str,
    marks: &Marks,
    verb: Verb,
    paint: Paint,
) -> Vec<String> {
    let Some(table) = super::table_of(session, name) else {
        return vec![paint.paint(Tone::Heading, &format!("WIDE ROW · {name}"))];
    };
    let empty = TableData::default();
    let source = Source::of(session, name, table, &empty);
    let partitions = touched(&source, plan);
    let entries = entries(&source, &partitions, marks);
    let heading = heading(&source, plan, &partitions, &entries);
    let mut out = vec![paint.paint(Tone::Heading, &heading)];
    out.push(format!("  {}", legend(marks, verb)));
    if entries.is_empty() {
        out.push("  (no live rows)".to_string());
        return out;
    }
    out.extend(drawer(&source, &entries, partitions.len() > 1, paint));
    out
}

/// The partitions the plan addresses, in token order, live ones only.
pub(super) fn touched<'a>(
    source: &Source<'a>,
    plan: &Plan,
) -> Vec<(&'a PartitionPosition, &'a Partition)> {
    let all = source.data.partitions.iter();
    let chosen: Vec<_> = match &plan.partitions {
        Partitions::Keys { partitions } => {
            let mut by_position = BTreeMap::new();
            for target in partitions {
                if let TokenValue::Known(token) = target.token {
                    by_position.extend(at_token(source.data, token));
                }
            }
            by_position.into_iter().collect()
        }
        Partitions::TokenRange { range } => all.filter(|(p, _)| in_range(range, p.token)).collect(),
        Partitions::All => all.collect(),
    };
    chosen
        .into_iter()
        .filter(|(_, p)| p.is_live(source.now_secs))
        .collect()
}

/// The stored partitions whose token is `token` (one, barring collisions).
pub(crate) fn at_token(
    data: &TableData,
    token: i64,
) -> impl Iterator<Item = (&PartitionPosition, &Partition)> + '_ {
    let from = PartitionPosition {
        token,
        key: Box::default(),
    };
    data.partitions
        .range(from..)
        .take_while(move |(p, _)| p.token == token)
}

/// Whether `token` is inside a plan's token range.
fn in_range(range: &TokenRange, token: i64) -> bool {
    let bound = |text: &Option<String>| text.as_deref().and_then(|t| t.parse::<i64>().ok());
    let above = match bound(&range.start) {
        Some(start) if range.start_inclusive => token >= start,
        Some(start) => token > start,
        None => true,
    };
    let below = match bound(&range.end) {
        Some(end) if range.end_inclusive => token <= end,
        Some(end) => token < end,
        None => true,
    };
    above && below
}

/// Every live row of the partitions, in stored order, with its mark.
pub(super) fn entries<'a>(
    source: &Source<'a>,
    partitions: &[(&'a PartitionPosition, &'a Partition)],
    marks: &Marks,
) -> Vec<Entry<'a>> {
    let mut out = Vec::new();
    for (group, (position, partition)) in partitions.iter().enumerate() {
        let before = out.len();
        for (key, row) in &partition.rows {
            if row.is_live(source.now_secs) {
                let head = out.len() == before && marks.head(source.name, &partition.key);
                out.push(Entry {
                    group,
                    token: position.token,
                    partition,
                    clustering: Some(key),
                    row: Some(row),
                    marked: head || marks.row(source.name, &partition.key, &key.values()),
                });
            }
        }
        if out.len() == before {
            let nulls = vec![Value::Null; source.table.clustering.len()];
            out.push(Entry {
                group,
                token: position.token,
                partition,
                clustering: None,
                row: None,
                marked: marks.head(source.name, &partition.key)
                    || marks.row(source.name, &partition.key, &nulls),
            });
        }
    }
    out
}

/// `WIDE ROW · ks.t · partition k = v · token T · 9 rows`, or a count of
/// partitions for a view of several.
fn heading(
    source: &Source<'_>,
    plan: &Plan,
    partitions: &[(&PartitionPosition, &Partition)],
    entries: &[Entry<'_>],
) -> String {
    let rows = plural(entries.len(), "row", "rows");
    if let (
        Partitions::Keys {
            partitions: targets,
        },
        [(position, _)],
    ) = (&plan.partitions, partitions)
    {
        if let [target] = targets.as_slice() {
            let key = key_text(Some(source.table), &target.key);
            return format!(
                "WIDE ROW · {} · partition {key} · token {} · {rows}",
                source.name, position.token
            );
        }
    }
    format!(
        "WIDE ROW · {} · {}, {rows}, in token order",
        source.name,
        plural(partitions.len(), "partition", "partitions")
    )
}

/// What `▶` means here.
fn legend(marks: &Marks, verb: Verb) -> String {
    if !marks.known {
        return "(the rows this statement touched could not be worked out: none marked)".into();
    }
    match verb {
        Verb::Read => format!("{MARK} rows this query read; blank cells hold no value"),
        Verb::Written => {
            format!("{MARK} rows this statement wrote, as stored now; blank cells hold no value")
        }
        Verb::Deleted => {
            "the partition as stored after the delete: deleted rows no longer appear".into()
        }
    }
}

/// The table of rows, elisions included.
fn drawer(
    source: &Source<'_>,
    entries: &[Entry<'_>],
    with_token: bool,
    paint: Paint,
) -> Vec<String> {
    let columns = drawer_columns(source.table);
    let shown = visible(
        &entries
            .iter()
            .map(|e| (e.marked, e.group))
            .collect::<Vec<_>>(),
    );
    let mut header = vec![String::new()];
    if with_token {
        header.push("token".to_string());
    }
    header.extend(columns.iter().map(|c| c.name.clone()));
    let mut grid: Vec<Line> = Vec::new();
    let mut previous: Option<usize> = None;
    let mut hidden: Vec<&Entry<'_>> = Vec::new();
    for (entry, show) in entries.iter().zip(&shown) {
        if !show {
            hidden.push(entry);
            continue;
        }
        if !hidden.is_empty() {
            grid.push(Line::Elided(elision(&hidden)));
            hidden.clear();
            previous = None;
        }
        let first = previous != Some(entry.group);
        previous = Some(entry.group);
        grid.push(Line::Row(
            entry.marked,
            cells(source, entry, &columns, with_token, first),
        ));
    }
    if !hidden.is_empty() {
        grid.push(Line::Elided(elision(&hidden)));
    }
    layout(&header, &grid, paint)
}

/// The columns in the drawer's order: partition key, clustering, then
/// static and regular columns as the table declares them (the order a
/// user wrote them in, rather than `SELECT *`'s alphabetical one).
pub(super) fn drawer_columns(table: &Table) -> Vec<&Column> {
    let rest = |kind: ColumnKind| table.columns.values().filter(move |c| c.kind == kind);
    table
        .partition_key_columns()
        .chain(table.clustering_columns())
        .chain(rest(ColumnKind::Static))
        .chain(rest(ColumnKind::Regular))
        .collect()
}

/// A line of the drawer before layout.
enum Line {
    /// A row: marked or not, and its cells (marker column excluded).
    Row(bool, Vec<String>),
    /// An elision note.
    Elided(String),
}

/// Which entries to print, given each one's mark and partition: all when
/// few, else the marked ones with [`CONTEXT`] rows of the same partition
/// around each (or the first [`LEAD`] rows when nothing is marked), at most
/// [`MAX_ROWS`].
fn visible(rows: &[(bool, usize)]) -> Vec<bool> {
    visible_within(rows, MAX_ROWS)
}

/// [`visible`] with room for `max_rows` rows (a page has more than a
/// terminal screen).
pub(super) fn visible_within(rows: &[(bool, usize)], max_rows: usize) -> Vec<bool> {
    if rows.len() <= max_rows {
        return vec![true; rows.len()];
    }
    let mut keep = vec![false; rows.len()];
    for (i, (_, group)) in rows.iter().enumerate().filter(|(_, (m, _))| *m) {
        let end = (i + CONTEXT + 1).min(rows.len());
        for j in i.saturating_sub(CONTEXT)..end {
            keep[j] |= rows[j].1 == *group;
        }
    }
    if !keep.contains(&true) {
        keep[..LEAD].fill(true);
    }
    let mut budget = max_rows;
    for k in keep.iter_mut().filter(|k| **k) {
        if budget == 0 {
            *k = false;
        } else {
            budget -= 1;
        }
    }
    keep
}

/// `… 5,993 rows not shown`, with partitions and marks when it spans them.
fn elision(hidden: &[&Entry<'_>]) -> String {
    let mut partitions = 0;
    let mut last = None;
    for entry in hidden {
        if last != Some(entry.group) {
            partitions += 1;
            last = Some(entry.group);
        }
    }
    let mut text = format!("… {}", plural(hidden.len(), "row", "rows"));
    if partitions > 1 {
        text.push_str(&format!(
            " in {}",
            plural(partitions, "partition", "partitions")
        ));
    }
    text.push_str(" not shown");
    let marked = hidden.iter().filter(|e| e.marked).count();
    if marked > 0 {
        text.push_str(&format!(" ({} of them marked {MARK})", count(marked)));
    }
    text
}

/// One row's cells: the token and partition-wide values only on the first
/// printed row of its partition, the drawer's look.
fn cells(
    source: &Source<'_>,
    entry: &Entry<'_>,
    columns: &[&Column],
    with_token: bool,
    first: bool,
) -> Vec<String> {
    let mut out = Vec::with_capacity(columns.len() + 1);
    if with_token {
        out.push(if first {
            entry.token.to_string()
        } else {
            String::new()
        });
    }
    for column in columns {
        let partition_wide = matches!(
            column.kind,
            ColumnKind::PartitionKey(_) | ColumnKind::Static
        );
        let text = if partition_wide && !first {
            String::new()
        } else {
            value_of(source, entry, column).map_or_else(String::new, |v| clip(&v))
        };
        out.push(text);
    }
    out
}

/// The live value of `column` in the entry, as cqlsh prints it; `None` for
/// a cell that holds nothing (a sparse cell).
pub(super) fn value_of(source: &Source<'_>, entry: &Entry<'_>, column: &Column) -> Option<String> {
    let value = match column.kind {
        ColumnKind::PartitionKey(i) => entry.partition.key.get(i).cloned(),
        ColumnKind::Clustering(i, _) => entry.clustering.and_then(|k| k.values().get(i).cloned()),
        ColumnKind::Static => slot_value(source, Some(&entry.partition.static_row), column),
        ColumnKind::Regular => slot_value(source, entry.row, column),
    }?;
    (value != Value::Null).then(|| value.cqlsh_display(&column.data_type))
}

fn slot_value(source: &Source<'_>, row: Option<&StoredRow>, column: &Column) -> Option<Value> {
    let slot = row?.slot(source.data.slot(&column.name)?)?;
    match slot {
        SlotRef::Cell(cell) => cell.live_value(source.now_secs).cloned(),
        SlotRef::Collection(c) => collection(c.live(source.now_secs), &column.data_type),
    }
}

/// A non-frozen collection's live elements as one value (`None` if empty,
/// which Cassandra reads as null).
fn collection<'v>(
    live: impl Iterator<Item = (&'v Value, &'v Value)>,
    ty: &DataType,
) -> Option<Value> {
    let live: Vec<(&Value, &Value)> = live.collect();
    if live.is_empty() {
        return None;
    }
    Some(match ty {
        DataType::List { .. } => Value::List(live.iter().map(|(_, v)| (*v).clone()).collect()),
        DataType::Set { .. } => Value::Set(live.iter().map(|(k, _)| (*k).clone()).collect()),
        _ => Value::Map(
            live.iter()
                .map(|(k, v)| ((*k).clone(), (*v).clone()))
                .collect(),
        ),
    })
}

/// `text` cut to [`MAX_CELL`] columns, ending in `…` when cut; line breaks
/// shown as spaces so a row stays one line.
fn clip(text: &str) -> String {
    let flat: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if flat.width() <= MAX_CELL {
        return flat;
    }
    let mut out = String::new();
    for c in flat.chars() {
        if (out.as_str().width() + c.to_string().width()) >= MAX_CELL {
            break;
        }
        out.push(c);
    }
    out.push('…');
    out
}

/// The grid as cqlsh-like lines: ` ▶ | a | b`, a rule under the header,
/// elisions as notes.
fn layout(header: &[String], grid: &[Line], paint: Paint) -> Vec<String> {
    let mut widths: Vec<usize> = header.iter().map(|h| h.width()).collect();
    widths[0] = 1;
    for line in grid {
        if let Line::Row(_, cells) = line {
            for (i, cell) in cells.iter().enumerate() {
                widths[i + 1] = widths[i + 1].max(cell.width());
            }
        }
    }
    let mut out = vec![join(header, &widths)];
    let rule: Vec<String> = widths.iter().map(|w| "-".repeat(w + 2)).collect();
    out.push(rule.join("+").trim_end().to_string());
    for line in grid {
        out.push(match line {
            Line::Row(marked, cells) => row_line(*marked, cells, &widths, paint),
            Line::Elided(note) => paint.paint(Tone::Idle, &format!("   {note}")),
        });
    }
    out
}

fn row_line(marked: bool, cells: &[String], widths: &[usize], paint: Paint) -> String {
    let mut all = vec![if marked {
        MARK.to_string()
    } else {
        String::new()
    }];
    all.extend(cells.iter().cloned());
    let text = join(&all, widths);
    if marked {
        paint.paint(Tone::Marked, &text)
    } else {
        text
    }
}

/// Cells padded to their widths and joined with ` | `, trailing space cut.
fn join(cells: &[String], widths: &[usize]) -> String {
    let padded: Vec<String> = cells
        .iter()
        .zip(widths)
        .map(|(cell, w)| format!("{cell}{}", " ".repeat(w.saturating_sub(cell.width()))))
        .collect();
    format!(" {}", padded.join(" | ")).trim_end().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn few_rows_are_all_shown() {
        assert_eq!(
            visible(&[(false, 0), (true, 0), (false, 1)]),
            vec![true, true, true]
        );
    }

    #[test]
    fn marked_rows_keep_their_context_and_the_rest_is_elided() {
        let mut rows = vec![(false, 0); 100];
        rows[50].0 = true;
        let shown = visible(&rows);
        let kept: Vec<usize> = (0..100).filter(|&i| shown[i]).collect();
        assert_eq!(kept, vec![48, 49, 50, 51, 52]);
    }

    #[test]
    fn context_stays_inside_the_marked_rows_partition() {
        let mut rows: Vec<(bool, usize)> = (0..40).map(|i| (false, i / 20)).collect();
        rows[20].0 = true;
        let shown = visible(&rows);
        let kept: Vec<usize> = (0..40).filter(|&i| shown[i]).collect();
        assert_eq!(kept, vec![20, 21, 22]);
    }

    #[test]
    fn unmarked_big_partitions_show_their_first_rows() {
        let shown = visible(&[(false, 0); 40]);
        assert_eq!(shown.iter().filter(|s| **s).count(), LEAD);
        assert!(shown[..LEAD].iter().all(|s| *s));
    }

    #[test]
    fn long_values_are_clipped() {
        let long = "x".repeat(40);
        let clipped = clip(&long);
        assert_eq!(clipped.width(), MAX_CELL);
        assert!(clipped.ends_with('…'));
        assert_eq!(clip("a\nb"), "a b");
    }
}
