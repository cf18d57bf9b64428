//! Differential testing against SQLite: random tables, writes and reads run
//! on widerow and on a SQLite model of CQL's semantics; every read must
//! agree.
//!
//! * `differential/schema.rs` — the types, values and tables generated;
//! * `differential/case.rs` — statements as data, and their CQL text;
//! * `differential/gen.rs` — the generator (only statements Cassandra
//!   accepts);
//! * `differential/model.rs` — the SQLite model (upserts, row liveness,
//!   statics, tombstones), and `differential/sql.rs`, the SQL of its reads
//!   (the view of CQL rows, static-only rows, Cassandra's order);
//! * `differential/compare.rs` — how results are compared (in order where
//!   Cassandra defines one, as partition groups or multisets where not).
//!
//! Run: `cargo test --test differential` (2500 cases, about 20 s of CPU in
//! a debug build, for CI); more: `PROPTEST_CASES=20000 cargo test --release
//! --test differential -- --nocapture` (the summary prints how many reads
//! were compared, how many failed as Cassandra fails them, and which the
//! planner refused and were skipped; `DIFFERENTIAL_SHOW_REFUSED=1` prints
//! each refused statement).
//!
//! A failure prints the shrunk case as a CQL script with the expected and
//! actual rows. A disagreement is a bug in widerow or in the model.

#[path = "differential/case.rs"]
mod case;
#[path = "differential/compare.rs"]
mod compare;
#[path = "differential/gen.rs"]
mod gen;
#[path = "differential/model.rs"]
mod model;
#[path = "differential/schema.rs"]
mod schema;
#[path = "differential/sql.rs"]
mod sql;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestError, TestRunner};
use widerow::session::{ManualClock, SeededIds};
use widerow::Session;

use case::{Case, Op};
use gen::Draw;
use model::Model;

/// Cases per test when `PROPTEST_CASES` is not set.
const DEFAULT_CASES: u32 = 2500;
/// Statements per case (at most).
const MAX_OPS: usize = 40;
/// Numbers drawn per statement and for the table (more than any decoding
/// uses; a shorter list reads as zeros).
const DRAWS: usize = 96;

fn config() -> Config {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(DEFAULT_CASES);
    Config {
        cases,
        max_shrink_iters: 20_000,
        failure_persistence: None,
        ..Config::default()
    }
}

/// What a run did, printed at the end (`--nocapture` shows it).
#[derive(Default)]
struct Stats {
    cases: u64,
    writes: u64,
    rejected_writes: u64,
    reads: u64,
    rows: u64,
    expected_errors: u64,
    empty_reads: u64,
    refused: BTreeMap<String, u64>,
}

impl Stats {
    fn print(&self, name: &str) {
        let refused: u64 = self.refused.values().sum();
        eprintln!(
            "{name}: {} case runs (including shrinking), {} writes ({} rejected as Cassandra does), {} reads compared ({} rows, {} reads empty), {} reads failed at execution as Cassandra does, {} reads refused by the planner and skipped ({:.1}%)",
            self.cases,
            self.writes,
            self.rejected_writes,
            self.reads,
            self.rows,
            self.empty_reads,
            self.expected_errors,
            refused,
            100.0 * refused as f64 / (refused + self.reads).max(1) as f64
        );
        for (message, n) in &self.refused {
            eprintln!("  refused {n}x: {message}");
        }
    }
}

/// The raw numbers of a case: one list for the table, one per statement.
fn case_strategy() -> impl Strategy<Value = (Vec<u32>, Vec<Vec<u32>>)> {
    (
        vec(any::<u32>(), DRAWS),
        vec(vec(any::<u32>(), DRAWS), 1..MAX_OPS),
    )
}

fn decode(raw: &(Vec<u32>, Vec<Vec<u32>>)) -> Case {
    let table = gen::table(&mut Draw::new(&raw.0));
    let ops = raw
        .1
        .iter()
        .map(|r| gen::op(&mut Draw::new(r), &table))
        .collect();
    Case { table, ops }
}

fn session() -> Session {
    let clock = ManualClock::at_micros(1_748_736_000_000_000);
    let mut s = Session::with_sources(Arc::new(clock), Box::new(SeededIds::new(7)));
    // Paged as scripts are: the model expects the paging-only refusal of an
    // ORDER BY over an IN on the partition key (gen::read_error).
    s.set_page_size(Some(100));
    s.execute_script(
        "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}; USE ks;",
    )
    .expect("keyspace");
    s
}

