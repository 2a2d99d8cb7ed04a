//! Reading a request's parameters and body as the operation describes them, and checking them
//! against their schemas.
//!
//! Parameter text becomes JSON by the parameter's style (`form`, `simple`, `deepObject`,
//! `spaceDelimited`, `pipeDelimited`, `label`, `matrix`) and schema type; a value whose schema
//! allows several types takes the first reading that validates. Bodies are read by media type:
//! JSON, URL-encoded and multipart forms become objects and are checked; text is checked when
//! its schema is a string; other types are taken as they are.

use playground_openapi::json::Key;
use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::failure::Failure;
use super::form_fields::{add_empty_members, form_object};
use super::problems::{self, MAX_PROBLEMS, Problem};
use super::spec::{Body, Location, Operation, Param, Spec};
use super::text_values::{property_schema, scalar};
use playground_http::Request;
use playground_openapi::pointer::resolve;
use playground_openapi::schema::Direction;

/// The largest request body the mock of a document reads (1 MiB).
pub const MAX_REQUEST_BODY: usize = 1024 * 1024;

/// The parameters read: by name, as JSON.
pub type Params = BTreeMap<String, Value>;

/// Where the raw values of the request are.
pub(crate) struct Raw<'a> {
    pub path: &'a [(String, String)],
    pub query: &'a [(String, String)],
    pub request: &'a Request,
}

impl Raw<'_> {
    fn cookies(&self) -> Vec<(String, String)> {
        self.request
            .headers
            .iter()
            .filter(|(name, _)| name.eq_ignore_ascii_case("cookie"))
            .flat_map(|(_, value)| value.split(';'))
            .filter_map(|pair| pair.split_once('='))
            .map(|(k, v)| (k.trim().to_owned(), v.trim().to_owned()))
            .collect()
    }
}

/// Reads and checks every parameter; with `check` off, values are read but not checked, and
/// missing required ones are let through. A refusal names the first parameter that is wrong
/// and lists the problems of all.
pub(crate) fn read_params(
    spec: &Spec,
    op: &Operation,
    raw: &Raw<'_>,
    check: bool,
) -> Result<Params, Failure> {
    let validator = spec.validator().direction(Direction::Request);
    let cookies =
        if op.params.iter().any(|p| p.location == Location::Cookie) { raw.cookies() } else { Vec::new() };
    let mut out = Params::new();
    // The first refusal's message, and every parameter's problem.
    let mut refused: Option<String> = None;
    let mut found: Vec<Problem> = Vec::new();
    let mut refuse = |message: String, problem: Problem| {
        refused.get_or_insert(message);
        if found.len() < MAX_PROBLEMS {
            found.push(problem);
        }
    };
    for param in &op.params {
        let schema = resolve(&spec.doc, &param.schema).unwrap_or(&param.schema);
        let label = format!("{} {}", param.location.label(), param.name);
        let loc = [Value::from(problems::place(param.location)), Value::from(param.name.as_str())];
        let value = match param.location {
            Location::Path => raw.path.iter().find(|(k, _)| *k == param.name).map(|(_, v)| {
                let text = strip_path_style(param, schema, v);
                from_text(spec, param, schema, &split_list(param, schema, &text))
            }),
            Location::Query => query_value(spec, param, schema, raw.query),
            Location::Header => {
                let values: Vec<String> = raw
                    .request
                    .headers
                    .iter()
                    .filter(|(k, _)| k.eq_ignore_ascii_case(&param.name))
                    .map(|(_, v)| v.clone())
                    .collect();
                (!values.is_empty()).then(|| {
                    let joined = values.join(",");
                    from_text(spec, param, schema, &split_list(param, schema, &joined))
                })
            }
            Location::Cookie => cookies.iter().find(|(k, _)| *k == param.name).map(|(_, v)| {
                let v = percent_encoding::percent_decode_str(v).decode_utf8_lossy().into_owned();
                from_text(spec, param, schema, &split_list(param, schema, &v))
            }),
        };
        let Some(value) = value else {
            if param.required && check {
                let message = format!("{label} is required.");
                let problem =
                    Problem { loc: loc.to_vec(), kind: "missing", message: message.clone(), input: None };
                refuse(message, problem);
            }
            continue;
        };
        let value = match value {
            Ok(value) => value,
            Err(e) => {
                let message = format!("{label} {e}");
                let kind = problems::unreadable(spec, &param.schema, &e);
                let input = raw_text(param, raw).map(Value::String);
                refuse(message.clone(), Problem { loc: loc.to_vec(), kind, message, input });
                continue;
            }
        };
        if check {
            let mut wrong = validator.problems(&param.schema, &value, &param.name, 1);
            if !wrong.is_empty()
                && let Some(essence) = essence(param, &value)
                && validator.check(&param.schema, &essence, &param.name).is_ok()
            {
                wrong.clear();
            }
            if !wrong.is_empty() {
                let label = param.location.label();
                let mut listed = problems::from_validator(wrong, &loc, &value);
                for problem in &mut listed {
                    problem.message = format!("{label} {}", problem.message);
                }
                let first = listed[0].message.clone();
                for problem in listed {
                    refuse(first.clone(), problem);
                }
                continue;
            }
        }
        out.insert(param.name.clone(), value);
    }
    match refused {
        Some(message) => Err(Failure::parameter(message).with_problems(found)),
        None => Ok(out),
    }
}

