//! Seeing the plan: EXPLAIN, the TRACING view and the CLUSTER commands.
//!
//! These are the shell's teaching views, after the seed's interactive demo
//! ("a wide row beside a 4-node ring"): for one statement, what its
//! partition looks like and which rows it read, where the partition lives
//! on the ring and which nodes the consistency level involves, the plan in
//! words, and what it cost. Everything is computed from the [`Plan`], the
//! [`ResultSet`] and the session's data and ring; nothing here changes how
//! statements run.
//!
//! - [`explain()`]: `EXPLAIN <statement>`, the plan without running it
//!   (module `explain`).
//! - [`trace()`]: what TRACING ON prints after each query: the wide row
//!   (module `wide_row`, its marks from module `marks`), the ring (module
//!   `ring`), the plan and the metrics.
//! - [`cluster()`]: `CLUSTER …` (module `cluster`).
//! - [`compare()`]: TRACING ON in connect mode: the cluster's own trace
//!   beside widerow's prediction (module `compare`).
//! - [`facts::facts`]: the TRACING view as data, for the web page.

mod cluster;
mod compare;
mod explain;
pub mod facts;
mod marks;
mod paint;
mod refused;
mod ring;
mod wide_row;

use crate::error::Error;
use crate::exec::ResultSet;
use crate::planner::{Partitions, Plan, QueryClass, StatementKind, TokenValue};
use crate::schema::{Replication, Table};
use crate::session::Session;
use crate::storage::Partition;

pub use compare::compare;
use explain::{field, list, Detail};
use paint::{count, plural, Paint, Tone};
use ring::Role;

/// `EXPLAIN <statement>`: the plan as a readable block, without running
/// the statement — so a user sees the class, the partitions and their
/// replicas, the rows sought and the nodes reached before paying for them.
pub fn explain(session: &Session, plan: &Plan) -> String {
    explain::block(session, plan, Paint { color: false })
}

/// `EXPLAIN` of a statement the planner stopped on: what it had
/// established (table, restrictions, partitions), without the error, which
/// is reported as every error is.
pub fn explain_refused(
    session: &Session,
    partial: &crate::planner::PartialPlan,
    error: &crate::error::Error,
) -> String {
    refused::block(session, partial, error, Paint { color: false })
}

/// What TRACING ON prints after a query's rows: the seed's demo in text —
/// the wide row with the rows read marked, the ring with the coordinator,
/// replicas, contacted replicas (or every node asked) and down nodes, the
/// plan, and the metrics with any hot or large partition warning. `color`
/// adds ANSI colour; letters and symbols carry the meaning without it.
pub fn trace(session: &Session, cql: &str, result: &ResultSet, color: bool) -> String {
    let Some(plan) = &result.plan else {
        return String::new();
    };
    let paint = Paint { color };
    let mut sections = vec![title(plan, paint)];
    let verb = match plan.statement {
        StatementKind::Select => wide_row::Verb::Read,
        StatementKind::Delete => wide_row::Verb::Deleted,
        _ => wide_row::Verb::Written,
    };
    let marks = marks::marks(session, cql);
    for name in table_names(plan) {
        sections.push(wide_row::render(session, plan, name, &marks, verb, paint));
    }
    sections.push(ring_section(session, plan, result, paint));
    sections.push(plan_section(session, plan, paint));
    sections.push(metrics_section(session, result, paint));
    let blocks: Vec<String> = sections.iter().map(|lines| lines.join("\n")).collect();
    format!("\n{}\n", blocks.join("\n\n"))
}

/// `CLUSTER [NODES n | DOWN node | UP node]`: shows or changes the
/// simulated ring, so routing and consistency can be watched reacting to
/// nodes leaving and joining.
pub fn cluster(session: &mut Session, rest: &str) -> Result<String, Error> {
    cluster::run(session, None, rest, Paint { color: false })
}

/// [`cluster`], and `CLUSTER SNAPSHOT`, `RESTORE`, `RESET` and `CLOCK` on
/// the shell's `checkpoints`.
pub fn cluster_with_checkpoints(
    session: &mut Session,
    checkpoints: &mut crate::checkpoints::Checkpoints,
    rest: &str,
) -> Result<String, Error> {
    cluster::run(session, Some(checkpoints), rest, Paint { color: false })
}

/// The tables a plan names: one, or several for a batch (`ks.a, ks.b`).
fn table_names(plan: &Plan) -> impl Iterator<Item = &str> + '_ {
    plan.table.split(", ")
}

/// The table a plan names (`ks.t`), from the session's schema.
fn table_of<'a>(session: &'a Session, qualified: &str) -> Option<&'a Table> {
    let (keyspace, table) = qualified.split_once('.')?;
    session.context().catalog.table(keyspace, table)
}

fn title(plan: &Plan, paint: Paint) -> Vec<String> {
    let text = format!(
        "TRACING · {} on {} · {}",
        plan.statement, plan.table, plan.class
    );
    vec![paint.paint(Tone::Heading, &text)]
}

/// `RING · 4 nodes · SimpleStrategy 3 replicas · consistency ONE`, the
/// drawing, the legend, and the route.
fn ring_section(session: &Session, plan: &Plan, result: &ResultSet, paint: Paint) -> Vec<String> {
    let ring = &session.context().ring;
    let heading = format!(
        "RING · {} · {} · consistency {}",
        plural(ring.len(), "node", "nodes"),
        replication_text(session, plan),
        plan.consistency
    );
    let roles = roles(session, plan, result);
    let mut out = vec![paint.paint(Tone::Heading, &heading)];
    out.extend(ring::render(ring, &roles, &known_tokens(plan), paint));
    out.extend(ring::legend(ring, &plan.consistency));
    out.push(field("route", &route(plan)));
    out
}

