//! Petstore Playground: the Leptos app. It renders core values (`petstore_core`) and holds no
//! API logic of its own; the mock it talks to is the
//! `petstore_mock.js` module built from `petstore_web`.

pub mod mock;
pub mod modules;
pub mod ui;

use leptos::prelude::*;
use petstore_core::Catalog;
use petstore_core::openapi::petstore_value;

use crate::mock::MockState;

/// The whole page: notices about the mock's storage, then the reference of the embedded
/// Petstore document with the Mock block in its header. Opens the mock once, for every
/// component below (`MockState::expect()`).
#[component]
pub fn App() -> impl IntoView {
    // A test may provide its own mock first.
    let mock = MockState::from_context().unwrap_or_else(|| MockState::open(mock::STORAGE_KEY));
    provide_context(mock);
    ui::markdown::load_renderer();
    let notices = view! {
        <ui::mock_notices::MockNotices
            notices=mock.notices()
            on_dismiss=Callback::new(move |()| mock.dismiss_notices())
        />
    };
    let document = petstore_value();
    let page = match Catalog::from_value(&document) {
        Ok(catalog) => view! {
            <ui::reference::Reference document=document catalog=catalog>
                <ui::mock_panel::MockPanel />
                <ui::theme::ThemeToggle />
            </ui::reference::Reference>
        }
        .into_any(),
        Err(error) => view! { <ui::reference::LoadError error=error.to_string() /> }.into_any(),
    };
    view! { {notices} {page} }
}
