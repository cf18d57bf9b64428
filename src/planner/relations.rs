//! Turning WHERE relations into restrictions, one by one in textual order as
//! Cassandra does (restrictions.md §5.1 step 3), so that when a statement
//! breaks several rules the same error is reported first.

use smallvec::{smallvec, SmallVec};

use crate::error::Error;
use crate::schema::{Column, ColumnKind, Index, IndexKind, Table};
use crate::syntax::ast::{
    Ident, InValues, IndexTargetKind, NativeType, Operator, Relation, RelationKind, Term, TermKind,
};
use crate::syntax::span::Span;
use crate::types::{coerce_term, DataType, TermError, Value};

use super::restriction::{Bound, Restriction, Shape};

/// Which statement the WHERE clause belongs to: the rules differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StatementType {
    Select,
    Update,
    Delete,
}

impl StatementType {
    pub(crate) fn name(self) -> &'static str {
        match self {
            StatementType::Select => "SELECT",
            StatementType::Update => "UPDATE",
            StatementType::Delete => "DELETE",
        }
    }
}

/// The token restriction: `token(pk…) op t`, merged.
#[derive(Debug, Clone)]
pub(crate) struct TokenRestriction<'a> {
    pub(crate) shape: Shape<'a>,
    pub(crate) relations: Vec<&'a Relation>,
}

/// Restrictions by column family, after merging.
#[derive(Debug, Default)]
pub(crate) struct WhereClause<'a> {
    /// Partition key restrictions, one per column.
    pub(crate) pk: Vec<Restriction<'a>>,
    /// The token restriction.
    pub(crate) token: Option<TokenRestriction<'a>>,
    /// Clustering restrictions, sorted by first column position.
    pub(crate) ck: Vec<Restriction<'a>>,
    /// Regular and static column restrictions.
    pub(crate) nonpk: Vec<Restriction<'a>>,
}

fn invalid(message: String, relation: &Relation) -> Error {
    Error::invalid(message).with_span(relation.span)
}

/// The "Undefined column name" error: names printed as CQL writes them.
pub(crate) fn undefined_column(table: &Table, name: &crate::syntax::ast::Ident) -> Error {
    let mut written = String::new();
    let _ = crate::syntax::ast::write_name(&mut written, &name.name);
    Error::invalid(format!(
        "Undefined column name {written} in table {}",
        table.qualified_name()
    ))
    .with_span(name.span)
}

fn column<'a>(table: &'a Table, name: &crate::syntax::ast::Ident) -> Result<&'a Column, Error> {
    table
        .column(&name.name)
        .ok_or_else(|| undefined_column(table, name))
}

/// What a restriction asks of an index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Operation {
    Eq,
    In,
    Slice,
    Contains,
    ContainsKey,
    MapEntry,
    Like,
}

impl Operation {
    fn of(shape: &Shape<'_>, map_entry: bool, contains_key: bool) -> Operation {
        match shape {
            Shape::Eq(_) => Operation::Eq,
            Shape::In(_) => Operation::In,
            Shape::Slice { .. } => Operation::Slice,
            Shape::Like => Operation::Like,
            Shape::Contains { .. } if map_entry => Operation::MapEntry,
            Shape::Contains { .. } if contains_key => Operation::ContainsKey,
            Shape::Contains { .. } => Operation::Contains,
        }
    }
}

/// Which index, if any, serves `operation` on `column` (restrictions.md §4.2).
pub(crate) fn serving_index<'a>(
    table: &'a Table,
    column: &Column,
    operation: Operation,
) -> Option<&'a Index> {
    table
        .indexes
        .iter()
        .filter(|index| index.column == column.name)
        .find(|index| index_serves(index, column, operation))
}

fn index_serves(index: &Index, column: &Column, operation: Operation) -> bool {
    let target_matches = match operation {
        Operation::MapEntry => index.target == IndexTargetKind::Entries,
        Operation::ContainsKey => index.target == IndexTargetKind::Keys,
        Operation::Contains => matches!(
            index.target,
            IndexTargetKind::Values | IndexTargetKind::Simple
        ),
        _ if column.data_type.is_multi_cell() => false,
        _ if column.data_type.is_collection() => matches!(
            index.target,
            IndexTargetKind::Full | IndexTargetKind::Simple
        ),
        _ => index.target == IndexTargetKind::Simple,
    };
    if !target_matches {
        return false;
    }
    match operation {
        Operation::Contains | Operation::ContainsKey | Operation::MapEntry => {
            !matches!(index.kind, IndexKind::Sasi)
        }
        Operation::Eq => true,
        Operation::Slice => match index.kind {
            IndexKind::Sai => !is_literal_type(&column.data_type),
            IndexKind::Sasi => true,
            _ => false,
        },
        Operation::Like => index.kind == IndexKind::Sasi,
        Operation::In => false,
    }
}

