//! `playground diff OLD NEW` run as a user runs it: the exit codes CI reads (0, 1 with
//! `--fail-on`, 2 for a description that cannot be read), the three formats, and descriptions
//! in another version or in many files compared by what they say.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;
use support::fixture;

mod support;

const BINARY: &str = env!("CARGO_BIN_EXE_playground");

const V1: &str = r##"
openapi: 3.0.3
info: {title: Shelf, version: "1.0.0"}
paths:
  /books:
    get:
      operationId: listBooks
      parameters:
        - {name: limit, in: query, schema: {type: integer, maximum: 100}}
      responses:
        "200":
          description: The books.
          content:
            application/json:
              schema: {type: array, items: {$ref: "#/components/schemas/Book"}}
    post:
      operationId: createBook
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: "#/components/schemas/Book"}
      responses:
        "201":
          description: Created.
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Book"}
components:
  schemas:
    Book:
      type: object
      required: [title]
      properties:
        title: {type: string, maxLength: 200}
        status: {type: string, enum: [draft, published]}
"##;

fn run(args: &[&str]) -> Output {
    Command::new(BINARY).arg("diff").args(args).output().expect("runs playground")
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    fs::write(&path, text).expect("writes the description");
    path
}

fn s(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// V1 with `title`'s `maxLength` lowered (breaking in the request, not in the responses), a
/// status added (breaking in the responses) and `listBooks` deprecated.
fn v2() -> String {
    V1.replace("maxLength: 200", "maxLength: 100")
        .replace("enum: [draft, published]", "enum: [draft, published, withdrawn]")
        .replace("operationId: listBooks", "operationId: listBooks\n      deprecated: true")
}

#[test]
fn the_exit_code_follows_fail_on() {
    let temp = tempfile::tempdir().expect("a temporary folder");
    let old = write(temp.path(), "v1.yaml", V1);
    let new = write(temp.path(), "v2.yaml", &v2());
    let added = write(
        temp.path(),
        "added.yaml",
        &V1.replace("components:", "  /authors:\n    get:\n      responses:\n        \"200\": {description: The authors.}\ncomponents:"),
    );
    let code = |args: &[&str]| run(args).status.code();
    assert_eq!(code(&[s(&old), s(&new)]), Some(0), "without --fail-on, changes found are not a failure");
    assert_eq!(code(&[s(&old), s(&new), "--fail-on", "breaking"]), Some(1));
    assert_eq!(code(&[s(&old), s(&new), "--fail-on", "deprecation"]), Some(1));
    assert_eq!(
        code(&[s(&old), s(&added), "--fail-on", "breaking"]),
        Some(0),
        "an operation added breaks nothing"
    );
    assert_eq!(code(&[s(&old), s(&added), "--fail-on", "deprecation"]), Some(0));
    assert_eq!(code(&[s(&old), s(&added), "--fail-on", "any"]), Some(1));
    assert_eq!(code(&[s(&old), s(&old), "--fail-on", "any"]), Some(0), "a description equals itself");
    let wrong = run(&[s(&old), s(&new), "--fail-on", "major"]);
    assert_eq!(wrong.status.code(), Some(2), "an unknown level is a usage error");
    assert!(stderr(&wrong).contains("major"), "{}", stderr(&wrong));
}

#[test]
fn json_names_each_change_its_level_and_its_operations() {
    let temp = tempfile::tempdir().expect("a temporary folder");
    let old = write(temp.path(), "v1.yaml", V1);
    let new = write(temp.path(), "v2.yaml", &v2());
    let output = run(&[s(&old), s(&new), "--format", "json"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let report: Value = serde_json::from_slice(&output.stdout).expect("the output is JSON");
    assert_eq!(report["old"]["version"], "1.0.0");
    assert_eq!(report["new"]["file"], s(&new));
    assert_eq!(report["summary"], serde_json::json!({"breaking": 2, "deprecation": 1, "non-breaking": 2}));
    let changes = report["changes"].as_array().expect("a list of changes");
    let find = |id: &str, direction: &str| {
        changes
            .iter()
            .find(|c| c["id"] == id && c["direction"] == direction)
            .unwrap_or_else(|| panic!("{id} in {direction}s among {changes:#?}"))
    };
    let shorter = find("max-length-decreased", "request");
    assert_eq!(shorter["level"], "breaking");
    assert_eq!(shorter["schema"], "Book", "a shared schema's change is reported once, under its name");
    assert_eq!(shorter["pointer"], "/components/schemas/Book/properties/title");
    assert_eq!(shorter["old"], 200);
    assert_eq!(shorter["new"], 100);
    assert_eq!(
        shorter["operations"],
        serde_json::json!([{"path": "/books", "method": "POST", "operationId": "createBook"}])
    );
    assert_eq!(find("max-length-decreased", "response")["level"], "non-breaking");
    let status = find("enum-value-added", "response");
    assert_eq!(status["level"], "breaking");
    assert_eq!(status["operations"].as_array().map(Vec::len), Some(2), "both operations return a Book");
    assert_eq!(find("enum-value-added", "request")["level"], "non-breaking");
    assert_eq!(changes[0]["level"], "breaking", "breaking changes come first");
}

#[test]
fn text_and_markdown_group_by_level_and_subject() {
    let temp = tempfile::tempdir().expect("a temporary folder");
    let old = write(temp.path(), "v1.yaml", V1);
    let new = write(temp.path(), "v2.yaml", &v2());
    let text = stdout(&run(&[s(&old), s(&new)]));
    assert!(text.contains("2 breaking, 1 deprecation, 2 non-breaking changes"), "{text}");
    let breaking = text.find("Breaking:").expect("a breaking section");
    let deprecations = text.find("Deprecations:").expect("a deprecations section");
    assert!(breaking < deprecations, "{text}");
    assert!(text.contains("schema Book in requests"), "{text}");
    assert!(
        text.contains("property title: maxLength decreased from 200 to 100 [max-length-decreased]"),
        "{text}"
    );
    let markdown = stdout(&run(&[s(&old), s(&new), "--format", "markdown"]));
    assert!(markdown.contains("### Breaking (2)"), "{markdown}");
    assert!(markdown.contains("**GET /books (listBooks)**"), "{markdown}");
    assert!(markdown.contains("`operation-deprecated`"), "{markdown}");
}

#[test]
fn a_description_that_cannot_be_read_exits_2_naming_the_file_and_the_place() {
    let temp = tempfile::tempdir().expect("a temporary folder");
    let good = write(temp.path(), "v1.yaml", V1);
    let missing = temp.path().join("missing.yaml");
    let not_openapi = write(temp.path(), "hello.json", r#"{"hello": "world"}"#);
    let wrong_shape =
        write(temp.path(), "paths.yaml", "openapi: 3.1.0\ninfo: {title: T, version: '1'}\npaths: [1, 2]\n");
    let broken = fixture("broken-yaml.yaml");
    let cases: [(&Path, &Path, &[&str]); 5] = [
        (&missing, &good, &["missing.yaml", "does not exist"]),
        (&good, &missing, &["missing.yaml", "does not exist"]),
        (&broken, &good, &["broken-yaml.yaml", "line"]),
        (&good, &not_openapi, &["hello.json"]),
        (&good, &wrong_shape, &["paths.yaml", "/paths"]),
    ];
    for (old, new, words) in cases {
        let output = run(&[s(old), s(new), "--fail-on", "breaking"]);
        let err = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{} {}: {err}", old.display(), new.display());
        assert!(output.stdout.is_empty(), "nothing on stdout: {}", stdout(&output));
        for word in words {
            assert!(err.contains(word), "{word} in {err}");
        }
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn a_swagger_2_description_compares_with_its_openapi_3_rewrite_by_what_they_say() {
    let temp = tempfile::tempdir().expect("a temporary folder");
    let swagger = write(
        temp.path(),
        "v1.yaml",
        r##"
swagger: "2.0"
info: {title: Shelf, version: "1.0.0"}
basePath: /v1
host: shelf.example
schemes: [https]
consumes: [application/json]
produces: [application/json]
paths:
  /books/{id}:
    get:
      operationId: getBook
      parameters:
        - {name: id, in: path, required: true, type: integer, format: int64}
      responses:
        "200": {description: The book., schema: {$ref: "#/definitions/Book"}}
definitions:
  Book:
    type: object
    required: [title]
    properties:
      title: {type: string}
      pages: {type: integer, minimum: 1}
"##,
    );
    let openapi = write(
        temp.path(),
        "v2.json",
        &serde_json::json!({
            "openapi": "3.1.0",
            "info": {"title": "Shelf", "version": "2.0.0"},
            "servers": [{"url": "https://shelf.example/v1"}],
            "paths": {"/books/{bookId}": {"get": {
                "operationId": "getBook",
                "parameters": [{"name": "bookId", "in": "path", "required": true,
                                "schema": {"type": "integer", "format": "int64"}}],
                "responses": {"200": {"description": "The book.", "content": {"application/json": {
                    "schema": {"$ref": "#/components/schemas/Book"}}}}}
            }}},
            "components": {"schemas": {"Book": {
                "type": "object", "required": ["title"],
                "properties": {"title": {"type": "string"},
                               "pages": {"type": ["integer", "null"], "exclusiveMinimum": 0}}
            }}}
        })
        .to_string(),
    );
    let output = run(&[s(&swagger), s(&openapi), "--format", "json"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let report: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let ids: Vec<&str> =
        report["changes"].as_array().into_iter().flatten().filter_map(|c| c["id"].as_str()).collect();
    // The path parameter's new name and the pages that may now be null are all that changed:
    // the body parameter became a response's content, the host and basePath a server, and on
    // an integer `minimum: 1` is `exclusiveMinimum: 0`.
    assert_eq!(ids, ["nullable-added", "path-parameter-renamed"], "{report:#}");
}

#[test]
fn a_description_in_many_files_compares_with_one_in_one_file() {
    let temp = tempfile::tempdir().expect("a temporary folder");
    let one = write(temp.path(), "one.yaml", V1);
    fs::create_dir(temp.path().join("split")).expect("a folder");
    let split = write(
        temp.path(),
        "split/openapi.yaml",
        &V1.split("components:").next().unwrap_or_default().replace("#/components/schemas/Book", "book.yaml"),
    );
    write(
        temp.path(),
        "split/book.yaml",
        "type: object\nrequired: [title]\nproperties:\n  title: {type: string, maxLength: 200}\n  status: {type: string, enum: [draft, published]}\n",
    );
    let output = run(&[s(&one), s(&split), "--fail-on", "any"]);
    assert_eq!(output.status.code(), Some(0), "{}{}", stdout(&output), stderr(&output));
    assert!(stdout(&output).contains("no changes"), "{}", stdout(&output));
}
