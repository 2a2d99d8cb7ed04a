//! The Swagger 2.0 converter module in headless Chromium: a document
//! comes back as OpenAPI 3.0 JSON bytes with its notes, and a document that cannot be converted
//! as a sentence.
#![cfg(target_arch = "wasm32")]
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test, with its location

use js_sys::{Array, Reflect, Uint8Array};
use playground_module_convert::convert_swagger2;
use serde_json::{Value, json};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn get(result: &JsValue, key: &str) -> JsValue {
    Reflect::get(result, &key.into()).unwrap()
}

#[wasm_bindgen_test]
fn a_swagger_2_document_comes_back_as_openapi_30_json_with_its_notes() {
    let swagger = json!({
        "swagger": "2.0",
        "info": {"title": "Zoo", "version": "1"},
        "host": "zoo.test",
        "schemes": ["https"],
        "paths": {"/animals": {"get": {
            "parameters": [{"name": "columns", "in": "query", "type": "array", "items": {"type": "string"}, "collectionFormat": "tsv"}],
            "responses": {"200": {"description": "OK", "schema": {"$ref": "#/definitions/Animal"}}}
        }}},
        "definitions": {"Animal": {"type": "object"}}
    });
    let bytes = serde_json::to_vec(&swagger).unwrap();
    let result: JsValue = convert_swagger2(&bytes).into();
    assert!(get(&result, "error").is_undefined());

    let json = get(&result, "json").dyn_into::<Uint8Array>().unwrap().to_vec();
    let document: Value = serde_json::from_slice(&json).unwrap();
    assert_eq!(document["openapi"], json!("3.0.3"));
    assert_eq!(document["servers"], json!([{"url": "https://zoo.test"}]));
    assert_eq!(
        document["paths"]["/animals"]["get"]["responses"]["200"]["content"],
        json!({"application/json": {"schema": {"$ref": "#/components/schemas/Animal"}}})
    );
    // The reference reads what comes back.
    let (_, catalog) = playground_openapi::document::load_json(json).unwrap();
    assert_eq!(catalog.operation_count(), 1);

    let notes: Vec<String> =
        get(&result, "notes").dyn_into::<Array>().unwrap().iter().map(|n| n.as_string().unwrap()).collect();
    assert_eq!(notes.len(), 1);
    assert!(notes[0].starts_with("`collectionFormat: tsv` of the query parameter `columns`"), "{notes:?}");
}

#[wasm_bindgen_test]
fn what_cannot_be_converted_comes_back_as_a_sentence() {
    for (bytes, message) in [
        (&b"{\"swagger\": \"2.0\",\n  \"info\": }"[..], "The document is not valid JSON: expected value (line 2, column 11)."),
        (
            &br#"{"openapi": "3.0.3", "info": {"title": "T", "version": "1"}, "paths": {}}"#[..],
            "This is an OpenAPI 3.0.3 document already; only Swagger 2.0 documents are converted.",
        ),
        (
            &br#"{"swagger": "2.0", "info": {"title": "T", "version": "1"}, "paths": {"/a": {"post": {"parameters": [{"in": "body", "name": "b"}], "responses": {}}}}}"#[..],
            "`/paths/~1a/post/parameters/0` is a body parameter without a schema.",
        ),
    ] {
        let result: JsValue = convert_swagger2(bytes).into();
        assert_eq!(get(&result, "error").as_string().as_deref(), Some(message));
        assert!(get(&result, "json").is_undefined());
        assert!(get(&result, "notes").is_undefined());
    }
}
