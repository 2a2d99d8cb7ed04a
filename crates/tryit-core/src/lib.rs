//! The try-it panel's logic: checking what the reader typed for each parameter against its
//! schema, checking the JSON body and the extra header lines before the request is built
//! ([`crate::request`]), recognising an error answer, and explaining in plain words why a
//! request got no readable answer. The try-it module (`playground-tryit`) renders it; nothing
//! here touches the network.
//!
//! - One request type, `playground_http::Request`, goes from the form to the mock, the network
//!   and the code samples. `request::for_operation` is the one place a request is built from an
//!   operation (path parameters percent-encoded into the template, the query with arrays repeated
//!   or comma-joined as `explode` says, parameter headers, the JSON body with its `Content-Type`);
//!   [`build_request`] feeds it the checked form and `request::example` the document's examples.
//! - `samples::generate` writes a request as cURL, JavaScript (fetch), Python (requests), Go
//!   (net/http), Java (java.net.http) or C# (HttpClient); `samples::generate_with` also takes a
//!   form body, written idiomatically in each language.
//! - `prefill` makes the first try work: a documented example is kept when `playground-validate`
//!   passes it, else replaced by `playground_generate::generate` (with a note saying why); an item
//!   path's id starts on the last item the in-browser mock lists (`prefill::item_collection`,
//!   `prefill::held_id`); `prefill::example_fills` fills the reference's Example blocks.
//!   `request::form_fields` and `request::with_form_example` start a form body's fields; a
//!   required parameter is never prefilled empty.
//! - `auth` applies credentials (`auth::apply`: the first way in whose schemes all have
//!   credentials, to headers, the query or a `Cookie` header; placeholders for the samples) and
//!   holds OAuth 2 (PKCE, token requests, the authorization URL and its callback) and OpenID
//!   Connect discovery; the schemes themselves are `playground_openapi::security`.
//!
//! Tests: `tests/tryit.rs` (the form and the examples give the same request), `tests/prefill.rs`
//! (every prefilled request of the fixtures sent to the mock), `tests/usable.rs`,
//! `tests/no_panic.rs` (arbitrary documents through everything the page does with one, about 18 s).
//! `examples/first_try.rs` sends the first try of every operation of the `make corpus` documents
//! (`node corpus/first-try.mjs`).

#![deny(missing_docs)]

pub mod auth;
pub mod prefill;
pub mod request;
pub mod samples;

use serde_json::Value;

use crate::request::{ParamInput, is_sendable, split_list};
use playground_http::Request;
use playground_reference::{OperationView, ParameterView};

/// Answers whether `text` matches the regular expression `pattern`; `None` when the pattern
/// cannot be compiled where the form runs (it is then not checked, and the server decides).
pub type PatternMatcher<'a> = &'a dyn Fn(&str, &str) -> Option<bool>;

/// A form field the request cannot be sent with, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    /// `location:name` of a parameter, `body`, or `headers`.
    pub field: String,
    /// What is wrong, naming the field and the rule.
    pub message: String,
}

/// The key of a parameter's field in [`FieldError::field`] and in the form.
#[must_use]
pub fn field_key(location: &str, name: &str) -> String {
    format!("{location}:{name}")
}

fn schema_type(schema: &Value) -> Option<&str> {
    playground_openapi::schema::primary_type(schema)
}

/// Checks one value (one item of an array) against a scalar schema; `label` names it. The text
/// is read as the schema types it, then held to the schema's scalar keywords by
/// `playground_validate` (`enum`, `const`, bounds, `multipleOf`, lengths, `pattern`).
fn check_scalar(schema: &Value, text: &str, label: &str, matches: PatternMatcher<'_>) -> Result<(), String> {
    let value = match schema_type(schema) {
        Some("integer") => Value::from(text.parse::<i64>().map_err(|_| {
            format!("{label} must be a whole number, such as 42; got \u{201c}{text}\u{201d}.")
        })?),
        // serde_json's number reader: the app already carries it (no second float parser).
        Some("number") => serde_json::from_str::<f64>(text)
            .ok()
            .and_then(serde_json::Number::from_f64)
            .map(Value::Number)
            .ok_or_else(|| format!("{label} must be a number, such as 1.5; got \u{201c}{text}\u{201d}."))?,
        Some("boolean") => match text {
            "true" => Value::Bool(true),
            "false" => Value::Bool(false),
            _ => return Err(format!("{label} must be true or false; got \u{201c}{text}\u{201d}.")),
        },
        Some(_) => Value::String(text.to_owned()),
        None => untyped(schema, text),
    };
    playground_validate::check_scalar(schema, &value, label, matches)
}

