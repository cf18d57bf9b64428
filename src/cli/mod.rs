//! The command line: reads the flags and hands over to a mode.

mod args;
mod connect;
mod explain;
mod helper;
mod inputs;
mod lint;
mod long_line;
mod parse;
mod repl;
mod report;
mod run;
mod serve;
mod session;
mod web;

use std::io::{self, IsTerminal};
use std::process::ExitCode;

use clap::Parser;

use args::{Cli, Command, Format, FormatArg, RunFormat};
use inputs::Input;

/// Parses the command line and runs the chosen mode.
pub fn main() -> ExitCode {
    install_panic_hook();
    // cqlsh shows timestamps in the zone `TZ` names, UTC otherwise.
    if let Some(zone) = std::env::var("TZ").ok().filter(|z| !z.is_empty()) {
        if let Err(message) = widerow::types::set_display_time_zone(zone.trim_start_matches(':')) {
            eprintln!("widerow: {message}; showing timestamps in UTC");
        }
    }
    let mut cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(e),
    };
    if cli.version {
        println!("{}", widerow::shell::version_text());
        return ExitCode::SUCCESS;
    }
    if let Err(code) = refuse_script_with_subcommand(&cli) {
        return code;
    }
    if let Err(code) = resolve_format(&mut cli) {
        return code;
    }
    match &cli.command {
        Some(Command::Parse(args)) => parse::run(args, &cli.output),
        Some(Command::Explain(args)) => {
            let live = cli
                .connect
                .connect
                .as_ref()
                .map(|target| connect::live_context(&cli, target));
            explain::run(args, &cli.cluster, &cli.output, cli.config.as_deref(), live)
        }
        Some(Command::Lint(args)) => lint::run(args, &cli),
        Some(Command::Rules) => lint::list_rules(&cli.output),
        Some(Command::Rule(args)) => lint::show_rule(args),
        Some(Command::Serve(args)) => serve::run(args, &cli),
        Some(Command::Web(args)) => web::run(args, &cli),
        None => {
            if let Some(text) = &cli.execute {
                run::run(Ok(Input::text(text)), true, &cli)
            } else if let Some(path) = &cli.file {
                run::run(Input::open(path), false, &cli)
            } else if !io::stdin().is_terminal() {
                run::run(Ok(Input::stdin()), false, &cli)
            } else {
                repl::run(&cli)
            }
        }
    }
}

/// A panic is a bug in widerow, never the user's fault: say so, with the
/// version, and ask for the input that caused it.
fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        eprintln!(
            "widerow {}: internal error: {info}\n\
             This is a bug in widerow. Please report it with the statement or \
             script that caused it.",
            env!("CARGO_PKG_VERSION")
        );
    }));
}

/// `-f` and `-e` before a subcommand would run a script that the
/// subcommand never runs: refused as a bad flag, so nothing is silently
/// skipped ("could not run", 2, for every subcommand).
fn refuse_script_with_subcommand(cli: &Cli) -> Result<(), ExitCode> {
    let Some(command) = &cli.command else {
        return Ok(());
    };
    // The subcommand's name, and whether it reads files and `-e` text.
    let (name, files, execute) = match command {
        Command::Parse(_) => ("parse", true, true),
        Command::Explain(_) => ("explain", true, true),
        Command::Lint(_) => ("lint", true, false),
        Command::Rules => ("rules", false, false),
        Command::Rule(_) => ("rule", false, false),
        Command::Serve(_) => ("serve", false, false),
        Command::Web(_) => ("web", false, false),
    };
    let (flag, does, instead) = if cli.file.is_some() {
        (
            "-f/--file",
            "runs a script",
            files.then(|| format!("`widerow {name} FILE`")),
        )
    } else if cli.execute.is_some() {
        let instead = execute.then(|| format!("`widerow {name} -e \"…\"`"));
        ("-e/--execute", "runs statements", instead)
    } else {
        return Ok(());
    };
    let mut message = format!("{flag} {does} and cannot be combined with `widerow {name}`");
    if let Some(instead) = instead {
        message.push_str(&format!("; write {instead}"));
    }
    eprintln!("widerow: {message}");
    Err(ExitCode::from(2))
}

/// `--format` takes every mode's formats (one global flag, as the contract
/// has it); each mode accepts only its own, and refuses the others here as
/// a bad flag (exit 1 when running statements, 2 for the subcommands).
fn resolve_format(cli: &mut Cli) -> Result<(), ExitCode> {
    let arg = cli.output.format_arg;
    let mode = match &cli.command {
        Some(Command::Lint(_)) => {
            return match arg {
                Some(other @ (FormatArg::Table | FormatArg::Expanded | FormatArg::Csv)) => {
                    Err(refuse_format(
                        other,
                        "widerow lint",
                        "human (text), concise, json, sarif or github",
                        2,
                    ))
                }
                _ => Ok(()),
            };
        }
        Some(Command::Parse(_)) => "widerow parse",
        Some(Command::Explain(_)) => "widerow explain",
        Some(Command::Rules) => "widerow rules",
        Some(Command::Rule(_)) => "widerow rule",
        Some(Command::Serve(_)) => "widerow serve",
        Some(Command::Web(_)) => "widerow web",
        None => {
            let (run_format, format) = match arg.unwrap_or(FormatArg::Table) {
                FormatArg::Table | FormatArg::Text => (RunFormat::Table, Format::Text),
                FormatArg::Expanded => (RunFormat::Expanded, Format::Text),
                FormatArg::Csv => (RunFormat::Csv, Format::Text),
                FormatArg::Json => (RunFormat::Json, Format::Json),
                other => {
                    return Err(refuse_format(
                        other,
                        "running statements",
                        "table (text), expanded, json or csv",
                        1,
                    ))
                }
            };
            cli.output.run_format = run_format;
            cli.output.format = format;
            return Ok(());
        }
    };
    cli.output.format = match arg.unwrap_or(FormatArg::Text) {
        FormatArg::Text => Format::Text,
        FormatArg::Json => Format::Json,
        other => return Err(refuse_format(other, mode, "text or json", 2)),
    };
    Ok(())
}

/// Reports a `--format` the mode does not know, naming the mode it is for.
fn refuse_format(format: FormatArg, mode: &str, accepted: &str, code: u8) -> ExitCode {
    let owner = match format {
        FormatArg::Table | FormatArg::Expanded | FormatArg::Csv => "for running statements",
        _ => "for `widerow lint`",
    };
    eprintln!(
        "widerow: --format {} is {owner}; {mode} takes {accepted}",
        format.name()
    );
    ExitCode::from(code)
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
