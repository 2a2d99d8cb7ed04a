//! `PersistentMock` on real `localStorage` in headless Chromium: persistence, unreadable
//! storage, two mocks on one key (two tabs), and `storage` events.
#![cfg(target_arch = "wasm32")]
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test, with its location

use std::cell::Cell;
use std::rc::Rc;

use petstore::Mock;
use playground_http::Request;
use playground_web::sync::{Saved, Stored};
use playground_web::{MockOptions, Notice, PersistentMock};
use serde_json::{Value, json};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn storage() -> web_sys::Storage {
    web_sys::window().unwrap().local_storage().unwrap().unwrap()
}

/// A key no other test uses, with nothing stored under it.
fn fresh_key(name: &str) -> String {
    let key = format!("petstore-web-test/{name}");
    storage().remove_item(&key).unwrap();
    key
}

fn open(key: &str) -> (PersistentMock, Option<Notice>) {
    PersistentMock::open(&MockOptions { seed: true, storage_key: Some(key.to_owned()) })
}

fn create_pet(mock: &PersistentMock, name: &str) -> Value {
    let created = mock.handle(&Request::new("POST", "/pets").json(&json!({"name": name, "categoryId": 1})));
    assert_eq!(created.status, 201, "{:?}", created.json());
    assert!(created.header_value("Location").unwrap().starts_with("/pets/"));
    created.json().unwrap()
}

fn pet_names(mock: &PersistentMock) -> Vec<String> {
    let listed = mock.handle(&Request::new("GET", "/pets?limit=100"));
    assert_eq!(listed.status, 200);
    let total: usize = listed.header_value("X-Total-Count").unwrap().parse().unwrap();
    let Value::Array(pets) = listed.json().unwrap() else { panic!("not an array") };
    assert_eq!(pets.len(), total);
    pets.iter().map(|p| p["name"].as_str().unwrap().to_owned()).collect()
}

#[wasm_bindgen_test]
fn the_state_survives_a_new_mock_on_the_same_key() {
    let key = fresh_key("survives");
    let (first, notice) = open(&key);
    assert_eq!(notice, None);
    assert_eq!(first.counts(), Mock::seeded().counts(), "seeded on first start");
    create_pet(&first, "Rex");
    drop(first);

    let saved = storage().get_item(&key).unwrap().unwrap();
    assert_eq!(Stored::decode(&saved).unwrap().generation(), 1);
    let (second, notice) = open(&key);
    assert_eq!(notice, None);
    assert!(pet_names(&second).contains(&"Rex".to_owned()));
    assert_eq!(second.counts().pets, Mock::seeded().counts().pets + 1);
}

/// The keys of `localStorage` that belong to the mock saved under `key`, in order.
fn keys_of(key: &str) -> Vec<String> {
    let storage = storage();
    let mut keys: Vec<String> = (0..storage.length().unwrap())
        .filter_map(|i| storage.key(i).unwrap())
        .filter(|k| k == key || k.starts_with(&format!("{key}/")))
        .collect();
    keys.sort();
    keys
}

#[wasm_bindgen_test]
fn a_create_adds_one_log_entry_beside_the_header_and_an_earlier_saved_state_is_read() {
    let key = fresh_key("records");
    let mut earlier = Mock::seeded();
    earlier.handle(&Request::new("POST", "/pets").json(&json!({"name": "Old", "categoryId": 1})));
    storage().set_item(&key, &Saved { generation: 4, snapshot: &earlier.snapshot() }.encode()).unwrap();
    let (mock, notice) = open(&key);
    assert_eq!(notice, None);
    assert!(pet_names(&mock).contains(&"Old".to_owned()));

    create_pet(&mock, "First");
    let after_first = keys_of(&key);
    assert_eq!(after_first.len(), 2, "the header and a base: {after_first:?}");
    create_pet(&mock, "Second");
    let after_second = keys_of(&key);
    assert_eq!(after_second.len(), 3, "one log entry more: {after_second:?}");
    assert!(after_second.iter().any(|k| k.starts_with(&format!("{key}/log/"))));

    // Reset writes a new base; the replaced base and log are kept a moment (for a tab writing
    // on them at the same moment).
    mock.reset(false).unwrap();
    assert_eq!(keys_of(&key).len(), 4, "{:?}", keys_of(&key));
    let (reopened, notice) = open(&key);
    assert_eq!((reopened.counts().pets, notice), (0, None));
}

