//! `COPY table [(columns)] TO 'file' | STDOUT` and `COPY … FROM 'file' | STDIN`, as
//! cqlsh 6.2's `copyutil.py` runs them: the same options and defaults, the same CSV
//! dialect (Python's `csv` module: minimal quoting, `\` escapes, `\r\n` row ends),
//! values written as COPY TO formats them and read back with COPY FROM's converters,
//! and cqlsh's messages — `Using N child processes`, `Starting copy of ks.t with
//! columns [a, b].`, the `Processed: … rows/s` progress line, `N rows imported from 1
//! files in 0.123 seconds (0 skipped).`, `Failed to import 1 rows: ParseError - …` —
//! on the same streams.
//!
//! cqlsh spreads the work over child processes; here one thread reads, converts and
//! writes chunk by chunk (CHUNKSIZE lines), which keeps messages in a fixed order.
//! Rows are written through the shell's session with one prepared statement.
//! Where cqlsh's behaviour depends on timing (how far an import gets after
//! MAXPARSEERRORS is exceeded) this module stops at the end of the failing chunk.

mod command;
mod convert;
mod csv;
mod errors;
mod export;
mod format;
mod import;
mod meter;
mod options;
mod python;
mod rows;
mod scalar;
mod strptime;
mod timefmt;

use std::io::{BufRead, IsTerminal};

use crate::schema::{ColumnKind, Table};

use self::command::{CopyCommand, Direction};
use self::options::Options;
use super::{Reply, Shell};

/// Runs a COPY command written as `text` (`COPY …`, with or without its `;`).
/// COPY FROM STDIN reads this process's standard input, up to a line holding only `.`
/// (see [`is_end_of_data`]).
pub fn copy(shell: &mut Shell, text: &str) -> Reply {
    let stdin = std::io::stdin();
    let prompt = shell.settings().interactive && stdin.is_terminal();
    let mut lock = stdin.lock();
    run(
        shell,
        text,
        Stdin {
            reader: &mut lock,
            prompt,
        },
    )
}

/// Runs a COPY command with `stdin` as what COPY FROM STDIN reads (lines up to one
/// holding only `.`, or the end of the input).
///
/// A script's COPY FROM STDIN reads the lines that follow it in the script, as cqlsh
/// reads them from its own input: see
/// [`StatementSplitter::data_lines`](crate::StatementSplitter::data_lines), whose
/// terminator is [`is_end_of_data`].
pub fn copy_with_stdin(shell: &mut Shell, text: &str, stdin: &mut dyn BufRead) -> Reply {
    run(
        shell,
        text,
        Stdin {
            reader: stdin,
            prompt: false,
        },
    )
}

/// Whether `line` (with or without its line end) ends COPY FROM STDIN's data: a line
/// holding only `.`, as cqlsh 6.2 ends it, or only `\.`, as older cqlsh did.
pub fn is_end_of_data(line: &[u8]) -> bool {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    line == b"." || line == b"\\."
}

/// Where COPY FROM STDIN reads, and whether to show cqlsh's `[copy] ` prompt.
struct Stdin<'a> {
    reader: &'a mut dyn BufRead,
    prompt: bool,
}

/// What a COPY prints: cqlsh's `printmsg` lines (standard output, silenced when
/// exporting to STDOUT), the CSV when it goes to STDOUT, and `printerr` lines.
#[derive(Debug, Default)]
struct Printer {
    out: String,
    err: String,
    quiet: bool,
}

impl Printer {
    /// A message line (cqlsh's `printmsg`).
    fn msg(&mut self, text: &str) {
        self.msg_eol(text, "\n");
    }

    /// A message with its own line end (the progress line ends with `\r`).
    fn msg_eol(&mut self, text: &str, eol: &str) {
        if !self.quiet {
            self.out.push_str(text);
            self.out.push_str(eol);
        }
    }

    /// Exported CSV, written to standard output whatever `quiet` says.
    fn data(&mut self, text: &str) {
        self.out.push_str(text);
    }

    /// An error line (cqlsh's `printerr`): the command then counts as failed.
    fn err(&mut self, text: &str) {
        self.err.push_str(text);
        self.err.push('\n');
    }

    fn into_reply(self) -> Reply {
        Reply {
            failed: !self.err.is_empty(),
            out: if self.out.is_empty() {
                Vec::new()
            } else {
                vec![self.out]
            },
            err: self.err,
            exit: false,
        }
    }
}

/// What one COPY works on, once the command and its options have been checked.
struct Task {
    keyspace: String,
    table: Table,
    columns: Vec<String>,
    file: Option<String>,
    options: Options,
}

fn run(shell: &mut Shell, text: &str, stdin: Stdin<'_>) -> Reply {
    let mut printer = Printer::default();
    match command::parse(text) {
        Err(word) => printer.err(&format!("Improper {word} command.")),
        Ok(command) => {
            if let Err(message) = start(shell, &command, stdin, &mut printer) {
                printer.err(&message);
            }
        }
    }
    printer.into_reply()
}

/// Resolves the table and options (failing with cqlsh's messages), then runs the task.
fn start(
    shell: &mut Shell,
    command: &CopyCommand,
    stdin: Stdin<'_>,
    printer: &mut Printer,
) -> Result<(), String> {
    let keyspace = match (&command.keyspace, shell.session().keyspace()) {
        (Some(ks), _) => ks.clone(),
        (None, Some(ks)) => ks.to_string(),
        (None, None) => return Err("Not in any keyspace.".into()),
    };
    let table = find_table(shell, &keyspace, &command.table)?;
    let columns = match &command.columns {
        Some(columns) => columns.clone(),
        None => default_columns(&table),
    };
    printer.quiet = command.file.is_none() && command.direction == Direction::To;
    let options = options::parse(
        &command.options,
        command.direction,
        &keyspace,
        &table.name,
        printer,
    )?;
    printer.msg(&format!("Using {} child processes", options.num_processes));
    let task = Task {
        keyspace,
        table,
        columns,
        file: command.file.clone(),
        options,
    };
    match command.direction {
        Direction::To => export::run(shell, &task, printer),
        Direction::From => import::run(shell, &task, stdin, printer),
    }
}

/// The table's schema, as cqlsh finds it in the driver's metadata (views are not tables
/// there).
fn find_table(shell: &Shell, keyspace: &str, name: &str) -> Result<Table, String> {
    let catalog = &shell.session().context().catalog;
    let ks = catalog
        .keyspace(keyspace)
        .ok_or_else(|| format!("Keyspace {} not found.", python::repr(keyspace)))?;
    match ks.tables.get(name) {
        Some(table) if !table.is_view() => Ok(table.clone()),
        _ => Err(format!("Column family {name} not found")),
    }
}

/// The driver's column order: partition key, clustering columns, then the others by
/// name.
fn default_columns(table: &Table) -> Vec<String> {
    let mut others: Vec<&str> = table
        .columns
        .values()
        .filter(|c| matches!(c.kind, ColumnKind::Static | ColumnKind::Regular))
        .map(|c| c.name.as_str())
        .collect();
    others.sort_unstable();
    table
        .partition_key
        .iter()
        .chain(&table.clustering)
        .cloned()
        .chain(others.into_iter().map(str::to_string))
        .collect()
}

/// `[a, b]`, as cqlsh lists the columns it copies.
fn column_list(columns: &[String]) -> String {
    format!("[{}]", columns.join(", "))
}

/// A name for CQL text: double-quoted when it needs to be.
fn cql_name(name: &str) -> String {
    let mut out = String::new();
    let _ = crate::syntax::ast::write_name(&mut out, name);
    out
}
