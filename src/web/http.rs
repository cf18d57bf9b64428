//! The little HTTP/1.1 the page needs: a request line, headers and a
//! `Content-Length` body in; a status, a few headers and a body out; keep
//! connections alive as browsers expect. No chunked bodies, no upgrades,
//! no ranges — a request that asks for them is refused, not half served.
//! Every part of a request is bounded before it is read.

use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

/// Most bytes of a request line and headers together.
pub const MAX_HEAD: usize = 16 * 1024;

/// Most headers a request may carry.
const MAX_HEADERS: usize = 64;

/// How long a connection may sit between requests (or inside one).
pub const IDLE: Duration = Duration::from_secs(30);

/// A request, read whole.
#[derive(Debug, Clone, Default)]
pub struct Request {
    /// `GET`, `POST`, …
    pub method: String,
    /// The path, without the query string.
    pub path: String,
    /// Header names in lower case, with their values.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Vec<u8>,
}

impl Request {
    /// The first value of header `name` (lower case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Whether the client asked to close the connection after this request.
    fn wants_close(&self) -> bool {
        self.header("connection")
            .is_some_and(|v| v.eq_ignore_ascii_case("close"))
    }
}

/// Why no request could be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadError {
    /// The client closed the connection (or stayed silent too long)
    /// between requests: nothing to answer.
    Closed,
    /// The request cannot be served; answered with this status and reason,
    /// then the connection is closed.
    Refused(u16, String),
}

/// A response.
#[derive(Debug, Clone)]
pub struct Response {
    /// Its status code.
    pub status: u16,
    /// Its content type.
    pub content_type: &'static str,
    /// Its body.
    pub body: Vec<u8>,
}

impl Response {
    /// A JSON response.
    pub fn json(status: u16, value: &serde_json::Value) -> Response {
        Response {
            status,
            content_type: "application/json; charset=utf-8",
            body: value.to_string().into_bytes(),
        }
    }

    /// A JSON error: `{"error": "…"}` with `status`.
    pub fn error(status: u16, message: impl Into<String>) -> Response {
        Response::json(status, &serde_json::json!({ "error": message.into() }))
    }
}

/// Reads one request, its body at most `max_body` bytes.
pub async fn read_request<R: AsyncRead + Unpin>(
    reader: &mut R,
    buffer: &mut Vec<u8>,
    max_body: usize,
) -> Result<Request, ReadError> {
    let head_end = loop {
        if let Some(end) = find_head_end(buffer) {
            break end;
        }
        if buffer.len() > MAX_HEAD {
            return Err(refused(431, "the request's headers are too large"));
        }
        let mut chunk = [0u8; 4096];
        let read = tokio::time::timeout(IDLE, reader.read(&mut chunk)).await;
        match read {
            Ok(Ok(0)) | Err(_) if buffer.iter().all(u8::is_ascii_whitespace) => {
                return Err(ReadError::Closed)
            }
            Ok(Ok(0)) | Err(_) => return Err(refused(400, "the request ended early")),
            Ok(Ok(n)) => buffer.extend_from_slice(&chunk[..n]),
            Ok(Err(_)) => return Err(ReadError::Closed),
        }
    };
    let head = std::str::from_utf8(&buffer[..head_end])
        .map_err(|_| refused(400, "the request's headers are not UTF-8"))?;
    let mut request = parse_head(head.trim_start_matches(['\r', '\n']))?;
    let rest = buffer.split_off(head_end + 4);
    buffer.clear();
    *buffer = rest;
    if request.header("transfer-encoding").is_some() {
        return Err(refused(
            411,
            "bodies must come with Content-Length, not Transfer-Encoding",
        ));
    }
    let length = match request.header("content-length") {
        None => 0,
        Some(text) => text
            .trim()
            .parse::<usize>()
            .map_err(|_| refused(400, "Content-Length is not a number"))?,
    };
    if length > max_body {
        return Err(refused(
            413,
            format!("the request body is larger than {max_body} bytes"),
        ));
    }
    while buffer.len() < length {
        let mut chunk = vec![0u8; (length - buffer.len()).min(64 * 1024)];
        match tokio::time::timeout(IDLE, reader.read(&mut chunk)).await {
            Ok(Ok(0)) | Err(_) | Ok(Err(_)) => {
                return Err(refused(400, "the request body ended early"))
            }
            Ok(Ok(n)) => buffer.extend_from_slice(&chunk[..n]),
        }
    }
    let rest = buffer.split_off(length);
    request.body = std::mem::replace(buffer, rest);
    Ok(request)
}