fn report(case: &Case, at: usize, what: &str) -> String {
    format!(
        "{what}\n--- CQL (the last statement disagrees) ---\n{}",
        case.script(at)
    )
}

/// Runs one case on both sides; the first disagreement is the error. A
/// panic (in widerow or the harness) is reported with the script so far.
fn run_case(case: &Case, stats: &mut Stats) -> Result<(), String> {
    stats.cases += 1;
    let at = std::cell::Cell::new(0);
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run_ops(case, stats, &at)))
        .unwrap_or_else(|panic| {
            let message = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            Err(report(case, at.get(), &format!("panicked: {message}")))
        })
}

fn run_ops(case: &Case, stats: &mut Stats, at: &std::cell::Cell<usize>) -> Result<(), String> {
    let mut session = session();
    session
        .execute(&case.table.create_cql())
        .map_err(|e| report(case, 0, &format!("widerow refused the table: {e}")))?;
    let mut model = Model::new(&case.table);
    for (i, op) in case.ops.iter().enumerate() {
        at.set(i);
        let (text, binds) = op.render(&case.table);
        let bind = op.style().bind;
        match op {
            Op::Write(w) => {
                stats.writes += 1;
                let rejects = gen::rejects_empty_key(&case.table, w);
                let result = if bind {
                    let prepared = session.prepare(&text).map_err(|e| {
                        report(
                            case,
                            i,
                            &format!("widerow refused to prepare a valid write: {e}"),
                        )
                    })?;
                    session.execute_prepared(&prepared, &binds)
                } else {
                    session.execute(&text)
                };
                match (result, rejects) {
                    (Ok(_), false) => model.apply(w),
                    (Err(_), true) => stats.rejected_writes += 1,
                    (Ok(_), true) => return Err(report(
                        case,
                        i,
                        "widerow accepted an empty partition key (Cassandra: Key may not be empty)",
                    )),
                    (Err(e), false) => {
                        return Err(report(
                            case,
                            i,
                            &format!("widerow refused a valid write: {e}"),
                        ))
                    }
                }
            }
            Op::Read(r) => {
                // A refusal at planning (`prepare`) is skipped and counted;
                // any other error must be the one Cassandra gives.
                let result = match session.prepare(&text) {
                    Err(e) => Err((true, e)),
                    Ok(p) if bind => session.execute_prepared(&p, &binds).map_err(|e| (false, e)),
                    Ok(_) => session.execute(&text).map_err(|e| (false, e)),
                };
                if let Some(want) = gen::read_error(&case.table, r) {
                    stats.expected_errors += 1;
                    match result {
                        Err((_, e)) if e.message() == want => continue,
                        Err((_, e)) => {
                            return Err(report(
                                case,
                                i,
                                &format!("expected the error `{want}`, got `{e}`"),
                            ))
                        }
                        Ok(_) => {
                            return Err(report(
                                case,
                                i,
                                &format!("expected the error `{want}`, got rows"),
                            ))
                        }
                    }
                }
                let actual = match result {
                    Ok(actual) => actual,
                    Err((true, e)) => {
                        if std::env::var_os("DIFFERENTIAL_SHOW_REFUSED").is_some() {
                            eprintln!("refused: {text}\n  {e}");
                        }
                        *stats.refused.entry(e.message().to_string()).or_default() += 1;
                        continue;
                    }
                    Err((false, e)) => {
                        return Err(report(case, i, &format!("planned, then failed: {e}")))
                    }
                };
                let expected = model.query(r);
                stats.reads += 1;
                stats.rows += actual.rows.len() as u64;
                stats.empty_reads += u64::from(actual.rows.is_empty());
                compare::check(&case.table, r, &expected, &actual)
                    .map_err(|m| report(case, i, &m))?;
            }
        }
    }
    Ok(())
}

fn run(name: &str) {
    let mut runner = TestRunner::new(config());
    let stats = Mutex::new(Stats::default());
    let result = runner.run(&case_strategy(), |raw| {
        let case = decode(&raw);
        run_case(&case, &mut stats.lock().unwrap()).map_err(TestCaseError::fail)
    });
    stats.lock().unwrap().print(name);
    match result {
        Ok(()) => {}
        Err(TestError::Fail(reason, _)) => {
            panic!("{name}: widerow and the SQLite model disagree: {reason}")
        }
        Err(e) => panic!("{name}: {e}"),
    }
}

