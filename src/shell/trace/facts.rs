//! The TRACING view as data rather than text: the same partitions, marks,
//! node roles and hot partitions the terminal view draws, for a front end
//! that draws them itself (the web page). Computed by the functions the
//! text view uses, so the two cannot disagree.

use serde::Serialize;

use crate::exec::ResultSet;
use crate::planner::{Plan, StatementKind, TokenValue};
use crate::schema::ColumnKind;
use crate::session::Session;
use crate::storage::TableData;

use super::wide_row::{self, Source};

/// Most rows listed per table; the rest are counted, as in the terminal.
const MAX_ROWS: usize = 60;

/// Most partitions listed per table.
const MAX_PARTITIONS: usize = 40;

/// What a statement touched and where, as data.
#[derive(Debug, Clone, Serialize)]
pub struct TraceFacts {
    /// `read`, `written` or `deleted`: what a marked row means.
    pub verb: &'static str,
    /// Whether the rows touched could be worked out (`false`: none marked,
    /// and that is not a finding about the data).
    pub marks_known: bool,
    /// Every node of the ring, in ring order, with its part in the
    /// statement.
    pub nodes: Vec<NodeFacts>,
    /// The wide row of each table the statement names.
    pub tables: Vec<WideRowFacts>,
}

/// One node and its part in a statement.
#[derive(Debug, Clone, Serialize)]
pub struct NodeFacts {
    /// `node1`, …
    pub id: String,
    /// Its address.
    pub address: String,
    /// Its data centre.
    pub datacenter: String,
    /// Its tokens, as strings (they exceed what a double holds).
    pub tokens: Vec<String>,
    /// Whether it is up.
    pub up: bool,
    /// It coordinates the statement.
    pub coordinator: bool,
    /// It holds a replica of an addressed partition.
    pub replica: bool,
    /// The consistency level contacts it.
    pub contacted: bool,
    /// A scatter-gather asks it.
    pub asked: bool,
    /// It holds a hot or oversized partition the statement touched.
    pub hot: bool,
}

/// One table's partitions as the statement left them.
#[derive(Debug, Clone, Serialize)]
pub struct WideRowFacts {
    /// `ks.t`.
    pub table: String,
    /// The columns in the drawer's order: partition key, clustering,
    /// static, regular.
    pub columns: Vec<ColumnFacts>,
    /// The partitions touched, in token order (at most [`MAX_PARTITIONS`]).
    pub partitions: Vec<PartitionFacts>,
    /// Partitions touched but not listed.
    pub hidden_partitions: usize,
}

/// A column of the drawer.
#[derive(Debug, Clone, Serialize)]
pub struct ColumnFacts {
    /// Its name.
    pub name: String,
    /// `partition key`, `clustering`, `static` or `regular`.
    pub kind: &'static str,
    /// Its CQL type.
    pub data_type: String,
}

/// One partition touched.
#[derive(Debug, Clone, Serialize)]
pub struct PartitionFacts {
    /// The key values as cqlsh shows them.
    pub key: Vec<String>,
    /// Its token, as a string.
    pub token: String,
    /// The executor named it hot or oversized.
    pub hot: bool,
    /// Its live rows listed (marked ones first to be kept when it is big).
    pub rows: Vec<RowFacts>,
    /// Live rows not listed.
    pub hidden_rows: usize,
}

/// One stored row (or the static row of a partition without rows).
#[derive(Debug, Clone, Serialize)]
pub struct RowFacts {
    /// One entry per column, `None` where the cell holds no value.
    pub cells: Vec<Option<String>>,
    /// The statement read or wrote it.
    pub marked: bool,
}

