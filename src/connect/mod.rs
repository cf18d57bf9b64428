//! Connect mode: widerow's shell, EXPLAIN and lint in front of a real
//! Cassandra or ScyllaDB cluster (or `widerow serve`), through the `scylla`
//! driver.
//!
//! The cluster executes; widerow plans. A [`Cluster`] is one driver session
//! with its own small runtime (one worker thread, where the driver keeps its
//! connections), used from blocking code as the shell is: each statement
//! waits for its answer. Its answers come back as [`ResultSet`]s
//! ([`rows`] reads them with the server's own value codec), so the shell's
//! renderers, JSON Lines and CSV print a cluster's rows exactly as they
//! print widerow's. [`mirror`] copies the cluster's schema and token ring
//! into a data-less [`crate::Session`], on which the planner explains and
//! the linter judges a statement before it is sent.

mod bind;
pub mod errors;
pub mod mirror;
pub mod routing;
pub mod rows;
pub mod tls;

use std::fmt;
use std::time::Duration;

use scylla::client::execution_profile::ExecutionProfile;
use scylla::client::session::Session as DriverSession;
use scylla::client::session_builder::SessionBuilder;
use scylla::frame::types::{Consistency, SerialConsistency};
use scylla::response::query_result::QueryResult;
use scylla::response::{PagingState, PagingStateResponse};
use scylla::statement::prepared::PreparedStatement;
use scylla::statement::unprepared::Statement;

use crate::cluster::ConsistencyLevel;
use crate::error::{Error, ErrorKind};
use crate::exec::{ColumnSpec, ResultSet, Rows};
use crate::types::Value;

/// cqlsh's defaults for `--connect-timeout` and `--request-timeout`.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// See [`DEFAULT_CONNECT_TIMEOUT`].
pub const DEFAULT_REQUEST_TIMEOUT: Duration = Duration::from_secs(10);

/// How widerow reads the cluster's own system tables: at ONE, in pages.
pub const SYSTEM_READ: Request = Request {
    consistency: ConsistencyLevel::One,
    serial_consistency: ConsistencyLevel::Serial,
    page_size: Some(5000),
    tracing: false,
};

/// How often the shell asks whether the cluster's schema changed under it.
pub const SCHEMA_CHECK_INTERVAL: Duration = Duration::from_secs(1);

/// Where the cluster is and how to log in, as cqlsh's flags give them.
#[derive(Debug, Clone)]
pub struct ConnectOptions {
    /// A contact point: host name or address.
    pub host: String,
    /// Its native-protocol port (9042 unless told).
    pub port: u16,
    /// Credentials for PasswordAuthenticator, when the cluster asks.
    pub credentials: Option<(String, String)>,
    /// How long the first connection may take.
    pub connect_timeout: Duration,
    /// How long one request may take before the client gives up.
    pub request_timeout: Duration,
    /// TLS, when `--ssl` asks for it.
    pub tls: Option<tls::TlsOptions>,
}

impl ConnectOptions {
    /// `HOST`, `HOST:PORT` or `[V6]:PORT`, with cqlsh's defaults for the rest.
    pub fn parse(target: &str) -> Result<ConnectOptions, String> {
        let (host, port) = split_host_port(target)?;
        Ok(ConnectOptions {
            host,
            port,
            credentials: None,
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
            request_timeout: DEFAULT_REQUEST_TIMEOUT,
            tls: None,
        })
    }
}

fn split_host_port(target: &str) -> Result<(String, u16), String> {
    let target = target.trim();
    let bad = || format!("--connect: expected HOST or HOST:PORT, got '{target}'");
    if target.is_empty() {
        return Err(bad());
    }
    if let Some(rest) = target.strip_prefix('[') {
        let (host, after) = rest.split_once(']').ok_or_else(bad)?;
        let port = match after.strip_prefix(':') {
            Some(port) => port.parse().map_err(|_| bad())?,
            None if after.is_empty() => 9042,
            None => return Err(bad()),
        };
        return Ok((host.to_string(), port));
    }
    match target.rsplit_once(':') {
        Some((host, port)) if !host.contains(':') => {
            let port = port.parse().map_err(|_| bad())?;
            if host.is_empty() {
                return Err(bad());
            }
            Ok((host.to_string(), port))
        }
        _ => Ok((target.to_string(), 9042)),
    }
}

pub use crate::shell::remote::{ClusterTrace, RemoteRequest as Request, Sent, TraceEvent};

