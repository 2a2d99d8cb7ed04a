//! JSON values named in messages.

use serde_json::Value;

/// What a JSON value is, in words ("a list", "a string"), for messages about the wrong kind.
pub fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}
