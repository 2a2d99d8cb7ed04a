//! What the CLI's tests share: the fixtures, and a fake app folder.

#![allow(dead_code, reason = "each test file uses its own part of the helpers")]

use std::fs;
use std::path::{Path, PathBuf};

pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(name)
}

/// A fake app folder, shaped as `trunk build --release` leaves dist/ (minified, absolute
/// addresses), with the Petstore's document and mock module that a site leaves out.
pub fn fake_app(root: &Path) -> PathBuf {
    let app = root.join("app");
    fs::create_dir_all(app.join("mock")).expect("creates the app folder");
    fs::create_dir_all(app.join("api-mock")).expect("creates the app folder");
    fs::create_dir_all(app.join("dashboard-host")).expect("creates the app folder");
    fs::create_dir_all(app.join(".stage")).expect("creates the app folder");
    fs::write(
        app.join("index.html"),
        "<!doctype html><html lang=en><meta charset=utf-8>\
         <meta content=\"Petstore API reference with an in-browser stateful mock\" name=description>\
         <title>Petstore API reference</title>\
         <script>var href=new URL(address||\"petstore.json\",document.baseURI).href;</script>\
         <link href=/favicon-1.png rel=icon><link href=/style-1.css rel=stylesheet>\
         <script type=module>import init from '/app-1.js';\
         await init({ module_or_path: '/app-1_bg.wasm' });</script>\
         <body><noscript>JavaScript</noscript></body></html>",
    )
    .expect("writes index.html");
    for (name, text) in [
        ("app-1.js", "export default function init() {}"),
        ("app-1_bg.wasm", "\0asm"),
        ("style-1.css", "body {}"),
        ("favicon-1.png", "png"),
        ("petstore.json", "{\"openapi\": \"3.0.3\"}"),
        ("mock-example.html", "<p>the Petstore's mock</p>"),
        ("mock/petstore_mock.js", "// the Petstore's mock"),
        ("api-mock/playground_api_mock.js", "// the mock of any description"),
        ("domains.html", "<p>Project settings</p>"),
        ("dashboard-host/playground_dashboard.js", "// the Domains page on a host"),
    ] {
        fs::write(app.join(name), text).expect("writes an app file");
    }
    app
}
