//! Generators of random ASTs for property tests.
//!
//! Every generator yields only trees the grammar can express, so together
//! they are the specification of the printable language: a tree built here,
//! printed with `Display`, must parse back to an equal tree. Where a
//! generator steers clear of a shape, the comment says why the grammar
//! cannot express it.
//!
//! Recursive generators take a `depth`; at depth 0 they produce leaves only,
//! which keeps cases small and the test fast.

// Each integration test compiles this module on its own and may use only
// part of it.
#![allow(dead_code)]

pub mod ddl;
pub mod dml;
pub mod literals;
pub mod names;
pub mod nodes;
pub mod selectors;
pub mod terms;

use proptest::prelude::*;
use widerow::syntax::ast::Statement;

/// How deeply terms, selectors and types nest inside a statement.
pub const DEPTH: u32 = 2;

/// Any statement, every variant of [`Statement`] equally likely.
pub fn statement() -> BoxedStrategy<Statement> {
    prop_oneof![
        ddl::create_keyspace().prop_map(Statement::CreateKeyspace),
        ddl::alter_keyspace().prop_map(Statement::AlterKeyspace),
        ddl::drop().prop_map(Statement::Drop),
        ddl::use_keyspace().prop_map(Statement::Use),
        ddl::create_table().prop_map(Statement::CreateTable),
        ddl::alter_table().prop_map(Statement::AlterTable),
        ddl::truncate().prop_map(Statement::Truncate),
        ddl::create_index().prop_map(Statement::CreateIndex),
        ddl::create_type().prop_map(Statement::CreateType),
        ddl::alter_type().prop_map(Statement::AlterType),
        ddl::create_materialized_view().prop_map(Statement::CreateMaterializedView),
        ddl::alter_materialized_view().prop_map(Statement::AlterMaterializedView),
        dml::select().prop_map(Statement::Select),
        dml::insert().prop_map(Statement::Insert),
        dml::update().prop_map(Statement::Update),
        dml::delete().prop_map(Statement::Delete),
        dml::batch().prop_map(Statement::Batch),
    ]
    .boxed()
}

/// Up to `max - 1` items, usually none: optional repetitions stay rare so
/// that cases stay small.
pub fn few<T: Clone + std::fmt::Debug + 'static>(
    item: impl Strategy<Value = T> + 'static,
    max: usize,
) -> BoxedStrategy<Vec<T>> {
    prop_oneof![
        2 => Just(Vec::new()),
        1 => prop::collection::vec(item, 1..max),
    ]
    .boxed()
}