/// How the driver reaches a node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reach {
    /// It has connections open to it.
    Connected,
    /// It had, and has none now.
    Lost,
    /// It has not had any yet.
    NotYet,
}

/// One connection to a real cluster.
pub struct Cluster {
    runtime: tokio::runtime::Runtime,
    driver: DriverSession,
    contact: String,
    /// Statements prepared so far, by text: COPY FROM binds one statement
    /// for every row and prepares it once.
    prepared: std::sync::Mutex<std::collections::HashMap<String, PreparedStatement>>,
    /// The schema version (`system.local`) the mirror was made at, and
    /// when it was last compared with the cluster's.
    mirrored: std::sync::Mutex<Option<(Value, std::time::Instant)>>,
    /// The nodes (by host id) the driver has had connections to.
    reached: std::sync::Mutex<std::collections::HashSet<uuid::Uuid>>,
}

impl fmt::Debug for Cluster {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Cluster")
            .field("contact", &self.contact)
            .finish_non_exhaustive()
    }
}

impl Cluster {
    /// Connects, or says why not: no node answering, a refused login.
    pub fn open(options: &ConnectOptions) -> Result<Cluster, Error> {
        // One worker thread: the driver's own tasks (topology events,
        // keepalives) run while the shell waits for its user.
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .map_err(|e| Error::new(ErrorKind::ServerError, format!("no runtime: {e}")))?;
        let contact = match options.host.contains(':') {
            true => format!("[{}]:{}", options.host, options.port),
            false => format!("{}:{}", options.host, options.port),
        };
        let policy: std::sync::Arc<dyn scylla::policies::load_balancing::LoadBalancingPolicy> =
            std::sync::Arc::new(routing::FirstReplica);
        let profile = ExecutionProfile::builder()
            .request_timeout(Some(options.request_timeout))
            .load_balancing_policy(policy)
            .build();
        let mut builder = SessionBuilder::new()
            .known_node(&contact)
            .connection_timeout(options.connect_timeout)
            .default_execution_profile_handle(profile.into_handle());
        if let Some((user, password)) = &options.credentials {
            builder = builder.user(user, password);
        }
        if let Some(tls) = &options.tls {
            let config = tls::client_config(tls)
                .map_err(|e| Error::new(ErrorKind::NoHostAvailable, format!("--ssl: {e}")))?;
            builder = builder.tls_context(Some(config));
        }
        let driver = runtime
            .block_on(async {
                tokio::time::timeout(options.connect_timeout * 2, builder.build()).await
            })
            .map_err(|_| {
                Error::new(
                    ErrorKind::NoHostAvailable,
                    format!(
                        "Unable to connect to any servers: {contact} did not answer within {} ms",
                        options.connect_timeout.as_millis()
                    ),
                )
            })?
            .map_err(errors::connection)?;
        Ok(Cluster {
            runtime,
            driver,
            contact,
            prepared: Default::default(),
            mirrored: Default::default(),
            reached: Default::default(),
        })
    }

    /// The nodes the driver has lost, by address: each had connections
    /// open and has none now — a node that went down (the driver's pool
    /// empties when its connections close and reconnecting fails) and has
    /// not come back. A node the driver never reached is not counted: just
    /// after connecting its pool may still be filling.
    pub fn lost_nodes(&self) -> Vec<std::net::IpAddr> {
        self.node_states()
            .into_iter()
            .filter_map(|(address, state)| (state == Reach::Lost).then_some(address))
            .collect()
    }

    /// The nodes the driver has connections to now, by address.
    pub fn connected_nodes(&self) -> Vec<std::net::IpAddr> {
        self.node_states()
            .into_iter()
            .filter_map(|(address, state)| (state == Reach::Connected).then_some(address))
            .collect()
    }

    /// Each node's address and how the driver reaches it, remembering the
    /// ones it has reached.
    fn node_states(&self) -> Vec<(std::net::IpAddr, Reach)> {
        let Ok(mut reached) = self.reached.lock() else {
            return Vec::new();
        };
        let state = self.driver.get_cluster_state();
        let mut states = Vec::new();
        for node in state.get_nodes_info() {
            let reach = if node.is_connected() {
                reached.insert(node.host_id);
                Reach::Connected
            } else if reached.contains(&node.host_id) {
                Reach::Lost
            } else {
                Reach::NotYet
            };
            states.push((node.address.ip(), reach));
        }
        states
    }

