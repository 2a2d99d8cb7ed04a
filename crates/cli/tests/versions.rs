//! `playground build` with earlier versions (`--previous`, `[[versions]]`): each version under
//! its own path with its own copy of the app, a switcher on every page, a Changes page per
//! version linked to the operations, marks on the operations that changed, and a banner on
//! the earlier ones.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use support::fake_app;

mod support;

const BINARY: &str = env!("CARGO_BIN_EXE_playground");

/// One API in three versions: 1.0 has `listBooks`; 1.1 adds `getBook`; 2.0 lowers the title's
/// `maxLength` (breaking in the request), deprecates `listBooks` and removes nothing.
fn version(number: &str) -> String {
    let get_book = "  /books/{id}:\n    get:\n      operationId: getBook\n      parameters:\n        - {name: id, in: path, required: true, schema: {type: integer}}\n      responses:\n        \"200\": {description: A book.}\n";
    let (max, deprecated, extra) = match number {
        "1.0" => (200, "", ""),
        "1.1" => (200, "", get_book),
        _ => (100, "      deprecated: true\n", get_book),
    };
    format!(
        "openapi: 3.0.3\ninfo: {{title: Shelf, version: \"{number}\"}}\npaths:\n  /books:\n    get:\n      operationId: listBooks\n{deprecated}      responses:\n        \"200\": {{description: The books.}}\n    post:\n      operationId: createBook\n      requestBody:\n        required: true\n        content:\n          application/json:\n            schema:\n              type: object\n              properties:\n                title: {{type: string, maxLength: {max}}}\n      responses:\n        \"201\": {{description: Created.}}\n{extra}"
    )
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    fs::write(&path, text).expect("writes a file");
    path
}

fn build(args: &[&str]) -> Output {
    Command::new(BINARY).arg("build").args(args).output().expect("runs playground")
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("reads {}: {e}", path.display()))
}

