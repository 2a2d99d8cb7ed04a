//! A page that cannot break: arbitrary JSON and YAML documents (OpenAPI-shaped, with the
//! keywords the reader, the views and the example generator look at, and real documents with
//! random edits) go through everything the page does with a document, on the host, and nothing
//! panics: reading (whole and as a listing), the list and its rows, every operation's and
//! webhook's view and its HTML, the try-it request and its code samples, the Markdown, the
//! overview, tag and schema pages, and a Swagger 2.0 document's conversion.
#![allow(clippy::unwrap_used)]
// a failed unwrap is a failed test, with its location
// Host only: proptest has no random source in the wasm32 builds here.
#![cfg(not(target_arch = "wasm32"))]

use playground_convert::swagger2_to_openapi3;
use playground_openapi::Catalog;
use playground_reference::DocumentViews;
use std::sync::Arc;

use petstore::document::PETSTORE_JSON;
use playground_openapi::document::{self, AnyDocument, Arriving, DocumentStream, Read};
use playground_openapi::outline::rows;
use playground_reference::html;
use playground_reference::html::row_html;
use playground_reference::markdown;
use playground_reference::{Overview, generate_example};
use playground_tryit_core as tryit;
use playground_tryit_core::request::ParamInput;
use playground_tryit_core::samples;
use proptest::prelude::*;
use serde_json::{Value, json};

// The JSON value strategies the reference's tests share.
#[path = "../../reference/tests/common/mod.rs"]
mod common;

/// The keys the reader, the views and the example generator look at.
const KEYS: &[&str] = &[
    "openapi",
    "swagger",
    "info",
    "title",
    "version",
    "summary",
    "license",
    "identifier",
    "paths",
    "/a",
    "/a/{id}",
    "get",
    "post",
    "query",
    "x-a",
    "parameters",
    "in",
    "name",
    "id",
    "required",
    "requestBody",
    "content",
    "application/json",
    "text/plain",
    "schema",
    "responses",
    "200",
    "default",
    "headers",
    "$ref",
    "components",
    "schemas",
    "pathItems",
    "callbacks",
    "webhooks",
    "x-webhooks",
    "A",
    "B",
    "type",
    "properties",
    "items",
    "prefixItems",
    "allOf",
    "oneOf",
    "anyOf",
    "not",
    "if",
    "then",
    "else",
    "const",
    "enum",
    "nullable",
    "format",
    "minLength",
    "maxLength",
    "pattern",
    "minItems",
    "maxItems",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "multipleOf",
    "additionalProperties",
    "dependentRequired",
    "example",
    "examples",
    "value",
    "description",
    "operationId",
    "tags",
    "x-tagGroups",
    "x-displayName",
    "x-parent",
    "externalDocs",
    "url",
    "security",
    "securitySchemes",
    "servers",
    "x-codeSamples",
    "lang",
    "source",
    "deprecated",
    "x-stability",
    "explode",
    "readOnly",
];

/// Strings the reader, the views and the example generator react to.
const STRINGS: &[&str] = &[
    "3.0.3",
    "3.1.0",
    "3.2.0",
    "2.0",
    "#/components/schemas/A",
    "#/components/schemas/B",
    "#/components/pathItems/A",
    "#/paths/~1a",
    "#/paths/~1a~1%7Bid%7D/get",
    "#/webhooks/A",
    "#",
    "javascript:alert(1)",
    "<b>*x*</b> [a](javascript:x)",
    "[a-z]+(",
    "string",
    "object",
    "array",
    "integer",
];

fn json_value() -> impl Strategy<Value = Value> {
    common::json_value(KEYS, STRINGS)
}

/// An OpenAPI 3 document around random parts, so that the reader gets past its first checks.
fn document_around(version: &str, paths: Value, components: Value, webhooks: Value, extra: Value) -> Value {
    let mut doc = json!({"openapi": version, "info": {"title": "T", "version": "1"},
        "paths": paths, "components": components, "webhooks": webhooks});
    if let (Value::Object(doc), Value::Object(extra)) = (&mut doc, extra) {
        doc.extend(extra);
    }
    doc
}

