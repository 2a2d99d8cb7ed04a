//! What the JavaScript mock classes share (`PetstoreMock` of `playground-module-mock`, `ApiMock`
//! of `playground-module-api-mock`): answering `fetch`-shaped calls, `handle` and `handleJson`,
//! installing and removing the `fetch` (and `XMLHttpRequest`) interceptors, and the state
//! methods, over a [`PersistentMock`] of either mock. [`js_mock_methods!`](crate::js_mock_methods)
//! writes the methods both classes export, once: wasm-bindgen exports no generic type, so each
//! class is a struct of its own around a [`JsMock`], and the macro gives it the shared
//! `#[wasm_bindgen]` methods; each class adds only its own (its constructor, `reset`, `recordJson`,
//! `counts` or `resources`).

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use js_sys::{Array, Function, Object, Promise, Reflect, Uint8Array};
use playground_mock::{MockNotice, StatefulMock};
use serde::Deserialize;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::{JsFuture, future_to_promise};

use crate::intercept::{Prefix, is_null_body_status, reason_phrase};
use crate::persistent::PersistentMock;
use crate::store::js::JsStorage;

#[wasm_bindgen]
extern "C" {
    /// The `init` argument of `fetch` (TypeScript's `RequestInit`).
    #[wasm_bindgen(typescript_type = "RequestInit")]
    pub type JsRequestInit;
}

/// Replaces the global `XMLHttpRequest` with one that asks `mock_fetch(url, init)` for the URLs
/// `target(url)` accepts; returns what puts the original back. `ApiMock`'s module has it (its
/// `xhr.js`); the Petstore's mock answers `fetch` only.
pub type XhrInstaller = fn(target: &Function, mock_fetch: &Function) -> Function;

/// The mocks whose exchanges with a real server can be checked against their description
/// (`checkExchangeJson`).
pub trait CheckExchange {
    /// How `response` to `request` compares with the description.
    fn check_exchange(
        &self,
        request: &playground_http::Request,
        response: &playground_http::Response,
    ) -> playground_mock::Checked;
}

impl CheckExchange for playground_mock::ApiMock {
    fn check_exchange(
        &self,
        request: &playground_http::Request,
        response: &playground_http::Response,
    ) -> playground_mock::Checked {
        playground_mock::ApiMock::check_exchange(self, request, response)
    }
}

impl CheckExchange for petstore::Mock {
    fn check_exchange(
        &self,
        request: &playground_http::Request,
        response: &playground_http::Response,
    ) -> playground_mock::Checked {
        petstore::Mock::check_exchange(self, request, response)
    }
}

/// A mock opened for JavaScript and its installed interceptors; removes them when dropped.
#[derive(Debug)]
pub struct JsMock<M: StatefulMock + 'static> {
    /// The mock, saved where its options say.
    pub mock: PersistentMock<M>,
    installed: InstalledSlot,
    /// A path of the mock, for the examples in error messages (`/pets`).
    example: &'static str,
    /// What `installFetch` also replaces `XMLHttpRequest` with, if anything.
    xhr: Option<XhrInstaller>,
}

