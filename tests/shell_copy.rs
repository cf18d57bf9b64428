//! COPY TO / COPY FROM through the shell, as a script runs them: every type round-trips
//! through a CSV file into an empty copy of the table, the export matches byte for byte
//! what cqlsh 6.2's own formatting code and Python's `csv` module write for the same
//! values (`tests/shell_copy/all_types.csv` was produced by `cqlshlib.formatting` under
//! Python 3.11), and the options, messages and error file behave as cqlsh's
//! `copyutil.py`. Rates and durations vary from run to run, so [`normalize`] replaces
//! them before comparing.

use std::path::{Path, PathBuf};

use widerow::shell::copy::copy_with_stdin;
use widerow::shell::{Settings, Shell, LINE_COMMANDS};
use widerow::syntax::script::split_statements_with_line_commands;
use widerow::Session;

const KEYSPACE: &str =
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};";

/// A fresh shell in script mode.
fn shell() -> Shell {
    let settings = Settings {
        page_size: None,
        ..Settings::default()
    };
    let mut shell = Shell::new(Session::new(), settings);
    expect_ok(&mut shell, KEYSPACE);
    shell
}

/// Runs a script; returns everything written to standard output and standard error.
/// Every error line must carry batch mode's `test.cql:LINE:` prefix (cqlsh's
/// `printerr`), which is checked and then removed so the cases read as cqlsh's
/// messages.
fn run(shell: &mut Shell, script: &str) -> (String, String) {
    let (mut out, mut err) = (String::new(), String::new());
    for statement in split_statements_with_line_commands(script, LINE_COMMANDS) {
        let reply = shell.run("test.cql", &statement);
        out.push_str(&reply.stdout());
        let prefix = format!("test.cql:{}:", statement.line);
        for line in reply.err.lines() {
            let message = line.strip_prefix(&prefix).unwrap_or_else(|| {
                panic!("error line without {prefix}: {line:?}");
            });
            err.push_str(message);
            err.push('\n');
        }
    }
    (out, err)
}

/// Runs a script that must not print errors; returns standard output.
fn expect_ok(shell: &mut Shell, script: &str) -> String {
    let (out, err) = run(shell, script);
    assert_eq!(err, "", "unexpected errors running:\n{script}");
    out
}

/// A scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("widerow-copy-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

fn path(dir: &Path, file: &str) -> String {
    dir.join(file).display().to_string()
}

fn read(path: &str) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// cqlsh's output with what varies between runs replaced: the number of child
/// processes, the rates of the `Processed:` line (only the last of which is kept, as a
/// terminal shows it after its `\r`s) and the elapsed time.
fn normalize(out: &str) -> String {
    out.split('\n')
        .map(normalize_line)
        .collect::<Vec<_>>()
        .join("\n")
}

fn normalize_line(line: &str) -> String {
    if line.starts_with("Using ") && line.ends_with(" child processes") {
        return "Using N child processes".into();
    }
    if line.starts_with("Processed: ") {
        let last = line
            .trim_end_matches('\r')
            .rsplit("\r\r")
            .next()
            .unwrap_or("");
        let rows = last.split("; Rate:").next().unwrap_or("");
        return format!("{rows}; Rate: R rows/s; Avg. rate: A rows/s");
    }
    if let Some(at) = line.find(" files in ") {
        let rest = &line[at + 10..];
        let end = rest
            .find(" (")
            .or_else(|| rest.rfind('.'))
            .unwrap_or(rest.len());
        return format!("{} files in T{}", &line[..at], &rest[end..]);
    }
    line.to_string()
}

/// The rows of a table as the shell prints them.
fn rows(shell: &mut Shell, table: &str) -> String {
    expect_ok(shell, &format!("SELECT * FROM ks.{table};"))
}

const ALL_TYPES: &str = "(id int PRIMARY KEY, t text, a ascii, bi bigint, vi varint, dc decimal, \
    d double, f float, b boolean, bl blob, u uuid, tu timeuuid, ts timestamp, dt date, tm time, \
    ip inet, si smallint, ti tinyint, dur duration, l list<text>, s set<int>, m map<text, int>, \
    tp tuple<int, text>, fl frozen<list<double>>, ad frozen<addr>, st set<timestamp>)";

