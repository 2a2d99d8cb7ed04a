//! Why a request failed, and the answer that says so.
//!
//! The codes are the Petstore's (`invalid_parameter`, `malformed_json`, `not_found`,
//! `method_not_allowed`, `payload_too_large`, `unsupported_media_type`, `validation_failed`,
//! `conflict`) plus `unauthorized` and `storage_full`. The body is the Error object
//! `{code, message, status}`, unless the operation documents another shape for that status: then
//! the answer has the document's shape, with the message in its message-like fields, so that a
//! client written against the document can read it; a shape that lists problems (FastAPI's
//! `detail`) gets one entry per problem ([`super::problems`]).

use playground_openapi::json::Key;
use serde_json::{Value, json};

use super::problems::{MAX_PROBLEMS, Problem};
use super::spec::{Operation, Spec};
use playground_http::Response;
use playground_openapi::schema::Direction;

/// A refused request, answered with the Error object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// The status, or the one the operation documents for this kind of refusal.
    pub status: u16,
    /// The Error object's `code` (`validation_failed`, `not_found`, ...).
    pub code: &'static str,
    /// The Error object's `message`, naming what was wrong.
    pub message: String,
    /// Extra headers: `Allow` for 405, `WWW-Authenticate` for 401.
    pub headers: Vec<(String, String)>,
    /// Each problem of a refused request, where they are known (the first is the one the
    /// message names), at most [`MAX_PROBLEMS`]: for error shapes that list them.
    pub problems: Vec<Problem>,
}

impl Failure {
    fn new(status: u16, code: &'static str, message: impl Into<String>) -> Self {
        Self { status, code, message: message.into(), headers: Vec::new(), problems: Vec::new() }
    }

    /// A business rule's refusal ([`super::Rules`]): its status, code and message as they are.
    pub fn rule(status: u16, code: &'static str, message: impl Into<String>) -> Self {
        Self::new(status, code, message)
    }

    /// The failure with these problems too (kept to [`MAX_PROBLEMS`]).
    #[must_use]
    pub(crate) fn with_problems(mut self, problems: impl IntoIterator<Item = Problem>) -> Self {
        let room = MAX_PROBLEMS.saturating_sub(self.problems.len());
        self.problems.extend(problems.into_iter().take(room));
        self
    }

    /// The failure as one problem at `loc`, of pydantic's `kind`, in the failure's words.
    #[must_use]
    pub(crate) fn at(self, loc: &[&str], kind: &'static str, input: Option<Value>) -> Self {
        let loc = loc.iter().map(|part| Value::from(*part)).collect();
        let problem = Problem { loc, kind, message: self.message.clone(), input };
        self.with_problems([problem])
    }

    pub(crate) fn parameter(message: String) -> Self {
        Self::new(400, "invalid_parameter", message)
    }

    pub(crate) fn malformed(message: String) -> Self {
        Self::new(400, "malformed_json", message)
    }

    pub(crate) fn media_type(message: String) -> Self {
        Self::new(415, "unsupported_media_type", message)
    }

    pub(crate) fn too_large(body: super::OversizedBody, limit: usize) -> Self {
        let more = if body.exact { "" } else { "more than " };
        let size = body.size;
        Self::new(
            413,
            "payload_too_large",
            format!("The body is {more}{size} bytes; the limit is {limit} bytes."),
        )
    }

    pub(crate) fn not_found(message: String) -> Self {
        Self::new(404, "not_found", message)
    }

    pub(crate) fn conflict(message: String) -> Self {
        Self::new(409, "conflict", message)
    }

    pub(crate) fn storage_full(message: String) -> Self {
        Self::new(507, "storage_full", message)
    }

    pub(crate) fn method(message: String, allow: String) -> Self {
        let mut failure = Self::new(405, "method_not_allowed", message);
        failure.headers.push(("Allow".to_owned(), allow));
        failure
    }

    pub(crate) fn unauthorized(message: String, challenge: String) -> Self {
        let mut failure = Self::new(401, "unauthorized", message);
        failure.headers.push(("WWW-Authenticate".to_owned(), challenge));
        failure
    }

    /// A body that breaks its schema: 422 as the Petstore answers, or 400 when the operation
    /// documents 400 and not 422.
    pub(crate) fn validation(op: &Operation, message: String) -> Self {
        let status = if !documents(op, 422) && documents(op, 400) { 400 } else { 422 };
        Self::new(status, "validation_failed", message)
    }
}

/// Whether the operation documents this status exactly.
pub(crate) fn documents(op: &Operation, status: u16) -> bool {
    op.responses.iter().any(|(s, _)| *s == status.to_string())
}

/// The documented response for a status: the exact one, else its range (`4XX`), else
/// `default`.
pub(crate) fn documented(op: &Operation, status: u16) -> Option<&Value> {
    let exact = status.to_string();
    let range = format!("{}XX", status / 100);
    ["exact", "range", "default"].iter().find_map(|which| {
        let key = match *which {
            "exact" => exact.as_str(),
            "range" => range.as_str(),
            _ => "DEFAULT",
        };
        op.responses.iter().find(|(s, _)| s == key).map(|(_, r)| r)
    })
}

