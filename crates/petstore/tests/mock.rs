//! Host tests of the mock: every operation's success and error paths (table-driven), the
//! transitions the document's description states (`info.description` of
//! `openapi/petstore.yaml`), every limit written in the document, and snapshots.
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test, with its location

use petstore::Mock;
use playground_http::{Request, Response};
use playground_mock::SnapshotError;
use serde_json::{Value, json};

fn send(mock: &mut Mock, method: &str, target: &str, body: Option<Value>) -> Response {
    let request = match body {
        Some(b) => Request::new(method, target).json(&b),
        None => Request::new(method, target),
    };
    let response = mock.handle(&request);
    if response.status >= 400 {
        // Every error is the Error object with the HTTP status inside.
        let e = response.json().unwrap_or_else(|| panic!("{method} {target}: error without JSON body"));
        assert_eq!(e["status"], response.status, "{method} {target}: {e}");
        assert!(e["code"].is_string() && e["message"].is_string(), "{method} {target}: {e}");
        assert_eq!(response.header_value("Content-Type"), Some("application/json"));
    }
    response
}

fn code(r: &Response) -> String {
    r.json().map(|e| e["code"].as_str().unwrap_or_default().to_owned()).unwrap_or_default()
}

fn message(r: &Response) -> String {
    r.json().map(|e| e["message"].as_str().unwrap_or_default().to_owned()).unwrap_or_default()
}

