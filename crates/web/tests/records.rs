//! The saved mock's records layout on the host, over `MemoryStore`: what a write costs against
//! the size of the state, compaction, replay, damaged logs, earlier versions' saved states, a
//! full store, and two tabs writing at the same moment.
#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test, with its location

use std::rc::Rc;
use std::time::Duration;

use petstore::Mock;
use playground_http::Request;
use playground_web::Written;
use playground_web::layout::{GRACE_MS, Header, base_key, entry_key};
use playground_web::sync::{Saved, Stored};
use playground_web::{KeyValueStore, MemoryStore, Notice, PersistentMock};
use serde_json::json;

const KEY: &str = "test/records";

/// A Petstore snapshot holding `n` pets (as `bench/writes/curve.mjs` builds them).
fn state(n: u64) -> String {
    let pets: Vec<_> = (1..=n)
        .map(|id| json!({"id": id, "name": format!("Pet {id:010}"), "categoryId": 1 + id % 3, "status": "available"}))
        .collect();
    let stock: Vec<_> = (1..=n).map(|id| json!({"petId": id, "quantity": 0})).collect();
    json!({
        "version": 1,
        "nextIds": {"category": 4, "pet": n + 1, "order": 1},
        "categories": [
            {"id": 1, "name": "Dogs"}, {"id": 2, "name": "Cats"}, {"id": 3, "name": "Birds"}
        ],
        "pets": pets,
        "orders": [],
        "stock": stock,
    })
    .to_string()
}

fn create(mock: &PersistentMock, name: &str) -> u16 {
    mock.handle(&Request::new("POST", "/pets").json(&json!({"name": name, "categoryId": 1}))).status
}

fn header(store: &MemoryStore) -> Header {
    let text = store.get(KEY).unwrap().unwrap();
    let Stored::Records(header) = Stored::decode(&text).unwrap() else { panic!("not a header: {text}") };
    header
}

fn since(before: Written, store: &MemoryStore) -> Written {
    let now = store.written();
    Written { writes: now.writes - before.writes, chars: now.chars - before.chars }
}

/// A mock on `store` holding `n` pets, saved.
fn holding(store: &MemoryStore, n: u64) -> PersistentMock {
    let (mock, notice) = PersistentMock::with_store(store.clone(), KEY, false);
    assert_eq!(notice, None);
    mock.restore(&state(n)).unwrap();
    mock
}

#[test]
fn a_create_writes_the_same_few_keys_at_10_and_at_10_000_pets() {
    let mut costs = Vec::new();
    for n in [10, 10_000] {
        let store = MemoryStore::new();
        let mock = holding(&store, n);
        let before = store.written();
        assert_eq!(create(&mock, "Rex"), 201);
        let cost = since(before, &store);
        assert_eq!(cost.writes, 2, "one log entry and the header at {n} pets");
        costs.push(cost.chars);

        // A hundred more: still two writes each (no compaction at this size), and the
        // stored state is what the mock holds.
        let before = store.written();
        for i in 0..100 {
            assert_eq!(create(&mock, &format!("Pet {i}")), 201);
        }
        let cost = since(before, &store);
        assert_eq!(cost.writes, 200, "{n} pets");
        let (reopened, notice) = PersistentMock::with_store(store.clone(), KEY, false);
        assert_eq!(notice, None);
        assert_eq!(reopened.snapshot(), mock.snapshot(), "{n} pets");
    }
    // The header's numbers grow by a few digits; nothing else does.
    assert!(costs[1] <= costs[0] + 16, "characters per create: {costs:?}");
    assert!(costs[0] < 600, "characters per create: {costs:?}");
}

