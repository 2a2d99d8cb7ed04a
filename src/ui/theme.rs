//! Light or dark: the system's choice by default, or the reader's, kept in this browser.
//! `index.html` applies a saved choice before the first paint, so the page never flashes.

use leptos::prelude::*;

/// Where the choice is kept (`light` or `dark`; absent for the system's).
pub const THEME_KEY: &str = "playground/theme";

fn apply(theme: &str) {
    let Some(root) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()) else {
        return;
    };
    // The choice still applies to this page where storage is blocked or full.
    if theme == "light" || theme == "dark" {
        let _ = root.set_attribute("data-theme", theme);
        let _ = playground_browser::set(THEME_KEY, theme);
    } else {
        let _ = root.remove_attribute("data-theme");
        let _ = playground_browser::remove(THEME_KEY);
    }
}

fn current() -> String {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
        .and_then(|r| r.get_attribute("data-theme"))
        .unwrap_or_else(|| "system".to_owned())
}

/// A labelled choice: System, Light, Dark.
#[component]
pub fn ThemeToggle() -> impl IntoView {
    let theme = RwSignal::new(current());
    let option = move |value: &'static str, label: &'static str| {
        view! { <option value=value selected=move || theme.get() == value>{label}</option> }
    };
    view! {
        <div class="theme-toggle">
            <label for="theme-choice">"Theme"</label>
            <select
                id="theme-choice"
                data-testid="theme-toggle"
                on:change=move |ev| {
                    let value = event_target_value(&ev);
                    apply(&value);
                    theme.set(value);
                }
            >
                {option("system", "System")}
                {option("light", "Light")}
                {option("dark", "Dark")}
            </select>
        </div>
    }
}
