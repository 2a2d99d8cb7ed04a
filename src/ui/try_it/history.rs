//! The answers of each operation for as long as the page is open: the list `App` provides once
//! as a context, the shown answer, and the "Recent" list to go back to an earlier one.

use std::collections::HashMap;

use leptos::prelude::*;
use petstore_core::html::escape;
use wasm_bindgen::JsCast;

use crate::transport::{Exchange, Outcome};

/// Answers kept per operation.
const HISTORY_LEN: usize = 5;

/// An exchange as the history keeps it: `id` tells the shown one apart, also when the view of
/// another replaces it in place.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// Unique for this page's life.
    pub id: u64,
    /// The request and what it got.
    pub exchange: Exchange,
}

/// The last answers of every operation, newest first. `Copy`: provided once at `App`.
#[derive(Debug, Clone, Copy)]
pub struct History {
    entries: RwSignal<HashMap<String, Vec<Entry>>>,
    next_id: StoredValue<u64>,
}

impl Default for History {
    fn default() -> Self {
        Self::new()
    }
}

impl History {
    /// An empty history.
    #[must_use]
    pub fn new() -> Self {
        Self { entries: RwSignal::new(HashMap::new()), next_id: StoredValue::new(1) }
    }

    /// The history `App` provides, or a new one for a panel rendered on its own.
    #[must_use]
    pub fn from_context() -> Self {
        use_context::<Self>().unwrap_or_default()
    }

    /// The answers of `operation`, newest first.
    #[must_use]
    pub fn of(&self, operation: String) -> Memo<Vec<Entry>> {
        let entries = self.entries;
        Memo::new(move |_| entries.with(|all| all.get(&operation).cloned().unwrap_or_default()))
    }

    /// Files `exchange` first among the answers of `operation`; returns its id.
    pub fn record(&self, operation: &str, exchange: Exchange) -> u64 {
        let id = self.next_id.get_value();
        self.next_id.set_value(id + 1);
        self.entries.update(|all| {
            let list = all.entry(operation.to_owned()).or_default();
            list.insert(0, Entry { id, exchange });
            list.truncate(HISTORY_LEN);
        });
        id
    }
}

/// The "Recent" list: one button per answer, which shows it; nothing until there are two. It
/// is HTML written at once (one DOM write per answer, no view per row), its clicks handled by
/// one listener.
#[component]
pub fn HistoryList(entries: Memo<Vec<Entry>>, shown: RwSignal<Option<u64>>) -> impl IntoView {
    let html = move || entries.with(|list| shown.with(|shown| history_html(list, *shown)));
    let on_click = move |ev: leptos::ev::MouseEvent| {
        let id = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|t| t.closest("[data-entry]").ok().flatten())
            .and_then(|b| b.get_attribute("data-entry"))
            .and_then(|id| id.parse().ok());
        if let Some(id) = id {
            shown.set(Some(id));
        }
    };
    view! { <div class="try-history-slot" inner_html=html on:click=on_click></div> }
}

fn history_html(list: &[Entry], shown: Option<u64>) -> String {
    if list.len() < 2 {
        return String::new();
    }
    let mut out = String::from(r#"<div class="try-history" data-testid="try-history"><h4>Recent</h4><ul>"#);
    for Entry { id, exchange: e } in list {
        let status = match &e.outcome {
            Outcome::Answer { status, .. } => status.to_string(),
            Outcome::Failure(_) => "failed".to_owned(),
        };
        let pressed = shown == Some(*id);
        out.push_str(&format!(
            r#"<li><button type="button" class="history-entry" data-entry="{id}" aria-pressed="{pressed}"><span class="history-time">{}</span> <span class="history-status">{status}</span> <span class="history-url">{} {}</span></button></li>"#,
            escape(&e.at),
            escape(&e.method),
            escape(&e.url),
        ));
    }
    out.push_str("</ul></div>");
    out
}

/// One answer as HTML: status, where it went, how long it took, headers and body; or why
/// there was none. Written at once and inserted in one DOM write.
#[must_use]
pub fn exchange_html(entry: &Entry) -> String {
    let Entry { id, exchange: e } = entry;
    // Whole tenths of a millisecond, formatted as integers (no float formatting in the app).
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // a short duration
    let tenths = (e.millis * 10.0).round().max(0.0) as u64;
    let millis = if tenths < 100 {
        format!("{}.{} ms", tenths / 10, tenths % 10)
    } else {
        format!("{} ms", (tenths + 5) / 10)
    };
    let meta = escape(&format!("{} {} · {} · {millis} · {}", e.method, e.url, e.target, e.at));
    match &e.outcome {
        Outcome::Failure(message) => format!(
            r#"<div class="try-failure" role="alert" data-testid="try-failure" data-exchange="{id}"><p class="try-meta">{meta}</p><p>{}</p></div>"#,
            escape(message)
        ),
        Outcome::Answer { status, status_text, headers, body, error } => {
            let class = if *status >= 400 { "status status-error" } else { "status status-ok" };
            let mut out = format!(
                r#"<div class="try-answer" data-testid="try-answer" data-status="{status}" data-exchange="{id}"><p class="try-status"><span class="{class}" data-testid="try-status">{status} {}</span><span class="try-meta">{meta}</span></p>"#,
                escape(status_text)
            );
            if let Some(error) = error {
                let code = error.code.as_ref().map_or_else(|| "Error".to_owned(), |c| format!("Error {c}"));
                out.push_str(&format!(
                    r#"<p class="try-error" data-testid="try-error"><strong>{}</strong>: {}</p>"#,
                    escape(&code),
                    escape(&error.message)
                ));
            }
            out.push_str(&format!(
                r#"<details class="try-headers"><summary>Headers ({})</summary><ul class="header-list" data-testid="try-response-headers">"#,
                headers.len()
            ));
            for (name, value) in headers {
                out.push_str(&format!("<li><code>{}</code>: {}</li>", escape(name), escape(value)));
            }
            out.push_str("</ul></details>");
            if !body.is_empty() {
                out.push_str(&format!(
                    r#"<pre class="example" data-testid="try-body-view"><code>{}</code></pre>"#,
                    escape(body)
                ));
            }
            out.push_str("</div>");
            out
        }
    }
}
