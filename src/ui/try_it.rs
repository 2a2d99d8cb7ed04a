//! The try-it panel of one operation: where to send (the in-browser mock, a server of the
//! document, or a base URL of the reader's), a form for its parameters, a JSON body editor and
//! extra headers; Send (also Ctrl/Cmd+Enter), Cancel and a timeout; the answer with its status,
//! time, headers and body (error objects shown as errors; network and CORS failures explained);
//! and the last answers of this operation.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

use leptos::prelude::*;
use petstore_core::http::reason_phrase;
use petstore_core::reference::OperationView;
use petstore_core::samples::SampleRequest;
use petstore_core::tryit::{
    ErrorSummary, FieldError, ParamInput, Reachability, build_request, error_summary, example_text,
    explain_failure, field_key, initial_text,
};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

use crate::mock::MockState;

/// A request gets no answer after this long is stopped.
pub const TIMEOUT_MS: i32 = 30_000;
/// Answers kept per operation.
const HISTORY_LEN: usize = 5;
const TARGET_KEY: &str = "petstore-playground/try-it/target";
const BASE_URL_KEY: &str = "petstore-playground/try-it/base-url";
const HEADERS_KEY: &str = "petstore-playground/try-it/headers";

/// Where requests go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// The in-browser mock.
    Mock,
    /// A server URL of the document.
    Server(String),
    /// The reader's base URL.
    Custom,
}

impl Target {
    fn key(&self) -> String {
        match self {
            Self::Mock => "mock".to_owned(),
            Self::Server(url) => format!("server:{url}"),
            Self::Custom => "custom".to_owned(),
        }
    }