#[test]
fn the_log_is_folded_into_a_new_base_once_it_passes_half_the_base() {
    let store = MemoryStore::new();
    let mock = holding(&store, 2_000);
    let first = header(&store);
    let before = store.written();
    let mut creates = 0;
    while header(&store).base == first.base {
        assert_eq!(create(&mock, "A pet with a name long enough to fill the log a little faster"), 201);
        creates += 1;
        assert!(creates < 5_000, "never compacted: {:?}", header(&store));
    }
    let cost = since(before, &store);
    let compacted = header(&store);
    assert_eq!((compacted.entries, compacted.last), (0, None));
    assert!(compacted.base_size > first.base_size);
    // What the log cost plus one base, amortized: a few times a log entry per create.
    assert!(
        cost.chars / creates < 3 * compacted.base_size / creates + 1_000,
        "{cost:?} over {creates} creates"
    );
    // The replaced base and log are kept a moment (a tab writing on them at the same moment
    // must still find them), then removed by the first write after it.
    let replaced = compacted.replaced.clone().unwrap();
    assert_eq!(replaced.base, first.base);
    assert!(store.keys().contains(&base_key(KEY, &first.base)));
    assert_eq!(create(&mock, "Soon after"), 201);
    assert!(store.keys().contains(&base_key(KEY, &first.base)), "within the grace");
    std::thread::sleep(Duration::from_millis(GRACE_MS + 50));
    assert_eq!(create(&mock, "After"), 201);
    let now = header(&store);
    assert_eq!(now.replaced, None);
    assert_eq!(store.keys().len(), 4, "the header, the base and two entries: {:?}", store.keys());
    assert_eq!(now.entries, 2);
    let (reopened, _) = PersistentMock::with_store(store.clone(), KEY, false);
    assert_eq!(reopened.snapshot(), mock.snapshot());
}

#[test]
fn a_reload_replays_the_log_over_the_base_removals_and_all() {
    let store = MemoryStore::new();
    let (mock, _) = PersistentMock::with_store(store.clone(), KEY, true);
    for i in 0..20 {
        assert_eq!(create(&mock, &format!("Pet {i}")), 201);
    }
    assert_eq!(mock.handle(&Request::new("DELETE", "/pets/1")).status, 204);
    let renamed = json!({"name": "Renamed", "categoryId": 2, "status": "sold"});
    assert_eq!(mock.handle(&Request::new("PUT", "/pets/2").json(&renamed)).status, 200);
    assert_eq!(header(&store).entries, 21, "one base (the first create) and 21 entries");
    let (reopened, notice) = PersistentMock::with_store(store, KEY, true);
    assert_eq!(notice, None);
    assert_eq!(reopened.snapshot(), mock.snapshot());
    assert_eq!(reopened.handle(&Request::new("GET", "/pets/1")).status, 404);
}