impl<M: StatefulMock + 'static> JsMock<M> {
    /// `mock` for JavaScript: `example` is a path of it for error messages (`/pets`), `xhr` what
    /// `installFetch` answers `XMLHttpRequest` with (`None`: `fetch` only).
    #[must_use]
    pub fn new(mock: PersistentMock<M>, example: &'static str, xhr: Option<XhrInstaller>) -> Self {
        Self { mock, installed: Rc::new(RefCell::new(None)), example, xhr }
    }

    /// `fetch(input, init)`: a promise of a real `Response`.
    pub fn fetch(&self, input: &JsValue, init: Option<JsRequestInit>) -> Promise {
        respond(self.mock.clone(), input, &init.map_or(JsValue::UNDEFINED, JsValue::from), None)
    }

    /// `answer(method, url, headers, body)`: a promise of a real `Response`, for a caller that
    /// holds a request's parts already (the MSW and Playwright helpers): no `Request` is built
    /// and no body stream read. `headers` is a `Headers`, `[name, value]` pairs or the header
    /// block as text (`name: value` lines, which the helpers pass: one string crosses into the
    /// module rather than each pair); `url` the mock's path with its query. An answer without a
    /// delay is a promise resolved at once.
    pub fn answer(
        &self,
        method: String,
        target: String,
        headers: &JsValue,
        body: Option<Uint8Array>,
    ) -> Promise {
        let headers = match headers.as_string() {
            Some(block) => header_lines(&block),
            None => match serde_wasm_bindgen::from_value(headers.clone()) {
                Ok(headers) => headers,
                Err(error) => {
                    let message = format!(
                        "answer(): the headers are a Headers, [name, value] pairs or \"name: value\" lines ({}).",
                        message_of(error)
                    );
                    return Promise::reject(&js_sys::TypeError::new(&message));
                }
            },
        };
        let body = body.map(|body| body.to_vec()).unwrap_or_default();
        let request = playground_http::Request { method, target, headers, body };
        let handled = self.mock.handle_timed(&request);
        if handled.delay_ms == 0 && !handled.network_error {
            return match to_response(&handled.response) {
                Ok(response) => Promise::resolve(&JsValue::from(response)),
                Err(error) => Promise::reject(&error),
            };
        }
        future_to_promise(async move { delayed(handled).await.map(JsValue::from) })
    }

    /// `handle(request)`: `{method, url, headers, body}` in, `{status, headers, body}` out.
    pub fn handle(&self, request: JsValue) -> Result<Object, JsError> {
        let example = self.example;
        if !request.is_object() {
            return Err(JsError::new(&format!(
                "handle() takes an object such as {{method: \"GET\", url: \"{example}\"}}."
            )));
        }
        let request: playground_http::Request = serde_wasm_bindgen::from_value(request)
            .map_err(|e| JsError::new(&format!("handle(): {}.", message_of(e))))?;
        if request.target.is_empty() {
            return Err(JsError::new(&format!("handle() needs a url, such as \"{example}\".")));
        }
        let answer = serde_wasm_bindgen::to_value(&self.mock.handle(&request));
        answer.map(JsCast::unchecked_into).map_err(|e| JsError::new(&message_of(e)))
    }

    /// `handleJson(request)`: `request` is what `handle()` takes, as JSON text, such as
    /// `{"method": "GET", "url": "/pets"}`; the answer is what `handle()` gives, as JSON text.
    pub fn handle_json(&self, request: &str) -> Result<String, JsError> {
        let example = self.example;
        let request: playground_http::Request = serde_json::from_str(request).map_err(|e| {
            JsError::new(&format!(
                "handleJson() takes a request as JSON text, such as {{\"method\": \"GET\", \"url\": \"{example}\"}} ({e})."
            ))
        })?;
        if request.target.is_empty() {
            return Err(JsError::new(&format!("handleJson() needs a url, such as \"{example}\".")));
        }
        serde_json::to_string(&self.mock.handle(&request)).map_err(|e| JsError::new(&e.to_string()))
    }

    /// The request and the answer of `checkExchangeJson` and `recordJson`, read from JSON text
    /// (`name` is the method's, for the message).
    pub fn exchange_of(
        &self,
        name: &str,
        request: &str,
        response: &str,
    ) -> Result<(playground_http::Request, playground_http::Response), JsError> {
        let example = self.example;
        let request: playground_http::Request = serde_json::from_str(request).map_err(|e| {
            JsError::new(&format!(
                "{name}() takes a request as JSON text, such as {{\"method\": \"GET\", \"url\": \"{example}\"}} ({e})."
            ))
        })?;
        let response: playground_http::Response = serde_json::from_str(response).map_err(|e| {
            JsError::new(&format!(
                "{name}() takes an answer as JSON text, such as {{\"status\": 200, \"headers\": [], \"body\": \"\"}} ({e})."
            ))
        })?;
        Ok((request, response))
    }

    /// `checkExchangeJson(request, response)`: the mock's drift check on the exchange read from
    /// JSON text, as JSON text (`{"operation", "mismatches"}`).
    pub fn check_exchange_json(&self, request: &str, response: &str) -> Result<String, JsError>
    where
        M: CheckExchange,
    {
        let (request, response) = self.exchange_of("checkExchangeJson", request, response)?;
        let checked = playground_seam::Checked::from(
            self.mock.with_mock(|mock| mock.check_exchange(&request, &response)),
        );
        serde_json::to_string(&checked).map_err(|e| JsError::new(&e.to_string()))
    }

    /// `installFetch(prefix)`, with the `XMLHttpRequest` interceptor too when the class has one.
    pub fn install_fetch(&self, prefix: &str) -> Result<Function, JsValue> {
        install_with(&self.installed, &self.mock, prefix, self.xhr)
    }

    /// `uninstallFetch()`.
    pub fn uninstall_fetch(&self) -> bool {
        uninstall(&self.installed)
    }

    /// `restore(snapshot)`, throwing an `Error` that says why.
    pub fn restore(&self, snapshot: &str) -> Result<(), JsError> {
        self.mock.restore(snapshot).map_err(|e| JsError::new(&e.to_string()))
    }

    /// `notices()`.
    pub fn notices(&self) -> Array {
        let notices: Vec<MockNotice> = self.mock.notices().iter().map(MockNotice::from).collect();
        serde_wasm_bindgen::to_value(&notices).map_or_else(|_| Array::new(), JsCast::unchecked_into)
    }

    /// `onChange(callback)`: returns the function that stops it.
    pub fn on_change(&self, callback: Function) -> Function {
        let subscription = self.mock.subscribe(move |_| {
            let _ = callback.call0(&JsValue::UNDEFINED);
        });
        let mock = self.mock.clone();
        Closure::<dyn Fn()>::new(move || mock.unsubscribe(subscription)).into_js_value().unchecked_into()
    }
}

