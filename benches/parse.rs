//! Parser throughput: widerow against sqlparser on the same statements.
//!
//! A fixed-seed generator writes a mixed corpus of realistic statements
//! (SELECT with WHERE, ORDER BY and LIMIT; INSERT of 5–8 columns; UPDATE with
//! SET and WHERE; CREATE TABLE of 6–10 columns with a composite primary key)
//! twice: as CQL for widerow and as the equivalent SQL for sqlparser's
//! `GenericDialect`. Only CREATE TABLE differs between the two — SQL has no
//! partition key, so `PRIMARY KEY ((a, b), c)` becomes `PRIMARY KEY (a, b,
//! c)` and the clustering order goes — so both parsers read nearly the same
//! bytes. Each statement is parsed on its own, as a server parses each
//! request.
//!
//! Criterion measures the whole corpus per parser. A timed loop afterwards
//! prints statements/s, MB/s (10^6 bytes) and the widerow/sqlparser ratio
//! per statement kind, which criterion's output cannot show side by side;
//! it alternates the parsers and keeps each one's fastest pass, so that load
//! from other processes skews the ratio as little as possible.
//!
//! Run with `cargo bench --bench parse`.

use std::time::{Duration, Instant};

#[path = "common/statements.rs"]
mod statements;

use criterion::{Criterion, Throughput};
use statements::{check, corpus, parse_sqlparser, parse_widerow, total_bytes, Kind, Pair};

/// Statements in the corpus: enough that every kind is well represented and
/// one pass takes long enough to time reliably.
const STATEMENTS: usize = 12_000;

/// How long the summary alternates the two parsers over each slice of the
/// corpus.
const SUMMARY_TIME: Duration = Duration::from_secs(6);

fn criterion_benches(c: &mut Criterion, cql: &[&str], sql: &[&str]) {
    let mut group = c.benchmark_group("parse");
    group.sample_size(20);
    group.measurement_time(Duration::from_secs(10));
    group.throughput(Throughput::Bytes(total_bytes(cql) as u64));
    group.bench_function("widerow", |b| b.iter(|| parse_widerow(cql)));
    group.throughput(Throughput::Bytes(total_bytes(sql) as u64));
    group.bench_function("sqlparser", |b| b.iter(|| parse_sqlparser(sql)));
    group.finish();
}

/// Statements/s and MB/s of one parser over one slice of the corpus.
struct Rate {
    statements: f64,
    megabytes: f64,
}

impl Rate {
    fn new(statements: &[&str], seconds: f64) -> Rate {
        Rate {
            statements: statements.len() as f64 / seconds,
            megabytes: total_bytes(statements) as f64 / seconds / 1e6,
        }
    }
}

/// Times whole passes of both parsers, alternating them for
/// [`SUMMARY_TIME`] after a warm-up pass each, and keeps each parser's
/// fastest pass. Other work on the machine only ever slows a pass down, so
/// the fastest is the least disturbed; alternating exposes both parsers to
/// the same conditions.
fn compare(cql: &[&str], sql: &[&str]) -> (Rate, Rate) {
    fn time(parse: fn(&[&str]), statements: &[&str]) -> f64 {
        let start = Instant::now();
        parse(statements);
        start.elapsed().as_secs_f64()
    }
    parse_widerow(cql);
    parse_sqlparser(sql);
    let (mut widerow, mut sqlparser) = (f64::MAX, f64::MAX);
    let start = Instant::now();
    let mut passes = 0;
    while start.elapsed() < SUMMARY_TIME || passes < 5 {
        widerow = widerow.min(time(parse_widerow, cql));
        sqlparser = sqlparser.min(time(parse_sqlparser, sql));
        passes += 1;
    }
    (Rate::new(cql, widerow), Rate::new(sql, sqlparser))
}

fn summary(pairs: &[Pair]) {
    println!();
    println!(
        "{:<12} {:>6} {:>13} {:>7} {:>15} {:>7} {:>6}",
        "statements", "count", "widerow st/s", "MB/s", "sqlparser st/s", "MB/s", "ratio"
    );
    let mut slices: Vec<(&str, Vec<&Pair>)> = vec![("all", pairs.iter().collect())];
    for kind in Kind::ALL {
        slices.push((
            kind.name(),
            pairs.iter().filter(|p| p.kind == kind).collect(),
        ));
    }
    for (name, slice) in slices {
        let cql: Vec<&str> = slice.iter().map(|p| p.cql.as_str()).collect();
        let sql: Vec<&str> = slice.iter().map(|p| p.sql.as_str()).collect();
        let (widerow, sqlparser) = compare(&cql, &sql);
        println!(
            "{name:<12} {:>6} {:>13.0} {:>7.2} {:>15.0} {:>7.2} {:>5.2}x",
            slice.len(),
            widerow.statements,
            widerow.megabytes,
            sqlparser.statements,
            sqlparser.megabytes,
            widerow.statements / sqlparser.statements
        );
    }
    println!(
        "fastest of alternating passes; ratio = widerow statements/s ÷ sqlparser \
         statements/s; MB = 10^6 bytes"
    );
}

fn main() {
    let pairs = corpus(STATEMENTS);
    check(&pairs);
    let cql: Vec<&str> = pairs.iter().map(|p| p.cql.as_str()).collect();
    let sql: Vec<&str> = pairs.iter().map(|p| p.sql.as_str()).collect();
    println!(
        "corpus: {} statements, {} bytes of CQL, {} bytes of SQL",
        pairs.len(),
        total_bytes(&cql),
        total_bytes(&sql)
    );

    let mut criterion = Criterion::default().configure_from_args();
    criterion_benches(&mut criterion, &cql, &sql);
    criterion.final_summary();

    // Criterion runs each benchmark once under `cargo test --benches`; the
    // summary's timed loop is only worth its time under `cargo bench`.
    let args: Vec<String> = std::env::args().collect();
    let benchmarking =
        args.iter().any(|a| a == "--bench") && !args.iter().any(|a| a == "--test" || a == "--list");
    if benchmarking {
        summary(&pairs);
    }
}
