//! What the reader accepts beyond the Petstore: OpenAPI 3.1 and 3.2 documents, everything
//! OpenAPI allows in 3.0 (extensions anywhere, path item references, percent-encoded
//! references, empty paths), JSON Schema 2020-12 schemas, broken references that spoil only
//! their part, and examples generated within caps. Each document is read both ways: parsed
//! whole, and indexed as a loaded document is.
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test, with its location

use playground_openapi::Catalog;
use playground_openapi::catalog::Method;
use playground_openapi::document::{self, AnyDocument, DocumentError};
use playground_reference::DocumentViews;
use playground_reference::{OperationView, generate_example};
use playground_tryit_core::check_parameter;
use serde_json::{Value, json};

/// The document listed as a whole value and indexed (the two lists must agree).
fn load(doc: &Value) -> (AnyDocument, Catalog) {
    let whole = document::validate(doc).unwrap();
    let (indexed, catalog) = document::load_json(doc.to_string().into_bytes()).unwrap();
    assert_eq!(catalog, whole);
    (indexed, catalog)
}

fn rows(catalog: &Catalog) -> Vec<(Method, String)> {
    catalog.operations().map(|o| (o.method, o.path.clone())).collect()
}

/// The view of `method path`, built the same from the whole document and the indexed one.
fn view(doc: &Value, method: Method, path: &str) -> OperationView {
    let whole = OperationView::build(doc, method, path).unwrap();
    let (indexed, _) = load(doc);
    assert_eq!(indexed.operation_view(method, path).unwrap(), whole);
    whole
}

fn no_patterns(_: &str, _: &str) -> Option<bool> {
    None
}

#[test]
fn openapi_31_and_32_documents_are_read() {
    for version in ["3.1.0", "3.1.1", "3.1", "3.2.0"] {
        let doc = json!({"openapi": version, "info": {"title": "T", "version": "1"},
            "paths": {"/a": {"get": {"responses": {"200": {"description": "ok"}}}}}});
        let (_, catalog) = load(&doc);
        assert_eq!(catalog.operation_count(), 1, "{version}");
    }
    // 3.1 makes `paths` optional: webhooks or components alone describe something.
    let info = json!({"title": "T", "version": "1"});
    let webhooks_only = json!({"openapi": "3.1.0", "info": info,
        "webhooks": {"newPet": {"post": {"responses": {"200": {"description": "ok"}}}}}});
    assert_eq!(load(&webhooks_only).1.operation_count(), 0);
    let components_only = json!({"openapi": "3.1.0", "info": info, "components": {"schemas": {"A": {}}}});
    assert_eq!(load(&components_only).1.operation_count(), 0);
    let nothing = json!({"openapi": "3.1.0", "info": info});
    assert_eq!(document::validate(&nothing).unwrap_err(), DocumentError::Nothing);
    assert_eq!(document::load_json(nothing.to_string().into_bytes()).unwrap_err(), DocumentError::Nothing);
    // 3.0 still requires `paths`; 3.10 and 4.0 are not 3.1.
    let no_paths = json!({"openapi": "3.0.3", "info": info, "webhooks": {}});
    assert_eq!(document::validate(&no_paths).unwrap_err(), DocumentError::MissingPaths);
    for version in ["3.10.0", "4.0.0", "3.3.0"] {
        let doc = json!({"openapi": version, "info": info, "paths": {}});
        assert_eq!(document::validate(&doc).unwrap_err(), DocumentError::UnsupportedVersion(version.into()));
    }
    // The QUERY method of 3.2.
    let query = json!({"openapi": "3.2.0", "info": info,
        "paths": {"/search": {"query": {"operationId": "search", "responses": {}}}}});
    assert_eq!(rows(&load(&query).1), [(Method::Query, "/search".to_owned())]);
    assert_eq!(view(&query, Method::Query, "/search").operation_id.as_deref(), Some("search"));
}

