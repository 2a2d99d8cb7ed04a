//! XML request bodies read into the JSON value their schema describes, so that they are
//! checked like JSON ones. OpenAPI's `xml` object says how: a property is the child element of
//! its name (`xml.name` renames it), or an attribute (`xml.attribute`); a list is its items
//! repeated, or inside one wrapping element (`xml.wrapped`). Text is read as the schema's type
//! reads it. Elements the schema does not declare are kept (as text, or objects of their
//! children) so that `additionalProperties: false` still refuses them.

use playground_openapi::json::Key;
use serde_json::{Map, Value};

use super::spec::Spec;
use super::text_values::scalar;
use playground_openapi::pointer::resolve;
use playground_openapi::schema::Direction;

/// The most element levels read; deeper content is kept as its text.
const MAX_DEPTH: usize = 32;
/// The most nodes a body may have (elements, text, attributes), whatever its size.
const MAX_NODES: u32 = 20_000;

/// The value of an XML body for `schema` (none: read by shape alone), or why it is no XML.
pub(crate) fn read(spec: &Spec, schema: Option<&Value>, text: &str) -> Result<Value, String> {
    let options =
        roxmltree::ParsingOptions { allow_dtd: false, nodes_limit: MAX_NODES, ..Default::default() };
    let document = roxmltree::Document::parse_with_options(text, options).map_err(|e| e.to_string())?;
    let schema = schema.map(|s| resolve(&spec.doc, s).unwrap_or(s));
    Ok(element(spec, schema, document.root_element(), 0))
}

/// An element as the value of `schema`.
fn element(spec: &Spec, schema: Option<&Value>, node: roxmltree::Node<'_, '_>, depth: usize) -> Value {
    let kind = schema.and_then(playground_openapi::schema::primary_type);
    let text = || node.text().unwrap_or_default().trim().to_owned();
    if depth > MAX_DEPTH {
        return Value::String(text());
    }
    match (kind, schema) {
        // Text where an object or a list belongs (`<Category>5</Category>`) is text, which the
        // schema refuses, not an empty object.
        (Some("object" | "array"), Some(_)) if text_only(node) => Value::String(text()),
        (Some("object"), Some(schema)) => object(spec, schema, node, depth),
        (Some("array"), Some(schema)) => {
            // An element that stands for a whole list: a wrapper, its children the items.
            let items = item_schema(spec, schema);
            let children = node.children().filter(roxmltree::Node::is_element);
            Value::Array(children.map(|child| element(spec, items, child, depth + 1)).collect())
        }
        (_, Some(schema)) if kind.is_some() || !has_children(node) => {
            scalar(spec, schema, &text()).unwrap_or_else(|_| Value::String(text()))
        }
        _ if has_children(node) => untyped_object(node, depth),
        _ => Value::String(text()),
    }
}

