//! How a table keeps a row: packed when its cells were written together,
//! as a [`Row`] otherwise.
//!
//! Most rows are written by one INSERT and never touched again: a marker
//! and a few cells that share one write time and one expiry, with values of
//! fixed width. Kept as a [`Row`], every cell repeats that time and expiry
//! beside a 32-byte value, some 192 bytes a row; a scan then reads three
//! cache lines per row and a million rows take hundreds of megabytes.
//! Packed, the time and expiry are kept once and each value in 16 bytes
//! (fixed-width values inline, others boxed): 64 bytes a row.
//!
//! Packing is a lossless encoding of a [`Row`], chosen whenever the row
//! fits it: a row with a deletion, a tombstone, a collection, cells
//! written at different times, or an expiry without a marker stays a
//! [`Row`] (boxed, so that it costs a packed row only a pointer). Reads go through [`StoredRow`]'s accessors,
//! which hand out values by [`Cow`]: borrowed where a value is kept as a
//! [`Value`], built on the spot where it is packed. Writes go through
//! [`StoredRow::edit`], which unpacks the row, lets the write logic of
//! [`Row`] run unchanged, and packs it again.

use std::borrow::Cow;
use std::fmt;
use std::ops::{Deref, DerefMut};

use smallvec::SmallVec;

use super::cell::{Cell, Collection, Expiry, Liveness, Slot};
use super::compact::Compact;
use super::row::{Row, Slots, INLINE_SLOTS};
use crate::types::Value;

/// A row as a table keeps it.
#[derive(Clone, Default)]
pub struct StoredRow(Repr);

#[derive(Clone)]
enum Repr {
    Packed(Packed),
    Expanded(Box<Row>),
}

impl Default for Repr {
    fn default() -> Repr {
        Repr::Packed(Packed::default())
    }
}

/// A row whose marker (if any) and cells share one write time and expiry,
/// with no deletion and no tombstone.
#[derive(Clone, Default)]
struct Packed {
    /// The write time of the marker and of every cell.
    stamp: i64,
    /// Whether the row has a marker, and when the row expires.
    life: Life,
    /// The values by storage slot; `None` where nothing was written.
    cells: PackedCells,
}

/// A packed row's marker and expiry in 8 bytes: `0` for a row without a
/// marker, `1` for a marker without expiry, and otherwise a marker expiring
/// at the [`Expiry`] whose encoding the value is. A row with an expiry and
/// no marker (written by `UPDATE … USING TTL`) is not packed.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
struct Life(u64);

impl Life {
    const UNMARKED: Life = Life(0);
    const MARKED: Life = Life(1);

    fn new(marker: bool, expiry: Option<Expiry>) -> Option<Life> {
        match (marker, expiry) {
            (false, None) => Some(Life::UNMARKED),
            (true, None) => Some(Life::MARKED),
            (true, Some(e)) => {
                let bits = (e.expires_at() ^ i64::MIN) as u64;
                (bits > Life::MARKED.0).then_some(Life(bits))
            }
            (false, Some(_)) => None,
        }
    }

    fn marker(self) -> bool {
        self != Life::UNMARKED
    }

    fn expiry(self) -> Option<Expiry> {
        (self.0 > Life::MARKED.0).then(|| Expiry::at(self.0 as i64 ^ i64::MIN))
    }

    fn is_live(self, now_secs: i64) -> bool {
        self.expiry().is_none_or(|e| !e.has_passed(now_secs))
    }
}

type CompactSlots = SmallVec<[Option<Compact>; INLINE_SLOTS]>;

/// A packed row's values by slot: a few inline, more in a buffer of their
/// own. Trailing empty slots are not kept.
#[derive(Clone)]
enum PackedCells {
    Inline([Option<Compact>; INLINE_SLOTS]),
    Spilled(Box<[Option<Compact>]>),
}

impl Default for PackedCells {
    fn default() -> PackedCells {
        PackedCells::Inline(Default::default())
    }
}

