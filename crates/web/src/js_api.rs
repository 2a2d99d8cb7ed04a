//! The JavaScript API (cargo feature `js-api`): `new PetstoreMock(options)` with a
//! `fetch`-shaped `fetch`, `installFetch(prefix)` / `uninstallFetch()` to answer a page's own
//! `fetch` calls under a URL prefix, and `reset`, `snapshot`, `restore`.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use js_sys::{Array, Function, Object, Promise, Reflect, Uint8Array};
use petstore_api_mock::MockNotice;
use serde::Deserialize;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::{JsFuture, future_to_promise};

use petstore_api_mock::StatefulMock;

use crate::intercept::{Prefix, is_null_body_status, reason_phrase};
use crate::persistent::{MockOptions, PersistentMock};

/// The `localStorage` key when the options name none.
pub const DEFAULT_STORAGE_KEY: &str = "petstore-mock/v1";

#[wasm_bindgen(typescript_custom_section)]
const TS_OPTIONS: &'static str = r#"
/** Options of `new PetstoreMock(options)`. */
export interface PetstoreMockOptions {
  /** Start (and `reset()`) with the demo data (default) or, with `false`, an empty store. */
  seed?: boolean;
  /** The localStorage key to save under (default "petstore-mock/v1"); `null` keeps the state in memory only. */
  storageKey?: string | null;
  /** Check parameters and bodies against the document (default true); the business rules hold either way. */
  validate?: boolean;
  /** A delay before every answer of fetch, in milliseconds. */
  delay?: {min: number, max: number};
  /** Failures at a rate (0 to 1): an error status (default: the first server error documented, else 500), or with `network: true` a rejected fetch. */
  failure?: {rate: number, status?: number, network?: boolean};
  /** The same delay and failure options per operationId ("placeOrder", ...). */
  operations?: Record<string, {delay?: {min: number, max: number}, failure?: {rate: number, status?: number, network?: boolean}}>;
}
/** A request for `handle()`: `url` is a path such as "/pets?limit=5" or a full URL (its origin is ignored). */
export interface PetstoreMockRequest {
  method?: string;
  url: string;
  headers?: [string, string][] | Record<string, string>;
  body?: string;
}
/** The answer of `handle()`. */
export interface PetstoreMockAnswer {
  status: number;
  headers: [string, string][];
  body: string;
}
/** Something to show the user about where the mock's state is kept. */
export interface PetstoreMockNotice {
  kind: "started-fresh" | "storage-unavailable" | "not-saved" | "overwritten";
  message: string;
}
"#;

#[wasm_bindgen]
extern "C" {
    /// `PetstoreMockOptions` (the TypeScript interface above).
    #[wasm_bindgen(typescript_type = "PetstoreMockOptions")]
    pub type JsMockOptions;

    /// The `init` argument of `fetch` (TypeScript's `RequestInit`).
    #[wasm_bindgen(typescript_type = "RequestInit")]
    pub type JsRequestInit;
}

/// The stateful Petstore mock for JavaScript.
#[wasm_bindgen(js_name = PetstoreMock)]
#[derive(Debug)]
pub struct JsPetstoreMock {
    mock: PersistentMock,
    installed: InstalledSlot,
}

/// An installed `fetch` interceptor (and, for an `ApiMock`, the `XMLHttpRequest` one).
#[derive(Debug)]
pub(crate) struct Installed {
    original: Function,
    wrapper: Closure<dyn FnMut(JsValue, JsValue) -> Promise>,
    /// Cleared on uninstall, so a wrapper that someone else still calls passes everything on.
    active: Rc<Cell<bool>>,
    /// Puts the original `XMLHttpRequest` back, when it was replaced too.
    xhr: Option<Function>,
}

/// The slot of a mock's installed interceptors.
pub(crate) type InstalledSlot = Rc<RefCell<Option<Installed>>>;

/// Replaces the global `fetch` (and with `xhr`, `XMLHttpRequest`) so that requests under
/// `prefix` go to `mock`; returns the function that undoes it.
pub(crate) fn install<M: StatefulMock + 'static>(
    installed: &InstalledSlot,
    mock: &PersistentMock<M>,
    prefix: &str,
) -> Result<Function, JsValue> {
    install_with(installed, mock, prefix, false)
}

