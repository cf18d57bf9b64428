//! Connect mode: widerow's shell, EXPLAIN and lint in front of a real
//! Cassandra or ScyllaDB cluster (or `widerow serve`), through the `scylla`
//! driver.
//!
//! The cluster executes; widerow plans. A [`Cluster`] is one driver session
//! with its own small runtime, used from blocking code as the shell is:
//! each statement waits for its answer, so the runtime runs only while a
//! request is out. Its answers come back as [`ResultSet`]s
//! ([`rows`] reads them with the server's own value codec), so the shell's
//! renderers, JSON Lines and CSV print a cluster's rows exactly as they
//! print widerow's. [`mirror`] copies the cluster's schema and token ring
//! into a data-less [`crate::Session`], on which the planner explains and
//! the linter judges a statement before it is sent.

pub mod errors;
pub mod mirror;
pub mod rows;

use std::fmt;
use std::time::Duration;

use scylla::client::execution_profile::ExecutionProfile;
use scylla::client::session::Session as DriverSession;
use scylla::client::session_builder::SessionBuilder;
use scylla::frame::types::SerialConsistency;
use scylla::response::{PagingState, PagingStateResponse};
use scylla::statement::unprepared::Statement;

use crate::cluster::ConsistencyLevel;
use crate::error::{Error, ErrorKind};
use crate::exec::ResultSet;

/// cqlsh's defaults for `--connect-timeout` and `--request-timeout`.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// See [`DEFAULT_CONNECT_TIMEOUT`].
pub const DEFAULT_REQUEST_TIMEOUT: Duration = Duration::from_secs(10);

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

/// How one statement is sent: the shell's CONSISTENCY, SERIAL CONSISTENCY
/// and PAGING.
#[derive(Debug, Clone, Copy)]
pub struct Request {
    /// The consistency level.
    pub consistency: ConsistencyLevel,
    /// The serial consistency of conditional updates.
    pub serial_consistency: ConsistencyLevel,
    /// Rows per page; `None` sends the statement unpaged. Every page is
    /// fetched: the shell pages its output, not the cluster's answer.
    pub page_size: Option<usize>,
}

/// One connection to a real cluster.
pub struct Cluster {
    runtime: tokio::runtime::Runtime,
    driver: DriverSession,
    contact: String,
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
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| Error::new(ErrorKind::ServerError, format!("no runtime: {e}")))?;
        let contact = match options.host.contains(':') {
            true => format!("[{}]:{}", options.host, options.port),
            false => format!("{}:{}", options.host, options.port),
        };
        let profile = ExecutionProfile::builder()
            .request_timeout(Some(options.request_timeout))
            .build();
        let mut builder = SessionBuilder::new()
            .known_node(&contact)
            .connection_timeout(options.connect_timeout)
            .default_execution_profile_handle(profile.into_handle())
            .fetch_schema_metadata(false);
        if let Some((user, password)) = &options.credentials {
            builder = builder.user(user, password);
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
        })
    }

    /// The contact point, as `HOST:PORT`.
    pub fn contact(&self) -> &str {
        &self.contact
    }

    /// Runs one statement on the cluster and gathers its answer.
    pub fn execute(&self, cql: &str, request: &Request) -> Result<ResultSet, Error> {
        let mut statement = Statement::new(cql.to_string());
        statement.set_consistency(errors::driver_consistency(request.consistency)?);
        statement.set_serial_consistency(Some(match request.serial_consistency {
            ConsistencyLevel::LocalSerial => SerialConsistency::LocalSerial,
            _ => SerialConsistency::Serial,
        }));
        self.runtime.block_on(async {
            match request.page_size {
                None => {
                    let result = self
                        .driver
                        .query_unpaged(statement, ())
                        .await
                        .map_err(errors::execution)?;
                    let warnings = result.warnings().map(str::to_string).collect();
                    if !result.is_rows() {
                        let mut ok = ResultSet::ok();
                        ok.warnings = warnings;
                        return Ok(ok);
                    }
                    let rows = result.into_rows_result().map_err(|e| {
                        Error::new(ErrorKind::ServerError, format!("unreadable rows: {e}"))
                    })?;
                    let (columns, page) = rows::page(&rows)?;
                    Ok(rows::gather(columns, vec![page], warnings))
                }
                Some(size) => {
                    statement.set_page_size(i32::try_from(size.max(1)).unwrap_or(i32::MAX));
                    self.paged(statement).await
                }
            }
        })
    }

    async fn paged(&self, statement: Statement) -> Result<ResultSet, Error> {
        let mut state = PagingState::start();
        let mut pages = Vec::new();
        let mut warnings = Vec::new();
        let mut columns = None;
        loop {
            let (result, next) = self
                .driver
                .query_single_page(statement.clone(), (), state)
                .await
                .map_err(errors::execution)?;
            warnings.extend(result.warnings().map(str::to_string));
            if !result.is_rows() {
                let mut ok = ResultSet::ok();
                ok.warnings = warnings;
                return Ok(ok);
            }
            let rows = result
                .into_rows_result()
                .map_err(|e| Error::new(ErrorKind::ServerError, format!("unreadable rows: {e}")))?;
            let (page_columns, page) = rows::page(&rows)?;
            columns.get_or_insert(page_columns);
            pages.push(page);
            match next {
                PagingStateResponse::HasMorePages { state: more } => state = more,
                PagingStateResponse::NoMorePages => break,
            }
        }
        Ok(rows::gather(columns.unwrap_or_default(), pages, warnings))
    }
}

impl crate::shell::Remote for Cluster {
    fn execute(
        &mut self,
        cql: &str,
        consistency: ConsistencyLevel,
        serial_consistency: ConsistencyLevel,
        page_size: Option<usize>,
    ) -> Result<ResultSet, Error> {
        let request = Request {
            consistency,
            serial_consistency,
            page_size,
        };
        Cluster::execute(self, cql, &request)
    }

    fn mirror(&mut self) -> Result<(crate::Session, Vec<String>), Error> {
        mirror::mirror(self)
    }

    fn contact(&self) -> String {
        self.contact.clone()
    }
}
