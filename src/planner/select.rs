//! Planning a SELECT: restrictions.md §5.1 step by step, then the access
//! class of §5.2. The steps run in Cassandra's order so that a query that
//! breaks several rules gets the error Cassandra reports first.

use crate::error::Error;
use crate::schema::{Column, IndexKind, Table};
use crate::syntax::ast::{Select, SelectClause, Selector, SelectorKind};

use super::clauses;
use super::relations::{undefined_column, StatementType, WhereClause};
use super::restriction::Restriction;

/// Cassandra's ALLOW FILTERING message, word for word.
pub const ALLOW_FILTERING_MESSAGE: &str = "Cannot execute this query as it might involve data filtering and thus may have unpredictable performance. If you want to execute this query despite the performance unpredictability, use ALLOW FILTERING";

/// The state of the partition key restrictions (restrictions.md §2.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum KeyState {
    /// Every partition key column restricted by EQ or IN.
    Exact,
    /// Only `token(…)` relations.
    Token,
    /// Token relations plus partial or sliced key columns.
    TokenFiltered,
    /// Nothing restricts the partition key.
    Empty,
    /// Partial, sliced or CONTAINS-restricted key columns.
    Filtered,
}

/// What the restriction analysis of a SELECT decided.
pub(crate) struct SelectAnalysis<'a> {
    pub(crate) table: &'a Table,
    pub(crate) clause: WhereClause<'a>,
    pub(crate) key: KeyState,
    pub(crate) key_range: bool,
    pub(crate) uses_index: bool,
    /// Restrictions applied to rows after reading.
    pub(crate) row_filter: Vec<Restriction<'a>>,
    pub(crate) clustering_filtered: bool,
}

/// The filtering refusal, pointing at the restriction that needs it (or
/// at the whole statement when none stands out).
fn allow_filtering_error(select: &Select, culprit: Option<&Restriction<'_>>) -> Error {
    let (span, label) = match culprit.and_then(|r| r.relations.first()) {
        Some(relation) => (
            relation.span,
            "this restriction can only be applied by reading and filtering rows",
        ),
        None => (select.span, "this query would need ALLOW FILTERING"),
    };
    Error::invalid(ALLOW_FILTERING_MESSAGE)
        .with_span(span)
        .with_label(label)
        .with_help("restrict the full partition key, or serve this query from a table keyed by these columns")
}

/// Classifies the partition key restrictions.
pub(crate) fn key_state(table: &Table, clause: &WhereClause<'_>) -> KeyState {
    let exact = table.partition_key.iter().all(|name| {
        clause
            .pk
            .iter()
            .any(|r| &r.first().name == name && (r.shape.is_eq() || r.shape.is_in()))
    });
    match (clause.token.is_some(), clause.pk.is_empty(), exact) {
        (_, false, true) => KeyState::Exact,
        (true, true, _) => KeyState::Token,
        (true, false, false) => KeyState::TokenFiltered,
        (false, true, _) => KeyState::Empty,
        (false, false, false) => KeyState::Filtered,
    }
}

/// Whether the clustering restrictions go beyond a seekable prefix
/// (restrictions.md §3.1).
pub(crate) fn clustering_needs_filtering(ck: &[Restriction<'_>]) -> bool {
    let mut expected = 0;
    for (i, r) in ck.iter().enumerate() {
        let first = super::relations::position(r.first());
        if first != expected
            || r.shape.is_contains()
            || matches!(r.shape, super::restriction::Shape::Like)
        {
            return true;
        }
        if r.shape.is_slice() {
            return i + 1 < ck.len();
        }
        expected = r
            .columns
            .iter()
            .map(|c| super::relations::position(c))
            .max()
            .unwrap_or(first)
            + 1;
    }
    false
}

/// The clustering restrictions Cassandra hands to the row filter, not to
/// the clustering slice: those after the seekable prefix, those that need
/// filtering or an index anyway, and those an index supports
/// (`ClusteringColumnRestrictions.addToRowFilter`). A multi-column slice
/// that starts the prefix bounds the slice and is never filtered.
fn clustering_row_filter<'r, 'a>(
    ck: &'r [Restriction<'a>],
) -> impl Iterator<Item = &'r Restriction<'a>> {
    let mut next = 0;
    ck.iter().filter(move |r| {
        let needs_filtering =
            r.shape.is_contains() || matches!(r.shape, super::restriction::Shape::Like);
        if needs_filtering || r.index.is_some() || super::relations::position(r.first()) != next {
            return true;
        }
        if !r.shape.is_slice() {
            next = r
                .columns
                .iter()
                .map(|c| super::relations::position(c))
                .max()
                .unwrap_or(next)
                + 1;
        }
        false
    })
}

