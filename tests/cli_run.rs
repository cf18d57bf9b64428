//! Running statements from the command line: `-f FILE`, `-e STATEMENTS`
//! and standard input through one session, in each output format, with the
//! run-mode exit codes (DESIGN.md, "Contracts other tools rely on").
//!
//! Expected outputs come from the references, not from the code: the table
//! layout from cqlsh.md §3.1 (its first real sample, rows in clustering
//! order), statements without rows from §3.3, batch-mode error lines and
//! exit codes from §1.3–1.4, JSON Lines and CSV from the contract.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value as Json;

/// The keyspace and table the scripts use: one partition (`g = 0`), rows in
/// clustering order of `id`.
const SCHEMA: &str = "\
CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
CREATE TABLE ks.users (g int, id int, name text, score double, PRIMARY KEY (g, id));
INSERT INTO ks.users (g, id, name, score) VALUES (0, 1, 'Alice', 3.5);
INSERT INTO ks.users (g, id, name) VALUES (0, 42, 'Bob');
INSERT INTO ks.users (g, id, name, score) VALUES (0, -7, 'O''Hara ünï', 1234567.0);
";

/// cqlsh.md §3.1's first sample (`id | name | score`), with its rows in the
/// clustering order of `id`: leading blank line, header right-stripped,
/// `-+-` rule, every value right-aligned, blank line, `(3 rows)`.
const USERS_TABLE: &str = "
 id | name       | score
----+------------+------------
 -7 | O'Hara ünï | 1.2346e+06
  1 |      Alice |        3.5
 42 |        Bob |       null

(3 rows)
";

/// A fresh directory under the target directory.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cli_run_{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

fn write(dir: &Path, file: &str, text: &str) {
    std::fs::write(dir.join(file), text).expect("write script");
}

fn command(dir: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_widerow"));
    command
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null());
    command
}

fn widerow(dir: &Path, args: &[&str]) -> Output {
    command(dir, args).output().expect("run widerow")
}

/// Runs widerow with `input` piped on standard input.
fn widerow_stdin(dir: &Path, args: &[&str], input: impl AsRef<[u8]>) -> Output {
    let mut child = command(dir, args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn widerow");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_ref())
        .expect("write stdin");
    child.wait_with_output().expect("wait for widerow")
}

fn code(output: &Output) -> i32 {
    output.status.code().expect("exit code")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 stdout")
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("UTF-8 stderr")
}

/// The JSON Lines of standard output.
fn records(output: &Output) -> Vec<Json> {
    stdout(output)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect()
}

#[test]
fn table_output_is_cqlsh_batch_layout() {
    let dir = scratch("table");
    write(
        &dir,
        "script.cql",
        &format!("{SCHEMA}SELECT id, name, score FROM ks.users WHERE g = 0;\n"),
    );
    let run = widerow(&dir, &["-f", "script.cql"]);
    assert_eq!(stderr(&run), "");
    assert_eq!(code(&run), 0);
    // DDL and writes print nothing (cqlsh.md §3.3); the SELECT its table.
    assert_eq!(stdout(&run), USERS_TABLE);
    // `text` is the same as `table`, the default.
    let text = widerow(&dir, &["--format", "text", "-f", "script.cql"]);
    assert_eq!(stdout(&text), USERS_TABLE);
    let table = widerow(&dir, &["--format", "table", "-f", "script.cql"]);
    assert_eq!(stdout(&table), USERS_TABLE);
}

#[test]
fn empty_result_and_use() {
    let dir = scratch("use");
    write(
        &dir,
        "script.cql",
        &format!("{SCHEMA}USE ks;\nSELECT id, name FROM users WHERE g = 1;\n"),
    );
    let run = widerow(&dir, &["-f", "script.cql"]);
    assert_eq!(stderr(&run), "");
    assert_eq!(code(&run), 0);
    // Batch mode: header, rule, two blank lines, `(0 rows)` (cqlsh.md §3.1).
    assert_eq!(stdout(&run), "\n id | name\n----+------\n\n\n(0 rows)\n");
}

#[test]
fn expanded_output() {
    let dir = scratch("expanded");
    write(
        &dir,
        "script.cql",
        &format!("{SCHEMA}SELECT id, name FROM ks.users WHERE g = 0 AND id = 1;\n"),
    );
    let run = widerow(&dir, &["--format", "expanded", "-f", "script.cql"]);
    assert_eq!(code(&run), 0, "{}", stderr(&run));
    // cqlsh.md §3.2, batch: the widths of the names and of the values.
    assert_eq!(
        stdout(&run),
        "\n@ Row 1\n------+-------\n id   | 1\n name | Alice\n\n\n(1 rows)\n"
    );
}

#[test]
fn json_lines_records() {
    let dir = scratch("json");
    let script = format!(
        "{SCHEMA}SELECT id, name FROM ks.users\n  WHERE g = 0 AND id = 1;\n\
         SELECT * FROM ks.users WHERE name = 'Bob';\n\
         SELEC 1;\n\
         SELECT * FROM ks.nope;\n"
    );
    write(&dir, "script.cql", &script);
    let run = widerow(&dir, &["--format", "json", "-f", "script.cql"]);
    assert_eq!(code(&run), 2);
    assert_eq!(stderr(&run), "", "errors are records in JSON Lines");
    let records = records(&run);
    assert_eq!(records.len(), 9, "one record per statement: {records:?}");
    // `line` is the line each statement starts on.
    let lines: Vec<u64> = records
        .iter()
        .map(|r| r["line"].as_u64().unwrap())
        .collect();
    assert_eq!(lines, [1, 2, 3, 4, 5, 6, 8, 9, 10]);
    for ok in &records[..5] {
        assert_eq!(ok["kind"], "ok", "{ok}");
        assert!(ok["warnings"].is_array(), "{ok}");
        assert!(ok.get("metrics").is_some(), "{ok}");
    }
    // The writes are planned: they carry their class.
    assert_eq!(records[2]["class"], "point-lookup");
    let rows = &records[5];
    assert_eq!(rows["kind"], "rows");
    assert_eq!(rows["class"], "point-lookup");
    assert_eq!(rows["columns"], serde_json::json!(["id", "name"]));
    assert_eq!(rows["types"], serde_json::json!(["int", "text"]));
    assert_eq!(rows["rows"], serde_json::json!([[1, "Alice"]]));
    assert_eq!(rows["warnings"], serde_json::json!([]));
    let metrics = &rows["metrics"];
    for key in ["partitions_touched", "rows_scanned", "rows_returned"] {
        assert!(metrics[key].is_u64(), "{key} in {metrics}");
    }
    assert!(metrics["nodes_contacted"].is_array(), "{metrics}");
    assert_eq!(metrics["rows_returned"].as_u64(), Some(1));
    // A refusal by the planner: InvalidRequest with the class `rejected`.
    let refused = &records[6];
    assert_eq!(refused["kind"], "error");
    assert_eq!(refused["error"], "InvalidRequest");
    assert_eq!(refused["class"], "rejected");
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .starts_with("Cannot execute this query as it might involve data filtering"),
        "{refused}"
    );
    // A syntax error has no class, and Cassandra's own text.
    let syntax = &records[7];
    assert_eq!(syntax["kind"], "error");
    assert_eq!(syntax["error"], "SyntaxException");
    assert!(syntax.get("class").is_none(), "{syntax}");
    assert!(syntax["message"].as_str().unwrap().starts_with("line 1:"));
    // A missing table is refused too; the message is the server's text, not
    // cqlsh's wrapper.
    let missing = &records[8];
    assert_eq!(missing["error"], "InvalidRequest");
    assert!(!missing["message"]
        .as_str()
        .unwrap()
        .contains("Error from server"));
    assert!(records.iter().all(|r| r.get("file").is_none()));
}

