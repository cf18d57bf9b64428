//! One table's rows as the INSERT and UPDATE statements that rebuild them
//! cell for cell: every live cell keeps its write time (`USING TIMESTAMP`)
//! and its remaining TTL, and a row exists afterwards exactly when it did
//! before — only a row with a live INSERT marker is written with INSERT
//! (carrying the cells written with it); cells written at other times, and
//! rows that only UPDATEs made, are written with UPDATE, which makes no
//! marker. Non-frozen collections are rebuilt element by element with
//! `c = c + …`, which writes no collection tombstone, so the elements'
//! own write times and TTLs survive and list order is kept.

use std::collections::BTreeMap;

use super::literal::literal;
use crate::schema::{Column, Table};
use crate::shell::describe::cql::{name, qualified};
use std::borrow::Cow;

use crate::storage::{Collection, Expiry, SlotRef, StoredRow, TableData};
use crate::types::{DataType, Value};

/// A cell's write time and remaining TTL in seconds: what a statement
/// writing it must say in its USING clause.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Stamp {
    timestamp: i64,
    ttl: Option<i64>,
}

/// The statements for one table's data, and how many CQL rows they write.
#[derive(Debug, Default)]
pub struct TableRows {
    /// INSERT and UPDATE statements, each ending in `;`.
    pub statements: Vec<String>,
    /// Rows written: clustering rows, or a partition's static row when it
    /// has no other.
    pub rows: usize,
}

/// The statements that rebuild `data`, the rows of `table`, as of
/// `now_secs`: expired cells and deletions are left out.
pub fn table_rows(table: &Table, data: &TableData, now_secs: i64) -> TableRows {
    let writer = Writer {
        table,
        data,
        now_secs,
        target: qualified(&table.keyspace, &table.name),
    };
    let statics: Vec<&Column> = table.columns.values().filter(|c| c.is_static()).collect();
    let regular: Vec<&Column> = table
        .columns
        .values()
        .filter(|c| !c.is_primary_key() && !c.is_static())
        .collect();
    let pk: Vec<&Column> = table.partition_key_columns().collect();
    let mut out = TableRows::default();
    for partition in data.partitions.values() {
        let static_key: Vec<(&Column, &Value)> =
            pk.iter().copied().zip(partition.key.iter()).collect();
        let has_static = writer.row(
            &static_key,
            &partition.static_row,
            &statics,
            &mut out.statements,
        );
        let mut rows = 0;
        for (clustering, row) in &partition.rows {
            let values = clustering.values();
            let columns = table.clustering_columns().zip(values.iter());
            let key: Vec<(&Column, &Value)> = static_key.iter().copied().chain(columns).collect();
            if writer.row(&key, row, &regular, &mut out.statements) {
                rows += 1;
            }
        }
        out.rows += if rows == 0 && has_static { 1 } else { rows };
    }
    out
}

struct Writer<'a> {
    table: &'a Table,
    data: &'a TableData,
    now_secs: i64,
    target: String,
}

/// What one row holds that is still live.
#[derive(Default)]
struct Live<'a> {
    simple: Vec<(&'a Column, Cow<'a, Value>, Stamp)>,
    collections: Vec<(&'a Column, &'a Collection)>,
}

