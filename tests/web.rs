//! Browser tests (wasm-bindgen-test in headless Chromium): mount the app into a fresh element
//! and read what it rendered.
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test, with its location
#![cfg(target_arch = "wasm32")]

use leptos::prelude::*;
use petstore::document::PETSTORE_JSON;
use playground_app::App;
use playground_app::document::BuiltinText;
use playground_app::tryit::TryItHost;
use playground_app::ui::markdown::MarkdownRenderer;
use playground_app::ui::reference::Reference;
use playground_openapi::Catalog;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement};

wasm_bindgen_test_configure!(run_in_browser);

fn mount(f: impl FnOnce() -> AnyView + 'static) -> HtmlElement {
    let document = web_sys::window().unwrap().document().unwrap();
    let root: HtmlElement = document.create_element("div").unwrap().unchecked_into();
    document.body().unwrap().append_child(&root).unwrap();
    leptos::mount::mount_to(root.clone(), move || {
        // The page loads the renderer as a module; here the core's renderer is linked in.
        provide_context(MarkdownRenderer::ready(|s| Some(playground_reference::markdown::to_safe_html(s))));
        // The page loads the try-it panel as a module too.
        provide_context(TryItHost::Linked(
            std::sync::Arc::new(|slot, options, lend| {
                playground_tryit::mount_try_it(slot.clone(), options, Some(lend.clone()))
                    .map(JsValue::from)
                    .map_err(|e| playground_tryit::message_of(&e))
            }),
            std::sync::Arc::new(|slot, schemes, key, base| {
                playground_tryit::mount_authorize(slot.clone(), schemes, key, base)
                    .map(JsValue::from)
                    .map_err(|e| playground_tryit::message_of(&e))
            }),
            std::sync::Arc::new(|root, doc, slots| {
                playground_tryit::fill_examples(root, doc, slots)
                    .map_err(|e| playground_tryit::message_of(&e))
            }),
        ));
        f()
    })
    .forget();
    root
}

fn all(root: &Element, selector: &str) -> Vec<Element> {
    let list = root.query_selector_all(selector).unwrap();
    (0..list.length()).map(|i| list.item(i).unwrap().unchecked_into()).collect()
}

fn text(root: &Element, selector: &str) -> String {
    root.query_selector(selector).unwrap().unwrap_or_else(|| panic!("no {selector}")).text_content().unwrap()
}

#[wasm_bindgen_test]
fn app_shows_title_version_and_groups_in_document_order() {
    let root = mount_app();
    assert_eq!(text(&root, "[data-testid=doc-title]"), "Petstore API");
    assert_eq!(text(&root, "[data-testid=doc-version]"), "v1.0.0");
    assert_eq!(text(&root, "[data-testid=op-count]"), "18 operations");

    let groups: Vec<_> =
        all(&root, "[data-testid=group]").iter().map(|g| g.get_attribute("data-group").unwrap()).collect();
    assert_eq!(groups, ["Pets", "Store"]);
    // Flat rows (a virtual list): each tag heading names its group.
    let tags: Vec<_> = all(&root, "[data-testid=tag][data-in-group=Pets]")
        .iter()
        .map(|t| t.get_attribute("data-tag").unwrap())
        .collect();
    assert_eq!(tags, ["Animals", "Categories"]);
    assert_eq!(all(&root, "[data-testid=operation]").len(), 18);
}

#[wasm_bindgen_test]
fn operation_rows_carry_method_path_and_markers() {
    let root = mount_app();
    let get_pet = root.query_selector("[data-operation-id=getPet]").unwrap().unwrap();
    assert_eq!(text(&get_pet, ".method"), "GET");
    assert_eq!(text(&get_pet, ".path"), "/pets/{petId}");
    assert_eq!(text(&get_pet, "[data-testid=badge-deprecated]"), "Deprecated");
    assert_eq!(get_pet.query_selector("a").unwrap().unwrap().get_attribute("href").unwrap(), "#getPet");

    let complete = root.query_selector("[data-operation-id=completeOrder]").unwrap().unwrap();
    assert_eq!(text(&complete, "[data-testid=badge-stability]"), "Experimental");
    let set_stock = root.query_selector("[data-operation-id=setInventory]").unwrap().unwrap();
    assert_eq!(text(&set_stock, "[data-testid=badge-stability]"), "Beta");
    let list = root.query_selector("[data-operation-id=listPets]").unwrap().unwrap();
    assert!(list.query_selector(".badge").unwrap().is_none(), "a plain operation has no badge");
}

#[wasm_bindgen_test]
fn a_standalone_tag_is_its_own_group_without_a_repeated_heading() {
    let doc = serde_json::json!({"openapi":"3.0.0","info":{"title":"Other","version":"9"},
        "paths":{"/pet":{"get":{"tags":["pet"],"summary":"Find"}}}});
    let root = mount_document(doc);
    assert_eq!(all(&root, "[data-testid=group]").len(), 1);
    assert!(root.query_selector(".tag-name").unwrap().is_none());
    assert_eq!(text(&root, ".operation .summary"), "Find");
}

#[wasm_bindgen_test]
fn the_core_reads_the_embedded_document_on_wasm32() {
    let catalog = Catalog::from_json(PETSTORE_JSON.as_bytes()).unwrap();
    assert_eq!(catalog.operation_count(), 18);
    let api: serde_json::Value = serde_json::from_str(PETSTORE_JSON).unwrap();
    assert_eq!(api["paths"].as_object().map(serde_json::Map::len), Some(9));
}

// ---- The Mock block and notices ----

use petstore::{Counts, Mock};
use playground_app::mock::{MockState, STORAGE_KEY};
use playground_app::ui::mock_notices::MockNotices;
use playground_app::ui::mock_panel::MockPanel;
use playground_mock::MockNotice;
use playground_module_mock::JsPetstoreMock;
use wasm_bindgen::JsValue;

/// Lets Leptos run the effects a change scheduled.
async fn tick() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        web_sys::window().unwrap().set_timeout_with_callback(&resolve).unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(promise).await.unwrap();
}

fn storage() -> web_sys::Storage {
    web_sys::window().unwrap().local_storage().unwrap().unwrap()
}

fn click(root: &Element, selector: &str) {
    let element = root.query_selector(selector).unwrap().unwrap_or_else(|| panic!("no {selector}"));
    element.unchecked_into::<HtmlElement>().click();
}

fn counts_line(counts: Counts) -> String {
    format!(
        "{} pets · {} categories · {} orders · {} in stock",
        counts.pets, counts.categories, counts.orders, counts.stock
    )
}

/// The mock module's `PetstoreMock` (its Rust side is linked into this test) saved under `key`,
/// as the app holds it. Call inside a mount (it makes signals).
fn open_mock(key: &str) -> MockState {
    let options = js_sys::Object::new();
    js_sys::Reflect::set(&options, &"storageKey".into(), &key.into()).unwrap();
    let mock = JsPetstoreMock::new(Some(options.unchecked_into())).unwrap();
    MockState::from_handle(JsValue::from(mock).unchecked_into())
}

/// The app, given the Petstore document's text (the built site serves it as `petstore.json`,
/// which this test page does not).
fn app() -> AnyView {
    provide_context(BuiltinText(PETSTORE_JSON));
    view! { <App /> }.into_any()
}

