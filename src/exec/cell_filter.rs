//! The per-row test of a filtering scan (`WHERE temperature > 30 ALLOW
//! FILTERING`), read straight from the row's cells.
//!
//! Such a scan tests one cell of every row of the table, most of which
//! fail. Built once per walk when every relation a row must still pass
//! compares a regular column, it tests a row without building a row view or
//! dispatching on the predicate, and compares a `double` as the integer key
//! of Java's order instead of through the general value comparison.

use crate::storage::{Compact, StoredRow};
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
    /// For a `double` bound, the [`order_key`]s of the doubles that pass,
    /// as an inclusive range (empty when `lo > hi`); `None` for `!=`.
    doubles: Option<(i64, i64)>,
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
                doubles: match bound {
                    Value::Double(b) => passing_keys(op, order_key(*b)),
                    _ => None,
                },
                bound: bound.clone(),
            })
            .collect();
        CellFilter { tests }
    }

    /// Whether `row` is packed, live at `now_secs` and fails a test: the
    /// common row of a filtering scan, answered without a call.
    #[inline(always)]
    pub(crate) fn rejects_live_packed(&self, row: &StoredRow, now_secs: i64) -> bool {
        row.live_packed_cells(now_secs).is_some_and(|cells| {
            !self.tests.iter().all(|test| test.holds_packed(cells)) && row.is_live(now_secs)
        })
    }

    /// Whether `row` passes every test at `now_secs`, as
    /// [`restrict::matches`] would decide; `None` when a tested slot holds
    /// a collection, which only the general test reads.
    #[inline]
    pub(crate) fn passes(&self, row: &StoredRow, now_secs: i64) -> Option<bool> {
        if let Some(cells) = row.live_packed_cells(now_secs) {
            return Some(self.tests.iter().all(|test| test.holds_packed(cells)));
        }
        for test in &self.tests {
            let Some(slot) = test.slot else {
                return Some(false);
            };
            if !row
                .test_live_value(slot, now_secs, |v| test.holds(v))
                .ok()?
            {
                return Some(false);
            }
        }
        Some(true)
    }
}

impl CellTest {
    /// [`CellTest::holds`] on a packed row's live values, testing a packed
    /// double without rebuilding it as a [`Value`].
    #[inline]
    fn holds_packed(&self, cells: &[Option<Compact>]) -> bool {
        let Some(slot) = self.slot else {
            return false;
        };
        match (self.doubles, cells.get(slot).and_then(Option::as_ref)) {
            (Some((lo, hi)), Some(Compact::Double(v))) => (lo..=hi).contains(&order_key(*v)),
            (_, Some(found)) => found.with_value(|v| self.holds(Some(v))),
            (_, None) => self.holds(None),
        }
    }

    #[inline]
    fn holds(&self, found: Option<&Value>) -> bool {
        match (self.doubles, found) {
            (Some((lo, hi)), Some(Value::Double(v))) => (lo..=hi).contains(&order_key(*v)),
            _ => restrict::compare_holds(self.op, found, &self.bound),
        }
    }
}

/// The keys `k` with `k op bound` (`bound` a key), as an inclusive range.
fn passing_keys(op: Operator, bound: i64) -> Option<(i64, i64)> {
    let empty = (i64::MAX, i64::MIN);
    let above = |k: i64| k.checked_add(1).map_or(empty, |lo| (lo, i64::MAX));
    let below = |k: i64| k.checked_sub(1).map_or(empty, |hi| (i64::MIN, hi));
    match op {
        Operator::Eq => Some((bound, bound)),
        Operator::Ne => None,
        Operator::Lt => Some(below(bound)),
        Operator::Le => Some((i64::MIN, bound)),
        Operator::Gt => Some(above(bound)),
        Operator::Ge => Some((bound, i64::MAX)),
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
    fn a_double_test_holds_as_the_general_comparison_does() {
        let values = [
            f64::NEG_INFINITY,
            -2.0,
            -0.0,
            0.0,
            2.0,
            f64::INFINITY,
            f64::NAN,
        ];
        let ops = [
            Operator::Eq,
            Operator::Ne,
            Operator::Lt,
            Operator::Le,
            Operator::Gt,
            Operator::Ge,
        ];
        for op in ops {
            for b in values {
                let bound = Value::Double(b);
                let filter = CellFilter::new([(Some(0), op, &bound)]);
                for v in values {
                    let found = Value::Double(v);
                    let general = restrict::compare_holds(op, Some(&found), &bound);
                    assert_eq!(
                        filter.tests[0].holds(Some(&found)),
                        general,
                        "{v} {op:?} {b}"
                    );
                    let packed = [Some(Compact::Double(v))];
                    assert_eq!(
                        filter.tests[0].holds_packed(&packed),
                        general,
                        "{v} {op:?} {b}"
                    );
                }
                assert!(!filter.tests[0].holds(None));
                assert!(!filter.tests[0].holds_packed(&[]));
                assert!(!filter.tests[0].holds_packed(&[None]));
            }
        }
        assert_eq!(
            passing_keys(Operator::Gt, i64::MAX),
            Some((i64::MAX, i64::MIN))
        );
        assert_eq!(
            passing_keys(Operator::Lt, i64::MIN),
            Some((i64::MAX, i64::MIN))
        );
    }

    #[test]
    fn a_packed_value_of_another_type_is_tested_as_its_value() {
        let bound = Value::Int(5);
        for op in [Operator::Eq, Operator::Ne, Operator::Lt, Operator::Ge] {
            let filter = CellFilter::new([(Some(1), op, &bound)]);
            for v in [4, 5, 6] {
                let packed = [None, Some(Compact::Int(v))];
                let general = restrict::compare_holds(op, Some(&Value::Int(v)), &bound);
                assert_eq!(filter.tests[0].holds_packed(&packed), general, "{v} {op:?}");
            }
        }
        let unwritten = CellFilter::new([(None, Operator::Ne, &bound)]);
        assert!(!unwritten.tests[0].holds_packed(&[Some(Compact::Int(1))]));
    }

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