/// The gap check of restrictions.md §3.3.
fn check_clustering_prefix(table: &Table, ck: &[Restriction<'_>]) -> Result<(), Error> {
    let mut restricted: Vec<&Column> = ck.iter().flat_map(|r| r.columns.iter().copied()).collect();
    restricted.sort_by_key(|c| super::relations::position(c));
    for (column, expected) in restricted.iter().zip(&table.clustering) {
        if &column.name != expected {
            let error = Error::invalid(format!(
                "PRIMARY KEY column \"{}\" cannot be restricted as preceding column \"{expected}\" is not restricted",
                column.name
            ));
            let span = ck
                .iter()
                .find(|r| r.columns.iter().any(|c| c.name == column.name))
                .and_then(|r| r.relations.first())
                .map(|r| r.span);
            return Err(match span {
                Some(span) => error
                    .with_span(span)
                    .with_label(format!("\"{expected}\" must be restricted first")),
                None => error,
            });
        }
    }
    Ok(())
}

/// Index groups: every SAI index of a table is one group, every other
/// index a group of its own (Cassandra 5.0, CASSANDRA-18217).
pub(crate) fn index_group(index: &crate::schema::Index) -> &str {
    match index.kind {
        IndexKind::Sai => "\u{0}sai",
        _ => index.name.as_str(),
    }
}

/// Whether one index group serves every restriction of the row filter.
fn one_group_serves_all(row_filter: &[Restriction<'_>]) -> bool {
    let Some(first) = row_filter.first().and_then(|r| r.index) else {
        return false;
    };
    let group = index_group(first);
    row_filter.iter().all(|r| match r.index {
        Some(_) if r.partially_indexed => false,
        Some(index) if index_group(index) == group => {
            index.kind == IndexKind::Sai
                || !matches!(r.shape, super::restriction::Shape::Contains { count } if count > 1)
        }
        _ => false,
    })
}

/// Every column a selector names.
pub(crate) fn selector_columns<'s>(
    selector: &'s Selector,
    out: &mut Vec<&'s crate::syntax::ast::Ident>,
) {
    match &selector.kind {
        SelectorKind::Column(c) => out.push(c),
        SelectorKind::Metadata { column, .. } => out.push(column),
        SelectorKind::Cast { selector, .. }
        | SelectorKind::Negate(selector)
        | SelectorKind::Sub { selector, .. }
        | SelectorKind::TypeHint { selector, .. } => selector_columns(selector, out),
        SelectorKind::Function { args, .. }
        | SelectorKind::Tuple(args)
        | SelectorKind::List(args)
        | SelectorKind::Set(args) => args.iter().for_each(|a| selector_columns(a, out)),
        SelectorKind::Map(entries) => entries.iter().for_each(|(k, v)| {
            selector_columns(k, out);
            selector_columns(v, out);
        }),
        SelectorKind::Binary { left, right, .. } => {
            selector_columns(left, out);
            selector_columns(right, out);
        }
        SelectorKind::Term(_) | SelectorKind::CountStar => {}
    }
}

/// The selected columns: for `*`, in `SELECT *` order when DISTINCT needs
/// it to name the first offending column, and none otherwise (no check
/// reads them then).
pub(crate) fn selected_columns<'a>(
    table: &'a Table,
    select: &Select,
) -> Result<Vec<&'a Column>, Error> {
    match &select.selection {
        SelectClause::Star if select.distinct => Ok(table.star_columns()),
        SelectClause::Star => Ok(Vec::new()),
        SelectClause::Items(items) => {
            let mut names = Vec::new();
            for item in items {
                selector_columns(&item.selector, &mut names);
            }
            names
                .into_iter()
                .map(|n| {
                    table
                        .column(&n.name)
                        .ok_or_else(|| undefined_column(table, n))
                })
                .collect()
        }
    }
}

/// The selected columns that exist, for the checks the restrictions make
/// before the selection is resolved (and its unknown columns reported).
fn known_selected_columns<'a>(table: &'a Table, select: &Select) -> Vec<&'a Column> {
    let mut names = Vec::new();
    if let SelectClause::Items(items) = &select.selection {
        for item in items {
            selector_columns(&item.selector, &mut names);
        }
    }
    names.iter().filter_map(|n| table.column(&n.name)).collect()
}