#[wasm_bindgen_test]
fn unreadable_storage_starts_fresh_and_says_why() {
    for (name, text, says) in [
        ("garbage", "{not json".to_owned(), "not a saved mock"),
        ("version", Saved { generation: 3, snapshot: r#"{"version":42}"# }.encode(), "version 42"),
    ] {
        let key = fresh_key(name);
        storage().set_item(&key, &text).unwrap();
        let (mock, notice) = open(&key);
        let Some(Notice::StartedFresh { reason }) = notice else { panic!("{name}: {notice:?}") };
        assert!(reason.contains(says), "{name}: {reason}");
        assert_eq!(mock.counts(), Mock::seeded().counts());
        let replaced = storage().get_item(&key).unwrap().unwrap();
        assert!(Stored::decode(&replaced).is_ok(), "the unreadable value is replaced: {replaced}");
    }
}

#[wasm_bindgen_test]
fn two_mocks_on_one_key_never_lose_each_others_changes() {
    let key = fresh_key("two-tabs");
    let (a, _) = open(&key);
    let (b, _) = open(&key);
    let start = a.counts().pets;

    // Same page: no storage event reaches B. B re-reads storage before each change.
    create_pet(&a, "FromA");
    create_pet(&b, "FromB");
    create_pet(&a, "FromA2");
    for (tab, mock) in [("a", &a), ("b", &b)] {
        let names = pet_names(mock);
        for expected in ["FromA", "FromB", "FromA2"] {
            assert!(names.contains(&expected.to_owned()), "{tab} misses {expected}: {names:?}");
        }
        assert_eq!(mock.notices(), vec![], "{tab}");
    }
    let (c, _) = open(&key);
    assert_eq!(c.counts().pets, start + 3);
}

#[wasm_bindgen_test]
fn a_write_by_anyone_else_is_taken_in_before_the_next_request() {
    // The mock compares what storage holds with what it last read or wrote without reading
    // the text into WebAssembly; a write it did not make must still be seen.
    let key = fresh_key("other-writer");
    let (a, _) = open(&key);
    create_pet(&a, "Mine");
    assert!(pet_names(&a).contains(&"Mine".to_owned()), "unchanged storage: our own state");

    let mut theirs = Mock::seeded();
    let made =
        theirs.handle(&Request::new("POST", "/pets").json(&json!({"name": "Theirs", "categoryId": 1})));
    assert_eq!(made.status, 201);
    let text = Saved { generation: 10, snapshot: &theirs.snapshot() }.encode();
    storage().set_item(&key, &text).unwrap();

    let names = pet_names(&a);
    assert!(names.contains(&"Theirs".to_owned()), "{names:?}");
    assert!(!names.contains(&"Mine".to_owned()), "{names:?}");
    create_pet(&a, "After");
    let saved = storage().get_item(&key).unwrap().unwrap();
    assert_eq!(Stored::decode(&saved).unwrap().generation(), 11, "the next write follows theirs");
}

#[wasm_bindgen_test]
fn a_storage_event_for_the_key_brings_the_other_tabs_state_in_at_once() {
    let key = fresh_key("event");
    let (a, _) = open(&key);
    let (b, _) = open(&key);
    let heard = Rc::new(Cell::new(0));
    {
        let heard = Rc::clone(&heard);
        b.subscribe(move |_| heard.set(heard.get() + 1));
    }
    create_pet(&a, "FromA");
    assert_eq!(heard.get(), 0, "B has not looked yet");

    // What the browser dispatches in other tabs after A's write.
    let init = web_sys::StorageEventInit::new();
    init.set_key(Some(&key));
    init.set_storage_area(Some(&storage()));
    let event = web_sys::StorageEvent::new_with_event_init_dict("storage", &init).unwrap();
    web_sys::window().unwrap().dispatch_event(&event).unwrap();

    assert_eq!(heard.get(), 1);
    assert_eq!(b.counts(), a.counts(), "B took A's state without a request");

    // An event for another key is ignored.
    let other = web_sys::StorageEventInit::new();
    other.set_key(Some("someone-else"));
    let event = web_sys::StorageEvent::new_with_event_init_dict("storage", &other).unwrap();
    web_sys::window().unwrap().dispatch_event(&event).unwrap();
    assert_eq!(heard.get(), 1);
}

#[wasm_bindgen_test]
fn a_dropped_mock_stops_listening() {
    let key = fresh_key("dropped");
    let (a, _) = open(&key);
    let (b, _) = open(&key);
    drop(b);
    create_pet(&a, "FromA");
    let init = web_sys::StorageEventInit::new();
    init.set_key(Some(&key));
    let event = web_sys::StorageEvent::new_with_event_init_dict("storage", &init).unwrap();
    // No panic, no access to a dropped mock.
    web_sys::window().unwrap().dispatch_event(event.unchecked_ref()).unwrap();
}

#[wasm_bindgen_test]
fn without_a_key_nothing_is_stored() {
    let before = storage().length().unwrap();
    let (mock, notice) = PersistentMock::open(&MockOptions { seed: false, storage_key: None });
    assert_eq!(notice, None);
    mock.handle(&Request::new("POST", "/categories").json(&json!({"name": "Fish"})));
    assert_eq!(mock.counts().categories, 1);
    assert_eq!(storage().length().unwrap(), before);
}

#[wasm_bindgen_test]
fn watched_storage_knows_its_own_write_and_sees_anyone_elses() {
    use playground_web::store::{KeyValueStore, WatchedStorage};
    let key = fresh_key("watched");
    let watched = WatchedStorage::new(playground_web::LocalStorage::open().unwrap(), key.clone());
    assert!(!watched.unchanged(&key), "nothing read or written yet");
    watched.set(&key, "ours: é, 🐕").unwrap();
    assert_eq!(storage().get_item(&key).unwrap().as_deref(), Some("ours: é, 🐕"));
    assert!(watched.unchanged(&key), "its own write, without reading it back");
    storage().set_item(&key, "theirs").unwrap();
    assert!(!watched.unchanged(&key), "another writer");
    assert_eq!(watched.get(&key).unwrap().as_deref(), Some("theirs"));
    assert!(watched.unchanged(&key));
    assert!(!watched.unchanged("petstore-web-test/another-key"), "another key is not known");
    watched.set(&format!("{key}/log/1"), "an entry").unwrap();
    assert!(watched.unchanged(&key), "writes of other keys do not hide the watched one");
}
