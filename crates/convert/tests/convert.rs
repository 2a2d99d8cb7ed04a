//! The Swagger 2.0 to OpenAPI 3.0 converter (`playground_convert`): each feature on a small
//! document against the OpenAPI 3.0.3 output written out by hand, the classic Swagger 2.0
//! petstore, the converted fixtures read by the reference's own reader, the error messages,
//! and (host only) arbitrary input that must never make it panic.
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test, with its location

// The JSON value strategies the reference's tests share.
#[path = "../../reference/tests/common/mod.rs"]
mod common;
use playground_convert::{ConvertError, Converted, MAX_DEPTH, swagger2_to_openapi3};
use playground_openapi::catalog::Method;
use playground_openapi::document;
use playground_reference::DocumentViews;
use serde_json::{Value, json};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../convert/tests/fixtures/swagger2");

fn fixture(name: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(format!("{FIXTURES}/{name}")).unwrap()).unwrap()
}

/// A minimal Swagger 2.0 document with `fields` added (or replacing its own).
fn swagger(fields: Value) -> Value {
    let mut doc = json!({"swagger": "2.0", "info": {"title": "T", "version": "1"}, "paths": {}});
    for (key, value) in fields.as_object().unwrap() {
        doc[key] = value.clone();
    }
    doc
}

/// A document with one operation, `POST /a`, as `operation` (plus `fields` at the root).
fn with_operation(operation: Value, fields: Value) -> Value {
    let mut doc = swagger(fields);
    doc["paths"] = json!({"/a": {"post": operation}});
    doc
}

fn convert(doc: &Value) -> Converted {
    swagger2_to_openapi3(doc).unwrap_or_else(|e| panic!("{e}"))
}

/// The converted `POST /a`.
fn converted_operation(operation: Value, fields: Value) -> (Value, Vec<String>) {
    let Converted { document, notes } = convert(&with_operation(operation, fields));
    (document["paths"]["/a"]["post"].clone(), notes)
}

fn error(doc: &Value) -> String {
    swagger2_to_openapi3(doc).unwrap_err().to_string()
}

const OK: fn() -> Value = || json!({"200": {"description": "OK"}});

#[test]
fn the_root_becomes_an_openapi_303_root() {
    let doc = swagger(json!({
        "info": {
            "title": "Zoo", "version": "2.1", "description": "Animals.", "termsOfService": "https://zoo.test/terms",
            "contact": {"name": "Keeper", "email": "k@zoo.test"}, "license": {"name": "MIT"}, "x-logo": {"url": "l.png"}
        },
        "externalDocs": {"url": "https://zoo.test/docs"},
        "tags": [{"name": "animals", "description": "All of them", "x-parent": "zoo"}],
        "x-root": [1, 2]
    }));
    let Converted { document, notes } = convert(&doc);
    assert_eq!(
        document,
        json!({
            "openapi": "3.0.3",
            "info": {
                "title": "Zoo", "version": "2.1", "description": "Animals.", "termsOfService": "https://zoo.test/terms",
                "contact": {"name": "Keeper", "email": "k@zoo.test"}, "license": {"name": "MIT"}, "x-logo": {"url": "l.png"}
            },
            "externalDocs": {"url": "https://zoo.test/docs"},
            "tags": [{"name": "animals", "description": "All of them", "x-parent": "zoo"}],
            "paths": {},
            "x-root": [1, 2]
        })
    );
    assert!(notes.is_empty(), "{notes:?}");
    // `openapi` comes first, as in every OpenAPI document.
    assert_eq!(document.as_object().unwrap().keys().next().unwrap(), "openapi");
}

#[test]
fn host_base_path_and_schemes_become_servers() {
    let servers = |fields: Value| {
        let Converted { document, notes } = convert(&swagger(fields));
        (document.get("servers").cloned(), notes)
    };
    assert_eq!(
        servers(json!({"host": "api.zoo.test:8443", "basePath": "/v2", "schemes": ["https", "wss"]})),
        (
            Some(json!([{"url": "https://api.zoo.test:8443/v2"}, {"url": "wss://api.zoo.test:8443/v2"}])),
            vec![]
        )
    );
    // No schemes: the scheme of wherever the document is read from.
    assert_eq!(
        servers(json!({"host": "api.zoo.test", "basePath": "/v2/"})),
        (Some(json!([{"url": "//api.zoo.test/v2"}])), vec![])
    );
    assert_eq!(
        servers(json!({"host": "api.zoo.test", "basePath": "/", "schemes": ["http"]})),
        (Some(json!([{"url": "http://api.zoo.test"}])), vec![])
    );
    // No host: relative to where the document is served.
    assert_eq!(servers(json!({"basePath": "/v2"})), (Some(json!([{"url": "/v2"}])), vec![]));
    assert_eq!(servers(json!({"basePath": "api"})), (Some(json!([{"url": "/api"}])), vec![]));
    assert_eq!(servers(json!({})), (None, vec![]));
    assert_eq!(
        servers(json!({"basePath": "/v2", "schemes": ["https"]})),
        (
            Some(json!([{"url": "/v2"}])),
            vec!["`/schemes` names the schemes `https` but the document has no `host`; an OpenAPI 3 server URL cannot give a scheme without a host, so the server is relative to where the document is served.".to_owned()]
        )
    );
}

#[test]
fn an_operation_with_its_own_schemes_gets_its_own_servers() {
    let fields = json!({"host": "zoo.test", "basePath": "/v1", "schemes": ["https", "http"]});
    let (operation, _) = converted_operation(json!({"schemes": ["wss"], "responses": OK()}), fields.clone());
    assert_eq!(operation["servers"], json!([{"url": "wss://zoo.test/v1"}]));
    let (operation, _) =
        converted_operation(json!({"schemes": ["https", "http"], "responses": OK()}), fields);
    assert_eq!(operation.get("servers"), None);
}

