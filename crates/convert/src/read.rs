//! Where a value is in the input (a JSON pointer, built as the conversion walks down and written
//! out only for an error or a note), and the typed reads of fields that fail with it.

use std::fmt::Write as _;

use serde_json::{Map, Value};

use super::error::{ConvertError, kind};

/// A place in the input document: its parent's place and its own key.
#[derive(Debug, Clone, Copy)]
pub(super) struct At<'a> {
    parent: Option<&'a At<'a>>,
    key: Key<'a>,
}

#[derive(Debug, Clone, Copy)]
enum Key<'a> {
    /// A pointer written out already (the root is `""`).
    Pointer(&'a str),
    /// A field of an object.
    Field(&'a str),
    /// An item of a list.
    Index(usize),
}

impl<'a> At<'a> {
    /// The document's root.
    pub(super) const ROOT: At<'static> = At { parent: None, key: Key::Pointer("") };

    /// The place `pointer` (a JSON pointer into the input).
    pub(super) fn pointer_of(pointer: &'a str) -> Self {
        At { parent: None, key: Key::Pointer(pointer) }
    }

    /// The field `name` of the object here.
    pub(super) fn field<'b>(&'b self, name: &'b str) -> At<'b> {
        At { parent: Some(self), key: Key::Field(name) }
    }

    /// The item `index` of the list here.
    pub(super) fn index(&self, index: usize) -> At<'_> {
        At { parent: Some(self), key: Key::Index(index) }
    }

    /// This place as a JSON pointer (`/paths/~1pets/get`).
    pub(super) fn pointer(&self) -> String {
        let mut keys = Vec::new();
        let mut at = Some(self);
        while let Some(here) = at {
            keys.push(here.key);
            at = here.parent;
        }
        let mut out = String::new();
        for key in keys.iter().rev() {
            match key {
                Key::Pointer(pointer) => out.push_str(pointer),
                Key::Field(name) => {
                    out.push('/');
                    out.push_str(&playground_openapi::pointer::escape_segment(name));
                }
                Key::Index(index) => {
                    let _ = write!(out, "/{index}");
                }
            }
        }
        out
    }

    /// This place in backticks, or "the document" for the root, for notes.
    pub(super) fn quoted(&self) -> String {
        let pointer = self.pointer();
        if pointer.is_empty() { "the document".to_owned() } else { format!("`{pointer}`") }
    }
}

/// The error for `value`, found at `at` where `expected` belongs.
pub(super) fn wrong(at: &At<'_>, expected: &'static str, value: &Value) -> ConvertError {
    ConvertError::WrongType { pointer: at.pointer(), expected, found: kind(value) }
}

/// `value` as an object.
pub(super) fn object<'v>(value: &'v Value, at: &At<'_>) -> Result<&'v Map<String, Value>, ConvertError> {
    value.as_object().ok_or_else(|| wrong(at, "an object", value))
}

/// The field `name`; `null` counts as absent (YAML writes an empty field so).
pub(super) fn field<'v>(map: &'v Map<String, Value>, name: &str) -> Option<&'v Value> {
    map.get(name).filter(|v| !v.is_null())
}

/// The field `name` of the object at `at`, when it is an object.
pub(super) fn opt_object<'v>(
    map: &'v Map<String, Value>,
    name: &str,
    at: &At<'_>,
) -> Result<Option<&'v Map<String, Value>>, ConvertError> {
    field(map, name).map(|v| object(v, &at.field(name))).transpose()
}

/// The field `name` of the object at `at`, when it is a list.
pub(super) fn opt_array<'v>(
    map: &'v Map<String, Value>,
    name: &str,
    at: &At<'_>,
) -> Result<Option<&'v Vec<Value>>, ConvertError> {
    field(map, name).map(|v| v.as_array().ok_or_else(|| wrong(&at.field(name), "a list", v))).transpose()
}

/// The field `name` of the object at `at`, when it is a text.
pub(super) fn opt_str<'v>(
    map: &'v Map<String, Value>,
    name: &str,
    at: &At<'_>,
) -> Result<Option<&'v str>, ConvertError> {
    field(map, name).map(|v| v.as_str().ok_or_else(|| wrong(&at.field(name), "a text", v))).transpose()
}

/// The field `name` of the object at `at`, when it is a boolean.
pub(super) fn opt_bool(
    map: &Map<String, Value>,
    name: &str,
    at: &At<'_>,
) -> Result<Option<bool>, ConvertError> {
    field(map, name).map(|v| v.as_bool().ok_or_else(|| wrong(&at.field(name), "a boolean", v))).transpose()
}

/// The text field `name`, which must be there.
pub(super) fn req_str<'v>(
    map: &'v Map<String, Value>,
    name: &'static str,
    at: &At<'_>,
) -> Result<&'v str, ConvertError> {
    opt_str(map, name, at)?.ok_or_else(|| ConvertError::Missing {
        pointer: at.pointer(),
        field: name,
        what: "text",
    })
}

/// The field `name`, when it is a list of texts.
pub(super) fn opt_strings<'v>(
    map: &'v Map<String, Value>,
    name: &str,
    at: &At<'_>,
) -> Result<Option<Vec<&'v str>>, ConvertError> {
    let Some(list) = opt_array(map, name, at)? else { return Ok(None) };
    let at = at.field(name);
    let texts =
        list.iter().enumerate().map(|(i, v)| v.as_str().ok_or_else(|| wrong(&at.index(i), "a text", v)));
    texts.collect::<Result<Vec<_>, _>>().map(Some)
}
