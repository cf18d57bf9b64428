//! Errors as cqlsh prints them: in a script `FILE:LINE:` then cqlsh's text
//! (LINE is where the statement starts — see docs/divergences.md), in the
//! REPL the text alone; with colour, the statement follows with the
//! offending span underlined.

use crate::diagnostic::{render_after_message, RenderOptions};
use crate::error::Error;
use crate::syntax::script::ScriptStatement;

/// The error text for standard error. `source` is the script's name, or
/// `None` in the interactive shell.
pub fn human_error(
    source: Option<&str>,
    statement: &ScriptStatement,
    error: &Error,
    color: bool,
) -> String {
    let mut out = match source {
        Some(name) => format!("{name}:{}:{}\n", statement.line, error.cqlsh_text()),
        None => format!("{}\n", error.cqlsh_text()),
    };
    if color {
        let located = error.clone().with_statement_source(
            source.unwrap_or("<stdin>"),
            statement.text.clone(),
            statement.line,
            statement.column,
        );
        out.push_str(&render_after_message(
            &located,
            RenderOptions {
                color,
                ..RenderOptions::default()
            },
        ));
    }
    out
}
