//! `PetstoreMock` in headless Chromium: `fetch` and `answer` give real
//! `Response`s, `installFetch` answers under its prefix and passes the rest on, uninstalling
//! puts the original back, `restore` throws a readable `Error`.
#![cfg(target_arch = "wasm32")]
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test, with its location

use js_sys::{Array, Function, JSON, Object, Promise, Reflect, Uint8Array};
use playground_module_mock::{JsMockOptions, JsPetstoreMock, JsRequestInit};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;
use web_sys::Response;

wasm_bindgen_test_configure!(run_in_browser);

fn object(pairs: &[(&str, JsValue)]) -> JsValue {
    let object = Object::new();
    for (name, value) in pairs {
        Reflect::set(&object, &(*name).into(), value).unwrap();
    }
    object.into()
}

fn options(pairs: &[(&str, JsValue)]) -> Option<JsMockOptions> {
    Some(object(pairs).unchecked_into())
}

fn init(pairs: &[(&str, JsValue)]) -> JsRequestInit {
    object(pairs).unchecked_into()
}

fn in_memory() -> JsPetstoreMock {
    JsPetstoreMock::new(options(&[("storageKey", JsValue::NULL)])).unwrap()
}

fn json_post(body: &str) -> JsRequestInit {
    init(&[
        ("method", "POST".into()),
        ("headers", object(&[("Content-Type", "application/json".into())])),
        ("body", body.into()),
    ])
}

async fn settle(promise: Promise) -> Result<JsValue, JsValue> {
    JsFuture::from(promise).await
}

async fn response(promise: Promise) -> Response {
    settle(promise).await.unwrap().dyn_into::<Response>().expect("a real Response")
}

async fn body_json(response: &Response) -> serde_json::Value {
    let text = settle(response.text().unwrap()).await.unwrap().as_string().unwrap();
    serde_json::from_str(&text).unwrap()
}

fn global_fetch() -> JsValue {
    Reflect::get(&js_sys::global(), &"fetch".into()).unwrap()
}

fn call_global_fetch(input: &str, init: &JsValue) -> Promise {
    let fetch: Function = global_fetch().unchecked_into();
    fetch.call2(&JsValue::UNDEFINED, &input.into(), init).unwrap().unchecked_into()
}

#[wasm_bindgen_test]
async fn fetch_lists_pets_as_a_real_response_with_headers_and_json() {
    let mock = in_memory();
    let listed = response(mock.fetch("/pets?limit=2".into(), None)).await;
    assert_eq!(listed.status(), 200);
    assert!(listed.ok());
    assert_eq!(listed.headers().get("content-type").unwrap().as_deref(), Some("application/json"));
    let total: usize = listed.headers().get("x-total-count").unwrap().unwrap().parse().unwrap();
    let pets = body_json(&listed).await;
    assert_eq!(pets.as_array().unwrap().len(), 2);
    assert!(total > 2, "the demo data has more than two pets: {total}");
}

