//! COPY FROM (cqlsh's `ImportTask`, `FilesReader`, `PipeReader` and `ImportProcess`):
//! lines are read from each file (a comma-separated list of names or glob patterns) or
//! from STDIN, HEADER, SKIPROWS and MAXROWS counted in lines as cqlsh counts them, then
//! parsed and written CHUNKSIZE lines at a time. After each chunk the error maxima are
//! checked; exceeding one stops the import.

use std::io::Write;
use std::path::Path;
use std::time::Instant;

use indexmap::IndexMap;

use crate::error::Error;

use super::convert::{BindError, Converter};
use super::errors::ErrorHandler;
use super::export::io_error_text;
use super::meter::{describe_interval, RateMeter};
use super::rows::RowPlan;
use super::{column_list, is_end_of_data, python, Printer, Shell, Stdin, Task};

/// Runs the import, printing as cqlsh does.
pub(super) fn run(
    shell: &mut Shell,
    task: &Task,
    stdin: Stdin<'_>,
    printer: &mut Printer,
) -> Result<(), String> {
    let started = Instant::now();
    let opts = &task.options;
    let errors = ErrorHandler::new(opts);
    let meter = RateMeter::new(opts.report_frequency, &opts.rate_file);
    if !opts.unrecognized.is_empty() {
        return Err(format!(
            "Unrecognized COPY FROM options: {}",
            opts.unrecognized.join(", ")
        ));
    }
    let skipped: Vec<&str> = opts.skip_cols.split(',').map(str::trim).collect();
    let columns: Vec<String> = task
        .columns
        .iter()
        .filter(|c| !skipped.contains(&c.as_str()))
        .cloned()
        .collect();
    validate(task, &columns)?;
    printer.msg(&format!(
        "\nStarting copy of {}.{} with columns {}.",
        task.keyspace,
        task.table.name,
        column_list(&columns)
    ));
    let plan = RowPlan::prepare(shell, task, &columns)?;
    let mut import = Import {
        shell,
        task,
        plan,
        converter: opts.converter(),
        skip_indexes: (0..task.columns.len())
            .filter(|&i| skipped.contains(&task.columns[i].as_str()))
            .collect(),
        errors,
        meter,
        printer,
        stopped: false,
    };
    let sources = match &task.file {
        Some(names) => import.files(names),
        None => import.stdin(stdin),
    };
    import.finish(sources, started);
    Ok(())
}

/// `ImportTask.validate_columns`.
fn validate(task: &Task, columns: &[String]) -> Result<(), String> {
    if let Some(bad) = task.columns.iter().find(|c| task.table.column(c).is_none()) {
        return Err(format!("Invalid column name {bad}"));
    }
    if columns.is_empty() {
        return Err("No valid column specified".into());
    }
    let table = &task.table;
    match table
        .partition_key
        .iter()
        .chain(&table.clustering)
        .find(|k| !columns.contains(k))
    {
        Some(key) => Err(format!("Primary key column '{key}' missing or skipped")),
        None => Ok(()),
    }
}

/// A chunk's failed rows, grouped as cqlsh reports them.
#[derive(Default)]
struct Failures {
    /// Conversion errors, by message.
    parse: IndexMap<String, Vec<Vec<String>>>,
    /// Partition key values the driver cannot serialize, by message.
    key: IndexMap<String, Vec<Vec<String>>>,
    /// Rows whose statement could not be made or was refused, in order.
    batch: Vec<(Failure, Vec<String>)>,
}

/// Why a converted row was not written.
enum Failure {
    Bind(BindError),
    Insert(Error),
}

struct Import<'a> {
    shell: &'a mut Shell,
    task: &'a Task,
    plan: RowPlan,
    converter: Converter,
    skip_indexes: Vec<usize>,
    errors: ErrorHandler,
    meter: RateMeter,
    printer: &'a mut Printer,
    /// An error maximum was exceeded: no more chunks.
    stopped: bool,
}

