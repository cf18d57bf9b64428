//! `widerow web`: the seed's interactive demo as a page — pick a data
//! model and a query, run it, and see the wide row of the partitions it
//! touched beside the ring of nodes it reached, with the plan, the
//! metrics, Cassandra's refusal and the linter's advice, all from the same
//! [`Session`] every other mode runs.
//!
//! The HTTP layer is a small HTTP/1.1 written here on tokio ([`http`]):
//! the page needs GET of a handful of embedded files and POST of small
//! JSON bodies, nothing a framework adds (routing trees, middleware,
//! HTTP/2) earns its dependencies, and owning the parser keeps every bound
//! (header size, body size, idle time) explicit and tested. tokio stays at
//! this edge: the engine runs on blocking threads, one request at a time
//! per tab, under the session's statement deadlines.
//!
//! - [`api`]: routing, the Host/Origin checks, the JSON API.
//! - [`tabs`]: one session per browser tab, capped and expired.
//! - [`presets`]: the seed's models with data, and their queries.
//! - [`hbase`]: the same rows in HBase's ordered regions.
//! - [`assets`]: the page's files, compiled in.

pub mod api;
pub mod assets;
pub mod hbase;
pub mod http;
pub mod presets;
pub mod tabs;

use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use tokio::net::{TcpListener, TcpStream};

use crate::session::Session;

/// How the page is served.
#[derive(Debug, Clone)]
pub struct Config {
    /// The address to listen on (127.0.0.1 unless told otherwise).
    pub host: IpAddr,
    /// The port (0 picks a free one).
    pub port: u16,
    /// Most tabs open at once.
    pub max_tabs: usize,
    /// How long a tab may sit idle before it is forgotten.
    pub idle: Duration,
    /// The largest request body accepted, in bytes.
    pub max_body: usize,
    /// How long a tab's reads may run before they stop with ReadTimeout.
    pub timeouts: crate::deadline::Timeouts,
    /// Most connections served at once; more are closed at once.
    pub max_connections: usize,
}

impl Default for Config {
    /// The design map's default (127.0.0.1:8080), 64 tabs idle for at most
    /// 30 minutes, bodies up to 256 KiB, Cassandra's read timeouts, 256
    /// connections.
    fn default() -> Config {
        Config {
            host: IpAddr::from([127, 0, 0, 1]),
            port: 8080,
            max_tabs: 64,
            idle: Duration::from_secs(30 * 60),
            max_body: 256 * 1024,
            timeouts: crate::deadline::Timeouts::default(),
            max_connections: 256,
        }
    }
}

/// A bound server, ready to run.
#[derive(Debug)]
pub struct WebServer {
    listener: TcpListener,
    state: Arc<api::State>,
    max_body: usize,
    connections: Arc<tokio::sync::Semaphore>,
}

impl WebServer {
    /// Listens per `config`; each tab starts from a copy of `base`.
    pub async fn bind(base: Session, config: Config) -> std::io::Result<WebServer> {
        let listener = TcpListener::bind((config.host, config.port)).await?;
        let port = listener.local_addr()?.port();
        let mut hosts = vec![
            format!("127.0.0.1:{port}"),
            format!("localhost:{port}"),
            format!("[::1]:{port}"),
        ];
        let bound = SocketAddr::new(config.host, port).to_string();
        if !hosts.contains(&bound) {
            hosts.push(bound);
        }
        let state = api::State {
            tabs: tabs::Tabs::new(base, config.max_tabs, config.idle, config.timeouts),
            hosts,
            any_ip_host: config.host.is_unspecified(),
        };
        Ok(WebServer {
            listener,
            state: Arc::new(state),
            max_body: config.max_body,
            connections: Arc::new(tokio::sync::Semaphore::new(config.max_connections)),
        })
    }

    /// The address it listens on.
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Serves until `stop` completes; connections in flight are dropped.
    pub async fn run(self, stop: impl Future<Output = ()>) {
        tokio::pin!(stop);
        loop {
            tokio::select! {
                _ = &mut stop => return,
                accepted = self.listener.accept() => {
                    let Ok((stream, _)) = accepted else { continue };
                    let Ok(permit) = Arc::clone(&self.connections).try_acquire_owned() else {
                        continue;
                    };
                    let state = Arc::clone(&self.state);
                    let max_body = self.max_body;
                    tokio::spawn(async move {
                        connection(stream, state, max_body).await;
                        drop(permit);
                    });
                }
            }
        }
    }
}

/// Answers the requests of one connection, in order.
async fn connection(mut stream: TcpStream, state: Arc<api::State>, max_body: usize) {
    let mut buffer = Vec::new();
    loop {
        let request = match http::read_request(&mut stream, &mut buffer, max_body).await {
            Ok(request) => request,
            Err(http::ReadError::Closed) => return,
            Err(http::ReadError::Refused(status, reason)) => {
                let response = http::Response::error(status, reason);
                let _ = http::write_response(&mut stream, &response, true).await;
                linger(stream).await;
                return;
            }
        };
        let close = http::closes(&request);
        let state = Arc::clone(&state);
        let response = tokio::task::spawn_blocking(move || api::handle(&state, &request))
            .await
            .unwrap_or_else(|_| http::Response::error(500, "the request failed inside widerow"));
        if http::write_response(&mut stream, &response, close)
            .await
            .is_err()
            || close
        {
            return;
        }
    }
}

/// Most bytes read and dropped after a refusal.
const LINGER_BYTES: usize = 4 * 1024 * 1024;

/// Reads what a refused client is still sending (a body too large, say)
/// for a moment before closing: closing with unread input resets the
/// connection, and the client would lose the answer saying why.
async fn linger(mut stream: TcpStream) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let _ = stream.shutdown().await;
    let drain = async {
        let mut chunk = [0u8; 16 * 1024];
        let mut total = 0;
        while total < LINGER_BYTES {
            match stream.read(&mut chunk).await {
                Ok(0) | Err(_) => break,
                Ok(n) => total += n,
            }
        }
    };
    let _ = tokio::time::timeout(Duration::from_secs(2), drain).await;
}
