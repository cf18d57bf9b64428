//! Seeing the plan: EXPLAIN, the TRACING view and the CLUSTER commands.

use crate::error::Error;
use crate::exec::ResultSet;
use crate::planner::Plan;
use crate::session::Session;

/// `EXPLAIN <statement>`: the plan, without running it.
pub fn explain(_session: &Session, plan: &Plan) -> String {
    plan.to_string()
}

/// What TRACING ON prints after a query's result.
pub fn trace(_session: &Session, _cql: &str, result: &ResultSet, _color: bool) -> String {
    result
        .plan
        .as_ref()
        .map(|p| p.to_string())
        .unwrap_or_default()
}

/// `CLUSTER [NODES n | DOWN node | UP node]`.
pub fn cluster(_session: &mut Session, rest: &str) -> Result<String, Error> {
    Err(Error::invalid(format!(
        "CLUSTER {rest} is not available yet"
    )))
}
