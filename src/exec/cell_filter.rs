//! The per-row test of a filtering scan (`WHERE temperature > 30 ALLOW
//! FILTERING`), read straight from the row's cells.
//!
//! Such a scan tests one cell of every row of the table, most of which
//! fail. Built once per walk when every relation a row must still pass
//! compares a regular column, it tests a row without building a row view or
//! dispatching on the predicate, and compares a `double` as the integer key
//! of Java's order instead of through the general value comparison.

use crate::storage::{Row, Slot};
use crate::syntax::ast::Operator;
use crate::types::Value;

use super::restrict;

/// The cell comparisons every row of a walk must pass.
#[derive(Debug)]
pub(crate) struct CellFilter {
    tests: Vec<CellTest>,
}

#[derive(Debug)]
struct CellTest {
    /// The column's storage slot; `None`: never written, so no row passes.
    slot: Option<usize>,
    op: Operator,
    bound: Value,
    /// [`order_key`] of a `double` bound.
    double_key: Option<i64>,
}

impl CellFilter {
    /// A filter testing `column op bound` for each `(slot, op, bound)`.
    pub(crate) fn new<'v>(
        tests: impl IntoIterator<Item = (Option<usize>, Operator, &'v Value)>,
    ) -> CellFilter {
        let tests = tests
            .into_iter()
            .map(|(slot, op, bound)| CellTest {
                slot,
                op,
                double_key: match bound {
                    Value::Double(b) => Some(order_key(*b)),
                    _ => None,
                },
                bound: bound.clone(),
            })
            .collect();
        CellFilter { tests }
    }

    /// Whether `row` passes every test at `now_secs`, as
    /// [`restrict::matches`] would decide; `None` when a tested slot holds
    /// a collection, which only the general test reads.
    #[inline]
    pub(crate) fn passes(&self, row: &Row, now_secs: i64) -> Option<bool> {
        for test in &self.tests {
            let Some(slot) = test.slot.and_then(|s| row.slot(s)) else {
                return Some(false);
            };
            let Slot::Cell(cell) = slot else {
                return None;
            };
            if !test.holds(cell.live_value(now_secs)) {
                return Some(false);
            }
        }
        Some(true)
    }
}

impl CellTest {
    #[inline]
    fn holds(&self, found: Option<&Value>) -> bool {
        match (self.double_key, found) {
            (Some(bound), Some(Value::Double(v))) => {
                restrict::holds(self.op, order_key(*v).cmp(&bound))
            }
            _ => restrict::compare_holds(self.op, found, &self.bound),
        }
    }
}

/// An integer whose order is the order `Value::cmp` gives doubles: Java's,
/// where every NaN is one value above +∞ and −0.0 sorts below 0.0 — that
/// is, `f64::total_cmp` of the value with NaNs folded into one.
fn order_key(v: f64) -> i64 {
    let bits = if v.is_nan() { f64::NAN } else { v }.to_bits() as i64;
    bits ^ (((bits >> 63) as u64) >> 1) as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_double_key_orders_as_values_do() {
        let values = [
            f64::NEG_INFINITY,
            -1.5,
            -0.0,
            0.0,
            f64::MIN_POSITIVE,
            2.5,
            f64::INFINITY,
            f64::NAN,
            -f64::NAN,
        ];
        for a in values {
            for b in values {
                assert_eq!(
                    order_key(a).cmp(&order_key(b)),
                    Value::Double(a).cmp(&Value::Double(b)),
                    "{a} vs {b}"
                );
            }
        }
    }
}