pub(crate) fn install_with<M: StatefulMock + 'static>(
    installed: &InstalledSlot,
    mock: &PersistentMock<M>,
    prefix: &str,
    xhr: bool,
) -> Result<Function, JsValue> {
    let prefix = Rc::new(Prefix::new(prefix).map_err(|e| js_sys::TypeError::new(&e.to_string()))?);
    uninstall(installed);
    let global = js_sys::global();
    let original: Function = Reflect::get(&global, &"fetch".into())?
        .dyn_into()
        .map_err(|_| js_sys::TypeError::new("There is no global fetch to replace."))?;
    let active = Rc::new(Cell::new(true));
    let wrapper = {
        let (mock, original, global, active, prefix) =
            (mock.clone(), original.clone(), global.clone(), Rc::clone(&active), Rc::clone(&prefix));
        Closure::<dyn FnMut(JsValue, JsValue) -> Promise>::new(move |input: JsValue, init: JsValue| {
            let target = if active.get() { intercepted(&prefix, &input) } else { None };
            match target {
                Some(target) => respond(mock.clone(), &input, &init, Some(target)),
                None => match original.call2(&global, &input, &init) {
                    Ok(promise) => promise.unchecked_into(),
                    Err(error) => Promise::reject(&error),
                },
            }
        })
    };
    #[cfg(feature = "api-js")]
    let xhr = if xhr { Some(crate::api_mock_js::install_xhr(mock, &prefix, &active)?) } else { None };
    #[cfg(not(feature = "api-js"))]
    let xhr: Option<Function> = {
        let _ = xhr;
        None
    };
    Reflect::set(&global, &"fetch".into(), wrapper.as_ref())?;
    *installed.borrow_mut() = Some(Installed { original, wrapper, active: Rc::clone(&active), xhr });

    let slot = Rc::clone(installed);
    let undo = Closure::<dyn Fn()>::new(move || {
        // Only this installation: a later installFetch has its own undo.
        let current = slot.borrow().as_ref().is_some_and(|i| Rc::ptr_eq(&i.active, &active));
        if current {
            uninstall(&slot);
        }
    });
    Ok(undo.into_js_value().unchecked_into())
}

#[wasm_bindgen(js_class = PetstoreMock)]
impl JsPetstoreMock {
    /// Opens the mock: restored from `localStorage` when it holds a saved mock.
    #[wasm_bindgen(constructor)]
    pub fn new(options: Option<JsMockOptions>) -> Result<JsPetstoreMock, JsValue> {
        let given = options.map_or(JsValue::UNDEFINED, JsValue::from);
        let options = read_options(given.clone())?;
        let behaviour = read_behaviour(&given)?;
        let initial = move |seed: bool| {
            let mock = if seed { petstore::Mock::seeded() } else { petstore::Mock::new() };
            mock.with_options(behaviour.clone())
        };
        let (mock, _) = PersistentMock::open_of(Rc::new(initial), &options);
        Ok(Self { mock, installed: Rc::new(RefCell::new(None)) })
    }

    /// Answers a request like `window.fetch` would: `input` is a URL string, a `URL` or a
    /// `Request`, `init` its usual options. Resolves to a real `Response`; rejects where
    /// `fetch` would (a GET with a body, an aborted signal).
    #[wasm_bindgen(unchecked_return_type = "Promise<Response>")]
    pub fn fetch(
        &self,
        #[wasm_bindgen(unchecked_param_type = "RequestInfo | URL")] input: JsValue,
        init: Option<JsRequestInit>,
    ) -> Promise {
        respond(self.mock.clone(), &input, &init.map_or(JsValue::UNDEFINED, JsValue::from), None)
    }

    /// Answers a request at once, without `Request` and `Response` objects (no promise, no
    /// body stream): what a test suite or a page that only needs the data can call.
    #[wasm_bindgen(unchecked_return_type = "PetstoreMockAnswer")]
    pub fn handle(
        &self,
        #[wasm_bindgen(unchecked_param_type = "PetstoreMockRequest")] request: JsValue,
    ) -> Result<Object, JsError> {
        if !request.is_object() {
            return Err(JsError::new("handle() takes an object such as {method: \"GET\", url: \"/pets\"}."));
        }
        let request: petstore_http::Request = serde_wasm_bindgen::from_value(request)
            .map_err(|e| JsError::new(&format!("handle(): {}.", message_of(e))))?;
        if request.target.is_empty() {
            return Err(JsError::new("handle() needs a url, such as \"/pets\"."));
        }
        let answer = serde_wasm_bindgen::to_value(&self.mock.handle(&request));
        answer.map(JsCast::unchecked_into).map_err(|e| JsError::new(&message_of(e)))
    }

