//! The security each listed operation needs, read with the list: its own `security`, else the
//! document's, scheme names only; and the document's schemes, whole or indexed.
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test, with its location

use playground_openapi::Catalog;
use playground_openapi::document::{self, Read};
use playground_openapi::security::{Access, access};
use serde_json::json;

fn ok() -> serde_json::Value {
    json!({"200": {"description": "ok"}})
}

fn doc() -> serde_json::Value {
    json!({
        "openapi": "3.0.3",
        "info": {"title": "Locks", "version": "1"},
        "paths": {
            "/open": {"get": {"operationId": "open", "security": [], "responses": ok()}},
            "/inherits": {"get": {"operationId": "inherits", "responses": ok()}},
            "/own": {"get": {"operationId": "own", "security": [{"jwt": [], "key": []}, {}], "responses": ok()}},
            "/odd": {"get": {"operationId": "odd", "security": "key", "responses": ok()}}
        },
        "security": [{"key": []}],
        "components": {"securitySchemes": {
            "key": {"type": "apiKey", "in": "header", "name": "X-Key"},
            "jwt": {"type": "http", "scheme": "bearer"}
        }}
    })
}

fn requirements(catalog: &Catalog, id: &str) -> Vec<Vec<String>> {
    let op = catalog.operations().find(|o| o.operation_id.as_deref() == Some(id)).unwrap();
    op.requirements(&catalog.security).to_vec()
}

#[test]
fn each_operation_has_its_own_security_or_the_documents() {
    let catalog = Catalog::from_value(&doc()).unwrap();
    assert_eq!(&*catalog.security, [vec!["key".to_owned()]].as_slice());
    assert_eq!(requirements(&catalog, "inherits"), [["key"]]);
    assert!(requirements(&catalog, "open").is_empty());
    assert_eq!(requirements(&catalog, "own"), vec![vec!["jwt".to_owned(), "key".to_owned()], vec![]]);
    assert!(requirements(&catalog, "odd").is_empty(), "a security that is not a list needs nothing");

    let none = |_: &str| false;
    let key = |name: &str| name == "key";
    let op = |id: &str| catalog.operations().find(|o| o.operation_id.as_deref() == Some(id)).unwrap();
    assert_eq!(access(op("inherits").requirements(&catalog.security), &none), Access::Needs);
    assert_eq!(access(op("inherits").requirements(&catalog.security), &key), Access::Filled);
    assert_eq!(access(op("own").requirements(&catalog.security), &key), Access::Open);
}

#[test]
fn an_indexed_document_lists_the_same_security_and_schemes() {
    let text = serde_json::to_vec(&doc()).unwrap();
    let Read::OpenApi(value, catalog) = document::read(text).unwrap() else { panic!("not OpenAPI 3") };
    assert!(matches!(value, document::AnyDocument::Indexed(_)), "{value:?}");
    assert_eq!(catalog, Catalog::from_value(&doc()).unwrap());
    let schemes: Vec<String> = value.security_schemes().unwrap().into_iter().map(|s| s.name).collect();
    assert_eq!(schemes, ["key", "jwt"]);
    let whole = document::AnyDocument::whole(doc());
    assert_eq!(whole.security_schemes().unwrap(), value.security_schemes().unwrap());
    assert!(document::AnyDocument::whole(json!({})).security_schemes().unwrap().is_empty());
}
