//! `petstore-mock`'s library half: the axum app around the core mocks (the Petstore's or any
//! document's), CORS, the state file, the proxy to a real API that checks its answers, and the
//! `serve` command (shared with `playground mock`),
//! kept out of `main.rs` so that tests and benchmarks can reach them.
#![deny(missing_docs)]

pub mod app;
pub mod cli;
pub mod cors;
pub mod description;
pub mod durable;
pub mod export;
pub mod proxy;
pub mod served;
pub mod state_db;
pub mod state_file;

pub use app::{BODY_LIMIT, OnChange, READ_CAP, SharedMock, router, router_with};
pub use served::Served;
pub use state_file::StateFileError;
