//! Q006 `in-select-cartesian-product`.

use crate::syntax::ast::{BatchStatement, InValues, Relation, RelationKind, Statement, Term};
use crate::syntax::span::Span;

use super::super::{Finding, Level, Rule, StatementContext};
use super::finding;

/// The default of the `threshold` option.
const DEFAULT_THRESHOLD: u64 = 25;

/// IN lists on key columns whose product is large.
pub struct InSelectCartesianProduct;

impl Rule for InSelectCartesianProduct {
    fn name(&self) -> &'static str {
        "in-select-cartesian-product"
    }
    fn code(&self) -> &'static str {
        "Q006"
    }
    fn default_level(&self) -> Level {
        Level::Warning
    }
    fn summary(&self) -> &'static str {
        "IN lists on primary key columns multiply into more key combinations than the threshold"
    }
    fn documentation(&self) -> &'static str {
        "## What it does\n\n\
         Multiplies the sizes of the `IN` lists on primary key columns (partition key and \
         clustering columns, duplicates removed; a multi-column `(a, b) IN (…)` counts its \
         tuples) in a SELECT, UPDATE or DELETE, batches included, and reports a product above \
         the threshold. As in Cassandra's guardrail, a single list counts too. `IN ?` is not \
         counted.\n\n\
         ## Why it matters on a cluster\n\n\
         Cassandra expands the lists into every combination before reading or writing: \
         `k IN (…10) AND c IN (…10)` is 100 clustering keys, built and held in memory by the \
         coordinator, and as many partitions or slices to read. The cost grows as the product, \
         which is easy to miss when each list looks short.\n\n\
         ## Example\n\n\
         ```cql\nSELECT * FROM t WHERE k IN (1, 2, 3, 4, 5, 6) AND c IN (1, 2, 3, 4, 5);\n```\n\n\
         ## Instead\n\n\
         Split the query (one per partition, asynchronously), use a clustering slice \
         (`c >= 1 AND c <= 5`) instead of a list, or model the data so fewer keys answer.\n\n\
         ## Options\n\n\
         - `threshold` (default 25): the largest product accepted without a finding, like \
         Cassandra's `in_select_cartesian_product_warn_threshold`.\n\n\
         ## References\n\n\
         Cassandra guardrails `in_select_cartesian_product_warn_threshold` / \
         `in_select_cartesian_product_fail_threshold` (`cassandra.yaml`, 4.1+).\n"
    }
    fn check_statement(&self, cx: &StatementContext<'_>, out: &mut Vec<Finding>) {
        let threshold = cx
            .config
            .option_u64(self.name(), "threshold", DEFAULT_THRESHOLD);
        match cx.statement {
            Statement::Select(s) => self.check(cx, &s.from, &s.where_clause, threshold, out),
            Statement::Update(s) => self.check(cx, &s.table, &s.where_clause, threshold, out),
            Statement::Delete(s) => self.check(cx, &s.table, &s.where_clause, threshold, out),
            Statement::Batch(batch) => {
                for statement in &batch.statements {
                    match statement {
                        BatchStatement::Update(s) => {
                            self.check(cx, &s.table, &s.where_clause, threshold, out)
                        }
                        BatchStatement::Delete(s) => {
                            self.check(cx, &s.table, &s.where_clause, threshold, out)
                        }
                        BatchStatement::Insert(_) => {}
                    }
                }
            }
            _ => {}
        }
    }
}

