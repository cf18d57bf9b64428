//! SAVE 'file' — widerow's own command: the session as a CQL script.
//!
//! The script holds the schema exactly as `DESCRIBE SCHEMA` prints it, then
//! every row of every table (materialized views are left out: running the
//! script rebuilds them from their base tables) as INSERT and UPDATE
//! statements that keep each cell's write time and remaining TTL (see
//! [`rows`]). Running it in a fresh session at the same clock time
//! (`widerow -f file.cql`) gives back the same rows, write times and TTLs.
//!
//! What is not saved: deletions (tombstones, partition and range
//! deletions) — they only matter against writes older than themselves,
//! which the saved data no longer holds; expired cells; collection-wide
//! deletion times; the session's current keyspace and settings. Counter
//! values are restored by increments, without write times (Cassandra
//! allows no timestamp on counter updates).

mod literal;
mod rows;

use std::path::Path;

pub use literal::literal;

use crate::error::{Error, ErrorKind};
use crate::schema::{Keyspace, Table};
use crate::session::Session;
use crate::shell::describe::schema_statements;

/// The saved script and what it holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dump {
    /// The CQL text.
    pub text: String,
    /// Tables saved (views not counted).
    pub tables: usize,
    /// Rows saved.
    pub rows: usize,
}

/// `SAVE 'path'`: writes the session to `path` and returns the line to
/// print, e.g. `Saved 3 tables and 120 rows to 'file.cql'.` (widerow's own
/// wording; cqlsh has no such command).
pub fn save(session: &Session, path: &Path) -> Result<String, Error> {
    let dump = dump(session);
    std::fs::write(path, &dump.text).map_err(|e| {
        Error::new(
            ErrorKind::ServerError,
            format!("Could not write '{}': {e}", path.display()),
        )
    })?;
    Ok(format!(
        "Saved {} and {} to '{}'.\n",
        count(dump.tables, "table"),
        count(dump.rows, "row"),
        path.display()
    ))
}

/// The script SAVE writes, without writing it: for embedders and tests.
pub fn dump(session: &Session) -> Dump {
    let catalog = &session.context().catalog;
    let now_secs = session.now_micros().div_euclid(1_000_000);
    let mut text = String::from(
        "-- Saved by widerow: the schema, then every row with its write time and remaining TTL.\n",
    );
    for statement in schema_statements(catalog) {
        text.push('\n');
        text.push_str(&statement);
        text.push('\n');
    }
    let (mut tables, mut rows) = (0, 0);
    // The system keyspaces are the node's own, rebuilt by every session.
    let mut keyspaces: Vec<&Keyspace> = catalog
        .keyspaces()
        .filter(|ks| !crate::schema::system::is_system_keyspace(&ks.name))
        .collect();
    keyspaces.sort_by(|a, b| a.name.cmp(&b.name));
    for ks in keyspaces {
        let mut list: Vec<&Table> = ks.tables.values().filter(|t| !t.is_view()).collect();
        list.sort_by(|a, b| a.name.cmp(&b.name));
        for table in list {
            tables += 1;
            let Some(data) = session.store().table(&table.qualified_name()) else {
                continue;
            };
            let saved = rows::table_rows(table, data, now_secs);
            if !saved.statements.is_empty() {
                text.push('\n');
            }
            for statement in saved.statements {
                text.push_str(&statement);
                text.push('\n');
            }
            rows += saved.rows;
        }
    }
    Dump { text, tables, rows }
}

/// `1 table`, `3 rows`.
fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}
