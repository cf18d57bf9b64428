//! The built-in rules, one file each. A rule's file holds its documentation
//! (shown by `widerow rule NAME`), its checks and its tests.
//!
//! Codes never change once given: Q for queries, M for the data model, K for
//! keyspaces and replication, W for writes and batches, S for suppressions,
//! E for statements Cassandra refuses outright.

mod allow_filtering;
mod allow_filtering_required;
mod batch_across_partitions;
mod compact_tables;
mod fine_grained_partition_key;
mod high_cardinality_index;
mod hot_partition;
mod in_select_cartesian_product;
mod invalid_statement;
mod logged_batch_tables;
mod materialized_views;
mod minimum_replication_factor;
mod partition_keys_in_select;
pub(crate) mod query_not_served;
mod read_before_write_list_operations;
mod scatter_gather;
mod secondary_index_query;
mod simple_strategy;
mod syntax_error;
mod unbounded_partition;
mod unused_suppression;
mod user_timestamps;

use super::config::LintConfig;
use super::finding::{Finding, Level, Location};
use super::suppress::Suppressions;
use super::{Rule, StatementContext};
use crate::syntax::span::Span;

/// Every built-in rule, in code order.
pub fn all() -> Vec<Box<dyn Rule>> {
    let mut rules: Vec<Box<dyn Rule>> = vec![
        Box::new(syntax_error::SyntaxError),
        Box::new(invalid_statement::InvalidStatement),
        Box::new(unused_suppression::UnusedSuppression),
        Box::new(allow_filtering_required::AllowFilteringRequired),
        Box::new(allow_filtering::AllowFiltering),
        Box::new(scatter_gather::ScatterGather),
        Box::new(secondary_index_query::SecondaryIndexQuery),
        Box::new(partition_keys_in_select::PartitionKeysInSelect),
        Box::new(in_select_cartesian_product::InSelectCartesianProduct),
        Box::new(fine_grained_partition_key::FineGrainedPartitionKey),
        Box::new(batch_across_partitions::BatchAcrossPartitions),
        Box::new(logged_batch_tables::LoggedBatchTables),
        Box::new(user_timestamps::UserTimestamps),
        Box::new(read_before_write_list_operations::ReadBeforeWriteListOperations),
        Box::new(unbounded_partition::UnboundedPartition),
        Box::new(hot_partition::HotPartition),
        Box::new(high_cardinality_index::HighCardinalityIndex),
        Box::new(compact_tables::CompactTables),
        Box::new(materialized_views::MaterializedViews),
        Box::new(query_not_served::QueryNotServed),
        Box::new(simple_strategy::SimpleStrategy),
        Box::new(minimum_replication_factor::MinimumReplicationFactor),
    ];
    rules.sort_by_key(|r| r.code());
    rules
}

/// A finding of `rule` at `span` of the statement in `cx`, at the rule's
/// default level.
pub fn finding(
    rule: &dyn Rule,
    cx: &StatementContext<'_>,
    span: Span,
    message: impl Into<String>,
) -> Finding {
    Finding {
        name: rule.name(),
        code: rule.code(),
        level: rule.default_level(),
        location: Location::of(cx.file, cx.source, span),
        message: message.into(),
        help: None,
        suggestion: None,
        source: Some(cx.source.clone()),
        span,
    }
}

/// Findings for suppressions that silenced nothing (rule S001).
pub(crate) fn unused_suppressions(
    suppressions: &Suppressions,
    config: &LintConfig,
    rules: &[Box<dyn Rule>],
) -> Vec<Finding> {
    let rule = unused_suppression::UnusedSuppression;
    suppressions
        .unused()
        .filter(|s| config.is_enabled(&rule, &s.file))
        .map(|s| {
            let known = s.rules.iter().all(|r| {
                rules
                    .iter()
                    .any(|rule| rule.name() == r || rule.code().eq_ignore_ascii_case(r))
            });
            Finding {
                name: rule.name(),
                code: rule.code(),
                level: rule.default_level(),
                location: Location {
                    file: s.file.clone(),
                    line: s.line,
                    column: 1,
                    end_line: s.line,
                    end_column: 1 + (s.span.1 - s.span.0),
                },
                message: if known {
                    format!("suppression of {} silences nothing", s.rules.join(", "))
                } else {
                    format!("suppression names an unknown rule: {}", s.rules.join(", "))
                },
                help: Some("remove the comment, or fix the rule name".into()),
                suggestion: None,
                source: None,
                span: Span::default(),
            }
        })
        .collect()
}

/// Levels as rules declare them, for the documentation index.
pub fn level_name(level: Level) -> &'static str {
    level.as_str()
}

/// What rule tests share: linting a text with a configuration.
#[cfg(test)]
pub(crate) mod testing {
    use crate::lint::{Finding, LintConfig, Linter};

    /// Every finding of `text` (file `t.cql`) under `config`, those of the
    /// end-of-lint rules included.
    pub(crate) fn lint_with(config: LintConfig, text: &str) -> Vec<Finding> {
        let mut linter = Linter::new(config);
        let mut findings = linter.lint_str("t.cql", text);
        findings.extend(linter.finish());
        findings
    }

    /// The findings of `query` (file `q.cql`) under `config`, after `schema`
    /// (file `schema.cql`) was read without findings.
    pub(crate) fn lint_after_schema(config: LintConfig, schema: &str, query: &str) -> Vec<Finding> {
        let mut linter = Linter::new(config);
        assert!(linter.lint_str("schema.cql", schema).is_empty());
        linter.lint_str("q.cql", query)
    }
}
