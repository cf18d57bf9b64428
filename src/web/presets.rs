//! The seed's data models, preloaded, and the queries the page offers for
//! each: the four cases of the seed's demo (a partition range on the inbox,
//! a primary-key lookup on orders, the hot `status` partition, a query
//! without the partition key) and the other shapes a learner compares them
//! with (ALLOW FILTERING, a secondary index, IN).
//!
//! The data is written through the engine like any user's statements, in
//! one keyspace, `demo`, replicated as the seed's ring is (RF 3), so the
//! replication-factor control has one keyspace to change. Values are made
//! from fixed numbers, so every tab and every run sees the same rows.

use serde::Serialize;

use crate::error::Error;
use crate::session::Session;
use crate::types::timeuuid::from_unix_micros;
use crate::types::Value;

/// The keyspace the models live in.
pub const KEYSPACE: &str = "demo";

/// The replication factor the seed's demo shows (RF = 3).
pub const DEFAULT_RF: u32 = 3;

/// Rows of the bad `status`-keyed table, past the executor's threshold for
/// calling a partition hot (a table of 10,000 rows or more).
const STATUS_ROWS: u32 = 12_000;

/// One data model and its queries.
#[derive(Debug, Clone, Serialize)]
pub struct Model {
    /// Its id in URLs and the API.
    pub id: &'static str,
    /// Its name on the page.
    pub label: &'static str,
    /// What it is for, in one sentence.
    pub about: &'static str,
    /// Its CREATE TABLE statements, as run.
    pub schema: String,
    /// The queries offered.
    pub queries: Vec<Query>,
}

/// One query offered for a model.
#[derive(Debug, Clone, Serialize)]
pub struct Query {
    /// Its id in URLs and the API.
    pub id: &'static str,
    /// Its name on the page.
    pub label: &'static str,
    /// The CQL.
    pub cql: String,
}

const ALICE: &str = "a11ce000-0000-4000-8000-000000000001";
const BOB: &str = "b0b00000-0000-4000-8000-000000000002";
const CAROL: &str = "ca201000-0000-4000-8000-000000000003";

/// 2025-06-01 00:00:00 UTC, in microseconds: where the generated times start.
const JUNE_FIRST: i64 = 1_748_736_000_000_000;

const HOUR: i64 = 3_600_000_000;

/// The time UUID of `hours` after [`JUNE_FIRST`] plus `n` microseconds.
fn timeuuid(hours: i64, n: i64) -> String {
    uuid_string(&from_unix_micros(
        JUNE_FIRST + hours * HOUR + n,
        0x1234,
        0x0242_ac12_0002,
    ))
}

fn uuid_string(bytes: &[u8; 16]) -> String {
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..32]
    )
}

const INBOX_SCHEMA: &str = "CREATE TABLE demo.inbox_by_user (
    user_id uuid,
    message_id timeuuid,
    owner_name text STATIC,
    sender text,
    subject text,
    body text,
    attachment_url text,
    priority int,
    is_read boolean,
    PRIMARY KEY (user_id, message_id)
) WITH CLUSTERING ORDER BY (message_id DESC);";

const ORDERS_SCHEMA: &str = "CREATE TABLE demo.orders_by_user (
    user_id uuid,
    order_id timeuuid,
    total decimal,
    status text,
    PRIMARY KEY (user_id, order_id)
) WITH CLUSTERING ORDER BY (order_id DESC);
CREATE TABLE demo.orders_by_id (
    order_id timeuuid PRIMARY KEY,
    user_id uuid,
    total decimal,
    status text,
    items map<text, int>
);
CREATE INDEX orders_by_id_status ON demo.orders_by_id (status);";

const STATUS_SCHEMA: &str = "CREATE TABLE demo.orders_by_status (
    status text,
    order_id timeuuid,
    user_id uuid,
    total_cents int,
    PRIMARY KEY (status, order_id)
) WITH CLUSTERING ORDER BY (order_id DESC);";

