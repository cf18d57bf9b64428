//! The example data models: every query in `examples/*.cql` is annotated
//! (`-- Accepted: <class>` or `-- Refused: …`) with what Cassandra does with
//! it, and the planner must agree. Everything else in the files — schema,
//! data, batches — must be accepted.

use std::fs;
use std::path::Path;

use widerow::planner::{is_schema_statement, plan_statement, PlanContext};
use widerow::{parse_statement, split_statements};

/// What the comment block before a statement says of it.
fn annotation(comments: &str) -> Option<String> {
    comments.lines().rev().find_map(|line| {
        let line = line.trim_start_matches("--").trim();
        if let Some(rest) = line.strip_prefix("Accepted:") {
            let class = rest
                .trim()
                .split(|c: char| c == '.' || c == ',' || c.is_whitespace())
                .next()?;
            Some(class.to_string())
        } else if line.starts_with("Refused:") {
            Some("rejected".to_string())
        } else {
            None
        }
    })
}

#[test]
fn example_queries_get_the_outcome_their_comments_state() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let mut files: Vec<_> = fs::read_dir(&dir)
        .expect("examples folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "cql"))
        .collect();
    files.sort();
    let mut failures = Vec::new();
    let mut checked = 0;
    for file in files {
        let source = fs::read_to_string(&file).expect("readable");
        let name = file
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        let mut ctx = PlanContext::new();
        let mut previous_end = 0;
        for statement in split_statements(&source) {
            let expected = annotation(&source[previous_end..statement.offset]);
            previous_end = statement.offset + statement.text.len();
            let parsed = match parse_statement(&statement.text) {
                Ok(parsed) => parsed,
                Err(e) => {
                    failures.push(format!(
                        "{name}:{}: does not parse: {}",
                        statement.line,
                        e.message()
                    ));
                    continue;
                }
            };
            let got = if is_schema_statement(&parsed) {
                ctx.apply_schema(&parsed).map(|_| "ok".to_string())
            } else {
                plan_statement(&ctx, &parsed).map(|p| p.class.as_str().to_string())
            }
            .unwrap_or_else(|_| "rejected".to_string());
            match expected {
                Some(want) => {
                    checked += 1;
                    if want != got {
                        failures.push(format!(
                            "{name}:{}: expected {want}, got {got}",
                            statement.line
                        ));
                    }
                }
                None if got == "rejected" => {
                    failures.push(format!(
                        "{name}:{}: unannotated statement refused",
                        statement.line
                    ));
                }
                None => {}
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked >= 50, "only {checked} annotated queries found");
}

/// Every example runs as a script: the annotated queries get their class
/// (or are refused), and everything else — schema, data, batches —
/// succeeds. The output of each whole script is pinned as a snapshot,
/// reviewed against the `-- Returns:` comment before each query.
#[test]
fn example_scripts_run_and_their_output_is_pinned() {
    use std::sync::Arc;
    use widerow::render::table::{table, TableOptions};
    use widerow::session::{ManualClock, SeededIds, Session};

    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let mut files: Vec<_> = fs::read_dir(&dir)
        .expect("examples folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "cql"))
        .collect();
    files.sort();
    let mut failures = Vec::new();
    for file in files {
        let source = fs::read_to_string(&file).expect("readable");
        let name = file
            .file_stem()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        let clock = ManualClock::at_micros(1_750_000_000_000_000);
        let mut session = Session::with_sources(Arc::new(clock), Box::new(SeededIds::new(1)));
        let mut output = String::new();
        let mut previous_end = 0;
        for statement in split_statements(&source) {
            let expected = annotation(&source[previous_end..statement.offset]);
            previous_end = statement.offset + statement.text.len();
            match (session.execute(&statement.text), expected.as_deref()) {
                (Ok(result), Some("rejected")) => failures.push(format!(
                    "{name}:{}: expected a refusal, got {:?}",
                    statement.line, result.class
                )),
                (Ok(result), Some(class)) => {
                    let got = result.class.map(|c| c.as_str());
                    if got != Some(class) {
                        failures.push(format!(
                            "{name}:{}: expected {class}, got {got:?}",
                            statement.line
                        ));
                    }
                    output.push_str(&format!("-- line {}\n", statement.line));
                    output.push_str(&table(&result, &TableOptions::batch()));
                }
                (Ok(_), None) => {}
                (Err(e), Some("rejected")) => {
                    output.push_str(&format!("-- line {}\n{}\n", statement.line, e.cqlsh_text()));
                }
                (Err(e), _) => failures.push(format!("{name}:{}: {}", statement.line, e.message())),
            }
        }
        insta::assert_snapshot!(format!("example_run__{name}"), output);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
