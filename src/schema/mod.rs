//! The schema: keyspaces, tables, columns, indexes and user-defined types,
//! and the validation of the statements that change them.

mod catalog;
pub mod ddl;
mod keyspace;
pub mod system;
mod table;
pub(crate) mod table_options;

pub use catalog::{Catalog, SchemaSettings};

/// Maps keyed by names, in insertion order, with a fast hasher: tables,
/// columns and keyspaces are looked up on every statement planned.
pub type NameMap<V> = indexmap::IndexMap<String, V, rustc_hash::FxBuildHasher>;
pub use ddl::{ChangeKind, EventTarget, SchemaChange, SchemaEvent, SchemaObject};
pub use keyspace::{Keyspace, Replication, UserType};
pub use table::{Column, ColumnKind, DroppedColumn, Index, IndexKind, Table, ViewDefinition};
