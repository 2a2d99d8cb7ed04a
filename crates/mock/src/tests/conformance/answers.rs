//! Answers as the document describes them: media types, numbers, documented statuses, examples
//! and the fields a direction leaves out.

use serde_json::json;

use super::{ApiMock, Request, api, body, ok, path_param};

#[test]
fn whole_numbers_are_answered_as_integers() {
    let item = json!({"type": "object", "properties": {"id": {"type": "integer", "readOnly": true},
        "size": {"type": "integer"}, "count": {"type": "integer", "format": "int32"}, "ratio": {"type": "number"}}});
    let content = json!({"application/json": {"schema": item}});
    let doc = json!({"openapi": "3.0.3", "info": {"title": "T", "version": "1"}, "paths": {
        "/items": {"post": {"requestBody": {"content": content}, "responses": {"201": {"description": "", "content": content}}}},
        "/items/{id}": {"get": {"parameters": path_param("id", json!({"type": "integer"})),
            "responses": {"200": {"description": "", "content": content}}}}
    }});
    let mut mock = ApiMock::from_document(doc).unwrap();
    let sent = r#"{"size": 1413939913300392681838224227442589696, "count": 39245.0, "ratio": 0.5}"#;
    let created =
        mock.handle(&Request::new("POST", "/items").body(sent).header("Content-Type", "application/json"));
    assert_eq!(created.status, 201, "{}", body(&created));
    let read = mock.handle(&Request::new("GET", "/items/1"));
    let text = String::from_utf8(read.body).unwrap();
    assert!(text.contains(r#""count":39245,"#), "{text}");
    // The nearest double, written out: an integer of the same 37 digits, its first 16 exact.
    let size = text.split(r#""size":"#).nth(1).and_then(|rest| rest.split(',').next()).unwrap();
    assert!(size.len() == 37 && size.bytes().all(|b| b.is_ascii_digit()), "{text}");
    assert!(size.starts_with("1413939913300392"), "{text}");
    assert!(text.contains(r#""ratio":0.5"#), "{text}");
}

#[test]
fn answers_with_a_body_say_its_media_type() {
    let problem = json!({"application/problem+json": {"schema": {"type": "object", "properties": {
        "title": {"type": "string"}, "status": {"type": "integer"}}}}});
    let item =
        json!({"type": "object", "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}});
    let mut mock = api(json!({
        "/items": {"post": {"requestBody": {"content": {"application/json": {"schema": item}}},
            "responses": {"201": {"description": "", "content": {"application/json": {"schema": item}}},
                "422": {"description": "", "content": problem}}}},
        "/items/{id}": {"parameters": path_param("id", json!({"type": "integer"})),
            "get": {"responses": {"200": {"description": "", "content": {"*/*": {"schema": item}}},
                "404": {"description": "", "content": problem}}},
            "delete": {"responses": ok("204")}},
        "/text": {"get": {"responses": {"200": {"description": "", "content": {"text/*": {"schema": {"type": "string"}}}}}}}
    }));
    let created = mock.handle(&Request::new("POST", "/items").json(&json!({"name": "a"})));
    assert_eq!(created.header_value("Content-Type"), Some("application/json"));
    let read = mock.handle(&Request::new("GET", "/items/1"));
    assert_eq!(
        (read.status, read.header_value("Content-Type")),
        (200, Some("application/json")),
        "a concrete type for */*"
    );
    assert_eq!(body(&read)["name"], "a");
    let missing = mock.handle(&Request::new("GET", "/items/7"));
    assert_eq!(
        (missing.status, missing.header_value("Content-Type")),
        (404, Some("application/problem+json"))
    );
    assert_eq!(body(&missing)["status"], 404);
    let invalid = mock.handle(&Request::new("POST", "/items").json(&json!({"name": 5})));
    assert_eq!(
        (invalid.status, invalid.header_value("Content-Type")),
        (422, Some("application/problem+json"))
    );
    let deleted = mock.handle(&Request::new("DELETE", "/items/1"));
    assert_eq!((deleted.status, deleted.header_value("Content-Type"), deleted.body.len()), (204, None, 0));
    let refused = mock.handle(&Request::new("PATCH", "/items/1"));
    assert_eq!((refused.status, refused.header_value("Content-Type")), (405, Some("application/json")));
    let text = mock.handle(&Request::new("GET", "/text"));
    assert_eq!(text.header_value("Content-Type"), Some("text/plain"));
    let asked = mock.handle(&Request::new("GET", "/text").header("Accept", "text/csv"));
    assert_eq!(asked.header_value("Content-Type"), Some("text/csv"), "the type the client asked for");
}

#[test]
fn swagger_answers_without_a_body_carry_the_produced_media_type() {
    let pet =
        json!({"type": "object", "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}});
    let id = json!([{"name": "petId", "in": "path", "required": true, "type": "integer"}]);
    let body = json!([{"name": "body", "in": "body", "required": true, "schema": pet}]);
    let doc = json!({"swagger": "2.0", "info": {"title": "T", "version": "1"},
    "produces": ["application/xml", "application/json"],
    "paths": {
        "/pet": {"post": {"parameters": body, "responses": {"200": {"description": "", "schema": pet}}},
            "put": {"parameters": body, "responses": {"400": {"description": "Invalid ID"}}}},
        "/pet/{petId}": {"parameters": id,
            "get": {"responses": {"200": {"description": "", "schema": pet}}},
            "delete": {"produces": ["text/plain"], "responses": {"204": {"description": "gone"}}}},
        "/plain": {"get": {"responses": {"200": {"description": "", "schema": {"type": "string"}}}}}
    }});
    let mut mock = ApiMock::from_document(doc.clone()).unwrap();
    let created = mock.handle(&Request::new("POST", "/pet").json(&json!({"name": "a"})));
    assert_eq!(created.header_value("Content-Type"), Some("application/json"), "{}", super::body(&created));
    let deleted = mock.handle(&Request::new("DELETE", "/pet/1"));
    assert_eq!(
        (deleted.status, deleted.header_value("Content-Type"), deleted.body.len()),
        (204, Some("text/plain"), 0),
        "the operation's own produces"
    );
    let put = mock.handle(&Request::new("PUT", "/pet").json(&json!({"name": "b"})));
    assert_eq!((put.header_value("Content-Type"), put.body.len()), (Some("application/json"), 0));
    let converted = playground_convert::swagger2_to_openapi3(&doc).unwrap().document;
    assert_eq!(converted["paths"]["/pet/{petId}"]["delete"]["x-produces"], json!(["text/plain"]));
    assert_eq!(
        converted["paths"]["/pet"]["put"]["x-produces"],
        json!(["application/xml", "application/json"])
    );
    for (path, method) in [("/pet", "post"), ("/pet/{petId}", "get"), ("/plain", "get")] {
        assert!(
            converted["paths"][path][method].get("x-produces").is_none(),
            "{method} {path}: every answer has a body"
        );
    }
}

#[test]
fn failures_take_a_documented_status_of_the_same_meaning() {
    let item = json!({"type": "object", "properties": {"id": {"type": "integer", "readOnly": true},
        "name": {"type": "string"}}});
    let content = json!({"application/json": {"schema": item}});
    let id = path_param("id", json!({"type": "integer"}));
    let mut mock = api(json!({
        "/things": {"post": {"requestBody": {"content": content},
            "responses": {"201": {"description": "", "content": content}, "400": {"description": ""}}}},
        "/things/{id}": {
            "get": {"parameters": id, "responses": {"200": {"description": "", "content": content},
                "410": {"description": ""}}},
            "delete": {"parameters": id, "responses": ok("204")}}
    }));
    let gone = mock.handle(&Request::new("GET", "/things/7"));
    assert_eq!((gone.status, body(&gone)["code"].clone()), (410, json!("not_found")), "410 stands for 404");
    let refused = mock.handle(&Request::new("POST", "/things").json(&json!({"name": 5})));
    assert_eq!((refused.status, body(&refused)["code"].clone()), (400, json!("validation_failed")));
    assert_eq!(body(&refused)["status"], 400, "the Error object says the status sent");
    let undocumented = mock.handle(&Request::new("DELETE", "/things/7"));
    assert_eq!(undocumented.status, 404, "nothing alike is documented: the status itself");
}

#[test]
fn operations_that_document_only_errors_still_succeed() {
    let pet =
        json!({"type": "object", "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}});
    let content = json!({"application/json": {"schema": pet}});
    let mut mock = api(json!({
        "/pet": {"post": {"requestBody": {"content": content}, "responses": {"405": {"description": "Invalid input"}}},
            "get": {"responses": {"400": {"description": ""}}}},
        "/pet/{petId}": {"parameters": path_param("petId", json!({"type": "integer"})),
            "get": {"responses": {"404": {"description": ""}}},
            "delete": {"responses": {"400": {"description": ""}}}},
        "/pet/findByTags": {"get": {"responses": ok("200")}}
    }));
    let created = mock.handle(&Request::new("POST", "/pet").json(&json!({"name": "Rex"})));
    assert_eq!((created.status, created.header_value("Location")), (201, Some("/pet/1")));
    assert_eq!(created.header_value("Content-Type"), Some("application/json"));
    assert_eq!(body(&created), json!({"id": 1, "name": "Rex"}));
    assert_eq!(body(&mock.handle(&Request::new("GET", "/pet/1"))), json!({"id": 1, "name": "Rex"}));
    assert_eq!(body(&mock.handle(&Request::new("GET", "/pet"))), json!([{"id": 1, "name": "Rex"}]));
    assert_eq!(mock.handle(&Request::new("DELETE", "/pet/1")).status, 204);
    let literal = mock.handle(&Request::new("POST", "/pet/findByTags"));
    assert_eq!((literal.status, literal.header_value("Allow")), (405, Some("GET")), "the literal path first");
    // Outside the stored resources too: a valid request succeeds, a documented redirect is sent.
    let flag = json!([{"name": "production", "in": "query", "schema": {"enum": ["true", "false"]}}]);
    let mut outside = api(json!({
        "/status": {"get": {"parameters": flag, "responses": {"400": {"description": ""}, "403": {"description": ""}}}},
        "/go": {"get": {"responses": {"404": {"description": ""}, "302": {"description": ""}}}}
    }));
    let status = outside.handle(&Request::new("GET", "/status?production=false"));
    assert_eq!((status.status, status.body.len()), (200, 0), "{}", String::from_utf8_lossy(&status.body));
    assert_eq!(
        outside.handle(&Request::new("GET", "/status?production=no")).status,
        400,
        "the enum's texts only"
    );
    assert_eq!(outside.handle(&Request::new("GET", "/go")).status, 302);
}

#[test]
fn an_example_that_a_format_blind_reader_finds_ambiguous_is_not_served() {
    let schema = json!({"oneOf": [
        {"type": "object", "required": ["kind"], "properties": {"kind": {"type": "string"}}},
        {"type": "object", "required": ["kind", "mail"], "properties": {"mail": {"type": "string", "format": "email"}}}
    ]});
    let ambiguous = json!({"kind": "a", "mail": "not an address"});
    let mut mock = api(json!({"/who": {"get": {"responses": {"200": {"description": "", "content": {
        "application/json": {"schema": schema, "example": ambiguous}}}}}}}));
    let answer = body(&mock.handle(&Request::new("GET", "/who")));
    assert_ne!(answer, ambiguous, "generated instead");
    assert!(answer["kind"].is_string(), "{answer}");
}

#[test]
fn answers_leave_out_write_only_fields_and_ids_follow_the_parameter() {
    let mock_schema = json!({"type": "object", "properties": {"id": {"type": "string"},
        "uid": {"type": "string", "readOnly": true}, "name": {"type": "string"},
        "secret": {"type": "string", "writeOnly": true}}});
    let content = json!({"application/json": {"schema": mock_schema}});
    let uid = path_param("mock_uid", json!({"type": "string"}));
    let mut mock = api(json!({
        "/mocks": {"post": {"requestBody": {"content": content}, "responses": {"200": {"description": "", "content": content}}},
            "get": {"responses": {"200": {"description": "", "content": {"application/json": {
                "schema": {"type": "array", "items": mock_schema}}}}}}},
        "/mocks/{mock_uid}": {"parameters": uid,
            "get": {"responses": {"200": {"description": "", "content": content}}},
            "put": {"requestBody": {"content": content}, "responses": {"200": {"description": "", "content": content}}}}
    }));
    assert_eq!(mock.resources()[0].id_field.as_deref(), Some("uid"), "mock_uid names the uid");
    let created =
        body(&mock.handle(&Request::new("POST", "/mocks").json(&json!({"name": "m", "secret": "s3"}))));
    assert!(created.get("secret").is_none(), "writeOnly: {created}");
    let uid = created["uid"].as_str().unwrap();
    let read = body(&mock.handle(&Request::new("GET", format!("/mocks/{uid}"))));
    assert_eq!((read["name"].clone(), read.get("secret")), (json!("m"), None));
    let listed = body(&mock.handle(&Request::new("GET", "/mocks")));
    assert!(listed[0].get("secret").is_none(), "{listed}");
}
