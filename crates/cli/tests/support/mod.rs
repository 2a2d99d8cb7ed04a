//! What the CLI's tests share: the fixtures, a fake app folder, and `playground mock` as a child.

#![allow(dead_code, reason = "each test file uses its own part of the helpers")]

use std::fs;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Command, Stdio};

const BINARY: &str = env!("CARGO_BIN_EXE_playground");

/// A `playground mock` child on a free port of 127.0.0.1, killed when dropped.
pub struct Mock {
    child: Child,
    /// Where it listens (`http://127.0.0.1:PORT`).
    pub url: String,
    _stdout: BufReader<ChildStdout>,
}

impl Mock {
    /// Starts `playground mock --host 127.0.0.1 --port 0 ARGS` and reads its listening line.
    pub fn start(args: &[&str]) -> Mock {
        let mut child = Command::new(BINARY)
            .args(["mock", "--host", "127.0.0.1", "--port", "0"])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("playground starts");
        let mut stdout = BufReader::new(child.stdout.take().expect("stdout is piped"));
        let mut line = String::new();
        stdout.read_line(&mut line).expect("reads the URL line");
        let Some(url) = line.trim().strip_prefix("playground listening on ") else {
            let _ = child.kill();
            let _ = child.wait();
            panic!("no listening line: {line:?}");
        };
        Mock { url: url.to_owned(), child, _stdout: stdout }
    }

    /// Stops with SIGTERM, as a user does, and checks the exit.
    pub fn stop(mut self) {
        let sent = Command::new("kill").arg("-TERM").arg(self.child.id().to_string()).status();
        assert!(sent.expect("runs kill").success());
        let status = self.child.wait().expect("waits for the mock");
        assert!(status.success(), "{status}");
    }
}

impl Drop for Mock {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(name)
}

/// A fake app folder, shaped as `trunk build --release` leaves dist/ (minified, absolute
/// addresses, the app started as scripts/finish-page.mjs leaves it), with the Petstore's document and mock module that a site leaves out.
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
         <script type=module>await window.__playgroundAppStart;\n\
         const wasmFile = fetch('/app-1_bg.wasm');\n\
         const { default: init, ...bindings } = await import('/app-1.js');\n\
         const wasm = await init({ module_or_path: wasmFile });</script>\
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
