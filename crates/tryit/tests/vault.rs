//! The credentials and settings kept per document, in headless Chromium: each document has its
//! own, only the schemes the reader asks to remember are written to `localStorage` and read
//! back, Forget clears them, what is saved is read back only within its bound, and the values
//! chosen for server variables are kept per document and make the server's URL.
#![cfg(target_arch = "wasm32")]
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test, with its location

mod common;

use std::collections::BTreeMap;

use common::operation;
use leptos::prelude::*;
use playground_http::Request;
use playground_openapi::catalog::Method;
use playground_openapi::servers::{Server, ServerVariable};
use playground_tryit::page;
use playground_tryit::vault::{Client, Vault, servers_key, storage_key};
use playground_tryit_core::auth::Credential;
use serde_json::{Value, json};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn key(value: &str) -> Option<Credential> {
    Some(Credential::ApiKey(value.to_owned()))
}

fn stored(key: &str) -> Option<Value> {
    playground_browser::get(key).unwrap().map(|text| serde_json::from_str(&text).unwrap())
}

/// A fresh vault of `document`, read from this browser, under an owner of its own.
fn load(document: &str) -> (Owner, Vault) {
    let owner = Owner::new();
    let vault = owner.with(|| Vault::load(document));
    (owner, vault)
}

fn forget(document: &str) {
    playground_browser::remove(&storage_key(document)).unwrap();
    playground_browser::remove(&servers_key(document)).unwrap();
}

#[wasm_bindgen_test]
fn the_page_keeps_one_vault_per_document() {
    for document in ["tryit-test/vault/a", "tryit-test/vault/b"] {
        forget(document);
    }
    let (a, history) = page::shared("tryit-test/vault/a");
    a.set("apiKey", key("k-a"));
    let (again, same_history) = page::shared("tryit-test/vault/a");
    assert_eq!(again.credentials.get_untracked().0.get("apiKey"), key("k-a").as_ref(), "the same vault");
    let (b, _) = page::shared("tryit-test/vault/b");
    assert!(b.credentials.get_untracked().0.is_empty(), "another document's is its own");
    b.set("apiKey", key("k-b"));
    assert_eq!(a.credentials.get_untracked().0.get("apiKey"), key("k-a").as_ref());
    // One history for the page.
    let id = history.record("op", exchange());
    assert_eq!(same_history.of("op".to_owned()).get_untracked().first().map(|e| e.id), Some(id));
    assert_eq!(stored(&storage_key("tryit-test/vault/a")), None, "nothing remembered, nothing stored");
}

fn exchange() -> playground_tryit::transport::Exchange {
    playground_tryit::transport::failed(&Request::new("GET", "/x"), "Not sent.".to_owned())
}

#[wasm_bindgen_test]
fn only_remembered_schemes_are_stored_and_read_back() {
    let document = "tryit-test/vault/remembered";
    forget(document);
    let (owner, vault) = load(document);
    vault.set("apiKey", key("k-1"));
    vault.set(
        "bearer",
        Some(Credential::Token {
            value: "t-1".to_owned(),
            expires_at_ms: None,
            refresh_token: None,
            scopes: Vec::new(),
        }),
    );
    vault.client("oauth", |c| c.id = "app".to_owned());
    assert_eq!(stored(&storage_key(document)), None);

    vault.remember("apiKey", true);
    vault.remember("oauth", true);
    let saved = stored(&storage_key(document)).unwrap();
    let schemes = |part: &str| saved[part].as_object().map(|o| o.keys().cloned().collect::<Vec<_>>());
    assert_eq!(schemes("credentials").unwrap(), ["apiKey"], "only the remembered schemes: {saved}");
    assert_eq!(schemes("clients").unwrap(), ["oauth"], "{saved}");
    assert_eq!(
        serde_json::from_value::<Client>(saved["clients"]["oauth"].clone()).unwrap(),
        Client { id: "app".to_owned(), ..Client::default() }
    );
    assert!(saved["credentials"].to_string().contains("k-1"), "{saved}");
    // A change to a remembered scheme is written at once; to another, not at all.
    vault.set("apiKey", key("k-2"));
    vault.set("bearer", None);
    let text = playground_browser::get(&storage_key(document)).unwrap().unwrap();
    assert!(text.contains("k-2") && !text.contains("k-1") && !text.contains("t-1"), "{text}");
    owner.unset();

    let (owner, restored) = load(document);
    assert_eq!(restored.credentials.get_untracked().0.keys().collect::<Vec<_>>(), ["apiKey"]);
    assert_eq!(restored.credentials.get_untracked().0.get("apiKey"), key("k-2").as_ref());
    assert_eq!(restored.clients.get_untracked().get("oauth").map(|c| c.id.clone()).as_deref(), Some("app"));
    assert_eq!(restored.remembered.get_untracked().into_iter().collect::<Vec<_>>(), ["apiKey", "oauth"]);

    restored.forget("apiKey");
    assert!(restored.credentials.get_untracked().0.is_empty());
    assert_eq!(restored.messages.get_untracked().get("apiKey"), Some(&Ok("Forgotten.".to_owned())));
    assert!(playground_browser::get(&storage_key(document)).unwrap().is_some(), "oauth is still remembered");
    restored.forget("oauth");
    assert_eq!(
        playground_browser::get(&storage_key(document)).unwrap(),
        None,
        "nothing left: the entry goes"
    );
    owner.unset();
}

