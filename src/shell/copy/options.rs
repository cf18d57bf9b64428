//! COPY's `WITH` options, read as cqlsh's `CopyTask.parse_options` reads them: every
//! option of either direction is accepted (an option of the other direction is simply
//! unused), values are converted with Python's `int()` and `float()` in cqlsh's order
//! (so the first bad one is the one reported), and what is left over is reported as
//! `Unrecognized COPY FROM options: …` before anything runs. Options may also come from
//! the `[copy]`, `[copy-from]`/`[copy-to]`, `[copy:ks.table]` and
//! `[copy-from:ks.table]` sections of CONFIGFILE (or `~/.cassandra/cqlshrc`).

use indexmap::IndexMap;

use super::command::Direction;
use super::convert::Converter;
use super::csv::Dialect;
use super::format::ExportFormat;
use super::python;
use super::strptime::TimeFormat;
use super::Printer;

/// Every COPY option, with cqlsh's defaults filled in.
#[derive(Debug, Clone)]
pub(super) struct Options {
    /// DELIMITER, QUOTE and ESCAPE.
    pub dialect: Dialect,
    /// NULL: the text of a null value.
    pub nullval: String,
    /// HEADER: a first row of column names.
    pub header: bool,
    /// PAGESIZE: rows per progress step when exporting.
    pub page_size: i64,
    /// MAXATTEMPTS: tries per failed insert.
    pub max_attempts: i64,
    /// DATETIMEFORMAT: `strftime` / `strptime` format of timestamps.
    pub datetime_format: String,
    /// FLOATPRECISION.
    pub float_precision: i64,
    /// DOUBLEPRECISION.
    pub double_precision: i64,
    /// CHUNKSIZE: lines read, parsed and written together.
    pub chunk_size: i64,
    /// REPORTFREQUENCY: seconds between progress lines.
    pub report_frequency: f64,
    /// DECIMALSEP.
    pub decimal_sep: String,
    /// THOUSANDSSEP.
    pub thousands_sep: String,
    /// BOOLSTYLE: the texts of true and false.
    pub bool_styles: (String, String),
    /// NUMPROCESSES (only reported: one thread does the work).
    pub num_processes: i64,
    /// BEGINTOKEN, as written.
    pub begin_token: String,
    /// ENDTOKEN, as written.
    pub end_token: String,
    /// MAXROWS (-1: all).
    pub max_rows: i64,
    /// SKIPROWS.
    pub skip_rows: i64,
    /// SKIPCOLS: comma-separated column names.
    pub skip_cols: String,
    /// MAXPARSEERRORS (-1: no maximum).
    pub max_parse_errors: i64,
    /// MAXINSERTERRORS (-1: no maximum).
    pub max_insert_errors: i64,
    /// ERRFILE.
    pub err_file: String,
    /// RATEFILE (empty: none).
    pub rate_file: String,
    /// MAXOUTPUTSIZE: rows per exported file (-1: one file).
    pub max_output_size: i64,
    /// TTL of imported rows (-1: none).
    pub ttl: i64,
    /// Names left over, in the order given.
    pub unrecognized: Vec<String>,
}

/// cqlsh's default `time_format`.
const DEFAULT_TIME_FORMAT: &str = "%Y-%m-%d %H:%M:%S.%f%z";

/// cqlsh's default DATETIMEFORMAT: `$CQLSH_DEFAULT_TIMESTAMP_FORMAT` when set, else
/// `%Y-%m-%d %H:%M:%S.%f%z`.
fn default_time_format() -> String {
    match std::env::var("CQLSH_DEFAULT_TIMESTAMP_FORMAT") {
        Ok(format) if !format.is_empty() => format,
        _ => DEFAULT_TIME_FORMAT.to_string(),
    }
}

type Raw = IndexMap<String, String>;

