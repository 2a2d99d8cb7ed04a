//! Add a domain: a labelled input and a button; a refusal is shown under it with its reason.

use leptos::prelude::*;

use super::parts::{FormResult, ResultLines};

/// One submission of the form: the name typed, and where its result goes. The demo answers
/// at once; on a host the answer comes later, from the host.
#[derive(Debug, Clone, Copy)]
pub struct AddRequest {
    /// What was typed.
    pub input: RwSignal<String>,
    /// The lines under the form.
    pub result: RwSignal<FormResult>,
}

impl AddRequest {
    /// The name as typed.
    #[must_use]
    pub fn name(&self) -> String {
        self.input.get_untracked()
    }

    /// Shows the result; a success clears the input.
    pub fn finish(&self, outcome: Result<String, String>) {
        if outcome.is_ok() {
            self.input.set(String::new());
        }
        self.result.set(Some(outcome));
    }
}

/// The Add domain form.
#[component]
pub fn AddDomain(
    /// Adds the typed name, then calls [`AddRequest::finish`] with what to say or why not.
    #[prop(into)]
    on_add: Callback<AddRequest>,
    /// Whether an add is on its way (the button waits).
    #[prop(optional, into)]
    busy: Signal<bool>,
) -> impl IntoView {
    let input = RwSignal::new(String::new());
    let result = RwSignal::new(FormResult::None);
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        if !busy.get_untracked() {
            on_add.run(AddRequest { input, result });
        }
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
                <button type="submit" class="button button-primary" data-testid="add-button" disabled=move || busy.get()>
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
