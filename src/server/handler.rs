//! Answers one request against the shared [`Session`]: the only place the
//! server touches the engine, so every connection sees the same schema,
//! data and prepared statements.
//!
//! The session is shared behind one lock and each request runs under it
//! with its connection's [`Client`] — keyspace, levels, the node it
//! arrived on as coordinator, page size, login — lent to it first
//! ([`Session::act_as`]).
//! One lock makes every acknowledged write visible to every later read and
//! serialises lightweight transactions per partition (and per cluster) as
//! Paxos would; statements are in-memory and short.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::watch;

use crate::checkpoints::Checkpoints;
use crate::cluster::{ConsistencyLevel, Coordinator, NodeIndex};
use crate::error::Error;
use crate::exec::{ColumnSpec, ResultKind, ResultSet};
use crate::planner::markers::{marker_specs, Markers};
use crate::session::Client;
use crate::syntax::ast::NativeType;
use crate::syntax::ast::Statement;
use crate::types::{DataType, Value};
use crate::{Prepared, Session};

use super::control;
use super::executor::Executor;
use super::frame::Opcode;
use super::inflight::{InFlight, Limits};
use super::paging::{fingerprint, page, page_of};
use super::request::{Batch, BatchQuery, QueryParams, Request};
use super::response::{self, BindSpec, Failure, Metadata, SchemaChange, TableSpec};
use super::topology::{self, NodeEvent, NodeState, Topology};
use super::trace;
use super::values;
use super::wire::WireValue;

/// Prepared statements a server keeps at most (Cassandra evicts too, and
/// the driver then re-prepares on UNPREPARED).
const MAX_PREPARED: usize = 10_000;

/// A prepared statement as the server keeps it: the engine's statement,
/// the receivers of its markers, and the result columns it was prepared
/// with.
#[derive(Debug)]
struct PreparedEntry {
    prepared: Prepared,
    keyspace: Option<String>,
    markers: Markers,
    result_table: TableSpec,
    result_columns: Vec<ColumnSpec>,
    result_metadata_id: [u8; 16],
}

/// The engine and what the protocol adds to it, behind the one lock.
#[derive(Debug)]
struct Engine {
    session: Session,
    prepared: HashMap<[u8; 16], Arc<PreparedEntry>>,
    control: Checkpoints,
}

/// What every connection shares.
#[derive(Debug)]
pub struct Shared {
    engine: Mutex<Engine>,
    /// QUERY, EXECUTE and BATCH requests each node has coordinated, by
    /// ring index (room for the largest ring).
    requests: Vec<AtomicU64>,
    /// Each node's address and state: what listeners and connections
    /// watch.
    nodes: watch::Sender<Vec<NodeState>>,
    /// The listeners and what drivers were told of the ring; locked after
    /// the engine, never before.
    topology: Mutex<Topology>,
    /// Counts traces, so trace ids taken in the same microsecond differ.
    trace_sequence: AtomicU64,
    /// The bytes of requests received and not yet answered.
    in_flight: Arc<InFlight>,
    /// The engine's thread, where a statement runs when another is already
    /// running on a runtime thread.
    executor: Executor,
    /// Whose turn it is to run a statement (see [`Turn`]).
    turn: Mutex<()>,
}

/// The turn to run a statement: one at a time, on a runtime thread that
/// finds the engine free (the cheapest way, so pipelined requests are
/// answered in one go) or on the engine's own thread. A runtime thread
/// only ever tries for it and never waits, so a long statement blocks at
/// most the one runtime thread running it. Given back when dropped.
#[derive(Debug)]
pub struct Turn<'a> {
    _held: MutexGuard<'a, ()>,
}

/// The node half of trace ids: fixed bits marking them as this server's.
const TRACE_NODE: u64 = 0x8000_0000_7769_6465;

/// The plan and cost of the statement a request last ran, kept for its
/// trace.
pub type LastRun = Option<(Arc<crate::planner::Plan>, crate::exec::Metrics)>;

