//! COPY FROM's `ImportErrorHandler`: every failed row reported with cqlsh's message,
//! appended to ERRFILE in the CSV dialect, and counted against MAXPARSEERRORS (read and
//! conversion failures) or MAXINSERTERRORS (everything else).

use std::fs::OpenOptions;
use std::io::Write;
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use super::csv::Dialect;
use super::options::Options;
use super::timefmt::{civil, strftime};
use super::Printer;

/// The error counters and the error file.
#[derive(Debug)]
pub(super) struct ErrorHandler {
    dialect: Dialect,
    max_attempts: i64,
    max_parse_errors: i64,
    max_insert_errors: i64,
    /// ERRFILE.
    pub err_file: String,
    parse_errors: i64,
    insert_errors: i64,
    /// Rows written to ERRFILE.
    pub rows_failed: i64,
}

impl ErrorHandler {
    /// A handler for `options`; an existing ERRFILE is renamed with a time suffix
    /// (`.20250601_080000`), as cqlsh does before every import.
    pub(super) fn new(options: &Options) -> ErrorHandler {
        let err_file = options.err_file.clone();
        if Path::new(&err_file).is_file() {
            let _ = std::fs::rename(&err_file, format!("{err_file}{}", now_suffix()));
        }
        ErrorHandler {
            dialect: options.dialect.clone(),
            max_attempts: options.max_attempts,
            max_parse_errors: options.max_parse_errors,
            max_insert_errors: options.max_insert_errors,
            err_file,
            parse_errors: 0,
            insert_errors: 0,
            rows_failed: 0,
        }
    }

    /// cqlsh's `ImportTaskError.is_parse_error`, by exception class.
    fn is_parse_error(class: &str) -> bool {
        [
            "ValueError",
            "TypeError",
            "ParseError",
            "IndexError",
            "ReadError",
        ]
        .iter()
        .any(|p| class.starts_with(p))
    }

    /// A final failure of `rows` with Python exception `class` and `message`.
    pub(super) fn failed(
        &mut self,
        class: &str,
        message: &str,
        rows: &[Vec<String>],
        printer: &mut Printer,
    ) {
        self.report(class, message, rows.len(), 1, printer);
        self.add_rows(rows);
    }

    /// A chunk whose lines could not even be read as CSV (a field over Python's limit):
    /// the raw lines go to ERRFILE.
    pub(super) fn unreadable(
        &mut self,
        class: &str,
        message: &str,
        lines: &[&str],
        printer: &mut Printer,
    ) {
        self.report(class, message, lines.len(), 1, printer);
        self.rows_failed += lines.len() as i64;
        self.append(&lines.concat());
    }

    /// A row the session refused: cqlsh retries it MAXATTEMPTS times, saying so, then
    /// gives up.
    pub(super) fn insert_failed(
        &mut self,
        class: &str,
        message: &str,
        row: &[String],
        printer: &mut Printer,
    ) {
        let attempts = self.max_attempts.max(1);
        for attempt in 1..attempts {
            printer.err(&format!(
                "Failed to import 1 rows: {class} - {message},  will retry later, attempt {attempt} of {}",
                self.max_attempts
            ));
        }
        self.report(class, message, 1, attempts, printer);
        self.add_rows(&[row.to_vec()]);
    }

    fn report(
        &mut self,
        class: &str,
        message: &str,
        count: usize,
        attempts: i64,
        printer: &mut Printer,
    ) {
        if Self::is_parse_error(class) {
            self.parse_errors += count as i64;
            printer.err(&format!(
                "Failed to import {count} rows: {class} - {message},  given up without retries"
            ));
        } else {
            self.insert_errors += count as i64;
            printer.err(&format!(
                "Failed to import {count} rows: {class} - {message},  given up after {attempts} attempts"
            ));
        }
    }

    /// A source that could not be opened: reported, nothing written.
    pub(super) fn source_failed(&mut self, message: &str, printer: &mut Printer) {
        self.report("OSError", message, 0, 1, printer);
        self.append("");
    }

    fn add_rows(&mut self, rows: &[Vec<String>]) {
        self.rows_failed += rows.len() as i64;
        let mut text = String::new();
        for row in rows {
            self.dialect.write_row(row, &mut text);
        }
        self.append(&text);
    }

    fn append(&self, text: &str) {
        if let Ok(mut file) = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.err_file)
        {
            let _ = file.write_all(text.as_bytes());
        }
    }

    /// Whether a maximum is exceeded, printing which (cqlsh checks, and prints, twice).
    pub(super) fn exceeded(&self, printer: &mut Printer) -> bool {
        if self.max_insert_errors >= 0 && self.insert_errors > self.max_insert_errors {
            printer.err(&format!(
                "Exceeded maximum number of insert errors {}",
                self.max_insert_errors
            ));
            return true;
        }
        if self.max_parse_errors >= 0 && self.parse_errors > self.max_parse_errors {
            printer.err(&format!(
                "Exceeded maximum number of parse errors {}",
                self.max_parse_errors
            ));
            return true;
        }
        false
    }
}

/// `datetime.now().strftime('.%Y%m%d_%H%M%S')` (in UTC here).
fn now_suffix() -> String {
    let millis = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64);
    civil(millis).map_or_else(String::new, |t| strftime(".%Y%m%d_%H%M%S", &t))
}
