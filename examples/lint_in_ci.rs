//! Linting a directory of `.cql` files in CI: every file is read, findings
//! are printed one per line, and the process fails when any finding is an
//! error — what `widerow lint DIR` does, from Rust.
//!
//! Run with `cargo run --example lint_in_ci -- examples`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use widerow::lint::{Level, LintConfig, Linter};

fn cql_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            cql_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "cql") {
            out.push(path);
        }
    }
}

fn main() -> ExitCode {
    let dir = std::env::args().nth(1).unwrap_or_else(|| "examples".into());
    let mut files = Vec::new();
    cql_files(Path::new(&dir), &mut files);
    files.sort();
    let mut errors = 0;
    for file in &files {
        // Each example is a self-contained model: lint it on its own schema.
        let mut linter = Linter::new(LintConfig::default());
        let mut findings = match linter.lint_file(file) {
            Ok(findings) => findings,
            Err(e) => {
                eprintln!("{}: {e}", file.display());
                return ExitCode::from(2);
            }
        };
        findings.extend(linter.finish());
        for f in &findings {
            println!(
                "{}:{}:{}: {} {}: {}",
                f.location.file, f.location.line, f.location.column, f.code, f.name, f.message
            );
        }
        errors += findings.iter().filter(|f| f.level == Level::Error).count();
    }
    eprintln!("{} files, {errors} errors", files.len());
    if errors > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
