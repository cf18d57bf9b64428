//! Q003 `scatter-gather`.

use crate::planner::{Partitions, QueryClass};
use crate::syntax::ast::Statement;

use super::super::{Finding, Level, Rule, StatementContext};
use super::finding;

/// A query with no fixed partition key.
pub struct ScatterGather;

impl Rule for ScatterGather {
    fn name(&self) -> &'static str {
        "scatter-gather"
    }
    fn code(&self) -> &'static str {
        "Q003"
    }
    fn default_level(&self) -> Level {
        Level::Warning
    }
    fn summary(&self) -> &'static str {
        "a query fixes no partition key, so the coordinator asks many nodes"
    }
    fn documentation(&self) -> &'static str {
        "## What it does\n\n\
         Reports a SELECT whose plan is `scatter-gather`: no partition key is fixed, so the \
         coordinator sends the read to every node owning a token range of the table (or of the \
         `token(…)` range given). This is the case for a full scan, a filtered scan with \
         `ALLOW FILTERING`, a token range, and a secondary-index query that does not name the \
         partition. The message names the nodes the query would touch.\n\n\
         ## Why it matters on a cluster\n\n\
         A single-partition read asks one replica set; a scatter-gather read asks the whole \
         ring, and is as slow as the slowest node. Its latency and load grow with the cluster, \
         and one busy or down node slows every such query.\n\n\
         ## Example\n\n\
         ```cql\nCREATE TABLE users (user_id uuid PRIMARY KEY, email text);\n\
         CREATE INDEX ON users (email);\n\
         SELECT * FROM users WHERE email = 'alice@example.com';\n```\n\n\
         ## Instead\n\n\
         A table keyed by what the query looks up, so one partition answers it:\n\n\
         ```cql\nCREATE TABLE users_by_email (email text PRIMARY KEY, user_id uuid);\n\
         SELECT user_id FROM users_by_email WHERE email = 'alice@example.com';\n```\n\n\
         Token-range reads by an analytics job (Spark, `dsbulk`) are the intended use: suppress \
         the finding there.\n\n\
         ## Options\n\nNone.\n\n\
         ## References\n\n\
         `DESIGN.md`, query classes; Apache Cassandra documentation, *Data modeling: \
         refining the model*; the column-family modelling method.\n"
    }
    fn check_statement(&self, cx: &StatementContext<'_>, out: &mut Vec<Finding>) {
        let (Statement::Select(select), Some(Ok(plan))) = (cx.statement, cx.plan) else {
            return;
        };
        if plan.class != QueryClass::ScatterGather {
            return;
        }
        let how = match (&plan.partitions, &plan.index) {
            (_, Some(index)) => format!(" through index {index}"),
            (Partitions::TokenRange { .. }, None) => " over a token range".to_string(),
            _ => String::new(),
        };
        let message = format!(
            "no fixed partition key: the read of {}{how} goes to {} node{} ({})",
            plan.table,
            plan.nodes.len(),
            if plan.nodes.len() == 1 { "" } else { "s" },
            plan.nodes.join(", ")
        );
        let mut f = finding(self, cx, select.from.span, message);
        f.help = Some(
            "restrict the full partition key by = or IN, or serve this query from a table keyed by what it looks up"
                .into(),
        );
        super::allow_filtering_required::with_suggestion(cx, &mut f);
        out.push(f);
    }
}

#[cfg(test)]
mod tests {
    use crate::lint::{Finding, Level, LintConfig};

    const SCHEMA: &str = "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};
        USE ks;
        CREATE TABLE users (user_id int PRIMARY KEY, email text, country text);
        CREATE INDEX users_email_idx ON users (email);";

    fn lint(query: &str) -> Vec<Finding> {
        let config = LintConfig {
            select: vec!["scatter-gather".into()],
            ..LintConfig::default()
        };
        super::super::testing::lint_after_schema(config, SCHEMA, query)
    }

    #[test]
    fn index_query_without_partition_names_its_nodes() {
        let query = "SELECT * FROM users WHERE email = 'a@b.c';";
        let findings = lint(query);
        assert_eq!(findings.len(), 1);
        let f = &findings[0];
        assert_eq!(
            (f.name, f.code, f.level),
            ("scatter-gather", "Q003", Level::Warning)
        );
        assert!(
            f.message.contains("through index users_email_idx"),
            "{}",
            f.message
        );
        assert!(f.message.contains("node"), "{}", f.message);
        assert_eq!(&query[f.span.start..f.span.end], "users");
        let suggestion = f.suggestion.as_deref().unwrap_or_default();
        assert!(suggestion.contains("CREATE TABLE ks."), "{suggestion}");
    }

    #[test]
    fn scans_and_token_ranges_are_reported() {
        let scan = lint("SELECT * FROM users;");
        assert_eq!(scan.len(), 1);
        assert!(scan[0]
            .message
            .starts_with("no fixed partition key: the read of ks.users goes to"));
        let range = lint("SELECT * FROM users WHERE token(user_id) > 0;");
        assert_eq!(range.len(), 1);
        assert!(
            range[0].message.contains("over a token range"),
            "{}",
            range[0].message
        );
    }

    #[test]
    fn partition_reads_are_not_reported() {
        assert!(lint("SELECT * FROM users WHERE user_id = 1;").is_empty());
        assert!(lint("SELECT * FROM users WHERE user_id IN (1, 2);").is_empty());
        assert!(lint("SELECT * FROM users WHERE country = 'TW';").is_empty());
    }
}