impl<M: StatefulMock + 'static> Drop for JsMock<M> {
    fn drop(&mut self) {
        uninstall(&self.installed);
    }
}

/// An installed `fetch` interceptor (and, for an `ApiMock`, the `XMLHttpRequest` one).
#[derive(Debug)]
struct Installed {
    original: Function,
    wrapper: Closure<dyn FnMut(JsValue, JsValue) -> Promise>,
    /// Cleared on uninstall, so a wrapper that someone else still calls passes everything on.
    active: Rc<Cell<bool>>,
    /// Puts the original `XMLHttpRequest` back, when it was replaced too.
    xhr: Option<Function>,
}

/// The slot of a mock's installed interceptors.
type InstalledSlot = Rc<RefCell<Option<Installed>>>;

/// Replaces the global `fetch` (and with `xhr`, `XMLHttpRequest`) so that requests under
/// `prefix` go to `mock`; returns the function that undoes it.
fn install_with<M: StatefulMock + 'static>(
    installed: &InstalledSlot,
    mock: &PersistentMock<M>,
    prefix: &str,
    xhr: Option<XhrInstaller>,
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
    let xhr = xhr.map(|installer| install_xhr(installer, mock, &prefix, &active));
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

/// Installs the `XMLHttpRequest` interceptor beside the `fetch` one; returns what puts the
/// original back.
fn install_xhr<M: StatefulMock + 'static>(
    installer: XhrInstaller,
    mock: &PersistentMock<M>,
    prefix: &Rc<Prefix>,
    active: &Rc<Cell<bool>>,
) -> Function {
    let target = {
        let (prefix, active) = (Rc::clone(prefix), Rc::clone(active));
        Closure::<dyn Fn(JsValue) -> bool>::new(move |url: JsValue| {
            active.get() && intercepted(&prefix, &url).is_some()
        })
    };
    let mock_fetch = {
        let (mock, prefix) = (mock.clone(), Rc::clone(prefix));
        Closure::<dyn Fn(JsValue, JsValue) -> Promise>::new(move |url: JsValue, init: JsValue| {
            let target = intercepted(&prefix, &url);
            respond(mock.clone(), &url, &init, target)
        })
    };
    installer(&target.into_js_value().unchecked_into(), &mock_fetch.into_js_value().unchecked_into())
}

/// Why `reset()` changed nothing (a `storage` of the caller's refused it).
#[must_use]
pub fn not_reset(reason: &str) -> String {
    format!("The state was not reset: it could not be saved ({reason}).")
}

/// The `storage` option of either class: `None` when not given (or `null`).
///
/// # Errors
/// Why the object given cannot be a store.
pub fn storage_option(options: &JsValue) -> Result<Option<JsStorage>, String> {
    if !options.is_object() {
        return Ok(None);
    }
    let storage = Reflect::get(options, &"storage".into()).unwrap_or(JsValue::UNDEFINED);
    if storage.is_undefined() || storage.is_null() {
        return Ok(None);
    }
    JsStorage::new(&storage).map(Some)
}

/// The message of a conversion error (a JavaScript `Error` underneath).
#[must_use]
pub fn message_of(error: serde_wasm_bindgen::Error) -> String {
    let error = JsValue::from(error);
    match error.dyn_ref::<js_sys::Error>() {
        Some(error) => error.message().into(),
        None => playground_browser::describe(&error),
    }
}

/// The mock's target when `fetch(input)` goes to a URL under the prefix.
fn intercepted(prefix: &Prefix, input: &JsValue) -> Option<String> {
    let location = scope_location();
    let url = absolute_url(input, &location)?;
    prefix.target(&url, &location.origin)
}

/// `input`'s URL made absolute: a `Request`'s own, or a string or `URL` resolved against the
/// scope's location; `None` for anything else, or what does not read as a URL.
fn absolute_url(input: &JsValue, location: &ScopeLocation) -> Option<String> {
    let text = if let Some(request) = input.dyn_ref::<web_sys::Request>() {
        return Some(request.url());
    } else if let Some(text) = input.as_string() {
        text
    } else if input.is_object() {
        String::from(input.unchecked_ref::<Object>().to_string())
    } else {
        return None;
    };
    web_sys::Url::new_with_base(&text, &location.href).ok().map(|url| url.href())
}