const SENSOR_SCHEMA: &str = "CREATE TABLE demo.sensor_readings (
    sensor_id text,
    reading_date date,
    reading_ts timestamp,
    temperature double,
    humidity double,
    PRIMARY KEY ((sensor_id, reading_date), reading_ts)
) WITH CLUSTERING ORDER BY (reading_ts DESC);";

/// The models in the order the page lists them.
pub fn models() -> Vec<Model> {
    vec![
        Model {
            id: "inbox",
            label: "Inbox (inbox_by_user)",
            about: "One partition per user; messages newest first; sparse cells.",
            schema: INBOX_SCHEMA.to_string(),
            queries: vec![
                query(
                    "range",
                    "Partition range",
                    format!(
                        "SELECT * FROM demo.inbox_by_user WHERE user_id = {ALICE} \
                         AND message_id >= {} LIMIT 50;",
                        timeuuid(24, 0)
                    ),
                ),
                query(
                    "key",
                    "Full primary key",
                    format!(
                        "SELECT * FROM demo.inbox_by_user WHERE user_id = {ALICE} AND message_id = {};",
                        timeuuid(30, 0)
                    ),
                ),
                query(
                    "scan",
                    "No partition key",
                    "SELECT * FROM demo.inbox_by_user;".to_string(),
                ),
                query(
                    "refused",
                    "Filter without ALLOW FILTERING",
                    "SELECT * FROM demo.inbox_by_user WHERE sender = 'boss@work.example.com';"
                        .to_string(),
                ),
                query(
                    "filtering",
                    "ALLOW FILTERING",
                    "SELECT * FROM demo.inbox_by_user WHERE sender = 'boss@work.example.com' ALLOW FILTERING;"
                        .to_string(),
                ),
                query(
                    "in",
                    "IN on the partition key",
                    format!("SELECT * FROM demo.inbox_by_user WHERE user_id IN ({BOB}, {CAROL});"),
                ),
            ],
        },
        Model {
            id: "orders",
            label: "Orders (orders_by_user / orders_by_id)",
            about: "The same orders twice: by user for the history, by id for the lookup.",
            schema: ORDERS_SCHEMA.to_string(),
            queries: vec![
                query(
                    "key",
                    "Full primary key",
                    format!(
                        "SELECT * FROM demo.orders_by_id WHERE order_id = {};",
                        order_id(0, 2)
                    ),
                ),
                query(
                    "range",
                    "Partition range",
                    format!("SELECT * FROM demo.orders_by_user WHERE user_id = {BOB} LIMIT 10;"),
                ),
                query(
                    "scan",
                    "No partition key",
                    "SELECT * FROM demo.orders_by_id;".to_string(),
                ),
                query(
                    "index",
                    "Secondary index",
                    "SELECT * FROM demo.orders_by_id WHERE status = 'shipped';".to_string(),
                ),
                query(
                    "refused",
                    "Filter without ALLOW FILTERING",
                    "SELECT * FROM demo.orders_by_user WHERE status = 'pending';".to_string(),
                ),
                query(
                    "in",
                    "IN on the partition key",
                    format!(
                        "SELECT * FROM demo.orders_by_id WHERE order_id IN ({}, {});",
                        order_id(0, 1),
                        order_id(1, 2)
                    ),
                ),
            ],
        },
        Model {
            id: "status",
            label: "Bad design: status as partition key",
            about: "Most orders are pending, so one partition takes most of the table.",
            schema: STATUS_SCHEMA.to_string(),
            queries: vec![
                query(
                    "key",
                    "Partition key given",
                    "SELECT * FROM demo.orders_by_status WHERE status = 'pending' LIMIT 20;"
                        .to_string(),
                ),
                query(
                    "scan",
                    "No partition key",
                    "SELECT * FROM demo.orders_by_status LIMIT 20;".to_string(),
                ),
                query(
                    "refused",
                    "Filter without ALLOW FILTERING",
                    format!("SELECT * FROM demo.orders_by_status WHERE user_id = {ALICE};"),
                ),
            ],
        },
        Model {
            id: "sensor",
            label: "Sensor readings (sensor_readings)",
            about: "A partition per sensor per day, so no partition grows without bound.",
            schema: SENSOR_SCHEMA.to_string(),
            queries: vec![
                query(
                    "range",
                    "Partition range",
                    "SELECT * FROM demo.sensor_readings WHERE sensor_id = 's-001' \
                     AND reading_date = '2025-06-01' AND reading_ts >= '2025-06-01 18:00:00+0000';"
                        .to_string(),
                ),
                query(
                    "key",
                    "Full primary key",
                    "SELECT * FROM demo.sensor_readings WHERE sensor_id = 's-002' \
                     AND reading_date = '2025-06-02' AND reading_ts = '2025-06-02 06:00:00+0000';"
                        .to_string(),
                ),
                query(
                    "scan",
                    "No partition key",
                    "SELECT * FROM demo.sensor_readings LIMIT 30;".to_string(),
                ),
                query(
                    "refused",
                    "Part of the partition key",
                    "SELECT * FROM demo.sensor_readings WHERE sensor_id = 's-001';".to_string(),
                ),
                query(
                    "filtering",
                    "ALLOW FILTERING",
                    "SELECT * FROM demo.sensor_readings WHERE temperature > 30 ALLOW FILTERING;"
                        .to_string(),
                ),
                query(
                    "in",
                    "IN on the partition key",
                    "SELECT * FROM demo.sensor_readings WHERE sensor_id IN ('s-001', 's-003') \
                     AND reading_date = '2025-06-01' LIMIT 10;"
                        .to_string(),
                ),
            ],
        },
    ]
}

