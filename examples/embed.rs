//! Embedding widerow: an in-memory Cassandra inside a Rust program or a test.
//!
//! The tour: build a reproducible `Session`, load a schema, write with a
//! prepared statement, read a `ResultSet`, clone the session for an isolated
//! test, ask the planner how a query would be served, and print a result the
//! way cqlsh does.
//!
//! Run with `cargo run --example embed`.

use std::sync::Arc;

use widerow::render::table::{table, TableOptions};
use widerow::session::{ManualClock, SeededIds, Session};
use widerow::types::Value;

/// The schema of `examples/sensor_readings.cql`, trimmed: one partition per
/// sensor and day, newest reading first.
const SCHEMA: &str = "
    CREATE KEYSPACE iot
      WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
    USE iot;
    CREATE TABLE sensor_readings (
        sensor_id    text,
        reading_date date,
        reading_ts   timestamp,
        temperature  double,
        humidity     double,
        PRIMARY KEY ((sensor_id, reading_date), reading_ts)
    ) WITH CLUSTERING ORDER BY (reading_ts DESC);
";

/// 2025-06-01 00:00:00 UTC: days since the epoch, and milliseconds.
const JUNE_1_DAYS: i32 = 20_240;
const JUNE_1_MILLIS: i64 = 1_748_736_000_000;
const HOUR_MILLIS: i64 = 3_600_000;
/// Where the session's clock starts: 2025-06-01 09:00:00 UTC, in microseconds.
const START_MICROS: i64 = (JUNE_1_MILLIS + 9 * HOUR_MILLIS) * 1_000;

