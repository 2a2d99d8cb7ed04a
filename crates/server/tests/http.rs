//! The real `petstore-mock` binary over real HTTP on 127.0.0.1: round trips, errors, CORS, the
//! body limit and start-up failures (the state file: `state.rs`).

mod support;

use serde_json::json;
use support::{Server, run};

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

/// Writers create categories as fast as the server answers; the server is killed with SIGKILL
/// at a moment that differs each round, then started again on the same file. Every category a
/// writer got a 201 for must be there, with its name, and the file must load every time.
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
