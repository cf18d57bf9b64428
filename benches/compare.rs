//! widerow against SQLite in memory, on the same work, in one process run.
//!
//! The table is the sensor model: `sensor_readings ((sensor_id, reading_date),
//! reading_ts)` with three double columns, ascending clustering so SQLite's
//! key order (a `WITHOUT ROWID` table keyed on the same three columns)
//! matches. Workloads (see the performance issue):
//!
//! - W1 load, prepared (bind values) and as statement text (parsed each time);
//! - W2 point lookups by full primary key, prepared, random keys;
//! - W3 partition slices: one sensor-day, a time range of ~100 rows;
//! - W4 filtering scans `temperature > x ALLOW FILTERING` over every row;
//! - W5 parse only: 100,000 mixed statements (SELECT, INSERT, UPDATE,
//!   CREATE TABLE) through widerow's parser and the `sqlparser` crate's (the
//!   generator of `benches/parse.rs`);
//! - memory: bytes per row after W1, from a counting allocator for widerow
//!   and `sqlite3_memory_used()` for SQLite.
//!
//! Each workload runs on widerow then on SQLite, alternating, three times
//! (`WIDEROW_BENCH_PASSES`), and the table at the end prints each engine's
//! best pass and their ratio: the machine is shared, and one pass of one
//! engine slowed by other work moved a ratio by a tenth. `WIDEROW_BENCH_SENSORS`
//! scales the data (default 1,000 sensors × 10 days × 100 readings = 1M
//! rows); `WIDEROW_BENCH_SCALING=1` adds the scaling run: W2, W3 and W4 at
//! 10k, 100k, 1M and 4M rows, per query and per row, to show lookups flat
//! in the table's size, slices proportional to the rows they return and
//! scans linear. `WIDEROW_BENCH_PROFILE=w2` (or `w1`, `w1text`, `w3`, `w4`,
//! `w5`, `w5widerow`) runs one widerow workload alone, for `perf record`, and
//! `sqlite-w1`, `sqlite-w1text` or `sqlite-w2` SQLite's, to weigh a profile
//! against; `WIDEROW_BENCH_QUERIES` sets their number of queries (for
//! callgrind).
//!
//! Run with `cargo bench --bench compare`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::atomic::{AtomicIsize, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

#[path = "common/statements.rs"]
mod statements;

use rusqlite::{params, Connection};
use statements::Rng;
use widerow::session::{ManualClock, SeededIds};
use widerow::types::Value;
use widerow::Session;

/// Counts the bytes widerow holds, so memory per row is measured, not guessed.
struct Counting;

static ALLOCATED: AtomicIsize = AtomicIsize::new(0);

/// Adds `delta` bytes to the count, with a plain load and store rather than
/// a locked `fetch_add`: the bench allocates from its one thread, and a
/// locked add on every allocation would tax, by some twenty cycles each,
/// only the allocations made through Rust — widerow's, while SQLite
/// allocates through its own calls to `malloc`.
fn count(delta: isize) {
    ALLOCATED.store(ALLOCATED.load(Ordering::Relaxed) + delta, Ordering::Relaxed);
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size() as isize);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        count(-(layout.size() as isize));
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size as isize - layout.size() as isize);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

const DAYS: usize = 10;
const READINGS: usize = 100;
/// 2025-06-01 in days since the epoch.
const FIRST_DAY: i64 = 20_240;
const DAY_MS: i64 = 86_400_000;
/// Readings are 864 s apart: 100 per day.
const STEP_MS: i64 = DAY_MS / READINGS as i64;

/// One reading: key and the three doubles.
#[derive(Clone, Copy)]
struct Reading {
    sensor: usize,
    day: usize,
    reading: usize,
}

/// Every sensor's name, formatted once before anything is timed: a
/// `format!` per row or query cost about 600 instructions, a fifth of a
/// widerow point lookup, and timed the harness rather than either engine.
/// Each engine still takes the name per query as its API does: widerow as
/// a `Value::Text` (a copy of the string), SQLite bound by reference.
static SENSOR_NAMES: OnceLock<Vec<String>> = OnceLock::new();

/// Names sensors `0..count`, once per run.
fn name_sensors(count: usize) {
    SENSOR_NAMES.get_or_init(|| (0..count).map(|n| format!("sensor-{n:05}")).collect());
}

