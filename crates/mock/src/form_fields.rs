//! Form bodies (URL-encoded and multipart) read into the object their schema describes: each
//! field read as its property's schema reads it, bracketed names (`a[b][0][c]`, OpenAPI's
//! `deepObject`) nested, and the required lists and objects a form cannot write (an empty one
//! leaves no field) taken as empty.

use playground_openapi::json::Key;
use serde_json::{Map, Value};

use super::spec::Spec;
use super::text_values::{property_schema, scalar};
use playground_openapi::pointer::resolve;
use playground_openapi::schema::Direction;

/// Form fields as an object, each read as its property's schema reads it; a field given
/// several times is a list.
pub(super) fn form_object(
    spec: &Spec,
    schema: Option<&Value>,
    fields: impl Iterator<Item = (String, Value)>,
) -> Value {
    let mut out = Map::new();
    let mut repeated: Vec<String> = Vec::new();
    for (name, value) in fields {
        let prop = schema.and_then(|s| property_schema(spec, s, &name));
        if prop.is_none()
            && let Some((root, path)) = bracket_path(&name)
        {
            put_deep(spec, schema, &mut out, root, &path, value);
            continue;
        }
        let prop_resolved = prop.and_then(|p| resolve(&spec.doc, p).ok());
        let is_list =
            prop_resolved.is_some_and(|p| playground_openapi::schema::primary_type(p) == Some("array"));
        let read = match (&value, prop_resolved) {
            (Value::String(text), Some(p)) if is_list => {
                let items = p.key("items").unwrap_or(&Value::Null);
                structured(spec, items, text)
                    .unwrap_or_else(|| scalar(spec, items, text).unwrap_or(value.clone()))
            }
            (Value::String(text), Some(p))
                if !matches!(playground_openapi::schema::primary_type(p), Some("object")) =>
            {
                structured(spec, p, text).unwrap_or_else(|| scalar(spec, p, text).unwrap_or(value.clone()))
            }
            (Value::String(text), Some(_)) if text.is_empty() => Value::Object(Map::new()),
            (Value::String(text), Some(_)) => serde_json::from_str(text).unwrap_or(value.clone()),
            _ => value.clone(),
        };
        match out.get_mut(&name) {
            Some(Value::Array(list)) if is_list || repeated.contains(&name) => list.push(read),
            // A field given again where its schema takes one value: both are kept, as a list
            // the schema refuses, rather than one of them dropped unseen.
            Some(existing) => {
                let first = existing.take();
                *existing = Value::Array(vec![first, read]);
                repeated.push(name);
            }
            None if is_list => {
                out.insert(name, Value::Array(vec![read]));
            }
            None => {
                out.insert(name, read);
            }
        }
    }
    Value::Object(out)
}

/// A form field's text read as the JSON object (or list) it holds, where its schema takes one
/// but names no scalar type: an object item of a list, or a `oneOf`/`anyOf` of objects (a
/// multipart part of such a property is JSON, OpenAPI's default for it).
fn structured(spec: &Spec, schema: &Value, text: &str) -> Option<Value> {
    let schema = resolve(&spec.doc, schema).unwrap_or(schema);
    if !matches!(playground_openapi::schema::primary_type(schema), None | Some("object" | "array")) {
        return None;
    }
    if !text.trim_start().starts_with(['{', '[']) {
        return None;
    }
    serde_json::from_str(text).ok().filter(|v: &Value| v.is_object() || v.is_array())
}

/// The most levels a bracketed form field name (`a[b][0][c]`) is read into.
const MAX_FORM_DEPTH: usize = 32;
/// The objects of one form that empty members are looked for in (each branch of an `anyOf` tried
/// counts), so that a recursive schema of alternatives cannot make the search exponential.
const MAX_FORM_FILLS: usize = 1_000;
/// The highest list index a bracketed form field name may give (`items[999]`).
const MAX_FORM_INDEX: usize = 999;

/// `a[b][0][]` as `("a", ["b", "0", ""])`: the bracket notation of nested form fields (OpenAPI's
/// `deepObject` encoding, as Stripe, Rails and PHP write them). `None` for a plain name.
fn bracket_path(name: &str) -> Option<(&str, Vec<&str>)> {
    let open = name.find('[')?;
    let (root, mut rest) = name.split_at(open);
    if root.is_empty() || !rest.ends_with(']') {
        return None;
    }
    let mut path = Vec::new();
    while let Some(inner) = rest.strip_prefix('[') {
        let close = inner.find(']')?;
        let (segment, after) = inner.split_at(close);
        path.push(segment);
        rest = after.get(1..).unwrap_or_default();
        if path.len() > MAX_FORM_DEPTH {
            return None;
        }
    }
    rest.is_empty().then_some((root, path))
}

/// The schema of property `name` of `schema`, or of the first of its `anyOf`/`oneOf` branches
/// that declares it (`anyOf: [{properties: ...}, {enum: [""]}]`).
fn member_schema<'a>(spec: &'a Spec, schema: &'a Value, name: &str) -> Option<&'a Value> {
    property_schema(spec, schema, name)
        .or_else(|| branches(spec, schema).find_map(|branch| property_schema(spec, branch, name)))
        .and_then(|p| resolve(&spec.doc, p).ok())
}

