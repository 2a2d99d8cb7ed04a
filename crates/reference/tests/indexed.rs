//! The indexed document (`playground_openapi::document::IndexedDocument`), which loaded documents go through: it
//! lists and shows exactly what parsing the whole document does, and refuses bad documents
//! with the same messages.
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test, with its location

use petstore::document::PETSTORE_JSON;
use playground_openapi::document::{self, AnyDocument, DocumentError, IndexedDocument};
use playground_reference::DocumentViews;
use serde_json::{Value, json};

fn petstore3() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/swagger-petstore3.yaml");
    serde_yaml_ng::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The same catalog and, for every operation, the same view as the whole-value path.
fn assert_same_as_whole(text: &str) {
    let whole: Value = serde_json::from_str(text).unwrap();
    let expected = document::validate(&whole).unwrap();
    let (indexed, catalog) = document::load_json(text.as_bytes().to_vec()).unwrap();
    assert!(matches!(indexed, AnyDocument::Indexed(_)));
    assert_eq!(catalog, expected);
    let whole = AnyDocument::whole(whole);
    let mut seen = 0;
    for op in catalog.operations() {
        let expected = whole.operation_view(op.method, &op.path);
        let got = indexed.operation_view(op.method, &op.path);
        assert_eq!(got, expected, "{} {}", op.method.as_str(), op.path);
        seen += 1;
    }
    assert!(seen >= 18, "{seen} operations compared");
    assert!(indexed.is_complete());
}

#[test]
fn our_document_lists_and_shows_every_operation_as_parsed_whole() {
    assert_same_as_whole(PETSTORE_JSON);
}

#[test]
fn swagger_petstore3_lists_and_shows_every_operation_as_parsed_whole() {
    assert_same_as_whole(&petstore3().to_string());
}

#[test]
fn an_operation_document_holds_only_the_components_it_reaches() {
    let indexed = IndexedDocument::parse(PETSTORE_JSON.to_owned()).unwrap();
    let doc = indexed.operation_document("/pets").unwrap();
    let schemas = doc["components"]["schemas"].as_object().unwrap();
    // GET /pets answers `Pets` (a list of `Pet`, whose status is a `PetStatus`), and every
    // error is an `Error`; nothing about orders or the inventory.
    for name in ["Pets", "Pet", "PetStatus", "NewPet", "Error"] {
        assert!(schemas.contains_key(name), "{name} missing: {:?}", schemas.keys().collect::<Vec<_>>());
    }
    assert!(!schemas.contains_key("Order"));
    assert!(!schemas.contains_key("InventoryItem"));
    assert_eq!(doc["paths"].as_object().unwrap().len(), 1);
    assert_eq!(doc["info"]["title"], "Petstore API");
    assert_eq!(indexed.operation_document("/nowhere"), None);
    let whole = AnyDocument::whole(serde_json::from_str(PETSTORE_JSON).unwrap());
    for doc in [AnyDocument::Indexed(std::sync::Arc::new(indexed)), whole] {
        assert!(matches!(
            doc.operation_view(playground_openapi::catalog::Method::Get, "/nowhere"),
            Err(playground_reference::ViewError::NoOperation(_))
        ));
    }
}

#[test]
fn a_reference_that_does_not_resolve_is_still_reported() {
    let doc = json!({
        "openapi": "3.0.3",
        "info": { "title": "T", "version": "1" },
        "paths": { "/a": { "get": {
            "responses": { "200": { "description": "ok", "content": { "application/json": {
                "schema": { "$ref": "#/components/schemas/Missing" } } } } } } } },
        "components": { "schemas": { "Other": { "type": "string" } } }
    })
    .to_string();
    let (indexed, catalog) = document::load_json(doc.clone().into_bytes()).unwrap();
    let op = &catalog.groups[0].tags[0].operations[0];
    let whole = AnyDocument::whole(serde_json::from_str(&doc).unwrap());
    let view = indexed.operation_view(op.method, &op.path).unwrap();
    assert_eq!(Ok(view.clone()), whole.operation_view(op.method, &op.path));
    let schema = view.responses[0].schema.as_ref().unwrap();
    let said = schema.description.as_deref().unwrap_or_default();
    assert!(said.contains("#/components/schemas/Missing does not resolve"), "{said}");
}

#[test]
fn bad_documents_get_the_same_messages_as_parsed_whole() {
    let info = r#""info":{"title":"T","version":"1"}"#;
    let cases = [
        "[]".to_owned(),
        "null".to_owned(),
        "\"text\"".to_owned(),
        "{\"openapi\": \"3.0.3\",\n \"info\": {\"title\": \"T\"".to_owned(),
        format!(r#"{{"swagger":"2.0",{info},"paths":{{}}}}"#),
        format!(r#"{{"openapi":"4.0.0",{info},"paths":{{}}}}"#),
        format!(r#"{{"openapi":"3.1.0",{info}}}"#),
        format!(r#"{{"openapi":"3.1.0",{info},"webhooks":[]}}"#),
        format!(r#"{{"openapi":"3.0.3",{info}}}"#),
        format!(r#"{{"openapi":"3.0.3",{info},"paths":[]}}"#),
        r#"{"openapi":"3.0.3","info":{"title":"T"},"paths":{}}"#.to_owned(),
        format!(r#"{{"openapi":"3.0.3",{info},"paths":{{"/a":"x"}}}}"#),
        format!(r#"{{"openapi":"3.0.3",{info},"paths":{{}},"components":{{"schemas":[1]}}"#),
        "   ".to_owned(),
    ];
    for text in cases {
        let expected =
            document::parse_json(text.as_bytes()).and_then(|v| document::validate(&v)).unwrap_err();
        let got = document::load_json(text.clone().into_bytes()).unwrap_err();
        match (&got, &expected) {
            // The wording of a wrong-type error names the same field; where it is differs.
            (DocumentError::Shape(a), DocumentError::Shape(b)) => {
                assert!(a.contains("invalid type") && b.contains("invalid type"), "{text}: {a} / {b}");
            }
            _ => assert_eq!(got, expected, "{text}"),
        }
    }
}

#[test]
fn components_of_the_wrong_type_are_ignored_as_when_parsed_whole() {
    for components in ["5", "[1, 2]", r#"{"schemas": [1], "parameters": "x"}"#] {
        let text = format!(
            r#"{{"openapi":"3.0.3","info":{{"title":"T","version":"1"}},"paths":{{"/a":{{"get":{{}}}}}},"components":{components}}}"#
        );
        let whole = document::validate(&serde_json::from_str(&text).unwrap()).unwrap();
        let (_, catalog) = document::load_json(text.into_bytes()).unwrap();
        assert_eq!(catalog, whole, "{components}");
    }
}

#[test]
fn a_byte_order_mark_is_skipped() {
    let mut bytes = b"\xEF\xBB\xBF".to_vec();
    bytes.extend_from_slice(PETSTORE_JSON.as_bytes());
    let (_, catalog) = document::load_json(bytes).unwrap();
    assert_eq!(catalog.title, "Petstore API");
}
