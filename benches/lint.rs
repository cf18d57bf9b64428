//! Linting throughput: queries linted per second against a schema of 50
//! tables, every built-in rule enabled. Target: at least 100,000 queries per
//! second, so a monorepo's worth of CQL lints in well under a second.
//!
//! Run with `cargo bench --bench lint`. With `WIDEROW_BENCH_IN_SCALING=1`
//! it then times one SELECT with an IN list of 10,000, 100,000 and
//! 1,000,000 values, linted and run, printing the time per value and its
//! ratio to the 10,000-value figure: flat when the work is linear.

use std::fmt::Write as _;
use std::hint::black_box;
use std::time::Instant;

use widerow::limits::Limits;
use widerow::lint::{LintConfig, Linter};
use widerow::planner::PlanContext;
use widerow::Session;

const TABLES: usize = 50;
const QUERIES: usize = 20_000;

fn schema() -> String {
    let mut out = String::from(
        "CREATE KEYSPACE app WITH replication = {'class': 'NetworkTopologyStrategy', 'datacenter1': 3};\nUSE app;\n",
    );
    for t in 0..TABLES {
        let _ = writeln!(
            out,
            "CREATE TABLE t{t} (tenant text, day date, at timestamp, id uuid, status text, v{t} double, note text, PRIMARY KEY ((tenant, day), at, id)) WITH CLUSTERING ORDER BY (at DESC, id ASC);"
        );
        if t % 5 == 0 {
            let _ = writeln!(out, "CREATE INDEX ON t{t} (status);");
        }
    }
    out
}

/// A mix of good and bad queries, as a codebase has them; every query text
/// is distinct (its literals differ), so nothing is linted from a cache.
fn queries() -> String {
    let mut out = String::new();
    for i in 0..QUERIES {
        let t = i % TABLES;
        let q = match i % 6 {
            0 => format!("SELECT * FROM t{t} WHERE tenant = ? AND day = ? AND at > ? LIMIT 100;"),
            1 => format!("SELECT * FROM t{t} WHERE tenant = 'a{i}' AND day = '2025-06-01' AND at = '2025-06-01 08:00:00+0000' AND id = 123e4567-e89b-12d3-a456-426614174000;"),
            2 => format!("SELECT * FROM t{t} WHERE note = 'x{i}' ALLOW FILTERING;"),
            3 => format!("SELECT * FROM t{t} WHERE tenant = 'a{i}';"),
            4 => format!("INSERT INTO t{t} (tenant, day, at, id, note) VALUES (?, ?, ?, ?, ?);"),
            _ => format!("SELECT * FROM t{t} WHERE tenant IN ('a{i}', 'b', 'c') AND day = ?;"),
        };
        out.push_str(&q);
        out.push('\n');
    }
    out
}

fn main() {
    let schema = schema();
    let queries = queries();
    let mut best = f64::MAX;
    let mut findings = 0;
    for _ in 0..5 {
        // WIDEROW_LINT_IGNORE=Q001,M006 leaves rules out, to see what each costs.
        let ignore = std::env::var("WIDEROW_LINT_IGNORE")
            .map(|v| v.split(',').map(str::to_string).collect())
            .unwrap_or_default();
        let mut linter = Linter::new(LintConfig {
            ignore,
            ..LintConfig::default()
        });
        linter
            .load_schema("schema.cql", &schema)
            .unwrap_or_else(|f| panic!("schema refused: {f:?}"));
        let start = Instant::now();
        let mut found = linter.lint_str("queries.cql", black_box(&queries));
        found.extend(linter.finish());
        best = best.min(start.elapsed().as_secs_f64());
        findings = found.len();
    }
    println!(
        "linted {QUERIES} queries against {TABLES} tables in {:.1} ms: {:.0} queries/s ({findings} findings)",
        best * 1e3,
        QUERIES as f64 / best
    );
    println!("target: at least 100,000 queries per second");
    if std::env::var("WIDEROW_BENCH_IN_SCALING").is_ok_and(|v| v == "1") {
        in_scaling();
    }
}

const IN_SCHEMA: &str = "CREATE KEYSPACE ks WITH replication = \
    {'class': 'NetworkTopologyStrategy', 'datacenter1': 3}; USE ks; \
    CREATE TABLE t (k int, c int, v text, PRIMARY KEY (k, c));";

/// Limits that let every value through, so all of them are worked on.
fn unlimited() -> Limits {
    Limits {
        statement_size: usize::MAX,
        in_list_length: usize::MAX,
        in_select_cartesian_product: usize::MAX,
        ..Limits::default()
    }
}

fn in_statement(n: usize) -> String {
    let mut out = String::from("SELECT * FROM t WHERE k IN (");
    for i in 0..n {
        let _ = write!(out, "{}{i}", if i == 0 { "" } else { ", " });
    }
    out.push_str(");\n");
    out
}

/// Seconds to lint `text` under `limits` (best of `runs`).
fn lint_seconds(text: &str, limits: Limits, runs: usize) -> f64 {
    best_of(runs, || {
        let mut ctx = PlanContext::new();
        ctx.limits = limits;
        let mut linter = Linter::with_context(ctx, LintConfig::default());
        linter.load_schema("schema.cql", IN_SCHEMA).expect("schema");
        let start = Instant::now();
        black_box(linter.lint_str("in.cql", black_box(text)));
        start.elapsed().as_secs_f64()
    })
}

/// Seconds to run `text` in a session under `limits` (best of `runs`).
fn run_seconds(text: &str, limits: Limits, runs: usize) -> f64 {
    best_of(runs, || {
        let mut session = Session::new();
        session.set_limits(limits);
        session.execute_script(IN_SCHEMA).expect("schema");
        let start = Instant::now();
        let _ = black_box(session.execute(black_box(text)));
        start.elapsed().as_secs_f64()
    })
}

fn best_of(runs: usize, mut once: impl FnMut() -> f64) -> f64 {
    (0..runs).map(|_| once()).fold(f64::MAX, f64::min)
}

/// Time per value of an IN list linted and run, at three sizes, within the
/// default limits (refused past them) and with every limit lifted.
fn in_scaling() {
    let sizes = [10_000usize, 100_000, 1_000_000];
    type Measure = fn(&str, Limits, usize) -> f64;
    let cases: [(&str, Measure, Limits); 4] = [
        ("lint, limits lifted", lint_seconds, unlimited()),
        ("lint, default limits", lint_seconds, Limits::default()),
        ("run, limits lifted", run_seconds, unlimited()),
        ("run, default limits", run_seconds, Limits::default()),
    ];
    println!("\nIN list scaling: ns per value (ratio to 10,000 values)");
    for (name, measure, limits) in cases {
        let mut base = None;
        let mut cells = Vec::new();
        for n in sizes {
            let text = in_statement(n);
            let runs = if n >= 1_000_000 { 2 } else { 5 };
            let per_value = measure(&text, limits, runs) * 1e9 / n as f64;
            let ratio = per_value / *base.get_or_insert(per_value);
            cells.push(format!("{n}: {per_value:.1} ns ({ratio:.2}x)"));
        }
        println!("{name:<22} {}", cells.join("  "));
    }
}