fn query(id: &'static str, label: &'static str, cql: String) -> Query {
    Query { id, label, cql }
}

/// The id of order `n` of user `user` (0 alice, 1 bob, 2 carol).
fn order_id(user: i64, n: i64) -> String {
    timeuuid(user * 7 + n * 13, 500 + user)
}

/// The keyspace statement at replication factor `rf`, with a second data
/// centre's factor when there is one.
pub fn keyspace_replication(rf: u32, second_dc: Option<(&str, u32)>) -> String {
    let mut text = format!("{{'class': 'NetworkTopologyStrategy', 'datacenter1': {rf}");
    if let Some((dc, factor)) = second_dc {
        text.push_str(&format!(", '{dc}': {factor}"));
    }
    text.push('}');
    text
}

/// A session with every model's schema and data loaded, the one each tab
/// starts from.
pub fn base_session() -> Result<Session, Error> {
    let mut session = Session::new();
    load(&mut session)?;
    Ok(session)
}

/// Adds the models' keyspace, tables and data to `session` (one a user
/// started with their own schema and cluster flags).
pub fn load(session: &mut Session) -> Result<(), Error> {
    session.execute(&format!(
        "CREATE KEYSPACE {KEYSPACE} WITH replication = {};",
        keyspace_replication(DEFAULT_RF, None)
    ))?;
    for model in models() {
        session.execute_script(&model.schema)?;
    }
    session.execute_script(&inbox_data())?;
    session.execute_script(&orders_data())?;
    session.execute_script(&sensor_data())?;
    status_data(session)?;
    Ok(())
}

fn inbox_data() -> String {
    let users = [(ALICE, "Alice", 9), (BOB, "Bob", 4), (CAROL, "Carol", 2)];
    let senders = [
        "news@shop.example.com",
        "boss@work.example.com",
        "mum@home.example.com",
    ];
    let mut out = String::new();
    for (u, (user, name, count)) in users.iter().enumerate() {
        for n in 0..*count {
            let hours = i64::from(n) * 6 + u as i64;
            let sender = senders[(n as usize + u) % senders.len()];
            let mut columns = vec!["user_id", "message_id", "sender", "subject", "is_read"];
            let mut values = vec![
                user.to_string(),
                timeuuid(hours, 0),
                format!("'{sender}'"),
                format!("'{name}, message {}'", n + 1),
                (n % 2 == 0).to_string(),
            ];
            if n == 0 {
                columns.push("owner_name");
                values.push(format!("'{name}'"));
            }
            // Sparse on purpose: only some messages have a body, an
            // attachment or a priority.
            if n % 3 != 1 {
                columns.push("body");
                values.push(format!("'Text of message {}.'", n + 1));
            }
            if n % 4 == 2 {
                columns.push("attachment_url");
                values.push(format!("'https://files.example.com/{u}/{n}.pdf'"));
            }
            if n % 5 == 3 {
                columns.push("priority");
                values.push("1".to_string());
            }
            out.push_str(&format!(
                "INSERT INTO demo.inbox_by_user ({}) VALUES ({});\n",
                columns.join(", "),
                values.join(", ")
            ));
        }
    }
    out
}

