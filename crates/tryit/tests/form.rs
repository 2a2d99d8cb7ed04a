//! The try-it form in headless Chromium: the values it starts with, the request it makes of
//! what is typed, the checks that keep a request from being sent, and what it remembers in
//! this browser.
#![cfg(target_arch = "wasm32")]
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test, with its location

mod common;

use std::sync::Arc;

use common::{
    BASE_URL_KEY, FakeMock, HEADERS_KEY, Panel, TARGET_KEY, focused, forget_settings, tick, visits,
};
use leptos::prelude::*;
use playground_tryit::MockOffer;
use playground_tryit::panel::{Target, TryItForm};
use playground_tryit::vault::Vault;
use serde_json::json;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const PET_ID: &str = "[data-testid=try-param][data-name=petId]";
const NOTIFY: &str = "[data-testid=try-param][data-name=notify]";
const CLINIC: &str = "[data-testid=try-param][data-name=X-Clinic]";
const BODY: &str = "[data-testid=try-body]";

#[wasm_bindgen_test]
async fn the_form_starts_with_the_examples_and_sends_what_is_typed() {
    forget_settings();
    let mock = FakeMock::answering(201, json!({"filed": true}));
    let panel = Panel::mount(&visits("typed"), &mock, "tryit-test/form/typed");
    tick().await;
    assert_eq!(panel.value(PET_ID), "7", "a path parameter starts with its example");
    assert_eq!(panel.value(CLINIC), "north", "so does a required one");
    assert_eq!(panel.value(NOTIFY), "", "an optional one is not sent until chosen");
    assert_eq!(panel.value(BODY), "{\n  \"reason\": \"checkup\",\n  \"minutes\": 20\n}");

    panel.fill(PET_ID, "12");
    panel.fill(NOTIFY, "true");
    panel.fill(CLINIC, "south");
    panel.fill(BODY, r#"{"reason": "shots"}"#);
    panel.click("[data-testid=try-send]");
    tick().await;
    assert_eq!(mock.count(), 1);
    let sent = mock.last();
    assert_eq!((sent.method.as_str(), sent.target.as_str()), ("POST", "/pets/12/visits?notify=true"));
    assert_eq!(sent.header_value("X-Clinic"), Some("south"));
    assert_eq!(sent.header_value("Content-Type"), Some("application/json"));
    assert_eq!(String::from_utf8(sent.body).unwrap(), r#"{"reason": "shots"}"#, "the body as typed");
    assert_eq!(panel.get("[data-testid=try-answer]").get_attribute("data-status").as_deref(), Some("201"));

    // The Example button puts the example back.
    panel.click("[data-testid=try-body-reset]");
    tick().await;
    assert_eq!(panel.value(BODY), "{\n  \"reason\": \"checkup\",\n  \"minutes\": 20\n}");
    panel.close();
}

#[wasm_bindgen_test]
async fn a_form_with_problems_sends_nothing_and_says_why() {
    forget_settings();
    let mock = FakeMock::answering(201, json!({}));
    let panel = Panel::mount(&visits("problems"), &mock, "tryit-test/form/problems");
    tick().await;
    panel.fill(PET_ID, "");
    panel.fill(BODY, "{not json");
    assert_eq!(panel.text("[data-testid=try-body-error]"), "", "no problem is shown before Send");
    assert_eq!(panel.get(PET_ID).get_attribute("aria-invalid").as_deref(), Some("false"));

    panel.click("[data-testid=try-send]");
    tick().await;
    assert_eq!(mock.count(), 0, "nothing was sent");
    assert!(panel.find("[data-testid=try-answer]").is_none());
    let field = panel.get(PET_ID);
    assert_eq!(field.get_attribute("aria-invalid").as_deref(), Some("true"));
    let described = field.get_attribute("aria-describedby").unwrap();
    assert_eq!(panel.text(&format!("[id='{described}']")), "petId is required.");
    assert!(panel.text("[data-testid=try-body-error]").starts_with("The body is not valid JSON"));
    assert_eq!(
        focused().and_then(|e| e.get_attribute("data-name")).as_deref(),
        Some("petId"),
        "the first problem"
    );

    // A value against the schema, then the body: each is the problem to fix in turn.
    panel.fill(PET_ID, "0");
    tick().await;
    panel.click("[data-testid=try-send]");
    tick().await;
    assert_eq!(mock.count(), 0);
    assert_eq!(panel.text(&format!("[id='{described}']")), "petId must be at least 1; got 0.");
    panel.fill(PET_ID, "3");
    tick().await;
    assert_eq!(panel.text(&format!("[id='{described}']")), "", "fixed: the message goes at once");
    panel.click("[data-testid=try-send]");
    tick().await;
    assert_eq!(mock.count(), 0);
    assert_eq!(focused().and_then(|e| e.get_attribute("data-testid")).as_deref(), Some("try-body"));

    panel.fill(BODY, "");
    panel.click("[data-testid=try-send]");
    tick().await;
    assert_eq!(panel.text("[data-testid=try-body-error]"), "This operation needs a request body.");
    panel.fill("[data-testid=try-headers]", "not a header");
    panel.fill(BODY, "{}");
    panel.click("[data-testid=try-send]");
    tick().await;
    assert_eq!(mock.count(), 0, "the extra headers are checked too");
    let described = panel.get("[data-testid=try-headers]").get_attribute("aria-describedby").unwrap();
    assert_eq!(
        panel.text(&format!("[id='{described}']")),
        "Line 1: write a header as Name: value, e.g. Authorization: Bearer abc."
    );
    panel.fill("[data-testid=try-headers]", "X-Trace: 1");
    panel.click("[data-testid=try-send]");
    tick().await;
    assert_eq!(mock.count(), 1);
    assert_eq!(mock.last().target, "/pets/3/visits");
    assert_eq!(mock.last().header_value("X-Trace"), Some("1"));
    assert_eq!(panel.text("[data-testid=try-body-error]"), "");
    panel.close();
}

fn keydown(target: &web_sys::Element, init: &web_sys::KeyboardEventInit) {
    init.set_key("Enter");
    init.set_bubbles(true);
    init.set_cancelable(true);
    let event = web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", init).unwrap();
    target.dispatch_event(&event).unwrap();
}

#[wasm_bindgen_test]
async fn enter_in_a_one_line_field_sends_and_ctrl_enter_sends_from_anywhere() {
    forget_settings();
    let mock = FakeMock::answering(201, json!({}));
    let panel = Panel::mount(&visits("keys"), &mock, "tryit-test/form/keys");
    tick().await;
    keydown(&panel.get(BODY), &web_sys::KeyboardEventInit::new());
    tick().await;
    assert_eq!(mock.count(), 0, "Enter in the body is a new line");
    keydown(&panel.get(PET_ID), &web_sys::KeyboardEventInit::new());
    tick().await;
    assert_eq!(mock.count(), 1);
    let with_ctrl = web_sys::KeyboardEventInit::new();
    with_ctrl.set_ctrl_key(true);
    keydown(&panel.get(BODY), &with_ctrl);
    tick().await;
    assert_eq!(mock.count(), 2);
    let with_shift = web_sys::KeyboardEventInit::new();
    with_shift.set_shift_key(true);
    keydown(&panel.get(PET_ID), &with_shift);
    tick().await;
    assert_eq!(mock.count(), 2, "Shift+Enter does not send");
    panel.close();
}

#[wasm_bindgen_test]
fn the_form_builds_its_request_from_its_values() {
    forget_settings();
    let owner = Owner::new();
    owner.with(|| {
        let view = Arc::new(visits("state"));
        let form = TryItForm::new(&view, MockOffer::First, Vault::load("tryit-test/form/state"));
        assert_eq!(form.target.get_untracked(), Target::Mock);
        let (request, problems) = form.request();
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(request.target, "/pets/7/visits", "the mock reads only the path");
        assert_eq!(request.header_value("X-Clinic"), Some("north"));
        assert_eq!(
            String::from_utf8(request.body).unwrap(),
            "{\n  \"reason\": \"checkup\",\n  \"minutes\": 20\n}"
        );

        form.params.update(|params| {
            for param in params.iter_mut().filter(|p| p.name == "notify") {
                param.text = "maybe".to_owned();
            }
        });
        let problems = form.request().1;
        assert_eq!(problems.iter().map(|p| p.field.as_str()).collect::<Vec<_>>(), ["query:notify"]);
        let shown = form.error("query:notify");
        assert_eq!(shown.get_untracked(), None, "shown once the reader has tried to send");
        form.attempted.set(true);
        assert_eq!(shown.get_untracked(), problems.first().map(|p| p.message.clone()));
        assert_eq!(form.errors.get_untracked(), problems, "the form's errors follow its values");

        // A base URL of the reader's is checked; the request goes to it.
        form.target.set(Target::Custom);
        form.custom_base.set("ftp://example.com".to_owned());
        let (_, problems) = form.request();
        assert_eq!(
            problems.first().map(|p| (p.field.as_str(), p.message.as_str())),
            Some(("base", "Use an http:// or https:// URL; ftp: is not supported."))
        );
        form.custom_base.set("http://127.0.0.1:9/api/".to_owned());
        form.params.update(|params| {
            params.iter_mut().for_each(|p| {
                if p.name == "notify" {
                    p.text = "false".to_owned()
                }
            })
        });
        let (request, problems) = form.request();
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(request.target, "http://127.0.0.1:9/api/pets/7/visits?notify=false");
        form.target.set(Target::Server("https://api.example/v1".to_owned()));
        assert_eq!(form.request().0.target, "https://api.example/v1/pets/7/visits?notify=false");

        // The samples show the mock's request against the document's local server.
        form.target.set(Target::Mock);
        assert_eq!(form.sample().target, "http://127.0.0.1:4010/pets/7/visits?notify=false");
        form.body.set(String::new());
        let problems = form.request().1;
        assert_eq!(
            problems.iter().map(|p| p.message.as_str()).collect::<Vec<_>>(),
            ["This operation needs a request body."]
        );
        assert!(!form.sample().body.is_empty(), "the samples still show the example body");
    });
    owner.unset();
}

#[wasm_bindgen_test]
fn a_base_url_is_checked_before_it_is_used() {
    use playground_tryit::panel::check_base_url;
    assert_eq!(check_base_url(" http://127.0.0.1:4010/ ").as_deref(), Ok("http://127.0.0.1:4010"));
    assert_eq!(check_base_url("https://api.example/v2/").as_deref(), Ok("https://api.example/v2"));
    let refused = |text: &str| check_base_url(text).unwrap_err();
    assert_eq!(refused(""), "Enter the server's base URL, such as http://127.0.0.1:4010.");
    assert_eq!(
        refused("api.example"),
        "\u{201c}api.example\u{201d} is not a full URL; write it like http://127.0.0.1:4010."
    );
    assert_eq!(refused("file:///etc"), "Use an http:// or https:// URL; file: is not supported.");
    assert!(refused("http://api.example/?debug=1").starts_with("Leave out the query"));
    assert!(refused("http://api.example/#top").starts_with("Leave out the query"));
    assert!(refused("http://ann:pw@api.example").starts_with("Leave the user name and password out"));
}

#[wasm_bindgen_test]
async fn the_target_base_url_and_headers_are_remembered_in_this_browser() {
    forget_settings();
    let mock = FakeMock::answering(201, json!({}));
    let panel = Panel::mount(&visits("remembered"), &mock, "tryit-test/form/remembered");
    tick().await;
    assert_eq!(panel.value("[data-testid=try-target]"), "mock");
    panel.fill("[data-testid=try-target]", "custom");
    tick().await;
    assert_eq!(playground_browser::get(TARGET_KEY).unwrap().as_deref(), Some("custom"));
    panel.fill("[data-testid=try-base-url]", "not a url");
    assert_eq!(playground_browser::get(BASE_URL_KEY).unwrap(), None, "only a valid base URL is kept");
    panel.fill("[data-testid=try-base-url]", "http://127.0.0.1:9/api/");
    assert_eq!(playground_browser::get(BASE_URL_KEY).unwrap().as_deref(), Some("http://127.0.0.1:9/api"));

    panel.fill("[data-testid=try-headers]", "X-Trace: 1");
    assert_eq!(playground_browser::get(HEADERS_KEY).unwrap(), None, "headers are kept only when asked");
    panel.check("[data-testid=try-remember-headers]", true);
    assert_eq!(playground_browser::get(HEADERS_KEY).unwrap().as_deref(), Some("X-Trace: 1"));
    panel.close();

    // A new panel starts where the last one was left.
    let panel = Panel::mount(&visits("remembered"), &mock, "tryit-test/form/remembered");
    tick().await;
    assert_eq!(panel.value("[data-testid=try-target]"), "custom");
    assert_eq!(panel.value("[data-testid=try-base-url]"), "http://127.0.0.1:9/api");
    assert_eq!(panel.value("[data-testid=try-headers]"), "X-Trace: 1");
    assert!(
        panel
            .get("[data-testid=try-remember-headers]")
            .unchecked_into::<web_sys::HtmlInputElement>()
            .checked()
    );
    assert!(panel.get("details.extra-headers").has_attribute("open"), "kept headers are shown");
    panel.check("[data-testid=try-remember-headers]", false);
    assert_eq!(playground_browser::get(HEADERS_KEY).unwrap(), None, "unticked: forgotten");
    // A remembered server the document no longer lists is not used.
    playground_browser::set(TARGET_KEY, "server:https://gone.example").unwrap();
    panel.close();
    let panel = Panel::mount(&visits("remembered"), &mock, "tryit-test/form/remembered");
    tick().await;
    assert_eq!(panel.value("[data-testid=try-target]"), "mock");
    panel.close();
    forget_settings();
}
