//! Markdown from the document, rendered by the core into HTML with no executable content.

use leptos::prelude::*;

/// A description rendered from Markdown.
#[component]
pub fn Markdown(#[prop(into)] source: String) -> impl IntoView {
    view! { <div class="markdown" inner_html=petstore_core::markdown::to_safe_html(&source)></div> }
}