#[test]
fn everything_openapi_allows_is_accepted() {
    let doc = json!({
        "openapi": "3.0.3",
        "info": {"title": "T", "version": "v1", "x-logo": {"url": "l.png"}},
        "x-top": true,
        "paths": {
            "x-internal-note": "extensions may sit among the paths",
            "/jobs/{id}": {
                "x-owner": "ops",
                "parameters": [{"$ref": "#/components/parameters/Id"}],
                "get": {
                    "responses": {
                        "x-response-note": 1,
                        "200": {"$ref": "#/components/responses/Job"}
                    }
                }
            },
            "/jobs/{id}/copy": {"$ref": "#/paths/~1jobs~1%7Bid%7D"},
            "/again": {
                "post": {
                    "parameters": [{"$ref": "#/paths/~1jobs~1%7Bid%7D/parameters/0"}],
                    "requestBody": {"$ref": "#/components/requestBodies/Job"},
                    "responses": {"default": {"description": "any"}}
                }
            }
        },
        "components": {
            "x-components-note": "also here",
            "parameters": {"Id": {"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}},
            "responses": {"Job": {"description": "A job", "headers": {"X-Rate": {"$ref": "#/components/headers/Rate"}},
                "content": {"application/json": {"examples": {"one": {"$ref": "#/components/examples/Job"}}}}}},
            "headers": {"Rate": {"schema": {"type": "integer"}}},
            "examples": {"Job": {"value": {"id": "j1"}}},
            "requestBodies": {"Job": {"content": {"application/json": {"schema": {"type": "object"}}}}}
        }
    });
    let (_, catalog) = load(&doc);
    // No operationId, no tags: listed under the default tag, anchored by method and path.
    assert_eq!(
        rows(&catalog),
        [
            (Method::Get, "/jobs/{id}".to_owned()),
            (Method::Get, "/jobs/{id}/copy".to_owned()),
            (Method::Post, "/again".to_owned())
        ]
    );
    let job = view(&doc, Method::Get, "/jobs/{id}");
    assert_eq!(job.parameters[0].name, "id");
    assert_eq!(job.responses.len(), 1, "x- keys among the responses are not responses");
    assert_eq!(job.responses[0].headers[0].0, "X-Rate");
    assert_eq!(job.responses[0].examples, [("one".to_owned(), json!({"id": "j1"}))]);
    assert!(job.problems.is_empty(), "{:?}", job.problems);
    let copy = view(&doc, Method::Get, "/jobs/{id}/copy");
    assert_eq!(copy.parameters[0].name, "id", "a path item reference brings its parameters");
    let again = view(&doc, Method::Post, "/again");
    assert_eq!(again.parameters[0].name, "id", "a percent-encoded reference resolves");
    assert!(again.request_body.is_some());
    // Empty paths are a valid document with nothing to list.
    let empty = json!({"openapi": "3.0.0", "info": {"title": "T", "version": "1"}, "paths": {}});
    assert_eq!(load(&empty).1.operation_count(), 0);
}

#[test]
fn path_items_in_components_are_listed_and_shown() {
    let doc = json!({
        "openapi": "3.1.0", "info": {"title": "T", "version": "1"},
        "paths": {"/pets": {"$ref": "#/components/pathItems/Pets"}},
        "components": {"pathItems": {"Pets": {
            "get": {"operationId": "listPets", "tags": ["pets"], "responses": {"200": {"description": "ok"}}},
            "post": {"operationId": "addPet", "tags": ["pets"], "responses": {"201": {"description": "made"}}}
        }}}
    });
    let (_, catalog) = load(&doc);
    assert_eq!(rows(&catalog), [(Method::Get, "/pets".to_owned()), (Method::Post, "/pets".to_owned())]);
    assert_eq!(view(&doc, Method::Post, "/pets").operation_id.as_deref(), Some("addPet"));
}

#[test]
fn fields_of_the_wrong_type_in_a_listed_operation_do_not_refuse_the_document() {
    let doc = json!({"openapi": "3.0.3", "info": {"title": "T", "version": "1", "description": 5},
        "tags": [{"name": "a", "description": ["x"]}, {"description": "no name"}],
        "paths": {"/a": {"get": {"summary": 5, "tags": "a", "operationId": ["x"], "deprecated": "yes"}}}});
    let (_, catalog) = load(&doc);
    let op = &catalog.groups[0].tags[0].operations[0];
    assert_eq!((op.summary.as_deref(), op.operation_id.as_deref(), op.deprecated), (None, None, false));
}

#[test]
fn a_broken_reference_spoils_only_the_part_that_uses_it() {
    let doc = json!({"openapi": "3.0.3", "info": {"title": "T", "version": "1"},
    "paths": {"/a": {"post": {
        "parameters": [
            {"$ref": "#/components/parameters/Missing"},
            {"name": "q", "in": "query", "schema": {"type": "string"}},
            {"$ref": "other.yaml#/components/parameters/Elsewhere"}
        ],
        "requestBody": {"$ref": "#/components/requestBodies/Gone"},
        "responses": {
            "200": {"description": "ok", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Nope"}}}},
            "404": {"$ref": "#/components/responses/Gone"}
        }
    }}}});
    let v = view(&doc, Method::Post, "/a");
    assert_eq!(v.parameters.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(), ["q"]);
    assert!(v.request_body.is_none());
    assert_eq!(v.responses.iter().map(|r| r.status.as_str()).collect::<Vec<_>>(), ["200"]);
    // The broken schema is shown as such in its place.
    let schema = v.responses[0].schema.as_ref().unwrap();
    assert_eq!(
        schema.description.as_deref(),
        Some("the reference #/components/schemas/Nope does not resolve")
    );
    assert_eq!(
        v.problems,
        [
            "A parameter is not shown: the reference #/components/parameters/Missing does not resolve.",
            "A parameter is not shown: the reference other.yaml#/components/parameters/Elsewhere is to another document, which this reference does not read.",
            "The request body is not shown: the reference #/components/requestBodies/Gone does not resolve.",
            "The response 404 is not shown: the reference #/components/responses/Gone does not resolve.",
        ]
    );
}

#[test]
fn json_schema_2020_12_is_rendered_checked_and_exemplified() {
    let doc = json!({"openapi": "3.1.0", "info": {"title": "T", "version": "1"},
        "paths": {"/items": {"post": {
            "parameters": [
                {"name": "limit", "in": "query", "schema": {"type": ["integer", "null"], "exclusiveMinimum": 0, "maximum": 50}},
                {"name": "mode", "in": "query", "schema": {"const": "fast"}}
            ],
            "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Item"}}}},
            "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {
                "$ref": "#/components/schemas/Item", "description": "The item as stored."}}}}}
        }}},
        "components": {"schemas": {"Item": {
            "type": "object",
            "required": ["name"],
            "properties": {
                "name": {"type": "string", "examples": ["Rex", "Tom"]},
                "nickname": {"type": ["string", "null"]},
                "kind": {"const": "pet"},
                "pair": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}]},
                "country": {"type": "string"},
                "postcode": {"type": "string"}
            },
            "if": {"properties": {"country": {"const": "US"}}},
            "then": {"required": ["postcode"]},
            "dependentRequired": {"postcode": ["country"]},
            "unevaluatedProperties": false
        }}}
    });
    let v = view(&doc, Method::Post, "/items");
    let limit = &v.parameters[0];
    assert_eq!((limit.schema.kind.as_str(), limit.schema.nullable), ("integer", true));
    assert_eq!(limit.schema.constraints, ["> 0", "≤ 50"]);
    assert_eq!(
        check_parameter(limit, "0", &no_patterns).unwrap_err(),
        "limit must be greater than 0; got 0."
    );
    assert_eq!(
        check_parameter(limit, "x", &no_patterns).unwrap_err(),
        "limit must be a whole number, such as 42; got \u{201c}x\u{201d}."
    );
    assert!(check_parameter(limit, "50", &no_patterns).is_ok());
    let mode = &v.parameters[1];
    assert_eq!(
        (mode.schema.kind.as_str(), &mode.schema.constraints[..]),
        ("string", &["always \"fast\"".to_owned()][..])
    );
    assert_eq!(
        check_parameter(mode, "slow", &no_patterns).unwrap_err(),
        "mode must be \"fast\"; got \"slow\"."
    );

    let body = v.request_body.unwrap();
    assert_eq!(
        body.example,
        json!({"name": "Rex", "nickname": "string", "kind": "pet", "pair": ["string", 1],
        "country": "string", "postcode": "string"})
    );
    assert!(body.schema.closed);
    assert_eq!(body.schema.constraints, ["if postcode is present: country required"]);
    let parts: Vec<(&str, &[String])> =
        body.schema.parts.iter().map(|p| (p.label.as_str(), &p.schema.constraints[..])).collect();
    assert_eq!(parts, [("if", &[][..]), ("then", &["postcode required".to_owned()][..])]);
    let nickname = body.schema.properties.iter().find(|p| p.name == "nickname").unwrap();
    assert_eq!((nickname.schema.kind.as_str(), nickname.schema.nullable), ("string", true));
    let pair = body.schema.properties.iter().find(|p| p.name == "pair").unwrap();
    let items: Vec<(&str, &str)> =
        pair.schema.parts.iter().map(|p| (p.label.as_str(), p.schema.kind.as_str())).collect();
    assert_eq!(items, [("item 1", "string"), ("item 2", "integer")]);
    // A reference's sibling description is laid over the target's.
    let answer = v.responses[0].schema.as_ref().unwrap();
    assert_eq!(
        (answer.name.as_deref(), answer.description.as_deref()),
        (Some("Item"), Some("The item as stored."))
    );
}