/// The item schema of an array `schema`, or of its first array branch.
fn item_schema<'a>(spec: &'a Spec, schema: &'a Value) -> Option<&'a Value> {
    std::iter::once(schema)
        .chain(branches(spec, schema))
        .find(|s| playground_openapi::schema::primary_type(s) == Some("array"))
        .and_then(|s| s.key("items"))
        .and_then(|items| resolve(&spec.doc, items).ok())
}

fn branches<'a>(spec: &'a Spec, schema: &'a Value) -> impl Iterator<Item = &'a Value> {
    ["anyOf", "oneOf"]
        .into_iter()
        .filter_map(|key| schema.get(key).and_then(Value::as_array))
        .flatten()
        .filter_map(|branch| resolve(&spec.doc, branch).ok())
}

/// Puts a bracketed form field into `out`: objects for names, lists for indexes (`[0]`, or `[]`
/// for the next one) where the schema has a list there (or says nothing and the segment is a
/// number), the text read as the leaf's schema reads it.
fn put_deep(
    spec: &Spec,
    schema: Option<&Value>,
    out: &mut Map<String, Value>,
    root: &str,
    path: &[&str],
    value: Value,
) {
    let mut at = schema.and_then(|s| member_schema(spec, s, root));
    let mut slot = out.entry(root.to_owned()).or_insert(Value::Null);
    for segment in path {
        let items = at.and_then(|s| item_schema(spec, s));
        let listed =
            items.is_some() || (at.is_none() && (segment.is_empty() || segment.parse::<usize>().is_ok()));
        if listed {
            if !slot.is_array() {
                *slot = Value::Array(Vec::new());
            }
            let Value::Array(list) = slot else { return };
            let index = segment.parse::<usize>().ok().filter(|i| *i <= MAX_FORM_INDEX).unwrap_or(list.len());
            while list.len() <= index {
                list.push(Value::Null);
            }
            let Some(next) = list.get_mut(index) else { return };
            slot = next;
            at = items;
        } else {
            if !slot.is_object() {
                *slot = Value::Object(Map::new());
            }
            let Value::Object(fields) = slot else { return };
            at = at.and_then(|s| member_schema(spec, s, segment));
            slot = fields.entry((*segment).to_owned()).or_insert(Value::Null);
        }
    }
    *slot = match (&value, at) {
        (Value::String(text), Some(leaf)) => match playground_openapi::schema::primary_type(leaf) {
            // `a[b]=` is the only way a form writes an empty object or list at `b`.
            Some("object") if text.is_empty() => Value::Object(Map::new()),
            Some("array") if text.is_empty() => Value::Array(Vec::new()),
            // One value for a list (`filters[countries]=PT`, given again for more), as a
            // top-level field reads it.
            Some("array") => {
                let items = leaf.key("items").map(|i| resolve(&spec.doc, i).unwrap_or(i));
                let item = items.and_then(|i| scalar(spec, i, text).ok()).unwrap_or(value);
                match slot.take() {
                    Value::Array(mut list) => {
                        list.push(item);
                        Value::Array(list)
                    }
                    _ => Value::Array(vec![item]),
                }
            }
            _ => scalar(spec, leaf, text).unwrap_or(value),
        },
        _ => value,
    };
}

/// Adds the required members a form cannot write: an empty object or list leaves no field at
/// all (`shipping[address]` with nothing in it, `features[]` with no item), so a missing
/// required object or list is taken as an empty one where the schema accepts that. Nested
/// objects too, `MAX_FORM_DEPTH` levels at most.
pub(super) fn add_empty_members(spec: &Spec, schema: &Value, value: &mut Value) {
    fill_empty_members(spec, schema, value, 0, &mut { MAX_FORM_FILLS });
}

fn fill_empty_members(spec: &Spec, schema: &Value, value: &mut Value, depth: usize, budget: &mut usize) {
    if !value.is_object() || depth > MAX_FORM_DEPTH || *budget == 0 {
        return;
    }
    *budget -= 1;
    let schema = resolve(&spec.doc, schema).unwrap_or(schema);
    let validator = spec.validator().direction(Direction::Request);
    // Of an `anyOf` or `oneOf`, the first object branch whose empty members make the value valid
    // (Stripe's `shipping`: an object with a required `address`, or "").
    if branches(spec, schema).next().is_some() && validator.check(schema, value, "").is_err() {
        for branch in branches(spec, schema) {
            let mut filled = value.clone();
            fill_empty_members(spec, branch, &mut filled, depth + 1, budget);
            if validator.check(schema, &filled, "").is_ok() {
                *value = filled;
                return;
            }
        }
    }
    let Value::Object(fields) = value else { return };
    let required =
        schema.key("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str);
    for name in required {
        if fields.contains_key(name) {
            continue;
        }
        let Some(member) = member_schema(spec, schema, name) else { continue };
        let mut empty = match playground_openapi::schema::primary_type(member) {
            Some("object") => Value::Object(Map::new()),
            Some("array") => Value::Array(Vec::new()),
            _ => continue,
        };
        fill_empty_members(spec, member, &mut empty, depth + 1, budget);
        if validator.check(member, &empty, "").is_ok() {
            fields.insert(name.to_owned(), empty);
        }
    }
    for (name, member_value) in fields.iter_mut() {
        if let Some(member) = member_schema(spec, schema, name) {
            fill_empty_members(spec, member, member_value, depth + 1, budget);
        }
    }
}
