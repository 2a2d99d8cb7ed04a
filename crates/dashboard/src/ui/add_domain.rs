//! Add a domain: a labelled input and a button; a refusal is shown under it with its reason.

use leptos::prelude::*;

use super::parts::{FormResult, ResultLines};

/// The Add domain form.
#[component]
pub fn AddDomain(
    /// Adds the typed name: what to say, or why not.
    #[prop(into)]
    on_add: Callback<String, Result<String, String>>,
) -> impl IntoView {
    let input = RwSignal::new(String::new());
    let result = RwSignal::new(FormResult::None);
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let outcome = on_add.run(input.get_untracked());
        if outcome.is_ok() {
            input.set(String::new());
        }
        result.set(Some(outcome));
    };
    view! {
        <section class="section" aria-labelledby="add-title">
            <h2 id="add-title">"Add a domain"</h2>
            <form class="add-form" data-testid="add-form" on:submit=submit>
                <label class="field add-field">
                    <span class="field-label">"Domain or subdomain"</span>
                    <input
                        type="text"
                        inputmode="url"
                        autocomplete="off"
                        autocapitalize="none"
                        spellcheck="false"
                        placeholder="docs.example.com"
                        data-testid="add-input"
                        aria-invalid=move || matches!(result.get(), Some(Err(_))).to_string()
                        prop:value=move || input.get()
                        on:input=move |ev| input.set(event_target_value(&ev))
                    />
                </label>
                <button type="submit" class="button button-primary" data-testid="add-button">
                    "Add domain"
                </button>
            </form>
            <p class="field-hint">
                "You need a paid plan (Pro or above), a successful deploy, and access to the DNS settings at your domain registrar."
            </p>
            <ResultLines result=result prefix="add" />
        </section>
    }
}
