//! `widerow serve`: the CQL native protocol (v4 and v5) in front of one
//! shared [`crate::Session`], so real drivers, cqlsh and applications' test
//! suites talk to widerow as they would to a Cassandra node.
//!
//! The stages, each in its own file: [`frame`] cuts the byte stream into
//! frames (v5 adds [`segment`]'s checksummed segments once a connection is
//! started, [`compression`] compresses v4 bodies); [`wire`]
//! reads and writes the protocol's primitive notations; [`values`] turns
//! cells into bytes and back by their CQL type; [`request`] decodes a
//! request body and [`response`] encodes the answer; [`connection`] runs one
//! connection as one task; [`handler`] answers a request against the shared
//! session. Nothing here panics on bytes from the network: a malformed frame
//! is a protocol error on that connection and no other.

pub mod compression;
pub mod connection;
pub mod control;
pub mod describe;
pub mod executor;
pub mod frame;
pub mod handler;
pub mod inflight;
mod paging;
pub mod request;
pub mod response;
pub mod segment;
#[cfg(feature = "tls")]
pub mod tls;
pub mod topology;
pub mod trace;
pub mod unset;
pub mod values;
pub mod wire;

use std::future::Future;
use std::io;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;

use tokio::net::TcpListener;
use tokio::sync::{broadcast, mpsc, watch};
use tokio::task::JoinSet;

use crate::Session;

pub use handler::Shared;
use topology::{Answers, NewListener, Topology};

/// Cassandra's default `native_transport_max_frame_size` (16 MiB): a frame
/// with a longer body is refused.
pub const DEFAULT_MAX_FRAME: u32 = 16 * 1024 * 1024;

/// Where and how a server listens.
#[derive(Debug, Clone)]
pub struct Config {
    /// The address of node1. On 127.0.0.1 (the default) every simulated
    /// node also answers on its own loopback address (node2 on 127.0.0.2,
    /// …) on the same port; elsewhere only node1 answers, on this address.
    pub host: IpAddr,
    /// The port; 0 picks one that is free on every node's address.
    pub port: u16,
    /// The largest frame body accepted.
    pub max_frame: u32,
    /// How long reads may run before they stop with ReadTimeout
    /// (Cassandra's defaults unless told).
    pub timeouts: crate::deadline::Timeouts,
    /// Require a login with Cassandra's PasswordAuthenticator (off by
    /// default, as Cassandra's AllowAllAuthenticator): STARTUP is answered
    /// with AUTHENTICATE and nothing else is served before AUTH_RESPONSE
    /// logs in.
    pub auth: bool,
    /// The bytes of requests a server holds in flight, and each client
    /// address: past them a request is refused with Overloaded or its
    /// connection paused (see [`inflight`]).
    pub in_flight: inflight::Limits,
    /// TLS on every node's port (none by default, as a node's
    /// `client_encryption_options`).
    #[cfg(feature = "tls")]
    pub tls: Option<tls::Tls>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            host: IpAddr::V4(Ipv4Addr::LOCALHOST),
            port: 9042,
            max_frame: DEFAULT_MAX_FRAME,
            timeouts: crate::deadline::Timeouts::default(),
            auth: false,
            in_flight: inflight::Limits::default(),
            #[cfg(feature = "tls")]
            tls: None,
        }
    }
}

/// A bound server: its listeners, one per node address, and the shared
/// session behind them. [`Server::run`] accepts until shut down.
#[derive(Debug)]
pub struct Server {
    listeners: Vec<(Answers, TcpListener)>,
    /// Listeners of nodes that join while the server runs.
    joining: mpsc::UnboundedReceiver<NewListener>,
    shared: Arc<Shared>,
    events: broadcast::Sender<connection::Event>,
    config: Config,
}

