//! Every lint rule against a fixture of its own, and the seed models against
//! every rule.
//!
//! Regenerate the snapshots with
//! `INSTA_UPDATE=always cargo test --test lint_rules`, then review the diff
//! by eye (`git diff tests/snapshots/`): each span must underline the text
//! the message is about.
//!
//! - `tests/lint/rules/<rule-name>.cql`, one per rule of
//!   `widerow::lint::rules::all()`, written from the rule's documentation
//!   (`widerow rule NAME`): statements marked `-- flagged:` must be reported,
//!   statements marked `-- not flagged:` must not. Each fixture is linted
//!   with only its rule selected; its findings are snapshotted in the
//!   concise and the human format (`lint_rules__<rule-name>__concise.snap`,
//!   `lint_rules__<rule-name>__human.snap`).
//! - `examples/*.cql`, linted with the default configuration (all rules):
//!   one concise snapshot each (`lint_rules__example__<stem>.snap`), and
//!   `examples/bad_designs.cql` must show the bad designs it is about.

use std::collections::BTreeSet;
use std::path::Path;

use widerow::diagnostic::RenderOptions;
use widerow::lint::output::{self, OutputFormat};
use widerow::lint::{Finding, LintConfig, Linter, Rule};

const FIXTURES: &str = "tests/lint/rules";

/// The rule named `name`.
fn rule(name: &str) -> Box<dyn Rule> {
    widerow::lint::rules::all()
        .into_iter()
        .find(|r| r.name() == name)
        .unwrap_or_else(|| panic!("no rule named {name}"))
}

/// Lints `file` (all of it, then `finish`) with `config`.
fn lint(file: &str, config: LintConfig) -> Vec<Finding> {
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{file}: {e}"));
    let mut linter = Linter::new(config);
    let mut findings = linter.lint_str(file, &text);
    findings.extend(linter.finish());
    findings
}

/// The lines a fixture marks as `-- flagged:`.
fn flagged_markers(text: &str) -> usize {
    text.lines()
        .filter(|l| l.trim_start().starts_with("-- flagged:"))
        .count()
}

/// Lints the fixture of rule `name` with only that rule selected, checks
/// its findings, and snapshots them in the concise and human formats.
fn check_rule(name: &str) {
    let rule = rule(name);
    let file = format!("{FIXTURES}/{name}.cql");
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{file}: {e}"));
    assert!(
        flagged_markers(&text) >= 1 && text.contains("-- not flagged:"),
        "{file} must mark statements `-- flagged:` and `-- not flagged:`"
    );
    let config = LintConfig {
        select: vec![rule.code().into()],
        ..LintConfig::default()
    };
    let findings = lint(&file, config);
    assert!(!findings.is_empty(), "{file}: no finding of {name}");
    for finding in &findings {
        assert_eq!(
            (finding.name, finding.code),
            (rule.name(), rule.code()),
            "{file}: a finding of another rule: {finding:#?}"
        );
        assert_eq!(finding.location.file, file);
    }
    // One finding per `-- flagged:` statement at least (a statement may
    // have several, e.g. one per offending column).
    assert!(
        findings.len() >= flagged_markers(&text),
        "{file}: {} findings for {} flagged statements:\n{}",
        findings.len(),
        flagged_markers(&text),
        output::concise::render_all(&findings)
    );

    let rules = vec![rule];
    let concise = output::render(
        OutputFormat::Concise,
        &findings,
        &rules,
        RenderOptions::default(),
    );
    let human = output::render(
        OutputFormat::Human,
        &findings,
        &rules,
        RenderOptions {
            color: false,
            ..RenderOptions::default()
        },
    );
    insta::assert_snapshot!(format!("{name}__concise"), concise);
    insta::assert_snapshot!(format!("{name}__human"), human);
}

macro_rules! rule_tests {
    ($($test:ident => $name:literal,)*) => {
        /// The rules with a test below, by name.
        const TESTED: &[&str] = &[$($name),*];
        $(
            #[test]
            fn $test() {
                check_rule($name);
            }
        )*
    };
}

