//! `call_operation`: its arguments read and checked ([`CallInput`]), the request built by the
//! one request builder (`playground_tryit_core::request::for_operation`: path parameters
//! percent-encoded into the template, the query encoded, parameter headers, the body with the
//! operation's media type), and the answer written as text ([`answer_text`]): the status, the
//! headers worth knowing, the body (JSON pretty-printed, cut past [`MAX_BODY_CHARS`]) and what
//! departs from the description.

use playground_http::form::{self, FormField, FormKind};
use playground_http::{Request, Response};
use playground_mock::Mismatch;
use playground_reference::OperationView;
use playground_tryit_core::request::{ParamInput, for_operation, is_sendable};
use serde_json::{Map, Value};

/// The most characters of an answer's body a call returns; the rest is cut, with a note.
pub const MAX_BODY_CHARS: usize = 20_000;

/// The arguments of `call_operation`.
const ARGUMENTS: [&str; 5] = ["operation", "path_params", "query", "headers", "body"];

/// What a call asks for.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CallInput {
    /// The operation's name (its id, or `METHOD /path`).
    pub operation: String,
    /// Path parameters by name.
    pub path_params: Map<String, Value>,
    /// Query parameters by name.
    pub query: Map<String, Value>,
    /// Headers by name.
    pub headers: Map<String, Value>,
    /// The body, when one is sent.
    pub body: Option<Value>,
}

impl CallInput {
    /// Reads a call's arguments.
    ///
    /// # Errors
    /// A sentence naming the argument that is missing, unknown or of the wrong type.
    pub fn from_arguments(arguments: &Map<String, Value>) -> Result<Self, String> {
        if let Some(unknown) = arguments.keys().find(|k| !ARGUMENTS.contains(&k.as_str())) {
            return Err(format!(
                "call_operation has no argument `{unknown}`; its arguments are {}.",
                ARGUMENTS.map(|a| format!("`{a}`")).join(", ")
            ));
        }
        let operation = match arguments.get("operation") {
            Some(Value::String(name)) if !name.trim().is_empty() => name.trim().to_owned(),
            Some(Value::String(_)) | None => {
                return Err("`operation` is required: an operation's name from search_operations \
                            (its id, or METHOD /path)."
                    .to_owned());
            }
            Some(other) => return Err(format!("`operation` must be a string, not {}.", kind_of(other))),
        };
        let object = |name: &str| match arguments.get(name) {
            None | Some(Value::Null) => Ok(Map::new()),
            Some(Value::Object(map)) => Ok(map.clone()),
            Some(other) => Err(format!(
                "`{name}` must be an object of values by name (e.g. {{\"id\": 1}}), not {}.",
                kind_of(other)
            )),
        };
        Ok(Self {
            operation,
            path_params: object("path_params")?,
            query: object("query")?,
            headers: object("headers")?,
            body: arguments.get("body").filter(|b| !b.is_null()).cloned(),
        })
    }
}

/// A request built for a call, and what the caller should know of how it was built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Built {
    /// The request: its target is the path and query, to be put after the server's base URL.
    pub request: Request,
    /// Sentences on what was sent otherwise than given (a body the operation does not take, a
    /// query parameter the description does not list).
    pub notes: Vec<String>,
}

