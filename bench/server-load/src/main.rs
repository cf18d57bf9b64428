//! One load run against one CQL server, printed as one JSON line:
//!
//!     widerow-server-load HOST:PORT WORKLOAD CONCURRENCY SECONDS [SERVER_PID]
//!
//! WORKLOAD is `setup` (creates keyspace `bench_load` with its data and
//! exits), `point` (prepared single-row reads), `insert` (prepared
//! inserts), `slice` (prepared 100-row partition reads) or `options` (an
//! OPTIONS/SUPPORTED round trip on raw connections: the wire's floor).
//! CONCURRENCY requests are kept in flight, each task sending its next
//! request when its last one answers. The line holds throughput, p50 and
//! p99 latency, the client's CPU share and, given SERVER_PID, the server's
//! CPU share and resident memory.

use std::error::Error;
use std::sync::Arc;
use std::time::{Duration, Instant};

use scylla::client::session::Session;
use scylla::client::session_builder::SessionBuilder;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

type Res<T> = Result<T, Box<dyn Error + Send + Sync>>;

const KEYS: i32 = 10_000;
const SLICE_PARTITIONS: i32 = 100;
const SLICE_ROWS: i32 = 100;

#[tokio::main]
async fn main() -> Res<()> {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 5 {
        return Err(
            "usage: widerow-server-load HOST:PORT WORKLOAD CONCURRENCY SECONDS [SERVER_PID]".into(),
        );
    }
    let (target, workload) = (args[1].clone(), args[2].as_str());
    let concurrency: usize = args[3].parse()?;
    let seconds: f64 = args[4].parse()?;
    let server_pid: Option<u32> = args.get(5).map(|p| p.parse()).transpose()?;
    if workload == "setup" {
        let session = SessionBuilder::new().known_node(&target).build().await?;
        return setup(&session).await;
    }
    let duration = Duration::from_secs_f64(seconds);
    let cpu_before = (cpu_ticks(None), server_pid.map(|p| cpu_ticks(Some(p))));
    let started = Instant::now();
    let latencies = match workload {
        "options" => options_load(&target, concurrency, duration).await?,
        _ => {
            let session = SessionBuilder::new().known_node(&target).build().await?;
            driver_load(Arc::new(session), workload, concurrency, duration).await?
        }
    };
    let wall = started.elapsed().as_secs_f64();
    report(
        workload,
        concurrency,
        latencies,
        wall,
        cpu_before,
        server_pid,
    );
    Ok(())
}

async fn setup(s: &Session) -> Res<()> {
    s.query_unpaged("DROP KEYSPACE IF EXISTS bench_load", &[])
        .await?;
    s.query_unpaged(
        "CREATE KEYSPACE bench_load WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}",
        &[],
    )
    .await?;
    s.query_unpaged(
        "CREATE TABLE bench_load.kv (k int PRIMARY KEY, v text)",
        &[],
    )
    .await?;
    s.query_unpaged(
        "CREATE TABLE bench_load.written (k int PRIMARY KEY, v text)",
        &[],
    )
    .await?;
    s.query_unpaged(
        "CREATE TABLE bench_load.slices (p int, c int, v text, PRIMARY KEY (p, c))",
        &[],
    )
    .await?;
    let kv = s
        .prepare("INSERT INTO bench_load.kv (k, v) VALUES (?, ?)")
        .await?;
    for k in 0..KEYS {
        s.execute_unpaged(&kv, (k, format!("value-{k}"))).await?;
    }
    let slice = s
        .prepare("INSERT INTO bench_load.slices (p, c, v) VALUES (?, ?, ?)")
        .await?;
    for p in 0..SLICE_PARTITIONS {
        for c in 0..SLICE_ROWS {
            s.execute_unpaged(&slice, (p, c, format!("row-{p}-{c}")))
                .await?;
        }
    }
    Ok(())
}

/// A small fast generator (xorshift): keys spread over the data without a
/// dependency.
fn next_key(state: &mut u64, modulo: i32) -> i32 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    (*state % modulo as u64) as i32
}

