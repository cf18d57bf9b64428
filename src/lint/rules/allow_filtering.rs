//! Q002 `allow-filtering`.

use crate::planner::QueryClass;
use crate::syntax::ast::Statement;
use crate::syntax::span::Span;

use super::super::{Finding, Level, Rule, StatementContext};
use super::finding;

/// A query given ALLOW FILTERING that really filters or scans.
pub struct AllowFiltering;

impl Rule for AllowFiltering {
    fn name(&self) -> &'static str {
        "allow-filtering"
    }
    fn code(&self) -> &'static str {
        "Q002"
    }
    fn default_level(&self) -> Level {
        Level::Warning
    }
    fn summary(&self) -> &'static str {
        "a query uses ALLOW FILTERING to read rows and discard them, or to scan the table"
    }
    fn documentation(&self) -> &'static str {
        "## What it does\n\n\
         Reports a SELECT written with `ALLOW FILTERING` whose plan actually filters (rows are \
         read and then checked against restrictions no key or index serves) or scans the \
         table (no fixed partition key and no index). A query where `ALLOW FILTERING` changes \
         nothing (every restriction is served by the key) is not reported.\n\n\
         ## Why it matters on a cluster\n\n\
         `ALLOW FILTERING` exists for exploring data by hand. On a request path its cost grows \
         with the data scanned, not with the rows returned: over the whole table it asks every \
         node to read every partition it owns; within one partition it reads the whole \
         partition to return a few rows. The query gets slower as the table grows, and can \
         time out or hit `tombstone_failure_threshold`.\n\n\
         ## Example\n\n\
         ```cql\nSELECT * FROM users WHERE email = 'ada@example.com' ALLOW FILTERING;\n```\n\n\
         ## Instead\n\n\
         A table whose primary key answers the question, written alongside the original:\n\n\
         ```cql\nCREATE TABLE users_by_email (email text, user_id uuid, country text,\n    \
         PRIMARY KEY (email, user_id));\n\
         SELECT * FROM users_by_email WHERE email = 'ada@example.com';\n```\n\n\
         A key of few values (`country`) would make each value a hot partition \
         (`hot-partition`, M002): no query table is suggested for such a query unless it \
         also fixes a column of many values, or bounds a time range to bucket by.\n\n\
         ## Options\n\nNone.\n\n\
         ## References\n\n\
         Cassandra guardrail `allow_filtering_enabled`; `reference/restrictions.md` §5; \
         DataStax, *ALLOW FILTERING explained*.\n"
    }
    fn check_statement(&self, cx: &StatementContext<'_>, out: &mut Vec<Finding>) {
        let (Statement::Select(select), Some(Ok(plan))) = (cx.statement, cx.plan) else {
            return;
        };
        if !select.allow_filtering {
            return;
        }
        let scan = plan.class == QueryClass::ScatterGather && plan.index.is_none();
        if plan.filters.is_empty() && !scan {
            return;
        }
        let filter = plan.filters.join(" AND ");
        let nodes = match plan.nodes.len() {
            1 => "1 node".to_string(),
            n => format!("{n} nodes"),
        };
        let message = match (plan.class == QueryClass::ScatterGather, filter.is_empty()) {
            (true, true) => format!(
                "ALLOW FILTERING scans every partition of {} on {nodes}",
                plan.table
            ),
            (true, false) => format!(
                "ALLOW FILTERING scans every partition of {} on {nodes} and keeps only the rows where {filter}",
                plan.table
            ),
            (false, _) => format!(
                "ALLOW FILTERING reads whole partitions of {} and keeps only the rows where {filter}",
                plan.table
            ),
        };
        let span = allow_filtering_span(&cx.source.text, select.span).unwrap_or(select.span);
        let mut f = finding(self, cx, span, message);
        f.help = Some(
            "the cost grows with the data scanned, not the rows returned: serve this query from a table keyed by the restricted columns"
                .into(),
        );
        super::allow_filtering_required::with_suggestion(cx, &mut f);
        out.push(f);
    }
}

/// The `ALLOW FILTERING` words at the end of a SELECT spanning `within`.
fn allow_filtering_span(text: &str, within: Span) -> Option<Span> {
    let lower = text.get(..within.end.min(text.len()))?.to_ascii_lowercase();
    let filtering = lower.rfind("filtering")?;
    let allow = lower.get(..filtering)?.rfind("allow")?;
    (allow >= within.start).then(|| Span::new(allow, filtering + "filtering".len()))
}

#[cfg(test)]
mod tests {
    use crate::lint::{Finding, Level, LintConfig};

    const SCHEMA: &str = "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};
        USE ks;
        CREATE TABLE users (user_id uuid PRIMARY KEY, email text, country text);
        CREATE TABLE events (k int, c int, v int, PRIMARY KEY (k, c));";

    fn lint(query: &str) -> Vec<Finding> {
        let config = LintConfig {
            select: vec!["Q002".into()],
            ..LintConfig::default()
        };
        super::super::testing::lint_after_schema(config, SCHEMA, query)
    }

    #[test]
    fn filtered_scan_is_reported_at_allow_filtering() {
        let query = "SELECT * FROM users WHERE country = 'TW' allow  Filtering;";
        let findings = lint(query);
        assert_eq!(findings.len(), 1);
        let f = &findings[0];
        assert_eq!(
            (f.name, f.code, f.level),
            ("allow-filtering", "Q002", Level::Warning)
        );
        assert!(
            f.message.contains("scans every partition of ks.users"),
            "{}",
            f.message
        );
        assert!(f.message.contains("country = 'TW'"), "{}", f.message);
        assert_eq!(&query[f.span.start..f.span.end], "allow  Filtering");
        let suggestion = f.suggestion.as_deref().unwrap_or_default();
        assert!(suggestion.contains("CREATE TABLE ks."), "{suggestion}");
    }

    #[test]
    fn full_scan_and_partition_filter_are_reported() {
        let scan = lint("SELECT * FROM events ALLOW FILTERING;");
        assert_eq!(scan.len(), 1);
        assert!(scan[0].message.contains("scans every partition"));
        let within = lint("SELECT * FROM events WHERE k = 1 AND v = 2 ALLOW FILTERING;");
        assert_eq!(within.len(), 1);
        assert!(
            within[0].message.contains("reads whole partitions"),
            "{}",
            within[0].message
        );
    }

    #[test]
    fn needless_or_absent_allow_filtering_is_not_reported() {
        assert!(lint("SELECT * FROM events WHERE k = 1 AND c = 2 ALLOW FILTERING;").is_empty());
        assert!(lint("SELECT * FROM events WHERE k = 1;").is_empty());
        assert!(lint("SELECT * FROM users WHERE country = 'TW';").is_empty());
    }
}
