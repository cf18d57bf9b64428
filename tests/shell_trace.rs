//! Golden tests of the shell's teaching views: TRACING ON for the seed's
//! four demo cases (seed 001, section 06: an inbox partition range, an
//! order looked up by key, the `status` hot partition, a full-table scan),
//! EXPLAIN, CLUSTER, and a QUORUM read failing once replicas are down.
//!
//! Each test drives a [`Shell`] the way a script does and snapshots the
//! transcript (statement, standard output, standard error). Sessions use a
//! [`ManualClock`] and [`SeededIds`], so timeuuids from `now()` and write
//! times are the same on every run. What the snapshots must show, and was
//! checked line by line against the plan and the data inserted here:
//! - tokens are Murmur3 tokens of the keys (`tests/murmur3_vectors.rs`
//!   checks the partitioner); replicas follow the token clockwise on the
//!   default ring (DESIGN.md, "The default simulated cluster");
//! - at ONE a read contacts one replica; a write contacts every live one;
//! - the hot partition warning fires for a partition holding more than half
//!   of a table of at least 10,000 rows (DESIGN.md, "The cluster model").

use std::sync::Arc;

use widerow::session::{ManualClock, SeededIds};
use widerow::shell::{Settings, Shell, LINE_COMMANDS};
use widerow::syntax::script::split_statements_with_line_commands;
use widerow::types::Value;
use widerow::Session;

/// 2025-06-01 08:00:00 UTC, in microseconds.
const START: i64 = 1_748_764_800_000_000;

/// A reproducible session and its clock.
fn session() -> (Session, ManualClock) {
    let clock = ManualClock::at_micros(START);
    let session = Session::with_sources(Arc::new(clock.clone()), Box::new(SeededIds::new(1)))
        .with_settings(widerow::schema::SchemaSettings::permissive());
    (session, clock)
}

/// A shell in script mode, no colour, no paging.
fn shell(session: Session) -> Shell {
    let settings = Settings {
        page_size: None,
        ..Settings::default()
    };
    Shell::new(session, settings)
}

/// Runs a script and returns its transcript: each statement after a
/// prompt, then what it wrote to standard output and standard error.
fn transcript(shell: &mut Shell, script: &str) -> String {
    let mut out = String::new();
    for statement in split_statements_with_line_commands(script, LINE_COMMANDS) {
        let reply = shell.run("test.cql", &statement);
        out.push_str(&format!("widerow> {}\n", statement.text));
        out.push_str(&reply.stdout());
        if !reply.err.is_empty() {
            out.push_str(&format!("[stderr] {}", reply.err));
        }
    }
    out
}

/// Runs setup statements, failing the test on any error.
fn setup(shell: &mut Shell, script: &str) {
    for statement in split_statements_with_line_commands(script, LINE_COMMANDS) {
        let reply = shell.run("setup.cql", &statement);
        assert!(!reply.failed, "{}: {}", statement.text, reply.err);
    }
}

const INBOX_SCHEMA: &str = "
CREATE KEYSPACE mail WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};
USE mail;
CREATE TABLE inbox_by_user (
    user_id        uuid,
    message_id     timeuuid,
    sender         text,
    subject        text,
    body           text,
    attachment_url text,
    priority       int,
    PRIMARY KEY (user_id, message_id)
) WITH CLUSTERING ORDER BY (message_id DESC);
";

/// alice's inbox (a11ce000-…), sparse: each message names only the columns
/// it has; one minute apart, so `now()` orders them. bob has one message.
const INBOX_ROWS: &[&str] = &[
    "INSERT INTO inbox_by_user (user_id, message_id, sender, subject, body) VALUES (a11ce000-0000-4000-8000-000000000001, now(), 'news@shop.example', 'June deals', 'Up to 30% off desks.')",
    "INSERT INTO inbox_by_user (user_id, message_id, sender, subject, attachment_url) VALUES (a11ce000-0000-4000-8000-000000000001, now(), 'bob@example.com', 'Slides', 'https://files.example/q2.pdf')",
    "INSERT INTO inbox_by_user (user_id, message_id, sender, subject) VALUES (a11ce000-0000-4000-8000-000000000001, now(), 'carol@example.com', 'Lunch?')",
    "INSERT INTO inbox_by_user (user_id, message_id, sender, subject, body, priority) VALUES (a11ce000-0000-4000-8000-000000000001, now(), 'boss@example.com', 'Q2 review', 'Tomorrow 9:00.', 1)",
    "INSERT INTO inbox_by_user (user_id, message_id, sender, subject, body) VALUES (a11ce000-0000-4000-8000-000000000001, now(), 'dan@example.com', 'Re: Slides', 'Looks good.')",
    "INSERT INTO inbox_by_user (user_id, message_id, sender, subject) VALUES (a11ce000-0000-4000-8000-000000000001, now(), 'erin@example.com', 'Hello')",
    "INSERT INTO inbox_by_user (user_id, message_id, sender, subject, body, attachment_url, priority) VALUES (a11ce000-0000-4000-8000-000000000001, now(), 'it@example.com', 'Password', 'Rotate it.', 'https://it.example/howto', 2)",
    "INSERT INTO inbox_by_user (user_id, message_id, sender, subject) VALUES (b0b00000-0000-4000-8000-000000000002, now(), 'alice@example.com', 'Slides?')",
];