    fn from_key(key: &str) -> Option<Self> {
        match key {
            "mock" => Some(Self::Mock),
            "custom" => Some(Self::Custom),
            _ => key.strip_prefix("server:").map(|url| Self::Server(url.to_owned())),
        }
    }
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

fn remembered(key: &str) -> Option<String> {
    storage()?.get_item(key).ok().flatten()
}

fn remember(key: &str, value: Option<&str>) {
    if let Some(storage) = storage() {
        let _ = match value {
            Some(value) => storage.set_item(key, value),
            None => storage.remove_item(key),
        };
    }
}

fn page_base() -> String {
    web_sys::window().and_then(|w| w.document()).and_then(|d| d.base_uri().ok().flatten()).unwrap_or_default()
}

fn page_origin() -> String {
    web_sys::window().and_then(|w| w.location().origin().ok()).unwrap_or_default()
}

fn origin_of(url: &str) -> String {
    web_sys::Url::new_with_base(url, &page_base()).map(|u| u.origin()).unwrap_or_else(|_| url.to_owned())
}

/// Checks a base URL typed by the reader; returns it without a trailing slash.
///
/// # Errors
/// Why it cannot be used, in words a reader can act on.
pub fn check_base_url(text: &str) -> Result<String, String> {
    let text = text.trim();
    if text.is_empty() {
        return Err("Enter the server's base URL, such as http://127.0.0.1:4010.".to_owned());
    }
    let url = web_sys::Url::new(text).map_err(|_| {
        format!("\u{201c}{text}\u{201d} is not a full URL; write it like http://127.0.0.1:4010.")
    })?;
    let protocol = url.protocol();
    if protocol != "http:" && protocol != "https:" {
        return Err(format!("Use an http:// or https:// URL; {protocol} is not supported."));
    }
    if !url.search().is_empty() || !url.hash().is_empty() {
        return Err("Leave out the query (?…) and fragment (#…): each operation adds its own.".to_owned());
    }
    if !url.username().is_empty() || !url.password().is_empty() {
        return Err("Leave the user name and password out of the URL; send them in a header such as \
                    Authorization."
            .to_owned());
    }
    Ok(url.href().trim_end_matches('/').to_owned())
}

/// The base URL a document server names, resolved against this page when it is relative.
fn server_base(url: &str) -> String {
    web_sys::Url::new_with_base(url, &page_base())
        .map(|u| u.href())
        .unwrap_or_else(|_| url.to_owned())
        .trim_end_matches('/')
        .to_owned()
}

#[wasm_bindgen]
extern "C" {
    /// The browser's `RegExp`, with construction errors caught.
    #[wasm_bindgen(js_name = RegExp)]
    type CheckedRegExp;
    #[wasm_bindgen(constructor, catch, js_class = RegExp)]
    fn new(pattern: &str, flags: &str) -> Result<CheckedRegExp, JsValue>;
    #[wasm_bindgen(method)]
    fn test(this: &CheckedRegExp, text: &str) -> bool;
}

fn matches_pattern(pattern: &str, text: &str) -> Option<bool> {
    // The browser's own regular expressions: OpenAPI patterns are ECMA 262 ones.
    CheckedRegExp::new(pattern, "u").ok().map(|re| re.test(text))
}

/// What the form holds; shared with the code samples, which show the same request.
#[derive(Debug, Clone, Copy)]
pub struct TryItForm {
    /// Where requests go.
    pub target: RwSignal<Target>,
    /// The reader's base URL, as typed.
    pub custom_base: RwSignal<String>,
    /// Parameter values, as typed.
    pub params: RwSignal<Vec<ParamInput>>,
    /// The JSON body, as typed.
    pub body: RwSignal<String>,
    /// Extra header lines.
    pub headers: RwSignal<String>,
    /// Whether the extra headers are kept in this browser.
    pub remember_headers: RwSignal<bool>,
}

impl TryItForm {
    /// The form of `view`, prefilled with examples and the remembered target and base URL.
    #[must_use]
    pub fn new(view: &OperationView, mock_available: bool) -> Self {
        let servers: Vec<String> = view.servers.clone();
        let target = remembered(TARGET_KEY)
            .and_then(|k| Target::from_key(&k))
            .filter(|t| match t {
                Target::Mock => mock_available,
                Target::Server(url) => servers.contains(url),
                Target::Custom => true,
            })
            .unwrap_or_else(|| match servers.first() {
                _ if mock_available => Target::Mock,
                Some(url) => Target::Server(url.clone()),
                None => Target::Custom,
            });
        let saved_headers = remembered(HEADERS_KEY);
        Self {
            target: RwSignal::new(target),
            custom_base: RwSignal::new(remembered(BASE_URL_KEY).unwrap_or_default()),
            params: RwSignal::new(
                view.parameters
                    .iter()
                    .filter(|p| matches!(p.location.as_str(), "path" | "query" | "header"))
                    .map(|p| ParamInput {
                        location: p.location.clone(),
                        name: p.name.clone(),
                        text: initial_text(p),
                    })
                    .collect(),
            ),
            body: RwSignal::new(
                view.request_body
                    .as_ref()
                    .map(|b| serde_json::to_string_pretty(&b.example).unwrap_or_default())
                    .unwrap_or_default(),
            ),
            remember_headers: RwSignal::new(saved_headers.is_some()),
            headers: RwSignal::new(saved_headers.unwrap_or_default()),
        }
    }

    /// The base URL requests go to (empty for the mock), or why there is none.
    fn base(&self) -> Result<String, String> {
        match self.target.get() {
            Target::Mock => Ok(String::new()),
            Target::Server(url) => Ok(server_base(&url)),
            Target::Custom => check_base_url(&self.custom_base.get()),
        }
    }

    /// The request as the form stands, and what keeps it from being sent.
    fn request(&self, view: &OperationView) -> (SampleRequest, Vec<FieldError>) {
        let base = self.base();
        let body = self.body.get();
        let (request, mut errors) = self.params.with(|params| {
            build_request(
                view,
                base.as_deref().unwrap_or_default(),
                params,
                view.request_body.is_some().then_some(body.as_str()),
                &self.headers.get(),
                &matches_pattern,
            )
        });
        if let Err(message) = base {
            errors.insert(0, FieldError { field: "base".to_owned(), message });
        }
        (request, errors)
    }

