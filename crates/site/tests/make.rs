//! `playground_site::make` over files held in memory: what both command lines get.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use playground_site::{App, MARKER, SiteError, Source};

/// The app's page as the build's rewrite expects it, reduced to what it reads.
const INDEX: &str = r#"<!DOCTYPE html><html><head><title>Petstore Playground</title><meta name="description" content="x"><script>fetch(new URL("petstore.json", document.baseURI))</script><script type="module">await window.__playgroundAppStart;
const wasmFile = fetch('./app.wasm');
const { default: init, ...bindings } = await import('./app.js');
const wasm = await init({ module_or_path: wasmFile });</script></head><body></body></html>"#;

fn files(entries: &[(&str, &str)]) -> BTreeMap<PathBuf, Vec<u8>> {
    entries.iter().map(|(path, text)| (PathBuf::from(path), text.as_bytes().to_vec())).collect()
}

fn make(
    files: &BTreeMap<PathBuf, Vec<u8>>,
    config: Option<&Path>,
) -> Result<playground_site::Site, SiteError> {
    let spec = Path::new("/api/openapi.yaml");
    let source = Source {
        spec,
        spec_root: spec,
        config,
        cwd: Some(Path::new("/api")),
        served_mock: None,
        previous: &[],
    };
    let names: Vec<String> = ["index.html", "petstore.json", "mock", "tryit", "app.wasm", ".stage"]
        .iter()
        .map(|name| (*name).to_owned())
        .collect();
    let app = App { index_path: Path::new("/app/index.html"), index: INDEX, names: &names };
    let mut read = |path: &Path, limit: u64| match files.get(path) {
        Some(bytes) if bytes.len() as u64 > limit => {
            Err(format!("is {} bytes; the limit is {limit}", bytes.len()))
        }
        Some(bytes) => Ok(bytes.clone()),
        None => Err("does not exist".to_owned()),
    };
    playground_site::make(&source, &app, &mut read)
}

#[test]
fn a_description_in_three_files_makes_one_site() {
    let files = files(&[
        (
            "/api/openapi.yaml",
            "openapi: 3.1.0\ninfo: {title: Shop, version: '1', description: 'Sells things. And more.'}\npaths:\n  /items:\n    $ref: paths/items.yaml\n",
        ),
        (
            "/api/paths/items.yaml",
            "post:\n  operationId: createItem\n  requestBody:\n    content:\n      application/json:\n        schema: {$ref: '../schemas/item.yaml'}\n  responses:\n    '201': {description: Created}\n",
        ),
        ("/api/schemas/item.yaml", "type: object\nproperties: {name: {type: string}}\n"),
    ]);
    let site = make(&files, None).expect("a site");
    assert_eq!(site.built.title, "Shop");
    assert_eq!(site.built.operations, 1);
    assert_eq!(
        site.copy,
        ["tryit", "app.wasm"],
        "the Petstore's own files, hidden ones and the page are not copied"
    );
    let read: Vec<&str> = site.read.iter().map(|p| p.to_str().unwrap_or_default()).collect();
    assert_eq!(read, ["/api/openapi.yaml", "/api/paths/items.yaml", "/api/schemas/item.yaml"]);
    let names: Vec<&str> = site.files.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(
        names,
        [
            "openapi.json",
            "index.html",
            MARKER,
            "llms.txt",
            "llms-full.txt",
            "index.md",
            "operations/createItem.md",
            "tags/default.md",
            "schemas/index.md",
            "schemas/item.md"
        ]
    );
    let llms = String::from_utf8(site.files[3].1.clone()).expect("UTF-8");
    assert!(llms.starts_with("# Shop\n\n> Sells things. And more.\n"), "{llms}");
    assert!(llms.contains("- [POST /items](operations/createItem.md): `POST /items`"), "{llms}");
    let document: serde_json::Value = serde_json::from_slice(&site.files[0].1).expect("JSON");
    assert!(
        !document.to_string().contains("items.yaml"),
        "every reference to another file is bundled: {document}"
    );
    let page = String::from_utf8(site.files[1].1.clone()).expect("UTF-8");
    assert!(page.contains("<title>Shop</title>"), "{page}");
    assert!(page.contains("Sells things."), "{page}");
    assert!(page.contains("openapi.json"), "the early request asks for the site's document: {page}");
}

#[test]
fn a_missing_file_is_named_where_it_is_referred_to() {
    let files = files(&[(
        "/api/openapi.yaml",
        "openapi: 3.0.3\ninfo: {title: Shop, version: '1'}\npaths:\n  /items:\n    $ref: paths/missing.yaml\n",
    )]);
    let error = make(&files, None).expect_err("a reference to a missing file").to_string();
    assert!(error.starts_with("openapi.yaml: at /paths/~1items:"), "{error}");
    assert!(error.contains("paths/missing.yaml does not exist"), "{error}");
}

#[test]
fn the_configuration_is_read_through_the_same_reader() {
    let files = files(&[
        ("/api/openapi.yaml", "openapi: 3.0.3\ninfo: {title: Shop, version: '1'}\npaths: {}\n"),
        ("/api/playground.toml", "title = 'Our shop'\nlogo = 'logo.svg'\n"),
        ("/api/logo.svg", "<svg/>"),
    ]);
    let site = make(&files, Some(Path::new("/api/playground.toml"))).expect("a site");
    assert_eq!(site.built.title, "Our shop");
    assert_eq!(site.images, [(PathBuf::from("/api/logo.svg"), "playground-logo.svg".to_owned())]);
    assert_eq!(site.read.last().map(PathBuf::as_path), Some(Path::new("/api/playground.toml")));

    let mut missing = files.clone();
    missing.remove(Path::new("/api/logo.svg"));
    let error = make(&missing, Some(Path::new("/api/playground.toml"))).expect_err("no logo").to_string();
    assert!(error.contains("`logo`") && error.contains("does not exist"), "{error}");
}
