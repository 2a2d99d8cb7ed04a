//! The answers of each operation for as long as the page is open: the list `App` provides once
//! as a context, the shown answer, and the "Recent" list to go back to an earlier one.

use std::collections::HashMap;

use leptos::prelude::*;

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

/// The "Recent" list: one button per answer, which shows it; nothing until there are two.
#[component]
pub fn HistoryList(entries: Memo<Vec<Entry>>, shown: RwSignal<Option<u64>>) -> impl IntoView {
    move || {
        let list = entries.get();
        (list.len() > 1).then(|| {
            view! {
                <div class="try-history" data-testid="try-history">
                    <h4>"Recent"</h4>
                    <ul>
                        {list
                            .into_iter()
                            .map(|Entry { id, exchange: e }| {
                                let status = match &e.outcome {
                                    Outcome::Answer { status, .. } => status.to_string(),
                                    Outcome::Failure(_) => "failed".to_owned(),
                                };
                                view! {
                                    <li>
                                        <button
                                            type="button"
                                            class="history-entry"
                                            aria-pressed=move || (shown.get() == Some(id)).to_string()
                                            on:click=move |_| shown.set(Some(id))
                                        >
                                            <span class="history-time">{e.at}</span>
                                            " "
                                            <span class="history-status">{status}</span>
                                            " "
                                            <span class="history-url">{format!("{} {}", e.method, e.url)}</span>
                                        </button>
                                    </li>
                                }
                            })
                            .collect_view()}
                    </ul>
                </div>
            }
        })
    }
}

/// One answer: status, where it went, how long it took, headers and body; or why there was none.
#[component]
pub fn ExchangeView(entry: Entry) -> impl IntoView {
    let Entry { id, exchange: e } = entry;
    // Whole tenths of a millisecond, formatted as integers (no float formatting in the app).
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // a short duration
    let tenths = (e.millis * 10.0).round().max(0.0) as u64;
    let millis = if tenths < 100 {
        format!("{}.{} ms", tenths / 10, tenths % 10)
    } else {
        format!("{} ms", (tenths + 5) / 10)
    };
    let meta = format!("{} {} · {} · {millis} · {}", e.method, e.url, e.target, e.at);
    // Which exchange is shown: the view is patched in place when another answer replaces it.
    let exchange = id.to_string();
    match e.outcome {
        Outcome::Failure(message) => view! {
            <div class="try-failure" role="alert" data-testid="try-failure" data-exchange=exchange>
                <p class="try-meta">{meta}</p>
                <p>{message}</p>
            </div>
        }
        .into_any(),
        Outcome::Answer { status, status_text, headers, body, error } => {
            let class = if status >= 400 { "status status-error" } else { "status status-ok" };
            view! {
                <div class="try-answer" data-testid="try-answer" data-status=status.to_string() data-exchange=exchange>
                    <p class="try-status">
                        <span class=class data-testid="try-status">{format!("{status} {status_text}")}</span>
                        <span class="try-meta">{meta}</span>
                    </p>
                    {error.map(|e| view! {
                        <p class="try-error" data-testid="try-error">
                            <strong>{e.code.map_or_else(|| "Error".to_owned(), |c| format!("Error {c}"))}</strong>
                            ": "
                            {e.message}
                        </p>
                    })}
                    <details class="try-headers">
                        <summary>{format!("Headers ({})", headers.len())}</summary>
                        <ul class="header-list" data-testid="try-response-headers">
                            {headers.into_iter().map(|(n, v)| view! { <li><code>{n}</code>": "{v}</li> }).collect_view()}
                        </ul>
                    </details>
                    {(!body.is_empty()).then(|| view! {
                        <pre class="example" data-testid="try-body-view"><code>{body}</code></pre>
                    })}
                </div>
            }
            .into_any()
        }
    }
}
