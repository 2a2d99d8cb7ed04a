//! Small pieces the sections share: the error and status lines under a form, a table's column
//! heads, and a plain text input for names and values.

use leptos::prelude::*;

/// What a form's last submission gave: the sentence to show, or the reason it was refused.
pub type FormResult = Option<Result<String, String>>;

/// The lines under a form: the refusal (`role=alert`, `data-testid="{prefix}-error"`) and the
/// success (`role=status`, `data-testid="{prefix}-status"`); each stays empty otherwise.
#[component]
pub fn ResultLines(
    /// The form's last result.
    #[prop(into)]
    result: Signal<FormResult>,
    /// The start of both `data-testid`s, such as `add`.
    prefix: &'static str,
) -> impl IntoView {
    let error = move || match result.get() {
        Some(Err(message)) => message,
        _ => String::new(),
    };
    let status = move || match result.get() {
        Some(Ok(message)) => message,
        _ => String::new(),
    };
    view! {
        <p role="alert" class="error" data-testid=format!("{prefix}-error")>{error}</p>
        <p role="status" class="ok" data-testid=format!("{prefix}-status")>{status}</p>
    }
}

/// A table's column heads.
pub fn column_heads(names: &'static [&'static str]) -> impl IntoView + use<> {
    view! {
        <thead>
            <tr>{names.iter().map(|name| view! { <th scope="col">{*name}</th> }).collect_view()}</tr>
        </thead>
    }
}

/// A text input for a DNS name or value: no autocomplete, capitals or spelling fixes.
#[component]
pub fn PlainInput(
    /// The input's `data-testid`.
    testid: &'static str,
    /// What is typed.
    value: RwSignal<String>,
) -> impl IntoView {
    view! {
        <input
            type="text"
            autocomplete="off"
            autocapitalize="none"
            spellcheck="false"
            data-testid=testid
            prop:value=move || value.get()
            on:input=move |ev| value.set(event_target_value(&ev))
        />
    }
}
