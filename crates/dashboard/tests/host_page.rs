//! Browser tests of the Domains page on a host (wasm-bindgen-test in headless Chromium), with
//! `fetch` answered by a stand-in of the host's API that records every request: the page's
//! requests (method, path, body, credentials) and how it shows the host's answers. The real
//! host is driven by tests/e2e/host.test.mjs.
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test, with its location
#![cfg(all(target_arch = "wasm32", feature = "host"))]

use playground_dashboard::mount_host;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement};

wasm_bindgen_test_configure!(run_in_browser);

/// `window.fetch` answered from `window.hostAnswers["METHOD /path"]` (a list used in turn, the
/// last one kept), each `{status, body, headers}`; every request goes to `window.hostCalls`.
const FAKE_FETCH: &str = r#"
window.hostCalls = [];
window.hostAnswers = {};
window.fetch = async (request) => {
  const url = new URL(request.url);
  const key = `${request.method} ${url.pathname}`;
  const body = await request.text();
  window.hostCalls.push({ key, body, credentials: request.credentials, cache: request.cache, type: request.headers.get("content-type") });
  const list = window.hostAnswers[key];
  const answer = !list ? { status: 404, body: JSON.stringify({ code: "not_found", message: "There is no such API route." }) }
    : list.length > 1 ? list.shift() : list[0];
  return new Response(answer.status === 204 ? null : answer.body, { status: answer.status, headers: answer.headers ?? { "Content-Type": "application/json" } });
};
"#;

fn install_fake() {
    js_sys::Function::new_no_args(FAKE_FETCH).call0(&JsValue::NULL).unwrap();
}

/// Sets the answers of `key` ("METHOD /path"), in turn.
fn answer(key: &str, answers: &[(u16, serde_json::Value)]) {
    let list = js_sys::Array::new();
    for (status, body) in answers {
        let item = js_sys::Object::new();
        js_sys::Reflect::set(&item, &"status".into(), &JsValue::from(*status)).unwrap();
        js_sys::Reflect::set(&item, &"body".into(), &body.to_string().into()).unwrap();
        list.push(&item);
    }
    let window = web_sys::window().unwrap();
    let answers = js_sys::Reflect::get(&window, &"hostAnswers".into()).unwrap();
    js_sys::Reflect::set(&answers, &key.into(), &list).unwrap();
}

/// The requests sent so far: (key, body, credentials, cache, content type).
fn calls() -> Vec<serde_json::Value> {
    let window = web_sys::window().unwrap();
    let calls = js_sys::Reflect::get(&window, &"hostCalls".into()).unwrap();
    let json = js_sys::JSON::stringify(&calls).unwrap().as_string().unwrap();
    serde_json::from_str::<Vec<serde_json::Value>>(&json).unwrap()
}

fn keys() -> Vec<String> {
    calls().iter().map(|c| c["key"].as_str().unwrap().to_owned()).collect()
}

fn mount() -> HtmlElement {
    let document = web_sys::window().unwrap().document().unwrap();
    let root: HtmlElement = document.create_element("div").unwrap().unchecked_into();
    document.body().unwrap().append_child(&root).unwrap();
    mount_host(root.clone(), "/api".to_owned());
    root
}

async fn tick() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        web_sys::window().unwrap().set_timeout_with_callback(&resolve).unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(promise).await.unwrap();
}

/// Waits (up to 2 s) until `selector` matches an element whose text contains `text`.
async fn wait_for(root: &Element, selector: &str, text: &str) -> Element {
    for _ in 0..200 {
        if let Some(found) = root.query_selector(selector).unwrap()
            && found.text_content().unwrap_or_default().contains(text)
        {
            return found;
        }
        tick().await;
    }
    let shown = root.query_selector(selector).unwrap().and_then(|e| e.text_content());
    panic!("no {selector} with {text:?}; it shows {shown:?}");
}

fn find(root: &Element, selector: &str) -> Element {
    root.query_selector(selector).unwrap().unwrap_or_else(|| panic!("no {selector}"))
}

async fn type_into(root: &Element, selector: &str, value: &str) {
    let input: web_sys::HtmlInputElement = find(root, selector).unchecked_into();
    input.set_value(value);
    let bubbles = web_sys::EventInit::new();
    bubbles.set_bubbles(true);
    input.dispatch_event(&web_sys::Event::new_with_event_init_dict("input", &bubbles).unwrap()).unwrap();
    tick().await;
}

