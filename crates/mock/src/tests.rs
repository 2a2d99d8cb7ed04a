use serde_json::{Value, json};

use super::*;

/// A small API with the shapes the mock must handle: a collection of notes (integer ids,
/// read-only fields, a wrapper list with a total, paging), posts nested under users (uuid ids),
/// an RPC-style operation with named examples, its own error shape, a base path and security.
#[allow(clippy::too_many_lines)] // the document, as one literal
fn doc() -> Value {
    json!({
        "openapi": "3.1.0",
        "info": {"title": "Notes", "version": "2.0"},
        "servers": [{"url": "https://api.example.com/v1"}],
        "paths": {
            "/notes": {
                "get": {
                    "operationId": "listNotes",
                    "parameters": [
                        {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 50}},
                        {"name": "offset", "in": "query", "schema": {"type": "integer", "minimum": 0}},
                        {"name": "color", "in": "query", "schema": {"type": "string", "enum": ["red", "blue"]}}
                    ],
                    "responses": {"200": {"description": "", "content": {"application/json": {"schema": {
                        "type": "object", "required": ["data", "total"],
                        "properties": {"data": {"type": "array", "items": {"$ref": "#/components/schemas/Note"}},
                                       "total": {"type": "integer"}}}}}}}
                },
                "post": {
                    "operationId": "createNote",
                    "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Note"}}}},
                    "responses": {
                        "201": {"description": "", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Note"}}}},
                        "422": {"description": "", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Problem"}}}}
                    }
                }
            },
            "/notes/{noteId}": {
                "parameters": [{"name": "noteId", "in": "path", "required": true, "schema": {"type": "integer"}}],
                "get": {"operationId": "getNote", "responses": {
                    "200": {"description": "", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Note"}}}},
                    "404": {"description": ""}}},
                "patch": {"operationId": "patchNote",
                    "requestBody": {"content": {"application/merge-patch+json": {"schema": {"type": "object"}}}},
                    "responses": {"200": {"description": "", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Note"}}}}}},
                "put": {"operationId": "replaceNote",
                    "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Note"}}}},
                    "responses": {"200": {"description": "", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Note"}}}}}},
                "delete": {"operationId": "deleteNote", "responses": {"204": {"description": ""}}}
            },
            "/users": {
                "post": {"operationId": "createUser",
                    "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/User"}}}},
                    "responses": {"201": {"description": "", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/User"}}}}}}
            },
            "/users/{userId}": {
                "get": {"operationId": "getUser",
                    "parameters": [{"name": "userId", "in": "path", "required": true, "schema": {"type": "string", "format": "uuid"}}],
                    "responses": {"200": {"description": "", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/User"}}}}}},
                "delete": {"operationId": "deleteUser",
                    "parameters": [{"name": "userId", "in": "path", "required": true, "schema": {"type": "string", "format": "uuid"}}],
                    "responses": {"204": {"description": ""}}}
            },
            "/users/{userId}/posts": {
                "parameters": [{"name": "userId", "in": "path", "required": true, "schema": {"type": "string", "format": "uuid"}}],
                "get": {"operationId": "listPosts", "responses": {"200": {"description": "", "content": {"application/json": {"schema": {
                    "type": "array", "items": {"$ref": "#/components/schemas/Post"}}}}}}},
                "post": {"operationId": "createPost",
                    "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Post"}}}},
                    "responses": {"201": {"description": "", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Post"}}}}}}
            },
            "/users/{userId}/posts/{postId}": {
                "parameters": [
                    {"name": "userId", "in": "path", "required": true, "schema": {"type": "string", "format": "uuid"}},
                    {"name": "postId", "in": "path", "required": true, "schema": {"type": "integer"}}
                ],
                "get": {"operationId": "getPost", "responses": {"200": {"description": "", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Post"}}}}}}
            },
            "/weather": {
                "get": {
                    "operationId": "getWeather",
                    "security": [{"bearer": []}],
                    "parameters": [{"name": "city", "in": "query", "required": true, "schema": {"type": "string", "minLength": 2}}],
                    "responses": {
                        "200": {"description": "", "headers": {"X-Rate-Limit": {"required": true, "schema": {"type": "integer", "minimum": 1}}},
                            "content": {"application/json": {
                                "schema": {"type": "object", "required": ["temp"], "properties": {"temp": {"type": "number"}, "sky": {"type": "string"}}},
                                "examples": {"sunny": {"value": {"temp": 25.5, "sky": "clear"}}, "rainy": {"value": {"temp": 12, "sky": "rain"}}}}}},
                        "404": {"description": "", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Problem"}}}},
                        "503": {"description": "", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Problem"}}}}
                    }
                }
            },
            "/status": {"get": {"operationId": "status", "responses": {"200": {"description": "", "content": {"application/json": {"schema": {
                "type": "object", "required": ["ok", "version"], "properties": {"ok": {"type": "boolean"}, "version": {"type": "string", "pattern": "^\\d+\\.\\d+$"}}}}}}}}}
        },
        "components": {
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
            "schemas": {
                "Note": {"type": "object", "required": ["text"], "properties": {
                    "id": {"type": "integer", "readOnly": true},
                    "text": {"type": "string", "minLength": 1, "maxLength": 200},
                    "color": {"type": "string", "enum": ["red", "blue"]},
                    "createdAt": {"type": "string", "format": "date-time", "readOnly": true}}},
                "User": {"type": "object", "required": ["name"], "properties": {
                    "id": {"type": "string", "format": "uuid", "readOnly": true}, "name": {"type": "string"}}},
                "Post": {"type": "object", "required": ["title"], "properties": {
                    "id": {"type": "integer", "readOnly": true}, "title": {"type": "string"}}},
                "Problem": {"type": "object", "required": ["type", "title", "status"], "additionalProperties": false, "properties": {
                    "type": {"type": "string", "format": "uri"}, "title": {"type": "string"}, "status": {"type": "integer"}, "detail": {"type": "string"}}}
            }
        }
    })
}

fn mock() -> ApiMock {
    ApiMock::from_document(doc()).unwrap()
}

fn post(target: &str, body: &Value) -> Request {
    Request::new("POST", target).json(body)
}

fn body(response: &Response) -> Value {
    serde_json::from_slice(&response.body).unwrap_or(Value::Null)
}

#[test]
fn resources_are_inferred_from_collection_and_item_paths() {
    let mock = mock();
    let resources = mock.resources();
    let collections: Vec<&str> = resources.iter().map(|r| r.collection.as_str()).collect();
    assert_eq!(collections, ["/notes", "/users", "/users/{userId}/posts"]);
    assert_eq!(resources[0].item, "/notes/{noteId}");
    assert_eq!(resources[0].id_field.as_deref(), Some("id"));
}

#[test]
fn create_then_read_back_returns_what_was_created() {
    let mut mock = mock();
    let created = mock.handle(&post("/notes", &json!({"text": "Buy milk", "color": "red"})));
    assert_eq!(created.status, 201, "{}", String::from_utf8_lossy(&created.body));
    assert_eq!(created.header_value("Location"), Some("/notes/1"));
    let note = body(&created);
    assert_eq!(
        (note["id"].clone(), note["text"].clone(), note["color"].clone()),
        (json!(1), json!("Buy milk"), json!("red"))
    );
    assert!(note["createdAt"].is_string(), "read-only fields get generated values: {note}");
    let read = mock.handle(&Request::new("GET", "/notes/1"));
    assert_eq!((read.status, body(&read)), (200, note.clone()));
    let second = body(&mock.handle(&post("/notes", &json!({"text": "Call Bob", "id": 99}))));
    assert_eq!(second["id"], 2, "a read-only id in the request is not taken");
}

#[test]
fn list_pages_filters_and_fills_the_wrapper_total() {
    let mut mock = mock();
    for (i, color) in ["red", "blue", "red", "red"].iter().enumerate() {
        let response = mock.handle(&post("/notes", &json!({"text": format!("n{i}"), "color": color})));
        assert_eq!(response.status, 201);
    }
    let all = mock.handle(&Request::new("GET", "/notes"));
    assert_eq!(all.header_value("X-Total-Count"), Some("4"));
    assert_eq!(body(&all)["total"], 4);
    assert_eq!(body(&all)["data"].as_array().unwrap().len(), 4);
    let page = body(&mock.handle(&Request::new("GET", "/notes?color=red&limit=1&offset=1")));
    assert_eq!(page["total"], 3, "the total counts the filtered items");
    let texts: Vec<&Value> = page["data"].as_array().unwrap().iter().map(|n| &n["text"]).collect();
    assert_eq!(texts, [&json!("n2")]);
}

#[test]
fn replace_patch_and_delete_change_what_is_read() {
    let mut mock = mock();
    mock.handle(&post("/notes", &json!({"text": "one", "color": "red"})));
    let replaced = mock.handle(&Request::new("PUT", "/notes/1").json(&json!({"text": "uno"})));
    assert_eq!(
        (replaced.status, body(&replaced)["text"].clone(), body(&replaced)["id"].clone()),
        (200, json!("uno"), json!(1))
    );
    let patch = Request::new("PATCH", "/notes/1")
        .header("Content-Type", "application/merge-patch+json")
        .body(r#"{"color": "blue"}"#);
    let patched = mock.handle(&patch);
    assert_eq!(patched.status, 200, "{}", String::from_utf8_lossy(&patched.body));
    assert_eq!(
        (body(&patched)["text"].clone(), body(&patched)["color"].clone()),
        (json!("uno"), json!("blue"))
    );
    let emptied = Request::new("PATCH", "/notes/1")
        .header("Content-Type", "application/merge-patch+json")
        .body(r#"{"text": null}"#);
    let refused = mock.handle(&emptied);
    assert_eq!(refused.status, 422, "removing a required field is refused");
    assert_eq!(
        body(&mock.handle(&Request::new("GET", "/notes/1")))["text"],
        "uno",
        "a refused patch changes nothing"
    );
    let revision = mock.revision();
    assert_eq!(mock.handle(&Request::new("DELETE", "/notes/1")).status, 204);
    assert!(mock.revision() > revision);
    let gone = mock.handle(&Request::new("GET", "/notes/1"));
    assert_eq!(gone.status, 404);
    assert_eq!(body(&gone), json!({"code": "not_found", "message": "Note 1 does not exist.", "status": 404}));
    assert_eq!(mock.handle(&Request::new("DELETE", "/notes/1")).status, 404);
    assert_eq!(mock.handle(&Request::new("PUT", "/notes/1").json(&json!({"text": "x"}))).status, 404);
}

#[test]
fn nested_collections_belong_to_their_parent() {
    let mut mock = mock();
    let user = body(&mock.handle(&post("/users", &json!({"name": "Ann"}))));
    let id = user["id"].as_str().unwrap().to_owned();
    assert_eq!(id.len(), 36, "a uuid: {id}");
    let created = mock.handle(&post(&format!("/users/{id}/posts"), &json!({"title": "Hello"})));
    assert_eq!(created.status, 201);
    assert_eq!(created.header_value("Location"), Some(format!("/users/{id}/posts/1").as_str()));
    let posts = body(&mock.handle(&Request::new("GET", format!("/users/{id}/posts"))));
    assert_eq!(posts, json!([{"id": 1, "title": "Hello"}]));
    let other = "00000000-0000-4000-8000-000000000000";
    let missing = mock.handle(&Request::new("GET", format!("/users/{other}/posts")));
    assert_eq!(missing.status, 404);
    assert_eq!(body(&missing)["message"], format!("User {other} does not exist."));
    assert_eq!(mock.handle(&Request::new("DELETE", format!("/users/{id}"))).status, 204);
    let recreated = mock.handle(&post("/users", &json!({"name": "Ann"})));
    assert_eq!(recreated.status, 201);
    assert_eq!(mock.resources()[2].count, 0, "deleting a user deletes its posts");
}

#[test]
fn requests_are_checked_against_the_document() {
    let mut mock = mock();
    let missing = mock.handle(&post("/notes", &json!({"color": "red"})));
    assert_eq!(missing.status, 422);
    let problem = body(&missing);
    assert_eq!(problem["status"], 422);
    assert_eq!(problem["title"], "text is required.", "the document's own error shape: {problem}");
    let bad_query = mock.handle(&Request::new("GET", "/notes?limit=500"));
    assert_eq!(bad_query.status, 400);
    assert_eq!(body(&bad_query)["code"], "invalid_parameter");
    assert_eq!(body(&bad_query)["message"], "Query parameter limit must be at most 50; got 500.");
    let not_a_number = mock.handle(&Request::new("GET", "/notes/abc"));
    assert_eq!(body(&not_a_number)["message"], "Path parameter noteId must be an integer; got \"abc\".");
    let xml =
        mock.handle(&Request::new("POST", "/notes").header("Content-Type", "application/xml").body("<a/>"));
    assert_eq!(
        (xml.status, body(&xml)["title"].clone()),
        (422, json!("The body must be sent as application/json, not application/xml.")),
        "415 is not documented: the refusal the operation documents, in its shape"
    );
    let broken =
        mock.handle(&Request::new("POST", "/notes").header("Content-Type", "application/json").body("{"));
    assert_eq!(broken.status, 422, "400 is not documented either");
    assert!(body(&broken)["title"].as_str().unwrap().starts_with("The body is not valid JSON"));
    let mut relaxed = mock.clone().with_options(MockOptions { validate: false, ..MockOptions::default() });
    assert_eq!(
        relaxed.handle(&post("/notes", &json!({"color": "red"}))).status,
        201,
        "checks can be switched off"
    );
}

#[test]
fn unknown_paths_and_methods_and_the_base_path() {
    let mut mock = mock();
    let unknown = mock.handle(&Request::new("GET", "/nothing"));
    assert_eq!(
        body(&unknown),
        json!({"code": "not_found", "message": "There is no path /nothing in Notes 2.0.", "status": 404})
    );
    let method = mock.handle(&Request::new("DELETE", "/notes"));
    assert_eq!((method.status, method.header_value("Allow")), (405, Some("GET, POST")));
    assert_eq!(
        mock.handle(&Request::new("GET", "/v1/status")).status,
        200,
        "the server's base path is accepted"
    );
    assert_eq!(mock.handle(&Request::new("GET", "http://localhost:4010/v1/status?x=1")).status, 200);
}

#[test]
fn other_operations_answer_from_examples_and_prefer() {
    let mut mock = mock();
    let weather = || Request::new("GET", "/weather?city=Oslo").header("Authorization", "Bearer t");
    let first = mock.handle(&weather());
    assert_eq!((first.status, body(&first)), (200, json!({"temp": 25.5, "sky": "clear"})));
    let limit: i64 = first.header_value("X-Rate-Limit").unwrap().parse().unwrap();
    assert!(limit >= 1, "documented headers are generated from their schema");
    let rainy = mock.handle(&weather().header("Prefer", "example=rainy"));
    assert_eq!(body(&rainy), json!({"temp": 12, "sky": "rain"}));
    let unknown = mock.handle(&weather().header("Prefer", "example=snowy"));
    assert_eq!(
        body(&unknown)["message"],
        "Prefer: example=snowy: this response's examples are sunny, rainy."
    );
    let not_found = mock.handle(&weather().header("Prefer", "code=404"));
    assert_eq!(not_found.status, 404);
    assert!(body(&not_found)["title"].is_string(), "{}", body(&not_found));
    let teapot = mock.handle(&weather().header("Prefer", "code=418"));
    assert_eq!(
        body(&teapot)["message"],
        "Prefer: code=418 names no documented response of getWeather; it documents 200, 404, 503."
    );
    let status = body(&mock.handle(&Request::new("GET", "/status")));
    assert!(
        status["version"].as_str().is_some_and(|v| v.contains('.')),
        "generated from the schema: {status}"
    );
    assert_eq!(body(&mock.handle(&Request::new("GET", "/status"))), status, "the same answer every time");
}

#[test]
fn security_asks_for_credentials() {
    let mut mock = mock();
    let refused = mock.handle(&Request::new("GET", "/weather?city=Oslo"));
    assert_eq!(refused.status, 401);
    assert_eq!(refused.header_value("WWW-Authenticate"), Some("Bearer realm=\"mock\""));
    assert_eq!(
        body(&refused)["message"],
        "getWeather needs credentials: an Authorization header with a Bearer credential."
    );
    let basic = mock.handle(&Request::new("GET", "/weather?city=Oslo").header("Authorization", "Basic eDp5"));
    assert_eq!(basic.status, 401, "the wrong scheme");
    let mut open = mock.with_options(MockOptions { security: false, ..MockOptions::default() });
    assert_eq!(open.handle(&Request::new("GET", "/weather?city=Oslo")).status, 200);
}

#[test]
fn failures_and_delays_come_from_the_options() {
    let failing = MockOptions {
        failure: Some(FailureOptions { rate: 1.0, status: None, network: false }),
        delay: Some(Delay { min: 100, max: 300 }),
        ..MockOptions::default()
    };
    let mut mock = mock().with_options(failing);
    let handled =
        mock.handle_timed(&Request::new("GET", "/weather?city=Oslo").header("Authorization", "Bearer t"));
    assert_eq!(handled.response.status, 503, "the documented server error");
    assert!((100..=300).contains(&handled.delay_ms), "{}", handled.delay_ms);
    assert!(!handled.network_error);
    let mut per_op = MockOptions::default();
    per_op.operations.insert(
        "status".to_owned(),
        OperationOptions {
            delay: Some(Delay { min: 5, max: 5 }),
            failure: Some(FailureOptions { rate: 1.0, status: Some(500), network: true }),
        },
    );
    let mut mock = super::tests::mock().with_options(per_op);
    let status = mock.handle_timed(&Request::new("GET", "/status"));
    assert_eq!((status.response.status, status.delay_ms, status.network_error), (500, 5, true));
    assert_eq!(body(&status.response)["code"], "injected_failure");
    let other = mock.handle_timed(&Request::new("GET", "/notes"));
    assert_eq!(
        (other.response.status, other.delay_ms),
        (200, 0),
        "other operations keep the mock's own options"
    );
    let never = MockOptions {
        failure: Some(FailureOptions { rate: 0.0, status: None, network: false }),
        ..MockOptions::default()
    };
    let mut mock = super::tests::mock().with_options(never);
    assert!((0..50).all(|_| mock.handle(&Request::new("GET", "/status")).status == 200));
    let wrong = MockOptions {
        failure: Some(FailureOptions { rate: 1.5, status: None, network: false }),
        ..MockOptions::default()
    };
    assert_eq!(wrong.check(), Err("failure rate 1.5 is not between 0 and 1".to_owned()));
    assert_eq!(
        Delay::parse("100-50"),
        Err("the delay 100-50 runs backwards; write the shorter one first".to_owned())
    );
    assert_eq!(Delay::parse(" 250 "), Ok(Delay { min: 250, max: 250 }));
}

#[test]
fn snapshots_restore_the_state_of_the_same_api_only() {
    let mut mock = mock();
    mock.handle(&post("/notes", &json!({"text": "keep me"})));
    let snapshot = mock.snapshot();
    let mut fresh = super::tests::mock();
    fresh.restore(&snapshot).unwrap();
    assert_eq!(body(&fresh.handle(&Request::new("GET", "/notes/1")))["text"], "keep me");
    assert_eq!(
        body(&fresh.handle(&post("/notes", &json!({"text": "next"}))))["id"],
        2,
        "the counter is kept"
    );
    let mut other_doc = doc();
    other_doc["info"]["title"] = json!("Other");
    let mut other = ApiMock::from_document(other_doc).unwrap();
    assert!(matches!(other.restore(&snapshot), Err(SnapshotError::Inconsistent(_))));
    assert!(matches!(fresh.restore("{"), Err(SnapshotError::Malformed(_))));
    let future = snapshot.replace("\"version\":1", "\"version\":9");
    assert_eq!(fresh.restore(&future), Err(SnapshotError::UnsupportedVersion { found: 9, expected: 1 }));
    assert_eq!(fresh.resources()[0].count, 2, "a refused snapshot leaves the state alone");
    fresh.reset();
    assert_eq!(fresh.resources()[0].count, 0);
}

#[test]
fn swagger_2_documents_are_converted_and_mocked() {
    let swagger = json!({
        "swagger": "2.0", "info": {"title": "Pets", "version": "1"}, "basePath": "/api",
        "paths": {
            "/pets": {"post": {"parameters": [{"in": "body", "name": "pet", "required": true, "schema": {"$ref": "#/definitions/Pet"}}],
                "responses": {"200": {"description": "", "schema": {"$ref": "#/definitions/Pet"}}}}},
            "/pets/{id}": {"get": {"parameters": [{"in": "path", "name": "id", "required": true, "type": "integer"}],
                "responses": {"200": {"description": "", "schema": {"$ref": "#/definitions/Pet"}}}}}
        },
        "definitions": {"Pet": {"type": "object", "required": ["name"], "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}}}
    });
    let mut mock = ApiMock::from_document(swagger).unwrap();
    let created = mock.handle(&post("/api/pets", &json!({"name": "Rex"})));
    assert_eq!(created.status, 200);
    assert_eq!(body(&mock.handle(&Request::new("GET", "/api/pets/1")))["name"], "Rex");
    assert_eq!(
        ApiMock::from_document(json!({"info": {}})).unwrap_err().to_string(),
        "This is not an OpenAPI document: it has neither an `openapi` nor a `swagger` field."
    );
}

mod conformance;
mod created;
mod fastapi;

#[test]
fn a_documented_location_header_is_the_created_items_address_once() {
    let mut doc = doc();
    doc["paths"]["/notes"]["post"]["responses"]["201"]["headers"] =
        json!({"Location": {"schema": {"type": "string"}, "example": "granite"}});
    let mut mock = ApiMock::from_document(doc).unwrap();
    let created = mock.handle(&post("/notes", &json!({"text": "Buy milk"})));
    assert_eq!(created.status, 201, "{}", String::from_utf8_lossy(&created.body));
    let locations: Vec<&str> = created
        .headers
        .iter()
        .filter(|(name, _)| name.eq_ignore_ascii_case("location"))
        .map(|(_, value)| value.as_str())
        .collect();
    assert_eq!(locations, ["/notes/1"]);
}
