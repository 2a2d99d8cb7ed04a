//! The domain configuration (`{"domains": {"primary", "redirects"}}`): shown, downloadable as
//! JSON, and a checker that refuses an edited configuration with the reason.

use leptos::prelude::*;
use playground_domains::{DomainConfig, validate_config};

/// The file name of the downloaded configuration.
pub const CONFIG_FILE_NAME: &str = "domains.json";

fn pretty(config: &DomainConfig) -> String {
    serde_json::to_string_pretty(config).unwrap_or_default()
}

/// Checks a configuration typed or pasted by the owner against the attached domains.
///
/// # Errors
/// Not JSON of the shape, or the first rule it breaks.
pub fn check_config(text: &str, attached: &[String]) -> Result<(), String> {
    let config: DomainConfig = serde_json::from_str(text)
        .map_err(|e| format!("This is not a domain configuration of the shape shown above: {e}."))?;
    let attached: Vec<&str> = attached.iter().map(String::as_str).collect();
    validate_config(&config, &attached).map_err(|e| e.to_string())
}

/// The configuration section.
#[component]
pub fn ConfigView(
    /// The configuration of the attached domains.
    #[prop(into)]
    config: Signal<DomainConfig>,
    /// Every address the project answers to, what an edited configuration is checked against.
    #[prop(into)]
    attached: Signal<Vec<String>>,
    /// Live domains set to serve the project themselves (in neither part of the JSON).
    #[prop(into)]
    also_served: Signal<Vec<String>>,
) -> impl IntoView {
    let json = Memo::new(move |_| config.with(pretty));
    let download_error = RwSignal::new(String::new());
    let draft = RwSignal::new(String::new());
    let checked = RwSignal::new(None::<Result<(), String>>);
    let check = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        checked.set(Some(attached.with_untracked(|names| check_config(&draft.get_untracked(), names))));
    };
    view! {
        <section class="section" aria-labelledby="config-title" data-testid="config">
            <h2 id="config-title">"Domain configuration"</h2>
            <p class="muted">
                "The primary domain serves the project; every other live domain redirects to it with 301 (moved permanently), so old links keep working, unless it is set to serve the project itself (a region, an audience of its own). Only a live domain can be made primary; a domain still waiting for DNS or its certificate is not listed."
            </p>
            {move || {
                let served = also_served.get();
                (!served.is_empty()).then(|| view! {
                    <p data-testid="also-served">{format!("Also serving the project (not redirected): {}.", served.join(", "))}</p>
                })
            }}
            <pre class="config-json" data-testid="config-json" tabindex="0" aria-label="Domain configuration as JSON">{move || json.get()}</pre>
            <div class="actions">
                <button
                    type="button"
                    class="button"
                    data-testid="config-download"
                    on:click=move |_| {
                        download_error.set(playground_browser::download_json(CONFIG_FILE_NAME, &json.get_untracked()).err().map(|e| e.to_string()).unwrap_or_default());
                    }
                >
                    "Download JSON"
                </button>
            </div>
            <p role="alert" class="error">{move || download_error.get()}</p>
            <details class="config-check">
                <summary>"Check an edited configuration"</summary>
                <form data-testid="config-check-form" on:submit=check>
                    <label class="field">
                        <span class="field-label">"Configuration JSON"</span>
                        <textarea
                            rows="8"
                            spellcheck="false"
                            data-testid="config-input"
                            prop:value=move || draft.get()
                            on:input=move |ev| draft.set(event_target_value(&ev))
                        ></textarea>
                    </label>
                    <div class="actions">
                        <button type="button" class="button" data-testid="config-fill" on:click=move |_| draft.set(json.get_untracked())>
                            "Start from the current configuration"
                        </button>
                        <button type="submit" class="button button-primary" data-testid="config-check">
                            "Check"
                        </button>
                    </div>
                </form>
                <p role="status" data-testid="config-check-result" class=move || match checked.get() {
                    Some(Err(_)) => "error",
                    _ => "ok",
                }>
                    {move || match checked.get() {
                        Some(Ok(())) => "This configuration is valid for the attached domains.".to_owned(),
                        Some(Err(e)) => format!("Refused: {e}"),
                        None => String::new(),
                    }}
                </p>
            </details>
        </section>
    }
}
