//! The page: the Leptos app, rendered in the browser (CSR) and built by Trunk into `dist/`. It
//! renders core values (the pure crates: `playground-openapi`, `playground-reference`, ...) and
//! holds no API logic of its own. What it does not need for its first paint comes as JavaScript
//! modules it loads later ([`modules`]): the Markdown renderer, the in-browser mock of the shown
//! document (`mock/petstore_mock.js` for the Petstore, `api-mock/playground_api_mock.js` for any
//! other, see [`mock`]), the Swagger 2.0 converter, and the try-it module ([`tryit`]).
//!
//! - [`mod@document`]: which document is shown (the Petstore's `petstore.json`, `?url=`, a file or
//!   pasted text; a published site's alone) and its loading. Loads are numbered and only the
//!   newest shows its result (`DocumentState`). The text is read as it downloads, chunk by chunk
//!   (`document/read.rs`), yielding to the page every 8 ms so the download is not held up; the
//!   list shows as soon as `paths` is in, and with a deep link it waits up to 150 ms for the rest
//!   to show list and operation at once. `Arrivals` keeps what the list reads, so rows that come
//!   last join it in place. `index.html` starts the first request before the app runs. A Swagger
//!   2.0 document comes back from the reader as `Read::Swagger2`; the converter module converts
//!   it, and its notes are kept in `Loaded::converted` and shown under the header.
//! - [`mock`]: `MockState` opens the shown document's mock: the Petstore's after the first paint,
//!   another document's once it is in when it is at most `mock::START_AT_ONCE_BYTES`, else when a
//!   try-it panel targets the mock, Start is pressed or a request is sent. A new document closes
//!   the open mock (its state stays saved). The Mock block shows its counts or resources.
//! - [`ui`]: one component per file. The reference's read-only parts are HTML from
//!   `playground_reference::html`, inserted by `ui::markdown::fragment`. The operation list is
//!   virtual (52 px rows, 8 either side of the view rendered). Other long work yields every
//!   30 ms (`modules::SLICE_MS`).
//! - [`site`]: a published site's page, configured by the `playground-site` element
//!   `playground build` writes, with its pre-rendered first paint replaced by the app's.
//! - [`credentials`]: which schemes have credentials (the try-it module's event, else the
//!   schemes remembered in `localStorage`), for the list's padlocks. The Authorize button and
//!   dialog (`ui/authorize.rs`) take their cards from the module with `extras`
//!   (`mountAuthorize`), in the vault the panels share.
//!
//! Effects that keep no value are made with `effect`, one boxed function type, so Leptos's effect
//! task is instantiated once. Browser tests: `tests/web.rs`, which link the mock and try-it
//! modules' Rust side (the dev-dependencies `playground-module-mock` and `playground-tryit`).

pub mod credentials;
pub mod document;
pub mod layout;
pub mod mock;
pub mod modules;
pub mod site;
pub mod tryit;
pub mod ui;

use leptos::either::Either;
use leptos::prelude::*;

use crate::document::{DocumentState, Status};
use crate::mock::MockState;
use crate::site::Site;

/// The whole page: notices about the mock's storage, then the reference of the shown document
/// (the Petstore one, or the one named by `?url=` or loaded by the reader) with the
/// document loader and the Mock block in its header. Gives the shown document its mock (an
/// effect that follows the shown document) and opens the Markdown renderer, for every component
/// below (a test may provide either first), and starts the [`DocumentState`].
///
/// On a published site's page ([`site`]: its configuration in the page, or a [`Site`] a test
/// provided) the reference is that of the site's document alone: no loader, no Petstore, no
/// Domains link; the site's title, logo, links and accent; the Mock block only if the site
/// shows it. A configuration that cannot be read is said in the page.
#[component]
pub fn App() -> impl IntoView {
    let site = match use_context::<Site>().map(Ok).or_else(site::read) {
        None => None,
        Some(Ok(site)) => Some(site),
        Some(Err(reason)) => return Either::Right(invalid_site(&reason)),
    };
    Either::Left(reference_app(site))
}

/// The page when the site's configuration cannot be read: why, in place of the reference.
fn invalid_site(reason: &str) -> impl IntoView + use<> {
    site::remove_prerendered();
    let message = format!(
        "This page's configuration (the #{} element) could not be read: {reason}.",
        playground_reference::site::CONFIG_ID
    );
    view! {
        <main id="content">
            <p class="load-error" role="alert" data-testid="site-error">{message}</p>
        </main>
    }
}

