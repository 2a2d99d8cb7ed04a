//! Browser tests of the Domains page (wasm-bindgen-test in headless Chromium): mount it into a
//! fresh element with its own storage key, act as the owner would, and read what it shows.
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test, with its location
#![cfg(all(target_arch = "wasm32", feature = "demo"))]

use std::time::Duration;

use playground_dashboard::{PageOptions, mount_domains_with};
use playground_domains::Dashboard;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement};

wasm_bindgen_test_configure!(run_in_browser);

fn storage() -> web_sys::Storage {
    web_sys::window().unwrap().local_storage().unwrap().unwrap()
}

/// Mounts a page saved under `key` (whatever the key holds stays, so tests can prepare it).
fn mount(key: &str) -> HtmlElement {
    let document = web_sys::window().unwrap().document().unwrap();
    let root: HtmlElement = document.create_element("div").unwrap().unchecked_into();
    document.body().unwrap().append_child(&root).unwrap();
    let options = PageOptions { storage_key: key.to_owned(), tick_every: Duration::from_secs(600) };
    mount_domains_with(root.clone(), options);
    root
}

/// Lets Leptos run the effects a change scheduled.
async fn tick() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        web_sys::window().unwrap().set_timeout_with_callback(&resolve).unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(promise).await.unwrap();
}

fn find(root: &Element, selector: &str) -> Element {
    root.query_selector(selector).unwrap().unwrap_or_else(|| panic!("no {selector}"))
}

fn all(root: &Element, selector: &str) -> Vec<Element> {
    let list = root.query_selector_all(selector).unwrap();
    (0..list.length()).map(|i| list.item(i).unwrap().unchecked_into()).collect()
}

fn text(root: &Element, selector: &str) -> String {
    find(root, selector).text_content().unwrap()
}

async fn click(root: &Element, selector: &str) {
    press(&find(root, selector)).await;
}

async fn press(element: &Element) {
    element.unchecked_ref::<HtmlElement>().click();
    tick().await;
}

/// Types into an input (an `input` event, as typing fires) and then commits it (`change`).
async fn type_into(root: &Element, selector: &str, value: &str) {
    let element = find(root, selector);
    if let Some(input) = element.dyn_ref::<web_sys::HtmlInputElement>() {
        input.set_value(value);
    } else if let Some(area) = element.dyn_ref::<web_sys::HtmlTextAreaElement>() {
        area.set_value(value);
    } else {
        panic!("{selector} is not a text field");
    }
    let bubbles = web_sys::EventInit::new();
    bubbles.set_bubbles(true);
    element.dispatch_event(&web_sys::Event::new_with_event_init_dict("input", &bubbles).unwrap()).unwrap();
    element.dispatch_event(&web_sys::Event::new_with_event_init_dict("change", &bubbles).unwrap()).unwrap();
    tick().await;
}

async fn choose(root: &Element, selector: &str, value: &str) {
    let select: web_sys::HtmlSelectElement = find(root, selector).unchecked_into();
    select.set_value(value);
    select.dispatch_event(&web_sys::Event::new("change").unwrap()).unwrap();
    tick().await;
}

fn card(root: &Element, domain: &str) -> Element {
    find(root, &format!("[data-testid=domain][data-domain=\"{domain}\"]"))
}

async fn add_domain(root: &Element, name: &str) {
    type_into(root, "[data-testid=add-input]", name).await;
    click(root, "[data-testid=add-button]").await;
}

async fn add_record(root: &Element, name: &str, kind: &str, value: &str) {
    type_into(root, "[data-testid=zone-name]", name).await;
    choose(root, "[data-testid=zone-type]", kind).await;
    type_into(root, "[data-testid=zone-value]", value).await;
    type_into(root, "[data-testid=zone-ttl]", "3600").await;
    click(root, "[data-testid=zone-save]").await;
    assert_eq!(text(root, "[data-testid=zone-error]"), "", "the zone took {name} {kind} {value}");
}

fn config(root: &Element) -> serde_json::Value {
    serde_json::from_str(&text(root, "[data-testid=config-json]")).unwrap()
}