/// The request of `input` for the operation `view`.
///
/// # Errors
/// A sentence naming the argument at fault: a path parameter missing or unknown, a value of
/// the wrong kind for its place.
pub fn build_request(view: &OperationView, input: &CallInput) -> Result<Built, String> {
    let mut notes = Vec::new();
    let mut params = Vec::new();
    let declared = |location: &'static str| {
        view.parameters
            .iter()
            .filter(move |p| p.location == location && is_sendable(p))
            .map(|p| p.name.as_str())
    };
    let path_names: Vec<&str> = declared("path").collect();
    if let Some(unknown) = input.path_params.keys().find(|k| !path_names.contains(&k.as_str())) {
        return Err(format!(
            "`path_params.{unknown}` is not a path parameter of {} {}; {}.",
            view.method.as_str(),
            view.path,
            if path_names.is_empty() {
                "it has none".to_owned()
            } else {
                format!("its path parameters are: {}", path_names.join(", "))
            }
        ));
    }
    for name in &path_names {
        let text = match input.path_params.get(*name) {
            Some(value) => text(value, &format!("path_params.{name}"))?,
            None => String::new(),
        };
        if text.is_empty() {
            return Err(format!(
                "`path_params.{name}` is required: {} {} needs it.",
                view.method.as_str(),
                view.path
            ));
        }
        params.push(ParamInput { location: "path".to_owned(), name: (*name).to_owned(), text });
    }
    let query_names: Vec<&str> = declared("query").collect();
    let mut undeclared = Vec::new();
    for (name, value) in &input.query {
        let text = text(value, &format!("query.{name}"))?;
        if query_names.contains(&name.as_str()) {
            params.push(ParamInput { location: "query".to_owned(), name: name.clone(), text });
        } else {
            undeclared.push((name.clone(), text));
        }
    }
    let header_names: Vec<&str> = declared("header").collect();
    let mut extra_headers = Vec::new();
    for (name, value) in &input.headers {
        let text = text(value, &format!("headers.{name}"))?;
        if text.contains(['\r', '\n']) {
            return Err(format!("`headers.{name}` must be on one line."));
        }
        match header_names.iter().find(|h| h.eq_ignore_ascii_case(name)) {
            Some(declared) => {
                params.push(ParamInput { location: "header".to_owned(), name: (*declared).to_owned(), text });
            }
            None => extra_headers.push((name.clone(), text)),
        }
    }
    let body = match (&input.body, &view.request_body) {
        (Some(_), None) => {
            notes.push(format!(
                "{} {} takes no body: the body given was not sent.",
                view.method.as_str(),
                view.path
            ));
            None
        }
        (Some(body), Some(spec)) => Some(body_text(body, &spec.media_type)?),
        (None, _) => None,
    };
    let mut request = for_operation(view, "", &params, body.as_ref().map(|(text, _)| text.as_str()));
    if let Some((_, Some(media_type))) = &body {
        set_header(&mut request, "Content-Type", media_type);
    }
    if !undeclared.is_empty() {
        let names: Vec<&str> = undeclared.iter().map(|(n, _)| n.as_str()).collect();
        notes.push(format!(
            "{} not among the operation's query parameters; sent as given.",
            names.iter().map(|n| format!("`query.{n}` is")).collect::<Vec<_>>().join(", ")
        ));
        let mut pairs = form_urlencoded::Serializer::new(String::new());
        for (name, text) in &undeclared {
            pairs.append_pair(name, text);
        }
        let pairs = pairs.finish();
        let separator = if request.target.contains('?') { '&' } else { '?' };
        request.target = format!("{}{separator}{pairs}", request.target);
    }
    for (name, text) in extra_headers {
        set_header(&mut request, &name, &text);
    }
    Ok(Built { request, notes })
}

/// The body's bytes for the media type the operation takes, and the `Content-Type` to send when
/// it is not that one (a multipart body's boundary): JSON as JSON text; a form's object as its
/// fields; a string as it is for any other media type.
fn body_text(body: &Value, media_type: &str) -> Result<(String, Option<String>), String> {
    if form::is_json(media_type) {
        return Ok((body.to_string(), None));
    }
    if let Some(kind) = FormKind::of_media_type(media_type) {
        let Value::Object(fields) = body else {
            return Err(format!(
                "`body` must be an object of the form's fields ({media_type}), not {}.",
                kind_of(body)
            ));
        };
        let mut list = Vec::new();
        for (name, value) in fields {
            match value {
                Value::Array(items) => {
                    for item in items {
                        list.push(FormField::text(name, text(item, &format!("body.{name}"))?));
                    }
                }
                other => list.push(FormField::text(name, text(other, &format!("body.{name}"))?)),
            }
        }
        // Text fields only, so the encodings are UTF-8.
        return Ok(match kind {
            FormKind::UrlEncoded => {
                (String::from_utf8_lossy(&form::encode_urlencoded(&list)).into_owned(), None)
            }
            FormKind::Multipart => {
                let boundary = form::boundary_for(&list);
                let bytes = form::encode_multipart(&list, &boundary);
                (String::from_utf8_lossy(&bytes).into_owned(), Some(form::multipart_content_type(&boundary)))
            }
        });
    }
    Ok(match body {
        Value::String(text) => (text.clone(), None),
        other => (other.to_string(), None),
    })
}

