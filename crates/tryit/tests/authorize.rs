//! The Authorization part of the try-it panel (the feature `extras`) in headless Chromium: the
//! status line, a key typed and sent, the OAuth 2 inputs that follow the flow chosen, the
//! scopes the operation asks for, and the token line.
#![cfg(all(target_arch = "wasm32", feature = "extras"))]
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test, with its location

mod common;

use common::{FakeMock, Panel, forget_settings, operation, tick};
use leptos::prelude::GetUntracked;
use playground_openapi::catalog::Method;
use playground_tryit::page;
use serde_json::json;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// `GET /things`, open with an API key, or with an OAuth 2 token with the scope `read`.
fn things(id: &str) -> playground_reference::OperationView {
    operation(&things_document(id), Method::Get, "/things")
}

/// The document of [`things`], with a bearer scheme no operation names.
fn things_document(id: &str) -> serde_json::Value {
    let mut doc = json!({
        "openapi": "3.0.3",
        "info": {"title": "Things", "version": "1"},
        "components": {"securitySchemes": {
            "apiKey": {"type": "apiKey", "in": "header", "name": "X-Key"},
            "oauth": {"type": "oauth2", "flows": {
                "clientCredentials": {"tokenUrl": "/token", "scopes": {"read": "Read", "write": "Write"}},
                "password": {"tokenUrl": "/token", "scopes": {"read": "Read"}},
                "implicit": {"authorizationUrl": "/authorize", "scopes": {"read": "Read"}}
            }}
        }},
        "paths": {"/things": {"get": {
            "operationId": id,
            "security": [{"apiKey": []}, {"oauth": ["read"]}],
            "responses": {"200": {"description": "ok"}}
        }}}
    });
    doc["components"]["securitySchemes"]["bearer"] = json!({"type": "http", "scheme": "bearer"});
    doc
}

fn hidden(panel: &Panel, selector: &str) -> bool {
    let mut element = Some(panel.get(selector));
    while let Some(e) = element {
        if e.has_attribute("hidden") {
            return true;
        }
        element = e.parent_element();
    }
    false
}

#[wasm_bindgen_test]
async fn a_key_typed_is_sent_and_the_status_says_so() {
    forget_settings();
    let document = "tryit-test/authorize/key";
    let mock = FakeMock::answering(200, json!({}));
    let panel = Panel::mount(&things("keyed"), &mock, document);
    tick().await;
    let status = "[data-testid=try-auth-status]";
    assert_eq!(
        panel.text(status),
        "Missing: apiKey. Fill in below; until then the request goes without them."
    );
    assert_eq!(panel.get(status).get_attribute("data-state").as_deref(), Some("missing"));
    assert_eq!(
        panel.text("[data-testid=try-auth] > p.hint"),
        "Any one of the ways the reference lists above will do."
    );

    panel.fill("[data-scheme=apiKey] [data-part=key]", "k-1");
    tick().await;
    assert_eq!(panel.text(status), "Sends apiKey.");
    assert_eq!(panel.get("[data-scheme=apiKey]").get_attribute("data-set").as_deref(), Some("true"));
    panel.click("[data-testid=try-send]");
    tick().await;
    assert_eq!(mock.last().header_value("X-Key"), Some("k-1"));
    // The samples show a placeholder until the reader asks for the key itself.
    assert!(!panel.text("[data-testid=sample-source]").contains("k-1"));
    panel.check("[data-testid=auth-in-samples]", true);
    tick().await;
    assert!(panel.text("[data-testid=sample-source]").contains("k-1"));
    panel.close();

    // The document's vault keeps the key for the next panel.
    let (vault, _) = page::shared(document);
    assert_eq!(vault.credentials.get_untracked().0.len(), 1);
    let panel = Panel::mount(&things("keyedAgain"), &mock, document);
    tick().await;
    assert_eq!(panel.value("[data-scheme=apiKey] [data-part=key]"), "k-1");
    panel.click("[data-scheme=apiKey] [data-testid=auth-forget]");
    tick().await;
    assert_eq!(panel.value("[data-scheme=apiKey] [data-part=key]"), "");
    assert_eq!(panel.text("[data-scheme=apiKey] [data-testid=auth-message]"), "Forgotten.");
    panel.close();
}