/// Mounts the app on the mock saved under `STORAGE_KEY`.
fn mount_app() -> HtmlElement {
    for key in ["playground/try-it/target", "playground/try-it/base-url"] {
        storage().remove_item(key).unwrap();
    }
    mount(|| {
        provide_context(open_mock(STORAGE_KEY));
        app()
    })
}

/// Sends `method url` with an optional JSON body to `mock`; the status.
async fn send_to(mock: MockState, method: &str, url: &str, body: Option<serde_json::Value>) -> u16 {
    let init = web_sys::RequestInit::new();
    init.set_method(method);
    if let Some(body) = body {
        init.set_body(&body.to_string().into());
        let headers = web_sys::Headers::new().unwrap();
        headers.set("Content-Type", "application/json").unwrap();
        init.set_headers(&headers);
    }
    let request = web_sys::Request::new_with_str_and_init(url, &init).unwrap();
    mock.fetch(&request).await.unwrap().status()
}

/// The Mock block on its own, on a mock saved under `key` (emptied first).
fn mount_panel(key: &'static str) -> (HtmlElement, std::rc::Rc<std::cell::Cell<Option<MockState>>>) {
    storage().remove_item(key).unwrap();
    let state = std::rc::Rc::new(std::cell::Cell::new(None));
    let slot = state.clone();
    let root = mount(move || {
        let mock = open_mock(key);
        slot.set(Some(mock));
        provide_context(mock);
        view! { <MockPanel /> }.into_any()
    });
    (root, state)
}

#[wasm_bindgen_test]
fn the_app_shows_the_mock_block_with_the_demo_data_counted() {
    storage().remove_item(STORAGE_KEY).unwrap();
    let root = mount_app();
    let panel = root.query_selector("header [data-testid=mock-panel]").unwrap().expect("in the header");
    assert_eq!(text(&panel, "h2"), "Mock");
    assert_eq!(text(&root, "[data-testid=mock-counts]"), counts_line(Mock::seeded().counts()));
    assert!(root.query_selector("[data-testid=mock-notice]").unwrap().is_none());
}

#[wasm_bindgen_test]
async fn counts_follow_changes_and_reset_asks_first() {
    let (root, state) = mount_panel("petstore-playground-test/panel");
    let mock = state.get().unwrap();
    let seeded = counts_line(Mock::seeded().counts());
    assert_eq!(text(&root, "[data-testid=mock-counts]"), seeded);

    let created = send_to(
        mock,
        "POST",
        "http://localhost/pets",
        Some(serde_json::json!({"name": "Rex", "categoryId": 1})),
    );
    assert_eq!(created.await, 201);
    // A request's change is shown at the next frame (once for any number of requests).
    next_frame().await;
    tick().await;
    let mut grown = Mock::seeded().counts();
    grown.pets += 1;
    assert_eq!(text(&root, "[data-testid=mock-counts]"), counts_line(grown));

    // Reset asks first; Cancel changes nothing.
    assert!(root.query_selector("[data-testid=mock-reset-dialog]").unwrap().is_none());
    click(&root, "[data-testid=mock-reset]");
    tick().await;
    assert!(root.query_selector("[data-testid=mock-reset-dialog]").unwrap().is_some());
    click(&root, "[data-testid=mock-reset-cancel]");
    tick().await;
    assert!(root.query_selector("[data-testid=mock-reset-dialog]").unwrap().is_none());
    assert_eq!(text(&root, "[data-testid=mock-counts]"), counts_line(grown));

    click(&root, "[data-testid=mock-reset]");
    tick().await;
    click(&root, "[data-testid=mock-reset-empty]");
    tick().await;
    assert_eq!(text(&root, "[data-testid=mock-counts]"), "0 pets · 0 categories · 0 orders · 0 in stock");

    click(&root, "[data-testid=mock-reset]");
    tick().await;
    click(&root, "[data-testid=mock-reset-confirm]");
    tick().await;
    assert_eq!(text(&root, "[data-testid=mock-counts]"), seeded);
    assert!(root.query_selector("[data-testid=mock-reset-dialog]").unwrap().is_none());
}

#[wasm_bindgen_test]
async fn unreadable_saved_data_shows_a_notice_that_can_be_dismissed() {
    storage().set_item(STORAGE_KEY, "{not json").unwrap();
    let root = mount_app();
    let notice = root.query_selector("[data-testid=mock-notice]").unwrap().expect("a notice");
    assert_eq!(notice.get_attribute("role").unwrap(), "status");
    assert_eq!(notice.get_attribute("data-kind").unwrap(), "started-fresh");
    assert!(notice.text_content().unwrap().contains("could not be read, so the mock started fresh"));
    assert_eq!(text(&root, "[data-testid=mock-counts]"), counts_line(Mock::seeded().counts()));

    click(&root, "[data-testid=mock-notice-dismiss]");
    tick().await;
    assert!(root.query_selector("[data-testid=mock-notice]").unwrap().is_none());
}

#[wasm_bindgen_test]
fn a_save_problem_is_an_alert_without_a_dismiss_button() {
    let saved = playground_web::Notice::NotSaved { reason: "the storage is full".into() };
    let notices = Signal::stored(vec![MockNotice::from(&saved)]);
    let root =
        mount(move || view! { <MockNotices notices=notices on_dismiss=Callback::new(|()| {}) /> }.into_any());
    let notice = root.query_selector("[data-testid=mock-notice]").unwrap().unwrap();
    assert_eq!(notice.get_attribute("role").unwrap(), "alert");
    assert_eq!(notice.get_attribute("data-kind").unwrap(), "not-saved");
    assert!(notice.text_content().unwrap().contains("not being saved: the storage is full"));
    assert!(root.query_selector("[data-testid=mock-notice-dismiss]").unwrap().is_none());
}

fn mount_document(doc: serde_json::Value) -> HtmlElement {
    let catalog = Catalog::from_value(&doc).unwrap();
    let document = playground_openapi::document::AnyDocument::whole(doc);
    mount(move || view! { <Reference document=document catalog=catalog /> }.into_any())
}

fn set_hash(hash: &str) {
    web_sys::window().unwrap().location().set_hash(hash).unwrap();
}

#[wasm_bindgen_test]
async fn the_deep_link_opens_its_operation_with_badges_and_the_sunset_warning() {
    set_hash("getPet");
    let root = mount_app();
    let detail = root.query_selector("[data-testid=operation-detail]").unwrap().unwrap();
    assert_eq!(detail.get_attribute("data-operation-id").unwrap(), "getPet");
    assert_eq!(
        text(&detail, "[data-testid=deprecation-warning]"),
        "This operation is deprecated and will be sunset on 2027-06-30."
    );
    assert_eq!(text(&detail, "[data-testid=detail-deprecated]"), "Deprecated");
    assert_eq!(
        root.query_selector("[data-operation-id=getPet] a")
            .unwrap()
            .unwrap()
            .get_attribute("aria-current")
            .as_deref(),
        Some("page")
    );

    // Following another link (hashchange) swaps the operation.
    set_hash("completeOrder");
    tick().await;
    let detail = root.query_selector("[data-testid=operation-detail]").unwrap().unwrap();
    assert_eq!(detail.get_attribute("data-operation-id").unwrap(), "completeOrder");
    assert_eq!(text(&detail, "[data-testid=detail-stability]"), "Experimental");
    assert!(detail.query_selector("[data-testid=deprecation-warning]").unwrap().is_none());

    set_hash("noSuchOperation");
    tick().await;
    assert_eq!(
        text(&root, "[data-testid=unknown-operation]"),
        "There is no operation #noSuchOperation in this document."
    );
    set_hash("");
}