#[wasm_bindgen_test]
async fn the_walk_from_add_to_live_with_two_domains_and_removal() {
    let key = "test/domains/walk";
    storage().remove_item(key).unwrap();
    let root = mount(key);
    tick().await;
    assert_eq!(text(&root, "[data-testid=published-address]"), "petstore.docs-host.dev");
    assert_eq!(text(&root, "[data-testid=default-address]"), "petstore.docs-host.dev");
    assert!(root.query_selector("[data-testid=no-domains]").unwrap().is_some());

    // The Free plan has no custom domains: refused with the reason, nothing attached.
    choose(&root, "[data-testid=setting-plan]", "Free").await;
    type_into(&root, "[data-testid=setting-delay]", "0").await;
    add_domain(&root, "docs.example.com").await;
    let refusal = text(&root, "[data-testid=add-error]");
    assert!(refusal.contains("paid plan (Pro or above)") && refusal.contains("Free plan"), "{refusal}");
    assert_eq!(find(&root, "[data-testid=add-input]").get_attribute("aria-invalid").unwrap(), "true");
    assert!(all(&root, "[data-testid=domain]").is_empty());

    // On Pro it is added, with the CNAME to create.
    choose(&root, "[data-testid=setting-plan]", "Pro").await;
    click(&root, "[data-testid=add-button]").await;
    assert_eq!(text(&root, "[data-testid=add-error]"), "");
    assert!(text(&root, "[data-testid=add-status]").contains("docs.example.com was added"));
    let docs = card(&root, "docs.example.com");
    assert_eq!(docs.get_attribute("data-state").unwrap(), "added");
    assert_eq!(text(&docs, "[data-testid=instr-type]"), "CNAME");
    assert_eq!(text(&docs, "[data-testid=instr-name]"), "docs");
    assert_eq!(text(&docs, "[data-testid=instr-value]"), "cname.docs-host.dev");
    assert_eq!(text(&docs, "[data-testid=instr-ttl]"), "3600");
    assert_eq!(all(&docs, "[data-testid=copy]").len(), 2);
    assert!(text(&docs, "[data-testid=propagation]").contains("up to 48 hours"));
    assert_eq!(
        find(&docs, "[data-testid=certificate]").get_attribute("data-status").unwrap(),
        "not-requested"
    );

    // Verify before the record exists: not found yet, with the propagation note.
    click(&docs, "[data-testid=verify]").await;
    let result = text(&docs, "[data-testid=domain-result-text]");
    assert!(result.contains("No CNAME record was found for docs.example.com"), "{result}");
    assert!(result.contains("48 hours"), "{result}");
    assert_eq!(docs.get_attribute("data-state").unwrap(), "added");

    // The record in the simulated zone: verified, and with no delay the certificate follows.
    add_record(&root, "docs.example.com", "CNAME", "cname.docs-host.dev").await;
    assert_eq!(all(&root, "[data-testid=zone-record]").len(), 1);
    click(&docs, "[data-testid=verify]").await;
    let result = text(&docs, "[data-testid=domain-result-text]");
    assert!(result.contains("docs.example.com is verified"), "{result}");
    assert!(result.contains("is live"), "{result}");
    assert_eq!(docs.get_attribute("data-state").unwrap(), "live");
    assert_eq!(find(&docs, "[data-testid=certificate]").get_attribute("data-status").unwrap(), "issued");
    assert_eq!(text(&root, "[data-testid=published-address]"), "docs.example.com");
    assert!(docs.query_selector("[data-testid=primary-badge]").unwrap().is_some());

    // A second domain whose record points elsewhere: both values are named.
    add_domain(&root, "www.example.com").await;
    let www = card(&root, "www.example.com");
    assert_eq!(text(&www, "[data-testid=instr-name]"), "www");
    add_record(&root, "www.example.com", "CNAME", "old-host.example.net").await;
    click(&www, "[data-testid=verify]").await;
    assert_eq!(text(&www, "[data-testid=differs-expected]"), "cname.docs-host.dev");
    assert_eq!(text(&www, "[data-testid=differs-found]"), "old-host.example.net");
    assert!(text(&www, "[data-testid=domain-result-text]").contains("points to old-host.example.net"));

    // Edit the record in the zone, verify again: live.
    press(&all(&root, "[data-testid=zone-edit]")[1]).await;
    type_into(&root, "[data-testid=zone-value]", "cname.docs-host.dev").await;
    click(&root, "[data-testid=zone-save]").await;
    assert!(
        text(&root, "[data-testid=zone-status]").contains("Saved www.example.com CNAME cname.docs-host.dev")
    );
    assert_eq!(all(&root, "[data-testid=zone-record]").len(), 2);
    click(&www, "[data-testid=verify]").await;
    assert_eq!(www.get_attribute("data-state").unwrap(), "live");

    // The first live domain is published; the other redirects to it.
    let cfg = config(&root);
    assert_eq!(cfg["domains"]["primary"], "docs.example.com");
    assert_eq!(
        cfg["domains"]["redirects"],
        serde_json::json!([{"from": "www.example.com", "to": "docs.example.com", "status": 301}])
    );
    // Make www primary, then the first one again.
    click(&www, "[data-testid=make-primary]").await;
    assert_eq!(config(&root)["domains"]["primary"], "www.example.com");
    assert_eq!(config(&root)["domains"]["redirects"][0]["from"], "docs.example.com");
    click(&docs, "[data-testid=make-primary]").await;
    let cfg = config(&root);
    assert_eq!(cfg["domains"]["primary"], "docs.example.com");
    assert_eq!(cfg["domains"]["redirects"][0]["from"], "www.example.com");
    assert_eq!(cfg["domains"]["redirects"][0]["to"], "docs.example.com");
    assert_eq!(cfg["domains"]["redirects"][0]["status"], 301);

    // Remove asks first: traffic stops at once, and a 301 redirect is offered.
    click(&www, "[data-testid=remove]").await;
    let warning = text(&www, "[data-testid=remove-warning]");
    assert!(warning.contains("stops its traffic immediately"), "{warning}");
    assert!(text(&www, "[data-testid=remove-redirect]").contains("301 redirect to docs.example.com"));
    click(&www, "[data-testid=remove-cancel]").await;
    assert!(www.query_selector("[data-testid=remove-confirm]").unwrap().is_none());
    click(&www, "[data-testid=remove]").await;
    click(&www, "[data-testid=remove-confirm-button]").await;
    assert!(root.query_selector("[data-domain=\"www.example.com\"]").unwrap().is_none());
    assert!(text(&root, "[data-testid=announcement]").contains("www.example.com was removed"));
    let cfg = config(&root);
    assert_eq!(cfg["domains"]["primary"], "docs.example.com");
    assert_eq!(cfg["domains"]["redirects"], serde_json::json!([]));

    // Everything was saved.
    let saved = Dashboard::from_json(&storage().get_item(key).unwrap().unwrap()).unwrap();
    assert_eq!(saved.domains.len(), 1);
    assert_eq!(saved.domains[0].name, "docs.example.com");
    assert_eq!(saved.primary.as_deref(), Some("docs.example.com"));
}

