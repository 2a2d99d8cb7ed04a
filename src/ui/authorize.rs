//! The header's Authorize button and its dialog: every security scheme of the document in one
//! place, with the cards of the try-it module (its Authorization part), filling the credentials
//! every operation's panel sends. The module is loaded when the dialog is first opened.

use leptos::prelude::*;
use playground_openapi::security::Scheme;
use wasm_bindgen::{JsCast, JsValue};

use crate::tryit::{TryItHost, unmount};

/// A button that opens a modal dialog with the cards of `schemes` (the document's), which fill
/// the credentials kept under `document_key`. `base_url`: what the document's OAuth 2 and
/// discovery URLs are relative to. Escape or the Close button closes it, and focus returns to
/// the button.
///
/// The markup is HTML ([`markup`]) with one click listener, as the list's rows are: a Leptos
/// view of its elements cost the first download several kilobytes.
#[component]
pub fn Authorize(schemes: Vec<Scheme>, document_key: String, base_url: String) -> impl IntoView {
    let asked = StoredValue::new(false);
    let mounted = StoredValue::new_local(None::<JsValue>);
    on_cleanup(move || {
        if let Some(Some(cards)) = mounted.try_update_value(Option::take) {
            unmount(&cards);
        }
    });
    let host = TryItHost::from_context();
    let json = serde_json::to_string(&schemes).unwrap_or_default();
    let html = markup(schemes.len());
    let click = move |ev: web_sys::MouseEvent| {
        let Some(target) = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return };
        let Some(root) = ev.current_target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else {
            return;
        };
        let Some(dialog) =
            find(&root, "dialog").and_then(|d| d.dyn_into::<web_sys::HtmlDialogElement>().ok())
        else {
            return;
        };
        if target.closest("[data-testid=authorize-close]").ok().flatten().is_some() {
            dialog.close();
            return;
        }
        if target.closest("[data-testid=authorize-button]").ok().flatten().is_none() {
            return;
        }
        let _ = dialog.show_modal();
        if asked.get_value() {
            return;
        }
        asked.set_value(true);
        give_focus_back(&dialog, find(&root, "[data-testid=authorize-button]"));
        let (Some(slot), Some(loading)) = (
            find(&root, ".authorize-slot").and_then(|s| s.dyn_into::<web_sys::HtmlElement>().ok()),
            find(&root, "[data-testid=authorize-loading]"),
        ) else {
            return;
        };
        let _ = loading.remove_attribute("hidden");
        let (host, json, key, base) = (host.clone(), json.clone(), document_key.clone(), base_url.clone());
        leptos::task::spawn_local(async move {
            let result = host.authorize(&slot, &json, &key, &base).await;
            match result {
                // The header may be gone by now: the cards go with it.
                Ok(cards) => {
                    let _ = loading.set_attribute("hidden", "");
                    if mounted.try_set_value(Some(cards.clone())).is_some() {
                        unmount(&cards);
                    }
                }
                Err(reason) => {
                    let _ = loading.set_attribute("class", "error");
                    let _ = loading.set_attribute("role", "alert");
                    let _ = loading.set_attribute("data-testid", "authorize-failed");
                    loading.set_text_content(Some(&format!(
                        "The credentials form could not be loaded: {reason}. Reload the page to try again."
                    )));
                }
            }
        });
    };
    view! { <div class="authorize" on:click=click inner_html=html></div> }
}

/// The first element under `root` that `selector` matches.
fn find(root: &web_sys::Element, selector: &str) -> Option<web_sys::Element> {
    root.query_selector(selector).ok().flatten()
}

/// Browsers give focus back to the button when the dialog closes (Escape, Close); this makes
/// sure of it. Listens for the dialog's life (the closure goes with the page).
fn give_focus_back(dialog: &web_sys::HtmlDialogElement, button: Option<web_sys::Element>) {
    let Some(button) = button.and_then(|b| b.dyn_into::<web_sys::HtmlElement>().ok()) else { return };
    let focus = wasm_bindgen::closure::Closure::<dyn Fn()>::new(move || {
        let _ = button.focus();
    });
    let _ = dialog.add_event_listener_with_callback("close", focus.as_ref().unchecked_ref());
    focus.forget();
}

/// The button (a padlock and "Authorize"; its title counts the `schemes`) and the dialog: a
/// heading that names it, Close, a hint, the loading line and the slot the cards go in.
fn markup(schemes: usize) -> String {
    let plural = if schemes == 1 { "" } else { "s" };
    format!(
        concat!(
            r#"<button type="button" class="button authorize-button" data-testid="authorize-button" aria-haspopup="dialog" title="Credentials for {schemes} security scheme{plural}">"#,
            r#"<svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false"><path d="M5 7V5a3 3 0 0 1 6 0v2" fill="none" stroke="currentColor" stroke-width="1.6"/><rect x="3" y="7" width="10" height="7.5" rx="1.5" fill="currentColor"/></svg>"#,
            r#"Authorize</button>"#,
            r#"<dialog class="authorize-dialog" data-testid="authorize-dialog" aria-labelledby="authorize-title" aria-describedby="authorize-hint">"#,
            r#"<div class="dialog-head"><h2 id="authorize-title">Authorize</h2>"#,
            r#"<button type="button" class="button button-quiet" data-testid="authorize-close">Close</button></div>"#,
            r#"<p class="hint" id="authorize-hint">The credentials of this document's security schemes, for every operation's try-it panel.</p>"#,
            r#"<p class="hint" role="status" data-testid="authorize-loading" hidden>Loading the credentials…</p>"#,
            r#"<div class="authorize-slot"></div></dialog>"#
        ),
        schemes = schemes,
        plural = plural
    )
}
