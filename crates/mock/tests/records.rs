//! The mock of any document as records: a storage that writes only the changed records holds
//! the whole state, items keep their order when read back, and records of another API or a
//! newer format are refused.
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test, with its location

use std::collections::BTreeMap;

use playground_http::{Request, Response};
use playground_mock::{ApiMock, Changes, SnapshotError};
use serde_json::{Value, json};

fn doc(title: &str) -> Value {
    let item = json!({"type": "object", "properties": {"id": {"type": "integer", "readOnly": true}, "text": {"type": "string"}}});
    let one = json!({"description": "", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Item"}}}});
    let many = json!({"description": "", "content": {"application/json": {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/Item"}}}}});
    let body = json!({"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Item"}}}});
    let param =
        |name: &str| json!({"name": name, "in": "path", "required": true, "schema": {"type": "integer"}});
    json!({
        "openapi": "3.1.0", "info": {"title": title, "version": "1"},
        "paths": {
            "/notes": {"get": {"responses": {"200": many}}, "post": {"requestBody": body, "responses": {"201": one}}},
            "/notes/{noteId}": {"parameters": [param("noteId")],
                "get": {"responses": {"200": one}}, "put": {"requestBody": body, "responses": {"200": one}},
                "delete": {"responses": {"204": {"description": ""}}}},
            "/session": {"put": {"responses": {"204": {"description": ""}}}, "delete": {"responses": {"204": {"description": ""}}}}
        },
        "components": {"schemas": {"Item": item}}
    })
}

fn send(mock: &mut ApiMock, method: &str, path: &str, body: Option<Value>) -> Response {
    let request = Request::new(method, path);
    mock.handle(&match body {
        Some(body) => request.json(&body),
        None => request,
    })
}

fn apply(storage: &mut BTreeMap<String, String>, mock: &mut ApiMock) -> usize {
    match mock.take_changes() {
        Changes::Everything => {
            *storage = mock.records().into_iter().collect();
            usize::MAX
        }
        Changes::Records(changes) => {
            let touched = changes.len();
            for (key, text) in changes {
                match text {
                    Some(text) => storage.insert(key, text),
                    None => storage.remove(&key),
                };
            }
            touched
        }
    }
}

#[test]
fn changed_records_keep_a_storage_whole_and_items_in_their_order() {
    let mut mock = ApiMock::from_document(doc("Notes")).unwrap();
    let mut storage = BTreeMap::new();
    assert_eq!(apply(&mut storage, &mut mock), usize::MAX, "a new mock is written whole");
    for i in 0..300 {
        assert_eq!(send(&mut mock, "POST", "/notes", Some(json!({"text": format!("note {i}")}))).status, 201);
        assert_eq!(apply(&mut storage, &mut mock), 2, "a create writes its item and the counters");
    }
    // Replace one near the start, delete one, delete a path outside the resources, create again.
    assert_eq!(send(&mut mock, "PUT", "/notes/2", Some(json!({"text": "second, replaced"}))).status, 200);
    assert_eq!(apply(&mut storage, &mut mock), 1);
    assert_eq!(send(&mut mock, "DELETE", "/notes/1", None).status, 204);
    assert_eq!(apply(&mut storage, &mut mock), 1);
    assert_eq!(send(&mut mock, "DELETE", "/session", None).status, 204);
    assert_eq!(apply(&mut storage, &mut mock), 1);
    assert_eq!(send(&mut mock, "POST", "/notes", Some(json!({"text": "last"}))).status, 201);
    apply(&mut storage, &mut mock);
    assert_eq!(send(&mut mock, "GET", "/notes/5", None).status, 200);
    assert!(mock.take_changes().is_empty(), "a read writes nothing");
    assert_eq!(storage, mock.records().into_iter().collect::<BTreeMap<_, _>>());

    // Read back in the storage's order (by key), which is not the order of creation.
    let mut read = ApiMock::from_document(doc("Notes")).unwrap();
    read.restore_records(storage.clone().into_iter().collect()).unwrap();
    assert!(read.take_changes().is_empty(), "records read back are not changes");
    assert_eq!(read.snapshot(), mock.snapshot());
    let list = send(&mut read, "GET", "/notes?limit=1000", None).json().unwrap();
    let texts: Vec<&str> = list.as_array().unwrap().iter().map(|n| n["text"].as_str().unwrap()).collect();
    assert_eq!(texts.first(), Some(&"second, replaced"));
    assert_eq!(texts.last(), Some(&"last"));
    assert_eq!(texts.len(), 300);
    assert_eq!(send(&mut read, "DELETE", "/session", None).status, 404, "the deleted path is still deleted");
    // A create after reading back goes after every item read, and keeps the counter.
    assert_eq!(send(&mut read, "POST", "/notes", Some(json!({"text": "after"}))).json().unwrap()["id"], 302);
    apply(&mut storage, &mut read);
    let mut again = ApiMock::from_document(doc("Notes")).unwrap();
    again.restore_records(storage.into_iter().collect()).unwrap();
    let list = send(&mut again, "GET", "/notes?limit=1000", None).json().unwrap();
    assert_eq!(list.as_array().unwrap().last().unwrap()["text"], "after");
}

#[test]
fn records_of_another_api_or_format_are_refused_and_change_nothing() {
    let mut mock = ApiMock::from_document(doc("Notes")).unwrap();
    send(&mut mock, "POST", "/notes", Some(json!({"text": "kept"})));
    let records = mock.records();
    let mut other = ApiMock::from_document(doc("Other")).unwrap();
    assert!(matches!(other.restore_records(records.clone()), Err(SnapshotError::Inconsistent(_))));
    let newer: Vec<_> = records
        .iter()
        .map(|(k, v)| {
            (k.clone(), if k == "meta" { v.replace("\"version\":1", "\"version\":2") } else { v.clone() })
        })
        .collect();
    assert_eq!(
        mock.clone().restore_records(newer),
        Err(SnapshotError::UnsupportedVersion { found: 2, expected: 1 })
    );
    let mut stray = records.clone();
    stray.push(("nonsense".to_owned(), "1".to_owned()));
    let error = mock.clone().restore_records(stray).unwrap_err().to_string();
    assert!(error.contains("the record \"nonsense\": not a record of an API mock"), "{error}");
    let without_meta: Vec<_> = records.into_iter().filter(|(k, _)| k != "meta").collect();
    let error = mock.clone().restore_records(without_meta).unwrap_err().to_string();
    assert!(error.contains("no meta record"), "{error}");
    assert_eq!(send(&mut mock, "GET", "/notes/1", None).json().unwrap()["text"], "kept");
}