impl InSelectCartesianProduct {
    fn check(
        &self,
        cx: &StatementContext<'_>,
        table: &crate::syntax::ast::QualifiedName,
        relations: &[Relation],
        threshold: u64,
        out: &mut Vec<Finding>,
    ) {
        let Ok(table) = cx
            .planner
            .catalog
            .resolve_table(cx.planner.keyspace.as_deref(), table)
        else {
            return;
        };
        let is_key = |name: &str| table.column(name).is_some_and(|c| c.is_primary_key());
        let mut product: u64 = 1;
        let mut factors = Vec::new();
        let mut span: Option<Span> = None;
        for relation in relations {
            let (label, values) = match &relation.kind {
                RelationKind::In { column, values } if is_key(&column.name) => {
                    (column.name.clone(), values)
                }
                RelationKind::MultiIn { columns, values }
                    if columns.iter().all(|c| is_key(&c.name)) =>
                {
                    let names: Vec<&str> = columns.iter().map(|c| c.name.as_str()).collect();
                    (format!("({})", names.join(", ")), values)
                }
                _ => continue,
            };
            let InValues::List(terms) = values else {
                return;
            };
            let n = distinct(terms);
            product = product.saturating_mul(n);
            factors.push(format!("{label}: {n}"));
            span = Some(span.map_or(relation.span, |s| {
                Span::new(
                    s.start.min(relation.span.start),
                    s.end.max(relation.span.end),
                )
            }));
        }
        let Some(span) = span else {
            return;
        };
        if product <= threshold {
            return;
        }
        let message = format!(
            "IN lists on key columns of {} multiply to {product} key combinations ({}), more than {threshold}",
            table.qualified_name(),
            factors.join(" × ")
        );
        let mut f = finding(self, cx, span, message);
        f.help = Some(
            "split the statement per partition, use a clustering range instead of a list, or shorten the lists"
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

#[cfg(test)]
mod tests {
    use crate::lint::{Finding, Level, LintConfig};

    const SCHEMA: &str = "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};
        USE ks;
        CREATE TABLE t (k int, c int, d int, v int, PRIMARY KEY (k, c, d));";

    fn lint_with(config: LintConfig, query: &str) -> Vec<Finding> {
        let config = LintConfig {
            select: vec!["Q006".into()],
            ..config
        };
        super::super::testing::lint_after_schema(config, SCHEMA, query)
    }

    fn lint(query: &str) -> Vec<Finding> {
        lint_with(LintConfig::default(), query)
    }

    #[test]
    fn product_over_partition_and_clustering_lists_is_reported() {
        let query = "SELECT * FROM t WHERE k IN (1, 2, 3, 4, 5, 6) AND c IN (1, 2, 3, 4, 5);";
        let findings = lint(query);
        assert_eq!(findings.len(), 1);
        let f = &findings[0];
        assert_eq!(
            (f.name, f.code, f.level),
            ("in-select-cartesian-product", "Q006", Level::Warning)
        );
        assert!(
            f.message
                .contains("multiply to 30 key combinations (k: 6 × c: 5), more than 25"),
            "{}",
            f.message
        );
        assert_eq!(
            &query[f.span.start..f.span.end],
            "k IN (1, 2, 3, 4, 5, 6) AND c IN (1, 2, 3, 4, 5)"
        );
    }

    #[test]
    fn multi_column_lists_and_writes_count() {
        let findings = lint(
            "DELETE FROM t WHERE k IN (1, 2, 3, 4, 5, 6, 7, 8, 9) AND (c, d) IN ((1, 1), (1, 2), (2, 1));",
        );
        assert_eq!(findings.len(), 1, "{findings:?}");
        assert!(findings[0].message.contains("k: 9 × (c, d): 3"));
    }

    #[test]
    fn threshold_option_is_read() {
        let mut options = serde_json::Map::new();
        options.insert("threshold".into(), 3.into());
        let mut config = LintConfig::default();
        config
            .options
            .insert("in-select-cartesian-product".into(), options);
        assert_eq!(
            lint_with(config, "SELECT * FROM t WHERE k IN (1, 2) AND c IN (1, 2);").len(),
            1
        );
    }

    #[test]
    fn small_products_and_bound_lists_are_not_reported() {
        assert!(
            lint("SELECT * FROM t WHERE k IN (1, 2, 3, 4, 5) AND c IN (1, 2, 3, 4, 5);").is_empty()
        );
        assert!(
            lint("SELECT * FROM t WHERE k IN ? AND c IN (1, 2, 3, 4, 5, 6, 7, 8, 9, 10);")
                .is_empty()
        );
        assert!(lint("SELECT * FROM t WHERE k = 1 AND c = 2;").is_empty());
    }
}
