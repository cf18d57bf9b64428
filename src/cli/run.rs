//! Running scripts: `-f FILE`, `-e STATEMENTS`, or statements on standard
//! input, in order, through one `widerow::Session`, statement by statement as the
//! splitter reads them (only the statement being run is held, whatever the
//! script's length).
//!
//! Results go to standard output in the chosen format (cqlsh's table or
//! expanded layout, JSON Lines, CSV); errors go to standard error as cqlsh
//! prints them in batch mode (`FILE:LINE:` then its text), except in JSON
//! Lines, where they are records on standard output like every other
//! statement. Exit codes follow the run-mode contract: 0 every statement
//! succeeded, 1 could not start, 2 a statement failed.

use std::io::{self, IsTerminal, StdoutLock, Write};
use std::process::ExitCode;

use widerow::diagnostic::{render, RenderOptions};
use widerow::render::TableOptions;
use widerow::render::{csv, error_record, expanded, result_record, table, warnings_block};
use widerow::{Error, ResultSet, ScriptStatement};

use super::args::{Cli, OnError, OutputArgs, RunFormat};
use super::inputs::Input;
use super::report::human_error;
use super::session;

/// What cqlsh prints when the input ends inside a statement not closed by
/// `;` (cqlsh.md §1.3).
const INCOMPLETE: &str = "Incomplete statement at end of file";

/// Runs every statement of `input`; `execute` tells `-e` text, whose last
/// statement needs no `;` (cqlsh appends one), from a script.
pub fn run(input: Result<Input, String>, execute: bool, cli: &Cli) -> ExitCode {
    let input = match input {
        Ok(input) => input,
        Err(message) => {
            eprintln!("widerow: {message}");
            return ExitCode::from(1);
        }
    };
    let stop = cli.on_error == OnError::Stop;
    let (mut session, schema_failures) = match session::start_session(&cli.cluster, stop) {
        Ok(started) => started,
        Err(message) => {
            eprintln!("widerow: {message}");
            return ExitCode::from(1);
        }
    };
    let mut failed = schema_failures > 0;
    if failed && stop {
        return ExitCode::from(2);
    }
    let name = input.name.clone();
    let stdout = io::stdout();
    let mut printer = Printer::batch(&cli.output, name.clone(), stdout.lock());
    for statement in input.statements() {
        let statement = match statement {
            Ok(statement) => statement,
            Err(e) => {
                printer.flush();
                eprintln!("widerow: {name}: {e}");
                return ExitCode::from(1);
            }
        };
        let written = if !statement.terminated && !execute {
            failed = true;
            printer.incomplete(&statement)
        } else {
            match session.execute(&statement.text) {
                Ok(result) => printer.result(&statement, &result),
                Err(error) => {
                    failed = true;
                    printer.error(&statement, &error)
                }
            }
        };
        if written.is_err() {
            return ExitCode::from(2);
        }
        if failed && stop {
            break;
        }
    }
    printer.flush();
    if failed {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    }
}

/// Prints statements' results and errors in one of the run formats, for a
/// script (batch mode) or the interactive session.
pub(super) struct Printer<'a> {
    format: RunFormat,
    options: TableOptions,
    /// The input's name for batch mode's `FILE:LINE:` prefix; `None` in the
    /// interactive session, where cqlsh prints errors without it.
    name: Option<String>,
    /// Colour, and with it the diagnostic under an error's line.
    color: bool,
    /// CSV blocks written so far (blocks are separated by a blank line).
    csv_blocks: usize,
    out: StdoutLock<'a>,
}

impl<'a> Printer<'a> {
    /// A printer for a script named `name`, in cqlsh's batch layout.
    pub(super) fn batch(output: &OutputArgs, name: String, out: StdoutLock<'a>) -> Printer<'a> {
        Printer {
            format: output.run_format,
            options: TableOptions::batch(),
            name: Some(name),
            color: output.use_color(io::stderr().is_terminal()),
            csv_blocks: 0,
            out,
        }
    }

    /// A printer for the interactive session, in cqlsh's interactive layout.
    pub(super) fn interactive(output: &OutputArgs, out: StdoutLock<'a>) -> Printer<'a> {
        Printer {
            format: output.run_format,
            options: TableOptions::interactive(),
            name: None,
            color: output.use_color(io::stdout().is_terminal()),
            csv_blocks: 0,
            out,
        }
    }

    /// Writes a statement's result.
    pub(super) fn result(
        &mut self,
        statement: &ScriptStatement,
        result: &ResultSet,
    ) -> io::Result<()> {
        match self.format {
            RunFormat::Table => self.out.write_all(table(result, &self.options).as_bytes()),
            RunFormat::Expanded => self
                .out
                .write_all(expanded(result, &self.options).as_bytes()),
            RunFormat::Json => writeln!(
                self.out,
                "{}",
                result_record(None, statement.line, result, true)
            ),
            RunFormat::Csv => {
                let block = csv(result);
                if !block.is_empty() {
                    if self.csv_blocks > 0 {
                        self.out.write_all(b"\n")?;
                    }
                    self.out.write_all(block.as_bytes())?;
                    self.csv_blocks += 1;
                }
                // CSV has no place for warnings: they go apart, as cqlsh
                // prints them (cqlsh.md §3.4).
                let warnings = warnings_block(&result.warnings);
                if !warnings.is_empty() {
                    self.out.flush()?;
                    eprint!("{warnings}");
                }
                Ok(())
            }
        }
    }

    /// Writes a failed statement's error: a record in JSON Lines (with
    /// `"class": "rejected"` for the planner's refusals), cqlsh's text on
    /// standard error otherwise.
    pub(super) fn error(&mut self, statement: &ScriptStatement, error: &Error) -> io::Result<()> {
        if self.format == RunFormat::Json {
            let record = error_record(None, statement.line, error, error.is_refusal());
            return writeln!(self.out, "{record}");
        }
        self.out.flush()?;
        match &self.name {
            Some(name) => eprint!(
                "{}",
                human_error(name, statement, error, self.color, self.color)
            ),
            None => {
                eprintln!("{}", error.cqlsh_text());
                if self.color {
                    let located = error.clone().with_statement_source(
                        "<stdin>",
                        statement.text.clone(),
                        statement.line,
                        statement.column,
                    );
                    let options = RenderOptions {
                        color: true,
                        ..RenderOptions::default()
                    };
                    eprint!("{}", render(&located, options));
                }
            }
        }
        Ok(())
    }

    /// Reports a statement cut off by the end of the input, which cqlsh
    /// does not run. In JSON Lines it is an error record with the error
    /// `SyntaxException` (cqlsh says it itself; there is no server error to
    /// name).
    pub(super) fn incomplete(&mut self, statement: &ScriptStatement) -> io::Result<()> {
        if self.format == RunFormat::Json {
            let error = Error::syntax(INCOMPLETE);
            let record = error_record(None, statement.line, &error, false);
            return writeln!(self.out, "{record}");
        }
        self.out.flush()?;
        match &self.name {
            Some(name) => eprintln!("{name}:{}:{INCOMPLETE}", statement.line),
            None => eprintln!("{INCOMPLETE}"),
        }
        Ok(())
    }

    /// Flushes standard output (before something is written to standard
    /// error, and at the end).
    pub(super) fn flush(&mut self) {
        let _ = self.out.flush();
    }
}
