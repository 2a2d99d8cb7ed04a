//! Certificates for `playground host`: what the host needs to put a custom domain on HTTPS.
//! Native only (sockets, tokio, ring); the dashboard's pure model stays in `playground-domains`.
//!
//! - [`dns`]: real DNS answers. [`Dns::system`](dns::Dns::system) or
//!   [`Dns::with_server`](dns::Dns::with_server); [`Dns::records`](dns::Dns::records) gives the
//!   CNAME, A and AAAA records owned by a name as a [`playground_domains::RecordSet`], ready for
//!   [`playground_domains::verify`]; [`Dns::caa`](dns::Dns::caa) finds the relevant CAA set (RFC
//!   8659) with the name that holds it and [`caa_allows`](dns::caa_allows) judges it for a CA. An absent name is an empty
//!   answer; a timeout or SERVFAIL is a [`DnsError`](dns::DnsError) naming the name and server.
//! - [`acme`]: issuance over HTTP-01 (RFC 8555). [`Acme::connect`](acme::Acme::connect) opens or
//!   creates the account (store the credentials JSON it returns);
//!   [`Acme::issue`](acme::Acme::issue) orders, publishes the key authorization in a shared
//!   [`Challenges`](acme::Challenges) map that the host's port-80 listener serves, waits for
//!   validation (bounded), finalizes with a fresh key and returns an
//!   [`Issued`](acme::Issued) chain and key. An [`AcmeError`](acme::AcmeError) carries the CA's
//!   problem document; [`renew_due`](acme::renew_due) says when to issue again.
//! - [`sni`]: serving. [`Certificates`](sni::Certificates) maps host names to certificates and
//!   answers each TLS handshake by SNI (no certificate, no handshake);
//!   [`server_config`](sni::server_config) wraps it in a rustls configuration with ALPN `h2` and
//!   `http/1.1`.
//! - `pebble` (feature `pebble`, for tests): Debian's Pebble CA and its mock DNS server on
//!   loopback, with record setters.
//!
//! One crypto provider throughout: ring. aws-lc-rs (instant-acme's default) builds without cmake
//! here but its C library took 88 s to build cold on this 2-core machine, ring 27 s.
//!
//! Tests (`tests/pebble.rs`) run Debian's `pebble` and `pebble-challtestsrv` on free 127.0.0.1
//! ports through `pebble::Pebble` (the feature `pebble`, which the crate's own tests turn on):
//! issuance takes about half a second with `PEBBLE_VA_NOSLEEP`, and the served certificate is
//! checked by a client that trusts Pebble's root. Without `/usr/bin/pebble` they fail and say to
//! run `scripts/ensure-tools.sh test`, which installs it. Pebble does not check CAA: the host
//! must.
//!
//! ```no_run
//! use std::sync::Arc;
//! use playground_certs::acme::{Acme, Challenges};
//! use playground_certs::dns::{CaaVerdict, Dns, caa_allows};
//! use playground_certs::sni::{Certificates, server_config};
//!
//! # async fn host() -> Result<(), Box<dyn std::error::Error>> {
//! let dns = Dns::system()?;
//! let records = dns.records("docs.example.com").await?;
//! let instruction = playground_domains::instructions("docs.example.com", "sites.platform.test");
//! playground_domains::verify(&instruction, &records)?;
//! if let Some(caa) = dns.caa("docs.example.com").await?
//!     && let verdict @ CaaVerdict::Forbidden { .. } = caa_allows(&caa.records, "letsencrypt.org")
//! {
//!     // Where the records are: docs.example.com or the parent they were found at.
//!     return Err(format!("{verdict} (the CAA records at {})", caa.name).into());
//! }
//!
//! // Served by the port-80 listener at /.well-known/acme-challenge/{token}.
//! let challenges = Challenges::new();
//! let (acme, credentials_to_store) = Acme::connect(
//!     "https://acme-v02.api.letsencrypt.org/directory",
//!     Some("ops@example.org"),
//!     None,
//!     None,
//! )
//! .await?;
//! let issued = acme.issue("docs.example.com", &challenges).await?;
//!
//! let certificates = Arc::new(Certificates::new());
//! certificates.insert("docs.example.com", &issued.chain_pem, &issued.key_pem)?;
//! let tls = server_config(certificates.clone()); // for tokio-rustls' TlsAcceptor
//! # let _ = (tls, credentials_to_store);
//! # Ok(())
//! # }
//! ```
#![deny(missing_docs)]

pub mod acme;
pub mod dns;
mod http;
#[cfg(feature = "pebble")]
pub mod pebble;
pub mod sni;
mod x509;