#[test]
fn consumes_and_produces_give_the_media_types_and_the_operation_wins() {
    let operation = |consumes: Option<Value>, produces: Option<Value>| {
        let mut op = json!({
            "parameters": [{"in": "body", "name": "pet", "schema": {"type": "object"}}],
            "responses": {"200": {"description": "OK", "schema": {"type": "string"}}}
        });
        if let Some(c) = consumes {
            op["consumes"] = c;
        }
        if let Some(p) = produces {
            op["produces"] = p;
        }
        op
    };
    let media = |op: &Value| {
        let keys = |v: &Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
        (keys(&op["requestBody"]["content"]), keys(&op["responses"]["200"]["content"]))
    };
    let root = json!({"consumes": ["application/xml"], "produces": ["text/plain", "application/json"]});

    let (op, _) = converted_operation(operation(None, None), json!({}));
    assert_eq!(media(&op), (vec!["application/json".to_owned()], vec!["application/json".to_owned()]));
    let (op, _) = converted_operation(operation(None, None), root.clone());
    assert_eq!(
        media(&op),
        (vec!["application/xml".to_owned()], vec!["text/plain".to_owned(), "application/json".to_owned()])
    );
    let (op, _) = converted_operation(
        operation(Some(json!(["application/vnd.zoo+json"])), Some(json!(["application/x-yaml"]))),
        root.clone(),
    );
    assert_eq!(
        media(&op),
        (vec!["application/vnd.zoo+json".to_owned()], vec!["application/x-yaml".to_owned()])
    );
    // An empty list clears the document's: the default again.
    let (op, _) = converted_operation(operation(Some(json!([])), Some(json!([]))), root);
    assert_eq!(media(&op), (vec!["application/json".to_owned()], vec!["application/json".to_owned()]));
}

#[test]
fn a_body_parameter_becomes_the_request_body() {
    let (operation, notes) = converted_operation(
        json!({
            "consumes": ["application/json", "application/xml"],
            "parameters": [{
                "in": "body", "name": "pet", "description": "The pet.", "required": true,
                "schema": {"$ref": "#/definitions/Pet"}, "x-example-id": 7
            }],
            "responses": OK()
        }),
        json!({"definitions": {"Pet": {"type": "object"}}}),
    );
    assert_eq!(
        operation,
        json!({
            "requestBody": {
                "description": "The pet.",
                "content": {
                    "application/json": {"schema": {"$ref": "#/components/schemas/Pet"}},
                    "application/xml": {"schema": {"$ref": "#/components/schemas/Pet"}}
                },
                "required": true,
                "x-example-id": 7
            },
            "responses": {"200": {"description": "OK"}}
        })
    );
    assert!(notes.is_empty(), "{notes:?}");
}

#[test]
fn form_parameters_become_an_object_schema_per_form_media_type() {
    let (operation, notes) = converted_operation(
        json!({
            "consumes": ["application/x-www-form-urlencoded", "multipart/form-data"],
            "parameters": [
                {"in": "formData", "name": "name", "type": "string", "required": true, "description": "Its name.", "maxLength": 20},
                {"in": "formData", "name": "photo", "type": "file", "x-max-size": "2MB"},
                {"in": "formData", "name": "tags", "type": "array", "items": {"type": "string"}, "collectionFormat": "multi"},
                {"in": "formData", "name": "ids", "type": "array", "items": {"type": "integer"}},
                {"in": "query", "name": "dryRun", "type": "boolean"}
            ],
            "responses": OK()
        }),
        json!({}),
    );
    let schema = json!({
        "type": "object",
        "properties": {
            "name": {"description": "Its name.", "type": "string", "maxLength": 20},
            "photo": {"type": "string", "format": "binary", "x-max-size": "2MB"},
            "tags": {"type": "array", "items": {"type": "string"}},
            "ids": {"type": "array", "items": {"type": "integer"}}
        },
        "required": ["name"]
    });
    assert_eq!(
        operation,
        json!({
            "parameters": [{"name": "dryRun", "in": "query", "schema": {"type": "boolean"}}],
            "requestBody": {
                "content": {
                    "application/x-www-form-urlencoded": {
                        "schema": schema,
                        "encoding": {
                            "tags": {"style": "form", "explode": true},
                            "ids": {"style": "form", "explode": false}
                        }
                    },
                    "multipart/form-data": {"schema": schema}
                },
                "required": true
            },
            "responses": {"200": {"description": "OK"}}
        })
    );
    assert_eq!(
        notes,
        [
            "`collectionFormat: csv` of the form parameter `ids` (`/paths/~1a/post/parameters/3`) cannot be said for `multipart/form-data`, which sends each item as a part of its own."
        ]
    );
}

#[test]
fn a_form_without_a_form_media_type_is_described_as_one_with_a_note() {
    let (operation, notes) = converted_operation(
        json!({"parameters": [{"in": "formData", "name": "file", "type": "file"}], "responses": OK()}),
        json!({"consumes": ["application/json"]}),
    );
    assert_eq!(
        operation["requestBody"],
        json!({"content": {"multipart/form-data": {"schema": {
            "type": "object", "properties": {"file": {"type": "string", "format": "binary"}}
        }}}})
    );
    assert_eq!(
        notes,
        [
            "`/paths/~1a/post` has form parameters, but its `consumes` names neither `application/x-www-form-urlencoded` nor `multipart/form-data`; the form is described as `multipart/form-data`."
        ]
    );
}

#[test]
fn other_parameters_keep_their_fields_and_move_their_type_into_a_schema() {
    let (operation, notes) = converted_operation(
        json!({
            "parameters": [
                {
                    "name": "limit", "in": "query", "description": "At most.", "required": false, "allowEmptyValue": true,
                    "type": "integer", "format": "int32", "default": 20, "minimum": 1, "maximum": 100,
                    "exclusiveMaximum": true, "multipleOf": 1, "x-order": 1
                },
                {"name": "X-Trace", "in": "header", "type": "string", "pattern": "^[a-f0-9]+$", "minLength": 8, "maxLength": 32, "enum": ["abcdef01"]},
                {"name": "id", "in": "path", "required": true, "type": "string", "x-nullable": true},
                {"name": "sizes", "in": "query", "type": "array", "items": {"type": "number", "minimum": 0}, "minItems": 1, "maxItems": 3, "uniqueItems": true}
            ],
            "responses": OK()
        }),
        json!({}),
    );
    assert_eq!(
        operation["parameters"],
        json!([
            {
                "name": "limit", "in": "query", "description": "At most.", "required": false, "allowEmptyValue": true,
                "schema": {"type": "integer", "format": "int32", "default": 20, "minimum": 1, "maximum": 100, "exclusiveMaximum": true, "multipleOf": 1},
                "x-order": 1
            },
            {"name": "X-Trace", "in": "header", "schema": {"type": "string", "pattern": "^[a-f0-9]+$", "minLength": 8, "maxLength": 32, "enum": ["abcdef01"]}},
            {"name": "id", "in": "path", "required": true, "schema": {"type": "string", "nullable": true}},
            {
                "name": "sizes", "in": "query", "style": "form", "explode": false,
                "schema": {"type": "array", "items": {"type": "number", "minimum": 0}, "minItems": 1, "maxItems": 3, "uniqueItems": true}
            }
        ])
    );
    assert!(notes.is_empty(), "{notes:?}");
}