#[wasm_bindgen_test]
async fn samples_come_from_the_document_or_are_generated_and_switch_by_tab() {
    set_hash("createPet");
    let root = mount_app();
    opened(&root, "createPet").await;
    let tabs: Vec<_> =
        all(&root, "[data-testid=sample-tab]").iter().map(|t| t.text_content().unwrap()).collect();
    assert_eq!(tabs, ["cURL", "JavaScript (fetch)", "Python (requests)"]);
    assert!(
        text(&root, "[data-testid=sample-source]")
            .starts_with("curl -s -X POST 'http://127.0.0.1:4010/pets'")
    );
    let js_tab: HtmlElement = all(&root, "[data-testid=sample-tab]")[1].clone().unchecked_into();
    js_tab.click();
    tick().await;
    let source = text(&root, "[data-testid=sample-source]");
    assert!(source.contains("await fetch(\"http://127.0.0.1:4010/pets\""), "{source}");

    // Arrow keys move between tabs; only the selected one is in the Tab order.
    let init = web_sys::KeyboardEventInit::new();
    init.set_key("ArrowRight");
    init.set_bubbles(true);
    let key = web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    all(&root, "[data-testid=sample-tab]")[1].dispatch_event(&key).unwrap();
    tick().await;
    let tabs = all(&root, "[data-testid=sample-tab]");
    assert_eq!(tabs[2].get_attribute("aria-selected").as_deref(), Some("true"));
    assert_eq!(tabs[2].get_attribute("tabindex").as_deref(), Some("0"));
    assert_eq!(tabs[1].get_attribute("tabindex").as_deref(), Some("-1"));
    let active = web_sys::window().unwrap().document().unwrap().active_element().unwrap();
    assert_eq!(active.text_content().unwrap(), "Python (requests)");

    set_hash("getCategory");
    opened(&root, "getCategory").await;
    let tabs: Vec<_> =
        all(&root, "[data-testid=sample-tab]").iter().map(|t| t.text_content().unwrap()).collect();
    assert_eq!(
        tabs,
        ["cURL", "JavaScript", "Python", "Go", "Java", "C#"],
        "generated when the document has none"
    );
    assert_eq!(
        text(&root, "[data-testid=sample-source]"),
        "curl -i 'http://127.0.0.1:4010/categories/1'",
        "the in-browser mock's samples aim at the local mock server"
    );
    set_hash("");
}

#[wasm_bindgen_test]
async fn the_operation_view_lists_parameters_body_schema_and_responses() {
    set_hash("createPet");
    let root = mount_app();
    opened(&root, "createPet").await;
    let body = root.query_selector("[data-testid=request-body]").unwrap().unwrap();
    let name = body.query_selector("[data-testid=schema-prop][data-name=name]").unwrap().unwrap();
    assert_eq!(text(&name, "[data-testid=required]"), "required");
    let limits: Vec<_> =
        all(&name, "[data-testid=schema-limit]").iter().map(|e| e.text_content().unwrap()).collect();
    assert_eq!(limits, ["1 to 100 characters", "pattern \\S"]);
    let statuses: Vec<_> = all(&root, "[data-testid=response]")
        .iter()
        .map(|r| r.get_attribute("data-status").unwrap())
        .collect();
    assert_eq!(statuses, ["201", "400", "409", "413", "415", "422"]);

    set_hash("listPets");
    tick().await;
    let params: Vec<_> =
        all(&root, "[data-testid=parameter]").iter().map(|p| p.get_attribute("data-name").unwrap()).collect();
    assert_eq!(params, ["status", "categoryId", "limit", "offset"]);
    assert!(
        text(&root, "[data-testid=parameter][data-name=status]").contains("one of available pending sold")
    );
    set_hash("");
}

#[wasm_bindgen_test]
fn markdown_from_a_hostile_document_is_shown_as_text_and_never_runs() {
    set_hash("");
    let doc = serde_json::json!({
        "openapi": "3.0.0",
        "info": {"title": "Hostile", "version": "1",
                 "description": "<script>window.__pwned = 1</script> <img src=x onerror=\"window.__pwned = 2\"> [click](javascript:window.__pwned=3)\n\n**bold** [ok](https://example.com)"},
        "paths": {"/x": {"get": {"summary": "X", "responses": {"200": {"description": "ok"}}}}}
    });
    let root = mount_document(doc);
    let overview = root.query_selector("[data-testid=overview]").unwrap().unwrap();
    assert!(
        overview.query_selector("script, img, [onerror]").unwrap().is_none(),
        "{}",
        overview.inner_html()
    );
    assert!(overview.query_selector("a[href^=javascript]").unwrap().is_none());
    assert_eq!(text(&overview, "strong"), "bold");
    assert!(overview.text_content().unwrap().contains("<script>window.__pwned = 1</script>"));
    let pwned = js_sys::Reflect::get(&web_sys::window().unwrap(), &"__pwned".into()).unwrap();
    assert!(pwned.is_undefined());
}

#[wasm_bindgen_test]
async fn the_search_box_filters_the_list_and_slash_focuses_it() {
    set_hash("");
    let root = mount_app();
    let input: web_sys::HtmlInputElement =
        root.query_selector("[data-testid=search]").unwrap().unwrap().unchecked_into();
    let search = |text: &str| {
        input.set_value(text);
        input.dispatch_event(&web_sys::Event::new("input").unwrap()).unwrap();
    };
    search("stock of");
    tick().await;
    let ids: Vec<_> = all(&root, "[data-testid=operation]")
        .iter()
        .map(|o| o.get_attribute("data-operation-id").unwrap())
        .collect();
    assert_eq!(ids, ["getInventoryItem", "setInventory"]);
    search("STOCK OF");
    tick().await;
    assert_eq!(all(&root, "[data-testid=operation]").len(), 2, "case-insensitive");
    search("zebra");
    tick().await;
    assert_eq!(text(&root, "[data-testid=search-empty]"), "No operation matches \u{201c}zebra\u{201d}.");
    search("");
    tick().await;
    assert_eq!(all(&root, "[data-testid=operation]").len(), 18);

    input.blur().unwrap();
    let init = web_sys::KeyboardEventInit::new();
    init.set_key("/");
    init.set_cancelable(true);
    let event = web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    web_sys::window().unwrap().dispatch_event(&event).unwrap();
    let active = web_sys::window().unwrap().document().unwrap().active_element().unwrap();
    assert_eq!(active.id(), "operation-search");
    assert!(event.default_prevented(), "the slash is not typed into the box");
}