#[test]
fn examples_are_generated_within_caps_and_say_what_they_cut() {
    let doc = json!({});
    let long = generate_example(&doc, &json!({"type": "string", "minLength": 4_000_000_000_u64}));
    assert_eq!(long.value.as_str().unwrap().len(), 64);
    assert_eq!(long.notes, ["a string of at least 4000000000 characters is shortened to 64"]);
    let many = generate_example(
        &doc,
        &json!({"type": "array", "minItems": 2_000_000_000_u64, "items": {"type": "integer"}}),
    );
    assert_eq!(many.value, json!([1, 1, 1]));
    assert_eq!(many.notes, ["a list of at least 2000000000 items shows 3"]);
    let short = generate_example(&doc, &json!({"type": "string", "minLength": 3, "maxLength": 4}));
    assert_eq!(
        (short.value, short.notes),
        (json!("string").as_str().map(|s| json!(&s[..4])).unwrap(), Vec::<String>::new())
    );

    // 2,000 schemas, each one level deeper than the last.
    let mut schemas = serde_json::Map::new();
    for i in 0..2_000 {
        schemas.insert(format!("S{i}"), json!({"type": "object", "properties": {"next": {"$ref": format!("#/components/schemas/S{}", i + 1)}}}));
    }
    let chain = json!({"components": {"schemas": schemas}});
    let deep = generate_example(&chain, &json!({"$ref": "#/components/schemas/S0"}));
    assert!(deep.value.to_string().len() < 200, "{}", deep.value);
    assert_eq!(deep.notes, ["the example stops where the schema nests too deep or grows too large"]);

    // Wide at every level: 20 fields, each an object of 20 fields, ... ten levels down
    // (20^10 values if nothing stopped it).
    let mut levels = serde_json::Map::new();
    for level in 0..10 {
        let fields: serde_json::Map<String, Value> = (0..20)
            .map(|i| (format!("f{i}"), json!({"$ref": format!("#/components/schemas/L{}", level + 1)})))
            .collect();
        levels.insert(format!("L{level}"), json!({"type": "object", "properties": fields}));
    }
    levels.insert("L10".to_owned(), json!({"type": "string"}));
    let wide = json!({"components": {"schemas": levels}});
    let example = generate_example(&wide, &json!({"$ref": "#/components/schemas/L0"}));
    assert!(example.value.to_string().len() < 200_000);
    assert!(!example.notes.is_empty());
}
