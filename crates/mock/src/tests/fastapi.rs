//! FastAPI's validation error: a description FastAPI wrote (`tests/fixtures/fastapi/books.json`)
//! documents 422 as `HTTPValidationError`, `{"detail": [{"loc", "msg", "type"}]}`, and the mock
//! refuses a request with one entry per problem, as FastAPI does.

use serde_json::{Value, json};

use super::{ApiMock, Request, body, post};
use playground_http::Response;

const BOOKS: &str = include_str!("../../../../tests/fixtures/fastapi/books.json");

fn books() -> (ApiMock, Value) {
    let doc: Value = serde_json::from_str(BOOKS).unwrap();
    (ApiMock::from_document(doc.clone()).unwrap(), doc)
}

/// The answer's `detail`, after checking that it is 422 and valid against the document's
/// `HTTPValidationError` (with the crate's validator, and on the host with `jsonschema` too).
fn detail(doc: &Value, response: &Response) -> Vec<Value> {
    let answer = body(response);
    assert_eq!(response.status, 422, "{answer}");
    assert_eq!(response.header_value("Content-Type"), Some("application/json"));
    let schema = json!({"$ref": "#/components/schemas/HTTPValidationError"});
    let (patterns, _) = playground_validate::compile_patterns(doc);
    let validator = playground_validate::Validator::new(doc, &patterns).strict();
    assert_eq!(validator.check(&schema, &answer, ""), Ok(()), "{answer}");
    #[cfg(not(target_arch = "wasm32"))]
    {
        let standalone = json!({
            "$ref": "#/components/schemas/HTTPValidationError",
            "components": doc["components"].clone()
        });
        let checker = jsonschema::options()
            .with_draft(jsonschema::Draft::Draft202012)
            .build(&standalone)
            .expect("the document's schema compiles");
        assert!(checker.is_valid(&answer), "{answer}");
        // The check checks: an entry without `msg` is refused.
        assert!(!checker.is_valid(&json!({"detail": [{"loc": ["body"], "type": "missing"}]})));
    }
    answer["detail"].as_array().cloned().unwrap_or_default()
}

/// Each entry's `(loc, type)`.
fn places(detail: &[Value]) -> Vec<(Value, Value)> {
    detail.iter().map(|e| (e["loc"].clone(), e["type"].clone())).collect()
}

#[test]
fn a_body_field_of_the_wrong_type() {
    let (mut mock, doc) = books();
    let response = mock.handle(&post("/books", &json!({"title": 3, "isbn": "9780306406157"})));
    let detail = detail(&doc, &response);
    assert_eq!(places(&detail), [(json!(["body", "title"]), json!("string_type"))]);
    assert_eq!(detail[0]["msg"], "title must be a string; got an integer.");
    assert_eq!(detail[0]["input"], 3);
}

#[test]
fn a_missing_field_and_every_other_problem_of_the_body() {
    let (mut mock, doc) = books();
    let sent = json!({"title": "", "year": 1000, "subtitle": 5});
    let detail = detail(&doc, &mock.handle(&post("/books", &sent)));
    assert_eq!(
        places(&detail),
        [
            (json!(["body", "isbn"]), json!("missing")),
            (json!(["body", "title"]), json!("string_too_short")),
            (json!(["body", "year"]), json!("greater_than_equal")),
            (json!(["body", "subtitle"]), json!("string_type")),
        ]
    );
    assert_eq!(detail[0]["msg"], "isbn is required.");
    assert_eq!(detail[0]["input"], sent, "a missing field's input is the object it belongs in");
}