#[test]
fn every_operation_success_and_error_paths() {
    // (method, target, body, status, code) on one seeded mock, in order: later rows see the
    // state that earlier rows left.
    let rows: Vec<(&str, &str, Option<Value>, u16, &str)> = vec![
        ("GET", "/pets", None, 200, ""),
        ("GET", "/pets?status=available&status=sold&categoryId=2&limit=5&offset=0", None, 200, ""),
        ("GET", "/pets?status=lost", None, 400, "invalid_parameter"),
        ("GET", "/pets?limit=", None, 400, "invalid_parameter"),
        ("GET", "/pets?limit=abc", None, 400, "invalid_parameter"),
        ("GET", "/pets?limit=0", None, 400, "invalid_parameter"),
        ("GET", "/pets?limit=101", None, 400, "invalid_parameter"),
        ("GET", "/pets?limit=1&limit=2", None, 400, "invalid_parameter"),
        ("GET", "/pets?offset=-1", None, 400, "invalid_parameter"),
        ("GET", "/pets?categoryId=9223372036854775808", None, 400, "invalid_parameter"),
        ("POST", "/pets", Some(json!({"name": "Rex", "categoryId": 1})), 201, ""),
        ("POST", "/pets", Some(json!({"name": "Rex", "categoryId": 99})), 422, "validation_failed"),
        ("POST", "/pets", Some(json!({"name": "Rex"})), 422, "validation_failed"),
        ("POST", "/pets", Some(json!({"name": "Rex", "categoryId": "1"})), 422, "validation_failed"),
        ("GET", "/pets/1", None, 200, ""),
        ("GET", "/pets/999", None, 404, "not_found"),
        ("GET", "/pets/abc", None, 400, "invalid_parameter"),
        ("GET", "/pets/0", None, 400, "invalid_parameter"),
        ("GET", "/pets/9223372036854775807", None, 404, "not_found"),
        ("PUT", "/pets/1", Some(json!({"name": "Rex II", "categoryId": 2, "status": "available"})), 200, ""),
        ("PUT", "/pets/999", Some(json!({"name": "X", "categoryId": 1})), 404, "not_found"),
        ("PUT", "/pets/1", Some(json!({"name": "X", "categoryId": 42})), 422, "validation_failed"),
        ("GET", "/categories", None, 200, ""),
        ("POST", "/categories", Some(json!({"name": "Fish", "description": "Quiet."})), 201, ""),
        ("POST", "/categories", Some(json!({"name": " dogs "})), 409, "duplicate_category"),
        ("GET", "/categories/4", None, 200, ""),
        ("GET", "/categories/40", None, 404, "not_found"),
        ("PUT", "/categories/4", Some(json!({"name": "Fishes"})), 200, ""),
        ("PUT", "/categories/4", Some(json!({"name": "CATS"})), 409, "duplicate_category"),
        ("PUT", "/categories/40", Some(json!({"name": "Fishes"})), 404, "not_found"),
        ("DELETE", "/categories/1", None, 409, "category_in_use"),
        ("DELETE", "/categories/4", None, 204, ""),
        ("DELETE", "/categories/4", None, 404, "not_found"),
        ("POST", "/store/orders", Some(json!({"petId": 2, "quantity": 2})), 201, ""),
        ("POST", "/store/orders", Some(json!({"petId": 2})), 409, "pet_not_available"),
        ("POST", "/store/orders", Some(json!({"petId": 3, "quantity": 3})), 409, "insufficient_stock"),
        ("POST", "/store/orders", Some(json!({"petId": 999})), 422, "validation_failed"),
        ("POST", "/store/orders", Some(json!({"quantity": 1})), 422, "validation_failed"),
        ("POST", "/store/orders", Some(json!({"petId": 3, "complete": true})), 422, "validation_failed"),
        ("POST", "/store/orders", Some(json!({"petId": 3, "shipDate": "soon"})), 422, "validation_failed"),
        ("GET", "/store/orders?complete=false&petId=2", None, 200, ""),
        ("GET", "/store/orders?complete=maybe", None, 400, "invalid_parameter"),
        ("GET", "/store/orders/1", None, 200, ""),
        ("GET", "/store/orders/9", None, 404, "not_found"),
        (
            "PUT",
            "/pets/2",
            Some(json!({"name": "Bella", "categoryId": 1, "status": "sold"})),
            409,
            "pet_has_open_orders",
        ),
        ("DELETE", "/pets/2", None, 409, "pet_has_open_orders"),
        ("POST", "/store/orders/1/complete", None, 200, ""),
        ("POST", "/store/orders/1/complete", None, 409, "order_completed"),
        ("POST", "/store/orders/9/complete", None, 404, "not_found"),
        ("DELETE", "/store/orders/1", None, 409, "order_completed"),
        ("POST", "/store/orders", Some(json!({"petId": 3, "quantity": 1})), 201, ""),
        ("DELETE", "/store/orders/2", None, 204, ""),
        ("DELETE", "/store/orders/2", None, 404, "not_found"),
        ("GET", "/store/inventory", None, 200, ""),
        ("GET", "/store/inventory?status=sold", None, 200, ""),
        ("GET", "/store/inventory/1", None, 200, ""),
        ("GET", "/store/inventory/999", None, 404, "not_found"),
        ("PUT", "/store/inventory/1", Some(json!({"quantity": 7})), 200, ""),
        ("PUT", "/store/inventory/1", Some(json!({"quantity": -1})), 422, "validation_failed"),
        ("PUT", "/store/inventory/999", Some(json!({"quantity": 1})), 404, "not_found"),
        ("DELETE", "/pets/2", None, 204, ""),
        ("GET", "/store/orders/1", None, 404, "not_found"),
        ("GET", "/nowhere", None, 404, "not_found"),
        ("PATCH", "/pets/1", None, 405, "method_not_allowed"),
    ];
    let mut mock = Mock::seeded();
    for (method, target, body, status, expected_code) in rows {
        let r = send(&mut mock, method, target, body.clone());
        assert_eq!(r.status, status, "{method} {target} {body:?}: {}", String::from_utf8_lossy(&r.body));
        assert_eq!(code(&r), expected_code, "{method} {target}");
        mock.check_invariants().unwrap_or_else(|e| panic!("after {method} {target}: {e}"));
    }
}