#[wasm_bindgen_test]
async fn fetch_creates_with_a_string_bytes_or_a_request_and_answers_errors_as_responses() {
    let mock = in_memory();
    let created =
        response(mock.fetch("/pets".into(), Some(json_post(r#"{"name":"Rex","categoryId":1}"#)))).await;
    assert_eq!(created.status(), 201);
    assert_eq!(created.status_text(), "Created");
    let location = created.headers().get("location").unwrap().unwrap();
    let pet = body_json(&created).await;
    assert_eq!(pet["name"], "Rex");
    assert_eq!(location, format!("/pets/{}", pet["id"]));

    // A full URL (its origin is ignored) and a body as bytes.
    let bytes = Uint8Array::from(br#"{"name":"Tom","categoryId":2}"#.as_slice());
    let bytes_init = init(&[
        ("method", "POST".into()),
        ("headers", Array::of1(&Array::of2(&"content-type".into(), &"application/json".into())).into()),
        ("body", bytes.into()),
    ]);
    let created = response(mock.fetch("http://petstore.invalid/pets".into(), Some(bytes_init))).await;
    assert_eq!(created.status(), 201);

    // A Request object.
    let request = web_sys::Request::new_with_str("/pets/1").unwrap();
    let fetched = response(mock.fetch(request.into(), None)).await;
    assert_eq!(fetched.status(), 200);
    assert!(fetched.headers().get("deprecation").unwrap().is_some(), "getPet is deprecated");

    // Errors are responses with the Error object, as from a server.
    let invalid =
        response(mock.fetch("/pets".into(), Some(json_post(r#"{"name":"","categoryId":1}"#)))).await;
    assert_eq!(invalid.status(), 422);
    assert_eq!(body_json(&invalid).await["code"], "validation_failed");
    let malformed = response(mock.fetch("/pets".into(), Some(json_post("{")))).await;
    assert_eq!(malformed.status(), 400);

    // A 204 has no body.
    let category =
        body_json(&response(mock.fetch("/categories".into(), Some(json_post(r#"{"name":"Fish"}"#)))).await)
            .await;
    let delete = init(&[("method", "DELETE".into())]);
    let deleted = response(mock.fetch(format!("/categories/{}", category["id"]).into(), Some(delete))).await;
    assert_eq!(deleted.status(), 204);
    assert!(Reflect::get(&deleted, &"body".into()).unwrap().is_null());
}

#[wasm_bindgen_test]
async fn fetch_rejects_where_window_fetch_would() {
    let mock = in_memory();
    let get_with_body = init(&[("method", "GET".into()), ("body", "x".into())]);
    let error = settle(mock.fetch("/pets".into(), Some(get_with_body))).await.unwrap_err();
    assert!(error.is_instance_of::<js_sys::TypeError>());

    let controller = web_sys::AbortController::new().unwrap();
    controller.abort();
    let aborted = init(&[("signal", controller.signal().into())]);
    let error = settle(mock.fetch("/pets".into(), Some(aborted))).await.unwrap_err();
    assert_eq!(Reflect::get(&error, &"name".into()).unwrap(), "AbortError");
}

#[wasm_bindgen_test]
async fn answer_takes_a_requests_parts_as_fetch_would_and_fails_where_the_options_say() {
    let mock = in_memory();
    let json = Array::of1(&Array::of2(&"content-type".into(), &"application/json".into()));
    let body = Uint8Array::from(br#"{"name":"Rex","categoryId":1}"#.as_slice());
    let created = response(mock.answer("POST".into(), "/pets".into(), json.clone().into(), Some(body))).await;
    assert_eq!(created.status(), 201);
    assert_eq!(created.status_text(), "Created");
    let pet = body_json(&created).await;
    assert_eq!(pet["name"], "Rex");

    // A `Headers` object, a query, and no body.
    let headers = web_sys::Headers::new().unwrap();
    headers.append("accept", "application/json").unwrap();
    let listed = response(mock.answer("GET".into(), "/pets?limit=1".into(), headers.into(), None)).await;
    assert_eq!(listed.status(), 200);
    assert_eq!(body_json(&listed).await.as_array().unwrap().len(), 1);

    // The body is read as bytes, checked like fetch's: a bad one is the Error object.
    let bad = Uint8Array::from(br#"{"name":"","categoryId":1}"#.as_slice());
    let refused = response(mock.answer("POST".into(), "/pets".into(), json.clone().into(), Some(bad))).await;
    assert_eq!(refused.status(), 422);

    // Headers that are not pairs: a TypeError that says what they should be.
    let error = settle(mock.answer("GET".into(), "/pets".into(), 42.into(), None)).await.unwrap_err();
    assert!(error.is_instance_of::<js_sys::TypeError>());
    let message = Reflect::get(&error, &"message".into()).unwrap().as_string().unwrap();
    assert!(message.contains("[name, value] pairs"), "{message}");

    // A network failure the options inject rejects with a TypeError, as fetch would.
    let failure = object(&[("rate", 1.into()), ("network", true.into())]);
    let failing =
        JsPetstoreMock::new(options(&[("storageKey", JsValue::NULL), ("failure", failure)])).unwrap();
    let error =
        settle(failing.answer("GET".into(), "/pets".into(), Array::new().into(), None)).await.unwrap_err();
    assert!(error.is_instance_of::<js_sys::TypeError>(), "{error:?}");
}

#[wasm_bindgen_test]
async fn install_fetch_answers_under_the_prefix_passes_others_through_and_uninstalls() {
    let real_fetch = global_fetch();
    // A stand-in for the network: records what reaches it.
    let passed: Function = Function::new_with_args(
        "input",
        "globalThis.__passed = (globalThis.__passed || []).concat([String(input)]); \
         return Promise.resolve(new Response('from the network', {status: 200}));",
    );
    Reflect::set(&js_sys::global(), &"fetch".into(), &passed).unwrap();

    let mock = in_memory();
    let undo = mock.install_fetch("/api").unwrap();
    assert_ne!(global_fetch(), JsValue::from(passed.clone()), "fetch is replaced");

    let listed = response(call_global_fetch("/api/pets?limit=1", &JsValue::UNDEFINED)).await;
    assert_eq!(listed.status(), 200);
    assert!(listed.headers().get("x-total-count").unwrap().is_some());
    let created =
        response(call_global_fetch("/api/pets", &json_post(r#"{"name":"Rex","categoryId":1}"#))).await;
    assert_eq!(created.status(), 201);
    let name = body_json(
        &response(call_global_fetch(
            &created.headers().get("location").unwrap().unwrap().replace("/pets", "/api/pets"),
            &JsValue::UNDEFINED,
        ))
        .await,
    )
    .await["name"]
        .clone();
    assert_eq!(name, "Rex");

    for other in ["/apiary", "/pets", "https://example.com/api/pets"] {
        let answered = response(call_global_fetch(other, &JsValue::UNDEFINED)).await;
        let text = settle(answered.text().unwrap()).await.unwrap();
        assert_eq!(text, "from the network", "{other} passes through");
    }
    let passed_urls = Reflect::get(&js_sys::global(), &"__passed".into()).unwrap();
    assert_eq!(
        JSON::stringify(&passed_urls).unwrap(),
        r#"["/apiary","/pets","https://example.com/api/pets"]"#
    );

    assert!(mock.uninstall_fetch());
    assert_eq!(global_fetch(), JsValue::from(passed.clone()), "the original is back");
    assert!(!mock.uninstall_fetch(), "nothing left to uninstall");

    // The returned function undoes an installation too; a stale one leaves a newer one alone.
    mock.install_fetch("http://localhost:4010").unwrap();
    undo.call0(&JsValue::UNDEFINED).unwrap();
    assert_ne!(global_fetch(), JsValue::from(passed.clone()), "the old undo does not touch the new one");
    let remote = response(call_global_fetch("http://localhost:4010/pets/1", &JsValue::UNDEFINED)).await;
    assert_eq!(remote.status(), 200);
    drop(mock);
    assert_eq!(global_fetch(), JsValue::from(passed), "freeing the mock uninstalls it");

    Reflect::set(&js_sys::global(), &"fetch".into(), &real_fetch).unwrap();
}

#[wasm_bindgen_test]
async fn a_passed_through_request_reaches_the_real_network() {
    let mock = in_memory();
    mock.install_fetch("/api").unwrap();
    // The test runner's own page, served over HTTP.
    let href = web_sys::window().unwrap().location().href().unwrap();
    let page = response(call_global_fetch(&href, &JsValue::UNDEFINED)).await;
    assert_eq!(page.status(), 200);
    assert!(page.headers().get("content-type").unwrap().unwrap().contains("text/html"));
    mock.uninstall_fetch();
}

#[wasm_bindgen_test]
fn install_fetch_refuses_an_unusable_prefix() {
    let mock = in_memory();
    let error = mock.install_fetch("api").unwrap_err();
    assert!(error.is_instance_of::<js_sys::TypeError>());
    let message = Reflect::get(&error, &"message".into()).unwrap().as_string().unwrap();
    assert!(message.contains("give a path starting with"), "{message}");
}

#[wasm_bindgen_test]
fn snapshot_restore_reset_and_counts() {
    let mock = in_memory();
    let seeded = mock.snapshot();
    let pets =
        |mock: &JsPetstoreMock| Reflect::get(&mock.counts(), &"pets".into()).unwrap().as_f64().unwrap();
    assert!(pets(&mock) > 0.0);

    mock.reset(Some(false)).unwrap();
    assert_eq!(pets(&mock), 0.0);
    mock.restore(&seeded).unwrap();
    assert_eq!(mock.snapshot(), seeded);

    let error: JsValue = mock.restore("{}").unwrap_err().into();
    let error: js_sys::Error = error.dyn_into().expect("a JS Error");
    let message = String::from(error.message());
    assert!(message.contains("not a mock snapshot"), "{message}");
    assert_eq!(mock.snapshot(), seeded, "untouched");

    mock.reset(Some(false)).unwrap();
    mock.reset(None).unwrap();
    assert_eq!(mock.snapshot(), seeded, "reset() goes back to the data it was opened with");
    assert_eq!(mock.storage_key(), None);
}

#[wasm_bindgen_test]
fn options_are_checked_with_readable_errors() {
    for (options, says) in [
        (object(&[("seed", "yes".into())]), "seed"),
        (object(&[("storageKey", 42.into())]), "storageKey"),
        (object(&[("storageKey", "".into())]), "storageKey"),
        ("not an object".into(), "object"),
    ] {
        let error = JsPetstoreMock::new(Some(options.unchecked_into())).unwrap_err();
        let message = Reflect::get(&error, &"message".into()).unwrap().as_string().unwrap();
        assert!(message.contains(says), "{message}");
    }
    let empty =
        JsPetstoreMock::new(options(&[("seed", false.into()), ("storageKey", JsValue::NULL)])).unwrap();
    assert_eq!(Reflect::get(&empty.counts(), &"pets".into()).unwrap(), 0);
    let default = JsPetstoreMock::new(None).unwrap();
    assert_eq!(default.storage_key().as_deref(), Some(playground_module_mock::DEFAULT_STORAGE_KEY));
    // A key given as undefined is no key given; null is no storage.
    let undefined = JsPetstoreMock::new(options(&[("storageKey", JsValue::UNDEFINED)])).unwrap();
    assert_eq!(undefined.storage_key().as_deref(), Some(playground_module_mock::DEFAULT_STORAGE_KEY));
    let counts = JSON::stringify(&empty.counts()).unwrap();
    assert_eq!(counts, r#"{"pets":0,"categories":0,"orders":0,"openOrders":0,"stock":0}"#);
}

#[wasm_bindgen_test]
async fn behaviour_options_slow_fail_or_relax_the_mock_and_keep_its_rules() {
    let failure = object(&[("rate", 1.into()), ("status", 503.into())]);
    let placing = object(&[("placeOrder", object(&[("failure", failure)]))]);
    let mock = JsPetstoreMock::new(options(&[
        ("storageKey", JsValue::NULL),
        ("validate", false.into()),
        ("delay", object(&[("min", 1.into()), ("max", 3.into())])),
        ("operations", placing),
    ]))
    .unwrap();
    let refused = response(mock.fetch("/store/orders".into(), Some(json_post(r#"{"petId": 1}"#)))).await;
    assert_eq!(refused.status(), 503, "placeOrder fails as asked");
    let relaxed = response(mock.fetch("/pets?limit=500".into(), None)).await;
    assert_eq!(relaxed.status(), 200, "validation is off");
    let unknown =
        response(mock.fetch("/pets".into(), Some(json_post(r#"{"name": "Rex", "categoryId": 42}"#)))).await;
    assert_eq!(unknown.status(), 422, "the rules still hold");
    assert_eq!(body_json(&unknown).await["message"], "categoryId 42 does not exist.");
    for (options, says) in [
        (object(&[("delay", object(&[("min", 9.into()), ("max", 1.into())]))]), "delay"),
        (object(&[("security", false.into())]), "no security"),
        (object(&[("colour", "red".into())]), "colour"),
    ] {
        let error = JsPetstoreMock::new(Some(options.unchecked_into())).unwrap_err();
        let message = Reflect::get(&error, &"message".into()).unwrap().as_string().unwrap();
        assert!(message.contains(says), "{message}");
    }
}

#[wasm_bindgen_test]
async fn on_change_hears_changes_and_notices_are_objects() {
    let key = "petstore-web-test/js-notices";
    let storage = web_sys::window().unwrap().local_storage().unwrap().unwrap();
    storage.set_item(key, "garbage").unwrap();
    let mock = JsPetstoreMock::new(options(&[("storageKey", key.into())])).unwrap();
    let notices = mock.notices();
    assert_eq!(notices.length(), 1);
    let notice = notices.get(0);
    assert_eq!(Reflect::get(&notice, &"kind".into()).unwrap(), "started-fresh");
    let message = Reflect::get(&notice, &"message".into()).unwrap().as_string().unwrap();
    assert!(message.contains("started fresh"), "{message}");

    let counter: Function = Function::new_no_args("globalThis.__changes = (globalThis.__changes || 0) + 1;");
    let stop: Function = mock.on_change(counter);
    mock.dismiss_notices();
    assert_eq!(mock.notices().length(), 0);
    response(mock.fetch("/pets".into(), Some(json_post(r#"{"name":"Rex","categoryId":1}"#)))).await;
    let changes = || Reflect::get(&js_sys::global(), &"__changes".into()).unwrap().as_f64().unwrap();
    assert_eq!(changes(), 2.0, "the dismissal and the new pet");
    stop.call0(&JsValue::UNDEFINED).unwrap();
    mock.reset(None).unwrap();
    assert_eq!(changes(), 2.0);
}

#[wasm_bindgen_test]
fn handle_answers_at_once_and_refuses_bad_input_with_a_reason() {
    let mock = JsPetstoreMock::new(options(&[("storageKey", JsValue::NULL)])).unwrap();
    let headers = Array::of1(&Array::of2(&"Content-Type".into(), &"application/json".into()));
    let created = mock
        .handle(object(&[
            ("method", "POST".into()),
            ("url", "http://example.com/pets".into()),
            ("headers", headers.into()),
            ("body", r#"{"name":"Handled","categoryId":1}"#.into()),
        ]))
        .unwrap();
    assert_eq!(Reflect::get(&created, &"status".into()).unwrap(), 201);
    let body = Reflect::get(&created, &"body".into()).unwrap().as_string().unwrap();
    let pet: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(pet["name"], "Handled");
    let pairs = Array::from(&Reflect::get(&created, &"headers".into()).unwrap());
    assert!(pairs.iter().any(|p| Array::from(&p).get(0) == "Content-Type"));

    let id = pet["id"].as_i64().unwrap();
    let got = mock.handle(object(&[("url", format!("/pets/{id}").into())])).unwrap();
    assert_eq!(Reflect::get(&got, &"status".into()).unwrap(), 200, "GET by default");
    let missing = mock.handle(object(&[("url", "/pets/999999".into())])).unwrap();
    assert_eq!(Reflect::get(&missing, &"status".into()).unwrap(), 404);

    for (request, says) in [
        (JsValue::from("GET /pets"), "takes an object"),
        (object(&[("method", "GET".into())]), "needs a url"),
        (object(&[("url", "/pets".into()), ("headers", Array::of1(&"x".into()).into())]), "[name, value]"),
        (
            object(&[("url", "/pets".into()), ("headers", object(&[("X-One", 1.into())]))]),
            "values are strings",
        ),
    ] {
        let error = JsValue::from(mock.handle(request).unwrap_err());
        let message = Reflect::get(&error, &"message".into()).unwrap().as_string().unwrap();
        assert!(message.contains(says), "{message}");
    }
}

#[wasm_bindgen_test]
fn handle_takes_headers_as_an_object_and_null_for_nothing() {
    let mock = in_memory();
    let created = mock
        .handle(object(&[
            ("method", "POST".into()),
            ("url", "/categories".into()),
            ("headers", object(&[("Content-Type", "application/json".into())])),
            ("body", r#"{"name":"Fish"}"#.into()),
        ]))
        .unwrap();
    assert_eq!(Reflect::get(&created, &"status".into()).unwrap(), 201);
    let listed = mock
        .handle(object(&[
            ("method", JsValue::NULL),
            ("url", "/categories".into()),
            ("headers", JsValue::NULL),
            ("body", JsValue::NULL),
        ]))
        .unwrap();
    assert_eq!(Reflect::get(&listed, &"status".into()).unwrap(), 200);
    let body = Reflect::get(&listed, &"body".into()).unwrap().as_string().unwrap();
    assert!(body.contains("Fish"), "{body}");
}

#[wasm_bindgen_test]
fn handle_json_answers_as_handle_does_and_refuses_bad_text_with_a_reason() {
    let mock = in_memory();
    let created = mock
        .handle_json(
            r#"{"method": "POST", "url": "/pets", "headers": [["Content-Type", "application/json"]],
                "body": "{\"name\": \"Texted\", \"categoryId\": 1}"}"#,
        )
        .unwrap();
    let created: serde_json::Value = serde_json::from_str(&created).unwrap();
    assert_eq!(created["status"], 201, "{created}");
    let pet: serde_json::Value = serde_json::from_str(created["body"].as_str().unwrap()).unwrap();
    assert_eq!(pet["name"], "Texted");
    let location = created["headers"].as_array().unwrap().iter().find(|h| h[0] == "Location").cloned();
    assert_eq!(location.unwrap()[1], format!("/pets/{}", pet["id"]));

    // The same state as `handle()`, and the same answer.
    let by_object = mock.handle(object(&[("url", format!("/pets/{}", pet["id"]).into())])).unwrap();
    let by_text = mock.handle_json(&format!(r#"{{"url": "/pets/{}"}}"#, pet["id"])).unwrap();
    let by_object = js_sys::JSON::stringify(&by_object).unwrap().as_string().unwrap();
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&by_text).unwrap(),
        serde_json::from_str::<serde_json::Value>(&by_object).unwrap()
    );
    let missing: serde_json::Value =
        serde_json::from_str(&mock.handle_json(r#"{"url": "/pets/999999"}"#).unwrap()).unwrap();
    assert_eq!(missing["status"], 404);

    for (text, says) in [
        ("GET /pets", "takes a request as JSON text"),
        (r#"{"url": "/pets""#, "takes a request as JSON text"),
        (r#"{"method": "GET"}"#, "needs a url"),
        (r#"{"url": "/pets", "headers": ["x"]}"#, "[name, value]"),
    ] {
        let error = JsValue::from(mock.handle_json(text).unwrap_err());
        let message = Reflect::get(&error, &"message".into()).unwrap().as_string().unwrap();
        assert!(message.contains(says), "{text}: {message}");
    }
}

#[wasm_bindgen_test]
fn the_drift_check_and_recording_answer_the_seam_types() {
    use playground_seam::{Checked, MismatchKind, Request, Response};
    let mock = in_memory();
    let asked = serde_json::to_string(&Request::new("GET", "/pets")).unwrap();
    let teapot = Response { status: 418, headers: Vec::new(), body: Vec::new() };
    let checked = mock.check_exchange_json(&asked, &serde_json::to_string(&teapot).unwrap()).unwrap();
    let checked: Checked = serde_json::from_str(&checked).unwrap();
    assert_eq!(checked.operation.as_deref(), Some("listPets"), "{checked:?}");
    assert_eq!(checked.mismatches.iter().map(|m| m.kind).collect::<Vec<_>>(), [MismatchKind::Status]);

    // What the mock itself answers matches its description.
    let answered = mock.handle_json(&asked).unwrap();
    let checked: Checked =
        serde_json::from_str(&mock.check_exchange_json(&asked, &answered).unwrap()).unwrap();
    assert_eq!(checked.mismatches, []);

    // The Petstore's mock keeps only what is sent to it.
    let error = JsValue::from(mock.record_json(&asked, &answered).unwrap_err());
    let message = Reflect::get(&error, &"message".into()).unwrap().as_string().unwrap();
    assert!(message.contains("by the Petstore's rules"), "{message}");
}
