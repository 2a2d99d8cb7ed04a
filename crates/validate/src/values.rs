//! What the checks say of JSON values: their JSON Schema types, equality with numbers by value,
//! and how a value, a type error and a field's path are written in a message.

use playground_openapi::json::Key;
use serde_json::{Number, Value};

use crate::MAX_DEPTH;

/// Keywords read as constraints by JSON Schema that this validator does not enforce.
pub(crate) const UNENFORCED: [&str; 1] = ["$recursiveRef"];

pub(crate) const KNOWN_TYPES: [&str; 7] =
    ["string", "integer", "number", "boolean", "array", "object", "null"];

/// Whether `value` is of JSON Schema type `name` (`1.0` is an integer, as JSON Schema says).
pub(crate) fn has_type(name: &str, value: &Value) -> bool {
    match (name, value) {
        ("integer", Value::Number(n)) => is_integral(n),
        ("number", Value::Number(_))
        | ("string", Value::String(_))
        | ("boolean", Value::Bool(_))
        | ("array", Value::Array(_))
        | ("object", Value::Object(_))
        | ("null", Value::Null) => true,
        _ => false,
    }
}

pub(crate) fn is_integral(n: &Number) -> bool {
    n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.is_finite() && f.fract() == 0.0)
}

pub(crate) fn type_error(types: &[&str], null_named: bool, value: &Value, name: &str) -> String {
    if let (["integer"], false, Value::Number(n)) = (types, null_named, value) {
        return format!("{name} must be an integer; got {n}.");
    }
    let mut expected: Vec<&str> = types
        .iter()
        .map(|t| match *t {
            "string" => "a string",
            "integer" => "an integer",
            "number" => "a number",
            "boolean" => "true or false",
            "array" => "an array",
            "object" => "an object",
            other => other,
        })
        .collect();
    if null_named {
        expected.push("null");
    }
    let list = match expected.split_last() {
        Some((last, [])) => (*last).to_owned(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => "null".to_owned(),
    };
    format!("{name} must be {list}; got {}.", type_name(value))
}

/// JSON Schema equality: numbers by value (`1` equals `1.0`), objects whatever their key
/// order; values nested deeper than [`MAX_DEPTH`] count as different.
#[must_use]
pub fn same(a: &Value, b: &Value) -> bool {
    same_at(a, b, 0)
}

fn same_at(a: &Value, b: &Value, depth: usize) -> bool {
    if depth > MAX_DEPTH {
        return false;
    }
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64(), x.as_u64(), y.as_u64()) {
            (Some(p), Some(q), _, _) => p == q,
            (_, _, Some(p), Some(q)) => p == q,
            _ => x.as_f64().zip(y.as_f64()).is_some_and(|(p, q)| p == q),
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_at(p, q, depth + 1))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, p)| y.get(k).is_some_and(|q| same_at(p, q, depth + 1)))
        }
        _ => a == b,
    }
}

/// A value for messages, cut at 60 characters; deep or long values are only read that far.
pub(crate) fn describe(v: &Value) -> String {
    let text = match v {
        Value::String(s) => format!("{s:?}"),
        other => {
            let mut out = String::new();
            render(other, &mut out);
            out
        }
    };
    if text.chars().count() > 60 { format!("{}…", text.chars().take(60).collect::<String>()) } else { text }
}

/// Compact JSON as `serde_json` writes it, stopped once well past what [`describe`] shows (so
/// its recursion is bounded too: every level writes a bracket).
pub(crate) fn render(v: &Value, out: &mut String) {
    const ENOUGH: usize = 256;
    if out.len() > ENOUGH {
        return;
    }
    match v {
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if out.len() > ENOUGH {
                    return;
                }
                if i > 0 {
                    out.push(',');
                }
                render(item, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (i, (key, item)) in map.iter().enumerate() {
                if out.len() > ENOUGH {
                    return;
                }
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&serde_json::to_string(key).unwrap_or_default());
                out.push(':');
                render(item, out);
            }
            out.push('}');
        }
        scalar => out.push_str(&scalar.to_string()),
    }
}

pub(crate) fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "an integer",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

pub(crate) fn child(path: &str, field: &str) -> String {
    if path.is_empty() { field.to_owned() } else { format!("{path}.{field}") }
}

/// A count keyword's value: a non-negative integer, also when written as a decimal (`2.0`, as
/// JSON Schema allows); one past `usize` is the largest.
pub(crate) fn usize_of(schema: &Value, key: &str) -> Option<usize> {
    let n = match schema.key(key)? {
        Value::Number(n) => n,
        _ => return None,
    };
    if let Some(n) = n.as_u64() {
        return Some(usize::try_from(n).unwrap_or(usize::MAX));
    }
    let x = n.as_f64().filter(|x| *x >= 0.0 && x.fract() == 0.0)?;
    // Saturating: a count past `usize` is as good as endless.
    Some(x as usize)
}