/// The reference app, of the Petstore and other documents, or of `site`'s document alone.
fn reference_app(site: Option<Site>) -> impl IntoView {
    // A test may provide its own mock first. Otherwise the Petstore's mock module is loaded
    // when the built-in document is shown (after its first paint), another document's mock
    // when that document is in (or when it is needed, for a large one).
    let mock = MockState::from_context().unwrap_or_else(MockState::deferred);
    provide_context(mock);
    let markdown = use_context().unwrap_or_else(ui::markdown::MarkdownRenderer::deferred);
    provide_context(markdown);
    let documents = DocumentState::start(site.as_ref().map(|site| site.0.document.as_str()));
    provide_context(documents.arrivals);
    // A site whose panels neither target nor offer the mock never starts one.
    let wants_mock = site.as_ref().is_none_or(Site::offers_mock);
    if let Some(site) = &site {
        provide_context(site.clone());
    }
    // The shown document's mock: the Petstore's starts at once, another document's when it is
    // small enough (else when it is asked for). Only a change of document runs it again.
    effect(move || {
        let shown = documents.current.with(|loaded| {
            loaded.as_ref().map(|loaded| (mock::MockSource::of(loaded), loaded.source.is_builtin()))
        });
        let Some((source, builtin)) = shown.filter(|_| wants_mock) else { return };
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
        Some(loaded) => Either::Left(reference_page(loaded, documents, site.as_ref())),
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

/// The reference of `loaded` with, in its header, the document loader, the Mock block and the
/// Domains link; or, on a published site's page (`site`), the site's title, logo and links,
/// and the Mock block if the site shows it. One view for both, so the page's first download
/// carries the reference's header once. Rendering it removes the first paint drawn before the
/// app (a site's build wrote it, or the page drew a `?url=` document's first screen), in the
/// same task, so no frame shows neither.
fn reference_page(
    loaded: document::Loaded,
    documents: DocumentState,
    site: Option<&Site>,
) -> impl IntoView + use<> {
    if let Some(site) = site {
        site::apply(site, site.0.title_or(&loaded.catalog.title));
    }
    site::remove_prerendered();
    let config = site.map(|site| std::sync::Arc::clone(&site.0));
    let builtin = loaded.source.is_builtin();
    let download = loaded.saver();
    let base = match &loaded.source {
        playground_openapi::document::Source::Url(address) => Some(address.clone()),
        _ => None,
    };
    let loader = config.is_none().then(|| ui::document_loader::document_loader(documents));
    let mock_panel =
        config.as_ref().is_none_or(|config| config.mock).then(|| view! { <ui::mock_panel::MockPanel /> });
    let links: Vec<(String, &'static str, &'static str)> = match &config {
        None => vec![("domains.html".to_owned(), "Project settings \u{203a} Domains", "domains-link")],
        Some(config) => {
            [(&config.links.home, "Home", "site-home"), (&config.links.support, "Support", "site-support")]
                .into_iter()
                .filter_map(|(url, text, testid)| Some((url.clone()?, text, testid)))
                .collect()
        }
    };
    let links = links
        .into_iter()
        .map(|(href, text, testid)| view! { <a href=href data-testid=testid>{text}</a> })
        .collect_view();
    view! {
        <ui::reference::Reference
            document=loaded.value
            catalog=loaded.catalog
            builtin=builtin
            converted=loaded.converted
            download=download
            base=base
            site=config
        >
            {loader}
            {mock_panel}
            <nav class="header-nav" aria-label="Project">
                {links}
                <ui::theme::ThemeToggle />
            </nav>
        </ui::reference::Reference>
    }
}

/// Before the first document is shown: loading the `?url=` one (if it fails, the built-in one
/// is shown with the error), or why not even the built-in one can be shown. On a site's page,
/// loading its document (under the build's first paint) or why it could not be.
fn start_page(documents: DocumentState) -> impl IntoView {
    let message = move || match documents.status() {
        Status::Loading(what) => what,
        Status::Failed(error) => {
            // A site's page keeps its first paint while its document loads, not once it failed.
            site::remove_prerendered();
            format!("The API description could not be loaded: {error}")
        }
        Status::Idle => String::new(),
    };
    view! {
        <main id="content">
            <p class="document-status" role="status" data-testid="document-status">{message}</p>
        </main>
    }
}
