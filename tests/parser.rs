//! Data-driven parser tests: every `tests/parser/ok/*.cql` and
//! `tests/parser/err/*.cql` file is split into statements the way cqlsh
//! splits a script, each statement is parsed, and the result is compared
//! with an insta snapshot named after the file (`tests/snapshots/`).
//!
//! * `ok` files: the snapshot holds each statement's canonical text, one per
//!   line; the canonical text must also parse back to an equal AST.
//! * `err` files: the snapshot holds, for every statement, Cassandra's
//!   `line L:C …` message and the rendered diagnostic. Statements are parsed
//!   one by one, so an error never hides the statements after it.
//!
//! After changing the parser or a fixture, review and accept the new
//! snapshots with either of
//!
//! ```text
//! cargo insta test --accept --test parser
//! INSTA_UPDATE=always cargo test --test parser
//! ```
//!
//! and read the diff before committing: for `err` files the caret must sit
//! under the offending token and the expected-list must make sense.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use widerow::diagnostic::{render, RenderOptions};
use widerow::{parse_statement, split_statements};

/// The `.cql` files of `tests/parser/<dir>`, sorted so the run is stable.
fn fixtures(dir: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/parser")
        .join(dir);
    let mut files: Vec<PathBuf> = fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", root.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "cql"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no fixtures in {}", root.display());
    files
}

fn stem(path: &Path) -> String {
    path.file_stem()
        .and_then(|s| s.to_str())
        .expect("fixture names are UTF-8")
        .to_string()
}

/// The fixture's path as the diagnostics name it, relative to the crate so
/// snapshots do not depend on where the repository is checked out.
fn display_name(path: &Path) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    path.strip_prefix(root)
        .unwrap_or(path)
        .to_string_lossy()
        .replace('\\', "/")
}

/// The snapshot of an `ok` file: canonical forms, one per line (a string
/// literal holding a line break keeps it, as CQL has no escapes). A statement
/// that fails to parse or does not survive the round trip is added to
/// `problems` with its file position, since an `ok` fixture must be
/// entirely valid; the harness reports them all at once.
fn canonical_forms(path: &Path, problems: &mut Vec<String>) -> String {
    let text = fs::read_to_string(path).expect("fixture is readable");
    let name = display_name(path);
    let mut out = String::new();
    for statement in split_statements(&text) {
        let at = format!("{name}:{}:{}", statement.line, statement.column);
        let ast = match parse_statement(&statement.text) {
            Ok(ast) => ast,
            Err(e) => {
                problems.push(format!("{at}: does not parse: {}", e.message()));
                continue;
            }
        };
        let printed = ast.to_string();
        match parse_statement(&printed) {
            Ok(again) if again == ast => {}
            Ok(_) => problems.push(format!("{at}: canonical form changes the AST: {printed}")),
            Err(e) => problems.push(format!(
                "{at}: canonical form does not parse: {}: {printed}",
                e.message()
            )),
        }
        writeln!(out, "{printed}").expect("writing to a String");
    }
    if out.is_empty() {
        problems.push(format!("{name} holds no statements"));
    }
    out
}

/// The snapshot of an `err` file: for each statement, where it starts, then
/// either the error (message and diagnostic) or, for a statement that
/// parses, its canonical form. Every `err` file must hold at least one
/// statement that fails.
fn error_reports(path: &Path) -> String {
    let text = fs::read_to_string(path).expect("fixture is readable");
    let name = display_name(path);
    let mut out = String::new();
    let mut failures = 0;
    for statement in split_statements(&text) {
        writeln!(out, "=== {name}:{}:{}", statement.line, statement.column)
            .expect("writing to a String");
        match parse_statement(&statement.text) {
            Ok(ast) => {
                writeln!(out, "parses: {ast}\n").expect("writing to a String");
            }
            Err(error) => {
                failures += 1;
                let located = error
                    .clone()
                    .shifted(statement.offset)
                    .with_source(&name, text.clone());
                writeln!(out, "{}", error.cqlsh_text()).expect("writing to a String");
                writeln!(
                    out,
                    "{}",
                    render(&located, RenderOptions::default()).trim_end()
                )
                .expect("writing to a String");
                out.push('\n');
            }
        }
    }
    assert!(failures > 0, "{name}: every statement parses");
    out
}

#[test]
fn ok_fixtures() {
    let mut problems = Vec::new();
    for path in fixtures("ok") {
        let before = problems.len();
        let snapshot = canonical_forms(&path, &mut problems);
        if problems.len() == before {
            insta::assert_snapshot!(format!("ok__{}", stem(&path)), snapshot);
        }
    }
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
}

#[test]
fn err_fixtures() {
    let files = fixtures("err");
    let statements: usize = files
        .iter()
        .map(|path| split_statements(&fs::read_to_string(path).expect("readable")).len())
        .sum();
    assert!(
        statements >= 40,
        "the err fixtures should hold at least 40 malformed statements, found {statements}"
    );
    for path in files {
        let snapshot = error_reports(&path);
        insta::assert_snapshot!(format!("err__{}", stem(&path)), snapshot);
    }
}