/// A parameter's text as sent, for a refusal's `input` (the query's first value).
fn raw_text(param: &Param, raw: &Raw<'_>) -> Option<String> {
    let find =
        |pairs: &[(String, String)]| pairs.iter().find(|(k, _)| *k == param.name).map(|(_, v)| v.clone());
    match param.location {
        Location::Path => find(raw.path),
        Location::Query => find(raw.query),
        Location::Header => raw.request.header_value(&param.name).map(str::to_owned),
        Location::Cookie => None,
    }
}

/// A `Content-Type` header parameter's media type without its parameters, lower case:
/// `application/json; charset=utf-8` is `application/json` to a list of media types.
fn essence(param: &Param, value: &Value) -> Option<Value> {
    if param.location != Location::Header || !param.name.eq_ignore_ascii_case("content-type") {
        return None;
    }
    let media = value.as_str()?.split(';').next()?;
    Some(Value::from(media.trim().to_ascii_lowercase()))
}

/// `label` (`.a.b`) and `matrix` (`;id=5`) path values without their prefix; the items of a
/// list or an object are joined with commas.
fn strip_path_style(param: &Param, schema: &Value, text: &str) -> String {
    match param.style.as_str() {
        "label" if is_structured(param, schema) => text.strip_prefix('.').unwrap_or(text).replace('.', ","),
        "label" => text.strip_prefix('.').unwrap_or(text).to_owned(),
        "matrix" => {
            let prefix = format!(";{}=", param.name);
            text.split(&prefix).filter(|s| !s.is_empty()).collect::<Vec<_>>().join(",")
        }
        _ => text.to_owned(),
    }
}

/// Whether a parameter's value is a list or an object, whose text holds several pieces; JSON
/// content is one text.
fn is_structured(param: &Param, schema: &Value) -> bool {
    !param.json && matches!(playground_openapi::schema::primary_type(schema), Some("array" | "object"))
}

/// Splits one text into the items of a list, by the style's separator, when the schema wants
/// a list or an object; any other value is the whole text, commas and all.
fn split_list(param: &Param, schema: &Value, text: &str) -> Vec<String> {
    if !is_structured(param, schema) {
        return vec![text.to_owned()];
    }
    let separator = match param.style.as_str() {
        "spaceDelimited" => ' ',
        "pipeDelimited" => '|',
        _ => ',',
    };
    text.split(separator).map(str::to_owned).collect()
}

