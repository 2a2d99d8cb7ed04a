//! A created item holds what was sent, what the server makes (the id, `readOnly` fields, the
//! times of creation and update from the mock's clock) and nothing invented: an optional field
//! left out stays out, or takes the default or the `null` / empty example the description
//! gives. `tests/fixtures/fastapi/shelf.json` is a description FastAPI wrote, of the app that
//! `tests/fastapi/run.sh` compares the mock with.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use serde_json::{Value, json};

use super::{ApiMock, Clock, Request, body, post};
use playground_http::Response;

const SHELF: &str = include_str!("../../../../tests/fixtures/fastapi/shelf.json");

/// 2026-11-28T22:30:00.000Z.
const T0: i64 = 1_795_905_000_000;

fn shelf() -> (ApiMock, Value) {
    let doc: Value = serde_json::from_str(SHELF).unwrap();
    (ApiMock::from_document(doc.clone()).unwrap().with_clock(Clock::fixed(T0 + 123)), doc)
}

/// A clock the test moves.
fn moving(start: i64) -> (Clock, Arc<AtomicI64>) {
    let at = Arc::new(AtomicI64::new(start));
    let read = Arc::clone(&at);
    (Clock::new(move || read.load(Ordering::SeqCst)), at)
}

/// The answer's body, after checking it against `schema` strictly (and on the host with
/// `jsonschema` too, which reads OpenAPI 3.1's schemas as JSON Schema 2020-12).
fn valid(doc: &Value, schema: &Value, response: &Response) -> Value {
    let answer = body(response);
    let (patterns, _) = playground_validate::compile_patterns(doc);
    let validator = playground_validate::Validator::new(doc, &patterns).strict();
    assert_eq!(validator.check(schema, &answer, ""), Ok(()), "{answer}");
    #[cfg(not(target_arch = "wasm32"))]
    if doc["openapi"].as_str().is_some_and(|v| v.starts_with("3.1")) {
        let mut standalone = schema.clone();
        standalone["components"] = doc["components"].clone();
        let checker = jsonschema::options()
            .with_draft(jsonschema::Draft::Draft202012)
            .should_validate_formats(true)
            .build(&standalone)
            .expect("the document's schema compiles");
        assert!(checker.is_valid(&answer), "{answer}");
    }
    answer
}

fn book_schema() -> Value {
    json!({"$ref": "#/components/schemas/Book"})
}

#[test]
fn fastapi_left_out_fields_are_its_defaults_and_the_server_makes_the_id_and_times() {
    let (mut mock, doc) = shelf();
    let created = mock.handle(&post("/books", &json!({"title": "Dune", "isbn": "9780441013593"})));
    assert_eq!(created.status, 201, "{}", body(&created));
    let book = valid(&doc, &book_schema(), &created);
    assert_eq!(
        book,
        json!({
            "id": 1, "title": "Dune", "isbn": "9780441013593",
            "year": null, "subtitle": null, "tags": [], "publisher": null,
            "format": "paperback", "available": true, "pages": null,
            "created_at": "2026-11-28T22:30:00.123Z", "updated_at": "2026-11-28T22:30:00.123Z"
        })
    );
    let read = mock.handle(&Request::new("GET", created.header_value("Location").unwrap()));
    assert_eq!(valid(&doc, &book_schema(), &read), book, "read back as created");
}

#[test]
fn fastapi_what_was_sent_is_held_as_sent() {
    let (mut mock, doc) = shelf();
    let sent = json!({
        "title": "Middlemarch", "isbn": "9780141439549", "subtitle": "A Study of Provincial Life",
        "tags": ["novel", "england"], "year": 1871, "publisher": {"name": "Penguin"},
        "format": "hardcover", "available": false, "pages": 880
    });
    let book = valid(&doc, &book_schema(), &mock.handle(&post("/books", &sent)));
    for (field, value) in sent.as_object().unwrap().iter().filter(|(field, _)| *field != "publisher") {
        assert_eq!(&book[field], value, "{field}");
    }
    // Nested: what the client left out of the publisher takes its default, as pydantic reads it.
    assert_eq!(book["publisher"], json!({"name": "Penguin", "city": null}));
    let explicit = json!({"title": "Emma", "isbn": "9780141439587", "subtitle": null, "tags": []});
    let book = valid(&doc, &book_schema(), &mock.handle(&post("/books", &explicit)));
    assert_eq!((book["subtitle"].clone(), book["tags"].clone()), (Value::Null, json!([])));
}

#[test]
fn fastapi_what_the_server_makes_is_not_taken_from_the_client() {
    let (mut mock, doc) = shelf();
    let sent = json!({"title": "Walden", "isbn": "9780691096124", "id": 99,
        "created_at": "2000-01-01T00:00:00Z", "updated_at": "2000-01-01T00:00:00Z"});
    let created = mock.handle(&post("/books", &sent));
    assert_eq!(created.header_value("Location"), Some("/books/1"), "the request's schema has no id");
    let book = valid(&doc, &book_schema(), &created);
    assert_eq!(book["id"], 1);
    assert_eq!(book["created_at"], "2026-11-28T22:30:00.123Z");
    assert_eq!(book["updated_at"], "2026-11-28T22:30:00.123Z");
}