/// SAI indexes string-like ("literal") types without range support.
fn is_literal_type(ty: &DataType) -> bool {
    matches!(
        ty,
        DataType::Native(
            NativeType::Text | NativeType::Ascii | NativeType::Boolean | NativeType::Uuid
        )
    )
}

impl<'a> WhereClause<'a> {
    /// Builds the restrictions of `relations`, raising the first error.
    pub(crate) fn build(
        table: &'a Table,
        relations: &'a [Relation],
        statement: StatementType,
        allow_filtering: bool,
    ) -> Result<WhereClause<'a>, Error> {
        let mut clause = WhereClause::default();
        for relation in relations {
            clause.add(table, relation, statement, allow_filtering)?;
        }
        Ok(clause)
    }

    /// The restrictions an INSERT's key columns make, each `=` to the term
    /// written for it, in the order written: what [`WhereClause::build`]
    /// makes of `column = term` relations, with the same checks and errors,
    /// but without relations, which an INSERT would have to make by copying
    /// each name and term.
    pub(crate) fn of_key_values(
        table: &'a Table,
        written: impl Iterator<Item = (&'a Column, &'a Ident, &'a Term)>,
    ) -> Result<WhereClause<'a>, Error> {
        let mut clause = WhereClause::default();
        for (col, name, term) in written.filter(|(col, ..)| col.is_primary_key()) {
            check_eq_operand_type(col, name.span)?;
            let restriction = Restriction {
                columns: smallvec![col],
                multi: false,
                shape: Shape::Eq(term),
                relations: SmallVec::new(),
                index: serving_index(table, col, Operation::Eq),
                partially_indexed: false,
                value: check_term(term, &col.data_type, &col.name)?,
            };
            match col.kind {
                ColumnKind::PartitionKey(_) => merge_by_column(&mut clause.pk, restriction)?,
                _ => clause.add_clustering(restriction, false)?,
            }
        }
        Ok(clause)
    }

    fn add(
        &mut self,
        table: &'a Table,
        relation: &'a Relation,
        statement: StatementType,
        allow_filtering: bool,
    ) -> Result<(), Error> {
        match &relation.kind {
            RelationKind::Contains { key, .. } if statement != StatementType::Select => {
                let what = if *key { "CONTAINS KEY" } else { "CONTAINS" };
                return Err(invalid(
                    format!("Cannot use {} with {what}", statement.name()),
                    relation,
                ));
            }
            RelationKind::IsNotNull { .. } => {
                return Err(invalid(
                    format!("Unsupported restriction: {relation}"),
                    relation,
                ));
            }
            RelationKind::Compare {
                op: Operator::Ne, ..
            }
            | RelationKind::MultiCompare {
                op: Operator::Ne, ..
            }
            | RelationKind::Token {
                op: Operator::Ne, ..
            }
            | RelationKind::MapEntry {
                op: Operator::Ne, ..
            } => {
                return Err(invalid(
                    format!("Unsupported \"!=\" relation: {}", ne_text(relation)),
                    relation,
                ));
            }
            _ => {}
        }
        match &relation.kind {
            RelationKind::Token { columns, op, value } => {
                self.add_token(table, relation, columns, *op, value)
            }
            RelationKind::MultiCompare { columns, op, value } => {
                let shape = shape_of(*op, value);
                let restriction = multi_restriction(table, relation, columns, shape)?;
                self.add_clustering(restriction, allow_filtering)
            }
            RelationKind::MultiIn { columns, values } => {
                let shape = match values {
                    InValues::List(items) if items.len() == 1 => Shape::Eq(&items[0]),
                    _ => Shape::In(values),
                };
                let restriction = multi_restriction(table, relation, columns, shape)?;
                self.add_clustering(restriction, allow_filtering)
            }
            _ => self.add_single(table, relation, allow_filtering),
        }
    }

    fn add_single(
        &mut self,
        table: &'a Table,
        relation: &'a Relation,
        allow_filtering: bool,
    ) -> Result<(), Error> {
        let (name, shape, map_entry, contains_key) = match &relation.kind {
            RelationKind::Compare { column, op, value } => {
                (column, shape_of(*op, value), false, false)
            }
            RelationKind::In { column, values } => {
                let shape = match values {
                    InValues::List(items) if items.len() == 1 => Shape::Eq(&items[0]),
                    _ => Shape::In(values),
                };
                (column, shape, false, false)
            }
            RelationKind::Contains { column, key, .. } => {
                (column, Shape::Contains { count: 1 }, false, *key)
            }
            RelationKind::MapEntry { column, .. } => {
                (column, Shape::Contains { count: 1 }, true, false)
            }
            RelationKind::Like { column, .. } => (column, Shape::Like, false, false),
            _ => return Ok(()),
        };
        let col = column(table, name)?;
        check_operator_for_type(col, relation, &shape, map_entry, contains_key)?;
        let value = check_value_types(col, relation)?.filter(|_| shape.is_eq());
        let index = serving_index(table, col, Operation::of(&shape, map_entry, contains_key));
        if matches!(shape, Shape::Like) && index.is_none() {
            return Err(invalid(
                format!(
                    "LIKE restriction is only supported on properly indexed columns. {relation} is not valid."
                ),
                relation,
            ));
        }
        let restriction = Restriction {
            columns: smallvec![col],
            multi: false,
            shape,
            relations: smallvec![relation],
            index,
            partially_indexed: false,
            value,
        };
        match col.kind {
            ColumnKind::PartitionKey(_) => merge_by_column(&mut self.pk, restriction),
            ColumnKind::Clustering(..) => self.add_clustering(restriction, allow_filtering),
            ColumnKind::Static | ColumnKind::Regular => {
                merge_by_column(&mut self.nonpk, restriction)
            }
        }
    }

    fn add_token(
        &mut self,
        table: &'a Table,
        relation: &'a Relation,
        columns: &'a [crate::syntax::ast::Ident],
        op: Operator,
        value: &'a Term,
    ) -> Result<(), Error> {
        let mut resolved = Vec::new();
        for name in columns {
            resolved.push(column(table, name)?);
        }
        check_token_arguments(table, &resolved, relation)?;
        let new = TokenRestriction {
            shape: shape_of(op, value),
            relations: vec![relation],
        };
        let Some(existing) = self.token.as_mut() else {
            self.token = Some(new);
            return Ok(());
        };
        let names = table.partition_key.join(", ");
        match (&mut existing.shape, &new.shape) {
            (Shape::Eq(_), _) => Err(invalid(
                format!("{names} cannot be restricted by more than one relation if it includes an Equal"),
                relation,
            )),
            (Shape::Slice { .. }, Shape::Eq(_)) => Err(invalid(
                format!("Columns \"{names}\" cannot be restricted by both an equality and an inequality relation"),
                relation,
            )),
            (Shape::Slice { lower, upper }, Shape::Slice { lower: nl, upper: nu }) => {
                if lower.is_some() && nl.is_some() {
                    return Err(invalid(
                        format!("More than one restriction was found for the start bound on {names}"),
                        relation,
                    ));
                }
                if upper.is_some() && nu.is_some() {
                    return Err(invalid(
                        format!("More than one restriction was found for the end bound on {names}"),
                        relation,
                    ));
                }
                *lower = lower.or(*nl);
                *upper = upper.or(*nu);
                existing.relations.push(relation);
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// Adds a clustering restriction: merge first (which may fail), then
    /// Cassandra's order checks against the restrictions already there
    /// (restrictions.md §3.2), skipped with ALLOW FILTERING or when an index
    /// serves the new restriction.
    fn add_clustering(&mut self, new: Restriction<'a>, allow_filtering: bool) -> Result<(), Error> {
        let new_first = new.first();
        let new_is_slice = new.shape.is_slice();
        let new_indexed = new.index.is_some();
        let span = new.relations.first().map(|r| r.span);
        let overlapping = self.ck.iter().position(|r| {
            r.columns
                .iter()
                .any(|c| new.columns.iter().any(|n| n.name == c.name))
        });
        let (merged, unmerged) = match overlapping {
            Some(at) => {
                let mut existing = self.ck[at].clone();
                merge_clustering(&mut existing, new)?;
                (Some((at, existing)), None)
            }
            None => (None, Some(new)),
        };
        if !self.ck.is_empty() && !allow_filtering && !new_indexed {
            self.check_clustering_order(new_first, new_is_slice, span)?;
        }
        if let Some((at, restriction)) = merged {
            self.ck[at] = restriction;
        }
        if let Some(new) = unmerged {
            let at = self
                .ck
                .iter()
                .position(|r| position(r.first()) > position(new_first))
                .unwrap_or(self.ck.len());
            self.ck.insert(at, new);
        }
        Ok(())
    }

    fn check_clustering_order(
        &self,
        new_first: &Column,
        new_is_slice: bool,
        span: Option<crate::syntax::span::Span>,
    ) -> Result<(), Error> {
        let Some(last) = self.ck.iter().max_by_key(|r| position(r.first())) else {
            return Ok(());
        };
        let last_first = last.first();
        let with_span = |e: Error| match span {
            Some(s) => e.with_span(s),
            None => e,
        };
        if last.shape.is_slice() && position(new_first) > position(last_first) {
            return Err(with_span(Error::invalid(format!(
                "Clustering column \"{}\" cannot be restricted (preceding column \"{}\" is restricted by a non-EQ relation)",
                new_first.name, last_first.name
            ))));
        }
        if position(new_first) < position(last_first) && new_is_slice {
            let next = self
                .ck
                .iter()
                .flat_map(|r| r.columns.iter())
                .filter(|c| position(c) > position(new_first))
                .min_by_key(|c| position(c))
                .map_or(last_first.name.as_str(), |c| c.name.as_str());
            return Err(with_span(Error::invalid(format!(
                "PRIMARY KEY column \"{next}\" cannot be restricted (preceding column \"{}\" is restricted by a non-EQ relation)",
                new_first.name
            ))));
        }
        Ok(())
    }
}

/// A column's position within its part of the key.
pub(crate) fn position(column: &Column) -> usize {
    match column.kind {
        ColumnKind::PartitionKey(i) | ColumnKind::Clustering(i, _) => i,
        _ => usize::MAX,
    }
}

fn shape_of(op: Operator, value: &Term) -> Shape<'_> {
    let bound = Bound {
        value,
        inclusive: matches!(op, Operator::Le | Operator::Ge),
    };
    match op {
        Operator::Eq | Operator::Ne => Shape::Eq(value),
        Operator::Gt | Operator::Ge => Shape::Slice {
            lower: Some(bound),
            upper: None,
        },
        Operator::Lt | Operator::Le => Shape::Slice {
            lower: None,
            upper: Some(bound),
        },
    }
}

fn merge_by_column<'a>(set: &mut Vec<Restriction<'a>>, new: Restriction<'a>) -> Result<(), Error> {
    match set.iter_mut().find(|r| r.first().name == new.first().name) {
        Some(existing) => {
            let subject = existing.first().name.clone();
            existing.merge(new, &subject)
        }
        None => {
            set.push(new);
            Ok(())
        }
    }
}

