//! Reading a schema the same way whatever the document's version: OpenAPI 3.0's dialect
//! (`nullable`, boolean `exclusiveMinimum`, one `type`) and JSON Schema 2020-12 as OpenAPI 3.1
//! and 3.2 use it (`type` lists with `"null"`, numeric `exclusiveMinimum`, `const`,
//! `examples`). The reference's views, its example generator and the try-it form's checks all
//! ask here.

use serde_json::{Map, Value};

/// The types a schema allows, without `"null"`, and whether it allows `null`: `type: "string"`,
/// `type: ["string", "null"]` (3.1) and `nullable: true` (3.0) are all read.
#[must_use]
pub fn types(schema: &Value) -> (Vec<&str>, bool) {
    let nullable = schema.get("nullable").and_then(Value::as_bool).unwrap_or(false);
    match schema.get("type") {
        Some(Value::String(t)) if t == "null" => (Vec::new(), true),
        Some(Value::String(t)) => (vec![t.as_str()], nullable),
        Some(Value::Array(list)) => {
            let names: Vec<&str> = list.iter().filter_map(Value::as_str).collect();
            let null = names.contains(&"null");
            (names.into_iter().filter(|t| *t != "null").collect(), nullable || null)
        }
        _ => (Vec::new(), nullable),
    }
}

/// The schema's type for checking and examples: the first one it names other than `null`,
/// else `object` when it has `properties` and `array` when it has `items` or `prefixItems`.
#[must_use]
pub fn primary_type(schema: &Value) -> Option<&str> {
    if let Some(first) = types(schema).0.first() {
        return Some(first);
    }
    let has = |key: &str| schema.get(key).is_some();
    if has("properties") {
        Some("object")
    } else if has("items") || has("prefixItems") {
        Some("array")
    } else {
        None
    }
}

/// The only values allowed: `enum`, or `const` as a list of one.
#[must_use]
pub fn allowed_values(schema: &Value) -> Option<Vec<Value>> {
    if let Some(value) = schema.get("const") {
        return Some(vec![value.clone()]);
    }
    schema.get("enum").and_then(Value::as_array).cloned()
}

/// A bound of a number: the value as the document writes it, and whether it is exclusive.
#[derive(Debug, Clone, PartialEq)]
pub struct Bound {
    /// The bound.
    pub value: f64,
    /// The number as written (`5`, `0.5`), for messages.
    pub written: String,
    /// `>` or `<` rather than `≥` or `≤`.
    pub exclusive: bool,
}

/// The lower bound: `minimum` (exclusive with 3.0's `exclusiveMinimum: true`) or 3.1's
/// numeric `exclusiveMinimum`, whichever is tighter.
#[must_use]
pub fn lower_bound(schema: &Value) -> Option<Bound> {
    bound(schema, "minimum", "exclusiveMinimum", |a, b| a > b)
}

/// The upper bound, as [`lower_bound`] with `maximum` and `exclusiveMaximum`.
#[must_use]
pub fn upper_bound(schema: &Value) -> Option<Bound> {
    bound(schema, "maximum", "exclusiveMaximum", |a, b| a < b)
}

fn bound(schema: &Value, inclusive: &str, exclusive: &str, tighter: fn(f64, f64) -> bool) -> Option<Bound> {
    let number = |key: &str| {
        let value = schema.get(key)?;
        Some((value.as_f64()?, value.to_string()))
    };
    let flagged = schema.get(exclusive).and_then(Value::as_bool).unwrap_or(false);
    let plain = number(inclusive).map(|(value, written)| Bound { value, written, exclusive: flagged });
    let strict = number(exclusive).map(|(value, written)| Bound { value, written, exclusive: true });
    match (plain, strict) {
        (Some(a), Some(b)) => Some(if tighter(b.value, a.value) || b.value == a.value { b } else { a }),
        (a, b) => a.or(b),
    }
}

/// A schema's `$ref` target with the reference's sibling keywords laid over it (OpenAPI 3.1
/// allows `{"$ref": ..., "description": ...}`; the siblings win); `None` when `value` has no
/// siblings besides `$ref`.
#[must_use]
pub fn with_siblings(value: &Value, target: &Value) -> Option<Value> {
    let fields = value.as_object()?;
    if fields.len() < 2 {
        return None;
    }
    let mut merged: Map<String, Value> = target.as_object().cloned().unwrap_or_default();
    for (key, sibling) in fields {
        if key != "$ref" {
            merged.insert(key.clone(), sibling.clone());
        }
    }
    Some(Value::Object(merged))
}

/// The first schema-level example: `example` (3.0), or the first of `examples` (3.1).
#[must_use]
pub fn example(schema: &Value) -> Option<&Value> {
    schema
        .get("example")
        .or_else(|| schema.get("examples").and_then(Value::as_array).and_then(|list| list.first()))
}

/// Which way a value travels, for `readOnly` and `writeOnly`: a request need not carry (and a
/// generated request value leaves out) `readOnly` properties; a response need not carry
/// `writeOnly` ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Direction {
    /// Sent by the client: `readOnly` properties are neither required nor generated.
    Request,
    /// Sent by the server: `writeOnly` properties are neither required nor generated.
    #[default]
    Response,
}
