//! `petstore-mock serve --state FILE`, the real binary: the SQLite state survives stops and
//! `kill -9`, a JSON state is imported once, and files it cannot use are refused with the
//! reason, never replaced.

mod support;

use std::fs;
use std::path::Path;
use std::time::Duration;

use serde_json::json;
use support::{Server, run, scratch_dir, try_post_json};

/// Creates a category and a pet in it on an empty server; returns (category id, pet JSON).
fn create_pet(server: &Server, name: &str) -> (i64, serde_json::Value) {
    let category = server.post_json("/categories", &json!({"name": format!("{name}'s kind")}));
    assert_eq!(category.status, 201, "{}", category.body);
    let category_id = category.json()["id"].as_i64().expect("a category id");
    let pet = server.post_json("/pets", &json!({"name": name, "categoryId": category_id}));
    assert_eq!(pet.status, 201, "{}", pet.body);
    (category_id, pet.json())
}

fn is_database(path: &Path) -> bool {
    fs::read(path).is_ok_and(|bytes| bytes.starts_with(b"SQLite format 3\0"))
}

/// Waits (up to 5 s) for a line the server writes on stderr by a thread of its own.
fn stderr_says(server: &mut Server, words: &str) -> String {
    for _ in 0..100 {
        if server.stderr().contains(words) {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    server.stderr()
}

#[test]
fn state_is_kept_across_stops_and_loaded_at_the_next_start() {
    let dir = scratch_dir("sigterm");
    let state = dir.join("state.db");
    let state_arg = state.to_str().unwrap();

    let mut first = Server::start(&["--state", state_arg]);
    let (category_id, pet) = create_pet(&first, "Rex");
    assert!(is_database(&state), "the state is a SQLite database from the start");
    let status = first.stop_with("TERM");
    assert!(status.success(), "{status}; stderr: {}", first.stderr());
    assert!(first.stderr().contains("a new SQLite database"), "{}", first.stderr());
    assert!(first.stderr().contains("state kept in"), "{}", first.stderr());

    // --seed is ignored: the saved store wins.
    let mut second = Server::start(&["--state", state_arg, "--seed"]);
    let read = second.get(&format!("/pets/{}", pet["id"]));
    assert_eq!(read.status, 200, "{}", read.body);
    assert_eq!(read.json(), pet);
    assert_eq!(second.get(&format!("/categories/{category_id}")).status, 200);
    assert_eq!(second.get("/pets").header("x-total-count"), Some("1"));
    assert!(stderr_says(&mut second, "--seed ignored").contains("state loaded from"), "{}", second.stderr());

    // Changes since the load, a delete among them, survive Ctrl-C.
    let (_, second_pet) = create_pet(&second, "Tom");
    assert_eq!(second.request("DELETE", &format!("/pets/{}", pet["id"]), &[]).status, 204);
    assert!(second.stop_with("INT").success(), "{}", second.stderr());
    let third = Server::start(&["--state", state_arg]);
    assert_eq!(third.get(&format!("/pets/{}", second_pet["id"])).json(), second_pet);
    assert_eq!(third.get(&format!("/pets/{}", pet["id"])).status, 404);
    assert_eq!(third.get("/pets").header("x-total-count"), Some("1"));
    // The counters are kept: ids are not given out twice.
    let next = third.post_json("/pets", &json!({"name": "Kiwi", "categoryId": category_id}));
    assert_eq!(next.json()["id"], json!(second_pet["id"].as_i64().unwrap() + 1));
}

#[test]
fn a_json_state_is_imported_once_and_kept_beside_the_database() {
    let dir = scratch_dir("import");
    let state = dir.join("state.json");
    let snapshot = petstore::Mock::seeded().snapshot();
    fs::write(&state, &snapshot).unwrap();
    let mut server = Server::start(&["--state", state.to_str().unwrap()]);
    let said = stderr_says(&mut server, "imported the JSON state");
    assert!(said.contains("it is now a SQLite database"), "{said}");
    assert_eq!(server.get("/pets").header("x-total-count"), Some("6"));
    create_pet(&server, "Fresh");
    assert!(is_database(&state));
    let kept: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|name| name.starts_with("state.json.imported-") && name.ends_with(".json"))
        .collect();
    assert_eq!(kept.len(), 1, "{kept:?}");
    assert_eq!(fs::read_to_string(dir.join(&kept[0])).unwrap(), snapshot, "the JSON is kept as it was");
    assert!(server.stop_with("TERM").success());
    // Read as a database the next time, not imported again.
    let mut again = Server::start(&["--state", state.to_str().unwrap()]);
    assert_eq!(again.get("/pets").header("x-total-count"), Some("7"));
    assert!(!stderr_says(&mut again, "state loaded from").contains("imported"), "{}", again.stderr());
}

#[test]
fn corrupt_state_file_is_refused_and_left_alone() {
    let dir = scratch_dir("corrupt");
    let state = dir.join("state.json");
    fs::write(&state, "{\"this is\": not a snapshot").unwrap();
    let output = run(&["serve", "--host", "127.0.0.1", "--port", "0", "--state", state.to_str().unwrap()]);
    assert!(!output.status.success());
    assert!(output.stdout.is_empty(), "it never listened: {}", String::from_utf8_lossy(&output.stdout));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains(state.to_str().unwrap()), "names the file: {stderr}");
    assert!(stderr.contains("not a mock snapshot"), "says why: {stderr}");
    assert!(stderr.contains("--reset"), "says how to start anyway: {stderr}");
    assert_eq!(fs::read_to_string(&state).unwrap(), "{\"this is\": not a snapshot");
}

