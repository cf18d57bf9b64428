//! widerow serve, judged by the scylla Rust driver (protocol v4; the crate
//! speaks no v5). Target from CQL_HOST / CQL_PORT; runs in a keyspace of its
//! own that it creates and drops. Exits 1 on the first failed check.

use std::error::Error;
use std::time::{SystemTime, UNIX_EPOCH};

use futures::StreamExt;
use scylla::client::session::Session;
use scylla::client::session_builder::SessionBuilder;
use scylla::errors::{DbError, ExecutionError, PrepareError, RequestAttemptError};
use scylla::response::PagingState;
use scylla::statement::unprepared::Statement;

type Res<T> = Result<T, Box<dyn Error>>;

macro_rules! check {
    ($cond:expr, $($msg:tt)+) => {
        if !$cond {
            return Err(format!($($msg)+).into());
        }
    };
}

fn env_or(name: &str, default: &str) -> String {
    std::env::var(name)
        .ok()
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| default.to_string())
}

/// The DbError inside an execution error, if the server answered with one.
fn db_error(err: &ExecutionError) -> Option<(&DbError, &str)> {
    match err {
        ExecutionError::LastAttemptError(RequestAttemptError::DbError(db, msg)) => {
            Some((db, msg.as_str()))
        }
        ExecutionError::PrepareError(PrepareError::AllAttemptsFailed {
            first_attempt: RequestAttemptError::DbError(db, msg),
        }) => Some((db, msg.as_str())),
        _ => None,
    }
}

async fn test_prepared_round_trip(s: &Session, ks: &str) -> Res<()> {
    s.query_unpaged(
        format!(
            "CREATE TABLE {ks}.kv (k int PRIMARY KEY, name text, big bigint, \
             data blob, flag boolean, nums list<int>, tags set<text>, attrs map<text, int>)"
        ),
        &[],
    )
    .await?;
    let ins = s
        .prepare(format!(
            "INSERT INTO {ks}.kv (k, name, big, data, flag, nums, tags, attrs) \
             VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
        ))
        .await?;
    check!(
        ins.get_variable_col_specs().len() == 8,
        "INSERT prepared with {} bind markers, expected 8",
        ins.get_variable_col_specs().len()
    );
    let data: Vec<u8> = vec![0, 1, 2, 0xfe, 0xff];
    let nums: Vec<i32> = vec![3, 1, 2];
    let tags: Vec<String> = vec!["b".into(), "a".into()];
    let attrs: std::collections::BTreeMap<String, i32> =
        [("x".to_string(), 1), ("y".to_string(), -2)].into_iter().collect();
    s.execute_unpaged(
        &ins,
        (7i32, "zoë ✓", -9_000_000_000i64, &data, true, &nums, &tags, &attrs),
    )
    .await?;

    let sel = s
        .prepare(format!(
            "SELECT name, big, data, flag, nums, tags, attrs FROM {ks}.kv WHERE k = ?"
        ))
        .await?;
    let rows = s.execute_unpaged(&sel, (7i32,)).await?.into_rows_result()?;
    check!(rows.rows_num() == 1, "SELECT by key: {} rows, expected 1", rows.rows_num());
    let (name, big, got_data, flag, got_nums, got_tags, got_attrs): (
        String,
        i64,
        Vec<u8>,
        bool,
        Vec<i32>,
        Vec<String>,
        std::collections::BTreeMap<String, i32>,
    ) = rows.single_row()?;
    check!(name == "zoë ✓", "text came back as {name:?}");
    check!(big == -9_000_000_000, "bigint came back as {big}");
    check!(got_data == data, "blob came back as {got_data:?}");
    check!(flag, "boolean came back false");
    check!(got_nums == vec![3, 1, 2], "list<int> came back as {got_nums:?}");
    check!(got_tags == vec!["a".to_string(), "b".to_string()], "set<text> came back as {got_tags:?} (sets are sorted)");
    check!(got_attrs == attrs, "map<text,int> came back as {got_attrs:?}");

    // A key that is not there: zero rows, not an error.
    let none = s.execute_unpaged(&sel, (8i32,)).await?.into_rows_result()?;
    check!(none.rows_num() == 0, "SELECT of a missing key: {} rows", none.rows_num());

    // A null column reads back as None.
    s.execute_unpaged(
        &ins,
        (9i32, None::<&str>, None::<i64>, None::<Vec<u8>>, None::<bool>, None::<Vec<i32>>, None::<Vec<String>>, None::<std::collections::BTreeMap<String, i32>>),
    )
    .await?;
    let rows = s.execute_unpaged(&sel, (9i32,)).await?.into_rows_result()?;
    let (n, b): (Option<String>, Option<i64>) = {
        let r: (Option<String>, Option<i64>, Option<Vec<u8>>, Option<bool>, Option<Vec<i32>>, Option<Vec<String>>, Option<std::collections::BTreeMap<String, i32>>) = rows.single_row()?;
        (r.0, r.1)
    };
    check!(n.is_none() && b.is_none(), "null columns came back as {n:?}, {b:?}");
    println!("ok   prepared round trip");
    Ok(())
}