#[test]
fn a_log_entry_without_its_header_is_ignored_and_a_missing_one_is_said() {
    let store = MemoryStore::new();
    let (mock, _) = PersistentMock::with_store(store.clone(), KEY, true);
    for i in 0..3 {
        assert_eq!(create(&mock, &format!("Pet {i}")), 201);
    }
    let saved = mock.snapshot();
    // A write that stopped after its log entry (the header still names the one before).
    let h = header(&store);
    store
        .set(
            &entry_key(KEY, "99.zz"),
            &format!(r#"{{"generation":99,"base":"{}","prev":null,"records":{{"pet:1":null}}}}"#, h.base),
        )
        .unwrap();
    let (reopened, notice) = PersistentMock::with_store(store.clone(), KEY, true);
    assert_eq!((reopened.snapshot(), notice), (saved, None));

    // An entry the header leads to is gone: the state cannot be read whole.
    let damaged = store.clone();
    damaged.remove(&entry_key(KEY, h.last.as_deref().unwrap())).unwrap();
    let (fresh, notice) = PersistentMock::with_store(damaged.clone(), KEY, true);
    let Some(Notice::StartedFresh { reason }) = notice else { panic!("{notice:?}") };
    assert!(reason.contains("is missing"), "{reason}");
    assert_eq!(fresh.counts(), Mock::seeded().counts());
    let initial = |seed: bool| if seed { Mock::seeded() } else { Mock::new() };
    let refused = PersistentMock::with_own_store_of(Rc::new(initial), MemoryStore::new(), KEY, true);
    assert!(refused.is_ok(), "an empty store opens");
    let store = MemoryStore::new();
    store.set(KEY, &Header::of_base(3, "3.gone".into(), 10).encode()).unwrap();
    let error = PersistentMock::with_own_store_of(Rc::new(initial), store.clone(), KEY, true).unwrap_err();
    assert!(error.contains("base") && error.contains("missing"), "{error}");
    assert_eq!(store.keys(), vec![KEY.to_owned()], "left as it was");
}

#[test]
fn an_earlier_version_s_saved_snapshot_is_read_and_replaced_at_the_first_write() {
    let store = MemoryStore::new();
    let mut earlier = Mock::seeded();
    earlier.handle(&Request::new("POST", "/pets").json(&json!({"name": "Old", "categoryId": 1})));
    store.set(KEY, &Saved { generation: 7, snapshot: &earlier.snapshot() }.encode()).unwrap();

    let (mock, notice) = PersistentMock::with_store(store.clone(), KEY, true);
    assert_eq!(notice, None);
    assert_eq!(mock.snapshot(), earlier.snapshot());
    assert_eq!(mock.generation(), 7);
    assert!(Saved::decode(&store.get(KEY).unwrap().unwrap()).is_ok(), "reads do not migrate");

    assert_eq!(create(&mock, "New"), 201);
    let migrated = header(&store);
    assert_eq!((migrated.generation, migrated.entries), (8, 0), "the first write is a base");
    let (reopened, notice) = PersistentMock::with_store(store, KEY, true);
    assert_eq!(notice, None);
    assert_eq!(reopened.snapshot(), mock.snapshot());
}

#[test]
fn a_store_too_full_for_a_new_base_keeps_the_log_and_one_too_full_for_an_entry_undoes_the_change() {
    let store = MemoryStore::new();
    let initial = |seed: bool| if seed { Mock::seeded() } else { Mock::new() };
    let mock = PersistentMock::with_own_store_of(Rc::new(initial), store.clone(), KEY, false).unwrap();
    mock.restore(&state(1_000)).unwrap();
    let used: usize = store.keys().iter().map(|k| k.len() + store.get(k).unwrap().unwrap().len()).sum();
    // Room for the log, not for a second base beside the first.
    store.set_quota(Some(used + used * 6 / 10));
    let base = header(&store).base;
    let mut created = 0;
    loop {
        if create(&mock, "A pet with a long enough name to fill the log") != 201 {
            break;
        }
        created += 1;
        assert!(created < 10_000);
    }
    assert_eq!(header(&store).base, base, "no compaction fitted");
    assert!(header(&store).compaction_due(), "{:?}", header(&store));
    let refused = mock.handle(&Request::new("POST", "/pets").json(&json!({"name": "Lost", "categoryId": 1})));
    assert_eq!(refused.status, 503);
    assert!(refused.json().unwrap()["message"].as_str().unwrap().contains("full"));
    assert_eq!(mock.counts().pets, 1_000 + created, "the refused change is undone");

    // With room again, compaction is tried once the log has grown by half again.
    store.set_quota(None);
    let mut more = 0;
    while header(&store).entries > 0 {
        assert_eq!(create(&mock, "A pet with a long enough name to fill the log"), 201);
        more += 1;
        assert!(more < created, "not compacted after {more} more writes");
    }
    let reopened = PersistentMock::with_own_store_of(Rc::new(initial), store, KEY, false).unwrap();
    assert_eq!(reopened.snapshot(), mock.snapshot());
}

#[test]
fn two_tabs_writing_at_the_same_moment_converge_on_one_and_the_other_is_told() {
    let store = MemoryStore::new();
    let (a, _) = PersistentMock::with_store(store.clone(), KEY, true);
    let (b, _) = PersistentMock::with_store(store.clone(), KEY, true);
    assert_eq!(create(&a, "First"), 201);
    let seen_by_a = store.get(KEY).unwrap().unwrap();
    assert_eq!(create(&b, "FromB"), 201);
    let written_by_b = store.get(KEY).unwrap().unwrap();

    // A writes before B's header reaches it (as a slow propagation between browser processes
    // allows): on the header it last saw, at the same generation as B.
    store.set(KEY, &seen_by_a).unwrap();
    assert_eq!(create(&a, "FromA"), 201);
    let lost = header(&store).last.unwrap();
    // Then B's header arrives, and stays.
    store.set(KEY, &written_by_b).unwrap();

    assert!(a.sync(), "A takes the stored state");
    assert_eq!(a.notices(), vec![Notice::Overwritten]);
    assert_eq!(a.snapshot(), b.snapshot(), "the tabs agree");
    assert!(!store.keys().contains(&entry_key(KEY, &lost)), "A's lost entry is removed");
    assert_eq!(create(&a, "Later"), 201);
    assert!(b.sync());
    assert_eq!(b.notices(), vec![]);
    let (c, _) = PersistentMock::with_store(store, KEY, true);
    assert_eq!(c.snapshot(), a.snapshot());
}

#[test]
fn bases_and_log_entries_round_trip_any_key_and_keep_the_records_texts() {
    use playground_web::layout::{decode_base, decode_entry, encode_base, encode_entry};
    let records = vec![
        ("meta".to_owned(), r#"{"version":1,"next":{"pet":3}}"#.to_owned()),
        (
            "item:[\"/todos\",\"\",\"a \\\"b\\\" é\"]".to_owned(),
            r#"{"title":"x\ny","n":[1,2.5e3]}"#.to_owned(),
        ),
        ("stock:2".to_owned(), "0".to_owned()),
    ];
    let base = decode_base(&encode_base(4, &records)).unwrap();
    assert_eq!(base.into_iter().collect::<Vec<_>>(), {
        let mut sorted = records.clone();
        sorted.sort();
        sorted
    });
    let changed = [("pet:7".to_owned(), Some(r#"{"id":7}"#.to_owned())), ("deleted:/x".to_owned(), None)];
    let text = encode_entry(9, "4.ab", Some("8.cd"), &changed.iter().cloned().collect());
    let entry = decode_entry(&text).unwrap();
    assert_eq!((entry.generation, entry.base.as_str(), entry.prev.as_deref()), (9, "4.ab", Some("8.cd")));
    let mut expected = changed.to_vec();
    expected.sort();
    assert_eq!(entry.records, expected);
    assert!(decode_entry("{").is_err() && decode_base(r#"{"records":[]}"#).is_err());
}

#[test]
fn a_tab_writing_on_the_log_another_tab_just_compacted_still_finds_it_whole() {
    let store = MemoryStore::new();
    let (a, _) = PersistentMock::with_store(store.clone(), KEY, false);
    let (b, _) = PersistentMock::with_store(store.clone(), KEY, false);
    a.restore(&state(200)).unwrap();
    // A writes until a write of its compacts the log; `before` is the header just before.
    let mut before = store.get(KEY).unwrap().unwrap();
    loop {
        assert_eq!(create(&a, "A pet with a name long enough to fill the log a little faster"), 201);
        let now = store.get(KEY).unwrap().unwrap();
        if header(&store).entries == 0 {
            break;
        }
        before = now;
    }
    // B had not seen that write: it writes on the log A just replaced, at the same generation.
    store.set(KEY, &before).unwrap();
    assert!(b.sync());
    assert_eq!(create(&b, "FromB"), 201);
    assert_eq!(header(&store).generation, a.generation(), "a write at the same moment");

    // B's header stays: A takes it (the replaced log is still there) and is told.
    assert!(a.sync());
    assert_eq!(a.notices(), vec![Notice::Overwritten]);
    assert_eq!(a.snapshot(), b.snapshot());
    let (c, notice) = PersistentMock::with_store(store.clone(), KEY, false);
    assert_eq!((c.snapshot(), notice), (b.snapshot(), None));
    // A's lost base is removed; B's next writes go on.
    let bases = store.keys().iter().filter(|k| k.contains("/base/")).count();
    assert_eq!(bases, 1, "{:?}", store.keys());
    assert_eq!(create(&a, "Later"), 201);
    assert!(b.sync());
    assert_eq!(b.notices(), vec![]);
}

#[test]
fn three_tabs_taking_turns_at_random_always_agree_with_a_reload() {
    let store = MemoryStore::new();
    let tabs: Vec<PersistentMock> =
        (0..3).map(|_| PersistentMock::with_store(store.clone(), KEY, true).0).collect();
    // A fixed pseudo-random sequence (xorshift), so a failure repeats.
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    let mut compactions = 0;
    let mut base = String::new();
    for step in 0..1_500 {
        let tab = &tabs[next(3) as usize];
        let id = 1 + next(40);
        let request = match next(4) {
            0 | 1 => Request::new("POST", "/pets")
                .json(&json!({"name": format!("Pet {step} with a longer name"), "categoryId": 1 + next(3)})),
            2 => Request::new("DELETE", format!("/pets/{id}")),
            _ => Request::new("PUT", format!("/pets/{id}"))
                .json(&json!({"name": format!("Renamed {step}"), "categoryId": 2, "status": "sold"})),
        };
        let status = tab.handle(&request).status;
        assert!(status < 500, "step {step}: {status}");
        if store.get(KEY).unwrap().is_none() {
            continue;
        }
        let now = header(&store).base;
        if now != base {
            compactions += 1;
            base = now;
        }
        if step % 100 == 99 {
            let (reloaded, notice) = PersistentMock::with_store(store.clone(), KEY, true);
            assert_eq!(notice, None, "step {step}");
            for (i, tab) in tabs.iter().enumerate() {
                assert_eq!(tab.snapshot(), reloaded.snapshot(), "step {step}: tab {i}");
                assert_eq!(tab.notices(), vec![], "step {step}: tab {i}");
            }
        }
    }
    assert!(compactions > 3, "{compactions} compactions");
}