impl Reading {
    fn sensor_name(&self) -> &'static str {
        let names = SENSOR_NAMES
            .get()
            .expect("sensors named before any workload");
        &names[self.sensor]
    }
    fn date_days(&self) -> i64 {
        FIRST_DAY + self.day as i64
    }
    fn ts_ms(&self) -> i64 {
        self.date_days() * DAY_MS + self.reading as i64 * STEP_MS
    }
    fn temperature(&self) -> f64 {
        ((self.sensor * 7 + self.day * 3 + self.reading) % 400) as f64 / 10.0
    }
    fn humidity(&self) -> f64 {
        (self.reading % 100) as f64
    }
    fn pressure(&self) -> f64 {
        1000.0 + (self.sensor % 50) as f64
    }
}

fn readings(sensors: usize) -> impl Iterator<Item = Reading> {
    (0..sensors).flat_map(|sensor| {
        (0..DAYS).flat_map(move |day| {
            (0..READINGS).map(move |reading| Reading {
                sensor,
                day,
                reading,
            })
        })
    })
}

fn date_text(days: i64) -> String {
    let v = Value::date_from_days(days as i32);
    v.cqlsh_display(&widerow::types::DataType::Native(
        widerow::syntax::ast::NativeType::Date,
    ))
}

fn ts_text(ms: i64) -> String {
    // cqlsh's display is `2025-06-01 00:00:00.000000+0000`; CQL reads that back.
    Value::Timestamp(ms).cqlsh_display(&widerow::types::DataType::Native(
        widerow::syntax::ast::NativeType::Timestamp,
    ))
}

const SCHEMA: &str = "CREATE KEYSPACE iot WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
USE iot;
CREATE TABLE sensor_readings (sensor_id text, reading_date date, reading_ts timestamp, temperature double, humidity double, pressure double, PRIMARY KEY ((sensor_id, reading_date), reading_ts));";

const SQL_SCHEMA: &str = "CREATE TABLE sensor_readings (sensor_id TEXT NOT NULL, reading_date INTEGER NOT NULL, reading_ts INTEGER NOT NULL, temperature REAL, humidity REAL, pressure REAL, PRIMARY KEY (sensor_id, reading_date, reading_ts)) WITHOUT ROWID";

fn widerow_session() -> Session {
    let clock = ManualClock::at_micros(1_750_000_000_000_000);
    let mut s = Session::with_sources(std::sync::Arc::new(clock), Box::new(SeededIds::new(1)));
    s.execute_script(SCHEMA).expect("schema");
    s
}

fn sqlite() -> Connection {
    let c = Connection::open_in_memory().expect("sqlite");
    c.execute_batch(SQL_SCHEMA).expect("sql schema");
    c
}

/// One figure per engine and what it counts.
struct Row {
    workload: String,
    unit: &'static str,
    widerow: f64,
    sqlite: f64,
    /// Higher is better (rates) or lower is better (bytes).
    higher_is_better: bool,
    target: &'static str,
}

/// Each engine's best rate over `passes` runs, the two alternating.
fn best_of(
    passes: usize,
    mut widerow: impl FnMut() -> f64,
    mut sqlite: impl FnMut() -> f64,
) -> (f64, f64) {
    let (mut w, mut s) = (0f64, 0f64);
    for _ in 0..passes {
        w = w.max(widerow());
        s = s.max(sqlite());
    }
    (w, s)
}

fn rate(count: usize, elapsed: Duration) -> f64 {
    count as f64 / elapsed.as_secs_f64()
}

fn w1_prepared_widerow(sensors: usize) -> (Session, f64, isize) {
    let before = ALLOCATED.load(Ordering::Relaxed);
    let mut s = widerow_session();
    let insert = s
        .prepare("INSERT INTO sensor_readings (sensor_id, reading_date, reading_ts, temperature, humidity, pressure) VALUES (?, ?, ?, ?, ?, ?)")
        .expect("prepare");
    let start = Instant::now();
    let mut n = 0;
    for r in readings(sensors) {
        s.execute_prepared(
            &insert,
            &[
                Value::Text(r.sensor_name().to_string()),
                Value::date_from_days(r.date_days() as i32),
                Value::Timestamp(r.ts_ms()),
                Value::Double(r.temperature()),
                Value::Double(r.humidity()),
                Value::Double(r.pressure()),
            ],
        )
        .expect("insert");
        n += 1;
    }
    let elapsed = start.elapsed();
    let bytes = ALLOCATED.load(Ordering::Relaxed) - before;
    (s, rate(n, elapsed), bytes)
}