/// Shell commands keep JSON Lines whole: their text is an `output` record,
/// cqlsh's own error an `error` record named `ShellError`, a server error
/// from DESCRIBE the server's record; nothing reaches standard error.
#[test]
fn shell_commands_in_json_lines() {
    let dir = scratch("json_shell");
    let script = format!(
        "{SCHEMA}CONSISTENCY;\n\
         CONSISTENCY SOMETIMES;\n\
         DESCRIBE TABLE ks.nope;\n\
         CLEAR;\n\
         COPY ks.users (g, id, name) TO STDOUT;\n\
         COPY ks.nope FROM 'x.csv';\n"
    );
    write(&dir, "script.cql", &script);
    let run = widerow(&dir, &["--format", "json", "-f", "script.cql"]);
    assert_eq!(code(&run), 2);
    assert_eq!(stderr(&run), "", "errors are records in JSON Lines");
    let records = records(&run);
    let shell: Vec<&Json> = records
        .iter()
        .filter(|r| r["line"].as_u64() > Some(5))
        .collect();
    assert_eq!(shell.len(), 5, "CLEAR prints nothing: {shell:?}");
    assert_eq!(shell[0]["kind"], "output");
    assert_eq!(shell[0]["text"], "Current consistency level is ONE.\n");
    assert_eq!(shell[1]["kind"], "error");
    assert_eq!(shell[1]["error"], "ShellError");
    assert_eq!(shell[1]["message"], "Improper CONSISTENCY command.");
    assert_eq!(shell[2]["error"], "InvalidRequest");
    assert_eq!(shell[3]["kind"], "output");
    assert!(
        shell[3]["text"].as_str().unwrap().contains("0,1,Alice\r\n"),
        "{}",
        shell[3]
    );
    assert_eq!(shell[4]["error"], "ShellError");
    assert_eq!(shell[4]["message"], "Column family nope not found");
}

#[test]
fn explain_in_json_lines_is_the_plan_record_widerow_explain_writes() {
    let dir = scratch("json_explain");
    write(
        &dir,
        "script.cql",
        &format!("{SCHEMA}EXPLAIN SELECT * FROM ks.users WHERE g = 0;\n"),
    );
    write(
        &dir,
        "plain.cql",
        &format!("{SCHEMA}SELECT * FROM ks.users WHERE g = 0;\n"),
    );
    let run = widerow(&dir, &["--format", "json", "-f", "script.cql"]);
    let explain = widerow(&dir, &["explain", "--format", "json", "plain.cql"]);
    assert_eq!(code(&run), 0, "{}", stderr(&run));
    let shown = records(&run).pop().expect("a record for EXPLAIN");
    let planned = records(&explain).pop().expect("a record for the SELECT");
    assert_eq!(shown["kind"], "plan");
    assert_eq!(shown["class"], planned["class"]);
    assert_eq!(shown["plan"], planned["plan"]);
}

