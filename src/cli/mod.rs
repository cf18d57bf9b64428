//! The command line: reads the flags and hands over to a mode.

mod args;
mod explain;
mod inputs;
mod parse;
mod repl;
mod report;
mod run;
mod session;

use std::io::{self, IsTerminal};
use std::process::ExitCode;

use clap::Parser;

use args::{Cli, Command};
use inputs::Input;

/// Parses the command line and runs the chosen mode.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(e),
    };
    match &cli.command {
        Some(Command::Parse(args)) => parse::run(args, &cli.output),
        Some(Command::Explain(args)) => explain::run(args, &cli.cluster, &cli.output),
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
        Some("parse" | "explain") => ExitCode::from(2),
        _ => ExitCode::from(1),
    }
}
