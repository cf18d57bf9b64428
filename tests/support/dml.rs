//! Data statements and the clauses they share: WHERE relations, IF
//! conditions, USING items.

use proptest::prelude::*;
use widerow::syntax::ast::{
    ArithmeticSign, Assignment, AssignmentKind, Batch, BatchKind, BatchStatement, ColumnRef,
    Condition, ConditionKind, Delete, IfClause, Insert, InsertSource, JsonDefault, Literal,
    Operator, Order, Ordering, Relation, RelationKind, Select, SelectClause, SelectItem, Term,
    TermKind, Update, UsingItem,
};
use widerow::syntax::span::Span;

use super::literals;
use super::names::{ident, qualified_name};
use super::nodes::term as node;
use super::selectors::selector;
use super::terms::{in_values, integer_or_marker, marker, term, tuple_or_marker};
use super::{few, DEPTH};

/// Any comparison operator (`!=` is only meaningful in IF, but the grammar
/// takes it everywhere).
pub fn operator() -> BoxedStrategy<Operator> {
    prop::sample::select(vec![
        Operator::Eq,
        Operator::Ne,
        Operator::Lt,
        Operator::Le,
        Operator::Gt,
        Operator::Ge,
    ])
    .boxed()
}

fn relation_kind() -> BoxedStrategy<RelationKind> {
    let value = || term(DEPTH - 1);
    let columns = || prop::collection::vec(ident(), 1..4);
    prop_oneof![
        4 => (ident(), operator(), value())
            .prop_map(|(column, op, value)| RelationKind::Compare { column, op, value }),
        2 => (ident(), in_values(value()))
            .prop_map(|(column, values)| RelationKind::In { column, values }),
        1 => (ident(), any::<bool>(), value())
            .prop_map(|(column, key, value)| RelationKind::Contains { column, key, value }),
        1 => (ident(), value(), operator(), value()).prop_map(|(column, key, op, value)| {
            RelationKind::MapEntry {
                column,
                key: Box::new(key),
                op,
                value,
            }
        }),
        1 => (columns(), operator(), tuple_or_marker(DEPTH - 1))
            .prop_map(|(columns, op, value)| RelationKind::MultiCompare { columns, op, value }),
        1 => (columns(), in_values(tuple_or_marker(DEPTH - 1)))
            .prop_map(|(columns, values)| RelationKind::MultiIn { columns, values }),
        1 => (few(ident(), 4), operator(), value())
            .prop_map(|(columns, op, value)| RelationKind::Token { columns, op, value }),
        1 => (ident(), value()).prop_map(|(column, value)| RelationKind::Like { column, value }),
        1 => ident().prop_map(|column| RelationKind::IsNotNull { column }),
    ]
    .boxed()
}

/// One WHERE restriction.
pub fn relation() -> BoxedStrategy<Relation> {
    relation_kind()
        .prop_map(|kind| Relation {
            kind,
            span: Span::default(),
        })
        .boxed()
}

/// A WHERE clause that must be present (UPDATE, DELETE).
fn where_clause() -> BoxedStrategy<Vec<Relation>> {
    prop::collection::vec(relation(), 1..4).boxed()
}

/// `ASC`, `DESC` or nothing.
fn order() -> BoxedStrategy<Option<Order>> {
    prop::option::of(prop::sample::select(vec![Order::Asc, Order::Desc])).boxed()
}

/// `*` or selectors with optional aliases.
pub fn select_clause() -> BoxedStrategy<SelectClause> {
    let item = (selector(DEPTH), prop::option::of(ident()))
        .prop_map(|(selector, alias)| SelectItem { selector, alias });
    prop_oneof![
        1 => Just(SelectClause::Star),
        4 => prop::collection::vec(item, 1..4).prop_map(SelectClause::Items),
    ]
    .boxed()
}

/// `SELECT [JSON] [DISTINCT] … FROM t [WHERE …] [GROUP BY …] [ORDER BY …]
/// [PER PARTITION LIMIT n] [LIMIT n] [ALLOW FILTERING]`
pub fn select() -> BoxedStrategy<Select> {
    let head = (
        any::<bool>(),
        any::<bool>(),
        select_clause(),
        qualified_name(),
    );
    let clauses = (
        few(relation(), 4),
        few(selector(DEPTH - 1), 3),
        few(
            (ident(), order()).prop_map(|(column, order)| Ordering { column, order }),
            3,
        ),
    );
    let tail = (
        prop::option::of(integer_or_marker()),
        prop::option::of(integer_or_marker()),
        any::<bool>(),
    );
    (head, clauses, tail)
        .prop_map(
            |(
                (json, distinct, selection, from),
                (where_clause, group_by, order_by),
                (per_partition_limit, limit, allow_filtering),
            )| Select {
                json,
                distinct,
                selection,
                from,
                where_clause,
                group_by,
                order_by,
                per_partition_limit,
                limit,
                allow_filtering,
                span: Span::default(),
            },
        )
        .boxed()
}

/// `TTL n` or `TIMESTAMP n`.
fn using_item() -> BoxedStrategy<UsingItem> {
    prop_oneof![
        integer_or_marker().prop_map(UsingItem::Ttl),
        integer_or_marker().prop_map(UsingItem::Timestamp),
    ]
    .boxed()
}

/// A USING clause, or none.
pub fn using() -> BoxedStrategy<Vec<UsingItem>> {
    few(using_item(), 3)
}

/// The JSON document of INSERT JSON: a string or a marker.
fn json_value() -> BoxedStrategy<Term> {
    prop_oneof![
        literals::string().prop_map(|s| node(TermKind::Literal(Literal::String(s)))),
        marker().prop_map(|m| node(TermKind::Marker(m))),
    ]
    .boxed()
}

