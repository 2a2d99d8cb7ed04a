//! Answers from the document: which documented response (`Prefer: code=404`, else the first
//! success), which media type (the request's `Accept`), which value (`Prefer: example=name`, else
//! the first example that fits the schema, else data generated from the schema) and the
//! documented headers.

use playground_openapi::json::Key;
use serde_json::Value;

use super::failure::{self, Failure, documented};
use super::generate::generate;
use super::spec::{Operation, Spec};
use playground_http::Response;
use playground_openapi::pointer::resolve;
use playground_openapi::schema::Direction;

/// What the request's `Prefer` headers ask for (as Prism reads them).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Prefer {
    /// `code=404` or `status=404`.
    pub code: Option<u16>,
    /// `example=name`.
    pub example: Option<String>,
}

impl Prefer {
    pub(crate) fn of(headers: &[(String, String)]) -> Self {
        let mut prefer = Self::default();
        let values = headers.iter().filter(|(n, _)| n.eq_ignore_ascii_case("prefer")).map(|(_, v)| v);
        for pair in values.flat_map(|v| v.split([',', ';'])) {
            let Some((key, value)) = pair.split_once('=') else { continue };
            let value = value.trim().trim_matches('"');
            match key.trim().to_ascii_lowercase().as_str() {
                "code" | "status" => prefer.code = value.parse().ok().or(prefer.code),
                "example" => prefer.example = Some(value.to_owned()),
                _ => {}
            }
        }
        prefer
    }
}

/// The statuses an operation documents, as written (`200`, `4XX`, `default`), for messages.
fn statuses(op: &Operation) -> String {
    op.responses.iter().map(|(s, _)| s.to_ascii_lowercase()).collect::<Vec<_>>().join(", ")
}

/// The status to answer with and its documented response.
pub(crate) fn pick_status(op: &Operation, prefer: Option<u16>) -> Result<(u16, Option<&Value>), Failure> {
    if let Some(code) = prefer {
        return match documented(op, code) {
            Some(response) if (100..=599).contains(&code) => Ok((code, Some(response))),
            _ => Err(Failure::parameter(format!(
                "Prefer: code={code} names no documented response of {}; it documents {}.",
                op.id,
                statuses(op)
            ))),
        };
    }
    Ok(success(op))
}

/// The first documented success (lowest 2XX), else `2XX`, else `default`, else the first
/// status written below 400 (a redirect); else 200 without a body.
pub(crate) fn success(op: &Operation) -> (u16, Option<&Value>) {
    let numeric = |s: &str| s.parse::<u16>().ok();
    let mut codes: Vec<(u16, &Value)> = op
        .responses
        .iter()
        .filter_map(|(s, r)| numeric(s).map(|c| (c, r)))
        .filter(|(c, _)| (200..300).contains(c))
        .collect();
    codes.sort_by_key(|(c, _)| *c);
    if let Some((code, response)) = codes.first() {
        return (*code, Some(response));
    }
    for (key, code) in [("2XX", 200), ("DEFAULT", 200)] {
        if let Some((_, r)) = op.responses.iter().find(|(s, _)| s == key) {
            return (code, Some(r));
        }
    }
    // A redirect the operation documents; an operation that documents only failures still
    // succeeds when nothing went wrong: a client sent a valid request.
    match op.responses.iter().find_map(|(s, r)| numeric(s).filter(|c| *c < 400).map(|c| (c, r))) {
        Some((code, r)) => (code, Some(r)),
        None => (200, None),
    }
}

/// A status for a success that creates (`201` when documented) or deletes (`204`).
pub(crate) fn preferred_success(op: &Operation, wanted: u16) -> (u16, Option<&Value>) {
    match op.responses.iter().find(|(s, _)| *s == wanted.to_string()) {
        Some((_, r)) => (wanted, Some(r)),
        None => success(op),
    }
}

/// The success of an operation on a stored resource: `wanted` (201 for a create, 204 for a
/// delete) when documented, else the documented success, else `wanted` with no documented
/// response. Never an error status: an operation that documents only its errors (`405: Invalid
/// input`) still succeeds when it succeeds.
pub(crate) fn stored_success(op: &Operation, wanted: u16) -> (u16, Option<&Value>) {
    match preferred_success(op, wanted) {
        (status, response @ Some(_)) if (200..300).contains(&status) => (status, response),
        _ => (wanted, None),
    }
}

/// The media type of a response's content the request accepts: the first `Accept` range that
/// one matches, else JSON, else the first one documented.
pub(crate) fn pick_media<'a>(
    content: &'a serde_json::Map<String, Value>,
    accept: Option<&str>,
) -> Option<(&'a str, &'a Value)> {
    if let Some(accept) = accept {
        for range in accept.split(',') {
            let range = range.split(';').next().unwrap_or_default().trim();
            if range.is_empty() || range == "*/*" {
                break;
            }
            if let Some((media, entry)) = content.iter().find(|(m, _)| super::params::media_matches(range, m))
            {
                return Some((media, entry));
            }
        }
    }
    content
        .iter()
        .find(|(m, _)| playground_http::form::is_json(m))
        .or_else(|| content.iter().next())
        .map(|(m, e)| (m.as_str(), e))
}

