//! Rendering errors and findings for people: the statement with the
//! offending text underlined, a label, and help.
//!
//! This is library code so that tests, the command line and embedders show
//! the same text; it writes to a `String` and never touches a terminal.

use miette::{Diagnostic, GraphicalReportHandler, GraphicalTheme};

/// How a diagnostic is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RenderOptions {
    /// Use ANSI colours and Unicode box drawing.
    pub color: bool,
    /// Wrap lines at this width.
    pub width: usize,
}

impl Default for RenderOptions {
    fn default() -> RenderOptions {
        RenderOptions {
            color: false,
            width: 100,
        }
    }
}

/// Renders `diagnostic` (with its source text, when it has one) as miette
/// draws it.
pub fn render(diagnostic: &dyn Diagnostic, options: RenderOptions) -> String {
    let theme = if options.color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(options.width)
        .with_links(false);
    let mut out = String::new();
    if handler.render_report(&mut out, diagnostic).is_err() {
        out = diagnostic.to_string();
    }
    out
}

/// Renders `diagnostic` as [`render`] does, without its code (the
/// exception's name) on a line of its own: for output that has just named
/// the error in cqlsh's form, so the name is not printed twice.
pub fn render_after_message(diagnostic: &dyn Diagnostic, options: RenderOptions) -> String {
    render(&Uncoded(diagnostic), options)
}

/// A diagnostic with its code left out.
struct Uncoded<'a>(&'a dyn Diagnostic);

impl std::fmt::Debug for Uncoded<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.0, f)
    }
}

impl std::fmt::Display for Uncoded<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(self.0, f)
    }
}

impl std::error::Error for Uncoded<'_> {}

impl Diagnostic for Uncoded<'_> {
    fn severity(&self) -> Option<miette::Severity> {
        self.0.severity()
    }

    fn help<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        self.0.help()
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.0.source_code()
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        self.0.labels()
    }
}