#[test]
fn cluster_snapshots_and_the_clock_in_the_shell() {
    let dir = scratch("checkpoints");
    let script = format!(
        "{SCHEMA}CLUSTER SNAPSHOT three;\n\
         INSERT INTO ks.users (g, id, name) VALUES (1, 1, 'Brief') USING TTL 60;\n\
         SELECT count(*) FROM ks.users;\n\
         CLUSTER CLOCK ADVANCE 61;\n\
         SELECT count(*) FROM ks.users;\n\
         INSERT INTO ks.users (g, id, name) VALUES (2, 2, 'Kept');\n\
         CLUSTER RESTORE three;\n\
         SELECT count(*) FROM ks.users;\n\
         CLUSTER RESET;\n\
         SELECT count(*) FROM ks.users;\n\
         CLUSTER RESTORE missing;\n\
         CLUSTER CLOCK SET '2030-01-01 00:00:00+0000';\n"
    );
    write(&dir, "script.cql", &script);
    let run = widerow(&dir, &["--format", "json", "-f", "script.cql"]);
    let records = records(&run);
    let counts: Vec<u64> = records
        .iter()
        .filter(|r| r["kind"] == "rows")
        .filter_map(|r| r["rows"][0][0].as_u64())
        .collect();
    assert_eq!(counts, [4, 3, 3], "{records:?}");
    let after_reset = records.iter().find(|r| r["line"] == 15).unwrap();
    assert_eq!(
        after_reset["error"], "InvalidRequest",
        "the schema is gone too"
    );
    let missing = records.iter().find(|r| r["line"] == 16).unwrap();
    assert_eq!(missing["message"], "No snapshot named 'missing'");
    let clock = records.iter().find(|r| r["line"] == 17).unwrap();
    assert_eq!(clock["text"], "Clock: 2030-01-01 00:00:00.000000+0000\n");
}

#[test]
fn unavailable_is_a_failure_without_class() {
    let dir = scratch("unavailable");
    write(
        &dir,
        "script.cql",
        &format!("{SCHEMA}SELECT * FROM ks.users WHERE g = 0;\n"),
    );
    let run = widerow(
        &dir,
        &[
            "--consistency",
            "THREE",
            "--format",
            "json",
            "-f",
            "script.cql",
        ],
    );
    assert_eq!(code(&run), 2);
    let records = records(&run);
    let last = records.last().expect("records");
    assert_eq!(last["line"].as_u64(), Some(6));
    assert_eq!(last["error"], "Unavailable");
    assert_eq!(last["message"], "Cannot achieve consistency level THREE");
    assert!(last.get("class").is_none(), "{last}");
    // In the table format it is cqlsh's line on standard error.
    let run = widerow(&dir, &["--consistency", "THREE", "-f", "script.cql"]);
    assert_eq!(code(&run), 2);
    assert!(
        stderr(&run).starts_with(
            "script.cql:3:Unavailable: Error from server: code=1000 [Unavailable exception] \
             message=\"Cannot achieve consistency level THREE\""
        ),
        "{}",
        stderr(&run)
    );
}

#[test]
fn errors_are_reported_and_the_script_goes_on() {
    let dir = scratch("errors");
    let script = format!(
        "{SCHEMA}SELECT * FROM ks.nope;\n\n  SELEC\n 1;\nSELECT id FROM ks.users WHERE g = 0 AND id = 42;\n"
    );
    write(&dir, "script.cql", &script);
    let run = widerow(&dir, &["-f", "script.cql"]);
    assert_eq!(code(&run), 2, "a failed statement exits 2 (cqlsh.md §1.3)");
    // `FILE:LINE:` with the line the statement starts on, then cqlsh's text.
    let err = stderr(&run);
    // (The syntax error's snippet holds the statement's line break.)
    let lines: Vec<&str> = err
        .lines()
        .filter(|l| l.starts_with("script.cql:"))
        .collect();
    assert_eq!(lines.len(), 2, "{err}");
    assert!(
        lines[0].starts_with(
            "script.cql:6:InvalidRequest: Error from server: code=2200 [Invalid query] message=\""
        ),
        "{err}"
    );
    assert!(
        lines[1].starts_with("script.cql:8:SyntaxException: line "),
        "{err}"
    );
    // The statements after the failures still ran.
    assert_eq!(stdout(&run), "\n id\n----\n 42\n\n(1 rows)\n");
}

#[test]
fn on_error_stop() {
    let dir = scratch("stop");
    let script = format!(
        "{SCHEMA}SELECT * FROM ks.nope;\nSELECT id FROM ks.users WHERE g = 0 AND id = 42;\n"
    );
    write(&dir, "script.cql", &script);
    let stop = widerow(&dir, &["--on-error", "stop", "-f", "script.cql"]);
    assert_eq!(code(&stop), 2);
    assert_eq!(stdout(&stop), "", "nothing runs after the first failure");
    assert_eq!(stderr(&stop).lines().count(), 1, "{}", stderr(&stop));
    let json = widerow(
        &dir,
        &["--on-error", "stop", "--format", "json", "-f", "script.cql"],
    );
    assert_eq!(code(&json), 2);
    let records = records(&json);
    assert_eq!(records.len(), 6);
    assert_eq!(records[5]["kind"], "error");
    let go_on = widerow(&dir, &["-f", "script.cql"]);
    assert_eq!(code(&go_on), 2);
    assert!(stdout(&go_on).contains("(1 rows)"));
}