impl PackedCells {
    /// The values of `slots`, which hold only live simple cells.
    fn new(slots: Slots) -> PackedCells {
        let len = slots.iter().rposition(Option::is_some).map_or(0, |i| i + 1);
        let compact = |slot: Option<Slot>| match slot {
            Some(Slot::Cell(Cell { value: Some(v), .. })) => Some(Compact::new(v)),
            _ => None,
        };
        if len > INLINE_SLOTS {
            return PackedCells::Spilled(slots.into_iter().take(len).map(compact).collect());
        }
        let mut inline: [Option<Compact>; INLINE_SLOTS] = Default::default();
        for (target, slot) in inline.iter_mut().zip(slots) {
            *target = compact(slot);
        }
        PackedCells::Inline(inline)
    }

    fn as_slice(&self) -> &[Option<Compact>] {
        match self {
            PackedCells::Inline(cells) => cells,
            PackedCells::Spilled(cells) => cells,
        }
    }

    /// The slots up to the last one written.
    fn into_slots(self) -> CompactSlots {
        let mut cells = match self {
            PackedCells::Inline(cells) => SmallVec::from_buf(cells),
            PackedCells::Spilled(cells) => SmallVec::from_vec(cells.into_vec()),
        };
        while cells.last().is_some_and(Option::is_none) {
            cells.pop();
        }
        cells
    }
}

/// One simple cell of a stored row, read in place.
#[derive(Debug, Clone, PartialEq)]
pub struct CellRef<'a> {
    /// The value; `None` for a deletion.
    pub value: Option<Cow<'a, Value>>,
    /// Write time, microseconds since the epoch.
    pub timestamp: i64,
    /// When it expires, if written with a TTL.
    pub expiry: Option<Expiry>,
}

impl<'a> CellRef<'a> {
    fn of(cell: &'a Cell) -> CellRef<'a> {
        CellRef {
            value: cell.value.as_ref().map(Cow::Borrowed),
            timestamp: cell.timestamp,
            expiry: cell.expiry,
        }
    }

    /// Whether the cell holds a value that is live at `now_secs`.
    pub fn is_live(&self, now_secs: i64) -> bool {
        self.value.is_some() && self.expiry.is_none_or(|e| !e.has_passed(now_secs))
    }

    /// The value if the cell is live at `now_secs` (see [`Cell::live_value`]).
    pub fn live_value(&self, now_secs: i64) -> Option<&Value> {
        self.value.as_deref().filter(|_| self.is_live(now_secs))
    }

    /// The value if the cell is live at `now_secs`, for as long as the row.
    pub fn into_live_value(self, now_secs: i64) -> Option<Cow<'a, Value>> {
        let live = self.is_live(now_secs);
        self.value.filter(|_| live)
    }

    /// The cell as written, owning its value.
    pub fn to_cell(&self) -> Cell {
        Cell {
            value: self.value.as_deref().cloned(),
            timestamp: self.timestamp,
            expiry: self.expiry,
        }
    }
}

