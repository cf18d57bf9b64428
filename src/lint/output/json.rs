//! JSON Lines: one object per finding, with `file`, `line`, `column`,
//! `end_line`, `end_column`, `code`, `name`, `level`, `message`, `help` and
//! `suggestion` (`null` when absent), in that order.

use serde_json::{json, Value};

use crate::lint::Finding;

/// The object of one finding.
pub fn record(finding: &Finding) -> Value {
    let l = &finding.location;
    json!({
        "file": l.file,
        "line": l.line,
        "column": l.column,
        "end_line": l.end_line,
        "end_column": l.end_column,
        "code": finding.code,
        "name": finding.name,
        "level": finding.level.as_str(),
        "message": finding.message,
        "help": finding.help,
        "suggestion": finding.suggestion,
    })
}

/// Every finding, one JSON object per line.
pub fn render_all(findings: &[Finding]) -> String {
    super::in_file_order(findings)
        .into_iter()
        .map(|f| record(f).to_string() + "\n")
        .collect()
}
