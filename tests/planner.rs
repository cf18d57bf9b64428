//! The planner corpus: `tests/planner/*.cql`, each statement followed by the
//! outcome Cassandra gives it — a query class or an error — in a
//! `-- expect:` comment (format in `tests/planner/README.md`).
//!
//! Regenerate every expectation from what widerow does now, then review the
//! diff against the references the cases cite:
//!
//! ```sh
//! WIDEROW_BLESS=1 cargo test --test planner
//! git diff tests/planner
//! ```

use std::fs;
use std::path::{Path, PathBuf};

use widerow::planner::{is_schema_statement, plan_statement, PlanContext};
use widerow::{parse_statement, split_statements};

const EXPECT: &str = "-- expect:";

/// One statement of a corpus file and what it should do.
struct Case {
    line: usize,
    text: String,
    /// Byte range of the expectation line's text after `-- expect:`, if any.
    expectation: Option<(usize, usize)>,
}

fn corpus_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/planner");
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "cql"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

/// Finds each statement's `-- expect:` line between it and the next one.
fn cases(source: &str) -> Vec<Case> {
    let statements = split_statements(source);
    let mut out = Vec::new();
    for (i, statement) in statements.iter().enumerate() {
        let after = statement.offset + statement.text.len();
        let until = statements.get(i + 1).map_or(source.len(), |s| s.offset);
        let gap = &source[after..until];
        let expectation = gap.find(EXPECT).map(|at| {
            let start = after + at + EXPECT.len();
            let end = source[start..]
                .find('\n')
                .map_or(source.len(), |n| start + n);
            (start, end)
        });
        out.push(Case {
            line: statement.line,
            text: statement.text.clone(),
            expectation,
        });
    }
    out
}

/// What widerow does with a statement, in the corpus's words.
fn outcome(ctx: &mut PlanContext, text: &str) -> String {
    let statement = match parse_statement(text) {
        Ok(statement) => statement,
        Err(e) => return format!("{}: {}", e.kind().name(), e.message()),
    };
    let result = if is_schema_statement(&statement) {
        ctx.apply_schema(&statement).map(|_| "ok".to_string())
    } else {
        plan_statement(ctx, &statement).map(|plan| plan.class.as_str().to_string())
    };
    result.unwrap_or_else(|e| format!("{}: {}", e.kind().name(), e.message()))
}

/// An expectation of a kind alone (`SyntaxException`) matches any message
/// of that kind: ANTLR's texts are not reproduced byte for byte.
fn matches(want: &str, got: &str) -> bool {
    want == got || (!want.contains(':') && got.split(':').next() == Some(want))
}

#[test]
fn planner_corpus() {
    let bless = std::env::var_os("WIDEROW_BLESS").is_some();
    let mut failures = Vec::new();
    let mut total = 0;
    for file in corpus_files() {
        let Ok(source) = fs::read_to_string(&file) else {
            failures.push(format!("{}: unreadable", file.display()));
            continue;
        };
        let name = file
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        let mut ctx = PlanContext::new();
        let mut rewrites: Vec<(usize, usize, String)> = Vec::new();
        for case in cases(&source) {
            let got = outcome(&mut ctx, &case.text);
            match case.expectation {
                Some((start, end)) => {
                    total += 1;
                    let want = source[start..end].trim_start_matches(' ');
                    if !matches(want, &got) {
                        if bless {
                            rewrites.push((start, end, format!(" {got}")));
                        } else {
                            failures.push(format!(
                                "{name}:{}: {}\n    expected: {want}\n    got:      {got}",
                                case.line, case.text
                            ));
                        }
                    }
                }
                None if got != "ok" => failures.push(format!(
                    "{name}:{}: setup statement failed: {}\n    {got}",
                    case.line, case.text
                )),
                None => {}
            }
        }
        if bless && !rewrites.is_empty() {
            let mut text = source.clone();
            for (start, end, replacement) in rewrites.into_iter().rev() {
                text.replace_range(start..end, &replacement);
            }
            fs::write(&file, text).expect("rewrite corpus file");
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {total} planner cases disagree:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    assert!(total > 0, "no planner cases found");
}
