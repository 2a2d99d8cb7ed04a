//! Why a Swagger 2.0 document could not be converted: one sentence per problem, naming where it
//! is as a JSON pointer into the input.

use serde_json::Value;

use super::MAX_DEPTH;

/// Why a document could not be converted. Each message is a full sentence for the reader; the
/// `pointer` fields are JSON pointers (RFC 6901) into the input document, `""` for its root.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConvertError {
    /// The top level is not an object (names what it is instead).
    #[error("The document must be a JSON object; this one is {0}.")]
    NotAnObject(&'static str),
    /// No `swagger` field.
    #[error("The document has no `swagger` field, so it is not a Swagger 2.0 document.")]
    NotSwagger,
    /// An `openapi` field: the document is OpenAPI 3 (or later) already.
    #[error("This is an OpenAPI {0} document already; only Swagger 2.0 documents are converted.")]
    AlreadyOpenApi(String),
    /// A `swagger` version other than `"2.0"`.
    #[error(
        "This is a Swagger {0} document; only Swagger 2.0 documents (`\"swagger\": \"2.0\"`) are converted."
    )]
    UnsupportedVersion(String),
    /// A required field is absent.
    #[error("{} has no `{field}` {what}.", subject(.pointer))]
    Missing {
        /// The object that lacks the field.
        pointer: String,
        /// The field's name.
        field: &'static str,
        /// What the field should be, in words ("object", "text", ...).
        what: &'static str,
    },
    /// A field has the wrong JSON type.
    #[error("{} must be {expected}; it is {found}.", subject(.pointer))]
    WrongType {
        /// The field.
        pointer: String,
        /// What it should be, in words ("an object", "a text", ...).
        expected: &'static str,
        /// What it is, in words.
        found: &'static str,
    },
    /// An `in: body` parameter with no `schema`.
    #[error("{} is a body parameter without a schema.", subject(.pointer))]
    BodyWithoutSchema {
        /// The parameter.
        pointer: String,
    },
    /// A field whose text is not one of the values Swagger 2.0 defines for it.
    #[error("{} has `{field}: {value}`, which Swagger 2.0 does not define; it has {allowed}.", subject(.pointer))]
    UnknownValue {
        /// The object with the field.
        pointer: String,
        /// The field's name.
        field: &'static str,
        /// The value found.
        value: String,
        /// The values Swagger 2.0 defines, in words.
        allowed: &'static str,
    },
    /// Schemas nested deeper than the converter follows.
    #[error("{} is nested more than {MAX_DEPTH} schemas deep, deeper than the converter follows.", subject(.pointer))]
    TooDeep {
        /// The schema at the limit.
        pointer: String,
    },
}

/// `pointer` as the subject of a sentence: "The document" for the root, else the pointer.
fn subject(pointer: &str) -> String {
    if pointer.is_empty() { "The document".to_owned() } else { format!("`{pointer}`") }
}

/// What a JSON value is, in words ("a list", "a text"), for messages about the wrong kind.
pub(super) fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a text",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}
