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
