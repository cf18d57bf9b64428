//! M003 `high-cardinality-index`.

use super::super::{Finding, Level, Rule, StatementContext};
use super::finding;
use super::unbounded_partition::{listed, name_words, native};
use crate::schema::Column;
use crate::syntax::ast::{NativeType, Statement};

/// A legacy secondary index on a column with many distinct values: a read
/// through it asks every node for a row or two.
pub struct HighCardinalityIndex;

/// Whether an indexed column is likely to hold (nearly) unique values.
fn is_high_cardinality(column: &Column, declared: &[String]) -> bool {
    if listed(declared, &column.name) {
        return true;
    }
    if matches!(
        native(column),
        Some(NativeType::Uuid | NativeType::Timeuuid | NativeType::Timestamp)
    ) {
        return true;
    }
    let words = name_words(&column.name);
    let last = words.last().map(String::as_str).unwrap_or("");
    matches!(
        last,
        "id" | "uuid" | "token" | "username" | "email" | "phone" | "ip"
    ) || words.iter().any(|w| {
        matches!(
            w.as_str(),
            "email" | "mail" | "phone" | "username" | "uuid" | "ip"
        )
    })
}

impl Rule for HighCardinalityIndex {
    fn name(&self) -> &'static str {
        "high-cardinality-index"
    }
    fn code(&self) -> &'static str {
        "M003"
    }
    fn default_level(&self) -> Level {
        Level::Warning
    }
    fn summary(&self) -> &'static str {
        "a legacy secondary index on a high-cardinality column makes every lookup ask every node"
    }
    fn documentation(&self) -> &'static str {
        "## What it does\n\nReports `CREATE INDEX` without `USING` (Cassandra's legacy secondary index) on a column likely \
         to hold (nearly) unique values: by name (`email`, `id`, `*_id`, `uuid`, `phone`, `username`, `token`, `ip`), \
         by type (`uuid`, `timeuuid`, `timestamp`), or declared in the configuration.\n\n\
         ## Why it matters on a cluster\n\nA legacy index is local: each node indexes only its own rows, in a hidden \
         table with one partition per indexed value. A lookup by email cannot know which node holds the one matching \
         user, so the coordinator asks every node (a scatter-gather, token range by token range) to find one row; \
         latency grows with the cluster and one slow node slows every lookup. The hidden table also holds one tiny \
         partition per value, as large as the base table.\n\n\
         Storage-attached indexes (`USING 'sai'`) are not reported: SAI indexes each SSTable with structures built \
         for high-cardinality and range lookups (tries and balanced trees, no hidden table, no per-value partitions), \
         and is Cassandra 5.0's recommended index. Its reads still fan out without a partition key — other rules \
         report the query.\n\n\
         ## Example\n\n```cql\nCREATE TABLE users (user_id uuid PRIMARY KEY, email text, name text);\n\
         CREATE INDEX users_email_idx ON users (email);\nSELECT * FROM users WHERE email = 'alice@example.com';\n```\n\n\
         ## Instead\n\nA table keyed by the looked-up value, written alongside the base table (a single-partition read):\n\n\
         ```cql\nCREATE TABLE users_by_email (email text PRIMARY KEY, user_id uuid, name text);\n\
         SELECT * FROM users_by_email WHERE email = 'alice@example.com';\n```\n\n\
         or, where a fan-out is acceptable, an SAI index: `CREATE INDEX ON users (email) USING 'sai';`.\n\n\
         ## Options\n\n```toml\n[lint.options.high-cardinality-index]\nhigh-cardinality = [\"sku\", \"serial\"]  # more columns known to be (nearly) unique\n```\n\n\
         ## References\n\nCassandra documentation, *Secondary indexes: when not to use an index*; *Storage-attached \
         indexing (SAI)* (5.0); guardrail `secondary_indexes_enabled`.\n"
    }
    fn check_statement(&self, cx: &StatementContext<'_>, out: &mut Vec<Finding>) {
        let Statement::CreateIndex(index) = cx.statement else {
            return;
        };
        if index.custom || index.using.is_some() {
            return;
        }
        let Ok(table) = cx
            .planner
            .catalog
            .resolve_table(cx.planner.keyspace.as_deref(), &index.table)
        else {
            return;
        };
        let declared = cx
            .config
            .option_words(self.name(), "high-cardinality")
            .unwrap_or_default();
        for target in &index.targets {
            let Some(column) = table.column(&target.column.name) else {
                continue;
            };
            if !is_high_cardinality(column, &declared) {
                continue;
            }
            let mut f = finding(
                self,
                cx,
                target.column.span,
                format!(
                    "secondary index on {}.{}, a column with many distinct values: every lookup asks every node",
                    table.qualified_name(),
                    column.cql_name()
                ),
            );
            f.help = Some(format!(
                "query a table keyed by {col} instead (e.g. {name}_by_{col} with PRIMARY KEY ({col})), or use an SAI index (USING 'sai')",
                col = column.cql_name(),
                name = table.name
            ));
            out.push(f);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::lint::{Finding, Level, LintConfig, Linter};

    use super::super::testing::lint_with;

    fn lint(text: &str) -> Vec<Finding> {
        lint_with(
            LintConfig {
                select: vec!["M003".into()],
                ..Default::default()
            },
            text,
        )
    }

    const SCHEMA: &str = "CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'datacenter1': 3};\nUSE ks;\n\
        CREATE TABLE users (user_id uuid PRIMARY KEY, email text, name text, country text, signup timestamp, account uuid, sku text);\n";

    #[test]
    fn legacy_index_on_email() {
        let f = lint(&format!(
            "{SCHEMA}\nCREATE INDEX users_email_idx ON users (email);"
        ));
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].name, "high-cardinality-index");
        assert_eq!(f[0].code, "M003");
        assert_eq!(f[0].level, Level::Warning);
        assert_eq!(f[0].location.line, 5);
        assert_eq!(f[0].location.column, 40);
        assert!(f[0].message.contains("ks.users.email"), "{}", f[0].message);
    }

    #[test]
    fn by_type() {
        assert_eq!(
            lint(&format!("{SCHEMA}CREATE INDEX ON users (signup);")).len(),
            1
        );
        assert_eq!(
            lint(&format!("{SCHEMA}CREATE INDEX ON users (account);")).len(),
            1
        );
    }

    #[test]
    fn sai_and_low_cardinality_are_quiet() {
        let f = lint(&format!(
            "{SCHEMA}CREATE INDEX ON users (email) USING 'sai';\nCREATE INDEX ON users (country);\nCREATE INDEX ON users (name);\n\
             CREATE TABLE inbox_by_user (user_id uuid, message_id timeuuid, read boolean, PRIMARY KEY (user_id, message_id));\n\
             CREATE TABLE orders_by_id (order_id timeuuid PRIMARY KEY, status text);\nCREATE INDEX ON orders_by_id (status);\n"
        ));
        assert!(f.is_empty(), "{f:?}");
    }

    #[test]
    fn declared_high_cardinality() {
        let mut config = LintConfig {
            select: vec!["M003".into()],
            ..Default::default()
        };
        let mut options = serde_json::Map::new();
        options.insert("high-cardinality".into(), serde_json::json!(["sku"]));
        config
            .options
            .insert("high-cardinality-index".into(), options);
        assert_eq!(
            lint_with(config, &format!("{SCHEMA}CREATE INDEX ON users (sku);")).len(),
            1
        );
    }

    #[test]
    fn design_examples() {
        let lint_all = |text: &str| {
            let mut linter = Linter::new(LintConfig {
                select: vec!["M001".into(), "M002".into(), "M003".into()],
                ..Default::default()
            });
            let mut findings = linter.lint_str("t.cql", text);
            findings.extend(linter.finish());
            findings
        };
        let bad = lint_all(include_str!("../../../examples/bad_designs.cql"));
        let codes: Vec<&str> = bad.iter().map(|f| f.code).collect();
        assert_eq!(codes, ["M001", "M002", "M003"], "{bad:?}");
        assert!(bad[0].message.contains("readings_by_sensor"));
        assert!(bad[1].message.contains("orders_by_status"));
        assert!(bad[2].message.contains("users.email"));
        for good in [
            include_str!("../../../examples/sensor_readings.cql"),
            include_str!("../../../examples/user_activity.cql"),
            include_str!("../../../examples/inbox.cql"),
            include_str!("../../../examples/orders.cql"),
        ] {
            let f = lint_all(good);
            assert!(f.is_empty(), "{f:?}");
        }
    }
}
