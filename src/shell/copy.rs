//! COPY table TO / FROM a CSV file, with cqlsh's options and messages.

use super::{Reply, Shell};

/// Runs a COPY command written as `text`.
pub fn copy(_shell: &mut Shell, text: &str) -> Reply {
    Reply::error(format!("{text}: COPY is not available yet\n"))
}
