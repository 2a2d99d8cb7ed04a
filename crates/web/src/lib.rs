//! The mocks in the browser: [`PersistentMock`] saves a mock (the Petstore's `petstore::Mock`, or
//! any [`playground_mock::StatefulMock`]) to `localStorage` after every change, restores it on
//! load and keeps tabs on one key consistent. `js_mock` (on wasm32) is what the two mock classes
//! for JavaScript share: `JsMock`, the `fetch`-shaped answers, the `fetch` and `XMLHttpRequest`
//! interceptors, and the macro `js_mock_methods!`, which writes the methods both export once.
//! This crate exports nothing to JavaScript itself; the page's JavaScript modules are crates of
//! their own under `crates/modules/`, one per module, so the app never links them:
//!
//! - `playground-module-mock`: `dist/mock/petstore_mock.js` (`new PetstoreMock()`);
//! - `playground-module-api-mock`: `dist/api-mock/playground_api_mock.js` (`new
//!   ApiMock(description)`, the mock of any document, with the `XMLHttpRequest` interceptor, and
//!   `PetstoreMock`);
//! - `playground-module-markdown`: `dist/markdown/playground_markdown.js` (`markdownToHtml`);
//! - `playground-module-convert`: `dist/convert/playground_convert.js` (`convertSwagger2` and
//!   `DocumentBundle`);
//! - `playground-module-package`: the npm package's module (`scripts/package.sh`).
//!
//! What crosses into JavaScript is serde types (`playground_http::Request` and `Response`,
//! `petstore::Counts`, `playground_mock::MockNotice`) converted with `serde-wasm-bindgen`;
//! `handleJson` carries the same types as JSON text, which is how the page and the try-it module
//! call the mock (through `playground_seam::MockHandle`, the one binding of the mock object).
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
//! `http://localhost`.
//!
//! Tests: the host tests `tests/sync.rs` and `tests/records.rs` (with `MemoryStore`), and browser
//! tests in headless Chromium (`tests/browser.rs`); the JavaScript classes' tests are in the
//! module crates. `tests/quota.rs` fills `localStorage`, so it is a binary of its own. `webdriver.json`
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

#[cfg(target_arch = "wasm32")]
pub mod js_mock;
#[cfg(target_arch = "wasm32")]
mod js_mock_methods;

pub use persistent::{MockOptions, Notice, PersistentMock, Subscription};
pub use playground_browser::LocalStorage;
pub use store::{KeyValueStore, MemoryStore, StorageError, Written};