impl Import<'_> {
    /// Reads every file, returning how many were opened.
    fn files(&mut self, names: &str) -> usize {
        let opts = &self.task.options;
        let mut lines_read = 0i64;
        let mut sources = 0;
        for pattern in names.split(',').map(str::trim) {
            let paths = match expand(pattern) {
                Ok(paths) => paths,
                Err(message) => {
                    self.errors.source_failed(&message, self.printer);
                    return sources;
                }
            };
            for path in paths {
                let text = match std::fs::read(&path) {
                    Ok(bytes) => universal_newlines(&String::from_utf8_lossy(&bytes)),
                    Err(e) => {
                        let message = format!(
                            "Can't open {} for reading: {}",
                            python::repr(&path),
                            io_error_text(&e, &path)
                        );
                        self.errors.source_failed(&message, self.printer);
                        return sources;
                    }
                };
                sources += 1;
                let mut lines = text.split_inclusive('\n');
                if opts.header {
                    lines.next();
                }
                let (chunk_size, max_rows, skip_rows) =
                    (opts.chunk_size.max(1), opts.max_rows, opts.skip_rows);
                let mut chunk: Vec<&str> = Vec::new();
                let mut attempted = 0;
                for line in lines {
                    lines_read += 1;
                    if (0..lines_read).contains(&max_rows) || self.stopped {
                        break;
                    }
                    if lines_read > skip_rows {
                        chunk.push(line);
                    }
                    attempted += 1;
                    if attempted == chunk_size {
                        self.chunk(&std::mem::take(&mut chunk));
                        attempted = 0;
                    }
                }
                if !chunk.is_empty() && !self.stopped {
                    self.chunk(&chunk);
                }
            }
        }
        sources
    }

    /// Reads standard input up to a line holding only `.` (cqlsh's `PipeReader`, whose
    /// SKIPROWS skips one row fewer than asked and counts the header among them).
    fn stdin(&mut self, stdin: Stdin<'_>) -> usize {
        self.printer.msg("[Use . on a line by itself to end input]");
        let lines = read_stdin(stdin.reader, stdin.prompt);
        if stdin.prompt {
            self.printer.msg("");
        }
        let opts = &self.task.options;
        let (chunk_size, max_rows, skip_rows) =
            (opts.chunk_size.max(1), opts.max_rows, opts.skip_rows);
        let mut header = opts.header;
        let mut read = 0i64;
        let mut chunk: Vec<&str> = Vec::new();
        for line in &lines {
            read += 1;
            if (0..read).contains(&max_rows) || self.stopped {
                break;
            }
            if header || read < skip_rows {
                header = false;
                continue;
            }
            chunk.push(line);
            if chunk.len() as i64 == chunk_size {
                self.chunk(&std::mem::take(&mut chunk));
            }
        }
        if !chunk.is_empty() && !self.stopped {
            self.chunk(&chunk);
        }
        1
    }

    /// Parses, converts and writes one chunk of lines. Good rows are written as they
    /// come; the chunk's failures are reported afterwards in cqlsh's order: conversion
    /// errors (grouped by message), partition keys the driver cannot serialize, then
    /// rows whose batch failed.
    fn chunk(&mut self, lines: &[&str]) {
        let records = match self.task.options.dialect.read_records(lines) {
            Ok(records) => records,
            Err(message) => {
                self.errors
                    .unreadable("Error", &message, lines, self.printer);
                self.counted(lines.len());
                return;
            }
        };
        let count = records.len();
        let mut failures = Failures::default();
        for record in records {
            let record = self.without_skipped(record);
            match self.plan.convert(&self.converter, &record) {
                Err(message) => failures.parse.entry(message).or_default().push(record),
                Ok(row) => match (row.key_error, row.bind_error) {
                    (Some(error), _) => failures.key.entry(error.message).or_default().push(record),
                    (None, Some(error)) => failures.batch.push((Failure::Bind(error), record)),
                    (None, None) => {
                        if let Err(error) = self.plan.write(self.shell, row.values) {
                            failures.batch.push((Failure::Insert(error), record));
                        }
                    }
                },
            }
        }
        self.report(failures);
        self.counted(count);
    }

    /// The record without the SKIPCOLS fields.
    fn without_skipped(&self, record: Vec<String>) -> Vec<String> {
        if self.skip_indexes.is_empty() {
            return record;
        }
        record
            .into_iter()
            .enumerate()
            .filter(|(i, _)| !self.skip_indexes.contains(i))
            .map(|(_, f)| f)
            .collect()
    }

    fn report(&mut self, failures: Failures) {
        self.report_parse_errors(failures.parse);
        self.report_parse_errors(failures.key);
        for (failure, record) in failures.batch {
            match failure {
                Failure::Bind(error) => {
                    self.printer.msg(&format!(
                        "Failed to make batch statement: {}",
                        error.message
                    ));
                    self.errors
                        .failed(error.class, &error.message, &[record], self.printer);
                }
                Failure::Insert(error) => {
                    let text = error.cqlsh_text();
                    let (class, message) = text.split_once(": ").unwrap_or(("Error", &text));
                    self.errors
                        .insert_failed(class, message, &record, self.printer);
                }
            }
        }
    }

    fn report_parse_errors(&mut self, failures: IndexMap<String, Vec<Vec<String>>>) {
        for (message, rows) in failures {
            self.errors
                .failed("ParseError", &message, &rows, self.printer);
        }
    }

    /// Counts a processed chunk and checks the error maxima.
    fn counted(&mut self, rows: usize) {
        self.meter.increment(rows as u64, self.printer);
        if self.errors.exceeded(self.printer) {
            self.stopped = true;
        }
    }

    /// cqlsh's closing lines.
    fn finish(mut self, sources: usize, started: Instant) {
        if self.errors.rows_failed > 0 {
            self.printer.err(&format!(
                "Failed to process {} rows; failed rows written to {}",
                self.errors.rows_failed, self.errors.err_file
            ));
        }
        if self.stopped {
            self.errors.exceeded(self.printer);
        }
        let total = self.meter.total(self.printer) as i64 - self.errors.rows_failed;
        self.printer.msg(&format!(
            "\n{total} rows imported from {sources} files in {} ({} skipped).",
            describe_interval(started.elapsed().as_secs_f64()),
            self.task.options.skip_rows
        ));
    }
}

