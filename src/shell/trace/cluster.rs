//! `CLUSTER` (widerow's own shell command): look at the simulated ring and
//! change it, so a learner can watch routing and consistency react.
//!
//! - `CLUSTER` prints the ring: a circle (when it reads well), then every
//!   node with its address, data centre, rack, state and tokens, then the
//!   keyspaces' replication (what QUORUM is counted against).
//! - `CLUSTER NODES n` (or `CLUSTER NODES dc1:n,dc2:m`) rebuilds the ring,
//!   refused when a keyspace would lose a data centre it places replicas in.
//! - `CLUSTER DOWN node` / `CLUSTER UP node` mark a node; the planner then
//!   raises Unavailable when a consistency level needs it.
//! - `CLUSTER SNAPSHOT name` / `CLUSTER RESTORE name` / `CLUSTER RESET` and
//!   `CLUSTER CLOCK [SET 'timestamp' | ADVANCE duration]`, as `widerow
//!   serve` takes them over the wire (see [`crate::checkpoints`]).

use crate::checkpoints::Checkpoints;
use crate::cluster::statement::{self, Control};
use crate::cluster::{Coordinator, Ring};
use crate::error::{Error, ErrorKind};
use crate::schema::Replication;
use crate::session::Session;
use crate::syntax::ast::NativeType;
use crate::types::{DataType, Value};

use super::paint::{plural, Paint};
use super::ring::{self, Role};

/// Tokens listed per node before the rest are counted.
const SHOWN_TOKENS: usize = 3;

const USAGE: &str = "Improper CLUSTER command: use CLUSTER, CLUSTER NODES n, CLUSTER DOWN node, \
     CLUSTER UP node, CLUSTER SNAPSHOT name, CLUSTER RESTORE name, CLUSTER RESET, CLUSTER CLOCK, \
     CLUSTER CLOCK SET 'timestamp' or CLUSTER CLOCK ADVANCE duration";

/// Runs `CLUSTER <rest>`; the snapshot and clock commands need
/// `checkpoints` (the web page has none: they are refused there).
pub(crate) fn run(
    session: &mut Session,
    checkpoints: Option<&mut Checkpoints>,
    rest: &str,
    paint: Paint,
) -> Result<String, Error> {
    let control = statement::parse(rest).ok_or_else(|| refusal(USAGE))?;
    let done = |text: String| Ok(text + "\n");
    match (control, checkpoints) {
        (Control::Show, _) => Ok(show(session, paint)),
        (Control::Nodes(spec), _) if !spec.is_empty() && !spec.contains(char::is_whitespace) => {
            rebuild(session, &spec)
        }
        (Control::Mark { node, up }, _) => mark(session, &node, up),
        (Control::Snapshot(name), Some(checkpoints)) => {
            checkpoints.snapshot(&name, session);
            done(format!("Snapshot '{name}' taken."))
        }
        (Control::Restore(name), Some(checkpoints)) => {
            checkpoints
                .restore(&name, session)
                .map_err(|e| refusal(e.message()))?;
            done(format!("Restored snapshot '{name}'."))
        }
        (Control::Reset, Some(checkpoints)) => {
            checkpoints.reset(session);
            done("Back to the data the shell started with.".into())
        }
        (Control::ShowClock, Some(_)) => Ok(clock_text(session)),
        (Control::SetClock(text), Some(checkpoints)) => {
            checkpoints
                .set_clock(&text, session)
                .map_err(|e| refusal(e.message()))?;
            Ok(clock_text(session))
        }
        (Control::AdvanceClock(text), Some(checkpoints)) => {
            checkpoints
                .advance_clock(&text)
                .map_err(|e| refusal(e.message()))?;
            Ok(clock_text(session))
        }
        _ => Err(refusal(USAGE)),
    }
}

/// `Clock: …`, as the clock now reads.
fn clock_text(session: &Session) -> String {
    let now = Value::Timestamp(session.now_micros().div_euclid(1000));
    format!(
        "Clock: {}\n",
        now.cqlsh_display(&DataType::Native(NativeType::Timestamp))
    )
}

/// CLUSTER's errors: short, as a shell command's, never "from server".
fn refusal(message: impl Into<String>) -> Error {
    Error::new(ErrorKind::ConfigurationException, message)
}

/// `CLUSTER`: the ring drawn and listed, then replication.
fn show(session: &Session, paint: Paint) -> String {
    let ctx = session.context();
    let ring = &ctx.ring;
    let mut out = vec![summary(session), String::new()];
    if ring::drawable(ring) {
        let roles = coordinator_roles(ring, ctx.coordinator);
        out.extend(ring::render(ring, &roles, &[], paint));
        out.push("  C coordinator · ✕ down".to_string());
        out.push(String::new());
    }
    out.extend(node_table(ring));
    let replication = replication_lines(session);
    if !replication.is_empty() {
        out.push(String::new());
        out.extend(replication);
    }
    out.join("\n") + "\n"
}

/// `Cluster: 4 nodes in datacenter1 · 1 token per node · …`.
fn summary(session: &Session) -> String {
    let ctx = session.context();
    let ring = &ctx.ring;
    let down = ring.nodes().iter().filter(|n| !n.up).count();
    format!(
        "Cluster: {} in {} · {} per node · {} down · coordinator {} · consistency {}",
        plural(ring.len(), "node", "nodes"),
        ring.datacenters().join(", "),
        plural(ring.tokens_per_node(), "token", "tokens"),
        down,
        ctx.coordinator.describe(ring),
        ctx.consistency.name()
    )
}