#[test]
fn exit_codes() {
    let dir = scratch("exit");
    write(&dir, "ok.cql", SCHEMA);
    let ok = widerow(&dir, &["-f", "ok.cql"]);
    assert_eq!(
        (code(&ok), stdout(&ok), stderr(&ok)),
        (0, String::new(), String::new())
    );
    // Could not start: a missing file, a directory, a bad flag.
    let missing = widerow(&dir, &["-f", "missing.cql"]);
    assert_eq!(code(&missing), 1);
    assert!(
        stderr(&missing).contains("missing.cql"),
        "{}",
        stderr(&missing)
    );
    std::fs::create_dir_all(dir.join("sub")).expect("dir");
    assert_eq!(code(&widerow(&dir, &["-f", "sub"])), 1);
    assert_eq!(code(&widerow(&dir, &["--no-such-flag", "-f", "ok.cql"])), 1);
    assert_eq!(code(&widerow(&dir, &["--nodes", "x", "-f", "ok.cql"])), 1);
    let sarif = widerow(&dir, &["--format", "sarif", "-f", "ok.cql"]);
    assert_eq!(code(&sarif), 1);
    assert!(
        stderr(&sarif).contains("--format sarif"),
        "{}",
        stderr(&sarif)
    );
    assert_eq!(
        code(&widerow(&dir, &["--schema", "missing.cql", "-f", "ok.cql"])),
        1
    );
    assert_eq!(
        code(&widerow(
            &dir,
            &["-k", "nosuchks", "-e", "SELECT 1 FROM t;"]
        )),
        1
    );
    // A statement failed.
    assert_eq!(code(&widerow(&dir, &["-e", "SELECT * FROM nope.nope"])), 2);
    // The run formats belong to running statements: the subcommands refuse
    // them as a bad flag (their "could not run" is 2).
    write(&dir, "q.cql", "SELECT 1 FROM system.local;\n");
    let parse = widerow(&dir, &["parse", "--format", "table", "q.cql"]);
    assert_eq!(code(&parse), 2);
    assert!(
        stderr(&parse).contains("--format table"),
        "{}",
        stderr(&parse)
    );
    assert_eq!(
        code(&widerow(&dir, &["explain", "--format", "csv", "q.cql"])),
        2
    );
    assert_eq!(
        code(&widerow(&dir, &["lint", "--format", "expanded", "q.cql"])),
        2
    );
    assert_eq!(
        code(&widerow(&dir, &["parse", "--format", "json", "q.cql"])),
        0
    );
}

#[test]
fn incomplete_statement_at_end_of_file() {
    let dir = scratch("incomplete");
    write(
        &dir,
        "script.cql",
        &format!("{SCHEMA}SELECT id FROM ks.users\n  WHERE g = 0"),
    );
    let run = widerow(&dir, &["-f", "script.cql"]);
    assert_eq!(code(&run), 2);
    assert_eq!(stdout(&run), "");
    assert_eq!(
        stderr(&run),
        "script.cql:6:Incomplete statement at end of file\n"
    );
    // So does a `--schema` file's.
    let run = widerow(&dir, &["--schema", "script.cql", "-e", "USE ks;"]);
    assert_eq!(code(&run), 2);
    assert_eq!(
        stderr(&run),
        "script.cql:6:Incomplete statement at end of file\n"
    );
    // `-e` appends the missing `;`, as cqlsh does.
    write(&dir, "schema.cql", SCHEMA);
    let run = widerow(
        &dir,
        &[
            "--schema",
            "schema.cql",
            "-e",
            "SELECT id FROM ks.users WHERE g = 0 AND id = 1",
        ],
    );
    assert_eq!(code(&run), 0, "{}", stderr(&run));
    assert_eq!(stdout(&run), "\n id\n----\n  1\n\n(1 rows)\n");
}

#[test]
fn execute_option() {
    let dir = scratch("execute");
    write(&dir, "schema.cql", SCHEMA);
    let run = widerow(
        &dir,
        &[
            "--schema",
            "schema.cql",
            "-e",
            "SELECT count(*) FROM ks.users WHERE g = 0; SELECT * FROM ks.nope",
        ],
    );
    assert_eq!(code(&run), 2);
    // cqlsh.md §3.1, the count query.
    assert_eq!(stdout(&run), "\n count\n-------\n     3\n\n(1 rows)\n");
    // `-e` statements are named `<stdin>` (cqlsh.md §1.3).
    assert!(
        stderr(&run).starts_with("<stdin>:1:InvalidRequest: Error from server: code=2200"),
        "{}",
        stderr(&run)
    );
}

#[test]
fn schema_and_keyspace_flags() {
    let dir = scratch("schema");
    // The schema file's output is suppressed, its SELECT included.
    write(
        &dir,
        "schema.cql",
        &format!("{SCHEMA}SELECT * FROM ks.users WHERE g = 0;\n"),
    );
    write(
        &dir,
        "query.cql",
        "SELECT id, name, score FROM users WHERE g = 0;\n",
    );
    let run = widerow(
        &dir,
        &["--schema", "schema.cql", "-k", "ks", "-f", "query.cql"],
    );
    assert_eq!(stderr(&run), "");
    assert_eq!(code(&run), 0);
    assert_eq!(stdout(&run), USERS_TABLE);
    // Without `-k` the table name needs its keyspace.
    let run = widerow(&dir, &["--schema", "schema.cql", "-f", "query.cql"]);
    assert_eq!(code(&run), 2);
    assert!(
        stderr(&run).starts_with("query.cql:1:InvalidRequest:"),
        "{}",
        stderr(&run)
    );
    // A failure in the schema file is reported with its own name and line,
    // and makes the run fail.
    write(
        &dir,
        "bad.cql",
        &format!("{SCHEMA}CREATE TABLE ks.users (k int PRIMARY KEY);\n"),
    );
    let run = widerow(
        &dir,
        &["--schema", "bad.cql", "-k", "ks", "-f", "query.cql"],
    );
    assert_eq!(code(&run), 2);
    assert!(
        stderr(&run).starts_with("bad.cql:6:AlreadyExists:"),
        "{}",
        stderr(&run)
    );
    assert_eq!(stdout(&run), USERS_TABLE);
}

#[test]
fn statements_on_standard_input() {
    let dir = scratch("stdin");
    let input = format!(
        "{SCHEMA}SELECT id, name, score FROM ks.users WHERE g = 0;\nSELECT * FROM ks.nope;\n"
    );
    let run = widerow_stdin(&dir, &[], &input);
    assert_eq!(code(&run), 2);
    assert_eq!(stdout(&run), USERS_TABLE);
    assert!(
        stderr(&run).starts_with("<stdin>:7:InvalidRequest:"),
        "{}",
        stderr(&run)
    );
    let json = widerow_stdin(&dir, &["--format", "json"], &input);
    let records = records(&json);
    assert_eq!(records.len(), 7);
    assert_eq!(records[5]["kind"], "rows");
    assert_eq!(records[6]["line"].as_u64(), Some(7));
}

