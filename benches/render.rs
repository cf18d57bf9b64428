//! The floor under `widerow -f`'s slice workload: what printing the rows costs
//! with no engine in the way.
//!
//! `scripts/cli-compare.sh --slices` times whole processes reading 10,000
//! sensor-day partitions of 100 rows and printing them in cqlsh's table
//! layout. This bench takes 100 of those partitions as the engine returns
//! them (`SELECT * … WHERE sensor_id = … AND reading_date = …` on the rows
//! `scripts/gen-sensor-scripts.py` writes), then times, over the same
//! 1,000,000 rows (each result 100 times over):
//!
//! - `engine`: the 10,000 SELECTs run as text through `Session::execute`,
//!   the rows built and dropped, nothing printed;
//! - `table`: `render::table` of each result (widths measured per page,
//!   padding, header and footer), the renderer `widerow -f` prints with;
//! - `csv`: `render::csv` of each result;
//! - `values`: each value's cqlsh text appended to one reused buffer with a
//!   separator, no widths: the cost of the digits themselves.
//!
//! Each is timed `WIDEROW_BENCH_PASSES` times (default 5), best pass kept;
//! the table printed at the end gives ns per row. Run with
//! `cargo bench --bench render`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use widerow::render::{csv, table, TableOptions};
use widerow::{ResultSet, Session};

/// Sensors loaded: ten days each, so `SENSORS * 10` partitions of 100 rows.
const SENSORS: usize = 10;
/// Times each partition's result is rendered: 100 partitions × 100 rows × 100 = 1M rows.
const REPEATS: usize = 100;
const ROWS_PER_PARTITION: usize = 100;
const DAYS: usize = 10;

fn main() {
    let passes: usize = std::env::var("WIDEROW_BENCH_PASSES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5);
    let mut session = loaded_session();
    let queries = slice_queries();
    let results: Vec<ResultSet> = queries.iter().map(|q| run(&mut session, q)).collect();
    let rows = results.len() * ROWS_PER_PARTITION * REPEATS;
    let timings = [
        ("engine", best(passes, || engine(&mut session, &queries))),
        ("table", best(passes, || render_all(&results, table_text))),
        ("csv", best(passes, || render_all(&results, csv_text))),
        ("values", best(passes, || values_only(&results))),
    ];
    println!("| part ({rows} rows, best of {passes}) | total | per row |");
    println!("| --- | ---: | ---: |");
    for (name, time) in timings {
        let per_row = time.as_nanos() as f64 / rows as f64;
        println!(
            "| `{name}` | {:.3} s | {per_row:.0} ns |",
            time.as_secs_f64()
        );
    }
}

/// The keyspace, table and rows of `gen-sensor-scripts.py` for [`SENSORS`] sensors.
fn loaded_session() -> Session {
    let mut session = Session::new();
    for statement in [
        "CREATE KEYSPACE iot WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}",
        "USE iot",
        "CREATE TABLE sensor_readings (sensor_id text, reading_date date, reading_ts timestamp, temperature double, humidity double, pressure double, PRIMARY KEY ((sensor_id, reading_date), reading_ts))",
    ] {
        run(&mut session, statement);
    }
    for s in 0..SENSORS {
        for d in 0..DAYS {
            for r in 0..ROWS_PER_PARTITION {
                let temperature = ((s * 7 + d * 3 + r) % 400) as f64 / 10.0;
                let insert = format!(
                    "INSERT INTO sensor_readings (sensor_id, reading_date, reading_ts, temperature, humidity, pressure) VALUES ('sensor-{s:05}', '{date}', {ts}, {temperature}, {humidity}, {pressure})",
                    date = date(d),
                    ts = (20_240 + d as i64) * 86_400_000 + r as i64 * 864_000,
                    humidity = (r % 100) as f64,
                    pressure = 1000.0 + (s % 50) as f64,
                );
                run(&mut session, &insert);
            }
        }
    }
    session
}

/// Day `d` of the data, 2025-06-01 onwards.
fn date(d: usize) -> String {
    format!("2025-06-{:02}", d + 1)
}

/// One SELECT per partition, repeated [`REPEATS`] times over.
fn slice_queries() -> Vec<String> {
    let mut queries = Vec::new();
    for s in 0..SENSORS {
        for d in 0..DAYS {
            queries.push(format!(
                "SELECT * FROM sensor_readings WHERE sensor_id = 'sensor-{s:05}' AND reading_date = '{}'",
                date(d)
            ));
        }
    }
    queries
}

fn run(session: &mut Session, cql: &str) -> ResultSet {
    session
        .execute(cql)
        .unwrap_or_else(|e| panic!("{cql}: {e:?}"))
}

/// The shortest of `passes` timings of `work`.
fn best(passes: usize, mut work: impl FnMut() -> usize) -> Duration {
    (0..passes)
        .map(|_| {
            let start = Instant::now();
            black_box(work());
            start.elapsed()
        })
        .min()
        .unwrap_or_default()
}

fn engine(session: &mut Session, queries: &[String]) -> usize {
    let mut rows = 0;
    for _ in 0..REPEATS {
        for query in queries {
            rows += run(session, query).rows.len();
        }
    }
    rows
}

fn table_text(result: &ResultSet) -> String {
    table(result, &TableOptions::batch())
}

fn csv_text(result: &ResultSet) -> String {
    csv(result)
}

/// Every result rendered [`REPEATS`] times; the bytes written.
fn render_all(results: &[ResultSet], render: fn(&ResultSet) -> String) -> usize {
    let mut bytes = 0;
    for _ in 0..REPEATS {
        for result in results {
            bytes += black_box(render(result)).len();
        }
    }
    bytes
}

/// Every value's text into one buffer, cleared per result; the bytes written.
fn values_only(results: &[ResultSet]) -> usize {
    let mut out = String::with_capacity(1 << 16);
    let mut bytes = 0;
    for _ in 0..REPEATS {
        for result in results {
            out.clear();
            for row in &result.rows {
                for (value, column) in row.iter().zip(result.columns.iter()) {
                    value.push_cqlsh_display(&column.data_type, &mut out);
                    out.push_str(" | ");
                }
                out.push('\n');
            }
            bytes += black_box(&out).len();
        }
    }
    bytes
}
