//! `markdownToHtml` in headless Chromium: the reference's
//! descriptions render with formatting, and a hostile description stays inert text.
#![cfg(target_arch = "wasm32")]
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test, with its location

use playground_module_markdown::markdown_to_html;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn formatting_renders_and_raw_html_stays_text() {
    let html = markdown_to_html(
        "**bold** `code` [ok](https://example.com) [bad](javascript:alert(1))\n\n<script>x()</script>",
    );
    assert!(html.contains("<strong>bold</strong>"), "{html}");
    assert!(html.contains("<code>code</code>"), "{html}");
    assert!(html.contains(r#"<a href="https://example.com">ok</a>"#), "{html}");
    assert!(!html.contains("javascript:"), "{html}");
    assert!(html.contains("&lt;script&gt;x()&lt;/script&gt;"), "{html}");
    assert!(!html.contains("<script>"), "{html}");
}
