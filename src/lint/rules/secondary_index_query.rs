//! Q004 `secondary-index-query`.

use crate::planner::QueryClass;
use crate::syntax::ast::{RelationKind, Statement};

use super::super::{Finding, Level, Rule, StatementContext};
use super::finding;

/// A query served by a secondary index.
pub struct SecondaryIndexQuery;

impl Rule for SecondaryIndexQuery {
    fn name(&self) -> &'static str {
        "secondary-index-query"
    }
    fn code(&self) -> &'static str {
        "Q004"
    }
    fn default_level(&self) -> Level {
        Level::Info
    }
    fn summary(&self) -> &'static str {
        "a query is served by a secondary index"
    }
    fn documentation(&self) -> &'static str {
        "## What it does\n\n\
         Reports a SELECT the planner serves through a secondary index (legacy 2i, SASI or \
         SAI), pointing at the restriction on the indexed column. The message says whether \
         the index is read within one partition or on every node.\n\n\
         The level is **info**: an index read within a known partition is cheap and a \
         legitimate use, and an index read that fixes no partition is already reported as a \
         warning by `scatter-gather` (Q003). Raise this rule to `warning` to review every \
         index read.\n\n\
         ## Why it matters on a cluster\n\n\
         Secondary indexes are local: each node indexes only its own rows. Without a partition \
         key the coordinator must ask every node's index, and a high-cardinality column \
         (an email, an id) makes that a whole-ring read for one row. Indexes suit \
         low-cardinality columns and small results, ideally read within a known partition.\n\n\
         ## Example\n\n\
         ```cql\nCREATE INDEX users_email_idx ON users (email);\n\
         SELECT * FROM users WHERE email = 'alice@example.com';\n```\n\n\
         ## Instead\n\n\
         A lookup table written alongside the base table:\n\n\
         ```cql\nCREATE TABLE users_by_email (email text PRIMARY KEY, user_id uuid);\n```\n\n\
         or restrict the partition key too, so the index is read in one partition.\n\n\
         ## Options\n\nNone.\n\n\
         ## References\n\n\
         Cassandra guardrail `secondary_indexes_enabled`; Apache Cassandra documentation, \
         *Secondary indexes* and *Storage-attached indexing*; the column-family modelling method.\n"
    }
    fn check_statement(&self, cx: &StatementContext<'_>, out: &mut Vec<Finding>) {
        let (Statement::Select(select), Some(Ok(plan))) = (cx.statement, cx.plan) else {
            return;
        };
        let Some(index) = &plan.index else {
            return;
        };
        let column = cx
            .planner
            .catalog
            .resolve_table(cx.planner.keyspace.as_deref(), &select.from)
            .ok()
            .and_then(|t| t.indexes.iter().find(|i| &i.name == index))
            .map(|i| i.column.clone());
        let span = column
            .as_deref()
            .and_then(|column| {
                select
                    .where_clause
                    .iter()
                    .find(|r| relation_column(&r.kind) == Some(column))
            })
            .map_or(select.from.span, |r| r.span);
        let message = if plan.class == QueryClass::ScatterGather {
            format!(
                "read through secondary index {index}: every token range is searched in its replicas' local indexes ({} nodes contacted)",
                plan.nodes.len()
            )
        } else {
            format!("read through secondary index {index}, within the partitions named")
        };
        let mut f = finding(self, cx, span, message);
        f.help = Some(
            "fine for a low-cardinality column read within a partition; otherwise serve the query from a table keyed by the indexed column"
                .into(),
        );
        out.push(f);
    }
}

/// The single column a relation restricts.
fn relation_column(kind: &RelationKind) -> Option<&str> {
    match kind {
        RelationKind::Compare { column, .. }
        | RelationKind::In { column, .. }
        | RelationKind::Contains { column, .. }
        | RelationKind::MapEntry { column, .. }
        | RelationKind::Like { column, .. }
        | RelationKind::IsNotNull { column } => Some(&column.name),
        RelationKind::MultiCompare { .. }
        | RelationKind::MultiIn { .. }
        | RelationKind::Token { .. } => None,
    }
}

#[cfg(test)]
mod tests {
    use crate::lint::{Finding, Level, LintConfig};

    const SCHEMA: &str = "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};
        USE ks;
        CREATE TABLE t (k int, c int, v int, w int, PRIMARY KEY (k, c));
        CREATE INDEX t_v_idx ON t (v);";

    fn lint(query: &str) -> Vec<Finding> {
        let config = LintConfig {
            select: vec!["Q004".into()],
            ..LintConfig::default()
        };
        super::super::testing::lint_after_schema(config, SCHEMA, query)
    }

    #[test]
    fn index_read_on_every_node_points_at_the_indexed_restriction() {
        let query = "SELECT * FROM t WHERE v = 1;";
        let findings = lint(query);
        assert_eq!(findings.len(), 1);
        let f = &findings[0];
        assert_eq!(
            (f.name, f.code, f.level),
            ("secondary-index-query", "Q004", Level::Info)
        );
        assert!(
            f.message.contains("t_v_idx: every token range is searched"),
            "{}",
            f.message
        );
        assert_eq!(&query[f.span.start..f.span.end], "v = 1");
    }

    #[test]
    fn index_read_within_a_partition_is_reported_as_such() {
        let findings = lint("SELECT * FROM t WHERE k = 1 AND v = 1;");
        assert_eq!(findings.len(), 1);
        assert!(findings[0].message.contains("within the partitions named"));
    }

    #[test]
    fn key_reads_and_filters_are_not_reported() {
        assert!(lint("SELECT * FROM t WHERE k = 1 AND c = 2;").is_empty());
        assert!(lint("SELECT * FROM t WHERE w = 1 ALLOW FILTERING;").is_empty());
    }
}
