//! What the try-it form holds: where to send (remembered in this browser), the base URL and its
//! check, the parameters', body's and headers' text, and the problems that keep the request
//! from being sent. Shared with the code samples, which show the same request.

use leptos::prelude::*;
use petstore_core::Request;
use petstore_core::reference::OperationView;
use petstore_core::request::{ParamInput, is_sendable};
use petstore_core::tryit::{FieldError, build_request, initial_text};
use wasm_bindgen::prelude::*;

use crate::authorize::Vault;
use crate::transport::absolute;

pub(super) const TARGET_KEY: &str = "petstore-playground/try-it/target";
pub(super) const BASE_URL_KEY: &str = "petstore-playground/try-it/base-url";
pub(super) const HEADERS_KEY: &str = "petstore-playground/try-it/headers";

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
    /// The value of this choice in the target list and in storage.
    #[must_use]
    pub fn key(&self) -> String {
        match self {
            Self::Mock => "mock".to_owned(),
            Self::Server(url) => format!("server:{url}"),
            Self::Custom => "custom".to_owned(),
        }
    }

    /// The choice a [`Target::key`] names.
    #[must_use]
    pub fn from_key(key: &str) -> Option<Self> {
        match key {
            "mock" => Some(Self::Mock),
            "custom" => Some(Self::Custom),
            _ => key.strip_prefix("server:").map(|url| Self::Server(url.to_owned())),
        }
    }
}

fn remembered(key: &str) -> Option<String> {
    petstore_browser::get(key).ok().flatten()
}

/// Keeps `value` under `key` in this browser (`None` forgets it). Remembering is a convenience:
/// where storage is blocked or full the form still works, so a failure is not shown.
pub(super) fn remember(key: &str, value: Option<&str>) {
    let _ = match value {
        Some(value) => petstore_browser::set(key, value),
        None => petstore_browser::remove(key),
    };
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
    absolute(url).map_or_else(|| url.to_owned(), |u| u.href()).trim_end_matches('/').to_owned()
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
    /// The operation the form sends.
    pub view: StoredValue<std::sync::Arc<OperationView>>,
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
    /// Whether the reader has tried to send: only then are problems shown.
    pub attempted: RwSignal<bool>,
    /// What keeps the request from being sent, as the form stands.
    pub errors: Signal<Vec<FieldError>>,
    /// The document's credentials.
    pub vault: Vault,
}

impl TryItForm {
    /// The form of `view`, prefilled with examples and the remembered target and base URL.
    #[must_use]
    pub fn new(view: &std::sync::Arc<OperationView>, mock_available: bool, vault: Vault) -> Self {
        let servers = &view.servers;
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
        let params = view
            .parameters
            .iter()
            .filter(|p| is_sendable(p))
            .map(|p| ParamInput { location: p.location.clone(), name: p.name.clone(), text: initial_text(p) })
            .collect();
        let body = view
            .request_body
            .as_ref()
            .map(|b| serde_json::to_string_pretty(&b.example).unwrap_or_default())
            .unwrap_or_default();
        let view = StoredValue::new(std::sync::Arc::clone(view));
        let (target, custom_base, params, body) = (
            RwSignal::new(target),
            RwSignal::new(remembered(BASE_URL_KEY).unwrap_or_default()),
            RwSignal::new(params),
            RwSignal::new(body),
        );
        let headers = RwSignal::new(saved_headers.clone().unwrap_or_default());
        let mut form = Self {
            view,
            target,
            custom_base,
            params,
            body,
            headers,
            remember_headers: RwSignal::new(saved_headers.is_some()),
            attempted: RwSignal::new(false),
            // Replaced below: the check reads the form itself.
            errors: Signal::stored(Vec::new()),
            vault,
        };
        form.errors = Memo::new(move |_| form.request().1).into();
        form
    }

    /// The problem with `field` (a [`FieldError::field`]) once the reader has tried to send.
    #[must_use]
    pub fn error(&self, field: &str) -> Signal<Option<String>> {
        let (attempted, errors, field) = (self.attempted, self.errors, field.to_owned());
        Signal::derive(move || {
            if !attempted.get() {
                return None;
            }
            errors.with(|list| list.iter().find(|e| e.field == field).map(|e| e.message.clone()))
        })
    }

    /// The server `template` with the reader's values for its variables (else the defaults).
    #[must_use]
    pub fn expanded(&self, template: &str) -> String {
        self.view.with_value(|v| self.vault.server_url(template, &v.server_details))
    }

    /// The base URL requests go to (empty for the mock), or why there is none.
    fn base(&self) -> Result<String, String> {
        match self.target.get() {
            Target::Mock => Ok(String::new()),
            Target::Server(url) => Ok(server_base(&self.expanded(&url))),
            Target::Custom => check_base_url(&self.custom_base.get()),
        }
    }

    fn build(&self, base: &str) -> (Request, Vec<FieldError>) {
        let body = self.body.get();
        let headers = self.headers.get();
        self.view.with_value(|view| {
            self.params.with(|params| {
                build_request(
                    view,
                    base,
                    params,
                    view.request_body.is_some().then_some(body.as_str()),
                    &headers,
                    &matches_pattern,
                )
            })
        })
    }

    /// The request as the form stands, and what keeps it from being sent.
    #[must_use]
    pub fn request(&self) -> (Request, Vec<FieldError>) {
        let base = self.base();
        let (request, mut errors) = self.build(base.as_deref().unwrap_or_default());
        if let Err(message) = base {
            errors.insert(0, FieldError { field: "base".to_owned(), message });
        }
        (request, errors)
    }

    /// The request the code samples show: the form's, against the target's base URL (for the
    /// mock, the document's local server, which `petstore-mock serve` provides).
    #[must_use]
    pub fn sample(&self) -> Request {
        let base = self.server_base();
        let (mut request, _) = self.build(base.trim_end_matches('/'));
        // An unfinished body still shows the example rather than no body.
        if request.body.is_empty()
            && let Some(b) = self.view.with_value(|v| v.request_body.clone())
        {
            request.body = b.example.to_string().into_bytes();
            if !request.headers.iter().any(|(n, _)| n == "Content-Type") {
                request.headers.insert(0, ("Content-Type".to_owned(), b.media_type.clone()));
            }
        }
        self.view.with_value(|view| self.vault.apply(view, &mut request, true));
        request
    }

    /// The server the target stands for (for the mock, the document's local server, which
    /// `petstore-mock serve` provides): the samples' base, and the base of the document's
    /// relative OAuth 2 and discovery URLs.
    #[must_use]
    pub fn server_base(&self) -> String {
        match self.target.get() {
            Target::Mock => self.view.with_value(|v| {
                v.servers
                    .iter()
                    .find(|s| s.contains("://127.0.0.1") || s.contains("://localhost"))
                    .or_else(|| v.servers.first())
                    .cloned()
                    .unwrap_or_default()
            }),
            Target::Server(url) => self.expanded(&url),
            Target::Custom => check_base_url(&self.custom_base.get()).unwrap_or_default(),
        }
    }
}