impl<'a> Writer<'a> {
    /// Appends the statements for one row (key columns with their values,
    /// then `columns`' cells); false when nothing in it is live.
    fn row(
        &self,
        key: &[(&Column, &Value)],
        row: &'a StoredRow,
        columns: &[&'a Column],
        out: &mut Vec<String>,
    ) -> bool {
        let marker = self.marker(key, row);
        let live = self.live(row, columns);
        if marker.is_none() && live.simple.is_empty() && live.collections.is_empty() {
            return false;
        }
        if self.table.is_counter_table() {
            out.extend(self.counters(key, &live));
        } else {
            out.extend(self.writes(key, marker, &live));
        }
        true
    }

    /// The stamp of the row's live INSERT marker. A static row has none of
    /// its own (an INSERT of only static columns writes none), so none is
    /// written for it.
    fn marker(&self, key: &[(&Column, &Value)], row: &StoredRow) -> Option<Stamp> {
        let full_key = key.len() == self.table.partition_key.len() + self.table.clustering.len();
        row.liveness()
            .filter(|l| full_key && l.is_live(self.now_secs))
            .map(|l| self.stamp(l.timestamp, l.expiry.map(|e| e.expires_at())))
    }

    /// The INSERT (when the row has a marker, with the cells written with
    /// it), one UPDATE per other write time and TTL, then the lists.
    fn writes(
        &self,
        key: &[(&Column, &Value)],
        marker: Option<Stamp>,
        live: &Live<'_>,
    ) -> Vec<String> {
        let mut groups: BTreeMap<Stamp, Vec<String>> = BTreeMap::new();
        let mut inserted: Vec<(&Column, &Value)> = key.to_vec();
        for (column, value, stamp) in &live.simple {
            let (column, stamp) = (*column, *stamp);
            if Some(stamp) == marker {
                inserted.push((column, value));
            } else {
                let assignment = format!(
                    "{} = {}",
                    name(&column.name),
                    literal(value, &column.data_type)
                );
                groups.entry(stamp).or_default().push(assignment);
            }
        }
        let mut lists = Vec::new();
        for &(column, collection) in &live.collections {
            match &column.data_type {
                DataType::List { .. } => lists.extend(self.list(key, column, collection)),
                DataType::Udt { fields, .. } => {
                    self.set_fields(column, fields, collection, &mut groups)
                }
                _ => self.add_elements(column, collection, &mut groups),
            }
        }
        let mut out: Vec<String> = marker
            .map(|stamp| self.insert(&inserted, stamp))
            .into_iter()
            .collect();
        let condition = where_clause(key);
        for (stamp, assignments) in groups {
            out.push(self.update(stamp, &assignments.join(", "), &condition));
        }
        out.extend(lists);
        out
    }

    fn stamp(&self, timestamp: i64, expires_at: Option<i64>) -> Stamp {
        Stamp {
            timestamp,
            ttl: expires_at.map(|at| at - self.now_secs),
        }
    }

    fn cell_stamp(&self, timestamp: i64, expiry: Option<Expiry>) -> Stamp {
        self.stamp(timestamp, expiry.map(|e| e.expires_at()))
    }

    /// The live simple cells and non-empty collections of `columns`.
    fn live(&self, row: &'a StoredRow, columns: &[&'a Column]) -> Live<'a> {
        let mut live = Live::default();
        for &column in columns {
            let Some(slot) = self.data.slot(&column.name).and_then(|s| row.slot(s)) else {
                continue;
            };
            match slot {
                SlotRef::Cell(cell) => {
                    let stamp = self.cell_stamp(cell.timestamp, cell.expiry);
                    if let Some(value) = cell.into_live_value(self.now_secs) {
                        live.simple.push((column, value, stamp));
                    }
                }
                SlotRef::Collection(c) => {
                    if c.live(self.now_secs).next().is_some() {
                        live.collections.push((column, c));
                    }
                }
            }
        }
        live
    }

    /// `USING TIMESTAMP t [AND TTL n]`; `AND TTL 0` keeps a table's default
    /// TTL off a cell that had none.
    fn using(&self, stamp: Stamp) -> String {
        let ttl = match stamp.ttl {
            Some(n) => format!(" AND TTL {n}"),
            None if self.table.default_ttl() > 0 => " AND TTL 0".to_string(),
            None => String::new(),
        };
        format!("USING TIMESTAMP {}{ttl}", stamp.timestamp)
    }

    fn insert(&self, cells: &[(&Column, &Value)], stamp: Stamp) -> String {
        let names: Vec<String> = cells.iter().map(|(c, _)| name(&c.name)).collect();
        let values: Vec<String> = cells
            .iter()
            .map(|(c, v)| literal(v, &c.data_type))
            .collect();
        format!(
            "INSERT INTO {} ({}) VALUES ({}) {};",
            self.target,
            names.join(", "),
            values.join(", "),
            self.using(stamp)
        )
    }

    fn update(&self, stamp: Stamp, assignments: &str, condition: &str) -> String {
        format!(
            "UPDATE {} {} SET {assignments} WHERE {condition};",
            self.target,
            self.using(stamp)
        )
    }

    /// A counter row: one UPDATE adding every counter's value (counters
    /// take no timestamp or TTL).
    fn counters(&self, key: &[(&Column, &Value)], live: &Live<'_>) -> Option<String> {
        let assignments: Vec<String> = live
            .simple
            .iter()
            .map(|(c, v, _)| {
                let n = name(&c.name);
                format!("{n} = {n} + {}", literal(v, &c.data_type))
            })
            .collect();
        (!assignments.is_empty()).then(|| {
            format!(
                "UPDATE {} SET {} WHERE {};",
                self.target,
                assignments.join(", "),
                where_clause(key)
            )
        })
    }

    /// A non-frozen UDT's live fields as `u.f = …`, each added to the
    /// UPDATE of its own write time and TTL (each field is its own cell).
    fn set_fields(
        &self,
        column: &Column,
        fields: &[(String, DataType)],
        collection: &Collection,
        groups: &mut BTreeMap<Stamp, Vec<String>>,
    ) {
        for element in &collection.elements {
            let Some(value) = element.cell.live_value(self.now_secs) else {
                continue;
            };
            let Value::Smallint(i) = element.key else {
                continue;
            };
            let Some((field, ty)) = usize::try_from(i).ok().and_then(|i| fields.get(i)) else {
                continue;
            };
            groups
                .entry(self.cell_stamp(element.cell.timestamp, element.cell.expiry))
                .or_default()
                .push(format!(
                    "{}.{} = {}",
                    name(&column.name),
                    name(field),
                    literal(value, ty)
                ));
        }
    }

    /// A set's or map's live elements as `c = c + {…}`, one per write time
    /// and TTL, added to the UPDATE of that stamp.
    fn add_elements(
        &self,
        column: &Column,
        collection: &Collection,
        groups: &mut BTreeMap<Stamp, Vec<String>>,
    ) {
        let mut by_stamp: BTreeMap<Stamp, Vec<String>> = BTreeMap::new();
        for element in &collection.elements {
            let Some(value) = element.cell.live_value(self.now_secs) else {
                continue;
            };
            let text = match &column.data_type {
                DataType::Map { key, value: v, .. } => {
                    format!("{}: {}", literal(&element.key, key), literal(value, v))
                }
                DataType::Set { element: e, .. } => literal(&element.key, e),
                other => literal(value, other),
            };
            by_stamp
                .entry(self.cell_stamp(element.cell.timestamp, element.cell.expiry))
                .or_default()
                .push(text);
        }
        let n = name(&column.name);
        for (stamp, items) in by_stamp {
            groups
                .entry(stamp)
                .or_default()
                .push(format!("{n} = {n} + {{{}}}", items.join(", ")));
        }
    }
}

