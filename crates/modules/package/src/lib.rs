//! The npm package's JavaScript module (`petstore-playground-mock`, `packages/mock`): one
//! WebAssembly module with `ApiMock` and `PetstoreMock` (`playground-module-api-mock`) and
//! `DocumentBundle` and `convertSwagger2` (`playground-module-convert`), which this crate links
//! and exports as they are.
//!
//! `scripts/build-modules.sh OUT package` builds it with `cargo rustc --crate-type cdylib`,
//! `wasm-bindgen --target web` (as `package/mock.js`) and, in release, `wasm-opt`, for
//! `scripts/package.sh`. On other targets the crate is empty. Its classes are tested in their
//! own crates, and the package as a whole by `tests/package/run.sh`.
#![deny(missing_docs)]

#[cfg(target_arch = "wasm32")]
pub use playground_module_api_mock::{JsApiMock, JsPetstoreMock};
#[cfg(target_arch = "wasm32")]
pub use playground_module_convert::{DocumentBundle, convert_swagger2};
