//! Reading OpenAPI descriptions (3.0, 3.1 and 3.2; Swagger 2.0 is recognised and handed to the
//! converter): the text read whole or as it arrives, the catalog of its operations and the list's
//! rows, schema access for every dialect, servers and security schemes. Pure Rust with no browser
//! crates, so it builds and tests on the host and on `wasm32-unknown-unknown` alike.
#![deny(missing_docs)]

pub mod bundle;
pub mod catalog;
pub mod document;
pub mod json;
pub mod outline;
pub mod pointer;
pub mod schema;
pub mod security;
pub mod servers;

pub use catalog::{Catalog, CatalogError};
