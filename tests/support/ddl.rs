//! Schema statements: keyspaces, tables, indexes, types, materialized
//! views, USE, TRUNCATE and DROP, with every option shape.

use proptest::prelude::*;
use widerow::syntax::ast::{
    AddedColumn, AlterKeyspace, AlterMaterializedView, AlterTable, AlterTableAction, AlterType,
    AlterTypeAction, ColumnDef, CreateIndex, CreateKeyspace, CreateMaterializedView, CreateTable,
    CreateType, Drop, DropObject, Ident, IndexTarget, IndexTargetKind, Order, PrimaryKey, Property,
    PropertyValue, TableElement, TableOption, Truncate, Use,
};
use widerow::syntax::span::Span;

use super::dml::{relation, select_clause};
use super::literals;
use super::names::{ident, qualified_name, unreserved_keyword};
use super::nodes::qualified;
use super::terms::cql_type;
use super::{few, DEPTH};

/// A property value: a constant, an unreserved keyword, or a map of
/// constants (possibly empty).
fn property_value() -> BoxedStrategy<PropertyValue> {
    let entry = (literals::constant(), literals::constant());
    prop_oneof![
        3 => literals::constant().prop_map(PropertyValue::Constant),
        1 => unreserved_keyword().prop_map(PropertyValue::Name),
        2 => few(entry, 4).prop_map(PropertyValue::Map),
    ]
    .boxed()
}

fn property() -> BoxedStrategy<Property> {
    (ident(), property_value())
        .prop_map(|(name, value)| Property {
            name,
            value,
            span: Span::default(),
        })
        .boxed()
}

/// Keeps the first property of each name: the same property twice is a
/// syntax error ("Multiple definitions for property").
fn distinct_names(properties: Vec<Property>) -> Vec<Property> {
    let mut seen = std::collections::HashSet::new();
    properties
        .into_iter()
        .filter(|p| seen.insert(p.name.name.clone()))
        .collect()
}

/// `name = value AND …`, at least one, names distinct.
fn properties() -> BoxedStrategy<Vec<Property>> {
    prop::collection::vec(property(), 1..4)
        .prop_map(distinct_names)
        .boxed()
}

/// The WITH of ALTER TABLE and ALTER MATERIALIZED VIEW: properties only
/// (CLUSTERING ORDER and COMPACT STORAGE cannot change), at least one.
fn property_options() -> BoxedStrategy<Vec<TableOption>> {
    properties()
        .prop_map(|properties| properties.into_iter().map(TableOption::Property).collect())
        .boxed()
}

fn table_option() -> BoxedStrategy<TableOption> {
    let direction = prop::sample::select(vec![Order::Asc, Order::Desc]);
    prop_oneof![
        4 => property().prop_map(TableOption::Property),
        1 => prop::collection::vec((ident(), direction), 1..4).prop_map(TableOption::ClusteringOrder),
        1 => Just(TableOption::CompactStorage),
    ]
    .boxed()
}

/// CREATE TABLE / CREATE MATERIALIZED VIEW options, distinct property
/// names, possibly none.
fn table_options() -> BoxedStrategy<Vec<TableOption>> {
    prop::collection::vec(table_option(), 0..4)
        .prop_map(|options| {
            let mut seen = std::collections::HashSet::new();
            options
                .into_iter()
                .filter(|o| match o {
                    TableOption::Property(p) => seen.insert(p.name.name.clone()),
                    _ => true,
                })
                .collect()
        })
        .boxed()
}

/// `CREATE KEYSPACE [IF NOT EXISTS] ks WITH …`
pub fn create_keyspace() -> BoxedStrategy<CreateKeyspace> {
    (any::<bool>(), ident(), properties())
        .prop_map(|(if_not_exists, name, properties)| CreateKeyspace {
            if_not_exists,
            name,
            properties,
            span: Span::default(),
        })
        .boxed()
}

/// `ALTER KEYSPACE [IF EXISTS] ks WITH …`
pub fn alter_keyspace() -> BoxedStrategy<AlterKeyspace> {
    (any::<bool>(), ident(), properties())
        .prop_map(|(if_exists, name, properties)| AlterKeyspace {
            if_exists,
            name,
            properties,
            span: Span::default(),
        })
        .boxed()
}

