//! A result's rows, kept in one flat buffer of values rather than one
//! `Vec` per row: a 100-row slice then costs one allocation instead of a
//! hundred, and reading the rows walks memory front to back. Each row is
//! handed out as a `&[Value]`, one value per result column.

use std::fmt;
use std::mem::MaybeUninit;
use std::ops::Index;

use crate::storage::Compact;
use crate::types::Value;

/// The rows of a [`super::ResultSet`]: `len` rows of `width` values each.
#[derive(Clone, Default)]
pub struct Rows {
    values: Vec<Value>,
    width: usize,
    len: usize,
}

impl Rows {
    /// No rows yet, each to hold `width` values, with room for `rows` of
    /// them.
    pub fn with_capacity(width: usize, rows: usize) -> Rows {
        Rows {
            values: Vec::with_capacity(width.saturating_mul(rows)),
            width,
            len: 0,
        }
    }

    /// Room for `rows` more rows of the set's width.
    pub fn reserve(&mut self, rows: usize) {
        self.values.reserve(self.width.saturating_mul(rows));
    }

    /// How many rows there are.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// How many values each row holds.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Row `index`, if there is one.
    pub fn get(&self, index: usize) -> Option<&[Value]> {
        (index < self.len).then(|| self.row(index))
    }

    /// The first row, if any.
    pub fn first(&self) -> Option<&[Value]> {
        self.get(0)
    }

    /// The last row, if any.
    pub fn last(&self) -> Option<&[Value]> {
        self.len.checked_sub(1).map(|last| self.row(last))
    }

    /// The rows in order.
    pub fn iter(&self) -> Iter<'_> {
        Iter {
            rows: self,
            front: 0,
            back: self.len,
        }
    }

    /// Appends one row. The first row into an empty set fixes the width;
    /// a later row of another width is a bug in the executor, and is cut or
    /// padded with nulls to keep every row the same shape.
    pub fn push(&mut self, row: impl IntoIterator<Item = Value>) {
        let start = self.values.len();
        self.values.extend(row);
        self.end_row(start);
    }

    /// Appends one row of at most `width` values, which `fill` puts in
    /// order through a [`RowWriter`]: each value is written straight into
    /// its place, where pushing builds it on the stack first and copies it
    /// after checking for room. A read copying many rows spends most of its
    /// time on those copies.
    #[inline]
    pub(crate) fn push_with(&mut self, width: usize, fill: impl FnOnce(&mut RowWriter<'_>)) {
        let start = self.values.len();
        self.values.reserve(width);
        let mut writer = RowWriter {
            places: &mut self.values.spare_capacity_mut()[..width],
            written: 0,
        };
        fill(&mut writer);
        let written = writer.written;
        // SAFETY: the writer initialised exactly its first `written`
        // places, the `written` values after the vector's `start` length.
        unsafe { self.values.set_len(start + written) };
        self.end_row(start);
    }

    /// Counts the row whose values start at `start`, keeping every row
    /// of one width (see [`Rows::push`]).
    #[inline]
    fn end_row(&mut self, start: usize) {
        let width = self.values.len() - start;
        if self.len == 0 {
            self.width = width;
        } else if width != self.width {
            debug_assert_eq!(width, self.width, "a result row of another width");
            self.values.resize(start + self.width, Value::Null);
        }
        self.len += 1;
    }

    /// Keeps the first `rows` rows (LIMIT).
    pub fn truncate(&mut self, rows: usize) {
        if rows < self.len {
            self.len = rows;
            self.values.truncate(rows * self.width);
        }
    }

    /// The rows as one `Vec` each, for callers that take rows apart.
    pub fn to_vecs(&self) -> Vec<Vec<Value>> {
        self.iter().map(<[Value]>::to_vec).collect()
    }

    /// The rows as one `Vec` each, their values moved rather than copied.
    pub fn into_vecs(mut self) -> Vec<Vec<Value>> {
        let mut values = std::mem::take(&mut self.values).into_iter();
        (0..self.len)
            .map(|_| values.by_ref().take(self.width).collect())
            .collect()
    }

    fn row(&self, index: usize) -> &[Value] {
        &self.values[index * self.width..(index + 1) * self.width]
    }
}

/// Puts one row's values in place: see [`Rows::push_with`].
pub(crate) struct RowWriter<'r> {
    places: &'r mut [MaybeUninit<Value>],
    written: usize,
}

impl RowWriter<'_> {
    /// Puts the row's next value; past the row's width, drops it.
    #[inline(always)]
    pub(crate) fn put(&mut self, value: Value) {
        if let Some(place) = self.places.get_mut(self.written) {
            place.write(value);
            self.written += 1;
        }
    }

    /// Puts a value as storage keeps it, or null for none, built straight
    /// into its place (see [`Compact::put_value`]).
    #[inline(always)]
    pub(crate) fn put_stored(&mut self, found: Option<&Compact>) {
        match found {
            Some(compact) => compact.put_value(|value| self.put(value)),
            None => self.put(Value::Null),
        }
    }
}

impl Drop for Rows {
    /// Frees the values that own memory and forgets the rest (which owns
    /// none) in place: dropping each value through the enum's drop, an
    /// out-of-line call per value, was a sixth of a large slice's cost.
    fn drop(&mut self) {
        if self.values.iter().all(Value::owns_nothing) {
            // SAFETY: a length of zero covers no value; the values it
            // forgets own no memory.
            unsafe { self.values.set_len(0) };
            return;
        }
        for value in self.values.drain(..) {
            if value.owns_nothing() {
                std::mem::forget(value);
            }
        }
    }
}

