//! The problems of a refused request one by one, for the error shapes that list them:
//! FastAPI's `HTTPValidationError`, `{"detail": [{"loc": [..], "msg": "..", "type": ".."}]}`,
//! recognized by its shape (whatever its name), is filled with one entry per problem, as FastAPI
//! answers: `loc` is `body` and the path into it, or the parameter's place and name; `type` is
//! pydantic's code for the rule (`missing`, `string_type`, `string_pattern_mismatch`, ...);
//! `msg` is the mock's sentence.

use playground_openapi::json::Key;
use serde_json::{Map, Value, json};

use super::spec::{Location, Spec};
use playground_openapi::pointer::resolve;
use playground_openapi::schema::Direction;
use playground_validate::Step;

/// The most problems one refusal lists.
pub const MAX_PROBLEMS: usize = 50;

/// One problem of a refused request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// Where, as FastAPI writes it: `"body"` and the field names and item indexes into the
    /// body, or the parameter's place (`"query"`, `"path"`, `"header"`, `"cookie"`) and name.
    pub loc: Vec<Value>,
    /// The rule broken, in pydantic's codes (`missing`, `string_type`, `int_parsing`,
    /// `greater_than_equal`, `json_invalid`, ...; `value_error` for the others).
    pub kind: &'static str,
    /// What was wrong, in the mock's words.
    pub message: String,
    /// The value refused (the object that lacks a field), when it is small: FastAPI's `input`.
    pub input: Option<Value>,
}

/// The place of a parameter in a `loc`.
pub(crate) fn place(location: Location) -> &'static str {
    match location {
        Location::Path => "path",
        Location::Query => "query",
        Location::Header => "header",
        Location::Cookie => "cookie",
    }
}

/// The validator's problems of `value`, placed under `loc` (`["body"]`, `["query", "limit"]`).
pub(crate) fn from_validator(
    found: Vec<playground_validate::Problem>,
    loc: &[Value],
    value: &Value,
) -> Vec<Problem> {
    found
        .into_iter()
        .take(MAX_PROBLEMS)
        .map(|p| {
            let input = small(value_at(value, &p.at)).cloned();
            let steps = p.at.into_iter().map(|step| match step {
                Step::Field(name) => Value::String(name),
                Step::Item(i) => Value::from(i),
            });
            let kind = kind(p.keyword, p.expected);
            Problem { loc: loc.iter().cloned().chain(steps).collect(), kind, message: p.message, input }
        })
        .collect()
}

/// The value at `at` in `value`, or the deepest one on the way there (the object a missing
/// field belongs in).
fn value_at<'v>(value: &'v Value, at: &[Step]) -> &'v Value {
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

/// `value` when it is small enough to repeat in an answer (at most 64 values and 1,000
/// characters of text in all).
fn small(value: &Value) -> Option<&Value> {
    fn fits(value: &Value, budget: &mut usize) -> bool {
        let cost = match value {
            Value::String(text) => 1 + text.len(),
            _ => 16,
        };
        if *budget < cost {
            return false;
        }
        *budget -= cost;
        match value {
            Value::Array(items) => items.iter().all(|item| fits(item, budget)),
            Value::Object(fields) => fields.iter().all(|(name, item)| {
                *budget = budget.saturating_sub(name.len());
                fits(item, budget)
            }),
            _ => true,
        }
    }
    let mut budget = 1_000;
    fits(value, &mut budget).then_some(value)
}

/// Pydantic's code for a validator keyword (and the type expected, for `type`).
fn kind(keyword: &str, expected: Option<&str>) -> &'static str {
    match (keyword, expected) {
        ("required", _) => "missing",
        ("type", Some("string")) => "string_type",
        ("type", Some("integer")) => "int_type",
        ("type", Some("number")) => "float_type",
        ("type", Some("boolean")) => "bool_type",
        ("type", Some("array")) => "list_type",
        ("type", Some("object")) => "dict_type",
        ("type", Some("null")) => "none_required",
        ("pattern", _) => "string_pattern_mismatch",
        ("minLength", _) => "string_too_short",
        ("maxLength", _) => "string_too_long",
        ("minimum", _) => "greater_than_equal",
        ("exclusiveMinimum", _) => "greater_than",
        ("maximum", _) => "less_than_equal",
        ("exclusiveMaximum", _) => "less_than",
        ("multipleOf", _) => "multiple_of",
        ("enum", _) => "enum",
        ("const", _) => "literal_error",
        ("minItems", _) => "too_short",
        ("maxItems", _) => "too_long",
        ("additionalProperties" | "unevaluatedProperties", _) => "extra_forbidden",
        _ => "value_error",
    }
}

