//! `widerow serve`: the native protocol server in front of a session built
//! from the same flags as every other mode (`--schema`, `--nodes`,
//! `--datacenters`, `widerow.toml`). It prints one line when it listens and
//! exits 0 on SIGTERM or Ctrl-C once every connection is closed; 1 when it
//! could not start (a bad flag, a schema statement that fails, an address
//! in use).

use std::process::ExitCode;

use widerow::server::{Config, Server};

use super::args::{Cli, ServeArgs};
use super::session;

/// Runs the server until it is told to stop.
pub fn run(args: &ServeArgs, cli: &Cli) -> ExitCode {
    if cli.connect.connect.is_some() {
        eprintln!(
            "widerow: --connect cannot be combined with `widerow serve`: the server serves its \
             own in-memory cluster"
        );
        return ExitCode::from(1);
    }
    if cli.cluster.coordinator.is_some() {
        eprintln!(
            "widerow: --coordinator cannot be combined with `widerow serve`: the node a request \
             arrives on is its coordinator"
        );
        return ExitCode::from(1);
    }
    let session = match super::serve::session_to_serve(cli) {
        Ok(session) => session,
        Err(message) => {
            eprintln!("widerow: {message}");
            return ExitCode::from(1);
        }
    };
    let runtime = match super::serve::runtime() {
        Ok(runtime) => runtime,
        Err(message) => {
            eprintln!("widerow: {message}");
            return ExitCode::from(1);
        }
    };
    let tls = match tls(args) {
        Ok(tls) => tls,
        Err(message) => {
            eprintln!("widerow: {message}");
            return ExitCode::from(1);
        }
    };
    let config = Config {
        host: args.host,
        port: args.port,
        max_frame: args.max_frame_size,
        timeouts: widerow::deadline::Timeouts {
            read: std::time::Duration::from_millis(args.read_request_timeout),
            range: std::time::Duration::from_millis(args.range_request_timeout),
            write: std::time::Duration::from_millis(args.write_request_timeout),
        },
        auth: args.auth,
        in_flight: widerow::server::inflight::Limits {
            total: args.max_request_data_in_flight,
            per_ip: args.max_request_data_in_flight_per_ip,
        },
        tls,
    };
    runtime.block_on(async move {
        let server = match Server::bind(session, config).await {
            Ok(server) => server,
            Err(e) => {
                eprintln!("widerow: cannot listen on {}:{}: {e}", args.host, args.port);
                return ExitCode::from(1);
            }
        };
        match server.local_addr() {
            Ok(addr) => println!("listening on {addr}"),
            Err(e) => {
                eprintln!("widerow: {e}");
                return ExitCode::from(1);
            }
        }
        server.run(stop_signal()).await;
        ExitCode::SUCCESS
    })
}

/// The session a server serves (`serve`, `web`): the flags' cluster and
/// schema file, which must run without a failure; an `Err` is the message
/// of a start that failed (exit 1).
pub(super) fn session_to_serve(cli: &Cli) -> Result<widerow::Session, String> {
    match session::start_session(&cli.cluster, cli.config.as_deref(), true)? {
        (_, failures) if failures > 0 => Err("the schema file failed; not serving".into()),
        (session, _) => Ok(session),
    }
}

/// The runtime the binary's servers run on, built in this one place.
pub(super) fn runtime() -> Result<tokio::runtime::Runtime, String> {
    widerow::server::runtime_builder()
        .build()
        .map_err(|e| format!("could not start the server's runtime: {e}"))
}

/// Completes on SIGTERM or SIGINT (Ctrl-C).
pub(super) async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        if let Ok(mut term) = signal(SignalKind::terminate()) {
            tokio::select! {
                _ = term.recv() => {}
                _ = tokio::signal::ctrl_c() => {}
            }
            return;
        }
    }
    let _ = tokio::signal::ctrl_c().await;
}

/// The server's TLS from `--ssl-cert` and its companions, or why it
/// cannot be made.
fn tls(args: &ServeArgs) -> Result<Option<widerow::server::tls::Tls>, String> {
    let (Some(cert), Some(key)) = (&args.ssl_cert, &args.ssl_key) else {
        return Ok(None);
    };
    let files = widerow::server::tls::TlsFiles {
        cert: cert.clone(),
        key: key.clone(),
        optional: args.ssl_optional,
        client_ca: args.ssl_client_ca.clone(),
    };
    widerow::server::tls::Tls::new(&files)
        .map(Some)
        .map_err(|e| format!("--ssl-cert: {e}"))
}
