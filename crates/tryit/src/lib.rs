//! The try-it panel and the code samples of one operation, as a JavaScript module the reference
//! loads when a reader opens an operation (`dist/tryit/playground_tryit.js`, built by
//! `scripts/build-modules.sh`), so the reference's first download does not carry them.
//!
//! The reference hands over the operation's view as JSON (the core's `OperationView`, without
//! the parts only the reference shows) and a function that lends the page's in-browser mock:
//! [`mount_try_it`] renders the panel into the element it is given, and [`Mounted::unmount`]
//! removes it. With the feature `extras`, `mountAuthorize` renders the cards of every security
//! scheme of a document, for the page's Authorize dialog, in the vault the panels share.

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

/// Renders the try-it panel and code samples of the operation `view_json` (an `OperationView`
/// as JSON) at the end of `slot`. `mock` says how the in-browser mock is offered as a target:
/// `"first"` (the target a new panel starts with), `"offered"` (a new panel starts on the
/// document's first server) or `"none"`;
/// `lend_mock` is called when a request goes to it, and returns the page's `PetstoreMock`, or
/// a string saying why there is none yet. `document_key` names the document (its address, or
/// its title): credentials are kept per document.
///
/// # Errors
/// The view cannot be read (the message says why).
#[wasm_bindgen(js_name = mountTryIt)]
pub fn mount_try_it(
    slot: web_sys::HtmlElement,
    view_json: &str,
    mock: &str,
    lend_mock: Option<js_sys::Function>,
    document_key: &str,
) -> Result<Mounted, JsValue> {
    let offer = match mock {
        "first" => MockOffer::First,
        "offered" => MockOffer::Offered,
        _ => MockOffer::None,
    };
    let mut view: OperationView = serde_json::from_str(view_json)
        .map_err(|e| JsValue::from_str(&format!("The operation could not be read: {e}.")))?;
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
    let (vault, history) = page::shared(document_key);
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

/// How a panel offers the in-browser mock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MockOffer {
    /// The target a new panel starts with (the built-in document's mock).
    First,
    /// A target, but a new panel starts on the document's first server (a loaded document's
    /// mock: a reader of an API's reference expects its server first).
    Offered,
    /// Not offered (the page has no mock).
    None,
}

/// The text of a JavaScript error or rejection.
pub use playground_browser::message_of;
