//! W003 `user-timestamps`.

use crate::syntax::ast::{BatchStatement, Statement, UsingItem};
use crate::syntax::span::Span;

use super::super::{Finding, Level, Rule, StatementContext};
use super::finding;

/// A write that brings its own timestamp.
pub struct UserTimestamps;

impl Rule for UserTimestamps {
    fn name(&self) -> &'static str {
        "user-timestamps"
    }
    fn code(&self) -> &'static str {
        "W003"
    }
    fn default_level(&self) -> Level {
        Level::Warning
    }
    fn summary(&self) -> &'static str {
        "a write sets its own timestamp with USING TIMESTAMP"
    }
    fn documentation(&self) -> &'static str {
        "## What it does\n\n\
         Reports every `USING TIMESTAMP` on an INSERT, UPDATE, DELETE or BATCH (on the batch \
         or on a statement inside it).\n\n\
         ## Why it matters on a cluster\n\n\
         Cassandra resolves concurrent writes by timestamp: the highest wins, cell by cell. A \
         timestamp chosen by the client replaces the coordinator's clock, so a wrong unit \
         (milliseconds for microseconds), a skewed client clock or a timestamp in the future \
         silently makes later writes and deletes lose — a row that cannot be updated or \
         deleted until the clock catches up. Mixing client and server timestamps on one \
         table makes the outcome depend on who wrote.\n\n\
         ## Example\n\n\
         ```cql\nUPDATE users USING TIMESTAMP 1717228800000 SET name = 'a' WHERE user_id = 1;\n```\n\n\
         ## Instead\n\n\
         Let the coordinator assign timestamps (or the driver's monotonic timestamp generator, \
         consistently for the table). Use lightweight transactions (`IF …`) for \
         read-modify-write, not hand-made timestamps. Suppress the finding where a migration \
         or replay deliberately keeps original write times.\n\n\
         ## Options\n\nNone.\n\n\
         ## References\n\n\
         Cassandra guardrail `user_timestamps_enabled` (`cassandra.yaml`, 4.1+); Apache \
         Cassandra documentation, *Data manipulation: update parameters*.\n"
    }
    fn check_statement(&self, cx: &StatementContext<'_>, out: &mut Vec<Finding>) {
        match cx.statement {
            Statement::Insert(s) => self.check(cx, "INSERT", &s.using, out),
            Statement::Update(s) => self.check(cx, "UPDATE", &s.using, out),
            Statement::Delete(s) => self.check(cx, "DELETE", &s.using, out),
            Statement::Batch(batch) => {
                self.check(cx, "BATCH", &batch.using, out);
                for statement in &batch.statements {
                    match statement {
                        BatchStatement::Insert(s) => self.check(cx, "INSERT", &s.using, out),
                        BatchStatement::Update(s) => self.check(cx, "UPDATE", &s.using, out),
                        BatchStatement::Delete(s) => self.check(cx, "DELETE", &s.using, out),
                    }
                }
            }
            _ => {}
        }
    }
}

impl UserTimestamps {
    fn check(
        &self,
        cx: &StatementContext<'_>,
        what: &str,
        using: &[UsingItem],
        out: &mut Vec<Finding>,
    ) {
        for item in using {
            let UsingItem::Timestamp(term) = item else {
                continue;
            };
            let span = keyword_before(&cx.source.text, term.span.start)
                .map_or(term.span, |start| Span::new(start, term.span.end));
            let message = format!(
                "{what} sets its own write timestamp (USING TIMESTAMP {term}): the client's clock decides which write wins"
            );
            let mut f = finding(self, cx, span, message);
            f.help = Some(
                "let the coordinator assign timestamps; use IF conditions for read-modify-write"
                    .into(),
            );
            out.push(f);
        }
    }
}

/// Where the `TIMESTAMP` keyword before `at` starts.
fn keyword_before(text: &str, at: usize) -> Option<usize> {
    text.get(..at)?.to_ascii_lowercase().rfind("timestamp")
}

#[cfg(test)]
mod tests {
    use crate::lint::{Finding, Level, LintConfig};

    const SCHEMA: &str = "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};
        USE ks;
        CREATE TABLE users (user_id int PRIMARY KEY, name text);";

    fn lint(query: &str) -> Vec<Finding> {
        let config = LintConfig {
            select: vec!["W003".into()],
            ..LintConfig::default()
        };
        super::super::testing::lint_after_schema(config, SCHEMA, query)
    }

    #[test]
    fn using_timestamp_is_reported_on_every_write() {
        let query = "UPDATE users USING TTL 10 AND timestamp 1717228800000 SET name = 'a' WHERE user_id = 1;";
        let findings = lint(query);
        assert_eq!(findings.len(), 1);
        let f = &findings[0];
        assert_eq!(
            (f.name, f.code, f.level),
            ("user-timestamps", "W003", Level::Warning)
        );
        assert!(
            f.message.starts_with("UPDATE sets its own write timestamp"),
            "{}",
            f.message
        );
        assert_eq!(&query[f.span.start..f.span.end], "timestamp 1717228800000");
        assert_eq!(
            lint("INSERT INTO users (user_id) VALUES (1) USING TIMESTAMP ?;").len(),
            1
        );
        assert_eq!(
            lint("DELETE FROM users USING TIMESTAMP 1 WHERE user_id = 1;").len(),
            1
        );
        let batch = lint(
            "BEGIN BATCH USING TIMESTAMP 5 INSERT INTO users (user_id) VALUES (1); APPLY BATCH;",
        );
        assert_eq!(batch.len(), 1);
        assert!(batch[0].message.starts_with("BATCH"));
    }

    #[test]
    fn writes_without_timestamps_are_not_reported() {
        assert!(lint("INSERT INTO users (user_id, name) VALUES (1, 'a') USING TTL 60;").is_empty());
        assert!(lint("SELECT writetime(name) FROM users WHERE user_id = 1;").is_empty());
    }
}