/// `DROP KEYSPACE | TABLE | INDEX | TYPE | MATERIALIZED VIEW [IF EXISTS] name`;
/// a keyspace name has no qualifier.
pub fn drop() -> BoxedStrategy<Drop> {
    let object = prop::sample::select(vec![
        DropObject::Keyspace,
        DropObject::Table,
        DropObject::Index,
        DropObject::Type,
        DropObject::MaterializedView,
    ]);
    (object, any::<bool>(), qualified_name(), ident())
        .prop_map(|(object, if_exists, name, keyspace)| Drop {
            object,
            if_exists,
            name: match object {
                DropObject::Keyspace => qualified(None, keyspace),
                _ => name,
            },
            span: Span::default(),
        })
        .boxed()
}

/// `USE ks`
pub fn use_keyspace() -> BoxedStrategy<Use> {
    ident()
        .prop_map(|keyspace| Use {
            keyspace,
            span: Span::default(),
        })
        .boxed()
}

/// `PRIMARY KEY (a)`, `PRIMARY KEY ((a, b), c)`, …
fn primary_key() -> BoxedStrategy<PrimaryKey> {
    (prop::collection::vec(ident(), 1..3), few(ident(), 3))
        .prop_map(|(partition, clustering)| PrimaryKey {
            partition,
            clustering,
            span: Span::default(),
        })
        .boxed()
}

fn column_def() -> BoxedStrategy<ColumnDef> {
    (ident(), cql_type(DEPTH), any::<bool>(), any::<bool>())
        .prop_map(|(name, ty, is_static, primary_key)| ColumnDef {
            name,
            ty,
            is_static,
            primary_key,
            span: Span::default(),
        })
        .boxed()
}

/// Table elements as written: the grammar takes any number of PRIMARY KEY
/// elements and inline keys; the catalog refuses the wrong counts.
fn table_element() -> BoxedStrategy<TableElement> {
    prop_oneof![
        4 => column_def().prop_map(TableElement::Column),
        1 => primary_key().prop_map(TableElement::PrimaryKey),
    ]
    .boxed()
}

/// `CREATE TABLE [IF NOT EXISTS] t (…) [WITH …]`
pub fn create_table() -> BoxedStrategy<CreateTable> {
    (
        any::<bool>(),
        qualified_name(),
        prop::collection::vec(table_element(), 1..5),
        table_options(),
    )
        .prop_map(|(if_not_exists, name, elements, options)| CreateTable {
            if_not_exists,
            name,
            elements,
            options,
            span: Span::default(),
        })
        .boxed()
}

fn added_column() -> BoxedStrategy<AddedColumn> {
    (ident(), cql_type(DEPTH), any::<bool>())
        .prop_map(|(name, ty, is_static)| AddedColumn {
            name,
            ty,
            is_static,
        })
        .boxed()
}

/// Items of ADD or DROP: without parentheses exactly one.
fn maybe_parenthesized<T: std::fmt::Debug + 'static>(
    item: BoxedStrategy<T>,
) -> BoxedStrategy<(Vec<T>, bool)> {
    prop_oneof![
        item.clone().prop_map(|one| (vec![one], false)),
        prop::collection::vec(item, 1..4).prop_map(|items| (items, true)),
    ]
    .boxed()
}

fn renames() -> BoxedStrategy<Vec<(Ident, Ident)>> {
    prop::collection::vec((ident(), ident()), 1..3).boxed()
}

fn alter_table_action() -> BoxedStrategy<AlterTableAction> {
    let timestamp = prop::option::of(literals::integer());
    prop_oneof![
        (any::<bool>(), maybe_parenthesized(added_column())).prop_map(
            |(if_not_exists, (columns, parenthesized))| AlterTableAction::Add {
                if_not_exists,
                columns,
                parenthesized,
            }
        ),
        (any::<bool>(), maybe_parenthesized(ident()), timestamp).prop_map(
            |(if_exists, (columns, parenthesized), timestamp)| AlterTableAction::Drop {
                if_exists,
                columns,
                parenthesized,
                timestamp,
            }
        ),
        (any::<bool>(), renames())
            .prop_map(|(if_exists, renames)| AlterTableAction::Rename { if_exists, renames }),
        property_options().prop_map(AlterTableAction::With),
        (ident(), cql_type(DEPTH))
            .prop_map(|(column, ty)| AlterTableAction::AlterType { column, ty }),
        Just(AlterTableAction::DropCompactStorage),
    ]
    .boxed()
}