rule_tests! {
    syntax_error => "syntax-error",
    invalid_statement => "invalid-statement",
    unused_suppression => "unused-suppression",
    allow_filtering_required => "allow-filtering-required",
    allow_filtering => "allow-filtering",
    scatter_gather => "scatter-gather",
    secondary_index_query => "secondary-index-query",
    partition_keys_in_select => "partition-keys-in-select",
    in_select_cartesian_product => "in-select-cartesian-product",
    fine_grained_partition_key => "fine-grained-partition-key",
    batch_across_partitions => "batch-across-partitions",
    logged_batch_tables => "logged-batch-tables",
    user_timestamps => "user-timestamps",
    read_before_write_list_operations => "read-before-write-list-operations",
    unbounded_partition => "unbounded-partition",
    hot_partition => "hot-partition",
    high_cardinality_index => "high-cardinality-index",
    compact_tables => "compact-tables",
    materialized_views => "materialized-views",
    query_not_served => "query-not-served",
    simple_strategy => "simple-strategy",
    minimum_replication_factor => "minimum-replication-factor",
}

#[test]
fn every_rule_has_a_fixture_and_a_test() {
    let rules: BTreeSet<&str> = widerow::lint::rules::all()
        .iter()
        .map(|r| r.name())
        .collect();
    let missing: Vec<&&str> = rules
        .iter()
        .filter(|name| !Path::new(&format!("{FIXTURES}/{name}.cql")).is_file())
        .collect();
    assert!(missing.is_empty(), "rules without a fixture: {missing:?}");
    let tested: BTreeSet<&str> = TESTED.iter().copied().collect();
    assert_eq!(tested, rules, "add every rule to `rule_tests!`");
    let fixtures: BTreeSet<String> = std::fs::read_dir(FIXTURES)
        .expect("fixture directory")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "cql"))
        .map(|p| p.file_stem().expect("stem").to_string_lossy().into_owned())
        .collect();
    let stray: Vec<&String> = fixtures
        .iter()
        .filter(|f| !rules.contains(f.as_str()))
        .collect();
    assert!(stray.is_empty(), "fixtures of no rule: {stray:?}");
}

/// `examples/*.cql`, sorted.
fn example_files() -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir("examples")
        .expect("examples directory")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "cql"))
        .map(|p| p.to_string_lossy().replace('\\', "/"))
        .collect();
    files.sort();
    files
}

#[test]
fn examples() {
    let files = example_files();
    assert!(files.len() >= 2, "{files:?}");
    for file in files {
        let findings = lint(&file, LintConfig::default());
        let stem = Path::new(&file)
            .file_stem()
            .expect("stem")
            .to_string_lossy()
            .into_owned();
        let text = format!(
            "{}{}\n",
            output::concise::render_all(&findings),
            output::summary(&findings)
        );
        insta::assert_snapshot!(format!("example__{stem}"), text);
    }
}

#[test]
fn bad_designs_are_flagged() {
    let findings = lint("examples/bad_designs.cql", LintConfig::default());
    let names: BTreeSet<&str> = findings.iter().map(|f| f.name).collect();
    for name in [
        "unbounded-partition",
        "hot-partition",
        "high-cardinality-index",
    ] {
        assert!(names.contains(name), "{name} not reported: {names:?}");
    }
    assert!(
        names.contains("allow-filtering-required") || names.contains("allow-filtering"),
        "neither allow-filtering rule reported: {names:?}"
    );
    assert!(
        findings.iter().any(|f| f.suggestion.is_some()),
        "no finding carries a suggestion"
    );
}

#[test]
fn unused_suppression_with_every_rule() {
    // With allow-filtering running too, the last suppression of the fixture
    // silences its finding; the stale and the misspelt ones are reported,
    // and the misspelt one lets its finding through.
    let file = format!("{FIXTURES}/unused-suppression.cql");
    let findings = lint(&file, LintConfig::default());
    let s001: Vec<usize> = findings
        .iter()
        .filter(|f| f.name == "unused-suppression")
        .map(|f| f.location.line)
        .collect();
    assert_eq!(s001, [13, 17], "{findings:#?}");
    let af: Vec<usize> = findings
        .iter()
        .filter(|f| f.name == "allow-filtering")
        .map(|f| f.location.line)
        .collect();
    assert_eq!(af, [18], "{findings:#?}");
}
