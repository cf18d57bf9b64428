//! Findings for people: each drawn by miette, with the statement shown at
//! its own line numbers in the file, the offending text underlined and
//! labelled with the message, and the help (and the suggested fix) below.

use std::fmt;

use miette::{Diagnostic, LabeledSpan, Severity, SourceCode, SourceSpan};

use crate::diagnostic::{render, RenderOptions};
use crate::error::StatementSource;
use crate::lint::{Finding, Level};

/// A finding as a miette [`Diagnostic`].
#[derive(Debug)]
pub struct FindingDiagnostic<'a> {
    finding: &'a Finding,
    source: Option<StatementSource>,
    help: Option<String>,
}

impl<'a> FindingDiagnostic<'a> {
    /// Wraps `finding`.
    pub fn new(finding: &'a Finding) -> FindingDiagnostic<'a> {
        let source = finding.source.as_ref().map(|s| StatementSource {
            name: finding.location.file.clone(),
            text: s.text.clone(),
            line: s.line.max(1),
            column: s.column.max(1),
        });
        let help = match (&finding.help, &finding.suggestion) {
            (None, None) => None,
            (Some(help), None) => Some(help.clone()),
            (None, Some(suggestion)) => Some(format!("suggestion:\n{}", suggestion.trim_end())),
            (Some(help), Some(suggestion)) => {
                Some(format!("{help}\nsuggestion:\n{}", suggestion.trim_end()))
            }
        };
        FindingDiagnostic {
            finding,
            source,
            help,
        }
    }
}

impl fmt::Display for FindingDiagnostic<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.finding.message)
    }
}

impl std::error::Error for FindingDiagnostic<'_> {}

impl Diagnostic for FindingDiagnostic<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        Some(Box::new(format!(
            "{} {}",
            self.finding.code, self.finding.name
        )))
    }

    fn severity(&self) -> Option<Severity> {
        Some(match self.finding.level {
            Level::Error => Severity::Error,
            Level::Warning => Severity::Warning,
            Level::Info => Severity::Advice,
        })
    }

    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.help
            .as_deref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.source.as_ref().map(|s| s as &dyn SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let source = self.source.as_ref()?;
        let span = self.finding.span;
        let start = span.start.min(source.text.len());
        let end = span.end.clamp(start, source.text.len());
        let label = LabeledSpan::new_with_span(
            Some(self.finding.message.clone()),
            SourceSpan::from(start..end),
        );
        Some(Box::new(std::iter::once(label)))
    }
}

/// One finding, drawn. A finding without its statement's text (an unused
/// suppression comment, say) starts with its `file:line:column`.
pub fn render_one(finding: &Finding, options: RenderOptions) -> String {
    let diagnostic = FindingDiagnostic::new(finding);
    let mut out = String::new();
    if diagnostic.source.is_none() {
        let l = &finding.location;
        out.push_str(&format!("{}:{}:{}\n", l.file, l.line, l.column));
    }
    out.push_str(&render(&diagnostic, options));
    out
}

/// Every finding, drawn, separated by blank lines.
pub fn render_all(findings: &[Finding], options: RenderOptions) -> String {
    let mut out = String::new();
    for finding in super::in_file_order(findings) {
        let text = render_one(finding, options);
        out.push_str(text.trim_end_matches('\n'));
        out.push_str("\n\n");
    }
    out
}