/// Text for a schema without a type, read as the mock reads it: text an `enum` or `const` lists
/// as text stays text, JSON numbers and booleans are read as such, anything else is text.
fn untyped(schema: &Value, text: &str) -> Value {
    let listed = playground_openapi::schema::allowed_values(schema)
        .is_some_and(|values| values.iter().any(|v| v.as_str() == Some(text)));
    let literal = || serde_json::from_str(text).ok().filter(|v: &Value| v.is_number() || v.is_boolean());
    (!listed).then(literal).flatten().unwrap_or_else(|| Value::String(text.to_owned()))
}

/// Checks what the reader typed for `param`: required, type, enum, range, length, pattern.
///
/// # Errors
/// A message naming the parameter and the rule it breaks.
pub fn check_parameter(param: &ParameterView, text: &str, matches: PatternMatcher<'_>) -> Result<(), String> {
    let label = param.name.as_str();
    if text.is_empty() {
        return if param.required { Err(format!("{label} is required.")) } else { Ok(()) };
    }
    let schema = &param.schema_json;
    if schema_type(schema) == Some("array") {
        let items = schema.get("items").unwrap_or(&Value::Null);
        let values = split_list(text);
        if values.is_empty() && param.required {
            return Err(format!("{label} is required: give at least one value."));
        }
        for value in &values {
            check_scalar(items, value, label, matches)?;
        }
        let count = |key: &str| schema.get(key).and_then(Value::as_u64);
        if let Some(min) = count("minItems").filter(|&m| (values.len() as u64) < m) {
            return Err(format!("{label} needs at least {min} values; it has {}.", values.len()));
        }
        if let Some(max) = count("maxItems").filter(|&m| (values.len() as u64) > m) {
            return Err(format!("{label} takes at most {max} values; it has {}.", values.len()));
        }
        return Ok(());
    }
    if text.trim() != text && schema_type(schema).is_some_and(|t| t != "string") {
        return Err(format!("{label} has spaces around its value; remove them."));
    }
    check_scalar(schema, text, label, matches)
}

/// Headers a page cannot set: the browser refuses or replaces them.
const FORBIDDEN_HEADERS: [&str; 12] = [
    "accept-charset",
    "accept-encoding",
    "connection",
    "content-length",
    "cookie",
    "date",
    "host",
    "keep-alive",
    "origin",
    "referer",
    "te",
    "user-agent",
];

/// Reads extra headers written one per line as `Name: value`; blank lines are skipped.
///
/// # Errors
/// The first line that is not a header a page may send, with its number and why.
pub fn parse_headers(text: &str) -> Result<Vec<(String, String)>, String> {
    let mut headers = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let n = i + 1;
        let Some((name, value)) = line.split_once(':') else {
            return Err(format!("Line {n}: write a header as Name: value, e.g. Authorization: Bearer abc."));
        };
        let name = name.trim();
        let tchar = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c);
        if name.is_empty() || !name.chars().all(tchar) {
            return Err(format!(
                "Line {n}: \u{201c}{name}\u{201d} is not a header name (letters, digits and - only)."
            ));
        }
        let lower = name.to_ascii_lowercase();
        if FORBIDDEN_HEADERS.contains(&lower.as_str())
            || lower.starts_with("sec-")
            || lower.starts_with("proxy-")
        {
            return Err(format!("Line {n}: browsers do not let a page set the {name} header."));
        }
        headers.push((name.to_owned(), value.trim().to_owned()));
    }
    Ok(headers)
}

/// Checks the form and builds the request it describes against `base` (no trailing slash;
/// empty for the in-browser mock, which reads only the path): parameters, the JSON body
/// (`body`, when the operation takes one) and the extra header lines, added after the form's.
/// Returns it with every problem found; send it only when there is none (the code samples show
/// it either way, without the parts that are wrong).
#[must_use]
pub fn build_request(
    view: &OperationView,
    base: &str,
    params: &[ParamInput],
    body: Option<&str>,
    extra_headers: &str,
    matches: PatternMatcher<'_>,
) -> (Request, Vec<FieldError>) {
    let mut errors = Vec::new();
    for param in view.parameters.iter().filter(|p| is_sendable(p)) {
        let text = crate::request::text_for(params, param);
        if let Err(message) = check_parameter(param, text, matches) {
            errors.push(FieldError { field: field_key(&param.location, &param.name), message });
        }
    }
    let mut json = None;
    if let Some(spec) = &view.request_body {
        let text = body.unwrap_or_default();
        if text.trim().is_empty() {
            if spec.required {
                errors.push(FieldError {
                    field: "body".to_owned(),
                    message: "This operation needs a request body.".to_owned(),
                });
            }
        } else {
            match serde_json::from_str::<Value>(text) {
                Ok(_) => json = Some(text),
                Err(e) => errors.push(FieldError {
                    field: "body".to_owned(),
                    message: format!("The body is not valid JSON: {e}."),
                }),
            }
        }
    }
    let mut request = request::for_operation(view, base, params, json);
    match parse_headers(extra_headers) {
        Ok(extra) => request.headers.extend(extra),
        Err(message) => errors.push(FieldError { field: "headers".to_owned(), message }),
    }
    (request, errors)
}

