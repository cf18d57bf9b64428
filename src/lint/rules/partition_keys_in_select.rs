//! Q005 `partition-keys-in-select`.

use crate::syntax::ast::{InValues, Operator, RelationKind, Statement, Term};
use crate::syntax::span::Span;

use super::super::{Finding, Level, Rule, StatementContext};
use super::finding;

/// The default of the `threshold` option.
const DEFAULT_THRESHOLD: u64 = 10;

/// A SELECT naming many partitions through IN on the partition key.
pub struct PartitionKeysInSelect;

impl Rule for PartitionKeysInSelect {
    fn name(&self) -> &'static str {
        "partition-keys-in-select"
    }
    fn code(&self) -> &'static str {
        "Q005"
    }
    fn default_level(&self) -> Level {
        Level::Warning
    }
    fn summary(&self) -> &'static str {
        "a SELECT names more partitions through IN than the threshold"
    }
    fn documentation(&self) -> &'static str {
        "## What it does\n\n\
         Counts the partition keys a SELECT names through `IN` on partition key columns \
         (the product of the lists, duplicates removed, for a composite key) and reports it \
         when the count exceeds the threshold. `IN ?` (a list bound at execution) is not \
         counted.\n\n\
         ## Why it matters on a cluster\n\n\
         Each partition has its own replica set: the coordinator sends one read per partition, \
         holds every result in memory and waits for the slowest. A large IN turns one request \
         into many, concentrates the work on one coordinator, and fails as a whole if any \
         partition's replicas are unavailable.\n\n\
         ## Example\n\n\
         ```cql\nSELECT * FROM users WHERE user_id IN (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12);\n```\n\n\
         ## Instead\n\n\
         Send one query per partition, asynchronously, from the driver (token-aware routing \
         then sends each to a replica), or model the data so one partition answers.\n\n\
         ## Options\n\n\
         - `threshold` (default 10): the largest number of partition keys accepted without a \
         finding. Cassandra's guardrail `partition_keys_in_select_warn_threshold` plays the \
         same part on the server.\n\n\
         ## References\n\n\
         Cassandra guardrails `partition_keys_in_select_warn_threshold` / \
         `partition_keys_in_select_fail_threshold` (`cassandra.yaml`, 4.1+).\n"
    }
    fn check_statement(&self, cx: &StatementContext<'_>, out: &mut Vec<Finding>) {
        let Statement::Select(select) = cx.statement else {
            return;
        };
        let Ok(table) = cx
            .planner
            .catalog
            .resolve_table(cx.planner.keyspace.as_deref(), &select.from)
        else {
            return;
        };
        let threshold = cx
            .config
            .option_u64(self.name(), "threshold", DEFAULT_THRESHOLD);
        let mut count: u64 = 1;
        let mut span: Option<Span> = None;
        for key in &table.partition_key {
            let mut factor = None;
            for relation in &select.where_clause {
                match &relation.kind {
                    RelationKind::Compare {
                        column,
                        op: Operator::Eq,
                        ..
                    } if &column.name == key => factor = Some(1),
                    RelationKind::In { column, values } if &column.name == key => {
                        let InValues::List(terms) = values else {
                            return;
                        };
                        factor = Some(distinct(terms));
                        span = Some(span.map_or(relation.span, |s| cover(s, relation.span)));
                    }
                    _ => {}
                }
            }
            // A key column not fixed by = or IN: not a read of named partitions.
            let Some(factor) = factor else {
                return;
            };
            count = count.saturating_mul(factor);
        }
        let Some(span) = span else {
            return;
        };
        if count <= threshold {
            return;
        }
        let message = format!(
            "IN names {count} partition keys of {}, more than {threshold}: the coordinator reads {count} partitions and waits for all of them",
            table.qualified_name()
        );
        let mut f = finding(self, cx, span, message);
        f.help = Some(
            "query the partitions separately and asynchronously from the driver, or model the data so one partition answers"
                .into(),
        );
        out.push(f);
    }
}

/// How many different terms a list holds.
fn distinct(terms: &[Term]) -> u64 {
    let seen: std::collections::HashSet<&Term> = terms.iter().collect();
    seen.len() as u64
}

/// The smallest span holding both.
fn cover(a: Span, b: Span) -> Span {
    Span::new(a.start.min(b.start), a.end.max(b.end))
}

#[cfg(test)]
mod tests {
    use crate::lint::{Finding, Level, LintConfig};

    const SCHEMA: &str = "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};
        USE ks;
        CREATE TABLE t (k int, c int, v int, PRIMARY KEY (k, c));
        CREATE TABLE t2 (a int, b int, v int, PRIMARY KEY ((a, b)));";

    fn lint_with(config: LintConfig, query: &str) -> Vec<Finding> {
        let config = LintConfig {
            select: vec!["Q005".into()],
            ..config
        };
        super::super::testing::lint_after_schema(config, SCHEMA, query)
    }

    fn lint(query: &str) -> Vec<Finding> {
        lint_with(LintConfig::default(), query)
    }

    #[test]
    fn more_than_ten_partition_keys_is_reported() {
        let query = "SELECT * FROM t WHERE k IN (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11);";
        let findings = lint(query);
        assert_eq!(findings.len(), 1);
        let f = &findings[0];
        assert_eq!(
            (f.name, f.code, f.level),
            ("partition-keys-in-select", "Q005", Level::Warning)
        );
        assert!(
            f.message
                .starts_with("IN names 11 partition keys of ks.t, more than 10"),
            "{}",
            f.message
        );
        assert!(query[f.span.start..f.span.end].starts_with("k IN (1"));
    }

    #[test]
    fn composite_keys_multiply() {
        let findings = lint("SELECT * FROM t2 WHERE a IN (1, 2, 3) AND b IN (1, 2, 3, 4);");
        assert_eq!(findings.len(), 1);
        assert!(findings[0]
            .message
            .starts_with("IN names 12 partition keys"));
    }

    #[test]
    fn threshold_option_is_read() {
        let mut options = serde_json::Map::new();
        options.insert("threshold".into(), 2.into());
        let mut config = LintConfig::default();
        config
            .options
            .insert("partition-keys-in-select".into(), options);
        assert_eq!(
            lint_with(config, "SELECT * FROM t WHERE k IN (1, 2, 3);").len(),
            1
        );
    }

    #[test]
    fn small_duplicated_or_bound_lists_are_not_reported() {
        assert!(lint("SELECT * FROM t WHERE k IN (1, 2, 3);").is_empty());
        assert!(
            lint("SELECT * FROM t WHERE k IN (1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2);").is_empty()
        );
        assert!(lint("SELECT * FROM t WHERE k IN ?;").is_empty());
        assert!(
            lint("SELECT * FROM t WHERE k = 1 AND c IN (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11);")
                .is_empty()
        );
    }
}