#[test]
fn a_pattern_mismatch() {
    let (mut mock, doc) = books();
    let detail = detail(&doc, &mock.handle(&post("/books", &json!({"title": "Dune", "isbn": "12345"}))));
    assert_eq!(places(&detail), [(json!(["body", "isbn"]), json!("string_pattern_mismatch"))]);
    assert_eq!(detail[0]["msg"], r#"isbn must match the pattern ^97[89][0-9]{10}$; got "12345"."#);
}

#[test]
fn path_and_query_parameters() {
    let (mut mock, doc) = books();
    let below = detail(&doc, &mock.handle(&Request::new("GET", "/books/0")));
    assert_eq!(places(&below), [(json!(["path", "book_id"]), json!("greater_than_equal"))]);
    assert_eq!(below[0]["msg"], "Path parameter book_id must be at least 1; got 0.");
    let text = detail(&doc, &mock.handle(&Request::new("GET", "/books/abc")));
    assert_eq!(places(&text), [(json!(["path", "book_id"]), json!("int_parsing"))]);
    assert_eq!(text[0]["input"], "abc");
    let limit = detail(&doc, &mock.handle(&Request::new("GET", "/books?limit=many")));
    assert_eq!(places(&limit), [(json!(["query", "limit"]), json!("int_parsing"))]);
    assert!(limit[0]["msg"].as_str().unwrap().starts_with("Query parameter limit "), "{limit:?}");
    // Good values still pass.
    assert_eq!(mock.handle(&Request::new("GET", "/books?limit=5")).status, 200);
}

#[test]
fn malformed_json_and_an_empty_body() {
    let (mut mock, doc) = books();
    let sent =
        Request::new("POST", "/books").header("Content-Type", "application/json").body(r#"{"title": }"#);
    let detail_of_bad = detail(&doc, &mock.handle(&sent));
    assert_eq!(places(&detail_of_bad), [(json!(["body", 10]), json!("json_invalid"))]);
    assert!(detail_of_bad[0]["msg"].as_str().unwrap().starts_with("The body is not valid JSON"));
    let empty = Request::new("POST", "/books").header("Content-Type", "application/json");
    assert_eq!(places(&detail(&doc, &mock.handle(&empty))), [(json!(["body"]), json!("missing"))]);
}

#[test]
fn at_most_fifty_problems() {
    let doc = json!({
        "openapi": "3.1.0", "info": {"title": "T", "version": "1"},
        "paths": {"/things": {"post": {
            "requestBody": {"required": true, "content": {"application/json": {"schema": {
                "type": "array", "items": {"type": "integer"}}}}},
            "responses": {
                "201": {"description": ""},
                "422": {"description": "", "content": {"application/json": {"schema": {
                    "$ref": "#/components/schemas/Invalid"}}}}}}}},
        "components": {"schemas": {
            "Invalid": {"type": "object", "properties": {"detail": {"type": "array", "items": {
                "type": "object", "required": ["loc", "msg", "type"], "additionalProperties": false,
                "properties": {"loc": {"type": "array"}, "msg": {"type": "string"}, "type": {"type": "string"}}}}}}}}
    });
    let mut mock = ApiMock::from_document(doc).unwrap();
    let many: Vec<Value> = (0..80).map(|i| json!(format!("n{i}"))).collect();
    let answer = body(&mock.handle(&post("/things", &Value::Array(many))));
    let detail = answer["detail"].as_array().unwrap();
    assert_eq!(detail.len(), 50, "{answer}");
    assert_eq!(detail[49]["loc"], json!(["body", 49]));
    assert_eq!(detail[0]["type"], "int_type");
    // A schema that takes no `input` gets none.
    assert!(detail.iter().all(|e| e.get("input").is_none()));
}

#[test]
fn parameters_and_the_body_are_listed_together() {
    let doc = json!({
        "openapi": "3.1.0", "info": {"title": "T", "version": "1"},
        "paths": {"/things/{id}": {"put": {
            "parameters": [
                {"name": "id", "in": "path", "required": true, "schema": {"type": "integer"}},
                {"name": "dry", "in": "query", "required": true, "schema": {"type": "boolean"}}],
            "requestBody": {"required": true, "content": {"application/json": {"schema": {
                "type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}}}}},
            "responses": {
                "200": {"description": ""},
                "400": {"description": "", "content": {"application/json": {"schema": {
                    "type": "object", "properties": {"detail": {"type": "array", "items": {
                        "type": "object", "properties": {"loc": {}, "msg": {}, "type": {}}}}}}}}}}}}}
    });
    let mut mock = ApiMock::from_document(doc).unwrap();
    let response = mock.handle(&Request::new("PUT", "/things/x").json(&json!({})));
    assert_eq!(response.status, 400, "documented 400 and no 422");
    let answer = body(&response);
    let detail = answer["detail"].as_array().unwrap();
    assert_eq!(
        places(detail),
        [
            (json!(["path", "id"]), json!("int_parsing")),
            (json!(["query", "dry"]), json!("missing")),
            (json!(["body", "name"]), json!("missing")),
        ]
    );
}
