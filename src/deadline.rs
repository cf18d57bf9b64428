//! Time limits on statements: a read that passes its deadline stops and
//! fails with ReadTimeout, as Cassandra's coordinator gives up after
//! `read_request_timeout` (`range_request_timeout` for scans), so one
//! runaway scan cannot hold a server (or the web page) for good.
//!
//! The deadline of the statement running on a thread is kept beside it
//! rather than passed through every executor function; the scans ask
//! [`passed`] between partitions, and read the clock only every few calls.

use std::cell::Cell;
use std::time::{Duration, Instant};

use crate::cluster::ConsistencyLevel;
use crate::error::{Error, ErrorInfo, ErrorKind};
use crate::planner::{Partitions, Plan, PlanContext};
use crate::syntax::ast::Statement;

/// How long a read may run before it stops with ReadTimeout, by kind, as
/// cassandra.yaml's `read_request_timeout` (reads of named partitions) and
/// `range_request_timeout` (scans of token ranges).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timeouts {
    /// Reads of one or more named partitions.
    pub read: Duration,
    /// Scans over token ranges (scatter-gather, `token(…)` ranges).
    pub range: Duration,
}

impl Default for Timeouts {
    /// Cassandra 5.0's defaults: 5 s and 10 s.
    fn default() -> Timeouts {
        Timeouts {
            read: Duration::from_millis(5_000),
            range: Duration::from_millis(10_000),
        }
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

/// When a read must stop: `timeouts`' range limit for scans of token
/// ranges, its read limit for reads of named partitions; writes have none.
pub(crate) fn read_deadline(
    timeouts: Option<Timeouts>,
    statement: &Statement,
    plan: &Plan,
) -> Option<Instant> {
    let timeouts = timeouts?;
    if !matches!(statement, Statement::Select(_)) {
        return None;
    }
    let limit = match plan.partitions {
        Partitions::Keys { .. } => timeouts.read,
        _ => timeouts.range,
    };
    Some(Instant::now() + limit)
}

/// A ReadTimeout from the executor, given the consistency level and the
/// responses it needed, as Cassandra's exception carries them.
pub(crate) fn with_timeout_info(error: Error, ctx: &PlanContext, plan: &Plan) -> Error {
    if error.kind() != ErrorKind::ReadTimeout || error.info().is_some() {
        return error;
    }
    let required = match &plan.partitions {
        Partitions::Keys { partitions } => partitions.first().map(|p| p.required),
        _ => None,
    };
    let required = required.unwrap_or_else(|| scan_block_for(ctx, plan));
    error.with_info(ErrorInfo::ReadTimeout {
        consistency: plan.consistency.clone(),
        received_responses: 0,
        required_responses: required,
        data_retrieved: false,
    })
}

/// The responses a scan at the plan's level waits for per range, counted
/// in the coordinator's data centre.
fn scan_block_for(ctx: &PlanContext, plan: &Plan) -> u32 {
    let keyspace = plan.table.split_once('.').map_or("", |(ks, _)| ks);
    let level = plan.consistency.parse::<ConsistencyLevel>();
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