fn inbox_shell() -> Shell {
    let (session, clock) = session();
    let mut shell = shell(session);
    setup(&mut shell, INBOX_SCHEMA);
    for insert in INBOX_ROWS {
        clock.advance_secs(60);
        setup(&mut shell, &format!("{insert};"));
    }
    shell
}

const ORDERS_SCHEMA: &str = "
CREATE KEYSPACE shop WITH replication = {'class': 'NetworkTopologyStrategy', 'datacenter1': 3};
USE shop;
CREATE TABLE orders_by_id (
    order_id timeuuid PRIMARY KEY,
    user_id  uuid,
    total    decimal,
    status   text,
    items    map<text, int>
);
INSERT INTO orders_by_id (order_id, user_id, total, status, items)
  VALUES (d52fe800-4085-11f0-9345-0242ac120002, 550e8400-e29b-41d4-a716-446655440000, 59.90, 'pending', {'sku-1001': 2, 'sku-2002': 1});
INSERT INTO orders_by_id (order_id, user_id, total, status, items)
  VALUES (ade8e200-341a-11f0-9345-0242ac120002, 550e8400-e29b-41d4-a716-446655440000, 24.50, 'delivered', {'sku-1001': 2});
INSERT INTO orders_by_id (order_id, user_id, total, status)
  VALUES (6a56ec00-4200-11f0-9345-0242ac120002, 550e8400-e29b-41d4-a716-446655440000, 373.50, 'paid');
INSERT INTO orders_by_id (order_id, user_id, total, status, items)
  VALUES (0c7e3a00-4300-11f0-9345-0242ac120002, 6ba7b810-9dad-41d1-80b4-00c04fd430c8, 12.00, 'pending', {'sku-4404': 1});
INSERT INTO orders_by_id (order_id, user_id, total, status)
  VALUES (91c4d200-4301-11f0-9345-0242ac120002, 6ba7b810-9dad-41d1-80b4-00c04fd430c8, 99.99, 'shipped');
";

fn orders_shell() -> Shell {
    let (session, _clock) = session();
    let mut shell = shell(session);
    setup(&mut shell, ORDERS_SCHEMA);
    shell
}

const STATUS_SCHEMA: &str = "
CREATE KEYSPACE shop WITH replication = {'class': 'NetworkTopologyStrategy', 'datacenter1': 3};
USE shop;
CREATE TABLE orders_by_status (
    status   text,
    order_id timeuuid,
    user_id  uuid,
    total    decimal,
    PRIMARY KEY (status, order_id)
) WITH CLUSTERING ORDER BY (order_id DESC);
";

/// 10,000 orders, 6,000 of them pending: one partition holds most of the
/// table, which is widerow's hot partition.
fn status_shell() -> Shell {
    let (session, clock) = session();
    let mut shell = shell(session);
    setup(&mut shell, STATUS_SCHEMA);
    let session = shell.session_mut();
    let insert = session
        .prepare(
            "INSERT INTO orders_by_status (status, order_id, user_id, total) \
             VALUES (?, now(), 550e8400-e29b-41d4-a716-446655440000, 19.99)",
        )
        .expect("prepare");
    for i in 0..10_000u32 {
        let status = match i % 10 {
            0..=5 => "pending",
            6..=8 => "shipped",
            _ => "delivered",
        };
        clock.advance_secs(1);
        session
            .execute_prepared(&insert, &[Value::Text(status.into())])
            .expect("insert");
    }
    shell
}

