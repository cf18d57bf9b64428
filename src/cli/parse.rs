//! `widerow parse FILE…`: each statement in canonical CQL, or its syntax
//! error. Exit 0 when everything parsed, 1 on a syntax error, 2 when a file
//! could not be read.

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;

use serde_json::json;
use widerow::syntax::lexer::Lexer;
use widerow::syntax::span::line_col;
use widerow::{parse_statement, ScriptStatement};

use super::args::{Format, OutputArgs, ParseArgs};
use super::inputs::Input;
use super::report::{human_error, json_error, json_record};

/// What went wrong across all inputs, for the exit code.
#[derive(Default)]
struct Outcome {
    syntax_errors: bool,
    unreadable: bool,
}

/// Runs `widerow parse`.
pub fn run(args: &ParseArgs, output: &OutputArgs) -> ExitCode {
    let mut inputs: Vec<Result<Input, String>> =
        args.files.iter().map(|p| Input::open(p)).collect();
    if let Some(text) = &args.execute {
        inputs.push(Ok(Input::text(text)));
    }
    let several = inputs.len() > 1;
    let color = output.use_color(io::stderr().is_terminal());
    let mut outcome = Outcome::default();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    for input in inputs {
        let input = match input {
            Ok(input) => input,
            Err(message) => {
                eprintln!("widerow: {message}");
                outcome.unreadable = true;
                continue;
            }
        };
        let name = input.name.clone();
        let file = several.then_some(name.as_str());
        for statement in input.statements() {
            let statement = match statement {
                Ok(statement) => statement,
                Err(e) => {
                    eprintln!("widerow: {name}: {e}");
                    outcome.unreadable = true;
                    break;
                }
            };
            let line = if args.tokens {
                Some(tokens_line(file, &statement, output.format))
            } else {
                match parse_line(file, &name, &statement, args.ast, output.format, color) {
                    Ok(line) => Some(line),
                    Err(line) => {
                        outcome.syntax_errors = true;
                        line
                    }
                }
            };
            if let Some(line) = line {
                if writeln!(out, "{line}").is_err() {
                    return ExitCode::from(2);
                }
            }
        }
    }
    let _ = out.flush();
    if outcome.unreadable {
        ExitCode::from(2)
    } else if outcome.syntax_errors {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// The output for one statement; `Err` carries the standard-output line of
/// a failure, if any (in text mode the error goes to standard error).
fn parse_line(
    file: Option<&str>,
    name: &str,
    statement: &ScriptStatement,
    ast: bool,
    format: Format,
    color: bool,
) -> Result<String, Option<String>> {
    match parse_statement(&statement.text) {
        Ok(parsed) => Ok(match (format, ast) {
            (Format::Text, false) => format!("{parsed};"),
            (Format::Text, true) => format!("{parsed:#?}"),
            (Format::Json, false) => json_record(
                file,
                statement,
                "statement",
                vec![("statement", json!(parsed.to_string()))],
            ),
            (Format::Json, true) => json_record(
                file,
                statement,
                "ast",
                vec![("ast", json!(format!("{parsed:?}")))],
            ),
        }),
        Err(error) => Err(match format {
            Format::Text => {
                eprint!("{}", human_error(name, statement, &error, true, color));
                None
            }
            Format::Json => Some(json_error(file, statement, &error)),
        }),
    }
}

/// The lexer's tokens of a statement, with file positions.
fn tokens_line(file: Option<&str>, statement: &ScriptStatement, format: Format) -> String {
    let tokens: Vec<_> = Lexer::new(&statement.text)
        .map(|token| {
            let (line, column) = line_col(&statement.text, token.span.start);
            let column = if line == 1 {
                column + statement.column - 1
            } else {
                column
            };
            (statement.line + line - 1, column, token)
        })
        .collect();
    match format {
        Format::Text => tokens
            .iter()
            .map(|(line, column, token)| {
                format!(
                    "{line}:{column}\t{:?}\t{}",
                    token.kind,
                    token.text(&statement.text)
                )
            })
            .collect::<Vec<_>>()
            .join("\n"),
        Format::Json => {
            let list: Vec<_> = tokens
                .iter()
                .map(|(line, column, token)| {
                    json!({
                        "line": line,
                        "column": column,
                        "kind": format!("{:?}", token.kind),
                        "text": token.text(&statement.text),
                    })
                })
                .collect();
            json_record(file, statement, "tokens", vec![("tokens", json!(list))])
        }
    }
}
