//! COPY TO (cqlsh's `ExportTask` and `ExportWriter`): one `SELECT` of the columns (within
//! BEGINTOKEN/ENDTOKEN when given), written PAGESIZE rows at a time, a header row first
//! with HEADER, a new file `name.1`, `name.2`, … every MAXOUTPUTSIZE rows.

use std::fs::File;
use std::io::Write;
use std::time::Instant;

use crate::types::DataType;

use super::meter::{describe_interval, RateMeter};
use super::{column_list, cql_name, python, Printer, Shell, Task};

/// Murmur3Partitioner's smallest token.
const MIN_TOKEN: i64 = i64::MIN;

/// Runs the export, printing as cqlsh does.
pub(super) fn run(shell: &mut Shell, task: &Task, printer: &mut Printer) -> Result<(), String> {
    let started = Instant::now();
    let opts = &task.options;
    let begin = token_option(&opts.begin_token)?;
    let end = token_option(&opts.end_token)?;
    if opts.max_output_size > 0 && task.file.is_none() {
        printer.err(&format!(
            "WARNING: maxoutputsize {} ignored when writing to STDOUT",
            opts.max_output_size
        ));
    }
    if !opts.unrecognized.is_empty() {
        return Err(format!(
            "Unrecognized COPY TO options: {}",
            opts.unrecognized.join(", ")
        ));
    }
    if let Some(bad) = task.columns.iter().find(|c| task.table.column(c).is_none()) {
        return Err(format!("Invalid column name {bad}"));
    }
    check_tokens(begin, end)?;
    let mut writer = Writer::open(task)?;
    printer.msg(&format!(
        "\nStarting copy of {}.{} with columns {}.",
        task.keyspace,
        task.table.name,
        column_list(&task.columns)
    ));
    let mut meter = RateMeter::new(opts.report_frequency, &opts.rate_file);
    let (rows, types) = select(shell, task, begin, end)?;
    let format = opts.export_format();
    let page = opts.page_size.max(1) as usize;
    for chunk in rows.chunks(page) {
        let mut data = String::new();
        for row in chunk {
            let fields: Vec<String> = row
                .iter()
                .zip(&types)
                .map(|(v, t)| format.cell(v, t))
                .collect();
            opts.dialect.write_row(&fields, &mut data);
        }
        writer.write(&data, chunk.len(), printer)?;
        meter.increment(chunk.len() as u64, printer);
    }
    writer.finish(printer);
    let total = meter.total(printer);
    printer.msg(&format!(
        "\n{total} rows exported to {} files in {}.",
        writer.files,
        describe_interval(started.elapsed().as_secs_f64())
    ));
    Ok(())
}

/// BEGINTOKEN / ENDTOKEN: Python's `int()`, where 0 counts as not given (cqlsh tests
/// them for truth).
fn token_option(text: &str) -> Result<Option<i128>, String> {
    if text.is_empty() {
        return Ok(None);
    }
    let value = python::int(text)?;
    let value = i128::try_from(&value)
        .map_err(|_| "Python int too large to convert to C long".to_string())?;
    Ok((value != 0).then_some(value))
}

fn check_tokens(begin: Option<i128>, end: Option<i128>) -> Result<(), String> {
    if let Some(b) = begin {
        if b < i128::from(MIN_TOKEN) {
            return Err(format!(
                "Begin token {b} must be bigger or equal to min token {MIN_TOKEN}"
            ));
        }
        if let Some(e) = end.filter(|e| b > *e) {
            return Err(format!(
                "Begin token {b} must be smaller than end token {e}"
            ));
        }
    }
    Ok(())
}