/// Whether the selection reads only partition key and static columns, with
/// at least one static column.
fn selects_only_static(columns: &[&Column], select: &Select) -> bool {
    !matches!(select.selection, SelectClause::Star)
        && columns.iter().any(|c| c.is_static())
        && columns
            .iter()
            .all(|c| c.is_partition_key() || c.is_static())
}

/// Steps 1–17 of restrictions.md §5.1.
pub(crate) fn analyse<'a>(
    table: &'a Table,
    select: &'a Select,
) -> Result<SelectAnalysis<'a>, Error> {
    // Cassandra 5.0 resolves the ORDER BY columns, then the restrictions
    // with their filtering refusals, then the selection (checked on a
    // 5.0.8 node).
    for ordering in &select.order_by {
        if table.column(&ordering.column.name).is_none() {
            return Err(undefined_column(table, &ordering.column));
        }
    }
    let af = select.allow_filtering;
    let clause = WhereClause::build(table, &select.where_clause, StatementType::Select, af)?;
    let has_index = clause
        .pk
        .iter()
        .chain(&clause.ck)
        .chain(&clause.nonpk)
        .any(|r| r.index.is_some());
    let key = key_state(table, &clause);
    let mut key_range = matches!(
        key,
        KeyState::Token | KeyState::TokenFiltered | KeyState::Empty
    );
    let mut uses_index = key == KeyState::Empty && has_index;
    let filtered_key = matches!(key, KeyState::Filtered | KeyState::TokenFiltered);
    if filtered_key {
        if !af && !has_index {
            return Err(allow_filtering_error(select, clause.pk.first()));
        }
        key_range = true;
        uses_index = has_index;
    }
    let mut row_filter: Vec<Restriction<'a>> = Vec::new();
    if uses_index || filtered_key {
        row_filter.extend(clause.pk.iter().cloned());
    }
    if selects_only_static(&known_selected_columns(table, select), select) && !clause.ck.is_empty()
    {
        return Err(Error::invalid(
            "Cannot restrict clustering columns when selecting only static columns",
        ));
    }
    if clause.ck.iter().any(|r| r.shape.is_contains()) && !has_index && !af {
        return Err(Error::invalid(
            "Clustering columns can only be restricted with CONTAINS with a secondary index or filtering",
        ));
    }
    let clustering_filtered = clustering_needs_filtering(&clause.ck);
    if clustering_filtered {
        if has_index {
            uses_index = true;
        } else if !af {
            check_clustering_prefix(table, &clause.ck)?;
        }
    }
    if key_range && clause.ck.iter().any(|r| r.index.is_some()) {
        uses_index = true;
    }
    if uses_index || clustering_filtered {
        row_filter.extend(clause.ck.iter().cloned());
    }
    if !clause.nonpk.is_empty() {
        if has_index {
            uses_index = true;
        } else if !af {
            return Err(allow_filtering_error(select, clause.nonpk.first()));
        }
        row_filter.extend(clause.nonpk.iter().cloned());
    }
    if uses_index && clause.pk.iter().any(|r| r.shape.is_in()) {
        return Err(Error::invalid(
            "Select on indexed columns and with IN clause for the PRIMARY KEY are not supported",
        ));
    }
    let columns = selected_columns(table, select)?;
    clauses::check_nested_aggregates(select)?;
    let analysis = SelectAnalysis {
        table,
        clause,
        key,
        key_range,
        uses_index,
        row_filter,
        clustering_filtered,
    };
    clauses::validate(&analysis, select, &columns)?;
    if !af && (analysis.key_range || analysis.uses_index) {
        let filter_unserved =
            !analysis.row_filter.is_empty() && !one_group_serves_all(&analysis.row_filter);
        let unfiltered_clustering =
            analysis.row_filter.is_empty() && !analysis.clause.ck.is_empty();
        if filter_unserved || unfiltered_clustering {
            let culprit = analysis
                .row_filter
                .iter()
                .find(|r| r.index.is_none())
                .or(analysis.row_filter.first())
                .or(analysis.clause.ck.first());
            return Err(allow_filtering_error(select, culprit));
        }
    }
    super::relations::check_nulls(&analysis.clause, &analysis.row_filter)?;
    if analysis.uses_index || analysis.clustering_filtered {
        super::relations::check_multi_column_filters(clustering_row_filter(&analysis.clause.ck))?;
    }
    clauses::check_limits(select)?;
    Ok(analysis)
}
