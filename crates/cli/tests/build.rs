//! `playground build` run as a user runs it, against fixtures and a fake app folder.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;
use support::{fake_app, fixture};

mod support;

const BINARY: &str = env!("CARGO_BIN_EXE_playground");

fn build(args: &[&str]) -> Output {
    Command::new(BINARY).arg("build").args(args).output().expect("runs playground")
}

/// `playground build --spec SPEC --out OUT --app APP EXTRA...`
fn build_site(spec: &Path, out: &Path, app: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["--spec", path_str(spec), "--out", path_str(out), "--app", path_str(app)];
    args.extend_from_slice(extra);
    build(&args)
}

fn text(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("reads {}: {e}", path.display()))
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn path_str(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

/// The JSON of the site's configuration element.
fn site_config(index: &str) -> Value {
    let start = "<script type=\"application/json\" id=\"playground-site\">";
    let at = index.find(start).expect("the configuration element") + start.len();
    let end = at + index[at..].find("</script>").expect("the element ends");
    serde_json::from_str(&index[at..end]).expect("the configuration is JSON")
}

#[test]
fn a_description_becomes_a_site() {
    let temp = tempfile::tempdir().expect("a temporary folder");
    let app = fake_app(temp.path());
    let out = temp.path().join("public/site");
    let spec = fixture("notes.yaml");
    let output = build_site(&spec, &out, &app, &[]);
    assert!(output.status.success(), "{}", stderr(&output));

    for file in [
        ".playground-site",
        "index.html",
        "openapi.json",
        "app-1.js",
        "app-1_bg.wasm",
        "api-mock/playground_api_mock.js",
    ] {
        assert!(out.join(file).is_file(), "{file} is in the site");
    }
    for left_out in ["petstore.json", "mock", "mock-example.html", "domains.html", "dashboard-host", ".stage"]
    {
        assert!(!out.join(left_out).exists(), "{left_out} is not in the site");
    }
    let document: Value =
        serde_json::from_str(&text(&out.join("openapi.json"))).expect("openapi.json is JSON");
    let yaml: Value = serde_json::to_value(
        serde_yaml_ng::from_str::<serde_yaml_ng::Value>(&text(&spec)).expect("the fixture is YAML"),
    )
    .expect("the fixture is JSON-like");
    assert_eq!(document, yaml);

    let index = text(&out.join("index.html"));
    assert!(index.contains("<title>Notes &lt;API&gt;</title>"), "{index}");
    assert!(!index.contains("Petstore"), "{index}");
    let summary = "Keeps short notes, for &quot;tests&quot;.";
    assert!(index.contains(&format!("<meta name=\"description\" content=\"{summary}\">")), "{index}");
    assert!(index.contains(&format!("<meta property=\"og:description\" content=\"{summary}\">")), "{index}");
    assert!(index.contains("<meta property=\"og:title\" content=\"Notes &lt;API&gt;\">"), "{index}");
    assert!(index.contains("\"openapi.json\",document.baseURI"), "{index}");
    // The app starts after the first paint (crates/site/src/page.rs), from relative addresses.
    assert!(
        index.contains("href=./style-1.css") && index.contains("= await import('./app-1.js')"),
        "{index}"
    );
    assert!(index.contains("fetch('./app-1_bg.wasm')") && !index.contains("modulepreload"), "{index}");
    assert!(!index.contains("\"title\":\"Notes <API>\""), "the configuration escapes `<`: {index}");
    assert_eq!(
        site_config(&index),
        serde_json::json!({
            "document": "openapi.json",
            "title": "Notes <API>",
            "tryIt": "mock",
            "mock": true,
            "links": {},
            "logo": null,
            "accent": null,
        })
    );

    // A second build replaces the first.
    let output = build_site(&spec, &out, &app, &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    let siblings: Vec<_> = fs::read_dir(temp.path().join("public")).expect("lists").collect();
    assert_eq!(siblings.len(), 1, "no temporary folder is left beside the site");
}

#[test]
fn the_configuration_is_applied() {
    let temp = tempfile::tempdir().expect("a temporary folder");
    let app = fake_app(temp.path());
    fs::write(temp.path().join("logo.svg"), "<svg/>").expect("writes the logo");
    fs::write(temp.path().join("icon.png"), "png").expect("writes the icon");
    let config = temp.path().join("playground.toml");
    fs::write(
        &config,
        "title = 'Notes'\nlogo = 'logo.svg'\nfavicon = 'icon.png'\naccent = '#0a7'\ntry_it = 'https://notes.example.com/v1'\nmock = false\n\
         [links]\nhome = 'https://notes.example.com'\nsupport = 'https://notes.example.com/help'\n",
    )
    .expect("writes the configuration");
    let out = temp.path().join("site");
    let output = build_site(&fixture("notes.yaml"), &out, &app, &["--config", path_str(&config)]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(text(&out.join("playground-logo.svg")), "<svg/>");
    assert_eq!(text(&out.join("playground-favicon.png")), "png");
    let index = text(&out.join("index.html"));
    assert!(index.contains("<title>Notes</title>"), "{index}");
    assert!(index.contains("<link rel=\"icon\" href=\"playground-favicon.png\">"), "{index}");
    assert!(!index.contains("favicon-1.png"), "{index}");
    assert_eq!(
        site_config(&index),
        serde_json::json!({
            "document": "openapi.json",
            "title": "Notes",
            "tryIt": "https://notes.example.com/v1",
            "mock": false,
            "links": {"home": "https://notes.example.com", "support": "https://notes.example.com/help"},
            "logo": "playground-logo.svg",
            "accent": "#0a7",
        })
    );
}

#[test]
fn a_broken_description_writes_nothing() {
    for name in ["broken-yaml.yaml", "bad-operation.yaml"] {
        let temp = tempfile::tempdir().expect("a temporary folder");
        let app = fake_app(temp.path());
        let out = temp.path().join("site");
        let output = build_site(&fixture(name), &out, &app, &[]);
        assert!(!output.status.success(), "{name} is refused");
        let message = stderr(&output);
        assert!(message.contains(name), "{name}: the message names the file: {message}");
        assert!(!out.exists(), "{name}: --out is not created");
        let left: Vec<_> =
            fs::read_dir(temp.path()).expect("lists").map(|e| e.expect("an entry").file_name()).collect();
        assert_eq!(left, ["app"], "{name}: nothing is left beside --out");
    }
}

#[test]
fn a_bad_configuration_key_is_named() {
    let temp = tempfile::tempdir().expect("a temporary folder");
    let app = fake_app(temp.path());
    let config = temp.path().join("playground.toml");
    fs::write(&config, "title = 'Notes'\ntry_iit = 'none'\n").expect("writes the configuration");
    let out = temp.path().join("site");
    let output = build_site(&fixture("notes.yaml"), &out, &app, &["--config", path_str(&config)]);
    assert!(!output.status.success());
    let message = stderr(&output);
    assert!(message.contains("playground.toml") && message.contains("try_iit"), "{message}");
    assert!(!out.exists());
}

#[test]
fn an_unrelated_folder_is_not_replaced() {
    let temp = tempfile::tempdir().expect("a temporary folder");
    let app = fake_app(temp.path());
    let out = temp.path().join("documents");
    fs::create_dir(&out).expect("creates the folder");
    fs::write(out.join("thesis.txt"), "mine").expect("writes a file");
    let output = build_site(&fixture("notes.yaml"), &out, &app, &[]);
    assert!(!output.status.success());
    assert!(stderr(&output).contains(".playground-site"), "{}", stderr(&output));
    assert_eq!(text(&out.join("thesis.txt")), "mine");
    assert_eq!(fs::read_dir(&out).expect("lists").count(), 1);
}

#[test]
fn a_missing_app_says_to_build_it() {
    let temp = tempfile::tempdir().expect("a temporary folder");
    let out = temp.path().join("site");
    let app = temp.path().join("dist");
    let output = build_site(&fixture("notes.yaml"), &out, &app, &[]);
    assert!(!output.status.success());
    assert!(stderr(&output).contains("make build"), "{}", stderr(&output));
    assert!(!out.exists());
}

#[test]
fn a_swagger_2_description_is_converted_with_warnings() {
    let temp = tempfile::tempdir().expect("a temporary folder");
    let app = fake_app(temp.path());
    let out = temp.path().join("site");
    fs::create_dir(&out).expect("an empty folder is taken");
    let output = build_site(&fixture("zoo-swagger2.yaml"), &out, &app, &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stderr(&output).contains("warning: converted from Swagger 2.0"), "{}", stderr(&output));
    let document: Value =
        serde_json::from_str(&text(&out.join("openapi.json"))).expect("openapi.json is JSON");
    assert_eq!(document["openapi"], "3.0.3");
    assert!(text(&out.join("index.html")).contains("<title>Zoo</title>"));
}

#[test]
fn what_the_page_will_not_show_is_a_warning() {
    let temp = tempfile::tempdir().expect("a temporary folder");
    let app = fake_app(temp.path());
    let out = temp.path().join("site");
    let output = build_site(&fixture("skipped.yaml"), &out, &app, &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    let message = stderr(&output);
    assert!(message.contains("warning: GET /a is not listed: `/paths/~1a/get`"), "{message}");
    assert!(message.contains("warning: the webhook POST born is not listed"), "{message}");
    assert!(message.contains("(Skipped, 1 operation)"), "{message}");
}

#[test]
fn the_site_is_as_readable_as_any_new_folder() {
    let temp = tempfile::tempdir().expect("a temporary folder");
    let app = fake_app(temp.path());
    let out = temp.path().join("site");
    let output = build_site(&fixture("notes.yaml"), &out, &app, &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    let plain = temp.path().join("plain");
    fs::create_dir(&plain).expect("creates a folder");
    let permissions = |path: &Path| fs::metadata(path).expect("reads the metadata").permissions();
    assert_eq!(permissions(&out), permissions(&plain), "not a private temporary folder's");
}

#[test]
fn the_site_has_its_markdown_beside_its_page() {
    let temp = tempfile::tempdir().expect("a temporary folder");
    let app = fake_app(temp.path());
    let out = temp.path().join("site");
    let output = build_site(&fixture("notes.yaml"), &out, &app, &[]);
    assert!(output.status.success(), "{}", stderr(&output));

    for file in [
        "llms.txt",
        "llms-full.txt",
        "index.md",
        "operations/listNotes.md",
        "operations/createNote.md",
        "tags/Notes.md",
        "schemas/index.md",
        "schemas/Note.md",
    ] {
        assert!(out.join(file).is_file(), "{file} is in the site");
    }
    let llms = text(&out.join("llms.txt"));
    assert!(llms.starts_with("# Notes <API>\n\n> Keeps short notes, for \"tests\"."), "{llms}");
    assert!(llms.contains("- [Add a note](operations/createNote.md): `POST /notes`"), "{llms}");
    let page = text(&out.join("operations/createNote.md"));
    assert!(page.starts_with("# Add a note\n\n`POST /notes` · operationId `createNote`"), "{page}");
    assert!(page.contains("[Note](../schemas/Note.md)"), "{page}");

    let index = text(&out.join("index.html"));
    assert!(
        index.contains(r#"<link rel="alternate" type="text/markdown" id="markdown-twin" href="index.md">"#),
        "{index}"
    );
    assert!(
        index.contains(r#"<link rel="alternate" type="text/plain" title="llms.txt" href="llms.txt">"#),
        "{index}"
    );
}

/// The description kept in many files that the server's and the end-to-end tests read too.
fn library() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/library/openapi.yaml")
}

#[test]
fn a_description_kept_in_many_files_is_bundled_into_the_site() {
    let temp = tempfile::tempdir().expect("a temporary folder");
    let app = fake_app(temp.path());
    let out = temp.path().join("site");
    let output = build_site(&library(), &out, &app, &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    let document: Value =
        serde_json::from_str(&text(&out.join("openapi.json"))).expect("openapi.json is JSON");
    // What other files hold is in the one document, and every reference is local.
    assert_eq!(document["paths"]["/books"]["get"]["summary"], "List the books");
    assert_eq!(document["paths"]["/shelves"]["get"]["tags"], serde_json::json!(["Shelves"]));
    assert_eq!(
        document["components"]["schemas"]["Series"]["properties"]["follows"]["$ref"],
        "#/components/schemas/Series"
    );
    let text = serde_json::to_string(&document).expect("serializes");
    assert!(!text.contains("\"$ref\":\"../") && !text.contains(".yaml"), "{text}");
    assert!(text_of_index(&out).contains("<title>Library</title>"));
}

fn text_of_index(out: &Path) -> String {
    text(&out.join("index.html"))
}

#[test]
fn a_reference_that_cannot_be_followed_fails_the_build_with_its_file_and_place() {
    let temp = tempfile::tempdir().expect("a temporary folder");
    let app = fake_app(temp.path());
    let spec = temp.path().join("api/openapi.yaml");
    fs::create_dir_all(spec.parent().expect("a folder")).expect("creates the folder");
    fs::write(
        &spec,
        "openapi: 3.0.3\ninfo: {title: Broken, version: '1'}\npaths:\n  /a:\n    get:\n      $ref: operations/a.yaml\n",
    )
    .expect("writes the description");
    let out = temp.path().join("site");
    let output = build_site(&spec, &out, &app, &[]);
    assert!(!output.status.success());
    let message = stderr(&output);
    assert!(
        message.contains("openapi.yaml: at /paths/~1a/get: the reference operations/a.yaml does not exist"),
        "{message}"
    );
    assert!(!out.exists(), "nothing is written");
}
