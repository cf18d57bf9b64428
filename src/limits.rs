//! Limits that keep one statement from exhausting the process, shared by
//! every mode and set by the `[limits]` table of `widerow.toml` (or a flag
//! per limit). Where Cassandra has a setting the default is Cassandra's;
//! the others are widerow's own, stated here.

use crate::error::Error;
use crate::syntax::ast::{
    BatchStatement, ConditionKind, IfClause, InValues, Relation, RelationKind, Statement,
};
use crate::syntax::span::Span;

/// The limits a session enforces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Longest statement text, in bytes (`statement_size`). widerow's own:
    /// 1 MiB, far above any hand-written statement.
    pub statement_size: usize,
    /// Deepest nesting of brackets and type hints (`nesting_depth`).
    /// widerow's own: 48; the parser cannot go deeper.
    pub nesting_depth: usize,
    /// Most values in one IN list (`in_list_length`), counted as written
    /// (duplicates too), in WHERE and IF alike. widerow's own: 10,000.
    pub in_list_length: usize,
    /// Most keys the IN lists of one statement may name together, on the
    /// partition key and on the clustering key each
    /// (`in_select_cartesian_product`, Cassandra's guardrail and its
    /// message; Cassandra leaves it off by default, widerow's is 100,000):
    /// a few short IN lists can name billions of keys.
    pub in_select_cartesian_product: usize,
    /// A batch whose mutations are larger than this many bytes gets
    /// Cassandra's warning (`batch_size_warn_threshold`, Cassandra's 5 KiB).
    pub batch_size_warn_threshold: usize,
    /// A batch larger than this is refused (`batch_size_fail_threshold`,
    /// Cassandra's 50 KiB).
    pub batch_size_fail_threshold: usize,
    /// Most elements in one collection value (`collection_size`).
    /// widerow's own: 65,535, the most a set or map could hold in
    /// Cassandra's older protocol.
    pub collection_size: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            statement_size: 1 << 20,
            nesting_depth: crate::syntax::MAX_NESTING,
            in_list_length: 10_000,
            in_select_cartesian_product: 100_000,
            batch_size_warn_threshold: 5 * 1024,
            batch_size_fail_threshold: 50 * 1024,
            collection_size: 65_535,
        }
    }
}

impl Limits {
    /// No limit at all: for statements widerow builds itself (a view's
    /// WHERE clause), which no user input can grow.
    pub const UNBOUNDED: Limits = Limits {
        statement_size: usize::MAX,
        nesting_depth: usize::MAX,
        in_list_length: usize::MAX,
        in_select_cartesian_product: usize::MAX,
        batch_size_warn_threshold: usize::MAX,
        batch_size_fail_threshold: usize::MAX,
        collection_size: usize::MAX,
    };
}

impl Limits {
    /// Refuses a statement text longer than `statement_size` before
    /// anything reads it, so no later step's cost grows with it. The
    /// refusal points at the statement's first word: underlining all of a
    /// statement this long would print it over again.
    pub fn check_size(&self, text: &str) -> Result<(), Error> {
        if text.len() > self.statement_size {
            let first_word = text
                .find(|c: char| c.is_whitespace() || c == '(')
                .unwrap_or(text.len());
            return Err(Error::invalid(format!(
                "Statement of {} bytes exceeds the limit of {} bytes ([limits] statement_size)",
                text.len(),
                self.statement_size
            ))
            .with_span(Span::new(0, first_word)));
        }
        Ok(())
    }

    /// Refuses a parsed statement with an IN list (in WHERE or IF) of more
    /// than `in_list_length` values as written, before it is planned or
    /// its values are read: the work a list costs is then bounded by the
    /// limit, not by the list.
    pub fn check_in_lists(&self, statement: &Statement) -> Result<(), Error> {
        let max = self.in_list_length;
        match statement {
            Statement::Select(s) => where_in_lists(&s.where_clause, max),
            Statement::Update(u) => write_in_lists(&u.where_clause, u.if_clause.as_ref(), max),
            Statement::Delete(d) => write_in_lists(&d.where_clause, d.if_clause.as_ref(), max),
            Statement::Batch(b) => b.statements.iter().try_for_each(|s| match s {
                BatchStatement::Insert(_) => Ok(()),
                BatchStatement::Update(u) => {
                    write_in_lists(&u.where_clause, u.if_clause.as_ref(), max)
                }
                BatchStatement::Delete(d) => {
                    write_in_lists(&d.where_clause, d.if_clause.as_ref(), max)
                }
            }),
            _ => Ok(()),
        }
    }
}

/// The refusal of an IN list of `count` values, past `max`.
pub(crate) fn in_list_too_long(count: usize, max: usize, span: Span) -> Error {
    Error::invalid(format!(
        "IN list of {count} values exceeds the limit of {max} ([limits] in_list_length)"
    ))
    .with_span(span)
}