    /// Remembers the cluster's schema version as the one the mirror was
    /// made at.
    fn mark_mirrored(&self) {
        let version = self.schema_version().unwrap_or(Value::Null);
        if let Ok(mut seen) = self.mirrored.lock() {
            *seen = Some((version, std::time::Instant::now()));
        }
    }

    /// Whether the cluster's schema changed since the mirror was made (by
    /// another client; this shell's own changes are followed as they are
    /// sent). The version is asked for at most once every
    /// [`SCHEMA_CHECK_INTERVAL`], so a fast script pays nothing for it.
    pub fn changed_since_mirror(&self) -> bool {
        let Ok(mut seen) = self.mirrored.lock() else {
            return true;
        };
        let Some((version, checked)) = seen.as_mut() else {
            return true;
        };
        if checked.elapsed() < SCHEMA_CHECK_INTERVAL {
            return false;
        }
        *checked = std::time::Instant::now();
        let known = version.clone();
        drop(seen);
        self.schema_version().is_some_and(|now| now != known)
    }

    fn schema_version(&self) -> Option<Value> {
        let sent = self
            .execute("SELECT schema_version FROM system.local", &SYSTEM_READ)
            .ok()?;
        let row = sent.result.rows.first()?;
        row.first().cloned()
    }

    /// The contact point, as `HOST:PORT`.
    pub fn contact(&self) -> &str {
        &self.contact
    }

    /// Runs one statement's text on the cluster and gathers its answer,
    /// with the cluster's own trace when the request asks for one. Text
    /// carries no routing key, so the driver sends it to the first node by
    /// address ([`routing::FirstReplica`]), the coordinator the mirror
    /// predicts for it.
    pub fn execute(&self, cql: &str, request: &Request) -> Result<Sent, Error> {
        let statement = Sendable::Simple(Statement::new(cql.to_string()));
        self.runtime.block_on(self.send(statement, &[], request))
    }

    /// Prepares `cql` (with `?` markers) and runs it with `values` bound, as
    /// an application's prepared statements run: the driver computes the
    /// partition's token from the bound key and sends the statement to its
    /// first live replica. COPY FROM writes through this.
    pub fn execute_bound(
        &self,
        cql: &str,
        values: &[crate::types::Value],
        request: &Request,
    ) -> Result<Sent, Error> {
        let cached = self
            .prepared
            .lock()
            .ok()
            .and_then(|cache| cache.get(cql).cloned());
        self.runtime.block_on(async {
            let prepared = match cached {
                Some(prepared) => prepared,
                None => {
                    let prepared = self
                        .driver
                        .prepare(cql.to_string())
                        .await
                        .map_err(|e| errors::execution(e.into()))?;
                    if let Ok(mut cache) = self.prepared.lock() {
                        cache.insert(cql.to_string(), prepared.clone());
                    }
                    prepared
                }
            };
            self.send(Sendable::Prepared(prepared), values, request)
                .await
        })
    }

    async fn send(
        &self,
        mut sendable: Sendable,
        values: &[crate::types::Value],
        request: &Request,
    ) -> Result<Sent, Error> {
        let consistency = errors::driver_consistency(request.consistency)?;
        let serial = match request.serial_consistency {
            ConsistencyLevel::LocalSerial => SerialConsistency::LocalSerial,
            _ => SerialConsistency::Serial,
        };
        let page_size = request
            .page_size
            .map(|size| i32::try_from(size.max(1)).unwrap_or(i32::MAX));
        sendable.configure(consistency, serial, page_size, request.tracing);
        let bound = bind::Bound::new(values)?;
        let (result, trace_id) = self.gather(&sendable, &bound, page_size.is_some()).await?;
        let trace = match trace_id {
            Some(id) if request.tracing => Some(self.trace(id).await?),
            _ => None,
        };
        Ok(Sent { result, trace })
    }