/// `ALTER TABLE [IF EXISTS] t …`
pub fn alter_table() -> BoxedStrategy<AlterTable> {
    (any::<bool>(), qualified_name(), alter_table_action())
        .prop_map(|(if_exists, name, action)| AlterTable {
            if_exists,
            name,
            action,
            span: Span::default(),
        })
        .boxed()
}

/// `TRUNCATE TABLE t`
pub fn truncate() -> BoxedStrategy<Truncate> {
    qualified_name()
        .prop_map(|table| Truncate {
            table,
            span: Span::default(),
        })
        .boxed()
}

fn index_target() -> BoxedStrategy<IndexTarget> {
    let kind = prop::sample::select(vec![
        IndexTargetKind::Simple,
        IndexTargetKind::Keys,
        IndexTargetKind::Values,
        IndexTargetKind::Entries,
        IndexTargetKind::Full,
    ]);
    (kind, ident())
        .prop_map(|(kind, column)| IndexTarget { kind, column })
        .boxed()
}

/// `CREATE [CUSTOM] INDEX [IF NOT EXISTS] [name] ON t (targets)
/// [USING 'class'] [WITH …]`
pub fn create_index() -> BoxedStrategy<CreateIndex> {
    let head = (
        any::<bool>(),
        any::<bool>(),
        prop::option::of(ident()),
        qualified_name(),
    );
    let tail = (
        few(index_target(), 4),
        prop::option::of(literals::string()),
        prop_oneof![Just(Vec::new()), properties()],
    );
    (head, tail)
        .prop_map(
            |((custom, if_not_exists, name, table), (targets, using, properties))| CreateIndex {
                custom,
                if_not_exists,
                name,
                table,
                targets,
                using,
                properties,
                span: Span::default(),
            },
        )
        .boxed()
}

/// `CREATE TYPE [IF NOT EXISTS] t (field type, …)`
pub fn create_type() -> BoxedStrategy<CreateType> {
    let fields = prop::collection::vec((ident(), cql_type(DEPTH)), 1..4);
    (any::<bool>(), qualified_name(), fields)
        .prop_map(|(if_not_exists, name, fields)| CreateType {
            if_not_exists,
            name,
            fields,
            span: Span::default(),
        })
        .boxed()
}

/// `ALTER TYPE [IF EXISTS] t ADD … | RENAME … | ALTER field TYPE t`
pub fn alter_type() -> BoxedStrategy<AlterType> {
    let action = prop_oneof![
        (any::<bool>(), ident(), cql_type(DEPTH)).prop_map(|(if_not_exists, field, ty)| {
            AlterTypeAction::Add {
                if_not_exists,
                field,
                ty,
            }
        }),
        (any::<bool>(), renames())
            .prop_map(|(if_exists, renames)| AlterTypeAction::Rename { if_exists, renames }),
        (ident(), cql_type(DEPTH)).prop_map(|(field, ty)| AlterTypeAction::Alter { field, ty }),
    ];
    (any::<bool>(), qualified_name(), action)
        .prop_map(|(if_exists, name, action)| AlterType {
            if_exists,
            name,
            action,
            span: Span::default(),
        })
        .boxed()
}

/// `CREATE MATERIALIZED VIEW [IF NOT EXISTS] v AS SELECT … FROM t
/// [WHERE …] PRIMARY KEY (…) [WITH …]`
pub fn create_materialized_view() -> BoxedStrategy<CreateMaterializedView> {
    let head = (
        any::<bool>(),
        qualified_name(),
        select_clause(),
        qualified_name(),
    );
    let tail = (few(relation(), 4), primary_key(), table_options());
    (head, tail)
        .prop_map(
            |((if_not_exists, name, select, base), (where_clause, primary_key, options))| {
                CreateMaterializedView {
                    if_not_exists,
                    name,
                    select,
                    base,
                    where_clause,
                    primary_key,
                    options,
                    span: Span::default(),
                }
            },
        )
        .boxed()
}

/// `ALTER MATERIALIZED VIEW [IF EXISTS] v WITH …`
pub fn alter_materialized_view() -> BoxedStrategy<AlterMaterializedView> {
    (any::<bool>(), qualified_name(), property_options())
        .prop_map(|(if_exists, name, options)| AlterMaterializedView {
            if_exists,
            name,
            options,
            span: Span::default(),
        })
        .boxed()
}
