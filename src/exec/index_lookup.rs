//! What a legacy secondary index finds, exactly.
//!
//! Cassandra's legacy index (`CassandraIndex`) keeps one index partition
//! per indexed value, keyed by the value's serialized bytes, so a lookup
//! finds only rows holding those very bytes: `d = 1.5` through an index on
//! a decimal misses a row written `1.50`, which a filter (or an SAI index,
//! which compares numbers) would return. widerow serves indexed reads by
//! scanning, so the lookup's exactness is added as one more predicate.

use crate::planner::Plan;
use crate::schema::{IndexKind, Table};
use crate::syntax::ast::Operator;
use crate::types::Value;

use super::restrict::Predicate;

/// Which part of a column an index lookup matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum IndexedPart {
    /// The whole value (`=`).
    Whole,
    /// A list or set element, or a map value (`CONTAINS`).
    Element,
    /// A map key (`CONTAINS KEY`).
    Key,
}

impl IndexedPart {
    /// Whether `found` holds `bytes` in this part.
    pub(crate) fn holds(self, found: &Value, bytes: &[u8]) -> bool {
        let same = |v: &Value| v.serialize().is_ok_and(|b| b == bytes);
        match (self, found) {
            (_, Value::Null) => false,
            (IndexedPart::Whole, v) => same(v),
            (IndexedPart::Element, Value::List(items) | Value::Set(items)) => {
                items.iter().any(same)
            }
            (IndexedPart::Element, Value::Map(entries)) => entries.iter().any(|(_, v)| same(v)),
            (IndexedPart::Key, Value::Map(entries)) => entries.iter().any(|(k, _)| same(k)),
            _ => false,
        }
    }
}

/// The exact-bytes predicate of the relation `plan`'s legacy index serves,
/// if it goes through one.
pub(crate) fn same_bytes<'t>(
    table: &'t Table,
    plan: &Plan,
    predicates: &[Predicate<'t>],
) -> Option<Predicate<'t>> {
    let name = plan.index.as_deref()?;
    let index = table.indexes.iter().find(|i| i.name == name)?;
    if index.kind != IndexKind::Legacy {
        return None;
    }
    predicates.iter().find_map(|p| {
        let (column, part, value) = match p {
            Predicate::Compare {
                column,
                op: Operator::Eq,
                value,
            } => (*column, IndexedPart::Whole, value),
            Predicate::Contains { column, key, value } => {
                let part = if *key {
                    IndexedPart::Key
                } else {
                    IndexedPart::Element
                };
                (*column, part, value)
            }
            _ => return None,
        };
        if column.name != index.column {
            return None;
        }
        let bytes = value.serialize().ok()?;
        Some(Predicate::SameBytes {
            column,
            part,
            bytes,
        })
    })
}