#[test]
fn collection_formats_become_style_and_explode() {
    let parameter = |location: &str, format: Option<&str>| {
        let mut p = json!({"name": "p", "in": location, "required": true, "type": "array", "items": {"type": "string"}});
        if let Some(format) = format {
            p["collectionFormat"] = json!(format);
        }
        let (operation, notes) =
            converted_operation(json!({"parameters": [p], "responses": OK()}), json!({}));
        let mut out = operation["parameters"][0].clone();
        let out = out.as_object_mut().unwrap();
        for key in ["name", "in", "required", "schema"] {
            out.remove(key);
        }
        (Value::Object(out.clone()), notes)
    };
    let none: Vec<String> = Vec::new();
    assert_eq!(parameter("query", None), (json!({"style": "form", "explode": false}), none.clone()));
    assert_eq!(parameter("query", Some("csv")), (json!({"style": "form", "explode": false}), none.clone()));
    assert_eq!(parameter("query", Some("multi")), (json!({"style": "form", "explode": true}), none.clone()));
    assert_eq!(
        parameter("query", Some("ssv")),
        (json!({"style": "spaceDelimited", "explode": false}), none.clone())
    );
    assert_eq!(
        parameter("query", Some("pipes")),
        (json!({"style": "pipeDelimited", "explode": false}), none.clone())
    );
    assert_eq!(parameter("path", Some("csv")), (json!({"style": "simple"}), none.clone()));
    assert_eq!(parameter("header", None), (json!({"style": "simple"}), none));
    assert_eq!(
        parameter("query", Some("tsv")),
        (
            json!({"style": "form", "explode": false, "x-collectionFormat": "tsv"}),
            vec!["`collectionFormat: tsv` of the query parameter `p` (`/paths/~1a/post/parameters/0`) has no OpenAPI 3 equivalent; it is described as comma-separated (`style: form`, `explode: false`), and `x-collectionFormat: tsv` keeps the original.".to_owned()]
        )
    );
    assert_eq!(
        parameter("header", Some("pipes")),
        (
            json!({"style": "simple", "x-collectionFormat": "pipes"}),
            vec!["`collectionFormat: pipes` of the header parameter `p` (`/paths/~1a/post/parameters/0`) has no OpenAPI 3 equivalent; it is described as comma-separated (`style: simple`), and `x-collectionFormat: pipes` keeps the original.".to_owned()]
        )
    );
    // Not an array: nothing to say.
    let (operation, _) = converted_operation(
        json!({"parameters": [{"name": "q", "in": "query", "type": "string", "collectionFormat": "multi"}], "responses": OK()}),
        json!({}),
    );
    assert_eq!(operation["parameters"][0], json!({"name": "q", "in": "query", "schema": {"type": "string"}}));
}

#[test]
fn path_item_parameters_stay_and_their_body_goes_to_each_operation() {
    let mut doc = swagger(json!({}));
    doc["paths"] = json!({"/pets/{id}": {
        "parameters": [
            {"name": "id", "in": "path", "required": true, "type": "integer"},
            {"in": "body", "name": "pet", "schema": {"type": "object"}},
            {"in": "formData", "name": "note", "type": "string"}
        ],
        "put": {"responses": OK()},
        "patch": {
            "consumes": ["application/x-www-form-urlencoded"],
            "parameters": [
                {"in": "formData", "name": "note", "type": "string", "required": true},
                {"in": "formData", "name": "extra", "type": "integer"}
            ],
            "responses": OK()
        }
    }});
    let Converted { document, notes } = convert(&doc);
    let item = &document["paths"]["/pets/{id}"];
    assert_eq!(
        item["parameters"],
        json!([{"name": "id", "in": "path", "required": true, "schema": {"type": "integer"}}])
    );
    // The path item's body wins over its form fields where the operation has neither.
    assert_eq!(
        item["put"],
        json!({
            "requestBody": {"content": {"application/json": {"schema": {"type": "object"}}}},
            "responses": {"200": {"description": "OK"}}
        })
    );
    // Here the path item's body still applies, so the operation's form fields are left out
    // too, and the body takes the operation's media type.
    assert_eq!(
        item["patch"]["requestBody"],
        json!({"content": {"application/x-www-form-urlencoded": {"schema": {"type": "object"}}}})
    );
    assert_eq!(
        notes,
        [
            "`/paths/~1pets~1{id}/put` has both a body parameter and form parameters, which Swagger 2.0 does not allow; the body is kept and the form parameters are left out.",
            "`/paths/~1pets~1{id}/patch` has both a body parameter and form parameters, which Swagger 2.0 does not allow; the body is kept and the form parameters are left out.",
        ]
    );

    let mut doc = swagger(json!({}));
    doc["paths"] = json!({"/pets": {
        "parameters": [{"in": "formData", "name": "note", "type": "string"}],
        "post": {
            "consumes": ["application/x-www-form-urlencoded"],
            "parameters": [
                {"in": "formData", "name": "note", "type": "string", "required": true},
                {"in": "formData", "name": "extra", "type": "integer"}
            ],
            "responses": OK()
        }
    }});
    let Converted { document, notes } = convert(&doc);
    // The operation's `note` replaces the path item's, in its place.
    assert_eq!(
        document["paths"]["/pets"]["post"]["requestBody"],
        json!({
            "content": {"application/x-www-form-urlencoded": {"schema": {
                "type": "object",
                "properties": {"note": {"type": "string"}, "extra": {"type": "integer"}},
                "required": ["note"]
            }}},
            "required": true
        })
    );
    assert_eq!(document["paths"]["/pets"].get("parameters"), None);
    assert!(notes.is_empty(), "{notes:?}");
}

