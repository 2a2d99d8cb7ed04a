//! What the try-it form holds: where to send (remembered in this browser), the base URL and its
//! check, the parameters', body's and headers' text, and the problems that keep the request
//! from being sent. Shared with the code samples, which show the same request.

use leptos::prelude::*;
use petstore_http::Request;
use petstore_reference::OperationView;
use petstore_tryit_core::request::{ParamInput, is_sendable};
use petstore_tryit_core::{FieldError, build_request, initial_text};
use wasm_bindgen::prelude::*;

use std::collections::BTreeMap;

use petstore_http::form::FormKind;
#[cfg(feature = "extras")]
use petstore_http::form::{
    DEFAULT_FILE_TYPE, FormField, FormFieldSpec, SpecKind, boundary_for, encode_multipart, encode_urlencoded,
    fields_from_schema, multipart_content_type,
};
#[cfg(feature = "extras")]
use petstore_tryit_core::samples::{SampleForm, SampleValue};
#[cfg(feature = "extras")]
use wasm_bindgen_futures::JsFuture;

use crate::MockOffer;
use crate::transport::absolute;
use crate::vault::Vault;

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

impl Target {
    /// Where a new panel sends: the `remembered` target when this panel offers it, else the
    /// mock when it is offered first, else the first of `servers`, else the mock when it is
    /// offered at all, else the reader's base URL.
    #[must_use]
    pub fn initial(remembered: Option<&str>, servers: &[String], offer: MockOffer) -> Self {
        remembered
            .and_then(Self::from_key)
            .filter(|t| match t {
                Self::Mock => offer != MockOffer::None,
                Self::Server(url) => servers.contains(url),
                Self::Custom => true,
            })
            .unwrap_or_else(|| match servers.first() {
                _ if offer == MockOffer::First => Self::Mock,
                Some(url) => Self::Server(url.clone()),
                None if offer == MockOffer::Offered => Self::Mock,
                None => Self::Custom,
            })
    }
}

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
        if petstore_http::form::is_json(&essence) {
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

    /// The fields of a form body of the chosen media type.
    #[must_use]
    #[cfg(feature = "extras")]
    pub fn form_fields(&self) -> Vec<FormFieldSpec> {
        let media = self.media.get();
        self.view.with_value(|v| {
            v.request_body
                .as_ref()
                .and_then(|b| b.media_types.iter().find(|m| m.media_type == media))
                .map(|m| fields_from_schema(&m.schema))
                .unwrap_or_default()
        })
    }

    /// The text of the form field `spec` (its example until the reader types).
    #[must_use]
    #[cfg(feature = "extras")]
    pub fn field_text(&self, spec: &FormFieldSpec) -> String {
        self.form_text
            .with(|t| t.get(&spec.name).cloned())
            .unwrap_or_else(|| spec.example.clone().unwrap_or_default())
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

    /// A body that is not JSON, written into `request` (its problems into `errors`).
    #[cfg(feature = "extras")]
    fn body_beyond_json(
        &self,
        kind: BodyKind,
        body: String,
        request: &mut Request,
        errors: &mut Vec<FieldError>,
    ) {
        let Some((required, media)) = self
            .view
            .with_value(|v| v.request_body.as_ref().map(|b| b.required))
            .map(|r| (r, self.media.get()))
        else {
            return;
        };
        if kind == BodyKind::Json {
            return;
        }
        // Not JSON: the core's check of the JSON text does not apply; the body is the kind's.
        errors.retain(|e| e.field != "body");
        let missing = |what: &str| FieldError {
            field: "body".to_owned(),
            message: format!("This operation needs {what}."),
        };
        let content_type = match kind {
            // JSON returned above.
            BodyKind::Json | BodyKind::Text => {
                if required && body.is_empty() {
                    errors.push(missing("a request body"));
                }
                request.body = body.into_bytes();
                media
            }
            BodyKind::File => {
                if required && self.files.with(|f| f.get("").is_none_or(Vec::is_empty)) {
                    errors.push(missing("a file to send"));
                }
                media
            }
            BodyKind::Form(form_kind) => {
                let fields = self.form_fields();
                for spec in &fields {
                    let given = match spec.kind {
                        SpecKind::Text => !self.field_text(spec).is_empty(),
                        SpecKind::File | SpecKind::Files => {
                            self.files.with(|f| f.get(&spec.name).is_some_and(|l| !l.is_empty()))
                        }
                    };
                    if spec.required && !given {
                        errors.push(FieldError {
                            field: format!("form:{}", spec.name),
                            message: format!("{} is required.", spec.name),
                        });
                    }
                }
                if form_kind == FormKind::UrlEncoded {
                    request.body = encode_urlencoded(&self.text_fields(&fields));
                }
                // A multipart body is written when it is sent, with its files read.
                form_kind.media_type().to_owned()
            }
        };
        request.headers.retain(|(n, _)| !n.eq_ignore_ascii_case("content-type"));
        request.headers.insert(0, ("Content-Type".to_owned(), content_type));
    }

    /// The form's text fields (a file field as its files' names, for a URL-encoded body).
    #[cfg(feature = "extras")]
    fn text_fields(&self, fields: &[FormFieldSpec]) -> Vec<FormField> {
        let mut out = Vec::new();
        for spec in fields {
            match spec.kind {
                SpecKind::Text => {
                    let text = self.field_text(spec);
                    if !text.is_empty() {
                        out.push(FormField::text(&spec.name, text));
                    }
                }
                SpecKind::File | SpecKind::Files => self.files.with(|f| {
                    for file in f.get(&spec.name).into_iter().flatten() {
                        out.push(FormField::text(&spec.name, file.name()));
                    }
                }),
            }
        }
        out
    }

    /// `request` with the chosen files read into its body (a multipart form, or a body that
    /// is a file); as it is for other bodies.
    ///
    /// # Errors
    /// A file could not be read, or the files are too large.
    #[cfg(feature = "extras")]
    pub async fn with_files(&self, mut request: Request) -> Result<Request, String> {
        let kind = self.body_kind();
        let files = self.files.get_untracked();
        let total: f64 = files.values().flatten().map(|f| f.size()).sum();
        if total > MAX_FILES {
            return Err(format!(
                "The files are {} MB in all; at most {} MB are sent.",
                (total / 1_048_576.0).round(),
                MAX_FILES / 1_048_576.0
            ));
        }
        match kind {
            BodyKind::File => {
                if let Some(file) = files.get("").and_then(|l| l.first()) {
                    request.body = read_file(file).await?;
                    // A range such as `image/*` takes the file's own type.
                    if self.media.get_untracked().contains('*') && !file.type_().is_empty() {
                        request.headers.retain(|(n, _)| !n.eq_ignore_ascii_case("content-type"));
                        request.headers.insert(0, ("Content-Type".to_owned(), file.type_()));
                    }
                }
            }
            BodyKind::Form(FormKind::Multipart) => {
                let specs = self.form_fields_untracked();
                let mut fields = Vec::new();
                for spec in &specs {
                    match spec.kind {
                        SpecKind::Text => {
                            let text = self
                                .form_text
                                .with_untracked(|t| t.get(&spec.name).cloned())
                                .unwrap_or_else(|| spec.example.clone().unwrap_or_default());
                            if !text.is_empty() {
                                fields.push(FormField::text(&spec.name, text));
                            }
                        }
                        SpecKind::File | SpecKind::Files => {
                            for file in files.get(&spec.name).into_iter().flatten() {
                                let content_type = if file.type_().is_empty() {
                                    DEFAULT_FILE_TYPE.to_owned()
                                } else {
                                    file.type_()
                                };
                                fields.push(FormField::file(
                                    &spec.name,
                                    file.name(),
                                    content_type,
                                    read_file(file).await?,
                                ));
                            }
                        }
                    }
                }
                let boundary = boundary_for(&fields);
                request.body = encode_multipart(&fields, &boundary);
                request.headers.retain(|(n, _)| !n.eq_ignore_ascii_case("content-type"));
                request.headers.insert(0, ("Content-Type".to_owned(), multipart_content_type(&boundary)));
            }
            _ => {}
        }
        Ok(request)
    }

    #[cfg(feature = "extras")]
    fn form_fields_untracked(&self) -> Vec<FormFieldSpec> {
        untrack(|| self.form_fields())
    }

    /// A form body as the code samples write it: the fields, files by name.
    #[must_use]
    #[cfg(feature = "extras")]
    pub fn sample_form(&self) -> Option<SampleForm> {
        let BodyKind::Form(kind) = self.body_kind() else { return None };
        let mut fields = Vec::new();
        for spec in self.form_fields() {
            match spec.kind {
                SpecKind::Text => fields.push((spec.name.clone(), SampleValue::Text(self.field_text(&spec)))),
                SpecKind::File | SpecKind::Files => {
                    let chosen = self.files.with(|f| f.get(&spec.name).cloned().unwrap_or_default());
                    if chosen.is_empty() {
                        fields.push((
                            spec.name.clone(),
                            SampleValue::File {
                                file_name: format!("{}.bin", spec.name),
                                content_type: DEFAULT_FILE_TYPE.to_owned(),
                            },
                        ));
                    }
                    for file in chosen {
                        let content_type =
                            if file.type_().is_empty() { DEFAULT_FILE_TYPE.to_owned() } else { file.type_() };
                        fields.push((
                            spec.name.clone(),
                            SampleValue::File { file_name: file.name(), content_type },
                        ));
                    }
                }
            }
        }
        Some(SampleForm { kind, fields })
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

/// The bytes of `file`.
#[cfg(feature = "extras")]
async fn read_file(file: &web_sys::File) -> Result<Vec<u8>, String> {
    let buffer = JsFuture::from(file.array_buffer())
        .await
        .map_err(|e| format!("The file {} could not be read: {}.", file.name(), crate::message_of(&e)))?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use petstore_openapi::catalog::Method;
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
