//! widerow: an embeddable, in-memory interpreter for CQL, the query language
//! of Apache Cassandra and ScyllaDB.
//!
//! The pipeline runs in stages, each knowing only those before it:
//! [`syntax`] turns text into statements; [`schema`] validates schema
//! statements into a catalog; [`planner`] decides, without data, how a
//! Cassandra coordinator would serve each query (or which error it would
//! raise), on the simulated ring of [`cluster`]; [`lint`] judges data models
//! and queries from those plans.
//!
//! ```
//! use widerow::{plan, PlanContext, QueryClass};
//!
//! let mut ctx = PlanContext::new();
//! for s in widerow::split_statements(
//!     "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};
//!      USE ks;
//!      CREATE TABLE t (k int, c int, v text, PRIMARY KEY (k, c));",
//! ) {
//!     ctx.apply_schema(&widerow::parse_statement(&s.text)?)?;
//! }
//! assert_eq!(plan(&ctx, "SELECT * FROM t WHERE k = 1 AND c = 2")?.class, QueryClass::PointLookup);
//! let refused = plan(&ctx, "SELECT * FROM t WHERE v = 'x'").unwrap_err();
//! assert!(refused.message().ends_with("use ALLOW FILTERING"));
//! # Ok::<(), widerow::Error>(())
//! ```

// Nothing that comes from input may panic: no unwrap/expect outside tests.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub mod auth;
pub mod checkpoints;
pub mod cluster;
#[cfg(feature = "connect")]
pub mod connect;
pub mod deadline;
pub mod diagnostic;
pub mod error;
pub mod exec;
pub mod limits;
pub mod lint;
pub mod planner;
pub mod render;
pub mod schema;
#[cfg(feature = "server")]
pub mod server;
pub mod session;
pub mod shell;
pub mod storage;
pub mod syntax;
pub mod types;
#[cfg(feature = "web")]
pub mod web;
pub mod work;

pub use error::{Error, ErrorKind, Result};
pub use exec::{ResultKind, ResultSet, Rows};
pub use planner::{plan, Plan, PlanContext, QueryClass};
pub use session::{Prepared, Session};
pub use syntax::parse_statement;
pub use syntax::script::{split_statements, ScriptStatement, StatementSplitter};