    /// Every page of the answer, with the first page's trace id.
    async fn gather(
        &self,
        sendable: &Sendable,
        bound: &bind::Bound,
        paged: bool,
    ) -> Result<(ResultSet, Option<uuid::Uuid>), Error> {
        let mut state = PagingState::start();
        let mut warnings = Vec::new();
        let mut gathered: Option<(Vec<ColumnSpec>, Rows)> = None;
        let mut trace_id = None;
        loop {
            let (result, next) = sendable.send(&self.driver, bound, paged, state).await?;
            trace_id = trace_id.or(result.tracing_id());
            warnings.extend(result.warnings().map(str::to_string));
            if !result.is_rows() {
                let mut ok = ResultSet::ok();
                ok.warnings = warnings;
                return Ok((ok, trace_id));
            }
            let page = result
                .into_rows_result()
                .map_err(|e| Error::new(ErrorKind::ServerError, format!("unreadable rows: {e}")))?;
            let (columns, all) = match &mut gathered {
                Some(gathered) => gathered,
                None => {
                    let columns = rows::columns(&page)?;
                    let all = Rows::with_capacity(columns.len(), 0);
                    gathered.insert((columns, all))
                }
            };
            rows::append(&page, columns, all)?;
            match next {
                PagingStateResponse::HasMorePages { state: more } => state = more,
                PagingStateResponse::NoMorePages => break,
            }
        }
        let (columns, all) = gathered.unwrap_or_default();
        Ok((rows::result(columns, all, warnings), trace_id))
    }

    /// The cluster's trace of one request, as `system_traces` holds it.
    async fn trace(&self, id: uuid::Uuid) -> Result<ClusterTrace, Error> {
        let info = self.driver.get_tracing_info(&id).await.map_err(|e| {
            Error::new(
                ErrorKind::ServerError,
                format!("the cluster's trace {id} could not be read: {e}"),
            )
        })?;
        let address =
            |ip: Option<std::net::IpAddr>| ip.map(|ip| ip.to_string()).unwrap_or_default();
        Ok(ClusterTrace {
            session_id: id.to_string(),
            coordinator: address(info.coordinator),
            duration_micros: info.duration,
            events: info
                .events
                .iter()
                .map(|event| TraceEvent {
                    activity: event.activity.clone().unwrap_or_default(),
                    source: address(event.source),
                    source_elapsed: event.source_elapsed,
                })
                .collect(),
        })
    }
}

/// A statement as it goes to the driver: as text, or prepared.
enum Sendable {
    Simple(Statement),
    Prepared(PreparedStatement),
}

impl Sendable {
    fn configure(
        &mut self,
        consistency: Consistency,
        serial: SerialConsistency,
        page_size: Option<i32>,
        tracing: bool,
    ) {
        match self {
            Sendable::Simple(s) => {
                s.set_consistency(consistency);
                s.set_serial_consistency(Some(serial));
                s.set_tracing(tracing);
                if let Some(size) = page_size {
                    s.set_page_size(size);
                }
            }
            Sendable::Prepared(p) => {
                p.set_consistency(consistency);
                p.set_serial_consistency(Some(serial));
                p.set_tracing(tracing);
                if let Some(size) = page_size {
                    p.set_page_size(size);
                }
            }
        }
    }

    /// One page (or, unpaged, the whole answer).
    async fn send(
        &self,
        driver: &DriverSession,
        bound: &bind::Bound,
        paged: bool,
        state: PagingState,
    ) -> Result<(QueryResult, PagingStateResponse), Error> {
        let unpaged = |result| (result, PagingStateResponse::NoMorePages);
        match (self, paged) {
            (Sendable::Simple(s), true) => driver.query_single_page(s.clone(), bound, state).await,
            (Sendable::Simple(s), false) => {
                driver.query_unpaged(s.clone(), bound).await.map(unpaged)
            }
            (Sendable::Prepared(p), true) => driver.execute_single_page(p, bound, state).await,
            (Sendable::Prepared(p), false) => driver.execute_unpaged(p, bound).await.map(unpaged),
        }
        .map_err(errors::execution)
    }
}

impl crate::shell::Remote for Cluster {
    fn execute(&mut self, cql: &str, request: &Request) -> Result<Sent, Error> {
        Cluster::execute(self, cql, request)
    }

    fn execute_bound(
        &mut self,
        cql: &str,
        values: &[crate::types::Value],
        request: &Request,
    ) -> Result<Sent, Error> {
        Cluster::execute_bound(self, cql, values, request)
    }

    fn mirror(&mut self) -> Result<(crate::Session, Vec<String>), Error> {
        mirror::mirror(self)
    }

    fn contact(&self) -> String {
        self.contact.clone()
    }

    fn changed(&mut self) -> bool {
        self.changed_since_mirror()
    }

    fn lost_nodes(&mut self) -> Vec<std::net::IpAddr> {
        Cluster::lost_nodes(self)
    }
}
