//! One client connection, run as one task: read frames (in v5, from
//! segments once the connection is started), answer each in order, and
//! push the events the client registered for.
//!
//! A malformed frame is answered with a PROTOCOL_ERROR on this connection
//! alone; a frame whose header cannot be trusted (wrong version, too long)
//! closes it after the answer, as Cassandra does.
//!
//! Memory per connection is bounded: frames are answered one at a time
//! until the answers waiting to be written pass [`OUT_HIGH_WATER`], and
//! nothing more is read while a whole frame waits or a write is blocked —
//! so a client that sends without reading meets TCP's backpressure rather
//! than growing the server's buffers. Shutdown does not wait for a client
//! that does not read.

use std::collections::VecDeque;
use std::sync::Arc;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::{broadcast, watch};

use crate::error::{Error, ErrorKind};

use super::compression::Compression;
use super::frame::{self, Header, HeaderError, Opcode, HEADER_LEN};
use super::handler::{ConnectionState, Reply, Shared};
use super::inflight::Reserved;
use super::request::{self, Request};
use super::response::{self, Failure};
use super::segment::{encode_segments, SegmentDecoder};
use super::topology::NodeEvent;
use super::wire::{Reader, Writer};

/// Answers queued past this many bytes make the connection stop answering
/// further requests until they are written.
pub const OUT_HIGH_WATER: usize = 1 << 20;

/// How long after a node is taken down its STATUS_CHANGE goes out: time
/// for its connections to be seen closed first.
const DOWN_EVENT_DELAY: std::time::Duration = std::time::Duration::from_millis(250);

/// An event pushed to every connection that registered for its type.
#[derive(Debug, Clone)]
pub struct Event {
    /// `SCHEMA_CHANGE`, `STATUS_CHANGE` or `TOPOLOGY_CHANGE`.
    pub kind: &'static str,
    /// The EVENT body.
    pub body: Vec<u8>,
}

/// What a connection needs from its server.
#[derive(Debug, Clone)]
pub struct Context {
    /// The engine and prepared statements.
    pub shared: Arc<Shared>,
    /// Where events are announced.
    pub events: broadcast::Sender<Event>,
    /// Whose connections the listener it arrived on takes.
    pub answers: super::topology::Answers,
    /// The ring index of the node the connection arrived on.
    pub node: usize,
    /// The largest frame body accepted.
    pub max_frame: u32,
    /// Logins are required (`widerow serve --auth`).
    pub auth: bool,
    /// The server's TLS, when it has one (`widerow serve --ssl-cert`).
    #[cfg(feature = "tls")]
    pub tls: Option<super::tls::Tls>,
}

/// How many times a connection tries for the inline turn, serving other
/// tasks between tries, before it hands its statement to the engine's
/// thread.
const INLINE_TRIES: usize = 8;

/// Cassandra's message when a request is refused for the bytes in flight.
const OVERLOADED: &str = "Server is in overloaded state. Cannot accept more requests at this point";

/// A request refused for the bytes in flight.
struct Overloaded;

/// What a request needs before it can be answered.
enum Answer {
    /// Nothing: here is the reply.
    Now(Reply),
    /// The engine: run on its thread, off the runtime.
    Engine(Request, bool),
    /// A login check (bcrypt is slow): also off the runtime.
    Login(Option<Vec<u8>>),
}

/// How bytes are cut into frames on this connection.
enum Framing {
    /// v4, and v5 before STARTUP is answered: frames back to back.
    Frames,
    /// v5 once started: frames inside checksummed segments.
    Segments(Box<SegmentDecoder>),
}