    /// `handle()` with the request and the answer as JSON text: for a caller that holds them as
    /// text already (a worker's message, another WebAssembly module), no object is built or
    /// read for them.
    #[wasm_bindgen(js_name = handleJson)]
    pub fn handle_json(&self, request: &str) -> Result<String, JsError> {
        handle_json(&self.mock, request, "/pets")
    }

    /// Replaces the global `fetch`: requests whose URL starts with `prefix` (a path on this
    /// origin such as `"/api"`, or an absolute URL) are answered by the mock, with the prefix
    /// removed (`/api/pets` is the mock's `/pets`); all others go to the original `fetch`.
    /// Returns a function that undoes it (as does `uninstallFetch()`).
    #[wasm_bindgen(js_name = installFetch, unchecked_return_type = "() => void")]
    pub fn install_fetch(&self, prefix: &str) -> Result<Function, JsValue> {
        install(&self.installed, &self.mock, prefix)
    }

    /// Puts the original `fetch` back. Returns whether an interceptor was installed.
    #[wasm_bindgen(js_name = uninstallFetch)]
    pub fn uninstall_fetch(&self) -> bool {
        uninstall(&self.installed)
    }

    /// Replaces the state with the initial data: the demo data or, with `seed: false`, an
    /// empty store (default: as the mock was opened). Saved at once.
    pub fn reset(&self, seed: Option<bool>) {
        match seed {
            Some(seed) => self.mock.reset(seed),
            None => self.mock.reset_to_initial(),
        }
    }

    /// The whole state as versioned JSON (for `restore`).
    pub fn snapshot(&self) -> String {
        self.mock.snapshot()
    }

    /// Replaces the state with a snapshot. Throws an `Error` saying why when it is not one;
    /// the state is then untouched.
    pub fn restore(&self, snapshot: &str) -> Result<(), JsError> {
        self.mock.restore(snapshot).map_err(|e| JsError::new(&e.to_string()))
    }

    /// `{pets, categories, orders, openOrders, stock}`.
    #[wasm_bindgen(
        unchecked_return_type = "{pets: number, categories: number, orders: number, openOrders: number, stock: number}"
    )]
    pub fn counts(&self) -> Object {
        serde_wasm_bindgen::to_value(&self.mock.counts())
            .map_or_else(|_| Object::new(), JsCast::unchecked_into)
    }

    /// What the user should know about where the state is kept (storage was unreadable, full,
    /// unavailable, or another tab's change replaced this one's).
    #[wasm_bindgen(unchecked_return_type = "PetstoreMockNotice[]")]
    pub fn notices(&self) -> Array {
        let notices: Vec<MockNotice> = self.mock.notices().iter().map(MockNotice::from).collect();
        serde_wasm_bindgen::to_value(&notices).map_or_else(|_| Array::new(), JsCast::unchecked_into)
    }

    /// Hides the notices that report something past.
    #[wasm_bindgen(js_name = dismissNotices)]
    pub fn dismiss_notices(&self) {
        self.mock.dismiss_notices();
    }

    /// Calls `callback` after every change of the state or notices, including changes made in
    /// other tabs. Returns a function that stops it.
    #[wasm_bindgen(js_name = onChange, unchecked_return_type = "() => void")]
    pub fn on_change(&self, callback: Function) -> Function {
        let subscription = self.mock.subscribe(move |_| {
            let _ = callback.call0(&JsValue::UNDEFINED);
        });
        let mock = self.mock.clone();
        Closure::<dyn Fn()>::new(move || mock.unsubscribe(subscription)).into_js_value().unchecked_into()
    }

    /// The `localStorage` key, or `null` when the state is kept in memory only.
    #[wasm_bindgen(getter, js_name = storageKey)]
    pub fn storage_key(&self) -> Option<String> {
        self.mock.storage_key()
    }
}

impl Drop for JsPetstoreMock {
    fn drop(&mut self) {
        uninstall(&self.installed);
    }
}

/// `PetstoreMockOptions` as the page passed them.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct JsOptions {
    #[serde(default, deserialize_with = "seed_option")]
    seed: Option<bool>,
    /// As given: `undefined` (the default key) and `null` (no storage) mean different things.
    #[serde(default, with = "serde_wasm_bindgen::preserve")]
    storage_key: JsValue,
}

