//! Findings: what a rule reports, as plain data.

use serde::Serialize;

use crate::syntax::script::ScriptStatement;
use crate::syntax::span::{line_col, Span};

/// How serious a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Worth knowing.
    Info,
    /// Likely to hurt on a cluster.
    Warning,
    /// Cassandra refuses it, or it will fail on a cluster.
    Error,
}

impl Level {
    /// `error`, `warning` or `info`.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Info => "info",
            Level::Warning => "warning",
            Level::Error => "error",
        }
    }

    /// Reads `error`, `warning` or `info`.
    pub fn parse(text: &str) -> Option<Level> {
        match text.to_ascii_lowercase().as_str() {
            "error" => Some(Level::Error),
            "warning" | "warn" => Some(Level::Warning),
            "info" => Some(Level::Info),
            _ => None,
        }
    }
}

/// Where a finding points: file, and 1-based lines and columns (columns in
/// characters), end exclusive.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Location {
    /// The file, as given on the command line (or `<stdin>`).
    pub file: String,
    /// First line.
    pub line: usize,
    /// First column.
    pub column: usize,
    /// Last line.
    pub end_line: usize,
    /// Column after the last character.
    pub end_column: usize,
}

impl Location {
    /// The location of `span` (relative to `statement`'s text) in its file.
    pub fn of(file: &str, statement: &ScriptStatement, span: Span) -> Location {
        let text = &statement.text;
        let at = |offset: usize| {
            let (line, column) = line_col(text, offset.min(text.len()));
            let column = if line == 1 {
                column + statement.column - 1
            } else {
                column
            };
            (statement.line + line - 1, column)
        };
        let (line, column) = at(span.start);
        let (end_line, end_column) = at(span.end.max(span.start));
        Location {
            file: file.to_string(),
            line,
            column,
            end_line,
            end_column,
        }
    }
}

/// One finding of one rule.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    /// The rule's kebab-case name.
    pub name: &'static str,
    /// The rule's code.
    pub code: &'static str,
    /// Its level (after configuration).
    pub level: Level,
    /// Where.
    #[serde(flatten)]
    pub location: Location,
    /// What is wrong.
    pub message: String,
    /// What to do about it.
    pub help: Option<String>,
    /// A complete fix, e.g. the CREATE TABLE of a query table and the query
    /// rewritten against it.
    pub suggestion: Option<String>,
    /// The statement's text, for renderers that show it.
    #[serde(skip)]
    pub source: Option<ScriptStatement>,
    /// The span within the statement's text.
    #[serde(skip)]
    pub span: Span,
}