#[test]
fn root_parameters_and_responses_become_components_and_their_references_follow() {
    let doc = swagger(json!({
        "consumes": ["application/json"],
        "produces": ["application/json"],
        "parameters": {
            "limit": {"name": "limit", "in": "query", "type": "integer"},
            "pet": {"name": "pet", "in": "body", "required": true, "schema": {"$ref": "#/definitions/Pet"}},
            "note": {"name": "note", "in": "formData", "type": "string"}
        },
        "responses": {
            "NotFound": {"description": "Not found.", "schema": {"$ref": "#/definitions/Error"}}
        },
        "definitions": {"Pet": {"type": "object"}, "Error": {"type": "object"}},
        "paths": {
            "/pets": {
                "get": {
                    "parameters": [{"$ref": "#/parameters/limit"}],
                    "responses": {"404": {"$ref": "#/responses/NotFound"}}
                },
                "post": {
                    "parameters": [{"$ref": "#/parameters/pet"}],
                    "responses": {"404": {"$ref": "#/responses/NotFound"}}
                },
                "put": {
                    "consumes": ["application/xml"],
                    "produces": ["application/xml"],
                    "parameters": [{"$ref": "#/parameters/pet"}],
                    "responses": {"404": {"$ref": "#/responses/NotFound"}}
                },
                "patch": {
                    "consumes": ["application/x-www-form-urlencoded"],
                    "parameters": [{"$ref": "#/parameters/note"}],
                    "responses": {"204": {"description": "Done."}}
                }
            }
        }
    }));
    let Converted { document, notes } = convert(&doc);
    assert_eq!(
        document["components"],
        json!({
            "schemas": {"Pet": {"type": "object"}, "Error": {"type": "object"}},
            "responses": {
                "NotFound": {"description": "Not found.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
            },
            "parameters": {"limit": {"name": "limit", "in": "query", "schema": {"type": "integer"}}},
            "requestBodies": {
                "pet": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}}, "required": true}
            }
        })
    );
    let pets = &document["paths"]["/pets"];
    assert_eq!(
        pets["get"],
        json!({
            "parameters": [{"$ref": "#/components/parameters/limit"}],
            "responses": {"404": {"$ref": "#/components/responses/NotFound"}}
        })
    );
    assert_eq!(
        pets["post"],
        json!({
            "requestBody": {"$ref": "#/components/requestBodies/pet"},
            "responses": {"404": {"$ref": "#/components/responses/NotFound"}}
        })
    );
    // Other media types than the components have: written out.
    assert_eq!(
        pets["put"],
        json!({
            "requestBody": {"content": {"application/xml": {"schema": {"$ref": "#/components/schemas/Pet"}}}, "required": true},
            "responses": {"404": {"description": "Not found.", "content": {"application/xml": {"schema": {"$ref": "#/components/schemas/Error"}}}}}
        })
    );
    assert_eq!(
        pets["patch"]["requestBody"],
        json!({"content": {"application/x-www-form-urlencoded": {"schema": {"type": "object", "properties": {"note": {"type": "string"}}}}}})
    );
    assert_eq!(
        notes,
        [
            "`/parameters/note` is a form parameter; OpenAPI 3 has no reusable form field, so it is copied into each form that refers to it."
        ]
    );
}

#[test]
fn every_ref_is_rewritten_whatever_its_escaping() {
    let doc = swagger(json!({
        "definitions": {
            "Pet": {"type": "object", "properties": {"name": {"type": "string"}}},
            "Foo Bar": {"type": "string"},
            "a/b": {"type": "integer"},
            "Page«Pet»": {"type": "object"},
            "Page_Pet_": {"type": "boolean"}
        },
        "paths": {"/a": {"get": {"responses": {"200": {"description": "OK", "schema": {
            "type": "object",
            "properties": {
                "plain": {"$ref": "#/definitions/Pet"},
                "deep": {"$ref": "#/definitions/Pet/properties/name"},
                "spaced": {"$ref": "#/definitions/Foo%20Bar"},
                "slashed": {"$ref": "#/definitions/a~1b"},
                "encoded": {"$ref": "#%2Fdefinitions%2FPet"},
                "springfox": {"$ref": "#/definitions/Page«Pet»"},
                "taken": {"$ref": "#/definitions/Page_Pet_"},
                "external": {"$ref": "common.json#/definitions/Error"},
                "file": {"$ref": "pet.json"},
                "missing": {"$ref": "#/definitions/Nothing"}
            }
        }}}}}}
    }));
    let Converted { document, notes } = convert(&doc);
    let properties = &document["paths"]["/a"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
        ["properties"];
    let refs: Vec<(&str, &str)> = properties
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.as_str(), v["$ref"].as_str().unwrap()))
        .collect();
    assert_eq!(
        refs,
        [
            ("plain", "#/components/schemas/Pet"),
            ("deep", "#/components/schemas/Pet/properties/name"),
            ("spaced", "#/components/schemas/Foo_Bar"),
            ("slashed", "#/components/schemas/a_b"),
            ("encoded", "#/components/schemas/Pet"),
            ("springfox", "#/components/schemas/Page_Pet__2"),
            ("taken", "#/components/schemas/Page_Pet_"),
            ("external", "common.json#/components/schemas/Error"),
            ("file", "pet.json"),
            ("missing", "#/components/schemas/Nothing"),
        ]
    );
    let names: Vec<&String> = document["components"]["schemas"].as_object().unwrap().keys().collect();
    assert_eq!(names, ["Pet", "Foo_Bar", "a_b", "Page_Pet__2", "Page_Pet_"]);
    assert_eq!(
        notes,
        [
            "The definition `Foo Bar` is the schema `Foo_Bar`: OpenAPI 3 component names have only letters, digits, `.`, `-` and `_`.",
            "The definition `a/b` is the schema `a_b`: OpenAPI 3 component names have only letters, digits, `.`, `-` and `_`.",
            "The definition `Page«Pet»` is the schema `Page_Pet__2`: OpenAPI 3 component names have only letters, digits, `.`, `-` and `_`.",
            "The reference `#/definitions/Nothing` at `/paths/~1a/get/responses/200/schema/properties/missing/$ref` points to nothing in the document; it is written as `#/components/schemas/Nothing`.",
        ]
    );
}

