//! `petstore-mock serve --spec FILE`: the real binary mocking another document over real HTTP
//! on 127.0.0.1: stored resources, checks, security, options, the state file and bad input.

mod support;

use std::fs;

use serde_json::json;
use support::{Server, run, scratch_dir};

const SPEC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/tasks.yaml");

#[test]
fn a_yaml_document_is_mocked_with_its_resources() {
    let mut server = Server::start(&["--spec", SPEC]);
    let created = server.post_json("/projects", &json!({"name": "Garden"}));
    assert_eq!(created.status, 201, "{}", created.body);
    assert_eq!(created.json(), json!({"id": 1, "name": "Garden"}));
    assert_eq!(created.header("location"), Some("/projects/1"));
    let read = server.get("/api/projects/1");
    assert_eq!(
        (read.status, read.json()),
        (200, json!({"id": 1, "name": "Garden"})),
        "the base path is accepted"
    );
    let task = server.post_json("/projects/1/tasks", &json!({"title": "Dig"}));
    assert_eq!(task.status, 201, "{}", task.body);
    assert_eq!(server.get("/projects/1/tasks/1").json()["title"], "Dig");
    let elsewhere = server.post_json("/projects/2/tasks", &json!({"title": "Dig"}));
    assert_eq!(elsewhere.assert_error(404, "not_found"), "Project 2 does not exist.");
    assert_eq!(server.get("/health").json(), json!({"status": "ok"}), "the document's example");
    let invalid = server.post_json("/projects", &json!({"name": ""}));
    assert!(invalid.assert_error(422, "validation_failed").contains("name"), "{}", invalid.body);
    let stderr = server.stderr();
    assert!(stderr.contains("mocking Tasks 1.0"), "{stderr}");
    assert!(stderr.contains("2 stored resources: /projects, /projects/{projectId}/tasks"), "{stderr}");
}

#[test]
fn security_and_prefer_headers() {
    let server = Server::start(&["--spec", SPEC]);
    server.post_json("/projects", &json!({"name": "Garden"}));
    let refused = server.request("DELETE", "/projects/1", &[]);
    assert!(refused.assert_error(401, "unauthorized").contains("X-API-Key"), "{}", refused.body);
    assert_eq!(server.request("DELETE", "/projects/1", &[("X-API-Key", "k")]).status, 204);
    server.get("/projects/1").assert_error(404, "not_found");
    let strict = Server::start(&["--spec", SPEC, "--credential", "k1", "--credential", "k2"]);
    strict.post_json("/projects", &json!({"name": "Garden"}));
    let wrong = strict.request("DELETE", "/projects/1", &[("X-API-Key", "k3")]);
    assert!(wrong.assert_error(401, "unauthorized").contains("not among"), "{}", wrong.body);
    assert_eq!(strict.request("DELETE", "/projects/1", &[("X-API-Key", "k2")]).status, 204);
    let down = server.request("GET", "/health", &[("Prefer", "code=503")]);
    assert_eq!((down.status, down.json()), (503, json!({"status": "down"})));
}

#[test]
fn a_body_too_large_to_read_is_refused_as_the_operation_documents() {
    let server = Server::start(&["--spec", SPEC]);
    let huge = format!("{{\"name\": \"{}\"}}", "x".repeat(2 * 1024 * 1024));
    // createProject documents 422 for a request it refuses, not 413.
    let refused = server.post("/projects", "application/json", huge.clone().into_bytes());
    let message = refused.assert_error(422, "payload_too_large");
    assert!(message.contains(&huge.len().to_string()) && message.contains("1048576"), "{message}");
    // Routing and credentials come first, as for any body.
    let unkeyed = server.request_with_body("DELETE", "/projects/1", &[], huge.clone().into_bytes());
    unkeyed.assert_error(401, "unauthorized");
    let elsewhere = server.post("/health", "application/json", huge.into_bytes());
    elsewhere.assert_error(405, "method_not_allowed");
    assert_eq!(server.get("/projects").json(), json!([]), "nothing was stored");
}

#[test]
fn options_inject_failures_and_switch_checks_off() {
    let failing = Server::start(&["--spec", SPEC, "--failure-rate", "1", "--no-validation"]);
    let down = failing.get("/health");
    assert_eq!((down.status, down.json()), (503, json!({"status": "down"})), "the documented server error");
    let cut = Server::start(&["--spec", SPEC, "--failure-rate", "1", "--failure-status", "0"]);
    assert!(
        support::try_post_json(&cut.url, "/projects", &json!({"name": "x"})).is_none(),
        "the connection is cut"
    );
    let relaxed = Server::start(&["--spec", SPEC, "--no-validation", "--delay", "1-5"]);
    assert_eq!(relaxed.post_json("/projects", &json!({"name": 5})).status, 201);
}

