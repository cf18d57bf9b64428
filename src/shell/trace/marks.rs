//! Which stored rows a statement read or wrote, for the `▶` marks of the
//! wide-row view.
//!
//! The executor does not record the rows it visits, and re-deriving them
//! from the plan's CQL text would be a second, divergent executor. So the
//! answer comes from the executor itself: the statement is rewritten into a
//! SELECT of the primary key columns with the same table and WHERE clause,
//! and run on a throw-away clone of the session (cloning shares the data, and
//! a SELECT changes nothing). What the clone returns are the rows marked:
//!
//! - a SELECT keeps its WHERE, ORDER BY, LIMIT, PER PARTITION LIMIT and
//!   ALLOW FILTERING, so the marks are the rows it returned. An aggregate or
//!   GROUP BY returns fewer rows than it reads, so its limits are dropped and
//!   every row that fed it is marked. DISTINCT reads partition heads only,
//!   so its marks are partitions.
//! - an UPDATE or DELETE keeps its WHERE; an INSERT becomes `key = value`
//!   for its key columns. Run after the write, this marks the rows written
//!   (a deleted row is gone, so nothing is marked for it).
//! - a BATCH marks the union of its statements' rows.

use std::collections::BTreeSet;

use crate::schema::Table;
use crate::session::Session;
use crate::syntax::ast::{
    BatchStatement, Ident, InsertSource, Operator, Relation, RelationKind, Select, SelectClause,
    SelectItem, Selector, SelectorKind, Statement,
};
use crate::syntax::span::Span;
use crate::types::Value;

/// The rows to mark, by key values.
#[derive(Debug, Clone, Default)]
pub(crate) struct Marks {
    /// The table (`ks.t`), partition key values and clustering values of
    /// each row (a batch may write several tables).
    pub(crate) rows: BTreeSet<(String, Vec<Value>, Vec<Value>)>,
    /// Partitions whose head alone was read (SELECT DISTINCT), with their
    /// table.
    pub(crate) heads: BTreeSet<(String, Vec<Value>)>,
    /// Whether the rewritten SELECT ran: without it nothing can be marked,
    /// and the view says so rather than showing no marks.
    pub(crate) known: bool,
}

impl Marks {
    /// Whether the row of `table` with these keys is marked.
    pub(crate) fn row(&self, table: &str, partition: &[Value], clustering: &[Value]) -> bool {
        self.rows
            .contains(&(table.to_string(), partition.to_vec(), clustering.to_vec()))
    }

    /// Whether the partition's head (first row) is marked by DISTINCT.
    pub(crate) fn head(&self, table: &str, partition: &[Value]) -> bool {
        self.heads
            .contains(&(table.to_string(), partition.to_vec()))
    }
}

/// The rows `cql` (already executed in `session`) read or wrote.
pub(crate) fn marks(session: &Session, cql: &str) -> Marks {
    let Ok(statement) = crate::parse_statement(cql) else {
        return Marks::default();
    };
    let mut marks = Marks {
        known: true,
        ..Marks::default()
    };
    for select in rewrite(session, &statement) {
        match select {
            Some(select) => collect(session, &select, &mut marks),
            None => marks.known = false,
        }
    }
    marks
}

/// The key-selecting SELECTs standing for a statement (`None` where a
/// statement has no such SELECT, e.g. `INSERT … JSON`).
fn rewrite(session: &Session, statement: &Statement) -> Vec<Option<Select>> {
    match statement {
        Statement::Select(select) => vec![keys_of_select(session, select)],
        Statement::Insert(_) | Statement::Update(_) | Statement::Delete(_) => {
            vec![batch_part(session, statement)]
        }
        Statement::Batch(batch) => batch
            .statements
            .iter()
            .map(|s| batch_part(session, &batch_statement(s)))
            .collect(),
        _ => Vec::new(),
    }
}

fn batch_statement(statement: &BatchStatement) -> Statement {
    match statement {
        BatchStatement::Insert(s) => Statement::Insert(s.clone()),
        BatchStatement::Update(s) => Statement::Update(s.clone()),
        BatchStatement::Delete(s) => Statement::Delete(s.clone()),
    }
}

