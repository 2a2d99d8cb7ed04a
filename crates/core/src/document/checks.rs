//! The checks that decide whether a document can be shown, and the error each failure gives.

use serde_json::{Map, Value};

use super::error::DocumentError;
use crate::catalog::Catalog;

/// What a JSON value is, in words ("a list", "a string"), for messages about the wrong kind.
fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// Parses JSON text (a byte order mark is skipped) to a value, keys in document order.
///
/// # Errors
/// [`DocumentError::Empty`], or [`DocumentError::Json`] with the line and column.
pub fn parse_json(bytes: &[u8]) -> Result<Value, DocumentError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(DocumentError::Empty);
    }
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let before = &bytes[..e.valid_up_to()];
        let line = before.iter().filter(|b| **b == b'\n').count() + 1;
        let column = before.iter().rev().take_while(|b| **b != b'\n').count() + 1;
        DocumentError::Json { reason: "the text is not UTF-8".into(), line, column }
    })?;
    // `from_str`, as for the embedded document: one JSON reader in the app, not two.
    serde_json::from_str(text).map_err(|e| syntax_error(&e))
}

/// A serde_json error as [`DocumentError::Json`]: its reason, line and column.
fn syntax_error(error: &serde_json::Error) -> DocumentError {
    let message = error.to_string();
    // serde_json appends " at line L column C"; the variant carries them apart.
    let reason = message.split(" at line ").next().unwrap_or(&message).to_owned();
    DocumentError::Json { reason, line: error.line(), column: error.column() }
}

/// Checks that `doc` is an OpenAPI 3.0 document the reference can show, and lists it.
///
/// # Errors
/// The first problem found: not an object, a Swagger or other OpenAPI version, no `openapi`,
/// `info` (with `title` and `version`) or `paths`, or a listed field of the wrong type.
pub fn validate(doc: &Value) -> Result<Catalog, DocumentError> {
    let Value::Object(fields) = doc else {
        return Err(DocumentError::NotAnObject(kind(doc)));
    };
    check_root(fields)?;
    if !fields.get("paths").is_some_and(Value::is_object) {
        return Err(DocumentError::MissingPaths);
    }
    Catalog::from_value(doc).map_err(|e| DocumentError::Shape(e.to_string()))
}

/// What indexing `text` failed on, in [`validate`]'s and [`parse_json`]'s words: not an object,
/// or `paths` not one (rare, and a failure anyway: parsing it whole gives the same message),
/// or a syntax error with its line and column.
pub(super) fn index_error(error: &serde_json::Error, text: &str) -> DocumentError {
    if error.is_data() {
        return whole_value_error(text);
    }
    syntax_error(error)
}

/// The error [`validate`] gives for a document that is not an object, or whose `paths` is not.
fn whole_value_error(text: &str) -> DocumentError {
    match parse_json(text.as_bytes()).and_then(|value| validate(&value)) {
        Err(error) => error,
        Ok(_) => DocumentError::MissingPaths,
    }
}

/// The checks of an indexed document's root fields (see [`check_root`]) and that it has `paths`.
pub(super) fn check_index(root: &Map<String, Value>, has_paths: bool) -> Result<(), DocumentError> {
    check_root(root)?;
    if has_paths { Ok(()) } else { Err(DocumentError::MissingPaths) }
}

/// The checks of the root fields: an OpenAPI 3.0 version, and `info` with title and version.
fn check_root(fields: &Map<String, Value>) -> Result<(), DocumentError> {
    match (fields.get("openapi"), fields.get("swagger")) {
        (Some(Value::String(v)), _) if is_openapi_30(v) => {}
        (Some(Value::String(v)), _) => return Err(DocumentError::UnsupportedVersion(v.clone())),
        (Some(other), _) => {
            return Err(DocumentError::MissingVersion(format!(
                " (it is {} there, where a text such as \"3.0.3\" belongs)",
                kind(other)
            )));
        }
        (None, Some(v)) => {
            let version = v.as_str().map_or_else(|| v.to_string(), str::to_owned);
            return Err(DocumentError::Swagger(version));
        }
        (None, None) => return Err(DocumentError::MissingVersion(String::new())),
    }
    let Some(Value::Object(info)) = fields.get("info") else {
        return Err(DocumentError::MissingInfo);
    };
    for field in ["title", "version"] {
        if !info.get(field).is_some_and(Value::is_string) {
            return Err(DocumentError::MissingInfoField(field));
        }
    }
    Ok(())
}

fn is_openapi_30(version: &str) -> bool {
    version.strip_prefix("3.0").is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
}
