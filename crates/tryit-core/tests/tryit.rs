//! The try-it form's checks, and the requests built for the form and for the examples, sent to
//! the core mock to show they are the requests the server expects.
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test, with its location

use petstore::Mock;
use petstore::document::PETSTORE_JSON;
use playground_http::Request;
use playground_openapi::Catalog;
use playground_reference::OperationView;
use playground_tryit_core::request::{self, ParamInput, example_text};
use playground_tryit_core::{FieldError, build_request, initial_text};
use serde_json::{Value, json};

fn doc() -> Value {
    serde_json::from_str(PETSTORE_JSON).unwrap()
}

fn all_views(doc: &Value) -> Vec<OperationView> {
    let catalog = Catalog::from_value(doc).unwrap();
    catalog.operations().map(|o| OperationView::build(doc, o.method, &o.path).unwrap()).collect()
}

fn view(doc: &Value, id: &str) -> OperationView {
    all_views(doc).into_iter().find(|v| v.operation_id.as_deref() == Some(id)).unwrap()
}

fn input(location: &str, name: &str, text: &str) -> ParamInput {
    ParamInput { location: location.into(), name: name.into(), text: text.into() }
}

fn no_patterns(_: &str, _: &str) -> Option<bool> {
    None
}

fn build(view: &OperationView, params: &[ParamInput], body: Option<&str>) -> (Request, Vec<FieldError>) {
    build_request(view, "", params, body, "", &no_patterns)
}

fn messages(errors: &[FieldError]) -> Vec<String> {
    errors.iter().map(|e| format!("{}: {}", e.field, e.message)).collect()
}

fn send(mock: &mut Mock, request: &Request) -> (u16, Value) {
    let response = mock.handle(request);
    (response.status, response.json().unwrap_or(Value::Null))
}

#[test]
fn query_parameters_are_checked_against_their_schema() {
    let doc = doc();
    let list = view(&doc, "listPets");
    let cases = [
        ("limit", "0", "query:limit: limit must be at least 1; got 0."),
        ("limit", "101", "query:limit: limit must be at most 100; got 101."),
        ("limit", "abc", "query:limit: limit must be a whole number, such as 42; got \u{201c}abc\u{201d}."),
        ("categoryId", " 1", "query:categoryId: categoryId has spaces around its value; remove them."),
        (
            "status",
            "available, lost",
            "query:status: status must be one of available, pending, sold; got \"lost\".",
        ),
    ];
    for (name, text, expected) in cases {
        let (_, errors) = build(&list, &[input("query", name, text)], None);
        assert_eq!(messages(&errors), vec![expected.to_owned()], "{name}={text:?}");
    }
    let (request, errors) =
        build(&list, &[input("query", "status", "available, pending"), input("query", "limit", "2")], None);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(request.target, "/pets?status=available&status=pending&limit=2");
    let (status, body) = send(&mut Mock::seeded(), &request);
    assert_eq!(status, 200);
    assert_eq!(body.as_array().unwrap().len(), 2);
}

#[test]
fn path_parameters_are_required_and_encoded() {
    let doc = doc();
    let get = view(&doc, "getPet");
    let path_param = get.parameters.iter().find(|p| p.location == "path").unwrap();
    assert_eq!(initial_text(path_param), "1");
    let (_, errors) = build(&get, &[input("path", "petId", "")], None);
    assert_eq!(messages(&errors), ["path:petId: petId is required."]);
    let (request, errors) =
        build_request(&get, "http://127.0.0.1:4010", &[input("path", "petId", "3")], None, "", &no_patterns);
    assert!(errors.is_empty());
    assert_eq!(request.target, "http://127.0.0.1:4010/pets/3");
    assert_eq!(request.method, "GET");
}

#[test]
fn the_body_must_be_json_and_the_built_request_creates_the_pet() {
    let doc = doc();
    let create = view(&doc, "createPet");
    let (_, errors) = build(&create, &[], Some("{\"name\": "));
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].field, "body");
    assert!(errors[0].message.starts_with("The body is not valid JSON: EOF while parsing"), "{errors:?}");
    let (_, errors) = build(&create, &[], Some("  "));
    assert_eq!(messages(&errors), ["body: This operation needs a request body."]);

    let body = serde_json::to_string_pretty(&create.request_body.as_ref().unwrap().example).unwrap();
    let (request, errors) = build(&create, &[], Some(&body));
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(request.headers[0], ("Content-Type".to_owned(), "application/json".to_owned()));
    let mut mock = Mock::seeded();
    let (status, created) = send(&mut mock, &request);
    assert_eq!(status, 201, "{created}");
    let (_, list) = send(&mut mock, &build(&view(&doc, "listPets"), &[], None).0);
    assert!(list.as_array().unwrap().iter().any(|pet| pet["id"] == created["id"]), "{list}");
}

#[test]
fn extra_headers_are_added_after_the_form_and_bad_lines_are_refused() {
    let doc = doc();
    let list = view(&doc, "listPets");
    let (request, errors) =
        build_request(&list, "", &[], None, "Authorization: Bearer t\nX-Trace: 7", &no_patterns);
    assert!(errors.is_empty());
    assert_eq!(
        request.headers,
        [("Authorization".into(), "Bearer t".into()), ("X-Trace".into(), "7".into())]
    );
    let (_, errors) = build_request(&list, "", &[], None, "Authorization", &no_patterns);
    assert_eq!(errors[0].field, "headers");
    assert!(errors[0].message.starts_with("Line 1: write a header as Name: value"));
}

