//! The work a long IN list costs, counted rather than timed: the
//! comparisons of values and terms that `widerow::work` counts in debug
//! builds. Linting and running must refuse a list past `[limits]` before
//! reading its values, and what they do read must cost the same per value
//! however long the list (`src/limits.rs`). A quadratic step — a list
//! deduplicated by searching what came before — multiplies the count by 64
//! when the list grows eightfold, where linear work multiplies it by 8.

use widerow::limits::Limits;
use widerow::lint::{Finding, LintConfig, Linter};
use widerow::planner::PlanContext;
use widerow::work::comparisons;
use widerow::Session;

const SCHEMA: &str = "CREATE KEYSPACE ks WITH replication = \
    {'class': 'NetworkTopologyStrategy', 'datacenter1': 3}; USE ks; \
    CREATE TABLE t (k int, c int, v text, PRIMARY KEY (k, c));";

/// Limits that let any list through, so that every value is worked on.
fn unlimited() -> Limits {
    Limits {
        in_list_length: usize::MAX,
        in_select_cartesian_product: usize::MAX,
        ..Limits::default()
    }
}

fn in_select(n: usize) -> String {
    let values: Vec<String> = (0..n).map(|i| i.to_string()).collect();
    format!("SELECT * FROM t WHERE k IN ({});", values.join(", "))
}

/// The findings of linting an IN of `n` values, and the comparisons it made.
fn lint(n: usize, limits: Limits) -> (Vec<Finding>, u64) {
    let mut ctx = PlanContext::new();
    ctx.limits = limits;
    let mut linter = Linter::with_context(ctx, LintConfig::default());
    linter.load_schema("schema.cql", SCHEMA).expect("schema");
    let text = in_select(n);
    let before = comparisons();
    let findings = linter.lint_str("q.cql", &text);
    (findings, comparisons() - before)
}

/// The outcome of running an IN of `n` values, and the comparisons it made.
fn run(n: usize, limits: Limits) -> (Result<(), String>, u64) {
    let mut session = Session::new();
    session.set_limits(limits);
    session.execute_script(SCHEMA).expect("schema");
    let text = in_select(n);
    let before = comparisons();
    let outcome = session
        .execute(&text)
        .map(|_| ())
        .map_err(|e| e.message().to_string());
    (outcome, comparisons() - before)
}

/// Linear (or n log n) work grows about eightfold with an eightfold list;
/// quadratic work 64-fold.
fn assert_linear(small: u64, large: u64) {
    if !cfg!(debug_assertions) {
        return; // nothing is counted in a release build
    }
    assert!(
        large <= 16 * small + 1_000,
        "{small} comparisons for 1,000 values but {large} for 8,000"
    );
}

#[test]
fn linting_costs_the_same_per_value_however_long_the_list() {
    let (_, small) = lint(1_000, unlimited());
    let (findings, large) = lint(8_000, unlimited());
    assert!(findings.iter().any(|f| f.code == "Q005"), "{findings:#?}");
    assert_linear(small, large);
}

#[test]
fn running_costs_the_same_per_value_however_long_the_list() {
    let (outcome, small) = run(1_000, unlimited());
    outcome.expect("runs");
    let (outcome, large) = run(8_000, unlimited());
    outcome.expect("runs");
    assert_linear(small, large);
}

#[test]
fn lint_refuses_a_list_past_the_limit_before_comparing_a_value() {
    let (findings, work) = lint(12_000, Limits::default());
    let codes: Vec<&str> = findings.iter().map(|f| f.code).collect();
    assert_eq!(codes, ["E002"], "{findings:#?}");
    assert!(
        findings[0].message.ends_with(
            "IN list of 12000 values exceeds the limit of 10000 ([limits] in_list_length)"
        ),
        "{}",
        findings[0].message
    );
    assert_eq!(
        (findings[0].location.line, findings[0].location.column),
        (1, 23)
    );
    assert!(work < 100, "{work} comparisons before the refusal");
}

#[test]
fn lint_refuses_a_statement_past_the_size_limit_before_parsing_it() {
    let limits = Limits {
        statement_size: 1_000,
        ..unlimited()
    };
    let (findings, work) = lint(1_000, limits);
    let codes: Vec<&str> = findings.iter().map(|f| f.code).collect();
    assert_eq!(codes, ["E002"], "{findings:#?}");
    assert!(
        findings[0]
            .message
            .contains("exceeds the limit of 1000 bytes ([limits] statement_size)"),
        "{}",
        findings[0].message
    );
    // It points at the first word, not at the whole over-long statement.
    let at = &findings[0].location;
    assert_eq!(
        (at.line, at.column, at.end_line, at.end_column),
        (1, 1, 1, 7)
    );
    assert!(work < 100, "{work} comparisons before the refusal");
}

#[test]
fn running_refuses_a_list_past_the_limit_before_comparing_a_value() {
    let (outcome, work) = run(12_000, Limits::default());
    assert_eq!(
        outcome.unwrap_err(),
        "IN list of 12000 values exceeds the limit of 10000 ([limits] in_list_length)"
    );
    assert!(work < 100, "{work} comparisons before the refusal");
}
