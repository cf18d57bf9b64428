//! Schema statements: keyspaces, tables, indexes, types, materialized views.

use super::super::span::Span;
use super::dml::{Relation, SelectClause};
use super::expr::{CqlType, Ident, Literal, QualifiedName};

/// `name = value` in a WITH clause.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Property {
    /// The property name (lower-cased unless quoted).
    pub name: Ident,
    /// Its value.
    pub value: PropertyValue,
    /// The whole `name = value`.
    pub span: Span,
}

/// What a property may be set to.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum PropertyValue {
    /// A constant: `'99p'`, `0.01`, `true`.
    Constant(Literal),
    /// A bare word: `durable_writes = true` is a constant, but
    /// `read_repair = BLOCKING` style values are names.
    Name(Ident),
    /// `{'class': 'SimpleStrategy', 'replication_factor': 1}`.
    Map(Vec<(Literal, Literal)>),
}

/// Sort direction of a clustering column or an ORDER BY item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize)]
pub enum Order {
    /// `ASC`, the default.
    #[default]
    Asc,
    /// `DESC`
    Desc,
}

impl Order {
    /// `ASC` or `DESC`.
    pub fn as_str(self) -> &'static str {
        match self {
            Order::Asc => "ASC",
            Order::Desc => "DESC",
        }
    }

    /// The opposite direction.
    pub fn reversed(self) -> Order {
        match self {
            Order::Asc => Order::Desc,
            Order::Desc => Order::Asc,
        }
    }
}

/// `CREATE KEYSPACE [IF NOT EXISTS] ks WITH …`
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CreateKeyspace {
    /// `IF NOT EXISTS` was given.
    pub if_not_exists: bool,
    /// The keyspace.
    pub name: Ident,
    /// Its properties (`replication`, `durable_writes`).
    pub properties: Vec<Property>,
    /// The whole statement.
    pub span: Span,
}

/// `ALTER KEYSPACE [IF EXISTS] ks WITH …`
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AlterKeyspace {
    /// `IF EXISTS` was given.
    pub if_exists: bool,
    /// The keyspace.
    pub name: Ident,
    /// The properties to change.
    pub properties: Vec<Property>,
    /// The whole statement.
    pub span: Span,
}

/// `DROP KEYSPACE [IF EXISTS] ks`, and likewise for the other DROP statements
/// that name one object.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Drop {
    /// What kind of object is dropped.
    pub object: DropObject,
    /// `IF EXISTS` was given.
    pub if_exists: bool,
    /// The object (a keyspace has no qualifier).
    pub name: QualifiedName,
    /// The whole statement.
    pub span: Span,
}

/// The kinds of object a DROP statement removes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DropObject {
    /// `DROP KEYSPACE`
    Keyspace,
    /// `DROP TABLE`
    Table,
    /// `DROP INDEX`
    Index,
    /// `DROP TYPE`
    Type,
    /// `DROP MATERIALIZED VIEW`
    MaterializedView,
}

/// `USE ks`
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Use {
    /// The keyspace to make current.
    pub keyspace: Ident,
    /// The whole statement.
    pub span: Span,
}

/// A column definition inside CREATE TABLE.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ColumnDef {
    /// The column.
    pub name: Ident,
    /// Its type.
    pub ty: CqlType,
    /// `STATIC`
    pub is_static: bool,
    /// Declared `PRIMARY KEY` inline.
    pub primary_key: bool,
    /// The whole definition.
    pub span: Span,
}

/// `PRIMARY KEY ((a, b), c, d)`
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PrimaryKey {
    /// Partition key columns.
    pub partition: Vec<Ident>,
    /// Clustering columns, in order.
    pub clustering: Vec<Ident>,
    /// The whole clause.
    pub span: Span,
}

/// One element between the parentheses of CREATE TABLE. The grammar allows
/// several PRIMARY KEY elements; the catalog refuses them with Cassandra's
/// message, so the AST keeps what was written.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum TableElement {
    /// A column definition.
    Column(ColumnDef),
    /// A `PRIMARY KEY (…)` element.
    PrimaryKey(PrimaryKey),
}

/// One option after WITH in CREATE TABLE / ALTER TABLE / CREATE MATERIALIZED VIEW.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum TableOption {
    /// `name = value`
    Property(Property),
    /// `CLUSTERING ORDER BY (c DESC, d ASC)`
    ClusteringOrder(Vec<(Ident, Order)>),
    /// `COMPACT STORAGE` (parsed; Cassandra 4.0+ refuses it).
    CompactStorage,
}

/// `CREATE TABLE [IF NOT EXISTS] ks.t (…) [WITH …]`
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CreateTable {
    /// `IF NOT EXISTS` was given.
    pub if_not_exists: bool,
    /// The table.
    pub name: QualifiedName,
    /// Columns and primary key, in the order written.
    pub elements: Vec<TableElement>,
    /// Options, in the order written.
    pub options: Vec<TableOption>,
    /// The whole statement.
    pub span: Span,
}

/// A column added by `ALTER TABLE … ADD`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AddedColumn {
    /// The column.
    pub name: Ident,
    /// Its type.
    pub ty: CqlType,
    /// `STATIC`
    pub is_static: bool,
}

