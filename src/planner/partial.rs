//! What the planner had established when it stopped: the partial plan of
//! a refused or Unavailable statement, for `EXPLAIN` to show beside the
//! error (which table, which restrictions it understood, which partitions
//! with their tokens and replicas when the key fixes them).
//!
//! It is worked out after the refusal, from the statement and the context
//! alone, so planning itself stays as it is: pure, and as cheap on the
//! error path as on any other. The partitions come from planning the
//! statement once more with the refusal's causes lifted (ALLOW FILTERING
//! given, every node up): where that plan names partitions, they are the
//! ones the statement addresses, and the replicas down in the real ring
//! are marked.

use std::fmt;

use serde::Serialize;

use crate::error::{Error, ErrorKind};
use crate::schema::Table;
use crate::syntax::ast::{BatchStatement, Relation, RelationKind, Statement};

use super::plan::{PartitionTarget, Partitions, StatementKind};
use super::{plan_statement, PlanContext};

/// A refusal, with the plan as far as it got.
#[derive(Debug, Clone)]
pub struct PlanError {
    /// Cassandra's error.
    pub error: Error,
    /// The partial plan; `None` for a statement that has no plan at all
    /// (a schema statement).
    pub partial: Option<Box<PartialPlan>>,
}

/// The plan of a statement the planner stopped on.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PartialPlan {
    /// What kind of statement.
    pub statement: StatementKind,
    /// The table, `ks.table`, when it was found.
    pub table: Option<String>,
    /// The WHERE relations on columns the table has, with the part of the
    /// primary key each restricts.
    pub restrictions: Vec<Understood>,
    /// The partitions addressed, when the restrictions name them (or a
    /// token range, or the whole ring), with their tokens and replicas;
    /// `contacted` is empty and `required` 0: nothing is contacted for a
    /// statement that is not run.
    pub partitions: Option<Partitions>,
    /// The consistency level.
    pub consistency: String,
    /// The coordinator node.
    pub coordinator: String,
}

/// One relation the planner understood.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Understood {
    /// The relation as CQL.
    pub relation: String,
    /// `partition key`, `clustering`, `static`, `regular` or `token`.
    pub restricts: &'static str,
}

/// Plans `statement` as [`plan_statement`] does; a refusal comes with its
/// partial plan (boxed: a refusal is the rare, large case).
pub fn plan_explained(
    ctx: &PlanContext,
    statement: &Statement,
) -> Result<super::Plan, Box<PlanError>> {
    plan_statement(ctx, statement).map_err(|error| {
        let partial = partial_plan(ctx, statement, &error).map(Box::new);
        Box::new(PlanError { error, partial })
    })
}

/// The partial plan of `statement`, which planning refused with `error`.
pub fn partial_plan(
    ctx: &PlanContext,
    statement: &Statement,
    error: &Error,
) -> Option<PartialPlan> {
    let (kind, name, relations) = parts(statement)?;
    let table = name.and_then(|n| ctx.catalog.resolve_table(ctx.keyspace.as_deref(), n).ok());
    let restrictions = table
        .map(|t| relations.iter().filter_map(|r| understood(t, r)).collect())
        .unwrap_or_default();
    let partitions = table.and_then(|_| relaxed_partitions(ctx, statement, error));
    Some(PartialPlan {
        statement: kind,
        table: table.map(Table::qualified_name),
        restrictions,
        partitions,
        consistency: ctx.consistency.to_string(),
        coordinator: ctx
            .ring
            .node(ctx.coordinator.for_scan(&ctx.ring))
            .id
            .clone(),
    })
}

/// The kind, table and WHERE clause of a data statement (a batch: its
/// first statement's table, no relations).
fn parts(
    statement: &Statement,
) -> Option<(
    StatementKind,
    Option<&crate::syntax::ast::QualifiedName>,
    &[Relation],
)> {
    Some(match statement {
        Statement::Select(s) => (StatementKind::Select, Some(&s.from), &s.where_clause[..]),
        Statement::Insert(i) => (StatementKind::Insert, Some(&i.table), &[][..]),
        Statement::Update(u) => (StatementKind::Update, Some(&u.table), &u.where_clause[..]),
        Statement::Delete(d) => (StatementKind::Delete, Some(&d.table), &d.where_clause[..]),
        Statement::Batch(b) => {
            let first = b.statements.first().map(|s| match s {
                BatchStatement::Insert(i) => &i.table,
                BatchStatement::Update(u) => &u.table,
                BatchStatement::Delete(d) => &d.table,
            });
            (StatementKind::Batch, first, &[][..])
        }
        _ => return None,
    })
}