fn query_value(
    spec: &Spec,
    param: &Param,
    schema: &Value,
    query: &[(String, String)],
) -> Option<Result<Value, String>> {
    let kind = playground_openapi::schema::primary_type(schema);
    if param.style == "deepObject" || (kind == Some("object") && param.explode && !param.json) {
        let prefix = format!("{}[", param.name);
        let mut fields = Map::new();
        for (key, value) in query {
            let field = if param.style == "deepObject" {
                key.strip_prefix(prefix.as_str()).and_then(|k| k.strip_suffix(']'))
            } else {
                property_schema(spec, schema, key).map(|_| key.as_str())
            };
            if let Some(field) = field {
                let prop = property_schema(spec, schema, field).unwrap_or(&Value::Null);
                let read = scalar(spec, prop, value).unwrap_or_else(|_| Value::String(value.clone()));
                fields.insert(field.to_owned(), read);
            }
        }
        return (!fields.is_empty()).then_some(Ok(Value::Object(fields)));
    }
    let values: Vec<&String> = query.iter().filter(|(k, _)| *k == param.name).map(|(_, v)| v).collect();
    if values.is_empty() {
        return None;
    }
    if kind == Some("array") && !param.explode
        || matches!(param.style.as_str(), "spaceDelimited" | "pipeDelimited")
    {
        let joined: Vec<String> = values.iter().flat_map(|v| split_list(param, schema, v)).collect();
        return Some(from_text(spec, param, schema, &joined));
    }
    if kind == Some("object") {
        let first = values.first().map_or("", |v| v.as_str());
        return Some(from_text(spec, param, schema, &split_list(param, schema, first)));
    }
    let owned: Vec<String> = values.into_iter().cloned().collect();
    Some(from_text(spec, param, schema, &owned))
}

/// A parameter's value from its text pieces: a list for an array schema, an object from
/// `key,value` pairs (or `key=value` when exploded), else the one value.
fn from_text(spec: &Spec, param: &Param, schema: &Value, pieces: &[String]) -> Result<Value, String> {
    if param.json {
        let text = pieces.join(",");
        return serde_json::from_str(&text).map_err(|e| format!("is not JSON: {e}"));
    }
    match playground_openapi::schema::primary_type(schema) {
        Some("array") => {
            let items = schema.key("items").unwrap_or(&Value::Null);
            let items = resolve(&spec.doc, items).unwrap_or(items);
            pieces
                .iter()
                .filter(|p| !(pieces.len() == 1 && p.is_empty()))
                .map(|p| scalar(spec, items, p))
                .collect::<Result<Vec<_>, _>>()
                .map(Value::Array)
        }
        Some("object") => {
            let mut fields = Map::new();
            let mut add = |key: &str, value: &str| {
                let prop = property_schema(spec, schema, key).unwrap_or(&Value::Null);
                let read = scalar(spec, prop, value).unwrap_or_else(|_| Value::String(value.to_owned()));
                fields.insert(key.to_owned(), read);
            };
            if pieces.iter().all(|p| p.contains('=')) {
                for piece in pieces {
                    if let Some((k, v)) = piece.split_once('=') {
                        add(k, v);
                    }
                }
            } else {
                for pair in pieces.chunks(2) {
                    add(&pair[0], pair.get(1).map_or("", String::as_str));
                }
            }
            Ok(Value::Object(fields))
        }
        _ => match pieces {
            [one] => scalar(spec, schema, one),
            more => Err(format!("is given {} times; give it once.", more.len())),
        },
    }
}

