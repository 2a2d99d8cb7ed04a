//! The Markdown pages read views built for their text (`OperationView::build_text`,
//! `SchemaView::build_text`), whose trees stop a level below the components met under the top
//! schema's fields: what they write must be what the whole views would give.

use playground_openapi::Catalog;
use playground_reference::{OperationView, SchemaNode, SchemaView};
use serde_json::{Value, json};

use crate::schema::Base;
use crate::{operation, site};

/// Components four deep (A holds B, B holds C, C holds D), met as fields, as array items, as
/// options (nullable and not), as other properties, inline objects between them, and a loop.
fn deep() -> Value {
    let component = |name: &str| json!({"$ref": format!("#/components/schemas/{name}")});
    json!({
        "openapi": "3.1.0",
        "info": {"title": "Deep", "version": "1"},
        "paths": {"/a": {
            "get": {"operationId": "getA", "responses": {"200": {
                "description": "ok",
                "headers": {"X-B": {"schema": component("B")}},
                "content": {"application/json": {"schema": component("A")}}
            }}},
            "post": {"operationId": "postB",
                "parameters": [{"name": "c", "in": "query", "schema": component("C")}],
                "requestBody": {"content": {"application/json": {"schema": {
                    "type": "object",
                    "properties": {"inline": {"type": "object", "properties": {"b": component("B")}}}
                }}}},
                "responses": {"201": {"description": "ok", "content": {"application/json": {"schema": {
                    "type": "array", "items": component("B")
                }}}}}}
        }},
        "components": {"schemas": {
            "A": {"type": "object", "description": "The top.", "properties": {
                "b": component("B"),
                "list": {"type": "array", "items": component("B")},
                "either": {"oneOf": [component("B"), component("C")]},
                "inline": {"type": "object", "properties": {"c": component("C"), "deeper": {"type": "object", "properties": {"d": component("D")}}}},
                "again": component("A")
            }},
            "B": {"type": "object", "properties": {
                "c": component("C"),
                "maybe": {"oneOf": [component("C"), {"type": "null"}]},
                "map": {"type": "object", "additionalProperties": component("D")},
                "name": {"type": "string", "maxLength": 10}
            }},
            "C": {"type": "object", "required": ["d"], "properties": {"d": component("D"), "ds": {"type": "array", "items": component("D")}}},
            "D": {"type": "object", "properties": {"x": {"type": "string", "enum": ["a", "b"]}, "b": component("B")}},
            "Scalar": {"type": "string", "format": "uuid"}
        }}
    })
}

fn nodes(node: &SchemaNode) -> usize {
    1 + node.properties.iter().map(|p| nodes(&p.schema)).sum::<usize>()
        + node.variants.iter().map(nodes).sum::<usize>()
        + node.parts.iter().map(|p| nodes(&p.schema)).sum::<usize>()
        + node.items.as_deref().map_or(0, nodes)
}

#[test]
fn text_views_write_the_same_pages_as_whole_views() {
    for doc in [deep(), (*petstore::document::petstore_value()).clone()] {
        let catalog = Catalog::from_value(&doc).expect("a catalog");
        for op in catalog.operations() {
            let whole = OperationView::build(&doc, op.method, &op.path).expect("a view");
            let text = OperationView::build_text(&doc, op.method, &op.path, false).expect("a text view");
            let [mut from_whole, mut from_text] = [String::new(), String::new()];
            operation::page(&mut from_whole, op, Ok(&whole), &[], Base("../"));
            operation::page(&mut from_text, op, Ok(&text), &[], Base("../"));
            assert_eq!(from_text, from_whole, "{}", op.anchor());
        }
        let names: Vec<String> =
            doc["components"]["schemas"].as_object().map_or(Vec::new(), |s| s.keys().cloned().collect());
        for name in &names {
            let [mut from_whole, mut from_text] = [String::new(), String::new()];
            site::schema_page(
                &mut from_whole,
                name,
                SchemaView::build(&doc, name).map_err(|e| e.to_string()).as_ref().map_err(Clone::clone),
                Base("../"),
            );
            site::schema_page(
                &mut from_text,
                name,
                SchemaView::build_text(&doc, name).map_err(|e| e.to_string()).as_ref().map_err(Clone::clone),
                Base("../"),
            );
            assert_eq!(from_text, from_whole, "{name}");
        }
    }
}

#[test]
fn a_text_tree_stops_a_level_below_a_deep_component() {
    let doc = deep();
    let whole = OperationView::build(&doc, playground_openapi::catalog::Method::Get, "/a").expect("a view");
    let text = OperationView::build_text(&doc, playground_openapi::catalog::Method::Get, "/a", false)
        .expect("a view");
    let (whole, text) =
        (whole.responses[0].schema.as_ref().unwrap(), text.responses[0].schema.as_ref().unwrap());
    assert!(nodes(text) * 2 < nodes(whole), "{} nodes against {}", nodes(text), nodes(whole));
    // A's field b is B, listed in full; B's field c is C, whose fields are there but not theirs.
    let b = &text.properties.iter().find(|p| p.name == "b").unwrap().schema;
    let c = &b.properties.iter().find(|p| p.name == "c").unwrap().schema;
    assert_eq!(c.component.as_deref(), Some("C"));
    let d = &c.properties.iter().find(|p| p.name == "d").unwrap().schema;
    assert_eq!(d.component.as_deref(), Some("D"));
    assert!(d.properties.is_empty() && d.truncated, "{d:?}");
    let whole_d =
        &whole.properties.iter().find(|p| p.name == "b").unwrap().schema.properties[0].schema.properties[0]
            .schema;
    assert!(!whole_d.properties.is_empty(), "the whole tree goes on");
}