#[test]
fn fastapi_a_replace_keeps_the_creation_time_and_takes_the_defaults_again() {
    let doc: Value = serde_json::from_str(SHELF).unwrap();
    let (clock, at) = moving(T0);
    let mut mock = ApiMock::from_document(doc.clone()).unwrap().with_clock(clock);
    let sent =
        json!({"title": "Persuasion", "isbn": "9780141439686", "subtitle": "A Novel", "tags": ["austen"]});
    assert_eq!(mock.handle(&post("/books", &sent)).status, 201);
    at.store(T0 + 60_000, Ordering::SeqCst);
    let replaced = mock.handle(
        &Request::new("PUT", "/books/1").json(&json!({"title": "Persuasion", "isbn": "9780141439686"})),
    );
    assert_eq!(replaced.status, 200, "{}", body(&replaced));
    let book = valid(&doc, &book_schema(), &replaced);
    assert_eq!(book["created_at"], "2026-11-28T22:30:00.000Z");
    assert_eq!(book["updated_at"], "2026-11-28T22:31:00.000Z");
    assert_eq!((book["subtitle"].clone(), book["tags"].clone()), (Value::Null, json!([])));
}

/// Notes whose server-made fields are `readOnly`, with a PATCH.
fn notes(note: Value, request: Option<Value>) -> Value {
    let item = json!({"$ref": "#/components/schemas/Note"});
    let request = request.unwrap_or_else(|| item.clone());
    json!({
        "openapi": "3.1.0", "info": {"title": "Notes", "version": "1"},
        "paths": {
            "/notes": {"post": {
                "requestBody": {"required": true, "content": {"application/json": {"schema": request.clone()}}},
                "responses": {"201": {"description": "", "content": {"application/json": {"schema": item.clone()}}}}}},
            "/notes/{id}": {
                "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "integer"}}],
                "get": {"responses": {"200": {"description": "", "content": {"application/json": {"schema": item.clone()}}}}},
                "put": {"requestBody": {"required": true, "content": {"application/json": {"schema": request}}},
                    "responses": {"200": {"description": "", "content": {"application/json": {"schema": item.clone()}}}}},
                "patch": {"requestBody": {"content": {"application/merge-patch+json": {"schema": {"type": "object"}}}},
                    "responses": {"200": {"description": "", "content": {"application/json": {"schema": item}}}}}}
        },
        "components": {"schemas": {"Note": note}}
    })
}

fn note_with_times() -> Value {
    json!({"type": "object", "required": ["text"], "properties": {
        "id": {"type": "integer", "readOnly": true},
        "text": {"type": "string"},
        "color": {"type": "string", "enum": ["red", "blue"]},
        "createdAt": {"type": "string", "format": "date-time", "readOnly": true},
        "updatedAt": {"type": "string", "format": "date-time", "readOnly": true},
        "day": {"type": "string", "format": "date", "readOnly": true}}})
}

