//! Petstore core: one crate that re-exports the project's pure crates under the paths other
//! crates' browser tests use (`petstore_core::{Mock, Request}`, `petstore_core::mock::generic`,
//! ...). Each part lives in a crate of its own:
//!
//! | Path | Crate |
//! |---|---|
//! | [`http`], [`error`], [`form`] | `petstore-http`: the request and response type, form bodies, the Error object |
//! | [`catalog`], [`document`], [`outline`], [`schema`], [`servers`] | `petstore-openapi`: reading descriptions |
//! | [`convert`] | `petstore-convert`: Swagger 2.0 to OpenAPI 3.0 |
//! | [`reference`], [`html`], [`markdown`] | `petstore-reference`: operation views and the reference's HTML |
//! | [`tryit`], [`request`], [`samples`], [`auth`] | `petstore-tryit-core`: requests, code samples, credentials |
//! | [`mock::generic`] | `petstore-api-mock`: the mock of any description |
//! | [`mock`], [`model`], [`openapi`] | `petstore`: the Petstore's document, models and rules |
//!
//! Pure Rust with no browser crates, so it builds and tests on the host and on
//! `wasm32-unknown-unknown` alike.
#![deny(missing_docs)]

pub use petstore::model;
pub use petstore_convert as convert;
pub use petstore_http as http;
pub use petstore_http::{error, form};
pub use petstore_openapi::{catalog, document, outline, schema, servers};
pub use petstore_reference as reference;
pub use petstore_reference::{html, markdown};
pub use petstore_tryit_core as tryit;
pub use petstore_tryit_core::{auth, request, samples};

/// The Petstore's stateful mock, and the mock of any description as [`mock::generic`].
pub mod mock {
    pub use petstore::mock::*;
    pub use petstore_api_mock as generic;
    pub use petstore_api_mock::{MockNotice, NoticeKind, SnapshotError, StatefulMock};
}

/// The embedded Petstore document and the JSON pointers of references.
pub mod openapi {
    pub use petstore::document::*;
    pub use petstore_openapi::pointer::*;
}

pub use catalog::{Catalog, CatalogError};
pub use error::{ApiError, ErrorBody};
pub use http::{Request, Response};
pub use mock::{Counts, Mock, SnapshotError};
