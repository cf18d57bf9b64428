//! A count of the comparisons made between values and between syntax
//! terms, kept in debug builds only. Tests read it to check that the work
//! of a long IN list grows with the list, not with its square: a count does
//! not depend on how busy the machine is, so such a test cannot be flaky
//! the way a timed one is.

use std::cell::Cell;

thread_local! {
    static COMPARISONS: Cell<u64> = const { Cell::new(0) };
}

/// Counts one comparison (nothing at all in release builds).
#[inline(always)]
pub(crate) fn count_comparison() {
    #[cfg(debug_assertions)]
    COMPARISONS.with(|c| c.set(c.get() + 1));
}

/// The comparisons this thread has made so far: always 0 in a release
/// build, where nothing counts them.
pub fn comparisons() -> u64 {
    COMPARISONS.with(Cell::get)
}