/// Where relative URLs resolve where there is no page (Node): `fetch("/api/pets")` is
/// `http://localhost/api/pets`, so a path prefix takes it.
const NO_PAGE_ORIGIN: &str = "http://localhost";

/// The global scope's location (a window's or a worker's), or [`NO_PAGE_ORIGIN`] in Node.
fn scope_location() -> ScopeLocation {
    serde_wasm_bindgen::from_value::<Scope>(js_sys::global().into()).map_or_else(
        |_| ScopeLocation { href: format!("{NO_PAGE_ORIGIN}/"), origin: NO_PAGE_ORIGIN.to_owned() },
        |scope| scope.location,
    )
}

/// What [`scope_location`] reads of the global scope: relative URLs resolve against its
/// location.
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
fn respond<M: StatefulMock + 'static>(
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
/// `fetch` would reject. A relative URL is resolved first (Node's constructor takes none).
fn new_request(input: &JsValue, init: &JsValue) -> Result<web_sys::Request, JsValue> {
    let constructor: Function = Reflect::get(&js_sys::global(), &"Request".into())?.dyn_into()?;
    let input = match absolute_url(input, &scope_location()) {
        Some(url) if input.dyn_ref::<web_sys::Request>().is_none() => JsValue::from(url),
        _ => input.clone(),
    };
    let request = Reflect::construct(&constructor, &Array::of2(&input, init))?;
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
    let request = playground_http::Request { method: request.method(), target, headers, body };
    answer_request(mock, &request).await
}

/// The mock's answer to `request` as a `Response`, after the delay its options ask for; a
/// `TypeError` for a network failure they inject.
async fn answer_request<M: StatefulMock + 'static>(
    mock: &PersistentMock<M>,
    request: &playground_http::Request,
) -> Result<web_sys::Response, JsValue> {
    delayed(mock.handle_timed(request)).await
}

/// `handled`'s answer as a `Response`, after the delay it asks for; a `TypeError` for a
/// network failure it injects.
async fn delayed(handled: playground_mock::Handled) -> Result<web_sys::Response, JsValue> {
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

/// A header block's `name: value` lines (ends of line `\n` or `\r\n`; a line without a colon
/// is skipped, the space after the colon is not part of the value).
fn header_lines(block: &str) -> Vec<(String, String)> {
    block
        .lines()
        .filter_map(|line| line.split_once(':'))
        .map(|(name, value)| (name.trim().to_owned(), value.trim_start().to_owned()))
        .collect()
}

#[wasm_bindgen(inline_js = "export function response(body, status, statusText, fields) {
  const headers = [];
  if (fields !== '') {
    const parts = fields.split('\\0');
    for (let i = 0; i + 1 < parts.length; i += 2) headers.push([parts[i], parts[i + 1]]);
  }
  return new Response(body, { status, statusText, headers });
}")]
extern "C" {
    /// `new Response(body, {status, statusText, headers})`, the headers' names and values
    /// joined by NUL (which no header holds: `Headers` refuses it, as it refuses a line break),
    /// so that one call crosses out of the module rather than one per header. `body` is
    /// copied by the constructor.
    #[wasm_bindgen(catch, js_name = response)]
    fn new_response(
        body: Option<&[u8]>,
        status: u16,
        status_text: &str,
        fields: &str,
    ) -> Result<web_sys::Response, JsValue>;
}

/// The mock's answer as a real `Response`. A header that `Headers` refuses (a line break or a
/// NUL in its value) fails it with `Headers`' `TypeError`.
fn to_response(response: &playground_http::Response) -> Result<web_sys::Response, JsValue> {
    if let Some((name, _)) =
        response.headers.iter().find(|(name, value)| name.contains('\0') || value.contains('\0'))
    {
        return Err(js_sys::TypeError::new(&format!("The header {name:?} holds a NUL character.")).into());
    }
    let mut fields = String::new();
    for (name, value) in &response.headers {
        if !fields.is_empty() {
            fields.push('\0');
        }
        fields.push_str(name);
        fields.push('\0');
        fields.push_str(value);
    }
    let body = (!response.body.is_empty() && !is_null_body_status(response.status))
        .then_some(response.body.as_slice());
    new_response(body, response.status, reason_phrase(response.status), &fields)
}

/// Removes an installed interceptor; returns whether there was one.
fn uninstall(slot: &RefCell<Option<Installed>>) -> bool {
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
