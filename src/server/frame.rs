//! Frames (the envelope of protocol spec section 2): a 9-byte header —
//! version, flags, stream, opcode, body length — then the body.
//!
//! widerow speaks v4 and v5. A frame of another version is answered with
//! the PROTOCOL_ERROR Cassandra sends (its text names the supported
//! versions, which is what makes a driver retry with a lower one), and the
//! connection is closed.

/// The header's length from v3 on.
pub const HEADER_LEN: usize = 9;

/// The lowest and highest protocol versions served.
pub const MIN_VERSION: u8 = 4;
/// See [`MIN_VERSION`].
pub const MAX_VERSION: u8 = 5;

/// The versions as SUPPORTED lists them and version errors name them.
pub const SUPPORTED_VERSIONS: &str = "4/v4, 5/v5";

/// Header flag: the body is compressed (v4; v5 compresses segments).
pub const FLAG_COMPRESSION: u8 = 0x01;
/// Header flag: tracing requested / a tracing id precedes the body.
pub const FLAG_TRACING: u8 = 0x02;
/// Header flag: a custom payload precedes the body.
pub const FLAG_CUSTOM_PAYLOAD: u8 = 0x04;
/// Header flag: warnings precede the body (responses only).
pub const FLAG_WARNING: u8 = 0x08;
/// Header flag: the client uses a beta version.
pub const FLAG_USE_BETA: u8 = 0x10;

/// The message a frame carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opcode {
    /// Answers a request that failed.
    Error = 0x00,
    /// Opens a connection with its options.
    Startup = 0x01,
    /// The connection is ready for queries.
    Ready = 0x02,
    /// Credentials are needed.
    Authenticate = 0x03,
    /// Asks what the server supports.
    Options = 0x05,
    /// What the server supports.
    Supported = 0x06,
    /// A statement as text.
    Query = 0x07,
    /// A statement's result.
    Result = 0x08,
    /// Prepares a statement.
    Prepare = 0x09,
    /// Runs a prepared statement.
    Execute = 0x0A,
    /// Subscribes to events.
    Register = 0x0B,
    /// A pushed event.
    Event = 0x0C,
    /// Several modifications at once.
    Batch = 0x0D,
    /// A SASL challenge.
    AuthChallenge = 0x0E,
    /// A SASL response.
    AuthResponse = 0x0F,
    /// Authentication succeeded.
    AuthSuccess = 0x10,
}

impl Opcode {
    /// The opcode of byte `b`, if it is one.
    pub fn from_byte(b: u8) -> Option<Opcode> {
        use Opcode as O;
        Some(match b {
            0x00 => O::Error,
            0x01 => O::Startup,
            0x02 => O::Ready,
            0x03 => O::Authenticate,
            0x05 => O::Options,
            0x06 => O::Supported,
            0x07 => O::Query,
            0x08 => O::Result,
            0x09 => O::Prepare,
            0x0A => O::Execute,
            0x0B => O::Register,
            0x0C => O::Event,
            0x0D => O::Batch,
            0x0E => O::AuthChallenge,
            0x0F => O::AuthResponse,
            0x10 => O::AuthSuccess,
            _ => return None,
        })
    }

    /// The name Cassandra's messages use (`QUERY`, `STARTUP`).
    pub fn name(self) -> &'static str {
        use Opcode as O;
        match self {
            O::Error => "ERROR",
            O::Startup => "STARTUP",
            O::Ready => "READY",
            O::Authenticate => "AUTHENTICATE",
            O::Options => "OPTIONS",
            O::Supported => "SUPPORTED",
            O::Query => "QUERY",
            O::Result => "RESULT",
            O::Prepare => "PREPARE",
            O::Execute => "EXECUTE",
            O::Register => "REGISTER",
            O::Event => "EVENT",
            O::Batch => "BATCH",
            O::AuthChallenge => "AUTH_CHALLENGE",
            O::AuthResponse => "AUTH_RESPONSE",
            O::AuthSuccess => "AUTH_SUCCESS",
        }
    }
}

/// A request frame's header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    /// The protocol version (direction bit cleared).
    pub version: u8,
    /// The header flags.
    pub flags: u8,
    /// The stream id the response must carry.
    pub stream: i16,
    /// The opcode byte (checked by the handler, which answers an unknown
    /// one with Cassandra's error).
    pub opcode: u8,
    /// The body's length.
    pub length: u32,
}

/// What is wrong with a header, before its body is read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HeaderError {
    /// A version not served; answered in `reply_version`'s framing.
    Version {
        /// The version the client sent.
        requested: u8,
        /// The framing of the answer (1 and 2 have an 8-byte header).
        reply_version: u8,
        /// Cassandra's message.
        message: String,
    },
    /// A response frame sent to the server.
    Direction,
    /// A body longer than the configured frame limit.
    TooLong {
        /// The declared length.
        length: u32,
    },
}

impl Header {
    /// Reads a request header, checking what can be checked before the
    /// body arrives.
    pub fn parse(bytes: &[u8; HEADER_LEN], max_body: u32) -> Result<Header, HeaderError> {
        let raw = bytes[0];
        if raw & 0x80 != 0 {
            return Err(HeaderError::Direction);
        }
        let version = raw & 0x7f;
        let flags = bytes[1];
        if !(MIN_VERSION..=MAX_VERSION).contains(&version) {
            return Err(HeaderError::Version {
                requested: version,
                reply_version: if version < 3 { version } else { MAX_VERSION },
                message: format!(
                    "Invalid or unsupported protocol version ({version}); supported versions are ({SUPPORTED_VERSIONS})"
                ),
            });
        }
        let length = u32::from_be_bytes([bytes[5], bytes[6], bytes[7], bytes[8]]);
        if length > max_body {
            return Err(HeaderError::TooLong { length });
        }
        Ok(Header {
            version,
            flags,
            stream: i16::from_be_bytes([bytes[2], bytes[3]]),
            opcode: bytes[4],
            length,
        })
    }
}

/// A response frame: header and body, ready to write.
pub fn encode(version: u8, flags: u8, stream: i16, opcode: Opcode, body: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER_LEN + body.len());
    if version < 3 {
        // v1 and v2: a one-byte stream (only ever an error about the version).
        out.extend_from_slice(&[0x80 | version, flags, stream as u8, opcode as u8]);
    } else {
        out.extend_from_slice(&[0x80 | version, flags]);
        out.extend_from_slice(&stream.to_be_bytes());
        out.push(opcode as u8);
    }
    out.extend_from_slice(&(body.len() as u32).to_be_bytes());
    out.extend_from_slice(body);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_outside_four_and_five_are_refused_with_cassandras_text() {
        let header = [0x42, 0, 0, 1, 5, 0, 0, 0, 0];
        let Err(HeaderError::Version { message, .. }) = Header::parse(&header, 1024) else {
            panic!("accepted");
        };
        assert_eq!(
            message,
            "Invalid or unsupported protocol version (66); supported versions are (4/v4, 5/v5)"
        );
        assert!(Header::parse(&[4, 0, 0, 1, 5, 0, 0, 0, 0], 1024).is_ok());
        assert_eq!(
            Header::parse(&[4, 0, 0, 1, 7, 0, 0, 4, 1], 1024),
            Err(HeaderError::TooLong { length: 1025 })
        );
    }
}
