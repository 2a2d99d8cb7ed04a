use serde_json::{Value, json};

use super::*;
use crate::{ApiMock, Recorded};
use playground_http::{Request, Response};

fn doc() -> Value {
    json!({
        "openapi": "3.0.3", "info": {"title": "Items", "version": "1"},
        "components": {
            "securitySchemes": {"key": {"type": "apiKey", "in": "header", "name": "X-Api-Key"}},
            "schemas": {
                "Item": {"type": "object", "required": ["id", "name"], "properties": {
                    "id": {"type": "integer"}, "name": {"type": "string"}}},
                "Page": {"type": "object", "required": ["items"], "properties": {
                    "items": {"type": "array", "items": {"$ref": "#/components/schemas/Item"}},
                    "total": {"type": "integer"}}}
            }
        },
        "paths": {
            "/items": {
                "get": {"operationId": "listItems",
                    "parameters": [{"name": "limit", "in": "query", "schema": {"type": "integer", "maximum": 10}}],
                    "responses": {"200": {"description": "",
                        "headers": {"X-Total": {"required": true, "schema": {"type": "integer"}}},
                        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Page"}}}}}},
                "post": {"operationId": "createItem", "security": [{"key": []}],
                    "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Item"}}}},
                    "responses": {"201": {"description": "", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Item"}}}}}}
            },
            "/items/{itemId}": {
                "parameters": [{"name": "itemId", "in": "path", "required": true, "schema": {"type": "integer"}}],
                "get": {"operationId": "getItem", "responses": {
                    "200": {"description": "", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Item"}}}},
                    "404": {"description": ""}}},
                "delete": {"operationId": "deleteItem", "responses": {"204": {"description": ""}}}
            }
        }
    })
}

fn mock() -> ApiMock {
    ApiMock::from_document(doc()).expect("the document is mocked")
}

fn answer(status: u16, headers: &[(&str, &str)], body: &Value) -> Response {
    Response {
        status,
        headers: headers.iter().map(|(n, v)| ((*n).to_owned(), (*v).to_owned())).collect(),
        body: serde_json::to_vec(body).expect("JSON"),
    }
}

const JSON: (&str, &str) = ("Content-Type", "application/json");

#[test]
fn an_answer_as_described_has_no_mismatch() {
    let checked = mock().check_exchange(
        &Request::new("GET", "/items?limit=2"),
        &answer(200, &[JSON, ("X-Total", "1")], &json!({"items": [{"id": 1, "name": "a"}], "total": 1})),
    );
    assert_eq!(checked, Checked { operation: Some("listItems".to_owned()), mismatches: Vec::new() });
}

#[test]
fn a_wrong_type_and_a_missing_field_are_named_by_pointer_and_rule() {
    let checked = mock().check_exchange(
        &Request::new("GET", "/items"),
        &answer(200, &[JSON, ("X-Total", "2")], &json!({"items": [{"id": "7", "name": "a"}, {"id": 2}]})),
    );
    let shown: Vec<String> = checked.mismatches.iter().map(ToString::to_string).collect();
    assert_eq!(shown, ["`/items/0/id`: expected integer, got string", "`/items/1/name`: required, missing"]);
    assert!(checked.mismatches.iter().all(|m| m.kind == MismatchKind::Body));
}

#[test]
fn an_undocumented_status_is_one_mismatch() {
    let checked = mock()
        .check_exchange(&Request::new("GET", "/items/3"), &answer(418, &[JSON], &json!({"teapot": true})));
    assert_eq!(checked.mismatches.len(), 1, "{:?}", checked.mismatches);
    assert_eq!(checked.mismatches[0].kind, MismatchKind::Status);
    assert!(
        checked.mismatches[0].rule.starts_with("status 418 is not documented"),
        "{}",
        checked.mismatches[0]
    );
}

#[test]
fn a_wrong_media_type_and_a_missing_header_are_named() {
    let checked = mock().check_exchange(
        &Request::new("GET", "/items"),
        &Response {
            status: 200,
            headers: vec![("Content-Type".into(), "text/html".into())],
            body: b"<p>".to_vec(),
        },
    );
    let kinds: Vec<MismatchKind> = checked.mismatches.iter().map(|m| m.kind).collect();
    assert_eq!(kinds, [MismatchKind::Header, MismatchKind::MediaType], "{:?}", checked.mismatches);
    assert!(checked.mismatches[0].rule.contains("X-Total"), "{}", checked.mismatches[0]);
    assert!(checked.mismatches[1].rule.contains("text/html"), "{}", checked.mismatches[1]);
}

#[test]
fn a_header_that_breaks_its_schema_is_named() {
    let found = mock()
        .check_answer(
            "listItems",
            200,
            &[("Content-Type".into(), "application/json".into()), ("X-Total".into(), "many".into())],
            br#"{"items": []}"#,
        )
        .expect("listItems exists");
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].kind, MismatchKind::Header);
    assert!(found[0].rule.contains("X-Total"), "{}", found[0]);
}

#[test]
fn a_body_that_is_not_json_is_named() {
    let found = mock()
        .check_answer("getItem", 200, &[("Content-Type".into(), "application/json".into())], b"{nope")
        .expect("getItem exists");
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].kind, MismatchKind::Body);
    assert!(found[0].rule.starts_with("the body is not JSON"), "{}", found[0]);
}