#[wasm_bindgen_test]
async fn the_oauth_inputs_follow_the_flow_chosen() {
    forget_settings();
    let mock = FakeMock::answering(200, json!({}));
    let panel = Panel::mount(&things("oauthFlows"), &mock, "tryit-test/authorize/oauth");
    tick().await;
    let card = |part: &str| format!("[data-scheme=oauth] [data-part={part}]");
    let flows: Vec<String> =
        panel.all(&format!("{} option", card("flow"))).iter().map(|o| o.text_content().unwrap()).collect();
    assert_eq!(flows, ["Client credentials", "Password", "Implicit"]);
    // Client credentials: a secret, no user; the operation's scope is ticked.
    assert!(!hidden(&panel, &card("client-secret")));
    assert!(hidden(&panel, &card("username")));
    let scope = |name: &str| {
        panel
            .get(&format!("[data-scheme=oauth] [data-testid=auth-scope][data-scope={name}]"))
            .unchecked_into::<web_sys::HtmlInputElement>()
            .checked()
    };
    assert!(scope("read"));
    assert!(!scope("write"));

    panel.fill(&card("client-id"), "app");
    panel.check("[data-scheme=oauth] [data-testid=auth-scope][data-scope=write]", true);
    panel.fill(&card("flow"), "1");
    tick().await;
    assert!(!hidden(&panel, &card("username")), "the password flow asks for the user");
    assert_eq!(panel.value(&card("client-id")), "app", "the client is kept across flows");
    assert_eq!(panel.all("[data-scheme=oauth] [data-testid=auth-scope]").len(), 1, "the flow's own scopes");
    panel.fill(&card("flow"), "2");
    tick().await;
    assert!(hidden(&panel, &card("client-secret")), "an implicit client has no secret");
    assert!(hidden(&panel, &card("username")));
    // A sign-in in a window names its client (the password and client-credentials flows go
    // without one).
    panel.fill(&card("client-id"), "");
    panel.click("[data-scheme=oauth] [data-testid=auth-get-token]");
    tick().await;
    assert_eq!(panel.text("[data-scheme=oauth] [data-testid=auth-message]"), "Enter the client ID first.");
    panel.fill(&card("client-id"), "app");

    let (vault, _) = page::shared("tryit-test/authorize/oauth");
    let client = vault.clients.get_untracked().get("oauth").cloned().unwrap();
    assert_eq!((client.flow, client.id.as_str()), (2, "app"));
    assert_eq!(client.scopes.into_iter().collect::<Vec<_>>(), ["read", "write"]);

    // A token pasted: the line under it says so, and the request carries it.
    assert_eq!(panel.text("[data-scheme=oauth] [data-testid=auth-token-state]"), "");
    panel.fill(&card("token"), "t-1");
    tick().await;
    assert_eq!(panel.text("[data-scheme=oauth] [data-testid=auth-token-state]"), "A token is set.");
    assert_eq!(panel.text("[data-testid=try-auth-status]"), "Sends oauth.");
    panel.click("[data-testid=try-send]");
    tick().await;
    assert_eq!(mock.last().header_value("Authorization"), Some("Bearer t-1"));
    panel.close();
}

/// What the module announced: a document and its schemes with credentials.
type Announced = (String, Vec<String>);

/// The page's Authorize dialog's cards (`mountAuthorize`) for every scheme of the document, in
/// a new element.
fn authorize_cards(document: &str) -> (web_sys::HtmlElement, playground_tryit::Mounted) {
    let page = web_sys::window().unwrap().document().unwrap();
    let root: web_sys::HtmlElement = page.create_element("div").unwrap().unchecked_into();
    page.body().unwrap().append_child(&root).unwrap();
    let schemes = playground_openapi::security::schemes(&things_document("unused"));
    let json = serde_json::to_string(&schemes).unwrap();
    let mounted =
        playground_tryit::mount_authorize(root.clone(), &json, document, "https://api.example/").unwrap();
    (root, mounted)
}