impl Server {
    /// Binds every node's address for `session`'s ring.
    pub async fn bind(session: Session, config: Config) -> io::Result<Server> {
        let addresses = node_addresses(&session, config.host);
        let listeners = bind_all(&addresses, config.port).await?;
        let mut session = session;
        let port = match listeners.first() {
            Some((_, first)) => first.local_addr()?.port(),
            None => config.port,
        };
        session.set_native_port(port);
        session.set_timeouts(Some(config.timeouts));
        let (events, _) = broadcast::channel(1024);
        let (join, joining) = mpsc::unbounded_channel();
        let listening = listeners.iter().filter_map(|(answers, _)| match answers {
            Answers::Address(address) => Some(*address),
            Answers::FirstNode => None,
        });
        let topology = Topology::new(
            &session.context().ring,
            config.host,
            port,
            listening,
            Some(join),
        );
        let shared = Shared::new(session, topology).with_in_flight(config.in_flight);
        Ok(Server {
            listeners,
            joining,
            shared: Arc::new(shared),
            events,
            config,
        })
    }

    /// The address node1 answers on (the one to print and connect to).
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        match self.listeners.first() {
            Some((_, l)) => l.local_addr(),
            None => Err(io::Error::other("the server listens nowhere")),
        }
    }

    /// Every address the server answers on, node by node.
    pub fn addresses(&self) -> Vec<SocketAddr> {
        self.shared.addresses()
    }

    /// The session every connection shares.
    pub fn shared(&self) -> Arc<Shared> {
        self.shared.clone()
    }

    /// Accepts connections until `shutdown` completes, then closes every
    /// connection and returns. Nodes that join meanwhile are listened on
    /// too.
    pub async fn run(mut self, shutdown: impl Future<Output = ()>) {
        let (stop, stopped) = watch::channel(false);
        let mut tasks = JoinSet::new();
        let ctx = connection::Context {
            shared: self.shared.clone(),
            events: self.events.clone(),
            answers: Answers::FirstNode,
            node: 0,
            max_frame: self.config.max_frame,
            auth: self.config.auth,
            #[cfg(feature = "tls")]
            tls: self.config.tls.clone(),
        };
        let listen = |answers, listener| {
            let ctx = connection::Context {
                answers,
                ..ctx.clone()
            };
            accept(listener, ctx, stopped.clone())
        };
        for (answers, listener) in self.listeners {
            tasks.spawn(listen(answers, listener));
        }
        tokio::pin!(shutdown);
        loop {
            tokio::select! {
                () = &mut shutdown => break,
                Some((answers, listener)) = self.joining.recv() => {
                    match TcpListener::from_std(listener) {
                        Ok(listener) => {
                            tasks.spawn(listen(answers, listener));
                        }
                        Err(e) => eprintln!("widerow serve: cannot listen for a new node: {e}"),
                    }
                }
            }
        }
        let _ = stop.send(true);
        while tasks.join_next().await.is_some() {}
    }
}

/// Accepts on one node's listener, one task per connection, while the node
/// is up and in the ring.
async fn accept(listener: TcpListener, ctx: connection::Context, stop: watch::Receiver<bool>) {
    let mut connections = JoinSet::new();
    let mut stop_here = stop.clone();
    let states = ctx.shared.node_states();
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                // A node taken down (`CLUSTER DOWN`) or out of the ring
                // hangs up at once.
                let node = ctx.answers.node(&states.borrow());
                if let (Ok((stream, _)), Some(node)) = (accepted, node) {
                    let ctx = connection::Context { node, ..ctx.clone() };
                    connections.spawn(connection::accepted(stream, ctx, stop.clone()));
                }
            }
            _ = stop_here.changed() => break,
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
        }
    }
    while connections.join_next().await.is_some() {}
}

/// How a server's runtime is built: a thread per core and never fewer
/// than two, as one of them may be running a long statement (see
/// [`executor`]); its blocking threads check logins (bcrypt is slow), at
/// most Cassandra's `native_transport_max_threads` (128) at once.
pub fn runtime_builder() -> tokio::runtime::Builder {
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    let mut builder = tokio::runtime::Builder::new_multi_thread();
    builder
        .enable_all()
        .worker_threads(cores.max(2))
        .max_blocking_threads(MAX_LOGIN_THREADS);
    builder
}