async fn click(root: &Element, selector: &str) {
    find(root, selector).unchecked_ref::<HtmlElement>().click();
    tick().await;
}

fn error(code: &str, message: &str, status: u16) -> (u16, serde_json::Value) {
    (status, serde_json::json!({"code": code, "message": message, "status": status}))
}

fn domain(name: &str, state: &str, certificate: serde_json::Value) -> serde_json::Value {
    let verified = state != "added";
    serde_json::json!({
        "name": name, "state": state, "serves": state == "live", "addedAt": 100,
        "verifiedAt": if verified { Some(200) } else { None }, "liveAt": if state == "live" { Some(300) } else { None },
        "role": "redirect", "primary": state == "live",
        "instruction": {"domain": name, "kind": "Cname", "name": name.split('.').next().unwrap(), "value": "cname.docs-host.test", "ttl": 3600, "caveat": null},
        "propagationNote": null, "lastCheck": null, "certificate": certificate, "issueError": null,
        "removalWarning": if state == "live" { Some(serde_json::json!({"message": format!("Removing {name} stops traffic at once."), "redirectTo": null})) } else { None },
    })
}

fn project(name: &str, plan: &str, domains: Vec<serde_json::Value>) -> serde_json::Value {
    let published = domains
        .iter()
        .find(|d| d["primary"] == true)
        .map_or_else(|| format!("{name}.docs-host.test"), |d| d["name"].as_str().unwrap().to_owned());
    serde_json::json!({
        "project": name, "plan": plan, "customDomains": plan != "free", "deployed": true,
        "defaultAddress": format!("{name}.docs-host.test"), "publishedAddress": published,
        "cnameTarget": "cname.docs-host.test", "apexAddresses": [], "certificateAuthority": "letsencrypt.org",
        "domains": domains, "alsoServed": [],
        "config": {"domains": {"primary": published, "redirects": []}},
        "troubleshooting": [{"symptom": "certificate", "title": "t", "answer": "The certificate follows verification.", "appliesTo": ["docs.example.com: the certificate authority answered: rate limited"]}],
    })
}

fn summaries() -> serde_json::Value {
    serde_json::json!([
        {"name": "petstore", "plan": "pro", "customDomains": true, "deployed": true, "defaultAddress": "petstore.docs-host.test", "publishedAddress": "petstore.docs-host.test", "domains": 0},
        {"name": "sandbox", "plan": "free", "customDomains": false, "deployed": true, "defaultAddress": "sandbox.docs-host.test", "publishedAddress": "sandbox.docs-host.test", "domains": 0},
    ])
}

#[wasm_bindgen_test]
async fn signed_out_the_page_asks_for_a_sign_in_and_shows_the_hosts_refusals() {
    install_fake();
    answer("GET /api/me", &[error("unauthenticated", "Sign in first.", 401)]);
    answer(
        "POST /api/session",
        &[
            error("bad_credentials", "The email or password is not right.", 401),
            error("too_many_attempts", "Too many failed sign-ins; try again in 42 seconds.", 429),
        ],
    );
    let root = mount();
    wait_for(&root, "[data-testid=sign-in-form]", "").await;
    assert_eq!(find(&root, "[data-testid=domains-page]").get_attribute("data-mode").unwrap(), "host");
    for absent in ["demo-label", "zone", "settings", "add-form"] {
        assert!(root.query_selector(&format!("[data-testid={absent}]")).unwrap().is_none(), "{absent}");
    }
    type_into(&root, "[data-testid=sign-in-email]", "ana@example.com").await;
    type_into(&root, "[data-testid=sign-in-password]", "wrong").await;
    click(&root, "[data-testid=sign-in-button]").await;
    wait_for(&root, "[data-testid=sign-in-error]", "The email or password is not right.").await;
    click(&root, "[data-testid=sign-in-button]").await;
    wait_for(&root, "[data-testid=sign-in-error]", "try again in 42 seconds").await;
    let sign_in = calls().into_iter().find(|c| c["key"] == "POST /api/session").unwrap();
    let body: serde_json::Value = serde_json::from_str(sign_in["body"].as_str().unwrap()).unwrap();
    assert_eq!(body, serde_json::json!({"email": "ana@example.com", "password": "wrong"}));
    assert_eq!(sign_in["credentials"], "same-origin");
    assert_eq!(sign_in["cache"], "no-store");
    assert_eq!(sign_in["type"], "application/json");
}

