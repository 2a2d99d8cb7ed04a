//! The Petstore mock in the browser: [`PersistentMock`] saves the core mock to `localStorage`
//! after every change, restores it on load and keeps tabs on one key consistent; with the
//! `js-api` feature the crate is also the JavaScript module `petstore_mock.js`
//! (`new PetstoreMock()`, `fetch`, `installFetch`); with `api-js` also `playground_api_mock.js`
//! (`new ApiMock(description)`, the mock of any OpenAPI document); with `markdown-api` it is the module
//! `playground_markdown.js` (`markdownToHtml`), which the reference loads after its first paint;
//! with `convert-api` it is the module `playground_convert.js` (`convertSwagger2`), the Swagger
//! 2.0 to OpenAPI 3.0 converter, and `DocumentBundle`, which bundles a description kept in many
//! files; the page loads it when a document needs either.
//!
//! The decisions (what storage held at start, whether another tab's write replaces ours) are
//! plain functions in [`sync`], tested on the host; [`store::MemoryStore`] stands in for
//! `localStorage` there.
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