#[test]
fn csv_output() {
    let dir = scratch("csv");
    let script = format!(
        "{SCHEMA}SELECT id, name, score FROM ks.users WHERE g = 0;\n\
         INSERT INTO ks.users (g, id, name) VALUES (1, 1, 'a, \"b\"');\n\
         SELECT name FROM ks.users WHERE g = 1;\n"
    );
    write(&dir, "script.cql", &script);
    let run = widerow(&dir, &["--format", "csv", "-f", "script.cql"]);
    assert_eq!(code(&run), 0, "{}", stderr(&run));
    // A header row, values as cqlsh displays them, null as an empty field,
    // RFC 4180 quoting; blocks separated by a blank line, none for the
    // statements without rows.
    assert_eq!(
        stdout(&run),
        "id,name,score\n-7,O'Hara ünï,1.2346e+06\n1,Alice,3.5\n42,Bob,\n\nname\n\"a, \"\"b\"\"\"\n"
    );
}

/// `[limits]` in widerow.toml applies to scripts, a flag beats it, and an
/// unknown key is a configuration error (exit 1) that names the key.
#[test]
fn limits_from_the_configuration_file_and_flags() {
    let dir = scratch("limits");
    write(&dir, "widerow.toml", "[limits]\nin_list_length = 2\n");
    let script = "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\nCREATE TABLE ks.t (k int PRIMARY KEY);\nSELECT * FROM ks.t WHERE k IN (1, 2, 3);\n";
    write(&dir, "s.cql", script);
    let refused = widerow(&dir, &["-f", "s.cql"]);
    assert_eq!(code(&refused), 2);
    assert!(
        stderr(&refused).contains("s.cql:3:InvalidRequest: Error from server: code=2200 [Invalid query] message=\"IN list of 3 values exceeds the limit of 2 ([limits] in_list_length)\""),
        "{}",
        stderr(&refused)
    );
    let allowed = widerow(&dir, &["--max-in-list-length", "3", "-f", "s.cql"]);
    assert_eq!(code(&allowed), 0, "{}", stderr(&allowed));
    write(&dir, "widerow.toml", "[limits]\nbogus = 1\n");
    let bad = widerow(&dir, &["-f", "s.cql"]);
    assert_eq!(code(&bad), 1);
    assert!(
        stderr(&bad).contains("unknown key `bogus` in [limits]"),
        "{}",
        stderr(&bad)
    );
}

/// cqlsh shows timestamps in the zone `TZ` names (UTC without it).
#[test]
fn timestamps_follow_tz() {
    let dir = scratch("tz");
    write(
        &dir,
        "s.cql",
        "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\nCREATE TABLE ks.t (k int PRIMARY KEY, ts timestamp);\nINSERT INTO ks.t (k, ts) VALUES (1, '2025-06-01 08:00:00+0000');\nSELECT ts FROM ks.t;\n",
    );
    let paris = command(&dir, &["-f", "s.cql"])
        .env("TZ", "Europe/Paris")
        .output()
        .expect("run");
    assert!(
        stdout(&paris).contains(" 2025-06-01 10:00:00.000000+0200"),
        "{}",
        stdout(&paris)
    );
    let utc = command(&dir, &["-f", "s.cql"])
        .env_remove("TZ")
        .output()
        .expect("run");
    assert!(
        stdout(&utc).contains(" 2025-06-01 08:00:00.000000+0000"),
        "{}",
        stdout(&utc)
    );
}

/// A script whose COPY FROM STDIN reads the lines after it (cqlsh reads them
/// from its own input), then goes on: the SELECT sees the rows, and the
/// failing statement after it keeps its line (11).
const COPY_SCRIPT: &str = "\
COPY ks.users (g, id, name) FROM STDIN;
1,1,Ann
1,2,\"Ben, Jr.\"
.
SELECT id, name FROM ks.users WHERE g = 1;
SELECT * FROM ks.nope;
";

const COPIED_TABLE: &str = "
 id | name
----+----------
  1 |      Ann
  2 | Ben, Jr.

(2 rows)
";

/// What a script's COPY FROM STDIN prints before the SELECT's table.
fn assert_copied(out: &str) {
    assert!(
        out.starts_with(
            "Using 1 child processes\n\nStarting copy of ks.users with columns [g, id, name].\n\
             [Use . on a line by itself to end input]\n"
        ),
        "{out}"
    );
    assert!(out.contains("\n2 rows imported from 1 files in "), "{out}");
    assert!(out.ends_with(COPIED_TABLE), "{out}");
}

#[test]
fn copy_from_stdin_reads_the_lines_after_it_in_a_file() {
    let dir = scratch("copy_stdin_file");
    write(&dir, "script.cql", &format!("{SCHEMA}{COPY_SCRIPT}"));
    let run = widerow(&dir, &["-f", "script.cql"]);
    assert_eq!(code(&run), 2);
    assert_copied(&stdout(&run));
    let err = stderr(&run);
    assert!(err.starts_with("script.cql:11:InvalidRequest:"), "{err}");
    assert_eq!(err.lines().count(), 1, "the data lines are not CQL: {err}");
}

/// A sourced file's COPY … FROM STDIN reads the sourced file's next lines.
#[test]
fn copy_from_stdin_in_a_sourced_file() {
    let dir = scratch("copy_stdin_source");
    write(&dir, "inner.cql", &format!("{SCHEMA}{COPY_SCRIPT}"));
    let run = widerow(&dir, &["-e", "SOURCE 'inner.cql'"]);
    assert_eq!(code(&run), 2);
    assert_copied(&stdout(&run));
    let err = stderr(&run);
    assert!(err.starts_with("inner.cql:11:InvalidRequest:"), "{err}");
    assert_eq!(err.lines().count(), 1, "the data lines are not CQL: {err}");
}