/// Roles for the CLUSTER view: only the coordinator.
fn coordinator_roles(ring: &Ring, coordinator: Coordinator) -> Vec<Role> {
    ring.indices()
        .map(|i| Role {
            coordinator: coordinator == Coordinator::Node(i),
            ..Role::default()
        })
        .collect()
}

/// One line per node: id, address, data centre, rack, state, tokens.
fn node_table(ring: &Ring) -> Vec<String> {
    let mut rows = vec![[
        "node".to_string(),
        "address".to_string(),
        "datacenter".to_string(),
        "rack".to_string(),
        "state".to_string(),
        "tokens".to_string(),
    ]];
    for node in ring.nodes() {
        rows.push([
            node.id.clone(),
            node.address.to_string(),
            node.datacenter.clone(),
            node.rack.clone(),
            if node.up { "UP" } else { "DOWN" }.to_string(),
            tokens_text(&node.tokens),
        ]);
    }
    let widths: Vec<usize> = (0..6)
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    rows.iter()
        .map(|row| {
            let cells: Vec<String> = row
                .iter()
                .zip(&widths)
                .map(|(cell, w)| format!("{cell:<w$}"))
                .collect();
            format!("  {}", cells.join("  ")).trim_end().to_string()
        })
        .collect()
}

/// The first tokens of a node, and how many more (vnodes).
fn tokens_text(tokens: &[i64]) -> String {
    let shown: Vec<String> = tokens
        .iter()
        .take(SHOWN_TOKENS)
        .map(i64::to_string)
        .collect();
    let mut text = shown.join(", ");
    if tokens.len() > SHOWN_TOKENS {
        text.push_str(&format!(", … ({} in all)", tokens.len()));
    }
    text
}

/// `Replication: ks SimpleStrategy 1 · …`, one line per user keyspace.
fn replication_lines(session: &Session) -> Vec<String> {
    let catalog = &session.context().catalog;
    let width = catalog
        .keyspaces()
        .map(|ks| ks.name.len())
        .max()
        .unwrap_or(0);
    let keyspaces: Vec<String> = catalog
        .keyspaces()
        .filter_map(|ks| {
            replication_text(&ks.replication).map(|r| format!("  {:<width$}  {r}", ks.name))
        })
        .collect();
    if keyspaces.is_empty() {
        return keyspaces;
    }
    let mut out = vec!["Replication (QUORUM counts against these):".to_string()];
    out.extend(keyspaces);
    out
}

fn replication_text(replication: &Replication) -> Option<String> {
    match replication {
        Replication::Simple { factor } => Some(format!(
            "SimpleStrategy, {}",
            plural(*factor as usize, "replica", "replicas")
        )),
        Replication::NetworkTopology { factors } => {
            let per_dc: Vec<String> = factors.iter().map(|(dc, f)| format!("{dc}: {f}")).collect();
            Some(format!("NetworkTopologyStrategy, {}", per_dc.join(", ")))
        }
        Replication::Local => None,
    }
}

/// `CLUSTER DOWN node` / `CLUSTER UP node`.
fn mark(session: &mut Session, name: &str, up: bool) -> Result<String, Error> {
    let ring = &mut session.context_mut().ring;
    let index = ring.lookup(name).map_err(|e| refusal(e.message()))?;
    let (id, address, was_up) = {
        let node = ring.node(index);
        (node.id.clone(), node.address, node.up)
    };
    let state = if up { "UP" } else { "DOWN" };
    if was_up == up {
        return Ok(format!("{id} ({address}) is already {state}.\n"));
    }
    if up {
        ring.set_up(&id)?;
    } else {
        ring.set_down(&id)?;
    }
    let mut text = format!("{id} ({address}) is now {state}.");
    if !up && session.context().coordinator == Coordinator::Node(index) {
        text.push_str(&format!(
            " It coordinates this session: the simulation keeps routing through {id}."
        ));
    }
    Ok(text + "\n")
}

/// `CLUSTER NODES n` or `CLUSTER NODES dc1:n,dc2:m`: a new ring, keeping
/// every data centre a keyspace places replicas in.
fn rebuild(session: &mut Session, spec: &str) -> Result<String, Error> {
    let planned = session.plan_ring(spec)?;
    let rebuilt = session.adopt_ring(planned);
    let mut notes = vec![format!(
        "Ring rebuilt: {} → {} ({}), tokens evenly spaced. The data stays; replicas are placed anew.",
        plural(rebuilt.old_nodes, "node", "nodes"),
        plural(rebuilt.new_nodes, "node", "nodes"),
        layout_text(&rebuilt.layout)
    )];
    if rebuilt.revived {
        notes.push("Every node is UP again.".to_string());
    }
    if let Some(node) = &rebuilt.coordinator_moved_to {
        notes.push(format!("The coordinator is now {node}."));
    }
    notes.extend(rebuilt.warnings);
    Ok(notes.join("\n") + "\n")
}

fn layout_text(layout: &[(String, usize)]) -> String {
    let parts: Vec<String> = layout.iter().map(|(dc, n)| format!("{dc}: {n}")).collect();
    parts.join(", ")
}