const ALL_COLUMNS: &str =
    "(id, t, a, bi, vi, dc, d, f, b, bl, u, tu, ts, dt, tm, ip, si, ti, dur, l, s, m, tp, fl, ad, st)";

fn all_types_shell() -> Shell {
    let mut shell = shell();
    expect_ok(
        &mut shell,
        &format!(
            "CREATE TYPE ks.addr (street text, zip int);\n\
             CREATE TABLE ks.src {ALL_TYPES};\nCREATE TABLE ks.dst {ALL_TYPES};\n\
             INSERT INTO ks.src {ALL_COLUMNS} VALUES (1, 'Hello, \"world\" it''s ünïcödé', \
             'plain ascii', -9223372036854775808, 123456789012345678901234567890, 12345.6789, \
             15000000000.0, 1.5, true, 0xcafebabe, 123e4567-e89b-12d3-a456-426614174000, \
             50554d6e-29bb-11e5-b345-feff819cdc9f, '2025-06-01 08:00:00.123+0000', '2025-06-01', \
             '08:30:00.123456789', '::1', -32768, 127, 1h30m, ['a,b', 'it''s', ''], {{3, 1, 2}}, \
             {{'y, z': 2, 'x': 1}}, (1, 'one'), [1.5, -2.25], {{street: 'Main St, 1', zip: 12345}}, \
             {{'2025-01-01 00:00:00+0000'}});\n\
             INSERT INTO ks.src (id) VALUES (2);\n\
             INSERT INTO ks.src (id, ad, tp) VALUES (3, {{zip: 7}}, (7, ''));\n"
        ),
    );
    shell
}

#[test]
fn every_type_exports_as_cqlsh_writes_it() {
    let dir = scratch("export");
    let file = path(&dir, "all.csv");
    let mut shell = all_types_shell();
    expect_ok(&mut shell, "DELETE FROM ks.src WHERE id = 3;");
    let out = expect_ok(
        &mut shell,
        &format!("COPY ks.src {ALL_COLUMNS} TO '{file}';"),
    );
    let exported = std::fs::read(&file).expect("exported");
    let expected = std::fs::read("tests/shell_copy/all_types.csv").expect("fixture");
    assert_eq!(
        String::from_utf8_lossy(&exported),
        String::from_utf8_lossy(&expected)
    );
    assert_eq!(
        normalize(&out),
        "Using N child processes\n\nStarting copy of ks.src with columns [id, t, a, bi, vi, dc, \
         d, f, b, bl, u, tu, ts, dt, tm, ip, si, ti, dur, l, s, m, tp, fl, ad, st].\n\
         Processed: 2 rows; Rate: R rows/s; Avg. rate: A rows/s\n2 rows exported to 1 files in T.\n"
    );
}

#[test]
fn every_type_round_trips_into_an_empty_table() {
    let dir = scratch("roundtrip");
    let file = path(&dir, "all.csv");
    let mut shell = all_types_shell();
    expect_ok(&mut shell, &format!("COPY ks.src TO '{file}';"));
    let out = expect_ok(&mut shell, &format!("COPY ks.dst FROM '{file}';"));
    assert_eq!(rows(&mut shell, "src"), rows(&mut shell, "dst"));
    assert!(rows(&mut shell, "dst").contains("(3 rows)"));
    assert_eq!(
        normalize(&out),
        "Using N child processes\n\nStarting copy of ks.dst with columns [id, a, ad, b, bi, bl, \
         d, dc, dt, dur, f, fl, ip, l, m, s, si, st, t, ti, tm, tp, ts, tu, u, vi].\n\
         Processed: 3 rows; Rate: R rows/s; Avg. rate: A rows/s\n\
         3 rows imported from 1 files in T (0 skipped).\n"
    );
}