/// What a stored row holds for one column.
#[derive(Debug, Clone, PartialEq)]
pub enum SlotRef<'a> {
    /// A single cell.
    Cell(CellRef<'a>),
    /// A non-frozen collection.
    Collection(&'a Collection),
}

/// A live value as a stored row keeps it.
enum Live<'a> {
    Packed(&'a Compact),
    Stored(&'a Value),
}

/// What [`StoredRow::live_value`] finds in a collection's slot, which holds
/// no single value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IsCollection;

impl SlotRef<'_> {
    /// The slot as written, owning its contents.
    pub fn to_slot(&self) -> Slot {
        match self {
            SlotRef::Cell(cell) => Slot::Cell(cell.to_cell()),
            SlotRef::Collection(c) => Slot::Collection((*c).clone()),
        }
    }
}

impl StoredRow {
    /// `row`, packed if it fits.
    pub fn new(mut row: Row) -> StoredRow {
        match Packed::of(&mut row) {
            Some(packed) => StoredRow(Repr::Packed(packed)),
            None => StoredRow(Repr::Expanded(Box::new(row))),
        }
    }

    /// Whether the row is kept packed (for tests and measurements).
    pub fn is_packed(&self) -> bool {
        matches!(self.0, Repr::Packed(_))
    }

    /// The row as a [`Row`], copied.
    pub fn to_row(&self) -> Row {
        self.clone().into_row()
    }

    /// The row as a [`Row`].
    pub fn into_row(self) -> Row {
        match self.0 {
            Repr::Packed(packed) => packed.into_row(),
            Repr::Expanded(row) => *row,
        }
    }

    /// The row unpacked for writing; packed again when the edit is dropped.
    pub fn edit(&mut self) -> RowEdit<'_> {
        let row = match std::mem::take(&mut self.0) {
            Repr::Packed(packed) => Editing::Unpacked(packed.into_row()),
            Repr::Expanded(row) => Editing::Boxed(row),
        };
        RowEdit { stored: self, row }
    }

    /// The INSERT marker.
    pub fn liveness(&self) -> Option<Liveness> {
        match &self.0 {
            Repr::Packed(p) => p.life.marker().then_some(Liveness {
                timestamp: p.stamp,
                expiry: p.life.expiry(),
            }),
            Repr::Expanded(row) => row.liveness,
        }
    }

    /// The row deletion's time.
    pub fn deleted_at(&self) -> Option<i64> {
        match &self.0 {
            Repr::Packed(_) => None,
            Repr::Expanded(row) => row.deleted_at,
        }
    }

    /// What slot `slot` holds, if anything was written to it.
    pub fn slot(&self, slot: usize) -> Option<SlotRef<'_>> {
        match &self.0 {
            Repr::Packed(p) => p.cell(slot).map(SlotRef::Cell),
            Repr::Expanded(row) => row.slot(slot).map(|s| match s {
                Slot::Cell(cell) => SlotRef::Cell(CellRef::of(cell)),
                Slot::Collection(c) => SlotRef::Collection(c),
            }),
        }
    }

    /// The non-frozen collection in `slot`, if it holds one.
    pub fn collection(&self, slot: usize) -> Option<&Collection> {
        match &self.0 {
            Repr::Packed(_) => None,
            Repr::Expanded(row) => match row.slot(slot)? {
                Slot::Collection(c) => Some(c),
                Slot::Cell(_) => None,
            },
        }
    }

    /// The simple cell in `slot`; `None` if absent or a collection.
    pub fn cell(&self, slot: usize) -> Option<CellRef<'_>> {
        match self.slot(slot)? {
            SlotRef::Cell(cell) => Some(cell),
            SlotRef::Collection(_) => None,
        }
    }

    /// The live value in simple-cell `slot` at `now_secs`, without building
    /// a [`CellRef`]: what a read copies into its result.
    #[inline]
    pub fn live_value(
        &self,
        slot: usize,
        now_secs: i64,
    ) -> Result<Option<Cow<'_, Value>>, IsCollection> {
        Ok(self.live(slot, now_secs)?.map(|found| match found {
            Live::Packed(compact) => compact.value(),
            Live::Stored(value) => Cow::Borrowed(value),
        }))
    }

    /// `f` run on the live value in simple-cell `slot` at `now_secs`,
    /// without copying it out: the test a filtering scan runs on every row.
    #[inline]
    pub fn test_live_value<R>(
        &self,
        slot: usize,
        now_secs: i64,
        f: impl FnOnce(Option<&Value>) -> R,
    ) -> Result<R, IsCollection> {
        Ok(match self.live(slot, now_secs)? {
            Some(Live::Packed(compact)) => compact.with_value(|v| f(Some(v))),
            Some(Live::Stored(value)) => f(Some(value)),
            None => f(None),
        })
    }

    /// A packed row's values by slot, every one of them live at
    /// `now_secs` (none once the row has expired; a slot past the end
    /// holds nothing); `None` for a row kept unpacked, which the per-slot
    /// accessors read. A packed row's cells share its expiry and hold no
    /// collection, so one test stands for every cell: the fast path of the
    /// reads that run per row.
    #[inline]
    pub fn live_packed_cells(&self, now_secs: i64) -> Option<&[Option<Compact>]> {
        match &self.0 {
            Repr::Packed(p) if p.life.is_live(now_secs) => Some(p.cells()),
            Repr::Packed(_) => Some(&[]),
            Repr::Expanded(_) => None,
        }
    }

    /// The live value in simple-cell `slot` at `now_secs`, as it is kept.
    #[inline]
    fn live(&self, slot: usize, now_secs: i64) -> Result<Option<Live<'_>>, IsCollection> {
        match &self.0 {
            Repr::Packed(p) => Ok(p
                .compact(slot)
                .filter(|_| p.life.is_live(now_secs))
                .map(Live::Packed)),
            Repr::Expanded(row) => match row.slot(slot) {
                None => Ok(None),
                Some(Slot::Cell(cell)) => Ok(cell.live_value(now_secs).map(Live::Stored)),
                Some(Slot::Collection(_)) => Err(IsCollection),
            },
        }
    }

    /// The slots written, in slot order.
    pub fn slots(&self) -> impl Iterator<Item = (usize, SlotRef<'_>)> + '_ {
        let width = match &self.0 {
            Repr::Packed(p) => p.cells().len(),
            Repr::Expanded(row) => row.cells.len(),
        };
        (0..width).filter_map(|i| Some((i, self.slot(i)?)))
    }

    /// Whether any slot holds anything, live or not.
    pub fn has_cells(&self) -> bool {
        match &self.0 {
            Repr::Packed(p) => p.has_cells(),
            Repr::Expanded(row) => row.cells.iter().any(Option::is_some),
        }
    }

    /// Whether the row exists at `now_secs` (see [`Row::is_live`]).
    /// Always inlined: a scan asks it of every row, and left to itself the
    /// compiler calls it out of line from the scan's loop.
    #[inline(always)]
    pub fn is_live(&self, now_secs: i64) -> bool {
        match &self.0 {
            Repr::Packed(p) => (p.life.marker() || p.has_cells()) && p.life.is_live(now_secs),
            Repr::Expanded(row) => row.is_live(now_secs),
        }
    }

    /// Whether any cell is live (see [`Row::has_live_cells`]).
    pub fn has_live_cells(&self, now_secs: i64) -> bool {
        match &self.0 {
            Repr::Packed(p) => p.has_cells() && p.life.is_live(now_secs),
            Repr::Expanded(row) => row.has_live_cells(now_secs),
        }
    }
}