/// Everything the page does with the bytes of a document.
fn exercise(bytes: &[u8]) {
    // As it arrives, in chunks: the list shown while the rest arrives (every view waits).
    let mut stream = DocumentStream::new(bytes.len());
    for chunk in bytes.chunks(61) {
        if let Ok(Some(listing)) = stream.push(chunk) {
            show(&AnyDocument::Arriving(Arc::new(Arriving::new(listing.root))), &listing.catalog);
        }
    }
    let _ = stream.finish();
    {
        match document::read(bytes.to_vec()) {
            Ok(Read::OpenApi(doc, catalog)) => show(&doc, &catalog),
            Ok(Read::Swagger2(text)) => {
                let value: Value = serde_json::from_str(&text).unwrap();
                if let Ok(converted) = swagger2_to_openapi3(&value) {
                    let json = serde_json::to_vec(&converted.document).unwrap();
                    if let Ok((doc, catalog)) = document::load_json(json) {
                        show(&doc, &catalog);
                    }
                }
            }
            Err(e) => assert!(!e.to_string().is_empty()),
        }
    }
}

fn no_patterns(_: &str, _: &str) -> Option<bool> {
    None
}

fn show(doc: &AnyDocument, listed: &Catalog) {
    let catalog = listed;
    for row in rows(&catalog.groups) {
        let _ = row_html(&row, None);
    }
    let _ = catalog.filter("a /");
    let _ = (catalog.operation_count(), catalog.webhook_count());
    let render = |source: &str| Some(markdown::to_safe_html(source));
    let overview = doc.root().map(Overview::from_root).unwrap_or_default();
    let mut page = html::Html::new(&render);
    html::overview(&mut page, catalog, &overview, true);
    for group in &catalog.groups {
        html::tag_page(&mut page, catalog, &overview, &group.name);
    }
    for op in catalog.operations() {
        let Ok(view) = doc.view_of(op) else { continue };
        html::operation(&mut page, &view);
        let params: Vec<ParamInput> = view
            .parameters
            .iter()
            .map(|p| ParamInput {
                location: p.location.clone(),
                name: p.name.clone(),
                text: tryit::initial_text(p),
            })
            .collect();
        let body = view.request_body.as_ref().map(|b| b.example.to_string());
        let (request, _) = tryit::build_request(
            &view,
            "https://api.example.com/v1",
            &params,
            body.as_deref(),
            "X-A: b",
            &no_patterns,
        );
        for lang in samples::Lang::ALL {
            let _ = samples::generate(lang, &request);
        }
    }
    if let Ok(names) = doc.schema_names() {
        html::schema_list(&mut page, &names);
        for name in names.iter().take(16) {
            if let Ok(schema) = doc.schema_view(name) {
                html::schema_page(&mut page, &schema);
            }
        }
    }
}

