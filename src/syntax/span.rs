//! Byte ranges into the text a statement came from.
//!
//! Every token and every AST node carries one, so diagnostics can point at
//! the exact text. Spans never take part in equality or hashing: two ASTs that
//! differ only in where they came from are the same statement, which is what
//! makes `parse(print(ast)) == ast` a meaningful property.

use std::hash::{Hash, Hasher};
use std::ops::Range;

/// A half-open byte range `start..end` into the source text.
#[derive(Debug, Clone, Copy, Default, Eq, PartialOrd, Ord, serde::Serialize)]
pub struct Span {
    /// Offset of the first byte.
    pub start: usize,
    /// Offset one past the last byte.
    pub end: usize,
}

impl Span {
    /// A span from `start` to `end`.
    pub const fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    /// The smallest span covering both `self` and `other`.
    pub fn to(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }

    /// Length in bytes.
    pub fn len(self) -> usize {
        self.end - self.start
    }

    /// Whether the span covers no bytes (the end of input, for instance).
    pub fn is_empty(self) -> bool {
        self.start == self.end
    }

    /// The same span moved `by` bytes to the right: statement-relative spans
    /// become file-relative ones this way.
    pub fn shifted(self, by: usize) -> Span {
        Span::new(self.start + by, self.end + by)
    }

    /// The byte range, for slicing the source text.
    pub fn range(self) -> Range<usize> {
        self.start..self.end
    }
}

/// Spans are location metadata, not meaning: every span equals every other.
impl PartialEq for Span {
    fn eq(&self, _: &Span) -> bool {
        true
    }
}

impl Hash for Span {
    fn hash<H: Hasher>(&self, _: &mut H) {}
}

impl From<Span> for miette::SourceSpan {
    fn from(span: Span) -> miette::SourceSpan {
        (span.start, span.len()).into()
    }
}

impl From<Range<usize>> for Span {
    fn from(range: Range<usize>) -> Span {
        Span::new(range.start, range.end)
    }
}

/// 1-based line and 1-based column (in characters) of byte `offset` in `text`.
///
/// Diagnostics count both from 1; Cassandra's own `line L:C` text counts
/// columns from 0 and is derived from this by its caller.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = floor_char_boundary(text, offset.min(text.len()));
    let before = &text[..offset];
    let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before[line_start..].chars().count() + 1;
    (line, column)
}

fn floor_char_boundary(text: &str, mut offset: usize) -> usize {
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_never_affect_equality() {
        assert_eq!(Span::new(0, 3), Span::new(10, 20));
    }

    #[test]
    fn line_col_counts_characters_from_one() {
        let text = "ab\nçd e";
        assert_eq!(line_col(text, 0), (1, 1));
        assert_eq!(line_col(text, 3), (2, 1));
        assert_eq!(line_col(text, 6), (2, 3));
    }
}
