//! Cells: one column's value in one row, with the time it was written and
//! when it expires — what Cassandra's last-write-wins reconciliation needs.

use std::num::NonZeroI64;

use crate::types::Value;

/// When a cell written `USING TTL` stops being live.
///
/// Only the expiry second is kept: `ttl()` and SAVE count down from it, and
/// nothing reads the TTL as written. It is stored offset by `i64::MIN` in a
/// `NonZeroI64`, so that `Option<Expiry>`, in every cell, takes 8 bytes
/// instead of 16 — a saving on every cell of every row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Expiry {
    /// `expires_at ^ i64::MIN`: never zero, since `expires_at` is never
    /// `i64::MIN` (see [`Expiry::at`]).
    encoded: NonZeroI64,
}

impl Expiry {
    /// An expiry `ttl` seconds after `now_secs`; `None` for a TTL of 0.
    pub fn after(ttl: i32, now_secs: i64) -> Option<Expiry> {
        if ttl <= 0 {
            return None;
        }
        Some(Expiry::at(now_secs + i64::from(ttl)))
    }

    /// An expiry at second `expires_at`. `i64::MIN`, which no clock
    /// reaches, is kept as `i64::MIN + 1`: dead at every reachable second
    /// either way.
    pub fn at(expires_at: i64) -> Expiry {
        let encoded = NonZeroI64::new(expires_at.max(i64::MIN + 1) ^ i64::MIN);
        Expiry {
            encoded: encoded.unwrap_or(NonZeroI64::MIN),
        }
    }

    /// The second (since the epoch) from which it is dead.
    pub fn expires_at(&self) -> i64 {
        self.encoded.get() ^ i64::MIN
    }

    /// Whether it has passed at `now_secs`.
    pub fn has_passed(&self, now_secs: i64) -> bool {
        now_secs >= self.expires_at()
    }
}

/// A written value, or a tombstone (`value: None`), with its write time.
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    /// The value; `None` for a deletion.
    pub value: Option<Value>,
    /// Write time, microseconds since the epoch.
    pub timestamp: i64,
    /// When it expires, if written with a TTL.
    pub expiry: Option<Expiry>,
}

impl Cell {
    /// A live value.
    pub fn live(value: Value, timestamp: i64, expiry: Option<Expiry>) -> Cell {
        Cell {
            value: Some(value),
            timestamp,
            expiry,
        }
    }

    /// A deletion at `timestamp`.
    pub fn tombstone(timestamp: i64) -> Cell {
        Cell {
            value: None,
            timestamp,
            expiry: None,
        }
    }

    /// The value if the cell is live at `now_secs`.
    pub fn live_value(&self, now_secs: i64) -> Option<&Value> {
        match (&self.value, self.expiry) {
            (Some(_), Some(e)) if e.has_passed(now_secs) => None,
            (value, _) => value.as_ref(),
        }
    }

    /// Whether `self`, arriving, replaces `existing` under Cassandra 5.0's
    /// reconciliation (`Cells.resolveRegular`, CASSANDRA-14592): the higher
    /// timestamp wins. On a tie a tombstone or expiring cell beats a plain
    /// live one whatever the clock says; between those, a tombstone beats an
    /// expiring cell, then the later deletion time wins; otherwise the
    /// greater serialized value wins.
    pub fn supersedes(&self, existing: &Cell) -> bool {
        if self.timestamp != existing.timestamp {
            return self.timestamp > existing.timestamp;
        }
        let (mine, theirs) = (
            self.is_expiring_or_tombstone(),
            existing.is_expiring_or_tombstone(),
        );
        if mine || theirs {
            if mine != theirs {
                return mine;
            }
            let (mine, theirs) = (self.value.is_none(), existing.value.is_none());
            if mine != theirs {
                return mine;
            }
            if self.deletion_time() != existing.deletion_time() {
                return self.deletion_time() > existing.deletion_time();
            }
        }
        match (&self.value, &existing.value) {
            (Some(a), Some(b)) => {
                let (a, b) = (
                    a.serialize().unwrap_or_default(),
                    b.serialize().unwrap_or_default(),
                );
                a > b
            }
            _ => false,
        }
    }

    /// A tombstone or a cell written with a TTL: what Cassandra gives a
    /// local deletion time.
    fn is_expiring_or_tombstone(&self) -> bool {
        self.value.is_none() || self.expiry.is_some()
    }