/// The options of a COPY on `keyspace.table`, or the error text cqlsh prints.
pub(super) fn parse(
    given: &[(String, String)],
    direction: Direction,
    keyspace: &str,
    table: &str,
    printer: &mut Printer,
) -> Result<Options, String> {
    let mut opts: Raw = IndexMap::new();
    for (name, value) in given {
        opts.insert(name.to_lowercase(), value.clone());
    }
    let mut opts = with_config_file(opts, direction, keyspace, table, printer);
    let dialect = dialect(&mut opts)?;
    let int = |opts: &mut Raw, name: &str, default: i64| -> Result<i64, String> {
        match opts.shift_remove(name) {
            Some(text) => python::int_i64(&text),
            None => Ok(default),
        }
    };
    let text = |opts: &mut Raw, name: &str, default: &str| {
        opts.shift_remove(name)
            .unwrap_or_else(|| default.to_string())
    };
    let nullval = text(&mut opts, "null", "");
    let header = text(&mut opts, "header", "").to_lowercase() == "true";
    let _encoding = text(&mut opts, "encoding", "utf8");
    let _max_requests = int(&mut opts, "maxrequests", 6)?;
    let page_size = int(&mut opts, "pagesize", 1000)?;
    let _page_timeout = int(&mut opts, "pagetimeout", 10.max(page_size / 100))?;
    let max_attempts = int(&mut opts, "maxattempts", 5)?;
    let datetime_format = text(&mut opts, "datetimeformat", &default_time_format());
    let float_precision = int(&mut opts, "floatprecision", 5)?;
    let double_precision = int(&mut opts, "doubleprecision", 12)?;
    let chunk_size = int(&mut opts, "chunksize", 5000)?;
    let _ingest_rate = int(&mut opts, "ingestrate", 100_000)?;
    let _max_batch_size = int(&mut opts, "maxbatchsize", 20)?;
    let _min_batch_size = int(&mut opts, "minbatchsize", 10)?;
    let report_frequency = match opts.shift_remove("reportfrequency") {
        Some(v) => python::float(&v)?,
        None => 0.25,
    };
    let decimal_sep = text(&mut opts, "decimalsep", ".");
    let thousands_sep = text(&mut opts, "thousandssep", "");
    let styles: Vec<String> = text(&mut opts, "boolstyle", "True, False")
        .split(',')
        .map(|s| s.trim().to_string())
        .collect();
    let num_processes = int(&mut opts, "numprocesses", default_processes())?;
    let begin_token = text(&mut opts, "begintoken", "");
    let end_token = text(&mut opts, "endtoken", "");
    let max_rows = int(&mut opts, "maxrows", -1)?;
    let skip_rows = int(&mut opts, "skiprows", 0)?;
    let skip_cols = text(&mut opts, "skipcols", "");
    let max_parse_errors = int(&mut opts, "maxparseerrors", -1)?;
    let max_insert_errors = int(&mut opts, "maxinserterrors", 1000)?;
    let err_file = python::normpath(&text(
        &mut opts,
        "errfile",
        &format!("import_{keyspace}_{table}.err"),
    ));
    let rate_file = python::normpath(&text(&mut opts, "ratefile", ""));
    let max_output_size = int(&mut opts, "maxoutputsize", -1)?;
    let _prepared = text(&mut opts, "preparedstatements", "true");
    let ttl = int(&mut opts, "ttl", -1)?;
    hidden_options(&mut opts)?;
    if styles.len() != 2 || styles[0] == styles[1] || styles.iter().any(String::is_empty) {
        return Err(format!(
            "Invalid boolean styles {}",
            python::list_repr(&styles)
        ));
    }
    Ok(Options {
        dialect,
        nullval,
        header,
        page_size,
        max_attempts,
        datetime_format,
        float_precision,
        double_precision,
        chunk_size,
        report_frequency,
        decimal_sep,
        thousands_sep,
        bool_styles: (styles[0].clone(), styles[1].clone()),
        num_processes,
        begin_token,
        end_token,
        max_rows,
        skip_rows,
        skip_cols,
        max_parse_errors,
        max_insert_errors,
        err_file,
        rate_file,
        max_output_size,
        ttl,
        unrecognized: opts.keys().cloned().collect(),
    })
}

/// Options cqlsh accepts without documenting them: read as numbers, then unused.
fn hidden_options(opts: &mut Raw) -> Result<(), String> {
    for name in [
        "maxinflightmessages",
        "maxbackoffattempts",
        "maxpendingchunks",
        "requesttimeout",
        "childtimeout",
    ] {
        if let Some(v) = opts.shift_remove(name) {
            python::int_i64(&v)?;
        }
    }
    Ok(())
}

/// QUOTE, ESCAPE and DELIMITER, which Python's `csv` wants one character long; an
/// ESCAPE equal to QUOTE means doubled quotes.
fn dialect(opts: &mut Raw) -> Result<Dialect, String> {
    let mut one = |name: &str, csv_name: &str, default: char| -> Result<char, String> {
        let Some(text) = opts.shift_remove(name) else {
            return Ok(default);
        };
        let mut chars = text.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => Ok(c),
            _ => Err(format!("\"{csv_name}\" must be a 1-character string")),
        }
    };
    let quote = one("quote", "quotechar", '"')?;
    let escape = one("escape", "escapechar", '\\')?;
    let delimiter = one("delimiter", "delimiter", ',')?;
    Ok(Dialect {
        delimiter,
        quote,
        escape: (escape != quote).then_some(escape),
    })
}

/// cqlsh's default NUMPROCESSES: the cores less one, between 1 and 16.
fn default_processes() -> i64 {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get() as i64);
    (cores - 1).clamp(1, 16)
}