/// The text a form field starts with: the parameter's example for path parameters and
/// required ones, nothing for the others (their example is shown as a placeholder).
#[must_use]
pub fn initial_text(param: &ParameterView) -> String {
    if param.required { request::example_text(param) } else { String::new() }
}

/// An error answer's parts, when the body is an error object: `{code, message, status}` as the
/// Petstore's `Error`, or any object with a `message` in a 4xx/5xx answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ErrorSummary {
    /// The machine-readable code, when the body has one.
    pub code: Option<String>,
    /// What went wrong.
    pub message: String,
}

/// Recognises an error object in an answer with HTTP status `status`.
#[must_use]
pub fn error_summary(status: u16, body: &Value) -> Option<ErrorSummary> {
    let message = body.get("message").and_then(Value::as_str)?.to_owned();
    let code = body.get("code").and_then(Value::as_str).map(str::to_owned);
    let has_status = body.get("status").and_then(Value::as_u64).is_some();
    (status >= 400 || (code.is_some() && has_status)).then_some(ErrorSummary { code, message })
}

/// What is known of a server that gave no readable answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reachability {
    /// A second request that does not need CORS reached it: it is up, so CORS refused.
    Answered,
    /// Nothing answered at that address either.
    Unreachable,
}

/// Explains why a request to `target_origin` from a page at `page_origin` got no readable
/// answer, in plain words and with what to do about it.
#[must_use]
pub fn explain_failure(target_origin: &str, page_origin: &str, reachability: Reachability) -> String {
    let mixed = page_origin.starts_with("https:")
        && target_origin.starts_with("http:")
        && !["://127.0.0.1", "://localhost", "://[::1]"].iter().any(|h| target_origin.contains(h));
    if mixed {
        return format!(
            "This page is served over HTTPS, so the browser blocks requests to the plain-HTTP address \
             {target_origin}. Use an https:// base URL, or open this reference over HTTP."
        );
    }
    match reachability {
        Reachability::Answered => format!(
            "The server at {target_origin} answered, but it does not allow this page to read its \
             answers. Browsers only let a page read another site's answer when the server allows \
             the page's origin: {target_origin} must send Access-Control-Allow-Origin: {page_origin} \
             (and answer the OPTIONS preflight for methods and headers other than the simplest \
             ones). Enable CORS for this origin on the server, or try the request with the code \
             sample instead."
        ),
        Reachability::Unreachable => format!(
            "Nothing answered at {target_origin}: the server is not running, the address or port is \
             wrong, or this computer is offline. Check that the server is up (for the local mock: \
             petstore-mock serve) and that the base URL is right."
        ),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn headers_are_read_line_by_line_with_reasons() {
        assert_eq!(
            parse_headers("Authorization: Bearer abc\n\n X-Trace :  1 ").unwrap(),
            vec![
                ("Authorization".to_owned(), "Bearer abc".to_owned()),
                ("X-Trace".to_owned(), "1".to_owned())
            ]
        );
        assert!(parse_headers("Authorization Bearer").unwrap_err().starts_with("Line 1:"));
        assert!(parse_headers("ok: 1\nbad name: x").unwrap_err().contains("Line 2"));
        assert!(parse_headers("Cookie: a=b").unwrap_err().contains("do not let a page set the Cookie"));
        assert!(parse_headers("Sec-Fetch-Mode: cors").unwrap_err().contains("Sec-Fetch-Mode"));
    }

    #[test]
    fn error_objects_are_recognised() {
        let petstore = serde_json::json!({"code": "not_found", "message": "No pet 9.", "status": 404});
        assert_eq!(
            error_summary(404, &petstore),
            Some(ErrorSummary { code: Some("not_found".into()), message: "No pet 9.".into() })
        );
        let github = serde_json::json!({"message": "Not Found", "documentation_url": "x"});
        assert_eq!(error_summary(404, &github).unwrap().code, None);
        assert_eq!(error_summary(200, &github), None);
        assert_eq!(error_summary(500, &serde_json::json!({"id": 1})), None);
    }

    #[test]
    fn failures_are_explained_with_what_to_do() {
        let cors = explain_failure("http://127.0.0.1:9", "http://127.0.0.1:8080", Reachability::Answered);
        assert!(cors.contains("Access-Control-Allow-Origin: http://127.0.0.1:8080"), "{cors}");
        let down = explain_failure("http://127.0.0.1:9", "http://127.0.0.1:8080", Reachability::Unreachable);
        assert!(down.contains("Nothing answered at http://127.0.0.1:9"), "{down}");
        let mixed =
            explain_failure("http://api.example.com", "https://docs.example.com", Reachability::Answered);
        assert!(mixed.contains("plain-HTTP"), "{mixed}");
        let local =
            explain_failure("http://127.0.0.1:4010", "https://docs.example.com", Reachability::Unreachable);
        assert!(local.starts_with("Nothing answered"), "{local}");
    }
}
