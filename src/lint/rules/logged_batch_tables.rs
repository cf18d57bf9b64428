//! W002 `logged-batch-tables`.

use crate::syntax::ast::{BatchKind, BatchStatement, Statement};
use crate::syntax::span::Span;

use super::super::{Finding, Level, Rule, StatementContext};
use super::finding;

/// The default of the `threshold` option.
const DEFAULT_THRESHOLD: u64 = 2;

/// A logged batch over many tables.
pub struct LoggedBatchTables;

impl Rule for LoggedBatchTables {
    fn name(&self) -> &'static str {
        "logged-batch-tables"
    }
    fn code(&self) -> &'static str {
        "W002"
    }
    fn default_level(&self) -> Level {
        Level::Info
    }
    fn summary(&self) -> &'static str {
        "a logged batch writes more tables than the threshold"
    }
    fn documentation(&self) -> &'static str {
        "## What it does\n\n\
         Counts the tables a logged batch (`BEGIN BATCH`) writes and reports more than the \
         threshold (default 2: an entity and one denormalized copy, the common case, pass).\n\n\
         The level is **info**: keeping several query tables of one entity in step is what a \
         logged batch is for, so the finding asks for a second look rather than a change.\n\n\
         ## Why it matters on a cluster\n\n\
         Every table written is (usually) another partition with its own replica set: the \
         coordinator first writes the batchlog to other nodes, then waits on every replica set. \
         The more tables, the larger the batch, the more nodes it waits on and the likelier it \
         is to cross `batch_size_warn_threshold`; a logged batch is atomic, not isolated, so \
         readers may still see some tables updated before others.\n\n\
         ## Example\n\n\
         ```cql\nBEGIN BATCH\n  INSERT INTO orders_by_id (…) VALUES (…);\n  \
         INSERT INTO orders_by_user (…) VALUES (…);\n  INSERT INTO orders_by_status (…) VALUES (…);\n\
         APPLY BATCH;\n```\n\n\
         ## Instead\n\n\
         Keep in the batch only the copies that must change together; write the others \
         separately (asynchronously), or derive them (a materialized view, with its known \
         caveats, or a change-data-capture consumer).\n\n\
         ## Options\n\n\
         - `threshold` (default 2): the largest number of tables a logged batch may write \
         without a finding.\n\n\
         ## References\n\n\
         `cassandra.yaml`: `batch_size_warn_threshold`, `batchlog_replay_throttle`; Apache \
         Cassandra documentation, *BATCH*; `examples/orders.cql`.\n"
    }
    fn check_statement(&self, cx: &StatementContext<'_>, out: &mut Vec<Finding>) {
        let Statement::Batch(batch) = cx.statement else {
            return;
        };
        if batch.kind != BatchKind::Logged {
            return;
        }
        let threshold = cx
            .config
            .option_u64(self.name(), "threshold", DEFAULT_THRESHOLD);
        let mut tables: Vec<String> = Vec::new();
        for statement in &batch.statements {
            let name = match statement {
                BatchStatement::Insert(s) => &s.table,
                BatchStatement::Update(s) => &s.table,
                BatchStatement::Delete(s) => &s.table,
            };
            let Ok(table) = cx
                .planner
                .catalog
                .resolve_table(cx.planner.keyspace.as_deref(), name)
            else {
                continue;
            };
            let name = table.qualified_name();
            if !tables.contains(&name) {
                tables.push(name);
            }
        }
        if tables.len() as u64 <= threshold {
            return;
        }
        let lower = cx.source.text.to_ascii_lowercase();
        let span = lower
            .get(batch.span.start..batch.span.end.min(lower.len()))
            .and_then(|s| s.find("batch"))
            .map_or(batch.span, |at| {
                Span::new(batch.span.start, batch.span.start + at + "batch".len())
            });
        let message = format!(
            "logged batch writes {} tables ({}), more than {threshold}: a batchlog write, then every table's replica set",
            tables.len(),
            tables.join(", ")
        );
        let mut f = finding(self, cx, span, message);
        f.help = Some(
            "keep in the batch only the copies that must change together; write the others separately"
                .into(),
        );
        out.push(f);
    }
}

#[cfg(test)]
mod tests {
    use crate::lint::{Finding, Level, LintConfig};

    const SCHEMA: &str = "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};
        USE ks;
        CREATE TABLE a (k int PRIMARY KEY, v int);
        CREATE TABLE b (k int PRIMARY KEY, v int);
        CREATE TABLE c (k int PRIMARY KEY, v int);";

    fn lint(query: &str) -> Vec<Finding> {
        let config = LintConfig {
            select: vec!["W002".into()],
            ..LintConfig::default()
        };
        super::super::testing::lint_after_schema(config, SCHEMA, query)
    }

    #[test]
    fn logged_batch_over_three_tables_is_reported() {
        let query = "BEGIN BATCH INSERT INTO a (k, v) VALUES (1, 1); INSERT INTO b (k, v) VALUES (1, 1); UPDATE c SET v = 1 WHERE k = 1; APPLY BATCH;";
        let findings = lint(query);
        assert_eq!(findings.len(), 1);
        let f = &findings[0];
        assert_eq!(
            (f.name, f.code, f.level),
            ("logged-batch-tables", "W002", Level::Info)
        );
        assert!(
            f.message
                .starts_with("logged batch writes 3 tables (ks.a, ks.b, ks.c), more than 2"),
            "{}",
            f.message
        );
        assert_eq!(&query[f.span.start..f.span.end], "BEGIN BATCH");
    }

    #[test]
    fn two_tables_or_unlogged_batches_are_not_reported() {
        assert!(lint("BEGIN BATCH INSERT INTO a (k, v) VALUES (1, 1); INSERT INTO b (k, v) VALUES (1, 1); APPLY BATCH;").is_empty());
        assert!(lint("BEGIN UNLOGGED BATCH INSERT INTO a (k, v) VALUES (1, 1); INSERT INTO b (k, v) VALUES (1, 1); INSERT INTO c (k, v) VALUES (1, 1); APPLY BATCH;").is_empty());
    }
}
