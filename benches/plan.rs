//! Planning throughput: plans per second for a mixed set of prepared
//! statements (parsed once, planned again and again), as an application
//! that prepares its queries would plan them. Planning must never be the
//! bottleneck of a lookup: the target is a million point-lookup plans per
//! second on one core.
//!
//! Run with `cargo bench --bench plan`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::Criterion;
use widerow::planner::{plan_statement, PlanContext};
use widerow::syntax::ast::Statement;

const SCHEMA: &str = "
CREATE KEYSPACE iot WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};
USE iot;
CREATE TABLE sensor_readings (sensor_id text, reading_date date, reading_ts timestamp,
    temperature double, humidity double, PRIMARY KEY ((sensor_id, reading_date), reading_ts))
    WITH CLUSTERING ORDER BY (reading_ts DESC);
CREATE TABLE users (user_id uuid PRIMARY KEY, email text, name text);
CREATE INDEX ON users (email);
";

/// The statements planned, by kind; markers as a prepared statement has them.
const QUERIES: [(&str, &str); 6] = [
    ("point lookup (literals)", "SELECT * FROM users WHERE user_id = 123e4567-e89b-12d3-a456-426614174000"),
    ("point lookup (prepared)", "SELECT * FROM sensor_readings WHERE sensor_id = ? AND reading_date = ? AND reading_ts = ?"),
    ("partition slice", "SELECT * FROM sensor_readings WHERE sensor_id = 's-1' AND reading_date = '2025-06-01' AND reading_ts > '2025-06-01 08:00:00+0000' LIMIT 100"),
    ("multi-partition", "SELECT * FROM sensor_readings WHERE sensor_id = 's-1' AND reading_date IN ('2025-06-01', '2025-06-02')"),
    ("index scatter", "SELECT * FROM users WHERE email = 'a@example.com'"),
    ("insert (prepared)", "INSERT INTO sensor_readings (sensor_id, reading_date, reading_ts, temperature) VALUES (?, ?, ?, ?)"),
];

fn context() -> PlanContext {
    let mut ctx = PlanContext::new();
    for statement in widerow::split_statements(SCHEMA) {
        let parsed = widerow::parse_statement(&statement.text).expect("schema parses");
        ctx.apply_schema(&parsed).expect("schema applies");
    }
    ctx
}

fn prepared() -> Vec<(&'static str, Statement)> {
    QUERIES
        .iter()
        .map(|(name, cql)| (*name, widerow::parse_statement(cql).expect("query parses")))
        .collect()
}

/// Plans per second for one statement, timed over `duration`.
fn rate(ctx: &PlanContext, statement: &Statement, duration: Duration) -> f64 {
    let start = Instant::now();
    let mut n = 0u64;
    while start.elapsed() < duration {
        for _ in 0..1000 {
            black_box(plan_statement(ctx, black_box(statement)).expect("plans"));
        }
        n += 1000;
    }
    n as f64 / start.elapsed().as_secs_f64()
}

fn main() {
    let ctx = context();
    let statements = prepared();
    let mut criterion = Criterion::default().configure_from_args();
    for (name, statement) in &statements {
        criterion.bench_function(&format!("plan {name}"), |b| {
            b.iter(|| plan_statement(&ctx, black_box(statement)).expect("plans"))
        });
    }
    criterion.final_summary();

    println!("\n{:<26} {:>14} {:>12}", "statement", "plans/s", "µs/plan");
    for (name, statement) in &statements {
        let per_second = rate(&ctx, statement, Duration::from_secs(2));
        println!("{name:<26} {per_second:>14.0} {:>12.3}", 1e6 / per_second);
    }
    println!("\ntarget: at least 1,000,000 point-lookup plans per second on one core");
}