/// What one connection remembers between requests: the session's
/// per-client state ([`Client`]: keyspace, levels, coordinator, login),
/// which each request lends to the shared session, and the protocol's.
#[derive(Debug, Clone)]
pub struct ConnectionState {
    /// The client's address, for traces and the in-flight limits.
    pub peer: std::net::IpAddr,
    /// The plan of the statement the last request ran (see [`LastRun`]).
    pub last_run: LastRun,
    /// The negotiated protocol version.
    pub version: u8,
    /// The node the connection arrived on: its requests' coordinator.
    pub node: usize,
    /// STARTUP has been answered.
    pub started: bool,
    /// The connection's keyspace (its last `USE`), its login (`None`
    /// without `--auth`) and, for the request running, its levels, page
    /// size and timestamp; the coordinator is always `node`.
    pub client: Client,
}

impl ConnectionState {
    /// A connection from `peer` arriving on `node`, before STARTUP.
    pub fn new(peer: std::net::IpAddr, node: usize) -> ConnectionState {
        ConnectionState {
            peer,
            last_run: None,
            version: super::frame::MAX_VERSION,
            node,
            started: false,
            client: Client {
                coordinator: Coordinator::Node(NodeIndex(node)),
                ..Client::default()
            },
        }
    }
}

/// The answer to a request, and what it makes the server push to others.
#[derive(Debug)]
pub struct Reply {
    /// RESULT, ERROR, READY, SUPPORTED, …
    pub opcode: Opcode,
    /// The body.
    pub body: Vec<u8>,
    /// Cassandra's client warnings (never widerow's own notes).
    pub warnings: Vec<String>,
    /// A schema change to announce to registered connections.
    pub schema_change: Option<SchemaChange>,
    /// Nodes that went up or down, joined, left or moved, to announce.
    pub node_events: Vec<NodeEvent>,
    /// The trace id of a traced request.
    pub trace_id: Option<[u8; 16]>,
}

impl Reply {
    fn new(opcode: Opcode, body: Vec<u8>) -> Reply {
        Reply {
            opcode,
            body,
            warnings: Vec::new(),
            schema_change: None,
            node_events: Vec::new(),
            trace_id: None,
        }
    }

    /// An ERROR reply.
    pub fn failure(failure: &Failure, version: u8) -> Reply {
        Reply::new(Opcode::Error, failure.body(version))
    }
}

impl Shared {
    /// Shares `session` among connections to the nodes of `topology`;
    /// the session's clock becomes one `CLUSTER CLOCK` can move.
    pub fn new(mut session: Session, topology: Topology) -> Shared {
        let control = Checkpoints::new(&mut session);
        let states = topology::node_states(&session.context().ring);
        let requests = (0..crate::cluster::ring::MAX_NODES)
            .map(|_| AtomicU64::new(0))
            .collect();
        Shared {
            engine: Mutex::new(Engine {
                session,
                prepared: HashMap::new(),
                control,
            }),
            requests,
            nodes: watch::Sender::new(states),
            topology: Mutex::new(topology),
            trace_sequence: AtomicU64::new(0),
            in_flight: Arc::new(InFlight::new(Limits::default())),
            executor: Executor::start(),
            turn: Mutex::new(()),
        }
    }

    /// The same, with `limits` on the bytes of requests in flight.
    pub fn with_in_flight(mut self, limits: Limits) -> Shared {
        self.in_flight = Arc::new(InFlight::new(limits));
        self
    }

    /// The engine's thread, where connections send their statements when
    /// they cannot have the [`Turn`] inline.
    pub fn executor(&self) -> &Executor {
        &self.executor
    }