/// Python's text mode: `\r\n` and `\r` read as `\n`.
fn universal_newlines(text: &str) -> String {
    if !text.contains('\r') {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\r' {
            chars.next_if_eq(&'\n');
            out.push('\n');
        } else {
            out.push(c);
        }
    }
    out
}

/// The lines of standard input up to one holding only `.` ([`is_end_of_data`]), each
/// ending in `\n` (bytes that are not UTF-8 read as U+FFFD, so a stray byte does not
/// end the data early).
fn read_stdin(reader: &mut dyn std::io::BufRead, prompt: bool) -> Vec<String> {
    let mut lines = Vec::new();
    let mut bytes = Vec::new();
    loop {
        if prompt {
            print!("[copy] ");
            let _ = std::io::stdout().flush();
        }
        bytes.clear();
        match reader.read_until(b'\n', &mut bytes) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        if is_end_of_data(&bytes) {
            break;
        }
        let mut line = String::from_utf8_lossy(&bytes).into_owned();
        if !line.ends_with('\n') {
            line.push('\n');
        }
        lines.push(line);
    }
    lines
}

/// One name of FROM's list: the file itself, or the files a glob pattern (wildcards in
/// the last path component) matches, sorted.
fn expand(pattern: &str) -> Result<Vec<String>, String> {
    let path = Path::new(pattern);
    if path.is_file() {
        return Ok(vec![pattern.to_string()]);
    }
    let magic = |s: &str| s.contains(['*', '?', '[']);
    let matches = if !magic(pattern) {
        if path.exists() {
            vec![pattern.to_string()]
        } else {
            Vec::new()
        }
    } else {
        let (dir, name) = match pattern.rfind('/') {
            Some(at) => (&pattern[..at + 1], &pattern[at + 1..]),
            None => ("", pattern),
        };
        let listing = std::fs::read_dir(if dir.is_empty() { "." } else { dir });
        let mut found: Vec<String> = listing
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|entry| entry.file_name().into_string().ok())
            .filter(|file| {
                (name.starts_with('.') || !file.starts_with('.')) && wildcard(name, file)
            })
            .map(|file| format!("{dir}{file}"))
            .collect();
        found.sort();
        found
    };
    if matches.is_empty() {
        return Err(format!(
            "Can't open {} for reading: no matching file found",
            python::repr(pattern)
        ));
    }
    Ok(matches)
}

/// `fnmatch`: `*`, `?` and `[…]` (`[!…]` negated).
fn wildcard(pattern: &str, name: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let n: Vec<char> = name.chars().collect();
    matches_from(&p, &n)
}

fn matches_from(p: &[char], n: &[char]) -> bool {
    match p.first() {
        None => n.is_empty(),
        Some('*') => (0..=n.len()).any(|skip| matches_from(&p[1..], &n[skip..])),
        Some('?') => !n.is_empty() && matches_from(&p[1..], &n[1..]),
        Some('[') => match (p.iter().position(|&c| c == ']'), n.first()) {
            (Some(close), Some(&c)) if close > 1 => {
                let set = &p[1..close];
                let (negated, set) = match set.first() {
                    Some('!') => (true, &set[1..]),
                    _ => (false, set),
                };
                let hit = class_contains(set, c);
                hit != negated && matches_from(&p[close + 1..], &n[1..])
            }
            _ => n.first() == Some(&'[') && matches_from(&p[1..], &n[1..]),
        },
        Some(&c) => n.first() == Some(&c) && matches_from(&p[1..], &n[1..]),
    }
}

fn class_contains(set: &[char], c: char) -> bool {
    let mut i = 0;
    while i < set.len() {
        if i + 2 < set.len() && set[i + 1] == '-' {
            if (set[i]..=set[i + 2]).contains(&c) {
                return true;
            }
            i += 3;
        } else {
            if set[i] == c {
                return true;
            }
            i += 1;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildcards_match_like_fnmatch() {
        assert!(wildcard("*.csv", "a.csv"));
        assert!(!wildcard("*.csv", "a.csv.bak"));
        assert!(wildcard("part-?[0-9].csv", "part-a1.csv"));
        assert!(wildcard("[!x]*", "abc"));
        assert!(!wildcard("[!a]*", "abc"));
    }
}