/// `maybe_read_config_file`: options from CONFIGFILE's sections, then the command line's.
fn with_config_file(
    mut opts: Raw,
    direction: Direction,
    keyspace: &str,
    table: &str,
    printer: &mut Printer,
) -> Raw {
    let named = opts.shift_remove("configfile").unwrap_or_default();
    let file = if named.is_empty() {
        default_config_file()
    } else {
        named
    };
    let Ok(text) = std::fs::read_to_string(&file) else {
        return opts;
    };
    let dir = direction.word();
    let wanted = [
        "copy".to_string(),
        format!("copy-{dir}"),
        format!("copy:{keyspace}.{table}"),
        format!("copy-{dir}:{keyspace}.{table}"),
    ];
    let sections = ini_sections(&text);
    let mut merged: Raw = IndexMap::new();
    for name in &wanted {
        if let Some(items) = sections.get(name) {
            printer.msg(&format!(
                "Reading options from {file}:[{name}]: {}",
                python::dict_repr(items)
            ));
            merged.extend(items.iter().cloned());
        }
    }
    if !opts.is_empty() {
        let given: Vec<(String, String)> =
            opts.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        printer.msg(&format!(
            "Reading options from the command line: {}",
            python::dict_repr(&given)
        ));
        merged.extend(opts);
    }
    merged
}

fn default_config_file() -> String {
    match std::env::var("HOME") {
        Ok(home) if !home.is_empty() => format!("{home}/.cassandra/cqlshrc"),
        _ => String::new(),
    }
}

/// The `key = value` (or `key: value`) pairs of each `[section]` of an INI file, keys
/// lower-cased as Python's `configparser` does.
fn ini_sections(text: &str) -> IndexMap<String, Vec<(String, String)>> {
    let mut sections: IndexMap<String, Vec<(String, String)>> = IndexMap::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with(';') {
            continue;
        }
        if let Some(name) = trimmed.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
            current = Some(name.to_string());
            sections.entry(name.to_string()).or_default();
            continue;
        }
        let (Some(section), Some(at)) = (&current, trimmed.find(['=', ':'])) else {
            continue;
        };
        let key = trimmed[..at].trim().to_lowercase();
        let value = trimmed[at + 1..].trim().to_string();
        let items = sections.entry(section.clone()).or_default();
        items.retain(|(k, _)| *k != key);
        items.push((key, value));
    }
    sections
}

impl Options {
    /// How COPY TO writes values.
    pub(super) fn export_format(&self) -> ExportFormat {
        ExportFormat {
            nullval: self.nullval.clone(),
            datetime_format: self.datetime_format.clone(),
            float_precision: self.float_precision,
            double_precision: self.double_precision,
            decimal_sep: self.decimal_sep.clone(),
            thousands_sep: self.thousands_sep.clone(),
            bool_styles: self.bool_styles.clone(),
        }
    }

    /// How COPY FROM reads values.
    pub(super) fn converter(&self) -> Converter {
        Converter {
            nullval: self.nullval.clone(),
            true_style: self.bool_styles.0.to_lowercase(),
            decimal_sep: self.decimal_sep.clone(),
            thousands_sep: self.thousands_sep.clone(),
            datetime_format: TimeFormat::new(&self.datetime_format),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_given(given: &[(&str, &str)]) -> Result<Options, String> {
        let given: Vec<(String, String)> = given
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let mut printer = Printer::default();
        let mut opts: Raw = IndexMap::new();
        for (k, v) in given {
            opts.insert(k.to_lowercase(), v);
        }
        opts.insert("configfile".into(), "/nonexistent/cqlshrc".into());
        let given: Vec<(String, String)> = opts.into_iter().collect();
        parse(&given, Direction::From, "ks", "t", &mut printer)
    }

    #[test]
    fn defaults_are_cqlsh_s() {
        let o = parse_given(&[]).expect("parses");
        assert_eq!(
            o.dialect,
            Dialect {
                delimiter: ',',
                quote: '"',
                escape: Some('\\')
            }
        );
        assert_eq!(o.err_file, "import_ks_t.err");
        assert_eq!(
            (o.max_parse_errors, o.max_insert_errors, o.ttl),
            (-1, 1000, -1)
        );
        assert_eq!(o.bool_styles, ("True".into(), "False".into()));
        assert!(!o.header);
    }

    #[test]
    fn bad_values_and_leftovers() {
        let bad = parse_given(&[("maxrows", "x")]);
        assert_eq!(
            bad.err(),
            Some("invalid literal for int() with base 10: 'x'".into())
        );
        let styles = parse_given(&[("boolstyle", "a,b,c")]);
        assert_eq!(
            styles.err(),
            Some("Invalid boolean styles ['a', 'b', 'c']".into())
        );
        let o = parse_given(&[("foo", "1"), ("HEADER", "True"), ("bar", "2")]).expect("parses");
        assert_eq!(o.unrecognized, vec!["foo".to_string(), "bar".into()]);
        assert!(o.header);
        let same = parse_given(&[("quote", "'"), ("escape", "'")]).expect("parses");
        assert_eq!(same.dialect.escape, None);
    }
}
