//! The server under hostile bytes, as a property test against a running
//! [`TestServer`]: truncated, oversized, wrong-version, wrong-opcode,
//! cut-body, random and mutated frames each get a PROTOCOL_ERROR (ERROR,
//! code 0x000A) or a closed connection — never a panic in the server, never
//! a hang — and after every case a separate connection, open since before
//! it, still answers OPTIONS with SUPPORTED and a QUERY with its row.
//!
//! A panic in a connection task would only drop that connection (tokio
//! catches it), so a panic hook counts panics on the server's runtime
//! threads and every case asserts there were none.
//!
//! Cases per property: 128 by default (the file takes a few seconds in
//! debug); `WIDEROW_FUZZ_CASES=N` raises it, as `scripts/fuzz-server` does
//! in release for long runs by hand.

mod server_client;

use std::io::Write;
use std::net::{SocketAddr, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, Once};

use proptest::prelude::*;
use proptest::sample::Index;
use server_client::*;
use widerow::server::{TestServer, DEFAULT_MAX_FRAME};
use widerow::Session;

/// Opcodes a client may send (AUTH_RESPONSE too, which the auth work owns).
const REQUEST_OPCODES: [u8; 8] = [0x01, 0x05, 0x07, 0x09, 0x0A, 0x0B, 0x0D, 0x0F];

static PANICS: AtomicUsize = AtomicUsize::new(0);
static LAST_PANIC: Mutex<String> = Mutex::new(String::new());

/// Counts panics on the server's runtime threads (and still prints them).
fn count_server_panics() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let thread = std::thread::current();
            if thread
                .name()
                .is_some_and(|n| n.starts_with("tokio-runtime"))
            {
                PANICS.fetch_add(1, Ordering::SeqCst);
                *LAST_PANIC.lock().unwrap_or_else(|p| p.into_inner()) = info.to_string();
            }
            previous(info);
        }));
    });
}

