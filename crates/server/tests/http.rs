//! The real `petstore-mock` binary over real HTTP on 127.0.0.1: round trips, errors, CORS, the
//! body limit, the state file and start-up failures.

mod support;

use std::fs;
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

#[test]
fn created_pet_reads_back_at_its_location() {
    let server = Server::start(&[]);
    let category = server.post_json("/categories", &json!({"name": "Dogs"}));
    assert_eq!(category.status, 201, "{}", category.body);
    let category_id = category.json()["id"].as_i64().unwrap();

    let created = server.post_json("/pets", &json!({"name": "  Rex  ", "categoryId": category_id}));
    assert_eq!(created.status, 201, "{}", created.body);
    let pet = created.json();
    let id = pet["id"].as_i64().unwrap();
    assert!(id >= 1);
    assert_eq!(pet, json!({"id": id, "name": "Rex", "categoryId": category_id, "status": "available"}));
    let location = created.header("location").expect("a Location header").to_owned();
    assert_eq!(location, format!("/pets/{id}"));

    let read = server.get(&location);
    assert_eq!(read.status, 200, "{}", read.body);
    assert_eq!(read.json(), pet);
    assert_eq!(read.header("content-type"), Some("application/json"));
    // The operation is deprecated: RFC 9745 and RFC 8594 headers on every answer.
    assert!(read.header("deprecation").is_some_and(|value| value.starts_with('@')), "{:?}", read.headers);
    assert!(read.header("sunset").is_some_and(|value| value.ends_with("GMT")), "{:?}", read.headers);

    let listed = server.get("/pets?limit=5");
    assert_eq!(listed.status, 200, "{}", listed.body);
    assert_eq!(listed.header("x-total-count"), Some("1"));
    assert_eq!(listed.json(), json!([pet]));
}

#[test]
fn unknown_id_and_unknown_path_answer_the_error_object() {
    let server = Server::start(&["--seed"]);
    let message = server.get("/pets/987654").assert_error(404, "not_found");
    assert!(message.contains("987654"), "the message names the id: {message}");
    server.get("/no/such/path").assert_error(404, "not_found");
}

#[test]
fn known_path_with_another_method_is_405_with_allow() {
    let server = Server::start(&[]);
    let reply = server.request("PATCH", "/pets", &[]);
    reply.assert_error(405, "method_not_allowed");
    let allow = reply.header("allow").expect("an Allow header");
    assert!(allow.contains("GET") && allow.contains("POST"), "{allow}");
}

#[test]
fn non_json_body_is_malformed_json() {
    let server = Server::start(&[]);
    server.post("/categories", "application/json", b"{not json".to_vec()).assert_error(400, "malformed_json");
}

#[test]
fn preflight_is_answered_with_the_origin_and_requested_headers_echoed() {
    let server = Server::start(&[]);
    let reply = server.request(
        "OPTIONS",
        "/pets",
        &[
            ("Origin", "http://localhost:5173"),
            ("Access-Control-Request-Method", "POST"),
            ("Access-Control-Request-Headers", "content-type, x-request-id"),
        ],
    );
    assert_eq!(reply.status, 204, "{reply:?}");
    assert_eq!(reply.header("access-control-allow-origin"), Some("http://localhost:5173"));
    assert_eq!(reply.header("access-control-allow-credentials"), Some("true"));
    assert_eq!(reply.header("access-control-allow-headers"), Some("content-type, x-request-id"));
    let methods = reply.header("access-control-allow-methods").expect("allowed methods");
    for method in ["GET", "POST", "PUT", "DELETE"] {
        assert!(methods.contains(method), "{methods}");
    }
    assert!(reply.header_all("vary").contains("Origin"), "{reply:?}");
    assert!(reply.body.is_empty());
}