    /// The turn to run a statement now, unless another statement has it.
    pub fn try_turn(&self) -> Option<Turn<'_>> {
        match self.turn.try_lock() {
            Ok(guard) => Some(Turn { _held: guard }),
            Err(std::sync::TryLockError::Poisoned(p)) => Some(Turn {
                _held: p.into_inner(),
            }),
            Err(std::sync::TryLockError::WouldBlock) => None,
        }
    }

    /// The turn to run a statement, waited for: on the engine's thread
    /// only, never on a runtime thread.
    pub fn wait_turn(&self) -> Turn<'_> {
        Turn {
            _held: self.turn.lock().unwrap_or_else(|p| p.into_inner()),
        }
    }

    /// The bytes of requests in flight (received, not yet answered).
    pub fn in_flight(&self) -> &Arc<InFlight> {
        &self.in_flight
    }

    /// Each node's address and state, as they change: a node's listener
    /// refuses connections and its connections close while it is down or
    /// out of the ring.
    pub fn node_states(&self) -> watch::Receiver<Vec<NodeState>> {
        self.nodes.subscribe()
    }

    /// The QUERY, EXECUTE and BATCH requests each node of the ring has
    /// coordinated.
    pub fn request_counts(&self) -> Vec<u64> {
        let nodes = self.nodes.borrow().len();
        self.requests[..nodes]
            .iter()
            .map(|n| n.load(Ordering::Relaxed))
            .collect()
    }

    /// Every address a client reaches a node on now, in ring order.
    pub fn addresses(&self) -> Vec<std::net::SocketAddr> {
        let engine = self.lock();
        let topology = self.topology();
        topology.addresses(&engine.session.context().ring)
    }

    fn topology(&self) -> MutexGuard<'_, Topology> {
        self.topology.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Brings listeners, connections and registered clients in line with
    /// `session`'s ring after something may have changed it: the nodes'
    /// states published, a listener for each node that joined, and the
    /// events that tell drivers. A listener that cannot be bound leaves
    /// its node unreachable, said on standard error.
    fn follow_ring(&self, session: &Session) -> Vec<NodeEvent> {
        let ring = &session.context().ring;
        let mut topology = self.topology();
        if let Err(e) = topology.listen_for(ring) {
            eprintln!("widerow serve: {e}");
        }
        let states = topology::node_states(ring);
        self.nodes.send_if_modified(|now| {
            let changed = *now != states;
            *now = states;
            changed
        });
        topology.follow(ring)
    }

    fn count_request(&self, node: usize) {
        if let Some(n) = self.requests.get(node) {
            n.fetch_add(1, Ordering::Relaxed);
        }
    }

    fn lock(&self) -> MutexGuard<'_, Engine> {
        // A panic under the lock cannot leave the session half-changed
        // (statements change nothing when they fail), so a poisoned lock
        // is taken over rather than taking the server down.
        self.engine.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Runs `f` on the session directly (node control, tests), waiting
    /// for the [`Turn`] as a statement would, so a runtime thread that
    /// has the turn never waits for the session: not from a runtime thread.
    pub fn with_session<R>(&self, f: impl FnOnce(&mut Session) -> R) -> R {
        let _turn = self.wait_turn();
        f(&mut self.lock().session)
    }

    /// Checks an AUTH_RESPONSE's SASL PLAIN token and returns the role it
    /// logs in as. The role is looked up under the lock; the bcrypt check,
    /// the slow part, runs outside it.
    pub fn login(&self, token: &[u8]) -> Result<String, Error> {
        let credentials = crate::auth::sasl::decode_plain(token)?;
        let role = self
            .lock()
            .session
            .roles()
            .get(&credentials.username)
            .cloned();
        crate::auth::sasl::check(&credentials, role.as_ref())?;
        Ok(credentials.username)
    }

    /// Answers a QUERY, PREPARE, EXECUTE or BATCH; the connection layer
    /// answers the others.
    /// With `tracing` (the frame's tracing flag), a RESULT carries a trace
    /// id and the trace is written to `system_traces` (see [`trace`]).
    pub fn handle(&self, conn: &mut ConnectionState, request: Request, tracing: bool) -> Reply {
        if !tracing {
            return self.answer(conn, request);
        }
        let started = std::time::Instant::now();
        let facts = self.trace_facts(&request);
        conn.last_run = None;
        let mut reply = self.answer(conn, request);
        if reply.opcode != Opcode::Result {
            return reply;
        }
        let Some(facts) = facts else {
            return reply;
        };
        let duration = i64::try_from(started.elapsed().as_micros()).unwrap_or(i64::MAX);
        let mut engine = self.lock();
        let session = &mut engine.session;
        let request = trace::TraceRequest {
            facts,
            client: conn.peer,
            node: conn.node,
            plan: conn.last_run.take(),
            started_micros: session.now_micros() - duration,
            duration_micros: duration,
        };
        let lsb = self.trace_sequence.fetch_add(1, Ordering::Relaxed) ^ TRACE_NODE;
        reply.trace_id = Some(trace::record(session, &request, lsb));
        reply
    }

    /// What a traced request's session row names: its command, text and
    /// levels (for an EXECUTE, the prepared text and its bound key).
    fn trace_facts(&self, request: &Request) -> Option<trace::TraceFacts> {
        let facts = |command, query, params: &QueryParams| trace::TraceFacts {
            command,
            query,
            consistency: params.consistency,
            serial_consistency: params
                .serial_consistency
                .unwrap_or(ConsistencyLevel::Serial),
            page_size: params.page_size,
            bound_key: None,
        };
        match request {
            Request::Query { query, params } => Some(facts("QUERY", query.clone(), params)),
            Request::Execute { id, params, .. } => {
                let entry = <&[u8; 16]>::try_from(id.as_slice())
                    .ok()
                    .and_then(|key| self.lock().prepared.get(key).cloned());
                let text = entry
                    .as_ref()
                    .map_or_else(String::new, |e| e.prepared.text().to_string());
                Some(trace::TraceFacts {
                    bound_key: entry
                        .and_then(|e| bound_key(&e.markers.partition_key_indexes, params)),
                    ..facts("EXECUTE", text, params)
                })
            }
            Request::Batch(batch) => Some(trace::TraceFacts {
                command: "BATCH",
                query: format!("BATCH of {} statements", batch.statements.len()),
                consistency: batch.consistency,
                serial_consistency: batch.serial_consistency.unwrap_or(ConsistencyLevel::Serial),
                page_size: None,
                bound_key: None,
            }),
            _ => None,
        }
    }

    fn answer(&self, conn: &mut ConnectionState, request: Request) -> Reply {
        let version = conn.version;
        if let Request::Query { query, params } = &request {
            if let Some(control) = control::parse(query) {
                return self
                    .control(control, query, params)
                    .unwrap_or_else(|f| Reply::failure(&f, version));
            }
        }
        if matches!(
            request,
            Request::Query { .. } | Request::Execute { .. } | Request::Batch(_)
        ) {
            self.count_request(conn.node);
        }
        let result = match request {
            Request::Query { query, params } => self.query(conn, &query, &params),
            Request::Prepare { query, keyspace } => self.prepare(conn, &query, keyspace),
            Request::Execute {
                id,
                result_metadata_id,
                params,
            } => self.execute(conn, &id, result_metadata_id.as_deref(), &params),
            Request::Batch(batch) => self.batch(conn, &batch),
            _ => Err(Failure::Protocol("Unexpected message".into())),
        };
        let mut reply = result.unwrap_or_else(|f| Reply::failure(&f, version));
        if reply.schema_change.is_some() {
            // A keyspace naming a data centre the ring lacks adds its nodes.
            reply.node_events = self.follow_ring(&self.lock().session);
        }
        reply
    }

    /// Runs one of widerow's own `CLUSTER …` statements (see
    /// [`control`]); what it did to the ring is published to listeners and
    /// connections, and announced.
    fn control(
        &self,
        control: Result<control::Control, Error>,
        query: &str,
        params: &QueryParams,
    ) -> Result<Reply, Failure> {
        let control = control.map_err(Failure::Engine)?;
        let counts = self.request_counts();
        let mut engine = self.lock();
        let Engine {
            session,
            control: state,
            ..
        } = &mut *engine;
        let listen = |ring: &crate::cluster::Ring| self.topology().listen_for(ring);
        let result = control::run(&control, session, state, &counts, listen);
        let node_events = self.follow_ring(session);
        drop(engine);
        let result = result.map_err(Failure::Engine)?;
        let mut reply = if result.kind == ResultKind::Rows {
            let fingerprint = fingerprint(query.as_bytes(), &[]);
            let body = page(&result, &TableSpec::default(), params, fingerprint, None)?;
            Reply::new(Opcode::Result, body)
        } else {
            Reply::new(Opcode::Result, response::void())
        };
        reply.node_events = node_events;
        Ok(reply)
    }

    fn query(
        &self,
        conn: &mut ConnectionState,
        query: &str,
        params: &QueryParams,
    ) -> Result<Reply, Failure> {
        if !params.values.is_empty() {
            // Values with a QUERY bind the statement's markers: prepare it
            // on the spot, as Cassandra does.
            let entry = self.prepare_entry(conn, query, params.keyspace.clone())?;
            return self.run_prepared(conn, &entry, None, params);
        }
        let mut engine = self.lock();
        let session = &mut engine.session;
        setup(session, conn, params.keyspace.as_deref(), params)?;
        if super::describe::is_describe(query) {
            let ctx = session.context();
            let elements = super::describe::describe(&ctx.catalog, ctx.keyspace.as_deref(), query)
                .map_err(Failure::Engine)?;
            drop(engine);
            let result =
                ResultSet::rows(super::describe::columns(), super::describe::rows(elements));
            let body = page(
                &result,
                &TableSpec::default(),
                params,
                fingerprint(query.as_bytes(), &[]),
                None,
            )?;
            return Ok(Reply::new(Opcode::Result, body));
        }
        let statement = crate::parse_statement(query).map_err(Failure::Engine)?;
        let result = session.execute(query);
        let keyspace_after = session.keyspace().map(str::to_string);
        let result = result.map_err(Failure::Engine)?;
        let table = table_of(session, &statement);
        drop(engine);
        let fingerprint = fingerprint(query.as_bytes(), &[]);
        finish(
            conn,
            &statement,
            result,
            keyspace_after,
            &table,
            params,
            fingerprint,
            None,
        )
    }

    fn prepare(
        &self,
        conn: &mut ConnectionState,
        query: &str,
        keyspace: Option<String>,
    ) -> Result<Reply, Failure> {
        let entry = self.prepare_entry(conn, query, keyspace)?;
        let id = prepared_id(query, entry.keyspace.as_deref());
        let table = |spec: &crate::planner::markers::MarkerSpec| TableSpec {
            keyspace: spec.keyspace.clone(),
            table: spec.table.clone(),
        };
        let markers: Vec<BindSpec> = entry
            .markers
            .specs
            .iter()
            .map(|m| BindSpec {
                table: table(m),
                column: ColumnSpec {
                    name: m.name.clone(),
                    data_type: m.data_type.clone(),
                },
            })
            .collect();
        let body = response::prepared(
            conn.version,
            &id,
            &entry.result_metadata_id,
            &markers,
            &entry.markers.partition_key_indexes,
            &entry.result_table,
            &entry.result_columns,
        );
        Ok(Reply::new(Opcode::Result, body))
    }

    /// Prepares `query` (or finds it prepared) under the connection's
    /// keyspace or the request's own.
    fn prepare_entry(
        &self,
        conn: &ConnectionState,
        query: &str,
        keyspace: Option<String>,
    ) -> Result<Arc<PreparedEntry>, Failure> {
        let keyspace = keyspace.or_else(|| conn.client.keyspace.clone());
        let id = prepared_id(query, keyspace.as_deref());
        let mut engine = self.lock();
        if let Some(found) = engine.prepared.get(&id) {
            return Ok(found.clone());
        }
        let session = &mut engine.session;
        session.act_as(&Client {
            keyspace: keyspace.clone(),
            ..conn.client.clone()
        });
        let prepared = session.prepare(query).map_err(Failure::Engine)?;
        let ctx = session.context();
        let markers = marker_specs(ctx, prepared.statement()).map_err(Failure::Engine)?;
        let (result_table, result_columns) = match prepared.statement() {
            Statement::Select(select) => (
                table_of(session, prepared.statement()),
                crate::exec::result_columns(ctx, select).unwrap_or_default(),
            ),
            _ => (TableSpec::default(), Vec::new()),
        };
        let result_metadata_id = metadata_id(&result_columns);
        let entry = Arc::new(PreparedEntry {
            prepared,
            keyspace,
            markers,
            result_table,
            result_columns,
            result_metadata_id,
        });
        if engine.prepared.len() >= MAX_PREPARED {
            engine.prepared.clear();
        }
        engine.prepared.insert(id, entry.clone());
        Ok(entry)
    }

    fn execute(
        &self,
        conn: &mut ConnectionState,
        id: &[u8],
        client_metadata_id: Option<&[u8]>,
        params: &QueryParams,
    ) -> Result<Reply, Failure> {
        let entry = <[u8; 16]>::try_from(id)
            .ok()
            .and_then(|key| self.lock().prepared.get(&key).cloned())
            .ok_or_else(|| Failure::Unprepared(id.to_vec()))?;
        self.run_prepared(conn, &entry, client_metadata_id, params)
    }

    fn run_prepared(
        &self,
        conn: &mut ConnectionState,
        entry: &PreparedEntry,
        client_metadata_id: Option<&[u8]>,
        params: &QueryParams,
    ) -> Result<Reply, Failure> {
        let values = bind_values(&entry.markers, params)?;
        let keyspace = params.keyspace.as_deref().or(entry.keyspace.as_deref());
        let mut engine = self.lock();
        let session = &mut engine.session;
        setup(session, conn, keyspace, params)?;
        let result = if values.iter().any(Option::is_none) {
            execute_with_unset(session, entry, &values)
        } else {
            let values: Vec<Value> = values.into_iter().flatten().collect();
            session.execute_prepared(&entry.prepared, &values)
        };
        let keyspace_after = session.keyspace().map(str::to_string);
        let result = result.map_err(Failure::Engine)?;
        drop(engine);
        let mut value_bytes = Vec::new();
        for v in &params.values {
            if let WireValue::Bytes(b) = v {
                value_bytes.extend_from_slice(b);
            }
        }
        let fingerprint = fingerprint(entry.prepared.text().as_bytes(), &value_bytes);
        let metadata = if conn.version >= 5 {
            match client_metadata_id {
                Some(held) if held != entry.result_metadata_id.as_slice() => Metadata::Full {
                    changed_id: Some(&entry.result_metadata_id),
                },
                _ if params.skip_metadata => Metadata::Skipped,
                _ => Metadata::Full { changed_id: None },
            }
        } else if params.skip_metadata {
            Metadata::Skipped
        } else {
            Metadata::Full { changed_id: None }
        };
        finish(
            conn,
            entry.prepared.statement(),
            result,
            keyspace_after,
            &entry.result_table,
            params,
            fingerprint,
            Some(metadata),
        )
    }

    fn batch(&self, conn: &mut ConnectionState, batch: &Batch) -> Result<Reply, Failure> {
        let params = QueryParams {
            consistency: batch.consistency,
            serial_consistency: batch.serial_consistency,
            timestamp: batch.timestamp,
            keyspace: batch.keyspace.clone(),
            ..QueryParams::default()
        };
        // Each statement is bound, then the whole batch runs as one BATCH
        // statement of the engine's, atomically.
        let mut text = String::from(match batch.kind {
            1 => "BEGIN UNLOGGED BATCH ",
            2 => "BEGIN COUNTER BATCH ",
            _ => "BEGIN BATCH ",
        });
        let mut all_values = Vec::new();
        for (query, wire_values) in &batch.statements {
            let entry = match query {
                BatchQuery::Text(q) => self.prepare_entry(conn, q, batch.keyspace.clone())?,
                BatchQuery::Prepared(id) => <[u8; 16]>::try_from(id.as_slice())
                    .ok()
                    .and_then(|key| self.lock().prepared.get(&key).cloned())
                    .ok_or_else(|| Failure::Unprepared(id.clone()))?,
            };
            let inner = QueryParams {
                values: wire_values.clone(),
                ..QueryParams::default()
            };
            let bound = bind_values(&entry.markers, &inner)?;
            if bound.iter().any(Option::is_none) {
                return Err(Failure::Engine(Error::invalid(
                    "Unset values in a BATCH are not supported by widerow",
                )));
            }
            all_values.extend(bound.into_iter().flatten());
            text.push_str(entry.prepared.text().trim().trim_end_matches(';'));
            text.push_str("; ");
        }
        text.push_str("APPLY BATCH");
        let mut engine = self.lock();
        let session = &mut engine.session;
        setup(session, conn, batch.keyspace.as_deref(), &params)?;
        let prepared = session.prepare(&text).map_err(Failure::Engine)?;
        let result = session
            .execute_prepared(&prepared, &all_values)
            .map_err(Failure::Engine)?;
        drop(engine);
        let statement = prepared.statement().clone();
        finish(
            conn,
            &statement,
            result,
            conn.client.keyspace.clone(),
            &TableSpec::default(),
            &params,
            0,
            None,
        )
    }
}

