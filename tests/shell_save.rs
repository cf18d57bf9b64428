//! SAVE 'file' (widerow's own): the script it writes restores the session —
//! every table's rows with the same values, write times and remaining TTLs,
//! rows made only by UPDATE still without an INSERT marker, and views
//! rebuilt from their base tables.

use std::path::PathBuf;
use std::sync::Arc;

use widerow::session::{ManualClock, SeededIds, Session};
use widerow::shell::save::{dump, save};
use widerow::shell::{Settings, Shell, LINE_COMMANDS};
use widerow::syntax::script::split_statements_with_line_commands;
use widerow::types::DataType;

/// 2025-06-01 00:00:00 UTC, as in the conformance corpus.
const START_MICROS: i64 = 1_748_736_000_000_000;

fn session_at(clock: &ManualClock) -> Session {
    Session::with_sources(Arc::new(clock.clone()), Box::new(SeededIds::new(42)))
        .with_settings(widerow::schema::SchemaSettings::permissive())
}

fn run(session: &mut Session, script: &str) {
    for statement in widerow::split_statements(script) {
        if let Err(e) = session.execute(&statement.text) {
            panic!("{}\n{}", e.message(), statement.text);
        }
    }
}

/// Every table and view outside the system keyspaces (each session makes
/// its own, with its own clock): its rows in full-scan order with, for every
/// column that has them, `writetime()` and `ttl()`.
fn snapshot(session: &mut Session) -> String {
    let mut tables: Vec<(String, Vec<String>)> = Vec::new();
    let keyspaces = session.context().catalog.keyspaces();
    for ks in keyspaces.filter(|ks| !widerow::schema::system::is_system_keyspace(&ks.name)) {
        for table in ks.tables.values() {
            let mut selectors = Vec::new();
            for column in table.star_columns() {
                let name = column.cql_name();
                selectors.push(name.clone());
                if !column.is_primary_key()
                    && !column.data_type.is_counter()
                    && !is_multi_cell(&column.data_type)
                {
                    selectors.push(format!("writetime({name})"));
                    selectors.push(format!("ttl({name})"));
                }
            }
            let name = format!(
                "{}.{}",
                widerow::shell::describe::cql::name(&ks.name),
                widerow::shell::describe::cql::name(&table.name)
            );
            tables.push((name, selectors));
        }
    }
    tables.sort();
    let mut out = String::new();
    for (name, selectors) in tables {
        let query = format!("SELECT {} FROM {name}", selectors.join(", "));
        let rows = match session.execute(&query) {
            Ok(result) => format!("{:?}", result.rows),
            Err(e) => panic!("{query}: {}", e.message()),
        };
        out.push_str(&format!("{query}\n{rows}\n"));
    }
    out
}

fn is_multi_cell(ty: &DataType) -> bool {
    ty.is_multi_cell()
}

