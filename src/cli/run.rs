//! Running scripts: `-f FILE`, `-e STATEMENTS`, or statements on standard
//! input. Until statements are executed against a session, running a
//! statement means parsing it and echoing it in canonical form; failures
//! are reported as cqlsh reports them, and exit codes follow the run-mode
//! contract (0 all succeeded, 1 could not start, 2 a statement failed).

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;

use serde_json::json;
use widerow::parse_statement;

use super::args::{Format, OnError, OutputArgs};
use super::inputs::Input;
use super::report::{human_error, json_error, json_record};

/// Runs every statement of `input`.
pub fn run(input: Result<Input, String>, output: &OutputArgs, on_error: OnError) -> ExitCode {
    let input = match input {
        Ok(input) => input,
        Err(message) => {
            eprintln!("widerow: {message}");
            return ExitCode::from(1);
        }
    };
    let color = output.use_color(io::stderr().is_terminal());
    let name = input.name.clone();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let mut failed = false;
    for statement in input.statements() {
        let statement = match statement {
            Ok(statement) => statement,
            Err(e) => {
                eprintln!("widerow: {name}: {e}");
                return ExitCode::from(1);
            }
        };
        let line = match parse_statement(&statement.text) {
            Ok(parsed) => match output.format {
                Format::Text => format!("{parsed};"),
                Format::Json => json_record(
                    None,
                    &statement,
                    "statement",
                    vec![("statement", json!(parsed.to_string()))],
                ),
            },
            Err(error) => {
                failed = true;
                let line = match output.format {
                    Format::Text => {
                        let _ = out.flush();
                        eprint!("{}", human_error(&name, &statement, &error, color, color));
                        None
                    }
                    Format::Json => Some(json_error(None, &statement, &error)),
                };
                if let Some(line) = line {
                    let _ = writeln!(out, "{line}");
                }
                if on_error == OnError::Stop {
                    break;
                }
                continue;
            }
        };
        if writeln!(out, "{line}").is_err() {
            return ExitCode::from(2);
        }
    }
    let _ = out.flush();
    if failed {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    }
}
