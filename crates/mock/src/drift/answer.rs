//! The checks of a real answer against what its operation documents: the status, the media
//! type, the headers and the body (as a JSON pointer to each value that differs).

use super::*;

/// The answer's mismatches: status, media type, headers, body.
pub(super) fn answer_mismatches(
    spec: &Spec,
    op: &Operation,
    status: u16,
    headers: &[(String, String)],
    body: &[u8],
) -> Vec<Mismatch> {
    let Some(response) = failure::documented(op, status) else {
        return vec![undocumented_status(op, status)];
    };
    let mut out = header_mismatches(spec, status, response, headers);
    let sent = playground_http::find_header(headers, "Content-Type").map(str::trim).filter(|c| !c.is_empty());
    let content = response.get("content").and_then(Value::as_object).filter(|c| !c.is_empty());
    let Some(content) = content else {
        if !body.is_empty() {
            let rule = format!(
                "status {status} documents no body; the answer has {} bytes{}",
                body.len(),
                sent.map(|media| format!(" of {media}")).unwrap_or_default()
            );
            out.push(Mismatch::new(MismatchKind::MediaType, "", rule));
        }
        return out;
    };
    if body.is_empty() {
        // A HEAD, or an answer that leaves its content out: nothing to read.
        return out;
    }
    let Some((media, entry)) = body_entry(content, sent, status, &mut out) else { return out };
    let Some(schema) = entry.get("schema") else { return out };
    if !playground_http::form::is_json(media) {
        // Only JSON bodies are read against their schemas; text of a string schema is the
        // string itself.
        return out;
    }
    body_mismatches(spec, schema, body, &mut out);
    out
}

/// The mismatch of a status the operation does not document, naming those it does.
pub(super) fn undocumented_status(op: &Operation, status: u16) -> Mismatch {
    let listed: Vec<String> = op.responses.iter().map(|(s, _)| s.to_ascii_lowercase()).collect();
    let rule = if listed.is_empty() {
        format!("status {status} is not documented: {} documents no response", op.id)
    } else {
        format!("status {status} is not documented: {} documents {}", op.id, listed.join(", "))
    };
    Mismatch::new(MismatchKind::Status, "", rule)
}

/// The documented media type and content entry the answer's body is read as, given the
/// Content-Type `sent`; a missing or undocumented Content-Type is a mismatch added to `out`.
pub(super) fn body_entry<'a>(
    content: &'a Map<String, Value>,
    sent: Option<&str>,
    status: u16,
    out: &mut Vec<Mismatch>,
) -> Option<(&'a str, &'a Value)> {
    let documented: Vec<&str> = content.keys().map(String::as_str).collect();
    match sent {
        None => {
            out.push(Mismatch::new(
                MismatchKind::MediaType,
                "",
                format!(
                    "the answer has no Content-Type; status {status} documents {}",
                    documented.join(", ")
                ),
            ));
            content
                .iter()
                .find(|(media, _)| playground_http::form::is_json(media))
                .map(|(m, e)| (m.as_str(), e))
        }
        Some(sent) => match content.iter().find(|(media, _)| params::media_matches(media, sent)) {
            Some((media, entry)) => Some((media.as_str(), entry)),
            None => {
                out.push(Mismatch::new(
                    MismatchKind::MediaType,
                    "",
                    format!(
                        "media type {} is not documented for status {status}; it documents {}",
                        sent.split(';').next().unwrap_or_default().trim(),
                        documented.join(", ")
                    ),
                ));
                // The body is still read as the type it says it is, when that is JSON and
                // the status documents a JSON schema: a wrong label on the right data is one
                // mismatch, not two.
                let json_sent = playground_http::form::is_json(sent);
                content
                    .iter()
                    .find(|(media, _)| json_sent && playground_http::form::is_json(media))
                    .map(|(m, e)| (m.as_str(), e))
            }
        },
    }
}

