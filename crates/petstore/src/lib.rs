//! The Petstore, the demo API: its OpenAPI document (embedded), its wire models, its Error object
//! and codes, and the stateful mock that answers it: the mock of any document
//! ([`playground_mock::ApiMock`]) with the Petstore's business rules on top. Pure Rust with no
//! browser crates.
//!
//! - `document`: `openapi/petstore.yaml` is the single source of truth, for the endpoints, the
//!   transitions and the limits. `build.rs` converts it to JSON at build time
//!   (`document::PETSTORE_JSON`), so no YAML parser ships in the app; the mocks embed that text,
//!   and `scripts/build-modules.sh` copies it to `dist/petstore.json`, which the page reads like
//!   any other document.
//! - `error`: `ApiError`, every failure of the Petstore's API with its status and its `Error`
//!   body (`{code, message, status}`, the `code` enum including the business rules' codes).
//! - `mock`: `Mock` holds an `ApiMock` of the embedded document (read once, shared by every
//!   copy) and its own store. The generic mock routes the request and checks it (credentials,
//!   parameters, body, `Prefer`, the options); then `PetstoreRules` hands the operationId and
//!   the checked inputs to the handler bound to it (`mock/handlers.rs`), which answers from the
//!   store; a handler's `ApiError` becomes the generic `Failure` with its code, status and
//!   message. The body limit is 64 KiB; the document has no security, so no credentials are asked.
//!   `mock/store.rs` holds the state, its invariants (`Mock::check_invariants`) and the snapshot
//!   format (`{"version": 1, "nextIds": .., "categories": .., "pets": .., "orders": .., "stock":
//!   ..}`); `restore` checks every invariant before it replaces anything. Ids stop at 2^53 - 1,
//!   the largest integer JavaScript reads exactly: a create past it is 409 `ids_exhausted`.
//! - `model`: the wire types of the document's schemas.
//!
//! Tests: `tests/document.rs` (the document against the endpoint table, its examples against its
//! schemas and models), `tests/mock.rs` (every operation's success and error paths, each limit at
//! its boundary, the generic layer under the rules), `tests/mock_props.rs` (proptest request
//! sequences), `tests/mock_wire.rs` and `tests/records.rs`; `scripts/schemathesis.sh` checks the
//! native server's conformance.
#![deny(missing_docs)]

pub mod document;
pub mod error;
pub mod mock;
pub mod model;

pub use error::{ApiError, ErrorBody, ErrorCode};
pub use mock::{Counts, Mock};