/// The status to answer a failure with: its own when the operation documents it (exactly, by
/// range or by `default`); else a documented status that means the same to a client (400 and
/// 422 for a refused request, 401 and 403, 410 for 404), so that a client written against the
/// document meets a status it handles; else its own, since the document leaves that failure out
/// (an operation with security that documents no 401, say). A conflict stays 409 (a client
/// must not read it as a bad request it could fix), and 401 stays 401: missing credentials
/// are not forbidden ones. The message still says what happened.
pub(crate) fn documented_status(op: &Operation, status: u16) -> u16 {
    if documented(op, status).is_some() {
        return status;
    }
    let alike: &[u16] = match status {
        404 => &[410],
        400 => &[422],
        422 => &[400],
        413 | 415 => &[400, 422],
        _ => &[],
    };
    alike.iter().copied().find(|s| documents(op, *s)).unwrap_or(status)
}

/// The answer for a failure: the Error object, or the document's shape for that status.
pub(crate) fn render(spec: &Spec, op: Option<&Operation>, failure: &Failure, seed: u64) -> Response {
    let status = op.map_or(failure.status, |op| documented_status(op, failure.status));
    let documented_failure;
    let failure = if status == failure.status {
        failure
    } else {
        documented_failure = Failure { status, ..failure.clone() };
        &documented_failure
    };
    let error = json!({"code": failure.code, "message": failure.message, "status": failure.status});
    let content = op.and_then(|op| documented(op, failure.status)).and_then(|r| r.key("content"));
    let schema = content.and_then(|c| super::resources::json_schema(spec, c));
    // The document's JSON media type for this status (`application/problem+json`), if any.
    let media = content
        .and_then(Value::as_object)
        .and_then(|c| c.keys().find(|m| playground_http::form::is_json(m) && !m.contains('*')))
        .map_or("application/json", String::as_str);
    // A shape that lists problems (FastAPI's `detail`) for a refused request: one entry each.
    let listed = schema
        .filter(|s| matches!(failure.status, 400 | 422) && super::problems::lists_problems(spec, s))
        .and_then(|s| super::problems::listed(spec, s, &failure.problems, failure.code, &failure.message));
    let body = match (listed, schema) {
        (Some(listed), _) => listed,
        (None, Some(schema))
            if spec.validator().direction(Direction::Response).check(schema, &error, "").is_err() =>
        {
            shaped(spec, schema, failure, seed).unwrap_or(error)
        }
        _ => error,
    };
    let mut headers = vec![("Content-Type".to_owned(), media.to_owned())];
    headers.extend(failure.headers.iter().cloned());
    Response { status: failure.status, headers, body: serde_json::to_vec(&body).unwrap_or_default() }
}

/// A value of the documented error schema with the failure's message, code and status in the
/// fields that take them (in a wrapping object too: Stripe's `{"error": {"message": ...}}`);
/// `None` when such a value does not validate.
fn shaped(spec: &Spec, schema: &Value, failure: &Failure, seed: u64) -> Option<Value> {
    let mut value = super::generate::generate(&spec.doc, schema, seed, Direction::Response).value;
    fill(spec, schema, &mut value, failure, 0);
    let valid = spec.validator().direction(Direction::Response).check(schema, &value, "").is_ok();
    valid.then_some(value)
}

/// Puts the failure's message, code and status into the fields of `value` (of `schema`) that
/// take them, each kept only where `value` still validates; then into its object fields, two
/// levels down at most.
fn fill(spec: &Spec, schema: &Value, value: &mut Value, failure: &Failure, depth: usize) {
    let Value::Object(fields) = value else { return };
    let validator = spec.validator().direction(Direction::Response);
    for (name, prop) in super::resources::properties(spec, schema) {
        let resolved = playground_openapi::pointer::resolve(&spec.doc, prop).ok();
        let kind = resolved.and_then(|p| playground_openapi::schema::primary_type(p));
        let lower = name.to_ascii_lowercase();
        let candidate = match (lower.as_str(), kind) {
            (
                "message" | "detail" | "details" | "error_description" | "description" | "title" | "error"
                | "reason",
                Some("string"),
            ) => Value::String(failure.message.clone()),
            ("code" | "error_code" | "errorcode" | "type", Some("string")) => {
                Value::String(failure.code.to_owned())
            }
            ("code" | "status" | "statuscode" | "status_code", Some("integer" | "number")) => {
                Value::from(failure.status)
            }
            (_, Some("object")) if depth < 2 => {
                if let (Some(inner), Some(prop)) = (fields.get_mut(name), resolved) {
                    let before = inner.clone();
                    fill(spec, prop, inner, failure, depth + 1);
                    if validator.check(prop, inner, "").is_err() {
                        *inner = before;
                    }
                }
                continue;
            }
            _ => continue,
        };
        let previous = fields.insert(name.to_owned(), candidate);
        if validator.check(schema, &Value::Object(fields.clone()), "").is_err() {
            match previous {
                Some(previous) => fields.insert(name.to_owned(), previous),
                None => fields.remove(name),
            };
        }
    }
}