#[test]
fn text_escapes_are_kept_as_cqlsh_keeps_them() {
    // cqlsh writes control characters and backslashes the way it displays them and reads
    // fields back verbatim, so "a<newline>b" comes back as the four characters `a\nb`.
    // A line break inside a quoted CSV field is read as a line break.
    let dir = scratch("escapes");
    let (out_file, in_file) = (path(&dir, "out.csv"), path(&dir, "in.csv"));
    let mut shell = shell();
    expect_ok(
        &mut shell,
        "CREATE TABLE ks.t (id int PRIMARY KEY, v text);\nCREATE TABLE ks.u (id int PRIMARY KEY, v text);\n\
         INSERT INTO ks.t (id, v) VALUES (1, 'a\nb\\c');",
    );
    expect_ok(&mut shell, &format!("COPY ks.t TO '{out_file}';"));
    assert_eq!(read(&out_file), "1,a\\\\nb\\\\\\\\c\r\n");
    expect_ok(&mut shell, &format!("COPY ks.u FROM '{out_file}';"));
    assert!(rows(&mut shell, "u").contains("a\\\\nb\\\\\\\\c"));
    std::fs::write(&in_file, "2,\"line one\nline two, with \\\"quotes\\\"\"\n").expect("write");
    expect_ok(&mut shell, &format!("COPY ks.u FROM '{in_file}';"));
    let (out, _) = run(&mut shell, "SELECT v FROM ks.u WHERE id = 2;");
    assert!(
        out.contains("line one\\nline two, with \"quotes\""),
        "{out}"
    );
}

#[test]
fn header_delimiter_quote_and_null_options() {
    let dir = scratch("options");
    let file = path(&dir, "t.csv");
    let mut shell = shell();
    expect_ok(
        &mut shell,
        "CREATE TABLE ks.t (id int PRIMARY KEY, name text, score double);\n\
         CREATE TABLE ks.u (id int PRIMARY KEY, name text, score double);\n\
         INSERT INTO ks.t (id, name, score) VALUES (1, 'a|b', 2.5);\n\
         INSERT INTO ks.t (id, name) VALUES (2, '');\n\
         INSERT INTO ks.t (id, name, score) VALUES (3, 'say ''hi''', -1.0);",
    );
    let copy = "WITH HEADER = true AND DELIMITER = '|' AND QUOTE = '''' AND NULL = 'N/A'";
    expect_ok(&mut shell, &format!("COPY ks.t TO '{file}' {copy};"));
    assert_eq!(
        read(&file),
        "id|name|score\r\n1|'a|b'|2.5\r\n2||N/A\r\n3|say \\'hi\\'|-1\r\n"
    );
    let out = expect_ok(&mut shell, &format!("COPY ks.u FROM '{file}' {copy};"));
    assert!(
        normalize(&out).ends_with("3 rows imported from 1 files in T (0 skipped).\n"),
        "{out}"
    );
    assert_eq!(rows(&mut shell, "t"), rows(&mut shell, "u"));
}

#[test]
fn to_stdout_prints_only_the_csv() {
    let mut shell = shell();
    expect_ok(
        &mut shell,
        "CREATE TABLE ks.t (id int PRIMARY KEY, ok boolean, price decimal);\n\
         INSERT INTO ks.t (id, ok, price) VALUES (1, true, 1234.5);\n\
         INSERT INTO ks.t (id, ok) VALUES (2, false);",
    );
    let out = expect_ok(
        &mut shell,
        "COPY ks.t (id, ok, price) TO STDOUT WITH HEADER = true;",
    );
    assert_eq!(out, "id,ok,price\r\n1,True,1234.5\r\n2,False,\r\n");
    let styled = expect_ok(
        &mut shell,
        "COPY ks.t TO STDOUT WITH BOOLSTYLE = 'yes,no' AND DECIMALSEP = ',' AND THOUSANDSSEP = '.' AND NULL = '-';",
    );
    assert_eq!(styled, "1,yes,\"1.234,5\"\r\n2,no,-\r\n");
    // token(1) = -4069959284402364209 < token(2): ENDTOKEN is inclusive, BEGINTOKEN not.
    let first = "COPY ks.t (id) TO STDOUT WITH ENDTOKEN = -4069959284402364209;";
    assert_eq!(expect_ok(&mut shell, first), "1\r\n");
    let second = "COPY ks.t (id) TO STDOUT WITH BEGINTOKEN = -4069959284402364209;";
    assert_eq!(expect_ok(&mut shell, second), "2\r\n");
}

