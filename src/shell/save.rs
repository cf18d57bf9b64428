//! SAVE 'file' (widerow's own): the schema and every row as a script.

use std::path::Path;

use crate::error::Error;
use crate::session::Session;

/// Writes the session to `path`; returns what to print.
pub fn save(_session: &Session, path: &Path) -> Result<String, Error> {
    Err(Error::invalid(format!(
        "SAVE to {} is not available yet",
        path.display()
    )))
}
