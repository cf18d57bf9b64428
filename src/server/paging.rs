//! Pages of a result, as a node's pager hands them out: all the rows when
//! unpaged, else `page_size` from where the paging state says the previous
//! page stopped.
//!
//! The paging state is the count of rows already sent and a fingerprint of
//! the statement and its values, so a state used with another statement,
//! or altered, is refused as Cassandra refuses a malformed one.

use crate::exec::ResultSet;
use crate::syntax::ast::Statement;

use super::handler::stable_hash;
use super::request::QueryParams;
use super::response::{self, Failure, Metadata, TableSpec};

/// Whether a page that ends full at the last row still carries a paging
/// state, as a node's pager does for a read of rows: it cannot tell it has
/// read the last row until a read comes back short, so the client asks once
/// more and gets an empty page (GROUP BY pages its groups the same way).
/// Not when the query's LIMIT cut the rows (the pager knows it is done),
/// nor for an aggregate over the whole selection, whose one row is all.
fn full_page_may_have_more(statement: &Statement, result: &ResultSet) -> bool {
    let Statement::Select(select) = statement else {
        return false;
    };
    if select.group_by.is_empty() && crate::planner::is_aggregate(select) {
        return false;
    }
    let limit = result.plan.as_ref().and_then(|p| p.limit.as_deref());
    match limit.map(str::parse::<usize>) {
        None => true,
        Some(Ok(limit)) => result.rows.len() < limit,
        Some(Err(_)) => false,
    }
}

/// [`page`] for the result of `statement`.
pub(super) fn page_of(
    result: &ResultSet,
    table: &TableSpec,
    params: &QueryParams,
    fingerprint: u64,
    metadata: Option<Metadata<'_>>,
    statement: &Statement,
) -> Result<Vec<u8>, Failure> {
    let more_after_full = full_page_may_have_more(statement, result);
    let next = page_bounds(result, params, fingerprint, more_after_full)?;
    encode_page(result, table, next, metadata)
}

/// One page of rows widerow made itself (DESCRIBE's, a control
/// statement's), all known up front: a full last page carries no paging
/// state.
pub(super) fn page(
    result: &ResultSet,
    table: &TableSpec,
    params: &QueryParams,
    fingerprint: u64,
    metadata: Option<Metadata<'_>>,
) -> Result<Vec<u8>, Failure> {
    let next = page_bounds(result, params, fingerprint, false)?;
    encode_page(result, table, next, metadata)
}

/// The rows of one page, and the paging state of the next.
struct PageBounds {
    start: usize,
    end: usize,
    next: Option<[u8; PAGING_STATE_LEN]>,
}

fn page_bounds(
    result: &ResultSet,
    params: &QueryParams,
    fingerprint: u64,
    more_after_full: bool,
) -> Result<PageBounds, Failure> {
    let total = result.rows.len();
    let start = match &params.paging_state {
        None => 0,
        Some(state) => paging_offset(state, fingerprint)?.min(total),
    };
    let (end, full) = match params.page_size {
        Some(n) if n > 0 => {
            let end = start.saturating_add(n as usize).min(total);
            (end, end - start == n as usize)
        }
        _ => (total, false),
    };
    let more = end < total || (more_after_full && full);
    let next = more.then(|| paging_state(end, fingerprint));
    Ok(PageBounds { start, end, next })
}

fn encode_page(
    result: &ResultSet,
    table: &TableSpec,
    PageBounds { start, end, next }: PageBounds,
    metadata: Option<Metadata<'_>>,
) -> Result<Vec<u8>, Failure> {
    let rows = (start..end).filter_map(|i| result.rows.get(i));
    Ok(response::rows(
        table,
        &result.columns,
        rows,
        end - start,
        next.as_ref().map(|s| s.as_slice()),
        metadata.unwrap_or(Metadata::Full { changed_id: None }),
    ))
}

const PAGING_STATE_LEN: usize = 16;

/// The offset, then a check over the offset and the statement's
/// fingerprint: any byte changed makes the check fail.
fn paging_state(offset: usize, fingerprint: u64) -> [u8; PAGING_STATE_LEN] {
    let offset = (offset as u64).to_be_bytes();
    let check = stable_hash(6, &[&offset, &fingerprint.to_be_bytes()]);
    let mut out = [0; PAGING_STATE_LEN];
    out[..8].copy_from_slice(&offset);
    out[8..].copy_from_slice(&check.to_be_bytes());
    out
}

fn paging_offset(state: &[u8], fingerprint: u64) -> Result<usize, Failure> {
    let invalid = || Failure::Protocol("Invalid value for the paging state".into());
    let state: [u8; PAGING_STATE_LEN] = state.try_into().map_err(|_| invalid())?;
    let mut offset = [0; 8];
    offset.copy_from_slice(&state[..8]);
    let offset = u64::from_be_bytes(offset);
    if paging_state(offset as usize, fingerprint) != state {
        return Err(invalid());
    }
    usize::try_from(offset).map_err(|_| invalid())
}

/// What a paging state is checked against: the statement and its values.
pub(super) fn fingerprint(statement: &[u8], values: &[u8]) -> u64 {
    stable_hash(1, &[statement, values])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_paging_state_for_another_statement_is_refused() {
        let state = paging_state(10, fingerprint(b"SELECT 1", &[]));
        assert_eq!(
            paging_offset(&state, fingerprint(b"SELECT 1", &[])).unwrap(),
            10
        );
        assert!(paging_offset(&state, fingerprint(b"SELECT 2", &[])).is_err());
        assert!(paging_offset(&state[..5], 0).is_err());
        let mut flipped = state;
        flipped[7] ^= 1;
        assert!(paging_offset(&flipped, fingerprint(b"SELECT 1", &[])).is_err());
    }
}
