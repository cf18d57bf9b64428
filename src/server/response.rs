//! Response bodies (protocol spec section 4.2): READY, SUPPORTED, ERROR
//! with each code's extra fields, and RESULT in its five kinds.

use crate::error::{already_exists_parts, Error, ErrorInfo, ErrorKind};
use crate::exec::ColumnSpec;
use crate::types::Value;

use super::values::{write_cell, write_type};
use super::wire::Writer;

/// An error as the protocol carries it: an engine error with Cassandra's
/// code, or one only the protocol layer raises.
#[derive(Debug, Clone)]
pub enum Failure {
    /// An error of the engine (Invalid, Syntax, AlreadyExists, Unavailable, …).
    Engine(Error),
    /// PROTOCOL_ERROR (0x000A): a frame or body that breaks the protocol.
    Protocol(String),
    /// UNPREPARED (0x2500): an EXECUTE of an id this server does not know.
    Unprepared(Vec<u8>),
    /// SERVER_ERROR (0x0000).
    Server(String),
    /// BAD_CREDENTIALS (0x0100).
    BadCredentials(String),
}

impl Failure {
    /// An ERROR body for this failure.
    pub fn body(&self, version: u8) -> Vec<u8> {
        let mut w = Writer::new();
        match self {
            Failure::Engine(e) => engine_error(&mut w, e, version),
            Failure::Protocol(m) => {
                w.int(0x000A).string(m);
            }
            Failure::Server(m) => {
                w.int(0x0000).string(m);
            }
            Failure::BadCredentials(m) => {
                w.int(0x0100).string(m);
            }
            Failure::Unprepared(id) => {
                w.int(0x2500).string(&format!(
                    "Prepared query with ID {} not found (either the query was not prepared on \
                     this host (maybe the host has been restarted?) or you have prepared too many \
                     queries and it has been evicted from the internal cache)",
                    hex(id)
                ));
                w.short_bytes(id);
            }
        }
        w.out
    }
}

impl From<Error> for Failure {
    fn from(e: Error) -> Failure {
        Failure::Engine(e)
    }
}

/// Lower-case hex, as Cassandra prints an id.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn engine_error(w: &mut Writer, e: &Error, version: u8) {
    if let Some(info @ ErrorInfo::WriteTimeout { .. }) = e.info() {
        write_timeout(w, e, info, version);
        return;
    }
    w.int(i32::from(e.kind().code())).string(e.message());
    match (e.kind(), e.info()) {
        (
            ErrorKind::Unavailable,
            Some(ErrorInfo::Unavailable {
                consistency,
                required_replicas,
                alive_replicas,
            }),
        ) => {
            w.short(consistency_code(consistency))
                .int(i32::try_from(*required_replicas).unwrap_or(i32::MAX))
                .int(i32::try_from(*alive_replicas).unwrap_or(i32::MAX));
        }
        (ErrorKind::Unavailable, None) => {
            w.short(0x0001).int(1).int(0);
        }
        (
            ErrorKind::ReadTimeout,
            Some(ErrorInfo::ReadTimeout {
                consistency,
                received_responses,
                required_responses,
                data_retrieved,
            }),
        ) => {
            w.short(consistency_code(consistency))
                .int(i32::try_from(*received_responses).unwrap_or(i32::MAX))
                .int(i32::try_from(*required_responses).unwrap_or(i32::MAX))
                .byte(u8::from(*data_retrieved));
        }
        (ErrorKind::ReadTimeout, _) => {
            w.short(0x0001).int(0).int(1).byte(0);
        }
        (ErrorKind::AlreadyExists, _) => {
            let (keyspace, table) = already_exists_parts(e.message()).unwrap_or(("", ""));
            w.string(keyspace).string(table);
        }
        _ => {}
    }
}

/// A WriteTimeout's body. A CAS write's timeout is Cassandra's
/// CasWriteTimeoutException, which v5 follows with its contentions; before
/// v5 Cassandra sends a plain WriteTimeoutException in its place, with
/// that exception's message.
fn write_timeout(w: &mut Writer, e: &Error, info: &ErrorInfo, version: u8) {
    let ErrorInfo::WriteTimeout {
        consistency,
        received_responses,
        required_responses,
        write_type,
    } = info
    else {
        return;
    };
    let cas = *write_type == crate::error::WriteType::Cas && e.message().starts_with("CAS ");
    let plain;
    let message = if cas && version < 5 {
        plain = format!("Operation timed out - received only {received_responses} responses.");
        plain.as_str()
    } else {
        e.message()
    };
    w.int(i32::from(e.kind().code()))
        .string(message)
        .short(consistency_code(consistency))
        .int(i32::try_from(*received_responses).unwrap_or(i32::MAX))
        .int(i32::try_from(*required_responses).unwrap_or(i32::MAX))
        .string(write_type.name());
    if cas && version >= 5 {
        w.short(0);
    }
}

