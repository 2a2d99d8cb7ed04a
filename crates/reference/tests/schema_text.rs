//! Schemas that read like the document: OpenAPI 3.1's nullability on one line, integers as
//! integers, JSON Schema 2020-12's keywords shown, and a schema row's text separate words.
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test, with its location

use playground_openapi::catalog::Method;
use playground_openapi::document::AnyDocument;
use playground_reference::html::{self, Html};
use playground_reference::{DocumentViews, OperationView, SchemaNode};
use playground_tryit_core::check_parameter;
use serde_json::{Value, json};

const BOOKS: &str = include_str!("../../../tests/fixtures/fastapi/books.json");

fn books() -> AnyDocument {
    AnyDocument::whole(serde_json::from_str(BOOKS).unwrap())
}

fn plain(_: &str) -> Option<String> {
    None
}

/// The HTML of `node`'s tree.
fn tree_html(node: &SchemaNode) -> String {
    let mut out = Html::new(&plain);
    html::schema_tree(&mut out, node);
    out.finish()
}

/// What a page's `textContent` reads: the tags dropped, entities undone, spaces collapsed.
fn text(html: &str) -> String {
    let mut out = String::new();
    let mut rest = html;
    while let Some(at) = rest.find('<') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        rest = &rest[rest.find('>').unwrap() + 1..];
    }
    out.push_str(rest);
    let out = out.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&#39;", "'");
    out.replace("&amp;", "&").split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The schema `schema` as a tree, as the body of an operation of a 3.1 document whose
/// components are `components`.
fn tree(schema: Value, components: Value) -> SchemaNode {
    let doc = json!({"openapi": "3.1.0", "info": {"title": "T", "version": "1"},
        "paths": {"/x": {"post": {
            "requestBody": {"content": {"application/json": {"schema": schema}}},
            "responses": {"204": {"description": "none"}}}}},
        "components": {"schemas": components}});
    OperationView::build(&doc, Method::Post, "/x").unwrap().request_body.unwrap().schema
}

/// The part of `node` labelled `label`.
fn part<'a>(node: &'a SchemaNode, label: &str) -> &'a SchemaNode {
    &node
        .parts
        .iter()
        .find(|p| p.label == label)
        .unwrap_or_else(|| panic!("no part {label} in {node:#?}"))
        .schema
}

fn prop<'a>(node: &'a SchemaNode, name: &str) -> &'a SchemaNode {
    &node
        .properties
        .iter()
        .find(|p| p.name == name)
        .unwrap_or_else(|| panic!("no {name} in {node:#?}"))
        .schema
}

/// How many nodes a tree holds.
fn count(node: &SchemaNode) -> usize {
    1 + node.properties.iter().map(|p| count(&p.schema)).sum::<usize>()
        + node.items.as_deref().map_or(0, count)
        + node.variants.iter().map(count).sum::<usize>()
        + node.parts.iter().map(|p| count(&p.schema)).sum::<usize>()
}

fn no_patterns(_: &str, _: &str) -> Option<bool> {
    None
}

#[test]
fn a_fastapi_optional_integer_reads_integer_or_null_with_integer_bounds() {
    let doc = books();
    for name in ["Book", "BookIn"] {
        let view = doc.schema_view(name).unwrap();
        let year = prop(&view.tree, "year");
        // `anyOf [{type: integer, minimum: 1450.0, maximum: 2100.0}, {type: null}]`.
        assert_eq!((year.kind.as_str(), year.nullable), ("integer", true), "{name}");
        assert!(year.variants.is_empty(), "one line, not a numbered list");
        assert_eq!(year.constraints, ["1450 to 2100"]);
        let subtitle = prop(&view.tree, "subtitle");
        assert_eq!((subtitle.kind.as_str(), subtitle.nullable, subtitle.variants.len()), ("string", true, 0));

        let out = tree_html(&view.tree);
        assert!(!out.contains("1450.0") && !out.contains("<ol"), "{out}");
        assert!(
            text(&out).contains("year integer or null 1450 to 2100 subtitle string or null"),
            "{}",
            text(&out)
        );
    }
}