fn insert_source() -> BoxedStrategy<InsertSource> {
    let json_default = prop::option::of(prop::sample::select(vec![
        JsonDefault::Null,
        JsonDefault::Unset,
    ]));
    prop_oneof![
        3 => (
            prop::collection::vec(ident(), 1..4),
            prop::collection::vec(term(DEPTH), 1..4),
        )
            .prop_map(|(columns, values)| InsertSource::Values { columns, values }),
        1 => (json_value(), json_default)
            .prop_map(|(value, default)| InsertSource::Json { value, default }),
    ]
    .boxed()
}

/// `INSERT INTO t … [IF NOT EXISTS] [USING …]`
pub fn insert() -> BoxedStrategy<Insert> {
    (qualified_name(), insert_source(), any::<bool>(), using())
        .prop_map(|(table, source, if_not_exists, using)| Insert {
            table,
            source,
            if_not_exists,
            using,
            span: Span::default(),
        })
        .boxed()
}

/// `c`, `c[term]` or `c.field`.
fn column_ref() -> BoxedStrategy<ColumnRef> {
    prop_oneof![
        3 => ident().prop_map(ColumnRef::Column),
        1 => (ident(), term(DEPTH - 1)).prop_map(|(c, t)| ColumnRef::Element(c, Box::new(t))),
        1 => (ident(), ident()).prop_map(|(c, f)| ColumnRef::Field(c, f)),
    ]
    .boxed()
}

fn sign() -> BoxedStrategy<ArithmeticSign> {
    prop::sample::select(vec![ArithmeticSign::Plus, ArithmeticSign::Minus]).boxed()
}

/// `c = t`, `c[k] = t`, `c.f = t`, `c = c ± t`, `c ±= t`, `c = t + c`.
fn assignment() -> BoxedStrategy<Assignment> {
    let kind = prop_oneof![
        3 => (column_ref(), term(DEPTH))
            .prop_map(|(target, value)| AssignmentKind::Set { target, value }),
        2 => (ident(), sign(), term(DEPTH), any::<bool>()).prop_map(
            |(column, op, value, shorthand)| AssignmentKind::Apply {
                column,
                op,
                value,
                shorthand,
            }
        ),
        1 => (ident(), term(DEPTH))
            .prop_map(|(column, value)| AssignmentKind::Prepend { column, value }),
    ];
    kind.prop_map(|kind| Assignment {
        kind,
        span: Span::default(),
    })
    .boxed()
}

fn condition_kind() -> BoxedStrategy<ConditionKind> {
    let value = || term(DEPTH - 1);
    prop_oneof![
        3 => (column_ref(), operator(), value())
            .prop_map(|(target, op, value)| ConditionKind::Compare { target, op, value }),
        1 => (column_ref(), in_values(value()))
            .prop_map(|(target, values)| ConditionKind::In { target, values }),
        1 => (ident(), any::<bool>(), value())
            .prop_map(|(column, key, value)| ConditionKind::Contains { column, key, value }),
    ]
    .boxed()
}

/// `IF EXISTS`, `IF cond AND …`, or nothing.
fn if_clause() -> BoxedStrategy<Option<IfClause>> {
    let condition = condition_kind().prop_map(|kind| Condition {
        kind,
        span: Span::default(),
    });
    prop::option::of(prop_oneof![
        1 => Just(IfClause::Exists),
        2 => prop::collection::vec(condition, 1..4).prop_map(IfClause::Conditions),
    ])
    .boxed()
}

/// `UPDATE t [USING …] SET … WHERE … [IF …]`
pub fn update() -> BoxedStrategy<Update> {
    let assignments = prop::collection::vec(assignment(), 1..4);
    (
        qualified_name(),
        using(),
        assignments,
        where_clause(),
        if_clause(),
    )
        .prop_map(
            |(table, using, assignments, where_clause, if_clause)| Update {
                table,
                using,
                assignments,
                where_clause,
                if_clause,
                span: Span::default(),
            },
        )
        .boxed()
}

/// `DELETE [targets] FROM t [USING TIMESTAMP n] WHERE … [IF …]`: one
/// USING item at most, and never TTL.
pub fn delete() -> BoxedStrategy<Delete> {
    let using = prop::option::of(integer_or_marker().prop_map(UsingItem::Timestamp))
        .prop_map(|item| item.into_iter().collect::<Vec<_>>());
    (
        few(column_ref(), 4),
        qualified_name(),
        using,
        where_clause(),
        if_clause(),
    )
        .prop_map(|(targets, table, using, where_clause, if_clause)| Delete {
            targets,
            table,
            using,
            where_clause,
            if_clause,
            span: Span::default(),
        })
        .boxed()
}

fn batch_statement() -> BoxedStrategy<BatchStatement> {
    prop_oneof![
        insert().prop_map(BatchStatement::Insert),
        update().prop_map(BatchStatement::Update),
        delete().prop_map(BatchStatement::Delete),
    ]
    .boxed()
}

/// `BEGIN [UNLOGGED | COUNTER] BATCH [USING …] … APPLY BATCH`
pub fn batch() -> BoxedStrategy<Batch> {
    let kind = prop::sample::select(vec![
        BatchKind::Logged,
        BatchKind::Unlogged,
        BatchKind::Counter,
    ]);
    (
        kind,
        using(),
        prop::collection::vec(batch_statement(), 0..4),
    )
        .prop_map(|(kind, using, statements)| Batch {
            kind,
            using,
            statements,
            span: Span::default(),
        })
        .boxed()
}