#[test]
fn patterns_are_checked_by_the_matcher_the_form_provides() {
    let doc = json!({
        "openapi": "3.0.3",
        "info": {"title": "t", "version": "1"},
        "paths": {"/users/{login}": {"get": {
            "operationId": "getUser",
            "parameters": [
                {"name": "login", "in": "path", "required": true, "example": "octo",
                 "schema": {"type": "string", "pattern": "^[a-z]+$", "maxLength": 8}},
                {"name": "X-Mode", "in": "header", "schema": {"type": "string", "enum": ["fast", "slow"]}},
                {"name": "ids", "in": "query", "explode": false,
                 "schema": {"type": "array", "items": {"type": "integer"}, "maxItems": 2}, "example": [1, 2]}
            ],
            "responses": {"200": {"description": "ok"}}
        }}}
    });
    let get = view(&doc, "getUser");
    let lowercase = |pattern: &str, text: &str| {
        assert_eq!(pattern, "^[a-z]+$");
        Some(text.chars().all(|c| c.is_ascii_lowercase()))
    };
    let ids = get.parameters.iter().find(|p| p.name == "ids").unwrap();
    assert_eq!(example_text(ids), "1, 2");
    assert_eq!(initial_text(ids), "", "optional parameters start empty");
    let (_, errors) = build_request(
        &get,
        "",
        &[
            input("path", "login", "Octo"),
            input("header", "X-Mode", "medium"),
            input("query", "ids", "1,2,3"),
        ],
        None,
        "",
        &lowercase,
    );
    assert_eq!(
        messages(&errors),
        [
            "path:login: login must match the pattern ^[a-z]+$; got \"Octo\".",
            "header:X-Mode: X-Mode must be one of fast, slow; got \"medium\".",
            "query:ids: ids takes at most 2 values; it has 3.",
        ]
    );
    let (request, errors) = build_request(
        &get,
        "https://api.example.com",
        &[input("path", "login", "octo"), input("header", "X-Mode", "fast"), input("query", "ids", "1, 2")],
        None,
        "",
        &lowercase,
    );
    assert!(errors.is_empty());
    assert_eq!(request.target, "https://api.example.com/users/octo?ids=1%2C2");
    assert_eq!(request.headers, [("X-Mode".to_owned(), "fast".to_owned())]);
}

#[test]
fn example_requests_fill_parameters_and_bodies_and_the_mock_answers_them_as_documented() {
    let doc = doc();
    let get = request::example(&view(&doc, "getPet"), "http://127.0.0.1:4010");
    assert_eq!(
        (get.method.as_str(), get.target.as_str(), get.body.as_slice()),
        ("GET", "http://127.0.0.1:4010/pets/1", &b""[..])
    );
    let create = request::example(&view(&doc, "createPet"), "");
    assert_eq!(create.target, "/pets");
    assert_eq!(create.headers, [("Content-Type".to_owned(), "application/json".to_owned())]);
    assert_eq!(create.body, br#"{"name":"Rex","categoryId":1,"status":"available"}"#);

    for v in all_views(&doc) {
        let status = Mock::seeded().handle(&request::example(&v, "")).status.to_string();
        let documented: Vec<&str> = v.responses.iter().map(|r| r.status.as_str()).collect();
        assert!(
            documented.contains(&status.as_str()),
            "{} {}: {status} is not documented ({documented:?})",
            v.method.as_str(),
            v.path
        );
    }
}

#[test]
fn the_form_and_the_examples_build_the_same_request_from_the_same_values() {
    let doc = doc();
    for v in all_views(&doc) {
        let example = request::example(&v, "http://127.0.0.1:4010");
        let params: Vec<ParamInput> = v
            .parameters
            .iter()
            .filter(|p| request::is_sendable(p))
            .map(|p| ParamInput { location: p.location.clone(), name: p.name.clone(), text: initial_text(p) })
            .collect();
        let body = v.request_body.as_ref().map(|b| b.example.to_string());
        let (form, _) =
            build_request(&v, "http://127.0.0.1:4010", &params, body.as_deref(), "", &no_patterns);
        assert_eq!(form, example, "{} {}", v.method.as_str(), v.path);
    }
}

#[test]
fn a_path_parameter_without_an_example_shows_its_name_in_the_example() {
    let doc = json!({
        "openapi": "3.0.3",
        "info": {"title": "t", "version": "1"},
        "paths": {"/things/{id}": {"get": {
            "operationId": "getThing",
            "parameters": [
                {"name": "id", "in": "path", "required": true, "schema": {"type": "string"}},
                {"name": "tags", "in": "query", "required": true,
                 "schema": {"type": "array", "items": {"type": "string"}}, "example": ["a b", "c"]}
            ],
            "responses": {"200": {"description": "ok"}}
        }}}
    });
    let get = view(&doc, "getThing");
    assert_eq!(request::example(&get, "").target, "/things/%7Bid%7D?tags=a+b&tags=c");
    let (form, _) = build(&get, &[input("query", "tags", "a b, c")], None);
    assert_eq!(form.target, "/things/{id}?tags=a+b&tags=c", "an empty field leaves the template");
}
