//! A read-only view of one result row in storage: its partition, its
//! clustering key and its cells, with each column's live value at the
//! statement's time.

use std::borrow::Cow;

use crate::schema::{Column, ColumnKind, Table};
use crate::storage::{
    CellRef, Collection, IsCollection, Partition, SlotRef, StoredKey, StoredRow, TableData,
};
use crate::types::{DataType, Value};

use super::rows::RowWriter;

/// One row as a query sees it. `row` is `None` for a partition's static
/// row standing in for a partition without clustering rows.
#[derive(Clone, Copy)]
pub(crate) struct RowView<'a> {
    pub(crate) table: &'a Table,
    pub(crate) data: &'a TableData,
    pub(crate) partition: &'a Partition,
    pub(crate) clustering: Option<&'a StoredKey>,
    pub(crate) row: Option<&'a StoredRow>,
    pub(crate) now_secs: i64,
    /// Storage slots of the table's columns found ahead of a walk (see
    /// [`slot_cache`]), so reading a cell does not look its name up; a
    /// column missing here is looked up by name.
    pub(crate) slots: &'a [(&'a Column, Option<usize>)],
}

/// The storage slot of every static and regular column of `table`, for
/// [`RowView::slots`].
pub(crate) fn slot_cache<'t>(
    table: &'t Table,
    data: &TableData,
) -> Vec<(&'t Column, Option<usize>)> {
    table
        .columns
        .values()
        .filter(|c| matches!(c.kind, ColumnKind::Static | ColumnKind::Regular))
        .map(|c| (c, data.slot(&c.name)))
        .collect()
}

impl<'a> RowView<'a> {
    /// The live value of `column` (`Value::Null` when absent or expired).
    pub(crate) fn value(&self, column: &Column) -> Cow<'a, Value> {
        match column.kind {
            ColumnKind::PartitionKey(i) => borrowed(self.partition.key.get(i)),
            ColumnKind::Clustering(i, _) => match self.clustering.and_then(|k| k.value(i)) {
                Some(value) => value,
                None => Cow::Owned(Value::Null),
            },
            ColumnKind::Static => self.slot_value(Some(&self.partition.static_row), column),
            ColumnKind::Regular => self.slot_value(self.row, column),
        }
    }

    /// Puts [`RowView::value`] of `column` in a result row, copying a
    /// packed value straight into its place (see [`super::rows::Rows::push_with`]).
    #[inline]
    pub(crate) fn put_value(&self, column: &Column, out: &mut RowWriter<'_>) {
        let packed = match column.kind {
            ColumnKind::Clustering(i, _) => self.clustering.map(|k| k.parts().get(i)),
            ColumnKind::Regular => self.row.and_then(|row| {
                let cells = row.live_packed_cells(self.now_secs)?;
                Some(self.slot_index(column).and_then(|s| cells.get(s)?.as_ref()))
            }),
            _ => None,
        };
        match packed {
            Some(found) => out.put_stored(found),
            None => out.put(self.value(column).into_owned()),
        }
    }

    /// The cell of a simple (non-collection) `column`, live or not.
    pub(crate) fn cell(&self, column: &Column) -> Option<CellRef<'a>> {
        match self.slot(column)? {
            SlotRef::Cell(cell) => Some(cell),
            SlotRef::Collection(_) => None,
        }
    }

    /// The collection cells of a non-frozen collection `column`.
    pub(crate) fn collection(&self, column: &Column) -> Option<&'a Collection> {
        match self.slot(column)? {
            SlotRef::Collection(c) => Some(c),
            SlotRef::Cell(_) => None,
        }
    }

    fn slot(&self, column: &Column) -> Option<SlotRef<'a>> {
        let row = match column.kind {
            ColumnKind::Static => &self.partition.static_row,
            ColumnKind::Regular => self.row?,
            _ => return None,
        };
        row.slot(self.slot_index(column)?)
    }

    fn slot_index(&self, column: &Column) -> Option<usize> {
        for (c, slot) in self.slots {
            if std::ptr::eq(*c, column) {
                return *slot;
            }
        }
        self.data.slot(&column.name)
    }

    fn slot_value(&self, row: Option<&'a StoredRow>, column: &Column) -> Cow<'a, Value> {
        self.value_in_slot(row, self.slot_index(column), column)
    }

    /// The live value of regular `column`, whose storage slot the caller
    /// resolved ahead (`None`: never written).
    pub(crate) fn regular_value(&self, slot: Option<usize>, column: &Column) -> Cow<'a, Value> {
        self.value_in_slot(self.row, slot, column)
    }

    fn value_in_slot(
        &self,
        row: Option<&'a StoredRow>,
        slot: Option<usize>,
        column: &Column,
    ) -> Cow<'a, Value> {
        let (Some(row), Some(slot)) = (row, slot) else {
            return Cow::Owned(Value::Null);
        };
        match row.live_value(slot, self.now_secs) {
            Ok(Some(value)) => value,
            Ok(None) => Cow::Owned(Value::Null),
            Err(IsCollection) => match row.collection(slot) {
                Some(c) => Cow::Owned(collection_value(c, &column.data_type, self.now_secs)),
                None => Cow::Owned(Value::Null),
            },
        }
    }
}

fn borrowed(value: Option<&Value>) -> Cow<'_, Value> {
    match value {
        Some(v) => Cow::Borrowed(v),
        None => Cow::Owned(Value::Null),
    }
}

/// A non-frozen collection's live elements as one value; an empty
/// collection reads as null, as in Cassandra.
pub(crate) fn collection_value(collection: &Collection, ty: &DataType, now_secs: i64) -> Value {
    let live = collection.live(now_secs);
    if let DataType::Udt { fields, .. } = ty {
        let mut parts = vec![None; fields.len()];
        for (k, v) in live {
            let slot = match k {
                Value::Smallint(i) => usize::try_from(*i).ok(),
                _ => None,
            };
            if let Some(part) = slot.and_then(|i| parts.get_mut(i)) {
                *part = Some(v.clone());
            }
        }
        return if parts.iter().all(Option::is_none) {
            Value::Null
        } else {
            Value::Udt(parts)
        };
    }
    let value = match ty {
        DataType::List { .. } => Value::List(live.map(|(_, v)| v.clone()).collect()),
        DataType::Set { .. } => Value::Set(live.map(|(k, _)| k.clone()).collect()),
        _ => Value::Map(live.map(|(k, v)| (k.clone(), v.clone())).collect()),
    };
    match &value {
        Value::List(v) | Value::Set(v) if v.is_empty() => Value::Null,
        Value::Map(m) if m.is_empty() => Value::Null,
        _ => value,
    }
}