/// Runs `entry` with some values unset: bound without the parts they feed.
fn execute_with_unset(
    session: &mut Session,
    entry: &PreparedEntry,
    values: &[Option<Value>],
) -> Result<ResultSet, Error> {
    let unset: Vec<(usize, String)> = entry
        .markers
        .specs
        .iter()
        .zip(values)
        .filter(|(_, v)| v.is_none())
        .map(|(spec, _)| (spec.offset, spec.receiver.clone()))
        .collect();
    let statement = entry.prepared.statement();
    let table = match statement {
        Statement::Insert(insert) => session
            .context()
            .catalog
            .resolve_table(session.context().keyspace.as_deref(), &insert.table)
            .ok(),
        _ => None,
    };
    let is_key =
        |name: &str| table.is_some_and(|t| t.column(name).is_some_and(|c| c.is_primary_key()));
    let Some(statement) = super::unset::without_unset(statement, &unset, &is_key)? else {
        return Ok(ResultSet::ok());
    };
    let prepared = session.prepare(&statement.to_string())?;
    let set: Vec<Value> = values.iter().flatten().cloned().collect();
    session.execute_prepared(&prepared, &set)
}

/// The serialized partition key components an EXECUTE binds, in key
/// order, when every one is bound by position.
fn bound_key(indexes: &[u16], params: &QueryParams) -> Option<Vec<Vec<u8>>> {
    if indexes.is_empty() || params.names.is_some() {
        return None;
    }
    indexes
        .iter()
        .map(|&i| match params.values.get(usize::from(i)) {
            Some(WireValue::Bytes(bytes)) => Some(bytes.clone()),
            _ => None,
        })
        .collect()
}