/// A connection's state between frames.
struct Connection {
    ctx: Context,
    state: ConnectionState,
    framing: Framing,
    compression: Option<Compression>,
    registered: Vec<String>,
    /// Bytes read and not yet cut into frames (from `consumed` on).
    pending: Vec<u8>,
    /// How much of `pending` has been cut into frames already.
    consumed: usize,
    /// Frames decoded from segments and not answered yet.
    decoded: VecDeque<Vec<u8>>,
    /// Responses to write.
    out: Vec<u8>,
    close: bool,
    /// STARTUP was answered with AUTHENTICATE and no login has succeeded:
    /// only AUTH_RESPONSE is served.
    awaiting_login: bool,
    /// STARTUP's `THROW_ON_OVERLOAD`: a request past the in-flight limits
    /// is refused with Overloaded instead of pausing the connection.
    throw_on_overload: bool,
}

/// Serves a newly accepted connection: through the TLS handshake first
/// when the server has TLS, then [`run`].
pub async fn accepted(stream: TcpStream, ctx: Context, shutdown: watch::Receiver<bool>) {
    let _ = stream.set_nodelay(true);
    let peer = stream
        .peer_addr()
        .map_or(std::net::IpAddr::V4(std::net::Ipv4Addr::LOCALHOST), |a| {
            a.ip()
        });
    #[cfg(feature = "tls")]
    if let Some(tls) = ctx.tls.clone() {
        let mut stopping = shutdown.clone();
        let accepted = tokio::select! {
            accepted = tls.accept(stream) => accepted,
            _ = stopping.changed() => None,
        };
        match accepted {
            Some(super::tls::Accepted::Tls(stream)) => run(*stream, peer, ctx, shutdown).await,
            Some(super::tls::Accepted::Plain(stream)) => run(stream, peer, ctx, shutdown).await,
            None => {}
        }
        return;
    }
    run(stream, peer, ctx, shutdown).await;
}

/// Runs `stream` (from `peer`) until the client closes it, it breaks the
/// protocol past answering, its node is taken down, or `shutdown` turns
/// true.
pub async fn run<S>(
    mut stream: S,
    peer: std::net::IpAddr,
    ctx: Context,
    mut shutdown: watch::Receiver<bool>,
) where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let mut events = ctx.events.subscribe();
    let mut conn = Connection {
        state: ConnectionState::new(peer, ctx.node),
        ctx,
        framing: Framing::Frames,
        compression: None,
        registered: Vec::new(),
        pending: Vec::new(),
        consumed: 0,
        decoded: VecDeque::new(),
        out: Vec::new(),
        close: false,
        awaiting_login: false,
        throw_on_overload: false,
    };
    let mut nodes = conn.ctx.shared.node_states();
    let node = conn.ctx.node;
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        tokio::select! {
            changed = nodes.changed() => {
                let here = conn.ctx.answers.node(&nodes.borrow_and_update());
                if changed.is_err() || here != Some(node) {
                    break;
                }
            }
            read = stream.read(&mut buf) => {
                let n = match read {
                    Ok(0) | Err(_) => break,
                    Ok(n) => n,
                };
                conn.received(&buf[..n]);
            }
            event = events.recv() => {
                match event {
                    Ok(event) => conn.push_event(&event),
                    Err(broadcast::error::RecvError::Lagged(_)) => {}
                    Err(broadcast::error::RecvError::Closed) => break,
                }
            }
            _ = shutdown.changed() => break,
        }
        if !answer_and_write(&mut conn, &mut stream, &mut shutdown).await || conn.close {
            break;
        }
    }
    let _ = stream.shutdown().await;
}

/// Answers the whole frames read so far, writing the answers out whenever
/// they pass [`OUT_HIGH_WATER`] and at the end; false when the connection
/// is to end: a write failed, or the server is shutting down while a write
/// waits on a client that does not read.
async fn answer_and_write(
    conn: &mut Connection,
    stream: &mut (impl AsyncWrite + Unpin),
    shutdown: &mut watch::Receiver<bool>,
) -> bool {
    loop {
        let more = conn.answer_pending().await;
        if !conn.out.is_empty() {
            let written = tokio::select! {
                written = stream.write_all(&conn.out) => written.is_ok(),
                _ = shutdown.changed() => false,
            };
            if !written {
                return false;
            }
            conn.out.clear();
        }
        if !more || conn.close {
            return true;
        }
    }
}

