//! Petstore Playground: the Leptos app. It renders core values (`petstore_core`) and holds no
//! API logic of its own; the mock it talks to is the
//! `petstore_mock.js` module built from `petstore_web`.

pub mod document;
pub mod layout;
pub mod mock;
pub mod modules;
pub mod tryit;
pub mod ui;

use leptos::either::Either;
use leptos::prelude::*;

use crate::document::{DocumentState, Status};
use crate::mock::MockState;

/// The whole page: notices about the mock's storage, then the reference of the shown document
/// (the Petstore one, or the one named by `?url=` or loaded by the reader) with the
/// document loader and the Mock block in its header. Gives the shown document its mock (an
/// effect that follows the shown document) and opens the Markdown renderer, for every component
/// below (a test may provide either first), and starts the [`DocumentState`].
#[component]
pub fn App() -> impl IntoView {
    // A test may provide its own mock first. Otherwise the Petstore's mock module is loaded
    // when the built-in document is shown (after its first paint), another document's mock
    // when that document is in (or when it is needed, for a large one).
    let mock = MockState::from_context().unwrap_or_else(MockState::deferred);
    provide_context(mock);
    let markdown = use_context().unwrap_or_else(ui::markdown::MarkdownRenderer::deferred);
    provide_context(markdown);
    let documents = DocumentState::start();
    provide_context(documents.arrivals);
    // The shown document's mock: the Petstore's starts at once, another document's when it is
    // small enough (else when it is asked for). Only a change of document runs it again.
    effect(move || {
        let shown = documents.current.with(|loaded| {
            loaded.as_ref().map(|loaded| (mock::MockSource::of(loaded), loaded.source.is_builtin()))
        });
        let Some((source, builtin)) = shown else { return };
        untrack(|| {
            mock.show(source);
            if builtin {
                mock.start();
            } else {
                mock.start_within(mock::START_AT_ONCE_BYTES);
            }
        });
    });
    let notices = view! {
        <ui::mock_notices::MockNotices
            notices=mock.notices()
            on_dismiss=Callback::new(move |()| mock.dismiss_notices())
        />
    };
    // Only a change of document re-renders the reference (not a change of the loader's status).
    let page = move || match documents.current.get() {
        Some(loaded) => {
            let builtin = loaded.source.is_builtin();
            let download = loaded.saver();
            let base = match &loaded.source {
                petstore_openapi::document::Source::Url(address) => Some(address.clone()),
                _ => None,
            };
            Either::Left(view! {
                <ui::reference::Reference
                    document=loaded.value
                    catalog=loaded.catalog
                    builtin=builtin
                    converted=loaded.converted
                    download=download
                    base=base
                >
                    {ui::document_loader::document_loader(documents)}
                    <ui::mock_panel::MockPanel />
                    <nav class="header-nav" aria-label="Project">
                        <a href="domains.html" data-testid="domains-link">"Project settings › Domains"</a>
                        <ui::theme::ThemeToggle />
                    </nav>
                </ui::reference::Reference>
            })
        }
        None => Either::Right(start_page(documents)),
    };
    view! { {notices} {page} }
}

/// An effect (`Effect::new`) of a boxed function. The effects made with it share one
/// instantiation of the effect's task, where each closure type of its own adds about 1 KB to the
/// first download.
pub(crate) fn effect(run: impl FnMut() + 'static) {
    Effect::new(Box::new(run) as Box<dyn FnMut()>);
}

/// Before the first document is shown: loading the `?url=` one (if it fails, the built-in one
/// is shown with the error), or why not even the built-in one can be shown.
fn start_page(documents: DocumentState) -> impl IntoView {
    let message = move || match documents.status() {
        Status::Loading(what) => what,
        Status::Failed(error) => format!("The API description could not be loaded: {error}"),
        Status::Idle => String::new(),
    };
    view! {
        <main id="content">
            <p class="document-status" role="status" data-testid="document-status">{message}</p>
        </main>
    }
}
