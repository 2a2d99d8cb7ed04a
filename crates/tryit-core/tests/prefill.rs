//! The first try works: the request a try-it panel starts with (its body and parameters, filled
//! by `prefill`) passes the description's own checks, sent as it is to the mock of the
//! description (whose validation is the in-browser mock's).
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test, with its location

use playground_mock::ApiMock;
use playground_openapi::Catalog;
use playground_reference::OperationView;
use playground_tryit_core::prefill::prefill;
use playground_tryit_core::request;
use serde_json::{Value, json};

/// Each operation's prefilled request sent to the mock: the operations tried, and the refused
/// ones with the mock's answer. Bodies that are not JSON are left out (the form's fields fill
/// them), as are operations whose view cannot be built.
fn first_try(doc: &Value) -> (usize, Vec<String>) {
    let text = serde_json::to_vec(doc).unwrap();
    let mut mock = ApiMock::from_json(&text).unwrap();
    let catalog = Catalog::from_value(doc).unwrap();
    let (mut tried, mut refused) = (0, Vec::new());
    for operation in catalog.operations() {
        let Ok(mut view) = OperationView::build(doc, operation.method, &operation.path) else { continue };
        if view.request_body.as_ref().is_some_and(|b| !b.media_type.contains("json")) {
            continue;
        }
        prefill(&mut view);
        let request = request::example(&view, "");
        let answer = mock.handle(&request);
        tried += 1;
        if matches!(answer.status, 400 | 415 | 422) {
            refused.push(format!(
                "{} {} -> {} {}",
                request.method,
                request.target,
                answer.status,
                String::from_utf8_lossy(&answer.body)
            ));
        }
    }
    (tried, refused)
}

/// `check` over every public description of the mock's fixtures: the counts summed, the
/// problems named by their file.
fn over_public_fixtures(check: fn(&Value) -> (usize, Vec<String>)) -> (usize, Vec<String>) {
    let dir = format!("{}/../mock/tests/fixtures/public", env!("CARGO_MANIFEST_DIR"));
    let (mut all, mut failed) = (0, Vec::new());
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("json") {
            continue;
        }
        let doc: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let (count, problems) = check(&doc);
        all += count;
        failed.extend(problems.into_iter().map(|p| format!("{}: {p}", path.display())));
    }
    (all, failed)
}

fn read(path: &str) -> Value {
    let text = std::fs::read_to_string(format!("{}/../../{path}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    serde_json::from_str(&text).unwrap()
}

#[test]
fn a_fastapi_description_passes_its_own_checks_on_the_first_try() {
    let doc = read("tests/fixtures/fastapi/books.json");
    let (tried, refused) = first_try(&doc);
    assert!(tried >= 4, "{tried}");
    assert_eq!(refused, Vec::<String>::new());

    // The create's body: the ISBN fits its pattern, the year its integer bounds.
    let catalog = Catalog::from_value(&doc).unwrap();
    let create = catalog.operations().find(|o| o.method.as_str() == "POST" && o.path == "/books").unwrap();
    let mut view = OperationView::build(&doc, create.method, &create.path).unwrap();
    prefill(&mut view);
    let body = &view.request_body.as_ref().unwrap().example;
    let isbn = body["isbn"].as_str().unwrap();
    assert!(isbn.len() == 13 && isbn.starts_with("97") && isbn.chars().all(|c| c.is_ascii_digit()), "{body}");
    assert!(body.get("id").is_none(), "no id in a BookIn: {body}");
    // Optional[int] and Optional[str]: a value, not null, says more.
    assert!(body["year"].as_i64().is_some_and(|y| (1450..=2100).contains(&y)), "{body}");
    assert!(body["subtitle"].is_string(), "{body}");
}

#[test]
fn the_petstore_and_the_public_descriptions_pass_their_own_checks_on_the_first_try() {
    let petstore: Value = serde_json::from_str(petstore::document::PETSTORE_JSON).unwrap();
    let (tried, refused) = first_try(&petstore);
    assert!(tried > 10, "{tried}");
    assert_eq!(refused, Vec::<String>::new());

    let (all, failed) = over_public_fixtures(first_try);
    assert!(all > 20, "{all}");
    assert_eq!(failed, Vec::<String>::new(), "{} of {all} refused", failed.len());
}

#[test]
fn a_documented_example_that_fits_is_kept_and_one_that_does_not_is_replaced_and_said() {
    let doc = json!({
        "openapi": "3.1.0",
        "info": {"title": "T", "version": "1"},
        "paths": {"/things": {"post": {
            "requestBody": {"content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/Thing"},
                "example": {"code": "lower", "id": 3}
            }}},
            "responses": {"201": {"description": "ok"}}
        }, "get": {
            "parameters": [
                {"name": "size", "in": "query", "required": true, "schema": {"type": "integer", "minimum": 10}, "example": 12},
                {"name": "X-Correlation-Id", "in": "header", "required": true, "schema": {"type": "string", "default": ""}},
                {"name": "X-Empty", "in": "header", "required": true, "schema": {"type": "string"}, "example": ""}
            ],
            "responses": {"200": {"description": "ok"}}
        }}},
        "components": {"schemas": {"Thing": {
            "type": "object",
            "required": ["code"],
            "properties": {"id": {"type": "integer", "readOnly": true}, "code": {"type": "string", "pattern": "^[A-Z]{3}$"}}
        }}}
    });
    let catalog = Catalog::from_value(&doc).unwrap();
    let views: Vec<OperationView> = catalog
        .operations()
        .map(|o| {
            let mut view = OperationView::build(&doc, o.method, &o.path).unwrap();
            prefill(&mut view);
            view
        })
        .collect();
    let post = views.iter().find(|v| v.method.as_str() == "POST").unwrap();
    let body = post.request_body.as_ref().unwrap();
    let code = body.example["code"].as_str().unwrap();
    assert!(code.len() == 3 && code.chars().all(|c| c.is_ascii_uppercase()), "{}", body.example);
    assert!(body.example.get("id").is_none(), "readOnly left out: {}", body.example);
    assert_eq!(body.example_notes.len(), 1, "{:?}", body.example_notes);
    assert!(
        body.example_notes[0].starts_with("The document's example does not fit its schema ("),
        "{:?}",
        body.example_notes
    );
    let get = views.iter().find(|v| v.method.as_str() == "GET").unwrap();
    assert_eq!(get.parameters[0].example, Some(json!(12)), "a documented example that fits is kept");
    // A required parameter is never prefilled empty (the form would not send it).
    for param in &get.parameters[1..] {
        let value = param.example.as_ref().and_then(|v| v.as_str()).unwrap_or_default();
        assert!(!value.is_empty(), "{}: {:?}", param.name, param.example);
    }
}

