//! A full `localStorage` (its own test binary, so its own browser session: the filler never
//! reaches other tests). Writes throw `QuotaExceededError`; the mock keeps the change in
//! memory, says it is not being saved, and saves again once there is room.
#![cfg(target_arch = "wasm32")]
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test, with its location

use playground_http::Request;
use playground_web::sync::Stored;
use playground_web::{MockOptions, Notice, PersistentMock};
use serde_json::json;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const KEY: &str = "petstore-web-test/quota";

fn storage() -> web_sys::Storage {
    web_sys::window().unwrap().local_storage().unwrap().unwrap()
}

/// Fills storage until even a short write fails; returns the filler keys.
fn fill() -> Vec<String> {
    let storage = storage();
    let mut keys = Vec::new();
    for size in [1 << 20, 1 << 16, 1 << 12, 1 << 8, 1 << 4, 1] {
        let chunk = "x".repeat(size);
        loop {
            let key = format!("filler/{}", keys.len());
            if storage.set_item(&key, &chunk).is_err() {
                break;
            }
            keys.push(key);
        }
    }
    keys
}

fn create(mock: &PersistentMock, name: &str) {
    let created = mock.handle(&Request::new("POST", "/pets").json(&json!({"name": name, "categoryId": 1})));
    assert_eq!(created.status, 201);
}

#[wasm_bindgen_test]
fn a_full_storage_keeps_changes_in_memory_says_so_and_retries() {
    storage().remove_item(KEY).unwrap();
    let (mock, _) = PersistentMock::open(&MockOptions { seed: true, storage_key: Some(KEY.into()) });
    create(&mock, "Saved");
    let saved = storage().get_item(KEY).unwrap();

    let filler = fill();
    assert!(!filler.is_empty());
    create(&mock, "InMemory");
    let notices = mock.notices();
    let [Notice::NotSaved { reason }] = notices.as_slice() else { panic!("{notices:?}") };
    assert!(reason.contains("QuotaExceededError"), "{reason}");
    assert_eq!(storage().get_item(KEY).unwrap(), saved, "the last saved state is intact");
    let count = mock.counts().pets;

    for key in &filler {
        storage().remove_item(key).unwrap();
    }
    create(&mock, "Later");
    assert_eq!(mock.notices(), vec![], "saved again on the next change");
    let stored = storage().get_item(KEY).unwrap().unwrap();
    assert_eq!(Stored::decode(&stored).unwrap().generation(), 2);

    let (reopened, _) = PersistentMock::open(&MockOptions { seed: true, storage_key: Some(KEY.into()) });
    assert_eq!(reopened.counts().pets, count + 1, "the in-memory change was saved with the next one");
}