/// The rows and their column types, in token order.
fn select(
    shell: &mut Shell,
    task: &Task,
    begin: Option<i128>,
    end: Option<i128>,
) -> Result<(Vec<Vec<crate::types::Value>>, Vec<DataType>), String> {
    let columns: Vec<String> = task.columns.iter().map(|c| cql_name(c)).collect();
    let mut query = format!(
        "SELECT {} FROM {}.{}",
        columns.join(", "),
        cql_name(&task.keyspace),
        cql_name(&task.table.name)
    );
    let key: Vec<String> = task
        .table
        .partition_key
        .iter()
        .map(|c| cql_name(c))
        .collect();
    let token = format!("token({})", key.join(", "));
    let bounds: Vec<String> = [
        begin.map(|b| format!("{token} > {b}")),
        end.map(|e| format!("{token} <= {e}")),
    ]
    .into_iter()
    .flatten()
    .collect();
    if !bounds.is_empty() {
        query.push_str(&format!(" WHERE {}", bounds.join(" AND ")));
    }
    let result = shell.execute_remote(&query).map_err(|e| {
        format!(
            "Error for ({}, {}): {} (permanently given up after 0 rows and 1 attempts)",
            begin.map_or("None".into(), |b| b.to_string()),
            end.map_or("None".into(), |e| e.to_string()),
            e.cqlsh_text().replacen(": ", " - ", 1)
        )
    })?;
    let types = result.columns.iter().map(|c| c.data_type.clone()).collect();
    Ok((result.rows.into_vecs(), types))
}

/// Where exported rows go: standard output, or the file and its `.N` successors.
struct Writer {
    path: Option<String>,
    file: Option<File>,
    /// Text for standard output not yet handed to the printer (the header).
    pending: String,
    files: usize,
    max_output_size: i64,
    written: i64,
}

impl Writer {
    /// Opens the first destination and writes the header row if asked.
    fn open(task: &Task) -> Result<Writer, String> {
        let mut writer = Writer {
            path: task.file.clone(),
            file: None,
            pending: String::new(),
            files: 0,
            max_output_size: task.options.max_output_size,
            written: 0,
        };
        if let Some(path) = &task.file {
            writer.file = Some(create(path)?);
            writer.files = 1;
        }
        if task.options.header {
            let mut header = String::new();
            task.options.dialect.write_row(&task.columns, &mut header);
            writer.put(&header)?;
        }
        Ok(writer)
    }

    /// Writes `rows` rows of CSV, moving on to the next file as cqlsh's
    /// `_write_with_split` does when MAXOUTPUTSIZE is reached.
    fn write(&mut self, data: &str, rows: usize, printer: &mut Printer) -> Result<(), String> {
        if self.file.is_none() {
            printer.data(&std::mem::take(&mut self.pending));
            printer.data(data);
            return Ok(());
        }
        let rows = rows as i64;
        let max = self.max_output_size;
        if max <= 0 || self.written + rows <= max {
            self.written += rows;
            return self.put(data);
        }
        let mut remaining = max - self.written;
        let mut last_switch = 0;
        for (i, line) in data.split_inclusive('\n').enumerate() {
            let i = i as i64;
            if i == remaining {
                self.next_file()?;
                last_switch = i;
                remaining += max;
            }
            self.put(line)?;
        }
        self.written = rows - last_switch;
        Ok(())
    }

    fn next_file(&mut self) -> Result<(), String> {
        let base = self.path.clone().unwrap_or_default();
        self.file = Some(create(&format!("{base}.{}", self.files))?);
        self.files += 1;
        Ok(())
    }

    fn put(&mut self, text: &str) -> Result<(), String> {
        match &mut self.file {
            Some(file) => file.write_all(text.as_bytes()).map_err(|e| e.to_string()),
            None => {
                self.pending.push_str(text);
                Ok(())
            }
        }
    }

    /// Hands any header still pending (an export of no rows) to standard output.
    fn finish(&mut self, printer: &mut Printer) {
        printer.data(&std::mem::take(&mut self.pending));
    }
}

/// Creates (or truncates) an export file, with cqlsh's message on failure.
fn create(path: &str) -> Result<File, String> {
    File::create(path).map_err(|e| {
        format!(
            "Can't open {} for writing: {}",
            python::repr(path),
            io_error_text(&e, path)
        )
    })
}

/// Python's `str(OSError)`: `[Errno 2] No such file or directory: 'path'`.
pub(super) fn io_error_text(error: &std::io::Error, path: &str) -> String {
    let (errno, text) = match error.kind() {
        std::io::ErrorKind::NotFound => (2, "No such file or directory"),
        std::io::ErrorKind::PermissionDenied => (13, "Permission denied"),
        std::io::ErrorKind::AlreadyExists => (17, "File exists"),
        _ => match error.raw_os_error() {
            Some(21) => (21, "Is a directory"),
            Some(20) => (20, "Not a directory"),
            Some(code) => (code, "Input/output error"),
            None => (5, "Input/output error"),
        },
    };
    format!("[Errno {errno}] {text}: {}", python::repr(path))
}