impl From<Row> for StoredRow {
    fn from(row: Row) -> StoredRow {
        StoredRow::new(row)
    }
}

/// Rows are equal when they hold the same, however they are kept.
impl PartialEq for StoredRow {
    fn eq(&self, other: &StoredRow) -> bool {
        self.to_row() == other.to_row()
    }
}

impl fmt::Debug for StoredRow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.to_row().fmt(f)
    }
}

impl Packed {
    /// `row` packed, if it fits: no deletion, no tombstone, no collection,
    /// one write time and expiry shared by the marker and every cell.
    fn of(row: &mut Row) -> Option<Packed> {
        let (stamp, expiry) = Packed::shared_stamp(row)?;
        let life = Life::new(row.liveness.is_some(), expiry)?;
        Some(Packed {
            stamp,
            life,
            cells: PackedCells::new(std::mem::take(&mut row.cells)),
        })
    }

    /// The write time and expiry the marker and every cell share, if the
    /// row has no deletion, no tombstone and no collection.
    fn shared_stamp(row: &Row) -> Option<(i64, Option<Expiry>)> {
        if row.deleted_at.is_some() {
            return None;
        }
        let mut shared = row.liveness.map(|l| (l.timestamp, l.expiry));
        for slot in row.cells.iter().flatten() {
            let Slot::Cell(cell @ Cell { value: Some(_), .. }) = slot else {
                return None;
            };
            let stamp = (cell.timestamp, cell.expiry);
            if *shared.get_or_insert(stamp) != stamp {
                return None;
            }
        }
        Some(shared.unwrap_or((0, None)))
    }

    fn cells(&self) -> &[Option<Compact>] {
        self.cells.as_slice()
    }

    fn compact(&self, slot: usize) -> Option<&Compact> {
        self.cells().get(slot)?.as_ref()
    }

    fn has_cells(&self) -> bool {
        self.cells().iter().any(Option::is_some)
    }

    fn cell(&self, slot: usize) -> Option<CellRef<'_>> {
        Some(CellRef {
            value: Some(self.compact(slot)?.value()),
            timestamp: self.stamp,
            expiry: self.life.expiry(),
        })
    }

    fn into_row(self) -> Row {
        if self.life == Life::UNMARKED && !self.has_cells() {
            return Row::default();
        }
        let (stamp, expiry) = (self.stamp, self.life.expiry());
        Row {
            liveness: self.life.marker().then_some(Liveness {
                timestamp: stamp,
                expiry,
            }),
            deleted_at: None,
            cells: self
                .cells
                .into_slots()
                .into_iter()
                .map(|c| c.map(|c| Slot::Cell(Cell::live(c.into_value(), stamp, expiry))))
                .collect(),
        }
    }
}

