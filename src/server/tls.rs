//! TLS on the native port, as a node's `client_encryption_options` set it
//! up: a certificate and key to present (`keystore`), TLS required or —
//! `optional: true` — told apart from plain CQL by a connection's first
//! byte, and client certificates asked for and checked against a trusted
//! CA (`require_client_auth` with a `truststore`) when one is given.
//!
//! Certificates and keys are PEM files (a node's keystores are JKS; the
//! same certificate exported as PEM is what cqlsh's `certfile` takes).

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::server::WebPkiClientVerifier;
use rustls::{RootCertStore, ServerConfig};
use tokio::net::TcpStream;
use tokio_rustls::server::TlsStream;
use tokio_rustls::TlsAcceptor;

/// The first byte of a TLS record carrying a handshake (a ClientHello);
/// no CQL frame starts with it (a frame starts with its version).
const HANDSHAKE_RECORD: u8 = 0x16;

/// How long a client has to finish its handshake, so a silent connection
/// holds nothing for long.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// What `--ssl-cert` and its companions say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TlsFiles {
    /// The certificate chain to present, the server's own first (PEM).
    pub cert: PathBuf,
    /// Its private key (PEM).
    pub key: PathBuf,
    /// Accept plain connections beside TLS ones (`optional: true`).
    pub optional: bool,
    /// Require a client certificate signed by one of these (PEM).
    pub client_ca: Option<PathBuf>,
}

/// A server's TLS, ready to accept with: made once, shared by every
/// listener.
#[derive(Clone)]
pub struct Tls {
    acceptor: TlsAcceptor,
    optional: bool,
}

impl fmt::Debug for Tls {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tls")
            .field("optional", &self.optional)
            .finish_non_exhaustive()
    }
}

/// A connection as accepted: TLS, or plain where plain is allowed.
pub enum Accepted {
    /// The handshake succeeded.
    Tls(Box<TlsStream<TcpStream>>),
    /// The client spoke CQL straight away and TLS is optional.
    Plain(TcpStream),
}

impl Tls {
    /// The server's TLS for `files`, or why it cannot be made (a file
    /// missing or holding no certificate, a key that is not the
    /// certificate's).
    pub fn new(files: &TlsFiles) -> Result<Tls, String> {
        let provider = Arc::new(rustls::crypto::aws_lc_rs::default_provider());
        let builder = ServerConfig::builder_with_provider(provider.clone())
            .with_safe_default_protocol_versions()
            .map_err(|e| e.to_string())?;
        let builder = match &files.client_ca {
            Some(ca) => {
                let mut roots = RootCertStore::empty();
                for cert in certificates(ca)? {
                    roots
                        .add(cert)
                        .map_err(|e| format!("{}: {e}", ca.display()))?;
                }
                let verifier = WebPkiClientVerifier::builder_with_provider(roots.into(), provider)
                    .build()
                    .map_err(|e| format!("{}: {e}", ca.display()))?;
                builder.with_client_cert_verifier(verifier)
            }
            None => builder.with_no_client_auth(),
        };
        let config = builder
            .with_single_cert(certificates(&files.cert)?, private_key(&files.key)?)
            .map_err(|e| format!("{} and {}: {e}", files.cert.display(), files.key.display()))?;
        Ok(Tls {
            acceptor: TlsAcceptor::from(Arc::new(config)),
            optional: files.optional,
        })
    }

    /// Takes a new connection through the handshake (or, when TLS is
    /// optional and the client spoke CQL first, as it is); `None` when the
    /// handshake fails or times out, or a plain client is not allowed.
    pub async fn accept(&self, stream: TcpStream) -> Option<Accepted> {
        if self.optional && !starts_with_handshake(&stream).await {
            return Some(Accepted::Plain(stream));
        }
        let handshake = self.acceptor.accept(stream);
        match tokio::time::timeout(HANDSHAKE_TIMEOUT, handshake).await {
            Ok(Ok(tls)) => Some(Accepted::Tls(Box::new(tls))),
            _ => None,
        }
    }
}

/// Whether the client's first byte opens a TLS handshake, waiting for it
/// no longer than a handshake may take.
async fn starts_with_handshake(stream: &TcpStream) -> bool {
    let mut first = [0u8; 1];
    matches!(
        tokio::time::timeout(HANDSHAKE_TIMEOUT, stream.peek(&mut first)).await,
        Ok(Ok(1)) if first[0] == HANDSHAKE_RECORD
    )
}

/// The certificates of a PEM file; at least one.
pub(crate) fn certificates(path: &Path) -> Result<Vec<CertificateDer<'static>>, String> {
    let shown = path.display();
    let certs = CertificateDer::pem_file_iter(path)
        .and_then(|certs| certs.collect::<Result<Vec<_>, _>>())
        .map_err(|e| format!("cannot read certificates from {shown}: {e}"))?;
    if certs.is_empty() {
        return Err(format!("no PEM certificate in {shown}"));
    }
    Ok(certs)
}

/// The private key of a PEM file.
pub(crate) fn private_key(path: &Path) -> Result<PrivateKeyDer<'static>, String> {
    PrivateKeyDer::from_pem_file(path)
        .map_err(|e| format!("cannot read a private key from {}: {e}", path.display()))
}
