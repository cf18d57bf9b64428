//! Schema statements: CREATE / ALTER / DROP of keyspaces, tables, indexes,
//! types and materialized views; USE; TRUNCATE.

use nom::sequence::preceded;
use nom::Parser;

use super::super::ast::{
    AddedColumn, AlterKeyspace, AlterMaterializedView, AlterTable, AlterTableAction, AlterType,
    AlterTypeAction, ColumnDef, CreateIndex, CreateKeyspace, CreateMaterializedView, CreateTable,
    CreateType, Drop, DropObject, Ident, IndexTarget, IndexTargetKind, Order, PrimaryKey, Property,
    QualifiedName, Statement, TableElement, TableOption, Truncate, Use,
};
use super::super::keyword::Keyword;
use super::super::lexer::TokenKind;
use super::common::{
    at_kw, if_exists, if_not_exists, integer, kw, name, parenthesized_list, properties, property,
    qualified_name, reject_duplicate_property, string, tok,
};
use super::input::{Class, ExpectedSet, PResult, Tokens};
use super::optional::{many0, opt, passed_over, separated_list0, separated_list1};
use super::select::{direction, opt_where, select_clause};
use super::term::cql_type;

fn expected_one_of<'a, T>(i: Tokens<'a>, keywords: &[Keyword]) -> PResult<'a, T> {
    let mut set = ExpectedSet::default();
    for k in keywords {
        set.keyword(*k);
    }
    i.expected(set)
}