/// The protocol code of a consistency level named in an error's info
/// (ONE for a name widerow does not know).
fn consistency_code(name: &str) -> u16 {
    name.parse::<crate::cluster::ConsistencyLevel>()
        .map_or(0x0001, |c| c.code())
}

/// SUPPORTED's options: the same as Cassandra 5.0's for the versions
/// widerow serves (snappy only up to v4, as Cassandra refuses it in v5).
pub fn supported() -> Vec<u8> {
    let mut w = Writer::new();
    w.string_multimap(&[
        (
            "PROTOCOL_VERSIONS",
            vec!["4/v4".to_string(), "5/v5".to_string()],
        ),
        ("COMPRESSION", vec!["snappy".to_string(), "lz4".to_string()]),
        ("CQL_VERSION", vec!["3.4.7".to_string()]),
    ]);
    w.out
}

/// AUTHENTICATE: the authenticator's class name, Cassandra's own so that
/// drivers pick their plain-text provider.
pub fn authenticate() -> Vec<u8> {
    let mut w = Writer::new();
    w.string("org.apache.cassandra.auth.PasswordAuthenticator");
    w.out
}

/// AUTH_SUCCESS: PasswordAuthenticator has no final token, so the
/// `[bytes]` is null, as Cassandra sends it.
pub fn auth_success() -> Vec<u8> {
    let mut w = Writer::new();
    w.int(-1);
    w.out
}

/// RESULT Void.
pub fn void() -> Vec<u8> {
    let mut w = Writer::new();
    w.int(0x0001);
    w.out
}

/// RESULT Set_keyspace.
pub fn set_keyspace(keyspace: &str) -> Vec<u8> {
    let mut w = Writer::new();
    w.int(0x0003).string(keyspace);
    w.out
}

/// What a schema change changed, as RESULT Schema_change and the
/// SCHEMA_CHANGE event describe it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaChange {
    /// CREATED, UPDATED or DROPPED.
    pub change: &'static str,
    /// KEYSPACE, TABLE, TYPE, FUNCTION or AGGREGATE.
    pub target: &'static str,
    /// The keyspace.
    pub keyspace: String,
    /// The table, type or function (absent for a keyspace).
    pub name: Option<String>,
    /// A function's or aggregate's argument types.
    pub arguments: Vec<String>,
}

impl SchemaChange {
    /// The change's fields, after the result kind or event type.
    pub fn write(&self, w: &mut Writer) {
        w.string(self.change)
            .string(self.target)
            .string(&self.keyspace);
        if let Some(name) = &self.name {
            w.string(name);
        }
        if matches!(self.target, "FUNCTION" | "AGGREGATE") {
            w.string_list(&self.arguments);
        }
    }
}

/// RESULT Schema_change.
pub fn schema_change(change: &SchemaChange) -> Vec<u8> {
    let mut w = Writer::new();
    w.int(0x0005);
    change.write(&mut w);
    w.out
}

/// The table a result's columns come from (the protocol's global table
/// spec).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TableSpec {
    /// Its keyspace.
    pub keyspace: String,
    /// Its name.
    pub table: String,
}

/// How a Rows result describes its columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Metadata<'a> {
    /// The column specs in full (v5: and the id of this metadata, flagged
    /// as changed when the client's id differs).
    Full {
        /// v5's result metadata id, when the metadata changed under a
        /// prepared statement the client holds.
        changed_id: Option<&'a [u8]>,
    },
    /// Only the column count: the client holds the metadata (EXECUTE
    /// with skip_metadata).
    Skipped,
}

const GLOBAL_TABLES_SPEC: i32 = 0x0001;
const HAS_MORE_PAGES: i32 = 0x0002;
const NO_METADATA: i32 = 0x0004;
const METADATA_CHANGED: i32 = 0x0008;

