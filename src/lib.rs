//! Petstore Playground: the Leptos app. It renders core values (`petstore_core`) and holds no
//! API logic of its own.

pub mod ui;

use leptos::prelude::*;
use petstore_core::Catalog;
use petstore_core::openapi::PETSTORE_JSON;

/// The whole page: the reference of the embedded Petstore document.
#[component]
pub fn App() -> impl IntoView {
    match Catalog::from_json(PETSTORE_JSON.as_bytes()) {
        Ok(catalog) => view! { <ui::reference::Reference catalog=catalog /> }.into_any(),
        Err(error) => view! { <ui::reference::LoadError error=error.to_string() /> }.into_any(),
    }
}
