//! How results and errors are written, in text for people and in JSON
//! Lines for tools (one object per statement, errors included, in order).

use serde_json::{json, Map, Value};
use widerow::diagnostic::{render_after_message, RenderOptions};
use widerow::{Error, ScriptStatement};

/// `FILE:LINE: <error as cqlsh prints it>`, where LINE is the line the
/// statement starts on, then the statement with the error underlined when
/// `with_diagnostic` is set.
pub fn human_error(
    name: &str,
    statement: &ScriptStatement,
    error: &Error,
    with_diagnostic: bool,
    color: bool,
) -> String {
    let mut out = format!("{name}:{}:{}\n", statement.line, error.cqlsh_text());
    if with_diagnostic {
        let located = error.clone().with_statement_source(
            name,
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

/// A JSON Lines record for a statement: `line`, `kind`, then `fields`,
/// with `file` added when several files are read.
pub fn json_record(
    file: Option<&str>,
    statement: &ScriptStatement,
    kind: &str,
    fields: Vec<(&str, Value)>,
) -> String {
    let mut object = Map::new();
    if let Some(file) = file {
        object.insert("file".into(), json!(file));
    }
    object.insert("line".into(), json!(statement.line));
    object.insert("kind".into(), json!(kind));
    for (key, value) in fields {
        object.insert(key.into(), value);
    }
    Value::Object(object).to_string()
}

/// The JSON Lines record of an error.
pub fn json_error(file: Option<&str>, statement: &ScriptStatement, error: &Error) -> String {
    json_record(
        file,
        statement,
        "error",
        vec![
            ("error", json!(error.kind().name())),
            ("message", json!(error.message())),
        ],
    )
}