/// RESULT Rows: the metadata, then each row's cells.
pub fn rows(
    table: &TableSpec,
    columns: &[ColumnSpec],
    rows: impl Iterator<Item = impl AsRef<[Value]>>,
    row_count: usize,
    paging_state: Option<&[u8]>,
    metadata: Metadata<'_>,
) -> Vec<u8> {
    let mut w = Writer::new();
    w.int(0x0002);
    write_metadata(&mut w, table, columns, paging_state, metadata);
    w.int(i32::try_from(row_count).unwrap_or(i32::MAX));
    for row in rows {
        for value in row.as_ref() {
            write_cell(&mut w, value);
        }
    }
    w.out
}

fn write_metadata(
    w: &mut Writer,
    table: &TableSpec,
    columns: &[ColumnSpec],
    paging_state: Option<&[u8]>,
    metadata: Metadata<'_>,
) {
    let mut flags = if paging_state.is_some() {
        HAS_MORE_PAGES
    } else {
        0
    };
    match metadata {
        Metadata::Skipped => flags |= NO_METADATA,
        Metadata::Full { changed_id } => {
            flags |= GLOBAL_TABLES_SPEC;
            if changed_id.is_some() {
                flags |= METADATA_CHANGED;
            }
        }
    }
    w.int(flags).int(columns.len() as i32);
    if let Some(state) = paging_state {
        w.bytes(Some(state));
    }
    if let Metadata::Full { changed_id } = metadata {
        if let Some(id) = changed_id {
            w.short_bytes(id);
        }
        w.string(&table.keyspace).string(&table.table);
        for c in columns {
            w.string(&c.name);
            write_type(w, &c.data_type);
        }
    }
}

/// One bind marker of a PREPARED result.
#[derive(Debug, Clone)]
pub struct BindSpec {
    /// Where the marker's receiver lives.
    pub table: TableSpec,
    /// The receiver's name and type.
    pub column: ColumnSpec,
}

/// RESULT Prepared: the id, v5's result metadata id, the markers with the
/// partition key's marker indexes, and the result's columns.
pub fn prepared(
    version: u8,
    id: &[u8],
    result_metadata_id: &[u8],
    markers: &[BindSpec],
    partition_key_indexes: &[u16],
    result_table: &TableSpec,
    result_columns: &[ColumnSpec],
) -> Vec<u8> {
    let mut w = Writer::new();
    w.int(0x0004).short_bytes(id);
    if version >= 5 {
        w.short_bytes(result_metadata_id);
    }
    let global = markers
        .first()
        .map(|m| &m.table)
        .filter(|first| markers.iter().all(|m| &m.table == *first));
    w.int(if global.is_some() {
        GLOBAL_TABLES_SPEC
    } else {
        0
    });
    w.int(markers.len() as i32)
        .int(partition_key_indexes.len() as i32);
    for i in partition_key_indexes {
        w.short(*i);
    }
    if let Some(t) = global {
        w.string(&t.keyspace).string(&t.table);
    }
    for m in markers {
        if global.is_none() {
            w.string(&m.table.keyspace).string(&m.table.table);
        }
        w.string(&m.column.name);
        write_type(&mut w, &m.column.data_type);
    }
    if result_columns.is_empty() {
        w.int(NO_METADATA).int(0);
    } else {
        write_metadata(
            &mut w,
            result_table,
            result_columns,
            None,
            Metadata::Full { changed_id: None },
        );
    }
    w.out
}

/// An EVENT body for a schema change.
pub fn schema_change_event(change: &SchemaChange) -> Vec<u8> {
    let mut w = Writer::new();
    w.string("SCHEMA_CHANGE");
    change.write(&mut w);
    w.out
}

/// An EVENT body for a node joining, leaving or moving (`NEW_NODE`,
/// `REMOVED_NODE`, `MOVED_NODE`).
pub fn topology_event(change: &str, addr: std::net::SocketAddr) -> Vec<u8> {
    let mut w = Writer::new();
    w.string("TOPOLOGY_CHANGE").string(change).inet(addr);
    w.out
}

/// An EVENT body for a node going up or down.
pub fn status_event(up: bool, addr: std::net::SocketAddr) -> Vec<u8> {
    let mut w = Writer::new();
    w.string("STATUS_CHANGE")
        .string(if up { "UP" } else { "DOWN" })
        .inet(addr);
    w.out
}
