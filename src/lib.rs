//! widerow: an embeddable, in-memory interpreter for CQL, the query language
//! of Apache Cassandra and ScyllaDB.
//!
//! The pipeline runs in stages, each knowing only those before it:
//! [`syntax`] turns text into statements; later stages bind them to a schema,
//! plan them the way a Cassandra coordinator would, and execute them.

pub mod cluster;
pub mod diagnostic;
pub mod error;
pub mod lint;
pub mod planner;
pub mod schema;
pub mod syntax;
pub mod types;

pub use error::{Error, ErrorKind, Result};
pub use planner::{plan, Plan, PlanContext, QueryClass};
pub use syntax::parse_statement;
pub use syntax::script::{split_statements, ScriptStatement, StatementSplitter};