#[wasm_bindgen_test]
async fn the_search_folds_case_beyond_ascii() {
    set_hash("");
    let doc = serde_json::json!({"openapi": "3.0.0", "info": {"title": "Bank", "version": "1"},
        "paths": {
            "/transfers": {"post": {"operationId": "createTransfer", "summary": "Überweisung anlegen"}},
            "/accounts": {"get": {"operationId": "listAccounts", "summary": "Λογαριασμοί"}},
            "/cards": {"get": {"operationId": "listCards", "summary": "Karten"}}}});
    let root = mount_document(doc);
    let input: web_sys::HtmlInputElement =
        root.query_selector("[data-testid=search]").unwrap().unwrap().unchecked_into();
    let found = |text: &str| {
        input.set_value(text);
        input.dispatch_event(&web_sys::Event::new("input").unwrap()).unwrap();
        let root = root.clone();
        async move {
            tick().await;
            all(&root, "[data-testid=operation]")
                .iter()
                .map(|o| o.get_attribute("data-operation-id").unwrap())
                .collect::<Vec<_>>()
        }
    };
    assert_eq!(found("überweisung").await, ["createTransfer"]);
    assert_eq!(found("ÜBERWEISUNG").await, ["createTransfer"]);
    assert_eq!(found("λογαριασμοί").await, ["listAccounts"]);
    assert_eq!(found("KARTEN").await, ["listCards"]);
}

// ---- The try-it panel ----

fn input_value(root: &Element, selector: &str, value: &str) {
    let element = root.query_selector(selector).unwrap().unwrap_or_else(|| panic!("no {selector}"));
    match element.dyn_ref::<web_sys::HtmlInputElement>() {
        Some(input) => input.set_value(value),
        None => element.unchecked_ref::<web_sys::HtmlTextAreaElement>().set_value(value),
    }
    element.dispatch_event(&web_sys::Event::new("input").unwrap()).unwrap();
}

fn select_value(root: &Element, selector: &str, value: &str) {
    let select: web_sys::HtmlSelectElement = root.query_selector(selector).unwrap().unwrap().unchecked_into();
    select.set_value(value);
    select.dispatch_event(&web_sys::Event::new("change").unwrap()).unwrap();
}

/// Waits until `selector` is in `root` (the mock answers asynchronously).
async fn wait_for(root: &Element, selector: &str) -> Element {
    for _ in 0..100 {
        if let Some(element) = root.query_selector(selector).unwrap() {
            return element;
        }
        tick().await;
    }
    let result = root.query_selector("[data-testid=try-result]").unwrap().map(|r| r.inner_html());
    panic!("{selector} never appeared; the try-it result holds {result:?}");
}

/// Waits for the try-it module to render the code samples (and the panel) of `anchor`.
async fn opened(root: &Element, anchor: &str) -> Element {
    wait_for(root, &format!("[data-operation-id='{anchor}'] [data-testid=code-samples]")).await
}

