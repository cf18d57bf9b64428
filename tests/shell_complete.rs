//! Tab completion: every row of cqlsh.md §4's completion table, against its
//! fake schema — keyspace `ks` with `users(id int PK, name text, score
//! double)` and `events(day date, ts timestamp, kind text, payload text,
//! PRIMARY KEY (day, ts, kind))`, current keyspace `ks`. A second keyspace,
//! `shop`, stands for the reference's `system` (its candidates are the same
//! kind: `<keyspace>.` prefixes and names) and holds the tables that the
//! mechanics rows need (collections, a name that needs quoting).
//!
//! Expected candidates are the reference's; where it abbreviates (`…`) the
//! missing part was read from cqlsh 6.2.2's own completer (`cqlshlib`'s
//! `cql_complete`, run against the same fake schema).

use std::collections::BTreeSet;

use widerow::shell::complete::{complete, Completion};
use widerow::Session;

const SCHEMA: &str = "
CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
CREATE KEYSPACE shop WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
CREATE TABLE ks.users (id int PRIMARY KEY, name text, score double);
CREATE TABLE ks.events (day date, ts timestamp, kind text, payload text, PRIMARY KEY (day, ts, kind));
CREATE TABLE shop.prefs (id int PRIMARY KEY, ok boolean, tags set<text>, nums list<int>, attrs map<text, int>);
CREATE TABLE shop.\"MixedCase\" (id int PRIMARY KEY);
USE ks;
";

fn session() -> Session {
    let mut session = Session::new();
    session.execute_script(SCHEMA).expect("schema");
    session
}

fn at_end(session: &Session, line: &str) -> Completion {
    complete(session.context(), line, line.len())
}

/// The insertable candidates of `line`, as a set.
fn texts(line: &str) -> BTreeSet<String> {
    set(&at_end(&session(), line).texts())
}