async fn test_paging(s: &Session, ks: &str) -> Res<()> {
    const PARTS: i32 = 5;
    const PER: i32 = 500; // 2,500 rows in all
    s.query_unpaged(
        format!("CREATE TABLE {ks}.paged (p int, c int, v text, PRIMARY KEY (p, c))"),
        &[],
    )
    .await?;
    let ins = s
        .prepare(format!("INSERT INTO {ks}.paged (p, c, v) VALUES (?, ?, ?)"))
        .await?;
    for p in 0..PARTS {
        // Unordered writes: the server must give them back in clustering order.
        for i in 0..PER {
            let c = (i * 7919) % PER;
            s.execute_unpaged(&ins, (p, c, format!("v{p}-{c}"))).await?;
        }
    }

    // execute_iter: the driver follows the paging state to the end.
    let mut sel = s
        .prepare(format!("SELECT p, c, v FROM {ks}.paged"))
        .await?;
    sel.set_page_size(1000);
    let mut stream = s.execute_iter(sel.clone(), &[]).await?.rows_stream::<(i32, i32, String)>()?;
    let mut count = 0usize;
    let mut seen_parts = std::collections::BTreeSet::new();
    let mut last: Option<(i32, i32)> = None;
    while let Some(row) = stream.next().await {
        let (p, c, v) = row?;
        check!(v == format!("v{p}-{c}"), "row ({p},{c}) has v={v:?}");
        if let Some((lp, lc)) = last {
            if lp == p {
                check!(c == lc + 1, "partition {p}: clustering {c} after {lc}, expected {}", lc + 1);
            } else {
                check!(!seen_parts.contains(&p), "partition {p} came back in two runs");
                check!(c == 0, "partition {p} starts at clustering {c}");
            }
        } else {
            check!(c == 0, "first row has clustering {c}");
        }
        seen_parts.insert(p);
        last = Some((p, c));
        count += 1;
    }
    check!(count == (PARTS * PER) as usize, "execute_iter saw {count} rows, expected {}", PARTS * PER);
    check!(seen_parts.len() == PARTS as usize, "saw {} partitions", seen_parts.len());

    // query_iter (unprepared) over one partition.
    let mut q = Statement::new(format!("SELECT c FROM {ks}.paged WHERE p = 3"));
    q.set_page_size(1000);
    let mut stream = s.query_iter(q, &[]).await?.rows_stream::<(i32,)>()?;
    let mut n = 0;
    while let Some(row) = stream.next().await {
        let (c,) = row?;
        check!(c == n, "query_iter: clustering {c} at position {n}");
        n += 1;
    }
    check!(n == PER, "query_iter over one partition saw {n} rows");

    // Page by hand: 1000, 1000, 500, and the last page says there is no more.
    let mut paging = PagingState::start();
    let mut sizes = Vec::new();
    loop {
        let (res, resp) = s.execute_single_page(&sel, &[], paging).await?;
        sizes.push(res.into_rows_result()?.rows_num());
        check!(sizes.len() <= 10, "execute_single_page never ended: {sizes:?}");
        match resp.into_paging_control_flow() {
            std::ops::ControlFlow::Break(()) => break,
            std::ops::ControlFlow::Continue(next) => paging = next,
        }
    }
    check!(sizes == vec![1000, 1000, 500], "page sizes {sizes:?}, expected [1000, 1000, 500]");
    println!("ok   paging (2,500 rows, page size 1000)");
    Ok(())
}