#[wasm_bindgen_test]
async fn try_it_creates_a_pet_in_the_mock_and_the_list_shows_it() {
    storage().remove_item(STORAGE_KEY).unwrap();
    set_hash("createPet");
    let root = mount_app();
    tick().await;
    let body = root
        .query_selector("[data-testid=try-body]")
        .unwrap()
        .unwrap()
        .unchecked_into::<web_sys::HtmlTextAreaElement>()
        .value();
    assert!(body.contains("\"name\": \"Rex\""), "prefilled with the example: {body}");
    input_value(&root, "[data-testid=try-body]", r#"{"name": "Tryit", "categoryId": 1}"#);
    click(&root, "[data-testid=try-send]");
    let answer = wait_for(&root, "[data-testid=try-answer]").await;
    assert_eq!(answer.get_attribute("data-status").unwrap(), "201");
    assert_eq!(text(&answer, "[data-testid=try-status]"), "201 Created");
    assert!(text(&answer, "[data-testid=try-body-view]").contains("\"name\": \"Tryit\""));
    assert!(answer.query_selector("[data-testid=try-error]").unwrap().is_none());

    set_hash("listPets");
    opened(&root, "listPets").await;
    input_value(&root, "[data-testid=try-param][data-name=limit]", "100");
    click(&root, "[data-testid=try-send]");
    let answer = wait_for(&root, "[data-testid=try-answer]").await;
    assert_eq!(answer.get_attribute("data-status").unwrap(), "200");
    assert!(text(&answer, "[data-testid=try-body-view]").contains("Tryit"));
    set_hash("");
}

#[wasm_bindgen_test]
async fn an_error_answer_is_shown_as_an_error_and_bad_input_is_not_sent() {
    storage().remove_item(STORAGE_KEY).unwrap();
    set_hash("deletePet");
    let root = mount_app();
    opened(&root, "deletePet").await;
    // A missing path parameter is refused by the form, with the reason, and focused.
    input_value(&root, "[data-testid=try-param][data-name=petId]", "");
    click(&root, "[data-testid=try-send]");
    tick().await;
    assert!(root.query_selector("[data-testid=try-answer]").unwrap().is_none(), "nothing was sent");
    let field = root.query_selector("[data-testid=try-param][data-name=petId]").unwrap().unwrap();
    assert_eq!(field.get_attribute("aria-invalid").as_deref(), Some("true"));
    let described = field.get_attribute("aria-describedby").unwrap();
    let message = root.query_selector(&format!("[id='{described}']")).unwrap().unwrap();
    assert_eq!(message.text_content().unwrap(), "petId is required.");
    let active = web_sys::window().unwrap().document().unwrap().active_element().unwrap();
    assert_eq!(active.get_attribute("data-name").as_deref(), Some("petId"), "the field to fix has focus");

    // The mock's Error object is shown as an error.
    input_value(&root, "[data-testid=try-param][data-name=petId]", "999");
    click(&root, "[data-testid=try-send]");
    let answer = wait_for(&root, "[data-testid=try-answer]").await;
    assert_eq!(answer.get_attribute("data-status").unwrap(), "404");
    assert_eq!(text(&answer, "[data-testid=try-error]"), "Error not_found: Pet 999 does not exist.");
    set_hash("");
}

#[wasm_bindgen_test]
async fn the_samples_follow_the_form_and_the_target() {
    set_hash("getCategory");
    let root = mount_app();
    opened(&root, "getCategory").await;
    input_value(&root, "[data-testid=try-param][data-name=categoryId]", "42");
    tick().await;
    assert_eq!(text(&root, "[data-testid=sample-source]"), "curl -i 'http://127.0.0.1:4010/categories/42'");
    select_value(&root, "[data-testid=try-target]", "server:https://api.petstore.example.com");
    tick().await;
    assert_eq!(
        text(&root, "[data-testid=sample-source]"),
        "curl -i 'https://api.petstore.example.com/categories/42'"
    );

    // A custom base URL is checked, and remembered once valid.
    select_value(&root, "[data-testid=try-target]", "custom");
    tick().await;
    input_value(&root, "[data-testid=try-base-url]", "ftp://example.com");
    click(&root, "[data-testid=try-send]");
    tick().await;
    assert_eq!(
        text(&root, "[data-testid=try-base-url-error]"),
        "Use an http:// or https:// URL; ftp: is not supported."
    );
    input_value(&root, "[data-testid=try-base-url]", "http://127.0.0.1:9/api/");
    tick().await;
    assert_eq!(text(&root, "[data-testid=try-base-url-error]"), "");
    assert_eq!(text(&root, "[data-testid=sample-source]"), "curl -i 'http://127.0.0.1:9/api/categories/42'");
    assert_eq!(
        storage().get_item("playground/try-it/base-url").unwrap().as_deref(),
        Some("http://127.0.0.1:9/api")
    );
    assert_eq!(storage().get_item("playground/try-it/target").unwrap().as_deref(), Some("custom"));
    set_hash("");
}

#[wasm_bindgen_test]
async fn operations_that_hide_try_it_keep_their_samples() {
    set_hash("listOrders");
    let root = mount_app();
    opened(&root, "listOrders").await;
    let detail = root.query_selector("[data-testid=operation-detail]").unwrap().unwrap();
    assert_eq!(detail.get_attribute("data-operation-id").unwrap(), "listOrders");
    assert!(detail.query_selector("[data-testid=try-it]").unwrap().is_none());
    assert!(detail.query_selector("[data-testid=code-samples]").unwrap().is_some());
    set_hash("getOrder");
    opened(&root, "getOrder").await;
    assert!(root.query_selector("[data-testid=try-it]").unwrap().is_some());
    set_hash("");
}

// ---- The transport, on its own ----

use playground_tryit::mock::MockLink;
use playground_tryit::transport::{self, Abort, Destination, Outcome};
use wasm_bindgen::closure::Closure;

/// What the page lends the try-it module: `mock` itself.
fn link(mock: MockState) -> MockLink {
    MockLink::new(Closure::<dyn Fn() -> JsValue>::new(move || mock.lend()).into_js_value().unchecked_into())
}

#[wasm_bindgen_test]
async fn the_transport_answers_from_the_mock_and_explains_what_gets_no_answer() {
    let key = "playground/test/transport";
    storage().remove_item(key).unwrap();
    let owner = Owner::new();
    let mock = owner.with(|| open_mock(key));
    let pet = serde_json::json!({"name": "Wire", "categoryId": 1});
    let created = transport::send(
        &playground_http::Request::new("POST", "/pets").json(&pet),
        Destination::Mock(Some(link(mock))),
        &Abort::new(),
    )
    .await;
    assert_eq!(
        (created.method.as_str(), created.url.as_str(), created.target.as_str()),
        ("POST", "/pets", "In-browser mock")
    );
    let Outcome::Answer { status, status_text, headers, body, error, file: None } = created.outcome.clone()
    else {
        panic!("the mock answers: {:?}", created.outcome)
    };
    assert_eq!((status, status_text.as_str(), error), (201, "Created", None));
    assert!(headers.iter().any(|(n, v)| n.eq_ignore_ascii_case("location") && v == "/pets/7"), "{headers:?}");
    assert!(body.contains("\"name\": \"Wire\""), "pretty JSON: {body}");

    let missing = transport::send(
        &playground_http::Request::new("GET", "/pets/999"),
        Destination::Mock(Some(link(mock))),
        &Abort::new(),
    )
    .await;
    let Outcome::Answer { status: 404, error: Some(error), .. } = missing.outcome.clone() else {
        panic!("an error object: {:?}", missing.outcome)
    };
    assert_eq!(
        (error.code.as_deref(), error.message.as_str()),
        (Some("not_found"), "Pet 999 does not exist.")
    );
    let nowhere = transport::send(
        &playground_http::Request::new("GET", "/pets"),
        Destination::Mock(None),
        &Abort::new(),
    )
    .await;
    assert_eq!(
        nowhere.outcome,
        Outcome::Failure("The in-browser mock is not available on this page.".to_owned())
    );

    // Nothing listens there (browsers refuse the port outright): explained, not thrown.
    let request = playground_http::Request::new("GET", "http://127.0.0.1:9/pets");
    let down = transport::send(&request, Destination::Network { credentialed: false }, &Abort::new()).await;
    assert_eq!(down.target, "http://127.0.0.1:9");
    let Outcome::Failure(message) = down.outcome.clone() else { panic!("no answer: {:?}", down.outcome) };
    assert!(message.starts_with("Nothing answered at http://127.0.0.1:9:"), "{message}");

    let abort = Abort::new();
    abort.abort();
    let stopped = transport::send(&request, Destination::Network { credentialed: false }, &abort).await;
    assert_eq!(stopped.outcome, Outcome::Failure("Cancelled.".to_owned()));
    let refused = transport::send(
        &request.clone().header("X-Note", "\u{65e5}"),
        Destination::Network { credentialed: false },
        &Abort::new(),
    )
    .await;
    let Outcome::Failure(message) = refused.outcome.clone() else { panic!("refused: {:?}", refused.outcome) };
    assert!(message.starts_with("The header X-Note cannot be sent:"), "{message}");
}

#[wasm_bindgen_test]
fn the_page_and_the_panel_reach_the_mock_module_through_the_typed_seam() {
    use playground_seam::MismatchKind;
    let key = "playground/test/seam";
    storage().remove_item(key).unwrap();
    let owner = Owner::new();
    let mock = owner.with(|| open_mock(key));

    // The page's own call: a `Request` in, a `Response` out.
    let listed = mock.answer(&playground_http::Request::new("GET", "/pets?limit=2")).unwrap();
    assert_eq!(listed.status, 200);
    assert_eq!(listed.json().and_then(|v| v.as_array().map(Vec::len)), Some(2));
    let refused = mock.answer(&playground_http::Request::new("GET", "")).unwrap_err();
    assert!(refused.contains("needs a url"), "{refused}");

    // The panel's: the mock the page lends, its drift check read with its kinds.
    let link = link(mock);
    let asked = playground_http::Request::new("GET", "/pets");
    let answered = link.answer(&asked).unwrap();
    assert_eq!(link.check(&asked, &answered), Ok(Vec::new()));
    let teapot = playground_http::Response { status: 418, headers: Vec::new(), body: Vec::new() };
    let found = link.check(&asked, &teapot).unwrap();
    assert_eq!(found.iter().map(|m| m.kind).collect::<Vec<_>>(), [MismatchKind::Status]);
    let kept = link.keep(&asked, &answered).unwrap_err();
    assert!(kept.contains("by the Petstore's rules"), "{kept}");
    drop(owner);
}

#[wasm_bindgen_test]
async fn the_theme_toggle_overrides_the_system_and_is_kept() {
    let root = mount_app();
    let html = web_sys::window().unwrap().document().unwrap().document_element().unwrap();
    select_value(&root, "[data-testid=theme-toggle]", "dark");
    tick().await;
    assert_eq!(html.get_attribute("data-theme").as_deref(), Some("dark"));
    assert_eq!(storage().get_item("playground/theme").unwrap().as_deref(), Some("dark"));
    select_value(&root, "[data-testid=theme-toggle]", "system");
    tick().await;
    assert_eq!(html.get_attribute("data-theme"), None);
    assert_eq!(storage().get_item("playground/theme").unwrap(), None);
}

// ---- Loading other documents, and the virtual list ----

/// Waits (up to about a second) until `ready` holds; loads go through promises and effects.
async fn until(mut ready: impl FnMut() -> bool) {
    for _ in 0..100 {
        if ready() {
            return;
        }
        tick().await;
    }
    panic!("the page never reached the expected state");
}

fn paste(root: &Element, text: &str) {
    let area: web_sys::HtmlTextAreaElement =
        root.query_selector("[data-testid=document-text]").unwrap().unwrap().unchecked_into();
    area.set_value(text);
    click(root, "[data-testid=document-text-load]");
}

fn shown(root: &Element, selector: &str) -> bool {
    root.query_selector(selector).unwrap().is_some_and(|e| !e.has_attribute("hidden"))
}

#[wasm_bindgen_test]
async fn a_broken_document_shows_why_and_keeps_the_current_one() {
    set_hash("");
    storage().remove_item(STORAGE_KEY).unwrap();
    let root = mount(app);
    assert!(!shown(&root, "[data-testid=document-error]"));

    paste(&root, "{\n  \"openapi\": \"3.0.0\",\n  \"info\": }");
    until(|| shown(&root, "[data-testid=document-error]")).await;
    assert_eq!(
        text(&root, "[data-testid=document-error-message]"),
        "The document is not valid JSON: expected value (line 3, column 11)."
    );
    assert_eq!(
        root.query_selector("[data-testid=document-error]").unwrap().unwrap().get_attribute("role").unwrap(),
        "alert"
    );
    assert_eq!(text(&root, "[data-testid=doc-title]"), "Petstore API");
    assert_eq!(all(&root, "[data-testid=operation]").len(), 18);
    assert!(root.query_selector("[data-testid=mock-panel]").unwrap().is_some());

    paste(&root, r#"{"swagger": "2.0", "info": {"title": "Old", "version": "1"}, "paths": {}}"#);
    // The converter is a module of the built site, which this test page does not serve.
    until(|| {
        text(&root, "[data-testid=document-error-message]")
            .starts_with("The document is Swagger 2.0, and its converter could not be loaded")
    })
    .await;
    assert_eq!(text(&root, "[data-testid=doc-title]"), "Petstore API");

    paste(&root, r#"{"openapi": "4.0.0", "info": {"title": "New", "version": "1"}, "paths": {}}"#);
    until(|| text(&root, "[data-testid=document-error-message]").contains("OpenAPI 4.0.0")).await;
    assert_eq!(
        text(&root, "[data-testid=document-error-message]"),
        "This is an OpenAPI 4.0.0 document; this reference reads OpenAPI 3.0 to 3.2 and Swagger 2.0 documents only."
    );
    paste(&root, r#"[{"openapi": "3.0.0"}]"#);
    until(|| text(&root, "[data-testid=document-error-message]").ends_with("this one is a list.")).await;
    paste(&root, r#"{"openapi": "3.0.0", "info": {"title": "No paths", "version": "1"}}"#);
    until(|| text(&root, "[data-testid=document-error-message]").contains("no `paths` object")).await;
    assert_eq!(text(&root, "[data-testid=doc-title]"), "Petstore API");

    click(&root, "[data-testid=document-error-dismiss]");
    until(|| !shown(&root, "[data-testid=document-error]")).await;
}

#[wasm_bindgen_test]
async fn another_document_gets_a_mock_of_its_own_until_back_to_petstore() {
    set_hash("");
    let root = mount(app);
    assert!(!shown(&root, "[data-testid=document-source]"), "no source line for the built-in document");
    paste(
        &root,
        r#"{"openapi": "3.0.3", "info": {"title": "Zoo", "version": "2.1"},
            "paths": {"/animals": {"get": {"operationId": "listAnimals", "summary": "List", "tags": ["zoo"],
                       "responses": {"200": {"description": "ok"}}}}}}"#,
    );
    until(|| text(&root, "[data-testid=doc-title]") == "Zoo").await;
    assert_eq!(text(&root, "[data-testid=doc-version]"), "v2.1");
    assert_eq!(text(&root, "[data-testid=op-count]"), "1 operation");
    let ids: Vec<_> = all(&root, "[data-testid=operation]")
        .iter()
        .map(|o| o.get_attribute("data-operation-id").unwrap())
        .collect();
    assert_eq!(ids, ["listAnimals"]);
    // Its mock's module is not served to these tests: the Mock block says why it did not start.
    assert!(root.query_selector("[data-testid=mock-panel]").unwrap().is_some());
    until(|| shown(&root, "[data-testid=mock-failed]")).await;
    let failed = text(&root, "[data-testid=mock-failed]");
    assert!(failed.starts_with("This document's in-browser mock could not be started: "), "{failed}");
    assert!(failed.contains("playground_api_mock.js"), "{failed}");
    until(|| shown(&root, "[data-testid=document-source]")).await;
    assert!(text(&root, "[data-testid=document-source]").contains("pasted text"));

    // Its operation opens.
    set_hash("listAnimals");
    until(|| root.query_selector("[data-testid=operation-detail]").unwrap().is_some()).await;
    assert_eq!(
        root.query_selector("[data-testid=operation] a")
            .unwrap()
            .unwrap()
            .get_attribute("aria-current")
            .as_deref(),
        Some("page")
    );
    set_hash("");

    click(&root, "[data-testid=document-builtin]");
    until(|| text(&root, "[data-testid=doc-title]") == "Petstore API").await;
    assert!(root.query_selector("[data-testid=mock-panel]").unwrap().is_some());
    // The Petstore's mock is asked for again (its module is not served here either).
    until(|| {
        shown(&root, "[data-testid=mock-failed]")
            && text(&root, "[data-testid=mock-failed]").contains("petstore_mock.js")
    })
    .await;
    assert!(
        text(&root, "[data-testid=mock-failed]").starts_with("The in-browser mock could not be started: ")
    );
    assert_eq!(all(&root, "[data-testid=operation]").len(), 18);
}

#[wasm_bindgen_test]
async fn a_newer_load_or_back_supersedes_the_load_under_way() {
    set_hash("");
    let root = mount(app);
    let titled = |title: &str| {
        format!(r#"{{"openapi": "3.0.3", "info": {{"title": "{title}", "version": "1"}}, "paths": {{}}}}"#)
    };
    // A broken document, then at once a good one: only the second one's result is shown.
    paste(&root, "{ not json");
    paste(&root, &titled("Zoo"));
    until(|| text(&root, "[data-testid=doc-title]") == "Zoo").await;
    assert!(!shown(&root, "[data-testid=document-error]"));

    // A load, then Back at once: the Petstore document, and the load never lands.
    paste(&root, &titled("Aviary"));
    click(&root, "[data-testid=document-builtin]");
    until(|| text(&root, "[data-testid=doc-title]") == "Petstore API").await;
    for _ in 0..10 {
        tick().await;
    }
    assert_eq!(text(&root, "[data-testid=doc-title]"), "Petstore API");
    assert!(!shown(&root, "[data-testid=document-status]"));
    assert!(!shown(&root, "[data-testid=document-error]"));
}

fn large_document(operations: usize) -> serde_json::Value {
    let mut paths = serde_json::Map::new();
    for i in 0..operations {
        paths.insert(
            format!("/items/{i}"),
            serde_json::json!({"get": {"operationId": format!("op{i}"), "summary": format!("Item {i}"),
                "tags": [format!("tag{}", i / 100)], "responses": {"200": {"description": "ok"}}}}),
        );
    }
    serde_json::json!({"openapi": "3.0.0", "info": {"title": "Large", "version": "1"}, "paths": paths})
}

#[wasm_bindgen_test]
async fn a_large_list_renders_only_the_rows_in_view_and_scrolls_the_selected_one_into_view() {
    // The list's box as www/style.css sets it (the test page has no style sheet).
    let document = web_sys::window().unwrap().document().unwrap();
    let style = document.create_element("style").unwrap();
    style.set_text_content(Some(
        ".list-scroller { height: 400px; overflow-y: auto; } .list-row { height: 52px; overflow: hidden; }",
    ));
    document.head().unwrap().append_child(&style).unwrap();
    set_hash("op700");
    let root = mount_document(large_document(1000));
    until(|| root.query_selector("[data-testid=operation][data-operation-id=op700]").unwrap().is_some())
        .await;
    let scroller: HtmlElement =
        root.query_selector("[data-testid=operation-scroller]").unwrap().unwrap().unchecked_into();
    assert_eq!(
        scroller.get_attribute("data-rows").as_deref(),
        Some("1010"),
        "1000 operations and 10 group headings"
    );
    let rendered = all(&root, "[data-testid=operation]").len();
    assert!(rendered < 100, "{rendered} rows rendered of 1000");
    let link = root.query_selector("[data-testid=operation][data-operation-id=op700] a").unwrap().unwrap();
    assert_eq!(link.get_attribute("aria-current").as_deref(), Some("page"));
    // Rendered at once where the list will be scrolled to; scrolled there in the first frame.
    let in_view = || {
        let (row, list) = (link.get_bounding_client_rect(), scroller.get_bounding_client_rect());
        row.top() >= list.top() && row.bottom() <= list.bottom()
    };
    until(in_view).await;
    assert!(link.is_connected(), "the row rendered first is the one scrolled to");

    // Scrolling to the top brings the first rows back and drops the others.
    scroller.set_scroll_top(0);
    scroller.dispatch_event(&web_sys::Event::new("scroll").unwrap()).unwrap();
    until(|| root.query_selector("[data-testid=operation][data-operation-id=op0]").unwrap().is_some()).await;
    assert!(root.query_selector("[data-testid=operation][data-operation-id=op700]").unwrap().is_none());
    assert_eq!(text(&root, "[data-testid=group]"), "tag0");
    set_hash("");
}

#[wasm_bindgen_test]
async fn without_its_petstore_document_the_page_says_why() {
    set_hash("");
    // No text provided: the app fetches petstore.json, which this test page does not serve.
    let root = mount(|| view! { <App /> }.into_any());
    let status = || text(&root, "[data-testid=document-status]");
    assert_eq!(status(), "Loading the Petstore document\u{2026}");
    until(|| status().starts_with("The API description could not be loaded:")).await;
    let message = status();
    assert!(message.contains("/petstore.json"), "{message}");
    assert!(message.contains("404"), "{message}");
    assert!(root.query_selector("[data-testid=operation]").unwrap().is_none());
}

/// Resolves at the next animation frame.
async fn next_frame() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        web_sys::window().unwrap().request_animation_frame(&resolve).unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(promise).await.unwrap();
}

#[wasm_bindgen_test]
async fn a_list_gone_before_its_first_frame_measures_nothing() {
    // The list reads its layout in the frame after it is mounted; a list replaced within that
    // frame (the search typed into) must not touch its disposed state then: in the release
    // build a panic aborts the page.
    static PANICKED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| PANICKED.store(true, std::sync::atomic::Ordering::SeqCst)));
    let document = web_sys::window().unwrap().document().unwrap();
    let root: HtmlElement = document.create_element("div").unwrap().unchecked_into();
    document.body().unwrap().append_child(&root).unwrap();
    let groups = Catalog::from_json(PETSTORE_JSON.as_bytes()).unwrap().groups;
    let mounted = leptos::mount::mount_to(root.clone(), move || {
        view! { <playground_app::ui::operation_list::OperationList groups=groups /> }
    });
    // The list's effect runs (and asks for the next frame) before the frame comes.
    for _ in 0..3 {
        wasm_bindgen_futures::JsFuture::from(js_sys::Promise::resolve(&JsValue::NULL)).await.unwrap();
    }
    assert!(root.query_selector("[data-testid=operation]").unwrap().is_some());
    drop(mounted);
    next_frame().await;
    next_frame().await;
    std::panic::set_hook(hook);
    assert!(
        !PANICKED.load(std::sync::atomic::Ordering::SeqCst),
        "the list's measure ran after it was disposed"
    );
}

#[wasm_bindgen_test]
async fn the_example_blocks_are_the_generators_and_say_when_the_documents_do_not_fit() {
    set_hash("make");
    let root = mount_document(serde_json::json!({
        "openapi": "3.1.0",
        "info": {"title": "Examples", "version": "1"},
        "paths": {"/things": {"post": {
            "operationId": "make",
            "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Thing"}}}},
            "responses": {
                "201": {"description": "made", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Thing"}}}},
                "400": {"description": "bad", "content": {"application/json": {
                    "schema": {"type": "object", "required": ["code"], "properties": {"code": {"type": "integer"}}},
                    "example": {"code": "E1"}
                }}}
            }
        }}},
        "components": {"schemas": {"Thing": {
            "type": "object",
            "required": ["id", "code"],
            "properties": {"id": {"type": "integer", "readOnly": true}, "code": {"type": "string", "pattern": "^[A-Z]{3}-[0-9]{2}$"}}
        }}}
    }));
    opened(&root, "make").await;
    wait_for(&root, "pre[data-example='request'][data-example-filled]").await;
    let shown = |at: &str| -> serde_json::Value {
        serde_json::from_str(&text(&root, &format!("pre[data-example='{at}']"))).unwrap()
    };
    let request = shown("request");
    let code = request["code"].as_str().unwrap().to_owned();
    assert!(code.len() == 6 && code.as_bytes()[3] == b'-', "from the pattern, not \"string\": {request}");
    assert!(request.get("id").is_none(), "readOnly is left out of a request: {request}");
    let made = shown("response/0/0");
    assert!(made["id"].is_i64() && made["code"].as_str().is_some_and(|c| c.len() == 6), "{made}");
    // The document's own example stays, with why it does not fit beside it.
    assert_eq!(shown("response/1/0"), serde_json::json!({"code": "E1"}));
    let note = text(&root, "[data-example-note='response/1/0']");
    assert!(note.starts_with("This example from the document does not fit its schema: "), "{note}");
    assert!(root.query_selector("[data-example-note='request']").unwrap().is_none());
}

