//! The try-it panel and the code samples of one operation, as a JavaScript module the reference
//! loads when a reader opens an operation (`dist/tryit/playground_tryit.js`, built by
//! `scripts/build-modules.sh`), so the reference's first download does not carry them. The
//! feature `extras` (the Authorization part, OAuth 2, form, text and file bodies) makes the second
//! build, `dist/tryit-extras/playground_tryit.js`, which the reference loads instead for an
//! operation that needs it (`OperationView::needs_full_try_it`).
//!
//! The reference hands over the operation's view as JSON (the core's `OperationView`, without
//! the parts only the reference shows) and a function that lends the page's in-browser mock:
//! [`mount_try_it`] renders the panel into the element it is given, and [`Mounted::unmount`]
//! removes it. With the feature `extras`, `mountAuthorize` renders the cards of every security
//! scheme of a document, for the page's Authorize dialog, in the vault the panels share. Both
//! builds have `fillExamples`, which fills a schema page's Example blocks with generated values.
//!
//! - `panel/`: `mod.rs` composes the panel and sends (`Sender`: the checks, then the request;
//!   `Sending`: what is in flight, which Cancel and the panel going away stop); `form.rs` holds
//!   the form state shared with the code samples; `target.rs` where it sends (the in-browser mock,
//!   a server of the document with its variables, or a base URL, remembered in this browser);
//!   `fields.rs` the fields; `bodies.rs` the bodies beyond JSON (`extras`); `answer.rs` and
//!   `history.rs` the answers, kept per operation for the page's life; `drift.rs` checks a real
//!   server's answer against the description with the page's mock. Send is a plain button, not a
//!   form's submit button (a form submission costs the browser more than the mock's whole
//!   answer): Enter in a one-line field and Ctrl/⌘+Enter anywhere are the panel's own keys.
//! - The answer and the Recent list are HTML, values escaped, not Leptos views; each send writes
//!   only the parts that differ (elements marked `data-part` and `data-text`), so an opened
//!   Headers list stays open.
//! - `transport.rs` sends to the in-browser mock (`mock::MockLink`, at once, through
//!   `playground_seam::MockHandle` and the mock object's `handleJson`) or over the network with `web_sys` `fetch`, and explains a request that
//!   got no readable answer. Requests stop after 30 s, on Cancel or when the panel goes away; a
//!   credentialed request is sent with `redirect: "manual"`.
//! - `vault.rs` keeps each document's credentials (only the schemes ticked "Remember" in
//!   `localStorage`), `authorize/` is the Authorization part and the OAuth 2 sign-ins in a window
//!   (`www/oauth2-redirect.html` posts back to the opener), `page.rs` keeps what outlives a panel
//!   (the vaults, the history) for the page, and `examples.rs` fills Example blocks.
//! - Credentials: whenever a vault's usable credentials change, the module sends the `window`
//!   event `playground_browser::credentials::EVENT`, from which the page marks the list's rows.
//!
//! Tests: the pure parts in the modules, and browser tests in `tests/` (`form.rs`, `history.rs`,
//! `vault.rs`, `authorize.rs`: a panel mounted as the reference mounts it, against a stand-in
//! mock). The page's own browser tests (`tests/web.rs`) link this crate instead of loading it.
//! `tests/e2e/auth.test.mjs` drives the Authorization part against `tests/e2e/auth-server.mjs` (a
//! real OAuth 2 server with PKCE, and APIs checking each scheme); `node --test
//! tests/e2e/auth-server.selftest.mjs` checks that server alone (not part of `make test`).

#[cfg(feature = "extras")]
pub mod authorize;
pub mod code_samples;
mod examples;
pub mod mock;
pub mod page;
pub mod panel;
pub mod transport;
pub mod vault;

use std::sync::Arc;

use leptos::prelude::*;
use playground_reference::OperationView;
use playground_seam::MountOptions;
use wasm_bindgen::prelude::*;

use crate::code_samples::CodeSamples;
use crate::mock::MockLink;
use crate::panel::{History, TryIt, TryItForm};
use crate::vault::Vault;

/// The try-it panel (unless the operation hides it) and the code samples of `view`, which
/// follow the panel's form. `mock` answers the requests sent to the in-browser mock; `vault`
/// holds the document's credentials, and `history` keeps the answers.
#[component]
pub fn Workbench(
    view: Arc<OperationView>,
    offer: MockOffer,
    mock: Option<MockLink>,
    vault: Vault,
    history: History,
) -> impl IntoView {
    let mock_available = offer != MockOffer::None;
    let form = (!view.hide_try_it).then(|| TryItForm::new(&view, offer, vault));
    let sample = form.map(|form| Signal::derive(move || form.sample()));
    #[cfg(feature = "extras")]
    let sample_form = form.map(|form| Signal::derive(move || form.sample_form()));
    #[cfg(not(feature = "extras"))]
    let sample_form = None;
    let try_it = form.map(|form| view! { <TryIt view=Arc::clone(&view) form=form history=history mock_available=mock_available mock=mock.clone() /> });
    view! {
        {try_it}
        <CodeSamples view=view request=sample form=sample_form />
    }
}

/// A panel rendered by [`mount_try_it`]; [`Mounted::unmount`] removes it.
#[wasm_bindgen]
pub struct Mounted {
    handle: Option<leptos::mount::UnmountHandle<leptos::tachys::view::any_view::AnyViewState>>,
}

