//! The mock as a local HTTP server: the axum app around the core mocks (the Petstore's or any
//! document's), CORS, the state file, the proxy to a real API that checks its answers, reading a
//! description from disk, and the `serve` and `export` commands. It compiles no HTML or Markdown:
//! its only workspace dependencies are `petstore`, `playground-mock`, `playground-http` and
//! `playground-openapi`.
//!
//! The binary `petstore-mock` (`src/main.rs`) and `playground mock` run the same command,
//! [`cli::run`] with [`cli::ServeArgs`]: `petstore-mock serve --spec FILE` is `playground mock
//! --spec FILE` with the same flags (messages start with the program's name), and
//! `petstore-mock export` is `playground export`. Without `--spec`, `petstore-mock serve` serves
//! the Petstore with its business rules; `playground mock` requires `--spec`.
//!
//! - [`app`]: one fallback handler turns an axum request into a `playground_http::Request` for
//!   the shared mock ([`SharedMock`]) and its answer back; [`router_with`] is what `playground
//!   serve` nests under `/mock`. Bodies past the mock's limit are not buffered beyond a few KiB;
//!   the mock answers them as oversized.
//! - [`served`]: the Petstore or the mock of `--spec`, as one type.
//! - [`state_db`], [`durable`], [`state_file`]: `--state FILE` is a SQLite database with one row
//!   per record; a change is answered only once its records are committed and synced (WAL,
//!   `synchronous=FULL`), concurrent writers share one commit, and `FILE.lock` keeps a second
//!   server off. A JSON snapshot given as `--state` is imported once; [`export`] writes the state
//!   as JSON, also while a server runs.
//! - [`proxy`]: `mock --proxy URL` forwards to the real API and checks each exchange against the
//!   description (`ApiMock::check_exchange`), with `--log` and `--record`.
//! - [`description`]: a description read from disk, JSON or YAML, one file or many (bundled with
//!   `playground_openapi::bundle`), every size bounded; `playground build` reads it the same way.
//! - [`cors`]: any origin may call, with credentials.
//!
//! Tests: `tests/http.rs`, `tests/spec.rs` and `tests/state.rs` run the binary;
//! `benches/dispatch.rs` times the mocks' dispatch (`make bench-mock`); `scripts/schemathesis.sh`
//! checks its conformance to the Petstore's document (`make test`).
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
