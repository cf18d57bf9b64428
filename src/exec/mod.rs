//! The executor: runs planned statements against [`crate::storage`].

pub(crate) mod aggregate;
pub(crate) mod functions;
mod result;

pub use result::{ColumnSpec, Metrics, ResultKind, ResultSet};