#[test]
fn separators_and_styles_read_back() {
    let mut shell = shell();
    expect_ok(
        &mut shell,
        "CREATE TABLE ks.t (id int PRIMARY KEY, ok boolean, n bigint, x double, ts timestamp);",
    );
    let mut input: &[u8] =
        b"1;yes;1.234.567;3,25;01/06/2025 08:00\n2;no;-5;0,5;02/06/2025 09:30\n.\n";
    let reply = copy_with_stdin(
        &mut shell,
        "COPY ks.t (id, ok, n, x, ts) FROM STDIN WITH DELIMITER = ';' AND BOOLSTYLE = 'Yes, No' AND THOUSANDSSEP = '.' \
         AND DECIMALSEP = ',' AND DATETIMEFORMAT = '%d/%m/%Y %H:%M'",
        &mut input,
    );
    assert_eq!(reply.err, "");
    assert!(reply
        .stdout()
        .contains("[Use . on a line by itself to end input]\n"));
    let (out, _) = run(
        &mut shell,
        "SELECT id, ok, n, x, ts FROM ks.t WHERE id = 1;",
    );
    for shown in ["True", "1234567", "3.25", "2025-06-01 08:00:00.000000+0000"] {
        assert!(out.contains(shown), "{shown} in {out}");
    }
    let (out, _) = run(
        &mut shell,
        "SELECT id, ok, n, x, ts FROM ks.t WHERE id = 2;",
    );
    for shown in ["False", "-5", "0.5", "2025-06-02 09:30:00.000000+0000"] {
        assert!(out.contains(shown), "{shown} in {out}");
    }
}

#[test]
fn bad_rows_are_reported_and_written_to_the_error_file() {
    let dir = scratch("bad");
    let err_file = path(&dir, "bad.err");
    let mut shell = shell();
    expect_ok(
        &mut shell,
        "CREATE TABLE ks.t (id int PRIMARY KEY, v text);",
    );
    let (out, err) = run(
        &mut shell,
        &format!("COPY ks.t FROM 'tests/shell_copy/bad_rows.csv' WITH ERRFILE = '{err_file}';"),
    );
    assert_eq!(
        err,
        format!(
            "Failed to import 1 rows: ParseError - Failed to parse two : invalid literal for int() with base 10: 'two',  given up without retries\n\
             Failed to import 1 rows: ParseError - Invalid row length 1 should be 2,  given up without retries\n\
             Failed to import 1 rows: ParseError - Cannot insert null value for primary key column 'id'. If you want to insert empty strings, consider using the WITH NULL=<marker> option for COPY.,  given up without retries\n\
             Failed to import 1 rows: ParseError - Invalid row length 3 should be 2,  given up without retries\n\
             Failed to process 4 rows; failed rows written to {err_file}\n"
        )
    );
    assert!(normalize(&out).ends_with("Processed: 6 rows; Rate: R rows/s; Avg. rate: A rows/s\n2 rows imported from 1 files in T (0 skipped).\n"), "{out}");
    assert_eq!(
        read(&err_file),
        "two,2\r\n3\r\n,empty key\r\n4,four,extra\r\n"
    );
    assert!(rows(&mut shell, "t").contains("(2 rows)"));
}

#[test]
fn maxparseerrors_stops_the_import() {
    let dir = scratch("maxparse");
    let err_file = path(&dir, "bad.err");
    let mut shell = shell();
    expect_ok(
        &mut shell,
        "CREATE TABLE ks.t (id int PRIMARY KEY, v text);",
    );
    std::fs::write(&err_file, "an older error file\n").expect("write");
    let (out, err) = run(
        &mut shell,
        &format!(
            "COPY ks.t FROM 'tests/shell_copy/bad_rows.csv' WITH ERRFILE = '{err_file}' AND MAXPARSEERRORS = 2 AND CHUNKSIZE = 2;"
        ),
    );
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 6, "{err}");
    assert_eq!(lines[3], "Exceeded maximum number of parse errors 2");
    assert_eq!(
        lines[4],
        format!("Failed to process 3 rows; failed rows written to {err_file}")
    );
    assert_eq!(lines[5], "Exceeded maximum number of parse errors 2");
    assert!(
        normalize(&out).ends_with("1 rows imported from 1 files in T (0 skipped).\n"),
        "{out}"
    );
    assert_eq!(read(&err_file), "two,2\r\n3\r\n,empty key\r\n");
    let renamed = std::fs::read_dir(&dir).expect("dir").count();
    assert_eq!(
        renamed, 2,
        "the older error file is kept under a dated name"
    );
}