#[test]
fn messages_name_the_field_id_or_rule() {
    let mut mock = Mock::seeded();
    let cases = [
        ("GET", "/pets/42", None, "Pet 42 does not exist."),
        ("GET", "/categories/7", None, "Category 7 does not exist."),
        ("POST", "/pets", Some(json!({"name": "Rex", "categoryId": 42})), "categoryId 42 does not exist."),
        ("POST", "/pets", Some(json!({"categoryId": 1})), "name is required."),
        (
            "POST",
            "/pets",
            Some(json!({"name": "x".repeat(120), "categoryId": 1})),
            "name must be at most 100 characters long; it has 120.",
        ),
        (
            "POST",
            "/pets",
            Some(json!({"name": "Rex", "categoryId": 1, "colour": "red"})),
            "colour is not a field of the body; the fields are name, categoryId, status.",
        ),
        (
            "POST",
            "/pets",
            Some(json!({"name": "Rex", "categoryId": 1, "status": "lost"})),
            "status must be one of available, pending, sold; got \"lost\".",
        ),
        (
            "POST",
            "/pets",
            Some(json!({"name": "   ", "categoryId": 1})),
            "name must contain a character other than a space.",
        ),
        ("GET", "/pets?limit=500", None, "Query parameter limit must be at most 100; got 500."),
        ("GET", "/pets/abc", None, "Path parameter petId must be a 64-bit integer; got \"abc\"."),
        ("GET", "/pets?limit=", None, "Query parameter limit is empty; give a value or leave it out."),
        ("PATCH", "/pets/1", None, "PATCH is not allowed on /pets/{petId}; use GET, PUT, DELETE."),
        (
            "POST",
            "/store/orders",
            Some(json!({"petId": 1, "quantity": 6})),
            "Pet 1 has 5 in stock; the order asks for 6.",
        ),
        ("POST", "/store/orders", Some(json!({"petId": 4})), "Pet 4 is sold, not available."),
    ];
    for (method, target, body, expected) in cases {
        let r = send(&mut mock, method, target, body);
        assert_eq!(message(&r), expected, "{method} {target}");
    }
}

#[test]
fn method_not_allowed_lists_the_allowed_methods() {
    let mut mock = Mock::new();
    let r = send(&mut mock, "DELETE", "/pets", None);
    assert_eq!((r.status, r.header_value("Allow")), (405, Some("GET, POST")));
    let r = send(&mut mock, "GET", "/store/orders/1/complete", None);
    assert_eq!((r.status, r.header_value("Allow")), (405, Some("POST")));
}

