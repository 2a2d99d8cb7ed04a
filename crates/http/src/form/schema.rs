//! The fields of a form body, read from its schema: a text field, a file or several files per
//! property.

use super::*;

/// What kind of input a form field takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SpecKind {
    /// A text input.
    Text,
    /// One file.
    File,
    /// Any number of files (an array of binary strings).
    Files,
}

/// A field a form offers, read from its schema by [`fields_from_schema`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FormFieldSpec {
    /// The property's name.
    pub name: String,
    /// Whether the schema's `required` lists it.
    pub required: bool,
    /// The input it takes.
    pub kind: SpecKind,
    /// The property's `description`.
    pub description: Option<String>,
    /// A value to start a text field with: the property's `example`, first `examples` entry,
    /// `default`, first `enum` entry or `const`, as text (objects and arrays as JSON text).
    pub example: Option<String>,
    /// A list of values (`type: array`, not of files): sent as one field per item, the way
    /// OpenAPI's default form encoding (`style: form`, `explode: true`) writes it.
    #[serde(default)]
    pub list: bool,
}

impl FormFieldSpec {
    /// The fields this field's `text` is sent as: for a [`FormFieldSpec::list`] whose text is
    /// a JSON array, one per item (text as it is, other values as JSON); else the text, once.
    #[must_use]
    pub fn values_of(&self, text: &str) -> Vec<String> {
        let items = self
            .list
            .then(|| serde_json::from_str::<Vec<Value>>(text).ok())
            .flatten()
            .filter(|items| items.len() <= MAX_FIELDS);
        match items {
            Some(items) => items
                .into_iter()
                .map(|item| match item {
                    Value::String(text) => text,
                    other => other.to_string(),
                })
                .collect(),
            None => vec![text.to_owned()],
        }
    }
}

/// Whether a property schema describes a file: a string with `format: binary` or `base64`, or
/// with a `contentMediaType` or `contentEncoding` (OpenAPI 3.1).
fn is_binary(schema: &Value) -> bool {
    let Some(map) = schema.as_object() else { return false };
    let string_typed = match map.get("type") {
        None => true,
        Some(Value::String(t)) => t == "string",
        Some(Value::Array(types)) => types.iter().any(|t| t == "string"),
        Some(_) => false,
    };
    let format = map.get("format").and_then(Value::as_str);
    string_typed
        && (matches!(format, Some("binary" | "base64"))
            || map.contains_key("contentMediaType")
            || map.contains_key("contentEncoding"))
}

/// Whether a property schema is an array of files.
fn is_file_array(schema: &Value) -> bool {
    let typed_array = match schema.get("type") {
        Some(Value::String(t)) => t == "array",
        Some(Value::Array(types)) => types.iter().any(|t| t == "array"),
        _ => false,
    };
    (typed_array || schema.get("items").is_some()) && schema.get("items").is_some_and(is_binary)
}

/// A schema value as the text of a text input: strings as they are, other values as JSON.
fn as_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The example text of a property: `example`, the first `examples`, `default`, the first `enum`
/// entry, then `const`.
fn example_of(schema: &Value) -> Option<String> {
    let first = |key: &str| schema.get(key).and_then(Value::as_array).and_then(|a| a.first());
    schema
        .get("example")
        .or_else(|| first("examples"))
        .or_else(|| schema.get("default"))
        .or_else(|| first("enum"))
        .or_else(|| schema.get("const"))
        .map(as_text)
}

/// Whether a property schema is a list (`type: array`, or a list of types with it).
fn is_list(schema: &Value) -> bool {
    match schema.get("type") {
        Some(Value::String(t)) => t == "array",
        Some(Value::Array(types)) => types.iter().any(|t| t == "array"),
        _ => false,
    }
}

/// The fields of a form whose body schema is `schema`: one per entry of its `properties`, in
/// order, at most [`MAX_FIELDS`]. A schema without `properties` (or a `$ref` not resolved by
/// the caller) offers none.
#[must_use]
pub fn fields_from_schema(schema: &Value) -> Vec<FormFieldSpec> {
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else { return Vec::new() };
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    properties
        .iter()
        .take(MAX_FIELDS)
        .map(|(name, property)| {
            let kind = if is_binary(property) {
                SpecKind::File
            } else if is_file_array(property) {
                SpecKind::Files
            } else {
                SpecKind::Text
            };
            FormFieldSpec {
                name: name.clone(),
                required: required.contains(&name.as_str()),
                kind,
                description: property.get("description").and_then(Value::as_str).map(str::to_owned),
                example: if kind == SpecKind::Text { example_of(property) } else { None },
                list: kind == SpecKind::Text && is_list(property),
            }
        })
        .collect()
}
