//! Cassandra's serialized form of CQL values: the bytes a partition key is hashed from.
//!
//! A token is only as right as the bytes fed to the hash, and those bytes are Cassandra's
//! *storage* encoding of each value (the one the native protocol also carries), not any
//! textual form. One function per type keeps each encoding decision in one place, where
//! the types module and the token code can both reach it.
//!
//! Functions named `serialize_*` that take a Rust value are infallible: the range check
//! already happened when the value became an `i32`, an `f64`, and so on. Functions that
//! take text parse it the way Cassandra's `fromString` does for that type and can fail
//! with a [`ParseError`]. For varint, decimal, inet, date, time and timestamp the error
//! texts are Cassandra's own (`fromString` of the matching type); the others are merely
//! descriptive. The types module remains the owner of user-facing messages. The frozen
//! collection encoders take already serialized elements and fail only when a count or
//! length does not fit the format's 4-byte prefix.
//!
//! Encodings follow `language.md` §3.2 and `murmur3-tokens.md` §2.3 of the reference.
//! The functions live in one file per family and are all re-exported here:
//!
//! * `numeric`: `tinyint`, `smallint`, `int`, `bigint`, `counter`, `float`, `double`,
//!   `varint`, `decimal`;
//! * `temporal`: `date` and `time`, and the proleptic Gregorian calendar;
//! * `timestamp`: `timestamp`, with Cassandra's (Julian before 1582) date patterns;
//! * `identity`: the values stored as their own bytes: `text`, `ascii`, `blob`,
//!   `boolean`, `uuid`, `timeuuid`, `inet`;
//! * `collections`: frozen lists, sets and maps, tuples and UDTs.

use std::error::Error;
use std::fmt;

mod collections;
mod identity;
mod numeric;
mod temporal;
mod timestamp;

pub use collections::{serialize_collection, serialize_map, serialize_tuple};
pub use identity::{
    parse_blob_literal, serialize_ascii, serialize_blob, serialize_boolean, serialize_inet,
    serialize_inet_addr, serialize_text, serialize_timeuuid, serialize_uuid,
};
pub use numeric::{
    serialize_bigint, serialize_counter, serialize_decimal, serialize_decimal_parts,
    serialize_double, serialize_float, serialize_int, serialize_smallint, serialize_tinyint,
    serialize_varint, serialize_varint_i128,
};
pub use temporal::{days_from_civil, parse_date, parse_time, serialize_date, serialize_time};
pub use timestamp::{parse_timestamp, serialize_timestamp};

/// Why a value could not be turned into bytes: text that does not parse as its type, or
/// a collection whose counts or lengths the encoding cannot express.
///
/// A single message-carrying type (rather than an enum per failure) because every caller
/// does the same thing with it: report it to the user as an invalid request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    message: String,
}

impl ParseError {
    fn new(message: impl Into<String>) -> Self {
        ParseError {
            message: message.into(),
        }
    }

    /// The human-readable reason, without any prefix, so callers can embed it in the
    /// error envelope they need.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl Error for ParseError {}

/// Lower-case hex of `bytes`, for the tests of every family.
#[cfg(test)]
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