#[test]
fn read_only_times_are_the_requests_a_replace_keeps_the_creation_a_patch_sets_the_update() {
    let (clock, at) = moving(T0);
    let mut mock = ApiMock::from_document(notes(note_with_times(), None)).unwrap().with_clock(clock);
    let sent = json!({"text": "Buy milk", "createdAt": "2000-01-01T00:00:00Z"});
    let created = body(&mock.handle(&post("/notes", &sent)));
    let day = created["day"].clone();
    assert!(day.is_string(), "a read-only field that is not a time is generated: {created}");
    assert_eq!(
        created,
        json!({"id": 1, "text": "Buy milk", "createdAt": "2026-11-28T22:30:00.000Z",
            "updatedAt": "2026-11-28T22:30:00.000Z", "day": day})
    );
    at.store(T0 + 1_000, Ordering::SeqCst);
    let replaced = body(&mock.handle(&Request::new("PUT", "/notes/1").json(&json!({"text": "Buy bread"}))));
    assert_eq!(
        replaced,
        json!({"id": 1, "text": "Buy bread", "createdAt": "2026-11-28T22:30:00.000Z",
            "updatedAt": "2026-11-28T22:30:01.000Z", "day": day}),
        "a replace keeps what the server made, but the update time"
    );
    at.store(T0 + 2_000, Ordering::SeqCst);
    let patch = Request::new("PATCH", "/notes/1")
        .header("Content-Type", "application/merge-patch+json")
        .body(r#"{"color": "red"}"#);
    let patched = body(&mock.handle(&patch));
    assert_eq!(patched["updatedAt"], "2026-11-28T22:30:02.000Z", "{patched}");
    assert_eq!(
        (patched["createdAt"].clone(), patched["color"].clone()),
        (json!("2026-11-28T22:30:00.000Z"), json!("red"))
    );
    assert_eq!(body(&mock.handle(&Request::new("GET", "/notes/1"))), patched);
}

#[test]
fn a_time_the_client_may_set_is_taken_and_one_it_left_out_is_the_requests() {
    let mut note = note_with_times();
    note["properties"]["createdAt"] = json!({"type": "string", "format": "date-time"});
    let mut mock = ApiMock::from_document(notes(note, None)).unwrap().with_clock(Clock::fixed(T0));
    let sent = json!({"text": "Imported", "createdAt": "2001-02-03T04:05:06Z"});
    assert_eq!(body(&mock.handle(&post("/notes", &sent)))["createdAt"], "2001-02-03T04:05:06Z");
    assert_eq!(
        body(&mock.handle(&post("/notes", &json!({"text": "New"}))))["createdAt"],
        "2026-11-28T22:30:00.000Z"
    );
}

#[test]
fn without_a_clock_times_are_generated_and_the_same_for_the_same_seed() {
    let answers = || {
        let mut mock = ApiMock::from_document(notes(note_with_times(), None)).unwrap();
        body(&mock.handle(&post("/notes", &json!({"text": "a"}))))
    };
    let first = answers();
    assert!(first["createdAt"].is_string(), "{first}");
    assert_eq!(first, answers());
}

#[test]
fn optional_fields_left_out_stay_out_unless_a_default_or_an_empty_example_says_otherwise() {
    // OpenAPI 3.0: `nullable`, `example`.
    let mut doc = notes(
        json!({"type": "object", "required": ["text"],
            "example": {"text": "hello", "bio": null, "motto": "carpe diem"},
            "properties": {
                "id": {"type": "integer", "readOnly": true},
                "text": {"type": "string"},
                "nickname": {"type": "string", "nullable": true, "example": null},
                "aliases": {"type": "array", "items": {"type": "string"}, "example": []},
                "motto": {"type": "string"},
                "bio": {"type": "string", "nullable": true},
                "level": {"type": "integer", "default": 1},
                "color": {"type": "string", "enum": ["red", "blue"], "example": "red"},
                "status": {"type": "string", "enum": ["new", "seen"], "readOnly": true}}}),
        None,
    );
    doc["openapi"] = json!("3.0.3");
    let mut mock = ApiMock::from_document(doc.clone()).unwrap();
    let created = mock.handle(&post("/notes", &json!({"text": "hi"})));
    let note = valid(&doc, &json!({"$ref": "#/components/schemas/Note"}), &created);
    let status = note["status"].clone();
    assert!(status == "new" || status == "seen", "a read-only field is the server's: {note}");
    assert_eq!(
        note,
        json!({"id": 1, "text": "hi", "nickname": null, "aliases": [], "bio": null, "level": 1, "status": status})
    );
}

#[test]
fn required_fields_of_the_answer_the_client_did_not_send_are_filled() {
    let request = json!({"type": "object", "required": ["text"], "properties": {"text": {"type": "string"}}});
    let note = json!({"type": "object", "required": ["id", "text", "slug"], "properties": {
        "id": {"type": "integer"}, "text": {"type": "string"}, "tag": {"type": "string"},
        "slug": {"type": "string", "pattern": "^[a-z]{3,8}$"}}});
    let mut doc = notes(note, Some(request));
    // The create's answer asks for more than the stored item holds.
    doc["paths"]["/notes"]["post"]["responses"]["201"]["content"]["application/json"]["schema"] = json!({
        "allOf": [{"$ref": "#/components/schemas/Note"},
            {"type": "object", "required": ["etag"], "properties": {"etag": {"type": "string", "minLength": 4}}}]});
    let mut mock = ApiMock::from_document(doc.clone()).unwrap();
    let created = mock.handle(&post("/notes", &json!({"text": "hi", "id": 7})));
    let schema =
        doc["paths"]["/notes"]["post"]["responses"]["201"]["content"]["application/json"]["schema"].clone();
    let answer = valid(&doc, &schema, &created);
    assert_eq!((answer["id"].clone(), answer["text"].clone()), (json!(1), json!("hi")), "{answer}");
    assert!(answer["slug"].is_string() && answer["etag"].is_string(), "{answer}");
    assert!(answer.get("tag").is_none(), "{answer}");
    let read = body(&mock.handle(&Request::new("GET", "/notes/1")));
    assert_eq!(read["slug"], answer["slug"]);
    assert!(read.get("etag").is_none(), "the answer's own field is not stored: {read}");
}

#[test]
fn an_item_that_needs_more_than_was_sent_is_made_valid() {
    let note = json!({"type": "object", "required": ["text"], "minProperties": 3, "properties": {
        "id": {"type": "integer", "readOnly": true}, "text": {"type": "string"},
        "a": {"type": "string"}, "b": {"type": "string"}}});
    let request = json!({"type": "object", "required": ["text"], "properties": {"text": {"type": "string"}}});
    let doc = notes(note, Some(request));
    let mut mock = ApiMock::from_document(doc.clone()).unwrap();
    let created = mock.handle(&post("/notes", &json!({"text": "hi"})));
    let answer = valid(&doc, &json!({"$ref": "#/components/schemas/Note"}), &created);
    assert_eq!(answer["text"], "hi");
    assert!(answer.as_object().unwrap().len() >= 3, "{answer}");
}