/// Cassandra's default `native_transport_max_threads`.
const MAX_LOGIN_THREADS: usize = 128;

/// The address each node answers on: the ring's loopback addresses when
/// the host is 127.0.0.1, else the host alone for node1.
fn node_addresses(session: &Session, host: IpAddr) -> Vec<(Answers, IpAddr)> {
    if host != IpAddr::V4(Ipv4Addr::LOCALHOST) {
        return vec![(Answers::FirstNode, host)];
    }
    session
        .context()
        .ring
        .nodes()
        .iter()
        .map(|n| (Answers::Address(n.address), IpAddr::V4(n.address)))
        .collect()
}

/// Binds `port` on every address; with port 0, the first address picks a
/// port and the others take the same one, trying again if one of them has
/// it taken.
async fn bind_all(
    addresses: &[(Answers, IpAddr)],
    port: u16,
) -> io::Result<Vec<(Answers, TcpListener)>> {
    let attempts = if port == 0 { 20 } else { 1 };
    let mut last_error = io::Error::other("no address to listen on");
    for _ in 0..attempts {
        match bind_once(addresses, port).await {
            Ok(listeners) => return Ok(listeners),
            Err(e) => last_error = e,
        }
    }
    Err(last_error)
}

async fn bind_once(
    addresses: &[(Answers, IpAddr)],
    port: u16,
) -> io::Result<Vec<(Answers, TcpListener)>> {
    let mut listeners = Vec::new();
    let mut port = port;
    for (node, ip) in addresses {
        let listener = TcpListener::bind(SocketAddr::new(*ip, port)).await?;
        port = listener.local_addr()?.port();
        listeners.push((*node, listener));
    }
    Ok(listeners)
}

/// A server running on its own thread and runtime, for tests: started on
/// a free port, stopped (connections closed) when dropped.
///
/// ```no_run
/// let server = widerow::server::TestServer::start(widerow::Session::new()).unwrap();
/// println!("connect to {}", server.addr());
/// ```
#[derive(Debug)]
pub struct TestServer {
    addr: SocketAddr,
    shared: Arc<Shared>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl TestServer {
    /// Starts a server for `session` on a free port of 127.0.0.1 (and of
    /// each other node's address).
    pub fn start(session: Session) -> io::Result<TestServer> {
        TestServer::start_with(session, Config::default())
    }

    /// [`TestServer::start`] with logins required, as `widerow serve
    /// --auth`: for tests of a client's authentication.
    pub fn start_with_auth(session: Session) -> io::Result<TestServer> {
        let config = Config {
            auth: true,
            ..Config::default()
        };
        TestServer::start_with(session, config)
    }

    /// [`TestServer::start`] with `config`'s settings (its host and frame
    /// limit, timeouts, logins), on a free port whatever `config.port` says.
    pub fn start_with(session: Session, config: Config) -> io::Result<TestServer> {
        let config = Config { port: 0, ..config };
        let runtime = runtime_builder().worker_threads(2).build()?;
        let server = runtime.block_on(Server::bind(session, config))?;
        let addr = server.local_addr()?;
        let shared = server.shared();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::spawn(move || {
            runtime.block_on(server.run(async {
                let _ = stopped.await;
            }));
        });
        Ok(TestServer {
            addr,
            shared,
            stop: Some(stop),
            thread: Some(thread),
        })
    }

    /// node1's address.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Every node's address, as the ring is now (`CLUSTER NODES` changes
    /// it).
    pub fn addresses(&self) -> Vec<SocketAddr> {
        self.shared.addresses()
    }

    /// The shared session, to seed or inspect data around a test.
    pub fn shared(&self) -> &Shared {
        &self.shared
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