#[test]
fn responses_carry_their_schema_examples_and_headers() {
    let (operation, notes) = converted_operation(
        json!({
            "produces": ["application/json", "application/xml"],
            "responses": {
                "200": {
                    "description": "The pet.",
                    "schema": {"type": "object", "properties": {"name": {"type": "string"}}},
                    "examples": {"application/json": {"name": "Rex"}, "text/plain": "Rex"},
                    "headers": {
                        "X-Rate-Limit": {"type": "integer", "format": "int32", "description": "Calls per hour.", "x-unit": "call"},
                        "X-Tags": {"type": "array", "items": {"type": "string"}, "collectionFormat": "pipes"}
                    },
                    "x-cache": "none"
                },
                "204": {"description": "Nothing.", "examples": {"text/plain": ""}},
                "default": {"description": "Error.", "schema": {"type": "file"}},
                "x-codes": "documented"
            }
        }),
        json!({}),
    );
    let schema = json!({"type": "object", "properties": {"name": {"type": "string"}}});
    assert_eq!(
        operation["responses"],
        json!({
            "200": {
                "description": "The pet.",
                "headers": {
                    "X-Rate-Limit": {"description": "Calls per hour.", "schema": {"type": "integer", "format": "int32"}, "x-unit": "call"},
                    "X-Tags": {"schema": {"type": "array", "items": {"type": "string"}}, "x-collectionFormat": "pipes"}
                },
                "content": {
                    "application/json": {"schema": schema, "example": {"name": "Rex"}},
                    "application/xml": {"schema": schema},
                    "text/plain": {"schema": schema, "example": "Rex"}
                },
                "x-cache": "none"
            },
            "204": {"description": "Nothing.", "content": {"text/plain": {"example": ""}}},
            "default": {
                "description": "Error.",
                "content": {
                    "application/json": {"schema": {"type": "string", "format": "binary"}},
                    "application/xml": {"schema": {"type": "string", "format": "binary"}}
                }
            },
            "x-codes": "documented"
        })
    );
    assert_eq!(
        notes,
        [
            "`collectionFormat: pipes` of the response header `/paths/~1a/post/responses/200/headers/X-Tags` has no OpenAPI 3 equivalent (headers are comma-separated); `x-collectionFormat: pipes` keeps the original."
        ]
    );
}

#[test]
fn schemas_get_nullable_binary_strings_and_discriminator_objects() {
    let doc = swagger(json!({"definitions": {
        "Pet": {
            "type": "object",
            "discriminator": "petType",
            "required": ["petType"],
            "properties": {
                "petType": {"type": "string"},
                "nickname": {"type": "string", "x-nullable": true},
                "photo": {"type": "file", "format": "jpeg"},
                "age": {"type": ["integer", "null"], "minimum": 0},
                "owner": {"allOf": [{"$ref": "#/definitions/Owner"}], "x-nullable": false, "readOnly": true},
                "extra": {"type": "object", "additionalProperties": {"$ref": "#/definitions/Owner"}}
            },
            "example": {"petType": "Cat", "$ref": "#/definitions/Owner"},
            "x-model": "pet"
        },
        "Owner": {"type": "object", "xml": {"name": "owner"}, "externalDocs": {"url": "https://zoo.test"}}
    }}));
    let Converted { document, notes } = convert(&doc);
    assert_eq!(
        document["components"]["schemas"],
        json!({
            "Pet": {
                "type": "object",
                "discriminator": {"propertyName": "petType"},
                "required": ["petType"],
                "properties": {
                    "petType": {"type": "string"},
                    "nickname": {"type": "string", "nullable": true},
                    "photo": {"type": "string", "format": "binary"},
                    "age": {"type": "integer", "nullable": true, "minimum": 0},
                    "owner": {"allOf": [{"$ref": "#/components/schemas/Owner"}], "nullable": false, "readOnly": true},
                    "extra": {"type": "object", "additionalProperties": {"$ref": "#/components/schemas/Owner"}}
                },
                // Examples are values, not schemas: their `$ref` keys stay.
                "example": {"petType": "Cat", "$ref": "#/definitions/Owner"},
                "x-model": "pet"
            },
            "Owner": {"type": "object", "xml": {"name": "owner"}, "externalDocs": {"url": "https://zoo.test"}}
        })
    );
    assert!(notes.is_empty(), "{notes:?}");
}

#[test]
fn security_definitions_become_security_schemes() {
    let doc = swagger(json!({
        "securityDefinitions": {
            "basic": {"type": "basic", "description": "Name and password."},
            "key": {"type": "apiKey", "name": "X-Key", "in": "header", "x-where": "settings"},
            "implicit": {"type": "oauth2", "flow": "implicit", "authorizationUrl": "https://auth.test/authorize", "scopes": {"read": "Read."}},
            "password": {"type": "oauth2", "flow": "password", "tokenUrl": "https://auth.test/token", "scopes": {}},
            "application": {"type": "oauth2", "flow": "application", "tokenUrl": "https://auth.test/token", "scopes": {"admin": "All."}},
            "code": {"type": "oauth2", "flow": "accessCode", "authorizationUrl": "https://auth.test/authorize", "tokenUrl": "https://auth.test/token"}
        },
        "security": [{"key": []}, {"implicit": ["read"], "basic": []}],
        "paths": {"/a": {"get": {"security": [], "responses": OK()}, "put": {"security": [{"code": []}], "responses": OK()}}}
    }));
    let Converted { document, notes } = convert(&doc);
    assert_eq!(
        document["components"]["securitySchemes"],
        json!({
            "basic": {"type": "http", "scheme": "basic", "description": "Name and password."},
            "key": {"type": "apiKey", "name": "X-Key", "in": "header", "x-where": "settings"},
            "implicit": {"type": "oauth2", "flows": {"implicit": {"authorizationUrl": "https://auth.test/authorize", "scopes": {"read": "Read."}}}},
            "password": {"type": "oauth2", "flows": {"password": {"tokenUrl": "https://auth.test/token", "scopes": {}}}},
            "application": {"type": "oauth2", "flows": {"clientCredentials": {"tokenUrl": "https://auth.test/token", "scopes": {"admin": "All."}}}},
            "code": {"type": "oauth2", "flows": {"authorizationCode": {
                "authorizationUrl": "https://auth.test/authorize", "tokenUrl": "https://auth.test/token", "scopes": {}
            }}}
        })
    );
    assert_eq!(document["security"], json!([{"key": []}, {"implicit": ["read"], "basic": []}]));
    assert_eq!(document["paths"]["/a"]["get"]["security"], json!([]));
    assert_eq!(document["paths"]["/a"]["put"]["security"], json!([{"code": []}]));
    assert!(notes.is_empty(), "{notes:?}");
}

