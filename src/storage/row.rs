//! A row: its liveness marker, its deletion time and one slot per column.
//!
//! This is the form the write logic works on and the one a packed row
//! unpacks to; tables keep rows as [`super::StoredRow`], which packs the
//! common case into far less memory.

use smallvec::SmallVec;

use super::cell::{Cell, Collection, Liveness, Slot};

/// How many column slots a row holds inline, in the row itself, before its
/// cells move to a heap buffer of their own. Rows of a few columns — the
/// common time-series shape — then cost no allocation of their own and a
/// scan reads their cells without a second cache miss per row.
pub const INLINE_SLOTS: usize = 3;

/// A row's cells by storage slot.
pub type Slots = SmallVec<[Option<Slot>; INLINE_SLOTS]>;

/// One clustering row (or a partition's static row).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Row {
    /// Written by INSERT: keeps the row alive with every column null.
    pub liveness: Option<Liveness>,
    /// Everything written at or before this time is deleted.
    pub deleted_at: Option<i64>,
    /// Cells by the table's storage slot (see [`super::TableData::slot`]).
    pub cells: Slots,
}

impl Row {
    /// The slot of column `slot`, if anything was written to it.
    pub fn slot(&self, slot: usize) -> Option<&Slot> {
        self.cells.get(slot).and_then(Option::as_ref)
    }

    fn slot_mut(&mut self, slot: usize) -> &mut Option<Slot> {
        if self.cells.len() <= slot {
            self.cells.resize(slot + 1, None);
        }
        &mut self.cells[slot]
    }

    fn shadowed(&self, timestamp: i64, floor: Option<i64>) -> bool {
        self.deleted_at.max(floor).is_some_and(|d| timestamp <= d)
    }

    /// Writes the INSERT marker unless a deletion covers it. Two markers
    /// are reconciled as `LivenessInfo.supersedes` does: the later write
    /// wins; at the same time an expired one beats a live one, then between
    /// two expiring (or two plain) markers the later expiry wins, and an
    /// expiring marker beats a plain one.
    pub fn write_liveness(&mut self, liveness: Liveness, floor: Option<i64>, now_secs: i64) {
        if self.shadowed(liveness.timestamp, floor) {
            return;
        }
        let replace = match self.liveness {
            None => true,
            Some(old) if old.timestamp != liveness.timestamp => liveness.timestamp > old.timestamp,
            Some(old) if old.is_live(now_secs) != liveness.is_live(now_secs) => {
                !liveness.is_live(now_secs)
            }
            Some(old) if old.expiry.is_some() == liveness.expiry.is_some() => {
                let end = |l: Liveness| l.expiry.map_or(i64::MAX, |e| e.expires_at());
                end(liveness) > end(old)
            }
            Some(_) => liveness.expiry.is_some(),
        };
        if replace {
            self.liveness = Some(liveness);
        }
    }

    /// Writes one simple cell, reconciling with the one there.
    pub fn write_cell(&mut self, slot: usize, cell: Cell, floor: Option<i64>) {
        if self.shadowed(cell.timestamp, floor) {
            return;
        }
        let target = self.slot_mut(slot);
        match target {
            Some(Slot::Cell(old)) if !cell.supersedes(old) => {}
            _ => *target = Some(Slot::Cell(cell)),
        }
    }

    /// The collection in `slot`, created empty if absent (replacing a
    /// simple cell, which a collection column never holds).
    pub fn collection_mut(&mut self, slot: usize) -> Option<&mut Collection> {
        let target = self.slot_mut(slot);
        if !matches!(target, Some(Slot::Collection(_))) {
            *target = Some(Slot::Collection(Collection::default()));
        }
        match target {
            Some(Slot::Collection(c)) => Some(c),
            _ => None,
        }
    }

    /// Deletes the row's content written at or before `timestamp`.
    pub fn delete_at(&mut self, timestamp: i64) {
        if self.deleted_at.is_none_or(|d| d < timestamp) {
            self.deleted_at = Some(timestamp);
        }
        self.purge(timestamp);
    }

    /// Drops what a deletion at `timestamp` (of the row, its range or its
    /// partition) covers.
    pub fn purge(&mut self, timestamp: i64) {
        if self.liveness.is_some_and(|l| l.timestamp <= timestamp) {
            self.liveness = None;
        }
        for slot in &mut self.cells {
            if let Some(s) = slot {
                if !s.purge(timestamp) {
                    *slot = None;
                }
            }
        }
    }

    /// Whether the row exists at `now_secs`: a live INSERT marker or any
    /// live cell.
    pub fn is_live(&self, now_secs: i64) -> bool {
        self.liveness.is_some_and(|l| l.is_live(now_secs))
            || self.cells.iter().flatten().any(|slot| match slot {
                Slot::Cell(c) => c.live_value(now_secs).is_some(),
                Slot::Collection(c) => c.live(now_secs).next().is_some(),
            })
    }

    /// Whether any cell (not the marker) is live: what keeps a static row,
    /// which has no marker of its own, visible.
    pub fn has_live_cells(&self, now_secs: i64) -> bool {
        self.cells.iter().flatten().any(|slot| match slot {
            Slot::Cell(c) => c.live_value(now_secs).is_some(),
            Slot::Collection(c) => c.live(now_secs).next().is_some(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_few_cells_live_inside_the_row() {
        // The marker, the deletion time and three 48-byte slots, inline.
        assert_eq!(std::mem::size_of::<Row>(), 192);
        let mut row = Row::default();
        row.write_cell(INLINE_SLOTS - 1, Cell::tombstone(1), None);
        assert!(!row.cells.spilled());
        row.write_cell(INLINE_SLOTS, Cell::tombstone(1), None);
        assert!(row.cells.spilled());
        assert!(row.slot(INLINE_SLOTS).is_some());
    }
}
