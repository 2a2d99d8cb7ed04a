//! Browser tests (wasm-bindgen-test in headless Chromium): mount the app into a fresh element
//! and read what it rendered.
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test, with its location
#![cfg(target_arch = "wasm32")]

use leptos::prelude::*;
use petstore_core::Catalog;
use petstore_core::openapi::PETSTORE_JSON;
use petstore_playground::App;
use petstore_playground::ui::reference::Reference;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement};

wasm_bindgen_test_configure!(run_in_browser);

fn mount(f: impl FnOnce() -> AnyView + 'static) -> HtmlElement {
    let document = web_sys::window().unwrap().document().unwrap();
    let root: HtmlElement = document.create_element("div").unwrap().unchecked_into();
    document.body().unwrap().append_child(&root).unwrap();
    leptos::mount::mount_to(root.clone(), f).forget();
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
    let root = mount(|| view! { <App /> }.into_any());
    assert_eq!(text(&root, "[data-testid=doc-title]"), "Petstore API");
    assert_eq!(text(&root, "[data-testid=doc-version]"), "v1.0.0");
    assert_eq!(text(&root, "[data-testid=op-count]"), "18 operations");

    let groups: Vec<_> =
        all(&root, "[data-testid=group]").iter().map(|g| g.get_attribute("data-group").unwrap()).collect();
    assert_eq!(groups, ["Pets", "Store"]);
    let pets = root.query_selector("[data-group=Pets]").unwrap().unwrap();
    let tags: Vec<_> =
        all(&pets, "[data-testid=tag]").iter().map(|t| t.get_attribute("data-tag").unwrap()).collect();
    assert_eq!(tags, ["Animals", "Categories"]);
    assert_eq!(all(&root, "[data-testid=operation]").len(), 18);
}

#[wasm_bindgen_test]
fn operation_rows_carry_method_path_and_markers() {
    let root = mount(|| view! { <App /> }.into_any());
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
    let doc = br#"{"openapi":"3.0.0","info":{"title":"Other","version":"9"},
        "paths":{"/pet":{"get":{"tags":["pet"],"summary":"Find"}}}}"#;
    let catalog = Catalog::from_json(doc).unwrap();
    let root = mount(move || view! { <Reference catalog=catalog /> }.into_any());
    assert_eq!(all(&root, "[data-testid=group]").len(), 1);
    assert!(root.query_selector(".tag-name").unwrap().is_none());
    assert_eq!(text(&root, ".operation .summary"), "Find");
}

#[wasm_bindgen_test]
fn the_core_reads_the_embedded_document_on_wasm32() {
    let catalog = Catalog::from_json(PETSTORE_JSON.as_bytes()).unwrap();
    assert_eq!(catalog.operation_count(), 18);
    let api = petstore_core::openapi::petstore_document().unwrap();
    assert_eq!(api.paths.paths.len(), 9);
}