impl Connection {
    fn received(&mut self, bytes: &[u8]) {
        self.pending.drain(..self.consumed);
        self.consumed = 0;
        self.pending.extend_from_slice(bytes);
    }

    /// Answers whole frames until none is left or the answers waiting to be
    /// written pass [`OUT_HIGH_WATER`]; true in the second case (there may
    /// be more to answer once they are written).
    async fn answer_pending(&mut self) -> bool {
        while !self.close {
            if self.out.len() >= OUT_HIGH_WATER {
                return true;
            }
            if self.state.started {
                // Paused while the requests in flight are over the limits.
                let in_flight = self.ctx.shared.in_flight().clone();
                in_flight.wait_under_limit(self.state.peer).await;
            }
            match self.next_frame() {
                Some(bytes) => self.frame(&bytes).await,
                None => return false,
            }
        }
        false
    }

    /// The next whole frame, cut as the connection's framing is *now*: the
    /// bytes after a v5 STARTUP are segments even when they arrived with it.
    fn next_frame(&mut self) -> Option<Vec<u8>> {
        if let Some(frame) = self.decoded.pop_front() {
            return Some(frame);
        }
        let Framing::Segments(decoder) = &mut self.framing else {
            return self.cut_frame();
        };
        if self.consumed == self.pending.len() {
            return None;
        }
        let fed = decoder.feed(&self.pending[self.consumed..]);
        self.consumed = self.pending.len();
        match fed {
            Ok(frames) => {
                self.decoded.extend(frames);
                self.decoded.pop_front()
            }
            Err(e) => {
                self.protocol_error(0, &e.to_string());
                self.close = true;
                None
            }
        }
    }

    /// One whole bare frame from `pending`, or its header alone when that
    /// cannot be trusted (`frame` answers it and the connection closes).
    fn cut_frame(&mut self) -> Option<Vec<u8>> {
        let rest = &self.pending[self.consumed..];
        let header: [u8; HEADER_LEN] = rest.get(..HEADER_LEN)?.try_into().ok()?;
        let len = match Header::parse(&header, self.ctx.max_frame) {
            Ok(h) => HEADER_LEN + h.length as usize,
            Err(_) => {
                self.consumed = self.pending.len();
                return Some(header.to_vec());
            }
        };
        let frame = rest.get(..len)?.to_vec();
        self.consumed += len;
        Some(frame)
    }

    async fn frame(&mut self, bytes: &[u8]) {
        let Some(header_bytes) = bytes.get(..HEADER_LEN) else {
            self.protocol_error(0, "Frame too short");
            return;
        };
        let mut header_arr = [0u8; HEADER_LEN];
        header_arr.copy_from_slice(header_bytes);
        let header = match Header::parse(&header_arr, self.ctx.max_frame) {
            Ok(h) => h,
            Err(e) => {
                self.header_error(&header_arr, e);
                return;
            }
        };
        if self.state.started && header.version != self.state.version {
            let message = format!(
                "Invalid message version. Got {} but previous messages on this connection had version {}",
                header.version, self.state.version
            );
            self.reply_in(header.version, header.stream, &error_reply(&message));
            self.close = true;
            return;
        }
        if !self.state.started {
            self.state.version = header.version;
        }
        let Ok(_reserved) = self.reserve(&header) else {
            let overloaded = Failure::Engine(Error::new(ErrorKind::Overloaded, OVERLOADED));
            let reply = Reply::failure(&overloaded, header.version);
            self.reply_in(header.version, header.stream, &reply);
            return;
        };
        let body = &bytes[HEADER_LEN..];
        let reply = match self.body(&header, body) {
            Ok(Answer::Now(reply)) => reply,
            Ok(Answer::Engine(request, tracing)) => self.on_engine(request, tracing).await,
            Ok(Answer::Login(token)) => self.login(header.version, token).await,
            Err(message) => error_reply(&message),
        };
        self.answer(&header, reply);
    }