#[test]
fn extensions_are_kept_at_every_level() {
    let doc = swagger(json!({
        "x-root": 1,
        "info": {"title": "T", "version": "1", "x-info": 2},
        "tags": [{"name": "t", "x-tag": 3}],
        "externalDocs": {"url": "https://zoo.test", "x-docs": 4},
        "securityDefinitions": {"key": {"type": "apiKey", "name": "k", "in": "query", "x-scheme": 5}},
        "parameters": {"q": {"name": "q", "in": "query", "type": "string", "x-param": 6}},
        "responses": {"E": {"description": "E", "x-response": 7}},
        "definitions": {"S": {"type": "string", "x-schema": 8}},
        "paths": {
            "x-paths": 9,
            "/a": {
                "x-item": 10,
                "post": {
                    "x-operation": 11,
                    "parameters": [{"in": "body", "name": "b", "schema": {"type": "string", "x-body-schema": 12}, "x-body": 13}],
                    "responses": {"x-responses": 14, "200": {"description": "OK", "x-ok": 15}}
                }
            }
        }
    }));
    let Converted { document, notes } = convert(&doc);
    assert_eq!(
        document,
        json!({
            "openapi": "3.0.3",
            "info": {"title": "T", "version": "1", "x-info": 2},
            "externalDocs": {"url": "https://zoo.test", "x-docs": 4},
            "tags": [{"name": "t", "x-tag": 3}],
            "paths": {
                "x-paths": 9,
                "/a": {
                    "post": {
                        "requestBody": {"content": {"application/json": {"schema": {"type": "string", "x-body-schema": 12}}}, "x-body": 13},
                        "responses": {"200": {"description": "OK", "x-ok": 15}, "x-responses": 14},
                        "x-operation": 11
                    },
                    "x-item": 10
                }
            },
            "components": {
                "schemas": {"S": {"type": "string", "x-schema": 8}},
                "responses": {"E": {"description": "E", "x-response": 7}},
                "parameters": {"q": {"name": "q", "in": "query", "schema": {"type": "string"}, "x-param": 6}},
                "securitySchemes": {"key": {"type": "apiKey", "name": "k", "in": "query", "x-scheme": 5}}
            },
            "x-root": 1
        })
    );
    assert!(notes.is_empty(), "{notes:?}");
}

#[test]
fn what_cannot_be_carried_over_is_noted() {
    let doc = swagger(json!({
        "host": "zoo.test",
        "basePth": "/typo",
        "definitions": {"S": {"type": "object", "properties": {"a": {"type": "string", "required": true}}}},
        "paths": {"/a/{id}": {
            "post": {
                "summery": "typo",
                "parameters": [
                    {"name": "id", "in": "path", "type": "string"},
                    {"name": "Accept", "in": "header", "type": "string"},
                    {"name": "h", "in": "header", "type": "string", "allowEmptyValue": true},
                    {"in": "body", "name": "one", "schema": {"type": "string"}},
                    {"in": "body", "name": "two", "schema": {"type": "string"}}
                ],
                "responses": {"200": {}}
            }
        }}
    }));
    let Converted { document, notes } = convert(&doc);
    let operation = &document["paths"]["/a/{id}"]["post"];
    assert_eq!(operation["parameters"][0]["required"], json!(true));
    assert_eq!(operation["responses"]["200"], json!({"description": ""}));
    assert_eq!(document["components"]["schemas"]["S"]["properties"]["a"], json!({"type": "string"}));
    assert_eq!(
        notes,
        [
            "The path parameter `id` (`/paths/~1a~1{id}/post/parameters/0`) is not marked `required: true`; path parameters always are, and it is marked so.",
            "The header parameter `Accept` (`/paths/~1a~1{id}/post/parameters/1`) is ignored by OpenAPI 3 tools: media types and security schemes say it there.",
            "`allowEmptyValue` of the header parameter `h` (`/paths/~1a~1{id}/post/parameters/2`) is for query parameters only; it is left out.",
            "`/paths/~1a~1{id}/post/parameters/4` is a second body parameter, which Swagger 2.0 does not allow; it is left out.",
            "The response `/paths/~1a~1{id}/post/responses/200` has no `description`, which OpenAPI 3 requires; it is given an empty one.",
            "`/paths/~1a~1{id}/post/summery` is not a field of a Swagger 2.0 operation; it is left out.",
            "`required: true` in the schema `/definitions/S/properties/a` is not how a schema says a property is required (its object lists it in `required`); it is left out.",
            "`/basePth` is not a field of a Swagger 2.0 document root; it is left out.",
        ]
    );
}