/// A new row built packed, without the [`Row`] it packs.
///
/// Most writes are INSERTs of a row that does not exist yet. Built as a
/// 192-byte [`Row`], cell by cell, and packed on the spot, such a row costs
/// more than the rest of its INSERT; built here straight from its values,
/// it is the same [`StoredRow`] (the tests compare the two ways).
impl StoredRow {
    /// The row an INSERT stores where there was none and no deletion
    /// shadows it: a marker and `cells` (slot and value), all written at
    /// `timestamp` and expiring at `expiry`, packed as [`StoredRow::new`]
    /// packs the row [`Row::write_liveness`] and [`Row::write_cell`] build
    /// from them. The values are copied from where the caller holds them.
    ///
    /// `None` when that row would not be packed
    /// (a null value is a tombstone; an expiry may not fit) or the cells
    /// are not one value per slot: the caller then builds the row.
    pub fn inserted(
        timestamp: i64,
        expiry: Option<Expiry>,
        cells: &[(usize, &Value)],
    ) -> Option<StoredRow> {
        let life = Life::new(true, expiry)?;
        let plain = cells.iter().enumerate().all(|(i, (slot, value))| {
            !value.is_null() && cells[..i].iter().all(|(other, _)| other != slot)
        });
        plain.then(|| {
            StoredRow(Repr::Packed(Packed {
                stamp: timestamp,
                life,
                cells: PackedCells::placed(cells),
            }))
        })
    }
}

impl PackedCells {
    /// The values of `cells` (one per slot, none null) in their slots, as
    /// [`PackedCells::new`] keeps them.
    fn placed(cells: &[(usize, &Value)]) -> PackedCells {
        let width = cells.iter().map(|(slot, _)| slot + 1).max().unwrap_or(0);
        if width > INLINE_SLOTS {
            let mut spilled = vec![None; width].into_boxed_slice();
            place(&mut spilled, cells);
            return PackedCells::Spilled(spilled);
        }
        let mut inline: [Option<Compact>; INLINE_SLOTS] = Default::default();
        place(&mut inline, cells);
        PackedCells::Inline(inline)
    }
}

/// Copies each of `cells` into its slot of `targets`.
fn place(targets: &mut [Option<Compact>], cells: &[(usize, &Value)]) {
    for &(slot, value) in cells {
        if let Some(target) = targets.get_mut(slot) {
            *target = Some(Compact::of(value));
        }
    }
}

/// A stored row unpacked for writing: derefs to the [`Row`], and stores it
/// back, packed if it fits, when dropped.
pub struct RowEdit<'a> {
    stored: &'a mut StoredRow,
    row: Editing,
}

/// The row being edited: unpacked from a packed row, or a row that was not
/// packed, edited in its own box so that the box is kept if it stays so.
enum Editing {
    Unpacked(Row),
    Boxed(Box<Row>),
}

impl Deref for RowEdit<'_> {
    type Target = Row;

    fn deref(&self) -> &Row {
        match &self.row {
            Editing::Unpacked(row) => row,
            Editing::Boxed(row) => row,
        }
    }
}

impl DerefMut for RowEdit<'_> {
    fn deref_mut(&mut self) -> &mut Row {
        match &mut self.row {
            Editing::Unpacked(row) => row,
            Editing::Boxed(row) => row,
        }
    }
}

