//! `PersistentMock` on the host, with `MemoryStore` standing in for `localStorage` (clones of
//! one store are two tabs of one origin).
#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test, with its location

use std::cell::Cell;
use std::rc::Rc;

use petstore::Mock;
use playground_http::Request;
use playground_web::sync::{Saved, Stored};
use playground_web::{KeyValueStore, MemoryStore, Notice, PersistentMock};
use serde_json::{Value, json};

const KEY: &str = "test/mock";

fn create_pet(mock: &PersistentMock, name: &str) -> i64 {
    let created = mock.handle(&Request::new("POST", "/pets").json(&json!({"name": name, "categoryId": 1})));
    assert_eq!(created.status, 201, "{:?}", created.json());
    created.json().unwrap()["id"].as_i64().unwrap()
}

fn pet_names(mock: &PersistentMock) -> Vec<String> {
    let listed = mock.handle(&Request::new("GET", "/pets?limit=100"));
    assert_eq!(listed.status, 200);
    let Value::Array(pets) = listed.json().unwrap() else { panic!("not an array") };
    pets.iter().map(|p| p["name"].as_str().unwrap().to_owned()).collect()
}

#[test]
fn a_new_mock_on_the_same_key_finds_the_saved_state() {
    let store = MemoryStore::new();
    let (first, notice) = PersistentMock::with_store(store.clone(), KEY, true);
    assert_eq!(notice, None);
    let seeded = first.counts();
    assert!(seeded.pets > 0 && seeded.categories > 0, "the demo data: {seeded:?}");
    assert_eq!(store.get(KEY).unwrap(), None, "nothing is written before a change");

    create_pet(&first, "Rex");
    assert_eq!(first.generation(), 1);
    let saved = store.get(KEY).unwrap().unwrap();
    assert_eq!(Stored::decode(&saved).unwrap().generation(), 1);

    let (second, notice) = PersistentMock::with_store(store, KEY, true);
    assert_eq!(notice, None);
    assert!(pet_names(&second).contains(&"Rex".to_owned()));
    assert_eq!(second.counts().pets, seeded.pets + 1);
    assert_eq!(second.generation(), 1);
}

#[test]
fn reads_do_not_write() {
    let store = MemoryStore::new();
    let (mock, _) = PersistentMock::with_store(store.clone(), KEY, true);
    create_pet(&mock, "Rex");
    let saved = store.get(KEY).unwrap();
    pet_names(&mock);
    assert_eq!(mock.handle(&Request::new("GET", "/pets/999999")).status, 404);
    assert_eq!(store.get(KEY).unwrap(), saved);
    assert_eq!(mock.generation(), 1);
}

