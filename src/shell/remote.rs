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

/// A real cluster the shell sends statements to.
pub trait Remote: fmt::Debug {
    /// Runs `cql` on the cluster at these levels; every page of a paged
    /// answer (`page_size`) is gathered.
    fn execute(
        &mut self,
        cql: &str,
        consistency: ConsistencyLevel,
        serial_consistency: ConsistencyLevel,
        page_size: Option<usize>,
    ) -> Result<ResultSet, Error>;

    /// A fresh mirror of the cluster's schema and ring, for when the old one
    /// could not follow a schema change; with the statements it could not
    /// copy.
    fn mirror(&mut self) -> Result<(Session, Vec<String>), Error>;

    /// `HOST:PORT` of the contact point, for SHOW HOST.
    fn contact(&self) -> String;
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
        match self.execute_remote(&statement.text) {
            Ok(mut result) => {
                if let Some(parsed) = &parsed {
                    self.follow(parsed, &statement.text);
                    if !is_schema_statement(parsed) {
                        result.class = self.session.plan(&statement.text).ok().map(|p| p.class);
                    }
                }
                self.render(statement, &result)
            }
            Err(error) => self.report(source, statement, &error),
        }
    }

    /// Runs `cql` on the cluster, or on the session when not connected: the
    /// one door COPY and the shell's statements go through.
    pub(super) fn execute_remote(&mut self, cql: &str) -> Result<ResultSet, Error> {
        let consistency = self.session.context().consistency;
        let serial = self.session.context().serial_consistency;
        let page_size = self.settings.page_size;
        match &mut self.remote {
            Some(remote) => remote.execute(cql, consistency, serial, page_size),
            None => self.session.execute(cql),
        }
    }

    /// Keeps the mirror in step after the cluster accepted a schema change
    /// or a USE; when the mirror refuses what the cluster accepted, it is
    /// copied again from the cluster.
    fn follow(&mut self, statement: &Statement, cql: &str) {
        if !is_schema_statement(statement) || matches!(statement, Statement::Role(_)) {
            return;
        }
        if self.session.execute(cql).is_ok() {
            return;
        }
        let Some(remote) = &mut self.remote else {
            return;
        };
        if let Ok((mut fresh, _)) = remote.mirror() {
            let keyspace = self.session.keyspace().map(str::to_string);
            fresh.set_consistency(self.session.context().consistency);
            fresh.set_serial_consistency(self.session.context().serial_consistency);
            if let Some(keyspace) = keyspace {
                let _ = fresh.execute(&format!("USE \"{}\"", keyspace.replace('"', "\"\"")));
            }
            self.session = fresh;
        }
    }
}
