//! GitHub Actions workflow commands: `::error file=…,line=…,col=…,
//! endLine=…,endColumn=…,title=code name::message`, one per finding
//! (`warning` for warnings, `notice` for infos), which the runner shows as
//! annotations on the pull request.

use crate::lint::{Finding, Level};

/// Escapes a command's message (`%`, CR and LF), as the runner reads it.
fn escape_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a property value (also `:` and `,`).
fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

/// The command of one finding (without a newline).
pub fn command(finding: &Finding) -> String {
    let l = &finding.location;
    let kind = match finding.level {
        Level::Error => "error",
        Level::Warning => "warning",
        Level::Info => "notice",
    };
    format!(
        "::{kind} file={},line={},col={},endLine={},endColumn={},title={}::{}",
        escape_property(&l.file),
        l.line,
        l.column,
        l.end_line,
        l.end_column,
        escape_property(&format!("{} {}", finding.code, finding.name)),
        escape_data(&finding.message),
    )
}

/// Every finding, one command per line.
pub fn render_all(findings: &[Finding]) -> String {
    super::in_file_order(findings)
        .into_iter()
        .map(|f| command(f) + "\n")
        .collect()
}
