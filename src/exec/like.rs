//! `col LIKE 'pattern'`, as SASI answers it: Cassandra's `LikePattern`
//! reads a `%` at the start and at the end of the pattern (a `%` anywhere
//! else is a plain character) as prefix, suffix, contains or exact match,
//! and the column's index must support that kind: a SASI index in its
//! default `PREFIX` mode serves only prefix and exact matches, `CONTAINS`
//! mode serves every kind. With the non-tokenizing analyzer, a
//! `case_sensitive: false` option compares without case.

use crate::error::Error;
use crate::schema::{Column, IndexKind, Table};
use crate::types::Value;

/// Which part of a value a LIKE pattern matches (`LikePattern.Kind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LikeKind {
    /// `'abc%'`
    Prefix,
    /// `'%abc'`
    Suffix,
    /// `'%abc%'`
    Contains,
    /// `'abc'`
    Matches,
}

impl LikeKind {
    /// How Cassandra writes the expression in its refusal.
    fn shape(self) -> &'static str {
        match self {
            LikeKind::Prefix => "'<term>%'",
            LikeKind::Suffix => "'%<term>'",
            LikeKind::Contains => "'%<term>%'",
            LikeKind::Matches => "'<term>'",
        }
    }
}

/// A LIKE relation ready to test values.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Like {
    kind: LikeKind,
    term: String,
    ignore_case: bool,
}

impl Like {
    /// Reads `pattern` for `column`, refusing an empty term ("LIKE value
    /// can't be empty.") and a kind the column's index does not serve.
    pub(crate) fn new(table: &Table, column: &Column, pattern: &Value) -> Result<Like, Error> {
        let text = match pattern {
            Value::Text(t) | Value::Ascii(t) => t.as_str(),
            _ => return Err(Error::invalid("LIKE value can't be empty.")),
        };
        let (kind, term) = parse(text);
        if term.is_empty() {
            return Err(Error::invalid("LIKE value can't be empty."));
        }
        let index = table
            .indexes
            .iter()
            .find(|i| i.column == column.name && i.kind == IndexKind::Sasi);
        let contains_mode = index.is_some_and(|i| {
            i.options
                .get("mode")
                .is_some_and(|m| m.eq_ignore_ascii_case("CONTAINS"))
        });
        if !contains_mode && matches!(kind, LikeKind::Suffix | LikeKind::Contains) {
            return Err(Error::invalid(format!(
                "{} LIKE {} {term} is only supported on properly indexed columns",
                column.name,
                kind.shape()
            )));
        }
        // Only the non-tokenizing analyzer reads `case_sensitive`; without
        // an analyzer the option changes nothing (checked against 5.0.8).
        let ignore_case = index.is_some_and(|i| {
            let analyzed = i
                .options
                .get("analyzer_class")
                .is_some_and(|a| a.ends_with("NonTokenizingAnalyzer"));
            analyzed
                && i.options
                    .get("case_sensitive")
                    .is_some_and(|v| v.eq_ignore_ascii_case("false"))
        });
        let term = if ignore_case {
            term.to_lowercase()
        } else {
            term.to_string()
        };
        Ok(Like {
            kind,
            term,
            ignore_case,
        })
    }

    /// Whether a stored value matches; a null never does.
    pub(crate) fn holds(&self, value: &Value) -> bool {
        let text = match value {
            Value::Text(t) | Value::Ascii(t) => t.as_str(),
            _ => return false,
        };
        let folded;
        let text = if self.ignore_case {
            folded = text.to_lowercase();
            folded.as_str()
        } else {
            text
        };
        let term = self.term.as_str();
        match self.kind {
            LikeKind::Prefix => text.starts_with(term),
            LikeKind::Suffix => text.ends_with(term),
            LikeKind::Contains => text.contains(term),
            LikeKind::Matches => text == term,
        }
    }
}

/// The kind and the term of a pattern: one `%` is taken from each end.
fn parse(pattern: &str) -> (LikeKind, &str) {
    let leading = pattern.starts_with('%');
    let rest = if leading { &pattern[1..] } else { pattern };
    let trailing = rest.ends_with('%');
    let term = if trailing {
        &rest[..rest.len() - 1]
    } else {
        rest
    };
    let kind = match (leading, trailing) {
        (true, true) => LikeKind::Contains,
        (true, false) => LikeKind::Suffix,
        (false, true) => LikeKind::Prefix,
        (false, false) => LikeKind::Matches,
    };
    (kind, term)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_percent_counts_only_at_either_end() {
        assert_eq!(parse("ab%"), (LikeKind::Prefix, "ab"));
        assert_eq!(parse("%ab"), (LikeKind::Suffix, "ab"));
        assert_eq!(parse("%ab%"), (LikeKind::Contains, "ab"));
        assert_eq!(parse("a%c"), (LikeKind::Matches, "a%c"));
        assert_eq!(parse("%"), (LikeKind::Suffix, ""));
        assert_eq!(parse("%%"), (LikeKind::Contains, ""));
    }
}