    fn deletion_time(&self) -> i64 {
        self.expiry.map_or(i64::MAX, |e| e.expires_at())
    }
}

/// The liveness marker an INSERT writes: the row exists while it is live,
/// even with every regular column null.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Liveness {
    /// Write time, microseconds.
    pub timestamp: i64,
    /// Expiry of an INSERT written with a TTL.
    pub expiry: Option<Expiry>,
}

impl Liveness {
    /// Whether the marker keeps the row alive at `now_secs`.
    pub fn is_live(&self, now_secs: i64) -> bool {
        self.expiry.is_none_or(|e| !e.has_passed(now_secs))
    }
}

/// One element of a non-frozen collection: a list position, a set member
/// or a map entry, each reconciled on its own as in Cassandra.
#[derive(Debug, Clone, PartialEq)]
pub struct Element {
    /// The list position key, the set member or the map key.
    pub key: Value,
    /// The cell: for a set member its value is `Value::Null`; for a list
    /// element or a map entry the element's value.
    pub cell: Cell,
}

/// A non-frozen collection's cells: a collection-wide deletion time and the
/// elements, sorted by key.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Collection {
    /// Elements written at or before this time are deleted (a whole
    /// collection overwrite deletes at its timestamp − 1).
    pub deleted_at: Option<i64>,
    /// The elements, sorted by key, tombstones included.
    pub elements: Vec<Element>,
}

impl Collection {
    /// Writes one element cell, reconciling with what is there.
    pub fn write(&mut self, key: Value, cell: Cell) {
        if self.deleted_at.is_some_and(|d| cell.timestamp <= d) {
            return;
        }
        match self.elements.binary_search_by(|e| e.key.cmp(&key)) {
            Ok(i) => {
                if cell.supersedes(&self.elements[i].cell) {
                    self.elements[i].cell = cell;
                }
            }
            Err(i) => self.elements.insert(i, Element { key, cell }),
        }
    }

    /// Deletes everything written at or before `timestamp`.
    pub fn delete_at(&mut self, timestamp: i64) {
        if self.deleted_at.is_none_or(|d| d < timestamp) {
            self.deleted_at = Some(timestamp);
        }
        self.elements.retain(|e| e.cell.timestamp > timestamp);
    }

    /// The live elements at `now_secs`.
    pub fn live(&self, now_secs: i64) -> impl Iterator<Item = (&Value, &Value)> + '_ {
        self.elements
            .iter()
            .filter_map(move |e| e.cell.live_value(now_secs).map(|v| (&e.key, v)))
    }

    /// The latest write time among live elements.
    pub fn max_timestamp(&self, now_secs: i64) -> Option<i64> {
        self.elements
            .iter()
            .filter(|e| e.cell.live_value(now_secs).is_some())
            .map(|e| e.cell.timestamp)
            .max()
    }
}

/// What a row holds for one column.
#[derive(Debug, Clone, PartialEq)]
pub enum Slot {
    /// A single cell (any frozen or scalar type, counters).
    Cell(Cell),
    /// A non-frozen list, set or map.
    Collection(Collection),
}

impl Slot {
    /// Drops what a deletion at `timestamp` covers; false if nothing is left.
    pub fn purge(&mut self, timestamp: i64) -> bool {
        match self {
            Slot::Cell(c) => c.timestamp > timestamp,
            Slot::Collection(c) => {
                c.delete_at(timestamp);
                true
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expiry_round_trips_and_keeps_cells_compact() {
        for at in [i64::MIN + 1, -1, 0, 1, 1_700_000_000, i64::MAX] {
            assert_eq!(Expiry::at(at).expires_at(), at);
        }
        assert_eq!(Expiry::at(i64::MIN).expires_at(), i64::MIN + 1);
        assert_eq!(Expiry::after(0, 5), None);
        assert_eq!(Expiry::after(-3, 5), None);
        assert_eq!(Expiry::after(10, 5).map(|e| e.expires_at()), Some(15));
        assert_eq!(std::mem::size_of::<Option<Expiry>>(), 8);
        assert_eq!(std::mem::size_of::<Cell>(), 48);
        assert_eq!(std::mem::size_of::<Option<Slot>>(), 48);
    }
}
