//! The reference's parts beyond the operations of `paths`: webhooks listed and shown, callbacks,
//! the component schemas (names, one schema's page, links from operations), the overview
//! (summary, licence, contact, external docs), tag pages' links and safe links.
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test, with its location

use playground_openapi::Catalog;
use playground_openapi::catalog::{Method, WEBHOOKS};
use playground_openapi::document::{AnyDocument, Arriving, DocumentStream, IndexedDocument, Read, Streamed};
use playground_openapi::outline::{Page, Row, rows, schema_anchor, tag_anchor};
use playground_reference::DocumentViews;
use playground_reference::html::row_html;
use playground_reference::{Overview, safe_link};
use serde_json::{Value, json};

fn doc_31() -> Value {
    json!({
        "openapi": "3.1.0",
        "info": {"title": "Hooks", "version": "1", "summary": "Pets, and what happens to them",
            "license": {"name": "Apache 2.0", "identifier": "Apache-2.0"},
            "contact": {"email": "api@example.com"}},
        "externalDocs": {"url": "https://example.com/guide", "description": "The guide"},
        "tags": [{"name": "pets", "description": "Everything about **pets**",
            "externalDocs": {"url": "javascript:alert(1)"}},
            {"name": "store", "externalDocs": {"url": "https://example.com/store"}}],
        "paths": {
            "/pets": {"post": {"operationId": "addPet", "tags": ["pets"],
                "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}}},
                "callbacks": {
                    "onAdopted": {"{$request.body#/callbackUrl}": {"post": {
                        "summary": "The pet was adopted",
                        "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}}},
                        "responses": {"204": {"description": "Received"}}}}},
                    "broken": {"$ref": "#/components/callbacks/missing"}
                },
                "responses": {"200": {"description": "ok", "content": {"application/json": {
                    "schema": {"type": "array", "items": {"$ref": "#/components/schemas/Pet"}}}}}}}}
        },
        "webhooks": {
            "newPet": {"post": {"summary": "A pet was added",
                "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}}},
                "responses": {"200": {"description": "Return 200 to acknowledge"}}}},
            "petGone": {"$ref": "#/components/pathItems/Gone"}
        },
        "components": {
            "schemas": {
                "Pet": {"type": "object", "required": ["name"], "properties": {
                    "name": {"type": "string"}, "tag": {"$ref": "#/components/schemas/Tag"}}},
                "Tag": {"type": ["string", "null"]},
                "a/b~c": {"type": "integer", "minimum": 3}
            },
            "pathItems": {"Gone": {"delete": {"operationId": "petGone",
                "responses": {"200": {"description": "ok"}}}}}
        }
    })
}

/// A document read as it arrives, in chunks of `size` bytes: the list shown first, the
/// arriving document, and the list of the whole one (with the arriving document now whole).
fn arriving(text: &str, size: usize) -> (Catalog, AnyDocument, Catalog) {
    let mut stream = DocumentStream::new(0);
    let mut early = None;
    for chunk in text.as_bytes().chunks(size) {
        if let Some(listing) = stream.push(chunk).unwrap() {
            early = Some(listing);
        }
    }
    let listing = early.expect("listed before the end");
    let Ok(Streamed::Json(Read::OpenApi(whole, catalog))) = stream.finish() else { panic!("read") };
    let arriving = std::sync::Arc::new(Arriving::new(listing.root));
    let shown = AnyDocument::Arriving(arriving.clone());
    assert!(!shown.is_complete());
    arriving.arrive(whole);
    (listing.catalog, shown, catalog)
}

/// The same document whole, indexed at once, and read as it arrived (webhooks after `paths`,
/// so listed only once the rest is in).
fn all_ways(doc: &Value) -> Vec<AnyDocument> {
    let text = doc.to_string();
    vec![
        AnyDocument::whole(doc.clone()),
        AnyDocument::Indexed(std::sync::Arc::new(IndexedDocument::parse(text.clone()).unwrap())),
        arriving(&text, 23).1,
    ]
}