fn sqlite_memory() -> i64 {
    unsafe { rusqlite::ffi::sqlite3_memory_used() }
}

fn w1_prepared_sqlite(sensors: usize) -> (Connection, f64, i64) {
    let before = sqlite_memory();
    let c = sqlite();
    let start = Instant::now();
    let mut n = 0;
    {
        let tx = c.unchecked_transaction().expect("tx");
        let mut insert = tx
            .prepare("INSERT INTO sensor_readings VALUES (?, ?, ?, ?, ?, ?)")
            .expect("prepare");
        for r in readings(sensors) {
            insert
                .execute(params![
                    r.sensor_name(),
                    r.date_days(),
                    r.ts_ms(),
                    r.temperature(),
                    r.humidity(),
                    r.pressure()
                ])
                .expect("insert");
            n += 1;
        }
        drop(insert);
        tx.commit().expect("commit");
    }
    let elapsed = start.elapsed();
    (c, rate(n, elapsed), sqlite_memory() - before)
}

fn w1_text_widerow(sensors: usize) -> f64 {
    let mut s = widerow_session();
    let start = Instant::now();
    let mut n = 0;
    for r in readings(sensors) {
        let cql = format!(
            "INSERT INTO sensor_readings (sensor_id, reading_date, reading_ts, temperature, humidity, pressure) VALUES ('{}', '{}', '{}', {}, {}, {})",
            r.sensor_name(),
            date_text(r.date_days()),
            ts_text(r.ts_ms()),
            r.temperature(),
            r.humidity(),
            r.pressure()
        );
        s.execute(&cql).expect("insert");
        n += 1;
    }
    rate(n, start.elapsed())
}

fn w1_text_sqlite(sensors: usize) -> f64 {
    let c = sqlite();
    let start = Instant::now();
    let mut n = 0;
    let tx = c.unchecked_transaction().expect("tx");
    for r in readings(sensors) {
        let sql = format!(
            "INSERT INTO sensor_readings VALUES ('{}', {}, {}, {}, {}, {})",
            r.sensor_name(),
            r.date_days(),
            r.ts_ms(),
            r.temperature(),
            r.humidity(),
            r.pressure()
        );
        tx.execute(&sql, []).expect("insert");
        n += 1;
    }
    tx.commit().expect("commit");
    rate(n, start.elapsed())
}

fn random_reading(rng: &mut Rng, sensors: usize) -> Reading {
    Reading {
        sensor: rng.below(sensors),
        day: rng.below(DAYS),
        reading: rng.below(READINGS),
    }
}

fn w2_widerow(s: &mut Session, sensors: usize, queries: usize) -> f64 {
    let select = s
        .prepare("SELECT temperature, humidity, pressure FROM sensor_readings WHERE sensor_id = ? AND reading_date = ? AND reading_ts = ?")
        .expect("prepare");
    let mut rng = Rng(7);
    let start = Instant::now();
    for _ in 0..queries {
        let r = random_reading(&mut rng, sensors);
        let result = s
            .execute_prepared(
                &select,
                &[
                    Value::Text(r.sensor_name().to_string()),
                    Value::date_from_days(r.date_days() as i32),
                    Value::Timestamp(r.ts_ms()),
                ],
            )
            .expect("select");
        assert_eq!(result.rows.len(), 1);
        black_box(result);
    }
    rate(queries, start.elapsed())
}

fn w2_sqlite(c: &Connection, sensors: usize, queries: usize) -> f64 {
    let mut select = c
        .prepare("SELECT temperature, humidity, pressure FROM sensor_readings WHERE sensor_id = ? AND reading_date = ? AND reading_ts = ?")
        .expect("prepare");
    let mut rng = Rng(7);
    let start = Instant::now();
    for _ in 0..queries {
        let r = random_reading(&mut rng, sensors);
        let row: (f64, f64, f64) = select
            .query_row(params![r.sensor_name(), r.date_days(), r.ts_ms()], |row| {
                Ok((row.get(0)?, row.get(1)?, row.get(2)?))
            })
            .expect("select");
        black_box(row);
    }
    rate(queries, start.elapsed())
}

