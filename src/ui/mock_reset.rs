//! The Reset button of the mock, with a confirmation: back to the demo data, or empty.

use leptos::prelude::*;

/// "Reset…", then the choice: demo data (when the mock has some, `demo`), empty, or cancel.
/// `on_reset(seed)` runs on a choice.
#[component]
pub fn MockReset(on_reset: Callback<bool>, #[prop(default = true)] demo: bool) -> impl IntoView {
    let confirming = RwSignal::new(false);
    let choose = move |seed: bool| {
        confirming.set(false);
        on_reset.run(seed);
    };
    view! {
        <div class="mock-reset">
            <button
                type="button"
                class="button"
                data-testid="mock-reset"
                aria-expanded=move || confirming.get().to_string()
                on:click=move |_| confirming.update(|c| *c = !*c)
            >
                "Reset…"
            </button>
            <Show when=move || confirming.get()>
                <div class="mock-reset-confirm" role="group" aria-label="Confirm the reset" data-testid="mock-reset-dialog">
                    <p>{if demo {
                        "Replace the mock's data in every tab? Changes made so far are lost."
                    } else {
                        "Empty the mock in every tab? Everything stored so far is lost."
                    }}</p>
                    <div class="mock-reset-actions">
                        {demo.then(|| view! {
                            <button type="button" class="button button-danger" data-testid="mock-reset-confirm" on:click=move |_| choose(true)>
                                "Reset to demo data"
                            </button>
                        })}
                        <button
                            type="button"
                            class=if demo { "button" } else { "button button-danger" }
                            data-testid="mock-reset-empty"
                            on:click=move |_| choose(false)
                        >
                            "Empty it"
                        </button>
                        <button type="button" class="button button-quiet" data-testid="mock-reset-cancel" on:click=move |_| confirming.set(false)>
                            "Cancel"
                        </button>
                    </div>
                </div>
            </Show>
        </div>
    }
}
