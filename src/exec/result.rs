//! What executing a statement returns: a [`ResultSet`] with Cassandra's
//! result shape, plus what widerow adds (the query class and [`Metrics`]).

use std::ops::Deref;
use std::sync::Arc;

use serde::Serialize;

use super::rows::Rows;
use crate::planner::{Plan, QueryClass};
use crate::types::{DataType, Value};

/// Whether a statement returned rows or just succeeded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ResultKind {
    /// A result with columns and rows (a SELECT, or an LWT's `[applied]` row).
    Rows,
    /// No result table: a write, a schema change, `USE`.
    Ok,
}

/// One column of a result: its header as cqlsh shows it and its type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ColumnSpec {
    /// The header: the column name, the alias, or the selector as Cassandra
    /// names it (`count`, `system.max(v)`, `writetime(v)`, `[applied]`).
    pub name: String,
    /// Its type (a selector's return type).
    pub data_type: DataType,
}

/// A result's columns. Shared, so that every result of a prepared
/// statement holds its header without copying it; read it as a
/// `[ColumnSpec]`. No columns (a write's result) allocate nothing.
#[derive(Debug, Clone, Default)]
pub struct Columns(Option<Arc<[ColumnSpec]>>);

impl Deref for Columns {
    type Target = [ColumnSpec];

    fn deref(&self) -> &[ColumnSpec] {
        self.0.as_deref().unwrap_or_default()
    }
}

impl From<Vec<ColumnSpec>> for Columns {
    fn from(columns: Vec<ColumnSpec>) -> Columns {
        Columns((!columns.is_empty()).then(|| columns.into()))
    }
}

impl<'a> IntoIterator for &'a Columns {
    type Item = &'a ColumnSpec;
    type IntoIter = std::slice::Iter<'a, ColumnSpec>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl PartialEq for Columns {
    fn eq(&self, other: &Columns) -> bool {
        **self == **other
    }
}

impl Eq for Columns {}

impl PartialEq<Vec<ColumnSpec>> for Columns {
    fn eq(&self, other: &Vec<ColumnSpec>) -> bool {
        **self == **other
    }
}

/// The cost of an executed statement, as the simulated cluster saw it. The
/// nodes the coordinator contacted are the plan's
/// ([`ResultSet::nodes_contacted`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Metrics {
    /// Partitions read or written.
    pub partitions_touched: u64,
    /// Live rows looked at (before filtering, LIMIT and aggregation).
    pub rows_scanned: u64,
    /// Rows in the result.
    pub rows_returned: u64,
}

/// The result of one statement.
#[derive(Debug, Clone, PartialEq)]
pub struct ResultSet {
    /// Rows or plain success.
    pub kind: ResultKind,
    /// The class of a planned statement (reads and writes); `None` for
    /// schema statements.
    pub class: Option<QueryClass>,
    /// The columns, in result order (empty for [`ResultKind::Ok`]).
    /// Shared, so a prepared statement's header is not copied into every
    /// result.
    pub columns: Columns,
    /// The rows, each with one value per column (`Value::Null` for null).
    pub rows: Rows,
    /// Cassandra's client warnings, as a driver would receive them (an
    /// aggregation without a partition key, a large unlogged batch).
    pub warnings: Vec<String>,
    /// widerow's own observations, which Cassandra would not send: large or
    /// hot partitions, data centres added to the simulated ring. Kept apart
    /// so `warnings` stays what a real cluster says.
    pub notes: Vec<String>,
    /// What the statement cost.
    pub metrics: Metrics,
    /// The plan the statement ran with (`None` for schema statements).
    /// Shared, so a prepared statement's cached plan is not copied into
    /// every result.
    pub plan: Option<Arc<Plan>>,
    /// The schema-change event a successful schema statement makes
    /// Cassandra push (`None` for data statements and no-ops): the native
    /// protocol server answers with it and tells registered clients.
    pub schema_change: Option<Box<crate::schema::SchemaEvent>>,
}

impl ResultSet {
    /// A success without rows.
    pub fn ok() -> ResultSet {
        ResultSet {
            kind: ResultKind::Ok,
            class: None,
            columns: Columns::default(),
            rows: Rows::default(),
            warnings: Vec::new(),
            notes: Vec::new(),
            metrics: Metrics::default(),
            plan: None,
            schema_change: None,
        }
    }

    /// A result table with `columns` and `rows`.
    pub fn rows(columns: impl Into<Columns>, rows: impl Into<Rows>) -> ResultSet {
        ResultSet {
            kind: ResultKind::Rows,
            columns: columns.into(),
            rows: rows.into(),
            ..ResultSet::ok()
        }
    }

    /// The nodes the coordinator contacted, from the plan's routing (none
    /// for a statement without a plan). Read from the plan rather than
    /// kept beside it: a copy in every result cost two atomic operations
    /// per statement, a few percent of a prepared insert.
    pub fn nodes_contacted(&self) -> &[String] {
        self.plan.as_deref().map_or(&[], |plan| &plan.nodes)
    }

    /// The column names, in order.
    pub fn column_names(&self) -> Vec<&str> {
        self.columns.iter().map(|c| c.name.as_str()).collect()
    }

    /// The value of column `name` in row `row`, if both exist.
    pub fn get(&self, row: usize, name: &str) -> Option<&Value> {
        let column = self.columns.iter().position(|c| c.name == name)?;
        self.rows.get(row)?.get(column)
    }
}
