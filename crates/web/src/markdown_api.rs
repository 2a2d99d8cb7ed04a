//! The Markdown renderer as a JavaScript module (cargo feature `markdown-api`):
//! `markdownToHtml(source)` is the core's safe renderer (raw HTML shown as text, unsafe link
//! URLs dropped). The reference loads it after its first paint, so the page's first download
//! does not carry the Markdown parser.

use wasm_bindgen::prelude::*;

/// Renders `source` (CommonMark with tables and strikethrough) to HTML with no executable
/// content.
#[wasm_bindgen(js_name = markdownToHtml)]
#[must_use]
pub fn markdown_to_html(source: &str) -> String {
    playground_reference::markdown::to_safe_html(source)
}