#[wasm_bindgen_test]
async fn names_are_checked_and_internationalised_names_become_punycode() {
    let key = "test/domains/names";
    storage().remove_item(key).unwrap();
    let root = mount(key);
    tick().await;
    add_domain(&root, "https://docs.example.com").await;
    assert!(text(&root, "[data-testid=add-error]").contains("without \u{201c}https://\u{201d}"));
    add_domain(&root, "192.0.2.1").await;
    assert!(text(&root, "[data-testid=add-error]").contains("IP address"));
    add_domain(&root, "docs.petstore.docs-host.dev").await;
    assert!(!text(&root, "[data-testid=add-error]").is_empty());

    add_domain(&root, "Bücher.Example.com").await;
    assert_eq!(text(&root, "[data-testid=add-error]"), "");
    let idn = card(&root, "xn--bcher-kva.example.com");
    assert_eq!(text(&idn, "[data-testid=instr-name]"), "xn--bcher-kva");
    add_domain(&root, "bücher.example.com").await;
    assert!(text(&root, "[data-testid=add-error]").contains("already attached"));

    // An apex gets ALIAS or ANAME with the provider caveat and no TTL.
    add_domain(&root, "example.org").await;
    let apex = card(&root, "example.org");
    assert_eq!(text(&apex, "[data-testid=instr-type]"), "ALIAS or ANAME");
    assert!(
        text(&apex, "[data-testid=apex-caveat]").contains("Not every DNS provider supports ALIAS or ANAME")
    );
    assert_eq!(text(&apex, "[data-testid=instr-ttl]"), "Provider default");

    // No deploy: refused.
    find(&root, "[data-testid=setting-deployed]").unchecked_into::<HtmlElement>().click();
    tick().await;
    add_domain(&root, "api.example.com").await;
    assert!(text(&root, "[data-testid=add-error]").contains("Deploy the project successfully"));
}