#[test]
fn trace_inbox_partition_range() {
    let mut shell = inbox_shell();
    let out = transcript(
        &mut shell,
        "TRACING ON;
SELECT message_id, sender, subject FROM inbox_by_user WHERE user_id = a11ce000-0000-4000-8000-000000000001 LIMIT 3;
SELECT count(*) FROM inbox_by_user WHERE user_id = a11ce000-0000-4000-8000-000000000001 AND message_id < maxTimeuuid('2025-06-01 08:03:30+0000') LIMIT 1;",
    );
    insta::assert_snapshot!("inbox_partition_range", out);
}

#[test]
fn trace_order_by_key() {
    let mut shell = orders_shell();
    let out = transcript(
        &mut shell,
        "TRACING ON;
SELECT * FROM orders_by_id WHERE order_id = 6a56ec00-4200-11f0-9345-0242ac120002;",
    );
    insta::assert_snapshot!("order_by_key", out);
}

#[test]
fn trace_status_hot_partition() {
    let mut shell = status_shell();
    let out = transcript(
        &mut shell,
        "TRACING ON;
SELECT status, order_id, total FROM orders_by_status WHERE status = 'pending' LIMIT 5;
SELECT status, order_id FROM orders_by_status WHERE status IN ('shipped', 'delivered') PER PARTITION LIMIT 2;",
    );
    assert!(out.contains("Hot partition (pending)"), "{out}");
    insta::assert_snapshot!("status_hot_partition", out);
}

#[test]
fn trace_full_table_scan() {
    let mut shell = orders_shell();
    let out = transcript(
        &mut shell,
        "TRACING ON;
SELECT order_id, status, total FROM orders_by_id WHERE status = 'pending' ALLOW FILTERING;",
    );
    insta::assert_snapshot!("full_table_scan", out);
}

#[test]
fn trace_writes() {
    let mut shell = inbox_shell();
    let out = transcript(
        &mut shell,
        "CREATE TABLE sent_by_user (user_id uuid, message_id timeuuid, subject text, PRIMARY KEY (user_id, message_id));
TRACING ON;
INSERT INTO inbox_by_user (user_id, message_id, sender, subject) VALUES (b0b00000-0000-4000-8000-000000000002, 4bd1e000-3e3c-11f0-9345-0242ac120002, 'carol@example.com', 'Hi Bob');
DELETE FROM inbox_by_user WHERE user_id = a11ce000-0000-4000-8000-000000000001 AND message_id < maxTimeuuid('2025-06-01 08:03:30+0000');
BEGIN BATCH
  INSERT INTO inbox_by_user (user_id, message_id, sender, subject) VALUES (a11ce000-0000-4000-8000-000000000001, 4bd1e000-3e3c-11f0-9345-0242ac120002, 'bob@example.com', 'Hi Alice');
  INSERT INTO sent_by_user (user_id, message_id, subject) VALUES (b0b00000-0000-4000-8000-000000000002, 4bd1e000-3e3c-11f0-9345-0242ac120002, 'Hi Alice');
  UPDATE inbox_by_user SET priority = 3 WHERE user_id = b0b00000-0000-4000-8000-000000000002 AND message_id = 4bd1e000-3e3c-11f0-9345-0242ac120002;
APPLY BATCH;",
    );
    insta::assert_snapshot!("writes", out);
}

#[test]
fn explain_prints_the_plan_without_running_it() {
    let mut shell = inbox_shell();
    let out = transcript(
        &mut shell,
        "EXPLAIN SELECT * FROM inbox_by_user WHERE user_id = a11ce000-0000-4000-8000-000000000001 AND message_id > minTimeuuid('2025-06-01 08:03:00+0000') ORDER BY message_id ASC LIMIT 50;
EXPLAIN SELECT * FROM inbox_by_user WHERE user_id IN (a11ce000-0000-4000-8000-000000000001, b0b00000-0000-4000-8000-000000000002) PER PARTITION LIMIT 2;
EXPLAIN SELECT * FROM inbox_by_user WHERE priority = 1 ALLOW FILTERING;
EXPLAIN SELECT * FROM inbox_by_user WHERE token(user_id) > 0;
EXPLAIN INSERT INTO inbox_by_user (user_id, message_id, subject) VALUES (b0b00000-0000-4000-8000-000000000002, now(), 'x');
SELECT count(*) FROM inbox_by_user WHERE user_id = b0b00000-0000-4000-8000-000000000002;
EXPLAIN SELECT * FROM inbox_by_user WHERE priority = 1;",
    );
    assert!(
        out.contains("(1 rows)") && !out.contains("'x'\n"),
        "EXPLAIN must not run the INSERT: {out}"
    );
    // The refused EXPLAIN shows what was understood before the refusal.
    assert!(
        out.contains(
            "EXPLAIN SELECT on mail.inbox_by_user (refused, not run)\n  \
             class          rejected (Cassandra refuses it: see the error)\n  \
             restrictions   priority = 1 (regular)\n  \
             partitions     every token range (the whole ring)\n"
        ),
        "{out}"
    );
    insta::assert_snapshot!("explain", out);
}

