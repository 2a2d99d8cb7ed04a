//! The JavaScript module `dist/mock/petstore_mock.js`: `new PetstoreMock(options)`, the
//! Petstore's mock (`petstore::Mock`, with its business rules and demo data) saved in
//! `localStorage` by `playground_web::PersistentMock`, with a `fetch`-shaped `fetch`,
//! `installFetch(prefix)` / `uninstallFetch()` to answer a page's own `fetch` calls under a URL
//! prefix, `handle`, `handleJson`, `checkExchangeJson`, and `reset`, `snapshot`, `restore`,
//! `counts`. The methods it shares with `ApiMock` come from `playground_web::js_mock_methods!`;
//! this crate adds the constructor, its options (`PetstoreMockOptions`, and the TypeScript
//! types `MockRequest`, `MockAnswer` and `MockNotice` both classes use), `reset`, `counts` and
//! `recordJson`.
//!
//! `scripts/build-modules.sh` builds it with `cargo rustc --crate-type cdylib` (no `crate-type`
//! in `Cargo.toml`, so the crates that link its Rust side, the `ApiMock` module and the app's
//! browser tests, make no second wasm), `wasm-bindgen --target web` and, in release,
//! `wasm-opt`. On other targets the crate is empty.
//!
//! Tests: `tests/petstore_mock.rs` in headless Chromium (`webdriver.json` here is a link to the
//! root one).
#![deny(missing_docs)]

#[cfg(target_arch = "wasm32")]
mod petstore_mock;

#[cfg(target_arch = "wasm32")]
pub use petstore_mock::{DEFAULT_STORAGE_KEY, JsMockOptions, JsPetstoreMock};
#[cfg(target_arch = "wasm32")]
pub use playground_web::js_mock::JsRequestInit;