#[test]
fn an_item_path_starts_on_an_id_the_mock_holds() {
    use playground_tryit_core::prefill::{created_id, held_id, item_collection};
    let doc = read("tests/fixtures/fastapi/books.json");
    let catalog = Catalog::from_value(&doc).unwrap();
    let views: Vec<OperationView> =
        catalog.operations().map(|o| OperationView::build(&doc, o.method, &o.path).unwrap()).collect();
    let read_book =
        views.iter().find(|v| v.method.as_str() == "GET" && v.path == "/books/{book_id}").unwrap();
    assert_eq!(item_collection(read_book), Some(("/books".to_owned(), "book_id".to_owned())));
    let list = views.iter().find(|v| v.method.as_str() == "GET" && v.path == "/books").unwrap();
    assert_eq!(item_collection(list), None);

    // Against the mock: the last created comes from its Location, else the first listed.
    let mut mock = ApiMock::from_json(&serde_json::to_vec(&doc).unwrap()).unwrap();
    let mut locations = Vec::new();
    for title in ["First", "Second"] {
        let body = json!({"title": title, "isbn": "9780000000001"});
        let created = mock.handle(&playground_http::Request::new("POST", "/books").json(&body));
        assert_eq!(created.status, 201, "{}", String::from_utf8_lossy(&created.body));
        locations.push(created.header_value("Location").unwrap().to_owned());
    }
    let (collection, last) = created_id(&locations[1]).unwrap();
    assert_eq!(collection, "/books");
    let read = mock.handle(&playground_http::Request::new("GET", format!("/books/{last}")));
    assert_eq!(read.json().unwrap()["title"], "Second");
    let listed = mock.handle(&playground_http::Request::new("GET", "/books")).json().unwrap();
    let first = held_id(&listed, "book_id").unwrap();
    let read = mock.handle(&playground_http::Request::new("GET", format!("/books/{first}")));
    assert_eq!(read.json().unwrap()["title"], "First");

    assert_eq!(created_id("http://127.0.0.1:4010/pets/7?x=1"), Some(("/pets".to_owned(), "7".to_owned())));
    assert_eq!(created_id("/7"), None);
    assert_eq!(
        held_id(&json!({"data": [{"petId": 4}, {"petId": 5}], "total": 2}), "petId"),
        Some("4".to_owned())
    );
    assert_eq!(held_id(&json!([]), "id"), None);
    assert_eq!(held_id(&json!([{"name": "no id"}]), "id"), None);
}

