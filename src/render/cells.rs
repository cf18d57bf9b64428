//! The formatted cells of a page, in one buffer: the table and expanded layouts format
//! a page of values once into a reused string, measure each cell's display width as it
//! is written, and pad from there. A result of a million values then costs two
//! allocations per page at most, not one per value.

use unicode_width::UnicodeWidthStr;

use crate::types::{DataType, Value};

/// Where one cell's text lies in [`Cells::text`], and its display width.
#[derive(Debug, Clone, Copy)]
struct Span {
    start: usize,
    end: usize,
    width: usize,
}

/// Rows of formatted cells, `columns` to a row, their texts one after another.
#[derive(Debug, Default)]
pub(crate) struct Cells {
    text: String,
    spans: Vec<Span>,
    columns: usize,
}

impl Cells {
    /// No cells yet, `columns` to a row.
    pub(crate) fn new(columns: usize) -> Cells {
        Cells {
            columns,
            ..Cells::default()
        }
    }

    /// The column headers, escaped as cqlsh escapes text (`myformat_colname`).
    pub(crate) fn headers<'a>(names: impl ExactSizeIterator<Item = &'a str>) -> Cells {
        let mut cells = Cells::new(names.len());
        let text_type = DataType::Native(crate::syntax::ast::NativeType::Text);
        for name in names {
            let start = cells.text.len();
            Value::Text(name.to_string()).push_cqlsh_display(&text_type, &mut cells.text);
            cells.close(start, 0);
        }
        cells
    }

    /// Empties the buffer for the next page, keeping its memory.
    pub(crate) fn clear(&mut self) {
        self.text.clear();
        self.spans.clear();
    }

    /// Formats one row of values (one per column, of the columns' types).
    pub(crate) fn push_row<'a>(
        &mut self,
        row: &[Value],
        types: impl Iterator<Item = &'a DataType>,
    ) {
        for (value, ty) in row.iter().zip(types) {
            let start = self.text.len();
            value.push_cqlsh_display(ty, &mut self.text);
            // cqlsh sums the parts of a composite value (`2 * len(subs) + sum(...)`),
            // which gives an empty one (`[]`, `{}`) a width of 0 rather than 2.
            self.close(start, 2 * empty_composites(value));
        }
    }

    /// Ends the cell whose text began at `start`, its width less `narrower`.
    fn close(&mut self, start: usize, narrower: usize) {
        let end = self.text.len();
        let text = &self.text[start..end];
        let width = if text.is_ascii() {
            text.len()
        } else {
            text.width()
        };
        self.spans.push(Span {
            start,
            end,
            width: width.saturating_sub(narrower),
        });
    }

    /// How many cells make a row.
    pub(crate) fn columns(&self) -> usize {
        self.columns
    }

    /// How many rows there are.
    pub(crate) fn rows(&self) -> usize {
        self.spans.len().checked_div(self.columns).unwrap_or(0)
    }

    /// The text of the cell in `row`, `column`.
    pub(crate) fn text(&self, row: usize, column: usize) -> &str {
        let span = self.spans[row * self.columns + column];
        &self.text[span.start..span.end]
    }

    /// The display width of the cell in `row`, `column`.
    pub(crate) fn width(&self, row: usize, column: usize) -> usize {
        self.spans[row * self.columns + column].width
    }

    /// The widest cell of each column.
    pub(crate) fn column_widths(&self) -> Vec<usize> {
        let mut widths = vec![0; self.columns];
        for row in self.spans.chunks(self.columns.max(1)) {
            for (width, span) in widths.iter_mut().zip(row) {
                *width = (*width).max(span.width);
            }
        }
        widths
    }

    /// The widest cell of all.
    pub(crate) fn max_width(&self) -> usize {
        self.spans.iter().map(|s| s.width).max().unwrap_or(0)
    }

    /// The bytes of all the cells' texts, to size the output before writing it.
    pub(crate) fn text_len(&self) -> usize {
        self.text.len()
    }

    /// The cell left-justified to `width` columns.
    pub(crate) fn ljust(&self, row: usize, column: usize, width: usize, out: &mut String) {
        out.push_str(self.text(row, column));
        pad(width.saturating_sub(self.width(row, column)), out);
    }

    /// The cell right-justified to `width` columns.
    pub(crate) fn rjust(&self, row: usize, column: usize, width: usize, out: &mut String) {
        pad(width.saturating_sub(self.width(row, column)), out);
        out.push_str(self.text(row, column));
    }
}

/// `n` spaces.
pub(crate) fn pad(n: usize, out: &mut String) {
    push_run(
        "                                                                ",
        n,
        out,
    );
}

/// `n` dashes, as a separator line draws them.
pub(crate) fn dashes(n: usize, out: &mut String) {
    push_run(
        "----------------------------------------------------------------",
        n,
        out,
    );
}

/// `n` copies of the one ASCII character `run` repeats, a slice of `run` at a time.
fn push_run(run: &str, mut n: usize, out: &mut String) {
    while n > 0 {
        let take = n.min(run.len());
        out.push_str(&run[..take]);
        n -= take;
    }
}

/// How many empty lists, sets, maps, tuples or UDT values `value` holds, itself included.
fn empty_composites(value: &Value) -> usize {
    match value {
        Value::List(items) | Value::Set(items) | Value::Vector(items) => {
            if items.is_empty() {
                1
            } else {
                items.iter().map(empty_composites).sum()
            }
        }
        Value::Map(entries) => {
            if entries.is_empty() {
                1
            } else {
                entries
                    .iter()
                    .map(|(k, v)| empty_composites(k) + empty_composites(v))
                    .sum()
            }
        }
        Value::Tuple(items) | Value::Udt(items) => {
            if items.is_empty() {
                1
            } else {
                items.iter().flatten().map(empty_composites).sum()
            }
        }
        _ => 0,
    }
}