fn orders_data() -> String {
    let users = [ALICE, BOB, CAROL];
    let statuses = ["pending", "shipped", "delivered"];
    let mut out = String::new();
    for (u, user) in users.iter().enumerate() {
        for n in 0..5 {
            let id = order_id(u as i64, n);
            let status = statuses[(n as usize + u) % statuses.len()];
            let total = format!("{}.{:02}", 10 + n * 7 + u as i64 * 3, (n * 25) % 100);
            out.push_str(&format!(
                "INSERT INTO demo.orders_by_user (user_id, order_id, total, status) \
                 VALUES ({user}, {id}, {total}, '{status}');\n\
                 INSERT INTO demo.orders_by_id (order_id, user_id, total, status, items) \
                 VALUES ({id}, {user}, {total}, '{status}', {{'sku-{}': {}}});\n",
                1000 + n,
                1 + n % 3
            ));
        }
    }
    out
}

fn sensor_data() -> String {
    let mut out = String::new();
    for sensor in 1..=3 {
        for day in 1..=2 {
            for hour in 0..24 {
                let temperature = 18.0 + f64::from((hour * 7 + sensor * 5 + day) % 17);
                let humidity = 40.0 + f64::from((hour * 3 + sensor) % 30);
                out.push_str(&format!(
                    "INSERT INTO demo.sensor_readings (sensor_id, reading_date, reading_ts, \
                     temperature, humidity) VALUES ('s-00{sensor}', '2025-06-0{day}', \
                     '2025-06-0{day} {hour:02}:00:00+0000', {temperature:.1}, {humidity:.1});\n"
                ));
            }
        }
    }
    out
}

/// Two thirds of the orders pending, the rest spread over three statuses:
/// the pending partition holds most of the table.
fn status_data(session: &mut Session) -> Result<(), Error> {
    let insert = session.prepare(
        "INSERT INTO demo.orders_by_status (status, order_id, user_id, total_cents) \
         VALUES (?, ?, ?, ?)",
    )?;
    let others = ["shipped", "delivered", "cancelled"];
    let users = [ALICE, BOB, CAROL];
    for n in 0..STATUS_ROWS {
        let status = if n % 3 == 0 {
            others[(n as usize / 3) % others.len()]
        } else {
            "pending"
        };
        let micros = JUNE_FIRST + i64::from(n) * 60_000_000;
        let user = parse_uuid(users[n as usize % users.len()]);
        let values = [
            Value::Text(status.to_string()),
            Value::Timeuuid(from_unix_micros(micros, 0x1234, 0x0242_ac12_0002)),
            Value::Uuid(user),
            Value::Int(100 + (n as i32 * 37) % 50_000),
        ];
        session.execute_prepared(&insert, &values)?;
    }
    Ok(())
}

/// The bytes of a UUID written as text (only the constants above).
fn parse_uuid(text: &str) -> [u8; 16] {
    let hex: Vec<u8> = text.bytes().filter(|b| *b != b'-').collect();
    let mut out = [0u8; 16];
    for (i, pair) in hex.chunks(2).take(16).enumerate() {
        let digit = |b: u8| (b as char).to_digit(16).unwrap_or(0) as u8;
        out[i] = digit(pair[0]) << 4 | digit(pair.get(1).copied().unwrap_or(b'0'));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_query_parses() {
        for model in models() {
            for q in model.queries {
                crate::parse_statement(&q.cql).unwrap_or_else(|e| panic!("{}: {e}", q.cql));
            }
        }
    }

    #[test]
    fn uuid_text_round_trips() {
        assert_eq!(uuid_string(&parse_uuid(ALICE)), ALICE);
    }
}
