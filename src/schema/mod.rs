//! The schema: keyspaces, tables, columns, indexes and user-defined types,
//! and the validation of the statements that change them.

mod catalog;
pub mod ddl;
mod keyspace;
mod table;

pub use catalog::{Catalog, SchemaSettings};
pub use ddl::{SchemaChange, SchemaObject};
pub use keyspace::{Keyspace, Replication, UserType};
pub use table::{Column, ColumnKind, DroppedColumn, Index, IndexKind, Table, ViewDefinition};
