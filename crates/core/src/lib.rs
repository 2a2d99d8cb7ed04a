//! Petstore core: the wire models, the `ApiError` type, the embedded OpenAPI document, the
//! catalog of its operations and the stateful mock. Pure Rust with no browser crates, so it builds and tests on the
//! host and on `wasm32-unknown-unknown` alike.
#![deny(missing_docs)]

pub mod auth;
pub mod catalog;
pub mod convert;
pub mod document;
pub mod error;
pub mod form;
pub mod html;
pub mod http;
pub mod markdown;
pub mod mock;
pub mod model;
pub mod openapi;
pub mod outline;
pub mod reference;
pub mod request;
pub mod samples;
pub mod schema;
pub mod servers;
pub mod tryit;
mod validate;

pub use catalog::{Catalog, CatalogError};
pub use error::{ApiError, ErrorBody};
pub use http::{Request, Response};
pub use mock::{Counts, Mock, SnapshotError};