/// A value as a parameter's text: a string as it is, a number or boolean as JSON writes it, an
/// array's items joined by commas (the request builder splits them again).
fn text(value: &Value, field: &str) -> Result<String, String> {
    match value {
        Value::String(text) => Ok(text.clone()),
        Value::Number(_) | Value::Bool(_) => Ok(value.to_string()),
        Value::Null => Ok(String::new()),
        Value::Array(items) => items
            .iter()
            .map(|item| match item {
                Value::Array(_) | Value::Object(_) => Err(format!(
                    "`{field}` must be a value or a list of values, not a list of {}.",
                    kind_of(item)
                )),
                other => text(other, field),
            })
            .collect::<Result<Vec<_>, _>>()
            .map(|items| items.join(",")),
        Value::Object(_) => Ok(value.to_string()),
    }
}

/// "a string", "an object", ...: what a JSON value is, in words.
fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Sets a header, replacing one of the same name in any case.
fn set_header(request: &mut Request, name: &str, value: &str) {
    request.headers.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
    request.headers.push((name.to_owned(), value.to_owned()));
}

/// The headers of an answer worth showing: what it is, where it is, how many, and what limits
/// or retires it.
fn is_notable(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    [
        "content-type",
        "location",
        "link",
        "etag",
        "retry-after",
        "www-authenticate",
        "deprecation",
        "sunset",
        "x-total-count",
        "allow",
    ]
    .contains(&name.as_str())
        || name.starts_with("x-ratelimit")
        || name.starts_with("ratelimit")
}

/// The answer as text: `201 Created`, the notable headers, the body, then the mismatches with
/// the description under `problems_title` and the notes.
#[must_use]
pub fn answer_text(
    response: &Response,
    problems_title: &str,
    problems: &[Mismatch],
    notes: &[String],
) -> String {
    let mut out = format!("{} {}\n", response.status, playground_http::reason_phrase(response.status));
    for (name, value) in response.headers.iter().filter(|(name, _)| is_notable(name)) {
        out.push_str(&format!("{}: {value}\n", name.to_ascii_lowercase()));
    }
    out.push('\n');
    out.push_str(&answer_body(response));
    if !problems.is_empty() {
        out.push_str("\n\n");
        out.push_str(problems_title);
        out.push('\n');
        for problem in problems {
            out.push_str(&format!("- {}: {problem}\n", problem.kind));
        }
    }
    for note in notes {
        out.push_str("\nNote: ");
        out.push_str(note);
    }
    out.trim_end().to_owned()
}

/// The body as text: JSON pretty-printed, other text as it is, bytes counted; at most
/// [`MAX_BODY_CHARS`].
fn answer_body(response: &Response) -> String {
    if response.body.is_empty() {
        return "(no body)".to_owned();
    }
    let text = match serde_json::from_slice::<Value>(&response.body) {
        Ok(json) => serde_json::to_string_pretty(&json).unwrap_or_default(),
        Err(_) => match std::str::from_utf8(&response.body) {
            Ok(text) => text.to_owned(),
            Err(_) => {
                return format!(
                    "({} bytes of {}, not text)",
                    response.body.len(),
                    response.header_value("content-type").unwrap_or("an unnamed media type")
                );
            }
        },
    };
    cut(&text, MAX_BODY_CHARS, "ask for fewer items (a limit or page parameter) if the operation takes one")
}

/// `text` cut after `limit` characters, with a note saying how much was left out and `hint`.
#[must_use]
pub fn cut(text: &str, limit: usize, hint: &str) -> String {
    let total = text.chars().count();
    if total <= limit {
        return text.to_owned();
    }
    let kept: String = text.chars().take(limit).collect();
    format!("{kept}\n[cut: this is {total} characters, the first {limit} are shown; {hint}]")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn arguments_name_the_one_at_fault() {
        let read = |v: Value| CallInput::from_arguments(v.as_object().unwrap());
        assert!(read(json!({})).unwrap_err().contains("`operation` is required"));
        assert!(read(json!({"operation": 3})).unwrap_err().contains("`operation` must be a string"));
        assert!(
            read(json!({"operation": "x", "query": [1]})).unwrap_err().contains("`query` must be an object")
        );
        assert!(read(json!({"operation": "x", "params": {}})).unwrap_err().contains("no argument `params`"));
        let input = read(json!({"operation": " listPets ", "body": null, "query": {"limit": 2}})).unwrap();
        assert_eq!(input.operation, "listPets");
        assert_eq!(input.body, None);
        assert_eq!(input.query["limit"], 2);
    }

    #[test]
    fn long_bodies_are_cut_with_a_note() {
        assert_eq!(cut("abc", 3, "more"), "abc");
        let cut = cut("abcdef", 4, "ask for less");
        assert_eq!(cut, "abcd\n[cut: this is 6 characters, the first 4 are shown; ask for less]");
    }
}
