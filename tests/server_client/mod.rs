//! A tiny hand-written native-protocol client for the server tests: frames
//! built byte by byte, responses read back whole, ROWS results decoded as
//! far as the tests need (simple column types). v5 connections are framed
//! in segments by the server's own `segment` module, which its own tests
//! check against Cassandra's bytes. [`request`] and [`read_plain_frame`]
//! are for tests that state the answer's exact bytes (`server_protocol`,
//! `server_auth`, `server_control`).
//!
//! Each test file uses a part of it, hence the `dead_code` allowance.
#![allow(dead_code)]

use std::io::{self, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpStream};
use std::time::Duration;

use widerow::server::segment::{encode_segments, SegmentDecoder};

/// How long a test waits for one read or write before calling it a hang.
pub const IO_TIMEOUT: Duration = Duration::from_secs(10);

/// Opcodes the tests send or expect.
pub mod op {
    /// ERROR
    pub const ERROR: u8 = 0x00;
    /// STARTUP
    pub const STARTUP: u8 = 0x01;
    /// READY
    pub const READY: u8 = 0x02;
    /// AUTHENTICATE
    pub const AUTHENTICATE: u8 = 0x03;
    /// OPTIONS
    pub const OPTIONS: u8 = 0x05;
    /// SUPPORTED
    pub const SUPPORTED: u8 = 0x06;
    /// QUERY
    pub const QUERY: u8 = 0x07;
    /// RESULT
    pub const RESULT: u8 = 0x08;
    /// PREPARE
    pub const PREPARE: u8 = 0x09;
    /// EXECUTE
    pub const EXECUTE: u8 = 0x0A;
    /// REGISTER
    pub const REGISTER: u8 = 0x0B;
    /// EVENT
    pub const EVENT: u8 = 0x0C;
    /// BATCH
    pub const BATCH: u8 = 0x0D;
    /// AUTH_RESPONSE
    pub const AUTH_RESPONSE: u8 = 0x0F;
    /// AUTH_SUCCESS
    pub const AUTH_SUCCESS: u8 = 0x10;
}

/// PROTOCOL_ERROR's code.
pub const PROTOCOL_ERROR: i32 = 0x000A;

/// One response frame.
#[derive(Debug, Clone)]
pub struct Frame {
    /// The header as received (8 bytes for v1/v2 framing, else 9).
    pub header: Vec<u8>,
    /// The body, past the tracing id and warnings the flags announce.
    pub body: Vec<u8>,
    /// The warnings the frame carried.
    pub warnings: Vec<String>,
}

impl Frame {
    /// A frame from its header and body as received.
    pub fn new(header: Vec<u8>, mut body: Vec<u8>) -> Frame {
        let flags = if header.len() == 9 { header[1] } else { 0 };
        let mut r = Cursor {
            bytes: &body,
            at: 0,
        };
        if flags & 0x02 != 0 {
            r.take(16);
        }
        let mut warnings = Vec::new();
        if flags & 0x08 != 0 {
            for _ in 0..r.short() {
                let n = r.short() as usize;
                warnings.push(String::from_utf8_lossy(r.take(n)).into_owned());
            }
        }
        let at = r.at;
        body.drain(..at);
        Frame {
            header,
            body,
            warnings,
        }
    }

    /// The opcode byte.
    pub fn opcode(&self) -> u8 {
        if self.header.len() == 8 {
            self.header[3]
        } else {
            self.header[4]
        }
    }

    /// The stream id (v3+ framing).
    pub fn stream(&self) -> i16 {
        i16::from_be_bytes([self.header[2], self.header[3]])
    }

    /// The error code and message, if this is an ERROR.
    pub fn error(&self) -> Option<(i32, String)> {
        (self.opcode() == op::ERROR).then(|| error_of(&self.body))
    }
}

/// A connection to `addr` with [`IO_TIMEOUT`] on reads and writes.
pub fn connect(addr: SocketAddr) -> TcpStream {
    let stream = TcpStream::connect(addr).unwrap_or_else(|e| panic!("connect {addr}: {e}"));
    stream.set_read_timeout(Some(IO_TIMEOUT)).unwrap();
    stream.set_write_timeout(Some(IO_TIMEOUT)).unwrap();
    let _ = stream.set_nodelay(true);
    stream
}

