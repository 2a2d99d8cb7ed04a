//! Certificates for `playground host`.
#![deny(missing_docs)]

pub mod acme;
pub mod dns;
mod http;
#[cfg(feature = "pebble")]
pub mod pebble;
pub mod sni;
mod x509;