    /// Reserves the frame's bytes once the connection is started (nothing
    /// before, as Cassandra's message handler comes with STARTUP's answer);
    /// `Err` when a connection that asked for THROW_ON_OVERLOAD is past the
    /// limits.
    fn reserve(&self, header: &Header) -> Result<Option<Reserved>, Overloaded> {
        if !self.state.started {
            return Ok(None);
        }
        let (client, bytes) = (self.state.peer, u64::from(header.length));
        let in_flight = self.ctx.shared.in_flight();
        match in_flight.try_reserve(client, bytes) {
            Some(reserved) => Ok(Some(reserved)),
            None if self.throw_on_overload => Err(Overloaded),
            None => Ok(Some(in_flight.reserve_over(client, bytes))),
        }
    }

    /// Runs `request` against the shared session when it has the turn:
    /// right here if the engine is free (trying a few times), else on the
    /// engine's thread (see [`super::executor`]), so no runtime thread
    /// waits on the engine and a long statement holds at most one of them.
    async fn on_engine(&mut self, request: Request, tracing: bool) -> Reply {
        for _ in 0..INLINE_TRIES {
            if let Some(_turn) = self.ctx.shared.try_turn() {
                return self.ctx.shared.handle(&mut self.state, request, tracing);
            }
            // Statements are short: the turn is usually free again once
            // this thread has served another task.
            tokio::task::yield_now().await;
        }
        let shared = self.ctx.shared.clone();
        let mut state = self.state.clone();
        let ran = self
            .ctx
            .shared
            .executor()
            .run(move || {
                let _turn = shared.wait_turn();
                let reply = shared.handle(&mut state, request, tracing);
                (state, reply)
            })
            .await;
        match ran {
            Ok(Ok((state, reply))) => {
                self.state = state;
                reply
            }
            Ok(Err(panic)) => Reply::failure(&Failure::Server(panic), self.state.version),
            Err(_) => Reply::failure(
                &Failure::Server("the engine is not running".into()),
                self.state.version,
            ),
        }
    }

    fn header_error(&mut self, header: &[u8; HEADER_LEN], e: HeaderError) {
        let stream = i16::from_be_bytes([header[2], header[3]]);
        match e {
            HeaderError::Version {
                reply_version,
                message,
                ..
            } => {
                let reply_version = self.answer_version(reply_version);
                let body = Failure::Protocol(message).body(reply_version);
                let bytes = frame::encode(
                    reply_version,
                    0,
                    if reply_version < 3 { 0 } else { stream },
                    Opcode::Error,
                    &body,
                );
                self.push_frame(&bytes);
            }
            HeaderError::Direction => self.protocol_error(
                stream,
                "Invalid frame direction: a response sent to the server",
            ),
            HeaderError::TooLong { length } => self.protocol_error(
                stream,
                &format!(
                    "Request is too big: length {length} exceeds maximum allowed length {}.",
                    self.ctx.max_frame
                ),
            ),
        }
        self.close = true;
    }

