//! The search box over the operation list; `/` or Ctrl/Cmd+K focuses it, Escape clears it.

use leptos::html;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// True when a key press is typing into a field, where `/` must stay a character.
fn typing(event: &web_sys::KeyboardEvent) -> bool {
    event.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()).is_some_and(|el| {
        matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT")
            || el.get_attribute("contenteditable").is_some_and(|v| v != "false")
    })
}

/// A labelled search field writing into `query`.
#[component]
pub fn OperationSearch(query: RwSignal<String>) -> impl IntoView {
    let input = NodeRef::<html::Input>::new();
    let listener = window_event_listener(leptos::ev::keydown, move |event| {
        let shortcut = (event.key() == "/" && !typing(&event))
            || ((event.ctrl_key() || event.meta_key()) && event.key().eq_ignore_ascii_case("k"));
        if shortcut && let Some(input) = input.get_untracked() {
            event.prevent_default();
            let _ = input.focus();
            input.select();
        }
    });
    on_cleanup(move || listener.remove());
    view! {
        <div class="search" role="search">
            <label for="operation-search" class="search-label">"Search operations"</label>
            <input
                id="operation-search"
                type="search"
                data-testid="search"
                node_ref=input
                placeholder="Path, summary or operationId"
                aria-keyshortcuts="/ Control+K Meta+K"
                autocomplete="off"
                prop:value=move || query.get()
                on:input=move |ev| query.set(event_target_value(&ev))
                on:keydown=move |ev| {
                    if ev.key() == "Escape" {
                        query.set(String::new());
                    }
                }
            />
            <kbd class="search-hint" aria-hidden="true">"/"</kbd>
        </div>
    }
}
