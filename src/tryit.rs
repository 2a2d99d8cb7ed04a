//! Where the try-it panel and the code samples come from: the `tryit/playground_tryit.js` module
//! (built from crates/tryit), loaded when the first operation is opened and kept for the page's
//! life, so the reference's first download does not carry them. A test links the module's Rust
//! side instead ([`TryItHost::Linked`]); both are handed the same JSON. The page's Authorize
//! dialog takes its cards from the module with the Authorization part too.

use std::cell::RefCell;
use std::sync::Arc;

use js_sys::{Array, Function, Promise, Reflect};
use playground_reference::{Access, OperationView};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

/// What a panel is mounted with, and how it offers the in-browser mock.
pub use playground_seam::{MockOffer, MountOptions};

use crate::modules::message_of;

/// The module, relative to the page: for operations with JSON bodies and no security schemes
/// (all of the Petstore's).
pub const MODULE_PATH: &str = "tryit/playground_tryit.js";
/// The module with the Authorization part and form, text and file bodies, for operations that
/// need them ([`OperationView::needs_full_try_it`]).
///
/// [`OperationView::needs_full_try_it`]: playground_reference::OperationView::needs_full_try_it
pub const EXTRAS_PATH: &str = "tryit-extras/playground_tryit.js";

/// Renders a panel: `(slot, mount options as JSON, lend the mock)` to the mounted panel (its
/// `unmount()` removes it), or why not. The options are [`MountOptions`] written as JSON text.
pub type MountFn =
    Arc<dyn Fn(&web_sys::HtmlElement, &str, &Function) -> Result<JsValue, String> + Send + Sync>;

/// Fills the Example blocks of a page: `(root, schema document, slots)`, the last two as JSON,
/// to the fills as JSON (the module's `fillExamples`), or why not.
pub type FillFn = Arc<dyn Fn(&web_sys::Element, &str, &str) -> Result<String, String> + Send + Sync>;
/// Renders the Authorize dialog's cards: `(slot, the document's security schemes as JSON,
/// document key, base URL)` to what was mounted (its `unmount()` removes it), or why not.
pub type AuthorizeFn =
    Arc<dyn Fn(&web_sys::HtmlElement, &str, &str, &str) -> Result<JsValue, String> + Send + Sync>;

/// Where panels come from; provided as a context (the module when none is).
#[derive(Clone, Default)]
pub enum TryItHost {
    /// The page's module, loaded on first use.
    #[default]
    Module,
    /// The module's Rust side, linked into the same wasm (tests): its `mountTryIt`, its
    /// `mountAuthorize` and its `fillExamples`.
    Linked(MountFn, AuthorizeFn, FillFn),
}

impl std::fmt::Debug for TryItHost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Module => "Module",
            Self::Linked(..) => "Linked",
        })
    }
}

// A cache for the page, not state of a mount, because what it holds belongs to the page: the
// browser keeps one instance of an ES module per page (its module map, keyed by URL) and starts
// the module's WebAssembly once in it, so every mount (the app's, and each test's on one page)
// would get the same namespace whoever held the promise. Held by a mount (a context or a
// `StoredValue`), a later mount would wait for another paint and `import()` to be handed a module
// already there, and a panel rendered outside `App` (the host is `TryItHost::Module` when no
// context names one) would have no mount to find it in. A load that failed stays failed for
// the page's life, as the panel's message says ("Reload the page to try again").
thread_local! {
    /// Each module's namespace, once asked for: every panel waits on the same load.
    static LOADED: RefCell<[Option<Promise>; 2]> = const { RefCell::new([None, None]) };
}

async fn module(extras: bool) -> Result<JsValue, String> {
    let promise = LOADED.with(|loaded| {
        loaded.borrow_mut()[usize::from(extras)]
            .get_or_insert_with(|| {
                wasm_bindgen_futures::future_to_promise(async move {
                    let path = if extras { EXTRAS_PATH } else { MODULE_PATH };
                    crate::modules::load(path).await.map_err(|e| JsValue::from_str(&e))
                })
            })
            .clone()
    });
    JsFuture::from(promise).await.map_err(|e| message_of(&e))
}

