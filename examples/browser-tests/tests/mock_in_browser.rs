//! A browser test of another crate that drives the Petstore mock directly: no server, no
//! network, no UI. Run with `cargo test --target wasm32-unknown-unknown` (wasm-bindgen-test in
//! headless Chromium); `wasm-pack test --headless --chrome` works the same way.
#![cfg(target_arch = "wasm32")]
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test, with its location

use petstore::mock::Mock;
use playground_http::Request;
use serde_json::json;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn a_created_pet_can_be_ordered_and_its_stock_follows() {
    let mut mock = Mock::seeded();
    let created = mock.handle(&Request::new("POST", "/pets").json(&json!({"name": "Rex", "categoryId": 1})));
    assert_eq!(created.status, 201);
    let id = created.json().unwrap()["id"].as_i64().unwrap();

    let stock =
        mock.handle(&Request::new("PUT", format!("/store/inventory/{id}")).json(&json!({"quantity": 2})));
    assert_eq!(stock.status, 200);
    let order =
        mock.handle(&Request::new("POST", "/store/orders").json(&json!({"petId": id, "quantity": 2})));
    assert_eq!(order.status, 201);

    let item = mock.handle(&Request::new("GET", format!("/store/inventory/{id}"))).json().unwrap();
    assert_eq!(item, json!({"petId": id, "quantity": 0, "status": "pending"}));
}

#[wasm_bindgen_test]
fn errors_come_back_as_error_objects() {
    let mut mock = Mock::new();
    let missing = mock.handle(&Request::new("GET", "/categories/7"));
    assert_eq!(missing.status, 404);
    assert_eq!(
        missing.json().unwrap(),
        json!({"code": "not_found", "message": "Category 7 does not exist.", "status": 404})
    );
}
