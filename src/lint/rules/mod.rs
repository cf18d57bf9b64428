//! The built-in rules, one file each. A rule's file holds its documentation
//! (shown by `widerow rule NAME`), its checks and its tests.
//!
//! Codes never change once given: Q for queries, M for the data model, K for
//! keyspaces and replication, W for writes and batches, S for suppressions,
//! E for statements Cassandra refuses outright.

mod invalid_statement;
mod syntax_error;
mod unused_suppression;

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