fn refused(status: u16, reason: impl Into<String>) -> ReadError {
    ReadError::Refused(status, reason.into())
}

fn find_head_end(buffer: &[u8]) -> Option<usize> {
    buffer.windows(4).position(|w| w == b"\r\n\r\n")
}

fn parse_head(head: &str) -> Result<Request, ReadError> {
    let mut lines = head.split("\r\n");
    let line = lines.next().unwrap_or_default();
    let mut parts = line.split(' ');
    let (Some(method), Some(target), Some(version), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(refused(400, "the request line is malformed"));
    };
    if version != "HTTP/1.1" && version != "HTTP/1.0" {
        return Err(refused(505, "only HTTP/1.1 is spoken here"));
    }
    if method.is_empty() || !method.bytes().all(|b| b.is_ascii_uppercase()) {
        return Err(refused(400, "the request method is malformed"));
    }
    if !target.starts_with('/') {
        return Err(refused(400, "the request target must be a path"));
    }
    let path = target.split(['?', '#']).next().unwrap_or("/").to_string();
    let mut headers = Vec::new();
    for line in lines {
        if headers.len() == MAX_HEADERS {
            return Err(refused(431, "the request has too many headers"));
        }
        let Some((name, value)) = line.split_once(':') else {
            return Err(refused(400, "a header line has no colon"));
        };
        if name.is_empty() || name.contains([' ', '\t']) {
            return Err(refused(400, "a header name is malformed"));
        }
        headers.push((name.to_ascii_lowercase(), value.trim().to_string()));
    }
    Ok(Request {
        method: method.to_string(),
        path,
        headers,
        body: Vec::new(),
    })
}

/// Writes `response`; `close` says the connection ends after it.
pub async fn write_response<W: AsyncWrite + Unpin>(
    writer: &mut W,
    response: &Response,
    close: bool,
) -> std::io::Result<()> {
    let head = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\n\
         Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n\
         X-Frame-Options: DENY\r\nReferrer-Policy: no-referrer\r\n\
         Content-Security-Policy: default-src 'self'; img-src 'self' data:; \
         frame-ancestors 'none'; base-uri 'none'; form-action 'none'\r\n\
         Connection: {}\r\n\r\n",
        response.status,
        reason(response.status),
        response.content_type,
        response.body.len(),
        if close { "close" } else { "keep-alive" }
    );
    writer.write_all(head.as_bytes()).await?;
    writer.write_all(&response.body).await?;
    writer.flush().await
}

/// Whether the connection should close after answering `request`.
pub fn closes(request: &Request) -> bool {
    request.wants_close()
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        411 => "Length Required",
        413 => "Payload Too Large",
        415 => "Unsupported Media Type",
        421 => "Misdirected Request",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        505 => "HTTP Version Not Supported",
        _ => "Unknown",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(bytes: &[u8]) -> Result<Request, ReadError> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let mut reader = bytes;
        runtime.block_on(read_request(&mut reader, &mut Vec::new(), 100))
    }

    #[test]
    fn a_post_with_a_body_is_read() {
        let r = read(b"POST /api/run HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}").unwrap();
        assert_eq!((r.method.as_str(), r.path.as_str()), ("POST", "/api/run"));
        assert_eq!(r.header("host"), Some("x"));
        assert_eq!(r.body, b"{}");
    }

    #[test]
    fn bad_requests_are_refused_with_a_status() {
        let status = |bytes: &[u8]| match read(bytes) {
            Err(ReadError::Refused(s, _)) => s,
            other => panic!("{other:?}"),
        };
        assert_eq!(status(b"GARBAGE\r\n\r\n"), 400);
        assert_eq!(status(b"GET / HTTP/2.0\r\n\r\n"), 505);
        assert_eq!(
            status(b"POST / HTTP/1.1\r\nContent-Length: 101\r\n\r\n"),
            413
        );
        assert_eq!(status(b"POST / HTTP/1.1\r\nContent-Length: x\r\n\r\n"), 400);
        assert_eq!(
            status(b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"),
            411
        );
        assert_eq!(
            status(b"POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\nab"),
            400
        );
        assert_eq!(status(b"GET / HTTP/1.1\r\nno colon\r\n\r\n"), 400);
    }

    #[test]
    fn silence_before_a_request_is_a_close() {
        assert!(matches!(read(b""), Err(ReadError::Closed)));
    }
}
