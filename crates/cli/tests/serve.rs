//! `playground serve` run as a user runs it: the site and the mock on one port, rebuilt when the
//! description is edited, with open pages told to reload or shown the error.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::{fake_app, fixture};

mod support;

const BINARY: &str = env!("CARGO_BIN_EXE_playground");

/// A `playground serve` child process, killed when dropped (a failed assertion included).
struct Served {
    child: Child,
    /// `http://127.0.0.1:PORT`, without the final `/`.
    url: String,
    stderr: Arc<Mutex<String>>,
    // Held so that the server never writes into a closed pipe.
    _stdout: BufReader<std::process::ChildStdout>,
}

impl Served {
    fn start(spec: &Path, app: &Path) -> Served {
        let mut child = Command::new(BINARY)
            .args(["serve", "--port", "0", "--spec"])
            .arg(spec)
            .arg("--app")
            .arg(app)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("playground starts");
        let stderr = Arc::new(Mutex::new(String::new()));
        let mut pipe = child.stderr.take().expect("stderr is piped");
        let sink = Arc::clone(&stderr);
        std::thread::spawn(move || {
            let mut buffer = [0_u8; 1024];
            while let Ok(read @ 1..) = pipe.read(&mut buffer) {
                sink.lock().expect("stderr buffer").push_str(&String::from_utf8_lossy(&buffer[..read]));
            }
        });
        let mut stdout = BufReader::new(child.stdout.take().expect("stdout is piped"));
        let mut line = String::new();
        stdout.read_line(&mut line).expect("reads the URL line");
        let mut served = Served { child, url: String::new(), stderr, _stdout: stdout };
        let url = line.trim().strip_prefix("playground serving ").and_then(|url| url.strip_suffix('/'));
        let Some(url) = url else {
            let status = served.child.wait().expect("waits for playground");
            panic!("no URL line; got {line:?}, {status}, stderr: {}", served.stderr());
        };
        served.url = url.to_owned();
        served
    }

    fn stderr(&self) -> String {
        self.stderr.lock().expect("stderr buffer").clone()
    }

    fn get(&self, path: &str) -> (u16, String) {
        let mut response = agent().get(format!("{}{path}", self.url)).call().expect("an answer");
        let status = response.status().as_u16();
        (status, response.body_mut().read_to_string().expect("reads the body"))
    }

    /// GETs with an `Accept` header; gives the status, the content type, `Vary` and the body.
    fn get_accepting(&self, path: &str, accept: &str) -> (u16, String, String, String) {
        let mut response =
            agent().get(format!("{}{path}", self.url)).header("Accept", accept).call().expect("an answer");
        let header = |name: &str| {
            response.headers().get(name).and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned()
        };
        let (content_type, vary) = (header("content-type"), header("vary"));
        let status = response.status().as_u16();
        (status, content_type, vary, response.body_mut().read_to_string().expect("reads the body"))
    }

    /// POSTs JSON; gives the status, the `Location` and the body.
    fn post_json(&self, path: &str, body: &Value) -> (u16, Option<String>, String) {
        let mut response = agent()
            .post(format!("{}{path}", self.url))
            .header("Content-Type", "application/json")
            .send(body.to_string())
            .expect("an answer");
        let status = response.status().as_u16();
        let location =
            response.headers().get("location").and_then(|value| value.to_str().ok()).map(str::to_owned);
        (status, location, response.body_mut().read_to_string().expect("reads the body"))
    }