fn w3_widerow(s: &mut Session, sensors: usize, queries: usize) -> (f64, usize) {
    let select = s
        .prepare("SELECT reading_ts, temperature, humidity, pressure FROM sensor_readings WHERE sensor_id = ? AND reading_date = ? AND reading_ts >= ? AND reading_ts <= ?")
        .expect("prepare");
    let mut rng = Rng(11);
    let mut rows = 0;
    let start = Instant::now();
    for _ in 0..queries {
        let r = random_reading(&mut rng, sensors);
        let day_start = r.date_days() * DAY_MS;
        let result = s
            .execute_prepared(
                &select,
                &[
                    Value::Text(r.sensor_name().to_string()),
                    Value::date_from_days(r.date_days() as i32),
                    Value::Timestamp(day_start),
                    Value::Timestamp(day_start + DAY_MS - 1),
                ],
            )
            .expect("slice");
        rows += result.rows.len();
        black_box(result);
    }
    (rate(queries, start.elapsed()), rows / queries.max(1))
}

fn w3_sqlite(c: &Connection, sensors: usize, queries: usize) -> f64 {
    let mut select = c
        .prepare("SELECT reading_ts, temperature, humidity, pressure FROM sensor_readings WHERE sensor_id = ? AND reading_date = ? AND reading_ts >= ? AND reading_ts <= ?")
        .expect("prepare");
    let mut rng = Rng(11);
    let start = Instant::now();
    for _ in 0..queries {
        let r = random_reading(&mut rng, sensors);
        let day_start = r.date_days() * DAY_MS;
        let rows: Vec<(i64, f64, f64, f64)> = select
            .query_map(
                params![
                    r.sensor_name(),
                    r.date_days(),
                    day_start,
                    day_start + DAY_MS - 1
                ],
                |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?)),
            )
            .expect("slice")
            .collect::<Result<_, _>>()
            .expect("rows");
        black_box(rows);
    }
    rate(queries, start.elapsed())
}

fn w4_widerow(s: &mut Session, rows: usize, scans: usize) -> f64 {
    let start = Instant::now();
    for i in 0..scans {
        let threshold = 39.0 - i as f64 * 0.1;
        let result = s
            .execute(&format!("SELECT sensor_id, reading_ts, temperature FROM sensor_readings WHERE temperature > {threshold} ALLOW FILTERING"))
            .expect("scan");
        black_box(result);
    }
    rate(rows * scans, start.elapsed())
}

fn w4_sqlite(c: &Connection, rows: usize, scans: usize) -> f64 {
    let mut select = c
        .prepare(
            "SELECT sensor_id, reading_ts, temperature FROM sensor_readings WHERE temperature > ?",
        )
        .expect("prepare");
    let start = Instant::now();
    for i in 0..scans {
        let threshold = 39.0 - i as f64 * 0.1;
        let found: Vec<(String, i64, f64)> = select
            .query_map(params![threshold], |row| {
                Ok((row.get(0)?, row.get(1)?, row.get(2)?))
            })
            .expect("scan")
            .collect::<Result<_, _>>()
            .expect("rows");
        black_box(found);
    }
    rate(rows * scans, start.elapsed())
}

/// W5: statements parsed per second by each parser, the fastest of
/// alternating passes over the whole corpus (the least disturbed by other
/// work on the machine).
fn w5(statements: usize) -> (f64, f64) {
    let pairs = statements::corpus(statements);
    statements::check(&pairs);
    let cql: Vec<&str> = pairs.iter().map(|p| p.cql.as_str()).collect();
    let sql: Vec<&str> = pairs.iter().map(|p| p.sql.as_str()).collect();
    let time = |parse: fn(&[&str]), texts: &[&str]| {
        let start = Instant::now();
        parse(texts);
        start.elapsed()
    };
    let (mut widerow, mut sqlparser) = (Duration::MAX, Duration::MAX);
    for _ in 0..5 {
        widerow = widerow.min(time(statements::parse_widerow, &cql));
        sqlparser = sqlparser.min(time(statements::parse_sqlparser, &sql));
    }
    (rate(statements, widerow), rate(statements, sqlparser))
}

/// The sensor counts of the scaling run: 10k, 100k, 1M and 4M rows.
const SCALING_SENSORS: [usize; 4] = [10, 100, 1_000, 4_000];

