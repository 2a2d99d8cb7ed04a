//! The app's handle on the in-browser mock. The page uses the same JavaScript module that
//! frontend developers import, `mock/petstore_mock.js` (a `PetstoreMock` saved in
//! `localStorage`, shared by tabs): it is loaded after the reference is on screen, so the
//! reference's first download stays small. Counts and notices are signals that follow every
//! change, whichever tab made it.

use js_sys::{Array, Function, Promise, Reflect};
use leptos::prelude::*;
use petstore_core::mock::MockNotice;
use petstore_core::{Counts, Request, Response};
use serde::Serialize;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

use crate::modules::message_of;

/// Where the app saves the mock (`localStorage`). Another version of the snapshot format gets
/// another key, so an old tab never reads a newer format.
pub const STORAGE_KEY: &str = "petstore-playground/mock/v1";

/// The mock's module, relative to the page.
pub const MODULE_PATH: &str = "mock/petstore_mock.js";

#[wasm_bindgen]
extern "C" {
    /// A `PetstoreMock` of `petstore_mock.js` (see its `.d.ts`).
    #[derive(Debug, Clone)]
    pub type MockHandle;

    #[wasm_bindgen(method, catch)]
    fn fetch(this: &MockHandle, input: &web_sys::Request) -> Result<Promise, JsValue>;
    #[wasm_bindgen(method, catch, js_name = handle)]
    fn answer(this: &MockHandle, request: &JsValue) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method)]
    fn counts(this: &MockHandle) -> JsValue;
    #[wasm_bindgen(method)]
    fn reset(this: &MockHandle, seed: bool);
    #[wasm_bindgen(method)]
    fn snapshot(this: &MockHandle) -> String;
    #[wasm_bindgen(method, catch)]
    fn restore(this: &MockHandle, snapshot: &str) -> Result<(), JsValue>;
    #[wasm_bindgen(method)]
    fn notices(this: &MockHandle) -> JsValue;
    #[wasm_bindgen(method, js_name = dismissNotices)]
    fn dismiss_notices(this: &MockHandle);
    #[wasm_bindgen(method, js_name = onChange)]
    fn on_change(this: &MockHandle, callback: &Function) -> Function;
}

/// The options of `new PetstoreMock(options)` the app opens its mock with.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Options<'a> {
    seed: bool,
    storage_key: &'a str,
}

/// Where the mock is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MockStatus {
    /// The module is loading.
    Loading,
    /// Ready to answer.
    Ready,
    /// The module could not be loaded; why.
    Failed(String),
}

/// The mock and what the page shows of it. `Copy`: hand it to any component.
#[derive(Debug, Clone, Copy)]
pub struct MockState {
    handle: RwSignal<Option<MockHandle>, LocalStorage>,
    status: RwSignal<MockStatus>,
    counts: RwSignal<Counts>,
    notices: RwSignal<Vec<MockNotice>>,
    /// Whether loading the module has started (or a mock was attached).
    started: RwSignal<bool>,
}

/// Reads a value the module returned as its serde type. The app crosses the boundary as JSON
/// text with the serde_json it already carries (see DEVELOPERS.md: serde-wasm-bindgen would
/// add its own (de)serializer to the reference's first download).
fn from_js<T: serde::de::DeserializeOwned>(value: &JsValue) -> Result<T, String> {
    let text = js_sys::JSON::stringify(value).map_err(|e| message_of(&e))?;
    // `from_str`, as everywhere in the page: one JSON reader in the wasm, not two.
    let value: serde_json::Value = serde_json::from_str(&String::from(text)).map_err(|e| e.to_string())?;
    T::deserialize(&value).map_err(|e| e.to_string())
}

/// The JavaScript value of a serde type, for the module.
fn to_js<T: Serialize>(value: &T) -> Result<JsValue, String> {
    let text = serde_json::to_string(value).map_err(|e| e.to_string())?;
    js_sys::JSON::parse(&text).map_err(|e| message_of(&e))
}

fn read_counts(handle: &MockHandle) -> Counts {
    from_js(&handle.counts()).unwrap_or_default()
}

fn read_notices(handle: &MockHandle) -> Vec<MockNotice> {
    from_js(&handle.notices()).unwrap_or_default()
}

async fn load(storage_key: &str) -> Result<MockHandle, String> {
    let module = crate::modules::load(MODULE_PATH).await?;
    let class: Function =
        Reflect::get(&module, &"PetstoreMock".into()).map_err(|e| message_of(&e))?.unchecked_into();
    let options = to_js(&Options { seed: true, storage_key })?;
    let instance = Reflect::construct(&class, &Array::of1(&options)).map_err(|e| message_of(&e))?;
    Ok(instance.unchecked_into())
}

impl MockState {
    /// A mock not loaded yet: [`MockState::ensure_open`] loads it when a page needs it, so a
    /// page showing another document never downloads the mock.
    #[must_use]
    pub fn deferred() -> Self {
        Self {
            handle: RwSignal::new_local(None),
            status: RwSignal::new(MockStatus::Loading),
            counts: RwSignal::new(Counts::default()),
            notices: RwSignal::new(Vec::new()),
            started: RwSignal::new(false),
        }
    }

    /// Loads the mock module and opens the mock saved under `storage_key` (the demo data on
    /// first start), unless it is loading, open or failed. Returns at once;
    /// [`MockState::status`] says when it is ready.
    pub fn ensure_open(&self, storage_key: &str) {
        if self.started.get_untracked() {
            return;
        }
        self.started.set(true);
        let state = *self;
        let key = storage_key.to_owned();
        leptos::task::spawn_local(async move {
            match load(&key).await {
                Ok(handle) => state.attach(handle),
                Err(reason) => {
                    state.status.try_set(MockStatus::Failed(format!(
                        "The in-browser mock could not be loaded: {reason}. Reload the page, or send \
                         requests to a server instead."
                    )));
                }
            }
        });
    }

