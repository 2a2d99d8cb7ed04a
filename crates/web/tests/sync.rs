//! The storage decisions as plain functions: the envelope, what a start finds, and whether
//! another tab's write is taken and reported.
#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test, with its location

use petstore_web::sync::{Local, Saved, Start, Sync, next_generation, start, sync};

const SNAPSHOT: &str = r#"{"version":1,"pets":[]}"#;

fn stored(generation: u64, snapshot: &str) -> String {
    Saved { generation, snapshot }.encode()
}

#[test]
fn the_envelope_round_trips_and_embeds_the_snapshot_as_json() {
    let text = stored(7, SNAPSHOT);
    assert_eq!(text, r#"{"generation":7,"snapshot":{"version":1,"pets":[]}}"#);
    assert_eq!(Saved::decode(&text), Ok(Saved { generation: 7, snapshot: SNAPSHOT }));
}

#[test]
fn the_mock_s_own_snapshots_are_wrapped_as_encode_wraps_them() {
    let mut mock = petstore::mock::Mock::seeded();
    let snapshot = mock.snapshot();
    assert_eq!(Saved { generation: 12, snapshot: &snapshot }.encode_own(), stored(12, &snapshot));
    let body = serde_json::json!({"name": "Nib \"the\" \u{e9}l\u{e8}ve \u{1f408}", "categoryId": 1});
    let created = mock.handle(&petstore_http::Request::new("POST", "/pets").json(&body));
    assert_eq!(created.status, 201, "{:?}", String::from_utf8_lossy(&created.body));
    let snapshot = mock.snapshot();
    let text = Saved { generation: 13, snapshot: &snapshot }.encode_own();
    assert_eq!(text, stored(13, &snapshot));
    assert_eq!(Saved::decode(&text), Ok(Saved { generation: 13, snapshot: &snapshot }));
    // An empty snapshot (none the mock writes) is still stored as one the mock will refuse.
    assert_eq!(Saved { generation: 1, snapshot: "" }.encode_own(), stored(1, ""));
}

#[test]
fn a_snapshot_that_is_not_json_is_stored_as_a_string_the_mock_will_refuse() {
    let text = stored(1, "not json");
    assert_eq!(Saved::decode(&text).unwrap().snapshot, r#""not json""#);
}

#[test]
fn text_that_is_not_an_envelope_is_refused_with_a_sentence() {
    for text in ["", "{", "[]", r#"{"generation":-1,"snapshot":{}}"#, r#"{"snapshot":{}}"#, "null"] {
        let reason = Saved::decode(text).unwrap_err();
        assert!(reason.starts_with("The saved value is not a saved Petstore mock"), "{text}: {reason}");
    }
}

#[test]
fn start_classifies_what_storage_holds() {
    assert_eq!(start(None), Start::Empty);
    let text = stored(3, SNAPSHOT);
    assert_eq!(start(Some(&text)), Start::Saved(Saved { generation: 3, snapshot: SNAPSHOT }));
    assert!(matches!(start(Some("garbage")), Start::Unreadable { .. }));
}

fn local(generation: u64, seen: Option<&str>, wrote_seen: bool, unsaved: bool) -> Local {
    Local { generation, seen: seen.map(str::to_owned), wrote_seen, unsaved }
}

fn adopt(text: &str, discards_ours: bool) -> Sync<'_> {
    Sync::Adopt { saved: Saved::decode(text).unwrap(), discards_ours }
}

#[test]
fn sync_decisions() {
    let ours = stored(5, SNAPSHOT);
    let newer = stored(6, r#"{"version":1,"pets":[1]}"#);
    let same_generation = stored(5, r#"{"version":1,"pets":[2]}"#);
    let older = stored(4, r#"{"version":1,"pets":[3]}"#);

    // (what we know, what storage holds, decision)
    let cases: Vec<(Local, Option<&str>, Sync<'_>)> = vec![
        // Nothing stored, or what we last saw: keep ours.
        (local(5, Some(&ours), true, false), None, Sync::UpToDate),
        (local(5, Some(&ours), true, false), Some(&ours), Sync::UpToDate),
        (local(0, None, false, false), None, Sync::UpToDate),
        // Another tab wrote on top of our write: take it, nothing of ours is lost.
        (local(5, Some(&ours), true, false), Some(&newer), adopt(&newer, false)),
        // A write at the same or a lower generation never saw our write: take it, and say so.
        (local(5, Some(&ours), true, false), Some(&same_generation), adopt(&same_generation, true)),
        (local(5, Some(&ours), true, false), Some(&older), adopt(&older, true)),
        // We only read generation 5: a racing write between two other tabs costs us nothing.
        (local(5, Some(&ours), false, false), Some(&same_generation), adopt(&same_generation, false)),
        // We had a change we could not save: taking another tab's state discards it.
        (local(5, Some(&ours), true, true), Some(&newer), adopt(&newer, true)),
        // First write from another tab while we started empty.
        (local(0, None, false, false), Some(&newer), adopt(&newer, false)),
        // Garbage: keep ours; the next write replaces it.
        (local(5, Some(&ours), true, false), Some("garbage"), Sync::Unreadable),
    ];
    for (i, (local, stored, expected)) in cases.into_iter().enumerate() {
        assert_eq!(sync(&local, stored), expected, "case {i}");
    }
}

#[test]
fn the_next_write_is_above_every_generation_we_know() {
    assert_eq!(next_generation(&Local::default()), 1);
    assert_eq!(next_generation(&local(5, None, false, false)), 6);
    // An unreadable snapshot in a readable envelope still counts: its writer was ahead of us.
    let refused = stored(9, "not json");
    assert_eq!(next_generation(&local(5, Some(&refused), false, false)), 10);
    assert_eq!(next_generation(&local(u64::MAX, None, false, false)), u64::MAX);
    // Our own write: the generation we wrote it with.
    let ours = stored(7, "{}");
    assert_eq!(next_generation(&local(7, Some(&ours), true, false)), 8);
}
