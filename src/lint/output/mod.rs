//! How findings are written: for people (`human`, `concise`) and for tools
//! (`json` Lines, `sarif` 2.1.0, `github` workflow commands).
//!
//! Library code: every renderer returns a `String` and never touches a
//! terminal, so the command line, tests and embedders write the same text.

pub mod concise;
pub mod github;
pub mod human;
pub mod json;
pub mod sarif;

use std::collections::HashMap;
use std::fmt;

use super::{Finding, Level, Rule};
use crate::diagnostic::RenderOptions;

/// The output formats of `widerow lint --format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OutputFormat {
    /// Each finding drawn with its statement and the offending text
    /// underlined.
    Human,
    /// One line per finding: `file:line:col: code name: message`.
    Concise,
    /// JSON Lines, one object per finding.
    Json,
    /// One SARIF 2.1.0 log.
    Sarif,
    /// GitHub Actions workflow commands (annotations).
    Github,
}

impl OutputFormat {
    /// Every format, in the order `--help` lists them.
    pub const ALL: [OutputFormat; 5] = [
        OutputFormat::Human,
        OutputFormat::Concise,
        OutputFormat::Json,
        OutputFormat::Sarif,
        OutputFormat::Github,
    ];

    /// The format's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            OutputFormat::Human => "human",
            OutputFormat::Concise => "concise",
            OutputFormat::Json => "json",
            OutputFormat::Sarif => "sarif",
            OutputFormat::Github => "github",
        }
    }

    /// Reads a format name.
    pub fn parse(name: &str) -> Option<OutputFormat> {
        OutputFormat::ALL.into_iter().find(|f| f.name() == name)
    }
}

impl fmt::Display for OutputFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Renders `findings` in `format`. `rules` describe the rules for the
/// formats that list them (SARIF); `options` shape the `human` drawing.
pub fn render(
    format: OutputFormat,
    findings: &[Finding],
    rules: &[Box<dyn Rule>],
    options: RenderOptions,
) -> String {
    match format {
        OutputFormat::Human => human::render_all(findings, options),
        OutputFormat::Concise => concise::render_all(findings),
        OutputFormat::Json => json::render_all(findings),
        OutputFormat::Sarif => sarif::render(findings, rules),
        OutputFormat::Github => github::render_all(findings),
    }
}

/// `findings` in file order: files as they first appear, and within a
/// file by line, then column. Rules report in the order they run and the
/// rules that need every file report last, but a reader (and an editor
/// jumping from one finding to the next) walks the file top to bottom.
pub fn in_file_order(findings: &[Finding]) -> Vec<&Finding> {
    let mut files: HashMap<&str, usize> = HashMap::new();
    for finding in findings {
        let next = files.len();
        files.entry(&finding.location.file).or_insert(next);
    }
    let mut ordered: Vec<&Finding> = findings.iter().collect();
    ordered.sort_by_key(|f| {
        let l = &f.location;
        (files[l.file.as_str()], l.line, l.column)
    });
    ordered
}

/// How many findings of each level.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Errors.
    pub errors: usize,
    /// Warnings.
    pub warnings: usize,
    /// Infos.
    pub infos: usize,
}

impl Counts {
    /// Counts `findings` by level.
    pub fn of(findings: &[Finding]) -> Counts {
        let mut counts = Counts::default();
        for finding in findings {
            match finding.level {
                Level::Error => counts.errors += 1,
                Level::Warning => counts.warnings += 1,
                Level::Info => counts.infos += 1,
            }
        }
        counts
    }

    /// All findings.
    pub fn total(&self) -> usize {
        self.errors + self.warnings + self.infos
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The summary line: `3 findings: 1 error, 2 warnings, 0 infos`, or
/// `no findings`.
pub fn summary(findings: &[Finding]) -> String {
    let counts = Counts::of(findings);
    if counts.total() == 0 {
        return "no findings".into();
    }
    format!(
        "{}: {}, {}, {}",
        plural(counts.total(), "finding", "findings"),
        plural(counts.errors, "error", "errors"),
        plural(counts.warnings, "warning", "warnings"),
        plural(counts.infos, "info", "infos"),
    )
}

/// The suggestions of `findings` as a CQL script: each behind a comment
/// naming the finding it fixes. Empty when no finding has one.
pub fn suggestions(findings: &[Finding]) -> String {
    let mut out = String::new();
    for finding in in_file_order(findings) {
        let Some(suggestion) = &finding.suggestion else {
            continue;
        };
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str("-- ");
        out.push_str(&concise::line(finding).replace('\n', " "));
        out.push('\n');
        out.push_str(suggestion.trim_end());
        out.push('\n');
    }
    out
}