#[test]
fn cluster_shows_and_changes_the_ring() {
    let mut shell = orders_shell();
    let out = transcript(
        &mut shell,
        "CLUSTER;
CLUSTER DOWN node3;
CLUSTER DOWN node3;
CLUSTER;
CLUSTER UP 127.0.0.3;
CLUSTER NODES 6;
CLUSTER;
CLUSTER NODES 2;
CLUSTER NODES 0;
CLUSTER DOWN node9;
CLUSTER SIDEWAYS;",
    );
    insta::assert_snapshot!("cluster", out);
}

#[test]
fn cluster_nodes_keeps_the_schema_data_centres() {
    let mut shell = orders_shell();
    let out = transcript(
        &mut shell,
        "CREATE KEYSPACE eu WITH replication = {'class': 'NetworkTopologyStrategy', 'dc_eu': 2};
CLUSTER NODES 5;
CLUSTER NODES datacenter1:5;
CLUSTER NODES datacenter1:5,dc_eu:3;
CLUSTER;
CREATE KEYSPACE global WITH replication = {'class': 'NetworkTopologyStrategy', 'datacenter1': 3, 'dc_eu': 2};
CREATE TABLE global.users (user_id int PRIMARY KEY, name text);
CONSISTENCY LOCAL_QUORUM;
TRACING ON;
INSERT INTO global.users (user_id, name) VALUES (7, 'Grace');
SELECT * FROM global.users WHERE user_id = 7;",
    );
    insta::assert_snapshot!("cluster_data_centres", out);
}

#[test]
fn nodes_down_make_quorum_unavailable() {
    let mut shell = orders_shell();
    let out = transcript(
        &mut shell,
        "CONSISTENCY QUORUM;
TRACING ON;
CLUSTER DOWN node2;
SELECT order_id, status FROM orders_by_id WHERE order_id = 6a56ec00-4200-11f0-9345-0242ac120002;
CLUSTER DOWN node3;
SELECT order_id, status FROM orders_by_id WHERE order_id = 6a56ec00-4200-11f0-9345-0242ac120002;
EXPLAIN SELECT order_id, status FROM orders_by_id WHERE order_id = 6a56ec00-4200-11f0-9345-0242ac120002;
CONSISTENCY ONE;
SELECT order_id, status FROM orders_by_id WHERE order_id = 6a56ec00-4200-11f0-9345-0242ac120002;",
    );
    assert!(out.contains("Unavailable"), "{out}");
    // EXPLAIN of the Unavailable read shows how far planning got: the
    // partition, its replicas and the two down.
    assert!(
        out.contains("EXPLAIN SELECT on shop.orders_by_id (unavailable, not run)")
            && out.contains(" · down node2, node3"),
        "{out}"
    );
    insta::assert_snapshot!("quorum_unavailable", out);
}

#[test]
fn trace_colour_keeps_the_letters() {
    let mut shell = orders_shell();
    shell.settings_mut().color = true;
    let out = transcript(
        &mut shell,
        "TRACING ON;
SELECT * FROM orders_by_id WHERE order_id = 6a56ec00-4200-11f0-9345-0242ac120002;",
    );
    assert!(out.contains("\x1b["), "colour expected: {out}");
    let plain = strip_ansi(&out);
    assert!(
        plain.contains("[C R*]") || plain.contains("[R*]"),
        "{plain}"
    );
    assert!(plain.contains("C coordinator"), "{plain}");
}

/// `text` without ANSI escapes.
fn strip_ansi(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            for d in chars.by_ref() {
                if d.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}
