//! M005 `materialized-views`.

use super::super::{Finding, Level, Rule, StatementContext};
use super::finding;
use crate::syntax::ast::Statement;

/// `CREATE MATERIALIZED VIEW`: experimental, disabled by default in 5.0.
pub struct MaterializedViews;

impl Rule for MaterializedViews {
    fn name(&self) -> &'static str {
        "materialized-views"
    }
    fn code(&self) -> &'static str {
        "M005"
    }
    fn default_level(&self) -> Level {
        Level::Warning
    }
    fn summary(&self) -> &'static str {
        "materialized views are experimental and disabled by default in Cassandra 5.0"
    }
    fn documentation(&self) -> &'static str {
        "## What it does\n\nReports `CREATE MATERIALIZED VIEW`.\n\n\
         ## Why it matters on a cluster\n\nMaterialized views are marked experimental since Cassandra 3.11.2 \
         (CASSANDRA-13959) and disabled by default: a stock 5.0 node refuses the statement with `Materialized views \
         are disabled. Enable in cassandra.yaml to use.` (`materialized_views_enabled: false`; guardrail \
         `materialized_views_per_table_*`). The base table's replica updates the view asynchronously, with no \
         guarantee it ever converges: a view can silently miss or keep rows after node failures, and nothing repairs \
         the difference. Each base write also pays a local read-before-write and a batchlog write.\n\n\
         ## Example\n\n```cql\nCREATE MATERIALIZED VIEW users_by_email AS\n    SELECT * FROM users WHERE email IS NOT NULL \
         AND user_id IS NOT NULL\n    PRIMARY KEY (email, user_id);\n```\n\n\
         ## Instead\n\nA query table, written by the application alongside the base table (in a logged batch when \
         both must change together):\n\n```cql\nCREATE TABLE users_by_email (email text, user_id uuid, name text, \
         PRIMARY KEY (email, user_id));\n```\n\n\
         ## Options\n\nNone.\n\n## References\n\nCASSANDRA-13959 (views made experimental); Cassandra 5.0 \
         `cassandra.yaml`: `materialized_views_enabled`.\n"
    }
    fn check_statement(&self, cx: &StatementContext<'_>, out: &mut Vec<Finding>) {
        let Statement::CreateMaterializedView(view) = cx.statement else {
            return;
        };
        let mut f = finding(
            self,
            cx,
            view.name.span,
            format!(
                "materialized view {}: views are experimental and disabled by default in Cassandra 5.0",
                view.name.name.name
            ),
        );
        f.help = Some(format!(
            "create a table {} and write it alongside {} from the application",
            view.name.name.name, view.base.name.name
        ));
        out.push(f);
    }
}

#[cfg(test)]
mod tests {
    use crate::lint::{Level, LintConfig, Linter};

    #[test]
    fn views_are_reported() {
        let mut linter = Linter::new(LintConfig {
            select: vec!["M005".into()],
            ..Default::default()
        });
        let f = linter.lint_str(
            "t.cql",
            "CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'datacenter1': 3};\nUSE ks;\n\
             CREATE TABLE users (user_id uuid PRIMARY KEY, email text);\n\
             CREATE MATERIALIZED VIEW users_by_email AS SELECT * FROM users WHERE email IS NOT NULL AND user_id IS NOT NULL PRIMARY KEY (email, user_id);\n",
        );
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].name, "materialized-views");
        assert_eq!(f[0].code, "M005");
        assert_eq!(f[0].level, Level::Warning);
        assert_eq!(f[0].location.line, 4);
        assert_eq!(f[0].location.column, 26);
        assert!(f[0].message.contains("users_by_email"));
    }
}