const SEED_OPTION: &str = "The seed option must be true or false.";
const STORAGE_KEY_OPTION: &str = "The storageKey option must be a non-empty string, or null for no storage.";

fn seed_option<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<bool>, D::Error> {
    Option::<bool>::deserialize(deserializer).map_err(|_| serde::de::Error::custom(SEED_OPTION))
}

fn read_options(options: JsValue) -> Result<MockOptions, JsValue> {
    if options.is_undefined() || options.is_null() {
        return Ok(MockOptions { seed: true, storage_key: Some(DEFAULT_STORAGE_KEY.to_owned()) });
    }
    if !options.is_object() {
        return Err(js_sys::TypeError::new("PetstoreMock options must be an object.").into());
    }
    let read: JsOptions =
        serde_wasm_bindgen::from_value(options).map_err(|e| js_sys::TypeError::new(&message_of(e)))?;
    let storage_key = if read.storage_key.is_undefined() {
        Some(DEFAULT_STORAGE_KEY.to_owned())
    } else if read.storage_key.is_null() {
        None
    } else {
        let key = read.storage_key.as_string().filter(|k| !k.is_empty());
        Some(key.ok_or_else(|| js_sys::TypeError::new(STORAGE_KEY_OPTION))?)
    };
    Ok(MockOptions { seed: read.seed.unwrap_or(true), storage_key })
}

/// The behaviour options (`validate`, `delay`, `failure`, `operations`), read as `ApiMock`
/// reads them; `seed` and `storageKey` are the Petstore's own.
fn read_behaviour(options: &JsValue) -> Result<petstore_api_mock::MockOptions, JsValue> {
    let error =
        |message: String| JsValue::from(js_sys::TypeError::new(&format!("PetstoreMock options: {message}.")));
    if !options.is_object() {
        return Ok(petstore_api_mock::MockOptions::default());
    }
    let text = js_sys::JSON::stringify(options).map_err(|e| error(petstore_browser::describe(&e)))?;
    let mut value: serde_json::Value =
        serde_json::from_str(&String::from(text)).map_err(|e| error(e.to_string()))?;
    if let Some(fields) = value.as_object_mut() {
        fields.remove("seed");
        fields.remove("storageKey");
        for own in ["security", "credentials"] {
            if fields.contains_key(own) {
                return Err(error(format!("{own} is not an option of the Petstore, which has no security")));
            }
        }
    }
    let behaviour: petstore_api_mock::MockOptions =
        serde_json::from_value(value).map_err(|e| error(e.to_string()))?;
    behaviour.check().map_err(error)?;
    Ok(behaviour)
}

/// The message of a conversion error (a JavaScript `Error` underneath).
pub(crate) fn message_of(error: serde_wasm_bindgen::Error) -> String {
    let error = JsValue::from(error);
    match error.dyn_ref::<js_sys::Error>() {
        Some(error) => error.message().into(),
        None => petstore_browser::describe(&error),
    }
}

/// `handleJson()` of a mock: `request` is what `handle()` takes, as JSON text, such as
/// `{"method": "GET", "url": "/pets"}`; the answer is what `handle()` gives, as JSON text
/// (`example` is the path the error messages show).
pub(crate) fn handle_json<M: StatefulMock + 'static>(
    mock: &PersistentMock<M>,
    request: &str,
    example: &str,
) -> Result<String, JsError> {
    let request: petstore_http::Request = serde_json::from_str(request).map_err(|e| {
        JsError::new(&format!(
            "handleJson() takes a request as JSON text, such as {{\"method\": \"GET\", \"url\": \"{example}\"}} ({e})."
        ))
    })?;
    if request.target.is_empty() {
        return Err(JsError::new(&format!("handleJson() needs a url, such as \"{example}\".")));
    }
    serde_json::to_string(&mock.handle(&request)).map_err(|e| JsError::new(&e.to_string()))
}

/// The mock's target when `fetch(input)` goes to a URL under the prefix.
pub(crate) fn intercepted(prefix: &Prefix, input: &JsValue) -> Option<String> {
    let text = if let Some(request) = input.dyn_ref::<web_sys::Request>() {
        request.url()
    } else if let Some(text) = input.as_string() {
        text
    } else if input.is_object() {
        String::from(input.unchecked_ref::<Object>().to_string())
    } else {
        return None;
    };
    let Scope { location } = serde_wasm_bindgen::from_value(js_sys::global().into()).ok()?;
    let url = web_sys::Url::new_with_base(&text, &location.href).ok()?.href();
    prefix.target(&url, &location.origin)
}

