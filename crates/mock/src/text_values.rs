//! Values read from request text (path, query, header and cookie parameters, form fields, XML
//! elements) as their schemas type them.

use playground_openapi::json::Key;
use serde_json::Value;

use super::spec::Spec;
use playground_openapi::pointer::resolve;

/// The schema of the property `name` of an object `schema` (its `allOf` parts included).
pub(super) fn property_schema<'a>(spec: &'a Spec, schema: &'a Value, name: &str) -> Option<&'a Value> {
    super::resources::properties(spec, schema).into_iter().find(|(n, _)| *n == name).map(|(_, s)| s)
}

/// One scalar from text, as the schema's types read it: for several types (or none), the
/// first reading that is valid JSON of an allowed type, else the text.
pub(super) fn scalar(spec: &Spec, schema: &Value, text: &str) -> Result<Value, String> {
    let schema = resolve(&spec.doc, schema).unwrap_or(schema);
    let (types, nullable) = playground_openapi::schema::types(schema);
    if nullable && text == "null" {
        return Ok(Value::Null);
    }
    if text.is_empty() && !types.is_empty() && !types.iter().any(|t| matches!(*t, "string" | "null")) {
        return Err("is empty; give a value or leave it out.".to_owned());
    }
    let read = |kind: &str| -> Option<Value> {
        match kind {
            "integer" => whole_number(text),
            "number" => whole_number(text).or_else(|| {
                text.parse::<f64>().ok().and_then(serde_json::Number::from_f64).map(Value::Number)
            }),
            "boolean" => match text {
                "true" => Some(Value::Bool(true)),
                "false" => Some(Value::Bool(false)),
                _ => None,
            },
            "null" => (text == "null" || text.is_empty()).then_some(Value::Null),
            _ => Some(Value::String(text.to_owned())),
        }
    };
    if let Some(step) = off_step(schema, text) {
        return Err(format!("must be a multiple of {step}; got {text}."));
    }
    match types.as_slice() {
        [] => {
            // Untyped (or a oneOf/anyOf): JSON numbers and booleans as such, else text; text
            // that an `enum` or `const` lists as text stays text (`enum: ["true", "false"]`).
            let listed = schema
                .key("enum")
                .and_then(Value::as_array)
                .is_some_and(|l| l.iter().any(|v| v.as_str() == Some(text)))
                || schema.key("const").and_then(Value::as_str) == Some(text);
            if listed {
                return Ok(Value::String(text.to_owned()));
            }
            let literal: Option<Value> =
                serde_json::from_str(text).ok().filter(|v: &Value| v.is_number() || v.is_boolean());
            Ok(literal.unwrap_or_else(|| Value::String(text.to_owned())))
        }
        [one] => read(one).ok_or_else(|| match *one {
            "integer" => match schema.key("format").and_then(Value::as_str) {
                Some("int64") => format!("must be a 64-bit integer; got {text:?}."),
                Some("int32") => format!("must be a 32-bit integer; got {text:?}."),
                _ => format!("must be an integer; got {text:?}."),
            },
            "number" => format!("must be a number; got {text:?}."),
            "boolean" => format!("must be true or false; got {text:?}."),
            other => format!("must be {other}; got {text:?}."),
        }),
        several => several
            .iter()
            .filter(|k| **k != "string")
            .find_map(|k| read(k))
            .or_else(|| several.contains(&"string").then(|| Value::String(text.to_owned())))
            .ok_or_else(|| format!("must be one of {}; got {text:?}.", several.join(", "))),
    }
}

/// A whole number written in decimal digits (with an optional sign): an i64 or u64 when it
/// fits, else the nearest f64 (which JSON Schema still counts as an integer).
fn whole_number(text: &str) -> Option<Value> {
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse::<i64>()
        .map(Value::from)
        .ok()
        .or_else(|| text.parse::<u64>().map(Value::from).ok())
        .or_else(|| text.parse::<f64>().ok().and_then(serde_json::Number::from_f64).map(Value::Number))
}

/// The schema's whole `multipleOf` that an integer text past 64 bits is not a multiple of. Such
/// an integer is read as the nearest f64, whose remainder says nothing, so the remainder is taken
/// of the digits themselves.
fn off_step(schema: &Value, text: &str) -> Option<u64> {
    let step = schema.key("multipleOf")?.as_u64().filter(|&s| s > 1)?;
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    if digits.len() < 19 || text.parse::<i64>().is_ok() || text.parse::<u64>().is_ok() {
        return None;
    }
    let mut rest: u128 = 0;
    for digit in digits.bytes() {
        if !digit.is_ascii_digit() {
            return None;
        }
        rest = (rest * 10 + u128::from(digit - b'0')) % u128::from(step);
    }
    (rest != 0).then_some(step)
}
