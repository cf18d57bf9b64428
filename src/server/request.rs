//! Request bodies (protocol spec section 4.1), decoded into [`Request`]s.
//! The decoder knows the version because v5 widened the query flags to an
//! `[int]` and added per-query keyspaces, `now_in_seconds` and the result
//! metadata id of EXECUTE.

use crate::cluster::ConsistencyLevel;

use super::frame::Opcode;
use super::wire::{Reader, WireError, WireValue};

/// A decoded request.
#[derive(Debug, Clone, PartialEq)]
pub enum Request {
    /// OPTIONS: what does the server support?
    Options,
    /// STARTUP with its options (CQL_VERSION, COMPRESSION, DRIVER_NAME, …).
    Startup(Vec<(String, String)>),
    /// AUTH_RESPONSE with its SASL token.
    AuthResponse(Option<Vec<u8>>),
    /// QUERY: a statement as text.
    Query {
        /// The statement.
        query: String,
        /// How to run it.
        params: QueryParams,
    },
    /// PREPARE a statement.
    Prepare {
        /// The statement.
        query: String,
        /// v5's keyspace for unqualified names.
        keyspace: Option<String>,
    },
    /// EXECUTE a prepared statement.
    Execute {
        /// The id PREPARED returned.
        id: Vec<u8>,
        /// v5: the id of the result metadata the client holds.
        result_metadata_id: Option<Vec<u8>>,
        /// How to run it.
        params: QueryParams,
    },
    /// BATCH of modifications.
    Batch(Batch),
    /// REGISTER for event types.
    Register(Vec<String>),
}

/// QUERY's and EXECUTE's `<query_parameters>`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct QueryParams {
    /// The consistency level.
    pub consistency: ConsistencyLevel,
    /// Bound values, in marker order.
    pub values: Vec<WireValue>,
    /// The markers' names when values were sent by name.
    pub names: Option<Vec<String>>,
    /// The client already holds the result metadata.
    pub skip_metadata: bool,
    /// Rows per page; `None` unpaged.
    pub page_size: Option<i32>,
    /// Where the previous page stopped.
    pub paging_state: Option<Vec<u8>>,
    /// The level of a lightweight transaction's Paxos round.
    pub serial_consistency: Option<ConsistencyLevel>,
    /// The client's write timestamp, microseconds.
    pub timestamp: Option<i64>,
    /// v5: the keyspace for unqualified names.
    pub keyspace: Option<String>,
    /// v5: the time to evaluate TTLs and `now()` at, seconds.
    pub now_in_seconds: Option<i32>,
}

/// One statement of a BATCH.
#[derive(Debug, Clone, PartialEq)]
pub enum BatchQuery {
    /// A statement as text.
    Text(String),
    /// A prepared statement's id.
    Prepared(Vec<u8>),
}

/// A BATCH request.
#[derive(Debug, Clone, PartialEq)]
pub struct Batch {
    /// 0 logged, 1 unlogged, 2 counter.
    pub kind: u8,
    /// The statements with their bound values.
    pub statements: Vec<(BatchQuery, Vec<WireValue>)>,
    /// The consistency level.
    pub consistency: ConsistencyLevel,
    /// The Paxos round's level.
    pub serial_consistency: Option<ConsistencyLevel>,
    /// The client's write timestamp.
    pub timestamp: Option<i64>,
    /// v5: the keyspace for unqualified names.
    pub keyspace: Option<String>,
}

const VALUES: u32 = 0x01;
const SKIP_METADATA: u32 = 0x02;
const PAGE_SIZE: u32 = 0x04;
const PAGING_STATE: u32 = 0x08;
const SERIAL_CONSISTENCY: u32 = 0x10;
const DEFAULT_TIMESTAMP: u32 = 0x20;
const NAMES_FOR_VALUES: u32 = 0x40;
const KEYSPACE: u32 = 0x80;
const NOW_IN_SECONDS: u32 = 0x100;

/// Decodes the body of a request with opcode `opcode` (`None` for the
/// opcodes a client never sends, which the caller answers).
pub fn decode(version: u8, opcode: Opcode, body: &[u8]) -> Result<Option<Request>, WireError> {
    let mut r = Reader::new(body);
    Ok(Some(match opcode {
        Opcode::Options => Request::Options,
        Opcode::Startup => Request::Startup(r.string_map()?),
        Opcode::AuthResponse => Request::AuthResponse(r.bytes()?),
        Opcode::Query => Request::Query {
            query: r.long_string()?,
            params: params(version, &mut r)?,
        },
        Opcode::Prepare => {
            let query = r.long_string()?;
            let mut keyspace = None;
            if version >= 5 && r.remaining() > 0 {
                let flags = r.int()? as u32;
                if flags & 0x01 != 0 {
                    keyspace = Some(r.string()?);
                }
            }
            Request::Prepare { query, keyspace }
        }
        Opcode::Execute => {
            let id = r.short_bytes()?;
            let result_metadata_id = if version >= 5 {
                Some(r.short_bytes()?)
            } else {
                None
            };
            Request::Execute {
                id,
                result_metadata_id,
                params: params(version, &mut r)?,
            }
        }
        Opcode::Batch => Request::Batch(batch(version, &mut r)?),
        Opcode::Register => Request::Register(r.string_list()?),
        _ => return Ok(None),
    }))
}

