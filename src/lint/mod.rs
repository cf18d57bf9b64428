//! The linter: rules over a schema and the queries run against it, found
//! from the schema and the queries alone — no data, no executor.
//!
//! Each rule lives in its own file under [`rules`], with its documentation
//! (what it does, why it matters on a cluster, an example, what to do
//! instead) and a stable name and code. A [`Linter`] holds the schema (a
//! planning context) and the configuration; it reads `.cql` text statement
//! by statement, applies schema statements, plans the others, and asks every
//! enabled rule about each. Findings are plain data that renderers turn into
//! text, JSON, SARIF or CI annotations.

pub mod config;
mod finding;
mod linter;
pub mod output;
pub mod rules;
pub mod suggest;
mod suppress;

pub use config::LintConfig;
pub use finding::{Finding, Level, Location};
pub use linter::Linter;
pub use suppress::Suppressions;

use crate::error::Error;
use crate::planner::{Plan, PlanContext};
use crate::syntax::ast::Statement;
use crate::syntax::script::ScriptStatement;

/// What a rule sees of one statement.
pub struct StatementContext<'a> {
    /// The schema and cluster the statement is planned against (after the
    /// schema statements before it in the files).
    pub planner: &'a PlanContext,
    /// The statement.
    pub statement: &'a Statement,
    /// The file it is in.
    pub file: &'a str,
    /// Its text and position in its file.
    pub source: &'a ScriptStatement,
    /// The plan, or the refusal, for data statements; `None` for schema
    /// statements (also for one the catalog refused: the catalog is then
    /// unchanged).
    pub plan: Option<&'a Result<Plan, Error>>,
    /// The configuration (rule options).
    pub config: &'a LintConfig,
    /// Suggestions worked out so far (see [`StatementContext::suggestion`]).
    pub suggestions: &'a suggest::SuggestionCache,
    /// Schema statements applied so far.
    pub generation: usize,
}

impl StatementContext<'_> {
    fn key(&self) -> suggest::SuggestionKey<'_> {
        suggest::SuggestionKey {
            file: self.file,
            offset: self.source.offset,
            generation: self.generation,
        }
    }

    /// The query table that would serve this SELECT as a single-partition
    /// read, when the query needs one.
    pub fn suggestion(&self, select: &crate::syntax::ast::Select) -> Option<suggest::Suggestion> {
        match self.plan {
            Some(Ok(plan)) if plan.class != crate::planner::QueryClass::ScatterGather => None,
            Some(_) => self
                .suggestions
                .get_needed(self.key(), self.planner, select, self.config),
            None => self
                .suggestions
                .get(self.key(), self.planner, select, self.config),
        }
    }
}

/// A statement read, with the file and place it came from.
#[derive(Debug, Clone)]
pub struct ReadStatement {
    /// The file (as given, or `<stdin>`).
    pub file: String,
    /// Its text and position.
    pub source: ScriptStatement,
    /// The statement.
    pub statement: Statement,
    /// For a data statement: the number of schema statements applied when
    /// it was planned, and its class (`None` when refused). Rules that run
    /// at the end reuse it while the schema is still the same.
    pub planned: Option<(usize, Option<crate::planner::QueryClass>)>,
}

/// What a rule sees once the whole schema is known.
pub struct SchemaContext<'a> {
    /// The schema and cluster.
    pub planner: &'a PlanContext,
    /// Every schema statement read.
    pub statements: &'a [ReadStatement],
    /// Every data statement read.
    pub queries: &'a [ReadStatement],
    /// The configuration (rule options).
    pub config: &'a LintConfig,
    /// Suggestions worked out so far.
    pub suggestions: &'a suggest::SuggestionCache,
    /// Schema statements applied in all.
    pub generation: usize,
}

/// A lint rule. Implement it to add a rule of your own (see
/// `examples/custom_rule.rs`).
pub trait Rule: Send + Sync {
    /// Stable kebab-case name, following Cassandra's guardrail vocabulary
    /// where one exists.
    fn name(&self) -> &'static str;
    /// Stable code with a category prefix (Q queries, M data model,
    /// K keyspaces and replication, W writes and batches, S suppressions);
    /// never renumbered.
    fn code(&self) -> &'static str;
    /// The level findings get unless configured otherwise.
    fn default_level(&self) -> Level;
    /// One line: what the rule finds.
    fn summary(&self) -> &'static str;
    /// The rule's documentation in Markdown: What it does / Why it matters
    /// on a cluster / Example / Instead / Options / References.
    fn documentation(&self) -> &'static str;
    /// Looks at one statement.
    fn check_statement(&self, _cx: &StatementContext<'_>, _out: &mut Vec<Finding>) {}
    /// Looks at the whole schema and every query, once all are read.
    fn check_schema(&self, _cx: &SchemaContext<'_>, _out: &mut Vec<Finding>) {}
}