#[test]
fn actual_responses_echo_the_origin_and_expose_the_api_headers() {
    let server = Server::start(&["--seed"]);
    for path in ["/pets?limit=1", "/pets/987654"] {
        let reply = server.request("GET", path, &[("Origin", "http://127.0.0.1:8080")]);
        assert_eq!(reply.header("access-control-allow-origin"), Some("http://127.0.0.1:8080"), "{path}");
        assert_eq!(reply.header("access-control-allow-credentials"), Some("true"), "{path}");
        assert!(reply.header_all("vary").contains("Origin"), "{path}: {reply:?}");
        let exposed = reply.header("access-control-expose-headers").expect("exposed headers");
        for header in ["Location", "X-Total-Count", "Deprecation", "Sunset", "Allow"] {
            assert!(exposed.contains(header), "{exposed}");
        }
    }
    let listed = server.request("GET", "/pets?limit=1", &[("Origin", "http://127.0.0.1:8080")]);
    assert_eq!(listed.status, 200, "{}", listed.body);

    // No Origin, no CORS grant; the answer still varies by Origin for caches.
    let plain = server.get("/pets?limit=1");
    assert_eq!(plain.header("access-control-allow-origin"), None);
    assert!(plain.header_all("vary").contains("Origin"));
}

#[test]
fn options_without_preflight_headers_goes_to_the_mock() {
    let server = Server::start(&[]);
    server.request("OPTIONS", "/pets", &[]).assert_error(405, "method_not_allowed");
}

#[test]
fn body_just_over_the_limit_is_413_from_the_mock() {
    let server = Server::start(&["--seed"]);
    // Valid JSON, so only its size is wrong.
    let body = format!("{{\"name\": \"{}\", \"categoryId\": 1}}", "x".repeat(70_000));
    let message = server
        .post("/pets", "application/json", body.clone().into_bytes())
        .assert_error(413, "payload_too_large");
    assert!(message.contains(&body.len().to_string()), "the message names the size: {message}");
}

#[test]
fn body_far_over_the_limit_is_413_without_buffering() {
    let server = Server::start(&["--seed"]);
    let body = vec![b' '; 1024 * 1024];
    let message = server.post("/pets", "application/json", body).assert_error(413, "payload_too_large");
    assert!(message.contains("65536"), "the message names the limit: {message}");
    // The connection was drained, not reset, and the server still answers.
    assert_eq!(server.get("/pets?limit=1").status, 200);
}