impl std::fmt::Debug for Mounted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mounted").field("mounted", &self.handle.is_some()).finish()
    }
}

#[wasm_bindgen]
impl Mounted {
    /// Removes the panel and stops what it has in flight; again is a no-op.
    pub fn unmount(&mut self) {
        self.handle.take();
    }
}

/// Renders the try-it panel and code samples of an operation at the end of `slot`.
/// `options_json` is a `playground_seam::MountOptions` of an `OperationView` as JSON text: the
/// view, its security (`playground_reference::Access`), how the in-browser mock is offered as
/// a target (`first`: the target a new panel starts with; `offered`: a new panel starts on the
/// document's first server; `none`), and the key of the document (its address, or its title),
/// under which credentials are kept. `lend_mock` is called when a request goes to the mock,
/// and returns the page's mock object, or a string saying why there is none yet
/// (`playground_seam::lend`).
///
/// # Errors
/// The options cannot be read (the message says why).
#[wasm_bindgen(js_name = mountTryIt)]
pub fn mount_try_it(
    slot: web_sys::HtmlElement,
    options_json: &str,
    lend_mock: Option<js_sys::Function>,
) -> Result<Mounted, JsValue> {
    let MountOptions { mut view, access, mock: offer, document_key } =
        MountOptions::<OperationView, Access>::from_json(options_json).map_err(|e| JsValue::from_str(&e))?;
    #[cfg(feature = "extras")]
    view.set_access(access);
    #[cfg(not(feature = "extras"))]
    let _ = access;
    // The reference's Example blocks (in the article the slot is in), from the document's
    // examples as they are; written here rather than by the page, so the first download does
    // not carry the code.
    let fills = playground_tryit_core::prefill::example_fills(&view);
    if let Some(article) = slot.parent_element() {
        examples::show(&article, &fills);
    }
    // Values that fit their schemas, from the mock's generator, where the document has none
    // that fit: the first Send passes the description's own checks.
    playground_tryit_core::prefill::prefill(&mut view);
    let view = Arc::new(view);
    let mock = lend_mock.map(MockLink::new);
    let (vault, history) = page::shared(&document_key);
    let handle = leptos::mount::mount_to(slot, move || {
        view! { <Workbench view=view offer=offer mock=mock vault=vault history=history /> }.into_any()
    });
    Ok(Mounted { handle: Some(handle) })
}

/// Fills the Example blocks `slots_json` (a list of `ExampleSlot`s) under `root` (the
/// reference's `pre[data-example]`) with values from the mock's generator, and says beside the
/// document's own when they do not fit; returns the fills as JSON (a list of `ExampleFill`s).
/// The slots' `$ref`s are read in `schema_document_json`. A component schema's page calls this;
/// an operation's blocks are filled when its panel is mounted ([`mount_try_it`]).
///
/// # Errors
/// The JSON cannot be read (the message says why).
#[wasm_bindgen(js_name = fillExamples)]
pub fn fill_examples(
    root: &web_sys::Element,
    schema_document_json: &str,
    slots_json: &str,
) -> Result<String, JsValue> {
    let unreadable =
        |e: serde_json::Error| JsValue::from_str(&format!("The examples could not be read: {e}."));
    let doc: serde_json::Value = serde_json::from_str(schema_document_json).map_err(unreadable)?;
    let slots: Vec<playground_reference::ExampleSlot> =
        serde_json::from_str(slots_json).map_err(unreadable)?;
    let fills = playground_tryit_core::prefill::fills_of(&doc, &slots);
    examples::show(root, &fills);
    serde_json::to_string(&fills).map_err(unreadable)
}

/// Renders, at the end of `slot`, the cards of every security scheme of a document
/// (`schemes_json`: its `playground_openapi::security::Scheme`s as JSON), for the page's
/// Authorize dialog. They fill the vault of `document_key` that the panels send with, so what
/// is entered in one shows in the other. `base_url` is the base URL the document's OAuth 2 and
/// discovery URLs are relative to (its first server's).
///
/// # Errors
/// The schemes cannot be read (the message says why).
#[cfg(feature = "extras")]
#[wasm_bindgen(js_name = mountAuthorize)]
pub fn mount_authorize(
    slot: web_sys::HtmlElement,
    schemes_json: &str,
    document_key: &str,
    base_url: &str,
) -> Result<Mounted, JsValue> {
    let schemes: Vec<playground_openapi::security::Scheme> = serde_json::from_str(schemes_json)
        .map_err(|e| JsValue::from_str(&format!("The security schemes could not be read: {e}.")))?;
    let (vault, _) = page::shared(document_key);
    let base_url = base_url.to_owned();
    let base = Signal::derive(move || base_url.clone());
    let handle = leptos::mount::mount_to(slot, move || {
        view! { <authorize::AuthorizeAll schemes=schemes vault=vault base=base /> }.into_any()
    });
    Ok(Mounted { handle: Some(handle) })
}

/// The operation's security as the page hands it over: read by the build with the
/// Authorization part; the other, mounted only for operations that name no scheme the
/// document describes (`OperationView::needs_full_try_it`), skips it unread.
#[cfg(feature = "extras")]
type Access = playground_reference::Access<'static>;
#[cfg(not(feature = "extras"))]
type Access = serde::de::IgnoredAny;

/// How a panel offers the in-browser mock (the page says so when it mounts the panel).
pub use playground_seam::MockOffer;

/// The text of a JavaScript error or rejection.
pub use playground_browser::message_of;