fn cases(default: u32) -> ProptestConfig {
    let cases = std::env::var("WIDEROW_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default);
    ProptestConfig {
        cases,
        max_shrink_iters: 256,
        ..ProptestConfig::default()
    }
}

/// A running server with a schema, and a connection opened before any
/// hostile case that must keep being answered.
struct Rig {
    server: TestServer,
    neighbour: TcpStream,
    /// The id of `INSERT INTO ks.typed …` prepared with a marker per column.
    typed_insert: Vec<u8>,
    /// The last health check passed: the rig may serve the next case.
    healthy: bool,
}

const TYPED_COLUMNS: &str = "k int PRIMARY KEY, l list<int>, m map<text, int>, s set<uuid>, \
    d decimal, vi varint, ip inet, dt date, du duration, tu tuple<int, text>, ts timestamp, \
    f float, db double, b blob, bo boolean, ti time, sm smallint, ty tinyint, tid timeuuid, \
    a ascii, fm frozen<map<int, frozen<list<text>>>>, ve vector<float, 3>";
const TYPED_MARKERS: usize = 22;

impl Rig {
    fn start() -> Rig {
        count_server_panics();
        let server = TestServer::start(Session::new()).unwrap();
        let mut neighbour = started(server.addr());
        for cql in [
            "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}",
            "CREATE TABLE ks.t (k int PRIMARY KEY, v text)",
            "CREATE TABLE ks.calm (k int PRIMARY KEY, v text)",
            "INSERT INTO ks.calm (k, v) VALUES (1, 'still here')",
            &format!("CREATE TABLE ks.typed ({TYPED_COLUMNS})"),
        ] {
            query_ok(&mut neighbour, cql);
        }
        let typed_insert = prepare_typed(&mut neighbour);
        Rig {
            server,
            neighbour,
            typed_insert,
            healthy: false,
        }
    }

    fn addr(&self) -> SocketAddr {
        self.server.addr()
    }

    /// No server panic so far, and the neighbour answers OPTIONS and a
    /// QUERY.
    fn still_healthy(&mut self) -> Result<(), TestCaseError> {
        self.healthy = false;
        let panics = PANICS.load(Ordering::SeqCst);
        prop_assert_eq!(
            panics,
            0,
            "the server panicked: {}",
            LAST_PANIC.lock().unwrap()
        );
        let n = &mut self.neighbour;
        n.write_all(&frame(4, 7, op::OPTIONS, &[]))
            .map_err(fail("neighbour OPTIONS"))?;
        let f = read_frame(n).map_err(fail("neighbour SUPPORTED"))?;
        prop_assert_eq!(f.opcode(), op::SUPPORTED);
        let f = query(n, 8, "SELECT v FROM ks.calm WHERE k = 1").map_err(fail("neighbour"))?;
        prop_assert_eq!(f.opcode(), op::RESULT);
        prop_assert_eq!(rows(&f.body), vec![vec![Some(b"still here".to_vec())]]);
        self.healthy = true;
        Ok(())
    }
}

fn fail(what: &'static str) -> impl Fn(std::io::Error) -> TestCaseError {
    move |e| TestCaseError::fail(format!("{what}: {e} (a hang or a dead server)"))
}

fn prepare_typed(s: &mut TcpStream) -> Vec<u8> {
    let markers = vec!["?"; TYPED_MARKERS].join(", ");
    let names: Vec<&str> = TYPED_COLUMNS
        .split(", ")
        .filter_map(|c| c.split(' ').next())
        .filter(|c| c.chars().all(|ch| ch.is_ascii_lowercase()))
        .collect();
    assert_eq!(names.len(), TYPED_MARKERS, "{names:?}");
    let cql = format!(
        "INSERT INTO ks.typed ({}) VALUES ({markers})",
        names.join(", ")
    );
    let mut body = (cql.len() as u32).to_be_bytes().to_vec();
    body.extend_from_slice(cql.as_bytes());
    s.write_all(&frame(4, 2, op::PREPARE, &body)).unwrap();
    let f = read_frame(s).unwrap();
    assert_eq!(f.opcode(), op::RESULT, "{:?}", f.error());
    let len = u16::from_be_bytes([f.body[4], f.body[5]]) as usize;
    f.body[6..6 + len].to_vec()
}

/// What the server sent back on a hostile connection, read to its close.
fn answers(stream: &mut TcpStream, v5: bool) -> Result<Vec<Frame>, TestCaseError> {
    let bytes = drain_to_close(stream).map_err(fail("reading to the close"))?;
    split_answers(&bytes, v5).map_err(|e| TestCaseError::fail(format!("malformed answer: {e}")))
}

/// Cuts a connection's answers into frames: bare frames until a v5 READY
/// (or from the start when `v5`, a started v5 connection), segments after.
fn split_answers(mut bytes: &[u8], v5: bool) -> Result<Vec<Frame>, String> {
    if v5 {
        return V5::split(bytes);
    }
    let mut frames = Vec::new();
    while !bytes.is_empty() {
        let first = split_frames(bytes.get(..frame_end(bytes)).unwrap_or(bytes))?;
        let f = first.into_iter().next().ok_or("no frame")?;
        bytes = &bytes[f.header.len() + f.body.len()..];
        let starts_v5 = f.opcode() == op::READY && f.header[0] == 0x85;
        frames.push(f);
        if starts_v5 {
            frames.extend(V5::split(bytes)?);
            break;
        }
    }
    Ok(frames)
}

/// Where the bare frame at the start of `bytes` ends (or the end of
/// `bytes`, when it is cut: [`split_frames`] then says so).
fn frame_end(bytes: &[u8]) -> usize {
    let header_len = if bytes[0] & 0x7f < 3 { 8 } else { 9 };
    match bytes.get(header_len - 4..header_len) {
        Some(l) => {
            (header_len + u32::from_be_bytes([l[0], l[1], l[2], l[3]]) as usize).min(bytes.len())
        }
        None => bytes.len(),
    }
}

fn assert_protocol_error(f: &Frame) -> Result<String, TestCaseError> {
    let Some((code, message)) = f.error() else {
        return Err(TestCaseError::fail(format!(
            "expected a PROTOCOL_ERROR, got opcode {:#04x}",
            f.opcode()
        )));
    };
    prop_assert_eq!(code, PROTOCOL_ERROR, "{}", message);
    Ok(message)
}

/// Every ERROR among `frames` is a PROTOCOL_ERROR.
fn errors_are_protocol_errors(frames: &[Frame]) -> Result<(), TestCaseError> {
    for f in frames.iter().filter(|f| f.opcode() == op::ERROR) {
        assert_protocol_error(f)?;
    }
    Ok(())
}

/// A connection in one of the states a hostile frame may arrive in.
#[derive(Debug, Clone, Copy)]
enum Start {
    Fresh,
    V4,
    V5,
}

fn any_start() -> impl Strategy<Value = Start> {
    prop_oneof![Just(Start::Fresh), Just(Start::V4), Just(Start::V5)]
}

/// Opens a connection in state `start`; for v5 the bytes sent later must
/// be wrapped in segments, which `send` does.
fn open(addr: SocketAddr, start: Start) -> (TcpStream, bool) {
    match start {
        Start::Fresh => (connect(addr), false),
        Start::V4 => (started(addr), false),
        Start::V5 => (V5::start(addr).stream, true),
    }
}

/// Sends `frames` as a connection in `v5` framing would carry them.
fn send(stream: &mut TcpStream, v5: bool, frames: &[u8]) {
    let mut bytes = Vec::new();
    if v5 {
        widerow::server::segment::encode_segments(frames, false, &mut bytes);
    } else {
        bytes.extend_from_slice(frames);
    }
    // The server may close before reading it all: that is its right.
    let _ = stream.write_all(&bytes);
}

/// A QUERY body in `version`'s layout (v5's flags are an `[int]`).
fn query_body_in(version: u8, cql: &str, values: &[Option<Vec<u8>>]) -> Vec<u8> {
    let mut out = (cql.len() as u32).to_be_bytes().to_vec();
    out.extend_from_slice(cql.as_bytes());
    out.extend_from_slice(&[0x00, 0x01]);
    let flags: u8 = if values.is_empty() { 0 } else { 0x01 };
    if version >= 5 {
        out.extend_from_slice(&u32::from(flags).to_be_bytes());
    } else {
        out.push(flags);
    }
    if !values.is_empty() {
        out.extend_from_slice(&(values.len() as u16).to_be_bytes());
        for v in values {
            push_value(&mut out, v.as_deref());
        }
    }
    out
}

fn push_value(out: &mut Vec<u8>, v: Option<&[u8]>) {
    match v {
        Some(b) => {
            out.extend_from_slice(&(b.len() as i32).to_be_bytes());
            out.extend_from_slice(b);
        }
        None => out.extend_from_slice(&(-1i32).to_be_bytes()),
    }
}

/// Well-formed request bodies of every opcode a client sends.
fn requests(version: u8) -> Vec<(u8, Vec<u8>)> {
    let insert = "INSERT INTO ks.t (k, v) VALUES (?, ?)";
    let mut prepare = (insert.len() as u32).to_be_bytes().to_vec();
    prepare.extend_from_slice(insert.as_bytes());
    if version >= 5 {
        prepare.extend_from_slice(&[0, 0, 0, 0]);
    }
    let mut execute = vec![0, 16];
    execute.extend_from_slice(&[7; 16]);
    if version >= 5 {
        execute.extend_from_slice(&[0, 16]);
        execute.extend_from_slice(&[9; 16]);
    }
    execute.extend_from_slice(&[0, 1]);
    execute.extend_from_slice(if version >= 5 { &[0, 0, 0, 0] } else { &[0] });
    let mut batch = vec![1, 0, 1, 0];
    let text = "INSERT INTO ks.t (k, v) VALUES (5, 'five')";
    batch.extend_from_slice(&(text.len() as u32).to_be_bytes());
    batch.extend_from_slice(text.as_bytes());
    batch.extend_from_slice(&[0, 0, 0, 1]);
    batch.extend_from_slice(if version >= 5 { &[0, 0, 0, 0] } else { &[0] });
    let mut register = vec![0, 1, 0, 13];
    register.extend_from_slice(b"SCHEMA_CHANGE");
    vec![
        (op::STARTUP, startup_body()),
        (op::OPTIONS, Vec::new()),
        (
            op::QUERY,
            query_body_in(version, "INSERT INTO ks.t (k, v) VALUES (3, 'three')", &[]),
        ),
        (
            op::QUERY,
            query_body_in(
                version,
                "SELECT * FROM ks.t WHERE k = ?",
                &[Some(vec![0, 0, 0, 3])],
            ),
        ),
        (op::PREPARE, prepare),
        (op::EXECUTE, execute),
        (op::BATCH, batch),
        (op::REGISTER, register),
    ]
}

/// One request of [`requests`], as a whole frame.
fn request_frame(version: u8, which: Index, stream: i16) -> Vec<u8> {
    let all = requests(version);
    let (opcode, body) = &all[which.index(all.len())];
    frame(version, stream, *opcode, body)
}

/// Applies byte-level mutations: overwrite, insert, delete, truncate.
fn mutate(bytes: &mut Vec<u8>, edits: &[(u8, Index, u8)]) {
    for &(kind, at, value) in edits {
        if bytes.is_empty() {
            bytes.push(value);
            continue;
        }
        let i = at.index(bytes.len());
        match kind % 4 {
            0 => bytes[i] = value,
            1 => bytes.insert(i, value),
            2 => {
                bytes.remove(i);
            }
            _ => bytes.truncate(i.max(1)),
        }
    }
}

fn edits() -> impl Strategy<Value = Vec<(u8, Index, u8)>> {
    prop::collection::vec((any::<u8>(), any::<Index>(), any::<u8>()), 1..6)
}

fn version_of(start: Start, v5_when_fresh: bool) -> u8 {
    match start {
        Start::V5 => 5,
        Start::V4 => 4,
        Start::Fresh if v5_when_fresh => 5,
        Start::Fresh => 4,
    }
}

/// An OPTIONS frame on stream 99, sent after a bad frame to show the
/// connection still answers.
fn options_after(version: u8) -> Vec<u8> {
    frame(version, 99, op::OPTIONS, &[])
}

/// The answers are a PROTOCOL_ERROR on `stream`, then SUPPORTED on 99.
fn error_then_supported(frames: &[Frame], stream: i16) -> Result<(), TestCaseError> {
    prop_assert_eq!(frames.len(), 2, "{:?}", frames);
    assert_protocol_error(&frames[0])?;
    prop_assert_eq!(frames[0].stream(), stream);
    prop_assert_eq!(frames[1].opcode(), op::SUPPORTED);
    prop_assert_eq!(frames[1].stream(), 99);
    Ok(())
}

proptest! {
    #![proptest_config(cases(128))]

    /// A request cut anywhere gets nothing (the server waits for the rest)
    /// and the connection closes cleanly when the client gives up.
    #[test]
    fn truncated_frames_get_nothing_and_a_clean_close(
        start in any_start(),
        which in any::<Index>(),
        cut in any::<Index>(),
        fresh_v5 in any::<bool>(),
    ) {
        let mut rig = Rig::start_once();
        let version = version_of(start, fresh_v5);
        let (mut s, v5) = open(rig.addr(), start);
        let whole = request_frame(version, which, 3);
        let mut bytes = Vec::new();
        if v5 {
            widerow::server::segment::encode_segments(&whole, false, &mut bytes);
        } else {
            bytes = whole;
        }
        bytes.truncate(cut.index(bytes.len()));
        let _ = s.write_all(&bytes);
        let frames = answers(&mut s, false)?;
        prop_assert!(frames.is_empty(), "answered a cut frame: {:?}", frames);
        rig.still_healthy()?;
    }

    /// A frame whose header is whole but whose body stops short of what
    /// its opcode needs is a PROTOCOL_ERROR on its stream, and the
    /// connection goes on.
    #[test]
    fn cut_bodies_are_protocol_errors_on_a_live_connection(
        v5 in any::<bool>(),
        which in any::<Index>(),
        cut in any::<Index>(),
        stream in 0i16..=i16::MAX,
    ) {
        let mut rig = Rig::start_once();
        let version = if v5 { 5 } else { 4 };
        let all = requests(version);
        let (opcode, body) = &all[which.index(all.len())];
        prop_assume!(!body.is_empty());
        let cut_body = &body[..cut.index(body.len())];
        // widerow reads a v5 PREPARE without its flags as flags 0
        // (Cassandra requires them): that prefix is a good request.
        prop_assume!(!(v5 && *opcode == op::PREPARE && cut_body.len() == body.len() - 4));
        let (mut s, v5) = open(rig.addr(), if v5 { Start::V5 } else { Start::V4 });
        let mut bytes = frame(version, stream, *opcode, cut_body);
        bytes.extend(options_after(version));
        send(&mut s, v5, &bytes);
        error_then_supported(&answers(&mut s, v5)?, stream)?;
        rig.still_healthy()?;
    }

    /// A body longer than `max_frame` is refused from its header, with
    /// Cassandra's message, and the connection is closed.
    #[test]
    fn oversized_frames_are_refused_and_closed(
        start in any_start(),
        fresh_v5 in any::<bool>(),
        length in (DEFAULT_MAX_FRAME + 1)..=u32::MAX,
        opcode in any::<u8>(),
        stream in 0i16..=i16::MAX,
        tail in prop::collection::vec(any::<u8>(), 0..64),
    ) {
        let mut rig = Rig::start_once();
        let version = version_of(start, fresh_v5);
        let (mut s, v5) = open(rig.addr(), start);
        let mut bytes = frame(version, stream, opcode, &tail);
        bytes[5..9].copy_from_slice(&length.to_be_bytes());
        send(&mut s, v5, &bytes);
        let frames = answers(&mut s, v5)?;
        prop_assert_eq!(frames.len(), 1, "{:?}", frames);
        let message = assert_protocol_error(&frames[0])?;
        if !v5 {
            prop_assert_eq!(
                message,
                format!(
                    "Request is too big: length {length} exceeds maximum allowed length {DEFAULT_MAX_FRAME}."
                )
            );
        }
        rig.still_healthy()?;
    }

    /// A version other than 4 and 5 (or a response's direction bit) is a
    /// PROTOCOL_ERROR and the connection is closed.
    #[test]
    fn wrong_versions_are_refused_and_closed(
        fresh in any::<bool>(),
        version in any::<u8>().prop_filter("served", |v| *v != 4 && *v != 5),
        rest in prop::collection::vec(any::<u8>(), 8..80),
    ) {
        let mut rig = Rig::start_once();
        let (mut s, _) = open(rig.addr(), if fresh { Start::Fresh } else { Start::V4 });
        let mut bytes = vec![version];
        bytes.extend_from_slice(&rest);
        let _ = s.write_all(&bytes);
        let frames = answers(&mut s, false)?;
        prop_assert_eq!(frames.len(), 1, "{:?}", frames);
        let message = assert_protocol_error(&frames[0])?;
        if version & 0x80 == 0 {
            prop_assert!(message.contains(&format!("({version})")), "{}", message);
        }
        rig.still_healthy()?;
    }

    /// An opcode that is not a request's is a PROTOCOL_ERROR on its stream,
    /// whatever the flags and body, and the connection goes on.
    #[test]
    fn wrong_opcodes_are_protocol_errors_on_a_live_connection(
        v5 in any::<bool>(),
        opcode in any::<u8>().prop_filter("a request", |o| !REQUEST_OPCODES.contains(o)),
        flags in any::<u8>(),
        stream in 0i16..=i16::MAX,
        body in prop::collection::vec(any::<u8>(), 0..200),
    ) {
        let mut rig = Rig::start_once();
        let version = if v5 { 5 } else { 4 };
        let mut s = connect(rig.addr());
        let mut bytes = frame(version, stream, opcode, &body);
        bytes[1] = flags;
        bytes.extend(options_after(version));
        s.write_all(&bytes).map_err(fail("sending"))?;
        error_then_supported(&answers(&mut s, false)?, stream)?;
        rig.still_healthy()?;
    }

    /// Random bytes, on a fresh or started connection: only well-formed
    /// frames come back, every error a PROTOCOL_ERROR, then a close.
    #[test]
    fn random_garbage_gets_protocol_errors_or_a_close(
        start in any_start(),
        garbage in prop::collection::vec(any::<u8>(), 0..2048),
    ) {
        let mut rig = Rig::start_once();
        let (mut s, v5) = open(rig.addr(), start);
        let _ = s.write_all(&garbage);
        let frames = answers(&mut s, v5)?;
        errors_are_protocol_errors(&frames)?;
        rig.still_healthy()?;
    }

    /// A good conversation with bytes flipped, inserted, deleted or cut —
    /// inside v5's segments or across them: the answers are well-formed
    /// frames (any error code: a mutated statement may well be bad CQL).
    #[test]
    fn mutated_conversations_get_well_formed_answers(
        start in any_start(),
        fresh_v5 in any::<bool>(),
        picks in prop::collection::vec(any::<Index>(), 1..6),
        edits in edits(),
        after_segmenting in any::<bool>(),
    ) {
        let mut rig = Rig::start_once();
        let version = version_of(start, fresh_v5);
        let (mut s, v5) = open(rig.addr(), start);
        let mut frames = Vec::new();
        for (i, pick) in picks.iter().enumerate() {
            frames.extend(request_frame(version, *pick, i as i16));
        }
        let mut bytes = Vec::new();
        if v5 {
            if !after_segmenting {
                mutate(&mut frames, &edits);
            }
            widerow::server::segment::encode_segments(&frames, false, &mut bytes);
            if after_segmenting {
                mutate(&mut bytes, &edits);
            }
        } else {
            mutate(&mut frames, &edits);
            bytes = frames;
        }
        let _ = s.write_all(&bytes);
        answers(&mut s, v5)?;
        rig.still_healthy()?;
    }

    /// EXECUTE of a statement binding one of every type, each value random
    /// bytes: one answer, RESULT or ERROR, and the connection goes on.
    #[test]
    fn random_bound_values_are_answered(
        values in prop::collection::vec(
            prop::option::weighted(0.9, prop::collection::vec(any::<u8>(), 0..24)),
            TYPED_MARKERS,
        ),
    ) {
        let mut rig = Rig::start_once();
        let mut s = started(rig.addr());
        let mut body = (rig.typed_insert.len() as u16).to_be_bytes().to_vec();
        body.extend_from_slice(&rig.typed_insert);
        body.extend_from_slice(&[0, 1, 0x01]);
        body.extend_from_slice(&(values.len() as u16).to_be_bytes());
        for (i, v) in values.iter().enumerate() {
            // The key is always a good int, so a good row is written.
            let key = (i == 0).then(|| vec![0, 0, 0, 9]);
            push_value(&mut body, key.as_deref().or(v.as_deref()));
        }
        let mut bytes = frame(4, 5, op::EXECUTE, &body);
        bytes.extend(options_after(4));
        s.write_all(&bytes).map_err(fail("EXECUTE"))?;
        let frames = answers(&mut s, false)?;
        prop_assert_eq!(frames.len(), 2, "{:?}", frames);
        prop_assert!(matches!(frames[0].opcode(), op::RESULT | op::ERROR), "{:?}", frames[0]);
        prop_assert_eq!(frames[0].stream(), 5);
        prop_assert_eq!(frames[1].opcode(), op::SUPPORTED);
        rig.still_healthy()?;
    }
}

impl Rig {
    /// One rig per test thread, shared by that test's cases: starting a
    /// server per case would make each case ten times slower.
    fn start_once() -> RigGuard {
        thread_local! {
            static RIG: std::cell::RefCell<Option<Rig>> = const { std::cell::RefCell::new(None) };
        }
        let rig = RIG
            .with(|r| r.borrow_mut().take())
            .unwrap_or_else(Rig::start);
        RigGuard {
            rig: Some(rig),
            put_back: |rig| RIG.with(|r| *r.borrow_mut() = Some(rig)),
        }
    }
}

/// A [`Rig`] borrowed from its thread's slot, put back when the case ends
/// healthy (after a failure it is dropped, so the shrunk cases that follow
/// start afresh rather than fail for a broken neighbour).
struct RigGuard {
    rig: Option<Rig>,
    put_back: fn(Rig),
}

impl std::ops::Deref for RigGuard {
    type Target = Rig;
    fn deref(&self) -> &Rig {
        self.rig.as_ref().unwrap()
    }
}

impl std::ops::DerefMut for RigGuard {
    fn deref_mut(&mut self) -> &mut Rig {
        self.rig.as_mut().unwrap()
    }
}

impl Drop for RigGuard {
    fn drop(&mut self) {
        if let Some(mut rig) = self.rig.take() {
            if rig.healthy && !std::thread::panicking() {
                rig.healthy = false;
                (self.put_back)(rig);
            }
        }
    }
}

#[test]
fn the_properties_can_fail() {
    // The health check is real: a neighbour that cannot read its row fails.
    let mut rig = Rig::start();
    query_ok(&mut rig.neighbour, "DELETE FROM ks.calm WHERE k = 1");
    assert!(rig.still_healthy().is_err());
    // And the answer check is real: a RESULT is not a PROTOCOL_ERROR.
    let mut s = started(rig.addr());
    let f = query(&mut s, 1, "SELECT * FROM ks.t").unwrap();
    assert!(assert_protocol_error(&f).is_err());
}

// Regressions: the minimised inputs of what the properties found.

/// Found by `mutated_conversations_…`: bytes sent right behind a v5
/// STARTUP, in the same write, were cut as bare frames although the
/// connection now reads segments (Cassandra hands them to its segment
/// decoder), and an error about a frame's header went out bare on a
/// connection whose client reads segments.
#[test]
fn bytes_behind_a_v5_startup_are_read_as_segments() {
    let rig = Rig::start();
    let mut s = connect(rig.addr());
    let mut bytes = frame(5, 1, op::STARTUP, &startup_body());
    bytes.extend(frame(5, 2, op::OPTIONS, &[]));
    s.write_all(&bytes).unwrap();
    let answer = drain_to_close(&mut s).unwrap();
    let frames = split_answers(&answer, false).unwrap();
    assert_eq!(frames.len(), 2, "{frames:?}");
    assert_eq!(frames[0].opcode(), op::READY);
    let (code, message) = frames[1].error().expect("an error in a segment");
    assert_eq!(code, PROTOCOL_ERROR);
    assert!(message.contains("CRC mismatch"), "{message}");
}

/// The same, minimised from its second half: a frame of an unserved
/// version inside a good segment is answered in a segment.
#[test]
fn a_bad_version_inside_a_segment_is_answered_in_a_segment() {
    let rig = Rig::start();
    let mut v5 = V5::start(rig.addr());
    v5.send(&frame(3, 4, op::OPTIONS, &[])).unwrap();
    let f = v5.read().expect("a segment holding the error");
    assert_eq!(
        f.error(),
        Some((
            PROTOCOL_ERROR,
            "Invalid or unsupported protocol version (3); supported versions are (4/v4, 5/v5)"
                .into()
        ))
    );
    assert!(read_to_close(&mut v5.stream).unwrap().is_empty(), "closed");
}