#[wasm_bindgen_test]
async fn a_schema_pages_example_is_the_generators() {
    set_hash("schema/Code");
    let root = mount_document(serde_json::json!({
        "openapi": "3.1.0",
        "info": {"title": "Schemas", "version": "1"},
        "paths": {},
        "components": {"schemas": {"Code": {
            "type": "object",
            "required": ["code", "password"],
            "properties": {"code": {"type": "string", "pattern": "^[A-Z]{3}-[0-9]{2}$"}, "password": {"type": "string", "writeOnly": true}}
        }}}
    }));
    let block = wait_for(&root, "pre[data-example='schema'][data-example-filled]").await;
    let shown: serde_json::Value = serde_json::from_str(&block.text_content().unwrap()).unwrap();
    let code = shown["code"].as_str().unwrap();
    assert!(code.len() == 6 && code.as_bytes()[3] == b'-', "from the pattern, not \"string\": {shown}");
    assert!(shown.get("password").is_none(), "as the API answers it: {shown}");
}

// ---- Authorize once: the header's dialog and the list's padlocks ----

/// A document titled `title` (its credentials are kept under its title) with three schemes:
/// an API key the document asks for by default, a bearer token and OAuth 2.
fn locked_document(title: &str) -> serde_json::Value {
    let ok = serde_json::json!({"200": {"description": "ok"}});
    serde_json::json!({
        "openapi": "3.0.3",
        "info": {"title": title, "version": "1"},
        "servers": [{"url": "https://api.example/v1"}],
        "security": [{"key": []}],
        "paths": {
            "/keyed": {"get": {"operationId": "keyed", "responses": ok}},
            "/bearer": {"get": {"operationId": "bearer", "security": [{"jwt": []}], "responses": ok}},
            "/open": {"get": {"operationId": "open", "security": [], "responses": ok}},
            "/either": {"get": {"operationId": "either", "security": [{"jwt": []}, {}], "responses": ok}}
        },
        "components": {"securitySchemes": {
            "key": {"type": "apiKey", "in": "header", "name": "X-Key"},
            "jwt": {"type": "http", "scheme": "bearer", "bearerFormat": "JWT"},
            "oauth": {"type": "oauth2", "flows": {"clientCredentials": {"tokenUrl": "/token", "scopes": {}}}}
        }}
    })
}

