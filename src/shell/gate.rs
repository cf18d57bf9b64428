//! What the shell checks before a query is sent: with `--lint`, the
//! linter's findings for a query that would scatter to every node or filter
//! (printed on standard error, then the query runs); with `--refuse
//! scatter-gather`, such a query is not sent at all. Both judge the plan
//! widerow makes on the session's schema and ring — in connect mode the
//! mirror of the real cluster's — before anything reaches a node.

use crate::error::Error;
use crate::lint::{LintConfig, Linter};
use crate::planner::QueryClass;
use crate::render::json::error_json;
use crate::syntax::script::ScriptStatement;

use super::{Reply, Shell};

/// The lint rule a refused scatter-gather query is named by.
pub const SCATTER_GATHER_RULE: &str = "scatter-gather";

/// What the gate decided for one statement.
pub(super) enum Gate {
    /// Send it, with these lines for standard error first (maybe none).
    Send(String),
    /// Do not send it.
    Refuse(Reply),
}

impl Shell {
    pub(super) fn gate(&self, source: &str, statement: &ScriptStatement) -> Gate {
        if !self.settings.lint_before_send && !self.settings.refuse_scatter_gather {
            return Gate::Send(String::new());
        }
        let Ok(plan) = self.session.plan(&statement.text) else {
            return Gate::Send(String::new());
        };
        let scatters = plan.class == QueryClass::ScatterGather;
        if !scatters && !plan.allow_filtering {
            return Gate::Send(String::new());
        }
        let findings = if self.settings.lint_before_send {
            self.findings(source, statement)
        } else {
            String::new()
        };
        if scatters && self.settings.refuse_scatter_gather {
            let mut reply = self.refusal(source, statement);
            reply.err.insert_str(0, &findings);
            return Gate::Refuse(reply);
        }
        Gate::Send(findings)
    }

    /// A query kept back: in JSON Lines an error record with the rule's
    /// name; for people, one line saying what was refused and why.
    fn refusal(&self, source: &str, statement: &ScriptStatement) -> Reply {
        let message = "Not sent: a scatter-gather query reads every node";
        let mut reply = if self.settings.format == super::Format::Json {
            let error = Error::invalid(message).as_refusal();
            let mut record = error_json(None, statement.line, &error, true);
            record["rule"] = SCATTER_GATHER_RULE.into();
            Reply::line(record.to_string())
        } else {
            let prefix = match self.settings.interactive {
                true => String::new(),
                false => format!("{source}:{}:", statement.line),
            };
            Reply::error(format!(
                "{prefix}{message} (--refuse scatter-gather; lint rule {SCATTER_GATHER_RULE})\n"
            ))
        };
        reply.failed = true;
        reply
    }

    /// The linter's findings for one statement, one line each, placed at
    /// the statement's own line in its script.
    fn findings(&self, source: &str, statement: &ScriptStatement) -> String {
        let mut linter =
            Linter::with_context(self.session.context().clone(), LintConfig::default());
        let mut findings = linter.lint_str(source, &statement.text);
        for finding in &mut findings {
            finding.location.line += statement.line - 1;
        }
        crate::lint::output::concise::render_all(&findings)
    }
}