/// Lends the connection's client to the session for a request: the
/// request's levels, page size and timestamp become the client's, and a
/// keyspace the request names (v5's, or a prepared statement's) stands in
/// for the connection's for this request alone. The session changes only
/// what differs (a change re-plans prepared statements).
fn setup(
    session: &mut Session,
    conn: &mut ConnectionState,
    keyspace: Option<&str>,
    params: &QueryParams,
) -> Result<(), Failure> {
    let client = &mut conn.client;
    client.consistency = params.consistency;
    client.serial_consistency = params
        .serial_consistency
        .unwrap_or(ConsistencyLevel::Serial);
    client.page_size = match params.page_size {
        Some(n) if n > 0 => Some(n as usize),
        _ => None,
    };
    client.default_timestamp = params.timestamp;
    match keyspace {
        Some(named) if client.keyspace.as_deref() != Some(named) => session.act_as(&Client {
            keyspace: Some(named.to_string()),
            ..client.clone()
        }),
        _ => session.act_as(client),
    }
    Ok(())
}

/// The table a statement reads or writes, for the result's table spec.
fn table_of(session: &Session, statement: &Statement) -> TableSpec {
    let name = match statement {
        Statement::Select(s) => &s.from,
        Statement::Insert(i) => &i.table,
        Statement::Update(u) => &u.table,
        Statement::Delete(d) => &d.table,
        Statement::Role(_) => {
            return TableSpec {
                keyspace: "system_auth".into(),
                table: "roles".into(),
            }
        }
        _ => return TableSpec::default(),
    };
    let ctx = session.context();
    match ctx.catalog.resolve_table(ctx.keyspace.as_deref(), name) {
        Ok(t) => TableSpec {
            keyspace: t.keyspace.clone(),
            table: t.name.clone(),
        },
        Err(_) => TableSpec::default(),
    }
}

