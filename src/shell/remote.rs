//! The shell in front of a real cluster (connect mode). Statements run on
//! the cluster; the shell's own session becomes a mirror of the cluster's
//! schema and ring that holds no data, so EXPLAIN, the linter, DESCRIBE and
//! completion keep working on what the cluster really holds. The cluster
//! is reached through [`Remote`], which the connect stage implements: the
//! shell knows no driver.

use std::fmt;

use crate::cluster::ConsistencyLevel;
use crate::error::Error;
use crate::exec::ResultSet;
use crate::planner::is_schema_statement;
use crate::session::Session;
use crate::syntax::ast::Statement;
use crate::syntax::script::ScriptStatement;

use super::{Reply, Shell};

/// How one statement is sent: the shell's CONSISTENCY, SERIAL CONSISTENCY,
/// PAGING and TRACING.
#[derive(Debug, Clone, Copy)]
pub struct RemoteRequest {
    /// The consistency level.
    pub consistency: ConsistencyLevel,
    /// The serial consistency of conditional updates.
    pub serial_consistency: ConsistencyLevel,
    /// Rows per page; `None` sends the statement unpaged. Every page is
    /// fetched: the shell pages its output, not the cluster's answer.
    pub page_size: Option<usize>,
    /// Ask the cluster to trace the request.
    pub tracing: bool,
}

/// A cluster's answer to one statement.
#[derive(Debug)]
pub struct Sent {
    /// The rows (or plain success) and the cluster's warnings.
    pub result: ResultSet,
    /// The cluster's trace, when one was asked for.
    pub trace: Option<ClusterTrace>,
}

/// What the cluster recorded of one request in `system_traces`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClusterTrace {
    /// The trace session's id.
    pub session_id: String,
    /// The node that coordinated the request.
    pub coordinator: String,
    /// How long the coordinator took, in microseconds.
    pub duration_micros: Option<i32>,
    /// The events, in the order the cluster recorded them.
    pub events: Vec<TraceEvent>,
}

/// One line of a cluster's trace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceEvent {
    /// What happened.
    pub activity: String,
    /// The node it happened on.
    pub source: String,
    /// Microseconds since that node started on the request.
    pub source_elapsed: Option<i32>,
}

impl ClusterTrace {
    /// Every node the trace shows working on the request, in first-seen
    /// order: the coordinator and the replicas it contacted.
    pub fn nodes(&self) -> Vec<&str> {
        let mut nodes: Vec<&str> = Vec::new();
        for event in &self.events {
            if !event.source.is_empty() && !nodes.contains(&event.source.as_str()) {
                nodes.push(&event.source);
            }
        }
        nodes
    }
}

/// A real cluster the shell sends statements to.
pub trait Remote: fmt::Debug {
    /// Runs `cql` on the cluster as `request` says.
    fn execute(&mut self, cql: &str, request: &RemoteRequest) -> Result<Sent, Error>;

    /// Prepares `cql` on the cluster and runs it with `values` bound (COPY
    /// FROM's writes), so the driver routes it by its partition key.
    fn execute_bound(
        &mut self,
        cql: &str,
        values: &[crate::types::Value],
        request: &RemoteRequest,
    ) -> Result<Sent, Error>;

    /// A fresh mirror of the cluster's schema and ring, for when the old one
    /// could not follow a schema change; with the statements it could not
    /// copy.
    fn mirror(&mut self) -> Result<(Session, Vec<String>), Error>;

    /// `HOST:PORT` of the contact point, for SHOW HOST.
    fn contact(&self) -> String;

    /// Whether the cluster's schema changed since the last
    /// [`Remote::mirror`] (another client's change).
    fn changed(&mut self) -> bool;

    /// The nodes, by address, the client has lost since it reached them:
    /// the ones the mirror counts as down.
    fn lost_nodes(&mut self) -> Vec<std::net::IpAddr>;
}

impl Shell {
    /// The shell in front of `remote`, with `mirror` (from
    /// [`Remote::mirror`]) as its session.
    pub fn connected(mirror: Session, settings: super::Settings, remote: Box<dyn Remote>) -> Shell {
        let mut shell = Shell::new(mirror, settings);
        shell.remote = Some(remote);
        shell
    }

    /// Whether statements go to a real cluster.
    pub fn is_connected(&self) -> bool {
        self.remote.is_some()
    }

    /// Runs a statement on the cluster and renders its answer. The class is
    /// the one widerow plans on the mirror (absent when the mirror cannot
    /// plan it); metrics are the cluster's to know and are left out.
    pub(super) fn remote_cql(&mut self, source: &str, statement: &ScriptStatement) -> Reply {
        let parsed = crate::parse_statement(&statement.text).ok();
        let tracing = self.settings.tracing;
        match self.send(&statement.text, tracing) {
            Ok(Sent { mut result, trace }) => {
                let mut plan = None;
                if let Some(parsed) = &parsed {
                    self.follow(parsed, &statement.text);
                    plan = self.mirror_plan(parsed);
                    result.class = plan.as_ref().map(|p| p.class);
                }
                let mut reply = self.render(statement, &result);
                if let Some(trace) = trace {
                    let text = super::trace::compare(&trace, plan.as_ref());
                    match reply.out.last_mut() {
                        Some(last) => last.push_str(&text),
                        None => reply.out.push(text),
                    }
                }
                reply
            }
            Err(error) => {
                let error = match &parsed {
                    Some(parsed) => self.as_planner_refusal(error, parsed),
                    None => error,
                };
                self.report(source, statement, &error)
            }
        }
    }