/// A SELECT of the primary key with the query's own restrictions and limits.
fn keys_of_select(session: &Session, select: &Select) -> Option<Select> {
    let table = resolve(session, &select.from)?;
    let aggregated = !select.group_by.is_empty() || has_aggregate(&select.selection);
    let columns = if select.distinct {
        table.partition_key.clone()
    } else {
        primary_key(table)
    };
    let mut keys = select.clone();
    keys.json = false;
    keys.selection = key_selection(&columns);
    keys.group_by.clear();
    if aggregated {
        keys.limit = None;
        keys.per_partition_limit = None;
    }
    Some(keys)
}

/// A SELECT of the primary key over the rows a write addresses.
fn batch_part(session: &Session, statement: &Statement) -> Option<Select> {
    let (from, where_clause) = match statement {
        Statement::Insert(insert) => {
            let table = resolve(session, &insert.table)?;
            (
                insert.table.clone(),
                insert_relations(table, &insert.source)?,
            )
        }
        Statement::Update(update) => (update.table.clone(), update.where_clause.clone()),
        Statement::Delete(delete) => (delete.table.clone(), delete.where_clause.clone()),
        _ => return None,
    };
    let table = resolve(session, &from)?;
    Some(Select {
        json: false,
        distinct: false,
        selection: key_selection(&primary_key(table)),
        from,
        where_clause,
        group_by: Vec::new(),
        order_by: Vec::new(),
        per_partition_limit: None,
        limit: None,
        allow_filtering: true,
        span: Span::default(),
    })
}

/// `k = v` for each primary key column an INSERT writes.
fn insert_relations(table: &Table, source: &InsertSource) -> Option<Vec<Relation>> {
    let InsertSource::Values { columns, values } = source else {
        return None;
    };
    let relations = columns
        .iter()
        .zip(values)
        .filter(|(c, _)| table.column(&c.name).is_some_and(|c| c.is_primary_key()))
        .map(|(column, value)| Relation {
            kind: RelationKind::Compare {
                column: column.clone(),
                op: Operator::Eq,
                value: value.clone(),
            },
            span: Span::default(),
        })
        .collect();
    Some(relations)
}

fn resolve<'a>(
    session: &'a Session,
    name: &crate::syntax::ast::QualifiedName,
) -> Option<&'a Table> {
    session
        .context()
        .catalog
        .resolve_table(session.keyspace(), name)
        .ok()
}

fn primary_key(table: &Table) -> Vec<String> {
    table
        .partition_key
        .iter()
        .chain(&table.clustering)
        .cloned()
        .collect()
}

fn key_selection(columns: &[String]) -> SelectClause {
    SelectClause::Items(
        columns
            .iter()
            .map(|name| SelectItem {
                selector: Selector {
                    kind: SelectorKind::Column(Ident::new(name.clone())),
                    span: Span::default(),
                },
                alias: None,
            })
            .collect(),
    )
}

/// Whether a selection aggregates (reads more rows than it returns).
fn has_aggregate(selection: &SelectClause) -> bool {
    let SelectClause::Items(items) = selection else {
        return false;
    };
    items.iter().any(|item| is_aggregate(&item.selector))
}

fn is_aggregate(selector: &Selector) -> bool {
    match &selector.kind {
        SelectorKind::CountStar => true,
        SelectorKind::Function { name, args } => {
            let name = name.name.name.to_ascii_lowercase();
            matches!(name.as_str(), "count" | "min" | "max" | "sum" | "avg")
                || args.iter().any(is_aggregate)
        }
        SelectorKind::Cast { selector, .. } => is_aggregate(selector),
        _ => false,
    }
}

/// Runs `select` on a clone of the session and adds its rows to `marks`.
fn collect(session: &Session, select: &Select, marks: &mut Marks) {
    let Some(table) = resolve(session, &select.from) else {
        marks.known = false;
        return;
    };
    let partition_len = table.partition_key.len();
    let name = table.qualified_name();
    let statement = Statement::Select(select.clone());
    let Ok(result) = session.clone().execute_statement(&statement) else {
        marks.known = false;
        return;
    };
    for row in result.rows {
        let (partition, clustering) = row.split_at(partition_len.min(row.len()));
        if select.distinct {
            marks.heads.insert((name.clone(), partition.to_vec()));
        } else {
            marks
                .rows
                .insert((name.clone(), partition.to_vec(), clustering.to_vec()));
        }
    }
}
