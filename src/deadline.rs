//! Time limits on statements: a read that passes its deadline stops and
//! fails with ReadTimeout, as Cassandra's coordinator gives up after
//! `read_request_timeout` (`range_request_timeout` for scans), so one
//! runaway scan cannot hold a server (or the web page) for good; a write
//! past `write_request_timeout` fails with WriteTimeout before anything of
//! it is applied.
//!
//! The deadline of the statement running on a thread is kept beside it
//! rather than passed through every executor function; the scans ask
//! [`passed`] between partitions, and read the clock only every few calls.

use std::cell::Cell;
use std::time::{Duration, Instant};

use crate::cluster::ConsistencyLevel;
use crate::error::{Error, ErrorInfo, ErrorKind, WriteType};
use crate::planner::{Partitions, Plan, PlanContext};
use crate::syntax::ast::Statement;

/// How long a statement may run before it stops with ReadTimeout or
/// WriteTimeout, by kind, as cassandra.yaml's `read_request_timeout`
/// (reads of named partitions), `range_request_timeout` (scans of token
/// ranges) and `write_request_timeout` (writes, counters and conditional
/// ones included).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timeouts {
    /// Reads of one or more named partitions.
    pub read: Duration,
    /// Scans over token ranges (scatter-gather, `token(…)` ranges).
    pub range: Duration,
    /// INSERT, UPDATE, DELETE and BATCH.
    pub write: Duration,
}

impl Default for Timeouts {
    /// Cassandra 5.0's defaults: 5 s, 10 s and 2 s.
    fn default() -> Timeouts {
        Timeouts {
            read: Duration::from_millis(5_000),
            range: Duration::from_millis(10_000),
            write: Duration::from_millis(2_000),
        }
    }
}

impl Timeouts {
    /// Whether they give `statement` no time at all (a zero limit): the compiled
    /// single-row paths, which never take long enough to look at the
    /// clock, then step aside so the statement times out as it must.
    pub(crate) fn leave_no_time(timeouts: Option<Timeouts>, statement: &Statement) -> bool {
        let Some(timeouts) = timeouts else {
            return false;
        };
        match statement {
            Statement::Select(_) => timeouts.read.is_zero() || timeouts.range.is_zero(),
            _ => timeouts.write.is_zero(),
        }
    }

    /// [`Timeouts::leave_no_time`] for writes.
    pub(crate) fn leave_no_time_to_write(timeouts: Option<Timeouts>) -> bool {
        timeouts.is_some_and(|t| t.write.is_zero())
    }
}

/// Partitions between two readings of the clock.
const CALLS_PER_CHECK: u32 = 32;

thread_local! {
    static DEADLINE: Cell<Option<Instant>> = const { Cell::new(None) };
    static CALLS: Cell<u32> = const { Cell::new(0) };
}

/// Runs `f` with `deadline` as the running statement's time limit (`None`:
/// none), then puts back the one before.
pub(crate) fn within<R>(deadline: Option<Instant>, f: impl FnOnce() -> R) -> R {
    let before = DEADLINE.with(|d| d.replace(deadline));
    CALLS.with(|c| c.set(0));
    let result = f();
    DEADLINE.with(|d| d.set(before));
    result
}

/// Whether the running statement is past its deadline, reading the clock
/// now: the last look a write takes before it is applied.
pub(crate) fn passed_now() -> bool {
    DEADLINE
        .with(Cell::get)
        .is_some_and(|deadline| Instant::now() >= deadline)
}

/// Whether the running statement is past its deadline (checked on the
/// first call and then every [`CALLS_PER_CHECK`] calls).
pub(crate) fn passed() -> bool {
    let Some(deadline) = DEADLINE.with(Cell::get) else {
        return false;
    };
    let calls = CALLS.with(|c| {
        let n = c.get();
        c.set(n.wrapping_add(1));
        n
    });
    calls % CALLS_PER_CHECK == 0 && Instant::now() >= deadline
}

/// When a statement must stop: `timeouts`' range limit for scans of token
/// ranges, its read limit for reads of named partitions, its write limit
/// for writes.
pub(crate) fn deadline(
    timeouts: Option<Timeouts>,
    statement: &Statement,
    plan: &Plan,
) -> Option<Instant> {
    let timeouts = timeouts?;
    let limit = match (statement, &plan.partitions) {
        (Statement::Select(_), Partitions::Keys { .. }) => timeouts.read,
        (Statement::Select(_), _) => timeouts.range,
        _ => timeouts.write,
    };
    Some(Instant::now() + limit)
}

/// The WriteTimeout a write past its deadline fails with, before the
/// session adds its numbers (see [`with_timeout_info`]).
pub(crate) fn write_timeout(conditional: bool) -> Error {
    let message = if conditional {
        // Cassandra's CasWriteTimeoutException; widerow's Paxos rounds
        // never contend (one statement runs at a time).
        "CAS operation timed out - encountered contentions: 0"
    } else {
        "Operation timed out - received only 0 responses."
    };
    Error::new(ErrorKind::WriteTimeout, message)
}

