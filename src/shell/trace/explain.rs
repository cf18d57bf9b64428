//! The plan as a readable block: one labelled line per decision, in the
//! order a coordinator takes them (which partitions, which rows, which
//! replicas, which nodes), so a learner can read *why* a statement is cheap
//! or expensive before running it.

use crate::planner::{
    Direction, PartitionTarget, Partitions, Plan, QueryClass, StatementKind, TokenRange,
};
use crate::schema::Table;
use crate::session::Session;

use super::paint::{plural, Paint, Tone};

/// Width of the label column of every block in the trace views.
pub(crate) const LABEL: usize = 15;

/// Most partitions an IN list shows before eliding the rest.
pub(crate) const MAX_PARTITIONS: usize = 8;

/// How much of the plan a block shows: all of it for EXPLAIN, or what the
/// ring and metrics do not already show for TRACING.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Detail {
    /// Everything: EXPLAIN.
    Full,
    /// Class, partitions and tokens, clustering, filters, index, order and
    /// limits: the PLAN section of TRACING.
    Trace,
}

/// `EXPLAIN <statement>`: a heading, then the plan's lines.
pub(crate) fn block(session: &Session, plan: &Plan, paint: Paint) -> String {
    let heading = format!(
        "EXPLAIN {} on {} (planned, not run)",
        plan.statement, plan.table
    );
    let mut out = paint.paint(Tone::Heading, &heading);
    out.push('\n');
    for line in lines(session, plan, Detail::Full, paint) {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// The plan's lines, each indented and labelled.
pub(crate) fn lines(session: &Session, plan: &Plan, detail: Detail, paint: Paint) -> Vec<String> {
    let table = super::table_of(session, &plan.table);
    let mut out = vec![field("class", &class_text(plan.class))];
    out.extend(partition_lines(table, plan));
    out.extend(row_lines(table, plan));
    if detail == Detail::Full {
        out.extend(routing_lines(session, plan));
        for warning in &plan.warnings {
            out.push(field("warning", &paint.paint(Tone::Warning, warning)));
        }
    }
    out
}

/// `  label        value`, the label padded to [`LABEL`].
pub(crate) fn field(label: &str, value: &str) -> String {
    format!("  {label:<LABEL$}{value}")
}

/// A continuation line under a field.
pub(crate) fn more(value: &str) -> String {
    format!("  {:<LABEL$}{value}", "")
}

/// The class, with the cost shape it stands for (DESIGN.md's table).
fn class_text(class: QueryClass) -> String {
    let shape = match class {
        QueryClass::PointLookup => {
            "whole primary key fixed: one partition, at most one row, one replica set"
        }
        QueryClass::PartitionScan => "partition key fixed: one partition, rows in clustering order",
        QueryClass::MultiPartition => {
            "several partitions, each key fixed by IN or a batch: one replica set per partition"
        }
        QueryClass::ScatterGather => {
            "no fixed partition key: every token range is read, from nodes across the ring"
        }
    };
    format!("{class} ({shape})")
}

/// Which partitions: each key with its token and replicas, a token range,
/// or the whole ring.
fn partition_lines(table: Option<&Table>, plan: &Plan) -> Vec<String> {
    match &plan.partitions {
        Partitions::Keys { partitions } => keys_lines(table, plan, partitions),
        Partitions::TokenRange { range } => vec![field("partitions", &range_text(range))],
        Partitions::All => vec![field("partitions", "every token range (the whole ring)")],
    }
}

fn keys_lines(table: Option<&Table>, plan: &Plan, partitions: &[PartitionTarget]) -> Vec<String> {
    let label = if partitions.len() == 1 {
        "partition"
    } else {
        "partitions"
    };
    let mut out = Vec::new();
    for (i, target) in partitions.iter().take(MAX_PARTITIONS).enumerate() {
        let key = key_text(table, &target.key);
        out.push(if i == 0 {
            field(label, &key)
        } else {
            more(&key)
        });
        if let Some(paxos) = &target.paxos {
            out.push(more(&format!(
                "  paxos {} · contacted {} ({} waits for {}), then commit:",
                target.token,
                list(&paxos.contacted),
                paxos.consistency,
                paxos.required
            )));
        }
        out.push(more(&format!("  {}", routing_text(plan, target))));
    }
    if partitions.len() > MAX_PARTITIONS {
        let hidden = partitions.len() - MAX_PARTITIONS;
        out.push(more(&format!(
            "… {} more",
            plural(hidden, "partition", "partitions")
        )));
    }
    out
}

/// `user_id = 5b6…` or `(sensor_id, day) = ('s1', '2025-06-01')`.
pub(crate) fn key_text(table: Option<&Table>, values: &[String]) -> String {
    let names: Vec<&str> = table
        .map(|t| t.partition_key.iter().map(String::as_str).collect())
        .unwrap_or_default();
    match (names.as_slice(), values) {
        ([name], [value]) => format!("{name} = {value}"),
        (names, values) if names.len() == values.len() && !names.is_empty() => {
            format!("({}) = ({})", names.join(", "), values.join(", "))
        }
        _ => format!("({})", values.join(", ")),
    }
}

/// `token T · replicas a, b, c · contacted a (ONE waits for 1)`.
fn routing_text(plan: &Plan, target: &PartitionTarget) -> String {
    let mut text = format!(
        "token {} · replicas {} · contacted {} ({} waits for {})",
        target.token,
        list(&target.replicas),
        list(&target.contacted),
        plan.consistency,
        target.required
    );
    if !target.down.is_empty() {
        text.push_str(&format!(" · down {}", target.down.join(", ")));
    }
    text
}

/// `token range (a, b]`, open ends written `min` and `max`.
pub(crate) fn range_text(range: &TokenRange) -> String {
    let open = if range.start_inclusive { '[' } else { '(' };
    let close = if range.end_inclusive { ']' } else { ')' };
    format!(
        "token range {open}{}, {}{close}",
        range.start.as_deref().unwrap_or("min"),
        range.end.as_deref().unwrap_or("max")
    )
}

/// Which rows: clustering bounds, filters, index, order, limits.
fn row_lines(table: Option<&Table>, plan: &Plan) -> Vec<String> {
    let read = plan.statement == StatementKind::Select;
    let clustered = read && table.is_some_and(|t| !t.clustering.is_empty());
    let mut out = Vec::new();
    if !plan.clustering.is_empty() {
        out.push(field("clustering", &plan.clustering.join(" AND ")));
    } else if clustered {
        out.push(field("clustering", whole_partitions(plan)));
    }
    if !plan.filters.is_empty() {
        let how = if plan.allow_filtering {
            "ALLOW FILTERING: rows are read, then dropped"
        } else {
            "checked on each row read"
        };
        out.push(field(
            "filter",
            &format!("{} ({how})", plan.filters.join(" AND ")),
        ));
    }
    if let Some(index) = &plan.index {
        out.push(field("index", index));
    }
    if clustered {
        out.push(field("order", order_text(plan.order)));
    }
    if let Some(limits) = limits_text(plan) {
        out.push(field("limit", &limits));
    }
    out
}

/// `10`, `2 per partition`, or both.
fn limits_text(plan: &Plan) -> Option<String> {
    match (&plan.limit, &plan.per_partition_limit) {
        (None, None) => None,
        (Some(n), None) => Some(n.clone()),
        (None, Some(p)) => Some(format!("{p} per partition")),
        (Some(n), Some(p)) => Some(format!("{n} · {p} per partition")),
    }
}

/// What an unrestricted clustering reads.
fn whole_partitions(plan: &Plan) -> &'static str {
    match &plan.partitions {
        Partitions::Keys { partitions } if partitions.len() == 1 => "none (the whole partition)",
        _ => "none (whole partitions)",
    }
}

fn order_text(order: Direction) -> &'static str {
    match order {
        Direction::Forward => "clustering order",
        Direction::Reversed => "reversed (against the clustering order)",
    }
}

/// Consistency, coordinator and the nodes reached.
fn routing_lines(session: &Session, plan: &Plan) -> Vec<String> {
    let total = session.context().ring.len();
    vec![
        field("consistency", &plan.consistency),
        field("coordinator", &coordinator_text(plan)),
        field(
            "nodes",
            &format!("{} ({} of {total})", list(&plan.nodes), plan.nodes.len()),
        ),
    ]
}

/// The coordinator, and whether it answers from its own data.
fn coordinator_text(plan: &Plan) -> String {
    let who = &plan.coordinator;
    match &plan.partitions {
        Partitions::Keys { partitions } => {
            if partitions.iter().all(|p| p.contacted.contains(who)) {
                format!("{who} (a replica itself)")
            } else {
                format!("{who} (forwards to the replicas and waits)")
            }
        }
        _ => format!(
            "{who} (asks {}, merges their answers)",
            plural(plan.nodes.len(), "node", "nodes")
        ),
    }
}

/// Names joined with `, `, or `none`.
pub(crate) fn list(names: &[String]) -> String {
    if names.is_empty() {
        "none".to_string()
    } else {
        names.join(", ")
    }
}