#[test]
fn copy_from_stdin_reads_the_lines_after_it_on_standard_input() {
    let dir = scratch("copy_stdin_pipe");
    let run = widerow_stdin(&dir, &[], format!("{SCHEMA}{COPY_SCRIPT}"));
    assert_eq!(code(&run), 2);
    assert_copied(&stdout(&run));
    let err = stderr(&run);
    assert!(err.starts_with("<stdin>:11:InvalidRequest:"), "{err}");
    assert_eq!(err.lines().count(), 1, "the data lines are not CQL: {err}");
}

#[test]
fn copy_from_stdin_in_json_lines() {
    let dir = scratch("copy_stdin_json");
    for run in [
        widerow_stdin(
            &dir,
            &["--format", "json"],
            format!("{SCHEMA}{COPY_SCRIPT}"),
        ),
        {
            write(&dir, "script.cql", &format!("{SCHEMA}{COPY_SCRIPT}"));
            widerow(&dir, &["--format", "json", "-f", "script.cql"])
        },
    ] {
        assert_eq!(code(&run), 2);
        assert_eq!(stderr(&run), "");
        let records = records(&run);
        let after: Vec<&Json> = records
            .iter()
            .filter(|r| r["line"].as_u64() > Some(5))
            .collect();
        assert_eq!(after.len(), 3, "{after:?}");
        assert_eq!(after[0]["line"].as_u64(), Some(6));
        assert_eq!(after[0]["kind"], "output");
        let text = after[0]["text"].as_str().unwrap();
        assert!(
            text.contains("[Use . on a line by itself to end input]\n"),
            "{text}"
        );
        assert!(text.contains("2 rows imported from 1 files"), "{text}");
        assert_eq!(after[1]["line"].as_u64(), Some(10));
        assert_eq!(after[1]["kind"], "rows");
        assert_eq!(
            after[1]["rows"],
            serde_json::json!([[1, "Ann"], [2, "Ben, Jr."]])
        );
        assert_eq!(after[2]["line"].as_u64(), Some(11));
        assert_eq!(after[2]["error"], "InvalidRequest");
    }
}

/// `\.` ends the data too (older cqlsh's terminator); statements after the
/// COPY on its own line run after the data, as cqlsh runs them; the end of
/// the input ends the data of a COPY without terminator.
#[test]
fn copy_from_stdin_terminators_and_the_copy_line() {
    let dir = scratch("copy_stdin_ends");
    let script = format!(
        "{SCHEMA}COPY ks.users (g, id, name) FROM STDIN; SELECT count(*) FROM ks.users WHERE g = 1;\n\
         1,1,Ann\n\
         \\.\n\
         SELECT * FROM ks.nope;\n\
         COPY ks.users (g, id, name) FROM STDIN\n\
         1,2,Ben\n\
         1,3,Cy"
    );
    let run = widerow_stdin(&dir, &["--format", "json"], &script);
    assert_eq!(code(&run), 2);
    let records = records(&run);
    let after: Vec<(u64, &str)> = records
        .iter()
        .filter(|r| r["line"].as_u64() > Some(5))
        .map(|r| (r["line"].as_u64().unwrap(), r["kind"].as_str().unwrap()))
        .collect();
    assert_eq!(
        after,
        vec![(6, "output"), (6, "rows"), (9, "error"), (10, "output")]
    );
    assert_eq!(records[6]["rows"], serde_json::json!([[1]]));
    let text = records[8]["text"].as_str().unwrap();
    assert!(text.contains("2 rows imported from 1 files"), "{text}");
}

/// A COPY that fails before reading leaves the lines after it to the
/// script, as cqlsh does: they run (and fail) as CQL.
#[test]
fn copy_from_stdin_that_fails_reads_nothing() {
    let dir = scratch("copy_stdin_fails");
    write(
        &dir,
        "script.cql",
        &format!("{SCHEMA}COPY ks.nope FROM STDIN;\n1,1\n.\n"),
    );
    let run = widerow(&dir, &["-f", "script.cql"]);
    assert_eq!(code(&run), 2);
    let err = stderr(&run);
    assert!(
        err.starts_with("script.cql:6:Column family nope not found\nscript.cql:7:"),
        "{err}"
    );
}

/// With `-e` there are no lines after the statement: COPY FROM STDIN reads
/// standard input, as cqlsh -e does.
#[test]
fn copy_from_stdin_with_execute_reads_standard_input() {
    let dir = scratch("copy_stdin_execute");
    write(&dir, "schema.cql", SCHEMA);
    let run = widerow_stdin(
        &dir,
        &[
            "--schema",
            "schema.cql",
            "-e",
            "COPY ks.users (g, id, name) FROM STDIN; SELECT id, name FROM ks.users WHERE g = 1",
        ],
        "1,1,Ann\n1,2,\"Ben, Jr.\"\n.\nignored\n",
    );
    assert_eq!(code(&run), 0, "{}", stderr(&run));
    assert_copied(&stdout(&run));
}

