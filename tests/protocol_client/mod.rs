//! A small native-protocol client for the server tests: frames written
//! and read byte by byte, so a test states exactly what goes on the wire.
//! Shared by `tests/server_protocol.rs` and `tests/server_auth.rs`.

#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use widerow::server::TestServer;

/// A connection to node1 with a read timeout, so a missing answer fails
/// the test instead of hanging it.
pub fn connect(server: &TestServer) -> TcpStream {
    let stream = TcpStream::connect(server.addr()).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    stream
}

/// A v4-style request frame: header then body.
pub fn frame(version: u8, stream: i16, opcode: u8, body: &[u8]) -> Vec<u8> {
    let mut out = vec![version, 0];
    out.extend_from_slice(&stream.to_be_bytes());
    out.push(opcode);
    out.extend_from_slice(&(body.len() as u32).to_be_bytes());
    out.extend_from_slice(body);
    out
}

/// One response frame: header bytes and body.
pub fn read_frame(stream: &mut TcpStream) -> ([u8; 9], Vec<u8>) {
    let mut header = [0u8; 9];
    stream.read_exact(&mut header).unwrap();
    let len = u32::from_be_bytes([header[5], header[6], header[7], header[8]]) as usize;
    let mut body = vec![0; len];
    stream.read_exact(&mut body).unwrap();
    (header, body)
}

/// An ERROR body's code and message.
pub fn error_of(body: &[u8]) -> (i32, String) {
    let code = i32::from_be_bytes([body[0], body[1], body[2], body[3]]);
    let len = u16::from_be_bytes([body[4], body[5]]) as usize;
    (code, String::from_utf8(body[6..6 + len].to_vec()).unwrap())
}

/// A `[string map]`, as STARTUP's body.
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

/// A QUERY body at consistency ONE with no values.
pub fn query_body(cql: &str) -> Vec<u8> {
    let mut out = (cql.len() as u32).to_be_bytes().to_vec();
    out.extend_from_slice(cql.as_bytes());
    out.extend_from_slice(&[0x00, 0x01, 0x00]); // ONE, no flags
    out
}

/// A v4 connection past STARTUP, on a server without logins.
pub fn started(server: &TestServer) -> TcpStream {
    let mut s = connect(server);
    s.write_all(&frame(4, 1, 0x01, &string_map(&[("CQL_VERSION", "3.0.0")])))
        .unwrap();
    let (header, _) = read_frame(&mut s);
    assert_eq!(header[4], 0x02, "READY");
    s
}

/// Sends STARTUP (v4) and returns the connection with the answer's opcode
/// and body: READY, or AUTHENTICATE on a server with logins.
pub fn startup(server: &TestServer) -> (TcpStream, u8, Vec<u8>) {
    let mut s = connect(server);
    s.write_all(&frame(4, 1, 0x01, &string_map(&[("CQL_VERSION", "3.0.0")])))
        .unwrap();
    let (header, body) = read_frame(&mut s);
    (s, header[4], body)
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

/// Sends one request and reads its answer: (opcode, body).
pub fn request(s: &mut TcpStream, stream: i16, opcode: u8, body: &[u8]) -> (u8, Vec<u8>) {
    s.write_all(&frame(4, stream, opcode, body)).unwrap();
    let (header, body) = read_frame(s);
    assert_eq!(header[2..4], stream.to_be_bytes(), "answer on its stream");
    (header[4], body)
}