fn hints(line: &str) -> BTreeSet<String> {
    set(&at_end(&session(), line).hints())
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

/// `line` completes to exactly `expected` (insertable candidates).
#[track_caller]
fn offers(line: &str, expected: &[&str]) {
    assert_eq!(texts(line), set(expected), "completing {line:?}");
}

/// The keyspaces every session has, as a node has them: cqlsh offers them
/// wherever it offers a keyspace.
const SYSTEM_KEYSPACES: &[&str] = &[
    "system",
    "system_auth",
    "system_distributed",
    "system_schema",
    "system_traces",
    "system_views",
    "system_virtual_schema",
];

/// `expected` and each system keyspace in each of `forms` (`""` for the
/// bare name, `"."` for a name to qualify a table with).
fn with_system(expected: &[&str], forms: &[&str]) -> Vec<String> {
    let mut all: Vec<String> = expected.iter().map(|s| s.to_string()).collect();
    for keyspace in SYSTEM_KEYSPACES {
        all.extend(forms.iter().map(|form| format!("{keyspace}{form}")));
    }
    all
}

/// `line` completes to `expected` and the system keyspaces in `forms`.
#[track_caller]
fn offers_with_system(line: &str, expected: &[&str], forms: &[&str]) {
    let all = with_system(expected, forms);
    let all: Vec<&str> = all.iter().map(String::as_str).collect();
    offers(line, &all);
}

const TYPES: &[&str] = &[
    "ascii",
    "bigint",
    "blob",
    "boolean",
    "counter",
    "date",
    "decimal",
    "double",
    "duration",
    "float",
    "inet",
    "int",
    "smallint",
    "text",
    "time",
    "timestamp",
    "timeuuid",
    "tinyint",
    "uuid",
    "varchar",
    "varint",
    "list",
    "map",
    "set",
    "frozen",
    "vector",
];

#[test]
fn empty_line_offers_every_statement_and_command() {
    let cqlsh = [
        "SELECT",
        "INSERT",
        "UPDATE",
        "DELETE",
        "BEGIN",
        "TRUNCATE",
        "CREATE",
        "DROP",
        "ALTER",
        "USE",
        "GRANT",
        "REVOKE",
        "LIST",
        "DESC",
        "DESCRIBE",
        "SHOW",
        "HELP",
        "?",
        "CONSISTENCY",
        "SERIAL",
        "SOURCE",
        "CAPTURE",
        "COPY",
        "LOGIN",
        "TRACING",
        "EXPAND",
        "PAGING",
        "CLEAR",
        "CLS",
        "DEBUG",
        "exit",
        "quit",
        "history",
    ];
    // cqlsh's list, plus widerow's own commands.
    let mut expected: Vec<&str> = cqlsh.to_vec();
    expected.extend(["EXPLAIN", "SAVE", "CLUSTER"]);
    offers("", &expected);
    // After a finished statement, the next one starts.
    offers("SELECT * FROM users; ", &expected);
}

#[test]
fn prefixes_match_case_insensitively() {
    offers("s", &["SHOW", "SERIAL", "SOURCE", "SELECT", "SAVE"]);
    offers("SE", &["SERIAL", "SELECT"]);
    offers("se", &["SERIAL", "SELECT"]);
    // A unique keyword gets its trailing space, in upper case.
    offers("sel", &["SELECT "]);
    offers("ex", &["exit", "EXPAND", "EXPLAIN"]);
}

#[test]
fn select_list() {
    let got = texts("SELECT ");
    for word in [
        "*",
        "DISTINCT",
        "JSON",
        "COUNT",
        "WRITETIME",
        "MAXWRITETIME",
        "TTL",
        "CAST",
        "TOKEN",
        "NULL",
        "true",
        "false",
        "[",
        "{",
        "-",
        "ks.",
        "shop.",
    ] {
        assert!(got.contains(word), "{word} in {got:?}");
    }
    let hints = hints("SELECT ");
    assert!(hints.contains("<colname>") && hints.contains("<identifier>"));
    offers("SELECT * ", &["FROM "]);
    // The unique completion extends through following fixed tokens only
    // while there is one continuation.
    offers("SELECT * F", &["FROM "]);
    offers("select * f", &["FROM "]);
    // Typed right after `*`: a space goes between.
    offers("SELECT *", &[" FROM "]);
    offers("SELECT id ", &[",", "AS", "FROM"]);
}

#[test]
fn select_from() {
    offers_with_system(
        "SELECT * FROM ",
        &["events", "users", "ks.", "shop."],
        &["."],
    );
    offers("SELECT * FROM ks.", &["events", "users"]);
    offers("SELECT * FROM ks.u", &["users "]);
    offers("SELECT * FROM u", &["users "]);
    offers(
        "SELECT * FROM users ",
        &["WHERE", "GROUP", "ORDER", "PER", "LIMIT", "ALLOW", ";"],
    );
    offers("SELECT * FROM users W", &["WHERE "]);
}

#[test]
fn where_offers_the_columns_that_may_be_restricted_next() {
    offers("SELECT * FROM users WHERE ", &["TOKEN(", "id"]);
    offers("SELECT * FROM events WHERE ", &["TOKEN(", "day", "ts"]);
    offers(
        "SELECT * FROM events WHERE day = '2025-06-01' AND ",
        &["TOKEN(", "day", "ts"],
    );
    offers(
        "SELECT * FROM events WHERE day = '2025-06-01' AND ts = 0 AND ",
        &["TOKEN(", "day", "ts", "kind"],
    );
    offers("SELECT * FROM ks.events WHERE ", &["TOKEN(", "day", "ts"]);
    offers(
        "SELECT * FROM users WHERE id = 1 ",
        &["AND", "GROUP", "ORDER", "PER", "LIMIT", "ALLOW", ";"],
    );
    offers(
        "SELECT * FROM users WHERE id IN (1, 2) ",
        &["AND", "GROUP", "ORDER", "PER", "LIMIT", "ALLOW", ";"],
    );
    offers("SELECT * FROM users LIMIT 5 ", &["ALLOW", ";"]);
    offers("SELECT * FROM users ALLOW ", &["FILTERING ;"]);
    offers("SELECT * FROM users PER ", &["PARTITION LIMIT "]);
}

#[test]
fn order_by_offers_the_next_clustering_column() {
    offers(
        "SELECT * FROM events WHERE day = '2025-06-01' ORDER BY ",
        &["ts "],
    );
    offers(
        "SELECT * FROM events WHERE day = '2025-06-01' ORDER BY ts DESC, ",
        &["kind "],
    );
    offers(
        "SELECT * FROM events WHERE day = '2025-06-01' ORDER BY ts ",
        &["ASC", "DESC", ",", "PER", "LIMIT", "ALLOW", ";"],
    );
    assert_eq!(
        hints("SELECT * FROM events ORDER BY "),
        set(&["Can't ORDER BY here: need to specify partition key in WHERE clause"])
    );
    assert!(texts("SELECT * FROM events ORDER BY ").is_empty());
}

#[test]
fn insert() {
    offers_with_system("INSERT INTO ", &["events", "users", "ks.", "shop."], &["."]);
    offers("INSERT INTO users ", &["(", "JSON"]);
    // Primary-key columns one at a time, then the others.
    offers("INSERT INTO users (", &["id "]);
    offers("INSERT INTO users (id, ", &["name", "score"]);
    offers("INSERT INTO events (", &["day "]);
    offers("INSERT INTO events (day, ", &["ts "]);
    offers("INSERT INTO events (day, ts, kind, ", &["payload "]);
    offers("INSERT INTO users (id ", &[",", ")"]);
    assert_eq!(
        hints("INSERT INTO users (id, name) VALUES ("),
        set(&["<value for id (int)>"])
    );
    assert_eq!(
        hints("INSERT INTO users (id, name) VALUES (1, "),
        set(&["<value for name (text)>"])
    );
    // Collections open with their bracket; booleans are offered.
    let prefs = "INSERT INTO shop.prefs (id, ok, tags, nums, attrs) VALUES (1, ";
    offers(prefs, &["true", "false"]);
    offers(&format!("{prefs}true, "), &["{"]);
    offers(&format!("{prefs}true, {{'a'}}, "), &["["]);
    offers(&format!("{prefs}true, {{'a'}}, [1], "), &["{"]);
    offers(
        "INSERT INTO users (id, name) VALUES (1, 'x') ",
        &["IF", "USING", ";"],
    );
    offers(
        "INSERT INTO users (id, name) VALUES (1, 'x') IF ",
        &["NOT EXISTS "],
    );
    offers(
        "INSERT INTO users (id, name) VALUES (1, 'x') USING ",
        &["TTL", "TIMESTAMP"],
    );
}

#[test]
fn update_and_delete() {
    offers("UPDATE users ", &["USING", "SET"]);
    offers("UPDATE users SET ", &["name", "score"]);
    offers("UPDATE users SET name = 'x' ", &[",", "WHERE"]);
    offers("UPDATE users SET name = 'x' WHERE ", &["TOKEN(", "id"]);
    assert_eq!(hints("UPDATE users SET name = "), set(&["<term (text)>"]));
    offers("DELETE ", &["FROM "]);
    assert!(hints("DELETE ").contains("<colname>"));
    offers("DELETE FROM users ", &["USING", "WHERE"]);
    offers("DELETE name FROM users ", &["USING", "WHERE"]);
    offers("DELETE FROM users WHERE ", &["TOKEN(", "id"]);
    offers("DELETE FROM users WHERE id = 1 ", &["AND", "IF", ";"]);
}

#[test]
fn create() {
    offers(
        "CREATE ",
        &[
            "TABLE",
            "KEYSPACE",
            "INDEX",
            "CUSTOM",
            "TYPE",
            "FUNCTION",
            "AGGREGATE",
            "MATERIALIZED",
            "TRIGGER",
            "ROLE",
            "USER",
            "OR",
        ],
    );
    offers("CREATE TABLE t (a ", TYPES);
    offers("CREATE TABLE t (a int ", &["PRIMARY", "STATIC", ",", ")"]);
    offers("CREATE TABLE t (a int PRIMARY KEY) ", &["WITH", ";"]);
    let with = texts("CREATE TABLE t (a int, b text, PRIMARY KEY (a)) WITH ");
    for option in [
        "comment",
        "default_time_to_live",
        "gc_grace_seconds",
        "compaction",
        "compression",
        "caching",
        "bloom_filter_fp_chance",
        "speculative_retry",
        "CLUSTERING",
        "COMPACT",
    ] {
        assert!(with.contains(option), "{option} in {with:?}");
    }
    offers(
        "CREATE TABLE t (a int PRIMARY KEY) WITH comment = 'x' ",
        &["AND", ";"],
    );
    assert!(texts("CREATE TABLE t (a map<").contains("int"));
}

#[test]
fn create_keyspace_inserts_the_replication_snippet() {
    offers("CREATE KEYSPACE k WITH ", &["replication = {'class': '"]);
    offers("CREATE KEYSPACE k ", &["WITH replication = {'class': '"]);
    offers(
        "CREATE KEYSPACE k WITH replication = {'class': ",
        &["'SimpleStrategy'", "'NetworkTopologyStrategy'"],
    );
    // Inside the open string the strategies are completed whole.
    offers(
        "CREATE KEYSPACE k WITH replication = {'class': 'Sim",
        &["'SimpleStrategy'"],
    );
    offers(
        "CREATE KEYSPACE k WITH replication = {'class': 'SimpleStrategy', ",
        &["'replication_factor': "],
    );
    let nts = "CREATE KEYSPACE k WITH replication = {'class': 'NetworkTopologyStrategy', ";
    assert_eq!(hints(nts), set(&["<dc_name>"]));
    // widerow adds the simulated cluster's data centres.
    assert_eq!(texts(nts), set(&["'datacenter1'"]));
    offers(
        "CREATE KEYSPACE k WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1} ",
        &["AND", ";"],
    );
}

#[test]
fn drop_use_truncate_alter() {
    offers(
        "DROP ",
        &[
            "KEYSPACE",
            "TABLE",
            "COLUMNFAMILY",
            "INDEX",
            "TYPE",
            "FUNCTION",
            "AGGREGATE",
            "MATERIALIZED",
            "TRIGGER",
            "ROLE",
            "USER",
        ],
    );
    offers_with_system(
        "DROP TABLE ",
        &["IF", "events", "users", "ks.", "shop."],
        &["."],
    );
    offers("DROP TABLE IF ", &["EXISTS "]);
    offers_with_system("USE ", &["ks", "shop"], &[""]);
    // cqlsh extends a unique name through the `;` that must follow.
    offers("USE k", &["ks ;"]);
    offers_with_system(
        "TRUNCATE ",
        &["TABLE", "COLUMNFAMILY", "events", "users", "ks.", "shop."],
        &["."],
    );
    offers(
        "ALTER TABLE users ",
        &["ADD", "ALTER", "DROP", "RENAME", "WITH"],
    );
    offers("ALTER TABLE users DROP ", &["IF", "id", "name", "score"]);
}

#[test]
fn describe() {
    offers_with_system(
        "DESCRIBE ",
        &[
            "KEYSPACES",
            "KEYSPACE",
            "ONLY",
            "TABLES",
            "TABLE",
            "COLUMNFAMILY",
            "COLUMNFAMILIES",
            "INDEX",
            "TYPES",
            "TYPE",
            "FUNCTIONS",
            "FUNCTION",
            "AGGREGATES",
            "AGGREGATE",
            "MATERIALIZED",
            "SCHEMA",
            "FULL",
            "CLUSTER",
            "ks",
            "shop",
            "events",
            "users",
            "ks.",
            "shop.",
        ],
        &["", "."],
    );
    offers_with_system("DESC TABLE ", &["events", "users", "ks.", "shop."], &["."]);
    offers_with_system("DESC KEYSPACE ", &["ks", "shop"], &[""]);
}

#[test]
fn shell_command_arguments() {
    offers(
        "CONSISTENCY ",
        &[
            "ANY",
            "ONE",
            "TWO",
            "THREE",
            "QUORUM",
            "ALL",
            "LOCAL_QUORUM",
            "EACH_QUORUM",
            "SERIAL",
            "LOCAL_SERIAL",
            "LOCAL_ONE",
            "NODE_LOCAL",
            ";",
        ],
    );
    assert_eq!(hints("CONSISTENCY "), set(&["<enter>"]));
    offers("CONSISTENCY Q", &["QUORUM "]);
    for command in ["TRACING ", "EXPAND "] {
        offers(command, &["ON", "OFF", ";"]);
        assert_eq!(hints(command), set(&["<enter>"]));
    }
    offers("PAGING ", &["ON", "OFF", ";"]);
    assert_eq!(hints("PAGING "), set(&["<enter>", "<wholenumber>"]));
    offers("SHOW ", &["VERSION", "HOST", "SESSION", "REPLICAS"]);
    offers("SERIAL ", &["CONSISTENCY "]);
    let help = texts("HELP ");
    for topic in ["CAPTURE", "CONSISTENCY", "SELECT", "CREATE_TABLE", "UUID"] {
        assert!(help.contains(topic), "{topic} in {help:?}");
    }
    // 18 shell commands and 59 CQL topics (cqlsh.md §2, HELP).
    assert_eq!(help.len(), 77);
}

#[test]
fn batches() {
    offers("BEGIN ", &["BATCH", "UNLOGGED", "COUNTER"]);
    offers("BEGIN BATCH ", &["INSERT", "UPDATE", "DELETE", "USING"]);
    offers("BEGIN UNLOGGED ", &["BATCH "]);
    offers(
        "BEGIN BATCH INSERT INTO users (id) VALUES (1); ",
        &["INSERT", "UPDATE", "DELETE", "APPLY"],
    );
    offers(
        "BEGIN BATCH INSERT INTO users (id) VALUES (1); APPLY ",
        &["BATCH ;"],
    );
    offers("BEGIN BATCH UPDATE users SET ", &["name", "score"]);
}

#[test]
fn source_and_capture_complete_file_names() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("shell_complete_files");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("sub")).expect("dir");
    std::fs::write(dir.join("schema.cql"), "").expect("file");
    let base = dir.display().to_string();
    for command in ["SOURCE", "CAPTURE"] {
        let line = format!("{command} '{base}/");
        offers(
            &line,
            &[&format!("'{base}/schema.cql'"), &format!("'{base}/sub/")],
        );
        let line = format!("{command} '{base}/sc");
        offers(&line, &[&format!("'{base}/schema.cql'")]);
    }
}

