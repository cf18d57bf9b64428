//! E002 `invalid-statement`.

use crate::planner::ALLOW_FILTERING_MESSAGE;

use super::super::{Finding, Level, Rule, StatementContext};
use super::finding;

/// A statement Cassandra refuses for a reason no other rule explains (an
/// unknown table, a bad primary key, an ORDER BY Cassandra does not
/// support…). The driver reports it with Cassandra's message.
pub struct InvalidStatement;

impl Rule for InvalidStatement {
    fn name(&self) -> &'static str {
        "invalid-statement"
    }
    fn code(&self) -> &'static str {
        "E002"
    }
    fn default_level(&self) -> Level {
        Level::Error
    }
    fn summary(&self) -> &'static str {
        "Cassandra refuses the statement"
    }
    fn documentation(&self) -> &'static str {
        "## What it does\n\nReports a statement that parses but that Cassandra refuses, with Cassandra's exception and message.\n\n\
         ## Why it matters on a cluster\n\nThe statement fails every time it runs.\n\n\
         ## Example\n\n```cql\nSELECT * FROM t WHERE k = 1 ORDER BY v;\n```\n\n\
         ## Instead\n\nFollow the message: here, order only by clustering columns.\n\n\
         ## Options\n\nNone.\n\n## References\n\n`restrictions.md` §5.3, §6.\n"
    }
    /// Data statements reach rules with their refusal; the ALLOW FILTERING
    /// one is `allow-filtering-required`'s (Q001), every other is reported
    /// here.
    fn check_statement(&self, cx: &StatementContext<'_>, out: &mut Vec<Finding>) {
        let Some(Err(error)) = cx.plan else {
            return;
        };
        if error.message() == ALLOW_FILTERING_MESSAGE {
            return;
        }
        let span = error.span().unwrap_or(cx.statement.span());
        let message = format!("{}: {}", error.kind().name(), error.message());
        let mut f = finding(self, cx, span, message);
        f.help = error.help_text().map(str::to_string);
        out.push(f);
    }
}

#[cfg(test)]
mod tests {
    use crate::lint::{Finding, Level, LintConfig};

    const SCHEMA: &str = "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};
        USE ks;
        CREATE TABLE t (k int, c int, v int, PRIMARY KEY (k, c));";

    fn lint(query: &str) -> Vec<Finding> {
        let config = LintConfig {
            select: vec!["E002".into()],
            ..LintConfig::default()
        };
        super::super::testing::lint_after_schema(config, SCHEMA, query)
    }

    #[test]
    fn refused_data_statement_is_reported_at_the_error() {
        let query = "SELECT * FROM t WHERE k = 1 ORDER BY v;";
        let findings = lint(query);
        assert_eq!(findings.len(), 1, "{findings:?}");
        let f = &findings[0];
        assert_eq!(
            (f.name, f.code, f.level),
            ("invalid-statement", "E002", Level::Error)
        );
        assert!(f.message.starts_with("InvalidRequest: "), "{}", f.message);
        let unknown = lint("SELECT * FROM nope WHERE k = 1;");
        assert_eq!(unknown.len(), 1);
        assert!(
            unknown[0].message.contains("nope"),
            "{}",
            unknown[0].message
        );
    }

    #[test]
    fn accepted_and_allow_filtering_refusals_are_not_reported_here() {
        assert!(lint("SELECT * FROM t WHERE k = 1;").is_empty());
        assert!(lint("SELECT * FROM t WHERE v = 1;").is_empty());
    }
}