/// The relation and the part of the key it restricts, when every column
/// it names is the table's.
fn understood(table: &Table, relation: &Relation) -> Option<Understood> {
    let columns: Vec<&str> = match &relation.kind {
        RelationKind::Token { .. } => {
            return Some(Understood {
                relation: relation.to_string(),
                restricts: "token",
            })
        }
        RelationKind::Compare { column, .. }
        | RelationKind::In { column, .. }
        | RelationKind::Contains { column, .. }
        | RelationKind::MapEntry { column, .. }
        | RelationKind::Like { column, .. }
        | RelationKind::IsNotNull { column } => vec![column.name.as_str()],
        RelationKind::MultiCompare { columns, .. } | RelationKind::MultiIn { columns, .. } => {
            columns.iter().map(|c| c.name.as_str()).collect()
        }
    };
    let first = table.column(columns.first()?)?;
    if columns.iter().any(|c| table.column(c).is_none()) {
        return None;
    }
    let restricts = if first.is_partition_key() {
        "partition key"
    } else if first.is_clustering() {
        "clustering"
    } else if first.is_static() {
        "static"
    } else {
        "regular"
    };
    Some(Understood {
        relation: relation.to_string(),
        restricts,
    })
}

/// The partitions of the statement planned with ALLOW FILTERING (and,
/// when it was Unavailable, at ONE with every node up); the replicas down
/// in `ctx` are marked. `None` when even that
/// plan is refused: the refusal came before the partitions were known.
fn relaxed_partitions(
    ctx: &PlanContext,
    statement: &Statement,
    error: &Error,
) -> Option<Partitions> {
    let mut relaxed = ctx.clone();
    if error.kind() == ErrorKind::Unavailable {
        // Replicas follow from the replication, not from the level.
        relaxed.consistency = crate::cluster::ConsistencyLevel::One;
        let names: Vec<String> = relaxed.ring.nodes().iter().map(|n| n.id.clone()).collect();
        for name in names {
            let _ = relaxed.ring.set_up(&name);
        }
    }
    let statement = match statement {
        Statement::Select(s) if !s.allow_filtering => {
            let mut s = s.clone();
            s.allow_filtering = true;
            Statement::Select(s)
        }
        other => other.clone(),
    };
    let plan = plan_statement(&relaxed, &statement).ok()?;
    Some(match plan.partitions {
        Partitions::Keys { partitions } => Partitions::Keys {
            partitions: partitions.into_iter().map(|p| as_not_run(ctx, p)).collect(),
        },
        other => other,
    })
}

/// A partition as a statement that is not run sees it: no replica
/// contacted, the replicas down in `ctx` marked.
fn as_not_run(ctx: &PlanContext, mut target: PartitionTarget) -> PartitionTarget {
    target.contacted.clear();
    target.required = 0;
    target.down = target
        .replicas
        .iter()
        .filter(|name| ctx.ring.find(name).is_some_and(|n| !ctx.ring.is_up(n)))
        .cloned()
        .collect();
    target
}

impl fmt::Display for PartialPlan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let table = self.table.as_deref().unwrap_or("an unknown table");
        writeln!(f, "refused: {} on {table}", self.statement)?;
        for r in &self.restrictions {
            writeln!(f, "  restriction {} ({})", r.relation, r.restricts)?;
        }
        match &self.partitions {
            Some(Partitions::Keys { partitions }) => {
                for p in partitions {
                    write!(
                        f,
                        "  partition ({}) token {} replicas [{}]",
                        p.key.join(", "),
                        p.token,
                        p.replicas.join(", ")
                    )?;
                    if !p.down.is_empty() {
                        write!(f, " down [{}]", p.down.join(", "))?;
                    }
                    writeln!(f)?;
                }
            }
            Some(Partitions::TokenRange { range }) => {
                let open = if range.start_inclusive { '[' } else { '(' };
                let close = if range.end_inclusive { ']' } else { ')' };
                writeln!(
                    f,
                    "  token range {open}{}, {}{close}",
                    range.start.as_deref().unwrap_or("min"),
                    range.end.as_deref().unwrap_or("max")
                )?
            }
            Some(Partitions::All) => writeln!(f, "  all token ranges")?,
            None => writeln!(f, "  partitions not established")?,
        }
        writeln!(
            f,
            "  consistency {} via coordinator {}",
            self.consistency, self.coordinator
        )
    }
}