/// Merging on clustering columns, where multi-column restrictions meet
/// single-column ones: Cassandra 5.0's `MergedRestriction.validate`, where
/// `b > 0 AND (b, c) < (2, 0)` is one slice and two slices must start on
/// the same column.
fn merge_clustering<'a>(existing: &mut Restriction<'a>, new: Restriction<'a>) -> Result<(), Error> {
    let span = new.relations.first().map(|r| r.span);
    let with_span = |e: Error| match span {
        Some(s) => e.with_span(s),
        None => e,
    };
    if existing.shape.is_slice()
        && new.shape.is_slice()
        && existing.first().name != new.first().name
    {
        let later = if position(new.first()) > position(existing.first()) {
            new.first()
        } else {
            existing.first()
        };
        return Err(with_span(Error::invalid(format!(
            "Column \"{}\" cannot be restricted by two inequalities not starting with the same column",
            later.name
        ))));
    }
    let subject = if existing.multi {
        let common: Vec<&str> = existing
            .columns
            .iter()
            .filter(|c| new.columns.iter().any(|n| n.name == c.name))
            .map(|c| c.name.as_str())
            .collect();
        common.join(" ,")
    } else {
        existing.names()
    };
    existing.merge(new, &subject)
}

/// The checks of restrictions.md §2.4 on `token(…)`'s arguments.
fn check_token_arguments(
    table: &Table,
    columns: &[&Column],
    relation: &Relation,
) -> Result<(), Error> {
    let all_present = table
        .partition_key
        .iter()
        .all(|pk| columns.iter().any(|c| &c.name == pk));
    if !all_present {
        return Err(invalid(
            "The token() function must be applied to all partition key components or none of them"
                .into(),
            relation,
        ));
    }
    let mut seen = std::collections::HashSet::new();
    if columns.iter().any(|c| !seen.insert(c.name.as_str())) {
        return Err(invalid(
            "The token() function contains duplicate partition key components".into(),
            relation,
        ));
    }
    if columns.iter().any(|c| !c.is_partition_key()) {
        return Err(invalid(
            "The token() function must contains only partition key components".into(),
            relation,
        ));
    }
    let in_order = columns
        .iter()
        .zip(&table.partition_key)
        .all(|(c, pk)| &c.name == pk);
    if !in_order {
        return Err(invalid(
            format!(
                "The token function arguments must be in the partition key order: {}",
                table.partition_key.join(", ")
            ),
            relation,
        ));
    }
    Ok(())
}

