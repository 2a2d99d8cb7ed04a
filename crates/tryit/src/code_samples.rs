//! Code samples of an operation: the document's `x-codeSamples`, or generated cURL,
//! JavaScript, Python, Go, Java and C# for the try-it form's request (or the example request where there is no
//! try-it panel); tabs and a copy button.

use leptos::prelude::*;
use playground_http::Request;
use playground_reference::{CodeSamples as Samples, OperationView};
use playground_tryit_core::samples::{Lang, SampleForm, generate_with};
use wasm_bindgen::JsCast;

/// The samples of one operation; nothing when the document sets `x-codeSamples: false`.
/// Generated samples follow `request` (the try-it form's) when given.
#[component]
pub fn CodeSamples(
    view: std::sync::Arc<OperationView>,
    #[prop(default = None)] request: Option<Signal<Request>>,
    /// A form body as the samples write it (multipart or URL-encoded), when the form has one.
    #[prop(default = None)]
    form: Option<Signal<Option<SampleForm>>>,
) -> impl IntoView {
    let tabs = tabs_of(&view, request, form)?;
    if tabs.is_empty() {
        return None;
    }
    let selected = RwSignal::new(0_usize);
    let copied = RwSignal::new(false);
    let sources = StoredValue::new(tabs.iter().map(|(_, s)| *s).collect::<Vec<_>>());
    let copy = move |_| {
        let source = sources
            .with_value(|s| s.get(selected.get_untracked()).map(|s| s.get_untracked()).unwrap_or_default());
        if let Some(window) = web_sys::window() {
            let _ = window.navigator().clipboard().write_text(&source);
            copied.set(true);
        }
    };
    let on_keydown = tab_keys(selected, copied, tabs.len());
    Some(view! {
        <section class="code-samples" data-testid="code-samples" aria-label="Code samples">
            <h3>"Code samples"</h3>
            <div class="tabs-bar">
                <div class="tabs" role="tablist" aria-label="Language" on:keydown=on_keydown>
                    {tabs
                        .iter()
                        .enumerate()
                        .map(|(i, (label, _))| {
                            view! {
                                <button
                                    type="button"
                                    role="tab"
                                    class="tab"
                                    data-testid="sample-tab"
                                    aria-selected=move || (selected.get() == i).to_string()
                                    tabindex=move || if selected.get() == i { "0" } else { "-1" }
                                    on:click=move |_| {
                                        selected.set(i);
                                        copied.set(false);
                                    }
                                >
                                    {label.clone()}
                                </button>
                            }
                        })
                        .collect_view()}
                </div>
                <button type="button" class="copy" data-testid="sample-copy" on:click=copy>
                    {move || if copied.get() { "Copied" } else { "Copy" }}
                </button>
            </div>
            <pre class="sample" role="tabpanel" aria-label="Sample source" tabindex="0" data-testid="sample-source"><code>
                {move || sources.with_value(|s| s.get(selected.get()).map(|s| s.get()).unwrap_or_default())}
            </code></pre>
        </section>
    })
}

/// Each tab's label and source: the document's own samples, or one generated per language that
/// follows `request` (the example request where there is none); `None` when the document hides
/// them.
fn tabs_of(
    view: &OperationView,
    request: Option<Signal<Request>>,
    form: Option<Signal<Option<SampleForm>>>,
) -> Option<Vec<(String, Signal<String>)>> {
    Some(match &view.code_samples {
        Samples::Hidden => return None,
        Samples::Custom(list) => {
            list.iter().map(|s| (s.label.clone(), Signal::stored(s.source.trim_end().to_owned()))).collect()
        }
        Samples::Generated => {
            let request = request.unwrap_or_else(|| {
                let base = view.servers.first().cloned().unwrap_or_default();
                Signal::stored(playground_tryit_core::request::example(view, &base))
            });
            Lang::ALL
                .iter()
                .map(|&lang| {
                    (
                        lang.label().to_owned(),
                        Signal::derive(move || {
                            // Forms are sent only with `extras`: without it no sample writes one.
                            #[cfg(feature = "extras")]
                            let form = form.and_then(|f| f.get());
                            #[cfg(not(feature = "extras"))]
                            let form: Option<SampleForm> = form.and(None);
                            request.with(|r| generate_with(lang, r, form.as_ref()))
                        }),
                    )
                })
                .collect()
        }
    })
}

/// The tab list's keys: arrow keys, Home and End move between the `count` tabs (the ARIA tabs
/// pattern); only the selected tab is in the Tab order.
fn tab_keys(
    selected: RwSignal<usize>,
    copied: RwSignal<bool>,
    count: usize,
) -> impl Fn(leptos::ev::KeyboardEvent) + Copy + 'static {
    move |ev: leptos::ev::KeyboardEvent| {
        let current = selected.get_untracked();
        let next = match ev.key().as_str() {
            "ArrowRight" => (current + 1) % count,
            "ArrowLeft" => (current + count - 1) % count,
            "Home" => 0,
            "End" => count - 1,
            _ => return,
        };
        ev.prevent_default();
        selected.set(next);
        copied.set(false);
        let tab = ev
            .current_target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|list| list.children().item(u32::try_from(next).unwrap_or(0)))
            .and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok());
        if let Some(tab) = tab {
            let _ = tab.focus();
        }
    }
}