/// What a body became: a JSON value (JSON, forms, text), or nothing to read (binary).
pub(crate) fn read_body(
    spec: &Spec,
    op: &Operation,
    body: &Body,
    request: &Request,
    check: bool,
    limit: usize,
) -> Result<Option<Value>, Failure> {
    let bytes = &request.body;
    if bytes.len() > limit {
        return Err(Failure::too_large(super::OversizedBody { size: bytes.len(), exact: true }, limit));
    }
    // An empty URL-encoded form is a form with no fields: its required lists and objects may
    // all be empty (`features[]` with no item writes nothing). It is one where the body is
    // required, or where the request says it sends a form (an optional form body sent empty
    // still lacks its required fields).
    let urlencoded = |media: &str| media.starts_with("application/x-www-form-urlencoded");
    let sent_form = request.header_value("Content-Type").is_some_and(urlencoded);
    let empty_form = body.content.iter().any(|(media, _)| urlencoded(media))
        && (sent_form
            || body.required
                && body.content.first().is_some_and(|(media, _)| urlencoded(media))
                && request.header_value("Content-Type").is_none());
    if bytes.is_empty() && !empty_form {
        if body.required && check {
            let types: Vec<&str> = body.content.iter().map(|(m, _)| m.as_str()).collect();
            return Err(Failure::malformed(format!(
                "The request body is empty; this operation needs a body ({}).",
                types.join(", ")
            ))
            .at(&["body"], "missing", None));
        }
        return Ok(None);
    }
    let sent = request.header_value("Content-Type").map(str::trim).filter(|c| !c.is_empty());
    let chosen = match sent {
        None => body.content.first(),
        Some(sent) => body.content.iter().find(|(media, _)| media_matches(media, sent)),
    };
    let Some((media, schema)) = chosen else {
        if !check || body.content.is_empty() {
            return Ok(None);
        }
        let types: Vec<&str> = body.content.iter().map(|(m, _)| m.as_str()).collect();
        return Err(Failure::media_type(format!(
            "The body must be sent as {}, not {}.",
            types.join(" or "),
            sent.unwrap_or_default()
        )));
    };
    let sent_type = sent.unwrap_or(media.as_str());
    let value = if playground_http::form::is_json(media) || playground_http::form::is_json(sent_type) {
        Some(serde_json::from_slice::<Value>(bytes).map_err(|e| {
            let message = format!("The body is not valid JSON: {e}.");
            let problem = problems::json_invalid(bytes, &e, message.clone());
            Failure::malformed(message).with_problems([problem])
        })?)
    } else if media.starts_with("application/x-www-form-urlencoded") {
        let pairs: Vec<(String, String)> = form_urlencoded::parse(bytes).into_owned().collect();
        let mut form =
            form_object(spec, schema.as_ref(), pairs.into_iter().map(|(k, v)| (k, Value::String(v))));
        if let Some(schema) = schema {
            add_empty_members(spec, schema, &mut form);
        }
        Some(form)
    } else if media.starts_with("multipart/") {
        let fields = playground_http::form::parse_multipart(sent_type, bytes).map_err(Failure::malformed)?;
        Some(form_object(
            spec,
            schema.as_ref(),
            fields.into_iter().map(|f| match f.value {
                playground_http::form::FieldValue::Text(text) => (f.name, Value::String(text)),
                playground_http::form::FieldValue::File { file_name, .. } => {
                    (f.name, Value::String(file_name))
                }
            }),
        ))
    } else if playground_http::form::is_xml(media) {
        let text = std::str::from_utf8(bytes)
            .map_err(|_| Failure::malformed("The body is not UTF-8 text.".to_owned()))?;
        Some(
            super::xml_body::read(spec, schema.as_ref(), text)
                .map_err(|e| Failure::malformed(format!("The body is not valid XML: {e}.")))?,
        )
    } else if media.starts_with("text/") {
        Some(Value::String(String::from_utf8_lossy(bytes).into_owned()))
    } else {
        None
    };
    if check && let (Some(value), Some(schema)) = (&value, schema) {
        // A file in a form stands as its file name: its schema is a (binary) string.
        let wrong = spec.validator().direction(Direction::Request).problems(schema, value, "", MAX_PROBLEMS);
        if let Some(first) = wrong.first() {
            let message = first.message.clone();
            let listed = problems::from_validator(wrong, &[Value::from("body")], value);
            return Err(Failure::validation(op, message).with_problems(listed));
        }
    }
    Ok(value)
}

/// Whether a sent `Content-Type` fits a documented media type (`*/*`, `image/*` or the same
/// type, parameters ignored).
pub(crate) fn media_matches(documented: &str, sent: &str) -> bool {
    let essence = |m: &str| m.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
    let (documented, sent) = (essence(documented), essence(sent));
    documented == sent
        || documented == "*/*"
        || documented.strip_suffix("/*").is_some_and(|kind| sent.split('/').next() == Some(kind))
}
