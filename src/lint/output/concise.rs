//! One line per finding: `file:line:col: code name: message`.

use crate::lint::Finding;

/// The line of one finding (without a newline).
pub fn line(finding: &Finding) -> String {
    let l = &finding.location;
    format!(
        "{}:{}:{}: {} {}: {}",
        l.file, l.line, l.column, finding.code, finding.name, finding.message
    )
}

/// Every finding, one line each.
pub fn render_all(findings: &[Finding]) -> String {
    super::in_file_order(findings)
        .into_iter()
        .map(|f| line(f) + "\n")
        .collect()
}
