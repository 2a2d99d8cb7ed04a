//! The mocks in the browser: [`PersistentMock`] saves a mock (the Petstore's `petstore::Mock`, or
//! any [`playground_mock::StatefulMock`]) to `localStorage` after every change, restores it on
//! load and keeps tabs on one key consistent. The same crate is the page's JavaScript modules,
//! each a cargo feature, so the app never links them:
//!
//! - `js-api`: `dist/mock/petstore_mock.js` (`new PetstoreMock()`, `fetch`, `installFetch`,
//!   `handle`, `handleJson`, `checkExchangeJson`, `recordJson`);
//! - `api-js`: `dist/api-mock/playground_api_mock.js` (`new ApiMock(description)`, the mock of any
//!   document, with the `XMLHttpRequest` interceptor);
//! - `markdown-api`: `dist/markdown/playground_markdown.js` (`markdownToHtml`), which the
//!   reference loads after its first paint;
//! - `convert-api`: `dist/convert/playground_convert.js` (`convertSwagger2`, and `DocumentBundle`,
//!   which bundles a description kept in many files), loaded when a document needs either;
//! - `api-js` with `convert-api`: the npm package's module (`scripts/package.sh`).
//!
//! `scripts/build-modules.sh` builds each with `cargo rustc --crate-type cdylib` (no
//! `crate-type` in `Cargo.toml`, so the app's build never makes a second wasm), `wasm-bindgen
//! --target web` and, in release, `wasm-opt`. What crosses into JavaScript is serde types
//! (`playground_http::Request` and `Response`, `petstore::Counts`,
//! `playground_mock::MockNotice`) converted with `serde-wasm-bindgen`; `handleJson` carries the
//! same types as JSON text, which is how the page and the try-it module call the mock (through
//! `playground_seam::MockHandle`, the one binding of the mock object).
//!
//! Saving: each change writes only the records it touched (`layout` says where they sit: a
//! header under the key, a base and a log of entries; `saving.rs` writes and reads them). The
//! decisions (what storage held at start, whether another tab's write replaces ours, what a full
//! storage means) are plain functions in [`sync`], tested on the host with
//! [`store::MemoryStore`]; in the page the store is `store::WatchedStorage`, over
//! `playground_browser::LocalStorage`, and `storage_events.rs` calls back on other tabs' writes.
//! A value that cannot be read starts fresh with a notice; a full storage keeps the change in
//! memory with a notice. For the npm package, `PersistentMock::with_own_store_of` opens a store
//! of the caller's own (`store::js::JsStorage`): a value it cannot read is refused, and a change
//! it refuses is undone and answered 503 `state_not_saved`. In Node, relative URLs resolve against
//! `http://localhost`, and `DocumentBundle` follows `file:` references only from a `file:`
//! description (`bundle_api.rs`).
//!
//! Tests: the host tests `tests/sync.rs` and `tests/records.rs` (with `MemoryStore`), and browser
//! tests in headless Chromium (`tests/persistent.rs`, `tests/js_api.rs`, `tests/intercept.rs`,
//! ...); `tests/quota.rs` fills `localStorage`, so it is a binary of its own. `webdriver.json`
//! here is a link to the root one (the runner reads it from the current folder).
#![deny(missing_docs)]

pub mod intercept;
pub mod layout;
mod notice;
mod persistent;
mod saving;
#[cfg(target_arch = "wasm32")]
mod storage_events;
pub mod store;
pub mod sync;

#[cfg(all(target_arch = "wasm32", feature = "api-js"))]
pub mod api_mock_js;
#[cfg(all(target_arch = "wasm32", feature = "convert-api"))]
pub mod bundle_api;
#[cfg(all(target_arch = "wasm32", feature = "convert-api"))]
pub mod convert_api;
#[cfg(all(target_arch = "wasm32", feature = "js-api"))]
pub mod js_api;
#[cfg(all(target_arch = "wasm32", feature = "js-api"))]
mod js_mock;
#[cfg(all(target_arch = "wasm32", feature = "markdown-api"))]
pub mod markdown_api;

pub use persistent::{MockOptions, Notice, PersistentMock, Subscription};
pub use playground_browser::LocalStorage;
pub use store::{KeyValueStore, MemoryStore, StorageError, Written};