/// The media type to send for a documented one: itself, or for a range (`*/*`, `text/*`) the
/// first type the request accepts within it, else a common type of that range.
pub(crate) fn concrete_media(media: &str, accept: Option<&str>) -> String {
    let essence = media.split(';').next().unwrap_or_default().trim();
    if !essence.contains('*') {
        return media.to_owned();
    }
    let asked = accept.into_iter().flat_map(|a| a.split(',')).find_map(|range| {
        let range = range.split(';').next().unwrap_or_default().trim();
        (!range.contains('*') && range.contains('/') && super::params::media_matches(essence, range))
            .then(|| range.to_ascii_lowercase())
    });
    asked.unwrap_or_else(|| {
        match essence.split('/').next().unwrap_or_default() {
            "text" => "text/plain",
            "image" => "image/png",
            "*" | "application" => "application/json",
            _ => "application/octet-stream",
        }
        .to_owned()
    })
}

/// The value of a media type entry: the named example, the first fitting example, else
/// generated data; `None` without schema or example.
pub(crate) fn value_of(
    spec: &Spec,
    entry: &Value,
    example: Option<&str>,
    seed: u64,
) -> Result<Option<Value>, Failure> {
    let schema = entry.key("schema");
    let examples = entry.key("examples").and_then(Value::as_object);
    let example_value = |e: &Value| resolve(&spec.doc, e).ok().and_then(|e| e.key("value")).cloned();
    if let Some(name) = example {
        return match examples.and_then(|m| m.get(name)) {
            Some(found) => Ok(example_value(found)),
            None => {
                let names: Vec<&str> = examples.into_iter().flatten().map(|(n, _)| n.as_str()).collect();
                Err(Failure::parameter(if names.is_empty() {
                    format!("Prefer: example={name}: this response has no named examples.")
                } else {
                    format!("Prefer: example={name}: this response's examples are {}.", names.join(", "))
                }))
            }
        };
    }
    // An example that only a validator skipping formats would find ambiguous is passed over
    // too: clients check answers with such validators.
    let fits = |v: &Value| {
        schema.is_none_or(|s| {
            spec.validator().direction(Direction::Response).check_unambiguous(s, v, "").is_ok()
        })
    };
    let mut candidates = entry
        .key("example")
        .cloned()
        .into_iter()
        .chain(examples.into_iter().flatten().filter_map(|(_, e)| example_value(e)));
    let Some(schema) = schema else { return Ok(candidates.next()) };
    // The choice is kept per entry and seed, as generated values are: checking each example
    // twice (with and without formats) on every answer costs more than the answer.
    Ok(Some(spec.generated.get_or_make(entry, seed, || {
        candidates
            .find(|candidate| fits(candidate))
            .unwrap_or_else(|| generate(&spec.doc, schema, seed, Direction::Response).value)
    })))
}

/// Body bytes of a value in a media type: JSON for JSON types and structured values, the text
/// itself for a string in any other type, XML for an object in an XML type.
pub(crate) fn encode(media: &str, value: &Value) -> Vec<u8> {
    match value {
        _ if playground_http::form::is_json(media) => json_bytes(value),
        Value::String(text) => text.clone().into_bytes(),
        _ if media.contains("xml") => {
            let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
            xml(&mut out, "root", value, 0);
            out.into_bytes()
        }
        _ => json_bytes(value),
    }
}

/// A value as compact JSON, a whole number written as an integer (`39245`, not `39245.0`;
/// `1413939913300392681838224227442589696`, not `1.4139399133003927e36`). A client sent it as
/// an integer, or the schema asks for one: serde_json keeps a number beyond 64 bits, or written
/// with a fraction, as a float, and JSON Schema draft 4 (OpenAPI 3.0) does not count a float's
/// text as an integer.
pub(crate) fn json_bytes(value: &Value) -> Vec<u8> {
    let mut out = Vec::with_capacity(128);
    let mut writer = serde_json::Serializer::with_formatter(&mut out, WholeNumbers);
    match serde::Serialize::serialize(value, &mut writer) {
        Ok(()) => out,
        Err(_) => serde_json::to_vec(value).unwrap_or_default(),
    }
}

/// serde_json's compact output with whole floats written as integers.
struct WholeNumbers;