/// What [`intercepted`] reads of the global scope (a window or a worker): relative URLs
/// resolve against its location.
#[derive(Deserialize)]
struct Scope {
    location: ScopeLocation,
}

#[derive(Deserialize)]
struct ScopeLocation {
    href: String,
    origin: String,
}

/// A promise of the mock's answer to `new Request(input, init)`; `target` overrides the URL.
pub(crate) fn respond<M: StatefulMock + 'static>(
    mock: PersistentMock<M>,
    input: &JsValue,
    init: &JsValue,
    target: Option<String>,
) -> Promise {
    match new_request(input, init) {
        Ok(request) => {
            let target = target.unwrap_or_else(|| request.url());
            future_to_promise(async move { answer(&mock, &request, target).await.map(JsValue::from) })
        }
        Err(error) => Promise::reject(&error),
    }
}

/// The browser's own `Request` constructor reads every form `fetch` accepts (strings, URLs,
/// `Request`s, header objects, pairs and `Headers`, string and binary bodies) and throws where
/// `fetch` would reject.
fn new_request(input: &JsValue, init: &JsValue) -> Result<web_sys::Request, JsValue> {
    let constructor: Function = Reflect::get(&js_sys::global(), &"Request".into())?.dyn_into()?;
    let request = Reflect::construct(&constructor, &Array::of2(input, init))?;
    request.dyn_into().map_err(|_| js_sys::TypeError::new("Request did not construct a Request.").into())
}

async fn answer<M: StatefulMock + 'static>(
    mock: &PersistentMock<M>,
    request: &web_sys::Request,
    target: String,
) -> Result<web_sys::Response, JsValue> {
    let signal = request.signal();
    if signal.aborted() {
        return Err(signal.reason());
    }
    let body = Uint8Array::new(&JsFuture::from(request.array_buffer()?).await?).to_vec();
    // `Headers` iterates as [name, value] pairs of strings.
    let headers = serde_wasm_bindgen::from_value(request.headers().into())?;
    let request = petstore_http::Request { method: request.method(), target, headers, body };
    let handled = mock.handle_timed(&request);
    if handled.delay_ms > 0 {
        sleep(handled.delay_ms).await?;
    }
    if handled.network_error {
        return Err(js_sys::TypeError::new(
            "Failed to fetch (a network failure injected by the mock's options)",
        )
        .into());
    }
    to_response(&handled.response)
}

/// Waits `ms` milliseconds with the global `setTimeout` (a window's or a worker's).
async fn sleep(ms: u32) -> Result<(), JsValue> {
    let set_timeout: Function = Reflect::get(&js_sys::global(), &"setTimeout".into())?.dyn_into()?;
    let wait = Promise::new(&mut |resolve, _| {
        let _ = set_timeout.call2(&JsValue::UNDEFINED, &resolve, &JsValue::from(ms));
    });
    JsFuture::from(wait).await.map(drop)
}

fn to_response(response: &petstore_http::Response) -> Result<web_sys::Response, JsValue> {
    let headers = web_sys::Headers::new()?;
    for (name, value) in &response.headers {
        headers.append(name, value)?;
    }
    let init = web_sys::ResponseInit::new();
    init.set_status(response.status);
    init.set_status_text(reason_phrase(response.status));
    init.set_headers(&headers);
    let mut body = response.body.clone();
    let body = (!body.is_empty() && !is_null_body_status(response.status)).then_some(body.as_mut_slice());
    web_sys::Response::new_with_opt_u8_array_and_init(body, &init)
}

/// Removes an installed interceptor; returns whether there was one.
pub(crate) fn uninstall(slot: &RefCell<Option<Installed>>) -> bool {
    let Some(installed) = slot.borrow_mut().take() else { return false };
    installed.active.set(false);
    if let Some(put_back) = &installed.xhr {
        let _ = put_back.call0(&JsValue::UNDEFINED);
    }
    let global = js_sys::global();
    let ours =
        Reflect::get(&global, &"fetch".into()).is_ok_and(|current| current == *installed.wrapper.as_ref());
    if ours {
        let _ = Reflect::set(&global, &"fetch".into(), &installed.original);
    } else {
        // Someone wrapped our wrapper after us and still calls it: keep it alive; it now passes
        // every request to the original fetch.
        installed.wrapper.forget();
    }
    true
}