/// The keyspace's replication in a few words.
fn replication_text(session: &Session, plan: &Plan) -> String {
    let keyspace = plan.table.split_once('.').map_or("", |(ks, _)| ks);
    match session
        .context()
        .catalog
        .keyspace(keyspace)
        .map(|k| &k.replication)
    {
        Some(Replication::Simple { factor }) => format!("RF {factor}"),
        Some(Replication::NetworkTopology { factors }) => {
            let per_dc: Vec<String> = factors.iter().map(|(dc, f)| format!("{dc}: {f}")).collect();
            format!("RF {}", per_dc.join(", "))
        }
        _ => "local".to_string(),
    }
}

/// `client → node1 → node2, node3`: who the request passes through.
fn route(plan: &Plan) -> String {
    let others: Vec<String> = plan
        .nodes
        .iter()
        .filter(|n| **n != plan.coordinator)
        .cloned()
        .collect();
    if others.is_empty() {
        format!("client → {} (answers itself)", plan.coordinator)
    } else {
        format!("client → {} → {}", plan.coordinator, others.join(", "))
    }
}

/// The tokens of the partitions addressed by key.
fn known_tokens(plan: &Plan) -> Vec<i64> {
    match &plan.partitions {
        Partitions::Keys { partitions } => partitions
            .iter()
            .filter_map(|p| match p.token {
                TokenValue::Known(t) => Some(t),
                TokenValue::BoundAtExecution => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// Each node's part in the statement, from the plan (and, for hot
/// partitions, the result's warnings).
pub(super) fn roles(session: &Session, plan: &Plan, result: &ResultSet) -> Vec<Role> {
    let ring = &session.context().ring;
    let mut roles = vec![Role::default(); ring.len()];
    let mut set = |name: &str, apply: &dyn Fn(&mut Role)| {
        if let Some(i) = ring.find(name) {
            apply(&mut roles[i.get()]);
        }
    };
    set(&plan.coordinator, &|r| r.coordinator = true);
    if plan.class == QueryClass::ScatterGather {
        for node in plan.nodes.iter() {
            set(node, &|r| r.asked = true);
        }
    }
    if let Partitions::Keys { partitions } = &plan.partitions {
        for target in partitions {
            let hot = is_hot(session, plan, result, target.token);
            for node in &target.replicas {
                set(node, &|r| {
                    r.replica = true;
                    r.hot |= hot;
                });
            }
            for node in &target.contacted {
                set(node, &|r| r.contacted = true);
            }
        }
    }
    roles
}

/// Whether a result warning names the stored partition at `token` as hot
/// or oversized (the executor's words: `Hot partition (k) of ks.t …`).
pub(super) fn is_hot(
    session: &Session,
    plan: &Plan,
    result: &ResultSet,
    token: TokenValue,
) -> bool {
    let TokenValue::Known(token) = token else {
        return false;
    };
    table_names(plan).any(|name| {
        let (Some(table), Some(data)) = (table_of(session, name), session.store().table(name))
        else {
            return false;
        };
        wide_row::at_token(data, token).any(|(_, partition)| {
            let named = format!("{} of {name}", stored_key(table, partition));
            result.notes.iter().any(|w| {
                (w.starts_with("Hot partition") || w.starts_with("Large partition"))
                    && w.contains(&named)
            })
        })
    })
}

/// A stored partition's key as the executor's notes write it: `(v1, v2)`.
fn stored_key(table: &Table, partition: &Partition) -> String {
    let parts: Vec<String> = partition
        .key
        .iter()
        .zip(table.partition_key_columns())
        .map(|(v, c)| v.cqlsh_display(&c.data_type))
        .collect();
    format!("({})", parts.join(", "))
}

/// `PLAN`: class, partitions and tokens, clustering, filters, index.
fn plan_section(session: &Session, plan: &Plan, paint: Paint) -> Vec<String> {
    let mut out = vec![paint.paint(Tone::Heading, "PLAN")];
    out.extend(explain::lines(session, plan, Detail::Trace, paint));
    out
}

/// `METRICS`: what the statement cost, and its warnings.
fn metrics_section(session: &Session, result: &ResultSet, paint: Paint) -> Vec<String> {
    let m = &result.metrics;
    let total = session.context().ring.len();
    let mut out = vec![paint.paint(Tone::Heading, "METRICS")];
    out.push(field("partitions", &count(m.partitions_touched as usize)));
    out.push(field("rows scanned", &count(m.rows_scanned as usize)));
    out.push(field("rows returned", &count(m.rows_returned as usize)));
    out.push(field(
        "nodes",
        &format!(
            "{} ({} of {total})",
            list(result.nodes_contacted()),
            result.nodes_contacted().len()
        ),
    ));
    for warning in &result.warnings {
        out.push(field("warning", &paint.paint(Tone::Warning, warning)));
    }
    for note in &result.notes {
        let tone = if note.starts_with("Hot") || note.starts_with("Large") {
            Tone::Hot
        } else {
            Tone::Warning
        };
        out.push(field("note", &paint.paint(tone, note)));
    }
    out
}
