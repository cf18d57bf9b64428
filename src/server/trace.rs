//! TRACING through the protocol: a request sent with the tracing flag gets
//! a trace id in its response, and `system_traces.sessions` and
//! `system_traces.events` get the rows a node writes — in the node's
//! shape (request, parameters, duration, coordinator; events with their
//! source node and elapsed time) and with widerow's plan as the story:
//! how the statement was planned, the replicas the coordinator contacted,
//! and what was read. Drivers read the trace back as they read a node's
//! (`ResultSet.get_query_trace()` in Python), and connect mode compares
//! the route the planner predicted with the one recorded here.

use std::net::IpAddr;

use crate::cluster::consistency::{plan_read, plan_write};
use crate::cluster::murmur3::token_of;
use crate::cluster::{ConsistencyLevel, NodeIndex};
use crate::exec::Metrics;
use crate::planner::{Partitions, Plan, TokenValue};
use crate::schema::system::STORAGE_PORT;
use crate::schema::table_options::quoted;
use crate::types::{timeuuid, uuid_text};
use crate::Session;

/// What a traced request says about itself, read before it runs.
#[derive(Debug, Clone)]
pub struct TraceFacts {
    /// `QUERY`, `EXECUTE` or `BATCH`, as the sessions table names it.
    pub command: &'static str,
    /// The statement's text.
    pub query: String,
    /// The request's consistency level.
    pub consistency: ConsistencyLevel,
    /// Its serial consistency (SERIAL when it names none).
    pub serial_consistency: ConsistencyLevel,
    /// The page size asked for, if any.
    pub page_size: Option<i32>,
    /// The partition key an EXECUTE bound (serialized components), to
    /// route a prepared plan whose token is bound at execution.
    pub bound_key: Option<Vec<Vec<u8>>>,
}

/// What the trace of one request records.
#[derive(Debug, Clone)]
pub struct TraceRequest {
    /// What the request said about itself.
    pub facts: TraceFacts,
    /// The client's address.
    pub client: IpAddr,
    /// The coordinator: the node the request arrived on.
    pub node: usize,
    /// The statement's plan and what it cost (`None` for a statement that
    /// was not planned: schema changes, USE).
    pub plan: Option<(std::sync::Arc<Plan>, Metrics)>,
    /// When the request arrived, in microseconds of the session clock.
    pub started_micros: i64,
    /// How long it took, in microseconds.
    pub duration_micros: i64,
}

/// Writes the trace of `request` and returns its session id (a time UUID,
/// as a node's). `lsb` makes ids taken in the same microsecond differ.
pub fn record(session: &mut Session, request: &TraceRequest, lsb: u64) -> [u8; 16] {
    let id =
        timeuuid::from_ticks_and_lsb(timeuuid::unix_micros_to_ticks(request.started_micros), lsb);
    let coordinator = address(session, request.node);
    let events = events(session, request, coordinator);
    let mut script = session_row(&id, request, coordinator);
    for (n, event) in events.iter().enumerate() {
        let event_id = timeuuid::from_ticks_and_lsb(
            timeuuid::unix_micros_to_ticks(request.started_micros + event.elapsed),
            lsb.wrapping_add(n as u64 + 1),
        );
        script.push_str(&format!(
            "INSERT INTO system_traces.events (session_id, event_id, activity, source, \
             source_elapsed, source_port, thread) VALUES ({}, {}, {}, '{}', {}, {STORAGE_PORT}, \
             '{}');\n",
            uuid_text(&id),
            uuid_text(&event_id),
            quoted(&event.activity),
            event.source,
            event.elapsed,
            event.thread
        ));
    }
    // The trace is a record, not part of the request: a trace that cannot
    // be written (its keyspace's replicas down) leaves the answer as it is.
    let _ = session.execute_script(&script);
    id
}

struct Event {
    activity: String,
    source: IpAddr,
    elapsed: i64,
    thread: &'static str,
}

fn session_row(id: &[u8; 16], request: &TraceRequest, coordinator: IpAddr) -> String {
    let mut parameters = vec![
        (
            "consistency_level",
            request.facts.consistency.name().to_string(),
        ),
        ("query", request.facts.query.clone()),
        (
            "serial_consistency_level",
            request.facts.serial_consistency.name().to_string(),
        ),
    ];
    if let Some(size) = request.facts.page_size.filter(|&s| s > 0) {
        parameters.push(("page_size", size.to_string()));
    }
    let parameters: Vec<String> = parameters
        .iter()
        .map(|(k, v)| format!("'{k}': {}", quoted(v)))
        .collect();
    let request_text = match request.facts.command {
        "EXECUTE" => "Execute CQL3 prepared query",
        "BATCH" => "Execute batch of CQL3 queries",
        _ => "Execute CQL3 query",
    };
    format!(
        "INSERT INTO system_traces.sessions (session_id, client, command, coordinator, \
         coordinator_port, duration, parameters, request, started_at) VALUES ({}, '{}', '{}', \
         '{coordinator}', {STORAGE_PORT}, {}, {{{}}}, '{request_text}', {});\n",
        uuid_text(id),
        request.client,
        request.facts.command,
        request.duration_micros.max(1),
        parameters.join(", "),
        request.started_micros.div_euclid(1000),
    )
}