/// The bound values as the engine takes them, decoded by each marker's
/// type (`None` for UNSET); named values are put in marker order.
fn bind_values(markers: &Markers, params: &QueryParams) -> Result<Vec<Option<Value>>, Failure> {
    let specs = &markers.specs;
    let ordered: Vec<&WireValue> = match &params.names {
        None => params.values.iter().collect(),
        Some(names) => specs
            .iter()
            .map(|spec| {
                names
                    .iter()
                    .position(|n| n.eq_ignore_ascii_case(&spec.name))
                    .and_then(|i| params.values.get(i))
                    .unwrap_or(&WireValue::Unset)
            })
            .collect(),
    };
    if ordered.len() != specs.len() {
        return Err(Failure::Engine(Error::invalid(format!(
            "There were {} markers(?) in CQL but {} bound variables",
            specs.len(),
            ordered.len()
        ))));
    }
    ordered
        .iter()
        .zip(specs)
        .map(|(v, spec)| match v {
            WireValue::Null => Ok(Some(Value::Null)),
            WireValue::Unset => Ok(None),
            WireValue::Bytes(b) => values::decode(bound_type(&spec.data_type), b)
                .map(Some)
                .map_err(|e| {
                    Failure::Engine(Error::invalid(format!(
                        "Invalid value for {}: {}",
                        spec.name, e.0
                    )))
                }),
        })
        .collect()
}

