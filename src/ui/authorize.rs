//! The header's Authorize button and its dialog: every security scheme of the document in one
//! place, with the cards of the try-it module (its Authorization part), filling the credentials
//! every operation's panel sends. The module is loaded when the dialog is first opened.

use leptos::prelude::*;
use petstore_openapi::security::Scheme;
use wasm_bindgen::JsValue;

use crate::tryit::{TryItHost, unmount};

/// A button that opens a modal dialog with the cards of `schemes` (the document's), which fill
/// the credentials kept under `document_key`. `base_url`: what the document's OAuth 2 and
/// discovery URLs are relative to. Escape or the Close button closes it, and focus returns to
/// the button.
#[component]
pub fn Authorize(schemes: Vec<Scheme>, document_key: String, base_url: String) -> impl IntoView {
    let dialog = NodeRef::<leptos::html::Dialog>::new();
    let button = NodeRef::<leptos::html::Button>::new();
    let slot = NodeRef::<leptos::html::Div>::new();
    // What the dialog says instead of the cards: while the module loads, or why it did not.
    let status = RwSignal::new(None::<(bool, String)>);
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
    let open = move |_| {
        if let Some(dialog) = dialog.get_untracked() {
            let _ = dialog.show_modal();
        }
        if asked.get_value() {
            return;
        }
        asked.set_value(true);
        let Some(slot) = slot.get_untracked() else { return };
        status.set(Some((false, "Loading the credentials\u{2026}".to_owned())));
        let (host, json, key, base) = (host.clone(), json.clone(), document_key.clone(), base_url.clone());
        leptos::task::spawn_local(async move {
            match host.authorize(&slot, &json, &key, &base).await {
                Ok(cards) => {
                    status.try_set(None);
                    // The header may be gone by now: the cards go with it.
                    if mounted.try_set_value(Some(cards.clone())).is_some() {
                        unmount(&cards);
                    }
                }
                Err(reason) => {
                    status.try_set(Some((
                        true,
                        format!("The credentials form could not be loaded: {reason}. Reload the page to try again."),
                    )));
                }
            }
        });
    };
    let close = move |_| {
        if let Some(dialog) = dialog.get_untracked() {
            dialog.close();
        }
    };
    // Browsers give focus back on their own; this makes sure of it.
    let closed = move |_| {
        if let Some(button) = button.get_untracked() {
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
            node_ref=button
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
            node_ref=dialog
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
            {move || status.get().map(|(failed, message)| if failed {
                view! { <p class="error" role="alert" data-testid="authorize-failed">{message}</p> }.into_any()
            } else {
                view! { <p class="hint" role="status" data-testid="authorize-loading">{message}</p> }.into_any()
            })}
            <div class="authorize-slot" node_ref=slot></div>
        </dialog>
    }
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
