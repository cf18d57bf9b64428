//! The driver's errors as widerow's one error type: a server's error keeps
//! its kind and its message, so a failed statement reads the same in
//! connect mode as in memory; what fails on the client's side (no node
//! reachable, a client timeout) says so in its own words.

use scylla::errors::{DbError, ExecutionError, NewSessionError, PrepareError, RequestAttemptError};
use scylla::frame::types::Consistency;

use crate::cluster::ConsistencyLevel;
use crate::error::{Error, ErrorInfo, ErrorKind};

/// A statement's failure on the cluster.
pub fn execution(error: ExecutionError) -> Error {
    match error {
        ExecutionError::LastAttemptError(attempt) => attempt_error(attempt),
        ExecutionError::PrepareError(PrepareError::AllAttemptsFailed { first_attempt }) => {
            attempt_error(first_attempt)
        }
        ExecutionError::RequestTimeout(after) => Error::new(
            ErrorKind::NoHostAvailable,
            format!(
                "the cluster did not answer within the request timeout ({} ms)",
                after.as_millis()
            ),
        ),
        ExecutionError::ConnectionPoolError(e) => unreachable_cluster(e.to_string()),
        ExecutionError::EmptyPlan => unreachable_cluster("no node left to try".into()),
        other => Error::new(ErrorKind::ServerError, other.to_string()),
    }
}

/// Why the first connection failed.
pub fn connection(error: NewSessionError) -> Error {
    if let NewSessionError::MetadataError(metadata) = &error {
        let text = metadata.to_string();
        if text.contains("Authentication") || text.contains("authenticat") {
            return Error::new(ErrorKind::AuthenticationError, text);
        }
    }
    unreachable_cluster(error.to_string())
}

fn unreachable_cluster(detail: String) -> Error {
    Error::new(
        ErrorKind::NoHostAvailable,
        format!("Unable to connect to any servers: {detail}"),
    )
}

fn attempt_error(error: RequestAttemptError) -> Error {
    match error {
        RequestAttemptError::DbError(db, message) => server_error(db, message),
        RequestAttemptError::BrokenConnectionError(e) => unreachable_cluster(e.to_string()),
        other => Error::new(ErrorKind::ServerError, other.to_string()),
    }
}

/// The kind Cassandra's exception maps to, with its message and the info
/// fields cqlsh prints.
fn server_error(db: DbError, message: String) -> Error {
    let kind = match &db {
        DbError::SyntaxError => ErrorKind::SyntaxException,
        DbError::Invalid => ErrorKind::InvalidRequest,
        DbError::AlreadyExists { .. } => ErrorKind::AlreadyExists,
        DbError::AuthenticationError => ErrorKind::AuthenticationError,
        DbError::Unauthorized => ErrorKind::Unauthorized,
        DbError::ConfigError => ErrorKind::ConfigurationException,
        DbError::Unavailable { .. } => ErrorKind::Unavailable,
        DbError::Overloaded => ErrorKind::Overloaded,
        DbError::ReadTimeout { .. } => ErrorKind::ReadTimeout,
        DbError::WriteTimeout { .. } => ErrorKind::WriteTimeout,
        _ => ErrorKind::ServerError,
    };
    let error = Error::new(kind, message);
    match db {
        DbError::Unavailable {
            consistency,
            required,
            alive,
        } => error.with_info(ErrorInfo::Unavailable {
            consistency: level_name(consistency),
            required_replicas: u32::try_from(required).unwrap_or(0),
            alive_replicas: u32::try_from(alive).unwrap_or(0),
        }),
        DbError::ReadTimeout {
            consistency,
            received,
            required,
            data_present,
        } => error.with_info(ErrorInfo::ReadTimeout {
            consistency: level_name(consistency),
            received_responses: u32::try_from(received).unwrap_or(0),
            required_responses: u32::try_from(required).unwrap_or(0),
            data_retrieved: data_present,
        }),
        DbError::WriteTimeout {
            consistency,
            received,
            required,
            write_type,
        } => match write_type_of(&write_type) {
            Some(write_type) => error.with_info(ErrorInfo::WriteTimeout {
                consistency: level_name(consistency),
                received_responses: u32::try_from(received).unwrap_or(0),
                required_responses: u32::try_from(required).unwrap_or(0),
                write_type,
            }),
            None => error,
        },
        _ => error,
    }
}

/// widerow's name for the driver's kind of write; a kind the protocol does
/// not name keeps the error without its info.
fn write_type_of(write_type: &scylla::errors::WriteType) -> Option<crate::error::WriteType> {
    use crate::error::WriteType as Ours;
    use scylla::errors::WriteType as Theirs;
    Some(match write_type {
        Theirs::Simple => Ours::Simple,
        Theirs::Batch => Ours::Batch,
        Theirs::UnloggedBatch => Ours::UnloggedBatch,
        Theirs::Counter => Ours::Counter,
        Theirs::Cas => Ours::Cas,
        Theirs::BatchLog => Ours::BatchLog,
        Theirs::View => Ours::View,
        Theirs::Cdc => Ours::Cdc,
        Theirs::Other(_) => return None,
    })
}

/// The level's name as Cassandra spells it (`LOCAL_QUORUM`).
fn level_name(consistency: Consistency) -> String {
    crate::server::request::consistency(consistency as u16)
        .map_or_else(|_| format!("{consistency:?}"), |level| level.name().into())
}

/// The driver's consistency for widerow's level; the driver has no
/// NODE_LOCAL, so that level is refused before anything is sent.
pub fn driver_consistency(level: ConsistencyLevel) -> Result<Consistency, Error> {
    Ok(match level {
        ConsistencyLevel::Any => Consistency::Any,
        ConsistencyLevel::One => Consistency::One,
        ConsistencyLevel::Two => Consistency::Two,
        ConsistencyLevel::Three => Consistency::Three,
        ConsistencyLevel::Quorum => Consistency::Quorum,
        ConsistencyLevel::All => Consistency::All,
        ConsistencyLevel::LocalQuorum => Consistency::LocalQuorum,
        ConsistencyLevel::EachQuorum => Consistency::EachQuorum,
        ConsistencyLevel::Serial => Consistency::Serial,
        ConsistencyLevel::LocalSerial => Consistency::LocalSerial,
        ConsistencyLevel::LocalOne => Consistency::LocalOne,
        ConsistencyLevel::NodeLocal => {
            return Err(Error::invalid(
                "NODE_LOCAL cannot be sent to a cluster from connect mode: the driver has no such level",
            ))
        }
    })
}