#[test]
fn state_is_kept_in_the_state_file() {
    let dir = scratch_dir("spec-state");
    let state = dir.join("tasks.db");
    let state_arg = state.to_str().unwrap();
    let mut server = Server::start(&["--spec", SPEC, "--state", state_arg]);
    assert_eq!(server.post_json("/projects", &json!({"name": "Kept"})).status, 201);
    assert!(server.stop_with("TERM").success());
    assert!(fs::read(&state).unwrap().starts_with(b"SQLite format 3\0"));
    let mut again = Server::start(&["--spec", SPEC, "--state", state_arg]);
    assert_eq!(again.get("/projects/1").json()["name"], "Kept");
    assert!(again.stderr().contains("state loaded from"), "{}", again.stderr());
    drop(again);
    // A Petstore state file is not this API's state.
    fs::write(dir.join("pets.json"), petstore::Mock::seeded().snapshot()).unwrap();
    let refused =
        run(&["serve", "--port", "0", "--spec", SPEC, "--state", dir.join("pets.json").to_str().unwrap()]);
    assert!(!refused.status.success());
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(stderr.contains("cannot load the state file"), "{stderr}");
}

#[test]
fn bad_documents_and_options_are_clear_errors() {
    let dir = scratch_dir("spec-bad");
    let fail = |args: &[&str]| {
        let output = run(args);
        assert!(!output.status.success(), "{args:?} should fail");
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    let missing = fail(&["serve", "--spec", "/no/such/file.yaml"]);
    assert!(missing.contains("cannot mock /no/such/file.yaml"), "{missing}");
    let text = dir.join("notes.txt");
    fs::write(&text, "just: [some, yaml").unwrap();
    let broken = fail(&["serve", "--spec", text.to_str().unwrap()]);
    assert!(broken.contains("neither JSON nor YAML"), "{broken}");
    let not_openapi = dir.join("other.json");
    fs::write(&not_openapi, r#"{"name": "package"}"#).unwrap();
    let other = fail(&["serve", "--spec", not_openapi.to_str().unwrap()]);
    assert!(other.contains("not an OpenAPI document"), "{other}");
    let rate = fail(&["serve", "--spec", SPEC, "--failure-rate", "2"]);
    assert!(rate.contains("failure rate 2 is not between 0 and 1"), "{rate}");
    let delay = fail(&["serve", "--spec", SPEC, "--delay", "9-1"]);
    assert!(delay.contains("runs backwards"), "{delay}");
    let petstore_rate = fail(&["serve", "--failure-rate", "1.5"]);
    assert!(petstore_rate.contains("not between 0 and 1"), "{petstore_rate}");
    let without_spec = fail(&["serve", "--no-security"]);
    assert!(without_spec.contains("--spec"), "{without_spec}");
}

#[test]
fn the_petstore_takes_the_same_options_and_keeps_its_rules() {
    let failing = Server::start(&["--seed", "--failure-rate", "1", "--failure-status", "503"]);
    let down = failing.get("/pets");
    assert!(down.assert_error(503, "injected_failure").contains("listPets"), "{}", down.body);
    let relaxed = Server::start(&["--seed", "--no-validation", "--delay", "1-5"]);
    assert_eq!(relaxed.get("/pets?limit=500").status, 200, "the limit is not checked");
    let unknown = relaxed.post_json("/pets", &json!({"name": "Rex", "categoryId": 42}));
    assert_eq!(unknown.assert_error(422, "validation_failed"), "categoryId 42 does not exist.", "a rule");
    let sold = relaxed.post_json("/store/orders", &json!({"petId": 4}));
    assert_eq!(sold.assert_error(409, "pet_not_available"), "Pet 4 is sold, not available.");
}

const LIBRARY: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/library/openapi.yaml");

#[test]
fn a_description_kept_in_many_files_is_mocked_as_one() {
    let mut server = Server::start(&["--spec", LIBRARY]);
    let book = json!({"title": "Structure and Interpretation", "isbn": "9780262510875", "pages": 657});
    let created = server.post_json("/books", &book);
    assert_eq!(created.status, 201, "{}", created.body);
    assert_eq!(created.json()["isbn"], "9780262510875");
    let read = server.get("/books/1");
    assert_eq!((read.status, read.json()["title"].clone()), (200, json!("Structure and Interpretation")));
    assert_eq!(server.get("/books").json().as_array().map(Vec::len), Some(1));
    // The schema of another file checks the body; the response of a third file answers.
    let invalid = server.post_json("/books", &json!({"title": "No number", "isbn": "123"}));
    assert!(invalid.assert_error(422, "validation_failed").contains("isbn"), "{}", invalid.body);
    // The operation copied from its own file answers with its example.
    assert_eq!(server.get("/shelves").json(), json!([{"id": 1, "label": "Poetry"}]));
    let stderr = server.stderr();
    assert!(stderr.contains("mocking Library 2.0"), "{stderr}");
}

#[test]
fn a_reference_that_cannot_be_followed_names_its_file_and_place() {
    let dir = scratch_dir("spec-library");
    let source = std::path::Path::new(LIBRARY).parent().unwrap();
    for file in [
        "openapi.yaml",
        "paths/books.yaml",
        "paths/book.yaml",
        "operations/list-shelves.yaml",
        "schemas/Book.yaml",
        "schemas/Shelf.yaml",
        "schemas/Error.yaml",
        "responses.yaml",
        "parameters.yaml",
    ] {
        let to = dir.join(file);
        fs::create_dir_all(to.parent().unwrap()).unwrap();
        fs::copy(source.join(file), to).unwrap();
    }
    // schemas/Series.yaml is left out.
    let output = run(&["serve", "--spec", dir.join("openapi.yaml").to_str().unwrap()]);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("schemas/Book.yaml: at /properties/series: the reference Series.yaml does not exist"),
        "{stderr}"
    );
}