/// Mounts the reference of `doc` as a loaded document (its credentials kept under its title).
fn mount_loaded(doc: serde_json::Value) -> HtmlElement {
    let catalog = Catalog::from_value(&doc).unwrap();
    let document = playground_openapi::document::AnyDocument::whole(doc);
    mount(move || view! { <Reference document=document catalog=catalog builtin=false /> }.into_any())
}

/// The access a row is marked with and the words of its padlock (none for an open one).
fn lock_of(root: &Element, id: &str) -> (String, String) {
    let row =
        root.query_selector(&format!("[data-testid=operation][data-operation-id={id}]")).unwrap().unwrap();
    let words = row
        .query_selector("[data-testid=op-lock] .visually-hidden")
        .unwrap()
        .map(|w| w.text_content().unwrap());
    (row.get_attribute("data-access").unwrap_or_default(), words.unwrap_or_default())
}

fn dialog(root: &Element) -> web_sys::HtmlDialogElement {
    root.query_selector("[data-testid=authorize-dialog]").unwrap().unwrap().unchecked_into()
}

#[wasm_bindgen_test]
async fn the_authorize_button_is_there_only_for_a_document_with_schemes() {
    set_hash("");
    let plain =
        mount_loaded(serde_json::json!({"openapi": "3.0.3", "info": {"title": "Plain", "version": "1"},
        "paths": {"/a": {"get": {"operationId": "a", "responses": {"200": {"description": "ok"}}}}}}));
    tick().await;
    assert!(plain.query_selector("[data-testid=authorize-button]").unwrap().is_none());
    assert!(plain.query_selector("[data-testid=authorize-dialog]").unwrap().is_none());
    assert_eq!(lock_of(&plain, "a"), ("open".to_owned(), String::new()), "no security, no padlock");

    let locked = mount_loaded(locked_document("Locked button"));
    tick().await;
    let button = locked.query_selector("[data-testid=authorize-button]").unwrap().unwrap();
    assert_eq!(button.text_content().unwrap(), "Authorize");
    assert_eq!(button.get_attribute("aria-haspopup").as_deref(), Some("dialog"));
    assert!(button.closest("header").unwrap().is_some(), "in the page's header");
    assert!(!dialog(&locked).open(), "closed until asked for");
}

