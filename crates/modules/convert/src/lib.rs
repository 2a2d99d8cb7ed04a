//! The JavaScript module `dist/convert/playground_convert.js`: `convertSwagger2(bytes)`, the
//! Swagger 2.0 to OpenAPI 3.0 converter (`playground_convert`), and `DocumentBundle`, which
//! bundles a description kept in many files (`playground_openapi::bundle`, URLs joined by the
//! browser's `URL`). The page loads it only when a document is Swagger 2.0 or names other
//! files, so the reference's first download does not carry either. In Node (the npm package),
//! `DocumentBundle` follows `file:` references only from a `file:` description (`bundle.rs`).
//!
//! `scripts/build-modules.sh` builds it with `cargo rustc --crate-type cdylib`, `wasm-bindgen
//! --target web` and, in release, `wasm-opt`; `playground-module-package` links it into the npm
//! package's module. On other targets the crate is empty.
//!
//! Tests: `tests/convert.rs` in headless Chromium (`webdriver.json` here is a link to the root
//! one).
#![deny(missing_docs)]

#[cfg(target_arch = "wasm32")]
mod bundle;
#[cfg(target_arch = "wasm32")]
mod convert;

#[cfg(target_arch = "wasm32")]
pub use bundle::{BundleResult, DocumentBundle};
#[cfg(target_arch = "wasm32")]
pub use convert::{ConvertResult, convert_swagger2};