/// The facts of `result`, the outcome of `cql` just executed in `session`.
/// `None` for statements without a plan (schema statements, USE).
pub fn facts(session: &Session, cql: &str, result: &ResultSet) -> Option<TraceFacts> {
    let plan = result.plan.as_deref()?;
    let marks = super::marks::marks(session, cql);
    let roles = super::roles(session, plan, result);
    let ring = &session.context().ring;
    let nodes = ring
        .nodes()
        .iter()
        .zip(roles)
        .map(|(node, role)| NodeFacts {
            id: node.id.clone(),
            address: node.address.to_string(),
            datacenter: node.datacenter.clone(),
            tokens: node.tokens.iter().map(i64::to_string).collect(),
            up: node.up,
            coordinator: role.coordinator,
            replica: role.replica,
            contacted: role.contacted,
            asked: role.asked,
            hot: role.hot,
        })
        .collect();
    let tables = super::table_names(plan)
        .filter_map(|name| table_facts(session, plan, result, name, &marks))
        .collect();
    let verb = match plan.statement {
        StatementKind::Select => "read",
        StatementKind::Delete => "deleted",
        _ => "written",
    };
    Some(TraceFacts {
        verb,
        marks_known: marks.known,
        nodes,
        tables,
    })
}

fn table_facts(
    session: &Session,
    plan: &Plan,
    result: &ResultSet,
    name: &str,
    marks: &super::marks::Marks,
) -> Option<WideRowFacts> {
    let table = super::table_of(session, name)?;
    let empty = TableData::default();
    let source = Source::of(session, name, table, &empty);
    let columns = wide_row::drawer_columns(table);
    let touched = wide_row::touched(&source, plan);
    let listed = &touched[..touched.len().min(MAX_PARTITIONS)];
    let entries = wide_row::entries(&source, listed, marks);
    let flags: Vec<(bool, usize)> = entries.iter().map(|e| (e.marked, e.group)).collect();
    let shown = wide_row::visible_within(&flags, MAX_ROWS);
    let mut partitions: Vec<PartitionFacts> = listed
        .iter()
        .map(|(position, partition)| PartitionFacts {
            key: partition
                .key
                .iter()
                .zip(table.partition_key_columns())
                .map(|(v, c)| v.cqlsh_display(&c.data_type))
                .collect(),
            token: position.token.to_string(),
            hot: super::is_hot(session, plan, result, TokenValue::Known(position.token)),
            rows: Vec::new(),
            hidden_rows: 0,
        })
        .collect();
    for (entry, show) in entries.iter().zip(shown) {
        let Some(facts) = partitions.get_mut(entry.group) else {
            continue;
        };
        if !show {
            facts.hidden_rows += 1;
            continue;
        }
        let cells = columns
            .iter()
            .map(|c| wide_row::value_of(&source, entry, c))
            .collect();
        facts.rows.push(RowFacts {
            cells,
            marked: entry.marked,
        });
    }
    Some(WideRowFacts {
        table: name.to_string(),
        columns: columns
            .iter()
            .map(|c| ColumnFacts {
                name: c.name.clone(),
                kind: match c.kind {
                    ColumnKind::PartitionKey(_) => "partition key",
                    ColumnKind::Clustering(..) => "clustering",
                    ColumnKind::Static => "static",
                    ColumnKind::Regular => "regular",
                },
                data_type: c.data_type.to_string(),
            })
            .collect(),
        partitions,
        hidden_partitions: touched.len().saturating_sub(MAX_PARTITIONS),
    })
}

/// The rows of table `name` (`ks.t`) that `cql`, just executed in
/// `session`, read or wrote, by partition key and clustering values — the
/// rows the wide row marks — or `None` when they cannot be worked out.
pub fn touched_rows(
    session: &Session,
    cql: &str,
    name: &str,
) -> Option<std::collections::BTreeSet<(Vec<crate::types::Value>, Vec<crate::types::Value>)>> {
    let marks = super::marks::marks(session, cql);
    if !marks.known {
        return None;
    }
    Some(
        marks
            .rows
            .into_iter()
            .filter(|(table, _, _)| table == name)
            .map(|(_, partition, clustering)| (partition, clustering))
            .collect(),
    )
}