#[wasm_bindgen_test]
async fn the_dialog_lists_every_scheme_and_what_it_fills_marks_the_list_and_the_panels() {
    set_hash("");
    let title = "Locked dialog";
    storage().remove_item(&format!("playground/auth/title:{title}")).unwrap();
    let root = mount_loaded(locked_document(title));
    tick().await;
    let needs = ("needs".to_owned(), "needs credentials".to_owned());
    let filled = ("filled".to_owned(), "credentials filled".to_owned());
    let open = ("open".to_owned(), String::new());
    assert_eq!(lock_of(&root, "keyed"), needs, "the document's security applies");
    assert_eq!(lock_of(&root, "bearer"), needs);
    assert_eq!(lock_of(&root, "open"), open, "security: [] needs nothing");
    assert_eq!(lock_of(&root, "either"), open, "an empty alternative: may go without");

    let button = root.query_selector("[data-testid=authorize-button]").unwrap().unwrap();
    button.unchecked_ref::<HtmlElement>().focus().unwrap();
    click(&root, "[data-testid=authorize-button]");
    assert!(dialog(&root).open());
    assert_eq!(
        dialog(&root)
            .get_attribute("aria-labelledby")
            .and_then(|id| web_sys::window()?.document()?.get_element_by_id(&id))
            .map(|h| h.text_content().unwrap()),
        Some("Authorize".to_owned())
    );
    wait_for(&root, "[data-testid=authorize-dialog] [data-testid=auth-scheme]").await;
    let schemes: Vec<String> = all(&root, "[data-testid=authorize-dialog] [data-testid=auth-scheme]")
        .iter()
        .map(|card| card.get_attribute("data-scheme").unwrap())
        .collect();
    assert_eq!(schemes, ["key", "jwt", "oauth"], "every scheme, in the document's order");

    input_value(&root, "[data-testid=authorize-dialog] [data-scheme=key] [data-part=key]", "k-dialog");
    until(|| lock_of(&root, "keyed") == filled).await;
    assert_eq!(lock_of(&root, "bearer"), needs, "another scheme's operation still needs its own");
    input_value(&root, "[data-testid=authorize-dialog] [data-scheme=jwt] [data-part=token]", "t-1");
    until(|| lock_of(&root, "either") == filled).await;
    assert_eq!(lock_of(&root, "bearer"), filled);

    click(&root, "[data-testid=authorize-close]");
    tick().await;
    assert!(!dialog(&root).open());
    let focused = web_sys::window().unwrap().document().unwrap().active_element();
    assert_eq!(focused.as_ref(), Some(&button), "focus is back on the button");

    // The operation's panel has what the dialog filled, and sends it.
    set_hash("keyed");
    wait_for(&root, "[data-operation-id=keyed] [data-testid=try-auth-status]").await;
    until(|| text(&root, "[data-operation-id=keyed] [data-testid=try-auth-status]") == "Sends key.").await;
    let panel_key: web_sys::HtmlInputElement = root
        .query_selector("[data-testid=operation-detail] [data-scheme=key] [data-part=key]")
        .unwrap()
        .unwrap()
        .unchecked_into();
    assert_eq!(panel_key.value(), "k-dialog");
    // And what the panel changes shows in the dialog and the list.
    input_value(&root, "[data-testid=operation-detail] [data-scheme=key] [data-part=key]", "");
    until(|| lock_of(&root, "keyed") == needs).await;
    let dialog_key: web_sys::HtmlInputElement = root
        .query_selector("[data-testid=authorize-dialog] [data-scheme=key] [data-part=key]")
        .unwrap()
        .unwrap()
        .unchecked_into();
    assert_eq!(dialog_key.value(), "");
    set_hash("");
}