    /// Opens the events stream; its lines arrive on the receiver as they are read.
    fn events(&self) -> Receiver<String> {
        let response = agent().get(format!("{}/__playground/events", self.url)).call().expect("an answer");
        assert_eq!(response.status().as_u16(), 200);
        let content_type = response.headers().get("content-type").and_then(|v| v.to_str().ok());
        assert_eq!(content_type, Some("text/event-stream"));
        let (send, receive) = mpsc::channel();
        let reader = BufReader::new(response.into_body().into_reader());
        std::thread::spawn(move || {
            for line in reader.lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        receive
    }

    fn stop(&mut self) -> std::process::ExitStatus {
        let sent = Command::new("kill").arg("-TERM").arg(self.child.id().to_string()).status();
        assert!(sent.expect("runs kill").success(), "kill -TERM failed");
        self.child.wait().expect("waits for playground")
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        // A guard against a hung server, not a measurement.
        .timeout_global(Some(Duration::from_secs(60)))
        .build()
        .into()
}

/// Waits for the event named `name` and gives its data (its `data:` lines joined).
fn next_event(events: &Receiver<String>, name: &str, served: &Served) -> String {
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut current = None;
    let mut data = Vec::new();
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let Ok(line) = events.recv_timeout(left) else {
            panic!("no {name} event; stderr: {}", served.stderr());
        };
        if let Some(event) = line.strip_prefix("event:") {
            current = Some(event.trim().to_owned());
        } else if let Some(text) = line.strip_prefix("data:") {
            data.push(text.strip_prefix(' ').unwrap_or(text).to_owned());
        } else if line.is_empty() {
            if current.as_deref() == Some(name) {
                return data.join("\n");
            }
            current = None;
            data.clear();
        }
    }
}

#[test]
fn the_site_and_the_mock_follow_the_description() {
    let temp = tempfile::tempdir().expect("a temporary folder");
    let app = fake_app(temp.path());
    let spec = temp.path().join("openapi.yaml");
    // The fixture with an item path, which makes the notes a stored resource of the mock.
    let original = std::fs::read_to_string(fixture("notes.yaml")).expect("reads the fixture").replace(
        "\npaths:\n",
        "\npaths:\n  /notes/{noteId}:\n    get:\n      operationId: getNote\n      parameters:\n\
         \x20       - {name: noteId, in: path, required: true, schema: {type: integer}}\n      responses:\n\
         \x20       \"200\":\n          description: The note\n          content:\n\
         \x20           application/json:\n              schema: {$ref: \"#/components/schemas/Note\"}\n",
    );
    assert!(original.contains("getNote"));
    std::fs::write(&spec, &original).expect("copies the fixture");
    let mut served = Served::start(&spec, &app);

    let (status, index) = served.get("/");
    assert_eq!(status, 200);
    assert!(index.contains("<title>Notes &lt;API&gt;</title>"), "{index}");
    assert!(index.contains("new EventSource(\"/__playground/events\")"), "{index}");
    assert!(index.contains(r#""tryIt":"/mock""#), "the page's try-it sends to the served mock: {index}");
    assert_eq!(served.get("/app-1.js"), (200, "export default function init() {}".to_owned()));
    assert_eq!(served.get("/../openapi.yaml").0, 404);
    assert_eq!(served.get("/petstore.json").0, 404);

    // A client that asks for Markdown gets the twin of the page it names.
    let (status, content_type, vary, twin) = served.get_accepting("/", "text/markdown, text/html;q=0.9");
    assert_eq!(
        (status, content_type.as_str(), vary.as_str()),
        (200, "text/markdown; charset=utf-8", "accept")
    );
    assert!(twin.starts_with("# Notes") && !twin.contains("<html"), "{twin}");
    let (_, _, vary, page) = served.get_accepting("/", "text/html,*/*;q=0.8");
    assert!(page.contains("<title>Notes &lt;API&gt;</title>") && vary == "accept", "{page}");
    let (status, content_type, _, operation) = served.get_accepting("/operations/getNote", "text/markdown");
    assert_eq!((status, content_type.as_str()), (200, "text/markdown; charset=utf-8"), "{operation}");
    assert!(operation.contains("GET /notes/{noteId}"), "{operation}");
    let (status, content_type, _, llms) = served.get_accepting("/llms.txt", "*/*");
    assert_eq!((status, content_type.as_str()), (200, "text/plain; charset=utf-8"));
    assert!(llms.contains("(operations/getNote.md)"), "{llms}");
    assert_eq!(served.get_accepting("/operations/none", "text/markdown").0, 404);

    let (status, document) = served.get("/openapi.json");
    assert_eq!(status, 200);
    let document: Value = serde_json::from_str(&document).expect("openapi.json is JSON");
    let yaml: Value = serde_json::to_value(
        serde_yaml_ng::from_str::<serde_yaml_ng::Value>(&original).expect("the fixture is YAML"),
    )
    .expect("the fixture is JSON-like");
    assert_eq!(document, yaml);

    let (status, location, created) = served.post_json("/mock/notes", &json!({"text": "hello"}));
    assert_eq!(status, 201, "{created}");
    let created: Value = serde_json::from_str(&created).expect("the note is JSON");
    assert_eq!(location, Some(format!("/mock/notes/{}", created["id"])), "the address under /mock/");
    let (status, note) = served.get(&format!("/mock/notes/{}", created["id"]));
    assert_eq!(status, 200, "{note}");
    assert_eq!(serde_json::from_str::<Value>(&note).expect("the note is JSON"), created);
    let (status, notes) = served.get("/mock/notes");
    assert_eq!(status, 200);
    assert!(notes.contains("hello"), "{notes}");

    let events = served.events();
    std::fs::write(&spec, original.replace("title: Notes <API>", "title: Renamed notes"))
        .expect("edits the description");
    next_event(&events, "reload", &served);
    let (_, index) = served.get("/");
    assert!(index.contains("<title>Renamed notes</title>"), "{index}");
    let twin = served.get_accepting("/", "text/markdown").3;
    assert!(twin.starts_with("# Renamed notes"), "the twin follows the description: {twin}");
    let (_, notes) = served.get("/mock/notes");
    assert!(!notes.contains("hello"), "the mock starts again: {notes}");
    assert!(served.stderr().contains("empty state"), "{}", served.stderr());

    std::fs::write(&spec, "openapi: 3.0.3\ninfo: [title, {unclosed\n").expect("breaks the description");
    let error = next_event(&events, "error", &served);
    assert!(error.contains("openapi.yaml"), "{error}");
    let (_, index) = served.get("/");
    assert!(index.contains("<title>Renamed notes</title>"), "the last good version stays: {index}");
    assert!(served.stderr().contains("openapi.yaml"), "{}", served.stderr());

    // A page that connects meanwhile is told at once.
    let late = served.events();
    next_event(&late, "error", &served);

    // Mended, it is served again and every page reloads.
    std::fs::write(&spec, original.replace("title: Notes <API>", "title: Mended notes"))
        .expect("mends the description");
    next_event(&events, "reload", &served);
    next_event(&late, "reload", &served);
    let (_, index) = served.get("/");
    assert!(index.contains("<title>Mended notes</title>"), "{index}");

    let status = served.stop();
    assert!(status.success(), "{status}; stderr: {}", served.stderr());
}

/// Copies a folder and everything in it.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("creates the folder");
    for entry in std::fs::read_dir(from).expect("reads the folder") {
        let entry = entry.expect("reads the folder");
        if entry.path().is_dir() {
            copy_tree(&entry.path(), &to.join(entry.file_name()));
        } else {
            std::fs::copy(entry.path(), to.join(entry.file_name())).expect("copies a file");
        }
    }
}

#[test]
fn every_file_of_a_description_kept_in_many_is_watched() {
    let temp = tempfile::tempdir().expect("a temporary folder");
    let app = fake_app(temp.path());
    let library = temp.path().join("library");
    copy_tree(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/library"), &library);
    let mut served = Served::start(&library.join("openapi.yaml"), &app);

    let book = json!({"title": "SICP", "isbn": "9780262510875"});
    let (status, location, created) = served.post_json("/mock/books", &book);
    assert_eq!(status, 201, "{created}");
    let location = location.expect("a Location");
    assert!(location.starts_with("/mock/books/"), "{location}");
    assert_eq!(served.get(&location).0, 200);

    let events = served.events();
    let books = library.join("paths/books.yaml");
    let text = std::fs::read_to_string(&books).expect("reads paths/books.yaml");
    std::fs::write(&books, text.replace("List the books", "List every book")).expect("edits a file");
    next_event(&events, "reload", &served);
    let (_, document) = served.get("/openapi.json");
    assert!(document.contains("List every book"), "{document}");

    std::fs::write(library.join("schemas/Shelf.yaml"), "type: [object\n").expect("breaks a file");
    let error = next_event(&events, "error", &served);
    assert!(error.contains("Shelf.yaml"), "{error}");
    let (_, document) = served.get("/openapi.json");
    assert!(document.contains("List every book"), "the last good version stays: {document}");

    let status = served.stop();
    assert!(status.success(), "{status}; stderr: {}", served.stderr());
}

#[test]
fn listeners_are_capped() {
    let temp = tempfile::tempdir().expect("a temporary folder");
    let app = fake_app(temp.path());
    let mut served = Served::start(&fixture("notes.yaml"), &app);
    let events = format!("{}/__playground/events", served.url);
    // Each open stream holds its connection; the 65th page is refused, and served once one goes.
    let mut open: Vec<_> = (0..64)
        .map(|_| {
            let response = agent().get(&events).call().expect("an answer");
            assert_eq!(response.status().as_u16(), 200);
            response
        })
        .collect();
    assert_eq!(agent().get(&events).call().expect("an answer").status().as_u16(), 503);
    drop(open.pop());
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let status = agent().get(&events).call().expect("an answer").status().as_u16();
        if status == 200 {
            break;
        }
        assert!(Instant::now() < deadline, "still {status} after a listener left");
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(served.get("/").0, 200, "the site is still served");
    let status = served.stop();
    assert!(status.success(), "{status}; stderr: {}", served.stderr());
}

#[test]
fn a_description_that_cannot_be_read_stops_it() {
    let temp = tempfile::tempdir().expect("a temporary folder");
    let app = fake_app(temp.path());
    let spec = fixture("broken-yaml.yaml");
    let output = Command::new(BINARY)
        .args(["serve", "--port", "0", "--spec"])
        .arg(&spec)
        .arg("--app")
        .arg(&app)
        .stdin(Stdio::null())
        .output()
        .expect("runs playground");
    assert!(!output.status.success());
    assert!(output.stdout.is_empty(), "no URL: {:?}", String::from_utf8_lossy(&output.stdout));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("broken-yaml.yaml"), "{stderr}");
}
