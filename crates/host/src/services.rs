//! What the host asks of the outside world, as traits: DNS ([`Verifier`]), the certificate
//! authority ([`Issuer`]), the HTTP-01 answers it serves ([`Challenges`]), the certificates the
//! TLS side offers by SNI ([`CertificateStore`]) and the TLS handshake itself ([`TlsAcceptor`]).
//! `playground-certs` implements them (hickory, instant-acme, rustls), wired in
//! `crates/cli/src/host_services.rs`; tests use fakes.
//!
//! How they map:
//! - [`Verifier`] from `dns::Dns::{system, with_server}` (`dns.server` in `host.toml`);
//!   `records(name)` and `caa(name)` (the records named by the `CaaSet`'s name) with their
//!   errors as sentences.
//! - [`Issuer`] from `acme::Acme::connect(directory_url, contact, stored, extra_root)`, the
//!   credentials read and written with [`crate::store::Store::acme_credentials`] /
//!   `set_acme_credentials` between [`crate::Host::open`] and [`crate::Host::serve`];
//!   `issue(name, &challenges)` mapped to [`Issued`] (`not_after_unix`).
//! - [`Challenges`] from `acme::Challenges::get(token)`.
//! - [`CertificateStore`] from `sni::Certificates::{insert, remove}`.
//! - [`TlsAcceptor`] from `tokio_rustls::TlsAcceptor::from(sni::server_config(certificates))`.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;

use playground_domains::RecordSet;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;

/// A boxed future, so the traits are object-safe.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Asks DNS about a custom domain.
pub trait Verifier: Send + Sync + 'static {
    /// The CNAME, A and AAAA records owned by `name`. An error is a readable sentence (a
    /// timeout, SERVFAIL); a name that does not exist is an empty set.
    fn records<'a>(&'a self, name: &'a str) -> BoxFuture<'a, Result<RecordSet, String>>;
    /// The CAA records that apply to `name`: those of the closest of `name` and its parents
    /// that has any (RFC 8659), each owned by the name it was found at (a parent's records
    /// keep the parent's name, which is where the owner must change them); empty when none
    /// has. The host judges them with [`playground_domains::dns::caa_blocking`] against the
    /// configured authority.
    fn caa<'a>(&'a self, name: &'a str) -> BoxFuture<'a, Result<RecordSet, String>>;
}

/// A certificate and its key, as the authority issued them.
#[derive(Clone, PartialEq, Eq)]
pub struct Issued {
    /// The chain, leaf first, PEM.
    pub chain_pem: String,
    /// The private key, PEM.
    pub key_pem: String,
    /// When the leaf expires (seconds since 1970).
    pub not_after: u64,
}

impl std::fmt::Debug for Issued {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Issued").field("not_after", &self.not_after).finish_non_exhaustive()
    }
}

/// Gets certificates from the certificate authority (ACME).
pub trait Issuer: Send + Sync + 'static {
    /// A certificate for `name`, answering the authority's challenge meanwhile (through the
    /// [`Challenges`] the host serves). An error is the authority's message, shown to the
    /// owner in troubleshooting.
    fn issue<'a>(&'a self, name: &'a str) -> BoxFuture<'a, Result<Issued, String>>;
}

/// The HTTP-01 answers: `/.well-known/acme-challenge/{token}` on plain HTTP.
pub trait Challenges: Send + Sync + 'static {
    /// The key authorization for `token`, while a challenge is pending.
    fn key_authorization(&self, token: &str) -> Option<String>;
}

/// The certificates the TLS side offers by SNI: only live names are installed, and a removed
/// name is withdrawn before the removal is answered.
pub trait CertificateStore: Send + Sync + 'static {
    /// Offers `chain_pem`/`key_pem` for `name` from now on.
    ///
    /// # Errors
    /// The PEM could not be used (the message says why).
    fn install(&self, name: &str, chain_pem: &str, key_pem: &str) -> Result<(), String>;
    /// Stops offering a certificate for `name`.
    fn withdraw(&self, name: &str);
}

/// A connection after the handshake.
pub trait Io: AsyncRead + AsyncWrite + Unpin + Send + 'static {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send + 'static> Io for T {}

/// The TLS handshake of the HTTPS listener (rustls with the [`CertificateStore`]'s SNI
/// resolver, in `playground-certs`).
pub trait TlsAcceptor: Send + Sync + 'static {
    /// Completes the handshake on `stream`.
    fn accept(&self, stream: TcpStream) -> BoxFuture<'static, io::Result<Box<dyn Io>>>;
}

/// Everything the host is given.
#[derive(Clone)]
pub struct Services {
    /// DNS.
    pub verifier: Arc<dyn Verifier>,
    /// The certificate authority.
    pub issuer: Arc<dyn Issuer>,
    /// The HTTP-01 answers.
    pub challenges: Arc<dyn Challenges>,
    /// The certificates offered by SNI.
    pub certificates: Arc<dyn CertificateStore>,
    /// The HTTPS handshake; `None` serves no HTTPS listener.
    pub tls: Option<Arc<dyn TlsAcceptor>>,
}

impl std::fmt::Debug for Services {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Services").field("tls", &self.tls.is_some()).finish_non_exhaustive()
    }
}
