//! Tests of `openapi/petstore.yaml` itself: it is valid OpenAPI 3.0.3, complete against the
//! Petstore's endpoint table (every method, path and tag, listed in
//! `covers_every_endpoint_of_the_design_with_its_tag` below), internally consistent, and every
//! example in it is accepted both by our Rust models and by its own schema (checked with an
//! independent JSON Schema validator).
// The validator is a host-only dev-dependency; these checks of the document run on the host.
#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test, with its location

use std::collections::{BTreeSet, HashSet};

use petstore::document::PETSTORE_JSON;
use petstore::error::{ErrorBody, ErrorCode};
use petstore::model::{
    Category, InventoryItem, InventoryUpdate, NewCategory, NewPet, Order, Pet, PetStatus, Pets,
};
use serde_json::{Value, json};

const METHODS: [&str; 8] = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
const ERROR_REF: &str = "#/components/schemas/Error";

fn doc() -> Value {
    serde_json::from_str(PETSTORE_JSON).expect("embedded document is JSON")
}

/// Follows `$ref` (local JSON pointers only) until a non-reference object.
fn resolve<'a>(doc: &'a Value, value: &'a Value) -> &'a Value {
    playground_openapi::pointer::resolve(doc, value).unwrap_or_else(|e| panic!("{e}"))
}

/// Every operation as (method, path, operation object).
fn operations(doc: &Value) -> Vec<(String, String, &Value)> {
    let mut out = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for method in METHODS {
            if let Some(op) = item.get(method) {
                out.push((method.to_uppercase(), path.clone(), op));
            }
        }
    }
    out
}