impl Drop for RowEdit<'_> {
    fn drop(&mut self) {
        let edited = std::mem::replace(&mut self.row, Editing::Unpacked(Row::default()));
        *self.stored = match edited {
            Editing::Unpacked(row) => StoredRow::new(row),
            Editing::Boxed(mut row) => match Packed::of(&mut row) {
                Some(packed) => StoredRow(Repr::Packed(packed)),
                None => StoredRow(Repr::Expanded(row)),
            },
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(v: Value, ts: i64, expiry: Option<i64>) -> Cell {
        Cell::live(v, ts, expiry.map(Expiry::at))
    }

    fn marker(ts: i64, expiry: Option<i64>) -> Liveness {
        Liveness {
            timestamp: ts,
            expiry: expiry.map(Expiry::at),
        }
    }

    fn rows() -> Vec<Row> {
        let mut rows = vec![Row::default()];
        let mut insert = Row::default();
        insert.write_liveness(marker(5, None), None, 0);
        insert.write_cell(0, cell(Value::Double(1.5), 5, None), None);
        insert.write_cell(2, cell(Value::Text("a".into()), 5, None), None);
        rows.push(insert.clone());
        let mut ttl = Row::default();
        ttl.write_liveness(marker(7, Some(100)), None, 0);
        ttl.write_cell(1, cell(Value::Int(3), 7, Some(100)), None);
        rows.push(ttl);
        let mut update = Row::default();
        update.write_cell(4, cell(Value::Bigint(9), 8, None), None);
        rows.push(update);
        let mut later = insert.clone();
        later.write_cell(1, cell(Value::Int(4), 6, None), None);
        rows.push(later);
        let mut tombstone = insert.clone();
        tombstone.write_cell(0, Cell::tombstone(6), None);
        rows.push(tombstone);
        let mut deleted = insert.clone();
        deleted.delete_at(4);
        rows.push(deleted);
        let mut collection = insert;
        if let Some(c) = collection.collection_mut(3) {
            c.write(Value::Int(1), cell(Value::Int(2), 5, None));
        }
        rows.push(collection);
        let mut update_ttl = Row::default();
        update_ttl.write_cell(1, cell(Value::Int(5), 9, Some(100)), None);
        rows.push(update_ttl);
        let mut wide = Row::default();
        wide.write_liveness(marker(1, None), None, 0);
        for slot in 0..10 {
            wide.write_cell(slot, cell(Value::Float(slot as f32), 1, None), None);
        }
        rows.push(wide);
        rows
    }

    #[test]
    fn packing_keeps_every_row_as_it_was() {
        let packs = [
            true, true, true, true, false, false, false, false, false, true,
        ];
        for (row, packs) in rows().into_iter().zip(packs) {
            let stored = StoredRow::new(row.clone());
            assert_eq!(stored.is_packed(), packs, "{row:?}");
            assert_eq!(stored.live_packed_cells(0).is_some(), packs);
            assert_eq!(stored.to_row(), row);
            assert_eq!(stored.liveness(), row.liveness);
            assert_eq!(stored.deleted_at(), row.deleted_at);
            for now in [0, 99, 100, 200] {
                assert_eq!(stored.is_live(now), row.is_live(now), "{row:?} at {now}");
                assert_eq!(stored.has_live_cells(now), row.has_live_cells(now));
            }
            for slot in 0..12 {
                let expected = row.slot(slot).map(|s| match s {
                    Slot::Cell(c) => SlotRef::Cell(CellRef::of(c)),
                    Slot::Collection(c) => SlotRef::Collection(c),
                });
                assert_eq!(stored.slot(slot), expected);
                for now in [0, 100] {
                    let live = match row.slot(slot) {
                        Some(Slot::Collection(_)) => Err(IsCollection),
                        Some(Slot::Cell(c)) => Ok(c.live_value(now).cloned()),
                        None => Ok(None),
                    };
                    let found = stored.live_value(slot, now).map(|v| v.map(Cow::into_owned));
                    assert_eq!(found, live);
                    let tested = stored.test_live_value(slot, now, |v| v.cloned());
                    assert_eq!(tested, live);
                    if let Some(cells) = stored.live_packed_cells(now) {
                        let packed = cells.get(slot).and_then(Option::as_ref);
                        assert_eq!(Ok(packed.map(|c| c.value().into_owned())), live);
                    }
                }
            }
        }
    }

    #[test]
    fn an_edit_packs_the_row_again() {
        let mut stored = StoredRow::default();
        stored.edit().write_liveness(marker(3, None), None, 0);
        assert!(stored.is_packed());
        stored
            .edit()
            .write_cell(0, cell(Value::Int(1), 3, None), None);
        assert!(stored.is_packed());
        stored
            .edit()
            .write_cell(0, cell(Value::Int(2), 4, None), None);
        assert!(!stored.is_packed());
        stored.edit().delete_at(10);
        assert_eq!(stored.deleted_at(), Some(10));
        assert!(!stored.is_live(0));
        // Edited in its box, a row that stays unpacked keeps it; one that
        // fits again is packed.
        stored
            .edit()
            .write_cell(1, cell(Value::Int(3), 12, None), None);
        assert!(!stored.is_packed());
        assert_eq!(stored.cell(1).map(|c| c.timestamp), Some(12));
        let mut row = stored.to_row();
        row.deleted_at = None;
        row.cells.truncate(0);
        row.write_liveness(marker(20, None), None, 0);
        let mut stored = StoredRow::new(Row {
            deleted_at: Some(1),
            ..row.clone()
        });
        assert!(!stored.is_packed());
        stored.edit().deleted_at = None;
        assert!(stored.is_packed());
        assert_eq!(stored.to_row(), row);
    }

    /// A packed row exactly as kept: write time, life, whether its cells
    /// spilled, and each slot's value.
    type Layout = (i64, u64, bool, Vec<Option<Value>>);

    fn layout(stored: &StoredRow) -> Option<Layout> {
        let Repr::Packed(p) = &stored.0 else {
            return None;
        };
        let spilled = matches!(p.cells, PackedCells::Spilled(_));
        let values = p
            .cells()
            .iter()
            .map(|c| Some(c.as_ref()?.value().into_owned()))
            .collect();
        Some((p.stamp, p.life.0, spilled, values))
    }

    /// The row the general path stores for an INSERT of `cells` into a new
    /// row: a [`Row`] with its slots reserved, written marker then cells.
    fn written(timestamp: i64, expiry: Option<Expiry>, cells: &[(usize, Value)]) -> StoredRow {
        let mut row = Row::default();
        let width = cells.iter().map(|(slot, _)| slot + 1).max().unwrap_or(0);
        row.cells.resize(width, None);
        row.write_liveness(Liveness { timestamp, expiry }, None, 0);
        for (slot, value) in cells {
            let cell = match value {
                Value::Null => Cell::tombstone(timestamp),
                v => Cell::live(v.clone(), timestamp, expiry),
            };
            row.write_cell(*slot, cell, None);
        }
        StoredRow::new(row)
    }

    #[test]
    fn an_inserted_row_is_packed_as_the_written_one() {
        let text = |s: &str| Value::Text(s.into());
        let shapes: Vec<Vec<(usize, Value)>> = vec![
            vec![],
            vec![(0, Value::Double(1.5))],
            vec![(0, Value::Int(1)), (1, text("a")), (2, Value::Bigint(3))],
            vec![(2, text("b")), (0, Value::Boolean(true))],
            vec![(1, Value::Empty)],
            vec![(3, Value::Int(4))],
            vec![(0, Value::Int(1)), (3, text("c")), (1, Value::Float(2.0))],
            (0..10)
                .rev()
                .map(|s| (s, Value::Smallint(s as i16)))
                .collect(),
            vec![(7, Value::List(vec![Value::Int(1)]))],
        ];
        let expiries = [None, Some(Expiry::at(100)), Some(Expiry::at(-5))];
        for cells in shapes {
            for expiry in expiries {
                let expected = written(42, expiry, &cells);
                let borrowed: Vec<(usize, &Value)> = cells.iter().map(|(s, v)| (*s, v)).collect();
                let packed = StoredRow::inserted(42, expiry, &borrowed);
                assert!(expected.is_packed(), "{cells:?}");
                assert_eq!(packed.as_ref().and_then(layout), layout(&expected));
                assert_eq!(packed, Some(expected));
            }
        }
    }

    #[test]
    fn an_insert_that_would_not_pack_is_left_to_the_row() {
        let unpackable = [
            (None::<Expiry>, vec![(0, Value::Int(1)), (1, Value::Null)]),
            (Some(Expiry::at(i64::MIN)), vec![(0, Value::Int(1))]),
            (None, vec![(1, Value::Int(1)), (1, Value::Int(2))]),
        ];
        for (expiry, cells) in unpackable {
            let borrowed: Vec<(usize, &Value)> = cells.iter().map(|(s, v)| (*s, v)).collect();
            assert!(StoredRow::inserted(7, expiry, &borrowed).is_none());
        }
        assert!(!written(7, None, &[(0, Value::Null)]).is_packed());
        assert!(!written(7, Some(Expiry::at(i64::MIN)), &[]).is_packed());
    }

    #[test]
    fn a_packed_row_is_small() {
        assert_eq!(std::mem::size_of::<Option<Compact>>(), 16);
        assert_eq!(std::mem::size_of::<StoredRow>(), 64);
    }
}
