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

/// Whether the schema allows integers and no other numbers (`type: "integer"`, or a list
/// naming `integer` and not `number`): its bounds, `multipleOf`, `default` and values are then
/// whole numbers, whichever way the document writes them (`1450` or `1450.0`).
#[must_use]
pub fn is_integer(schema: &Value) -> bool {
    let (types, _) = types(schema);
    types.contains(&"integer") && !types.contains(&"number")
}

/// `value` as an integer when it is a whole number that fits one (`1450.0` reads `1450`), else
/// `value` itself: for the numbers of an [`is_integer`] schema.
#[must_use]
pub fn whole(value: &Value) -> Value {
    match value.as_f64() {
        // Within ±2^53 every whole f64 is exact, and the cast cannot saturate.
        Some(f) if value.is_f64() && f.fract() == 0.0 && f.abs() <= 9_007_199_254_740_992.0 => {
            Value::from(f as i64)
        }
        _ => value.clone(),
    }
}

/// A bound of a number: the value as the document writes it, and whether it is exclusive.
#[derive(Debug, Clone, PartialEq)]
pub struct Bound {
    /// The bound.
    pub value: f64,
    /// The number as written (`5`, `0.5`), for messages; whole for an [`is_integer`] schema
    /// (`1450.0` reads `1450`).
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
    let integer = is_integer(schema);
    let number = |key: &str| {
        let value = schema.get(key)?;
        let written = if integer { whole(value) } else { value.clone() };
        Some((value.as_f64()?, written.to_string()))
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_integer_schemas_numbers_are_whole() {
        assert!(is_integer(&json!({"type": ["integer", "null"]})));
        assert!(!is_integer(&json!({"type": ["integer", "number"]})));
        assert!(!is_integer(&json!({"type": "number"})));
        assert_eq!(whole(&json!(1450.0)), json!(1450));
        assert_eq!(whole(&json!(-3.0)), json!(-3));
        assert_eq!(whole(&json!(0.5)), json!(0.5));
        assert_eq!(whole(&json!(1e300)), json!(1e300), "too large for an integer: kept");
        assert_eq!(whole(&json!("1.0")), json!("1.0"));
        let year = json!({"type": "integer", "minimum": 1450.0, "exclusiveMaximum": 2100.0});
        assert_eq!(lower_bound(&year).map(|b| b.written), Some("1450".to_owned()));
        assert_eq!(upper_bound(&year).map(|b| (b.written, b.exclusive)), Some(("2100".to_owned(), true)));
        let ratio = json!({"type": "number", "minimum": 1.0});
        assert_eq!(lower_bound(&ratio).map(|b| b.written), Some("1.0".to_owned()));
    }
}