/// A request frame (v3+ header).
pub fn frame(version: u8, stream: i16, opcode: u8, body: &[u8]) -> Vec<u8> {
    let mut out = vec![version, 0];
    out.extend_from_slice(&stream.to_be_bytes());
    out.push(opcode);
    out.extend_from_slice(&(body.len() as u32).to_be_bytes());
    out.extend_from_slice(body);
    out
}

/// One response frame in v3+ framing.
pub fn read_frame(stream: &mut impl Read) -> io::Result<Frame> {
    let mut header = [0u8; 9];
    stream.read_exact(&mut header)?;
    let len = u32::from_be_bytes([header[5], header[6], header[7], header[8]]) as usize;
    let mut body = vec![0; len];
    stream.read_exact(&mut body)?;
    Ok(Frame::new(header.to_vec(), body))
}

/// Like [`read_frame`], for a test that checks the body's bytes: an error
/// if the frame carries a tracing id or warnings (none were asked for),
/// which [`Frame::new`] would otherwise take off the front of the body.
pub fn read_plain_frame(stream: &mut impl Read) -> io::Result<Frame> {
    let f = read_frame(stream)?;
    if f.header[1] & 0x0a != 0 {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("a tracing id or warnings before the body: {f:?}"),
        ));
    }
    Ok(f)
}

/// Cuts `bytes` into response frames, each in the framing its first byte
/// names (v1 and v2: 8-byte header); an error for bytes that are not
/// whole frames.
pub fn split_frames(mut bytes: &[u8]) -> Result<Vec<Frame>, String> {
    let mut frames = Vec::new();
    while !bytes.is_empty() {
        if bytes[0] & 0x80 == 0 {
            return Err(format!("not a response frame: {:02x?}", &bytes[..1]));
        }
        let header_len = if bytes[0] & 0x7f < 3 { 8 } else { 9 };
        if bytes.len() < header_len {
            return Err(format!("a cut header: {bytes:02x?}"));
        }
        let l = &bytes[header_len - 4..header_len];
        let len = u32::from_be_bytes([l[0], l[1], l[2], l[3]]) as usize;
        if bytes.len() < header_len + len {
            return Err(format!("a cut body: {} of {len} bytes", bytes.len()));
        }
        frames.push(Frame::new(
            bytes[..header_len].to_vec(),
            bytes[header_len..header_len + len].to_vec(),
        ));
        bytes = &bytes[header_len + len..];
    }
    Ok(frames)
}

/// Closes our sending half and reads everything the server sends until it
/// closes the connection (a reset counts as closed). An error if the server
/// neither closes nor sends within [`IO_TIMEOUT`]: a hang.
pub fn drain_to_close(stream: &mut TcpStream) -> io::Result<Vec<u8>> {
    let _ = stream.shutdown(Shutdown::Write);
    read_to_close(stream)
}