/// The scaling run: each engine loaded with `sensors` sensors, then W2, W3
/// and W4 timed per query and per row.
fn scaling_row(sensors: usize) -> String {
    let total = sensors * DAYS * READINGS;
    let (mut session, _, _) = w1_prepared_widerow(sensors);
    let (conn, _, _) = w1_prepared_sqlite(sensors);
    let (lookups, slices, scans) = (20_000, 2_000, 3);
    let us = |per_second: f64| 1e6 / per_second;
    let w2 = us(w2_widerow(&mut session, sensors, lookups));
    let s2 = us(w2_sqlite(&conn, sensors, lookups));
    let (w3, per) = w3_widerow(&mut session, sensors, slices);
    let (w3, s3) = (us(w3), us(w3_sqlite(&conn, sensors, slices)));
    let ns = |rows_per_second: f64| 1e9 / rows_per_second;
    let w4 = ns(w4_widerow(&mut session, total, scans));
    let s4 = ns(w4_sqlite(&conn, total, scans));
    format!(
        "| {total} | {w2:.2} µs | {s2:.2} µs | {w3:.1} µs ({:.0} ns/row) | {s3:.1} µs ({:.0} ns/row) | {w4:.1} ns | {s4:.1} ns |",
        w3 * 1000.0 / per as f64,
        s3 * 1000.0 / per as f64,
    )
}

fn print_scaling() {
    println!();
    println!(
        "Scaling: W2 µs per lookup, W3 µs per 100-row slice (and per row), W4 ns per row scanned"
    );
    println!();
    println!("| rows | W2 widerow | W2 SQLite | W3 widerow | W3 SQLite | W4 widerow | W4 SQLite |");
    println!("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for sensors in SCALING_SENSORS {
        println!("{}", scaling_row(sensors));
    }
}

fn print(rows: &[Row]) {
    println!();
    println!("| workload | widerow | SQLite | ratio | target |");
    println!("| --- | ---: | ---: | ---: | --- |");
    for r in rows {
        let ratio = if r.higher_is_better {
            r.widerow / r.sqlite
        } else {
            r.sqlite / r.widerow
        };
        let fmt = |v: f64| {
            if v >= 1000.0 {
                format!("{:.0}", v)
            } else {
                format!("{:.2}", v)
            }
        };
        println!(
            "| {} | {} {} | {} {} | {:.2}× | {} |",
            r.workload,
            fmt(r.widerow),
            r.unit,
            fmt(r.sqlite),
            r.unit,
            ratio,
            r.target
        );
    }
}

/// Runs one widerow workload alone, for a profiler to watch: `w1`, `w1text`,
/// `w2`, `w3`, `w4`, `w5` or `w5widerow` (widerow's parser alone over W5's
/// statements, `WIDEROW_BENCH_QUERIES` passes) (or SQLite's `sqlite-w1`, `sqlite-w1text` or
/// `sqlite-w2`, to weigh a widerow profile against). The load comes first for the reads; its time is
/// the same share of every profile, so the workload's own functions stand out.
fn profile(workload: &str, sensors: usize) {
    let total = sensors * DAYS * READINGS;
    let queries = |default: usize| env_or("WIDEROW_BENCH_QUERIES", default);
    let per_second = match workload {
        "w1" => w1_prepared_widerow(sensors).1,
        "w1text" => w1_text_widerow(sensors),
        "w5" => w5(100_000).0,
        "w5widerow" => {
            let pairs = statements::corpus(100_000);
            let cql: Vec<&str> = pairs.iter().map(|p| p.cql.as_str()).collect();
            let passes = queries(10);
            let start = Instant::now();
            for _ in 0..passes {
                statements::parse_widerow(&cql);
            }
            rate(cql.len() * passes, start.elapsed())
        }
        "sqlite-w1" => w1_prepared_sqlite(sensors).1,
        "sqlite-w1text" => w1_text_sqlite(sensors),
        "sqlite-w2" => w2_sqlite(&w1_prepared_sqlite(sensors).0, sensors, queries(1_000_000)),
        _ => {
            let (mut session, _, _) = w1_prepared_widerow(sensors);
            match workload {
                "w2" => w2_widerow(&mut session, sensors, queries(1_000_000)),
                "w3" => w3_widerow(&mut session, sensors, queries(50_000)).0,
                "w4" => w4_widerow(&mut session, total, queries(50)),
                other => panic!("no workload {other}: w1, w1text, w2, w3, w4, w5 or w5widerow"),
            }
        }
    };
    println!("{workload}: {per_second:.0} per second");
}