    /// A state around a mock that is already open (tests link the module's Rust side).
    #[must_use]
    pub fn from_handle(handle: MockHandle) -> Self {
        let state = Self::deferred();
        state.attach(handle);
        state
    }

    fn attach(self, handle: MockHandle) {
        let Self { counts, notices, .. } = self;
        let follow = handle.clone();
        let callback = Closure::<dyn Fn()>::new(move || {
            // Set only what changed, so an alert is not re-announced on every change. The
            // signals are gone only in a torn-down view: nothing to update then.
            let (now_counts, now_notices) = (read_counts(&follow), read_notices(&follow));
            if counts.try_with_untracked(|c| *c != now_counts).unwrap_or(false) {
                counts.try_set(now_counts);
            }
            if notices.try_with_untracked(|n| *n != now_notices).unwrap_or(false) {
                notices.try_set(now_notices);
            }
        });
        let _ = handle.on_change(callback.as_ref().unchecked_ref());
        // The page keeps its mock until it closes.
        callback.forget();
        self.counts.try_set(read_counts(&handle));
        self.notices.try_set(read_notices(&handle));
        self.started.try_set(true);
        self.handle.try_set(Some(handle));
        self.status.try_set(MockStatus::Ready);
    }

    /// The mock from the context `App` provides, if any.
    #[must_use]
    pub fn from_context() -> Option<Self> {
        use_context::<Self>()
    }

    /// The mock from the context `App` provides.
    ///
    /// # Panics
    /// Outside `App` (a component rendered on its own must be given a `MockState`).
    #[must_use]
    pub fn expect() -> Self {
        expect_context::<Self>()
    }

    /// Loading, ready, or why it failed.
    #[must_use]
    pub fn status(&self) -> Signal<MockStatus> {
        self.status.into()
    }

    /// How many of each thing the mock holds.
    #[must_use]
    pub fn counts(&self) -> Signal<Counts> {
        self.counts.into()
    }

    /// What the user should know about where the mock's state is kept.
    #[must_use]
    pub fn notices(&self) -> Signal<Vec<MockNotice>> {
        self.notices.into()
    }

    fn with_handle<T>(&self, f: impl FnOnce(&MockHandle) -> T) -> Result<T, String> {
        match self.status.get_untracked() {
            MockStatus::Failed(reason) => Err(reason),
            MockStatus::Loading => {
                Err("The in-browser mock is still loading; try again in a moment.".to_owned())
            }
            MockStatus::Ready => self
                .handle
                .try_with_untracked(|h| h.as_ref().map(f))
                .flatten()
                .ok_or_else(|| "The in-browser mock is closed.".to_owned()),
        }
    }

    /// The mock for the try-it panel (which asks it directly), or a string saying why there is
    /// none now.
    #[must_use]
    pub fn lend(&self) -> JsValue {
        match self.status.try_get_untracked() {
            Some(MockStatus::Ready) => {}
            Some(MockStatus::Failed(reason)) => return JsValue::from_str(&reason),
            Some(MockStatus::Loading) => {
                return JsValue::from_str("The in-browser mock is still loading; try again in a moment.");
            }
            None => return JsValue::from_str("The in-browser mock is closed."),
        }
        self.handle
            .try_with_untracked(|h| h.clone().map(JsValue::from))
            .flatten()
            .unwrap_or_else(|| JsValue::from_str("The in-browser mock is closed."))
    }

    /// Answers `request` as `window.fetch` would (saved, and seen by other tabs, when it
    /// changes the state).
    ///
    /// # Errors
    /// The mock is not loaded, or the request cannot be read (the message says why).
    pub async fn fetch(&self, request: &web_sys::Request) -> Result<web_sys::Response, String> {
        let promise = self.with_handle(|h| h.fetch(request))?.map_err(|e| message_of(&e))?;
        let response = JsFuture::from(promise).await.map_err(|e| message_of(&e))?;
        response.dyn_into().map_err(|_| "The mock did not answer with a Response.".to_owned())
    }

    /// Answers a request at once (the module's `handle`: no `Request`/`Response` objects, so
    /// no body stream to wait for); saved, and seen by other tabs, when it changes the state.
    ///
    /// # Errors
    /// The mock is not loaded, or the request cannot be read (the message says why).
    pub fn answer(&self, request: &Request) -> Result<Response, String> {
        let asked = to_js(request)?;
        let answer = self.with_handle(|h| h.answer(&asked))?.map_err(|e| message_of(&e))?;
        from_js(&answer).map_err(|e| format!("The mock's answer could not be read: {e}."))
    }

    /// Replaces the data with the demo data (`seed`) or nothing.
    pub fn reset(&self, seed: bool) {
        let _ = self.with_handle(|h| h.reset(seed));
    }

    /// The whole state as versioned JSON.
    ///
    /// # Errors
    /// The mock is not loaded.
    pub fn snapshot(&self) -> Result<String, String> {
        self.with_handle(MockHandle::snapshot)
    }

    /// Replaces the state with a snapshot; a snapshot that cannot be read or is inconsistent
    /// is refused with the reason, and the state stays as it was.
    ///
    /// # Errors
    /// Why the snapshot was refused.
    pub fn restore(&self, snapshot: &str) -> Result<(), String> {
        self.with_handle(|h| h.restore(snapshot))?.map_err(|e| message_of(&e))
    }

    /// Hides the notices that report something past.
    pub fn dismiss_notices(&self) {
        let _ = self.with_handle(MockHandle::dismiss_notices);
    }
}