impl TryItHost {
    /// The host the page provides.
    #[must_use]
    pub fn from_context() -> Self {
        leptos::prelude::use_context().unwrap_or_default()
    }

    /// Renders the panel of `options.view` into `slot` (credentials are kept per
    /// `options.document_key`); resolves to the mounted panel. An operation that needs the
    /// Authorization part or form and file bodies gets the module with them.
    ///
    /// # Errors
    /// The module did not load, or the panel could not be rendered (the message says why).
    pub async fn mount(
        &self,
        slot: &web_sys::HtmlElement,
        options: &MountOptions<&OperationView, Access<'_>>,
        lend_mock: &Function,
    ) -> Result<JsValue, String> {
        let options_json = options.to_json()?;
        match self {
            Self::Linked(mount, ..) => mount(slot, &options_json, lend_mock),
            Self::Module => {
                let module = module(options.view.needs_full_try_it()).await?;
                let mount: Function =
                    Reflect::get(&module, &"mountTryIt".into()).map_err(|e| message_of(&e))?.unchecked_into();
                mount
                    .call3(&JsValue::UNDEFINED, slot, &options_json.into(), lend_mock)
                    .map_err(|e| message_of(&e))
            }
        }
    }
}

impl TryItHost {
    /// Fills the Example blocks `slots_json` (of a component schema's page) under `root` with
    /// the mock generator's values, their `$ref`s read in `schema_document_json` (the module's
    /// `fillExamples` writes them: the first download does not carry the code). Loads the
    /// module (without its extras) if it is not loaded yet.
    ///
    /// # Errors
    /// The module did not load, or the slots could not be read (the message says why).
    pub async fn fill_examples(
        &self,
        root: &web_sys::Element,
        schema_document_json: &str,
        slots_json: &str,
    ) -> Result<(), String> {
        match self {
            Self::Linked(_, _, fill) => fill(root, schema_document_json, slots_json).map(drop),
            Self::Module => {
                let module = module(false).await?;
                let fill: Function = Reflect::get(&module, &"fillExamples".into())
                    .map_err(|e| message_of(&e))?
                    .unchecked_into();
                let args = Array::of3(root, &schema_document_json.into(), &slots_json.into());
                fill.apply(&JsValue::UNDEFINED, &args).map(drop).map_err(|e| message_of(&e))
            }
        }
    }

    /// Renders the cards of every security scheme of a document (`schemes_json`) into `slot`,
    /// for the Authorize dialog, from the module with the Authorization part: they fill the
    /// credentials the panels of `document_key` send. `base_url`: what the document's OAuth 2
    /// and discovery URLs are relative to. Resolves to what was mounted ([`unmount`] removes it).
    ///
    /// # Errors
    /// The module did not load, or the cards could not be rendered (the message says why).
    pub async fn authorize(
        &self,
        slot: &web_sys::HtmlElement,
        schemes_json: &str,
        document_key: &str,
        base_url: &str,
    ) -> Result<JsValue, String> {
        match self {
            Self::Linked(_, authorize, _) => authorize(slot, schemes_json, document_key, base_url),
            Self::Module => {
                let module = module(true).await?;
                let mount: Function = Reflect::get(&module, &"mountAuthorize".into())
                    .map_err(|e| message_of(&e))?
                    .unchecked_into();
                let args = Array::of4(slot, &schemes_json.into(), &document_key.into(), &base_url.into());
                mount.apply(&JsValue::UNDEFINED, &args).map_err(|e| message_of(&e))
            }
        }
    }
}

/// Removes a panel [`TryItHost::mount`] rendered (or the cards of [`TryItHost::authorize`]).
pub fn unmount(mounted: &JsValue) {
    if let Ok(unmount) = Reflect::get(mounted, &"unmount".into()).and_then(|f| f.dyn_into::<Function>()) {
        let _ = unmount.call0(mounted);
    }
}
