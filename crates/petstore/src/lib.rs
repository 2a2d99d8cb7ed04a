//! The Petstore: its OpenAPI document (embedded), its wire models and the stateful mock that
//! answers it, the mock of any document ([`playground_mock::ApiMock`]) with the Petstore's
//! business rules on top. Pure Rust with no browser crates.
#![deny(missing_docs)]

pub mod document;
pub mod error;
pub mod mock;
pub mod model;

pub use error::{ApiError, ErrorBody, ErrorCode};
pub use mock::{Counts, Mock};