/// Builds a multi-column restriction, with the checks of restrictions.md §3.5.
fn multi_restriction<'a>(
    table: &'a Table,
    relation: &'a Relation,
    names: &'a [crate::syntax::ast::Ident],
    shape: Shape<'a>,
) -> Result<Restriction<'a>, Error> {
    let mut columns: Vec<&Column> = Vec::new();
    for name in names {
        let col = column(table, name)?;
        if !col.is_clustering() {
            return Err(invalid(
                format!(
                    "Multi-column relations can only be applied to clustering columns but was applied to: {}",
                    col.name
                ),
                relation,
            ));
        }
        if columns.iter().any(|c| c.name == col.name) {
            return Err(invalid(
                format!(
                    "Column \"{}\" appeared twice in a relation: {relation}",
                    col.name
                ),
                relation,
            ));
        }
        columns.push(col);
    }
    let consecutive = columns
        .windows(2)
        .all(|w| position(w[1]) == position(w[0]) + 1);
    if !consecutive {
        return Err(invalid(
            format!(
                "Clustering columns must appear in the PRIMARY KEY order in multi-column relations: {relation}"
            ),
            relation,
        ));
    }
    check_tuple_arity(&shape, columns.len(), relation)?;
    let tuple = DataType::Tuple(columns.iter().map(|c| c.data_type.clone()).collect());
    for term in shape_terms(&shape) {
        check_term(term, &tuple, &columns[0].name)?;
    }
    let operation = Operation::of(&shape, false, false);
    let served: Vec<Option<&Index>> = columns
        .iter()
        .map(|c| serving_index(table, c, operation))
        .collect();
    let index = served.iter().flatten().next().copied();
    let partially_indexed = index.is_some_and(|first| {
        served.iter().any(|i| {
            i.is_none_or(|i| super::select::index_group(i) != super::select::index_group(first))
        })
    });
    Ok(Restriction {
        columns: columns.into(),
        multi: true,
        shape,
        relations: smallvec![relation],
        index,
        partially_indexed,
        value: None,
    })
}