fn s(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn earlier_versions_are_published_beside_the_newest() {
    let temp = tempfile::tempdir().expect("a temporary folder");
    let app = fake_app(temp.path());
    let v20 = write(temp.path(), "v2.0.yaml", &version("2.0"));
    let v11 = write(temp.path(), "v1.1.yaml", &version("1.1"));
    let v10 = write(temp.path(), "v1.0.yaml", &version("1.0"));
    let out = temp.path().join("site");
    let output = build(&[
        "--spec",
        s(&v20),
        "--previous",
        s(&v11),
        "--previous",
        s(&v10),
        "--out",
        s(&out),
        "--app",
        s(&app),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));

    // Each version's own page and app, the newest at the top.
    let top = read(&out.join("index.html"));
    let older = read(&out.join("v/1.0/index.html"));
    assert!(read(&out.join("v/1.1/openapi.json")).contains("\"1.1\""));
    for folder in ["", "v/1.1/", "v/1.0/"] {
        assert!(out.join(folder).join("app-1.js").is_file(), "the app in {folder:?}");
        assert!(out.join(folder).join("index.md").is_file(), "the Markdown in {folder:?}");
    }
    // The switcher links each version from where the page stands.
    assert!(top.contains(r#"<a href="./" aria-current="page">2.0 (newest)</a>"#), "{top}");
    assert!(top.contains(r#"<a href="v/1.0/">1.0</a>"#), "{top}");
    assert!(older.contains(r#"<a href="../../">2.0 (newest)</a>"#), "{older}");
    assert!(older.contains(r#"<a href="../../v/1.1/">1.1</a>"#), "{older}");
    // The banner is on the earlier versions only.
    assert!(!top.contains(r#"class="version-banner""#), "the newest has no banner");
    assert!(older.contains("You are reading version 1.0."), "{older}");
    // The switcher stands before the pre-rendered reference, outside the app.
    let body = top.find("<body").expect("a body");
    let nav = top.find("site-versions\"").expect("the switcher");
    assert!(body < nav, "the switcher is in the body");

    // Marks: the operations that changed in 2.0, keyed on the rows' and details' ids.
    assert!(top.contains(r#".list-row.operation[data-operation-id="createBook"] .summary::after"#), "{top}");
    assert!(top.contains(r#"content:"Breaking change in 2.0""#), "{top}");
    assert!(top.contains(r#"content:"Changed in 2.0""#), "listBooks was deprecated: {top}");
    let v11_page = read(&out.join("v/1.1/index.html"));
    assert!(v11_page.contains(r#"content:"New in 1.1""#), "{v11_page}");
    assert!(v11_page.contains(r#"[data-operation-id="getBook"]"#), "{v11_page}");
    assert!(!older.contains("New in"), "the oldest version has nothing to compare with");

    // A Changes page per version but the oldest: breaking first, linked to the operation.
    let changes = read(&out.join("changes/index.html"));
    let breaking = changes.find("Breaking changes").expect("breaking changes");
    let deprecations = changes.find("Deprecations").expect("deprecations");
    assert!(breaking < deprecations, "{changes}");
    assert!(changes.contains(r##"<a href="../#createBook">"##), "{changes}");
    assert!(changes.contains("max-length-decreased"), "{changes}");
    assert!(changes.contains("Since version 1.1"), "{changes}");
    let v11_changes = read(&out.join("v/1.1/changes/index.html"));
    assert!(v11_changes.contains(r##"<a href="../#getBook">"##), "{v11_changes}");
    assert!(v11_changes.contains("operation-added"), "{v11_changes}");
    assert!(!out.join("v/1.0/changes").exists(), "nothing before the oldest");
    assert!(read(&out.join("changes/index.md")).contains("### Breaking (1)"));

    // Tools that read llms.txt find the changelog and the other versions.
    let llms = read(&out.join("llms.txt"));
    assert!(
        llms.contains(
            "- [Changes in 2.0](changes/index.md): what changed since the version before (1 breaking"
        ),
        "{llms}"
    );
    assert!(llms.contains("- [1.0](v/1.0/llms.txt): an earlier version"), "{llms}");
    assert!(read(&out.join("v/1.0/llms.txt")).contains("- [2.0](../../llms.txt): the newest version"));

    // The newest has its own version's folder too, which sends readers to the top.
    let newest = read(&out.join("v/2.0/index.html"));
    assert!(newest.contains(r#"location.replace("../../" + location.hash)"#), "{newest}");
    assert!(!out.join("v/2.0/app-1.js").exists(), "no second copy of the app for it");

    let listing: serde_json::Value = serde_json::from_str(&read(&out.join("versions.json"))).expect("JSON");
    assert_eq!(listing[1], serde_json::json!({"name": "1.1", "path": "v/1.1/", "newest": false}));
}

#[test]
fn versions_can_be_listed_in_the_configuration() {
    let temp = tempfile::tempdir().expect("a temporary folder");
    let app = fake_app(temp.path());
    fs::create_dir(temp.path().join("specs")).expect("a folder");
    let v20 = write(temp.path(), "specs/current.yaml", &version("2.0"));
    write(temp.path(), "specs/old.yaml", &version("1.0"));
    let config = write(
        temp.path(),
        "specs/playground.toml",
        "[[versions]]\nspec = \"old.yaml\"\nname = \"Legacy 1\"\n",
    );
    let out = temp.path().join("site");
    let output = build(&["--spec", s(&v20), "--config", s(&config), "--out", s(&out), "--app", s(&app)]);
    assert!(output.status.success(), "{}", stderr(&output));
    let older = read(&out.join("v/Legacy-1/index.html"));
    assert!(older.contains("You are reading version Legacy 1."), "{older}");

    // Both ways at once is refused, naming the configuration.
    let v10 = write(temp.path(), "v1.0.yaml", &version("1.0"));
    let both = build(&[
        "--spec",
        s(&v20),
        "--config",
        s(&config),
        "--previous",
        s(&v10),
        "--out",
        s(&out),
        "--app",
        s(&app),
    ]);
    assert_eq!(both.status.code(), Some(1));
    assert!(
        stderr(&both).contains("playground.toml") && stderr(&both).contains("--previous"),
        "{}",
        stderr(&both)
    );
}

#[test]
fn a_bad_earlier_version_is_refused_naming_it() {
    let temp = tempfile::tempdir().expect("a temporary folder");
    let app = fake_app(temp.path());
    let v20 = write(temp.path(), "v2.0.yaml", &version("2.0"));
    let same = write(temp.path(), "again.yaml", &version("2.0"));
    let broken = write(temp.path(), "broken.yaml", "openapi: 3.0.3\ninfo: {title: T\n");
    let out = temp.path().join("site");
    let cases: [(&Path, &[&str]); 3] = [
        (&broken, &["broken.yaml", "line"]),
        (&temp.path().join("gone.yaml"), &["gone.yaml", "does not exist"]),
        (&same, &["v/2.0", "name them apart"]),
    ];
    for (previous, words) in cases {
        let output =
            build(&["--spec", s(&v20), "--previous", s(previous), "--out", s(&out), "--app", s(&app)]);
        assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
        for word in words {
            assert!(stderr(&output).contains(word), "{word} in {}", stderr(&output));
        }
        assert!(!out.exists(), "no site is written");
    }
}
