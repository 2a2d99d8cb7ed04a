//! The header's Authorize button and its dialog: every security scheme of the document in one
//! place, with the cards of the try-it module (its Authorization part), filling the credentials
//! every operation's panel sends. The module is loaded when the dialog is first opened.

use leptos::prelude::*;
use petstore_openapi::security::Scheme;
use wasm_bindgen::{JsCast, JsValue};

use crate::tryit::{TryItHost, unmount};

/// A button that opens a modal dialog with the cards of `schemes` (the document's), which fill
/// the credentials kept under `document_key`. `base_url`: what the document's OAuth 2 and
/// discovery URLs are relative to. Escape or the Close button closes it, and focus returns to
/// the button.
#[component]
pub fn Authorize(schemes: Vec<Scheme>, document_key: String, base_url: String) -> impl IntoView {
    let slot = NodeRef::<leptos::html::Div>::new();
    let loading = RwSignal::new(false);
    let failure = RwSignal::new(None::<String>);
    let asked = StoredValue::new(false);
    let mounted = StoredValue::new_local(None::<JsValue>);
    on_cleanup(move || {
        if let Some(Some(cards)) = mounted.try_update_value(Option::take) {
            unmount(&cards);
        }
    });
    let host = TryItHost::from_context();
    let json = serde_json::to_string(&schemes).unwrap_or_default();
    let count = schemes.len();
    // The dialog is the button's next sibling: no node reference of their own (each element
    // type's costs the first download).
    let open = move |ev: web_sys::MouseEvent| {
        if let Some(dialog) = dialog_after(ev.current_target()) {
            let _ = dialog.show_modal();
        }
        if asked.get_value() {
            return;
        }
        asked.set_value(true);
        let Some(slot) = slot.get_untracked() else { return };
        loading.set(true);
        let (host, json, key, base) = (host.clone(), json.clone(), document_key.clone(), base_url.clone());
        leptos::task::spawn_local(async move {
            let result = host.authorize(&slot, &json, &key, &base).await;
            loading.try_set(false);
            match result {
                // The header may be gone by now: the cards go with it.
                Ok(cards) => {
                    if mounted.try_set_value(Some(cards.clone())).is_some() {
                        unmount(&cards);
                    }
                }
                Err(reason) => {
                    failure.try_set(Some(format!(
                        "The credentials form could not be loaded: {reason}. Reload the page to try again."
                    )));
                }
            }
        });
    };
    let close = move |ev: web_sys::MouseEvent| {
        let dialog = ev
            .current_target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|b| b.closest("dialog").ok().flatten());
        if let Some(dialog) = dialog.and_then(|d| d.dyn_into::<web_sys::HtmlDialogElement>().ok()) {
            dialog.close();
        }
    };
    // Browsers give focus back on their own; this makes sure of it.
    let closed = move |ev: web_sys::Event| {
        let button = ev
            .current_target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|d| d.previous_element_sibling());
        if let Some(button) = button.and_then(|b| b.dyn_into::<web_sys::HtmlElement>().ok()) {
            let _ = button.focus();
        }
    };
    let label = format!("Credentials for {count} security scheme{}", if count == 1 { "" } else { "s" });
    view! {
        <button
            type="button"
            class="button authorize-button"
            data-testid="authorize-button"
            aria-haspopup="dialog"
            title=label
            on:click=open
        >
            {lock()}
            "Authorize"
        </button>
        <dialog
            class="authorize-dialog"
            data-testid="authorize-dialog"
            aria-labelledby="authorize-title"
            aria-describedby="authorize-hint"
            on:close=closed
        >
            <div class="dialog-head">
                <h2 id="authorize-title">"Authorize"</h2>
                <button type="button" class="button button-quiet" data-testid="authorize-close" on:click=close>
                    "Close"
                </button>
            </div>
            <p class="hint" id="authorize-hint">
                "The credentials of this document's security schemes, for every operation's try-it panel."
            </p>
            <p class="hint" role="status" data-testid="authorize-loading" hidden=move || !loading.get()>
                "Loading the credentials\u{2026}"
            </p>
            {move || failure.get().map(|message| view! {
                <p class="error" role="alert" data-testid="authorize-failed">{message}</p>
            })}
            <div class="authorize-slot" node_ref=slot></div>
        </dialog>
    }
}

/// The dialog that follows the element `target` (the Authorize button).
fn dialog_after(target: Option<web_sys::EventTarget>) -> Option<web_sys::HtmlDialogElement> {
    target?.dyn_into::<web_sys::Element>().ok()?.next_element_sibling()?.dyn_into().ok()
}

/// The closed padlock of the button (decoration: the button's text says what it does).
fn lock() -> impl IntoView {
    view! {
        <svg class="lock-icon" viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false">
            <path d="M5 7V5a3 3 0 0 1 6 0v2" fill="none" stroke="currentColor" stroke-width="1.6" />
            <rect x="3" y="7" width="10" height="7.5" rx="1.5" fill="currentColor" />
        </svg>
    }
}