impl serde_json::ser::Formatter for WholeNumbers {
    fn write_f64<W: ?Sized + std::io::Write>(&mut self, writer: &mut W, value: f64) -> std::io::Result<()> {
        if value.is_finite() && value.fract() == 0.0 {
            // `{:.0}` writes a double's exact decimal value: at most 309 digits.
            write!(writer, "{value:.0}")
        } else {
            serde_json::ser::CompactFormatter.write_f64(writer, value)
        }
    }
}

fn xml(out: &mut String, name: &str, value: &Value, depth: usize) {
    let escape = |s: &str| s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
    let tag: String =
        name.chars().map(|c| if c.is_alphanumeric() || c == '_' || c == '-' { c } else { '_' }).collect();
    match value {
        Value::Array(items) if depth < 32 => items.iter().for_each(|item| xml(out, &tag, item, depth + 1)),
        Value::Object(fields) if depth < 32 => {
            out.push_str(&format!("<{tag}>"));
            for (k, v) in fields {
                xml(out, k, v, depth + 1);
            }
            out.push_str(&format!("</{tag}>"));
        }
        Value::Null => out.push_str(&format!("<{tag}/>")),
        Value::String(s) => out.push_str(&format!("<{tag}>{}</{tag}>", escape(s))),
        other => out.push_str(&format!("<{tag}>{}</{tag}>", escape(&other.to_string()))),
    }
}

/// The documented headers of a response with generated values (`Content-Type` left to the
/// body).
pub(crate) fn headers(spec: &Spec, response: &Value, seed: u64) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (name, header) in response.key("headers").and_then(Value::as_object).into_iter().flatten() {
        if name.eq_ignore_ascii_case("content-type") || name.eq_ignore_ascii_case("content-length") {
            continue;
        }
        let Ok(header) = resolve(&spec.doc, header) else { continue };
        let schema = header.key("schema").or_else(|| {
            header
                .key("content")
                .and_then(Value::as_object)
                .and_then(|c| c.values().next())
                .and_then(|e| e.key("schema"))
        });
        let value = header
            .key("example")
            .cloned()
            .or_else(|| schema.map(|s| generate(&spec.doc, s, seed, Direction::Response).value))
            .unwrap_or(Value::String(String::new()));
        let text = match value {
            Value::String(s) => s,
            Value::Array(items) => items
                .iter()
                .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_owned))
                .collect::<Vec<_>>()
                .join(","),
            other => other.to_string(),
        };
        // Header values are one line of visible text.
        if text.chars().all(|c| c == '\t' || (' '..='~').contains(&c)) {
            out.push((name.clone(), text));
        }
    }
    out
}

/// An injected failure: the status asked for, else the first server error documented, else a
/// client error other than 400 and 404, else 500; its documented body.
pub(crate) fn injected(spec: &Spec, op: &Operation, status: Option<u16>, seed: u64) -> Response {
    let documented_codes: Vec<u16> = op.responses.iter().filter_map(|(s, _)| s.parse().ok()).collect();
    let status = status
        .or_else(|| documented_codes.iter().copied().find(|c| *c >= 500))
        .or_else(|| documented_codes.iter().copied().find(|c| (401..500).contains(c) && *c != 404))
        .unwrap_or(500);
    match documented(op, status).filter(|r| r.key("content").is_some()) {
        Some(_) => from_document(spec, op, &Prefer { code: Some(status), example: None }, None, seed)
            .unwrap_or_else(|f| failure::render(spec, Some(op), &f, seed)),
        None => {
            let failure = Failure {
                status,
                code: "injected_failure",
                message: format!("A failure injected into {} by the mock's options.", op.id),
                headers: Vec::new(),
                problems: Vec::new(),
            };
            failure::render(spec, Some(op), &failure, seed)
        }
    }
}

/// An answer from the document alone.
pub(crate) fn from_document(
    spec: &Spec,
    op: &Operation,
    prefer: &Prefer,
    accept: Option<&str>,
    seed: u64,
) -> Result<Response, Failure> {
    let (status, response) = pick_status(op, prefer.code)?;
    let Some(response) = response else {
        return Ok(Response { status, headers: Vec::new(), body: Vec::new() });
    };
    let seed = seed ^ u64::from(status);
    let mut headers = headers(spec, response, seed);
    let content = response.key("content").and_then(Value::as_object).filter(|c| !c.is_empty());
    let body = match content.and_then(|c| pick_media(c, accept)) {
        Some((media, entry)) => {
            let media = concrete_media(media, accept);
            let body = match value_of(spec, entry, prefer.example.as_deref(), seed)? {
                Some(value) => encode(&media, &value),
                None => Vec::new(),
            };
            headers.insert(0, ("Content-Type".to_owned(), media));
            body
        }
        None if prefer.example.is_some() => {
            return Err(Failure::parameter(format!(
                "Prefer: example: the {status} answer of {} has no body.",
                op.id
            )));
        }
        None => Vec::new(),
    };
    Ok(Response { status, headers, body })
}
