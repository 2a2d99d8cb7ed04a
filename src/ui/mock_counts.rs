//! How much the mock holds: pets, categories, orders, stock.

use leptos::prelude::*;
use petstore_core::Counts;

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
