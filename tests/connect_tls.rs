//! Connect mode over TLS (`--ssl`, as cqlsh has it). The settings come
//! from cqlsh's `SSL_CERTFILE` / `SSL_VALIDATE` variables and cqlshrc's
//! `[ssl]` section; they are checked before anything is sent. Against the
//! real node — when `WIDEROW_CONNECT_ORACLE=HOST:PORT` names one and
//! `WIDEROW_CONNECT_ORACLE_TLS=DIR` holds its certificate (`node.pem`) and
//! one it does not have (`stranger.pem`), as `.ci/run` and
//! `scripts/cassandra/node` arrange — a validated connection reads rows, an
//! unvalidated one does too, and a certificate from the wrong authority is
//! a clear connection error.

use std::path::PathBuf;
use std::process::{Command, Output};

use widerow::server::TestServer;
use widerow::Session;

fn widerow(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_widerow"));
    command
        .args(args)
        .env("NO_COLOR", "1")
        .env("HOME", std::env::temp_dir())
        .env_remove("SSL_CERTFILE")
        .env_remove("SSL_VALIDATE")
        .env_remove("SSL_VERSION");
    for (name, value) in env {
        command.env(name, value);
    }
    command.output().expect("widerow runs")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).to_string()
}

/// The real node and the directory of its TLS material, when CI names them.
fn oracle() -> Option<(String, PathBuf)> {
    let target = std::env::var("WIDEROW_CONNECT_ORACLE").ok()?;
    let tls = std::env::var("WIDEROW_CONNECT_ORACLE_TLS").ok()?;
    Some((target, PathBuf::from(tls)))
}

const QUERY: &str = "SELECT cluster_name, release_version FROM system.local";

#[test]
fn validating_without_a_certfile_is_refused_as_cqlsh_refuses_it() {
    let out = widerow(&["--connect", "127.0.0.1:1", "--ssl", "-e", QUERY], &[]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("Validation is enabled; SSL transport factory requires a valid certfile")
            && err.contains(".cassandra/cqlshrc"),
        "{err}"
    );
}

#[test]
fn ssl_needs_connect() {
    let out = widerow(&["--ssl", "-e", "SELECT * FROM system.local"], &[]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("--connect"), "{}", stderr(&out));
}

#[test]
fn a_missing_certfile_is_named_before_anything_is_sent() {
    let out = widerow(
        &["--connect", "127.0.0.1:1", "--ssl", "-e", QUERY],
        &[("SSL_CERTFILE", "/nonexistent/ca.pem")],
    );
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("Connection error") && err.contains("/nonexistent/ca.pem"),
        "{err}"
    );
}

#[test]
fn a_server_without_tls_is_a_clear_connection_error() {
    let server = TestServer::start(Session::new()).expect("server starts");
    let out = widerow(
        &[
            "--connect",
            &server.addr().to_string(),
            "--ssl",
            "--connect-timeout",
            "3",
            "-e",
            QUERY,
        ],
        &[("SSL_VALIDATE", "false")],
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("Connection error"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn the_real_node_over_tls_validated_unvalidated_and_refused() {
    let Some((target, tls)) = oracle() else {
        eprintln!(
            "no WIDEROW_CONNECT_ORACLE / WIDEROW_CONNECT_ORACLE_TLS: the node's TLS is not tried"
        );
        return;
    };
    let node_pem = tls.join("node.pem");
    let stranger_pem = tls.join("stranger.pem");
    let args = ["--connect", &target, "--ssl", "-e", QUERY];

    let validated = widerow(&args, &[("SSL_CERTFILE", node_pem.to_str().unwrap())]);
    let rows = String::from_utf8_lossy(&validated.stdout).to_string();
    assert_eq!(validated.status.code(), Some(0), "{}", stderr(&validated));
    assert!(rows.contains("5.0.") && rows.contains("(1 rows)"), "{rows}");

    let plain = widerow(&["--connect", &target, "-e", QUERY], &[]);
    assert_eq!(plain.stdout, validated.stdout, "{}", stderr(&plain));

    let unvalidated = widerow(&args, &[("SSL_VALIDATE", "false")]);
    assert_eq!(
        unvalidated.stdout,
        validated.stdout,
        "{}",
        stderr(&unvalidated)
    );

    let refused = widerow(
        &[
            "--connect-timeout",
            "3",
            "--connect",
            &target,
            "--ssl",
            "-e",
            QUERY,
        ],
        &[("SSL_CERTFILE", stranger_pem.to_str().unwrap())],
    );
    assert_eq!(refused.status.code(), Some(1));
    let err = stderr(&refused);
    assert!(
        err.contains("Connection error") && err.contains("certificate"),
        "{err}"
    );
}

#[test]
fn cqlshrc_turns_ssl_on_and_names_the_certfile() {
    let Some((target, tls)) = oracle() else {
        eprintln!(
            "no WIDEROW_CONNECT_ORACLE / WIDEROW_CONNECT_ORACLE_TLS: the node's TLS is not tried"
        );
        return;
    };
    let dir = std::env::temp_dir().join(format!("widerow-tls-rc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let rc = dir.join("cqlshrc");
    std::fs::write(
        &rc,
        format!(
            "[connection]\nssl = true\n[ssl]\ncertfile = {}\nvalidate = true\n",
            tls.join("node.pem").display()
        ),
    )
    .unwrap();
    let out = widerow(
        &[
            "--connect",
            &target,
            "--cqlshrc",
            rc.to_str().unwrap(),
            "-e",
            QUERY,
        ],
        &[],
    );
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("(1 rows)"));
}
