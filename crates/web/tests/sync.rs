//! The storage decisions as plain functions: the header and the earlier versions' envelope,
//! what a start finds, and whether another tab's write is taken and reported.
#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test, with its location

use playground_web::layout::Header;
use playground_web::sync::{Local, Saved, Start, Stored, Sync, next_generation, start, sync};

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
fn a_snapshot_that_is_not_json_is_stored_as_a_string_the_mock_will_refuse() {
    let text = stored(1, "not json");
    assert_eq!(Saved::decode(&text).unwrap().snapshot, r#""not json""#);
}

#[test]
fn text_that_is_not_an_envelope_is_refused_with_a_sentence() {
    for text in ["", "{", "[]", r#"{"generation":-1,"snapshot":{}}"#, r#"{"snapshot":{}}"#, "null"] {
        let reason = Saved::decode(text).unwrap_err();
        assert!(reason.starts_with("The saved value is not a saved mock"), "{text}: {reason}");
    }
}

#[test]
fn start_classifies_what_storage_holds() {
    assert_eq!(start(None), Start::Empty);
    let text = stored(3, SNAPSHOT);
    assert_eq!(
        start(Some(&text)),
        Start::Saved(Stored::Snapshot(Saved { generation: 3, snapshot: SNAPSHOT }))
    );
    let header = Header::of_base(4, "4.ab".into(), 10);
    assert_eq!(start(Some(&header.encode())), Start::Saved(Stored::Records(header)));
    assert!(matches!(start(Some("garbage")), Start::Unreadable { .. }));
}

fn local(generation: u64, seen: Option<&str>, wrote_seen: bool, unsaved: bool) -> Local {
    Local { generation, seen: seen.map(str::to_owned), wrote_seen, unsaved }
}

fn adopt(text: &str, discards_ours: bool) -> Sync<'_> {
    Sync::Adopt { stored: Stored::decode(text).unwrap(), discards_ours }
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

#[test]
fn headers_round_trip_and_decide_like_envelopes() {
    let ours = Header::of_base(5, "5.a".into(), 100).encode();
    let theirs = Header::of_base(5, "5.a".into(), 100).with_entry(6, "6.b".into(), 40).encode();
    let racing = Header::of_base(5, "5.a".into(), 100).with_entry(5, "5.c".into(), 40).encode();
    assert_eq!(sync(&local(5, Some(&ours), true, false), Some(&ours)), Sync::UpToDate);
    assert_eq!(sync(&local(5, Some(&ours), true, false), Some(&theirs)), adopt(&theirs, false));
    assert_eq!(sync(&local(5, Some(&ours), true, false), Some(&racing)), adopt(&racing, true));
    assert_eq!(next_generation(&local(5, Some(&theirs), false, false)), 7);
}

#[test]
fn headers_of_another_format_or_out_of_bounds_are_refused_with_a_sentence() {
    let mut header = Header::of_base(1, "1.a".into(), 10);
    header.format = "records/9".into();
    let reason = Stored::decode(&header.encode()).unwrap_err();
    assert!(reason.contains("records/9"), "{reason}");
    let mut header = Header::of_base(1, "1.a".into(), 10);
    header.entries = u64::MAX;
    assert!(Stored::decode(&header.encode()).unwrap_err().contains("log entries"));
    assert!(Stored::decode(r#"{"format":"records/1"}"#).is_err());
    assert!(matches!(start(Some(r#"{"format":1}"#)), Start::Unreadable { .. }));
}