    /// The request the code samples show: the form's, against the target's base URL (for the
    /// mock, the document's local server, which `petstore-mock serve` provides).
    #[must_use]
    pub fn sample(&self, view: &OperationView) -> SampleRequest {
        let base = match self.target.get() {
            Target::Mock => view
                .servers
                .iter()
                .find(|s| s.contains("://127.0.0.1") || s.contains("://localhost"))
                .or_else(|| view.servers.first())
                .cloned()
                .unwrap_or_default(),
            Target::Server(url) => url,
            Target::Custom => check_base_url(&self.custom_base.get()).unwrap_or_default(),
        };
        let body = self.body.get();
        let mut request = self.params.with(|params| {
            build_request(
                view,
                base.trim_end_matches('/'),
                params,
                view.request_body.is_some().then_some(body.as_str()),
                &self.headers.get(),
                &matches_pattern,
            )
            .0
        });
        // An unfinished body still shows the example rather than no body.
        if request.body.is_none()
            && let Some(b) = &view.request_body
        {
            request.body = Some(b.example.clone());
            if !request.headers.iter().any(|(n, _)| n == "Content-Type") {
                request.headers.insert(0, ("Content-Type".to_owned(), b.media_type.clone()));
            }
        }
        request
    }
}

/// What a sent request got.
#[derive(Debug, Clone, PartialEq)]
enum Outcome {
    Answer {
        status: u16,
        status_text: String,
        headers: Vec<(String, String)>,
        body: String,
        error: Option<ErrorSummary>,
    },
    Failure(String),
}

#[derive(Debug, Clone, PartialEq)]
struct Exchange {
    id: u64,
    at: String,
    method: String,
    url: String,
    target: String,
    millis: f64,
    outcome: Outcome,
}

thread_local! {
    /// The last answers per operation, for this page's life.
    static HISTORY: RefCell<HashMap<String, Vec<Exchange>>> = RefCell::new(HashMap::new());
    static NEXT_ID: Cell<u64> = const { Cell::new(1) };
}

fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

fn clock() -> String {
    let date = js_sys::Date::new_0();
    format!("{:02}:{:02}:{:02}", date.get_hours(), date.get_minutes(), date.get_seconds())
}

fn message_of(error: &JsValue) -> String {
    error
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| error.as_string())
        .unwrap_or_else(|| "unknown error".to_owned())
}

fn pretty_body(body: &str) -> String {
    serde_json::from_str::<serde_json::Value>(body)
        .ok()
        .and_then(|v| serde_json::to_string_pretty(&v).ok())
        .unwrap_or_else(|| body.to_owned())
}

/// Whether anything answers at `origin` when CORS does not matter (an opaque request).
async fn reachable(origin: &str) -> Reachability {
    let Some(window) = web_sys::window() else { return Reachability::Unreachable };
    let init = web_sys::RequestInit::new();
    init.set_mode(web_sys::RequestMode::NoCors);
    if let Ok(controller) = web_sys::AbortController::new() {
        init.set_signal(Some(&controller.signal()));
        let abort = Closure::once_into_js(move || controller.abort());
        let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(abort.unchecked_ref(), 5_000);
    }
    match JsFuture::from(window.fetch_with_str_and_init(&format!("{origin}/"), &init)).await {
        Ok(_) => Reachability::Answered,
        Err(_) => Reachability::Unreachable,
    }
}

/// The mock's answer to `request`, at once.
fn ask_mock(mock: MockState, request: &SampleRequest, body_text: Option<String>) -> Outcome {
    let asked = petstore_core::Request {
        method: request.method.clone(),
        target: request.url.clone(),
        headers: request.headers.clone(),
        body: body_text.unwrap_or_default().into_bytes(),
    };
    match mock.answer(&asked) {
        Ok(answer) => {
            let body = String::from_utf8_lossy(&answer.body);
            let error = serde_json::from_str(&body).ok().and_then(|v| error_summary(answer.status, &v));
            Outcome::Answer {
                status: answer.status,
                status_text: reason_phrase(answer.status).to_owned(),
                body: pretty_body(&body),
                headers: answer.headers,
                error,
            }
        }
        Err(message) => Outcome::Failure(message),
    }
}

