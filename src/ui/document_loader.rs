//! Choosing the document: which one is shown, loading another (URL, file or pasted JSON or
//! YAML), the way back to the built-in Petstore document, and what went wrong when a load
//! failed (the shown document stays).
//!
//! The loader's markup is static HTML with one listener per event kind on its container, and
//! one effect writes the source line, the status and the error into it: the initial download
//! has a size budget, and a view tree of this many elements would cost several kilobytes of
//! WebAssembly where a string costs a few hundred bytes.

use leptos::ev::{Event, MouseEvent, SubmitEvent};
use leptos::html;
use leptos::prelude::*;
use wasm_bindgen::{JsCast, JsValue};

use crate::document::{DocumentState, Status, show_loader};

const LOADER_HTML: &str = r#"<p class="document-source" data-testid="document-source" hidden><span>Showing <strong data-slot="source"></strong>.</span> <button type="button" class="button" data-action="builtin" data-testid="document-builtin">Back to the Petstore document</button></p><details class="loader"><summary data-testid="document-loader-toggle">Load another API description</summary><div class="loader-body"><form class="loader-part" data-action="url"><label for="document-url">From a URL (JSON or YAML)</label><div class="loader-row"><input id="document-url" type="text" inputmode="url" autocomplete="url" spellcheck="false" placeholder="https://example.com/openapi.yaml" data-testid="document-url"><button type="submit" class="button" data-testid="document-url-load">Load</button></div></form><div class="loader-part"><label for="document-file">From a file</label><input id="document-file" type="file" accept=".json,.yaml,.yml,application/json,application/yaml,text/yaml" data-testid="document-file"></div><form class="loader-part" data-action="text"><label for="document-text">Paste JSON or YAML</label><textarea id="document-text" rows="5" spellcheck="false" placeholder="openapi: 3.1.0" data-testid="document-text"></textarea><button type="submit" class="button" data-testid="document-text-load">Show this document</button></form><p class="loader-note">Every document gets its own in-browser mock: its try-it panels can send to it, and what they create is kept in this browser.</p></div></details><p class="document-status" role="status" data-testid="document-status"></p><div class="document-error" role="alert" data-testid="document-error" hidden><p><strong>The document was not loaded.</strong> <span data-testid="document-error-message"></span></p><button type="button" class="button button-quiet" data-action="dismiss" data-testid="document-error-dismiss">Dismiss</button></div>"#;

fn find(root: &web_sys::Element, selector: &str) -> Option<web_sys::Element> {
    root.query_selector(selector).ok().flatten()
}

fn value_of(form: &web_sys::Element, selector: &str) -> String {
    find(form, selector)
        .and_then(|field| js_sys::Reflect::get(&field, &JsValue::from_str("value")).ok())
        .and_then(|value| value.as_string())
        .unwrap_or_default()
}

fn target(ev: &Event) -> Option<web_sys::Element> {
    ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok())
}

/// The document bar: the source line with the way back, the loader (folded), and the status
/// or error of the last load, for the documents of `documents`. A plain function rather than a
/// `#[component]`: one wrapper type less in the initial download.
pub fn document_loader(documents: DocumentState) -> impl IntoView {
    let root = NodeRef::<html::Div>::new();
    crate::effect(move || {
        let status = documents.status();
        let source = documents
            .current
            .with(|c| c.as_ref().filter(|c| !c.source.is_builtin()).map(|c| c.source.describe()));
        let Some(root) = root.get() else { return };
        let (loading, failed) = match &status {
            Status::Idle => (None, None),
            Status::Loading(what) => (Some(what.as_str()), None),
            Status::Failed(message) => (None, Some(message.as_str())),
        };
        show_loader(&root, source.as_deref(), loading, failed);
    });
    let on_submit = move |ev: SubmitEvent| {
        ev.prevent_default();
        let Some(form) = target(&ev) else { return };
        match form.get_attribute("data-action").as_deref() {
            Some("url") => documents.load_url(&value_of(&form, "input")),
            Some("text") => documents.load_text(value_of(&form, "textarea")),
            _ => {}
        }
    };
    let on_change = move |ev: Event| {
        let input = target(&ev).and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok());
        if let Some(input) = input.filter(|i| i.type_() == "file") {
            if let Some(file) = input.files().and_then(|files| files.get(0)) {
                documents.load_file(file);
            }
            // Choosing the same file again must fire `change` again.
            input.set_value("");
        }
    };
    let on_click = move |ev: MouseEvent| {
        let action = target(&ev)
            .and_then(|t| t.closest("[data-action]").ok().flatten())
            .and_then(|el| el.get_attribute("data-action"));
        match action.as_deref() {
            Some("builtin") => documents.back_to_builtin(),
            Some("dismiss") => documents.dismiss(),
            _ => {}
        }
    };
    view! {
        <div
            class="document-loader"
            role="region"
            aria-label="OpenAPI document"
            data-testid="document-loader"
            node_ref=root
            inner_html=LOADER_HTML
            on:submit=on_submit
            on:change=on_change
            on:click=on_click
        ></div>
    }
}