async fn driver_load(
    session: Arc<Session>,
    workload: &str,
    concurrency: usize,
    duration: Duration,
) -> Res<Vec<u32>> {
    let cql = match workload {
        "point" => "SELECT v FROM bench_load.kv WHERE k = ?",
        "insert" => "INSERT INTO bench_load.written (k, v) VALUES (?, 'written')",
        "slice" => "SELECT c, v FROM bench_load.slices WHERE p = ?",
        other => return Err(format!("unknown workload {other}").into()),
    };
    let prepared = Arc::new(session.prepare(cql).await?);
    let modulo = if workload == "slice" {
        SLICE_PARTITIONS
    } else {
        KEYS
    };
    let deadline = Instant::now() + duration;
    let mut tasks = Vec::new();
    for task in 0..concurrency {
        let (session, prepared) = (session.clone(), prepared.clone());
        tasks.push(tokio::spawn(async move {
            let mut latencies = Vec::new();
            let mut state = 0x9E37_79B9_7F4A_7C15u64 ^ (task as u64 + 1);
            while Instant::now() < deadline {
                let key = next_key(&mut state, modulo);
                let sent = Instant::now();
                session.execute_unpaged(&prepared, (key,)).await?;
                latencies.push(sent.elapsed().as_micros() as u32);
            }
            Res::Ok(latencies)
        }));
    }
    gather(tasks).await
}

/// OPTIONS/SUPPORTED round trips, one raw v4 connection per task: what a
/// request costs with no statement behind it.
async fn options_load(target: &str, concurrency: usize, duration: Duration) -> Res<Vec<u32>> {
    let deadline = Instant::now() + duration;
    let mut tasks = Vec::new();
    for _ in 0..concurrency {
        let mut stream = TcpStream::connect(target).await?;
        stream.set_nodelay(true)?;
        tasks.push(tokio::spawn(async move {
            let options = [0x04u8, 0, 0, 1, 0x05, 0, 0, 0, 0];
            let mut header = [0u8; 9];
            let mut body = Vec::new();
            let mut latencies = Vec::new();
            while Instant::now() < deadline {
                let sent = Instant::now();
                stream.write_all(&options).await?;
                stream.read_exact(&mut header).await?;
                let len = u32::from_be_bytes([header[5], header[6], header[7], header[8]]);
                body.resize(len as usize, 0);
                stream.read_exact(&mut body).await?;
                if header[4] != 0x06 {
                    return Err("OPTIONS was not answered with SUPPORTED".into());
                }
                latencies.push(sent.elapsed().as_micros() as u32);
            }
            Res::Ok(latencies)
        }));
    }
    gather(tasks).await
}

/// Every task's latencies, once all have finished.
async fn gather(tasks: Vec<tokio::task::JoinHandle<Res<Vec<u32>>>>) -> Res<Vec<u32>> {
    let mut all = Vec::new();
    for task in tasks {
        all.extend(task.await??);
    }
    Ok(all)
}

/// user + system CPU ticks of a process (this one when `None`).
fn cpu_ticks(pid: Option<u32>) -> u64 {
    let path = match pid {
        Some(p) => format!("/proc/{p}/stat"),
        None => "/proc/self/stat".to_string(),
    };
    let Ok(stat) = std::fs::read_to_string(path) else {
        return 0;
    };
    // Fields after the command name (which may hold spaces) in parentheses.
    let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<&str> = after.split_whitespace().collect();
    let field = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<u64>().ok())
            .unwrap_or(0)
    };
    field(11) + field(12)
}

fn resident_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

fn report(
    workload: &str,
    concurrency: usize,
    mut latencies: Vec<u32>,
    wall: f64,
    cpu_before: (u64, Option<u64>),
    server_pid: Option<u32>,
) {
    latencies.sort_unstable();
    let at = |q: f64| {
        if latencies.is_empty() {
            0
        } else {
            latencies[((latencies.len() - 1) as f64 * q) as usize]
        }
    };
    // Ticks are 1/100 s on Linux; a share is of the two cores.
    let share = |ticks: u64| ticks as f64 / 100.0 / wall / 2.0 * 100.0;
    let client = share(cpu_ticks(None).saturating_sub(cpu_before.0));
    let server = match (server_pid, cpu_before.1) {
        (Some(pid), Some(before)) => format!(
            ", \"server_cpu_pct\": {:.0}, \"server_rss_mib\": {:.0}",
            share(cpu_ticks(Some(pid)).saturating_sub(before)),
            resident_kib(pid) as f64 / 1024.0
        ),
        _ => String::new(),
    };
    println!(
        "{{\"workload\": \"{workload}\", \"concurrency\": {concurrency}, \"ops\": {}, \"ops_per_s\": {:.0}, \"p50_us\": {}, \"p99_us\": {}, \"client_cpu_pct\": {client:.0}{server}}}",
        latencies.len(),
        latencies.len() as f64 / wall,
        at(0.50),
        at(0.99),
    );
}