#[test]
fn skiprows_maxrows_and_column_subsets() {
    let dir = scratch("subsets");
    let file = path(&dir, "t.csv");
    let mut shell = shell();
    expect_ok(
        &mut shell,
        "CREATE TABLE ks.t (id int PRIMARY KEY, a text, b int);\nCREATE TABLE ks.u (id int PRIMARY KEY, a text, b int);",
    );
    let lines: String = (1..=10).map(|i| format!("{i},x{i},{}\n", i * 10)).collect();
    std::fs::write(&file, lines).expect("write");
    let out = expect_ok(
        &mut shell,
        &format!("COPY ks.t FROM '{file}' WITH SKIPROWS = 2 AND MAXROWS = 5;"),
    );
    assert!(
        normalize(&out).ends_with("3 rows imported from 1 files in T (2 skipped).\n"),
        "{out}"
    );
    let (ids, _) = run(
        &mut shell,
        "SELECT id FROM ks.t WHERE id IN (1, 2, 3, 4, 5, 6);",
    );
    assert!(
        ids.contains("(3 rows)") && ids.contains("  3\n") && ids.contains("  5\n"),
        "{ids}"
    );

    expect_ok(&mut shell, &format!("COPY ks.t (id, b) TO '{file}';"));
    assert!(read(&file).contains("3,30\r\n"));
    assert_eq!(read(&file).lines().count(), 3);
    let out = expect_ok(&mut shell, &format!("COPY ks.u (id, b) FROM '{file}';"));
    assert!(out.contains("with columns [id, b]."));
    let (b_only, _) = run(&mut shell, "SELECT a, b FROM ks.u WHERE id = 4;");
    assert!(b_only.contains("null | 40"), "{b_only}");

    std::fs::write(&file, "7,ignored,70\n").expect("write");
    let out = expect_ok(
        &mut shell,
        &format!("COPY ks.u (id, a, b) FROM '{file}' WITH SKIPCOLS = 'a';"),
    );
    assert!(out.contains("with columns [id, b]."), "{out}");
    let (seven, _) = run(&mut shell, "SELECT a, b FROM ks.u WHERE id = 7;");
    assert!(seven.contains("null | 70"), "{seven}");
}

#[test]
fn counters_and_ttl() {
    let dir = scratch("counters");
    let file = path(&dir, "c.csv");
    let mut shell = shell();
    expect_ok(
        &mut shell,
        "CREATE TABLE ks.c (id int PRIMARY KEY, hits counter);\nCREATE TABLE ks.t (id int PRIMARY KEY, v text);",
    );
    std::fs::write(&file, "1,5\n1,2\n2,\n").expect("write");
    expect_ok(&mut shell, &format!("COPY ks.c FROM '{file}';"));
    let out = rows(&mut shell, "c");
    assert!(
        out.contains("  1 |    7") && out.contains("  2 |    0"),
        "{out}"
    );
    std::fs::write(&file, "1,a\n").expect("write");
    expect_ok(
        &mut shell,
        &format!("COPY ks.t FROM '{file}' WITH TTL = 3600;"),
    );
    let (ttl, _) = run(&mut shell, "SELECT TTL(v) FROM ks.t WHERE id = 1;");
    assert!(ttl.contains("3600") || ttl.contains("3599"), "{ttl}");
}

#[test]
fn maxoutputsize_splits_the_export() {
    let dir = scratch("split");
    let file = path(&dir, "t.csv");
    let mut shell = shell();
    expect_ok(&mut shell, "CREATE TABLE ks.t (id int PRIMARY KEY);");
    for i in 0..5 {
        expect_ok(&mut shell, &format!("INSERT INTO ks.t (id) VALUES ({i});"));
    }
    let out = expect_ok(
        &mut shell,
        &format!("COPY ks.t TO '{file}' WITH MAXOUTPUTSIZE = 2 AND HEADER = true;"),
    );
    assert!(
        normalize(&out).ends_with("5 rows exported to 3 files in T.\n"),
        "{out}"
    );
    assert_eq!(read(&file).lines().count(), 3);
    assert_eq!(read(&format!("{file}.1")).lines().count(), 2);
    assert_eq!(read(&format!("{file}.2")).lines().count(), 1);
}