#[test]
fn reset_keeps_an_unreadable_state_file_aside_and_starts_fresh() {
    let dir = scratch_dir("reset");
    let state = dir.join("state.json");
    // A file cut short, as a copy interrupted half way leaves it.
    let whole = petstore::Mock::seeded().snapshot();
    fs::write(&state, &whole[..whole.len() / 2]).unwrap();
    let mut server = Server::start(&["--state", state.to_str().unwrap(), "--reset", "--seed"]);
    let aside: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|name| name.starts_with("state.json.unreadable-"))
        .collect();
    assert_eq!(aside.len(), 1, "{aside:?}");
    assert_eq!(fs::read_to_string(dir.join(&aside[0])).unwrap(), &whole[..whole.len() / 2], "kept as it was");
    assert!(stderr_says(&mut server, "it is kept as").contains("it is kept as"), "{}", server.stderr());
    assert_eq!(server.get("/pets").header("x-total-count"), Some("6"), "--seed applies to the fresh start");
    create_pet(&server, "Fresh");
    assert!(is_database(&state));
}

#[test]
fn databases_of_a_newer_server_or_another_program_are_refused_and_left_alone() {
    let dir = scratch_dir("foreign");
    let newer = dir.join("newer.db");
    let mut first = Server::start(&["--state", newer.to_str().unwrap()]);
    create_pet(&first, "Rex");
    assert!(first.stop_with("TERM").success());
    let conn = rusqlite::Connection::open(&newer).unwrap();
    conn.pragma_update(None, "user_version", 99).unwrap();
    drop(conn);
    let output = run(&["serve", "--port", "0", "--state", newer.to_str().unwrap(), "--reset"]);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("schema version 99, written by a newer petstore-mock"), "{stderr}");
    assert!(newer.exists(), "--reset does not move a newer server's state away");

    let other = dir.join("other.db");
    let conn = rusqlite::Connection::open(&other).unwrap();
    conn.execute_batch("CREATE TABLE photos (id INTEGER PRIMARY KEY)").unwrap();
    drop(conn);
    let output = run(&["serve", "--port", "0", "--state", other.to_str().unwrap()]);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("a SQLite database of another program"), "{stderr}");

    let json = dir.join("future.json");
    let mut snapshot: serde_json::Value = serde_json::from_str(&petstore::Mock::seeded().snapshot()).unwrap();
    snapshot["version"] = json!(999);
    fs::write(&json, snapshot.to_string()).unwrap();
    let output = run(&["serve", "--port", "0", "--state", json.to_str().unwrap()]);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains(json.to_str().unwrap()) && stderr.contains("999"), "{stderr}");
    assert_eq!(fs::read_to_string(&json).unwrap(), snapshot.to_string());
}