/// Reads until the server closes the connection (a reset counts as closed).
pub fn read_to_close(stream: &mut TcpStream) -> io::Result<Vec<u8>> {
    let mut out = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        match stream.read(&mut buf) {
            Ok(0) => return Ok(out),
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == io::ErrorKind::ConnectionReset => return Ok(out),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

/// An ERROR body's code and message.
pub fn error_of(body: &[u8]) -> (i32, String) {
    let code = i32::from_be_bytes([body[0], body[1], body[2], body[3]]);
    let len = u16::from_be_bytes([body[4], body[5]]) as usize;
    (
        code,
        String::from_utf8_lossy(&body[6..6 + len]).into_owned(),
    )
}

/// A `[string map]`.
pub fn string_map(entries: &[(&str, &str)]) -> Vec<u8> {
    let mut out = (entries.len() as u16).to_be_bytes().to_vec();
    for (k, v) in entries {
        out.extend_from_slice(&(k.len() as u16).to_be_bytes());
        out.extend_from_slice(k.as_bytes());
        out.extend_from_slice(&(v.len() as u16).to_be_bytes());
        out.extend_from_slice(v.as_bytes());
    }
    out
}

/// A STARTUP body naming CQL 3.0.0 and nothing else.
pub fn startup_body() -> Vec<u8> {
    string_map(&[("CQL_VERSION", "3.0.0")])
}

/// A v4 QUERY body: the statement at ONE, no flags.
pub fn query_body(cql: &str) -> Vec<u8> {
    let mut out = (cql.len() as u32).to_be_bytes().to_vec();
    out.extend_from_slice(cql.as_bytes());
    out.extend_from_slice(&[0x00, 0x01, 0x00]); // ONE, no flags
    out
}

/// A v4 QUERY body binding `values` to the statement's markers.
pub fn query_values_body(cql: &str, values: &[&[u8]]) -> Vec<u8> {
    let mut out = (cql.len() as u32).to_be_bytes().to_vec();
    out.extend_from_slice(cql.as_bytes());
    out.extend_from_slice(&[0x00, 0x01, 0x01]); // ONE, VALUES
    out.extend_from_slice(&(values.len() as u16).to_be_bytes());
    for v in values {
        out.extend_from_slice(&(v.len() as i32).to_be_bytes());
        out.extend_from_slice(v);
    }
    out
}

/// A v4 connection with STARTUP answered READY.
pub fn started(addr: SocketAddr) -> TcpStream {
    let mut s = connect(addr);
    s.write_all(&frame(4, 1, op::STARTUP, &startup_body()))
        .unwrap();
    let f = read_frame(&mut s).unwrap();
    assert_eq!(f.opcode(), op::READY, "STARTUP answered {f:?}");
    s
}

/// Connects, sends STARTUP (v4) and returns the connection with the
/// answer: READY, or AUTHENTICATE on a server with logins.
pub fn startup(addr: SocketAddr) -> io::Result<(TcpStream, Frame)> {
    let mut s = connect(addr);
    let f = request(&mut s, 1, op::STARTUP, &startup_body())?;
    Ok((s, f))
}

/// Sends one v4 request on stream `id` and reads its answer, which must
/// come on the same stream, with its body as sent ([`read_plain_frame`]).
pub fn request(s: &mut TcpStream, id: i16, opcode: u8, body: &[u8]) -> io::Result<Frame> {
    s.write_all(&frame(4, id, opcode, body))?;
    let f = read_plain_frame(s)?;
    assert_eq!(f.stream(), id, "answer on its stream: {f:?}");
    Ok(f)
}

/// An AUTH_RESPONSE body holding `token` (`None`: a null `[bytes]`).
pub fn auth_response_body(token: Option<&[u8]>) -> Vec<u8> {
    match token {
        None => (-1i32).to_be_bytes().to_vec(),
        Some(t) => {
            let mut out = (t.len() as u32).to_be_bytes().to_vec();
            out.extend_from_slice(t);
            out
        }
    }
}

/// SASL PLAIN's token: `NUL user NUL password`.
pub fn plain_token(user: &str, password: &str) -> Vec<u8> {
    format!("\0{user}\0{password}").into_bytes()
}

/// Sends QUERY `cql` on stream `id` and returns the answer.
pub fn query(s: &mut TcpStream, id: i16, cql: &str) -> io::Result<Frame> {
    s.write_all(&frame(4, id, op::QUERY, &query_body(cql)))?;
    read_frame(s)
}

/// Like [`query`], panicking unless the answer is a RESULT.
pub fn query_ok(s: &mut TcpStream, cql: &str) -> Frame {
    let f = query(s, 1, cql).unwrap_or_else(|e| panic!("{cql}: {e}"));
    assert_eq!(f.opcode(), op::RESULT, "{cql}: {:?}", f.error());
    f
}

/// The rows of a ROWS result: each cell's bytes (`None` for null).
pub fn rows(body: &[u8]) -> Vec<Vec<Option<Vec<u8>>>> {
    let mut r = Cursor { bytes: body, at: 0 };
    assert_eq!(r.int(), 2, "a ROWS result");
    let flags = r.int();
    let columns = r.int() as usize;
    if flags & 0x0002 != 0 {
        let _paging_state = r.bytes();
    }
    if flags & 0x0004 == 0 {
        if flags & 0x0001 != 0 {
            r.string();
            r.string();
        }
        for _ in 0..columns {
            if flags & 0x0001 == 0 {
                r.string();
                r.string();
            }
            r.string();
            r.option();
        }
    }
    let n = r.int() as usize;
    (0..n)
        .map(|_| (0..columns).map(|_| r.bytes()).collect())
        .collect()
}

/// Reads the notations of a response body (panics past its end).
struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Cursor<'_> {
    fn take(&mut self, n: usize) -> &[u8] {
        let out = &self.bytes[self.at..self.at + n];
        self.at += n;
        out
    }

    fn short(&mut self) -> u16 {
        let b = self.take(2);
        u16::from_be_bytes([b[0], b[1]])
    }

    fn int(&mut self) -> i32 {
        let b = self.take(4);
        i32::from_be_bytes([b[0], b[1], b[2], b[3]])
    }

    fn string(&mut self) {
        let n = self.short() as usize;
        self.take(n);
    }

    fn bytes(&mut self) -> Option<Vec<u8>> {
        let n = self.int();
        (n >= 0).then(|| self.take(n as usize).to_vec())
    }

    /// A column type `[option]`, nested types included.
    fn option(&mut self) {
        match self.short() {
            0x0000 => self.string(),
            0x0020 | 0x0022 => self.option(),
            0x0021 => {
                self.option();
                self.option();
            }
            0x0030 => {
                self.string();
                self.string();
                for _ in 0..self.short() {
                    self.string();
                    self.option();
                }
            }
            0x0031 => {
                for _ in 0..self.short() {
                    self.option();
                }
            }
            _ => {}
        }
    }
}

/// A big-endian `int` cell.
pub fn int_cell(cell: &Option<Vec<u8>>) -> i32 {
    let b = cell.as_deref().expect("a non-null int");
    i32::from_be_bytes(b.try_into().expect("4 bytes"))
}

/// A big-endian `bigint` cell.
pub fn bigint_cell(cell: &Option<Vec<u8>>) -> i64 {
    let b = cell.as_deref().expect("a non-null bigint");
    i64::from_be_bytes(b.try_into().expect("8 bytes"))
}

/// A v5 connection: frames travel in segments once STARTUP is answered.
pub struct V5 {
    /// The socket.
    pub stream: TcpStream,
    decoder: SegmentDecoder,
    frames: std::collections::VecDeque<Vec<u8>>,
}

impl V5 {
    /// Connects and starts a v5 connection without compression.
    pub fn start(addr: SocketAddr) -> V5 {
        let mut stream = connect(addr);
        stream
            .write_all(&frame(5, 1, op::STARTUP, &startup_body()))
            .unwrap();
        let ready = read_frame(&mut stream).unwrap();
        assert_eq!(ready.opcode(), op::READY, "v5 STARTUP answered {ready:?}");
        V5 {
            stream,
            decoder: SegmentDecoder::new(false, 1 << 30),
            frames: Default::default(),
        }
    }

    /// Sends whole frames laid end to end, in segments.
    pub fn send(&mut self, frames: &[u8]) -> io::Result<()> {
        let mut out = Vec::new();
        encode_segments(frames, false, &mut out);
        self.stream.write_all(&out)
    }

    /// The next response frame.
    pub fn read(&mut self) -> io::Result<Frame> {
        let mut buf = [0u8; 8192];
        while self.frames.is_empty() {
            let n = self.stream.read(&mut buf)?;
            if n == 0 {
                return Err(io::ErrorKind::UnexpectedEof.into());
            }
            let frames = self
                .decoder
                .feed(&buf[..n])
                .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
            self.frames.extend(frames);
        }
        let bytes = self.frames.pop_front().unwrap();
        Ok(Frame::new(bytes[..9].to_vec(), bytes[9..].to_vec()))
    }

    /// Decodes `bytes` read from a v5 connection as response frames.
    pub fn split(bytes: &[u8]) -> Result<Vec<Frame>, String> {
        let mut decoder = SegmentDecoder::new(false, 1 << 30);
        let frames = decoder.feed(bytes).map_err(|e| e.to_string())?;
        if !decoder.is_idle() {
            return Err("the server's segments end mid-segment".into());
        }
        Ok(frames
            .into_iter()
            .map(|b| Frame::new(b[..9].to_vec(), b[9..].to_vec()))
            .collect())
    }
}

/// A `[string list]`, as REGISTER takes it.
pub fn string_list(items: &[&str]) -> Vec<u8> {
    let mut out = (items.len() as u16).to_be_bytes().to_vec();
    for item in items {
        out.extend_from_slice(&(item.len() as u16).to_be_bytes());
        out.extend_from_slice(item.as_bytes());
    }
    out
}

/// Whether the server hangs up on `s` (end of stream or a reset) within
/// the read timeout, sending nothing first.
pub fn hung_up(s: &mut TcpStream) -> bool {
    let mut byte = [0u8; 1];
    match s.read(&mut byte) {
        Ok(0) => true,
        Ok(_) => false,
        Err(e) => matches!(
            e.kind(),
            io::ErrorKind::ConnectionReset | io::ErrorKind::ConnectionAborted
        ),
    }
}
