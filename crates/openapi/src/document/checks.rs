//! The checks that decide whether a document can be shown, and the error each failure gives.

use serde_json::{Map, Value};

use super::error::DocumentError;
use crate::catalog::{Catalog, CatalogError};
pub use crate::json::kind;

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
    let reason = message.split(" at line ").next().unwrap_or(&message);
    let reason = if reason == "recursion limit exceeded" {
        "it nests values more than 128 levels deep, deeper than this reader follows"
    } else {
        reason
    }
    .to_owned();
    DocumentError::Json { reason, line: error.line(), column: error.column() }
}

/// Checks that `doc` is an OpenAPI 3.0, 3.1 or 3.2 document the reference can show, and lists
/// it.
///
/// # Errors
/// The first problem found: not an object, a Swagger or other OpenAPI version, no `openapi`,
/// `info` (with `title` and `version`), no `paths` (3.0) or nothing described (3.1 and later),
/// or a listed field of the wrong type.
pub fn validate(doc: &Value) -> Result<Catalog, DocumentError> {
    check_shape(doc)?;
    Catalog::from_value(doc).map_err(listing_error)
}

/// The checks of [`validate`] before the list is made.
pub(super) fn check_shape(doc: &Value) -> Result<(), DocumentError> {
    let Value::Object(fields) = doc else {
        return Err(DocumentError::NotAnObject(kind(doc)));
    };
    let version = check_root(fields)?;
    // `components` of the wrong kind is ignored (a reference into it would not resolve).
    for name in ["paths", "webhooks"] {
        if let Some(value) = fields.get(name).filter(|v| !v.is_object()) {
            return Err(DocumentError::NotAnObjectAt { pointer: format!("/{name}"), found: kind(value) });
        }
    }
    check_described(version, Described::of(fields))
}

/// Why a document could not be listed, in the reader's words.
pub(super) fn listing_error(error: CatalogError) -> DocumentError {
    match error {
        CatalogError::NotAnObject { pointer, found } => DocumentError::NotAnObjectAt { pointer, found },
        CatalogError::Malformed(reason) => DocumentError::Shape(reason),
        other @ CatalogError::UnsupportedVersion(_) => DocumentError::Shape(other.to_string()),
    }
}

/// The OpenAPI version of a document, as far as the rules differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Version {
    /// 3.0.x: `paths` is required; schemas are OpenAPI's own dialect (`nullable`, boolean
    /// `exclusiveMinimum`).
    V30,
    /// 3.1.x and 3.2.x: `paths`, `webhooks` and `components` are each optional, at least one
    /// is there; schemas are JSON Schema 2020-12.
    V31,
}

/// Which of the fields that describe something a document has (each an object).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Described {
    /// `paths`.
    pub paths: bool,
    /// `webhooks`.
    pub webhooks: bool,
    /// `components`, with at least one kind in it.
    pub components: bool,
}

impl Described {
    fn of(fields: &Map<String, Value>) -> Self {
        let object = |name: &str| fields.get(name).is_some_and(Value::is_object);
        let components = fields.get("components").and_then(Value::as_object).is_some_and(|c| !c.is_empty());
        Self { paths: object("paths"), webhooks: object("webhooks"), components }
    }
}

/// The checks of an indexed document's root fields (see [`check_root`]) and of what it
/// describes.
pub(super) fn check_index(root: &Map<String, Value>, described: Described) -> Result<Version, DocumentError> {
    let version = check_root(root)?;
    check_described(version, described)?;
    Ok(version)
}

/// OpenAPI 3.0 requires `paths`; 3.1 and later require one of `paths`, `webhooks` and
/// `components`.
fn check_described(version: Version, described: Described) -> Result<(), DocumentError> {
    match version {
        Version::V30 if !described.paths => Err(DocumentError::MissingPaths),
        Version::V31 if !(described.paths || described.webhooks || described.components) => {
            Err(DocumentError::Nothing)
        }
        _ => Ok(()),
    }
}

/// The checks of the root fields: an OpenAPI 3.0 to 3.2 version, and `info` with title and
/// version.
pub(super) fn check_root(fields: &Map<String, Value>) -> Result<Version, DocumentError> {
    let version = match (fields.get("openapi"), fields.get("swagger")) {
        (Some(Value::String(v)), _) => {
            version_of(v).ok_or_else(|| DocumentError::UnsupportedVersion(v.clone()))?
        }
        (Some(other), _) => {
            return Err(DocumentError::MissingVersion(format!(
                " (it is {} there, where a text such as \"3.1.0\" belongs)",
                kind(other)
            )));
        }
        (None, Some(v)) => {
            let version = v.as_str().map_or_else(|| v.to_string(), str::to_owned);
            return Err(DocumentError::Swagger(version));
        }
        (None, None) => return Err(DocumentError::MissingVersion(String::new())),
    };
    let Some(Value::Object(info)) = fields.get("info") else {
        return Err(DocumentError::MissingInfo);
    };
    for field in ["title", "version"] {
        if !info.get(field).is_some_and(Value::is_string) {
            return Err(DocumentError::MissingInfoField(field));
        }
    }
    Ok(version)
}

/// The version family of an `openapi` field: `3.0`, `3.1` or `3.2`, alone or followed by a
/// `.` and more (`3.1.0`, `3.0.4-rc`); `None` for anything else (`3.10.0`, `4.0.0`).
fn version_of(version: &str) -> Option<Version> {
    let family = |prefix: &str| {
        version.strip_prefix(prefix).is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
    };
    if family("3.0") {
        Some(Version::V30)
    } else if family("3.1") || family("3.2") {
        Some(Version::V31)
    } else {
        None
    }
}
