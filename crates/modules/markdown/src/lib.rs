//! The JavaScript module `dist/markdown/playground_markdown.js`: `markdownToHtml(source)` is the
//! core's safe renderer (raw HTML shown as text, unsafe link URLs dropped). The reference loads it
//! after its first paint, so the page's first download does not carry the Markdown parser (a
//! fifth of the app's size).
//!
//! `scripts/build-modules.sh` builds it with `cargo rustc --crate-type cdylib` and a stack of
//! 128 KiB, `wasm-bindgen --target web` and, in release, `wasm-opt`. On other targets the crate
//! is empty.
//!
//! Tests: `tests/markdown.rs` in headless Chromium (`webdriver.json` here is a link to the root
//! one).
#![deny(missing_docs)]

#[cfg(target_arch = "wasm32")]
use wasm_bindgen::prelude::*;

/// Renders `source` (CommonMark with tables and strikethrough) to HTML with no executable
/// content.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen(js_name = markdownToHtml)]
#[must_use]
pub fn markdown_to_html(source: &str) -> String {
    playground_reference::markdown::to_safe_html(source)
}