// A table of cases.
#[allow(clippy::too_many_lines)]
#[test]
fn problems_are_errors_that_name_where_they_are() {
    let cases: Vec<(Value, &str)> = vec![
        (json!([1]), "The document must be a JSON object; this one is a list."),
        (json!({"info": {}}), "The document has no `swagger` field, so it is not a Swagger 2.0 document."),
        (
            json!({"openapi": "3.0.3"}),
            "This is an OpenAPI 3.0.3 document already; only Swagger 2.0 documents are converted.",
        ),
        (
            json!({"swagger": "1.2"}),
            "This is a Swagger 1.2 document; only Swagger 2.0 documents (`\"swagger\": \"2.0\"`) are converted.",
        ),
        (json!({"swagger": 2}), "`/swagger` must be the text \"2.0\"; it is a number."),
        (json!({"swagger": "2.0", "paths": {}}), "The document has no `info` object."),
        (json!({"swagger": "2.0", "info": {"version": "1"}, "paths": {}}), "`/info` has no `title` text."),
        (
            json!({"swagger": "2.0", "info": {"title": "T", "version": 1}, "paths": {}}),
            "`/info/version` must be a text; it is a number.",
        ),
        (
            json!({"swagger": "2.0", "info": {"title": "T", "version": "1"}}),
            "The document has no `paths` object.",
        ),
        (swagger(json!({"paths": []})), "`/paths` must be an object; it is a list."),
        (swagger(json!({"consumes": "application/json"})), "`/consumes` must be a list; it is a text."),
        (swagger(json!({"schemes": ["https", 1]})), "`/schemes/1` must be a text; it is a number."),
        (swagger(json!({"tags": [{"description": "no name"}]})), "`/tags/0` has no `name` text."),
        (
            swagger(json!({"definitions": {"A": {"type": "object", "properties": {"b": {"items": []}}}}})),
            "`/definitions/A/properties/b/items` must be an object; it is a list.",
        ),
        (
            swagger(json!({"definitions": {"A": true}})),
            "`/definitions/A` must be an object; it is a boolean.",
        ),
        (
            swagger(json!({"parameters": {"p": {"name": "p", "in": "cookie"}}})),
            "`/parameters/p` has `in: cookie`, which Swagger 2.0 does not define; it has query, header, path, formData and body.",
        ),
        (
            swagger(json!({"securityDefinitions": {"s": {"type": "openIdConnect"}}})),
            "`/securityDefinitions/s` has `type: openIdConnect`, which Swagger 2.0 does not define; it has basic, apiKey and oauth2.",
        ),
        (
            swagger(json!({"securityDefinitions": {"s": {"type": "oauth2", "flow": "implicit"}}})),
            "`/securityDefinitions/s` has no `authorizationUrl` text.",
        ),
        (
            swagger(json!({"securityDefinitions": {"s": {"type": "oauth2", "flow": "device"}}})),
            "`/securityDefinitions/s` has `flow: device`, which Swagger 2.0 does not define; it has implicit, password, application and accessCode.",
        ),
        (
            swagger(json!({"securityDefinitions": {"s": {"type": "apiKey", "name": "k", "in": "cookie"}}})),
            "`/securityDefinitions/s` has `in: cookie`, which Swagger 2.0 does not define; it has query and header.",
        ),
        (swagger(json!({"security": {"key": []}})), "`/security` must be a list; it is an object."),
        (
            with_operation(
                json!({"parameters": [{"in": "body", "name": "b"}], "responses": OK()}),
                json!({}),
            ),
            "`/paths/~1a/post/parameters/0` is a body parameter without a schema.",
        ),
        (
            with_operation(
                json!({"parameters": [{"name": "q", "type": "string"}], "responses": OK()}),
                json!({}),
            ),
            "`/paths/~1a/post/parameters/0` has no `in` text.",
        ),
        (
            with_operation(
                json!({"parameters": [{"in": "query", "type": "string"}], "responses": OK()}),
                json!({}),
            ),
            "`/paths/~1a/post/parameters/0` has no `name` text.",
        ),
        (
            with_operation(json!({"parameters": {"q": {}}, "responses": OK()}), json!({})),
            "`/paths/~1a/post/parameters` must be a list; it is an object.",
        ),
        (
            with_operation(
                json!({"parameters": [{"in": "query", "name": "q", "type": "array", "collectionFormat": "json"}], "responses": OK()}),
                json!({}),
            ),
            "`/paths/~1a/post/parameters/0` has `collectionFormat: json`, which Swagger 2.0 does not define; it has csv, ssv, tsv, pipes and multi.",
        ),
        (
            with_operation(json!({"summary": 3, "responses": OK()}), json!({})),
            "`/paths/~1a/post/summary` must be a text; it is a number.",
        ),
        (
            with_operation(json!({"deprecated": "yes", "responses": OK()}), json!({})),
            "`/paths/~1a/post/deprecated` must be a boolean; it is a text.",
        ),
        (with_operation(json!({}), json!({})), "`/paths/~1a/post` has no `responses` object."),
        (
            with_operation(json!({"responses": {"200": "OK"}}), json!({})),
            "`/paths/~1a/post/responses/200` must be an object; it is a text.",
        ),
        (
            with_operation(
                json!({"responses": {"200": {"description": "OK", "schema": {"$ref": 1}}}}),
                json!({}),
            ),
            "`/paths/~1a/post/responses/200/schema/$ref` must be a text; it is a number.",
        ),
    ];
    for (doc, message) in cases {
        assert_eq!(error(&doc), message, "{doc}");
    }
    assert_eq!(
        swagger2_to_openapi3(&with_operation(
            json!({"parameters": [{"in": "body", "name": "b"}], "responses": OK()}),
            json!({})
        )),
        Err(ConvertError::BodyWithoutSchema { pointer: "/paths/~1a/post/parameters/0".to_owned() })
    );
}

#[test]
fn schemas_nested_too_deep_are_an_error_not_a_crash() {
    let mut schema = json!({"type": "string"});
    for _ in 0..200 {
        schema = json!({"type": "array", "items": schema});
    }
    let error = swagger2_to_openapi3(&swagger(json!({"definitions": {"Deep": schema}}))).unwrap_err();
    let ConvertError::TooDeep { pointer } = &error else { panic!("{error}") };
    assert_eq!(pointer, &format!("/definitions/Deep{}", "/items".repeat(MAX_DEPTH + 1)));
    assert!(
        error
            .to_string()
            .ends_with("is nested more than 64 schemas deep, deeper than the converter follows.")
    );
    // Just within the limit: converted.
    let mut schema = json!({"type": "string"});
    for _ in 0..MAX_DEPTH {
        schema = json!({"type": "array", "items": schema});
    }
    assert!(swagger2_to_openapi3(&swagger(json!({"definitions": {"Deep": schema}}))).is_ok());
}

#[test]
fn the_classic_swagger_petstore_converts() {
    let Converted { document, notes } = convert(&fixture("petstore.json"));
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(document["openapi"], json!("3.0.3"));
    assert_eq!(document["info"]["title"], json!("Swagger Petstore"));
    assert_eq!(
        document["servers"],
        json!([{"url": "https://petstore.swagger.io/v2"}, {"url": "http://petstore.swagger.io/v2"}])
    );
    let paths = &document["paths"];
    assert_eq!(
        paths["/pet"]["post"]["requestBody"],
        json!({
            "description": "Pet object that needs to be added to the store",
            "content": {
                "application/json": {"schema": {"$ref": "#/components/schemas/Pet"}},
                "application/xml": {"schema": {"$ref": "#/components/schemas/Pet"}}
            },
            "required": true
        })
    );
    assert_eq!(
        paths["/pet/{petId}/uploadImage"]["post"],
        json!({
            "tags": ["pet"],
            "summary": "uploads an image",
            "description": "",
            "operationId": "uploadFile",
            "parameters": [{
                "name": "petId", "in": "path", "description": "ID of pet to update", "required": true,
                "schema": {"type": "integer", "format": "int64"}
            }],
            "requestBody": {"content": {"multipart/form-data": {"schema": {
                "type": "object",
                "properties": {
                    "additionalMetadata": {"description": "Additional data to pass to server", "type": "string"},
                    "file": {"description": "file to upload", "type": "string", "format": "binary"}
                }
            }}}},
            "responses": {"200": {
                "description": "successful operation",
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ApiResponse"}}}
            }},
            "security": [{"petstore_auth": ["write:pets", "read:pets"]}]
        })
    );
    assert_eq!(
        paths["/pet/findByStatus"]["get"]["parameters"][0],
        json!({
            "name": "status", "in": "query", "description": "Status values that need to be considered for filter",
            "required": true, "style": "form", "explode": true,
            "schema": {"type": "array", "items": {"type": "string", "enum": ["available", "pending", "sold"], "default": "available"}}
        })
    );
    assert_eq!(
        paths["/pet/{petId}"]["get"]["responses"]["200"]["content"],
        json!({
            "application/xml": {"schema": {"$ref": "#/components/schemas/Pet"}},
            "application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}
        })
    );
    assert_eq!(
        paths["/user/login"]["get"]["responses"]["200"]["headers"]["X-Rate-Limit"],
        json!({"description": "calls per hour allowed by the user", "schema": {"type": "integer", "format": "int32"}})
    );
    let components = &document["components"];
    assert_eq!(
        components["securitySchemes"],
        json!({
            "petstore_auth": {"type": "oauth2", "flows": {"implicit": {
                "authorizationUrl": "http://petstore.swagger.io/oauth/dialog",
                "scopes": {"write:pets": "modify pets in your account", "read:pets": "read your pets"}
            }}},
            "api_key": {"type": "apiKey", "name": "api_key", "in": "header"}
        })
    );
    assert_eq!(
        components["schemas"]["Pet"]["properties"]["category"],
        json!({"$ref": "#/components/schemas/Category"})
    );
    assert_eq!(
        components["schemas"]["Pet"]["properties"]["tags"]["items"],
        json!({"$ref": "#/components/schemas/Tag"})
    );
    let names: Vec<&String> = components["schemas"].as_object().unwrap().keys().collect();
    assert_eq!(names, ["Order", "Category", "User", "Tag", "Pet", "ApiResponse"]);
    // No reference is left pointing at a Swagger 2.0 place.
    assert!(!document.to_string().contains("#/definitions/"));
}