#[test]
fn webhooks_are_listed_last_and_apart_from_the_operation_count() {
    for document in all_ways(&doc_31()) {
        let catalog = document.catalog().unwrap();
        assert_eq!(catalog.operation_count(), 1);
        assert_eq!(catalog.webhook_count(), 2);
        let last = catalog.groups.last().unwrap();
        assert_eq!((last.name.as_str(), last.title.as_str(), last.is_tag), (WEBHOOKS, "Webhooks", false));
        let hooks: Vec<(String, String)> =
            last.tags[0].operations.iter().map(|op| (op.path.clone(), op.anchor())).collect();
        assert_eq!(
            hooks,
            [
                ("newPet".to_owned(), "webhook-post-newPet".to_owned()),
                ("petGone".to_owned(), "petGone".to_owned())
            ]
        );
        let shown = document.view_of(&last.tags[0].operations[0]).unwrap();
        assert!(shown.webhook);
        assert_eq!(shown.anchor(), "webhook-post-newPet");
        assert_eq!(shown.request_body.unwrap().schema.component.as_deref(), Some("Pet"));
        let referenced = document.view_of(&last.tags[0].operations[1]).unwrap();
        assert_eq!((referenced.method, referenced.path.as_str()), (Method::Delete, "petGone"));
    }
}

#[test]
fn a_document_read_as_it_arrives_lists_later_webhooks_once_in() {
    // `externalDocs` moved after `paths` (keys keep their order).
    let mut doc = doc_31();
    let docs = doc.as_object_mut().unwrap().shift_remove("externalDocs").unwrap();
    doc.as_object_mut().unwrap().insert("externalDocs".to_owned(), docs);
    let text = serde_json::to_string_pretty(&doc).unwrap();
    let mut stream = DocumentStream::new(0);
    let mut early = None;
    for chunk in text.as_bytes().chunks(40) {
        if let Some(listing) = stream.push(chunk).unwrap() {
            early.get_or_insert(listing);
        }
    }
    let early = early.unwrap();
    assert_eq!(early.catalog.webhook_count(), 0, "listed once `paths` was in");
    assert!(!early.root.contains_key("externalDocs"));
    let (_, shown, whole) = arriving(&text, 40);
    assert_eq!(whole.webhook_count(), 2);
    assert!(shown.root().unwrap().contains_key("externalDocs"), "the overview reads the whole root now");
    // Webhooks before `paths`: listed with the rest.
    let early = json!({"openapi": "3.1.0", "info": {"title": "T", "version": "1"}, "tags": [],
        "webhooks": {"w": {"post": {}}}, "paths": {}, "servers": [{"url": "https://example.com/".repeat(20)}]});
    let (first, _, whole) = arriving(&early.to_string(), 16);
    assert_eq!(first.webhook_count(), 1);
    assert_eq!(first, whole);
}

#[test]
fn callbacks_are_shown_and_a_broken_one_is_named() {
    for document in all_ways(&doc_31()) {
        let view = document.operation_view(Method::Post, "/pets").unwrap();
        assert_eq!(view.callbacks.len(), 1);
        let callback = &view.callbacks[0];
        assert_eq!(
            (callback.name.as_str(), callback.expression.as_str()),
            ("onAdopted", "{$request.body#/callbackUrl}")
        );
        let op = &callback.operations[0];
        assert_eq!((op.method, op.summary.as_deref()), (Method::Post, Some("The pet was adopted")));
        assert_eq!(op.responses[0].status, "204");
        assert!(op.request_body.as_ref().unwrap().schema.properties.iter().any(|p| p.name == "name"));
        assert!(view.problems.iter().any(|p| p.contains("callback broken")), "{:?}", view.problems);
        // The response's array links its items to their schema.
        let items = view.responses[0].schema.as_ref().unwrap().items.as_ref().unwrap();
        assert_eq!(items.component.as_deref(), Some("Pet"));
    }
}

