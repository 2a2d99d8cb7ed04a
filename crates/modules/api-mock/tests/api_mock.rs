//! `ApiMock` in headless Chromium: a real server's answers recorded as the seam's types say.
#![cfg(target_arch = "wasm32")]
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test, with its location

use js_sys::{Object, Reflect};
use playground_module_api_mock::JsApiMock;
use playground_seam::{Recorded, Request, Response};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn object(pairs: &[(&str, JsValue)]) -> JsValue {
    let object = Object::new();
    for (name, value) in pairs {
        Reflect::set(&object, &(*name).into(), value).unwrap();
    }
    object.into()
}

#[wasm_bindgen_test]
fn an_api_mock_records_a_real_answer_as_the_seam_says() {
    let thing = serde_json::json!({"application/json": {"schema": {"$ref": "#/components/schemas/Thing"}}});
    let doc = serde_json::json!({
        "openapi": "3.0.3", "info": {"title": "Seam", "version": "1"},
        "components": {"schemas": {"Thing": {"type": "object", "required": ["id"],
            "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}}}},
        "paths": {
            "/things": {
                "get": {"responses": {"200": {"description": "", "content": {"application/json":
                    {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/Thing"}}}}}}},
                "post": {"requestBody": {"content": thing},
                    "responses": {"201": {"description": "", "content": thing}}}
            },
            "/things/{id}": {
                "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "integer"}}],
                "get": {"responses": {"200": {"description": "", "content": thing}}},
                "delete": {"responses": {"204": {"description": ""}}}
            }
        }
    });
    let storage = object(&[("storageKey", JsValue::NULL)]);
    let mock = JsApiMock::new(doc.to_string().into(), Some(storage.unchecked_into())).unwrap();
    let asked = serde_json::to_string(&Request::new("GET", "/things")).unwrap();
    let list = Response {
        status: 200,
        headers: vec![("Content-Type".to_owned(), "application/json".to_owned())],
        body: br#"[{"id": 1}, {"id": 2}]"#.to_vec(),
    };
    let recorded: Recorded =
        serde_json::from_str(&mock.record_json(&asked, &serde_json::to_string(&list).unwrap()).unwrap())
            .unwrap();
    assert_eq!(recorded, Recorded { stored: 2, removed: 0, summary: "2 items stored.".to_owned() });
    let asked = serde_json::to_string(&Request::new("DELETE", "/things/1")).unwrap();
    let gone =
        serde_json::to_string(&Response { status: 204, headers: Vec::new(), body: Vec::new() }).unwrap();
    let recorded: Recorded = serde_json::from_str(&mock.record_json(&asked, &gone).unwrap()).unwrap();
    assert_eq!(recorded, Recorded { stored: 0, removed: 1, summary: "1 item removed.".to_owned() });
}