    /// The mirror's plan of a read or write (none for schema statements,
    /// or when the mirror refuses it).
    fn mirror_plan(&self, parsed: &Statement) -> Option<crate::planner::Plan> {
        if is_schema_statement(parsed) {
            return None;
        }
        crate::planner::plan_statement(self.session.context(), parsed).ok()
    }

    /// Runs `cql` on the cluster, or on the session when not connected: the
    /// one door COPY goes through.
    pub(super) fn execute_remote(&mut self, cql: &str) -> Result<ResultSet, Error> {
        match self.remote.is_some() {
            true => self.send(cql, false).map(|sent| sent.result),
            false => self.session.execute(cql),
        }
    }

    /// Runs a statement prepared on the session with `values` bound: on
    /// the cluster in connect mode (prepared there), on the session
    /// otherwise.
    pub(super) fn execute_prepared_remote(
        &mut self,
        prepared: &crate::session::Prepared,
        values: &[crate::types::Value],
    ) -> Result<ResultSet, Error> {
        let request = self.request(false);
        match &mut self.remote {
            Some(remote) => remote
                .execute_bound(prepared.text(), values, &request)
                .map(|sent| sent.result),
            None => self.session.execute_prepared(prepared, values),
        }
    }

    fn request(&self, tracing: bool) -> RemoteRequest {
        RemoteRequest {
            consistency: self.session.context().consistency,
            serial_consistency: self.session.context().serial_consistency,
            page_size: self.settings.page_size,
            tracing,
        }
    }

    fn send(&mut self, cql: &str, tracing: bool) -> Result<Sent, Error> {
        let request = self.request(tracing);
        match &mut self.remote {
            Some(remote) => remote.execute(cql, &request),
            None => Err(Error::new(
                crate::error::ErrorKind::ServerError,
                "not connected to a cluster",
            )),
        }
    }

    /// The cluster's error, marked as a refusal (JSON Lines' `"class":
    /// "rejected"`) when widerow's planner refuses the statement the same
    /// way on the mirror: what in-memory mode would have said.
    fn as_planner_refusal(&self, error: Error, parsed: &Statement) -> Error {
        if is_schema_statement(parsed) {
            return error;
        }
        match crate::planner::plan_statement(self.session.context(), parsed) {
            Err(planned) if planned.kind() == error.kind() => error.as_refusal(),
            _ => error,
        }
    }

    /// Copies the mirror again when the cluster's schema changed since it
    /// was made, and marks down in its ring the nodes the client has lost
    /// (and up again those it has back), so EXPLAIN, the linter and a
    /// trace's prediction see the cluster as it is now.
    pub(super) fn refresh_mirror(&mut self) {
        if self.remote.as_mut().is_some_and(|remote| remote.changed()) {
            self.remirror();
        }
        self.follow_node_states();
    }

    fn follow_node_states(&mut self) {
        let Some(remote) = &mut self.remote else {
            return;
        };
        let lost = remote.lost_nodes();
        let turned: Vec<(String, bool)> = self
            .session
            .context()
            .ring
            .nodes()
            .iter()
            .filter_map(|node| {
                let down = lost.contains(&std::net::IpAddr::V4(node.address));
                (node.up == down).then(|| (node.id.clone(), !down))
            })
            .collect();
        if turned.is_empty() {
            return;
        }
        let ring = &mut self.session.context_mut().ring;
        for (id, up) in turned {
            let _ = if up {
                ring.set_up(&id)
            } else {
                ring.set_down(&id)
            };
        }
    }

    /// A fresh mirror, keeping the keyspace and the levels in use.
    fn remirror(&mut self) {
        let Some(remote) = &mut self.remote else {
            return;
        };
        if let Ok((mut fresh, _)) = remote.mirror() {
            let keyspace = self.session.keyspace().map(str::to_string);
            fresh.set_consistency(self.session.context().consistency);
            fresh.set_serial_consistency(self.session.context().serial_consistency);
            if let Some(keyspace) = keyspace {
                let _ = fresh.execute(&format!("USE {}", super::describe::cql::name(&keyspace)));
            }
            self.session = fresh;
        }
    }

    /// Keeps the mirror in step after the cluster accepted a schema change
    /// or a USE; when the mirror refuses what the cluster accepted, it is
    /// copied again from the cluster.
    fn follow(&mut self, statement: &Statement, cql: &str) {
        if !is_schema_statement(statement) || matches!(statement, Statement::Role(_)) {
            return;
        }
        if self.session.execute(cql).is_err() {
            self.remirror();
        }
    }
}