/// The type a value bound to `receiver` is decoded as: a counter's change
/// is a bigint, as the engine takes it.
fn bound_type(receiver: &DataType) -> &DataType {
    const BIGINT: DataType = DataType::Native(NativeType::Bigint);
    match receiver {
        DataType::Native(NativeType::Counter) => &BIGINT,
        other => other,
    }
}

/// Turns an engine result into the RESULT the protocol sends: rows (one
/// page of them), a keyspace set, a schema change or void.
#[allow(clippy::too_many_arguments)]
fn finish(
    conn: &mut ConnectionState,
    statement: &Statement,
    result: ResultSet,
    keyspace_after: Option<String>,
    table: &TableSpec,
    params: &QueryParams,
    fingerprint: u64,
    metadata: Option<Metadata<'_>>,
) -> Result<Reply, Failure> {
    let warnings = result.warnings.clone();
    conn.last_run = result.plan.clone().map(|plan| (plan, result.metrics));
    let mut reply = if let Statement::Use(_) = statement {
        conn.client.keyspace = keyspace_after.clone();
        Reply::new(
            Opcode::Result,
            response::set_keyspace(keyspace_after.as_deref().unwrap_or_default()),
        )
    } else if let Some(event) = &result.schema_change {
        let change = schema_change(event);
        let mut reply = Reply::new(Opcode::Result, response::schema_change(&change));
        reply.schema_change = Some(change);
        reply
    } else if result.kind == ResultKind::Rows {
        let body = page_of(&result, table, params, fingerprint, metadata, statement)?;
        Reply::new(Opcode::Result, body)
    } else {
        Reply::new(Opcode::Result, response::void())
    };
    reply.warnings = warnings;
    Ok(reply)
}

