//! Certificates served by name (SNI): a shared map from host name to certificate that a TLS
//! listener asks during each handshake, so an issued certificate is served at once and a removed
//! one stops at once.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, RwLock};

use rustls::crypto::CryptoProvider;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName};
use rustls::server::{ClientHello, ParsedCertificate, ResolvesServerCert};
use rustls::sign::CertifiedKey;

/// The largest PEM accepted for a chain or a key: real chains are a few KB.
pub const MAX_PEM_LEN: usize = 64 * 1024;

/// Why a certificate or key was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CertError {
    /// The PEM is larger than [`MAX_PEM_LEN`].
    #[error("the PEM is larger than {MAX_PEM_LEN} bytes")]
    TooLarge,
    /// The chain holds no certificate, or one cannot be read.
    #[error("the certificate chain cannot be read: {0}")]
    Chain(String),
    /// The private key cannot be read or is of an unsupported kind.
    #[error("the private key cannot be read: {0}")]
    Key(String),
    /// The key does not belong to the chain's first certificate.
    #[error("the private key does not match the certificate: {0}")]
    Mismatch(String),
    /// The certificate does not name the host it was given for.
    #[error("the certificate is not valid for {0}")]
    WrongName(String),
    /// The certificate's validity dates cannot be read.
    #[error("the certificate's validity dates cannot be read")]
    Validity,
}

/// The certificates of a PEM chain, leaf first.
fn chain_of(chain_pem: &str) -> Result<Vec<CertificateDer<'static>>, CertError> {
    if chain_pem.len() > MAX_PEM_LEN {
        return Err(CertError::TooLarge);
    }
    let chain = CertificateDer::pem_slice_iter(chain_pem.as_bytes())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| CertError::Chain(e.to_string()))?;
    if chain.is_empty() {
        return Err(CertError::Chain("no CERTIFICATE block".to_owned()));
    }
    Ok(chain)
}

/// `(not_before, not_after)` in Unix seconds of the first (leaf) certificate of a PEM chain, such
/// as a stored [`crate::acme::Issued::chain_pem`].
///
/// # Errors
/// The PEM holds no readable certificate.
pub fn certificate_validity(chain_pem: &str) -> Result<(i64, i64), CertError> {
    let chain = chain_of(chain_pem)?;
    chain.first().and_then(|leaf| crate::x509::validity(leaf)).ok_or(CertError::Validity)
}

/// Parses a chain and its private key into what rustls serves, with the crate's crypto provider,
/// checking that the key belongs to the leaf.
///
/// # Errors
/// What is wrong with the chain or the key.
pub fn certified_key(chain_pem: &str, key_pem: &str) -> Result<CertifiedKey, CertError> {
    let chain = chain_of(chain_pem)?;
    if key_pem.len() > MAX_PEM_LEN {
        return Err(CertError::TooLarge);
    }
    let key = PrivateKeyDer::from_pem_slice(key_pem.as_bytes()).map_err(|e| CertError::Key(e.to_string()))?;
    let provider: Arc<CryptoProvider> = crate::http::provider();
    let key = CertifiedKey::from_der(chain, key, &provider).map_err(|e| match e {
        rustls::Error::InconsistentKeys(why) => CertError::Mismatch(format!("{why:?}")),
        other => CertError::Key(other.to_string()),
    })?;
    Ok(key)
}

/// The certificates a TLS listener serves, by host name: thread-safe, shared with `Arc`, and
/// consulted at each handshake. A name with no certificate (never added, or removed) gets none,
/// so its handshake fails.
#[derive(Default)]
pub struct Certificates {
    by_name: RwLock<HashMap<String, Arc<CertifiedKey>>>,
}

impl fmt::Debug for Certificates {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Certificates").field("names", &self.names()).finish()
    }
}

/// Host names compare without case or trailing dot.
fn key(name: &str) -> String {
    name.trim().trim_end_matches('.').to_ascii_lowercase()
}

impl Certificates {
    /// No certificates.
    #[must_use]
    pub fn new() -> Certificates {
        Certificates::default()
    }

    /// Serves `chain_pem` (leaf first, PEM) with `key_pem` (PKCS#8, SEC1 or PKCS#1 PEM) for
    /// `name`, replacing any certificate it had; handshakes from then on get it.
    ///
    /// # Errors
    /// The chain or key cannot be read, they do not belong together, or the certificate does not
    /// name `name`; the map is unchanged.
    pub fn insert(&self, name: &str, chain_pem: &str, key_pem: &str) -> Result<(), CertError> {
        let certified = Arc::new(certified_key(chain_pem, key_pem)?);
        let name = key(name);
        let wrong = || CertError::WrongName(name.clone());
        let server_name = ServerName::try_from(name.as_str()).map_err(|_| wrong())?;
        let leaf = certified.end_entity_cert().map_err(|_| wrong())?;
        let parsed = ParsedCertificate::try_from(leaf).map_err(|e| CertError::Chain(e.to_string()))?;
        rustls::client::verify_server_name(&parsed, &server_name).map_err(|_| wrong())?;
        self.write().insert(name, certified);
        Ok(())
    }