#[test]
fn a_schema_rows_text_is_separate_words() {
    let book = books().schema_view("Book").unwrap();
    let out = tree_html(&book.tree);
    // textContent, as copied or read aloud: no word runs into the next.
    assert_eq!(
        text(&out),
        "Book title required string 1 to 200 characters isbn required string \
         pattern ^97[89][0-9]{10}$ year integer or null 1450 to 2100 subtitle string or null \
         id required integer"
    );
    // The spaces take no width: CSS margins space the row as before.
    let without: String = out.replace(html::SEPARATOR, "");
    assert!(text(&without).contains("yearinteger or null1450 to 2100"), "{without}");
    assert!(
        out.contains(&format!(
            r#"<code class="prop-name">year</code>{}<div class="schema""#,
            html::SEPARATOR
        ))
    );

    // Parts, variants, enums and descriptions are words of their own too.
    let node = tree(
        json!({"type": "object", "description": "A thing.", "properties": {
            "mode": {"enum": ["a", "b"], "description": "How."},
            "pair": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}]},
            "either": {"oneOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]}}}),
        json!({}),
    );
    assert_eq!(
        text(&tree_html(&node)),
        "object A thing. mode string one of a b How. pair array item 1 string item 2 integer \
         either oneOf string integer null"
    );
}

#[test]
fn null_with_one_schema_reads_as_that_schema_or_null() {
    let components = json!({"Book": {"type": "object", "properties": {"id": {"type": "integer"}}}});
    let node = tree(
        json!({"type": "object", "properties": {
            "listed": {"type": ["string", "null"], "maxLength": 5},
            "any": {"anyOf": [{"type": "string", "maxLength": 5}, {"type": "null"}], "default": null, "description": "Kept."},
            "one": {"oneOf": [{"type": "null"}, {"$ref": "#/components/schemas/Book"}]},
            "constant": {"anyOf": [{"type": "integer"}, {"const": null}]},
            "two": {"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]},
            "null": {"type": "null"}}}),
        components,
    );
    for name in ["listed", "any"] {
        let s = prop(&node, name);
        assert_eq!((s.kind.as_str(), s.nullable, s.variants.len()), ("string", true, 0), "{name}");
        assert_eq!(s.constraints[0], "at most 5 characters", "{name}: the non-null part's limits stay");
    }
    let any = prop(&node, "any");
    assert_eq!(any.constraints, ["at most 5 characters", "default null"]);
    assert_eq!(any.description.as_deref(), Some("Kept."));
    let one = prop(&node, "one");
    assert_eq!((one.name.as_deref(), one.nullable), (Some("Book"), true));
    assert_eq!(one.properties.len(), 1, "the schema is expanded as it would be alone");
    let constant = prop(&node, "constant");
    assert_eq!((constant.kind.as_str(), constant.nullable), ("integer", true));
    // Two schemas besides null: still a list, whose null reads "null".
    let two = prop(&node, "two");
    assert_eq!(two.kind, "anyOf");
    let kinds: Vec<(&str, bool)> = two.variants.iter().map(|v| (v.kind.as_str(), v.nullable)).collect();
    assert_eq!(kinds, [("string", false), ("integer", false), ("null", false)]);
    assert_eq!((prop(&node, "null").kind.as_str(), prop(&node, "null").nullable), ("null", false));

    let out = tree_html(&node);
    let words = text(&out);
    assert!(words.contains("listed string or null at most 5 characters"), "{words}");
    assert!(words.contains("one Book or null id integer"), "{words}");
    assert!(out.contains(r##"<a href="#schema/Book" data-testid="schema-link">Book</a> or null"##), "{out}");
    assert!(words.contains("two anyOf string integer null null null"), "{words}");
}

#[test]
fn integers_and_their_bounds_print_as_integers() {
    let node = tree(
        json!({"type": "object", "properties": {
            "year": {"type": "integer", "minimum": 1450.0, "maximum": 2100.0, "multipleOf": 2.0,
                     "default": 1970.0, "enum": [1970.0, 2000], "examples": [1980.0]},
            "count": {"type": ["integer", "null"], "exclusiveMinimum": 0.0},
            "fixed": {"type": "integer", "const": 3.0},
            "other": {"type": "integer", "not": {"type": "integer", "const": 4.0}},
            "ratio": {"type": "number", "minimum": 0.5, "maximum": 2.0}}}),
        json!({}),
    );
    let year = prop(&node, "year");
    assert_eq!(year.constraints, ["1450 to 2100", "multiple of 2", "default 1970", "example: 1980"]);
    assert_eq!(year.enumeration, [json!(1970), json!(2000)]);
    assert_eq!(prop(&node, "count").constraints, ["> 0"]);
    assert_eq!(prop(&node, "fixed").constraints, ["always 3"]);
    assert_eq!(prop(&node, "other").constraints, ["not = 4"]);
    // A number keeps the document's form.
    assert_eq!(prop(&node, "ratio").constraints, ["0.5 to 2.0"]);
    assert!(!tree_html(&node).contains(".0 "));

    // The try-it form's messages say the same.
    let doc = json!({"openapi": "3.1.0", "info": {"title": "T", "version": "1"},
        "paths": {"/x": {"get": {"parameters": [
            {"name": "year", "in": "query", "schema": {"type": "integer", "minimum": 1450.0, "maximum": 2100.0}}],
            "responses": {"204": {"description": "none"}}}}}});
    let view = OperationView::build(&doc, Method::Get, "/x").unwrap();
    let message = check_parameter(&view.parameters[0], "1000", &no_patterns).unwrap_err();
    assert_eq!(message, "year must be at least 1450; got 1000.");
}

#[test]
fn json_schema_2020_12_keywords_are_shown() {
    let components = json!({
        "Cat": {"type": "object", "properties": {"petType": {"type": "string"}}},
        "Dog": {"type": "object", "properties": {"petType": {"type": "string"}}}
    });
    let node = tree(
        json!({"type": "object", "properties": {
            "kind": {"const": "x"},
            "name": {"type": "string", "examples": ["Rex", "Tom"]},
            "photo": {"type": "string", "contentEncoding": "base64", "contentMediaType": "image/png"},
            "pair": {"type": "array", "prefixItems": [{"type": "string"}, {"$ref": "#/components/schemas/Cat"}],
                     "items": {"type": "integer"}},
            "closed": {"type": "array", "prefixItems": [{"type": "string"}], "items": false},
            "pet": {"oneOf": [{"$ref": "#/components/schemas/Cat"}, {"$ref": "#/components/schemas/Dog"}],
                    "discriminator": {"propertyName": "petType",
                                      "mapping": {"cat": "#/components/schemas/Cat", "dog": "Dog"}}},
            "tagged": {"oneOf": [{"$ref": "#/components/schemas/Cat"}], "discriminator": {"propertyName": "petType"}},
            "extra": {"type": "object", "unevaluatedProperties": {"type": "integer"}},
            "map": {"type": "object", "additionalProperties": {"type": "string", "maxLength": 3}}},
            "if": {"properties": {"country": {"const": "US"}}},
            "then": {"required": ["postcode"]},
            "else": {"required": ["postal_code"]},
            "dependentRequired": {"a": ["b", "c"]},
            "unevaluatedProperties": false}),
        components,
    );
    assert_eq!(prop(&node, "kind").constraints, [r#"always "x""#]);
    assert_eq!(prop(&node, "name").constraints, [r#"examples: "Rex", "Tom""#]);
    assert_eq!(prop(&node, "photo").constraints, ["base64, image/png"]);
    let pair = prop(&node, "pair");
    let labels: Vec<&str> = pair.parts.iter().map(|p| p.label.as_str()).collect();
    assert_eq!(labels, ["item 1", "item 2", "other items"]);
    assert_eq!(part(pair, "item 1").kind, "string");
    assert_eq!(part(pair, "item 2").name.as_deref(), Some("Cat"));
    assert_eq!(part(pair, "other items").kind, "integer");
    assert!(pair.items.is_none(), "not \"array of integer\"");
    assert_eq!(prop(&node, "closed").constraints, ["no other items"]);
    assert_eq!(prop(&node, "pet").constraints, ["discriminator: petType: cat → Cat, dog → Dog"]);
    assert_eq!(prop(&node, "tagged").constraints, ["discriminator: petType"]);
    let extra = prop(&node, "extra");
    assert_eq!(part(extra, "other properties").kind, "integer");
    let map = prop(&node, "map");
    assert_eq!(part(map, "other properties").constraints, ["at most 3 characters"]);
    assert!(map.constraints.is_empty());

    assert!(node.closed);
    assert_eq!(node.constraints, ["if a is present: b, c required"]);
    assert_eq!(part(&node, "if").properties[0].name, "country");
    assert_eq!(part(&node, "then").constraints, ["postcode required"]);
    assert_eq!(part(&node, "else").constraints, ["postal_code required"]);

    let words = text(&tree_html(&node));
    for expected in [
        r#"kind string always "x""#,
        r#"name string examples: "Rex", "Tom""#,
        "photo string base64, image/png",
        "pair array item 1 string item 2 Cat petType string other items integer",
        "pet oneOf discriminator: petType: cat → Cat, dog → Dog",
        "map object other properties string at most 3 characters",
        "if a is present: b, c required no other properties",
        "if object country string always \"US\" then any postcode required else any postal_code required",
    ] {
        assert!(words.contains(expected), "{expected:?} in {words}");
    }
}

#[test]
fn examples_are_shown_within_bounds() {
    let long = "x".repeat(500);
    let node =
        tree(json!({"type": "string", "examples": ["a", "b", "c", "d", "e", "f", "g", long]}), json!({}));
    let shown = &node.constraints[0];
    assert!(shown.starts_with(r#"examples: "a", "b", "c", "d", "e", 3 more"#), "{shown}");
    let node = tree(json!({"type": "string", "examples": [long]}), json!({}));
    assert_eq!(node.constraints[0].chars().count(), "example: ".len() + 61, "{}", node.constraints[0]);
}

#[test]
fn nested_parts_and_nullable_chains_stay_within_the_caps() {
    // Each level's tuple names the next level four times: 4^12 nodes, were nothing to stop it.
    let mut components = serde_json::Map::new();
    for i in 0..20 {
        let next = json!({"$ref": format!("#/components/schemas/L{}", i + 1)});
        components.insert(
            format!("L{i}"),
            json!({"type": "array", "prefixItems": [next, next],
                   "if": next, "then": next, "unevaluatedProperties": next}),
        );
    }
    let node = tree(json!({"$ref": "#/components/schemas/L0"}), Value::Object(components));
    assert!(count(&node) < 15_000, "{}", count(&node));

    // An `Optional[...]` of an `Optional[...]` of ..., 300 deep.
    let mut schema = json!({"type": "string"});
    for _ in 0..300 {
        schema = json!({"anyOf": [schema, {"type": "null"}]});
    }
    let node = tree(schema, json!({}));
    assert!(count(&node) < 20, "{}", count(&node));
}
