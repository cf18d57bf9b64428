//! `widerow web`: the demo page, on a session built from the same flags as
//! every other mode (`--schema`, `--nodes`, `--datacenters`,
//! `--consistency`, `widerow.toml`) with the seed's models loaded on top.
//! It prints one line when it listens (`listening on http://HOST:PORT`),
//! exits 0 on SIGTERM or Ctrl-C, and 1 when it could not start.

use std::process::ExitCode;

use widerow::web::{Config, WebServer};

use super::args::{Cli, WebArgs};

/// Serves the page until told to stop.
pub fn run(args: &WebArgs, cli: &Cli) -> ExitCode {
    if cli.connect.connect.is_some() {
        eprintln!(
            "widerow: --connect cannot be combined with `widerow web`: the page runs its own \
             in-memory session"
        );
        return ExitCode::from(1);
    }
    if cli.cluster.coordinator.is_some() {
        eprintln!(
            "widerow: --coordinator cannot be combined with `widerow web`: the page picks the \
             coordinator"
        );
        return ExitCode::from(1);
    }
    let mut session = match super::serve::session_to_serve(cli) {
        Ok(session) => session,
        Err(message) => {
            eprintln!("widerow: {message}");
            return ExitCode::from(1);
        }
    };
    if let Err(e) = widerow::web::presets::load(&mut session) {
        eprintln!(
            "widerow: the demo's models could not be loaded: {}",
            e.message()
        );
        return ExitCode::from(1);
    }
    let runtime = match super::serve::runtime() {
        Ok(runtime) => runtime,
        Err(message) => {
            eprintln!("widerow: {message}");
            return ExitCode::from(1);
        }
    };
    let config = Config {
        host: args.host,
        port: args.port,
        ..Config::default()
    };
    runtime.block_on(async move {
        let server = match WebServer::bind(session, config).await {
            Ok(server) => server,
            Err(e) => {
                eprintln!("widerow: cannot listen on {}:{}: {e}", args.host, args.port);
                return ExitCode::from(1);
            }
        };
        match server.local_addr() {
            Ok(addr) => println!("listening on http://{addr}"),
            Err(e) => {
                eprintln!("widerow: {e}");
                return ExitCode::from(1);
            }
        }
        server.run(super::serve::stop_signal()).await;
        ExitCode::SUCCESS
    })
}