impl Writer<'_> {
    /// A list's live elements, in order, as appends (`l = l + […]`) and
    /// prepends (`l = […] + l`) at the write times their positions were
    /// made with, so the positions sort as before; an element later
    /// replaced by index (`l[i] = v`) is then set again at its own time.
    fn list(&self, key: &[(&Column, &Value)], column: &Column, list: &Collection) -> Vec<String> {
        let element_type = match &column.data_type {
            DataType::List { element, .. } => element.as_ref(),
            other => other,
        };
        let condition = where_clause(key);
        let n = name(&column.name);
        let mut runs: Vec<(bool, Stamp, Vec<String>)> = Vec::new();
        let mut fixes = Vec::new();
        let live = list
            .elements
            .iter()
            .filter_map(|e| e.cell.live_value(self.now_secs).map(|v| (e, v)));
        for (index, (element, value)) in live.enumerate() {
            let text = literal(value, element_type);
            let stamp = self.cell_stamp(element.cell.timestamp, element.cell.expiry);
            let time = position_time(&element.key).unwrap_or(stamp.timestamp);
            let prepend = time < 0;
            let made = Stamp {
                timestamp: time.saturating_abs(),
                ..stamp
            };
            if made != stamp {
                fixes.push(self.update(stamp, &format!("{n}[{index}] = {text}"), &condition));
            }
            match runs.last_mut() {
                Some((p, s, items)) if *p == prepend && *s == made => items.push(text),
                _ => runs.push((prepend, made, vec![text])),
            }
        }
        let mut out: Vec<String> = runs
            .into_iter()
            .map(|(prepend, stamp, items)| {
                let items = items.join(", ");
                let assignment = if prepend {
                    format!("{n} = [{items}] + {n}")
                } else {
                    format!("{n} = {n} + [{items}]")
                };
                self.update(stamp, &assignment, &condition)
            })
            .collect();
        out.extend(fixes);
        out
    }
}

/// The time part of a list position key: the write time of the append that
/// made it, negated for a prepend.
fn position_time(key: &Value) -> Option<i64> {
    match key {
        Value::Tuple(parts) => match parts.first() {
            Some(Some(Value::Bigint(t))) => Some(*t),
            _ => None,
        },
        _ => None,
    }
}

/// `a = 1 AND b = 'x'`.
fn where_clause(key: &[(&Column, &Value)]) -> String {
    key.iter()
        .map(|(c, v)| format!("{} = {}", name(&c.name), literal(v, &c.data_type)))
        .collect::<Vec<_>>()
        .join(" AND ")
}