/// An element read as an object of `schema`: its properties from attributes and children, the
/// children it does not declare kept under their names.
fn object(spec: &Spec, schema: &Value, node: roxmltree::Node<'_, '_>, depth: usize) -> Value {
    let mut out = Map::new();
    let mut claimed: Vec<&str> = Vec::new();
    for (name, property) in super::resources::properties(spec, schema) {
        let property_resolved = resolve(&spec.doc, property).unwrap_or(property);
        let xml = |key: &str| {
            property
                .key("xml")
                .and_then(|x| x.get(key))
                .or_else(|| property_resolved.key("xml").and_then(|x| x.get(key)))
        };
        let xml_name = xml("name").and_then(Value::as_str).unwrap_or(name);
        if xml("attribute").and_then(Value::as_bool) == Some(true) {
            if let Some(text) = node.attribute(xml_name) {
                let value =
                    scalar(spec, property_resolved, text).unwrap_or_else(|_| Value::String(text.to_owned()));
                out.insert(name.to_owned(), value);
            }
            continue;
        }
        let named = |n: &roxmltree::Node<'_, '_>| n.is_element() && n.tag_name().name() == xml_name;
        if playground_openapi::schema::primary_type(property_resolved) == Some("array") {
            let items = item_schema(spec, property_resolved);
            let wrapped = xml("wrapped").and_then(Value::as_bool) == Some(true);
            let list: Vec<Value> = if wrapped {
                match node.children().find(named) {
                    Some(wrapper) if text_only(wrapper) => {
                        out.insert(
                            name.to_owned(),
                            Value::String(wrapper.text().unwrap_or_default().trim().to_owned()),
                        );
                        claimed.push(xml_name);
                        continue;
                    }
                    Some(wrapper) => wrapper
                        .children()
                        .filter(roxmltree::Node::is_element)
                        .map(|item| element(spec, items, item, depth + 2))
                        .collect(),
                    None => continue,
                }
            } else {
                // Unwrapped items are named by the items' `xml.name`, else the property's.
                let item_name = items
                    .and_then(|i| i.key("xml"))
                    .and_then(|x| x.key("name"))
                    .and_then(Value::as_str)
                    .unwrap_or(xml_name);
                claimed.push(item_name);
                let found: Vec<Value> = node
                    .children()
                    .filter(|c| c.is_element() && c.tag_name().name() == item_name)
                    .map(|item| element(spec, items, item, depth + 1))
                    .collect();
                if found.is_empty() {
                    continue;
                }
                found
            };
            claimed.push(xml_name);
            out.insert(name.to_owned(), Value::Array(list));
            continue;
        }
        claimed.push(xml_name);
        if let Some(child) = node.children().find(named) {
            let mut value = element(spec, Some(property_resolved), child, depth + 1);
            // XML has no null: an empty element is null where the property takes null and not
            // the empty text. Elsewhere it is the empty text, checked as such (an empty `uri`
            // or number is refused, not taken as no value).
            let empty = !has_children(child) && child.text().is_none_or(|t| t.trim().is_empty());
            let fits = |v: &Value| {
                spec.validator().direction(Direction::Request).check(property_resolved, v, "").is_ok()
            };
            if empty && !fits(&value) && fits(&Value::Null) {
                value = Value::Null;
            }
            out.insert(name.to_owned(), value);
        }
    }
    // Children the schema does not name: read as its `additionalProperties` says, else by shape.
    let additional = schema
        .key("additionalProperties")
        .filter(|a| a.is_object())
        .map(|a| resolve(&spec.doc, a).unwrap_or(a));
    for child in node.children().filter(|c| c.is_element() && !claimed.contains(&c.tag_name().name())) {
        let value = element(spec, additional, child, depth + 1);
        out.entry(child.tag_name().name().to_owned()).or_insert(value);
    }
    Value::Object(out)
}

/// An element no schema describes: its children by name (a repeated name as a list), else its
/// text.
fn untyped_object(node: roxmltree::Node<'_, '_>, depth: usize) -> Value {
    let mut out = Map::new();
    for child in node.children().filter(roxmltree::Node::is_element) {
        let value = if depth >= MAX_DEPTH || !has_children(child) {
            Value::String(child.text().unwrap_or_default().trim().to_owned())
        } else {
            untyped_object(child, depth + 1)
        };
        match out.get_mut(child.tag_name().name()) {
            Some(Value::Array(list)) => list.push(value),
            Some(first) => *first = Value::Array(vec![first.take(), value]),
            None => {
                out.insert(child.tag_name().name().to_owned(), value);
            }
        }
    }
    Value::Object(out)
}

fn has_children(node: roxmltree::Node<'_, '_>) -> bool {
    node.children().any(|c| c.is_element())
}

/// An element with text in it and no child element.
fn text_only(node: roxmltree::Node<'_, '_>) -> bool {
    !has_children(node) && node.text().is_some_and(|t| !t.trim().is_empty())
}

fn item_schema<'a>(spec: &'a Spec, schema: &'a Value) -> Option<&'a Value> {
    schema.key("items").map(|items| resolve(&spec.doc, items).unwrap_or(items))
}
