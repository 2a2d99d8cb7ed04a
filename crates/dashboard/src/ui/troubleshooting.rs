//! Troubleshooting: the four answers of spec part 7, always there (each a disclosure that stays
//! open as the page ticks), each with the domains its symptom can apply to now.

use leptos::prelude::*;
use playground_domains::{Symptom, Trouble};

/// The section.
#[component]
pub fn TroubleshootingView(
    /// [`playground_domains::Dashboard::troubleshooting`] at the page's `now`.
    #[prop(into)]
    troubles: Signal<Vec<Trouble>>,
) -> impl IntoView {
    let answers = Symptom::ALL.map(|symptom| {
        let trouble = Memo::new(move |_| troubles.with(|all| all.iter().find(|t| t.symptom == symptom).cloned()));
        view! {
            <details class="trouble" data-testid="trouble" data-symptom=symptom.key()>
                <summary>{symptom.title()}</summary>
                <p data-testid="trouble-answer">{move || trouble.get().map(|t| t.answer)}</p>
                {move || {
                    let applies = trouble.get().map(|t| t.applies_to).unwrap_or_default();
                    if applies.is_empty() {
                        view! { <p class="muted" data-testid="trouble-none">"None of your domains can show this now."</p> }
                            .into_any()
                    } else {
                        view! {
                            <p>"Where it can apply now:"</p>
                            <ul data-testid="trouble-where">
                                {applies.into_iter().map(|line| view! { <li><code>{line}</code></li> }).collect_view()}
                            </ul>
                        }
                        .into_any()
                    }
                }}
            </details>
        }
    });
    view! {
        <section class="section" aria-labelledby="troubleshooting-title" data-testid="troubleshooting-section">
            <h2 id="troubleshooting-title">"Troubleshooting"</h2>
            {answers.into_iter().collect_view()}
        </section>
    }
}
