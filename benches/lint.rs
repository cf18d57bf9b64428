//! Linting throughput: queries linted per second against a schema of 50
//! tables, every built-in rule enabled. Target: at least 100,000 queries per
//! second, so a monorepo's worth of CQL lints in well under a second.
//!
//! Run with `cargo bench --bench lint`.

use std::fmt::Write as _;
use std::hint::black_box;
use std::time::Instant;

use widerow::lint::{LintConfig, Linter};

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
}