/// `-f` or `-e` before a subcommand is refused, not silently skipped: the
/// subcommand would run and the script never would. A bad flag is "could
/// not run" (2) for every subcommand (DESIGN.md, exit codes).
#[test]
fn script_flags_beside_a_subcommand_are_refused() {
    let dir = scratch("script_beside_subcommand");
    write(&dir, "x.cql", "SELECT * FROM nope.nope;\n");
    write(&dir, "y.cql", "SELECT * FROM ks.t;\n");
    let cases: [&[&str]; 6] = [
        &["-f", "x.cql", "parse", "y.cql"],
        &["-e", "SELECT 1 FROM t", "parse", "y.cql"],
        &["-f", "x.cql", "explain", "y.cql"],
        &[
            "-e",
            "SELECT 1 FROM t",
            "explain",
            "-e",
            "SELECT * FROM ks.t",
        ],
        &["-f", "x.cql", "lint", "y.cql"],
        &["-f", "x.cql", "rules"],
    ];
    for args in cases {
        let out = widerow(&dir, args);
        assert_eq!(code(&out), 2, "{args:?}: {}", stderr(&out));
        assert_eq!(stdout(&out), "", "{args:?}");
        let flag = if args[0] == "-f" {
            "-f/--file"
        } else {
            "-e/--execute"
        };
        assert!(
            stderr(&out).starts_with(&format!("widerow: {flag} ")),
            "{args:?}: {}",
            stderr(&out)
        );
        assert!(
            stderr(&out).contains(&format!("`widerow {}`", args[2])),
            "{}",
            stderr(&out)
        );
    }
    let out = widerow(&dir, &["-f", "x.cql", "parse", "y.cql"]);
    assert_eq!(
        stderr(&out),
        "widerow: -f/--file runs a script and cannot be combined with `widerow parse`; \
         write `widerow parse FILE`\n"
    );
    // The subcommand's own -e is not the run mode's.
    assert_eq!(
        code(&widerow(&dir, &["parse", "-e", "SELECT 1 FROM t;"])),
        0
    );
}