#[wasm_bindgen_test]
async fn a_conflicting_record_and_a_caa_record_are_named() {
    let key = "test/domains/conflict";
    storage().remove_item(key).unwrap();
    let root = mount(key);
    tick().await;
    add_domain(&root, "docs.example.com").await;
    add_record(&root, "docs.example.com", "CNAME", "cname.docs-host.dev").await;
    add_record(&root, "docs.example.com", "A", "192.0.2.10").await;
    add_record(&root, "example.com", "CAA", "0 issue \"other-ca.example\"").await;
    let docs = card(&root, "docs.example.com");
    click(&docs, "[data-testid=verify]").await;
    let result = text(&docs, "[data-testid=domain-result-text]");
    assert!(result.contains("conflicting DNS record") && result.contains("A 192.0.2.10"), "{result}");

    // Remove the A record (the second one): verified, but the CAA record blocks the certificate.
    press(&all(&root, "[data-testid=zone-remove]")[1]).await;
    assert_eq!(all(&root, "[data-testid=zone-record]").len(), 2);
    click(&docs, "[data-testid=verify]").await;
    assert_eq!(docs.get_attribute("data-state").unwrap(), "verified");
    let certificate = find(&docs, "[data-testid=certificate]");
    assert_eq!(certificate.get_attribute("data-status").unwrap(), "caa-blocked");
    assert!(certificate.text_content().unwrap().contains("0 issue \"other-ca.example\""));
}

#[wasm_bindgen_test]
async fn the_state_survives_a_new_mount() {
    let key = "test/domains/reload";
    storage().remove_item(key).unwrap();
    let first = mount(key);
    tick().await;
    add_domain(&first, "docs.example.com").await;
    add_record(&first, "docs.example.com", "CNAME", "cname.docs-host.dev").await;
    first.remove();

    let second = mount(key);
    tick().await;
    assert_eq!(card(&second, "docs.example.com").get_attribute("data-state").unwrap(), "added");
    assert_eq!(all(&second, "[data-testid=zone-record]").len(), 1);
    assert!(all(&second, "[data-testid=notice]").is_empty());
}

#[wasm_bindgen_test]
async fn unreadable_storage_starts_fresh_with_a_notice_and_keeps_a_copy() {
    let key = "test/domains/corrupt";
    storage().set_item(key, "{\"version\": 1, \"dashboard\": ").unwrap();
    let root = mount(key);
    tick().await;
    let notice = text(&root, "[data-testid=notice]");
    assert!(notice.contains("could not be read"), "{notice}");
    assert!(notice.contains("started fresh"), "{notice}");
    assert!(notice.contains("test/domains/corrupt/unreadable"), "{notice}");
    assert_eq!(
        storage().get_item("test/domains/corrupt/unreadable").unwrap().as_deref(),
        Some("{\"version\": 1, \"dashboard\": ")
    );
    // The fresh state replaced the unreadable value.
    assert!(Dashboard::from_json(&storage().get_item(key).unwrap().unwrap()).is_ok());
    assert!(all(&root, "[data-testid=domain]").is_empty());
    click(&root, "[data-testid=notice-dismiss]").await;
    assert!(all(&root, "[data-testid=notice]").is_empty());
}

