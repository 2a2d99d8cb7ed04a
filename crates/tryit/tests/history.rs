//! The answers of the try-it panel in headless Chromium: each answer is recorded and shown,
//! the "Recent" list keeps the last five and brings an earlier one back, the answers outlive
//! the panel, and what a server sends is shown as text.
#![cfg(target_arch = "wasm32")]
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test, with its location

mod common;

use common::{FakeMock, Panel, forget_settings, item, json_response, tick};
use playground_http::Response;
use serde_json::json;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const ID: &str = "[data-testid=try-param][data-name=id]";
const ROWS: &str = "[data-testid=try-history] .history-entry";

/// A mock that answers `GET /items/{id}` with `{"id": id}`.
fn echo() -> FakeMock {
    FakeMock::new(|request| {
        let id = request.target.rsplit('/').next().unwrap_or_default().to_owned();
        json_response(200, &json!({ "id": id }))
    })
}

async fn send(panel: &Panel, id: &str) {
    panel.fill(ID, id);
    panel.click("[data-testid=try-send]");
    tick().await;
}

/// The `data-entry` of each row of the "Recent" list, and the one pressed.
fn rows(panel: &Panel) -> (Vec<String>, Vec<String>) {
    let rows = panel.all(ROWS);
    let ids = rows.iter().map(|r| r.get_attribute("data-entry").unwrap()).collect();
    let pressed = rows
        .iter()
        .filter(|r| r.get_attribute("aria-pressed").as_deref() == Some("true"))
        .map(|r| r.get_attribute("data-entry").unwrap())
        .collect();
    (ids, pressed)
}

fn shown_exchange(panel: &Panel) -> String {
    panel.get("[data-testid=try-answer]").get_attribute("data-exchange").unwrap()
}

#[wasm_bindgen_test]
async fn answers_are_recorded_newest_first_and_the_list_keeps_five() {
    forget_settings();
    let mock = echo();
    let panel = Panel::mount(&item("getRecorded"), &mock, "tryit-test/history/recorded");
    assert!(panel.find("[data-testid=try-answer]").is_none(), "nothing sent, nothing shown");
    send(&panel, "a1").await;
    assert!(panel.find("[data-testid=try-history]").is_none(), "one answer needs no list");
    assert!(panel.text("[data-testid=try-body-view]").contains("\"id\": \"a1\""));
    send(&panel, "a2").await;
    assert_eq!(panel.text("[data-testid=try-history] h4"), "Recent");
    assert_eq!(panel.all(ROWS).len(), 2);

    for id in ["a3", "a4", "a5", "a6", "a7"] {
        send(&panel, id).await;
    }
    assert_eq!(mock.count(), 7);
    let urls: Vec<String> =
        panel.all(&format!("{ROWS} .history-url")).iter().map(|u| u.text_content().unwrap()).collect();
    assert_eq!(urls, ["GET /items/a7", "GET /items/a6", "GET /items/a5", "GET /items/a4", "GET /items/a3"]);
    let (ids, pressed) = rows(&panel);
    assert_eq!(pressed, [ids[0].clone()], "the newest is shown");
    assert_eq!(shown_exchange(&panel), ids[0]);
    assert!(panel.all(&format!("{ROWS} .history-status")).iter().all(|s| s.text_content().unwrap() == "200"));

    // An earlier answer comes back from the list.
    panel.all(ROWS)[2].unchecked_ref::<web_sys::HtmlElement>().click();
    tick().await;
    assert_eq!(shown_exchange(&panel), ids[2]);
    assert!(panel.text("[data-testid=try-body-view]").contains("\"id\": \"a5\""));
    assert_eq!(rows(&panel).1, [ids[2].clone()]);
    panel.close();

    // The answers outlive the panel: the operation opened again shows them, the newest first.
    let panel = Panel::mount(&item("getRecorded"), &mock, "tryit-test/history/recorded");
    tick().await;
    assert_eq!(rows(&panel).0, ids);
    assert_eq!(shown_exchange(&panel), ids[0]);
    // Another operation has answers of its own.
    let other = Panel::mount(&item("getOther"), &mock, "tryit-test/history/recorded");
    tick().await;
    assert!(other.find("[data-testid=try-answer]").is_none());
    send(&other, "b1").await;
    assert_eq!(other.all(ROWS).len(), 0);
    assert_eq!(panel.all(ROWS).len(), 5, "the first panel's list is unchanged");
    other.close();
    panel.close();
}

const HOSTILE: &str = r#"<img src="x" onerror="window.hostile = true">"#;

