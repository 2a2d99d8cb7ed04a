//! Parts of the reference readers expect from other tools: Redoc's `x-tagGroups` and
//! `x-displayName`, security requirements per operation, and `externalDocs`.
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test, with its location

use playground_openapi::Catalog;
use playground_openapi::catalog::Method;
use playground_openapi::document;
use playground_openapi::outline::{Row, rows};
use playground_reference::DocumentViews;
use playground_reference::{ExternalDocs, OperationView, SecurityUse};
use serde_json::json;

#[test]
fn tag_groups_and_display_names_shape_the_list() {
    let doc = json!({"openapi": "3.0.3", "info": {"title": "T", "version": "1"},
    "x-tagGroups": [
        {"name": "Animals", "tags": ["dogs", "cats"]},
        {"name": "Empty", "tags": ["nobody"]}
    ],
    "tags": [{"name": "cats", "x-displayName": "Cats and kittens"}, {"name": "dogs"}],
    "paths": {
        "/cats": {"get": {"tags": ["cats"]}},
        "/dogs": {"get": {"tags": ["dogs"]}},
        "/health": {"get": {"tags": ["ops"]}}
    }});
    let catalog = Catalog::from_value(&doc).unwrap();
    let (_, indexed) = document::load_json(doc.to_string().into_bytes()).unwrap();
    assert_eq!(indexed, catalog);
    let shown: Vec<String> = rows(&catalog.groups)
        .iter()
        .map(|row| match row {
            Row::Group { name, .. } => format!("group {name}"),
            Row::Tag { name, .. } => format!("tag {name}"),
            Row::Operation(op) => format!("op {}", op.path),
        })
        .collect();
    assert_eq!(
        shown,
        [
            "group Animals",
            "tag dogs",
            "op /dogs",
            "tag Cats and kittens",
            "op /cats",
            // A tag in no group is not hidden: it stands alone.
            "group ops",
            "op /health"
        ]
    );
    // The search still finds operations by their tag's own name.
    assert_eq!(catalog.groups[0].tags[1].name, "cats");
}

#[test]
fn security_requirements_and_external_docs_are_in_the_view() {
    let doc = json!({"openapi": "3.0.3", "info": {"title": "T", "version": "1"},
    "security": [{"key": []}],
    "components": {"securitySchemes": {
        "key": {"type": "apiKey", "in": "header", "name": "X-API-Key"},
        "jwt": {"type": "http", "scheme": "bearer", "bearerFormat": "JWT"},
        "oauth": {"type": "oauth2", "flows": {"authorizationCode": {"authorizationUrl": "https://a", "tokenUrl": "https://t", "scopes": {"read": "r"}}}},
        "oidc": {"type": "openIdConnect", "openIdConnectUrl": "https://o/.well-known/openid-configuration"}
    }},
    "paths": {"/a": {
        "get": {"responses": {}},
        "put": {"security": [{"jwt": [], "key": []}, {"oauth": ["read"]}, {}],
                "externalDocs": {"url": "https://docs.example.com/put", "description": "How to put"},
                "responses": {}},
        "delete": {"security": [], "responses": {}},
        "post": {"security": [{"oidc": ["admin"], "ghost": []}], "responses": {}}
    }}});
    let (indexed, _) = document::load_json(doc.to_string().into_bytes()).unwrap();
    let both = |method: Method| {
        let whole = OperationView::build(&doc, method, "/a").unwrap();
        assert_eq!(indexed.operation_view(method, "/a").unwrap(), whole);
        whole
    };
    let uses = |name: &str, kind: &str, scopes: &[&str]| SecurityUse {
        name: name.into(),
        kind: kind.into(),
        scopes: scopes.iter().map(|s| (*s).to_owned()).collect(),
    };
    assert_eq!(both(Method::Get).security, [vec![uses("key", "API key in the header X-API-Key", &[])]]);
    let put = both(Method::Put);
    assert_eq!(
        put.security,
        [
            vec![uses("jwt", "HTTP bearer, JWT", &[]), uses("key", "API key in the header X-API-Key", &[])],
            vec![uses("oauth", "OAuth 2, authorization code flow", &["read"])],
            vec![]
        ]
    );
    assert_eq!(
        put.external_docs,
        Some(ExternalDocs {
            url: "https://docs.example.com/put".into(),
            description: Some("How to put".into())
        })
    );
    assert!(both(Method::Delete).security.is_empty(), "an empty list overrides the document's");
    assert_eq!(
        both(Method::Post).security,
        [vec![
            uses("oidc", "OpenID Connect", &["admin"]),
            uses("ghost", "not described in the document", &[])
        ]]
    );
}

#[test]
fn odd_operation_ids_still_link_to_their_operation() {
    use playground_reference::html::row_html;
    let doc = json!({"openapi": "3.0.3", "info": {"title": "T", "version": "1"},
        "paths": {"/a": {"get": {"operationId": "Get Card Type 100% #1 "}, "put": {"operationId": ""}}}});
    let catalog = Catalog::from_value(&doc).unwrap();
    let listed = rows(&catalog.groups);
    let html: Vec<String> = listed.iter().map(|row| row_html(row, None)).collect();
    assert!(html[1].contains(r##"<a href="#Get%20Card%20Type%20100%25%20%231%20""##), "{}", html[1]);
    // An empty operationId anchors by method and path.
    assert!(html[2].contains(r##"data-operation-id="put-/a"><a href="#put-/a""##), "{}", html[2]);
}