/// Sends `request` to the network; `controller` cancels it.
async fn exchange(
    request: &SampleRequest,
    body_text: Option<String>,
    controller: &web_sys::AbortController,
    timed_out: &Cell<bool>,
) -> Outcome {
    let init = web_sys::RequestInit::new();
    init.set_method(&request.method);
    let Ok(headers) = web_sys::Headers::new() else {
        return Outcome::Failure("The browser refused the headers.".into());
    };
    for (name, value) in &request.headers {
        if let Err(e) = headers.append(name, value) {
            return Outcome::Failure(format!("The header {name} cannot be sent: {}.", message_of(&e)));
        }
    }
    init.set_headers(&headers);
    if let Some(body) = &body_text {
        init.set_body(&JsValue::from_str(body));
    }
    init.set_signal(Some(&controller.signal()));
    let web_request = match web_sys::Request::new_with_str_and_init(&request.url, &init) {
        Ok(r) => r,
        Err(e) => return Outcome::Failure(format!("The request cannot be made: {}.", message_of(&e))),
    };
    let answer = match web_sys::window() {
        Some(window) => JsFuture::from(window.fetch_with_request(&web_request))
            .await
            .and_then(|r| r.dyn_into::<web_sys::Response>())
            .map_err(|e| if controller.signal().aborted() { String::new() } else { message_of(&e) }),
        None => Err("There is no window to send from.".to_owned()),
    };
    let response = match answer {
        Ok(response) => response,
        Err(_) if timed_out.get() => {
            return Outcome::Failure(format!(
                "No answer within {} seconds, so the request was stopped.",
                TIMEOUT_MS / 1000
            ));
        }
        Err(_) if controller.signal().aborted() => return Outcome::Failure("Cancelled.".to_owned()),
        Err(_) => {
            let target = origin_of(&request.url);
            return Outcome::Failure(explain_failure(&target, &page_origin(), reachable(&target).await));
        }
    };
    let status = response.status();
    let mut header_list = Vec::new();
    if let Ok(Some(entries)) = js_sys::try_iter(&response.headers()) {
        for entry in entries.flatten() {
            let pair: js_sys::Array = entry.unchecked_into();
            header_list.push((
                pair.get(0).as_string().unwrap_or_default(),
                pair.get(1).as_string().unwrap_or_default(),
            ));
        }
    }
    let body = match response.text() {
        Ok(promise) => JsFuture::from(promise).await.ok().and_then(|t| t.as_string()).unwrap_or_default(),
        Err(_) => String::new(),
    };
    let error = serde_json::from_str(&body).ok().and_then(|v| error_summary(status, &v));
    let text = response.status_text();
    Outcome::Answer {
        status,
        status_text: if text.is_empty() { reason_phrase(status).to_owned() } else { text },
        headers: header_list,
        body: pretty_body(&body),
        error,
    }
}