/// The mismatches of a JSON `body` against `schema`, added to `out` up to [`MAX_MISMATCHES`]
/// in all: a body too large to check, one that is not JSON, or what breaks the schema.
pub(super) fn body_mismatches(spec: &Spec, schema: &Value, body: &[u8], out: &mut Vec<Mismatch>) {
    if body.len() > MAX_CHECKED_BODY {
        out.push(Mismatch::new(
            MismatchKind::Body,
            "",
            format!(
                "the body is {} bytes; only bodies up to {MAX_CHECKED_BODY} bytes are checked",
                body.len()
            ),
        ));
        return;
    }
    let value: Value = match serde_json::from_slice(body) {
        Ok(value) => value,
        Err(error) => {
            out.push(Mismatch::new(MismatchKind::Body, "", format!("the body is not JSON: {error}")));
            return;
        }
    };
    let validator = spec.validator().direction(Direction::Response);
    let room = MAX_MISMATCHES.saturating_sub(out.len());
    for problem in validator.problems(schema, &value, "", room.max(1)) {
        let pointer: String = problem
            .at
            .iter()
            .map(|step| match step {
                Step::Field(name) => format!("/{}", escape(name)),
                Step::Item(index) => format!("/{index}"),
            })
            .collect();
        let rule = match (problem.keyword, problem.expected) {
            ("type", Some(expected)) => {
                format!("expected {expected}, got {}", json_type(value_at(&value, &problem.at)))
            }
            ("required", _) => "required, missing".to_owned(),
            _ => problem.message,
        };
        out.push(Mismatch::new(MismatchKind::Body, pointer, rule));
    }
}

/// The documented headers of a response: a required one missing, or one whose value breaks
/// its schema.
pub(super) fn header_mismatches(
    spec: &Spec,
    status: u16,
    response: &Value,
    headers: &[(String, String)],
) -> Vec<Mismatch> {
    let mut out = Vec::new();
    let documented = response.get("headers").and_then(Value::as_object).into_iter().flatten();
    for (name, header) in documented {
        // OpenAPI: a `Content-Type` header here is ignored (the content says it).
        if name.eq_ignore_ascii_case("content-type") {
            continue;
        }
        let Ok(header) = resolve(&spec.doc, header) else { continue };
        let values: Vec<&str> =
            headers.iter().filter(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str()).collect();
        if values.is_empty() {
            if header.get("required").and_then(Value::as_bool) == Some(true) {
                out.push(Mismatch::new(
                    MismatchKind::Header,
                    "",
                    format!("required header {name} of status {status} is missing"),
                ));
            }
            continue;
        }
        let Some(schema) = header.get("schema") else { continue };
        let schema = resolve(&spec.doc, schema).unwrap_or(schema);
        let joined = values.join(",");
        let is_list = playground_openapi::schema::primary_type(schema) == Some("array");
        let read = if is_list {
            let items = schema.get("items").unwrap_or(&Value::Bool(true));
            joined
                .split(',')
                .map(|part| crate::text_values::scalar(spec, items, part.trim()))
                .collect::<Result<Vec<Value>, String>>()
                .map(Value::Array)
        } else {
            crate::text_values::scalar(spec, schema, joined.trim())
        };
        let label = format!("header {name}");
        let broken = match read {
            Err(why) => Some(format!("{label} {why}")),
            Ok(value) => spec.validator().direction(Direction::Response).check(schema, &value, &label).err(),
        };
        if let Some(rule) = broken {
            out.push(Mismatch::new(MismatchKind::Header, "", rule.trim_end_matches('.').to_owned()));
        }
    }
    out
}

/// The value at `at`, or the deepest one on the way.
pub(super) fn value_at<'v>(value: &'v Value, at: &[Step]) -> &'v Value {
    let mut current = value;
    for step in at {
        let next = match (step, current) {
            (Step::Field(name), Value::Object(fields)) => fields.get(name),
            (Step::Item(i), Value::Array(items)) => items.get(*i),
            _ => None,
        };
        match next {
            Some(next) => current = next,
            None => break,
        }
    }
    current
}

/// JSON Schema's name for a value's type.
pub(super) fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// A field name as a JSON pointer step (RFC 6901: `~` as `~0`, `/` as `~1`).
pub(super) fn escape(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}
