//! Running scripts: `-f FILE`, `-e STATEMENTS`, or statements on standard
//! input, in order, through one [`Shell`], statement by statement as the
//! splitter reads them (only the statement being run is held, whatever the
//! script's length). Shell commands (`EXPAND ON`, `SOURCE 'x.cql'`, …) end
//! at the end of their line, as in cqlsh.
//!
//! `COPY … FROM STDIN` in a script (a `-f` file or standard input) reads the
//! lines after it, up to a line holding only `.`, as cqlsh reads them from
//! its own input; the script goes on after that line. With `-e` it reads
//! this process's standard input, as cqlsh does.
//!
//! The shell renders results in the chosen format and errors as cqlsh
//! prints them in batch mode (`FILE:LINE:` then its text); this module only
//! writes its replies — pages one after another, standard output flushed
//! before anything goes to standard error — and keeps the exit code: 0
//! every statement succeeded, 1 could not start, 2 a statement failed.

use std::io::{self, Write};
use std::process::ExitCode;

use widerow::shell::copy::is_end_of_data;
use widerow::shell::{Reply, Settings, Shell, LINE_COMMANDS};

use super::args::{Cli, OnError};
use super::inputs::Input;
use super::session;

/// The shell statements run in: in front of `--connect`'s cluster, or on a
/// session the cluster flags shape, with the `--schema` file's failures.
fn start_shell(cli: &Cli, stop: bool, settings: Settings) -> Result<(Shell, usize), String> {
    if let Some(target) = &cli.connect.connect {
        return super::connect::open_shell(cli, target, settings).map(|shell| (shell, 0));
    }
    let (session, failures) = session::start_session(&cli.cluster, cli.config.as_deref(), stop)?;
    Ok((Shell::new(session, settings), failures))
}

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
    let settings = session::settings(cli, false, cli.file.is_some());
    let (mut shell, schema_failures) = match start_shell(cli, stop, settings) {
        Ok(started) => started,
        Err(message) => {
            eprintln!("widerow: {message}");
            return ExitCode::from(1);
        }
    };
    if schema_failures > 0 && stop {
        return ExitCode::from(2);
    }
    let mut out = Writer::new(!input.is_file);
    out.failed = schema_failures > 0;
    let name = input.name.clone();
    let mut statements = input.statements().with_line_commands(LINE_COMMANDS);
    while let Some(statement) = statements.next() {
        let mut statement = match statement {
            Ok(statement) => statement,
            Err(e) => {
                out.flush();
                eprintln!("widerow: {name}: {e}");
                return ExitCode::from(1);
            }
        };
        let sink = &mut |reply| out.write(reply);
        if execute {
            // `-e` text gets cqlsh's appended `;`, and has no lines for
            // COPY FROM STDIN: that reads standard input.
            statement.terminated = true;
            shell.run_into(&name, &statement, sink);
        } else {
            // Read only if the statement is a COPY FROM STDIN.
            let mut data = statements.data_lines(is_end_of_data);
            shell.run_into_with_stdin(&name, &statement, &mut data, sink);
        }
        if out.broken || out.exit || (out.failed && stop) {
            break;
        }
    }
    out.flush();
    if out.failed || out.broken {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    }
}

/// Writes replies to standard output and standard error, and remembers
/// whether a statement failed or asked to exit.
///
/// Standard output is buffered in large blocks: a script printing a million
/// rows is otherwise a write per page. The buffer is flushed before anything
/// goes to standard error (so the two streams interleave as the statements
/// ran), at the end, and — unless the statements come from a `-f` file, which
/// nobody answers — after every reply, so a program feeding statements on
/// standard input sees each answer before it sends the next.
struct Writer {
    stdout: io::BufWriter<io::StdoutLock<'static>>,
    flush_each_reply: bool,
    failed: bool,
    exit: bool,
    /// Standard output is gone (a closed pipe): stop running.
    broken: bool,
}

/// Bytes of standard output gathered before a write.
const STDOUT_BUFFER: usize = 256 * 1024;

impl Writer {
    fn new(flush_each_reply: bool) -> Writer {
        Writer {
            stdout: io::BufWriter::with_capacity(STDOUT_BUFFER, io::stdout().lock()),
            flush_each_reply,
            failed: false,
            exit: false,
            broken: false,
        }
    }

    /// Writes one reply: its pages one after another (batch mode has no
    /// pager), then its errors.
    fn write(&mut self, reply: Reply) {
        for page in &reply.out {
            if self.stdout.write_all(page.as_bytes()).is_err() {
                self.broken = true;
            }
        }
        if !reply.err.is_empty() || self.flush_each_reply {
            self.flush();
        }
        if !reply.err.is_empty() {
            let mut stderr = io::stderr().lock();
            let _ = stderr.write_all(reply.err.as_bytes());
        }
        self.failed |= reply.failed;
        self.exit |= reply.exit;
    }

    fn flush(&mut self) {
        if self.stdout.flush().is_err() {
            self.broken = true;
        }
    }
}