#[wasm_bindgen_test]
async fn signed_in_the_cards_follow_the_hosts_answers() {
    install_fake();
    answer(
        "GET /api/me",
        &[(200, serde_json::json!({"email": "ana@example.com", "projects": ["petstore", "sandbox"]}))],
    );
    answer("GET /api/projects", &[(200, summaries())]);
    let pending =
        domain("docs.example.com", "verified", serde_json::json!({"status": "issuing", "expectedAt": 260}));
    answer("GET /api/projects/petstore/domains", &[(200, project("petstore", "pro", vec![pending.clone()]))]);
    let root = mount();
    wait_for(&root, "[data-testid=account-email]", "ana@example.com").await;
    wait_for(&root, "[data-testid=published-address]", "petstore.docs-host.test").await;
    let card = wait_for(&root, "[data-domain=\"docs.example.com\"]", "").await;
    assert_eq!(card.get_attribute("data-state").unwrap(), "verified");
    assert_eq!(find(&card, "[data-testid=certificate]").get_attribute("data-status").unwrap(), "issuing");
    assert_eq!(find(&card, "[data-testid=instr-value]").text_content().unwrap(), "cname.docs-host.test");
    assert!(find(&root, "[data-testid=trouble-where]").text_content().unwrap().contains("rate limited"));
    let options = root.query_selector_all("[data-testid=project-select] option").unwrap();
    assert_eq!(options.length(), 2);

    // The instant check refuses a name under the platform without asking the host.
    let before = calls().len();
    type_into(&root, "[data-testid=add-input]", "x.docs-host.test").await;
    click(&root, "[data-testid=add-button]").await;
    wait_for(&root, "[data-testid=add-error]", "docs-host.test").await;
    assert_eq!(calls().len(), before);

    // Add: the host's answer replaces the project.
    let added = domain("api.example.com", "added", serde_json::json!({"status": "not_requested"}));
    answer(
        "POST /api/projects/petstore/domains",
        &[(
            201,
            serde_json::json!({"message": "api.example.com was added.", "project": project("petstore", "pro", vec![pending.clone(), added.clone()])}),
        )],
    );
    answer(
        "GET /api/projects/petstore/domains",
        &[(200, project("petstore", "pro", vec![pending.clone(), added.clone()]))],
    );
    type_into(&root, "[data-testid=add-input]", "API.example.com").await;
    click(&root, "[data-testid=add-button]").await;
    wait_for(&root, "[data-testid=add-status]", "api.example.com was added.").await;
    let api = wait_for(&root, "[data-domain=\"api.example.com\"]", "").await;
    assert_eq!(api.get_attribute("data-state").unwrap(), "added");
    let add = calls().into_iter().find(|c| c["key"] == "POST /api/projects/petstore/domains").unwrap();
    assert_eq!(add["body"], "{\"name\":\"API.example.com\"}");

    // Verify: refused by the host, its sentence on the card, the state unchanged.
    answer(
        "POST /api/projects/petstore/domains/api.example.com/verify",
        &[error("verification_failed", "No CNAME record was found for api.example.com.", 422)],
    );
    click(&api, "[data-testid=verify]").await;
    wait_for(&api, "[data-testid=domain-result-text]", "No CNAME record was found").await;
    assert_eq!(api.get_attribute("data-state").unwrap(), "added");

    // Remove: DELETE, then the card is gone and the host's sentence announced.
    answer(
        "DELETE /api/projects/petstore/domains/api.example.com",
        &[(
            200,
            serde_json::json!({"message": "api.example.com was removed.", "project": project("petstore", "pro", vec![pending.clone()])}),
        )],
    );
    answer("GET /api/projects/petstore/domains", &[(200, project("petstore", "pro", vec![pending.clone()]))]);
    click(&api, "[data-testid=remove]").await;
    click(&api, "[data-testid=remove-confirm-button]").await;
    wait_for(&root, "[data-testid=announcement]", "api.example.com was removed.").await;
    assert!(root.query_selector("[data-domain=\"api.example.com\"]").unwrap().is_none());
    assert!(keys().contains(&"DELETE /api/projects/petstore/domains/api.example.com".to_owned()));

    // A session that expired meanwhile: back to the sign-in form with the host's sentence.
    answer(
        "POST /api/projects/petstore/domains/docs.example.com/reverify",
        &[error("session_expired", "Your session has expired; sign in again.", 401)],
    );
    let docs = find(&root, "[data-domain=\"docs.example.com\"]");
    click(&docs, "[data-testid=reverify]").await;
    wait_for(&root, "[data-testid=sign-in-status]", "Your session has expired").await;
    assert!(root.query_selector("[data-testid=domain]").unwrap().is_none());
}

