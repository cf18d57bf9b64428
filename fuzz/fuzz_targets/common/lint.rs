//! The `lint` target's checks (see `fuzz_targets/lint.rs`).

use widerow::diagnostic::RenderOptions;
use widerow::lint::output::{self, OutputFormat};
use widerow::lint::{Finding, LintConfig, Linter};

const FILE_NAMES: &[&str] = &["schema.cql", "queries/q.cql", "tests/t.cql", "x.cql"];

/// Runs one input: NUL-separated, a `widerow.toml` then CQL files (or, with
/// no NUL, one CQL file and the default configuration).
pub fn check(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let mut parts: Vec<&str> = text.split('\0').collect();
    let config = if parts.len() > 1 {
        LintConfig::from_toml(parts.remove(0)).unwrap_or_default()
    } else {
        LintConfig::default()
    };
    let mut linter = Linter::new(config);
    let _ = linter.config().check_rules(linter.rules());
    let mut findings = Vec::new();
    let mut files = Vec::new();
    for (i, part) in parts.iter().take(4).enumerate() {
        let name = FILE_NAMES[i % FILE_NAMES.len()];
        findings.extend(linter.lint_str(name, part));
        files.push((name, *part));
    }
    findings.extend(linter.finish());
    for finding in &findings {
        check_location(finding, &files);
        check_suggestion(finding, linter.context());
    }
    for format in OutputFormat::ALL {
        let _ = output::render(format, &findings, linter.rules(), RenderOptions::default());
    }
    let _ = output::render(
        OutputFormat::Human,
        &findings,
        linter.rules(),
        RenderOptions {
            color: true,
            width: 20,
        },
    );
    let _ = output::summary(&findings);
    let _ = output::suggestions(&findings);
}

/// The finding's start and end are positions of its file.
fn check_location(finding: &Finding, files: &[(&str, &str)]) {
    let l = &finding.location;
    let Some((_, text)) = files.iter().find(|(name, _)| *name == l.file) else {
        return;
    };
    let lines: Vec<&str> = text.split('\n').collect();
    for (line, column) in [(l.line, l.column), (l.end_line, l.end_column)] {
        assert!(
            line >= 1 && line <= lines.len(),
            "finding {} at line {line} of a {}-line file: {finding:?}",
            finding.code,
            lines.len()
        );
        let width = lines[line - 1].chars().count();
        assert!(
            column >= 1 && column <= width + 1,
            "finding {} at column {column} of line {line} ({width} characters): {finding:?}",
            finding.code
        );
    }
    assert!(
        (l.line, l.column) <= (l.end_line, l.end_column),
        "finding {} ends before it starts: {finding:?}",
        finding.code
    );
}

/// A suggested query table is CQL that parses, and when its CREATE TABLE
/// applies to the schema as it ends up, the rewritten query reads one
/// partition of it (what `lint::suggest` promises and checks against the
/// schema of its time; later statements may have taken the name, hence
/// the leniency).
fn check_suggestion(finding: &Finding, schema: &widerow::PlanContext) {
    use widerow::QueryClass;
    let Some(script) = &finding.suggestion else {
        return;
    };
    let mut ctx = schema.clone();
    let mut created = true;
    for statement in widerow::split_statements(script) {
        let parsed = widerow::parse_statement(&statement.text).unwrap_or_else(|e| {
            panic!(
                "suggestion of {} does not parse: {:?}: {e:?}\n{script}",
                finding.code, statement.text
            )
        });
        if widerow::planner::is_schema_statement(&parsed) {
            created &= ctx.apply_schema(&parsed).is_ok();
        } else if created {
            if let Ok(plan) = widerow::planner::plan_statement(&ctx, &parsed) {
                assert!(
                    matches!(
                        plan.class,
                        QueryClass::PointLookup | QueryClass::PartitionScan
                    ),
                    "suggestion of {} reads {:?}:\n{script}",
                    finding.code,
                    plan.class
                );
            }
        }
    }
}
