//! What the try-it form holds: where to send (remembered in this browser), the base URL and its
//! check, the parameters', body's and headers' text, and the problems that keep the request
//! from being sent. Shared with the code samples, which show the same request.

use leptos::prelude::*;
use playground_http::Request;
use playground_reference::OperationView;
use playground_tryit_core::request::{ParamInput, is_sendable};
use playground_tryit_core::{FieldError, build_request, initial_text};
use wasm_bindgen::prelude::*;

use std::collections::BTreeMap;

use playground_http::form::FormKind;

use crate::MockOffer;
use crate::vault::Vault;

use super::target::{BASE_URL_KEY, HEADERS_KEY, TARGET_KEY, Target, check_base_url, remembered, server_base};

/// The parameters the form sends, each with its first text (the example of a path parameter
/// or a required one; nothing for the others).
#[must_use]
pub fn initial_params(view: &OperationView) -> Vec<ParamInput> {
    view.parameters
        .iter()
        .filter(|p| is_sendable(p))
        .map(|p| ParamInput { location: p.location.clone(), name: p.name.clone(), text: initial_text(p) })
        .collect()
}

/// The body's first text: its example as pretty JSON (empty without a body).
#[must_use]
pub fn initial_body(view: &OperationView) -> String {
    view.request_body
        .as_ref()
        .map(|b| serde_json::to_string_pretty(&b.example).unwrap_or_default())
        .unwrap_or_default()
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
    /// The media type the body is sent as (one of the operation's).
    pub media: RwSignal<String>,
    /// The texts of a form body's fields, by name.
    pub form_text: RwSignal<BTreeMap<String, String>>,
    /// The files chosen, by form field name (`""` for a body that is a file).
    pub files: RwSignal<BTreeMap<String, Vec<web_sys::File>>, LocalStorage>,
}

/// How a body is written, by its media type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyKind {
    /// JSON, typed in a text area.
    Json,
    /// A form: a field per property of the schema (`multipart/form-data` with files, or
    /// `application/x-www-form-urlencoded`).
    Form(FormKind),
    /// Other text (`text/plain`, XML, YAML), typed as it is sent.
    Text,
    /// Anything else, read from a file.
    File,
}

impl BodyKind {
    /// The kind of body `media_type` is.
    #[must_use]
    pub fn of(media_type: &str) -> Self {
        let essence = media_type.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
        if playground_http::form::is_json(&essence) {
            Self::Json
        } else if let Some(kind) = FormKind::of_media_type(&essence) {
            Self::Form(kind)
        } else if essence.starts_with("text/") || essence.ends_with("xml") || essence.ends_with("yaml") {
            Self::Text
        } else {
            Self::File
        }
    }
}

/// Files larger than this in all are not sent.
#[cfg(feature = "extras")]
pub const MAX_FILES: f64 = 50.0 * 1024.0 * 1024.0;

