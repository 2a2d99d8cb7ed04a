//! How much the mock holds: pets, categories, orders, stock; or, for another document, the
//! items of each resource.

use leptos::prelude::*;
use petstore::Counts;

use crate::mock::ResourceCount;

/// One line of counts, e.g. "6 pets · 3 categories · 0 orders · 42 in stock"; it wraps only
/// between counts. A change rewrites the counts' text, not their elements.
#[component]
pub fn MockCounts(counts: Signal<Counts>) -> impl IntoView {
    let parts = Memo::new(move |_| describe(counts.get()));
    let spans = (0..4)
        .map(|i| view! { <span class="mock-count">{move || parts.with(|p| p[i].clone())}</span>{(i < 3).then_some(" · ")} })
        .collect_view();
    view! {
        <p class="mock-counts" data-testid="mock-counts" aria-live="polite">
            {spans}
        </p>
    }
}

fn describe(counts: Counts) -> [String; 4] {
    let Counts { pets, categories, orders, stock, .. } = counts;
    let plural = |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    [
        plural(pets, "pet", "pets"),
        plural(categories, "category", "categories"),
        plural(orders, "order", "orders"),
        format!("{stock} in stock"),
    ]
}

/// What another document's mock stores: "12 items in 3 resources", and each resource with its
/// count under a disclosure; or that it stores nothing and answers from the document.
#[component]
pub fn ResourceCounts(resources: Signal<Vec<ResourceCount>>) -> impl IntoView {
    let summary = move || {
        resources.with(|list| {
            let items: usize = list.iter().map(|r| r.count).sum();
            let plural = |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
            format!("{} in {}", plural(items, "item", "items"), plural(list.len(), "resource", "resources"))
        })
    };
    let rows = move || {
        resources
            .get()
            .into_iter()
            .map(|r| view! { <li><code>{r.collection}</code>" "<span class="mock-count">{r.count}</span></li> })
            .collect_view()
    };
    // Only a change between empty and not makes the block again (an open list stays open).
    let empty = Memo::new(move |_| resources.with(Vec::is_empty));
    view! {
        {move || if empty.get() {
            view! {
                <p class="mock-counts" data-testid="mock-counts">
                    "Nothing to store: every operation answers from the document."
                </p>
            }.into_any()
        } else {
            view! {
                <details class="mock-resources">
                    <summary class="mock-counts" data-testid="mock-counts" aria-live="polite">{summary}</summary>
                    <ul class="mock-resource-list" data-testid="mock-resources">{rows}</ul>
                </details>
            }.into_any()
        }}
    }
}
