//! The command line: reads the flags and hands over to a mode.

mod args;
mod explain;
mod inputs;
mod lint;
mod parse;
mod repl;
mod report;
mod run;
mod session;

use std::io::{self, IsTerminal};
use std::process::ExitCode;

use clap::Parser;

use args::{Cli, Command, Format, FormatArg};
use inputs::Input;

/// Parses the command line and runs the chosen mode.
pub fn main() -> ExitCode {
    let mut cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(e),
    };
    if let Err(code) = resolve_format(&mut cli) {
        return code;
    }
    match &cli.command {
        Some(Command::Parse(args)) => parse::run(args, &cli.output),
        Some(Command::Explain(args)) => explain::run(args, &cli.cluster, &cli.output),
        Some(Command::Lint(args)) => lint::run(args, &cli),
        Some(Command::Rules) => lint::list_rules(&cli.output),
        Some(Command::Rule(args)) => lint::show_rule(args),
        None => {
            if let Some(text) = &cli.execute {
                run::run(Ok(Input::text(text)), &cli.output, cli.on_error)
            } else if let Some(path) = &cli.file {
                run::run(Input::open(path), &cli.output, cli.on_error)
            } else if !io::stdin().is_terminal() {
                run::run(Ok(Input::stdin()), &cli.output, cli.on_error)
            } else {
                repl::run(&cli.output)
            }
        }
    }
}

/// `--format` takes every mode's formats (one global flag, as the contract
/// has it); the modes other than `lint` know only `text` and `json`, and
/// refuse the others here as a bad flag.
fn resolve_format(cli: &mut Cli) -> Result<(), ExitCode> {
    if matches!(cli.command, Some(Command::Lint(_))) {
        return Ok(());
    }
    cli.output.format = match cli.output.format_arg {
        FormatArg::Text => Format::Text,
        FormatArg::Json => Format::Json,
        other => {
            let (mode, code) = match &cli.command {
                Some(Command::Parse(_)) => ("widerow parse", 2),
                Some(Command::Explain(_)) => ("widerow explain", 2),
                Some(Command::Rules) => ("widerow rules", 2),
                Some(Command::Rule(_)) => ("widerow rule", 2),
                _ => ("this mode", 1),
            };
            eprintln!(
                "widerow: --format {} is for `widerow lint`; {mode} takes text or json",
                other.name()
            );
            return Err(ExitCode::from(code));
        }
    };
    Ok(())
}

/// Help and version go to standard output with exit 0. A bad flag is
/// "could not start" (1) in run mode and "could not run" (2) for the
/// subcommands, as the exit-code contract says.
fn usage_error(error: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    let _ = error.print();
    if matches!(
        error.kind(),
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion
    ) {
        return ExitCode::SUCCESS;
    }
    let subcommand = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    match subcommand.as_deref() {
        Some("parse" | "explain" | "lint" | "rules" | "rule") => ExitCode::from(2),
        _ => ExitCode::from(1),
    }
}
