//! Certificates for `playground host`.
#![deny(missing_docs)]

pub mod acme;
pub mod dns;
mod http;
pub mod sni;
mod x509;
