//! TLS to the cluster, as cqlsh's `--ssl` sets it up: the server's
//! certificate is checked against the `certfile` it is given (cqlsh's
//! `validate`, on unless turned off) but, as cqlsh does not ask for it, not
//! against the address it was reached at; a client certificate and key
//! (`usercert`, `userkey`) are offered when both are given.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::client::WebPkiServerVerifier;
use rustls::crypto::{verify_tls12_signature, verify_tls13_signature, CryptoProvider};
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{CertificateError, ClientConfig, DigitallySignedStruct, RootCertStore};
use rustls::{Error as TlsError, SignatureScheme};

use crate::server::tls::{certificates, private_key};

/// What `--ssl` was told, from `SSL_*` variables and cqlshrc's `[ssl]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TlsOptions {
    /// The certificates (PEM) the server's must be signed by; needed when
    /// validating.
    pub certfile: Option<PathBuf>,
    /// Whether the server's certificate is checked at all.
    pub validate: bool,
    /// The client's own key and certificate (PEM), for a cluster that
    /// asks for one.
    pub client: Option<ClientIdentity>,
}

/// A client certificate and its private key, both PEM files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientIdentity {
    /// cqlsh's `userkey`.
    pub key: PathBuf,
    /// cqlsh's `usercert`.
    pub cert: PathBuf,
}

/// The driver's TLS configuration for `options`, or why it cannot be
/// made (a file missing or holding no certificate, validation without a
/// certfile).
pub fn client_config(options: &TlsOptions) -> Result<Arc<ClientConfig>, String> {
    let provider = Arc::new(rustls::crypto::aws_lc_rs::default_provider());
    let verifier: Arc<dyn ServerCertVerifier> = match (options.validate, &options.certfile) {
        (true, Some(certfile)) => Arc::new(ChainOnly::new(certfile, provider.clone())?),
        (true, None) => return Err("validation needs a certfile".into()),
        (false, _) => Arc::new(AnyCertificate {
            provider: provider.clone(),
        }),
    };
    let builder = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?
        .dangerous()
        .with_custom_certificate_verifier(verifier);
    let config = match &options.client {
        Some(identity) => builder
            .with_client_auth_cert(certificates(&identity.cert)?, private_key(&identity.key)?)
            .map_err(|e| format!("usercert/userkey: {e}"))?,
        None => builder.with_no_client_auth(),
    };
    Ok(Arc::new(config))
}

/// The server's chain must lead to one of the given certificates; the
/// names in it are not compared with the address (cqlsh leaves
/// `check_hostname` off, and a node is reached at whatever address the
/// ring gives).
#[derive(Debug)]
struct ChainOnly {
    webpki: Arc<WebPkiServerVerifier>,
}

impl ChainOnly {
    fn new(certfile: &Path, provider: Arc<CryptoProvider>) -> Result<ChainOnly, String> {
        let mut roots = RootCertStore::empty();
        for cert in certificates(certfile)? {
            roots
                .add(cert)
                .map_err(|e| format!("{}: {e}", certfile.display()))?;
        }
        let webpki = WebPkiServerVerifier::builder_with_provider(Arc::new(roots), provider)
            .build()
            .map_err(|e| format!("{}: {e}", certfile.display()))?;
        Ok(ChainOnly { webpki })
    }
}

impl ServerCertVerifier for ChainOnly {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, TlsError> {
        // The chain is checked before the name, so a name mismatch means
        // the chain itself was good.
        match self.webpki.verify_server_cert(
            end_entity,
            intermediates,
            server_name,
            ocsp_response,
            now,
        ) {
            Err(TlsError::InvalidCertificate(
                CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. },
            )) => Ok(ServerCertVerified::assertion()),
            other => other,
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, TlsError> {
        self.webpki.verify_tls12_signature(message, cert, dss)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, TlsError> {
        self.webpki.verify_tls13_signature(message, cert, dss)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.webpki.supported_verify_schemes()
    }
}

/// `validate = false`: any certificate is taken (the connection is
/// encrypted, not authenticated), though the handshake's signatures are
/// still checked against it.
#[derive(Debug)]
struct AnyCertificate {
    provider: Arc<CryptoProvider>,
}

impl ServerCertVerifier for AnyCertificate {
    fn verify_server_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, TlsError> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, TlsError> {
        let algorithms = &self.provider.signature_verification_algorithms;
        verify_tls12_signature(message, cert, dss, algorithms)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, TlsError> {
        let algorithms = &self.provider.signature_verification_algorithms;
        verify_tls13_signature(message, cert, dss, algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.provider
            .signature_verification_algorithms
            .supported_schemes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(certfile: Option<&str>, validate: bool) -> TlsOptions {
        TlsOptions {
            certfile: certfile.map(PathBuf::from),
            validate,
            client: None,
        }
    }

    #[test]
    fn validating_needs_a_certfile_that_holds_a_certificate() {
        assert!(client_config(&options(None, true)).is_err());
        let missing = client_config(&options(Some("/nonexistent/ca.pem"), true)).unwrap_err();
        assert!(missing.contains("/nonexistent/ca.pem"), "{missing}");
        let empty = std::env::temp_dir().join(format!("widerow-tls-{}.pem", std::process::id()));
        std::fs::write(&empty, "not a certificate\n").unwrap();
        let refused = client_config(&options(empty.to_str(), true));
        let _ = std::fs::remove_file(&empty);
        assert!(refused.unwrap_err().contains("no PEM certificate"));
    }

    #[test]
    fn without_validation_no_certfile_is_needed() {
        assert!(client_config(&options(None, false)).is_ok());
    }

    #[test]
    fn a_missing_client_key_is_named() {
        let mut with_identity = options(None, false);
        with_identity.client = Some(ClientIdentity {
            key: "/nonexistent/key.pem".into(),
            cert: "/nonexistent/cert.pem".into(),
        });
        let refused = client_config(&with_identity).unwrap_err();
        assert!(refused.contains("/nonexistent/cert.pem"), "{refused}");
    }
}