/// A script is read as UTF-8, as cqlsh reads it (`main` and `do_source` in
/// cqlshlib/cqlshmain.py open it with `codecs.open(…, 'utf-8')`, standard
/// input is Python's UTF-8 text stream): the statements before the line
/// that does not decode run, and the run stops there — in cqlsh the
/// `UnicodeDecodeError` escapes `cmdloop` (exit 1); widerow says where,
/// and exits 1 ("could not start": the file cannot be read). Inside SOURCE
/// cqlsh's `onecmd` catches it (`printerr(e)`): an error on the SOURCE line,
/// and the outer script goes on.
#[test]
fn a_script_that_is_not_utf8_stops_at_the_bad_line() {
    let dir = scratch("not_utf8");
    write(&dir, "schema.cql", SCHEMA);
    let script = b"SELECT id FROM ks.users WHERE g = 0 AND id = 1;\nSELECT \xff FROM ks.users;\nSELECT id FROM ks.users WHERE g = 0 AND id = 42;\n";
    std::fs::write(dir.join("bad.cql"), script).expect("write");
    let out = widerow(&dir, &["--schema", "schema.cql", "-f", "bad.cql"]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert!(stdout(&out).contains("  1\n"), "{}", stdout(&out));
    assert!(!stdout(&out).contains(" 42\n"), "{}", stdout(&out));
    assert_eq!(
        stderr(&out),
        "widerow: bad.cql: line 2, column 8: byte 0xff is not valid UTF-8\n"
    );
    let piped = widerow_stdin(
        &dir,
        &["--schema", "schema.cql"],
        b"SELECT id FROM ks.users WHERE g = 0 AND id = 1;\nSELECT '\xc3\x28';\n",
    );
    assert_eq!(code(&piped), 1);
    assert_eq!(
        stderr(&piped),
        "widerow: <stdin>: line 2, column 9: byte 0xc3 is not valid UTF-8\n"
    );
    write(
        &dir,
        "outer.cql",
        "SOURCE 'bad.cql'\nSELECT id FROM ks.users WHERE g = 0 AND id = 42;\n",
    );
    let sourced = widerow(&dir, &["--schema", "schema.cql", "-f", "outer.cql"]);
    assert_eq!(code(&sourced), 2, "{}", stderr(&sourced));
    assert!(stdout(&sourced).contains(" 42\n"), "{}", stdout(&sourced));
    assert_eq!(
        stderr(&sourced),
        "outer.cql:1:bad.cql: line 2, column 8: byte 0xff is not valid UTF-8\n"
    );
}

/// A switch already in the state asked for is an error in cqlsh
/// (`SwitchCommand.execute` in cqlshlib/cqlshmain.py calls `printerr`,
/// which sets `statement_error`, and `main` exits 2 in batch mode).
#[test]
fn a_switch_already_set_fails_the_script() {
    let dir = scratch("switch_already");
    let out = widerow(&dir, &["-e", "TRACING OFF"]);
    assert_eq!(
        (code(&out), stdout(&out), stderr(&out)),
        (
            2,
            String::new(),
            "<stdin>:1:Tracing is not enabled.\n".to_string()
        )
    );
    let out = widerow(&dir, &["-e", "EXPAND ON; EXPAND OFF"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "Now Expanded output is enabled\nDisabled Expanded output.\n"
    );
}

/// A byte-order mark names a script's encoding and is skipped, for `-f`
/// and SOURCE alike (`get_file_encoding_bomsize` in cqlshlib/util.py, called
/// by `main` and `do_source` in cqlshmain.py). cqlsh checks UTF-16LE's
/// mark before UTF-32LE's, which starts with it, and so misreads UTF-32LE
/// files; widerow reads them (docs/divergences.md).
#[test]
fn byte_order_marks_name_the_encoding_and_are_skipped() {
    let dir = scratch("bom");
    write(&dir, "schema.cql", SCHEMA);
    let text = "INSERT INTO ks.users (g, id, name) VALUES (5, 1, 'é😀');\n\
                SELECT name FROM ks.users WHERE g = 5;\nSELECT * FROM nope;\n";
    let utf16 = |big: bool| -> Vec<u8> {
        let units = std::iter::once(0xFEFF).chain(text.encode_utf16());
        units
            .flat_map(|u: u16| {
                if big {
                    u.to_be_bytes()
                } else {
                    u.to_le_bytes()
                }
            })
            .collect()
    };
    let utf32 = |big: bool| -> Vec<u8> {
        let chars = std::iter::once(0xFEFF).chain(text.chars().map(u32::from));
        chars
            .flat_map(|c: u32| {
                if big {
                    c.to_be_bytes()
                } else {
                    c.to_le_bytes()
                }
            })
            .collect()
    };
    let files: [(&str, Vec<u8>); 5] = [
        ("utf8.cql", [&b"\xEF\xBB\xBF"[..], text.as_bytes()].concat()),
        ("utf16le.cql", utf16(false)),
        ("utf16be.cql", utf16(true)),
        ("utf32le.cql", utf32(false)),
        ("utf32be.cql", utf32(true)),
    ];
    for (name, bytes) in &files {
        std::fs::write(dir.join(name), bytes).expect("write");
        let out = widerow(&dir, &["--schema", "schema.cql", "-f", name]);
        assert_eq!(code(&out), 2, "{name}: {}", stderr(&out));
        assert!(stdout(&out).contains(" é😀\n"), "{name}: {}", stdout(&out));
        assert!(
            stderr(&out).starts_with(&format!("{name}:3:InvalidRequest:")),
            "{name}: {}",
            stderr(&out)
        );
    }
    write(
        &dir,
        "outer.cql",
        "SOURCE 'utf8.cql'\nSOURCE 'utf16le.cql'\n",
    );
    let out = widerow(&dir, &["--schema", "schema.cql", "-f", "outer.cql"]);
    assert_eq!(
        stdout(&out).matches(" é😀\n").count(),
        2,
        "{}",
        stdout(&out)
    );
    assert!(!stderr(&out).contains("Invalid syntax"), "{}", stderr(&out));
}

/// `widerow explain` of statements the planner stops on: the plan as far as
/// it got on standard output (table, restrictions, the partition with its
/// token and replicas), the refusal underlined on standard error, exit 1;
/// in JSON Lines the error record (`kind: "error"`, `class: "rejected"`)
/// carries that partial plan as `plan`. The token of int 1 is Cassandra's
/// (murmur3-vectors.tsv); on the default ring (DESIGN.md, "The default
/// simulated cluster") it falls in node3's range, and SimpleStrategy with
/// factor 3 adds the next two nodes.
#[test]
fn explain_shows_the_partial_plan_of_a_refusal() {
    let dir = scratch("explain_partial");
    write(
        &dir,
        "q.cql",
        "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};\n\
         CREATE TABLE ks.t (k int, c int, v int, PRIMARY KEY (k, c));\n\
         SELECT * FROM ks.t WHERE k = 1 AND v = 2;\n\
         SELECT * FROM ks.t WHERE k = 1;\n",
    );
    let text = widerow(&dir, &["explain", "--consistency", "QUORUM", "q.cql"]);
    assert_eq!(code(&text), 1);
    let out = stdout(&text);
    assert!(
        out.contains(
            "-- line 3: SELECT * FROM ks.t WHERE k = 1 AND v = 2\n\
             refused: SELECT on ks.t\n  \
             restriction k = 1 (partition key)\n  \
             restriction v = 2 (regular)\n  \
             partition (1) token -4069959284402364209 replicas [node3, node4, node1]\n  \
             consistency QUORUM via coordinator node1\n"
        ),
        "{out}"
    );
    assert!(
        out.contains("-- line 4:"),
        "the next statement is planned: {out}"
    );
    let err = stderr(&text);
    assert!(
        err.contains("use ALLOW FILTERING")
            && err.contains("this restriction can only be applied by reading and filtering rows")
            && err.contains("v = 2"),
        "{err}"
    );

    let json = widerow(&dir, &["explain", "--format", "json", "q.cql"]);
    assert_eq!(code(&json), 1);
    let records = records(&json);
    let refused = &records[2];
    assert_eq!(refused["kind"], "error");
    assert_eq!(refused["class"], "rejected");
    assert_eq!(refused["error"], "InvalidRequest");
    let plan = &refused["plan"];
    assert_eq!(plan["statement"], "select");
    assert_eq!(plan["table"], "ks.t");
    assert_eq!(
        plan["restrictions"],
        serde_json::json!([
            {"relation": "k = 1", "restricts": "partition key"},
            {"relation": "v = 2", "restricts": "regular"}
        ])
    );
    let partition = &plan["partitions"]["partitions"][0];
    assert_eq!(partition["token"], "-4069959284402364209");
    assert_eq!(
        partition["replicas"],
        serde_json::json!(["node3", "node4", "node1"])
    );
    assert_eq!(records[3]["kind"], "plan");
}

/// Unavailable (level THREE on a factor of 1, which no ring can meet)
/// keeps its record without `class` and gains the partial plan: the
/// replicas are known, the level is what cannot be met.
#[test]
fn explain_shows_the_partial_plan_of_an_unavailable_statement() {
    let dir = scratch("explain_unavailable");
    write(
        &dir,
        "q.cql",
        "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\n\
         CREATE TABLE ks.t (k int, c int, v int, PRIMARY KEY (k, c));\n\
         SELECT * FROM ks.t WHERE k = 1;\n",
    );
    let json = widerow(
        &dir,
        &[
            "explain",
            "--consistency",
            "THREE",
            "--format",
            "json",
            "q.cql",
        ],
    );
    assert_eq!(code(&json), 1);
    let records = records(&json);
    let last = &records[2];
    assert_eq!(last["error"], "Unavailable");
    assert!(last.get("class").is_none(), "{last}");
    let partition = &last["plan"]["partitions"]["partitions"][0];
    assert_eq!(partition["token"], "-4069959284402364209");
    assert_eq!(partition["replicas"], serde_json::json!(["node3"]));
    assert_eq!(last["plan"]["consistency"], "THREE");
}