fn list_length(values: &InValues) -> usize {
    match values {
        InValues::List(terms) => terms.len(),
        InValues::Marker(_) => 0,
    }
}

fn where_in_lists(relations: &[Relation], max: usize) -> Result<(), Error> {
    for relation in relations {
        let count = match &relation.kind {
            RelationKind::In { values, .. } | RelationKind::MultiIn { values, .. } => {
                list_length(values)
            }
            _ => 0,
        };
        if count > max {
            return Err(in_list_too_long(count, max, relation.span));
        }
    }
    Ok(())
}

fn write_in_lists(
    relations: &[Relation],
    clause: Option<&IfClause>,
    max: usize,
) -> Result<(), Error> {
    where_in_lists(relations, max)?;
    if_in_lists(clause, max)
}

fn if_in_lists(clause: Option<&IfClause>, max: usize) -> Result<(), Error> {
    let Some(IfClause::Conditions(conditions)) = clause else {
        return Ok(());
    };
    for condition in conditions {
        if let ConditionKind::In { values, .. } = &condition.kind {
            let count = list_length(values);
            if count > max {
                return Err(in_list_too_long(count, max, condition.span));
            }
        }
    }
    Ok(())
}

/// The refusal of IN lists whose cartesian product on `what` ("partition
/// key" or "clustering key") names `product` keys, more than `max`: the
/// message of Cassandra's `in_select_cartesian_product` guardrail.
pub(crate) fn cartesian_product_exceeded(what: &str, product: usize, max: usize) -> Error {
    Error::invalid(format!(
        "Guardrail in_select_cartesian_product violated: Aborting query because the cartesian \
         product of the IN restrictions on {what} produces {product} values, this exceeds fail \
         threshold of {max}."
    ))
}

/// The keys `[limits]` accepts, each with the flag that overrides it.
pub const LIMIT_KEYS: &[(&str, &str)] = &[
    ("statement_size", "--max-statement-size"),
    ("nesting_depth", "--max-nesting-depth"),
    ("in_list_length", "--max-in-list-length"),
    (
        "in_select_cartesian_product",
        "--in-select-cartesian-product",
    ),
    ("batch_size_warn_threshold", "--batch-size-warn-threshold"),
    ("batch_size_fail_threshold", "--batch-size-fail-threshold"),
    ("collection_size", "--max-collection-size"),
];

impl Limits {
    /// Reads a `[limits]` table: every key optional, each a positive
    /// integer; unknown keys are refused by name.
    pub fn from_table(table: &toml::Table) -> Result<Limits, String> {
        let mut limits = Limits::default();
        for (key, value) in table {
            let n = value
                .as_integer()
                .filter(|n| *n > 0)
                .and_then(|n| usize::try_from(n).ok())
                .ok_or_else(|| format!("[limits] {key} must be a positive integer"))?;
            limits.set(key, n)?;
        }
        if limits.nesting_depth > crate::syntax::MAX_NESTING {
            return Err(format!(
                "[limits] nesting_depth cannot exceed {}",
                crate::syntax::MAX_NESTING
            ));
        }
        Ok(limits)
    }

    /// Sets the limit named `key` (a `[limits]` key).
    pub fn set(&mut self, key: &str, value: usize) -> Result<(), String> {
        let slot = match key {
            "statement_size" => &mut self.statement_size,
            "nesting_depth" => &mut self.nesting_depth,
            "in_list_length" => &mut self.in_list_length,
            "in_select_cartesian_product" => &mut self.in_select_cartesian_product,
            "batch_size_warn_threshold" => &mut self.batch_size_warn_threshold,
            "batch_size_fail_threshold" => &mut self.batch_size_fail_threshold,
            "collection_size" => &mut self.collection_size,
            other => {
                let known: Vec<&str> = LIMIT_KEYS.iter().map(|(k, _)| *k).collect();
                return Err(format!(
                    "unknown key `{other}` in [limits] (expected one of {})",
                    known.join(", ")
                ));
            }
        };
        *slot = value;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_overrides_defaults_and_refuses_unknown_keys() {
        let table: toml::Table = "statement_size = 100\nbatch_size_fail_threshold = 2048"
            .parse()
            .unwrap();
        let limits = Limits::from_table(&table).unwrap();
        assert_eq!(limits.statement_size, 100);
        assert_eq!(limits.batch_size_fail_threshold, 2048);
        assert_eq!(limits.batch_size_warn_threshold, 5 * 1024);
        let bad: toml::Table = "statment_size = 1".parse().unwrap();
        assert!(Limits::from_table(&bad)
            .unwrap_err()
            .contains("statment_size"));
        let negative: toml::Table = "in_list_length = -1".parse().unwrap();
        assert!(Limits::from_table(&negative).is_err());
    }
}