#[test]
fn bodies_are_checked_for_size_type_and_syntax_before_the_schema() {
    let mut mock = Mock::seeded();
    let big = format!(r#"{{"name": "{}", "categoryId": 1}}"#, "x".repeat(70_000));
    let len = big.len();
    let r = mock.handle(&Request::new("POST", "/pets").header("Content-Type", "application/json").body(big));
    assert_eq!((r.status, code(&r)), (413, "payload_too_large".into()));
    assert_eq!(message(&r), format!("The body is {len} bytes; the limit is 65536 bytes."));

    let r = mock.handle(&Request::new("POST", "/pets").header("Content-Type", "text/plain").body("{}"));
    assert_eq!(
        (r.status, message(&r)),
        (415, "The body must be sent as application/json, not text/plain.".into())
    );

    let r =
        mock.handle(&Request::new("POST", "/pets").header("Content-Type", "application/json").body("{nope"));
    assert_eq!((r.status, code(&r)), (400, "malformed_json".into()));
    assert!(message(&r).contains("line 1 column 2"), "{}", message(&r));

    let r = mock.handle(&Request::new("POST", "/pets").header("Content-Type", "application/json"));
    assert_eq!((r.status, code(&r)), (400, "malformed_json".into()));

    let ok = r#"{"name": "Rex", "categoryId": 1}"#;
    let r = mock.handle(
        &Request::new("POST", "/pets").header("content-type", "application/json; charset=utf-8").body(ok),
    );
    assert_eq!(r.status, 201, "a charset parameter is fine");
    let r = mock.handle(&Request::new("POST", "/pets").body(ok));
    assert_eq!(r.status, 201, "a JSON body without Content-Type is read as JSON");
}

#[test]
fn created_resources_have_a_location_and_increasing_ids() {
    let mut mock = Mock::new();
    let c = send(&mut mock, "POST", "/categories", Some(json!({"name": "  Dogs  "})));
    assert_eq!((c.status, c.header_value("Location")), (201, Some("/categories/1")));
    assert_eq!(c.json().unwrap(), json!({"id": 1, "name": "Dogs"}), "names are trimmed");
    for expected in 1..=3 {
        let p = send(&mut mock, "POST", "/pets", Some(json!({"name": "P", "categoryId": 1})));
        assert_eq!(p.json().unwrap()["id"], expected);
        assert_eq!(p.json().unwrap()["status"], "available");
    }
    send(&mut mock, "DELETE", "/pets/3", None);
    let p = send(&mut mock, "POST", "/pets", Some(json!({"name": "P", "categoryId": 1})));
    assert_eq!(p.json().unwrap()["id"], 4, "a deleted id is not reused");
    let item = send(&mut mock, "GET", "/store/inventory/4", None).json().unwrap();
    assert_eq!(item, json!({"petId": 4, "quantity": 0, "status": "available"}), "a new pet has stock 0");
}

#[test]
fn lists_page_with_limit_offset_and_total_count() {
    let mut mock = Mock::seeded();
    let r = send(&mut mock, "GET", "/pets?limit=2&offset=1", None);
    let ids: Vec<i64> =
        r.json().unwrap().as_array().unwrap().iter().map(|p| p["id"].as_i64().unwrap()).collect();
    assert_eq!(ids, [2, 3]);
    assert_eq!(r.header_value("X-Total-Count"), Some("6"));
    let r = send(&mut mock, "GET", "/pets?status=available&status=sold&categoryId=2", None);
    assert_eq!(r.json().unwrap().as_array().unwrap().len(), 2);
    assert_eq!(r.header_value("X-Total-Count"), Some("2"));
    let r = send(&mut mock, "GET", "/pets?offset=9223372036854775807", None);
    assert_eq!((r.json().unwrap(), r.header_value("X-Total-Count")), (json!([]), Some("6")));
    for path in ["/categories?limit=1", "/store/inventory?limit=1", "/store/orders?limit=1"] {
        assert!(send(&mut mock, "GET", path, None).header_value("X-Total-Count").is_some(), "{path}");
    }
    let r = send(&mut mock, "GET", "http://127.0.0.1:4010/pets?limit=1#frag", None);
    assert_eq!(r.json().unwrap().as_array().unwrap().len(), 1, "full URLs are accepted");
}

#[test]
fn the_deprecated_operation_sends_deprecation_and_sunset_headers() {
    let mut mock = Mock::seeded();
    let r = send(&mut mock, "GET", "/pets/1", None);
    assert_eq!(r.header_value("Deprecation"), Some("@1780272000"));
    assert_eq!(r.header_value("Sunset"), Some("Wed, 30 Jun 2027 23:59:59 GMT"));
    let r = send(&mut mock, "GET", "/store/inventory/1", None);
    assert_eq!(r.header_value("Sunset"), None);
}

#[test]
fn orders_move_stock_and_pet_status_through_their_lifecycle() {
    let mut mock = Mock::seeded();
    let stock = |m: &mut Mock| send(m, "GET", "/store/inventory/1", None).json().unwrap();
    assert_eq!(stock(&mut mock), json!({"petId": 1, "quantity": 5, "status": "available"}));

    let placed = send(&mut mock, "POST", "/store/orders", Some(json!({"petId": 1, "quantity": 2})));
    assert_eq!(placed.header_value("Location"), Some("/store/orders/1"));
    assert_eq!(placed.json().unwrap(), json!({"id": 1, "petId": 1, "quantity": 2, "complete": false}));
    assert_eq!(stock(&mut mock), json!({"petId": 1, "quantity": 3, "status": "pending"}));

    send(&mut mock, "DELETE", "/store/orders/1", None);
    assert_eq!(
        stock(&mut mock),
        json!({"petId": 1, "quantity": 5, "status": "available"}),
        "cancel returns stock"
    );

    let placed = send(
        &mut mock,
        "POST",
        "/store/orders",
        Some(json!({"petId": 1, "shipDate": "2026-12-01T10:00:00Z"})),
    );
    assert_eq!(placed.json().unwrap()["quantity"], 1, "quantity defaults to 1");
    let done = send(&mut mock, "POST", "/store/orders/2/complete", None).json().unwrap();
    assert_eq!(
        done,
        json!({"id": 2, "petId": 1, "quantity": 1, "shipDate": "2026-12-01T10:00:00Z", "complete": true})
    );
    assert_eq!(stock(&mut mock), json!({"petId": 1, "quantity": 4, "status": "sold"}));

    // Stock with open orders stays within the limit.
    send(&mut mock, "PUT", "/store/inventory/5", Some(json!({"quantity": 10})));
    send(&mut mock, "POST", "/store/orders", Some(json!({"petId": 5, "quantity": 10})));
    let r = send(&mut mock, "PUT", "/store/inventory/5", Some(json!({"quantity": 999_991})));
    assert_eq!((r.status, code(&r)), (422, "validation_failed".into()));
    assert!(message(&r).contains("10 units held by open orders"), "{}", message(&r));
}

/// Walks the document: every limit on a request body field is enforced at its boundary.
#[test]
fn every_limit_in_the_document_is_enforced() {
    let doc: Value = serde_json::from_str(petstore::document::PETSTORE_JSON).unwrap();
    let schemas = &doc["components"]["schemas"];
    let ops = [
        ("POST", "/pets", "NewPet"),
        ("PUT", "/pets/1", "NewPet"),
        ("POST", "/categories", "NewCategory"),
        ("PUT", "/categories/1", "NewCategory"),
        ("POST", "/store/orders", "Order"),
        ("PUT", "/store/inventory/1", "InventoryUpdate"),
    ];
    let mut checked = 0;
    for (method, path, schema_name) in ops {
        let schema = &schemas[schema_name];
        let example = schema["example"].clone();
        for (field, prop) in schema["properties"].as_object().unwrap() {
            let mut cases: Vec<(Value, bool)> = Vec::new();
            if let Some(max) = prop["maxLength"].as_u64() {
                cases.push((json!("x".repeat(max as usize)), true));
                cases.push((json!("x".repeat(max as usize + 1)), false));
            }
            if let Some(min) = prop["minLength"].as_u64() {
                cases.push((json!("x".repeat(min as usize)), true));
                if min > 0 {
                    cases.push((json!("x".repeat(min as usize - 1)), false));
                }
            }
            if let Some(min) = prop["minimum"].as_i64() {
                cases.push((json!(min - 1), false));
            }
            if let Some(max) = prop["maximum"].as_i64() {
                cases.push((json!(max + 1), false));
            }
            if prop["format"] == "int64" {
                cases.push((json!(9_223_372_036_854_775_808_u64), false));
            }
            if prop["type"] == "integer" {
                cases.push((json!(1.5), false));
                cases.push((json!("1"), false));
            }
            if prop["format"] == "date-time" {
                cases.push((json!("2026-13-01T00:00:00Z"), false));
            }
            if prop["$ref"] == "#/components/schemas/PetStatus" {
                cases.push((json!("lost"), false));
            }
            for (value, valid) in cases {
                let mut body = example.clone();
                body.as_object_mut().unwrap().remove("id");
                body[field.as_str()] = value.clone();
                let mut mock = Mock::seeded();
                let r = send(&mut mock, method, path, Some(body.clone()));
                let names_field = r.status == 422 && message(&r).starts_with(field.as_str());
                assert_eq!(!names_field, valid, "{method} {path} {body}: {} {}", r.status, message(&r));
                checked += 1;
            }
        }
        // Required fields and unknown fields.
        for field in schema["required"].as_array().into_iter().flatten() {
            let mut body = example.clone();
            body.as_object_mut().unwrap().remove(field.as_str().unwrap());
            let r = send(&mut Mock::seeded(), method, path, Some(body));
            assert_eq!(message(&r), format!("{} is required.", field.as_str().unwrap()), "{method} {path}");
            checked += 1;
        }
        let mut body = example.clone();
        body["unexpected"] = json!(1);
        let r = send(&mut Mock::seeded(), method, path, Some(body));
        assert_eq!(r.status, 422, "{method} {path}: additionalProperties: false");
    }
    assert!(checked > 40, "only {checked} limits checked");

    // Query parameter limits come from the same document.
    let mut mock = Mock::seeded();
    for (query, ok) in [
        ("limit=1", true),
        ("limit=100", true),
        ("limit=0", false),
        ("limit=101", false),
        ("offset=0", true),
        ("offset=-1", false),
        ("categoryId=0", false),
    ] {
        let r = send(&mut mock, "GET", &format!("/pets?{query}"), None);
        assert_eq!(r.status == 200, ok, "{query}: {}", message(&r));
    }
}

#[test]
fn snapshots_round_trip_and_bad_ones_leave_the_state_alone() {
    let mut mock = Mock::seeded();
    send(&mut mock, "POST", "/store/orders", Some(json!({"petId": 1})));
    let snapshot = mock.snapshot();
    let copy = Mock::from_snapshot(&snapshot).unwrap();
    assert_eq!(copy.snapshot(), snapshot);
    assert_eq!(copy.counts(), mock.counts());

    let mut fresh = Mock::new();
    let before = fresh.snapshot();
    let mut tampered: Value = serde_json::from_str(&snapshot).unwrap();
    tampered["pets"][0]["categoryId"] = json!(77);
    let cases = [
        ("not json".to_owned(), "not a mock snapshot"),
        ("{}".to_owned(), "no version field"),
        (r#"{"version": 2}"#.to_owned(), "has version 2; this mock reads version 1"),
        (tampered.to_string(), "pet 1 belongs to category 77, which does not exist"),
        (
            snapshot.replace(r#""status":"pending""#, r#""status":"available""#),
            "pet 1 has an open order but is available",
        ),
    ];
    for (text, expected) in cases {
        let error = fresh.restore(&text).unwrap_err();
        assert!(error.to_string().contains(expected), "{error}");
        assert_eq!(fresh.snapshot(), before, "state untouched after {error}");
    }
    assert!(matches!(
        fresh.restore(r#"{"version": 9}"#),
        Err(SnapshotError::UnsupportedVersion { found: 9, .. })
    ));
    fresh.restore(&snapshot).unwrap();
    assert_eq!(fresh.snapshot(), snapshot);
}

#[test]
fn revision_counts_changes_not_reads() {
    let mut mock = Mock::seeded();
    let r0 = mock.revision();
    send(&mut mock, "GET", "/pets", None);
    send(&mut mock, "POST", "/pets", Some(json!({"name": "X", "categoryId": 99})));
    assert_eq!(mock.revision(), r0, "reads and refused writes change nothing");
    send(&mut mock, "POST", "/pets", Some(json!({"name": "X", "categoryId": 1})));
    assert_eq!(mock.revision(), r0 + 1);
    mock.reset(false);
    assert_eq!(mock.counts().pets, 0);
    assert_eq!(mock.revision(), r0 + 2);
}

/// 2^53 - 1: the largest id the mock gives out (the largest integer JavaScript reads exactly).
const LAST_ID: i64 = 9_007_199_254_740_991;

/// The seeded mock with every kind's next id set to `next`.
fn with_next_ids(next: i64) -> String {
    let mut snapshot: Value = serde_json::from_str(&Mock::seeded().snapshot()).unwrap();
    snapshot["nextIds"] = json!({"category": next, "pet": next, "order": next});
    snapshot.to_string()
}

#[test]
fn ids_run_out_with_an_error_object_and_the_state_stays_readable() {
    let mut mock = Mock::from_snapshot(&with_next_ids(LAST_ID - 1)).unwrap();
    for round in 0..2 {
        let pet =
            send(&mut mock, "POST", "/pets", Some(json!({"name": format!("P{round}"), "categoryId": 1})));
        assert_eq!(pet.status, 201, "{}", message(&pet));
        assert_eq!(pet.json().unwrap()["id"], LAST_ID - 1 + round);
        let category = send(&mut mock, "POST", "/categories", Some(json!({"name": format!("C{round}")})));
        assert_eq!(category.json().unwrap()["id"], LAST_ID - 1 + round);
        let pet_id = round + 1;
        let order = send(&mut mock, "POST", "/store/orders", Some(json!({ "petId": pet_id })));
        assert_eq!(order.json().unwrap()["id"], LAST_ID - 1 + round);
    }
    let full = mock.snapshot();
    for (target, body, kind) in [
        ("/pets", json!({"name": "One more", "categoryId": 1}), "pet"),
        ("/categories", json!({"name": "One more"}), "category"),
        ("/store/orders", json!({"petId": 3}), "order"),
    ] {
        let refused = send(&mut mock, "POST", target, Some(body));
        assert_eq!((refused.status, code(&refused).as_str()), (409, "ids_exhausted"), "{target}");
        assert!(
            message(&refused).contains(&format!("every {kind} id up to {LAST_ID}")),
            "{}",
            message(&refused)
        );
    }
    assert_eq!(mock.snapshot(), full, "a refused create changes nothing");
    mock.check_invariants().unwrap();
    // A full mock is saved and read back like any other: a reload does not start empty.
    let again = Mock::from_snapshot(&full).unwrap();
    assert_eq!(again.snapshot(), full);
    // Reads, updates and deletes go on.
    assert_eq!(send(&mut mock, "GET", &format!("/pets/{LAST_ID}"), None).status, 200);
    assert_eq!(send(&mut mock, "DELETE", &format!("/store/orders/{LAST_ID}"), None).status, 204);
}

#[test]
fn snapshots_whose_ids_could_not_be_read_exactly_are_refused() {
    let mut mock = Mock::seeded();
    let before = mock.snapshot();
    for next in [LAST_ID + 2, i64::MAX - 1, i64::MAX] {
        let error = mock.restore(&with_next_ids(next)).unwrap_err();
        assert!(matches!(error, SnapshotError::Inconsistent(_)), "{error}");
        assert!(
            error.to_string().contains(&format!("the next category id is {next}, past {LAST_ID}")),
            "{error}"
        );
        assert_eq!(mock.snapshot(), before, "state untouched after {error}");
    }
    // The largest next id a full mock has is accepted.
    mock.restore(&with_next_ids(LAST_ID + 1)).unwrap();
    let refused = send(&mut mock, "POST", "/pets", Some(json!({"name": "X", "categoryId": 1})));
    assert_eq!(code(&refused), "ids_exhausted");
}

#[test]
fn the_rules_sit_on_the_generic_mock_of_the_petstore_document() {
    use playground_mock::{ApiMock, Delay, FailureOptions, MockOptions, OperationOptions};
    // The generic mock reads every part of the document: all its patterns are enforced.
    let generic = ApiMock::from_json(petstore::document::PETSTORE_JSON.as_bytes()).unwrap();
    assert_eq!(generic.notes(), [] as [String; 0]);

    // Prefer picks a documented answer, as for any document.
    let mut mock = Mock::seeded();
    let preferred = mock.handle(&Request::new("GET", "/pets/1").header("Prefer", "code=404"));
    assert_eq!(
        (preferred.status, preferred.json().unwrap()),
        (404, json!({"code": "not_found", "message": "Pet 42 does not exist.", "status": 404}))
    );
    assert_eq!(mock.revision(), 0);

    // The options of any mock: delay, failures per operation, checks off.
    let mut options =
        MockOptions { validate: false, delay: Some(Delay { min: 5, max: 5 }), ..MockOptions::default() };
    let failing = FailureOptions { rate: 1.0, status: Some(503), network: false };
    options.operations.insert(
        "placeOrder".to_owned(),
        OperationOptions { failure: Some(failing), ..OperationOptions::default() },
    );
    let mut mock = Mock::seeded().with_options(options);
    let order = Request::new("POST", "/store/orders").json(&json!({"petId": 1}));
    let failed = mock.handle_timed(&order);
    assert_eq!((failed.response.status, failed.delay_ms), (503, 5));
    assert_eq!(mock.counts().orders, 0, "a failed request changes nothing");
    assert_eq!(send(&mut mock, "GET", "/pets?limit=500", None).status, 200, "checks are off");
    // A number without a fraction is an integer.
    let whole = send(&mut mock, "POST", "/pets", Some(json!({"name": "Pip", "categoryId": 2.0})));
    assert_eq!((whole.status, whole.json().unwrap()["categoryId"].clone()), (201, json!(2)));
    // The business rules hold whatever the options.
    let r = send(&mut mock, "POST", "/pets", Some(json!({"name": "Rex", "categoryId": 42})));
    assert_eq!((r.status, message(&r)), (422, "categoryId 42 does not exist.".to_owned()));
    let r = send(&mut mock, "PUT", "/store/inventory/1", Some(json!({"quantity": 1})));
    assert_eq!(r.status, 200);
    assert_eq!(mock.revision(), 2, "only the changes count");
    mock.check_invariants().unwrap();
}
