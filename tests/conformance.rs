//! The conformance corpus: `tests/conformance/*.cql`, each run in a fresh
//! session with a fixed clock, its output in `--format json` shape (minus
//! metrics) compared with the `.jsonl` file beside it. The conventions are
//! in `tests/conformance/README.md`.
//!
//! Regenerate after a deliberate change, then review the diff against the
//! references the scripts cite:
//!
//! ```sh
//! WIDEROW_BLESS=1 cargo test --test conformance
//! git diff tests/conformance
//! ```

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use widerow::render::json::{error_record, result_record};
use widerow::session::{ManualClock, SeededIds, Session};
use widerow::split_statements;

/// 2025-06-01 00:00:00 UTC, the corpus's fixed start time.
const START_MICROS: i64 = 1_748_736_000_000_000;

const ADVANCE: &str = "-- @advance";
const PAGING: &str = "-- @paging";

/// The page size a `-- @paging on|off` line in `gap` asks for (the last one
/// wins), if any: `on` pages by 100 rows as scripts do, `off` is unpaged.
fn paging(gap: &str) -> Option<Option<usize>> {
    gap.lines()
        .filter_map(|l| l.trim().strip_prefix(PAGING))
        .map(|v| (v.trim() != "off").then_some(100))
        .next_back()
}

fn corpus_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance");
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

/// The seconds of every `-- @advance N` line in `gap`.
fn advances(gap: &str) -> i64 {
    gap.lines()
        .filter_map(|l| l.trim().strip_prefix(ADVANCE))
        .filter_map(|n| n.trim().parse::<i64>().ok())
        .sum()
}

/// Runs a script the way the corpus defines, one JSON line per statement.
fn run(source: &str) -> String {
    let clock = ManualClock::at_micros(START_MICROS);
    let mut session = Session::with_sources(Arc::new(clock.clone()), Box::new(SeededIds::new(42)));
    // The switches the oracle node pins (scripts/cassandra/cassandra.yaml).
    *session.schema_settings_mut() = widerow::schema::SchemaSettings::permissive();
    let mut out = String::new();
    // Scripts page by 100 rows, as cqlsh does, until `-- @paging off`.
    session.set_page_size(Some(100));
    let mut previous_end = 0;
    for statement in split_statements(source) {
        let gap = &source[previous_end..statement.offset];
        clock.advance_secs(advances(gap));
        if let Some(page_size) = paging(gap) {
            session.set_page_size(page_size);
        }
        previous_end = statement.offset + statement.text.len();
        let line = match session.execute(&statement.text) {
            Ok(result) => result_record(None, statement.line, &result, false),
            Err(error) => error_record(None, statement.line, &error, error.is_refusal()),
        };
        out.push_str(&line);
        out.push('\n');
    }
    out
}

#[test]
fn conformance_corpus() {
    let bless = std::env::var_os("WIDEROW_BLESS").is_some();
    let files = corpus_files();
    assert!(!files.is_empty(), "no conformance scripts found");
    let mut failures = Vec::new();
    let mut statements = 0;
    for path in &files {
        let source = fs::read_to_string(path).expect("readable script");
        let actual = run(&source);
        statements += actual.lines().count();
        let expected_path = path.with_extension("jsonl");
        if bless {
            fs::write(&expected_path, &actual).expect("writable expectation");
            continue;
        }
        let expected = fs::read_to_string(&expected_path).unwrap_or_default();
        if expected != actual {
            let name = path
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            let (e, a): (Vec<&str>, Vec<&str>) =
                (expected.lines().collect(), actual.lines().collect());
            let mut report = format!("{name}:\n");
            for i in 0..e.len().max(a.len()) {
                let (x, y) = (
                    e.get(i).copied().unwrap_or("<none>"),
                    a.get(i).copied().unwrap_or("<none>"),
                );
                if x != y {
                    report.push_str(&format!("  expected: {x}\n  actual:   {y}\n"));
                }
            }
            failures.push(report);
        }
    }
    assert!(
        statements >= 400 || bless,
        "the corpus has {statements} statements, fewer than 400"
    );
    assert!(
        failures.is_empty(),
        "{} of {} scripts differ:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}