/// Every `$ref` in `value` that is local.
fn local_refs(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, v) in map {
                match (key.as_str(), v) {
                    ("$ref", Value::String(r)) if r.starts_with('#') => out.push(r.clone()),
                    ("example" | "examples", _) => {}
                    _ => local_refs(v, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| local_refs(v, out)),
        _ => {}
    }
}

#[test]
fn converted_fixtures_load_in_the_reference_and_every_operation_shows() {
    for (name, operations) in [("petstore.json", 20), ("features.json", 9)] {
        let Converted { document, .. } = convert(&fixture(name));
        let mut refs = Vec::new();
        local_refs(&document, &mut refs);
        for reference in refs {
            assert!(document.pointer(&reference[1..]).is_some(), "{name}: {reference} does not resolve");
        }
        let (loaded, catalog) = document::load_json(serde_json::to_vec(&document).unwrap()).unwrap();
        assert_eq!(catalog.operation_count(), operations, "{name}");
        let mut shown = 0;
        for summary in catalog.operations() {
            let view = loaded.operation_view(summary.method, &summary.path);
            let view =
                view.unwrap_or_else(|e| panic!("{name} {} {}: {e}", summary.method.as_str(), summary.path));
            assert_eq!(view.path, summary.path);
            shown += 1;
        }
        assert!(shown >= operations, "{name}: {shown}");
    }
}

#[test]
fn the_features_fixture_shows_its_bodies_and_servers() {
    let Converted { document, notes } = convert(&fixture("features.json"));
    let (loaded, _) = document::load_json(serde_json::to_vec(&document).unwrap()).unwrap();
    let upload = loaded.operation_view(Method::Post, "/animals/{animalId}/photos").unwrap();
    let body = upload.request_body.unwrap();
    assert_eq!(body.media_type, "multipart/form-data");
    assert!(body.required);
    let names: Vec<&str> = body.schema.properties.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["photo", "caption"]);
    assert_eq!(body.schema.properties[0].schema.format.as_deref(), Some("binary"));
    assert_eq!(upload.servers, ["https://zoo.test/api", "http://zoo.test/api"]);
    let search = loaded.operation_view(Method::Get, "/animals").unwrap();
    let kinds = search.parameters.iter().find(|p| p.name == "kind").unwrap();
    assert!(kinds.repeated, "multi is explode: true");
    let tags = search.parameters.iter().find(|p| p.name == "tags").unwrap();
    assert!(!tags.repeated, "csv is explode: false");
    let limit = search.parameters.iter().find(|p| p.name == "limit").unwrap();
    assert_eq!(limit.schema.kind, "integer");
    assert_eq!(search.responses[0].media_type.as_deref(), Some("application/json"));
    assert_eq!(
        notes,
        [
            "`collectionFormat: tsv` of the query parameter `columns` (`/paths/~1animals/get/parameters/3`) has no OpenAPI 3 equivalent; it is described as comma-separated (`style: form`, `explode: false`), and `x-collectionFormat: tsv` keeps the original."
        ]
    );
}

#[cfg(not(target_arch = "wasm32"))]
mod never_panics {
    use super::*;
    use proptest::prelude::*;

    /// Keys a Swagger 2.0 document uses, so arbitrary objects reach the converter's branches.
    const KEYS: [&str; 40] = [
        "swagger",
        "info",
        "title",
        "version",
        "paths",
        "/a",
        "get",
        "post",
        "parameters",
        "in",
        "name",
        "body",
        "formData",
        "query",
        "path",
        "header",
        "type",
        "array",
        "file",
        "items",
        "collectionFormat",
        "schema",
        "$ref",
        "responses",
        "200",
        "description",
        "definitions",
        "properties",
        "allOf",
        "consumes",
        "produces",
        "securityDefinitions",
        "flow",
        "scopes",
        "host",
        "schemes",
        "headers",
        "examples",
        "x-nullable",
        "discriminator",
    ];

    /// Strings a Swagger 2.0 document holds besides its keys.
    const STRINGS: [&str; 6] =
        ["2.0", "#/definitions/A", "#/parameters/p", "#/responses/r", "#%2Fdefinitions%2FA~1b%25", "string"];

    fn json_value() -> impl Strategy<Value = Value> {
        common::json_value(&KEYS, &STRINGS)
    }

    /// Converting must give a document or an error; a converted document must serialize.
    fn check(doc: &Value) {
        if let Ok(Converted { document, .. }) = swagger2_to_openapi3(doc) {
            serde_json::to_vec(&document).unwrap();
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn arbitrary_json(value in json_value()) {
            check(&value);
            // The same value as each part of an otherwise valid document.
            for key in ["paths", "definitions", "parameters", "responses", "securityDefinitions", "tags", "security"] {
                check(&swagger(json!({ key: value.clone() })));
            }
            check(&with_operation(value.clone(), json!({})));
            check(&with_operation(json!({"parameters": [value.clone()], "responses": OK()}), json!({})));
            check(&with_operation(json!({"responses": {"200": value.clone()}}), json!({})));
        }

        #[test]
        fn mutated_petstore(edits in proptest::collection::vec((any::<proptest::sample::Index>(), json_value(), any::<bool>()), 1..5)) {
            let doc = common::edited(fixture("petstore.json"), edits);
            check(&doc);
        }
    }
}