    /// Stops serving `name` at once. Whether it had a certificate.
    pub fn remove(&self, name: &str) -> bool {
        self.write().remove(&key(name)).is_some()
    }

    /// Whether `name` has a certificate.
    #[must_use]
    pub fn contains(&self, name: &str) -> bool {
        self.read().contains_key(&key(name))
    }

    /// The names served, sorted.
    #[must_use]
    pub fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.read().keys().cloned().collect();
        names.sort();
        names
    }

    /// The certificate served for `name`.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<Arc<CertifiedKey>> {
        self.read().get(&key(name)).cloned()
    }

    // A panic while the lock was held cannot leave the map half-changed (each change is one
    // call), so a poisoned lock is used as it is.
    fn read(&self) -> std::sync::RwLockReadGuard<'_, HashMap<String, Arc<CertifiedKey>>> {
        self.by_name.read().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, HashMap<String, Arc<CertifiedKey>>> {
        self.by_name.write().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl ResolvesServerCert for Certificates {
    fn resolve(&self, client_hello: ClientHello<'_>) -> Option<Arc<CertifiedKey>> {
        self.get(client_hello.server_name()?)
    }
}

/// A TLS server configuration that serves `certificates` by SNI (no client certificates), with
/// ALPN `h2` and `http/1.1`, on the crate's crypto provider (ring).
///
/// # Panics
/// Never: the provider supports rustls' default protocol versions.
#[must_use]
pub fn server_config(certificates: Arc<Certificates>) -> Arc<rustls::ServerConfig> {
    let builder = rustls::ServerConfig::builder_with_provider(crate::http::provider())
        .with_safe_default_protocol_versions();
    // ring's provider supports every default protocol version, so this cannot fail.
    #[allow(clippy::expect_used)]
    let mut config = builder
        .expect("ring supports TLS 1.2 and 1.3")
        .with_no_client_auth()
        .with_cert_resolver(certificates);
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    Arc::new(config)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn self_signed(name: &str) -> (String, String) {
        let key = rcgen::KeyPair::generate().unwrap();
        let cert = rcgen::CertificateParams::new(vec![name.to_owned()]).unwrap().self_signed(&key).unwrap();
        (cert.pem(), key.serialize_pem())
    }

    #[test]
    fn insert_get_and_remove_ignore_case_and_trailing_dot() {
        let certificates = Certificates::new();
        let (chain, key) = self_signed("docs.example.com");
        certificates.insert("Docs.Example.com.", &chain, &key).unwrap();
        assert!(certificates.contains("docs.example.com"));
        assert!(certificates.get("DOCS.example.com").is_some());
        assert_eq!(certificates.names(), vec!["docs.example.com".to_owned()]);
        assert!(certificates.remove("docs.example.com."));
        assert!(!certificates.remove("docs.example.com"));
        assert!(certificates.get("docs.example.com").is_none());
    }

    #[test]
    fn bad_pem_and_mismatched_keys_are_refused_and_change_nothing() {
        let certificates = Certificates::new();
        let (chain, key) = self_signed("a.test");
        let (_, other_key) = self_signed("b.test");
        assert!(matches!(certificates.insert("a.test", "", &key), Err(CertError::Chain(_))));
        assert!(matches!(certificates.insert("a.test", "not pem at all", &key), Err(CertError::Chain(_))));
        assert!(matches!(certificates.insert("a.test", &chain, "nope"), Err(CertError::Key(_))));
        assert!(matches!(certificates.insert("a.test", &chain, &other_key), Err(CertError::Mismatch(_))));
        let huge = "A".repeat(MAX_PEM_LEN + 1);
        assert_eq!(certificates.insert("a.test", &huge, &key), Err(CertError::TooLarge));
        assert_eq!(certificates.insert("a.test", &chain, &huge), Err(CertError::TooLarge));
        assert_eq!(
            certificates.insert("b.test", &chain, &key),
            Err(CertError::WrongName("b.test".to_owned()))
        );
        assert_eq!(
            certificates.insert("not a name", &chain, &key),
            Err(CertError::WrongName("not a name".to_owned()))
        );
        let broken = chain.replace("MII", "M!I");
        assert!(certificates.insert("a.test", &broken, &key).is_err());
        assert!(certificates.names().is_empty());
    }

    #[test]
    fn validity_is_read_from_the_leaf() {
        let (chain, _) = self_signed("a.test");
        let (not_before, not_after) = certificate_validity(&chain).unwrap();
        assert!(not_before < not_after);
        assert_eq!(certificate_validity("junk"), Err(CertError::Chain("no CERTIFICATE block".to_owned())));
    }

    #[test]
    fn the_server_config_offers_h2_and_http11() {
        let config = server_config(Arc::new(Certificates::new()));
        assert_eq!(config.alpn_protocols, vec![b"h2".to_vec(), b"http/1.1".to_vec()]);
    }
}
