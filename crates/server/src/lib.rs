//! `petstore-mock`'s library half: the axum app around the core mock, CORS and the state file,
//! kept out of `main.rs` so that tests and benchmarks can reach them.
#![deny(missing_docs)]

pub mod app;
pub mod cors;
pub mod state_file;

pub use app::{BODY_LIMIT, OnChange, READ_CAP, SharedMock, router, router_with};
pub use state_file::StateFileError;