#[wasm_bindgen_test]
async fn what_a_server_sends_is_shown_as_text() {
    forget_settings();
    let mock = FakeMock::new(|_| Response {
        status: 400,
        headers: vec![
            ("Content-Type".to_owned(), "application/json".to_owned()),
            ("X-Note".to_owned(), HOSTILE.to_owned()),
        ],
        body: json!({"code": "<b>bad</b>", "message": HOSTILE}).to_string().into_bytes(),
    });
    let panel = Panel::mount(&item("getHostile"), &mock, "tryit-test/history/hostile");
    send(&panel, "<i>1</i>").await;
    send(&panel, "2").await;
    let answer = panel.get("[data-testid=try-answer]");
    assert_eq!(answer.get_attribute("data-status").as_deref(), Some("400"));
    assert_eq!(panel.text("[data-testid=try-error]"), format!("Error <b>bad</b>: {HOSTILE}"));
    let headers = panel.text("[data-testid=try-response-headers]");
    assert!(headers.contains(&format!("X-Note: {HOSTILE}")), "{headers}");
    assert!(panel.text("[data-testid=try-body-view]").contains("<b>bad</b>"));
    // The first answer, from the list: its address as text too.
    panel.all(ROWS)[1].unchecked_ref::<web_sys::HtmlElement>().click();
    tick().await;
    assert!(
        panel.text("[data-testid=try-answer] .try-meta").starts_with("GET /items/"),
        "{}",
        panel.text(".try-meta")
    );
    let injected = panel.all("[data-testid=try-result] img, [data-testid=try-result] b, [data-testid=try-result] i, [data-testid=try-history] i");
    assert!(injected.is_empty(), "no element comes from the answer: {}", panel.root.inner_html());
    let window = web_sys::window().unwrap();
    assert!(js_sys::Reflect::get(&window, &"hostile".into()).unwrap().is_undefined());
    panel.close();
}

/// A mock object as the page lends it, whose `checkExchangeJson` and `recordJson` answer as the
/// mock module writes them (the seam's types as JSON text).
fn checking_mock(recorded: playground_seam::Recorded) -> js_sys::Object {
    use playground_seam::{Checked, Mismatch, MismatchKind, Request};
    use wasm_bindgen::closure::Closure;
    let check = Closure::<dyn Fn(String, String) -> String>::new(|request: String, response: String| {
        let request: Request = serde_json::from_str(&request).unwrap();
        let response: Response = serde_json::from_str(&response).unwrap();
        let checked = Checked {
            operation: Some(format!("{} {}", request.method, request.target)),
            mismatches: vec![Mismatch {
                kind: if response.status == 200 { MismatchKind::Body } else { MismatchKind::Status },
                pointer: "/id".to_owned(),
                rule: "expected integer, got string".to_owned(),
            }],
        };
        serde_json::to_string(&checked).unwrap()
    });
    let record = Closure::<dyn Fn(String, String) -> String>::new(move |_: String, _: String| {
        serde_json::to_string(&recorded).unwrap()
    });
    let handle = js_sys::Object::new();
    js_sys::Reflect::set(&handle, &"checkExchangeJson".into(), &check.into_js_value()).unwrap();
    js_sys::Reflect::set(&handle, &"recordJson".into(), &record.into_js_value()).unwrap();
    handle
}

fn lending(lent: wasm_bindgen::JsValue) -> playground_tryit::mock::MockLink {
    let lend = wasm_bindgen::closure::Closure::<dyn Fn() -> wasm_bindgen::JsValue>::new(move || lent.clone());
    playground_tryit::mock::MockLink::new(lend.into_js_value().unchecked_into())
}

#[wasm_bindgen_test]
fn the_mock_link_reads_the_drift_check_and_recording_as_typed_values() {
    use playground_seam::{MismatchKind, Recorded, Request};
    let stored = Recorded { stored: 2, removed: 0, summary: "2 items stored.".to_owned() };
    let link = lending(checking_mock(stored).into());
    assert!(link.ready());
    let request = Request::new("GET", "/items/1");
    let found = link.check(&request, &json_response(200, &json!({"id": "1"}))).unwrap();
    assert_eq!((found[0].kind, found[0].pointer.as_str()), (MismatchKind::Body, "/id"));
    let found = link.check(&request, &json_response(418, &json!({}))).unwrap();
    assert_eq!(found[0].kind, MismatchKind::Status);
    assert_eq!(link.keep(&request, &json_response(200, &json!([]))), Ok("2 items stored.".to_owned()));

    // Nothing kept is said as a refusal, with the mock's sentence.
    let none = Recorded { stored: 0, removed: 0, summary: "nothing.".to_owned() };
    let link = lending(checking_mock(none).into());
    assert_eq!(link.keep(&request, &json_response(200, &json!([]))), Err("nothing.".to_owned()));

    // What the page lends when it has no mock: its reason.
    let link = lending(playground_seam::lend(Err("The in-browser mock is still starting.")));
    assert!(!link.ready());
    assert_eq!(
        link.check(&request, &json_response(200, &json!({}))),
        Err("The in-browser mock is still starting.".to_owned())
    );
}