/// What an ALTER TABLE does.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum AlterTableAction {
    /// `ADD [IF NOT EXISTS] c type` or `ADD (c type, …)`.
    Add {
        /// `IF NOT EXISTS`
        if_not_exists: bool,
        /// The columns.
        columns: Vec<AddedColumn>,
        /// Written with parentheses (kept so that printing round-trips the shape).
        parenthesized: bool,
    },
    /// `DROP [IF EXISTS] c` or `DROP (c, …)`, optionally `USING TIMESTAMP n`.
    Drop {
        /// `IF EXISTS`
        if_exists: bool,
        /// The columns.
        columns: Vec<Ident>,
        /// Written with parentheses.
        parenthesized: bool,
        /// `USING TIMESTAMP n` (microseconds).
        timestamp: Option<Literal>,
    },
    /// `RENAME [IF EXISTS] a TO b [AND c TO d]`
    Rename {
        /// `IF EXISTS`
        if_exists: bool,
        /// Pairs of old and new names.
        renames: Vec<(Ident, Ident)>,
    },
    /// `WITH …`
    With(Vec<TableOption>),
    /// `ALTER c TYPE t` (parsed; Cassandra refuses type changes).
    AlterType {
        /// The column.
        column: Ident,
        /// The new type.
        ty: CqlType,
    },
    /// `DROP COMPACT STORAGE`
    DropCompactStorage,
}

/// `ALTER TABLE [IF EXISTS] t …`
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AlterTable {
    /// `IF EXISTS`
    pub if_exists: bool,
    /// The table.
    pub name: QualifiedName,
    /// What changes.
    pub action: AlterTableAction,
    /// The whole statement.
    pub span: Span,
}

/// `TRUNCATE [TABLE] t`
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Truncate {
    /// The table.
    pub table: QualifiedName,
    /// The whole statement.
    pub span: Span,
}

/// Which part of a column an index covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IndexTargetKind {
    /// The column itself (for a collection: its values).
    Simple,
    /// `KEYS(m)`
    Keys,
    /// `VALUES(c)`
    Values,
    /// `ENTRIES(m)`
    Entries,
    /// `FULL(frozen)`
    Full,
}

/// One target of CREATE INDEX.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct IndexTarget {
    /// Which part of the column.
    pub kind: IndexTargetKind,
    /// The column.
    pub column: Ident,
}

/// `CREATE [CUSTOM] INDEX [IF NOT EXISTS] [name] ON t (target) [USING 'class'] [WITH OPTIONS = {…}]`
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CreateIndex {
    /// `CUSTOM`
    pub custom: bool,
    /// `IF NOT EXISTS`
    pub if_not_exists: bool,
    /// The index name, when given.
    pub name: Option<Ident>,
    /// The indexed table.
    pub table: QualifiedName,
    /// The indexed columns.
    pub targets: Vec<IndexTarget>,
    /// `USING 'class'`
    pub using: Option<String>,
    /// `WITH …` properties (`OPTIONS = {…}`).
    pub properties: Vec<Property>,
    /// The whole statement.
    pub span: Span,
}

/// `CREATE TYPE [IF NOT EXISTS] ks.t (field type, …)`
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CreateType {
    /// `IF NOT EXISTS`
    pub if_not_exists: bool,
    /// The type.
    pub name: QualifiedName,
    /// Its fields, in order.
    pub fields: Vec<(Ident, CqlType)>,
    /// The whole statement.
    pub span: Span,
}

/// What an ALTER TYPE does.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum AlterTypeAction {
    /// `ADD [IF NOT EXISTS] field type`
    Add {
        /// `IF NOT EXISTS`
        if_not_exists: bool,
        /// The field.
        field: Ident,
        /// Its type.
        ty: CqlType,
    },
    /// `RENAME [IF EXISTS] a TO b [AND …]`
    Rename {
        /// `IF EXISTS`
        if_exists: bool,
        /// Pairs of old and new names.
        renames: Vec<(Ident, Ident)>,
    },
    /// `ALTER field TYPE type`: Cassandra 5.0 parses it and then refuses
    /// it (field types cannot change), so it is kept for the binder to
    /// refuse with the server's message.
    Alter {
        /// The field.
        field: Ident,
        /// The requested type.
        ty: CqlType,
    },
}

/// `ALTER TYPE [IF EXISTS] ks.t …`
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AlterType {
    /// `IF EXISTS`
    pub if_exists: bool,
    /// The type.
    pub name: QualifiedName,
    /// What changes.
    pub action: AlterTypeAction,
    /// The whole statement.
    pub span: Span,
}

/// `CREATE MATERIALIZED VIEW [IF NOT EXISTS] v AS SELECT … FROM t WHERE … PRIMARY KEY (…) [WITH …]`
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CreateMaterializedView {
    /// `IF NOT EXISTS`
    pub if_not_exists: bool,
    /// The view.
    pub name: QualifiedName,
    /// The selected columns.
    pub select: SelectClause,
    /// The base table.
    pub base: QualifiedName,
    /// The view's WHERE clause (usually `… IS NOT NULL`).
    pub where_clause: Vec<Relation>,
    /// The view's primary key.
    pub primary_key: PrimaryKey,
    /// Options, in the order written.
    pub options: Vec<TableOption>,
    /// The whole statement.
    pub span: Span,
}

/// `ALTER MATERIALIZED VIEW v WITH …`
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AlterMaterializedView {
    /// `IF EXISTS`
    pub if_exists: bool,
    /// The view.
    pub name: QualifiedName,
    /// The options to change.
    pub options: Vec<TableOption>,
    /// The whole statement.
    pub span: Span,
}