/// The events: parsing on the coordinator, widerow's plan, then each
/// contacted replica's read or write, and the rows read.
fn events(session: &Session, request: &TraceRequest, coordinator: IpAddr) -> Vec<Event> {
    let at = |fraction: i64| (request.duration_micros.max(1) * fraction / 100).max(1);
    let on_coordinator = |activity: String, elapsed: i64| Event {
        activity,
        source: coordinator,
        elapsed,
        thread: "Native-Transport-Requests-1",
    };
    let mut out = vec![on_coordinator(
        format!("Parsing {}", request.facts.query),
        at(5),
    )];
    if request.facts.command == "QUERY" {
        out.push(on_coordinator("Preparing statement".into(), at(10)));
    }
    let Some((plan, metrics)) = &request.plan else {
        return out;
    };
    out.push(on_coordinator(
        format!(
            "widerow plan: {} {} on {} at {}",
            plan.class, plan.statement, plan.table, plan.consistency
        ),
        at(15),
    ));
    let read = is_read(plan);
    let (thread, verb) = if read {
        ("ReadStage-1", "Executing single-partition query on")
    } else {
        ("MutationStage-1", "Appending to commitlog for")
    };
    let table = plan.table.rsplit('.').next().unwrap_or(&plan.table);
    match &plan.partitions {
        Partitions::Keys { partitions } => {
            for p in partitions {
                let (token, contacted) = match p.token {
                    TokenValue::Known(_) => (p.token.to_string(), p.contacted.clone()),
                    TokenValue::BoundAtExecution => bound_route(session, request, plan)
                        .unwrap_or_else(|| (p.token.to_string(), p.contacted.clone())),
                };
                out.push(on_coordinator(
                    format!(
                        "Sending request for token {token} to replicas {}",
                        contacted.join(", ")
                    ),
                    at(20),
                ));
                for replica in &contacted {
                    out.push(Event {
                        activity: format!("{verb} {table}"),
                        source: named_address(session, replica),
                        elapsed: at(50),
                        thread,
                    });
                }
            }
        }
        _ => {
            out.push(on_coordinator(
                format!("Scanning token ranges on {}", plan.nodes.join(", ")),
                at(20),
            ));
            for node in plan.nodes.iter() {
                out.push(Event {
                    activity: format!("Executing seq scan of {table}"),
                    source: named_address(session, node),
                    elapsed: at(50),
                    thread,
                });
            }
        }
    }
    if read {
        out.push(on_coordinator(
            format!(
                "Read {} live rows and 0 tombstone cells",
                metrics.rows_returned
            ),
            at(90),
        ));
    }
    out
}

/// The token of an EXECUTE's bound key and the replicas the coordinator
/// contacts for it, as the planner chooses them for a literal key.
fn bound_route(
    session: &Session,
    request: &TraceRequest,
    plan: &Plan,
) -> Option<(String, Vec<String>)> {
    let key = request.facts.bound_key.as_ref()?;
    let components: Vec<&[u8]> = key.iter().map(Vec::as_slice).collect();
    let token = token_of(&components).ok()?;
    let ctx = session.context();
    let keyspace = plan.table.split_once('.').map(|(ks, _)| ks)?;
    let replication = &ctx.catalog.keyspace(keyspace)?.replication;
    let (ring, level, coordinator) = (
        &ctx.ring,
        request.facts.consistency,
        NodeIndex(request.node),
    );
    let replicas = if is_read(plan) {
        plan_read(ring, replication, token, level, coordinator)
    } else {
        plan_write(ring, replication, token, level, coordinator)
    };
    let names = replicas
        .ok()?
        .contacts
        .into_iter()
        .map(|n| ring.node(n).id.clone())
        .collect();
    Some((token.to_string(), names))
}

fn is_read(plan: &Plan) -> bool {
    plan.statement.to_string().eq_ignore_ascii_case("select")
}

fn address(session: &Session, node: usize) -> IpAddr {
    let ring = &session.context().ring;
    if node < ring.len() {
        IpAddr::V4(ring.node(NodeIndex(node)).address)
    } else {
        IpAddr::V4(std::net::Ipv4Addr::LOCALHOST)
    }
}

fn named_address(session: &Session, name: &str) -> IpAddr {
    let ring = &session.context().ring;
    match ring.lookup(name) {
        Ok(index) => IpAddr::V4(ring.node(index).address),
        Err(_) => IpAddr::V4(std::net::Ipv4Addr::LOCALHOST),
    }
}