impl TryItForm {
    /// The form of `view`, prefilled with examples and the remembered target and base URL.
    #[must_use]
    pub fn new(view: &std::sync::Arc<OperationView>, offer: MockOffer, vault: Vault) -> Self {
        let target = Target::initial(remembered(TARGET_KEY).as_deref(), &view.servers, offer);
        let saved_headers = remembered(HEADERS_KEY);
        let (params, body) = (initial_params(view), initial_body(view));
        let view = StoredValue::new(std::sync::Arc::clone(view));
        let (target, custom_base, params, body) = (
            RwSignal::new(target),
            RwSignal::new(remembered(BASE_URL_KEY).unwrap_or_default()),
            RwSignal::new(params),
            RwSignal::new(body),
        );
        let headers = RwSignal::new(saved_headers.clone().unwrap_or_default());
        let media =
            view.with_value(|v| v.request_body.as_ref().map(|b| b.media_type.clone()).unwrap_or_default());
        let mut form = Self {
            media: RwSignal::new(media),
            form_text: RwSignal::new(BTreeMap::new()),
            files: RwSignal::new_local(BTreeMap::new()),
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

    /// The kind of body chosen.
    #[must_use]
    pub fn body_kind(&self) -> BodyKind {
        BodyKind::of(&self.media.get())
    }

    fn build(&self, base: &str) -> (Request, Vec<FieldError>) {
        let kind = self.body_kind();
        let body = self.body.get();
        let headers = self.headers.get();
        #[cfg_attr(not(feature = "extras"), allow(unused_mut))]
        let (mut request, mut errors) = self.view.with_value(|view| {
            self.params.with(|params| {
                build_request(
                    view,
                    base,
                    params,
                    (view.request_body.is_some() && kind == BodyKind::Json).then_some(body.as_str()),
                    &headers,
                    &matches_pattern,
                )
            })
        });
        #[cfg(feature = "extras")]
        self.body_beyond_json(kind, body, &mut request, &mut errors);
        (request, errors)
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

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use playground_openapi::catalog::Method;
    use serde_json::json;

    use super::*;

    /// `POST /pets/{petId}/visits` with a path, a query and a header parameter and a JSON body.
    fn visits() -> OperationView {
        let doc = json!({
            "openapi": "3.0.3",
            "info": {"title": "Visits", "version": "1"},
            "paths": {"/pets/{petId}/visits": {"post": {
                "operationId": "addVisit",
                "parameters": [
                    {"name": "petId", "in": "path", "required": true, "schema": {"type": "integer"}, "example": 7},
                    {"name": "notify", "in": "query", "schema": {"type": "boolean"}, "example": true},
                    {"name": "X-Clinic", "in": "header", "required": true, "schema": {"type": "string"}, "example": "north"}
                ],
                "requestBody": {"required": true, "content": {"application/json": {
                    "schema": {"type": "object"},
                    "example": {"reason": "checkup", "minutes": 20}
                }}},
                "responses": {"201": {"description": "Filed"}}
            }}}
        });
        OperationView::build(&doc, Method::Post, "/pets/{petId}/visits").expect("the view of the operation")
    }

    #[test]
    fn parameters_start_with_the_examples_of_path_and_required_ones() {
        let inputs = initial_params(&visits());
        let texts: Vec<(&str, &str, &str)> =
            inputs.iter().map(|i| (i.location.as_str(), i.name.as_str(), i.text.as_str())).collect();
        assert_eq!(texts, [("path", "petId", "7"), ("query", "notify", ""), ("header", "X-Clinic", "north")]);
    }

    #[test]
    fn the_body_starts_as_the_pretty_example() {
        let body = initial_body(&visits());
        assert_eq!(body, "{\n  \"reason\": \"checkup\",\n  \"minutes\": 20\n}");
        let mut bodiless = visits();
        bodiless.request_body = None;
        assert_eq!(initial_body(&bodiless), "");
    }

    #[test]
    fn a_target_reads_back_from_its_key() {
        for target in [Target::Mock, Target::Custom, Target::Server("https://api.example/v1".to_owned())] {
            assert_eq!(Target::from_key(&target.key()), Some(target.clone()));
        }
        assert_eq!(Target::Server("http://x".to_owned()).key(), "server:http://x");
        assert_eq!(Target::from_key("elsewhere"), None);
        assert_eq!(Target::from_key(""), None);
    }

    #[test]
    fn a_new_panel_sends_where_it_was_told_or_remembered() {
        let servers = ["https://api.example".to_owned(), "http://127.0.0.1:4010".to_owned()];
        let initial =
            |remembered: Option<&str>, servers: &[String], offer| Target::initial(remembered, servers, offer);
        let server = |url: &str| Target::Server(url.to_owned());
        // Nothing remembered: the mock offered first, else the first server.
        assert_eq!(initial(None, &servers, MockOffer::First), Target::Mock);
        assert_eq!(initial(None, &servers, MockOffer::Offered), server("https://api.example"));
        assert_eq!(initial(None, &servers, MockOffer::None), server("https://api.example"));
        assert_eq!(initial(None, &[], MockOffer::Offered), Target::Mock);
        assert_eq!(initial(None, &[], MockOffer::None), Target::Custom);
        // What was remembered, when this panel offers it.
        assert_eq!(
            initial(Some("server:http://127.0.0.1:4010"), &servers, MockOffer::First),
            server("http://127.0.0.1:4010")
        );
        assert_eq!(initial(Some("custom"), &servers, MockOffer::First), Target::Custom);
        assert_eq!(initial(Some("mock"), &servers, MockOffer::Offered), Target::Mock);
        assert_eq!(initial(Some("mock"), &servers, MockOffer::None), server("https://api.example"));
        assert_eq!(
            initial(Some("server:https://gone.example"), &servers, MockOffer::Offered),
            server("https://api.example")
        );
        assert_eq!(initial(Some("nonsense"), &[], MockOffer::None), Target::Custom);
    }

    #[test]
    fn a_body_is_written_as_its_media_type_says() {
        let cases = [
            ("application/json", BodyKind::Json),
            ("Application/JSON; charset=utf-8", BodyKind::Json),
            ("application/merge-patch+json", BodyKind::Json),
            ("application/x-www-form-urlencoded", BodyKind::Form(FormKind::UrlEncoded)),
            ("multipart/form-data", BodyKind::Form(FormKind::Multipart)),
            ("text/plain", BodyKind::Text),
            ("application/xml", BodyKind::Text),
            ("application/yaml", BodyKind::Text),
            ("application/octet-stream", BodyKind::File),
            ("image/*", BodyKind::File),
            ("", BodyKind::Json),
        ];
        for (media_type, kind) in cases {
            assert_eq!(BodyKind::of(media_type), kind, "{media_type}");
        }
    }
}
