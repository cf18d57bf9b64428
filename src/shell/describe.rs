//! DESCRIBE / DESC (cqlsh.md §2.1).

use crate::error::Error;
use crate::session::Session;

/// The output of `DESCRIBE <rest>`.
pub fn describe(_session: &Session, rest: &str) -> Result<String, Error> {
    Err(Error::invalid(format!(
        "DESCRIBE {rest} is not available yet"
    )))
}