#[wasm_bindgen_test]
async fn settings_and_configurations_are_refused_with_the_reason() {
    let key = "test/domains/refusals";
    storage().remove_item(key).unwrap();
    let root = mount(key);
    tick().await;
    type_into(&root, "[data-testid=setting-project]", "My Project!").await;
    assert!(text(&root, "[data-testid=settings-error]").contains("project name"));
    assert_eq!(text(&root, "[data-testid=default-address]"), "petstore.docs-host.dev");
    type_into(&root, "[data-testid=setting-project]", "shop").await;
    assert_eq!(text(&root, "[data-testid=settings-error]"), "");
    assert_eq!(text(&root, "[data-testid=default-address]"), "shop.docs-host.dev");
    type_into(&root, "[data-testid=setting-doh]", "http://dns.example").await;
    assert!(text(&root, "[data-testid=settings-error]").contains("https://"));

    let bad = r#"{"domains": {"primary": "shop.docs-host.dev", "redirects": [{"from": "old.example.com", "to": "shop.docs-host.dev", "status": 302}]}}"#;
    type_into(&root, "[data-testid=config-input]", bad).await;
    click(&root, "[data-testid=config-check]").await;
    let result = text(&root, "[data-testid=config-check-result]");
    assert!(result.starts_with("Refused:") && result.contains("only 301"), "{result}");
    click(&root, "[data-testid=config-fill]").await;
    click(&root, "[data-testid=config-check]").await;
    assert_eq!(
        text(&root, "[data-testid=config-check-result]"),
        "This configuration is valid for the attached domains."
    );
}

#[wasm_bindgen_test]
async fn a_certificate_missing_after_30_minutes_shows_the_troubleshooting_steps() {
    use playground_domains::{DnsRecord, RecordKind, Settings};
    let key = "test/domains/overdue";
    let now = (js_sys::Date::now() / 1000.0) as u64;
    let mut dashboard = Dashboard::new(Settings { certificate_delay_secs: 100_000, ..Settings::example() });
    let no_idna = |_: &str| -> Result<String, String> { Err("ASCII only here".to_owned()) };
    dashboard.add("docs.example.com", now - 3600, &no_idna).unwrap();
    dashboard
        .zone
        .add(DnsRecord::new("docs.example.com", RecordKind::Cname, "cname.docs-host.dev", 3600))
        .unwrap();
    let zone = dashboard.zone.clone();
    dashboard.verify("docs.example.com", now - 31 * 60, &zone).unwrap();
    storage().set_item(key, &dashboard.to_json()).unwrap();

    let root = mount(key);
    tick().await;
    let docs = card(&root, "docs.example.com");
    assert_eq!(docs.get_attribute("data-state").unwrap(), "verified");
    let certificate = find(&docs, "[data-testid=certificate]");
    assert_eq!(certificate.get_attribute("data-status").unwrap(), "overdue");
    assert!(certificate.text_content().unwrap().contains("30 minutes"));
    let steps = all(&docs, "[data-testid=troubleshooting] li");
    assert_eq!(steps.len(), 5);
    assert!(steps[1].text_content().unwrap().contains("CAA"));
    assert!(steps[2].text_content().unwrap().contains("Re-verify"));

    // Re-verify is a fresh attempt: verified again, the certificate is being issued.
    click(&docs, "[data-testid=reverify]").await;
    assert!(
        text(&docs, "[data-testid=domain-result-text]")
            .contains("A fresh verification of docs.example.com passed")
    );
    assert_eq!(find(&docs, "[data-testid=certificate]").get_attribute("data-status").unwrap(), "issuing");
}