async fn test_errors(s: &Session, ks: &str) -> Res<()> {
    let err = s
        .query_unpaged(format!("SELECT * FROM {ks}.no_such_table"), &[])
        .await
        .err()
        .ok_or("SELECT from a missing table succeeded")?;
    match db_error(&err) {
        Some((DbError::Invalid, msg)) => {
            check!(msg.contains("no_such_table"), "Invalid message {msg:?} does not name the table")
        }
        other => return Err(format!("missing table: expected DbError::Invalid, got {other:?} ({err})").into()),
    }
    let err = s
        .prepare(format!("SELECT * FROM {ks}.no_such_table WHERE k = ?"))
        .await
        .err()
        .ok_or("PREPARE against a missing table succeeded")?;
    match &err {
        PrepareError::AllAttemptsFailed {
            first_attempt: RequestAttemptError::DbError(DbError::Invalid, _),
        } => {}
        other => return Err(format!("PREPARE of a missing table: expected DbError::Invalid, got {other:?}").into()),
    }
    let err = s
        .query_unpaged("SELEKT * FROM system.local", &[])
        .await
        .err()
        .ok_or("a syntax error succeeded")?;
    match db_error(&err) {
        Some((DbError::SyntaxError, _)) => {}
        other => return Err(format!("bad syntax: expected DbError::SyntaxError, got {other:?} ({err})").into()),
    }
    let err = s
        .query_unpaged(format!("CREATE TABLE {ks}.kv (k int PRIMARY KEY)"), &[])
        .await
        .err()
        .ok_or("CREATE TABLE of an existing table succeeded")?;
    match db_error(&err) {
        Some((DbError::AlreadyExists { keyspace, table }, _)) => {
            check!(keyspace == ks && table == "kv", "AlreadyExists names {keyspace}.{table}")
        }
        other => return Err(format!("existing table: expected DbError::AlreadyExists, got {other:?} ({err})").into()),
    }
    // The session still works after errors.
    let rows = s
        .query_unpaged("SELECT release_version FROM system.local", &[])
        .await?
        .into_rows_result()?;
    check!(rows.rows_num() == 1, "system.local has {} rows", rows.rows_num());
    println!("ok   errors (Invalid, SyntaxError, AlreadyExists)");
    Ok(())
}

async fn run(s: &Session, ks: &str) -> Res<()> {
    test_prepared_round_trip(s, ks).await?;
    test_paging(s, ks).await?;
    test_errors(s, ks).await?;
    Ok(())
}

#[tokio::main]
async fn main() {
    let host = env_or("CQL_HOST", "127.0.0.1");
    let port = env_or("CQL_PORT", "9042");
    if let Ok(v) = std::env::var("CQL_PROTOCOL") {
        if !v.is_empty() && v != "4" {
            println!("note: the scylla crate speaks protocol v4 only; CQL_PROTOCOL={v} ignored");
        }
    }
    let addr = format!("{host}:{port}");
    let session = match SessionBuilder::new().known_node(&addr).build().await {
        Ok(s) => s,
        Err(e) => {
            eprintln!("FAIL connect to {addr}: {e}");
            std::process::exit(1);
        }
    };
    println!("ok   connect {addr}");
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_nanos();
    let ks = format!("drv_rust_{}_{}", std::process::id(), nanos % 1_000_000_000);
    let created = session
        .query_unpaged(
            format!(
                "CREATE KEYSPACE {ks} WITH replication = \
                 {{'class': 'SimpleStrategy', 'replication_factor': 1}}"
            ),
            &[],
        )
        .await;
    if let Err(e) = created {
        eprintln!("FAIL create keyspace {ks}: {e}");
        std::process::exit(1);
    }
    let result = run(&session, &ks).await;
    let dropped = session.query_unpaged(format!("DROP KEYSPACE {ks}"), &[]).await;
    match (result, dropped) {
        (Ok(()), Ok(_)) => println!("rust: 3 passed, 0 failed"),
        (Ok(()), Err(e)) => {
            eprintln!("FAIL drop keyspace {ks}: {e}");
            std::process::exit(1);
        }
        (Err(e), _) => {
            eprintln!("FAIL {e}");
            std::process::exit(1);
        }
    }
}