#[test]
fn a_change_that_cannot_be_saved_is_not_answered_and_the_server_stops() {
    let dir = scratch_dir("unsaveable");
    let state = dir.join("state.db");
    // Files of at most 256 KiB: the write-ahead log reaches it after a few dozen commits, and
    // the next write fails as on a full disk.
    let mut server = Server::start_with_file_limit(256, &["--state", state.to_str().unwrap()]);
    let mut acknowledged = Vec::new();
    let refused = (0..5000).find_map(|i| {
        let name = format!("category {i} {}", "x".repeat(80));
        match try_post_json(&server.url, "/categories", &json!({ "name": name })) {
            Some(reply) if reply.status == 201 => {
                acknowledged.push(reply.json()["id"].as_u64().unwrap());
                None
            }
            other => Some(other),
        }
    });
    let refused = refused.expect("the file limit is reached");
    assert!(refused.is_none(), "an unsaved change must not be answered: {refused:?}");
    let status = server.wait();
    assert_eq!(status.code(), Some(1));
    let stderr = server.stderr();
    assert!(
        stderr.contains("cannot save the state to") && stderr.contains("no change is answered unsaved"),
        "{stderr}"
    );
    // Without the limit, everything answered is there.
    let again = Server::start(&["--state", state.to_str().unwrap()]);
    for id in &acknowledged {
        assert_eq!(
            again.get(&format!("/categories/{id}")).status,
            200,
            "category {id} was answered, then lost"
        );
    }
    assert!(acknowledged.len() > 10, "{} writes before the limit", acknowledged.len());
}

#[test]
fn a_second_server_on_the_same_state_file_is_refused() {
    let dir = scratch_dir("lock");
    let state = dir.join("state.db");
    let first = Server::start(&["--state", state.to_str().unwrap()]);
    let output = run(&["serve", "--host", "127.0.0.1", "--port", "0", "--state", state.to_str().unwrap()]);
    assert!(!output.status.success());
    assert!(output.stdout.is_empty(), "it never listened");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("another petstore-mock is serving the state file"), "{stderr}");
    assert!(stderr.contains("state.db.lock"), "{stderr}");
    // The first one is unharmed.
    assert_eq!(first.get("/pets").status, 200);
}