#[wasm_bindgen_test]
async fn re_verifying_the_live_primary_keeps_it_serving_and_primary_and_another_can_serve_too() {
    use playground_domains::{DnsRecord, RecordKind, Settings};
    let key = "test/domains/reverify-primary";
    let now = (js_sys::Date::now() / 1000.0) as u64;
    // Two live domains, www chosen as primary; a certificate takes a day, so the re-verified
    // one stays re-verifying for the whole test.
    let mut dashboard = Dashboard::new(Settings { certificate_delay_secs: 100, ..Settings::example() });
    let no_idna = |_: &str| -> Result<String, String> { Err("ASCII only here".to_owned()) };
    for name in ["docs.example.com", "www.example.com"] {
        dashboard.add(name, now - 3600, &no_idna).unwrap();
        dashboard.zone.add(DnsRecord::new(name, RecordKind::Cname, "cname.docs-host.dev", 3600)).unwrap();
    }
    let zone = dashboard.zone.clone();
    dashboard.verify("docs.example.com", now - 3000, &zone).unwrap();
    dashboard.verify("www.example.com", now - 3000, &zone).unwrap();
    dashboard.tick(now - 2000, &zone);
    dashboard.set_primary("www.example.com").unwrap();
    dashboard.settings.certificate_delay_secs = 86_400;
    storage().set_item(key, &dashboard.to_json()).unwrap();

    let root = mount(key);
    tick().await;
    let before = config(&root);
    assert_eq!(before["domains"]["primary"], "www.example.com");
    let www = card(&root, "www.example.com");
    click(&www, "[data-testid=reverify]").await;
    let www = card(&root, "www.example.com");
    assert_eq!(www.get_attribute("data-state").unwrap(), "reverifying");
    assert_eq!(text(&www, "[data-testid=domain-state]"), "Live: re-verified, new certificate pending");
    assert!(
        text(&www, "[data-testid=domain-result-text]")
            .contains("keeps serving the project with its current certificate"),
        "{}",
        text(&www, "[data-testid=domain-result-text]")
    );
    assert!(!all(&www, "[data-testid=primary-badge]").is_empty(), "still the primary");
    assert_eq!(text(&root, "[data-testid=published-address]"), "www.example.com");
    assert_eq!(config(&root), before, "the configuration does not move the primary away");

    // The other live domain redirects by default; it can serve the project itself instead.
    let docs = card(&root, "docs.example.com");
    assert_eq!(find(&docs, "[data-testid=role]").get_attribute("data-role").unwrap(), "redirect");
    assert_eq!(before["domains"]["redirects"][0]["from"], "docs.example.com");
    click(&docs, "[data-testid=role-toggle]").await;
    assert_eq!(find(&docs, "[data-testid=role]").get_attribute("data-role").unwrap(), "serve");
    assert!(text(&docs, "[data-testid=domain-result-text]").contains("now serves the project itself"));
    assert_eq!(config(&root)["domains"]["redirects"], serde_json::json!([]));
    assert_eq!(
        text(&root, "[data-testid=also-served]"),
        "Also serving the project (not redirected): docs.example.com."
    );
    click(&docs, "[data-testid=role-toggle]").await;
    assert_eq!(find(&docs, "[data-testid=role]").get_attribute("data-role").unwrap(), "redirect");
    assert_eq!(config(&root), before);
    assert!(root.query_selector("[data-testid=also-served]").unwrap().is_none());
}

#[wasm_bindgen_test]
async fn the_four_troubleshooting_answers_are_always_there_and_say_where_they_apply() {
    storage().remove_item("test/domains/troubleshooting").unwrap();
    let root = mount("test/domains/troubleshooting");
    tick().await;
    let answers = all(&root, "[data-testid=trouble]");
    let symptoms: Vec<_> = answers.iter().map(|a| a.get_attribute("data-symptom").unwrap()).collect();
    assert_eq!(symptoms, ["verification", "certificate", "private-connection", "redirects"]);
    for answer in &answers {
        assert!(!text(answer, "[data-testid=trouble-answer]").is_empty());
        assert!(answer.query_selector("[data-testid=trouble-none]").unwrap().is_some());
    }
    // An added domain: the verification answer names it, and stays open across a tick.
    let verification = &answers[0];
    verification.set_attribute("open", "").unwrap();
    add_domain(&root, "docs.example.com").await;
    tick().await;
    let verification = find(&root, "[data-testid=trouble][data-symptom=verification]");
    assert_eq!(text(&verification, "[data-testid=trouble-where]"), "docs.example.com: not verified yet");
    assert!(verification.has_attribute("open"), "an open answer stays open");
    let private = find(&root, "[data-testid=trouble][data-symptom=private-connection]");
    assert!(private.query_selector("[data-testid=trouble-none]").unwrap().is_some());
}