fn main() -> Result<(), widerow::Error> {
    // ---------------------------------------------------------------------
    // 1. A reproducible session
    // ---------------------------------------------------------------------
    // `Session::new()` reads the machine's clock and seeds its ids from it.
    // A test wants the same output on every run, so we inject both sources:
    // a clock that only moves when told, and a seeded id generator (what
    // `uuid()` and `now()` draw from).  The clock is shared: we keep a handle
    // to move time forward later.
    let clock = ManualClock::at_micros(START_MICROS);
    let mut session = Session::with_sources(Arc::new(clock.clone()), Box::new(SeededIds::new(42)));

    // `execute_script` runs statements in order and stops at the first error.
    // `USE iot` sticks to the session, like a cqlsh `USE`.
    session.execute_script(SCHEMA)?;
    assert_eq!(session.keyspace(), Some("iot"));

    // ---------------------------------------------------------------------
    // 2. Prepared statements: parse and plan once, bind many times
    // ---------------------------------------------------------------------
    // `prepare` parses the statement and plans it, so a query Cassandra would
    // refuse fails here, before any value is bound.  Bind values are
    // `widerow::types::Value`s, one per `?`, in order; each must have the
    // column's type (a `timestamp` is milliseconds, a `date` a day number).
    let insert = session.prepare(
        "INSERT INTO sensor_readings (sensor_id, reading_date, reading_ts, temperature, humidity) \
         VALUES (?, ?, ?, ?, ?)",
    )?;
    assert_eq!(insert.marker_count(), 5);

    let readings = [(6, 27.4, 81.0), (7, 28.1, 79.5), (8, 28.9, 77.9)];
    for (hour, temperature, humidity) in readings {
        session.execute_prepared(
            &insert,
            &[
                Value::Text("s-001".into()),
                Value::date_from_days(JUNE_1_DAYS),
                Value::Timestamp(JUNE_1_MILLIS + hour * HOUR_MILLIS),
                Value::Double(temperature),
                Value::Double(humidity),
            ],
        )?;
    }

    // ---------------------------------------------------------------------
    // 3. Reading a ResultSet
    // ---------------------------------------------------------------------
    // `execute` takes CQL text, literals and all.  A SELECT returns columns
    // (name and type), rows (one `Value` per column, `Value::Null` for a
    // missing cell), the query class, and what the read cost.
    let result = session.execute(
        "SELECT reading_ts, temperature, writetime(temperature) FROM sensor_readings \
         WHERE sensor_id = 's-001' AND reading_date = '2025-06-01'",
    )?;
    println!("columns: {:?}", result.column_names());
    println!("class:   {:?}", result.class.map(|c| c.as_str()));
    for row in &result.rows {
        // Values know how cqlsh would print them, given the column's type.
        let cells: Vec<String> = row
            .iter()
            .zip(&result.columns)
            .map(|(value, column)| value.cqlsh_display(&column.data_type))
            .collect();
        println!("  {}", cells.join(" | "));
    }
    // Newest first, as the clustering order says.  `get` looks a cell up by
    // row number and column name.
    assert_eq!(result.rows.len(), 3);
    assert_eq!(result.get(0, "temperature"), Some(&Value::Double(28.9)));
    // The write timestamps come from the manual clock: the first write got
    // the clock's time, and each later write one microsecond more, like a
    // driver's monotonic timestamp generator.
    assert_eq!(
        result.get(2, "writetime(temperature)"),
        Some(&Value::Bigint(START_MICROS))
    );
    assert_eq!(
        result.get(0, "writetime(temperature)"),
        Some(&Value::Bigint(START_MICROS + 2))
    );

    // Metrics: how much of the simulated cluster the read touched.
    let m = &result.metrics;
    println!(
        "metrics: {} partition(s), {} row(s) scanned, {} returned, nodes {:?}",
        m.partitions_touched,
        m.rows_scanned,
        m.rows_returned,
        result.nodes_contacted()
    );

    // Warnings are Cassandra's client warnings.  An aggregate over several
    // partitions named by IN is one of them.
    let count = session.execute(
        "SELECT count(*) FROM sensor_readings \
         WHERE sensor_id = 's-001' AND reading_date IN ('2025-06-01', '2025-06-02')",
    )?;
    println!(
        "count: {:?}, warnings: {:?}",
        count.rows[0][0], count.warnings
    );

    // ---------------------------------------------------------------------
    // 4. Time moves when you say so
    // ---------------------------------------------------------------------
    // A row written with a TTL expires by the session's clock: advance the
    // clock past the TTL and the row is gone, without sleeping.
    session.execute(
        "INSERT INTO sensor_readings (sensor_id, reading_date, reading_ts, temperature) \
         VALUES ('s-002', '2025-06-01', '2025-06-01 09:00:00+0000', 23.5) USING TTL 60",
    )?;
    let s002 =
        "SELECT * FROM sensor_readings WHERE sensor_id = 's-002' AND reading_date = '2025-06-01'";
    assert_eq!(session.execute(s002)?.rows.len(), 1);
    clock.advance_secs(61);
    assert_eq!(session.execute(s002)?.rows.len(), 0);

    // ---------------------------------------------------------------------
    // 5. One session per test: clone it
    // ---------------------------------------------------------------------
    // Cloning is cheap (tables are shared until one side writes) and gives
    // an independent copy: load the schema and fixtures once, then hand each
    // test its own clone.  A write in the clone does not show in the original.
    let count_s001 = "SELECT count(*) FROM sensor_readings \
                      WHERE sensor_id = 's-001' AND reading_date = '2025-06-01'";
    let mut copy = session.clone();
    copy.execute(
        "INSERT INTO sensor_readings (sensor_id, reading_date, reading_ts, temperature) \
         VALUES ('s-001', '2025-06-01', '2025-06-01 09:00:00+0000', 29.6)",
    )?;
    assert_eq!(copy.execute(count_s001)?.rows[0][0], Value::Bigint(4));
    assert_eq!(session.execute(count_s001)?.rows[0][0], Value::Bigint(3));

    // ---------------------------------------------------------------------
    // 6. Ask the planner, without running anything
    // ---------------------------------------------------------------------
    // `plan` says how a coordinator would serve a statement: its class, the
    // partitions and their tokens, the replicas, the nodes it reaches.
    let plan = session.plan(
        "SELECT * FROM sensor_readings WHERE sensor_id = 's-001' AND reading_date = '2025-06-01' LIMIT 1",
    )?;
    println!("\n{plan}");
    // A query Cassandra refuses is an `Err` carrying Cassandra's message.
    match session.plan("SELECT * FROM sensor_readings WHERE sensor_id = 's-001'") {
        Ok(plan) => println!("unexpectedly accepted: {}", plan.class),
        Err(e) => println!("refused ({}): {e}\n", e.kind()),
    }

    // ---------------------------------------------------------------------
    // 7. Print a result as cqlsh would
    // ---------------------------------------------------------------------
    // The renderers are library code: `table` lays a ResultSet out exactly as
    // `cqlsh -f` does (batch mode), footer and warnings included.
    let latest = session.execute(
        "SELECT reading_ts, temperature, humidity FROM sensor_readings \
         WHERE sensor_id = 's-001' AND reading_date = '2025-06-01' LIMIT 2",
    )?;
    print!("{}", table(&latest, &TableOptions::batch()));
    Ok(())
}