/// Every `(where, schema, example)` in the document: media types (request bodies and
/// responses, through references), parameters, headers and schemas with an `example`.
fn examples(doc: &Value) -> Vec<(String, Value, Value)> {
    fn walk(doc: &Value, at: &str, value: &Value, out: &mut Vec<(String, Value, Value)>) {
        match value {
            Value::Object(map) => {
                let is_media_or_param = map.contains_key("schema");
                if is_media_or_param {
                    if let Some(example) = map.get("example") {
                        out.push((at.to_owned(), map["schema"].clone(), example.clone()));
                    }
                    for (name, ex) in map.get("examples").and_then(Value::as_object).into_iter().flatten() {
                        let ex = resolve(doc, ex);
                        out.push((
                            format!("{at}/examples/{name}"),
                            map["schema"].clone(),
                            ex["value"].clone(),
                        ));
                    }
                } else if let (Some(example), Some(_)) =
                    (map.get("example"), map.get("type").or(map.get("$ref")))
                {
                    // A schema carrying its own example.
                    let mut schema = value.clone();
                    schema.as_object_mut().unwrap().remove("example");
                    out.push((at.to_owned(), schema, example.clone()));
                }
                for (key, child) in map {
                    if key != "example" && key != "examples" {
                        walk(doc, &format!("{at}/{key}"), child, out);
                    }
                }
            }
            Value::Array(items) => {
                for (i, child) in items.iter().enumerate() {
                    walk(doc, &format!("{at}/{i}"), child, out);
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(doc, "#", doc, &mut out);
    out
}

/// Validates `instance` against `schema` with the `jsonschema` crate, resolving the
/// document's `#/components/...` references.
fn schema_errors(doc: &Value, schema: &Value, instance: &Value) -> Vec<String> {
    let root = json!({ "allOf": [schema], "components": doc["components"] });
    let validator = jsonschema::options()
        .with_draft(jsonschema::Draft::Draft4)
        .should_validate_formats(true)
        .build(&root)
        .unwrap_or_else(|e| panic!("schema {schema} does not compile: {e}"));
    validator.iter_errors(instance).map(|e| format!("{} at {}", e, e.instance_path())).collect()
}

/// Deserializes an example into the model named by its schema; returns the error if any.
fn model_error(doc: &Value, schema: &Value, example: &Value) -> Option<String> {
    fn check<T: serde::de::DeserializeOwned + serde::Serialize>(v: &Value) -> Option<String> {
        match serde_json::from_value::<T>(v.clone()) {
            // The model must keep every field of the example.
            Ok(model) => {
                let back = serde_json::to_value(&model).unwrap();
                let lost: Vec<_> = v
                    .as_object()
                    .map(|o| o.keys().filter(|k| back.get(k.as_str()).is_none()).cloned().collect())
                    .unwrap_or_default();
                (!lost.is_empty()).then(|| format!("the model drops {lost:?}"))
            }
            Err(e) => Some(e.to_string()),
        }
    }
    let name = |s: &Value| {
        s.get("$ref").and_then(Value::as_str).and_then(|r| r.rsplit('/').next()).map(str::to_owned)
    };
    let (name, array) = match (name(schema), schema.get("items").and_then(name)) {
        (Some(n), _) => (n, false),
        (None, Some(n)) => (n, true),
        (None, None) => return None, // a plain scalar schema: the JSON Schema check covers it
    };
    let items: Vec<Value> = if array { example.as_array()?.clone() } else { vec![example.clone()] };
    items
        .iter()
        .find_map(|item| match name.as_str() {
            "PetStatus" => check::<PetStatus>(item),
            "NewPet" => check::<NewPet>(item),
            "Pet" => check::<Pet>(item),
            "Pets" => check::<Pets>(item),
            "NewCategory" => check::<NewCategory>(item),
            "Category" => check::<Category>(item),
            "Order" => check::<Order>(item),
            "InventoryItem" => check::<InventoryItem>(item),
            "InventoryUpdate" => check::<InventoryUpdate>(item),
            "Error" => check::<ErrorBody>(item),
            other => Some(format!("no model for schema {other}")),
        })
        .filter(|_| resolve(doc, schema).is_object())
}

#[test]
fn parses_as_openapi_3_0_3_with_title_and_version() {
    let api: openapiv3::OpenAPI = serde_json::from_str(PETSTORE_JSON).expect("openapiv3 parses the document");
    assert_eq!(api.openapi, "3.0.3");
    assert_eq!(api.info.title, "Petstore API");
    assert_eq!(api.info.version, "1.0.0");
    let servers: Vec<_> = api.servers.iter().map(|s| s.url.as_str()).collect();
    assert!(servers.contains(&"http://127.0.0.1:4010"), "{servers:?}");
    assert!(servers.iter().any(|s| s.starts_with("https://")), "{servers:?}");
}

#[test]
fn every_ref_resolves() {
    fn walk(doc: &Value, v: &Value, count: &mut usize) {
        match v {
            Value::Object(m) => {
                if let Some(r) = m.get("$ref") {
                    let r = r.as_str().expect("$ref is a string");
                    let pointer = r.strip_prefix('#').unwrap_or_else(|| panic!("external $ref {r}"));
                    assert!(doc.pointer(pointer).is_some(), "$ref {r} does not resolve");
                    *count += 1;
                }
                m.values().for_each(|c| walk(doc, c, count));
            }
            Value::Array(a) => a.iter().for_each(|c| walk(doc, c, count)),
            _ => {}
        }
    }
    let doc = doc();
    let mut count = 0;
    walk(&doc, &doc, &mut count);
    assert!(count > 50, "only {count} references: the walk is not reaching the document");
}

#[test]
fn covers_every_endpoint_of_the_design_with_its_tag() {
    let expected = [
        ("GET", "/pets", "Animals"),
        ("POST", "/pets", "Animals"),
        ("GET", "/pets/{petId}", "Animals"),
        ("PUT", "/pets/{petId}", "Animals"),
        ("DELETE", "/pets/{petId}", "Animals"),
        ("GET", "/categories", "Categories"),
        ("POST", "/categories", "Categories"),
        ("GET", "/categories/{categoryId}", "Categories"),
        ("PUT", "/categories/{categoryId}", "Categories"),
        ("DELETE", "/categories/{categoryId}", "Categories"),
        ("GET", "/store/orders", "Orders"),
        ("POST", "/store/orders", "Orders"),
        ("GET", "/store/orders/{orderId}", "Orders"),
        ("DELETE", "/store/orders/{orderId}", "Orders"),
        ("POST", "/store/orders/{orderId}/complete", "Orders"),
        ("GET", "/store/inventory", "Inventory"),
        ("GET", "/store/inventory/{petId}", "Inventory"),
        ("PUT", "/store/inventory/{petId}", "Inventory"),
    ];
    let doc = doc();
    let actual: BTreeSet<(String, String, String)> = operations(&doc)
        .into_iter()
        .map(|(m, p, op)| (m, p, op["tags"][0].as_str().unwrap_or_default().to_owned()))
        .collect();
    let expected: BTreeSet<_> =
        expected.iter().map(|(m, p, t)| (m.to_string(), p.to_string(), t.to_string())).collect();
    assert_eq!(actual, expected);
}

#[test]
fn every_operation_is_documented_and_tagged_under_a_group() {
    let doc = doc();
    let tags = doc["tags"].as_array().unwrap();
    let parent_of = |name: &str| {
        tags.iter().find(|t| t["name"] == name).map(|t| t.get("x-parent").and_then(Value::as_str))
    };
    let groups: HashSet<&str> =
        tags.iter().filter(|t| t.get("x-parent").is_none()).map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(groups, HashSet::from(["Pets", "Store"]));

    let mut ids = HashSet::new();
    for (method, path, op) in operations(&doc) {
        let at = format!("{method} {path}");
        let id = op["operationId"].as_str().unwrap_or_else(|| panic!("{at}: no operationId"));
        assert!(ids.insert(id.to_owned()), "{at}: duplicate operationId {id}");
        for field in ["summary", "description"] {
            assert!(op[field].as_str().is_some_and(|s| !s.trim().is_empty()), "{at}: no {field}");
        }
        let op_tags = op["tags"].as_array().unwrap_or_else(|| panic!("{at}: no tags"));
        assert_eq!(op_tags.len(), 1, "{at}: one tag each");
        let tag = op_tags[0].as_str().unwrap();
        let parent = parent_of(tag).unwrap_or_else(|| panic!("{at}: tag {tag} is not declared"));
        assert!(parent.is_some_and(|p| groups.contains(p)), "{at}: tag {tag} has no group parent");
        assert!(!groups.contains(tag), "{at}: a group tag holds an operation");

        let responses = op["responses"].as_object().unwrap();
        assert!(responses.keys().any(|s| s.starts_with('2')), "{at}: no success response");
        let errors: Vec<_> =
            responses.iter().filter(|(s, _)| s.starts_with('4') || s.starts_with('5')).collect();
        assert!(!errors.is_empty(), "{at}: no error response");
        for (status, response) in errors {
            let response = resolve(&doc, response);
            let schema_ref = &response["content"]["application/json"]["schema"]["$ref"];
            assert_eq!(schema_ref, ERROR_REF, "{at} {status}: the error response does not use Error");
        }
    }
}

#[test]
fn extensions_mark_what_the_reference_shows() {
    let doc = doc();
    let ops = operations(&doc);
    let find =
        |id: &str| ops.iter().find(|(_, _, op)| op["operationId"] == id).map(|(_, _, op)| *op).unwrap();

    let get_pet = find("getPet");
    assert_eq!(get_pet["deprecated"], true);
    let sunset = get_pet["x-deprecated-sunset"].as_str().unwrap();
    assert!(sunset.len() == 10 && sunset.as_bytes()[4] == b'-', "sunset {sunset} is a YYYY-MM-DD date");
    let headers = get_pet["responses"]["200"]["headers"].as_object().unwrap();
    assert!(headers.contains_key("Deprecation") && headers.contains_key("Sunset"));

    assert_eq!(find("listOrders")["x-hideTryItPanel"], true);
    let stabilities: BTreeSet<&str> =
        ops.iter().filter_map(|(_, _, op)| op["x-stability"].as_str()).collect();
    assert_eq!(stabilities, BTreeSet::from(["beta", "experimental"]));

    let with_samples: Vec<_> = ops.iter().filter(|(_, _, op)| op.get("x-codeSamples").is_some()).collect();
    assert!(with_samples.len() >= 3, "only {} operations have x-codeSamples", with_samples.len());
    for (method, path, op) in with_samples {
        let langs: BTreeSet<&str> =
            op["x-codeSamples"].as_array().unwrap().iter().map(|s| s["lang"].as_str().unwrap()).collect();
        assert_eq!(langs, BTreeSet::from(["JavaScript", "Python", "Shell"]), "{method} {path}");
        for sample in op["x-codeSamples"].as_array().unwrap() {
            let source = sample["source"].as_str().unwrap();
            assert!(
                source.contains("http://127.0.0.1:4010"),
                "{method} {path}: samples target the local mock server"
            );
        }
    }
}

#[test]
fn every_request_body_and_response_with_content_has_an_example() {
    let doc = doc();
    for (method, path, op) in operations(&doc) {
        let mut media = Vec::new();
        if let Some(body) = op.get("requestBody") {
            media.push(("request body".to_owned(), resolve(&doc, body)));
        }
        for (status, response) in op["responses"].as_object().unwrap() {
            media.push((format!("response {status}"), resolve(&doc, response)));
        }
        for (what, holder) in media {
            for (mime, m) in holder.get("content").and_then(Value::as_object).into_iter().flatten() {
                let has = m.get("example").is_some()
                    || m.get("examples").is_some_and(|e| e.as_object().is_some_and(|e| !e.is_empty()));
                assert!(has, "{method} {path} {what} {mime}: no example");
            }
        }
    }
}

#[test]
fn every_example_fits_its_model_and_its_schema() {
    let doc = doc();
    let examples = examples(&doc);
    assert!(
        examples.len() > 80,
        "only {} examples found: the walk is not reaching the document",
        examples.len()
    );
    let mut failures = Vec::new();
    for (at, schema, example) in &examples {
        if let Some(e) = model_error(&doc, schema, example) {
            failures.push(format!("{at}: model: {e}"));
        }
        for e in schema_errors(&doc, schema, example) {
            failures.push(format!("{at}: schema: {e}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_schema_check_does_reject_examples_that_break_the_limits() {
    // Guards the test above against a validator that accepts everything.
    let doc = doc();
    let schema = json!({"$ref": "#/components/schemas/NewPet"});
    let bad = [
        json!({"name": "", "categoryId": 1}),
        json!({"name": "x".repeat(101), "categoryId": 1}),
        json!({"name": "   ", "categoryId": 1}),
        json!({"name": "Rex", "categoryId": 0}),
        json!({"name": "Rex", "categoryId": 1, "status": "lost"}),
        json!({"name": "Rex", "categoryId": 1, "colour": "red"}),
        json!({"categoryId": 1}),
    ];
    for instance in bad {
        assert!(!schema_errors(&doc, &schema, &instance).is_empty(), "accepted {instance}");
    }
    let order = json!({"$ref": "#/components/schemas/Order"});
    assert!(!schema_errors(&doc, &order, &json!({"quantity": 1001})).is_empty());
    assert!(!schema_errors(&doc, &order, &json!({"shipDate": "tomorrow"})).is_empty());
    let stock = json!({"$ref": "#/components/schemas/InventoryUpdate"});
    assert!(!schema_errors(&doc, &stock, &json!({"quantity": 1_000_001})).is_empty());
    assert!(schema_errors(&doc, &stock, &json!({"quantity": 1_000_000})).is_empty());
}

#[test]
fn the_error_code_enum_matches_the_core() {
    let doc = doc();
    let in_doc: Vec<&str> = doc["components"]["schemas"]["Error"]["properties"]["code"]["enum"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    let in_core: Vec<String> = ErrorCode::ALL
        .iter()
        .map(|c| serde_json::to_value(c).unwrap().as_str().unwrap().to_owned())
        .collect();
    assert_eq!(in_doc, in_core);
}

#[test]
fn the_limits_of_the_design_are_written_into_the_schemas() {
    let doc = doc();
    let s = &doc["components"]["schemas"];
    for schema in ["NewPet", "Pet", "NewCategory", "Category"] {
        assert_eq!(s[schema]["properties"]["name"]["minLength"], 1, "{schema}.name");
        assert_eq!(s[schema]["properties"]["name"]["maxLength"], 100, "{schema}.name");
    }
    for schema in ["NewCategory", "Category"] {
        assert_eq!(s[schema]["properties"]["description"]["maxLength"], 1000, "{schema}.description");
    }
    assert_eq!(
        (&s["Order"]["properties"]["quantity"]["minimum"], &s["Order"]["properties"]["quantity"]["maximum"]),
        (&json!(1), &json!(1000))
    );
    for schema in ["InventoryItem", "InventoryUpdate"] {
        let q = &s[schema]["properties"]["quantity"];
        assert_eq!((&q["minimum"], &q["maximum"]), (&json!(0), &json!(1_000_000)), "{schema}.quantity");
    }
    for (schema, field) in [
        ("Pet", "id"),
        ("Pet", "categoryId"),
        ("NewPet", "categoryId"),
        ("Category", "id"),
        ("Order", "id"),
        ("Order", "petId"),
        ("InventoryItem", "petId"),
    ] {
        let f = &s[schema]["properties"][field];
        assert_eq!(
            (&f["type"], &f["format"], &f["minimum"]),
            (&json!("integer"), &json!("int64"), &json!(1)),
            "{schema}.{field}"
        );
    }
}