    /// The decompressed body, past a custom payload, as a request, and what
    /// answering it needs.
    fn body(&mut self, header: &Header, body: &[u8]) -> Result<Answer, String> {
        let decompressed;
        let mut body = body;
        if header.flags & frame::FLAG_COMPRESSION != 0 {
            let Some(compression) = self.compression.filter(|_| header.version < 5) else {
                return Err("Frame is flagged compressed but no compression was negotiated".into());
            };
            decompressed = compression
                .decompress(body, self.ctx.max_frame as usize)
                .map_err(|e| e.to_string())?;
            body = &decompressed;
        }
        if header.flags & frame::FLAG_CUSTOM_PAYLOAD != 0 {
            let mut r = Reader::new(body);
            r.bytes_map().map_err(|e| e.0)?;
            let at = body.len() - r.remaining();
            body = &body[at..];
        }
        let Some(opcode) = Opcode::from_byte(header.opcode) else {
            return Err(format!("Unknown opcode {}", header.opcode));
        };
        let request = match request::decode(header.version, opcode, body) {
            Ok(Some(r)) => r,
            Ok(None) => {
                return Err(format!("Unexpected message {}", opcode.name()));
            }
            Err(e) => return Err(e.0),
        };
        if !self.state.started && !matches!(request, Request::Options | Request::Startup(_)) {
            return Err(format!(
                "Unexpected message {}, expecting STARTUP or OPTIONS",
                opcode.name()
            ));
        }
        if self.awaiting_login && !matches!(request, Request::AuthResponse(_)) {
            // Cassandra's `ServerConnection` in its AUTHENTICATION state.
            return Err(format!(
                "Unexpected message {}, expecting SASL_RESPONSE",
                opcode.name()
            ));
        }
        if self.state.started && matches!(request, Request::Startup(_)) {
            // Cassandra's `ServerConnection` once READY; the connection stays.
            return Err("Unexpected message STARTUP, the connection is already initialized".into());
        }
        Ok(match request {
            Request::Options => Answer::Now(plain(Opcode::Supported, response::supported())),
            Request::Startup(options) => Answer::Now(self.startup(header.version, &options)?),
            Request::Register(types) => {
                self.registered = types;
                Answer::Now(plain(Opcode::Ready, Vec::new()))
            }
            Request::AuthResponse(_) if !self.ctx.auth => {
                return Err("Unexpected message AUTH_RESPONSE: authentication is off".into())
            }
            Request::AuthResponse(token) => Answer::Login(token),
            other => Answer::Engine(other, header.flags & frame::FLAG_TRACING != 0),
        })
    }

