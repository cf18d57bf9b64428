//! An application's own lint rule, next to widerow's: this one asks every
//! table to carry a `comment`, so a schema documents itself.
//!
//! Run with `cargo run --example custom_rule`.

use widerow::lint::rules::finding;
use widerow::lint::{Finding, Level, LintConfig, Linter, Rule, StatementContext};
use widerow::syntax::ast::{Statement, TableOption};

/// X001 `table-without-comment`.
struct TableWithoutComment;

impl Rule for TableWithoutComment {
    fn name(&self) -> &'static str {
        "table-without-comment"
    }
    fn code(&self) -> &'static str {
        "X001"
    }
    fn default_level(&self) -> Level {
        Level::Info
    }
    fn summary(&self) -> &'static str {
        "a table has no comment"
    }
    fn documentation(&self) -> &'static str {
        "## What it does\n\nAsks every CREATE TABLE to set `comment`.\n"
    }
    fn check_statement(&self, cx: &StatementContext<'_>, out: &mut Vec<Finding>) {
        let Statement::CreateTable(table) = cx.statement else {
            return;
        };
        let has_comment = table
            .options
            .iter()
            .any(|o| matches!(o, TableOption::Property(p) if p.name.name == "comment"));
        if !has_comment {
            let message = format!("table {} has no comment", table.name);
            out.push(finding(self, cx, table.name.span, message));
        }
    }
}

fn main() {
    let mut linter = Linter::new(LintConfig::default());
    linter.add_rule(Box::new(TableWithoutComment));
    let findings = linter.lint_str(
        "schema.cql",
        "CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'datacenter1': 3};
         CREATE TABLE ks.t (k int PRIMARY KEY, v text);",
    );
    for f in findings.iter().chain(linter.finish().iter()) {
        println!(
            "{}:{}:{}: {} {}: {}",
            f.location.file, f.location.line, f.location.column, f.code, f.name, f.message
        );
    }
}
