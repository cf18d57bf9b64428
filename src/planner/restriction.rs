//! Restrictions: what the WHERE clause says about each column, after
//! relations on the same column have been merged with Cassandra's rules
//! (restrictions.md §3.4, §3.5, §2.4 rule 3).

use smallvec::SmallVec;

use crate::error::Error;
use crate::schema::{Column, Index};
use crate::syntax::ast::{InValues, Relation, Term};
use crate::types::Value;

/// One bound of a slice.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Bound<'a> {
    pub(crate) value: &'a Term,
    pub(crate) inclusive: bool,
}

/// The shape of a restriction.
#[derive(Debug, Clone)]
pub(crate) enum Shape<'a> {
    /// `=`, a one-value IN, or a multi-column `=`.
    Eq(&'a Term),
    /// IN with several values (or none), or `IN ?`.
    In(&'a InValues),
    /// `<`, `<=`, `>`, `>=`, merged into one two-sided slice when both sides
    /// are given.
    Slice {
        lower: Option<Bound<'a>>,
        upper: Option<Bound<'a>>,
    },
    /// CONTAINS, CONTAINS KEY and map-entry equality; several may pile up.
    Contains { count: usize },
    /// LIKE.
    Like,
}

impl Shape<'_> {
    pub(crate) fn is_eq(&self) -> bool {
        matches!(self, Shape::Eq(_))
    }

    pub(crate) fn is_in(&self) -> bool {
        matches!(self, Shape::In(_))
    }

    pub(crate) fn is_slice(&self) -> bool {
        matches!(self, Shape::Slice { .. })
    }

    pub(crate) fn is_contains(&self) -> bool {
        matches!(self, Shape::Contains { .. })
    }
}

/// A merged restriction on one column, or on several clustering columns
/// for a multi-column relation.
#[derive(Debug, Clone)]
pub(crate) struct Restriction<'a> {
    /// The columns, in key order (one for single-column restrictions).
    pub(crate) columns: SmallVec<[&'a Column; 1]>,
    /// Whether it came from a multi-column relation.
    pub(crate) multi: bool,
    pub(crate) shape: Shape<'a>,
    /// The relations merged into it, in textual order; none for an
    /// INSERT's key columns, which are written as values, not relations.
    pub(crate) relations: SmallVec<[&'a Relation; 1]>,
    /// The index that serves it, if any: one serving any of its columns,
    /// as Cassandra's `SingleRestriction.isSupportedBy` asks.
    pub(crate) index: Option<&'a Index>,
    /// Whether some column of a multi-column restriction has no index in
    /// the group of `index`: Cassandra's `SimpleRestriction.needsFiltering`
    /// then still asks for filtering, though the index is used.
    pub(crate) partially_indexed: bool,
    /// The value of an `=` restriction's constant term, converted once
    /// while its type was checked, so routing and the executor need not
    /// parse the literal again. `None` when not constant or after merging.
    pub(crate) value: Option<Value>,
}

impl<'a> Restriction<'a> {
    /// The first column (the one that decides the restriction's place).
    pub(crate) fn first(&self) -> &'a Column {
        self.columns[0]
    }

    /// The column list as Cassandra's messages write it.
    pub(crate) fn names(&self) -> String {
        let names: Vec<&str> = self.columns.iter().map(|c| c.name.as_str()).collect();
        if self.multi {
            names.join(" ,")
        } else {
            names.join(", ")
        }
    }

    /// The restriction as CQL, for plans.
    pub(crate) fn text(&self) -> String {
        let parts: Vec<String> = self.relations.iter().map(|r| r.to_string()).collect();
        parts.join(" AND ")
    }

    /// Merges `new` (a restriction on the same column(s)) into this one,
    /// with Cassandra's rules and messages.
    pub(crate) fn merge(&mut self, new: Restriction<'a>, subject: &str) -> Result<(), Error> {
        self.value = None;
        let span = new.relations.first().map(|r| r.span);
        let fail = |message: String| {
            let error = Error::invalid(message);
            Err(match span {
                Some(span) => error.with_span(span),
                None => error,
            })
        };
        match (&mut self.shape, &new.shape) {
            (Shape::Eq(_), _) => fail(format!(
                "{subject} cannot be restricted by more than one relation if it includes an Equal"
            )),
            (Shape::In(_), _) => fail(format!(
                "{subject} cannot be restricted by more than one relation if it includes a IN"
            )),
            (Shape::Like, _) => fail(format!(
                "{subject} cannot be restricted by more than one relation if it includes a LIKE"
            )),
            (Shape::Slice { .. }, Shape::Eq(_) | Shape::In(_) | Shape::Contains { .. } | Shape::Like) => {
                fail(format!(
                    "Column \"{subject}\" cannot be restricted by both an equality and an inequality relation"
                ))
            }
            (Shape::Contains { .. }, Shape::Eq(_) | Shape::In(_) | Shape::Slice { .. } | Shape::Like) => {
                fail(format!(
                    "Collection column {subject} can only be restricted by CONTAINS, CONTAINS KEY, or map-entry equality"
                ))
            }
            (Shape::Contains { count }, Shape::Contains { count: more }) => {
                *count += more;
                self.absorb(new);
                Ok(())
            }
            (
                Shape::Slice { lower, upper },
                Shape::Slice {
                    lower: new_lower,
                    upper: new_upper,
                },
            ) => {
                if lower.is_some() && new_lower.is_some() {
                    return fail(format!(
                        "More than one restriction was found for the start bound on {subject}"
                    ));
                }
                if upper.is_some() && new_upper.is_some() {
                    return fail(format!(
                        "More than one restriction was found for the end bound on {subject}"
                    ));
                }
                *lower = lower.or(*new_lower);
                *upper = upper.or(*new_upper);
                self.absorb(new);
                Ok(())
            }
        }
    }

    /// Takes in the relations, columns and index of `new`, merged into
    /// this one: the merge covers the longer column list and counts as
    /// multi-column when either side is (Cassandra's `MergedRestriction`),
    /// and one indexed part is enough for the index to serve it.
    fn absorb(&mut self, new: Restriction<'a>) {
        if new.columns.len() > self.columns.len() {
            self.columns = new.columns;
        }
        self.multi |= new.multi;
        self.relations.extend(new.relations);
        self.index = self.index.or(new.index);
        self.partially_indexed = false;
    }
}