/// Saves `original` (through the file SAVE writes), runs the file in a
/// fresh session at the same time, and checks both hold the same; returns
/// the copy and its clock.
fn assert_restores(
    original: &mut Session,
    clock: &ManualClock,
    label: &str,
) -> (Session, ManualClock) {
    let path = temp_file(label);
    let message = save(original, &path).unwrap_or_else(|e| panic!("{label}: {}", e.message()));
    assert!(message.starts_with("Saved "), "{message}");
    let text = std::fs::read_to_string(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    let copy_clock = ManualClock::at_micros(clock_micros(clock));
    let mut copy = session_at(&copy_clock);
    if let Err(e) = copy.execute_script(&text) {
        panic!(
            "{label}: the saved file does not run: {}\n{text}",
            e.message()
        );
    }
    assert_eq!(snapshot(original), snapshot(&mut copy), "{label}\n{text}");
    (copy, copy_clock)
}

fn clock_micros(clock: &ManualClock) -> i64 {
    use widerow::session::Clock;
    clock.now_micros()
}

fn temp_file(label: &str) -> PathBuf {
    let name: String = label
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    std::env::temp_dir().join(format!(
        "widerow_shell_save_{}_{name}.cql",
        std::process::id()
    ))
}

const SCHEMA: &str = "
CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
CREATE TYPE ks.point (x double, y double, label text);
CREATE TABLE ks.everything (
    k int, c text, s text static, sl list<int> static,
    a ascii, b bigint, bl blob, bo boolean, d date, de decimal, db double, du duration,
    f float, i inet, n int, sm smallint, t text, tm time, ts timestamp, tu timeuuid,
    ti tinyint, u uuid, vi varint, ve vector<float, 3>, fl frozen<list<text>>,
    fs frozen<set<int>>, fm frozen<map<text, int>>, tp tuple<int, text, double>,
    pt frozen<point>, l list<text>, st set<text>, m map<int, text>,
    PRIMARY KEY (k, c)) WITH CLUSTERING ORDER BY (c DESC);
CREATE TABLE ks.expiring (k int PRIMARY KEY, v text, w int) WITH default_time_to_live = 1000;
CREATE TABLE ks.counts (k text, c int, hits counter, misses counter, PRIMARY KEY (k, c));
CREATE TABLE ks.people (id int PRIMARY KEY, name text, city text);
CREATE MATERIALIZED VIEW ks.by_city AS SELECT * FROM ks.people
    WHERE city IS NOT NULL AND id IS NOT NULL PRIMARY KEY (city, id);
";

const DATA: &str = "
INSERT INTO ks.everything (k, c, a, b, bl, bo, d, de, db, du, f, i, n, sm, t, tm, ts, tu, ti, u, vi, ve, fl, fs, fm, tp, pt)
  VALUES (1, 'x', 'asc', -9000000000, 0xcafe, true, '2024-02-29', 1.50, 0.1, -1mo2d3h4ns, 3.4028235e38,
          '::1', -7, 32767, 'it''s a \"quote\"\nnew line', '23:59:59.999999999', '1969-12-31 23:59:59.999+0000',
          50554d6e-29bb-11e5-b345-feff819cdc9f, -128, 123e4567-e89b-12d3-a456-426614174000,
          123456789012345678901234567890, [1.5, NaN, -Infinity], ['a', 'b'], {3, 1}, {'k': 1},
          (1, 'one', Infinity), {x: -0.0, y: 1e-300, label: null})
  USING TIMESTAMP 1000 AND TTL 5000;
UPDATE ks.everything USING TIMESTAMP 2000 SET n = 8, t = 'later' WHERE k = 1 AND c = 'x';
UPDATE ks.everything USING TTL 60 SET de = 15E+1, db = -0.0 WHERE k = 1 AND c = 'x';
UPDATE ks.everything SET l = l + ['one', 'two'] WHERE k = 1 AND c = 'x';
UPDATE ks.everything USING TIMESTAMP 5 SET l = ['zero'] + l WHERE k = 1 AND c = 'x';
UPDATE ks.everything SET l[1] = 'ONE' WHERE k = 1 AND c = 'x';
UPDATE ks.everything USING TTL 100 SET st = st + {'b', 'a'}, m = m + {2: 'two'} WHERE k = 1 AND c = 'x';
UPDATE ks.everything USING TIMESTAMP 7 SET m[1] = 'one' WHERE k = 1 AND c = 'x';
UPDATE ks.everything SET s = 'static', sl = [1, 2] WHERE k = 1;
UPDATE ks.everything SET a = 'only an update' WHERE k = 2 AND c = 'y';
UPDATE ks.everything SET s = 'static only' WHERE k = 3;
INSERT INTO ks.everything (k, c) VALUES (4, '') USING TIMESTAMP 42;
INSERT INTO ks.everything (k, c, n, d, ts, bl, t) VALUES (5, 'e', blobAsInt(0x), '1970-01-01', 0, 0x, '');
INSERT INTO ks.everything (k, c, de, du, vi, ts, d, tp) VALUES (6, 'n', -0.001, 0s, -1, 253402300800000, 0, (null, '', null));
INSERT INTO ks.people (id, name, city) VALUES (5, 'O''Brien \"x\"
; -- not a comment', 'Zürich ☃');
UPDATE ks.everything USING TIMESTAMP 9 AND TTL 7000 SET m[3] = 'three' WHERE k = 1 AND c = 'x';
INSERT INTO ks.expiring (k, v) VALUES (1, 'default ttl');
INSERT INTO ks.expiring (k, v, w) VALUES (2, 'no ttl', 3) USING TTL 0;
UPDATE ks.expiring USING TTL 10 SET w = 4 WHERE k = 2;
INSERT INTO ks.expiring (k, v) VALUES (3, 'gone soon') USING TTL 1;
UPDATE ks.counts SET hits = hits + 3, misses = misses - 2 WHERE k = 'a' AND c = 1;
UPDATE ks.counts SET hits = hits + 1 WHERE k = 'b' AND c = 2;
INSERT INTO ks.people (id, name, city) VALUES (1, 'Ann', 'Oslo') USING TIMESTAMP 10;
INSERT INTO ks.people (id, name, city) VALUES (2, 'Bo', 'Rome');
UPDATE ks.people SET city = 'Lima' WHERE id = 2;
UPDATE ks.people SET name = 'Cy', city = 'Oslo' WHERE id = 3;
INSERT INTO ks.people (id, name) VALUES (4, 'Di');
DELETE FROM ks.people WHERE id = 4;
";

#[test]
fn a_saved_session_restores_rows_write_times_and_ttls() {
    let clock = ManualClock::at_micros(START_MICROS);
    let mut original = session_at(&clock);
    run(&mut original, SCHEMA);
    run(&mut original, DATA);
    clock.advance_secs(2);
    let (mut copy, copy_clock) = assert_restores(&mut original, &clock, "varied");

    // TTLs keep running out at the same moments.
    for seconds in [55, 100, 1000, 5000] {
        clock.advance_secs(seconds);
        copy_clock.advance_secs(seconds);
        assert_eq!(
            snapshot(&mut original),
            snapshot(&mut copy),
            "after {seconds} s"
        );
    }
}

#[test]
fn rows_made_by_update_stay_without_an_insert_marker() {
    let clock = ManualClock::at_micros(START_MICROS);
    let mut original = session_at(&clock);
    run(&mut original, SCHEMA);
    run(&mut original, DATA);
    let (mut copy, _) = assert_restores(&mut original, &clock, "liveness");
    // A row made by UPDATE disappears when its cells do; an INSERTed row
    // stays, in both sessions alike.
    for session in [&mut original, &mut copy] {
        run(
            session,
            "DELETE a FROM ks.everything WHERE k = 2 AND c = 'y';",
        );
        run(session, "DELETE s FROM ks.everything WHERE k = 3;");
        run(
            session,
            "UPDATE ks.people SET name = null, city = null WHERE id = 3;",
        );
        run(
            session,
            "UPDATE ks.people SET name = null, city = null WHERE id = 1;",
        );
    }
    assert_eq!(snapshot(&mut original), snapshot(&mut copy));
    let people = copy.execute("SELECT id FROM ks.people").unwrap();
    // Person 3 existed only through an UPDATE: nulling its cells removed
    // it; person 1 was INSERTed and stays.
    assert_eq!(
        format!("{:?}", people.rows),
        "[[Int(5)], [Int(1)], [Int(2)]]"
    );
}

#[test]
fn the_file_holds_the_schema_then_inserts_and_updates() {
    let clock = ManualClock::at_micros(START_MICROS);
    let mut s = session_at(&clock);
    run(
        &mut s,
        "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
         CREATE TABLE ks.t (k int, c int, s int static, v text, w int, PRIMARY KEY (k, c));
         INSERT INTO ks.t (k, c, v) VALUES (1, 2, 'a') USING TIMESTAMP 100 AND TTL 50;
         UPDATE ks.t USING TIMESTAMP 200 SET w = 3 WHERE k = 1 AND c = 2;
         UPDATE ks.t USING TIMESTAMP 300 SET w = 4 WHERE k = 1 AND c = 3;
         UPDATE ks.t USING TIMESTAMP 400 SET s = 9 WHERE k = 1;",
    );
    clock.advance_secs(10);
    let saved = dump(&s);
    assert_eq!((saved.tables, saved.rows), (1, 2));
    let schema = widerow::shell::describe::describe(&s, "SCHEMA").unwrap();
    let data = "\n\
        UPDATE ks.t USING TIMESTAMP 400 SET s = 9 WHERE k = 1;\n\
        INSERT INTO ks.t (k, c, v) VALUES (1, 2, 'a') USING TIMESTAMP 100 AND TTL 40;\n\
        UPDATE ks.t USING TIMESTAMP 200 SET w = 3 WHERE k = 1 AND c = 2;\n\
        UPDATE ks.t USING TIMESTAMP 300 SET w = 4 WHERE k = 1 AND c = 3;\n";
    let expected_tail = format!("{schema}{data}");
    assert!(saved.text.ends_with(&expected_tail), "{}", saved.text);
    assert!(saved.text.starts_with("-- "));
}

#[test]
fn the_shell_saves_and_reports_what_it_wrote() {
    let mut session = Session::new().with_settings(widerow::schema::SchemaSettings::permissive());
    run(
        &mut session,
        "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
         CREATE TABLE ks.one (k int PRIMARY KEY);
         CREATE TABLE ks.two (k int PRIMARY KEY, v int);
         INSERT INTO ks.two (k, v) VALUES (1, 1);",
    );
    let mut shell = Shell::new(session, Settings::default());
    let path = temp_file("shell");
    let command = format!("SAVE '{}'", path.display());
    let statements = split_statements_with_line_commands(&command, LINE_COMMANDS);
    let reply = shell.run("<stdin>", &statements[0]);
    assert_eq!(
        reply.stdout(),
        format!("Saved 2 tables and 1 row to '{}'.\n", path.display())
    );
    assert!(std::fs::read_to_string(&path)
        .unwrap()
        .contains("INSERT INTO ks.two (k, v) VALUES (1, 1)"));
    let _ = std::fs::remove_file(&path);

    let bad = split_statements_with_line_commands("SAVE '/nonexistent/dir/x.cql'", LINE_COMMANDS);
    let reply = shell.run("<stdin>", &bad[0]);
    assert!(reply.failed);
    assert!(
        reply
            .err
            .contains("Could not write '/nonexistent/dir/x.cql'"),
        "{}",
        reply.err
    );
}

/// Every corpus script, run as the conformance harness runs it (fixed
/// clock, `-- @advance N` lines), saves and restores to the same data.
#[test]
fn every_corpus_session_restores() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["tests/conformance", "tests/planner", "examples"] {
        for entry in std::fs::read_dir(root.join(dir))
            .into_iter()
            .flatten()
            .flatten()
        {
            if entry.path().extension().is_some_and(|e| e == "cql") {
                files.push(entry.path());
            }
        }
    }
    files.sort();
    assert!(files.len() > 40);
    for path in files {
        let source = std::fs::read_to_string(&path).unwrap();
        let clock = ManualClock::at_micros(START_MICROS);
        let mut session = session_at(&clock);
        let mut previous_end = 0;
        for statement in widerow::split_statements(&source) {
            clock.advance_secs(advances(&source[previous_end..statement.offset]));
            previous_end = statement.offset + statement.text.len();
            let _ = session.execute(&statement.text);
        }
        assert_restores(&mut session, &clock, &path.display().to_string());
    }
}

/// The seconds of every `-- @advance N` line in `gap`.
fn advances(gap: &str) -> i64 {
    gap.lines()
        .filter_map(|l| l.trim().strip_prefix("-- @advance"))
        .filter_map(|n| n.trim().parse::<i64>().ok())
        .sum()
}