    fn startup(&mut self, version: u8, options: &[(String, String)]) -> Result<Reply, String> {
        let get = |key: &str| {
            options
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(key))
                .map(|(_, v)| v.as_str())
        };
        if get("CQL_VERSION").is_none() {
            return Err("Missing value CQL_VERSION in STARTUP message".into());
        }
        self.throw_on_overload = get("THROW_ON_OVERLOAD") == Some("1");
        if let Some(name) = get("COMPRESSION") {
            let compression = Compression::parse(name)
                .ok_or_else(|| format!("Unknown compression algorithm: {name}"))?;
            if !compression.available_for(version) {
                return Err(format!(
                    "{} compression is not supported in protocol V{version}",
                    capitalised(compression.name())
                ));
            }
            self.compression = Some(compression);
        }
        if self.ctx.auth {
            self.awaiting_login = true;
            return Ok(plain(Opcode::Authenticate, response::authenticate()));
        }
        Ok(plain(Opcode::Ready, Vec::new()))
    }

    /// AUTH_RESPONSE: the SASL PLAIN token checked as PasswordAuthenticator
    /// checks it; AUTH_SUCCESS logs the connection in, a refusal leaves it
    /// waiting for another attempt, as Cassandra does.
    async fn login(&mut self, version: u8, token: Option<Vec<u8>>) -> Reply {
        let shared = self.ctx.shared.clone();
        let checked =
            tokio::task::spawn_blocking(move || shared.login(&token.unwrap_or_default())).await;
        match checked {
            Ok(Ok(user)) => {
                self.state.client.user = Some(user);
                self.awaiting_login = false;
                plain(Opcode::AuthSuccess, response::auth_success())
            }
            Ok(Err(e)) => Reply::failure(&Failure::Engine(e), version),
            Err(e) => Reply::failure(&Failure::Server(e.to_string()), version),
        }
    }

    /// Sends `reply` to the request of `header`, then switches to v5's
    /// segments if the reply started a v5 connection.
    fn answer(&mut self, header: &Header, reply: Reply) {
        // A v5 client frames in segments after READY or AUTHENTICATE.
        let starting =
            !self.state.started && matches!(reply.opcode, Opcode::Ready | Opcode::Authenticate);
        if let Some(change) = &reply.schema_change {
            let _ = self.ctx.events.send(Event {
                kind: "SCHEMA_CHANGE",
                body: response::schema_change_event(change),
            });
        }
        for event in &reply.node_events {
            self.announce(*event);
        }
        self.reply_in(header.version, header.stream, &reply);
        if starting {
            self.state.started = true;
            if header.version >= 5 {
                let compressed = self.compression == Some(Compression::Lz4);
                self.framing = Framing::Segments(Box::new(SegmentDecoder::new(
                    compressed,
                    self.ctx.max_frame as usize,
                )));
            }
        }
    }

    /// Tells every registered connection of `event`.
    fn announce(&self, event: NodeEvent) {
        let (kind, body, delayed) = match event {
            NodeEvent::Status { address, up } => {
                ("STATUS_CHANGE", response::status_event(up, address), !up)
            }
            NodeEvent::Topology { change, address } => (
                "TOPOLOGY_CHANGE",
                response::topology_event(change.as_str(), address),
                false,
            ),
        };
        let event = Event { kind, body };
        if !delayed {
            let _ = self.ctx.events.send(event);
            return;
        }
        // As with a node that really went down, its connections are gone
        // before the others announce it: drivers discount a DOWN event for
        // a host they still hold connections to.
        let events = self.ctx.events.clone();
        tokio::spawn(async move {
            tokio::time::sleep(DOWN_EVENT_DELAY).await;
            let _ = events.send(event);
        });
    }

    fn push_event(&mut self, event: &Event) {
        if self.state.started && self.registered.iter().any(|t| t == event.kind) {
            let reply = plain(Opcode::Event, event.body.clone());
            self.reply_in(self.state.version, -1, &reply);
        }
    }

    fn protocol_error(&mut self, stream: i16, message: &str) {
        let version = self.state.version;
        self.reply_in(version, stream, &error_reply(message));
    }

    /// Writes one response frame, with warnings and compression as the
    /// connection has them, in segments when the connection uses them.
    fn reply_in(&mut self, version: u8, stream: i16, reply: &Reply) {
        let version = self.answer_version(version);
        let mut flags = 0;
        let mut body = Vec::new();
        if let Some(id) = &reply.trace_id {
            flags |= frame::FLAG_TRACING;
            body.extend_from_slice(id);
        }
        if !reply.warnings.is_empty() {
            flags |= frame::FLAG_WARNING;
            let mut w = Writer::new();
            w.string_list(&reply.warnings);
            body.extend(w.out);
        }
        body.extend_from_slice(&reply.body);
        let compress_frame = version < 5
            && self.state.started
            && matches!(self.framing, Framing::Frames)
            && reply.opcode != Opcode::Ready;
        if let (true, Some(c)) = (compress_frame, self.compression) {
            if let Ok(compressed) = c.compress(&body) {
                body = compressed;
                flags |= frame::FLAG_COMPRESSION;
            }
        }
        let bytes = frame::encode(version, flags, stream, reply.opcode, &body);
        self.push_frame(&bytes);
    }

    /// The version to answer a request claiming `claimed` in: inside v5's
    /// segments every frame is a v5 frame, whatever a malformed request
    /// said (an older frame would not fit the segment's framing).
    fn answer_version(&self, claimed: u8) -> u8 {
        match self.framing {
            Framing::Segments(_) => self.state.version,
            Framing::Frames => claimed,
        }
    }

    /// Queues one encoded frame, in a segment once the connection uses them
    /// (a client reading segments could not read a bare frame).
    fn push_frame(&mut self, bytes: &[u8]) {
        match self.framing {
            Framing::Segments(_) => {
                let compressed = self.compression == Some(Compression::Lz4);
                encode_segments(bytes, compressed, &mut self.out);
            }
            Framing::Frames => self.out.extend_from_slice(bytes),
        }
    }
}

fn plain(opcode: Opcode, body: Vec<u8>) -> Reply {
    Reply {
        opcode,
        body,
        warnings: Vec::new(),
        schema_change: None,
        node_events: Vec::new(),
        trace_id: None,
    }
}

fn error_reply(message: &str) -> Reply {
    plain(
        Opcode::Error,
        Failure::Protocol(message.to_string()).body(frame::MAX_VERSION),
    )
}

fn capitalised(name: &str) -> String {
    let mut chars = name.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