/// The try-it panel of `view`; `form` is shared with the code samples.
#[component]
pub fn TryIt(view: OperationView, form: TryItForm, mock_available: bool) -> impl IntoView {
    let view = StoredValue::new(view);
    let anchor = view.with_value(|v| {
        v.operation_id.clone().unwrap_or_else(|| format!("{}-{}", v.method.as_str(), v.path))
    });
    let slug = StoredValue::new(anchor.replace(|c: char| !c.is_ascii_alphanumeric(), "-"));
    let id = move |suffix: &str| slug.with_value(|slug| format!("try-{slug}-{suffix}"));
    let history = RwSignal::new(HISTORY.with_borrow(|h| h.get(&anchor).cloned().unwrap_or_default()));
    let history_key = StoredValue::new(anchor);
    let shown = RwSignal::new(history.get_untracked().first().map(|e: &Exchange| e.id));
    let attempted = RwSignal::new(false);
    let pending: RwSignal<Option<web_sys::AbortController>, LocalStorage> = RwSignal::new_local(None);
    let errors = Memo::new(move |_| view.with_value(|v| form.request(v).1));
    let mock = MockState::from_context();
    let error_for = move |field: String| {
        Signal::derive(move || {
            if !attempted.get() {
                return None;
            }
            errors.with(|list| list.iter().find(|e| e.field == field).map(|e| e.message.clone()))
        })
    };

    let send = move || {
        if pending.with_untracked(Option::is_some) {
            return;
        }
        attempted.set(true);
        let (request, problems) = view.with_value(|v| form.request(v));
        if let Some(first) = problems.first() {
            // Focus the first field to fix.
            let field_id = match first.field.as_str() {
                "base" => id("base"),
                "body" => id("body"),
                "headers" => id("headers"),
                other => id(&format!("param-{}", other.replace(':', "-"))),
            };
            if let Some(el) = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.get_element_by_id(&field_id))
                .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
            {
                let _ = el.focus();
            }
            return;
        }
        let target = form.target.get_untracked();
        let to_mock = target == Target::Mock;
        let target_label = match &target {
            Target::Mock => "In-browser mock".to_owned(),
            _ => origin_of(&request.url),
        };
        let body_text = view
            .with_value(|v| v.request_body.is_some())
            .then(|| form.body.get_untracked())
            .filter(|b| !b.trim().is_empty());
        let Ok(controller) = web_sys::AbortController::new() else { return };
        pending.set(Some(controller.clone()));
        let timed_out = Rc::new(Cell::new(false));
        let timer = {
            let (controller, timed_out) = (controller.clone(), timed_out.clone());
            let stop = Closure::once_into_js(move || {
                timed_out.set(true);
                controller.abort();
            });
            web_sys::window().and_then(|w| {
                w.set_timeout_with_callback_and_timeout_and_arguments_0(stop.unchecked_ref(), TIMEOUT_MS).ok()
            })
        };
        let history_key = history_key.get_value();
        leptos::task::spawn_local(async move {
            let started = now_ms();
            let outcome = match (to_mock, mock) {
                (true, Some(mock)) => ask_mock(mock, &request, body_text),
                (true, None) => {
                    Outcome::Failure("The in-browser mock is not available on this page.".to_owned())
                }
                (false, _) => exchange(&request, body_text, &controller, &timed_out).await,
            };
            let millis = now_ms() - started;
            if let (Some(window), Some(timer)) = (web_sys::window(), timer) {
                window.clear_timeout_with_handle(timer);
            }
            let entry = Exchange {
                id: NEXT_ID.with(|n| n.replace(n.get() + 1)),
                at: clock(),
                method: request.method.clone(),
                url: request.url.clone(),
                target: target_label,
                millis,
                outcome,
            };
            let entry_id = entry.id;
            let list = HISTORY.with_borrow_mut(|h| {
                let list = h.entry(history_key).or_default();
                list.insert(0, entry);
                list.truncate(HISTORY_LEN);
                list.clone()
            });
            history.try_set(list);
            shown.try_set(Some(entry_id));
            pending.try_set(None);
        });
    };
    let cancel = move |_| {
        if let Some(controller) = pending.get_untracked() {
            controller.abort();
        }
    };
    let on_keydown = move |ev: leptos::ev::KeyboardEvent| {
        if ev.key() == "Enter" && (ev.ctrl_key() || ev.meta_key()) {
            ev.prevent_default();
            send();
        }
    };

    let servers = view.with_value(|v| v.servers.clone());
    let target_select = {
        let select_id = id("target");
        let options = servers
            .iter()
            .map(|url| {
                let key = Target::Server(url.clone()).key();
                view! { <option value=key.clone() selected=move || form.target.get().key() == key>{url.clone()}</option> }
            })
            .collect_view();
        view! {
            <div class="field">
                <label for=select_id.clone()>"Send to"</label>
                <select
                    id=select_id
                    data-testid="try-target"
                    on:change=move |ev| {
                        let key = event_target_value(&ev);
                        if let Some(target) = Target::from_key(&key) {
                            remember(TARGET_KEY, Some(&key));
                            form.target.set(target);
                        }
                    }
                >
                    {mock_available.then(|| view! {
                        <option value="mock" selected=move || form.target.get() == Target::Mock>"In-browser mock"</option>
                    })}
                    {options}
                    <option value="custom" selected=move || form.target.get() == Target::Custom>"Another base URL…"</option>
                </select>
            </div>
        }
    };
    let base_error = error_for("base".to_owned());
    let base_field = {
        let input_id = id("base");
        let error_id = id("base-error");
        view! {
            <Show when=move || form.target.get() == Target::Custom>
                <div class="field">
                    <label for=input_id.clone()>"Base URL"</label>
                    <input
                        id=input_id.clone()
                        type="url"
                        inputmode="url"
                        spellcheck="false"
                        placeholder="http://127.0.0.1:4010"
                        data-testid="try-base-url"
                        aria-invalid=move || base_error.get().is_some().to_string()
                        aria-describedby=error_id.clone()
                        prop:value=move || form.custom_base.get()
                        on:input=move |ev| {
                            let text = event_target_value(&ev);
                            if let Ok(url) = check_base_url(&text) {
                                remember(BASE_URL_KEY, Some(&url));
                            }
                            form.custom_base.set(text);
                        }
                    />
                    <p class="field-error" id=error_id.clone() data-testid="try-base-url-error">{move || base_error.get()}</p>
                </div>
            </Show>
        }
    };

    let param_fields = view.with_value(|v| {
        v.parameters
            .iter()
            .filter(|p| matches!(p.location.as_str(), "path" | "query" | "header"))
            .map(|p| {
                let key = field_key(&p.location, &p.name);
                let input_id = id(&format!("param-{}", key.replace(':', "-")));
                let error_id = format!("{input_id}-error");
                let error = error_for(key.clone());
                let (location, name) = (p.location.clone(), p.name.clone());
                let value = {
                    let (location, name) = (location.clone(), name.clone());
                    move || {
                        form.params.with(|ps| {
                            ps.iter().find(|i| i.location == location && i.name == name).map(|i| i.text.clone())
                        })
                    }
                };
                let set = move |text: String| {
                    form.params.update(|ps| {
                        if let Some(i) = ps.iter_mut().find(|i| i.location == location && i.name == name) {
                            i.text = text;
                        }
                    });
                };
                let enumeration: Vec<String> = p
                    .schema_json
                    .get("enum")
                    .and_then(|e| e.as_array())
                    .map(|values| values.iter().filter_map(|v| v.as_str().map(str::to_owned).or_else(|| (!v.is_null()).then(|| v.to_string()))).collect())
                    .or_else(|| (p.schema_json.get("type").and_then(|t| t.as_str()) == Some("boolean")).then(|| vec!["true".to_owned(), "false".to_owned()]))
                    .unwrap_or_default();
                let control = if enumeration.is_empty() {
                    let numeric = matches!(p.schema_json.get("type").and_then(|t| t.as_str()), Some("integer" | "number"));
                    let placeholder = example_text(p);
                    view! {
                        <input
                            id=input_id.clone()
                            type="text"
                            inputmode=if numeric { "numeric" } else { "text" }
                            spellcheck="false"
                            placeholder=placeholder
                            data-testid="try-param"
                            data-name=p.name.clone()
                            aria-required=p.required.to_string()
                            aria-invalid=move || error.get().is_some().to_string()
                            aria-describedby=error_id.clone()
                            prop:value=move || value().unwrap_or_default()
                            on:input=move |ev| set(event_target_value(&ev))
                        />
                    }
                    .into_any()
                } else {
                    let current = value.clone();
                    view! {
                        <select
                            id=input_id.clone()
                            data-testid="try-param"
                            data-name=p.name.clone()
                            aria-required=p.required.to_string()
                            aria-invalid=move || error.get().is_some().to_string()
                            aria-describedby=error_id.clone()
                            on:change=move |ev| set(event_target_value(&ev))
                        >
                            <option value="" selected=move || current().unwrap_or_default().is_empty()>
                                {if p.required { "Choose…" } else { "(not sent)" }}
                            </option>
                            {enumeration
                                .into_iter()
                                .map(|option| {
                                    let value = value.clone();
                                    let option_value = option.clone();
                                    let label = option.clone();
                                    view! {
                                        <option value=option selected=move || value().as_deref() == Some(option_value.as_str())>
                                            {label}
                                        </option>
                                    }
                                })
                                .collect_view()}
                        </select>
                    }
                    .into_any()
                };
                view! {
                    <div class="field">
                        <label for=input_id.clone()>
                            <code>{p.name.clone()}</code>
                            <span class="param-in">{format!(" in {}", p.location)}</span>
                            {p.required.then(|| view! { <span class="required">" required"</span> })}
                        </label>
                        {control}
                        <p class="field-error" id=error_id.clone()>{move || error.get()}</p>
                    </div>
                }
            })
            .collect_view()
    });

    let body_field = view.with_value(|v| v.request_body.clone()).map(|b| {
        let input_id = id("body");
        let error_id = id("body-error");
        let error = error_for("body".to_owned());
        let example = serde_json::to_string_pretty(&b.example).unwrap_or_default();
        view! {
            <div class="field">
                <div class="field-head">
                    <label for=input_id.clone()>"Body " <span class="media-type">{b.media_type.clone()}</span></label>
                    <button type="button" class="button button-quiet" data-testid="try-body-reset" on:click=move |_| form.body.set(example.clone())>
                        "Example"
                    </button>
                </div>
                <textarea
                    id=input_id.clone()
                    class="code-input"
                    rows="8"
                    spellcheck="false"
                    data-testid="try-body"
                    aria-invalid=move || error.get().is_some().to_string()
                    aria-describedby=error_id.clone()
                    prop:value=move || form.body.get()
                    on:input=move |ev| form.body.set(event_target_value(&ev))
                />
                <p class="field-error" id=error_id.clone() data-testid="try-body-error">{move || error.get()}</p>
            </div>
        }
    });

    let headers_field = {
        let input_id = id("headers");
        let error_id = id("headers-error");
        let remember_id = id("remember-headers");
        let error = error_for("headers".to_owned());
        let save = move || {
            let text = form.headers.get_untracked();
            remember(
                HEADERS_KEY,
                (form.remember_headers.get_untracked() && !text.trim().is_empty()).then_some(text.as_str()),
            );
        };
        let has_headers = !form.headers.get_untracked().trim().is_empty();
        view! {
            <details class="field extra-headers" open=has_headers>
                <summary>"Extra headers"</summary>
                <label for=input_id.clone()>"One per line, as Name: value"</label>
                <textarea
                    id=input_id.clone()
                    class="code-input"
                    rows="2"
                    spellcheck="false"
                    placeholder="Authorization: Bearer …"
                    data-testid="try-headers"
                    aria-invalid=move || error.get().is_some().to_string()
                    aria-describedby=error_id.clone()
                    prop:value=move || form.headers.get()
                    on:input=move |ev| {
                        form.headers.set(event_target_value(&ev));
                        save();
                    }
                />
                <p class="field-error" id=error_id.clone()>{move || error.get()}</p>
                <label class="check" for=remember_id.clone()>
                    <input
                        id=remember_id.clone()
                        type="checkbox"
                        data-testid="try-remember-headers"
                        prop:checked=move || form.remember_headers.get()
                        on:change=move |ev| {
                            form.remember_headers.set(event_target_checked(&ev));
                            save();
                        }
                    />
                    " Remember these headers in this browser"
                </label>
            </details>
        }
    };

    let result = move || {
        let id = shown.get()?;
        let entry = history.with(|h| h.iter().find(|e| e.id == id).cloned())?;
        Some(view! { <ExchangeView entry=entry /> })
    };
    let history_list = move || {
        let list = history.get();
        (list.len() > 1).then(|| {
            view! {
                <div class="try-history" data-testid="try-history">
                    <h4>"Recent"</h4>
                    <ul>
                        {list
                            .into_iter()
                            .map(|e| {
                                let entry_id = e.id;
                                let status = match &e.outcome {
                                    Outcome::Answer { status, .. } => status.to_string(),
                                    Outcome::Failure(_) => "failed".to_owned(),
                                };
                                view! {
                                    <li>
                                        <button
                                            type="button"
                                            class="history-entry"
                                            aria-pressed=move || (shown.get() == Some(entry_id)).to_string()
                                            on:click=move |_| shown.set(Some(entry_id))
                                        >
                                            <span class="history-time">{e.at.clone()}</span>
                                            " "
                                            <span class="history-status">{status}</span>
                                            " "
                                            <span class="history-url">{format!("{} {}", e.method, e.url)}</span>
                                        </button>
                                    </li>
                                }
                            })
                            .collect_view()}
                    </ul>
                </div>
            }
        })
    };

    view! {
        <section class="try-it" data-testid="try-it" aria-labelledby=id("title") on:keydown=on_keydown>
            <h3 id=id("title")>"Try it"</h3>
            {(!mock_available).then(|| view! {
                <p class="hint" data-testid="try-mock-unavailable">
                    "The in-browser mock answers only the Petstore document's operations; send this request to a server."
                </p>
            })}
            <form class="try-form" on:submit=move |ev| { ev.prevent_default(); send(); }>
                {target_select}
                {base_field}
                {param_fields}
                {body_field}
                {headers_field}
                <div class="try-actions">
                    <button type="submit" class="button button-primary" data-testid="try-send" disabled=move || pending.with(Option::is_some)>
                        {move || if pending.with(Option::is_some) { "Sending…" } else { "Send" }}
                    </button>
                    <Show when=move || pending.with(Option::is_some)>
                        <button type="button" class="button" data-testid="try-cancel" on:click=cancel>"Cancel"</button>
                    </Show>
                    <span class="hint keys">"Ctrl/⌘ + Enter"</span>
                </div>
            </form>
            <div class="try-result" aria-live="polite" data-testid="try-result">{result}</div>
            {history_list}
        </section>
    }
}