/// Writers create categories as fast as the server answers; the server is killed with SIGKILL
/// at a moment that differs each round, then started again on the same file. Every category a
/// writer got a 201 for must be there, with its name, and the file must load every time.
#[test]
fn every_acknowledged_write_survives_sigkill() {
    const ROUNDS: u64 = 100;
    const WRITERS: usize = 4;
    let dir = scratch_dir("sigkill");
    let state = dir.join("state.db");
    let state_arg = state.to_str().unwrap().to_owned();
    let mut acknowledged: Vec<(u64, String)> = Vec::new();
    let mut killed_after = Vec::new();
    let mut writing_ms = 0;
    for round in 0..ROUNDS {
        let mut server = Server::start(&["--state", &state_arg]);
        // Everything acknowledged so far is there, by id and name.
        let mut found = std::collections::HashMap::<u64, String>::new();
        for offset in (0..).step_by(100) {
            let page = server.get(&format!("/categories?limit=100&offset={offset}"));
            assert_eq!(page.status, 200, "round {round}: {}", page.body);
            let items = page.json().as_array().unwrap().clone();
            found.extend(
                items.iter().map(|c| (c["id"].as_u64().unwrap(), c["name"].as_str().unwrap().to_owned())),
            );
            if items.len() < 100 {
                break;
            }
        }
        for (id, name) in &acknowledged {
            assert_eq!(
                found.get(id),
                Some(name),
                "round {round}: category {id} ({name}) was acknowledged, then lost"
            );
        }
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let writers: Vec<_> = (0..WRITERS)
            .map(|writer| {
                let (url, stop) = (server.url.clone(), std::sync::Arc::clone(&stop));
                std::thread::spawn(move || {
                    let mut done = Vec::new();
                    for i in 0.. {
                        if stop.load(std::sync::atomic::Ordering::Relaxed) {
                            break;
                        }
                        let name = format!("r{round}-w{writer}-{i}");
                        match try_post_json(&url, "/categories", &json!({ "name": name })) {
                            Some(reply) if reply.status == 201 => {
                                done.push((reply.json()["id"].as_u64().unwrap(), name))
                            }
                            Some(reply) => panic!("{name}: {} {}", reply.status, reply.body),
                            None => break,
                        }
                    }
                    done
                })
            })
            .collect();
        // A moment between 30 and 300 ms, different each round (no clock in the choice).
        let wait = 30 + (round * 7919 + 13) % 271;
        writing_ms += wait;
        std::thread::sleep(Duration::from_millis(wait));
        let status = server.stop_with("KILL");
        assert!(!status.success(), "round {round}: killed, not stopped");
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        let before = acknowledged.len();
        for writer in writers {
            acknowledged.extend(writer.join().expect("a writer ends"));
        }
        killed_after.push(acknowledged.len() - before);
        assert!(is_database(&state), "round {round}: the file is still the database");
    }
    let last = Server::start(&["--state", &state_arg]);
    let total: usize = last.get("/categories?limit=1").header("x-total-count").unwrap().parse().unwrap();
    // A write committed but killed before its answer left is kept without being acknowledged:
    // at most one per writer per kill.
    assert!(
        total >= acknowledged.len() && total - acknowledged.len() <= (ROUNDS as usize) * WRITERS,
        "{total} stored, {} acknowledged (kills after {killed_after:?} writes)",
        acknowledged.len()
    );
    assert!(
        killed_after.iter().filter(|&&n| n > 0).count() >= (ROUNDS as usize) / 2,
        "kills landed mid-stream: {killed_after:?}"
    );
    eprintln!(
        "{ROUNDS} kills, {} acknowledged writes in about {writing_ms} ms of writing ({WRITERS} writers), none lost",
        acknowledged.len()
    );
}

#[test]
fn state_file_in_a_missing_directory_is_refused_at_start() {
    let dir = scratch_dir("nodir");
    let state = dir.join("missing").join("state.db");
    let output = run(&["serve", "--host", "127.0.0.1", "--port", "0", "--state", state.to_str().unwrap()]);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("does not exist"), "{stderr}");
}

#[test]
fn export_writes_the_json_state_while_the_server_runs_and_another_server_imports_it() {
    let dir = scratch_dir("export");
    let state = dir.join("state.db");
    let server = Server::start(&["--state", state.to_str().unwrap(), "--seed"]);
    let (_, pet) = create_pet(&server, "Exported");
    let output = run(&["export", "--state", state.to_str().unwrap()]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let json = String::from_utf8(output.stdout).unwrap();
    let exported = petstore::Mock::from_snapshot(json.trim()).expect("the export is a snapshot");
    assert_eq!(exported.counts().pets, 7);

    let copy = dir.join("copy.json");
    let output = run(&["export", "--state", state.to_str().unwrap(), "--out", copy.to_str().unwrap()]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let imported = Server::start(&["--state", copy.to_str().unwrap()]);
    assert_eq!(imported.get(&format!("/pets/{}", pet["id"])).json(), pet);

    let missing = run(&["export", "--state", dir.join("none.db").to_str().unwrap()]);
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("holds no state"));
}