/// A quote in a file name is written twice inside the string, typed or
/// offered, as cqlsh quotes it.
#[test]
fn file_names_with_quotes_are_escaped() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("shell_complete_quotes");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    std::fs::write(dir.join("it's.cql"), "").expect("file");
    let base = dir.display().to_string();
    offers(
        &format!("SOURCE '{base}/it"),
        &[&format!("'{base}/it''s.cql'")],
    );
    offers(
        &format!("SOURCE '{base}/it''"),
        &[&format!("'{base}/it''s.cql'")],
    );
}

#[test]
fn names_that_need_quotes_are_offered_quoted() {
    offers("SELECT * FROM shop.", &["\"MixedCase\"", "prefs"]);
    offers("SELECT * FROM shop.\"Mi", &["\"MixedCase\""]);
}

#[test]
fn nothing_inside_comments_or_strings() {
    assert!(at_end(&session(), "SELECT /* a comment ")
        .candidates
        .is_empty());
    assert!(at_end(&session(), "SELECT * FROM users -- ")
        .candidates
        .is_empty());
    assert!(texts("SELECT * FROM users WHERE id = 'op").is_empty());
}

#[test]
fn the_word_under_the_cursor_is_replaced() {
    let session = session();
    let line = "SELECT * FROM us WHERE id = 1;";
    let completion = complete(session.context(), line, 16);
    assert_eq!(completion.start, 14);
    assert_eq!(completion.texts(), vec!["users "]);
    // Earlier lines of the statement are context.
    let completion = at_end(&session, "SELECT *\nFROM users\nWHERE ");
    assert_eq!(set(&completion.texts()), set(&["TOKEN(", "id"]));
}

#[test]
fn schema_changes_show_at_once() {
    let mut session = session();
    assert_eq!(
        set(&at_end(&session, "SELECT * FROM ").texts()),
        with_system(&["events", "users", "ks.", "shop."], &["."])
            .into_iter()
            .collect()
    );
    session
        .execute("CREATE TABLE orders (id int PRIMARY KEY, total decimal)")
        .expect("create");
    assert_eq!(
        set(&at_end(&session, "SELECT * FROM ").texts()),
        with_system(&["events", "orders", "users", "ks.", "shop."], &["."])
            .into_iter()
            .collect()
    );
    assert_eq!(
        at_end(&session, "INSERT INTO orders (id, ").texts(),
        vec!["total "]
    );
}