/// A consistency level from its protocol code.
pub fn consistency(code: u16) -> Result<ConsistencyLevel, WireError> {
    use ConsistencyLevel as C;
    Ok(match code {
        0x0000 => C::Any,
        0x0001 => C::One,
        0x0002 => C::Two,
        0x0003 => C::Three,
        0x0004 => C::Quorum,
        0x0005 => C::All,
        0x0006 => C::LocalQuorum,
        0x0007 => C::EachQuorum,
        0x0008 => C::Serial,
        0x0009 => C::LocalSerial,
        0x000A => C::LocalOne,
        0x000B => C::NodeLocal,
        _ => {
            return Err(WireError(format!(
                "Unknown code {code} for a consistency level"
            )))
        }
    })
}

fn flags(version: u8, r: &mut Reader<'_>) -> Result<u32, WireError> {
    if version >= 5 {
        Ok(r.int()? as u32)
    } else {
        Ok(u32::from(r.byte()?))
    }
}

fn params(version: u8, r: &mut Reader<'_>) -> Result<QueryParams, WireError> {
    let mut p = QueryParams {
        consistency: consistency(r.short()?)?,
        ..QueryParams::default()
    };
    let flags = flags(version, r)?;
    if flags & VALUES != 0 {
        let n = r.short()?;
        let named = flags & NAMES_FOR_VALUES != 0;
        let mut names = Vec::new();
        for _ in 0..n {
            if named {
                names.push(r.string()?);
            }
            p.values.push(r.value()?);
        }
        if named {
            p.names = Some(names);
        }
    }
    p.skip_metadata = flags & SKIP_METADATA != 0;
    if flags & PAGE_SIZE != 0 {
        p.page_size = Some(r.int()?);
    }
    if flags & PAGING_STATE != 0 {
        p.paging_state = r.bytes()?;
    }
    if flags & SERIAL_CONSISTENCY != 0 {
        p.serial_consistency = Some(consistency(r.short()?)?);
    }
    if flags & DEFAULT_TIMESTAMP != 0 {
        p.timestamp = Some(r.long()?);
    }
    if version >= 5 && flags & KEYSPACE != 0 {
        p.keyspace = Some(r.string()?);
    }
    if version >= 5 && flags & NOW_IN_SECONDS != 0 {
        p.now_in_seconds = Some(r.int()?);
    }
    Ok(p)
}

fn batch(version: u8, r: &mut Reader<'_>) -> Result<Batch, WireError> {
    let kind = r.byte()?;
    if kind > 2 {
        return Err(WireError(format!("Unknown batch type {kind}")));
    }
    let n = r.short()?;
    let mut statements = Vec::with_capacity(usize::from(n).min(1024));
    for _ in 0..n {
        let query = match r.byte()? {
            0 => BatchQuery::Text(r.long_string()?),
            1 => BatchQuery::Prepared(r.short_bytes()?),
            other => {
                return Err(WireError(format!(
                    "Invalid query kind in BATCH messages. Must be 0 or 1 but got {other}"
                )))
            }
        };
        let count = r.short()?;
        let values = (0..count).map(|_| r.value()).collect::<Result<_, _>>()?;
        statements.push((query, values));
    }
    let consistency = consistency(r.short()?)?;
    let flags = flags(version, r)?;
    if flags & NAMES_FOR_VALUES != 0 {
        return Err(WireError(
            "Named values are not supported in BATCH messages".into(),
        ));
    }
    let serial_consistency = if flags & SERIAL_CONSISTENCY != 0 {
        Some(self::consistency(r.short()?)?)
    } else {
        None
    };
    let timestamp = if flags & DEFAULT_TIMESTAMP != 0 {
        Some(r.long()?)
    } else {
        None
    };
    let keyspace = if version >= 5 && flags & KEYSPACE != 0 {
        Some(r.string()?)
    } else {
        None
    };
    if version >= 5 && flags & NOW_IN_SECONDS != 0 {
        r.int()?;
    }
    Ok(Batch {
        kind,
        statements,
        consistency,
        serial_consistency,
        timestamp,
        keyspace,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server::wire::Writer;

    #[test]
    fn query_parameters_decode_in_v4_and_v5() {
        for version in [4u8, 5] {
            let mut w = Writer::new();
            w.long_string("SELECT 1").short(0x0004);
            let flags = VALUES | PAGE_SIZE | DEFAULT_TIMESTAMP;
            if version >= 5 {
                w.int(flags as i32);
            } else {
                w.byte(flags as u8);
            }
            w.short(2).bytes(Some(&[0, 0, 0, 7])).int(-2);
            w.int(100).long(42);
            let Some(Request::Query { query, params }) =
                decode(version, Opcode::Query, &w.out).unwrap()
            else {
                panic!("not a query");
            };
            assert_eq!(query, "SELECT 1");
            assert_eq!(params.consistency, ConsistencyLevel::Quorum);
            assert_eq!(
                params.values,
                vec![WireValue::Bytes(vec![0, 0, 0, 7]), WireValue::Unset]
            );
            assert_eq!((params.page_size, params.timestamp), (Some(100), Some(42)));
        }
    }

    #[test]
    fn truncated_bodies_are_errors() {
        for opcode in [
            Opcode::Query,
            Opcode::Execute,
            Opcode::Batch,
            Opcode::Startup,
        ] {
            // A map or string count of one, then nothing where its entry
            // should be.
            assert!(decode(4, opcode, &[0, 1, 0]).is_err(), "{opcode:?}");
        }
    }
}