impl Index<usize> for Rows {
    type Output = [Value];

    /// Row `index`; panics past the last row, as indexing a `Vec` does.
    fn index(&self, index: usize) -> &[Value] {
        assert!(index < self.len, "row {index} of {}", self.len);
        self.row(index)
    }
}

impl From<Vec<Vec<Value>>> for Rows {
    fn from(rows: Vec<Vec<Value>>) -> Rows {
        let width = rows.first().map_or(0, Vec::len);
        let mut out = Rows::with_capacity(width, rows.len());
        for row in rows {
            out.push(row);
        }
        out
    }
}

impl FromIterator<Vec<Value>> for Rows {
    fn from_iter<I: IntoIterator<Item = Vec<Value>>>(rows: I) -> Rows {
        Rows::from(rows.into_iter().collect::<Vec<_>>())
    }
}

/// The rows of a [`Rows`], in order, each as a slice.
#[derive(Debug, Clone)]
pub struct Iter<'a> {
    rows: &'a Rows,
    front: usize,
    back: usize,
}

impl<'a> Iterator for Iter<'a> {
    type Item = &'a [Value];

    fn next(&mut self) -> Option<&'a [Value]> {
        (self.front < self.back).then(|| {
            self.front += 1;
            self.rows.row(self.front - 1)
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.back - self.front;
        (left, Some(left))
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        (self.front < self.back).then(|| {
            self.back -= 1;
            self.rows.row(self.back)
        })
    }
}

impl ExactSizeIterator for Iter<'_> {}

impl<'a> IntoIterator for &'a Rows {
    type Item = &'a [Value];
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

impl IntoIterator for Rows {
    type Item = Vec<Value>;
    type IntoIter = std::vec::IntoIter<Vec<Value>>;

    /// The rows as one `Vec` each.
    fn into_iter(self) -> Self::IntoIter {
        self.into_vecs().into_iter()
    }
}

impl PartialEq for Rows {
    /// The same rows, whatever the width recorded for an empty set.
    fn eq(&self, other: &Rows) -> bool {
        self.len == other.len && self.iter().eq(other.iter())
    }
}

impl PartialEq<[Vec<Value>]> for Rows {
    fn eq(&self, other: &[Vec<Value>]) -> bool {
        self.len == other.len() && self.iter().zip(other).all(|(a, b)| a == b.as_slice())
    }
}

impl PartialEq<Vec<Vec<Value>>> for Rows {
    fn eq(&self, other: &Vec<Vec<Value>>) -> bool {
        *self == **other
    }
}

impl PartialEq<&[Vec<Value>]> for Rows {
    fn eq(&self, other: &&[Vec<Value>]) -> bool {
        *self == **other
    }
}

impl fmt::Debug for Rows {
    /// As a list of rows, the way `Vec<Vec<Value>>` prints.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ints(row: &[i32]) -> Vec<Value> {
        row.iter().map(|&i| Value::Int(i)).collect()
    }

    #[test]
    fn rows_read_back_as_pushed() {
        let mut rows = Rows::with_capacity(2, 4);
        rows.push(ints(&[1, 2]));
        rows.push(ints(&[3, 4]));
        rows.push(ints(&[5, 6]));
        assert_eq!(rows.len(), 3);
        assert_eq!(&rows[1], ints(&[3, 4]).as_slice());
        assert_eq!(rows.last(), Some(ints(&[5, 6]).as_slice()));
        assert_eq!(rows.get(3), None);
        assert_eq!(rows, vec![ints(&[1, 2]), ints(&[3, 4]), ints(&[5, 6])]);
        assert_eq!(format!("{rows:?}"), format!("{:?}", rows.to_vecs()));
        assert_eq!(rows.clone().into_vecs(), rows.to_vecs());
        rows.truncate(1);
        assert_eq!(rows, vec![ints(&[1, 2])]);
        assert_eq!(rows.iter().rev().count(), 1);
    }

    #[test]
    fn rows_put_in_place_read_back_as_pushed() {
        let mut rows = Rows::with_capacity(2, 0);
        rows.push_with(2, |row| {
            row.put(Value::Int(1));
            row.put(Value::Text("a".into()));
        });
        // A value past the width is dropped.
        rows.push_with(2, |row| {
            row.put(Value::Int(2));
            row.put(Value::Text("b".into()));
            row.put(Value::Int(3));
        });
        assert_eq!(
            rows,
            vec![
                vec![Value::Int(1), Value::Text("a".into())],
                vec![Value::Int(2), Value::Text("b".into())],
            ]
        );
    }

    #[test]
    fn rows_of_no_columns_still_count() {
        let rows = Rows::from(vec![vec![], vec![]]);
        assert_eq!(rows.len(), 2);
        assert_eq!(rows.iter().map(<[Value]>::len).sum::<usize>(), 0);
        assert_ne!(rows, Rows::default());
    }

    #[test]
    fn empty_sets_are_equal_whatever_their_width() {
        assert_eq!(Rows::with_capacity(3, 10), Rows::default());
        assert_eq!(Rows::default(), Vec::<Vec<Value>>::new());
    }
}