/// A ReadTimeout or WriteTimeout from the executor, given the consistency
/// level and the responses it needed (and for a write, its kind), as
/// Cassandra's exception carries them.
pub(crate) fn with_timeout_info(
    error: Error,
    ctx: &PlanContext,
    plan: &Plan,
    statement: &Statement,
) -> Error {
    if error.info().is_some() {
        return error;
    }
    let first = match &plan.partitions {
        Partitions::Keys { partitions } => partitions.first(),
        _ => None,
    };
    match error.kind() {
        ErrorKind::ReadTimeout => {
            let required = first
                .map(|p| p.required)
                .filter(|&r| r > 0)
                .unwrap_or_else(|| block_for(ctx, plan, &plan.consistency));
            error.with_info(ErrorInfo::ReadTimeout {
                consistency: plan.consistency.clone(),
                received_responses: 0,
                required_responses: required,
                data_retrieved: false,
            })
        }
        ErrorKind::WriteTimeout => {
            let partitions = match &plan.partitions {
                Partitions::Keys { partitions } => partitions.len(),
                _ => 1,
            };
            let write_type = write_type(ctx, statement, partitions);
            // A conditional write times out in its Paxos round, at the
            // serial level and the replicas that round waits for.
            // A partition bound at execution has no count in the plan: the
            // level's count over the keyspace's replicas stands in.
            if write_type == WriteType::BatchLog {
                let (consistency, required) = batch_log_level(ctx, plan);
                return error.with_info(ErrorInfo::WriteTimeout {
                    consistency: consistency.to_string(),
                    received_responses: 0,
                    required_responses: required,
                    write_type,
                });
            }
            let consistency = match first.and_then(|p| p.paxos.as_ref()) {
                _ if write_type != WriteType::Cas => plan.consistency.clone(),
                Some(paxos) => paxos.consistency.clone(),
                None => ctx.serial_consistency.name().to_string(),
            };
            let required = first
                .map(|p| match (&p.paxos, write_type) {
                    (Some(paxos), WriteType::Cas) => paxos.required,
                    _ => p.required,
                })
                .filter(|&r| r > 0)
                .unwrap_or_else(|| block_for(ctx, plan, &consistency));
            error.with_info(ErrorInfo::WriteTimeout {
                consistency,
                received_responses: 0,
                required_responses: required,
                write_type,
            })
        }
        _ => error,
    }
}

/// The kind of write `statement` is, as a WriteTimeout reports it:
/// conditional writes are CAS, writes to counter tables COUNTER (batched
/// or not), then batches of more than one partition by their kind — a
/// batch of one partition is written as one mutation, SIMPLE, as
/// Cassandra writes it. A logged batch times out in its batch log's write
/// (BATCH_LOG): nothing of it is applied, which is what a driver's retry
/// policy takes BATCH_LOG to mean (BATCH would tell it the batch log holds
/// the batch and will replay it).
fn write_type(ctx: &PlanContext, statement: &Statement, partitions: usize) -> WriteType {
    use crate::syntax::ast::{BatchKind, BatchStatement};
    let tables: Vec<(&crate::syntax::ast::QualifiedName, bool)> = match statement {
        Statement::Insert(i) => vec![(&i.table, i.if_not_exists)],
        Statement::Update(u) => vec![(&u.table, u.if_clause.is_some())],
        Statement::Delete(d) => vec![(&d.table, d.if_clause.is_some())],
        Statement::Batch(b) => b
            .statements
            .iter()
            .map(|s| match s {
                BatchStatement::Insert(i) => (&i.table, i.if_not_exists),
                BatchStatement::Update(u) => (&u.table, u.if_clause.is_some()),
                BatchStatement::Delete(d) => (&d.table, d.if_clause.is_some()),
            })
            .collect(),
        _ => Vec::new(),
    };
    let keyspace = ctx.keyspace.as_deref();
    let counter = |name| {
        ctx.catalog
            .resolve_table(keyspace, name)
            .is_ok_and(|t| t.is_counter_table())
    };
    if tables.iter().any(|(_, conditional)| *conditional) {
        WriteType::Cas
    } else if tables.iter().any(|(name, _)| counter(name)) {
        WriteType::Counter
    } else {
        match statement {
            Statement::Batch(_) if partitions < 2 => WriteType::Simple,
            Statement::Batch(b) if b.kind == BatchKind::Unlogged => WriteType::UnloggedBatch,
            Statement::Batch(_) => WriteType::BatchLog,
            _ => WriteType::Simple,
        }
    }
}

/// The level a batch log's write waits for (`ReplicaPlans.forBatchlogWrite`):
/// up to two live nodes of the coordinator's data centre other than
/// itself, TWO when there are two, else ONE.
fn batch_log_level(ctx: &PlanContext, plan: &Plan) -> (&'static str, u32) {
    let coordinator = ctx.ring.lookup(&plan.coordinator).ok();
    let local_dc = coordinator.map_or("", |n| ctx.ring.node(n).datacenter.as_str());
    let others = ctx
        .ring
        .nodes()
        .iter()
        .enumerate()
        .filter(|(i, node)| {
            node.up && node.datacenter == local_dc && coordinator.is_none_or(|c| c.0 != *i)
        })
        .count();
    if others >= 2 {
        ("TWO", 2)
    } else {
        ("ONE", 1)
    }
}

/// The responses `level` waits for over the plan's keyspace (per range,
/// for a scan), counted in the coordinator's data centre.
fn block_for(ctx: &PlanContext, plan: &Plan, level: &str) -> u32 {
    let keyspace = plan.table.split_once('.').map_or("", |(ks, _)| ks);
    let level = level.parse::<ConsistencyLevel>();
    let replication = ctx.catalog.keyspace(keyspace).map(|k| &k.replication);
    let local_dc = ctx
        .ring
        .lookup(&plan.coordinator)
        .map_or("", |n| ctx.ring.node(n).datacenter.as_str());
    match (level, replication) {
        (Ok(level), Some(replication)) => level.block_for(replication, local_dc),
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn only_a_deadline_in_the_past_has_passed() {
        assert!(!passed());
        let past = Instant::now() - Duration::from_millis(1);
        assert!(within(Some(past), passed));
        let future = Instant::now() + Duration::from_secs(60);
        assert!(!within(Some(future), passed));
        assert!(!passed());
    }
}
