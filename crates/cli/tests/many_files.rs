//! A description kept in hundreds of YAML files, laid out as real ones are (made by
//! `crates/openapi/tests/support/many_files.rs`, DigitalOcean's public description the model),
//! read by `playground build` and `playground mock` as a user runs them.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use serde_json::{Value, json};
use support::{Mock, fake_app};

mod support;

#[path = "../../openapi/tests/support/many_files.rs"]
mod many_files;

const BINARY: &str = env!("CARGO_BIN_EXE_playground");

/// Resources in the description: 30 make 467 files and 150 operations.
const RESOURCES: usize = 30;

/// Writes the description's files under `folder` as YAML; gives the root file's path.
fn write_description(folder: &Path) -> PathBuf {
    for (path, value) in many_files::files(RESOURCES) {
        let file = folder.join(&path);
        fs::create_dir_all(file.parent().expect("a folder")).expect("creates the folder");
        fs::write(&file, serde_yaml_ng::to_string(&value).expect("writes YAML")).expect("writes the file");
    }
    folder.join(many_files::ROOT)
}

#[test]
fn playground_build_reads_a_description_of_hundreds_of_files() {
    let temp = tempfile::tempdir().expect("a temporary folder");
    let app = fake_app(temp.path());
    let spec = write_description(&temp.path().join("specification"));
    let out = temp.path().join("site");
    let output = Command::new(BINARY)
        .arg("build")
        .arg("--spec")
        .arg(&spec)
        .arg("--out")
        .arg(&out)
        .arg("--app")
        .arg(&app)
        .output()
        .expect("runs playground");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let operations = RESOURCES * many_files::OPERATIONS.len();
    assert!(stderr.contains(&format!("({}, {operations} operations)", many_files::TITLE)), "{stderr}");
    assert!(!stderr.contains("warning"), "{stderr}");

    let text = fs::read_to_string(out.join("openapi.json")).expect("reads openapi.json");
    assert!(!text.contains(".yml"), "a reference to a file is left");
    let document: Value = serde_json::from_str(&text).expect("openapi.json is JSON");
    let mut listed = 0;
    for i in 0..RESOURCES {
        let (singular, plural) = many_files::resource(i);
        for (suffix, method, on_item) in many_files::OPERATIONS {
            let path =
                if on_item { format!("/v2/{plural}/{{{singular}_id}}") } else { format!("/v2/{plural}") };
            let operation = &document["paths"][&path][method];
            assert_eq!(operation["summary"], json!(many_files::summary(i, suffix)), "{method} {path}");
            assert_eq!(operation["tags"], json!([many_files::tag(i)]), "{method} {path}");
            assert_eq!(operation["responses"]["default"]["$ref"], "#/components/responses/unexpected_error");
            listed += 1;
        }
    }
    assert_eq!(listed, operations);
    assert_eq!(document["tags"][1]["name"], "Droplets");
}

/// Sends `method` to `path` with a bearer token and `body` as JSON; the status and body.
fn send(mock: &Mock, method: &str, path: &str, body: Option<&Value>) -> (u16, Value) {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        // A guard against a hung server, not a measurement.
        .timeout_global(Some(Duration::from_secs(60)))
        .build()
        .into();
    let mut request = ureq::http::Request::builder()
        .method(method)
        .uri(format!("{}{path}", mock.url))
        .header("Authorization", "Bearer token");
    if body.is_some() {
        request = request.header("Content-Type", "application/json");
    }
    let bytes = body.map(|b| b.to_string().into_bytes()).unwrap_or_default();
    let mut response = agent.run(request.body(bytes).expect("a request")).expect("an answer");
    let status = response.status().as_u16();
    let text = response.body_mut().read_to_string().expect("reads the body");
    (status, serde_json::from_str(&text).unwrap_or(Value::String(text)))
}

#[test]
fn playground_mock_creates_and_reads_back_with_a_description_of_hundreds_of_files() {
    let temp = tempfile::tempdir().expect("a temporary folder");
    let spec = write_description(&temp.path().join("specification"));
    let spec_arg = spec.to_str().expect("a UTF-8 path");
    let mock = Mock::start(&["--spec", spec_arg]);

    let body = json!({"name": "web-1", "region": "ams3"});
    let (status, created) = send(&mock, "POST", "/v2/volumes", Some(&body));
    assert_eq!(status, 201, "{created}");
    let volume = &created["volume"];
    assert_eq!(volume["name"], "web-1", "{created}");
    let id = volume["id"].as_str().expect("the created volume has an id");

    let (status, read) = send(&mock, "GET", &format!("/v2/volumes/{id}"), None);
    assert_eq!(status, 200, "{read}");
    assert_eq!(read["volume"]["name"], "web-1", "{read}");
    assert_eq!(read["volume"]["region"], "ams3", "{read}");

    let (status, list) = send(&mock, "GET", "/v2/volumes", None);
    assert_eq!(status, 200, "{list}");
    assert_eq!(list["volumes"][0]["id"], id, "{list}");
    // A response under common/, three files away from the operation, answers a refusal.
    let (status, missing) = send(&mock, "GET", "/v2/volumes/4de7ac8b-495b-4884-9a69-1050c6793cd6", None);
    assert_eq!(status, 404, "{missing}");
}
