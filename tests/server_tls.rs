//! `widerow serve` over TLS, as a node with `client_encryption_options`:
//! certificates made here for the test (a CA, the server's, a client's,
//! and a stranger CA's), and real clients — connect mode's driver through
//! `widerow --connect --ssl`, and plain CQL bytes — on the other side.
//!
//! - a TLS-only port serves a validated connection on every node address,
//!   refuses a certificate from the wrong authority, and hangs up on plain
//!   CQL (as a node's SSL handler does);
//! - `optional` takes both on the same port;
//! - with a client CA, a client without a certificate is refused and one
//!   with a certificate the CA signed is served;
//! - `widerow serve --ssl-cert` names a file it cannot read.

mod server_client;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, Issuer, KeyPair, SanType};
use server_client::{connect, frame, op, read_to_close, started, startup_body};
use widerow::server::tls::{Tls, TlsFiles};
use widerow::server::{Config, TestServer};
use widerow::Session;

/// The PEM files of one test, in a directory of its own.
struct Material {
    dir: PathBuf,
}

impl Material {
    fn new(name: &str) -> Material {
        let dir = std::env::temp_dir().join(format!("widerow-tls-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("directory");
        let ca = authority("widerow test CA");
        let stranger = authority("someone else's CA");
        let server = leaf("widerow serve", &ca, true);
        let client = leaf("a client", &ca, false);
        let files = [
            ("ca.pem", ca.0.clone()),
            ("stranger.pem", stranger.0),
            ("server.pem", server.0),
            ("server.key", server.1),
            ("client.pem", client.0),
            ("client.key", client.1),
        ];
        for (file, pem) in files {
            std::fs::write(dir.join(file), pem).expect("written");
        }
        Material { dir }
    }

    fn path(&self, file: &str) -> PathBuf {
        self.dir.join(file)
    }

    fn tls(&self, optional: bool, client_ca: bool) -> Tls {
        Tls::new(&TlsFiles {
            cert: self.path("server.pem"),
            key: self.path("server.key"),
            optional,
            client_ca: client_ca.then(|| self.path("ca.pem")),
        })
        .expect("the server's TLS")
    }
}

impl Drop for Material {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A self-signed CA: its certificate (PEM), and what signs with it.
fn authority(name: &str) -> (String, Issuer<'static, KeyPair>) {
    let key = KeyPair::generate().expect("key");
    let mut params = CertificateParams::new(Vec::<String>::new()).expect("params");
    params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    params.distinguished_name.push(DnType::CommonName, name);
    let cert = params.self_signed(&key).expect("CA certificate");
    (cert.pem(), Issuer::new(params, key))
}

/// A certificate the CA signs, and its key (PEM); a server's names the
/// four node addresses.
fn leaf(name: &str, ca: &(String, Issuer<'static, KeyPair>), server: bool) -> (String, String) {
    let key = KeyPair::generate().expect("key");
    let mut params = CertificateParams::new(Vec::<String>::new()).expect("params");
    params.distinguished_name.push(DnType::CommonName, name);
    if server {
        for n in 1..=4 {
            let ip = std::net::IpAddr::V4(std::net::Ipv4Addr::new(127, 0, 0, n));
            params.subject_alt_names.push(SanType::IpAddress(ip));
        }
    }
    let cert = params.signed_by(&key, &ca.1).expect("signed");
    (cert.pem(), key.serialize_pem())
}

fn start(tls: Tls) -> TestServer {
    let config = Config {
        tls: Some(tls),
        ..Config::default()
    };
    TestServer::start_with(Session::new(), config).expect("server starts")
}

const QUERY: &str = "SELECT release_version FROM system.local";

/// `widerow --connect ADDR --ssl -e QUERY`, with cqlshrc's `[ssl]` lines.
fn connect_ssl(server: &TestServer, ssl: &str, dir: &Path) -> Output {
    let rc = dir.join(format!("cqlshrc-{}", ssl.len()));
    std::fs::write(&rc, format!("[ssl]\n{ssl}\n")).expect("cqlshrc");
    Command::new(env!("CARGO_BIN_EXE_widerow"))
        .args(["--connect", &server.addr().to_string(), "--ssl"])
        .args(["--connect-timeout", "3", "--cqlshrc", rc.to_str().unwrap()])
        .args(["-e", QUERY])
        .env("NO_COLOR", "1")
        .env("HOME", std::env::temp_dir())
        .env_remove("SSL_CERTFILE")
        .env_remove("SSL_VALIDATE")
        .output()
        .expect("widerow runs")
}

fn served(output: &Output) -> bool {
    output.status.success() && String::from_utf8_lossy(&output.stdout).contains("(1 rows)")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).to_string()
}

/// Whether a plain STARTUP gets a CQL answer on `addr`; a TLS-only port
/// answers with a TLS alert record (0x15) and hangs up.
fn plain_startup_answered(addr: std::net::SocketAddr) -> bool {
    use std::io::Write;
    let mut s = connect(addr);
    s.write_all(&frame(4, 1, op::STARTUP, &startup_body()))
        .expect("written");
    let answer = read_to_close(&mut s).unwrap_or_default();
    assert!(
        matches!(answer.first(), None | Some(0x15) | Some(0x84)),
        "{answer:?}"
    );
    answer.first() == Some(&0x84)
}

#[test]
fn a_tls_port_checks_the_chain_and_hangs_up_on_plain_cql() {
    let material = Material::new("only");
    let server = start(material.tls(false, false));
    let certfile = format!("certfile = {}", material.path("ca.pem").display());
    let validated = connect_ssl(&server, &certfile, &material.dir);
    assert!(served(&validated), "{}", stderr(&validated));
    let unvalidated = connect_ssl(&server, "validate = false", &material.dir);
    assert!(served(&unvalidated), "{}", stderr(&unvalidated));
    let stranger = format!("certfile = {}", material.path("stranger.pem").display());
    let refused = connect_ssl(&server, &stranger, &material.dir);
    assert_eq!(refused.status.code(), Some(1));
    assert!(
        stderr(&refused).contains("Connection error"),
        "{}",
        stderr(&refused)
    );
    for addr in server.addresses() {
        assert!(!plain_startup_answered(addr), "plain CQL served on {addr}");
    }
}

#[test]
fn an_optional_port_takes_tls_and_plain_cql_alike() {
    let material = Material::new("optional");
    let server = start(material.tls(true, false));
    let certfile = format!("certfile = {}", material.path("ca.pem").display());
    let over_tls = connect_ssl(&server, &certfile, &material.dir);
    assert!(served(&over_tls), "{}", stderr(&over_tls));
    let mut plain = started(server.addr());
    let answer = server_client::query_ok(&mut plain, QUERY);
    assert_eq!(answer.opcode(), op::RESULT);
}

#[test]
fn a_client_ca_requires_a_certificate_it_signed() {
    let material = Material::new("mutual");
    let server = start(material.tls(false, true));
    let certfile = format!("certfile = {}", material.path("ca.pem").display());
    let anonymous = connect_ssl(&server, &certfile, &material.dir);
    assert_eq!(anonymous.status.code(), Some(1), "{}", stderr(&anonymous));
    let identified = format!(
        "{certfile}\nusercert = {}\nuserkey = {}",
        material.path("client.pem").display(),
        material.path("client.key").display()
    );
    let with_cert = connect_ssl(&server, &identified, &material.dir);
    assert!(served(&with_cert), "{}", stderr(&with_cert));
}

#[test]
fn serve_names_a_certificate_it_cannot_read() {
    let out = Command::new(env!("CARGO_BIN_EXE_widerow"))
        .args([
            "serve",
            "--port",
            "0",
            "--ssl-cert",
            "/nonexistent/server.pem",
        ])
        .args(["--ssl-key", "/nonexistent/server.key"])
        .output()
        .expect("widerow runs");
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("--ssl-cert") && err.contains("/nonexistent/server.pem"),
        "{err}"
    );
}
