//! Q001 `allow-filtering-required`.

use crate::planner::ALLOW_FILTERING_MESSAGE;
use crate::syntax::ast::Statement;

use super::super::{Finding, Level, Rule, StatementContext};
use super::finding;

/// A query Cassandra refuses because it would need ALLOW FILTERING.
pub struct AllowFilteringRequired;

impl Rule for AllowFilteringRequired {
    fn name(&self) -> &'static str {
        "allow-filtering-required"
    }
    fn code(&self) -> &'static str {
        "Q001"
    }
    fn default_level(&self) -> Level {
        Level::Error
    }
    fn summary(&self) -> &'static str {
        "Cassandra refuses the query unless it is given ALLOW FILTERING"
    }
    fn documentation(&self) -> &'static str {
        "## What it does\n\n\
         Reports a SELECT that Cassandra refuses with its ALLOW FILTERING message: \
         the restrictions cannot be served by the partition key, a clustering prefix or an \
         index, so answering would mean reading rows and discarding those that do not match. \
         The finding's message is Cassandra's own text, and it points at the restriction the \
         planner blames.\n\n\
         ## Why it matters on a cluster\n\n\
         The query fails every time it runs. Adding `ALLOW FILTERING` makes it run, but as a \
         scan whose cost grows with the data read rather than with the rows returned \
         (see `allow-filtering`, Q002).\n\n\
         ## Example\n\n\
         ```cql\nCREATE TABLE users (user_id uuid PRIMARY KEY, email text, country text);\n\
         SELECT * FROM users WHERE email = 'ada@example.com';\n```\n\n\
         ## Instead\n\n\
         Serve the query from a table keyed by the columns it restricts, written alongside the \
         original:\n\n\
         ```cql\nCREATE TABLE users_by_email (email text, user_id uuid, country text,\n    \
         PRIMARY KEY (email, user_id));\n\
         SELECT * FROM users_by_email WHERE email = 'ada@example.com';\n```\n\n\
         A key of few values (`country`) would make each value a hot partition \
         (`hot-partition`, M002): no query table is suggested for such a query unless it \
         also fixes a column of many values, or bounds a time range to bucket by.\n\n\
         When a query-table suggestion can be derived, the finding carries it.\n\n\
         ## Options\n\nNone.\n\n\
         ## References\n\n\
         `reference/restrictions.md` §5.1; Cassandra's `StatementRestrictions` \
         (`REQUIRES_ALLOW_FILTERING_MESSAGE`); DataStax, *Best practices for data modeling*.\n"
    }
    fn check_statement(&self, cx: &StatementContext<'_>, out: &mut Vec<Finding>) {
        let Some(Err(error)) = cx.plan else {
            return;
        };
        if error.message() != ALLOW_FILTERING_MESSAGE {
            return;
        }
        let span = error.span().unwrap_or(cx.statement.span());
        let mut f = finding(self, cx, span, error.message());
        let mut help = String::new();
        if let Some(label) = error.label() {
            help.push_str(label);
            help.push_str("; ");
        }
        help.push_str(error.help_text().unwrap_or(
            "restrict the full partition key, or serve this query from a table keyed by these columns",
        ));
        f.help = Some(help);
        with_suggestion(cx, &mut f);
        out.push(f);
    }
}

/// Sets the finding's help and suggestion to a query table serving the
/// SELECT, when one can be derived (Q001, Q002, Q003).
pub(super) fn with_suggestion(cx: &StatementContext<'_>, f: &mut Finding) {
    let Statement::Select(select) = cx.statement else {
        return;
    };
    if let Some(s) = cx.suggestion(select) {
        if s.has_design() {
            f.suggestion = Some(s.script());
        }
        f.help = Some(s.help);
    }
}

#[cfg(test)]
mod tests {
    use crate::lint::{Finding, Level, LintConfig};
    use crate::planner::ALLOW_FILTERING_MESSAGE;

    const SCHEMA: &str = "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};
        USE ks;
        CREATE TABLE users (user_id uuid PRIMARY KEY, email text, country text);";

    fn lint(query: &str) -> Vec<Finding> {
        let config = LintConfig {
            select: vec!["Q001".into()],
            ..LintConfig::default()
        };
        super::super::testing::lint_after_schema(config, SCHEMA, query)
    }

    #[test]
    fn refused_query_gets_cassandras_message_at_the_restriction() {
        let query = "SELECT * FROM users WHERE country = 'TW';";
        let findings = lint(query);
        assert_eq!(findings.len(), 1);
        let f = &findings[0];
        assert_eq!(
            (f.name, f.code, f.level),
            ("allow-filtering-required", "Q001", Level::Error)
        );
        assert_eq!(f.message, ALLOW_FILTERING_MESSAGE);
        assert_eq!(&query[f.span.start..f.span.end], "country = 'TW'");
        assert_eq!(f.location.column, 27);
        let suggestion = f.suggestion.as_deref().unwrap_or_default();
        assert!(suggestion.contains("CREATE TABLE ks."), "{suggestion}");
        assert!(suggestion.contains("country = 'TW'"), "{suggestion}");
        assert!(f.help.is_some());
    }

    #[test]
    fn without_a_query_table_the_help_explains_the_refusal() {
        // A range over the partition key: no query table is derived.
        let findings = lint("SELECT * FROM users WHERE token(user_id) > 0 AND country > 'A';");
        assert_eq!(findings.len(), 1, "{findings:?}");
        assert!(findings[0].suggestion.is_none());
        let help = findings[0].help.as_deref().unwrap_or_default();
        assert!(help.contains("partition key"), "{help}");
    }

    #[test]
    fn accepted_queries_and_other_refusals_are_not_reported() {
        assert!(
            lint("SELECT * FROM users WHERE user_id = 550e8400-e29b-41d4-a716-446655440000;")
                .is_empty()
        );
        assert!(lint("SELECT * FROM users WHERE country = 'TW' ALLOW FILTERING;").is_empty());
        assert!(lint("SELECT * FROM nope WHERE country = 'TW';").is_empty());
    }
}