#[test]
fn a_body_where_none_is_documented_is_a_media_type_mismatch() {
    let found = mock().check_answer("getItem", 404, &[], b"gone").expect("getItem exists");
    assert_eq!(found.iter().map(|m| m.kind).collect::<Vec<_>>(), [MismatchKind::MediaType]);
}

#[test]
fn an_unknown_operation_is_an_error() {
    assert_eq!(mock().check_answer("nope", 200, &[], b""), Err(UnknownOperation("nope".to_owned())));
}

#[test]
fn a_refused_request_is_flagged_with_the_answer_still_checked() {
    let request = Request::new("POST", "/items").json(&json!({"id": "x"}));
    let checked = mock().check_exchange(&request, &answer(201, &[JSON], &json!({"id": 1, "name": "a"})));
    assert_eq!(checked.operation.as_deref(), Some("createItem"));
    let kinds: Vec<MismatchKind> = checked.mismatches.iter().map(|m| m.kind).collect();
    assert!(kinds.iter().all(|k| *k == MismatchKind::Request), "{:?}", checked.mismatches);
    // The missing credential, and both problems of the body.
    assert!(checked.mismatches.iter().any(|m| m.rule.contains("X-Api-Key")), "{:?}", checked.mismatches);
    assert!(checked.mismatches.iter().any(|m| m.pointer == "/id"), "{:?}", checked.mismatches);
    assert!(checked.mismatches.iter().any(|m| m.pointer == "/name"), "{:?}", checked.mismatches);
}

#[test]
fn a_parameter_out_of_bounds_is_a_request_mismatch() {
    let checked = mock().check_exchange(
        &Request::new("GET", "/items?limit=50"),
        &answer(200, &[JSON, ("X-Total", "0")], &json!({"items": []})),
    );
    assert_eq!(checked.mismatches.len(), 1, "{:?}", checked.mismatches);
    assert_eq!(checked.mismatches[0].kind, MismatchKind::Request);
    assert!(checked.mismatches[0].rule.contains("limit"), "{}", checked.mismatches[0]);
}

#[test]
fn a_path_the_description_lacks_is_an_operation_mismatch() {
    let checked =
        mock().check_exchange(&Request::new("GET", "/elsewhere"), &answer(200, &[JSON], &json!({})));
    assert_eq!(checked.operation, None);
    assert_eq!(checked.mismatches.iter().map(|m| m.kind).collect::<Vec<_>>(), [MismatchKind::Operation]);
}

#[test]
fn pointers_escape_slashes_and_tildes() {
    assert_eq!(escape("a/b~c"), "a~1b~0c");
}

#[test]
fn credentials_are_found_where_the_schemes_put_them() {
    let request = Request::new("POST", "/items?api=1")
        .header("X-Api-Key", "s3cret-key")
        .header("Authorization", "Bearer tok-123")
        .header("Cookie", "session=abc123; theme=dark");
    let found = mock().credentials_in(&request);
    for secret in ["s3cret-key", "Bearer tok-123", "tok-123", "abc123"] {
        assert!(found.iter().any(|f| f == secret), "{secret} not in {found:?}");
    }
}