/// Pydantic's code for parameter text that cannot be read as its schema's type
/// (`text_values::scalar`'s refusals).
pub(crate) fn unreadable(spec: &Spec, schema: &Value, message: &str) -> &'static str {
    if message.starts_with("must be a multiple of") {
        return "multiple_of";
    }
    let schema = resolve(&spec.doc, schema).unwrap_or(schema);
    match playground_openapi::schema::primary_type(schema) {
        Some("integer") => "int_parsing",
        Some("number") => "float_parsing",
        Some("boolean") => "bool_parsing",
        _ => "value_error",
    }
}

/// Body text that is not JSON: FastAPI's `json_invalid`, placed at the character where reading
/// stopped.
pub(crate) fn json_invalid(bytes: &[u8], error: &serde_json::Error, message: String) -> Problem {
    let text = String::from_utf8_lossy(bytes);
    let before: usize =
        text.split('\n').take(error.line().saturating_sub(1)).map(|l| l.chars().count() + 1).sum();
    let at = before + error.column().saturating_sub(1);
    Problem {
        loc: vec![Value::from("body"), Value::from(at)],
        kind: "json_invalid",
        message,
        input: Some(json!({})),
    }
}

/// Whether `schema` is FastAPI's `HTTPValidationError` in shape: an object whose `detail` is a
/// list of objects with `loc`, `msg` and `type`.
pub(crate) fn lists_problems(spec: &Spec, schema: &Value) -> bool {
    let property = |schema, name| super::text_values::property_schema(spec, schema, name);
    let Some(detail) = property(schema, "detail") else { return false };
    let Ok(detail) = resolve(&spec.doc, detail) else { return false };
    if playground_openapi::schema::primary_type(detail) != Some("array") {
        return false;
    }
    let Some(item) = detail.key("items") else { return false };
    ["loc", "msg", "type"].iter().all(|name| property(item, name).is_some())
}

/// The answer in FastAPI's shape: one entry per problem of a failure (or, when it lists none,
/// one naming the whole failure by its `code` and `message`), with their `input`s where the
/// document's schema takes them; `None` when no such answer validates.
pub(crate) fn listed(
    spec: &Spec,
    schema: &Value,
    problems: &[Problem],
    code: &str,
    message: &str,
) -> Option<Value> {
    let fallback;
    let problems = if problems.is_empty() {
        let loc = match code {
            "validation_failed" | "malformed_json" | "payload_too_large" | "unsupported_media_type" => {
                vec![Value::from("body")]
            }
            _ => Vec::new(),
        };
        fallback = [Problem { loc, kind: "value_error", message: message.to_owned(), input: None }];
        &fallback[..]
    } else {
        problems
    };
    let validator = spec.validator().direction(Direction::Response);
    let inputs = problems.iter().any(|p| p.input.is_some());
    [true, false].into_iter().filter(|with_input| inputs || !with_input).find_map(|with_input| {
        let detail: Vec<Value> = problems
            .iter()
            .take(MAX_PROBLEMS)
            .map(|p| {
                let mut entry = Map::new();
                entry.insert("type".to_owned(), Value::from(p.kind));
                entry.insert("loc".to_owned(), Value::Array(p.loc.clone()));
                entry.insert("msg".to_owned(), Value::String(p.message.clone()));
                if let (true, Some(input)) = (with_input, &p.input) {
                    entry.insert("input".to_owned(), input.clone());
                }
                Value::Object(entry)
            })
            .collect();
        let body = json!({ "detail": detail });
        validator.check(schema, &body, "").is_ok().then_some(body)
    })
}
