//! The JavaScript module `dist/api-mock/playground_api_mock.js`: `new ApiMock(description,
//! options)`, the stateful mock of any OpenAPI document (`playground_mock::ApiMock`) saved in
//! `localStorage` per document by `playground_web::PersistentMock`, with the same `fetch`,
//! `handle`, `installFetch` and state methods as `PetstoreMock` (`playground_web::js_mock_methods!`);
//! `installFetch` also answers `XMLHttpRequest` (`src/xhr.js`: axios and other libraries use it
//! in browsers). The module exports `PetstoreMock` too (`playground-module-mock`'s, linked
//! here). It is a module apart from the Petstore's so that one stays small.
//!
//! `scripts/build-modules.sh` builds it with `cargo rustc --crate-type cdylib`, `wasm-bindgen
//! --target web` and, in release, `wasm-opt`; `playground-module-package` links it into the npm
//! package's module. On other targets the crate is empty.
//!
//! Tests: `tests/api_mock.rs` in headless Chromium (`webdriver.json` here is a link to the root
//! one).
#![deny(missing_docs)]

#[cfg(target_arch = "wasm32")]
mod api_mock;

#[cfg(target_arch = "wasm32")]
pub use api_mock::{JsApiMock, JsApiMockOptions, MAX_DESCRIPTION_BYTES};
#[cfg(target_arch = "wasm32")]
pub use playground_module_mock::JsPetstoreMock;