#[test]
fn a_summary_counts_calls_and_mismatches_by_kind() {
    let line = |operation: &str, kinds: &[MismatchKind]| ExchangeLine {
        time: String::new(),
        method: "GET".to_owned(),
        path: "/items".to_owned(),
        operation: Some(operation.to_owned()),
        status: 200,
        ms: 1,
        mismatches: kinds.iter().map(|k| Mismatch::new(*k, "", "r")).collect(),
        error: None,
    };
    let mut summary = Summary::default();
    summary.add(&line("listItems", &[]));
    summary.add(&line("listItems", &[MismatchKind::Body, MismatchKind::Body, MismatchKind::Header]));
    summary.add(&line("getItem", &[MismatchKind::Status]));
    let list = &summary.operations["listItems"];
    assert_eq!((list.calls, list.drifted), (2, 1));
    assert_eq!(list.by_kind.get(&MismatchKind::Body), Some(&2));
    let text = summary.to_string();
    assert!(text.contains("header 1, body 2"), "{text}");
    assert!(text.ends_with("3 calls of 2 operations, 2 with mismatches"), "{text}");
}

#[test]
fn a_log_line_reads_back_as_written() {
    let line = ExchangeLine {
        time: "2026-01-01T00:00:00Z".to_owned(),
        method: "GET".to_owned(),
        path: "/items".to_owned(),
        operation: Some("listItems".to_owned()),
        status: 200,
        ms: 3,
        mismatches: vec![Mismatch::new(
            MismatchKind::MediaType,
            "",
            "media type text/html is not documented",
        )],
        error: None,
    };
    let text = serde_json::to_string(&line).expect("serializes");
    assert!(text.contains(r#""kind":"media-type""#), "{text}");
    assert_eq!(serde_json::from_str::<ExchangeLine>(&text).expect("reads back"), line);
}

#[test]
fn recorded_answers_are_served_by_the_mock() {
    let mut mock = mock();
    let list = answer(
        200,
        &[JSON],
        &json!({"items": [{"id": 4, "name": "four"}, {"id": 5, "name": "five"}, {"name": "no id"}]}),
    );
    let recorded = mock.record(&Request::new("GET", "/items"), &list).expect("fits");
    assert_eq!(recorded, Recorded { stored: 2, removed: 0 });
    let read = answer(200, &[JSON], &json!({"id": 9, "name": "nine"}));
    assert_eq!(mock.record(&Request::new("GET", "/items/9"), &read).expect("fits").stored, 1);
    let served = mock.handle(&Request::new("GET", "/items/9"));
    assert_eq!(served.status, 200);
    assert_eq!(served.json(), Some(json!({"id": 9, "name": "nine"})));
    assert_eq!(mock.handle(&Request::new("GET", "/items/4")).json(), Some(json!({"id": 4, "name": "four"})));

    // A delete removes it; failures and undocumented paths change nothing.
    let gone = Response { status: 204, headers: Vec::new(), body: Vec::new() };
    assert_eq!(mock.record(&Request::new("DELETE", "/items/4"), &gone).expect("fits").removed, 1);
    assert_eq!(mock.handle(&Request::new("GET", "/items/4")).status, 404);
    let before = mock.revision();
    let failed = answer(500, &[JSON], &json!({"id": 1, "name": "x"}));
    assert_eq!(mock.record(&Request::new("GET", "/items/1"), &failed).expect("fits"), Recorded::default());
    assert_eq!(mock.record(&Request::new("GET", "/elsewhere"), &read).expect("fits"), Recorded::default());
    assert_eq!(mock.revision(), before);

    // The snapshot carries them to another mock of the same description.
    let mut offline = self::mock();
    offline.restore(&mock.snapshot()).expect("restores");
    assert_eq!(
        offline.handle(&Request::new("GET", "/items/5")).json(),
        Some(json!({"id": 5, "name": "five"}))
    );
}

#[test]
fn a_created_item_is_kept_under_its_id_or_its_location() {
    let mut mock = mock();
    let request = Request::new("POST", "/items").json(&json!({"name": "new"}));
    let created = answer(201, &[JSON, ("Location", "/items/12")], &json!({"id": 12, "name": "new"}));
    assert_eq!(mock.record(&request, &created).expect("fits").stored, 1);
    assert_eq!(mock.handle(&Request::new("GET", "/items/12")).status, 200);
}

#[test]
fn a_summary_keeps_at_most_its_rows() {
    let mut summary = Summary::default();
    for n in 0..MAX_SUMMARY_ROWS + 5 {
        summary.add(&ExchangeLine {
            time: String::new(),
            method: "GET".to_owned(),
            path: format!("/unknown/{n}"),
            operation: None,
            status: 404,
            ms: 0,
            mismatches: Vec::new(),
            error: None,
        });
    }
    assert_eq!(summary.operations.len(), MAX_SUMMARY_ROWS + 1);
    assert_eq!(summary.operations[OTHER_ROW].calls, 5);
    assert_eq!(summary.operations["GET /unknown/0"].calls, 1);
}