#[test]
fn component_schemas_are_listed_and_shown() {
    for document in all_ways(&doc_31()) {
        assert_eq!(document.schema_names().unwrap(), ["a/b~c", "Pet", "Tag"]);
        let pet = document.schema_view("Pet").unwrap();
        assert_eq!(pet.tree.component, None, "the page's own schema is not a link to itself");
        assert_eq!(pet.tree.name.as_deref(), Some("Pet"));
        let tag = &pet.tree.properties.iter().find(|p| p.name == "tag").unwrap().schema;
        assert_eq!(tag.component.as_deref(), Some("Tag"));
        assert!(tag.nullable);
        assert_eq!(pet.example.value, json!({"name": "string", "tag": "string"}));
        let odd = document.schema_view("a/b~c").unwrap();
        assert_eq!(odd.tree.kind, "integer");
        assert_eq!(odd.example.value, json!(3));
        let missing = document.schema_view("Nope").unwrap_err().to_string();
        assert!(missing.contains("no schema Nope"), "{missing}");
    }
    let none =
        AnyDocument::whole(json!({"openapi": "3.0.3", "info": {"title": "T", "version": "1"}, "paths": {}}));
    assert!(none.schema_names().unwrap().is_empty());
}

#[test]
fn the_overview_reads_summary_licence_contact_and_links() {
    let doc = doc_31();
    let overview = Overview::from_root(doc.as_object().unwrap());
    assert_eq!(overview.summary.as_deref(), Some("Pets, and what happens to them"));
    let license = overview.license.unwrap();
    assert_eq!(
        (license.name.as_str(), license.url.as_deref()),
        ("Apache 2.0", Some("https://spdx.org/licenses/Apache-2.0.html"))
    );
    assert_eq!(
        overview.contact,
        Some(("api@example.com".to_owned(), Some("mailto:api@example.com".to_owned())))
    );
    assert_eq!(overview.external_docs.unwrap().description.as_deref(), Some("The guide"));
    // The `javascript:` link of the tag `pets` is dropped.
    let tags: Vec<&str> = overview.tag_docs.iter().map(|(tag, _)| tag.as_str()).collect();
    assert_eq!(tags, ["store"]);
    let odd = json!({"info": {"title": 1, "summary": ["x"], "license": "MIT", "contact": {"url": "data:text/html,x"}}});
    let overview = Overview::from_root(odd.as_object().unwrap());
    assert_eq!((overview.summary, overview.license, overview.contact), (None, None, None));
}

#[test]
fn only_safe_links_are_kept() {
    for (url, kept) in [
        ("https://example.com/a", true),
        ("HTTP://example.com", true),
        ("mailto:a@example.com", true),
        ("/docs/guide", true),
        ("guide.html#part:one", true),
        ("javascript:alert(1)", false),
        (" JavaScript:alert(1)", false),
        ("data:text/html,<b>", false),
        ("vbscript:x", false),
        ("", false),
    ] {
        assert_eq!(safe_link(url).is_some(), kept, "{url}");
    }
}

#[test]
fn tag_headings_link_to_their_pages() {
    let doc = json!({"openapi": "3.0.3", "info": {"title": "T", "version": "1"},
        "tags": [{"name": "child", "x-parent": "parent one"}],
        "paths": {"/a": {"get": {"tags": ["child"]}}, "/b": {"get": {"tags": ["parent one"]}}}});
    let catalog = playground_openapi::Catalog::from_value(&doc).unwrap();
    let html: Vec<String> = rows(&catalog.groups).iter().map(|r| row_html(r, None)).collect();
    assert!(html[0].contains(r##"href="#tag/parent%20one""##), "{}", html[0]);
    assert!(html.iter().any(|h| h.contains(r##"href="#tag/child""##)), "{html:?}");
    let tag_groups = json!({"openapi": "3.0.3", "info": {"title": "T", "version": "1"},
        "x-tagGroups": [{"name": "All", "tags": ["a"]}], "paths": {"/a": {"get": {"tags": ["a"]}}}});
    let catalog = playground_openapi::Catalog::from_value(&tag_groups).unwrap();
    let first = &rows(&catalog.groups)[0];
    assert!(matches!(first, Row::Group { tag: None, .. }), "an x-tagGroups entry is no tag");
    assert!(!row_html(first, None).contains("href"));
}

#[test]
fn page_anchors_name_their_pages() {
    assert_eq!(Page::of(&tag_anchor("a/b c")), Some(Page::Tag("a/b c")));
    assert_eq!(Page::of(&schema_anchor("Pet")), Some(Page::Schema("Pet")));
    assert_eq!(Page::of("schemas"), Some(Page::Schemas));
    assert_eq!(Page::of("listPets"), None);
    assert_eq!(Page::of("get-/pets"), None);
}
