//! The abstract syntax tree of CQL statements.
//!
//! One struct per statement and one enum, [`Statement`], over all of them.
//! Every node carries the [`Span`] of the text it came from, and spans never
//! take part in equality. `Display` prints canonical CQL — keywords in upper
//! case, names quoted only where needed, no trailing `;` — and parsing that
//! text gives back an equal tree.

mod ddl;
mod display;
mod dml;
mod expr;
mod role;

pub use ddl::*;
pub use display::{is_bare_name, write_name};
pub use dml::*;
pub use expr::*;
pub use role::*;

use super::span::Span;

/// Any CQL statement widerow understands.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Statement {
    /// `CREATE KEYSPACE`
    CreateKeyspace(CreateKeyspace),
    /// `ALTER KEYSPACE`
    AlterKeyspace(AlterKeyspace),
    /// `DROP KEYSPACE | TABLE | INDEX | TYPE | MATERIALIZED VIEW`
    Drop(Drop),
    /// `USE`
    Use(Use),
    /// `CREATE TABLE`
    CreateTable(CreateTable),
    /// `ALTER TABLE`
    AlterTable(AlterTable),
    /// `TRUNCATE`
    Truncate(Truncate),
    /// `CREATE [CUSTOM] INDEX`
    CreateIndex(CreateIndex),
    /// `CREATE TYPE`
    CreateType(CreateType),
    /// `ALTER TYPE`
    AlterType(AlterType),
    /// `CREATE MATERIALIZED VIEW`
    CreateMaterializedView(CreateMaterializedView),
    /// `ALTER MATERIALIZED VIEW`
    AlterMaterializedView(AlterMaterializedView),
    /// `SELECT`
    Select(Select),
    /// `INSERT`
    Insert(Insert),
    /// `UPDATE`
    Update(Update),
    /// `DELETE`
    Delete(Delete),
    /// `BEGIN … APPLY BATCH`
    Batch(Batch),
    /// `CREATE | ALTER | DROP ROLE`, `LIST ROLES` and their USER forms
    Role(RoleStatement),
}

impl Statement {
    /// The span of the whole statement.
    pub fn span(&self) -> Span {
        match self {
            Statement::CreateKeyspace(s) => s.span,
            Statement::AlterKeyspace(s) => s.span,
            Statement::Drop(s) => s.span,
            Statement::Use(s) => s.span,
            Statement::CreateTable(s) => s.span,
            Statement::AlterTable(s) => s.span,
            Statement::Truncate(s) => s.span,
            Statement::CreateIndex(s) => s.span,
            Statement::CreateType(s) => s.span,
            Statement::AlterType(s) => s.span,
            Statement::CreateMaterializedView(s) => s.span,
            Statement::AlterMaterializedView(s) => s.span,
            Statement::Select(s) => s.span,
            Statement::Insert(s) => s.span,
            Statement::Update(s) => s.span,
            Statement::Delete(s) => s.span,
            Statement::Batch(s) => s.span,
            Statement::Role(s) => s.span(),
        }
    }
}
