//! The interactive session. For now it reads statements (several lines
//! until the closing `;`, as cqlsh collects them), parses each and prints
//! it back in canonical form or shows its syntax error.

use std::io::{self, IsTerminal};
use std::process::ExitCode;

use rustyline::completion::Completer;
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::validate::{ValidationContext, ValidationResult, Validator};
use rustyline::{Editor, Helper};
use widerow::diagnostic::{render, RenderOptions};
use widerow::syntax::lexer::Lexer;
use widerow::{parse_statement, StatementSplitter};

use super::args::OutputArgs;

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
pub fn run(output: &OutputArgs) -> ExitCode {
    let mut editor: Editor<StatementValidator, _> = match Editor::new() {
        Ok(editor) => editor,
        Err(e) => {
            eprintln!("widerow: cannot open the line editor: {e}");
            return ExitCode::from(1);
        }
    };
    editor.set_helper(Some(StatementValidator));
    let color = output.use_color(io::stdout().is_terminal());
    println!(
        "widerow {} — statements are parsed and echoed in canonical form. EXIT or Ctrl-D to leave.",
        env!("CARGO_PKG_VERSION")
    );
    loop {
        match editor.readline("widerow> ") {
            Ok(input) => {
                let _ = editor.add_history_entry(input.replace('\n', " "));
                if !run_input(&input, color) {
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

/// Handles one entry; returns false when the session should end.
fn run_input(input: &str, color: bool) -> bool {
    let statements = StatementSplitter::new(input.as_bytes()).with_line_commands(&EXIT_COMMANDS);
    for statement in statements.filter_map(Result::ok) {
        let word = statement
            .text
            .trim_end_matches(';')
            .trim()
            .to_ascii_lowercase();
        if EXIT_COMMANDS.contains(&word.as_str()) {
            return false;
        }
        match parse_statement(&statement.text) {
            Ok(parsed) => println!("{parsed};"),
            Err(error) => {
                let located = error.with_source("<stdin>", statement.text.clone());
                eprintln!("{}", located.cqlsh_text());
                eprint!(
                    "{}",
                    render(
                        &located,
                        RenderOptions {
                            color,
                            ..RenderOptions::default()
                        }
                    )
                );
            }
        }
    }
    true
}
