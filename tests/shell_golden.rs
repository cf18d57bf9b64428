//! Golden outputs of the shell: statements and shell commands run through
//! `Shell::run` in each format and mode, and the errors as cqlsh prints
//! them. Every snapshot marks line ends with `|` (as cqlsh.md shows its
//! samples) so blank lines and trailing spaces stay visible.
//!
//! What the snapshots were checked against: the table layout, batch and
//! interactive, cqlsh.md §3.1 (its first sample, rows in clustering order);
//! the expanded layout §3.2; statements without rows and conditional writes
//! §3.3; shell-command messages §2, except the switch commands' (cqlsh's
//! source, which cqlsh.md gets wrong: see `SWITCHES`); errors §1.3–1.4 (batch `FILE:LINE:`
//! prefix — with the line the statement starts on, widerow's documented
//! divergence — the lexing error's three lines, `Incomplete statement at
//! end of file`); JSON Lines and CSV the contract in DESIGN.md.

use widerow::shell::{Format, Reply, Settings, Shell};
use widerow::{ScriptStatement, Session};

const SCHEMA: &str = "
CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
USE ks;
CREATE TABLE users (g int, id int, name text, score double, PRIMARY KEY (g, id));
INSERT INTO users (g, id, name, score) VALUES (0, 1, 'Alice', 3.5);
INSERT INTO users (g, id, name) VALUES (0, 42, 'Bob');
INSERT INTO users (g, id, name, score) VALUES (0, -7, 'O''Hara ünï', 1234567.0);
";

const SELECT: &str = "SELECT id, name, score FROM users WHERE g = 0;";

fn shell(format: Format, interactive: bool) -> Shell {
    let mut session = Session::new();
    session.execute_script(SCHEMA).expect("schema");
    let settings = Settings {
        format,
        interactive,
        ..Settings::default()
    };
    Shell::new(session, settings)
}

/// Runs each line of `script` (one statement or command per line) and
/// shows standard output and standard error.
fn run(shell: &mut Shell, script: &str) -> String {
    let mut reply = Reply::default();
    for statement in widerow::syntax::script::split_statements_with_line_commands(
        script,
        widerow::shell::LINE_COMMANDS,
    ) {
        reply.append(shell.run("script.cql", &statement));
    }
    format!(
        "stdout:\n{}stderr:\n{}",
        marked(&reply.stdout()),
        marked(&reply.err)
    )
}

fn marked(text: &str) -> String {
    text.split_inclusive('\n')
        .map(|line| format!("{}|\n", line.strip_suffix('\n').unwrap_or(line)))
        .collect()
}

fn batch(format: Format, script: &str) -> String {
    run(&mut shell(format, false), script)
}

fn interactive(format: Format, script: &str) -> String {
    run(&mut shell(format, true), script)
}

#[test]
fn table_batch() {
    insta::assert_snapshot!(batch(
        Format::Table,
        &format!(
            "{SELECT}\nSELECT id FROM users WHERE g = 5;\nSELECT count(*) FROM users WHERE g = 0;"
        )
    ));
}

#[test]
fn table_interactive() {
    insta::assert_snapshot!(interactive(
        Format::Table,
        &format!("{SELECT}\nSELECT id FROM users WHERE g = 5;")
    ));
}

#[test]
fn table_pages() {
    let mut shell = shell(Format::Table, true);
    let out = run(&mut shell, &format!("PAGING 2\n{SELECT}"));
    let statement = ScriptStatement {
        text: SELECT.into(),
        line: 1,
        column: 1,
        offset: 0,
        terminated: true,
        lexes_cleanly: false,
    };
    // Two pages for the pager: every page with its header.
    assert_eq!(shell.run("x", &statement).out.len(), 2);
    insta::assert_snapshot!(out);
}

#[test]
fn expanded() {
    insta::assert_snapshot!(batch(Format::Expanded, SELECT));
    insta::assert_snapshot!(
        "expand_on_interactive",
        interactive(
            Format::Table,
            &format!("EXPAND ON\n{SELECT}\nEXPAND\nEXPAND OFF")
        )
    );
}

#[test]
fn json_lines() {
    insta::assert_snapshot!(batch(
        Format::Json,
        &format!(
            "{SELECT}\nINSERT INTO users (g, id) VALUES (1, 1);\nSELECT * FROM users WHERE name = 'x';\nSELEC 1;\nSELECT 1 FROM users WHERE g = 0"
        )
    ));
}

#[test]
fn csv() {
    insta::assert_snapshot!(batch(
        Format::Csv,
        &format!("{SELECT}\nINSERT INTO users (g, id, name) VALUES (1, 1, 'a, \"b\"');\nSELECT name FROM users WHERE g = 1;")
    ));
}

#[test]
fn conditional_writes() {
    insta::assert_snapshot!(batch(
        Format::Table,
        "INSERT INTO users (g, id, name) VALUES (2, 1, 'Ann') IF NOT EXISTS;\nINSERT INTO users (g, id, name) VALUES (2, 1, 'Ann') IF NOT EXISTS;"
    ));
}

#[test]
fn errors_batch() {
    insta::assert_snapshot!(batch(
        Format::Table,
        "SELECT * FROM nope;\nbad;\nCREATE TABLE users (k int PRIMARY KEY);\nCREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\nselect @ from x;\nCONSISTENCY MAYBE\nSELECT * FROM users WHERE g = 0"
    ));
}

#[test]
fn errors_interactive() {
    insta::assert_snapshot!(interactive(
        Format::Table,
        "SELECT * FROM nope;\nselect @ from x;\nEXPAND maybe\nUNICODE"
    ));
}

