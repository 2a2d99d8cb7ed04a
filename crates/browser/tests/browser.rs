//! `localStorage` and downloads in headless Chromium: values round-trip, a full storage is told
//! apart from an unusable one, thrown values read as one line.
#![cfg(target_arch = "wasm32")]
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test, with its location

use playground_browser::{
    LocalStorage, StorageError, describe, download_json, get, move_legacy_keys, remove, set,
};
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn values_are_written_read_and_removed() {
    let key = "playground-browser-test/round-trip";
    remove(key).unwrap();
    assert_eq!(get(key).unwrap(), None);
    set(key, "one").unwrap();
    assert_eq!(get(key).unwrap().as_deref(), Some("one"));
    let storage = LocalStorage::open().unwrap();
    storage.set(key, "two").unwrap();
    assert_eq!(storage.get(key).unwrap().as_deref(), Some("two"));
    storage.remove(key).unwrap();
    assert_eq!(get(key).unwrap(), None);
    remove(key).unwrap();
}

#[wasm_bindgen_test]
fn a_value_over_the_quota_is_quota_exceeded_and_leaves_the_old_value() {
    let key = "playground-browser-test/quota";
    set(key, "small").unwrap();
    // Browsers give an origin about 5 MB (in UTF-16 code units); one value of 16 M is refused.
    let error = set(key, &"x".repeat(16 << 20)).unwrap_err();
    let StorageError::QuotaExceeded(said) = &error else { panic!("{error:?}") };
    assert!(said.contains("QuotaExceededError"), "{said}");
    assert!(error.to_string().starts_with("the browser's storage for this site is full"), "{error}");
    assert_eq!(get(key).unwrap().as_deref(), Some("small"));
    remove(key).unwrap();
}

#[wasm_bindgen_test]
fn thrown_values_read_as_one_line() {
    let full: JsValue =
        web_sys::DomException::new_with_message_and_name("no room", "QuotaExceededError").unwrap().into();
    assert_eq!(describe(&full), "QuotaExceededError: no room");
    let type_error: JsValue = js_sys::TypeError::new("not a function").into();
    assert_eq!(describe(&type_error), "TypeError: not a function");
    assert_eq!(describe(&JsValue::from_str("plain text")), "plain text");
    assert_eq!(describe(&JsValue::from(42)), "an unknown error");
}

#[wasm_bindgen_test]
fn a_download_is_offered() {
    download_json("petstore-browser-test.json", "{}").unwrap();
}

#[wasm_bindgen_test]
fn keys_under_the_earlier_prefix_move_under_the_new_one() {
    let storage = LocalStorage::open().unwrap();
    let (old_a, new_a) = ("petstore-playground/browser-test/a", "playground/browser-test/a");
    let (old_b, new_b) = ("petstore-playground/browser-test/b", "playground/browser-test/b");
    let other = "petstore-mock/browser-test";
    for key in [old_a, new_a, old_b, new_b, other] {
        storage.remove(key).unwrap();
    }
    storage.set(old_a, "saved before").unwrap();
    // A key already saved under its new name keeps the newer value.
    storage.set(old_b, "older").unwrap();
    storage.set(new_b, "newer").unwrap();
    storage.set(other, "not the page's").unwrap();

    assert_eq!(move_legacy_keys().unwrap(), 1);
    assert_eq!(get(new_a).unwrap().as_deref(), Some("saved before"));
    assert_eq!(get(old_a).unwrap(), None);
    assert_eq!(get(new_b).unwrap().as_deref(), Some("newer"));
    assert_eq!(get(old_b).unwrap(), None);
    assert_eq!(get(other).unwrap().as_deref(), Some("not the page's"));
    // Nothing is left to move.
    assert_eq!(move_legacy_keys().unwrap(), 0);
    for key in [new_a, new_b, other] {
        storage.remove(key).unwrap();
    }
}
