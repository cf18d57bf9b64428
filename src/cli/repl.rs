//! The interactive session, kept minimal until the full shell: reads
//! statements (several lines until the closing `;`, as cqlsh collects
//! them), runs each in one [`Session`] and prints its result in cqlsh's
//! interactive layout, or its error as cqlsh prints it (no `FILE:LINE:`
//! prefix; with colour, the statement with the error underlined).

use std::io;
use std::process::ExitCode;

use rustyline::completion::Completer;
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::validate::{ValidationContext, ValidationResult, Validator};
use rustyline::{Editor, Helper};
use widerow::syntax::lexer::Lexer;
use widerow::{Session, StatementSplitter};

use super::args::{Cli, OutputArgs};
use super::run::Printer;
use super::session;

/// Words that end the session.
const EXIT_COMMANDS: [&str; 2] = ["exit", "quit"];

/// Tells rustyline when the typed text is a whole statement, so that Enter
/// inside an open statement starts a new line instead of running it, and a
/// multi-line statement is one history entry.
struct StatementValidator;

impl Validator for StatementValidator {
    fn validate(&self, ctx: &mut ValidationContext<'_>) -> rustyline::Result<ValidationResult> {
        Ok(if is_complete(ctx.input()) {
            ValidationResult::Valid(None)
        } else {
            ValidationResult::Incomplete
        })
    }
}

/// Whether `input` ends with a whole statement: nothing left open (string,
/// `$$` body, quoted name, comment) and the last statement terminated.
fn is_complete(input: &str) -> bool {
    if Lexer::new(input)
        .last()
        .is_some_and(|t| t.kind.is_unterminated())
    {
        return false;
    }
    StatementSplitter::new(input.as_bytes())
        .with_line_commands(&EXIT_COMMANDS)
        .filter_map(Result::ok)
        .last()
        .is_none_or(|s| s.terminated)
}

impl Completer for StatementValidator {
    type Candidate = String;
}
impl Hinter for StatementValidator {
    type Hint = String;
}
impl Highlighter for StatementValidator {}
impl Helper for StatementValidator {}

/// Runs the interactive session until EXIT, QUIT or Ctrl-D.
pub fn run(cli: &Cli) -> ExitCode {
    let mut session = match session::start_session(&cli.cluster, false) {
        Ok((session, _)) => session,
        Err(message) => {
            eprintln!("widerow: {message}");
            return ExitCode::from(1);
        }
    };
    let mut editor: Editor<StatementValidator, _> = match Editor::new() {
        Ok(editor) => editor,
        Err(e) => {
            eprintln!("widerow: cannot open the line editor: {e}");
            return ExitCode::from(1);
        }
    };
    editor.set_helper(Some(StatementValidator));
    println!(
        "widerow {} — an in-memory Cassandra. EXIT or Ctrl-D to leave.",
        env!("CARGO_PKG_VERSION")
    );
    loop {
        match editor.readline(&prompt(&session)) {
            Ok(input) => {
                let _ = editor.add_history_entry(input.replace('\n', " "));
                if !run_input(&mut session, &input, &cli.output) {
                    return ExitCode::SUCCESS;
                }
            }
            Err(ReadlineError::Interrupted) => continue,
            Err(ReadlineError::Eof) => return ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("widerow: {e}");
                return ExitCode::from(1);
            }
        }
    }
}

/// cqlsh's prompt with widerow's name: `widerow> `, or `widerow:ks> ` once
/// a keyspace is in use (cqlsh.md §1.5).
fn prompt(session: &Session) -> String {
    match session.keyspace() {
        Some(keyspace) => format!("widerow:{keyspace}> "),
        None => "widerow> ".to_string(),
    }
}

/// Runs one entry's statements; returns false when the session should end.
fn run_input(session: &mut Session, input: &str, output: &OutputArgs) -> bool {
    let statements = StatementSplitter::new(input.as_bytes()).with_line_commands(&EXIT_COMMANDS);
    let stdout = io::stdout();
    let mut printer = Printer::interactive(output, stdout.lock());
    for statement in statements.filter_map(Result::ok) {
        let word = statement
            .text
            .trim_end_matches(';')
            .trim()
            .to_ascii_lowercase();
        if EXIT_COMMANDS.contains(&word.as_str()) {
            printer.flush();
            return false;
        }
        let _ = match session.execute(&statement.text) {
            Ok(result) => printer.result(&statement, &result),
            Err(error) => printer.error(&statement, &error),
        };
    }
    printer.flush();
    true
}