#[test]
fn shell_commands() {
    insta::assert_snapshot!(interactive(
        Format::Table,
        "CONSISTENCY\nCONSISTENCY quorum\nSERIAL CONSISTENCY\nSERIAL CONSISTENCY LOCAL_SERIAL\nPAGING\nPAGING OFF\nPAGING ON\nPAGING 50\nTRACING\nTRACING OFF\nCAPTURE\nCAPTURE OFF\nSHOW VERSION\nEXIT"
    ));
}

#[test]
fn history_lists_the_entries_before_it() {
    let mut shell = shell(Format::Table, true);
    for entry in ["USE ks;", "SELECT * FROM users;", "EXPAND ON", "HISTORY 2"] {
        shell.add_history(entry);
    }
    assert_eq!(
        run(&mut shell, "HISTORY 2"),
        "stdout:\nSELECT * FROM users;|\nEXPAND ON|\nstderr:\n"
    );
}

/// cqlsh 6.2's switch commands, in order, each with what it prints on
/// standard output and on standard error (batch mode, so errors carry
/// `FILE:LINE:`). The words are `SwitchCommand.execute` and
/// `SwitchCommandWithValue` in cqlshlib/cqlshmain.py (Cassandra 5.0), with
/// the descriptions `do_tracing` ("Tracing"), `do_expand` ("Expanded
/// output") and `do_paging` ("Query paging") give them; "already enabled"
/// and "not enabled" go through `printerr`, so they are errors (standard
/// error, and a script's exit status 2). `do_paging` prints `Page size: N`
/// after the switch whenever paging ends up on, and `PAGING n` prints only
/// that (a number is no ON or OFF for `SwitchCommand.execute`).
const SWITCHES: &[(&str, &str, &str)] = &[
    (
        "TRACING",
        "Tracing is currently disabled. Use TRACING ON to enable.\n",
        "",
    ),
    ("TRACING OFF", "", "script.cql:1:Tracing is not enabled.\n"),
    ("TRACING ON", "Now Tracing is enabled\n", ""),
    (
        "tracing on;",
        "",
        "script.cql:1:Tracing is already enabled. Use TRACING OFF to disable.\n",
    ),
    (
        "TRACING",
        "Tracing is currently enabled. Use TRACING OFF to disable\n",
        "",
    ),
    ("TRACING OFF", "Disabled Tracing.\n", ""),
    (
        "EXPAND",
        "Expanded output is currently disabled. Use EXPAND ON to enable.\n",
        "",
    ),
    (
        "EXPAND OFF",
        "",
        "script.cql:1:Expanded output is not enabled.\n",
    ),
    ("EXPAND ON", "Now Expanded output is enabled\n", ""),
    (
        "EXPAND ON",
        "",
        "script.cql:1:Expanded output is already enabled. Use EXPAND OFF to disable.\n",
    ),
    (
        "EXPAND",
        "Expanded output is currently enabled. Use EXPAND OFF to disable\n",
        "",
    ),
    ("EXPAND OFF", "Disabled Expanded output.\n", ""),
    (
        "PAGING",
        "Query paging is currently enabled. Use PAGING OFF to disable\nPage size: 100\n",
        "",
    ),
    (
        "PAGING ON",
        "Page size: 100\n",
        "script.cql:1:Query paging is already enabled. Use PAGING OFF to disable.\n",
    ),
    ("PAGING 50", "Page size: 50\n", ""),
    ("PAGING OFF", "Disabled Query paging.\n", ""),
    (
        "PAGING",
        "Query paging is currently disabled. Use PAGING ON to enable.\n",
        "",
    ),
    (
        "PAGING OFF",
        "",
        "script.cql:1:Query paging is not enabled.\n",
    ),
    (
        "PAGING ON",
        "Now Query paging is enabled\nPage size: 100\n",
        "",
    ),
];

#[test]
fn switch_commands_print_cqlsh_s_words() {
    let mut shell = shell(Format::Table, false);
    for &(line, out, err) in SWITCHES {
        let statement = &widerow::syntax::script::split_statements_with_line_commands(
            line,
            widerow::shell::LINE_COMMANDS,
        )[0];
        let reply = shell.run("script.cql", statement);
        assert_eq!(
            (reply.stdout().as_str(), reply.err.as_str()),
            (out, err),
            "{line}"
        );
        assert_eq!(reply.failed, !err.is_empty(), "{line}");
        assert!(reply.out.len() <= 1, "one page, no pager stop: {line}");
    }
}

/// An error prints once, in cqlsh's form (`FILE:LINE:` then cqlsh's text:
/// `perform_simple_statement` in cqlshlib/cqlshmain.py prints the
/// exception's class name and message through `printerr`), then with
/// colour on the diagnostic of the statement — which does not repeat the
/// exception's name on a line of its own.
#[test]
fn an_error_prints_once_in_cqlsh_s_form() {
    let mut session = Session::new();
    session.execute_script(SCHEMA).expect("schema");
    let settings = Settings {
        color: true,
        ..Settings::default()
    };
    let mut shell = Shell::new(session, settings);
    let statement = &widerow::split_statements("SELECT * FROM nope;")[0];
    let err = shell.run("script.cql", statement).err;
    let plain = strip_ansi(&err);
    let mut lines = plain.lines();
    assert_eq!(
        lines.next(),
        Some(
            "script.cql:1:InvalidRequest: Error from server: code=2200 [Invalid query] \
             message=\"table nope does not exist\""
        )
    );
    assert!(plain.contains("× table nope does not exist"), "{plain}");
    assert!(
        !lines.any(|l| l.trim() == "InvalidRequest"),
        "the exception is named twice:\n{plain}"
    );
}

fn strip_ansi(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}