/// Every Example block the try-it module fills, for the operations of `doc`: generated values
/// that fail their schema (in the block's direction), as "operation at: why".
fn misfit_examples(doc: &Value) -> (usize, Vec<String>) {
    use playground_openapi::schema::Direction;
    use playground_tryit_core::prefill::example_fills;
    use playground_validate::{Patterns, Validator};
    let catalog = Catalog::from_value(doc).unwrap();
    let patterns = Patterns::default();
    let (mut filled, mut misfits) = (0, Vec::new());
    for operation in catalog.operations() {
        let Ok(view) = OperationView::build(doc, operation.method, &operation.path) else { continue };
        let fills = example_fills(&view);
        assert_eq!(fills.len(), view.example_slots.len());
        for (slot, fill) in view.example_slots.iter().zip(&fills) {
            assert_eq!(slot.at, fill.at);
            let Some(json) = &fill.json else {
                assert!(slot.documented.is_some(), "only the document's own examples are kept");
                continue;
            };
            assert!(slot.documented.is_none(), "a document's example is never replaced on the page");
            // A value shortened by a cap says so; the others must fit.
            if fill.note.is_some() {
                continue;
            }
            filled += 1;
            let direction = if slot.answer { Direction::Response } else { Direction::Request };
            let validator = Validator::new(&view.schema_document, &patterns).direction(direction).strict();
            let value: Value = serde_json::from_str(json).unwrap();
            if let Err(why) = validator.check(&slot.schema, &value, "") {
                misfits.push(format!("{} {} {}: {why}", view.method.as_str(), view.path, slot.at));
            }
        }
    }
    (filled, misfits)
}

#[test]
fn the_reference_examples_are_the_generators_and_fit_their_schemas() {
    let doc = read("tests/fixtures/fastapi/books.json");
    let (filled, misfits) = misfit_examples(&doc);
    assert!(filled >= 6, "{filled}");
    assert_eq!(misfits, Vec::<String>::new());

    // The create's Example blocks: the request's ISBN fits its pattern (not "string"), and the
    // 201's Book has its id (readOnly is for requests; an answer carries it).
    let catalog = Catalog::from_value(&doc).unwrap();
    let create = catalog.operations().find(|o| o.method.as_str() == "POST" && o.path == "/books").unwrap();
    let view = OperationView::build(&doc, create.method, &create.path).unwrap();
    let fills = playground_tryit_core::prefill::example_fills(&view);
    let request: Value = serde_json::from_str(fills[0].json.as_deref().unwrap()).unwrap();
    assert_eq!(fills[0].at, "request");
    assert!(request["isbn"].as_str().unwrap().starts_with("97"), "{request}");
    let created = fills.iter().find(|f| f.at == "response/0/0").unwrap();
    let created: Value = serde_json::from_str(created.json.as_deref().unwrap()).unwrap();
    assert!(created["isbn"].as_str().unwrap().starts_with("97"), "{created}");

    let (all, failed) = over_public_fixtures(misfit_examples);
    assert!(all > 40, "{all}");
    assert_eq!(failed, Vec::<String>::new(), "{} of {all} do not fit", failed.len());
}

#[test]
fn a_documented_example_that_does_not_fit_stays_on_the_page_with_why() {
    let doc = json!({
        "openapi": "3.1.0",
        "info": {"title": "T", "version": "1"},
        "paths": {"/things": {"post": {
            "requestBody": {"content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/Thing"},
                "example": {"code": "lower"}
            }}},
            "responses": {
                "201": {"description": "ok", "content": {"application/json": {
                    "schema": {"$ref": "#/components/schemas/Thing"},
                    "examples": {"good": {"value": {"code": "ABC", "id": 1}}, "bad": {"value": {"code": "ABC", "id": "one"}}}
                }}},
                "400": {"description": "bad", "content": {"application/json": {"schema": {"type": "object", "properties": {"secret": {"type": "string", "writeOnly": true}, "why": {"type": "string"}}, "required": ["why"]}}}}
            }
        }}},
        "components": {"schemas": {"Thing": {
            "type": "object",
            "required": ["code"],
            "properties": {"id": {"type": "integer", "readOnly": true}, "code": {"type": "string", "pattern": "^[A-Z]{3}$"}}
        }}}
    });
    let view = OperationView::build(&doc, playground_openapi::catalog::Method::Post, "/things").unwrap();
    let fills = playground_tryit_core::prefill::example_fills(&view);
    let at: Vec<&str> = fills.iter().map(|f| f.at.as_str()).collect();
    assert_eq!(at, ["request", "response/0/0", "response/0/1", "response/1/0"]);
    // The document's request example is kept on the page, and said not to fit (its pattern).
    assert_eq!(fills[0].json, None);
    let note = fills[0].note.as_deref().unwrap();
    assert!(note.starts_with("This example from the document does not fit its schema: "), "{note}");
    assert!(note.contains("code must match the pattern") && !note.ends_with(".."), "{note}");
    // An answer's example may hold readOnly fields; the one with a string id does not fit.
    assert_eq!((fills[1].json.as_ref(), fills[1].note.as_ref()), (None, None));
    assert!(fills[2].note.as_deref().unwrap().contains("id"), "{:?}", fills[2]);
    // A generated answer leaves writeOnly out and has what is required.
    let error: Value = serde_json::from_str(fills[3].json.as_deref().unwrap()).unwrap();
    assert!(error["why"].is_string() && error.get("secret").is_none(), "{error}");
    assert_eq!(fills[3].note, None);
}