#[test]
fn cqlsh_s_messages_for_mistakes() {
    let mut shell = shell();
    expect_ok(
        &mut shell,
        "CREATE TABLE ks.t (id int PRIMARY KEY, v text);",
    );
    let cases = [
        ("COPY ks.t FROM 'x.csv' WITH foo = 1 AND bar = 2;", "Unrecognized COPY FROM options: foo, bar\n"),
        ("COPY ks.t TO STDOUT WITH foo = 1;", "Unrecognized COPY TO options: foo\n"),
        ("COPY ks.t TO;", "Improper COPY command.\n"),
        ("copy ks.nope TO STDOUT;", "Column family nope not found\n"),
        ("COPY nope.t TO STDOUT;", "Keyspace 'nope' not found.\n"),
        ("COPY t TO STDOUT;", "Not in any keyspace.\n"),
        ("COPY ks.t (id, w) TO STDOUT;", "Invalid column name w\n"),
        ("COPY ks.t (v) FROM 'x.csv';", "Primary key column 'id' missing or skipped\n"),
        ("COPY ks.t TO STDOUT WITH MAXROWS = many;", "invalid literal for int() with base 10: 'many'\n"),
        ("COPY ks.t TO STDOUT WITH BOOLSTYLE = 'y';", "Invalid boolean styles ['y']\n"),
        (
            "COPY ks.t TO STDOUT WITH BEGINTOKEN = 5 AND ENDTOKEN = 1;",
            "Begin token 5 must be smaller than end token 1\n",
        ),
        ("COPY ks.t TO '/nonexistent/dir/t.csv';", "Can't open '/nonexistent/dir/t.csv' for writing: [Errno 2] No such file or directory: '/nonexistent/dir/t.csv'\n"),
    ];
    for (command, expected) in cases {
        let (_, err) = run(&mut shell, command);
        assert_eq!(err, expected, "{command}");
    }
    let dir = scratch("missing");
    let err_file = path(&dir, "e.err");
    let (out, err) = run(
        &mut shell,
        &format!("COPY ks.t FROM '/nonexistent/*.csv' WITH ERRFILE = '{err_file}';"),
    );
    assert_eq!(
        err,
        "Failed to import 0 rows: OSError - Can't open '/nonexistent/*.csv' for reading: no matching file found,  given up after 1 attempts\n"
    );
    assert!(
        normalize(&out).ends_with("0 rows imported from 0 files in T (0 skipped).\n"),
        "{out}"
    );
}

#[test]
fn values_the_driver_cannot_bind() {
    // cqlsh converts with Python's int(), so range errors surface when the driver
    // serializes: as a parse error for a partition key, as a failed batch otherwise.
    let dir = scratch("bind");
    let (file, err_file) = (path(&dir, "t.csv"), path(&dir, "t.err"));
    let mut shell = shell();
    expect_ok(&mut shell, "CREATE TABLE ks.t (id int PRIMARY KEY, v int);");
    std::fs::write(&file, "1,3000000000\n3000000000,1\n2,5\n").expect("write");
    let (out, err) = run(
        &mut shell,
        &format!("COPY ks.t FROM '{file}' WITH ERRFILE = '{err_file}';"),
    );
    let range = "'i' format requires -2147483648 <= number <= 2147483647";
    assert_eq!(
        err,
        format!(
            "Failed to import 1 rows: ParseError - {range},  given up without retries\n\
             Failed to import 1 rows: error - {range},  given up after 1 attempts\n\
             Failed to process 2 rows; failed rows written to {err_file}\n"
        )
    );
    assert!(out.contains(&format!("Failed to make batch statement: {range}\n")));
    assert!(normalize(&out).ends_with("1 rows imported from 1 files in T (0 skipped).\n"));
    assert_eq!(read(&err_file), "3000000000,1\r\n1,3000000000\r\n");
}