#[test]
fn state_is_saved_on_sigterm_and_loaded_at_the_next_start() {
    let dir = scratch_dir("sigterm");
    let state = dir.join("state.json");
    let state_arg = state.to_str().unwrap();

    let mut first = Server::start(&["--state", state_arg]);
    let (category_id, pet) = create_pet(&first, "Rex");
    let status = first.stop_with("TERM");
    assert!(status.success(), "{status}; stderr: {}", first.stderr());
    assert!(first.stderr().contains("state saved to"), "{}", first.stderr());
    let saved = fs::read_to_string(&state).expect("the state file was written");
    assert!(serde_json::from_str::<serde_json::Value>(&saved).is_ok(), "the state file is JSON: {saved}");
    assert!(!dir.join("state.json.tmp").exists(), "no temporary file is left behind");

    // --seed is ignored: the saved store wins.
    let mut second = Server::start(&["--state", state_arg, "--seed"]);
    let read = second.get(&format!("/pets/{}", pet["id"]));
    assert_eq!(read.status, 200, "{}", read.body);
    assert_eq!(read.json(), pet);
    assert_eq!(second.get(&format!("/categories/{category_id}")).status, 200);
    assert_eq!(second.get("/pets").header("x-total-count"), Some("1"));

    // Ctrl-C saves too, including what changed since the load.
    let (_, second_pet) = create_pet(&second, "Tom");
    assert!(second.stop_with("INT").success(), "{}", second.stderr());
    let third = Server::start(&["--state", state_arg]);
    assert_eq!(third.get(&format!("/pets/{}", second_pet["id"])).json(), second_pet);
    assert_eq!(third.get("/pets").header("x-total-count"), Some("2"));
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
    assert!(stderr.contains("not a Petstore mock snapshot"), "says why: {stderr}");
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
    // stderr is read by a thread of its own: give it a moment.
    for _ in 0..100 {
        if server.stderr().contains("it is kept as") {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(server.stderr().contains("it is kept as"), "{}", server.stderr());
    assert_eq!(server.get("/pets").header("x-total-count"), Some("6"), "--seed applies to the fresh start");
    create_pet(&server, "Fresh");
    assert!(serde_json::from_str::<serde_json::Value>(&fs::read_to_string(&state).unwrap()).is_ok());
}

#[test]
fn a_change_that_cannot_be_saved_is_not_answered_and_the_server_stops() {
    let dir = scratch_dir("unsaveable");
    let state = dir.join("state.json");
    let mut server = Server::start(&["--state", state.to_str().unwrap()]);
    create_pet(&server, "Kept");
    let kept = fs::read_to_string(&state).unwrap();
    // A directory where the file goes: the next save's rename fails.
    fs::remove_file(&state).unwrap();
    fs::create_dir(&state).unwrap();
    let answer = try_post_json(&server.url, "/categories", &json!({"name": "Lost"}));
    assert!(answer.is_none(), "an unsaved change must not be answered: {answer:?}");
    let status = server.wait();
    assert_eq!(status.code(), Some(1));
    let stderr = server.stderr();
    assert!(
        stderr.contains("cannot save the state to") && stderr.contains("no change is answered unsaved"),
        "{stderr}"
    );
    assert!(serde_json::from_str::<serde_json::Value>(&kept).is_ok());
}

#[test]
fn a_second_server_on_the_same_state_file_is_refused() {
    let dir = scratch_dir("lock");
    let state = dir.join("state.json");
    let first = Server::start(&["--state", state.to_str().unwrap()]);
    let output = run(&["serve", "--host", "127.0.0.1", "--port", "0", "--state", state.to_str().unwrap()]);
    assert!(!output.status.success());
    assert!(output.stdout.is_empty(), "it never listened");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("another petstore-mock is serving the state file"), "{stderr}");
    assert!(stderr.contains("state.json.lock"), "{stderr}");
    // The first one is unharmed.
    assert_eq!(first.get("/pets").status, 200);
}

/// Writers create categories as fast as the server answers; the server is killed with SIGKILL
/// at a moment that differs each round, then started again on the same file. Every category a
/// writer got a 201 for must be there, with its name, and the file must load every time.
#[test]
fn every_acknowledged_write_survives_sigkill() {
    const ROUNDS: u64 = 40;
    const WRITERS: usize = 4;
    let dir = scratch_dir("sigkill");
    let state = dir.join("state.json");
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
        // Nothing half-written: the file is whole JSON whenever the server dies.
        if let Ok(text) = fs::read_to_string(&state) {
            assert!(serde_json::from_str::<serde_json::Value>(&text).is_ok(), "round {round}: {text}");
        }
    }
    let last = Server::start(&["--state", &state_arg]);
    let total: usize = last.get("/categories?limit=1").header("x-total-count").unwrap().parse().unwrap();
    // A write saved but killed before its answer left is kept without being acknowledged: at
    // most one per writer per kill.
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
fn state_file_of_another_version_is_refused() {
    let dir = scratch_dir("version");
    let state = dir.join("state.json");
    let mut snapshot: serde_json::Value =
        serde_json::from_str(&petstore::Mock::seeded().snapshot()).expect("the snapshot is JSON");
    snapshot["version"] = json!(999);
    let text = snapshot.to_string();
    fs::write(&state, &text).unwrap();
    let output = run(&["serve", "--host", "127.0.0.1", "--port", "0", "--state", state.to_str().unwrap()]);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains(state.to_str().unwrap()) && stderr.contains("999"), "{stderr}");
    assert_eq!(fs::read_to_string(&state).unwrap(), text);
}

#[test]
fn state_file_in_a_missing_directory_is_refused_at_start() {
    let dir = scratch_dir("nodir");
    let state = dir.join("missing").join("state.json");
    let output = run(&["serve", "--host", "127.0.0.1", "--port", "0", "--state", state.to_str().unwrap()]);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("does not exist"), "{stderr}");
}

#[test]
fn taken_port_is_a_clear_error() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let output = run(&["serve", "--host", "127.0.0.1", "--port", &port]);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("already in use") && stderr.contains(&port), "{stderr}");
    assert!(stderr.contains("--port"), "says what to do: {stderr}");
}

#[test]
fn listens_on_the_given_host_only() {
    let server = Server::start(&[]);
    assert!(server.url.starts_with("http://127.0.0.1:"), "{}", server.url);
    let port = server.url.rsplit(':').next().unwrap();
    // Another loopback address of the same machine is not the one asked for.
    assert!(std::net::TcpStream::connect(format!("127.0.0.2:{port}")).is_err());
}