fn check_tuple_arity(shape: &Shape<'_>, arity: usize, relation: &Relation) -> Result<(), Error> {
    let check = |term: &Term| -> Result<(), Error> {
        if let TermKind::Tuple(items) = &term.kind {
            if items.len() != arity {
                return Err(invalid(
                    format!(
                        "Expected {arity} elements in value tuple, but got {}: {term}",
                        items.len()
                    ),
                    relation,
                ));
            }
        }
        Ok(())
    };
    match shape {
        Shape::Eq(t) => check(t),
        Shape::In(InValues::List(items)) => items.iter().try_for_each(check),
        Shape::Slice { lower, upper } => {
            if let Some(b) = lower {
                check(b.value)?;
            }
            if let Some(b) = upper {
                check(b.value)?;
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// Per-type operator legality (restrictions.md §4.1).
fn check_operator_for_type(
    column: &Column,
    relation: &Relation,
    shape: &Shape<'_>,
    map_entry: bool,
    contains_key: bool,
) -> Result<(), Error> {
    let ty = &column.data_type;
    let name = &column.name;
    if let Some(message) = unrestrictable_udt(column) {
        return Err(invalid(message, relation));
    }
    if map_entry {
        return match ty {
            DataType::List { .. } => Err(invalid(
                format!(
                    "Indexes on list entries ({name}[index] = value) are not currently supported."
                ),
                relation,
            )),
            DataType::Map { frozen: true, .. } => Err(invalid(
                format!(
                    "Map-entry equality predicates on frozen map column {name} are not supported"
                ),
                relation,
            )),
            DataType::Map { .. } => match &relation.kind {
                RelationKind::MapEntry {
                    op: Operator::Eq, ..
                } => Ok(()),
                _ => Err(invalid(
                    "Only EQ relations are supported on map entries".into(),
                    relation,
                )),
            },
            _ => Err(invalid(
                format!("Column {name} cannot be used as a map"),
                relation,
            )),
        };
    }
    if let Shape::Contains { .. } = shape {
        if contains_key && !matches!(ty, DataType::Map { .. }) {
            return Err(invalid(
                format!("Cannot use CONTAINS KEY on non-map column {name}"),
                relation,
            ));
        }
        if !ty.is_collection() {
            return Err(invalid(
                format!("Cannot use CONTAINS on non-collection column {name}"),
                relation,
            ));
        }
        return Ok(());
    }
    if ty.is_multi_cell() {
        let op = match &relation.kind {
            RelationKind::Compare { op, .. } => op.symbol(),
            RelationKind::In { .. } => "IN",
            RelationKind::Like { .. } => "LIKE",
            _ => "=",
        };
        return Err(invalid(multi_cell_restricted(column, op), relation));
    }
    if shape.is_slice() && ty.contains_duration() {
        return Err(invalid(
            "Slice restrictions are not supported on duration columns".into(),
            relation,
        ));
    }
    Ok(())
}

/// [`check_operator_for_type`] for `column = …` written at `span`.
fn check_eq_operand_type(column: &Column, span: Span) -> Result<(), Error> {
    if let Some(message) = unrestrictable_udt(column) {
        return Err(Error::invalid(message).with_span(span));
    }
    if column.data_type.is_multi_cell() {
        return Err(Error::invalid(multi_cell_restricted(column, "=")).with_span(span));
    }
    Ok(())
}

/// The refusal of any relation on a non-frozen UDT column.
fn unrestrictable_udt(column: &Column) -> Option<String> {
    let ty = &column.data_type;
    matches!(ty, DataType::Udt { frozen: false, .. }).then(|| {
        format!(
            "Non-frozen UDT column '{}' ({ty}) cannot be restricted by any relation",
            column.name
        )
    })
}

/// The refusal of `op` on a non-frozen collection column.
fn multi_cell_restricted(column: &Column, op: &str) -> String {
    format!(
        "Collection column '{}' ({}) cannot be restricted by a '{op}' relation",
        column.name, column.data_type
    )
}

/// Every value term of an EQ, IN or slice shape: inline for all but IN,
/// as every key restriction of every write is asked for its terms.
fn shape_terms<'a>(shape: &Shape<'a>) -> SmallVec<[&'a Term; 2]> {
    match shape {
        Shape::Eq(term) => smallvec![*term],
        Shape::In(InValues::List(terms)) => terms.iter().collect(),
        Shape::Slice { lower, upper } => {
            lower.iter().chain(upper.iter()).map(|b| b.value).collect()
        }
        _ => SmallVec::new(),
    }
}

/// Checks a value against the type it must have, as Cassandra does when it
/// prepares the statement. Nulls and values bound at execution pass here.
/// The converted value of a constant is returned for reuse.
fn check_term(term: &Term, ty: &DataType, column: &str) -> Result<Option<Value>, Error> {
    match coerce_term(term, ty, column) {
        Ok(value) => Ok(Some(value)),
        Err(TermError::Invalid(e)) => Err(e.with_span(term.span)),
        Err(TermError::NotConstant(_)) => Ok(None),
    }
}

/// The values of a single-column relation, against the column's type (or
/// its element, key or value type for CONTAINS and map entries). The value
/// of a comparison or one-item IN with a constant is returned for reuse.
fn check_value_types(column: &Column, relation: &Relation) -> Result<Option<Value>, Error> {
    let ty = &column.data_type;
    let name = column.name.as_str();
    let element = |key: bool| match ty {
        DataType::List { element, .. } | DataType::Set { element, .. } => Some(&**element),
        DataType::Map { key: k, .. } if key => Some(&**k),
        DataType::Map { value, .. } => Some(&**value),
        _ => None,
    };
    match &relation.kind {
        RelationKind::Compare { value, .. } => check_term(value, ty, name),
        RelationKind::In {
            values: InValues::List(values),
            ..
        } => {
            let mut last = None;
            for v in values {
                last = check_term(v, ty, name)?;
            }
            Ok(last.filter(|_| values.len() == 1))
        }
        RelationKind::Contains { key, value, .. } => match element(*key) {
            Some(ty) => check_term(value, ty, name).map(|_| None),
            None => Ok(None),
        },
        RelationKind::MapEntry { key, value, .. } => {
            if let Some(ty) = element(true) {
                check_term(key, ty, name)?;
            }
            match element(false) {
                Some(ty) => check_term(value, ty, name).map(|_| None),
                None => Ok(None),
            }
        }
        _ => Ok(None),
    }
}

/// Null values where a key needs a value, or in a filter: refused when the
/// statement runs (restrictions.md §2.7, §4.1); a literal `null` is known
/// already.
pub(crate) fn check_nulls(
    clause: &WhereClause<'_>,
    filtered: &[Restriction<'_>],
) -> Result<(), Error> {
    for restriction in clause.pk.iter().chain(&clause.ck) {
        if restriction.multi {
            continue;
        }
        let column = restriction.first();
        for term in shape_terms(&restriction.shape) {
            if is_null_literal(term) {
                return Err(Error::invalid(format!(
                    "Invalid null value in condition for column {}",
                    column.name
                ))
                .with_span(term.span));
            }
        }
    }
    for restriction in filtered.iter().filter(|r| !r.columns[0].is_primary_key()) {
        for relation in &restriction.relations {
            let nulls: SmallVec<[(&Term, &str); 2]> = match &relation.kind {
                RelationKind::Compare { value, .. } | RelationKind::Contains { value, .. } => {
                    smallvec![(value, "value")]
                }
                RelationKind::MapEntry { key, value, .. } => {
                    smallvec![(&**key, "map key"), (value, "map value")]
                }
                _ => SmallVec::new(),
            };
            if let Some((term, part)) = nulls.into_iter().find(|(t, _)| is_null_literal(t)) {
                return Err(Error::invalid(format!(
                    "Unsupported null {part} for column {}",
                    restriction.first().name
                ))
                .with_span(term.span));
            }
        }
    }
    Ok(())
}

fn is_null_literal(term: &Term) -> bool {
    matches!(
        term.kind,
        TermKind::Literal(crate::syntax::ast::Literal::Null)
    )
}

/// Multi-column restrictions in the row filter (`filtered`) cannot be
/// evaluated there (`SimpleRestriction.addToRowFilter`): refused when the
/// statement runs.
pub(crate) fn check_multi_column_filters<'r, 'a: 'r>(
    filtered: impl Iterator<Item = &'r Restriction<'a>>,
) -> Result<(), Error> {
    for restriction in filtered.filter(|r| r.multi) {
        if restriction.shape.is_slice() {
            return Err(Error::invalid(
                "Multi-column slice restrictions cannot be used for filtering.",
            ));
        }
        if restriction.shape.is_in() && restriction.columns.len() > 1 {
            return Err(Error::invalid("Multicolumn IN filters are not supported"));
        }
    }
    Ok(())
}

/// A `!=` relation as Cassandra's `Relation.toString` writes it: terms as
/// `Term.Raw.getText` gives them, inner quotes not doubled.
fn ne_text(relation: &Relation) -> String {
    use crate::types::term_text;
    match &relation.kind {
        RelationKind::Compare { column, value, .. } => format!("{column} != {}", term_text(value)),
        RelationKind::MapEntry {
            column, key, value, ..
        } => format!("{column}[{}] != {}", term_text(key), term_text(value)),
        _ => relation.to_string(),
    }
}