fn schema_change(event: &crate::schema::SchemaEvent) -> SchemaChange {
    use crate::schema::{ChangeKind, EventTarget};
    SchemaChange {
        change: match event.change {
            ChangeKind::Created => "CREATED",
            ChangeKind::Updated => "UPDATED",
            ChangeKind::Dropped => "DROPPED",
        },
        target: match event.target {
            EventTarget::Keyspace => "KEYSPACE",
            EventTarget::Table => "TABLE",
            EventTarget::Type => "TYPE",
        },
        keyspace: event.keyspace.clone(),
        name: event.name.clone(),
        arguments: Vec::new(),
    }
}

/// A hash that stays the same across runs and machines (FNV-1a), for ids
/// and fingerprints a client holds on to.
pub(super) fn stable_hash(seed: u64, parts: &[&[u8]]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64 ^ seed;
    for part in parts {
        for b in *part {
            h ^= u64::from(*b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        h ^= 0xff;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// A prepared statement's id: the same text under the same keyspace is
/// the same statement, as Cassandra's MD5 of keyspace and text makes it.
fn prepared_id(query: &str, keyspace: Option<&str>) -> [u8; 16] {
    let ks = keyspace.unwrap_or_default().as_bytes();
    let mut id = [0; 16];
    id[..8].copy_from_slice(&stable_hash(2, &[ks, query.as_bytes()]).to_be_bytes());
    id[8..].copy_from_slice(&stable_hash(3, &[ks, query.as_bytes()]).to_be_bytes());
    id
}

/// v5's result metadata id: changes when the result columns do.
fn metadata_id(columns: &[ColumnSpec]) -> [u8; 16] {
    let text: String = columns
        .iter()
        .map(|c| format!("{}:{};", c.name, c.data_type))
        .collect();
    let mut id = [0; 16];
    id[..8].copy_from_slice(&stable_hash(4, &[text.as_bytes()]).to_be_bytes());
    id[8..].copy_from_slice(&stable_hash(5, &[text.as_bytes()]).to_be_bytes());
    id
}
