//! The Petstore mock in the browser: [`PersistentMock`] keeps the core mock's state in
//! localStorage, consistent across tabs; with the `js-api` feature, the `PetstoreMock` class
//! gives other pages a `fetch`-shaped mock and a `window.fetch` interceptor.

mod persist;
pub use persist::{KeyValueStore, LocalStorage, MemoryStore, PersistentMock, StoreError};

#[cfg(feature = "js-api")]
mod js_api;