fn type_into(root: &web_sys::Element, selector: &str, value: &str) {
    let input: web_sys::HtmlInputElement =
        root.query_selector(selector).unwrap().unwrap_or_else(|| panic!("no {selector}")).unchecked_into();
    input.set_value(value);
    input.dispatch_event(&web_sys::Event::new("input").unwrap()).unwrap();
}

#[wasm_bindgen_test]
async fn the_authorize_cards_fill_what_every_panel_sends_and_show_what_a_panel_filled() {
    forget_settings();
    let document = "tryit-test/authorize/dialog";
    // What the module tells the page: the schemes with credentials, per document.
    let announced: std::rc::Rc<std::cell::RefCell<Vec<Announced>>> = std::rc::Rc::default();
    let seen = std::rc::Rc::clone(&announced);
    let listener =
        wasm_bindgen::closure::Closure::<dyn Fn(web_sys::Event)>::new(move |event: web_sys::Event| {
            seen.borrow_mut().extend(playground_browser::credentials::announced(&event));
        });
    let window = web_sys::window().unwrap();
    window
        .add_event_listener_with_callback(
            playground_browser::credentials::EVENT,
            listener.as_ref().unchecked_ref(),
        )
        .unwrap();

    let (cards, mut mounted) = authorize_cards(document);
    tick().await;
    let names: Vec<String> = {
        let list = cards.query_selector_all("[data-testid=auth-scheme]").unwrap();
        (0..list.length())
            .map(|i| {
                list.item(i)
                    .unwrap()
                    .unchecked_into::<web_sys::Element>()
                    .get_attribute("data-scheme")
                    .unwrap()
            })
            .collect()
    };
    assert_eq!(names, ["apiKey", "oauth", "bearer"], "every scheme of the document, in its order");
    assert_eq!(announced.borrow().last(), Some(&(document.to_owned(), Vec::new())), "announced when made");

    type_into(&cards, "[data-scheme=apiKey] [data-part=key]", "k-dialog");
    tick().await;
    assert_eq!(announced.borrow().last(), Some(&(document.to_owned(), vec!["apiKey".to_owned()])));

    let mock = FakeMock::answering(200, json!({}));
    let panel = Panel::mount(&things("fromTheDialog"), &mock, document);
    tick().await;
    assert_eq!(panel.text("[data-testid=try-auth-status]"), "Sends apiKey.");
    panel.click("[data-testid=try-send]");
    tick().await;
    assert_eq!(mock.last().header_value("X-Key"), Some("k-dialog"), "the panel sends the dialog's key");

    // A token typed in the panel shows in the dialog (and the page hears of it).
    panel.fill("[data-scheme=oauth] [data-testid=auth-input][data-part=token]", "t-panel");
    tick().await;
    let token: web_sys::HtmlInputElement = cards
        .query_selector("[data-scheme=oauth] [data-testid=auth-input][data-part=token]")
        .unwrap()
        .unwrap()
        .unchecked_into();
    assert_eq!(token.value(), "t-panel");
    assert_eq!(
        announced.borrow().last(),
        Some(&(document.to_owned(), vec!["apiKey".to_owned(), "oauth".to_owned()]))
    );
    // Another document's vault is another's: it announces nothing filled.
    let (other, mut other_mounted) = authorize_cards("tryit-test/authorize/dialog-other");
    tick().await;
    assert_eq!(
        announced.borrow().last(),
        Some(&("tryit-test/authorize/dialog-other".to_owned(), Vec::new()))
    );
    other_mounted.unmount();
    other.remove();

    window
        .remove_event_listener_with_callback(
            playground_browser::credentials::EVENT,
            listener.as_ref().unchecked_ref(),
        )
        .unwrap();
    panel.close();
    mounted.unmount();
    cards.remove();
}