/// The number in environment variable `name`, or `default` when it is
/// unset or not a number.
fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let sensors = env_or("WIDEROW_BENCH_SENSORS", 1_000);
    name_sensors(sensors.max(SCALING_SENSORS.into_iter().max().unwrap_or(0)));
    if let Ok(workload) = std::env::var("WIDEROW_BENCH_PROFILE") {
        profile(&workload, sensors);
        return;
    }
    let total = sensors * DAYS * READINGS;
    println!("widerow vs SQLite in memory: {total} rows ({sensors} sensors × {DAYS} days × {READINGS} readings)");
    let mut table = Vec::new();

    let passes = env_or("WIDEROW_BENCH_PASSES", 3).max(1);
    let (mut w_ins, mut s_ins) = (0f64, 0f64);
    let mut loaded = None;
    for _ in 0..passes {
        // The last pass's data serves the reads; the others' is freed first.
        drop(loaded.take());
        let (session, rate, w_bytes) = w1_prepared_widerow(sensors);
        w_ins = w_ins.max(rate);
        let (conn, rate, s_bytes) = w1_prepared_sqlite(sensors);
        s_ins = s_ins.max(rate);
        loaded = Some((session, w_bytes, conn, s_bytes));
    }
    let Some((mut session, w_bytes, conn, s_bytes)) = loaded else {
        unreachable!("at least one pass")
    };
    table.push(Row {
        workload: "W1 insert, prepared".into(),
        unit: "rows/s",
        widerow: w_ins,
        sqlite: s_ins,
        higher_is_better: true,
        target: "≥ 2×",
    });
    table.push(Row {
        workload: "memory per row after W1".into(),
        unit: "B",
        widerow: w_bytes as f64 / total as f64,
        sqlite: s_bytes as f64 / total as f64,
        higher_is_better: false,
        target: "≤ 1.5× SQLite's (ratio ≥ 0.67×)",
    });
    let text_sensors = (sensors / 10).max(1);
    let (w_text, s_text) = best_of(
        passes,
        || w1_text_widerow(text_sensors),
        || w1_text_sqlite(text_sensors),
    );
    table.push(Row {
        workload: "W1 insert, statement text".into(),
        unit: "rows/s",
        widerow: w_text,
        sqlite: s_text,
        higher_is_better: true,
        target: "≥ 2×",
    });

    let lookups = 100_000;
    let (w2, s2) = best_of(
        passes,
        || w2_widerow(&mut session, sensors, lookups),
        || w2_sqlite(&conn, sensors, lookups),
    );
    table.push(Row {
        workload: "W2 point lookup, prepared".into(),
        unit: "q/s",
        widerow: w2,
        sqlite: s2,
        higher_is_better: true,
        target: "≥ 3×",
    });

    let slices = 10_000;
    let mut per = 0;
    let (w3, s3) = best_of(
        passes,
        || {
            let (rate, rows) = w3_widerow(&mut session, sensors, slices);
            per = rows;
            rate
        },
        || w3_sqlite(&conn, sensors, slices),
    );
    table.push(Row {
        workload: format!("W3 partition slice, {per} rows"),
        unit: "q/s",
        widerow: w3,
        sqlite: s3,
        higher_is_better: true,
        target: "≥ 3×",
    });

    let scans = 20;
    let (w4, s4) = best_of(
        passes,
        || w4_widerow(&mut session, total, scans),
        || w4_sqlite(&conn, total, scans),
    );
    table.push(Row {
        workload: "W4 filtering scan".into(),
        unit: "rows/s",
        widerow: w4,
        sqlite: s4,
        higher_is_better: true,
        target: "≥ 1.5×",
    });

    let (w5_widerow, w5_sqlparser) = w5(100_000);
    table.push(Row {
        workload: "W5 parse, 100,000 mixed statements (against `sqlparser`)".into(),
        unit: "st/s",
        widerow: w5_widerow,
        sqlite: w5_sqlparser,
        higher_is_better: true,
        target: "≥ 5×",
    });

    print(&table);
    drop((session, conn));

    if std::env::var("WIDEROW_BENCH_SCALING").is_ok_and(|v| v == "1") {
        print_scaling();
    }
}