/// Waits `millis` milliseconds.
async fn sleep(millis: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        web_sys::window()
            .unwrap()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, millis)
            .unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(promise).await.unwrap();
}

#[wasm_bindgen_test]
async fn a_pending_certificate_is_asked_for_again_until_it_is_issued() {
    install_fake();
    answer(
        "GET /api/me",
        &[(200, serde_json::json!({"email": "ana@example.com", "projects": ["petstore"]}))],
    );
    answer("GET /api/projects", &[(200, serde_json::json!([summaries()[0].clone()]))]);
    let pending =
        domain("docs.example.com", "verified", serde_json::json!({"status": "issuing", "expectedAt": 260}));
    let live = domain(
        "docs.example.com",
        "live",
        serde_json::json!({"status": "issued", "at": 300, "notAfter": 9000}),
    );
    answer(
        "GET /api/projects/petstore/domains",
        &[(200, project("petstore", "pro", vec![pending])), (200, project("petstore", "pro", vec![live]))],
    );
    let root = mount();
    let card = wait_for(&root, "[data-domain=\"docs.example.com\"]", "").await;
    assert_eq!(card.get_attribute("data-state").unwrap(), "verified");
    assert!(
        root.query_selector("[data-testid=project-select]").unwrap().is_none(),
        "one project: no selector"
    );
    // One poll (every 2 s) later the host says it is live.
    sleep(2600).await;
    let card = find(&root, "[data-domain=\"docs.example.com\"]");
    assert_eq!(card.get_attribute("data-state").unwrap(), "live");
    assert_eq!(find(&card, "[data-testid=certificate]").get_attribute("data-status").unwrap(), "issued");
    wait_for(&card, "[data-testid=domain-result-text]", "certificate").await;
    wait_for(&root, "[data-testid=published-address]", "docs.example.com").await;
    // Nothing pending: no more requests.
    let asked = keys().iter().filter(|k| k.as_str() == "GET /api/projects/petstore/domains").count();
    sleep(2600).await;
    assert_eq!(keys().iter().filter(|k| k.as_str() == "GET /api/projects/petstore/domains").count(), asked);
}

#[wasm_bindgen_test]
async fn an_expired_session_at_start_is_said_and_a_host_that_is_down_is_named() {
    install_fake();
    answer("GET /api/me", &[error("session_expired", "Your session has expired; sign in again.", 401)]);
    answer(
        "POST /api/session",
        &[
            (502, serde_json::json!("Bad Gateway")),
            (200, serde_json::json!({"email": "ana@example.com", "expiresAt": 9})),
        ],
    );
    let root = mount();
    wait_for(&root, "[data-testid=sign-in-status]", "Your session has expired; sign in again.").await;
    type_into(&root, "[data-testid=sign-in-email]", "ana@example.com").await;
    type_into(&root, "[data-testid=sign-in-password]", "secret").await;
    click(&root, "[data-testid=sign-in-button]").await;
    // Not the host's JSON (a proxy's answer): what the status means, never the raw body.
    let error = wait_for(&root, "[data-testid=sign-in-error]", "HTTP 502").await;
    assert!(!error.text_content().unwrap().contains("Bad Gateway"));
    assert!(
        find(&root, "[data-testid=sign-in-button]").get_attribute("disabled").is_none(),
        "the form is usable again"
    );

    // The password is right but the cookie was not kept (a Secure cookie on a plain-HTTP page):
    // /me still says 401, and the page says why rather than looping back to the form.
    click(&root, "[data-testid=sign-in-button]").await;
    wait_for(&root, "[data-testid=sign-in-error]", "did not keep the session").await;
}
