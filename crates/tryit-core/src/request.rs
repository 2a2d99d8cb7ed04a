//! The one place an operation's concrete request is built (path parameters encoded into the
//! template, the query string, parameter headers, the JSON body and its `Content-Type`), for the
//! try-it form and the example request alike.

use serde_json::Value;

use playground_http::Request;
use playground_reference::{OperationView, ParameterView};

/// What goes in for one parameter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParamInput {
    /// `path`, `query` or `header`.
    pub location: String,
    /// The parameter's name.
    pub name: String,
    /// The text as typed; comma-separated values for an array.
    pub text: String,
}

impl ParamInput {
    /// Whether this is the input of the parameter `name` in `location`.
    #[must_use]
    pub fn is_for(&self, location: &str, name: &str) -> bool {
        self.location == location && self.name == name
    }
}

/// The text typed for `param` among `params` (empty when there is none).
#[must_use]
pub fn text_for<'a>(params: &'a [ParamInput], param: &ParameterView) -> &'a str {
    params.iter().find(|i| i.is_for(&param.location, &param.name)).map_or("", |i| i.text.as_str())
}

/// Whether a parameter has a place in a request the page can send (cookies are the browser's).
#[must_use]
pub fn is_sendable(param: &ParameterView) -> bool {
    matches!(param.location.as_str(), "path" | "query" | "header")
}

/// The values of an array parameter, typed as `a, b, c`.
#[must_use]
pub fn split_list(text: &str) -> Vec<String> {
    text.split(',').map(str::trim).filter(|s| !s.is_empty()).map(str::to_owned).collect()
}

/// The request for `view` against `base` (no trailing slash; empty for the path alone, which is
/// all the in-browser mock reads). A parameter with no input or empty text is left out (a path
/// template keeps its `{name}`); an array's values go in one query pair joined by commas, or one
/// pair each when the parameter explodes. `body` is JSON text: sent as it is, with the
/// operation's media type as the first header.
#[must_use]
pub fn for_operation(view: &OperationView, base: &str, params: &[ParamInput], body: Option<&str>) -> Request {
    let mut path = view.path.clone();
    let mut query = form_urlencoded::Serializer::new(String::new());
    let mut headers = Vec::new();
    for param in view.parameters.iter().filter(|p| is_sendable(p)) {
        let text = text_for(params, param);
        if text.is_empty() {
            continue;
        }
        let is_array = param.schema_json.get("type").and_then(Value::as_str) == Some("array");
        match param.location.as_str() {
            "path" => {
                let encoded = percent_encoding::utf8_percent_encode(text, percent_encoding::NON_ALPHANUMERIC);
                path = path.replace(&format!("{{{}}}", param.name), &encoded.to_string());
            }
            "query" if is_array && param.repeated => {
                for value in split_list(text) {
                    query.append_pair(&param.name, &value);
                }
            }
            "query" if is_array => {
                query.append_pair(&param.name, &split_list(text).join(","));
            }
            "query" => {
                query.append_pair(&param.name, text);
            }
            _ => headers.push((param.name.clone(), text.to_owned())),
        }
    }
    let mut request =
        Request::new(view.method.as_str(), with_query(format!("{base}{path}"), &query.finish()));
    request.headers = headers;
    if let (Some(text), Some(spec)) = (body, &view.request_body) {
        request.headers.insert(0, ("Content-Type".to_owned(), spec.media_type.clone()));
        request.body = text.as_bytes().to_vec();
    }
    request
}

/// The request the document's examples describe, against `base`: path parameters filled with
/// their examples (`{name}`, encoded, when there is none), required query and header
/// parameters too, and the example body.
#[must_use]
pub fn example(view: &OperationView, base: &str) -> Request {
    let params: Vec<ParamInput> = view
        .parameters
        .iter()
        .filter(|p| is_sendable(p))
        .map(|p| {
            let text = match p.location.as_str() {
                "path" => Some(example_text(p))
                    .filter(|t| !t.is_empty())
                    .unwrap_or_else(|| format!("{{{}}}", p.name)),
                _ if p.required => example_text(p),
                _ => String::new(),
            };
            ParamInput { location: p.location.clone(), name: p.name.clone(), text }
        })
        .collect();
    let body = view.request_body.as_ref().map(|b| b.example.to_string());
    for_operation(view, base, &params, body.as_deref())
}

/// The parameter's example as the form writes it (`a, b` for an array).
#[must_use]
pub fn example_text(param: &ParameterView) -> String {
    let one = |v: &Value| v.as_str().map_or_else(|| v.to_string(), str::to_owned);
    match &param.example {
        None | Some(Value::Null) => String::new(),
        Some(Value::Array(items)) => items.iter().map(one).collect::<Vec<_>>().join(", "),
        Some(other) => one(other),
    }
}

fn with_query(url: String, query: &str) -> String {
    if query.is_empty() { url } else { format!("{url}?{query}") }
}

/// The fields of the form body `media` of `view` (from its schema, `playground_http::form`), each
/// starting on the value of the body's example where the example is of that media type (the
/// one [`crate::prefill::prefill`] made fit the schema), else on the schema's own example,
/// default or first `enum` value.
#[must_use]
pub fn form_fields(view: &OperationView, media: &str) -> Vec<playground_http::form::FormFieldSpec> {
    let Some(body) = &view.request_body else { return Vec::new() };
    let Some(option) = body.media_types.iter().find(|m| m.media_type == media) else { return Vec::new() };
    let mut fields = playground_http::form::fields_from_schema(&option.schema);
    if body.media_type == media {
        for field in &mut fields {
            match body.example.get(&field.name) {
                Some(Value::String(text)) => field.example = Some(text.clone()),
                Some(Value::Null) | None => {}
                Some(other) => field.example = Some(other.to_string()),
            }
        }
    }
    fields
}

/// The form body the try-it form starts with for `view` (its [`form_fields`] with their
/// values), written into `request` with its `Content-Type`; `Err` names a required file field,
/// which only the reader can fill. A body that is not a form is left as it is.
///
/// # Errors
/// The form needs a file (the message names the field).
pub fn with_form_example(view: &OperationView, request: &mut Request) -> Result<(), String> {
    use playground_http::form::{
        FormField, FormKind, SpecKind, boundary_for, encode_multipart, encode_urlencoded,
    };
    let Some(body) = &view.request_body else { return Ok(()) };
    let Some(kind) = FormKind::of_media_type(&body.media_type) else { return Ok(()) };
    let mut fields = Vec::new();
    for spec in form_fields(view, &body.media_type) {
        match (spec.kind, &spec.example) {
            (SpecKind::Text, Some(text)) if !text.is_empty() => {
                fields
                    .extend(spec.values_of(text).into_iter().map(|value| FormField::text(&spec.name, value)));
            }
            (SpecKind::File | SpecKind::Files, _) if spec.required => {
                return Err(format!("the form needs a file for {}", spec.name));
            }
            _ => {}
        }
    }
    let (bytes, content_type) = match kind {
        FormKind::UrlEncoded => (encode_urlencoded(&fields), kind.media_type().to_owned()),
        FormKind::Multipart => {
            let boundary = boundary_for(&fields);
            (encode_multipart(&fields, &boundary), playground_http::form::multipart_content_type(&boundary))
        }
    };
    request.headers.retain(|(n, _)| !n.eq_ignore_ascii_case("content-type"));
    request.headers.insert(0, ("Content-Type".to_owned(), content_type));
    request.body = bytes;
    Ok(())
}