/// Everything the generator knows.
#[test]
fn widerow_agrees_with_the_sqlite_model() {
    run("differential");
}

/// The model itself, on the examples of results.md ("Static-only
/// partitions", "Row liveness"), so a harness bug cannot hide behind
/// agreement.
#[test]
fn the_model_follows_the_reference_examples() {
    use case::{KeyWhere, Read, Selection, Style, Write};
    use schema::{Column, Kind, Lit, Table, Ty};
    use widerow::types::Value::{Int, Null};

    let col = |name: &str, kind| Column {
        name: name.into(),
        ty: Ty::Int,
        kind,
    };
    let table = Table {
        columns: vec![
            col("k", Kind::Partition),
            col("c", Kind::Clustering { desc: false }),
            col("s", Kind::Static),
            col("v", Kind::Regular),
        ],
    };
    let (k, c, s, v) = (0, 1, 2, 3);
    let at = |key: i64, row: Option<i64>| KeyWhere {
        pk: vec![vec![Lit::Int(key)]],
        ck: row.map(|r| vec![vec![Lit::Int(r)]]).unwrap_or_default(),
        slice: None,
        multi: None,
    };
    let star = |key: i64| Read {
        selection: Selection::Star,
        pk: vec![Some(case::PkRestriction::Eq(vec![Lit::Int(key)]))],
        ck: Vec::new(),
        multi: None,
        filters: Vec::new(),
        order: None,
        per_partition_limit: None,
        limit: None,
        allow_filtering: false,
        style: Style::default(),
    };
    let mut m = Model::new(&table);
    let rows = |m: &Model, key| -> Vec<Vec<widerow::types::Value>> {
        m.query(&star(key))
            .rows
            .into_iter()
            .map(|(_, r)| r)
            .collect()
    };
    let int = |i: i64| Some(Lit::Int(i));

    // A static-only partition reads as one row, clustering and regular null.
    m.apply(&Write::Insert {
        values: vec![(k, int(1)), (s, int(10))],
        style: Style::default(),
    });
    assert_eq!(rows(&m, 1), vec![vec![Int(1), Null, Int(10), Null]]);
    // Once it has a row, only the row shows, with the static value.
    m.apply(&Write::Insert {
        values: vec![(k, int(1)), (c, int(1))],
        style: Style::default(),
    });
    assert_eq!(rows(&m, 1), vec![vec![Int(1), Int(1), Int(10), Null]]);
    // Deleting the row leaves the statics: back to a static-only row.
    m.apply(&Write::Delete {
        at: at(1, Some(1)),
        style: Style::default(),
    });
    assert_eq!(rows(&m, 1), vec![vec![Int(1), Null, Int(10), Null]]);
    // Deleting the last static cell leaves nothing (no liveness marker).
    m.apply(&Write::DeleteColumns {
        cols: vec![s],
        at: at(1, None),
        style: Style::default(),
    });
    assert!(rows(&m, 1).is_empty());

    // A row made by UPDATE lives only while it has a non-null cell...
    m.apply(&Write::Update {
        set: vec![(v, int(5))],
        at: at(2, Some(1)),
        style: Style::default(),
    });
    assert_eq!(rows(&m, 2), vec![vec![Int(2), Int(1), Null, Int(5)]]);
    m.apply(&Write::Update {
        set: vec![(v, None)],
        at: at(2, Some(1)),
        style: Style::default(),
    });
    assert!(rows(&m, 2).is_empty());
    // ...while a row made by INSERT lives on with every regular cell null.
    m.apply(&Write::Insert {
        values: vec![(k, int(3)), (c, int(1)), (v, int(5))],
        style: Style::default(),
    });
    m.apply(&Write::DeleteColumns {
        cols: vec![v],
        at: at(3, Some(1)),
        style: Style::default(),
    });
    assert_eq!(rows(&m, 3), vec![vec![Int(3), Int(1), Null, Null]]);
    // A partition delete removes rows and statics together.
    m.apply(&Write::Update {
        set: vec![(s, int(7))],
        at: at(3, None),
        style: Style::default(),
    });
    m.apply(&Write::Delete {
        at: at(3, None),
        style: Style::default(),
    });
    assert!(rows(&m, 3).is_empty());
}