/// `CREATE …`
pub(crate) fn create(i: Tokens<'_>) -> PResult<'_, Statement> {
    let start = i;
    let (i, _) = kw(Keyword::Create)(i)?;
    match i.peek_kind() {
        Some(TokenKind::Keyword(Keyword::Keyspace)) => create_keyspace(i.advance(1), start),
        Some(TokenKind::Keyword(Keyword::Table)) => create_table(i.advance(1), start),
        Some(TokenKind::Keyword(Keyword::Index)) => create_index(i.advance(1), start, false),
        Some(TokenKind::Keyword(Keyword::Custom)) => {
            let (i, _) = kw(Keyword::Index)(i.advance(1))?;
            create_index(i, start, true)
        }
        Some(TokenKind::Keyword(Keyword::Type)) => create_type(i.advance(1), start),
        Some(TokenKind::Keyword(Keyword::Materialized)) => {
            let (i, _) = kw(Keyword::View)(i.advance(1))?;
            create_view(i, start)
        }
        Some(TokenKind::Keyword(Keyword::Role)) => super::role::create_role(i.advance(1), start),
        Some(TokenKind::Keyword(Keyword::User)) => super::role::create_user(i.advance(1), start),
        _ => expected_one_of(
            i,
            &[
                Keyword::Keyspace,
                Keyword::Table,
                Keyword::Index,
                Keyword::Custom,
                Keyword::Type,
                Keyword::Materialized,
                Keyword::Role,
                Keyword::User,
            ],
        ),
    }
}

fn create_keyspace<'a>(i: Tokens<'a>, start: Tokens<'a>) -> PResult<'a, Statement> {
    let (i, if_not_exists) = if_not_exists(i)?;
    let (i, name) = name(i)?;
    let (i, _) = kw(Keyword::With)(i)?;
    let (i, properties) = properties(i)?;
    Ok((
        i,
        Statement::CreateKeyspace(CreateKeyspace {
            if_not_exists,
            name,
            properties,
            span: i.span_since(start),
        }),
    ))
}

fn create_table<'a>(i: Tokens<'a>, start: Tokens<'a>) -> PResult<'a, Statement> {
    let (i, if_not_exists) = if_not_exists(i)?;
    let (i, name) = qualified_name(i)?;
    let (i, elements) = table_elements(i)?;
    let (i, options) = opt_table_options(i)?;
    Ok((
        i,
        Statement::CreateTable(CreateTable {
            if_not_exists,
            name,
            elements,
            options,
            span: i.span_since(start),
        }),
    ))
}

/// `( element, element, … )`, see [`loose_list`].
fn table_elements(i: Tokens<'_>) -> PResult<'_, Vec<TableElement>> {
    loose_list(i, table_element)
}

/// `( item { , [item] } )`: Cassandra's `'(' x ( ',' x? )* ')'` for the
/// columns of CREATE TABLE and the fields of CREATE TYPE, which accepts a
/// trailing comma and even an empty slot, `(a int,, b int,)`.
fn loose_list<'a, O>(
    i: Tokens<'a>,
    item: impl Fn(Tokens<'a>) -> PResult<'a, O>,
) -> PResult<'a, Vec<O>> {
    let (i, _) = tok(TokenKind::LParen)(i)?;
    let (mut i, first) = item(i)?;
    let mut items = vec![first];
    while let (rest, Some(_)) = opt(tok(TokenKind::Comma)).parse(i)? {
        i = rest;
        if !super::common::is_name_token(i.peek_kind()) && !at_kw(i, Keyword::Primary) {
            // The slot may be empty: the list goes on or closes.
            let mut set = ExpectedSet::default();
            set.class(Class::Name);
            passed_over(i, set);
            continue;
        }
        let (rest, next) = item(i)?;
        items.push(next);
        i = rest;
    }
    let (i, _) = tok(TokenKind::RParen)(i)?;
    Ok((i, items))
}

fn table_element(i: Tokens<'_>) -> PResult<'_, TableElement> {
    if at_kw(i, Keyword::Primary) {
        let (i, pk) = primary_key(i)?;
        return Ok((i, TableElement::PrimaryKey(pk)));
    }
    let start = i;
    let (i, name) = name(i)?;
    let (i, ty) = cql_type(i)?;
    let (i, is_static) = opt(kw(Keyword::Static)).parse(i)?;
    let (i, primary_key) = opt((kw(Keyword::Primary), kw(Keyword::Key))).parse(i)?;
    Ok((
        i,
        TableElement::Column(ColumnDef {
            name,
            ty,
            is_static: is_static.is_some(),
            primary_key: primary_key.is_some(),
            span: i.span_since(start),
        }),
    ))
}

/// `PRIMARY KEY (a, b)`, `PRIMARY KEY ((a, b), c)`.
fn primary_key(i: Tokens<'_>) -> PResult<'_, PrimaryKey> {
    let start = i;
    let (i, _) = (
        kw(Keyword::Primary),
        kw(Keyword::Key),
        tok(TokenKind::LParen),
    )
        .parse(i)?;
    let (i, partition) = if i.peek_kind() == Some(TokenKind::LParen) {
        parenthesized_list(name).parse(i)?
    } else {
        let (i, single) = name(i)?;
        (i, vec![single])
    };
    let (i, clustering) = many0(preceded(tok(TokenKind::Comma), name)).parse(i)?;
    let (i, _) = tok(TokenKind::RParen)(i)?;
    Ok((
        i,
        PrimaryKey {
            partition,
            clustering,
            span: i.span_since(start),
        },
    ))
}

/// `WITH option AND option …`, or nothing.
fn opt_table_options(i: Tokens<'_>) -> PResult<'_, Vec<TableOption>> {
    match opt(kw(Keyword::With)).parse(i)? {
        (i, Some(_)) => table_options(i),
        (i, None) => Ok((i, Vec::new())),
    }
}

fn table_options(i: Tokens<'_>) -> PResult<'_, Vec<TableOption>> {
    let (mut i, first) = table_option(i)?;
    let mut options = vec![first];
    while let Ok((rest, _)) = kw(Keyword::And)(i) {
        let (rest, option) = table_option(rest)?;
        if let TableOption::Property(p) = &option {
            let seen: Vec<&Property> = options
                .iter()
                .filter_map(|o| match o {
                    TableOption::Property(p) => Some(p),
                    _ => None,
                })
                .collect();
            reject_duplicate_property(rest, &seen, p)?;
        }
        options.push(option);
        i = rest;
    }
    Ok((i, options))
}

/// The `WITH` of ALTER TABLE and ALTER MATERIALIZED VIEW: Cassandra takes
/// only `name = value` properties there, so `CLUSTERING ORDER BY` and
/// `COMPACT STORAGE` are syntax errors, as on the server.
fn property_options(i: Tokens<'_>) -> PResult<'_, Vec<TableOption>> {
    let (i, properties) = properties(i)?;
    Ok((
        i,
        properties.into_iter().map(TableOption::Property).collect(),
    ))
}

fn table_option(i: Tokens<'_>) -> PResult<'_, TableOption> {
    match i.peek_kind() {
        Some(TokenKind::Keyword(Keyword::Compact))
            if i.peek_kind_at(1) == Some(TokenKind::Keyword(Keyword::Storage)) =>
        {
            Ok((i.advance(2), TableOption::CompactStorage))
        }
        Some(TokenKind::Keyword(Keyword::Clustering))
            if i.peek_kind_at(1) == Some(TokenKind::Keyword(Keyword::Order)) =>
        {
            let (i, _) = (kw(Keyword::Clustering), kw(Keyword::Order), kw(Keyword::By)).parse(i)?;
            let (i, items) = parenthesized_list(clustering_item).parse(i)?;
            Ok((i, TableOption::ClusteringOrder(items)))
        }
        _ => {
            let (i, p) = property(i)?;
            Ok((i, TableOption::Property(p)))
        }
    }
}

fn clustering_item(i: Tokens<'_>) -> PResult<'_, (Ident, Order)> {
    let (i, column) = name(i)?;
    let (i, order) = direction(i)?;
    Ok((i, (column, order)))
}

fn create_index<'a>(i: Tokens<'a>, start: Tokens<'a>, custom: bool) -> PResult<'a, Statement> {
    let (i, if_not_exists) = if_not_exists(i)?;
    let (i, name) = if at_kw(i, Keyword::On) {
        (i, None)
    } else {
        let (i, n) = name(i)?;
        (i, Some(n))
    };
    let (i, _) = kw(Keyword::On)(i)?;
    let (i, table) = qualified_name(i)?;
    let (i, _) = tok(TokenKind::LParen)(i)?;
    let (i, targets) = separated_list0(tok(TokenKind::Comma), index_target).parse(i)?;
    let (i, _) = tok(TokenKind::RParen)(i)?;
    let (i, using) = opt(preceded(kw(Keyword::Using), string)).parse(i)?;
    let (i, properties) = opt(preceded(kw(Keyword::With), properties)).parse(i)?;
    Ok((
        i,
        Statement::CreateIndex(CreateIndex {
            custom,
            if_not_exists,
            name,
            table,
            targets,
            using,
            properties: properties.unwrap_or_default(),
            span: i.span_since(start),
        }),
    ))
}

fn index_target(i: Tokens<'_>) -> PResult<'_, IndexTarget> {
    let wrapper = match i.peek_kind() {
        Some(TokenKind::Keyword(k)) if i.peek_kind_at(1) == Some(TokenKind::LParen) => match k {
            Keyword::Keys => Some(IndexTargetKind::Keys),
            Keyword::Values => Some(IndexTargetKind::Values),
            Keyword::Entries => Some(IndexTargetKind::Entries),
            Keyword::Full => Some(IndexTargetKind::Full),
            _ => None,
        },
        _ => None,
    };
    match wrapper {
        Some(kind) => {
            let (i, _) = tok(TokenKind::LParen)(i.advance(1))?;
            let (i, column) = name(i)?;
            let (i, _) = tok(TokenKind::RParen)(i)?;
            Ok((i, IndexTarget { kind, column }))
        }
        None => {
            let (i, column) = name(i)?;
            Ok((
                i,
                IndexTarget {
                    kind: IndexTargetKind::Simple,
                    column,
                },
            ))
        }
    }
}

fn create_type<'a>(i: Tokens<'a>, start: Tokens<'a>) -> PResult<'a, Statement> {
    let (i, if_not_exists) = if_not_exists(i)?;
    let (i, name) = qualified_name(i)?;
    let (i, fields) = loose_list(i, field_definition)?;
    Ok((
        i,
        Statement::CreateType(CreateType {
            if_not_exists,
            name,
            fields,
            span: i.span_since(start),
        }),
    ))
}

fn field_definition(i: Tokens<'_>) -> PResult<'_, (Ident, super::super::ast::CqlType)> {
    let (i, field) = name(i)?;
    let (i, ty) = cql_type(i)?;
    Ok((i, (field, ty)))
}

fn create_view<'a>(i: Tokens<'a>, start: Tokens<'a>) -> PResult<'a, Statement> {
    let (i, if_not_exists) = if_not_exists(i)?;
    let (i, name) = qualified_name(i)?;
    let (i, _) = (kw(Keyword::As), kw(Keyword::Select)).parse(i)?;
    let (i, select) = select_clause(i)?;
    let (i, _) = kw(Keyword::From)(i)?;
    let (i, base) = qualified_name(i)?;
    let (i, where_clause) = opt_where(i)?;
    let (i, primary_key) = primary_key(i)?;
    let (i, options) = opt_table_options(i)?;
    Ok((
        i,
        Statement::CreateMaterializedView(CreateMaterializedView {
            if_not_exists,
            name,
            select,
            base,
            where_clause,
            primary_key,
            options,
            span: i.span_since(start),
        }),
    ))
}

/// `ALTER …`
pub(crate) fn alter(i: Tokens<'_>) -> PResult<'_, Statement> {
    let start = i;
    let (i, _) = kw(Keyword::Alter)(i)?;
    match i.peek_kind() {
        Some(TokenKind::Keyword(Keyword::Keyspace)) => {
            let (i, if_exists) = if_exists(i.advance(1))?;
            let (i, name) = name(i)?;
            let (i, _) = kw(Keyword::With)(i)?;
            let (i, properties) = properties(i)?;
            Ok((
                i,
                Statement::AlterKeyspace(AlterKeyspace {
                    if_exists,
                    name,
                    properties,
                    span: i.span_since(start),
                }),
            ))
        }
        Some(TokenKind::Keyword(Keyword::Table)) => alter_table(i.advance(1), start),
        Some(TokenKind::Keyword(Keyword::Type)) => alter_type(i.advance(1), start),
        Some(TokenKind::Keyword(Keyword::Role)) => super::role::alter_role(i.advance(1), start),
        Some(TokenKind::Keyword(Keyword::User)) => super::role::alter_user(i.advance(1), start),
        Some(TokenKind::Keyword(Keyword::Materialized)) => {
            let (i, _) = kw(Keyword::View)(i.advance(1))?;
            let (i, if_exists) = if_exists(i)?;
            let (i, name) = qualified_name(i)?;
            let (i, _) = kw(Keyword::With)(i)?;
            let (i, options) = property_options(i)?;
            Ok((
                i,
                Statement::AlterMaterializedView(AlterMaterializedView {
                    if_exists,
                    name,
                    options,
                    span: i.span_since(start),
                }),
            ))
        }
        _ => expected_one_of(
            i,
            &[
                Keyword::Keyspace,
                Keyword::Table,
                Keyword::Type,
                Keyword::Materialized,
                Keyword::Role,
                Keyword::User,
            ],
        ),
    }
}

fn alter_table<'a>(i: Tokens<'a>, start: Tokens<'a>) -> PResult<'a, Statement> {
    let (i, if_exists) = if_exists(i)?;
    let (i, name) = qualified_name(i)?;
    let (i, action) = alter_table_action(i)?;
    Ok((
        i,
        Statement::AlterTable(AlterTable {
            if_exists,
            name,
            action,
            span: i.span_since(start),
        }),
    ))
}

fn added_column(i: Tokens<'_>) -> PResult<'_, AddedColumn> {
    let (i, name) = name(i)?;
    let (i, ty) = cql_type(i)?;
    let (i, is_static) = opt(kw(Keyword::Static)).parse(i)?;
    Ok((
        i,
        AddedColumn {
            name,
            ty,
            is_static: is_static.is_some(),
        },
    ))
}

fn renames(i: Tokens<'_>) -> PResult<'_, Vec<(Ident, Ident)>> {
    separated_list1(kw(Keyword::And), rename).parse(i)
}

fn rename(i: Tokens<'_>) -> PResult<'_, (Ident, Ident)> {
    let (i, from) = name(i)?;
    let (i, _) = kw(Keyword::To)(i)?;
    let (i, to) = name(i)?;
    Ok((i, (from, to)))
}

fn alter_table_action(i: Tokens<'_>) -> PResult<'_, AlterTableAction> {
    match i.peek_kind() {
        Some(TokenKind::Keyword(Keyword::Add)) => {
            let (i, if_not_exists) = if_not_exists(i.advance(1))?;
            let parenthesized = i.peek_kind() == Some(TokenKind::LParen);
            let (i, columns) = if parenthesized {
                parenthesized_list(added_column).parse(i)?
            } else {
                let (i, column) = added_column(i)?;
                (i, vec![column])
            };
            Ok((
                i,
                AlterTableAction::Add {
                    if_not_exists,
                    columns,
                    parenthesized,
                },
            ))
        }
        Some(TokenKind::Keyword(Keyword::Drop)) => {
            let i = i.advance(1);
            if at_kw(i, Keyword::Compact)
                && i.peek_kind_at(1) == Some(TokenKind::Keyword(Keyword::Storage))
            {
                return Ok((i.advance(2), AlterTableAction::DropCompactStorage));
            }
            let (i, if_exists) = if_exists(i)?;
            let parenthesized = i.peek_kind() == Some(TokenKind::LParen);
            let (i, columns) = if parenthesized {
                parenthesized_list(name).parse(i)?
            } else {
                let (i, column) = name(i)?;
                (i, vec![column])
            };
            let (i, timestamp) = opt(preceded(
                (kw(Keyword::Using), kw(Keyword::Timestamp)),
                integer,
            ))
            .parse(i)?;
            Ok((
                i,
                AlterTableAction::Drop {
                    if_exists,
                    columns,
                    parenthesized,
                    timestamp,
                },
            ))
        }
        Some(TokenKind::Keyword(Keyword::Rename)) => {
            let (i, if_exists) = if_exists(i.advance(1))?;
            let (i, renames) = renames(i)?;
            Ok((i, AlterTableAction::Rename { if_exists, renames }))
        }
        Some(TokenKind::Keyword(Keyword::With)) => {
            let (i, options) = property_options(i.advance(1))?;
            Ok((i, AlterTableAction::With(options)))
        }
        Some(TokenKind::Keyword(Keyword::Alter)) => {
            let (i, column) = name(i.advance(1))?;
            let (i, _) = kw(Keyword::Type)(i)?;
            let (i, ty) = cql_type(i)?;
            Ok((i, AlterTableAction::AlterType { column, ty }))
        }
        _ => expected_one_of(
            i,
            &[
                Keyword::Add,
                Keyword::Drop,
                Keyword::Rename,
                Keyword::With,
                Keyword::Alter,
            ],
        ),
    }
}

fn alter_type<'a>(i: Tokens<'a>, start: Tokens<'a>) -> PResult<'a, Statement> {
    let (i, if_exists) = if_exists(i)?;
    let (i, name) = qualified_name(i)?;
    let (i, action) = match i.peek_kind() {
        Some(TokenKind::Keyword(Keyword::Add)) => {
            let (i, if_not_exists) = if_not_exists(i.advance(1))?;
            let (i, field) = super::common::name(i)?;
            let (i, ty) = cql_type(i)?;
            (
                i,
                AlterTypeAction::Add {
                    if_not_exists,
                    field,
                    ty,
                },
            )
        }
        Some(TokenKind::Keyword(Keyword::Rename)) => {
            let (i, if_exists) = super::common::if_exists(i.advance(1))?;
            let (i, renames) = renames(i)?;
            (i, AlterTypeAction::Rename { if_exists, renames })
        }
        Some(TokenKind::Keyword(Keyword::Alter)) => {
            let (i, field) = super::common::name(i.advance(1))?;
            let (i, _) = kw(Keyword::Type)(i)?;
            let (i, ty) = cql_type(i)?;
            (i, AlterTypeAction::Alter { field, ty })
        }
        _ => return expected_one_of(i, &[Keyword::Add, Keyword::Rename, Keyword::Alter]),
    };
    Ok((
        i,
        Statement::AlterType(AlterType {
            if_exists,
            name,
            action,
            span: i.span_since(start),
        }),
    ))
}

/// `DROP KEYSPACE | TABLE | INDEX | TYPE | MATERIALIZED VIEW [IF EXISTS] name`
pub(crate) fn drop(i: Tokens<'_>) -> PResult<'_, Statement> {
    let start = i;
    let (i, _) = kw(Keyword::Drop)(i)?;
    let (i, object) = match i.peek_kind() {
        Some(TokenKind::Keyword(Keyword::Keyspace)) => (i.advance(1), DropObject::Keyspace),
        Some(TokenKind::Keyword(Keyword::Table)) => (i.advance(1), DropObject::Table),
        Some(TokenKind::Keyword(Keyword::Index)) => (i.advance(1), DropObject::Index),
        Some(TokenKind::Keyword(Keyword::Type)) => (i.advance(1), DropObject::Type),
        Some(TokenKind::Keyword(Keyword::Materialized)) => {
            let (i, _) = kw(Keyword::View)(i.advance(1))?;
            (i, DropObject::MaterializedView)
        }
        Some(TokenKind::Keyword(Keyword::Role)) => {
            return super::role::drop_role(i.advance(1), start, false)
        }
        Some(TokenKind::Keyword(Keyword::User)) => {
            return super::role::drop_role(i.advance(1), start, true)
        }
        _ => {
            return expected_one_of(
                i,
                &[
                    Keyword::Keyspace,
                    Keyword::Table,
                    Keyword::Index,
                    Keyword::Type,
                    Keyword::Materialized,
                    Keyword::Role,
                    Keyword::User,
                ],
            )
        }
    };
    let (i, if_exists) = if_exists(i)?;
    let (i, name) = if object == DropObject::Keyspace {
        let (i, n) = name(i)?;
        let span = n.span;
        (
            i,
            QualifiedName {
                keyspace: None,
                name: n,
                span,
            },
        )
    } else {
        qualified_name(i)?
    };
    Ok((
        i,
        Statement::Drop(Drop {
            object,
            if_exists,
            name,
            span: i.span_since(start),
        }),
    ))
}

/// `USE ks`
pub(crate) fn use_keyspace(i: Tokens<'_>) -> PResult<'_, Statement> {
    let start = i;
    let (i, _) = kw(Keyword::Use)(i)?;
    let (i, keyspace) = name(i)?;
    Ok((
        i,
        Statement::Use(Use {
            keyspace,
            span: i.span_since(start),
        }),
    ))
}

/// `TRUNCATE [TABLE] t`
pub(crate) fn truncate(i: Tokens<'_>) -> PResult<'_, Statement> {
    let start = i;
    let (i, _) = kw(Keyword::Truncate)(i)?;
    let (i, _) = opt(kw(Keyword::Table)).parse(i)?;
    let (i, table) = qualified_name(i)?;
    Ok((
        i,
        Statement::Truncate(Truncate {
            table,
            span: i.span_since(start),
        }),
    ))
}