#[test]
fn unreadable_storage_starts_fresh_says_why_and_is_replaced() {
    let other_version = Saved { generation: 4, snapshot: r#"{"version":99}"# }.encode();
    let mut inconsistent: Value = serde_json::from_str(&Mock::seeded().snapshot()).unwrap();
    inconsistent["pets"][0]["categoryId"] = json!(424242);
    let inconsistent = Saved { generation: 2, snapshot: &inconsistent.to_string() }.encode();
    let cases = [
        ("not json at all", "not a saved mock ("),
        (r#"{"generation":1}"#, "not a saved mock ("),
        (&other_version, "version 99"),
        (&inconsistent, "inconsistent"),
    ];
    for (text, says) in cases {
        let store = MemoryStore::new();
        store.set(KEY, text).unwrap();
        let (mock, notice) = PersistentMock::with_store(store.clone(), KEY, true);
        let Some(Notice::StartedFresh { reason }) = notice.clone() else { panic!("{text}: {notice:?}") };
        assert!(reason.contains(says), "{text}: {reason}");
        assert_eq!(mock.counts(), Mock::seeded().counts(), "fresh demo data");
        assert_eq!(mock.notices(), vec![notice.clone().unwrap()]);
        assert!(notice.unwrap().to_string().starts_with("The saved mock data could not be read"));

        // Replaced at once, so the next start is clean.
        let (again, notice) = PersistentMock::with_store(store, KEY, true);
        assert_eq!(notice, None, "{text}");
        assert_eq!(again.counts(), mock.counts());
    }
}

#[test]
fn the_notice_from_opening_can_be_dismissed() {
    let store = MemoryStore::new();
    store.set(KEY, "garbage").unwrap();
    let (mock, _) = PersistentMock::with_store(store, KEY, true);
    assert_eq!(mock.notices().len(), 1);
    mock.dismiss_notices();
    assert_eq!(mock.notices(), vec![]);
}

#[test]
fn a_full_store_keeps_changes_in_memory_says_so_and_retries_on_the_next_change() {
    let store = MemoryStore::new();
    let (mock, _) = PersistentMock::with_store(store.clone(), KEY, true);
    create_pet(&mock, "Saved");
    let saved = store.get(KEY).unwrap();

    store.set_quota(Some(10));
    create_pet(&mock, "Unsaved");
    assert!(pet_names(&mock).contains(&"Unsaved".to_owned()), "the change is kept in memory");
    assert_eq!(store.get(KEY).unwrap(), saved, "storage still holds the last good state");
    let notices = mock.notices();
    let [Notice::NotSaved { reason }] = notices.as_slice() else { panic!("{notices:?}") };
    assert!(reason.contains("full"), "{reason}");
    assert!(notices[0].to_string().starts_with("Changes to the mock are not being saved"));
    // A read does not clear it: nothing was saved.
    pet_names(&mock);
    assert_eq!(mock.notices().len(), 1);

    store.set_quota(None);
    create_pet(&mock, "Later");
    assert_eq!(mock.notices(), vec![], "saved again");
    let (reopened, _) = PersistentMock::with_store(store, KEY, true);
    let names = pet_names(&reopened);
    assert!(names.contains(&"Unsaved".to_owned()) && names.contains(&"Later".to_owned()), "{names:?}");
}

#[test]
fn two_tabs_on_one_key_see_each_others_changes_before_writing() {
    let store = MemoryStore::new();
    let (a, _) = PersistentMock::with_store(store.clone(), KEY, true);
    let (b, _) = PersistentMock::with_store(store.clone(), KEY, true);
    let start = a.counts().pets;

    create_pet(&a, "FromA");
    // B has not synced yet; its next request first takes A's write, then makes its own change.
    create_pet(&b, "FromB");
    create_pet(&a, "FromA2");

    for (name, tab) in [("a", &a), ("b", &b)] {
        let names = pet_names(tab);
        for expected in ["FromA", "FromB", "FromA2"] {
            assert!(names.contains(&expected.to_owned()), "tab {name} misses {expected}: {names:?}");
        }
        assert_eq!(tab.counts().pets, start + 3, "tab {name}");
        assert_eq!(tab.notices(), vec![], "tab {name}: nothing was lost");
    }
    assert_eq!(a.generation(), 3);
    let (c, _) = PersistentMock::with_store(store, KEY, true);
    assert_eq!(c.counts().pets, start + 3);
}

#[test]
fn ids_stay_unique_across_tabs() {
    let store = MemoryStore::new();
    let (a, _) = PersistentMock::with_store(store.clone(), KEY, true);
    let (b, _) = PersistentMock::with_store(store, KEY, true);
    let first = create_pet(&a, "One");
    let second = create_pet(&b, "Two");
    assert!(second > first, "B took A's state (and its next id) before creating: {first} {second}");
}

#[test]
fn a_write_that_never_saw_ours_replaces_it_and_we_are_told() {
    // Two tabs write at the same moment: both at generation 1, on the same state. The store
    // keeps the last; the tab whose write was replaced takes it and shows Overwritten.
    let store = MemoryStore::new();
    let (a, _) = PersistentMock::with_store(store.clone(), KEY, true);
    create_pet(&a, "FromA");
    assert_eq!(a.generation(), 1);

    // Another tab that started before A wrote and wrote without seeing it (as a slow storage
    // propagation between browser processes allows): generation 1 again.
    let mut other = Mock::seeded();
    other.handle(&Request::new("POST", "/pets").json(&json!({"name": "FromOther", "categoryId": 1})));
    store.set(KEY, &Saved { generation: 1, snapshot: &other.snapshot() }.encode()).unwrap();

    assert!(a.sync(), "A takes the stored state");
    let names = pet_names(&a);
    assert!(names.contains(&"FromOther".to_owned()) && !names.contains(&"FromA".to_owned()), "{names:?}");
    assert_eq!(a.notices(), vec![Notice::Overwritten]);
    assert!(Notice::Overwritten.to_string().contains("Another tab changed the mock at the same moment"));

    // A newer write built on what A has is not a conflict.
    a.dismiss_notices();
    let (b, _) = PersistentMock::with_store(store, KEY, true);
    create_pet(&b, "FromB");
    assert!(a.sync());
    assert_eq!(a.notices(), vec![]);
}

#[test]
fn subscribers_hear_of_local_and_other_tabs_changes_but_not_of_reads() {
    let store = MemoryStore::new();
    let (a, _) = PersistentMock::with_store(store.clone(), KEY, true);
    let (b, _) = PersistentMock::with_store(store, KEY, true);
    let heard = Rc::new(Cell::new(0));
    let subscription = {
        let heard = Rc::clone(&heard);
        // A subscriber may read the mock it listens to.
        a.subscribe(move |mock| {
            let _ = mock.counts();
            heard.set(heard.get() + 1);
        })
    };

    pet_names(&a);
    assert_eq!(heard.get(), 0, "a read");
    create_pet(&a, "Local");
    assert_eq!(heard.get(), 1);
    create_pet(&b, "Remote");
    assert!(a.sync());
    assert_eq!(heard.get(), 2);
    assert!(!a.sync(), "nothing new");
    assert_eq!(heard.get(), 2);

    a.unsubscribe(subscription);
    create_pet(&a, "Unheard");
    assert_eq!(heard.get(), 2);
}

#[test]
fn reset_and_restore_are_changes_that_are_saved_and_seen_by_other_tabs() {
    let store = MemoryStore::new();
    let (a, _) = PersistentMock::with_store(store.clone(), KEY, true);
    let (b, _) = PersistentMock::with_store(store, KEY, true);
    create_pet(&a, "Rex");

    b.reset(false).unwrap();
    assert_eq!(a.snapshot(), Mock::new().snapshot(), "A reads B's reset before answering");
    assert_eq!(a.counts().pets, 0);

    a.reset_to_initial().unwrap();
    assert_eq!(b.snapshot(), Mock::seeded().snapshot());

    let empty = Mock::new().snapshot();
    a.restore(&empty).unwrap();
    assert_eq!(b.snapshot(), empty);

    let error = a.restore("{}").unwrap_err();
    assert!(error.to_string().contains("not a mock snapshot"), "{error}");
    assert_eq!(b.snapshot(), empty, "a refused restore changes nothing");
}

#[test]
fn garbage_written_by_someone_else_is_kept_out_and_replaced_by_the_next_change() {
    let store = MemoryStore::new();
    let (a, _) = PersistentMock::with_store(store.clone(), KEY, true);
    create_pet(&a, "Rex");
    store.set(KEY, "garbage").unwrap();
    assert!(!a.sync());
    assert!(pet_names(&a).contains(&"Rex".to_owned()));
    create_pet(&a, "Max");
    let saved = store.get(KEY).unwrap().unwrap();
    assert_eq!(Stored::decode(&saved).unwrap().generation(), 2);

    // Removing the key (a cleared storage) keeps the state too.
    store.remove(KEY).unwrap();
    assert!(!a.sync());
    assert_eq!(pet_names(&a).len(), Mock::seeded().counts().pets + 2);
}

#[test]
fn outside_the_browser_open_keeps_the_mock_in_memory_and_says_so() {
    use playground_web::MockOptions;
    let (mock, notice) = PersistentMock::open(&MockOptions { seed: true, storage_key: Some(KEY.into()) });
    assert!(matches!(notice, Some(Notice::StorageUnavailable { .. })), "{notice:?}");
    assert_eq!(mock.notices(), vec![notice.unwrap()]);
    assert_eq!(mock.storage_key(), None);
    let (mock, notice) = PersistentMock::open(&MockOptions { seed: false, storage_key: None });
    assert_eq!((mock.counts().pets, notice), (0, None));
}

#[test]
fn an_in_memory_mock_writes_nowhere_and_has_nothing_to_report() {
    let mock = PersistentMock::in_memory(false);
    assert_eq!(mock.counts().pets, 0);
    assert_eq!(mock.storage_key(), None);
    mock.handle(&Request::new("POST", "/categories").json(&json!({"name": "Fish"})));
    assert_eq!(mock.counts().categories, 1);
    assert_eq!(mock.notices(), vec![]);
    assert_eq!(mock.generation(), 0);
}

#[test]
fn bad_requests_are_answered_not_panicked_on() {
    let (mock, _) = PersistentMock::with_store(MemoryStore::new(), KEY, true);
    for request in [
        Request::new("POST", "/pets").header("Content-Type", "application/json").body("{"),
        Request::new("BREW", "/pets"),
        Request::new("GET", "http://x/\u{0}"),
        Request::new("", ""),
    ] {
        let response = mock.handle(&request);
        assert!(response.status >= 400, "{request:?} -> {}", response.status);
    }
    assert_eq!(mock.generation(), 0, "failed requests change nothing");
}

#[test]
fn notices_cross_to_the_page_with_their_kind_and_sentence() {
    use playground_mock::{MockNotice, NoticeKind};
    let cases = [
        (Notice::StartedFresh { reason: "not JSON".into() }, NoticeKind::StartedFresh, false),
        (Notice::StorageUnavailable { reason: "disabled".into() }, NoticeKind::StorageUnavailable, true),
        (Notice::NotSaved { reason: "full".into() }, NoticeKind::NotSaved, true),
        (Notice::Overwritten, NoticeKind::Overwritten, false),
    ];
    for (notice, kind, problem) in cases {
        let shown = MockNotice::from(&notice);
        assert_eq!(shown, MockNotice { kind, message: notice.to_string() });
        assert_eq!(notice.is_problem(), problem, "{notice:?}");
        assert_eq!(shown.is_problem(), problem, "{notice:?}");
    }
}

/// A Petstore mock on a store the caller relies on (`with_own_store_of`).
fn own_store(store: &MemoryStore) -> Result<PersistentMock, String> {
    let initial = |seed: bool| if seed { Mock::seeded() } else { Mock::new() };
    PersistentMock::with_own_store_of(Rc::new(initial), store.clone(), KEY, true)
}

#[test]
fn an_own_store_that_refuses_a_write_gets_the_change_undone_and_a_503() {
    let store = MemoryStore::new();
    let mock = own_store(&store).unwrap();
    create_pet(&mock, "Saved");
    let saved = store.get(KEY).unwrap();

    store.set_quota(Some(10));
    let refused = mock.handle(&Request::new("POST", "/pets").json(&json!({"name": "Lost", "categoryId": 1})));
    assert_eq!(refused.status, 503);
    let body = refused.json().unwrap();
    assert_eq!(body["code"], "state_not_saved");
    let message = body["message"].as_str().unwrap();
    assert!(
        message.starts_with("The change was not made: the mock's state could not be saved (")
            && message.contains("full"),
        "{message}"
    );
    assert!(!pet_names(&mock).contains(&"Lost".to_owned()), "the change is undone");
    assert_eq!(store.get(KEY).unwrap(), saved);
    assert_eq!(mock.notices(), vec![], "nothing is kept unsaved, so nothing to say");

    // The timed path (fetch) answers the same; reset and restore say so too.
    let timed = mock.handle_timed(&Request::new("DELETE", "/pets/1"));
    assert_eq!(timed.response.status, 503);
    let refused = mock.reset(false).unwrap_err();
    assert!(refused.contains("full"), "{refused}");
    let snapshot = PersistentMock::in_memory(false).snapshot();
    let error = mock.restore(&snapshot).unwrap_err().to_string();
    assert!(error.starts_with("The state was not replaced: it could not be saved ("), "{error}");
    assert!(pet_names(&mock).contains(&"Saved".to_owned()), "both undone");
    assert_eq!(mock.handle(&Request::new("GET", "/pets/1")).status, 200);
    store.set_quota(None);
    create_pet(&mock, "Later");
    let names = pet_names(&own_store(&store).unwrap());
    assert!(names.contains(&"Saved".to_owned()) && names.contains(&"Later".to_owned()), "{names:?}");
    assert!(!names.contains(&"Lost".to_owned()), "{names:?}");
}

#[test]
fn an_own_store_holding_what_cannot_be_read_is_refused_not_replaced() {
    let store = MemoryStore::new();
    store.set(KEY, "not a saved mock").unwrap();
    let error = own_store(&store).unwrap_err();
    assert!(error.contains("not a saved mock ("), "{error}");
    assert!(!error.contains("Petstore"), "{error}");
    assert_eq!(store.get(KEY).unwrap().as_deref(), Some("not a saved mock"), "left as it was");

    // Empty: the initial data, saved at the first change.
    let empty = MemoryStore::new();
    let mock = own_store(&empty).unwrap();
    assert_eq!(empty.get(KEY).unwrap(), None);
    create_pet(&mock, "First");
    assert!(empty.get(KEY).unwrap().is_some());
}