/// YAML built from fragments that trip YAML readers: anchors and aliases, merge keys, complex
/// keys, tags, odd scalars, flow collections.
fn yaml_text() -> impl Strategy<Value = String> {
    let fragment = proptest::sample::select(vec![
        "openapi: 3.1.0\n",
        "openapi: 3.0.3\n",
        "swagger: '2.0'\n",
        "info: {title: T, version: 1}\n",
        "info: &i {title: T, version: 1.0}\n",
        "x-info: *i\n",
        "paths:\n  /a:\n    get: &op {responses: {'200': {description: ok}}}\n",
        "  /b:\n    post: *op\n",
        "  /c: {<<: {get: {summary: merged}}}\n",
        "  ? [complex, key]\n  : 1\n",
        "components: {schemas: {A: {type: [string, 'null'], minLength: 4000000000}}}\n",
        "webhooks: {w: {post: {requestBody: {content: {application/json: {schema: {$ref: '#/components/schemas/A'}}}}}}}\n",
        "tags: [{name: !!str 1}, {name: yes}, ~]\n",
        "x-n: [.inf, -.inf, .nan, 0x1F, 0o17, 1e400, 12:30:00]\n",
        "x-b: !!binary aGVsbG8=\n",
        "x-s: |\n  multi\n  line\n",
        "x-t: 2001-12-14t21:59:43.10-05:00\n",
        "- list at the root\n",
        "  bad indent: [\n",
        "'unterminated\n",
    ]);
    proptest::collection::vec(fragment, 0..10).prop_map(|parts| parts.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn arbitrary_json_documents(
        version in proptest::sample::select(vec!["3.0.3", "3.1.0", "3.2.0", "2.0", "4.0", ""]),
        paths in json_value(),
        components in json_value(),
        webhooks in json_value(),
        extra in json_value(),
    ) {
        exercise(document_around(version, paths.clone(), components.clone(), webhooks.clone(), extra).to_string().as_bytes());
        // The same parts as a Swagger 2.0 document's.
        let swagger = json!({"swagger": "2.0", "info": {"title": "T", "version": "1"},
            "paths": paths, "definitions": components, "parameters": webhooks});
        exercise(swagger.to_string().as_bytes());
        // Any value at all, and as the only schema of an example.
        exercise(paths.to_string().as_bytes());
        let doc = json!({"components": {"schemas": {"A": components, "B": webhooks}}});
        let _ = generate_example(&doc, &paths);
        let _ = generate_example(&doc, &json!({"$ref": "#/components/schemas/A"}));
    }

    #[test]
    fn edited_real_documents(
        which in 0..3_usize,
        edits in proptest::collection::vec((any::<proptest::sample::Index>(), json_value(), any::<bool>()), 1..6),
    ) {
        let base: Value = match which {
            0 => serde_json::from_str(PETSTORE_JSON).unwrap(),
            1 => serde_json::from_str(&std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../convert/tests/fixtures/swagger2/petstore.json")).unwrap()).unwrap(),
            _ => document_around("3.1.0",
                json!({"/a/{id}": {"parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "integer"}}],
                    "post": {"requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/A"}}}},
                        "callbacks": {"c": {"{$url}": {"$ref": "#/components/pathItems/A"}}},
                        "responses": {"200": {"description": "ok"}}}}}),
                json!({"schemas": {"A": {"type": "object", "properties": {"b": {"$ref": "#/components/schemas/A"}}}},
                    "pathItems": {"A": {"put": {"responses": {"204": {"description": "ok"}}}}}}),
                json!({"w": {"$ref": "#/components/pathItems/A"}}),
                json!({"tags": [{"name": "t", "externalDocs": {"url": "https://example.com"}}]})),
        };
        exercise(common::edited(base, edits).to_string().as_bytes());
    }

    #[test]
    fn arbitrary_yaml_documents(text in yaml_text()) {
        // The page turns YAML into JSON before reading it; so does this (serde_yaml_ng, where
        // the page has js-yaml: both give JSON values, which is what the reader sees).
        if let Ok(value) = serde_yaml_ng::from_str::<Value>(&text) {
            exercise(value.to_string().as_bytes());
        }
        exercise(text.as_bytes());
    }
}

#[test]
fn deep_and_huge_documents_are_read_or_refused_without_a_crash() {
    // Nesting as deep as the JSON reader takes (a schema every other level), with a schema
    // that refers to itself, and limits that would ask for billions of items and characters.
    let mut deep = json!({"type": "string"});
    for _ in 0..60 {
        deep =
            json!({"type": "object", "properties": {"a": deep, "b": {"$ref": "#/components/schemas/Deep"}}});
    }
    let doc = document_around(
        "3.1.0",
        json!({"/a": {"post": {"requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Deep"}}}},
            "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Huge"}}}}}}}}),
        json!({"schemas": {"Deep": deep, "Huge": {"type": "array", "minItems": 2_000_000_000_u64,
            "items": {"type": "string", "minLength": 4_000_000_000_u64}}}}),
        json!({}),
        json!({}),
    );
    let text = doc.to_string();
    let (read, catalog) = document::load_json(text.clone().into_bytes()).unwrap();
    let view = read.operation_view(playground_openapi::catalog::Method::Post, "/a").unwrap();
    let huge = &view.responses[0];
    assert!(!huge.documented);
    assert!(!huge.example_notes.is_empty(), "the example says it was shortened: {huge:?}");
    assert!(huge.examples[0].1.as_array().unwrap().len() <= 3);
    show(&read, &catalog);
    exercise(text.as_bytes());
    // Deeper than the JSON reader takes: refused with a reason.
    let text = format!(
        r#"{{"openapi": "3.1.0", "info": {{"title": "T", "version": "1"}}, "x": {}{}}}"#,
        "[".repeat(5_000),
        "]".repeat(5_000)
    );
    let refused = document::read(text.clone().into_bytes()).err().unwrap().to_string();
    assert!(refused.contains("deep"), "{refused}");
}