#[component]
fn ExchangeView(entry: Exchange) -> impl IntoView {
    // Whole tenths of a millisecond, formatted as integers (no float formatting in the app).
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // a short duration
    let tenths = (entry.millis * 10.0).round().max(0.0) as u64;
    let millis = if tenths < 100 {
        format!("{}.{} ms", tenths / 10, tenths % 10)
    } else {
        format!("{} ms", (tenths + 5) / 10)
    };
    let meta = format!("{} {} · {} · {millis} · {}", entry.method, entry.url, entry.target, entry.at);
    // Which exchange is shown: the view is patched in place when another answer replaces it.
    let exchange = entry.id.to_string();
    match entry.outcome {
        Outcome::Failure(message) => view! {
            <div class="try-failure" role="alert" data-testid="try-failure" data-exchange=exchange>
                <p class="try-meta">{meta}</p>
                <p>{message}</p>
            </div>
        }
        .into_any(),
        Outcome::Answer { status, status_text, headers, body, error } => {
            let class = if status >= 400 { "status status-error" } else { "status status-ok" };
            view! {
                <div class="try-answer" data-testid="try-answer" data-status=status.to_string() data-exchange=exchange>
                    <p class="try-status">
                        <span class=class data-testid="try-status">{format!("{status} {status_text}")}</span>
                        <span class="try-meta">{meta}</span>
                    </p>
                    {error.map(|e| view! {
                        <p class="try-error" data-testid="try-error">
                            <strong>{e.code.map_or_else(|| "Error".to_owned(), |c| format!("Error {c}"))}</strong>
                            ": "
                            {e.message}
                        </p>
                    })}
                    <details class="try-headers">
                        <summary>{format!("Headers ({})", headers.len())}</summary>
                        <ul class="header-list" data-testid="try-response-headers">
                            {headers.into_iter().map(|(n, v)| view! { <li><code>{n}</code>": "{v}</li> }).collect_view()}
                        </ul>
                    </details>
                    {(!body.is_empty()).then(|| view! {
                        <pre class="example" data-testid="try-body-view"><code>{body}</code></pre>
                    })}
                </div>
            }
            .into_any()
        }
    }
}