#[wasm_bindgen_test]
fn saved_text_beyond_its_bound_or_unreadable_is_not_read() {
    let document = "tryit-test/vault/bounds";
    forget(document);
    let (owner, vault) = load(document);
    vault.set("apiKey", key("k"));
    vault.remember("apiKey", true);
    let saved = playground_browser::get(&storage_key(document)).unwrap().unwrap();
    owner.unset();

    // Padded to 64 KiB it is still read; one byte more and it is not.
    let bound = 64 * 1024;
    playground_browser::set(&storage_key(document), &format!("{saved}{}", " ".repeat(bound - saved.len())))
        .unwrap();
    let (owner, vault) = load(document);
    assert_eq!(vault.credentials.get_untracked().0.get("apiKey"), key("k").as_ref());
    owner.unset();
    playground_browser::set(
        &storage_key(document),
        &format!("{saved}{}", " ".repeat(bound + 1 - saved.len())),
    )
    .unwrap();
    let (owner, vault) = load(document);
    assert!(vault.credentials.get_untracked().0.is_empty());
    assert!(vault.remembered.get_untracked().is_empty());
    owner.unset();

    for broken in ["{", "[]", r#"{"credentials": {"apiKey": 5}}"#] {
        playground_browser::set(&storage_key(document), broken).unwrap();
        playground_browser::set(&servers_key(document), broken).unwrap();
        let (owner, vault) = load(document);
        assert!(vault.credentials.get_untracked().0.is_empty(), "{broken}");
        assert!(vault.server_values.get_untracked().is_empty(), "{broken}");
        owner.unset();
    }
    let values = json!({"https://{region}.api.example": {"region": "x".repeat(bound)}}).to_string();
    playground_browser::set(&servers_key(document), &values).unwrap();
    let (owner, vault) = load(document);
    assert!(vault.server_values.get_untracked().is_empty(), "server values have the same bound");
    owner.unset();
    forget(document);
}

fn regional() -> Server {
    Server {
        url: "https://{region}.api.example/{version}".to_owned(),
        description: None,
        variables: vec![
            ServerVariable {
                name: "region".to_owned(),
                default: "eu".to_owned(),
                choices: vec!["eu".to_owned(), "us".to_owned()],
                description: None,
            },
            ServerVariable {
                name: "version".to_owned(),
                default: "v1".to_owned(),
                choices: Vec::new(),
                description: None,
            },
        ],
    }
}

#[wasm_bindgen_test]
fn server_values_are_kept_per_document_and_make_the_url() {
    let (document, other) = ("tryit-test/vault/servers", "tryit-test/vault/servers-other");
    forget(document);
    forget(other);
    let servers = [regional()];
    let template = servers[0].url.clone();
    let (owner, vault) = load(document);
    assert_eq!(vault.server_url(&template, &servers), "https://eu.api.example/v1", "the defaults");
    vault.set_server_value(&template, "region", "us".to_owned());
    assert_eq!(vault.server_url(&template, &servers), "https://us.api.example/v1");
    assert_eq!(stored(&servers_key(document)), Some(json!({ template.clone(): {"region": "us"} })));
    owner.unset();

    let (owner, vault) = load(document);
    assert_eq!(vault.server_url(&template, &servers), "https://us.api.example/v1", "read back");
    let expected: BTreeMap<String, String> = [("region".to_owned(), "us".to_owned())].into();
    assert_eq!(vault.server_values.get_untracked().get(&template), Some(&expected));
    owner.unset();
    let (owner, vault) = load(other);
    assert_eq!(
        vault.server_url(&template, &servers),
        "https://eu.api.example/v1",
        "another document's are its own"
    );
    owner.unset();
    forget(document);
}

#[wasm_bindgen_test]
fn a_request_gets_the_credentials_its_operation_needs() {
    let doc = json!({
        "openapi": "3.0.3",
        "info": {"title": "Keys", "version": "1"},
        "components": {"securitySchemes": {"apiKey": {"type": "apiKey", "in": "header", "name": "X-Key"}}},
        "security": [{"apiKey": []}],
        "paths": {"/things": {"get": {"responses": {"200": {"description": "ok"}}}}}
    });
    let view = operation(&doc, Method::Get, "/things");
    let document = "tryit-test/vault/apply";
    forget(document);
    let (owner, vault) = load(document);
    owner.with(|| {
        let mut request = Request::new("GET", "/things");
        let applied = vault.apply(&view, &mut request, false);
        assert_eq!(applied.missing, ["apiKey"]);
        assert_eq!(request.header_value("X-Key"), None);

        vault.set("apiKey", key("k-secret"));
        let mut request = Request::new("GET", "/things");
        assert_eq!(vault.apply(&view, &mut request, false).used, ["apiKey"]);
        assert_eq!(request.header_value("X-Key"), Some("k-secret"));
        // The code samples show a placeholder unless the reader asks for the real key.
        let mut sample = Request::new("GET", "/things");
        vault.apply(&view, &mut sample, true);
        assert_ne!(sample.header_value("X-Key"), Some("k-secret"));
        assert!(sample.header_value("X-Key").is_some());
        vault.in_samples.set(true);
        let mut sample = Request::new("GET", "/things");
        vault.apply(&view, &mut sample, true);
        assert_eq!(sample.header_value("X-Key"), Some("k-secret"));
    });
    owner.unset();
}
