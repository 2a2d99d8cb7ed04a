//! `playground mock --proxy` against a real API: a loopback server started by the test that
//! answers partly unlike its description (a wrong type, a missing required field, an
//! undocumented status, a wrong media type). Each mismatch is named in the answer's header and
//! in the log, `playground drift` sums the log up, and recorded answers are served offline
//! after a restart.

mod support;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use serde_json::{Value, json};
use support::Mock;

const BINARY: &str = env!("CARGO_BIN_EXE_playground");

/// The credential the client sends: it must reach the real API and never the log.
const SECRET: &str = "topsecret-key-4711";

/// A request as the real API received it.
#[derive(Debug, Clone)]
struct Received {
    method: String,
    target: String,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Received {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

/// The "real API": plain HTTP/1.1 on 127.0.0.1, one request per connection, stopped and
/// joined when dropped.
struct RealApi {
    address: String,
    received: Arc<Mutex<Vec<Received>>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl RealApi {
    fn start() -> RealApi {
        let listener = TcpListener::bind("127.0.0.1:0").expect("binds a loopback port");
        let address = listener.local_addr().expect("has an address").to_string();
        let received = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let (log, stopping) = (Arc::clone(&received), Arc::clone(&stop));
        let thread = std::thread::spawn(move || {
            for stream in listener.incoming() {
                if stopping.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(stream) = stream else { continue };
                if let Some(request) = serve_one(stream) {
                    log.lock().expect("the log of requests").push(request);
                }
            }
        });
        RealApi { address, received, stop, thread: Some(thread) }
    }

    fn url(&self) -> String {
        format!("http://{}", self.address)
    }

    fn received(&self) -> Vec<Received> {
        self.received.lock().expect("the log of requests").clone()
    }
}

impl Drop for RealApi {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wakes the accept loop so that it sees the flag.
        let _ = TcpStream::connect(&self.address);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Reads one request and answers it as the real API does.
fn serve_one(mut stream: TcpStream) -> Option<Received> {
    stream.set_read_timeout(Some(Duration::from_secs(10))).ok()?;
    let mut reader = BufReader::new(stream.try_clone().ok()?);
    let mut head = String::new();
    reader.read_line(&mut head).ok()?;
    let mut parts = head.split_whitespace();
    let (method, target) = (parts.next()?.to_owned(), parts.next()?.to_owned());
    let mut headers = Vec::new();
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).ok()?;
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        let (name, value) = line.split_once(':')?;
        headers.push((name.trim().to_owned(), value.trim().to_owned()));
    }
    let length = headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case("content-length"))
        .and_then(|(_, v)| v.parse::<usize>().ok())
        .unwrap_or(0);
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    let request = Received { method, target, headers, body };
    let (status, content_type, extra, answer) = answer(&request);
    let mut text = format!(
        "HTTP/1.1 {status} Whatever\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nConnection: close\r\n",
        answer.len()
    );
    for (name, value) in extra {
        text.push_str(&format!("{name}: {value}\r\n"));
    }
    text.push_str("\r\n");
    text.push_str(&answer);
    stream.write_all(text.as_bytes()).ok()?;
    let _ = stream.shutdown(Shutdown::Write);
    Some(request)
}

/// The real API's answers: right for some, unlike the description for others.
fn answer(request: &Received) -> (u16, &'static str, Vec<(&'static str, &'static str)>, String) {
    const JSON: &str = "application/json";
    match (request.method.as_str(), request.target.split('?').next().unwrap_or_default()) {
        ("GET", "/books") => (
            200,
            JSON,
            vec![("X-Total", "2")],
            json!([{"id": 1, "title": "One"}, {"id": 2, "title": "Two"}]).to_string(),
        ),
        ("GET", "/books/1") => (200, JSON, vec![], json!({"id": 1, "title": "One"}).to_string()),
        // A wrong type.
        ("GET", "/books/2") => (200, JSON, vec![], json!({"id": "2", "title": "Two"}).to_string()),
        // A required field missing.
        ("GET", "/books/3") => (200, JSON, vec![], json!({"id": 3}).to_string()),
        // An undocumented status.
        ("GET", "/books/4") => (418, JSON, vec![], json!({"teapot": true}).to_string()),
        // A wrong media type.
        ("GET", "/books/5") => (200, "text/html", vec![], "<p>book five</p>".to_owned()),
        ("POST", "/books") => (201, JSON, vec![], json!({"id": 9, "title": "Nine"}).to_string()),
        _ => (404, JSON, vec![], json!({"message": "no"}).to_string()),
    }
}

struct Reply {
    status: u16,
    drift: String,
    operation: String,
    body: String,
}

fn call(url: &str, method: &str, path: &str, body: Option<&Value>) -> Reply {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(60)))
        .build()
        .into();
    let mut request = ureq::http::Request::builder()
        .method(method)
        .uri(format!("{url}{path}"))
        .header("X-Api-Key", SECRET)
        .header("Authorization", format!("Bearer {SECRET}-bearer"));
    if body.is_some() {
        request = request.header("Content-Type", "application/json");
    }
    let bytes = body.map(|b| b.to_string().into_bytes()).unwrap_or_default();
    let mut response = agent.run(request.body(bytes).expect("a valid request")).expect("an answer");
    let header = |name: &str| {
        response.headers().get(name).and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned()
    };
    let (drift, operation) = (header("x-playground-drift"), header("x-playground-operation"));
    let status = response.status().as_u16();
    let body = response.body_mut().read_to_string().expect("a text body");
    Reply { status, drift, operation, body }
}

fn drift(log: &Path) -> Output {
    Command::new(BINARY).arg("drift").arg(log).stdin(Stdio::null()).output().expect("playground drift runs")
}

// One walk, read top to bottom: a real API's answers checked, logged, recorded, replayed.
#[allow(clippy::too_many_lines)]
#[test]
fn real_answers_are_checked_logged_recorded_and_served_offline() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let (log, state) = (dir.path().join("drift.jsonl"), dir.path().join("state.json"));
    let spec = support::fixture("shelf.yaml");
    let real = RealApi::start();
    let proxy = Mock::start(&[
        "--spec",
        spec.to_str().expect("UTF-8 path"),
        "--proxy",
        &real.url(),
        "--log",
        log.to_str().expect("UTF-8 path"),
        "--state",
        state.to_str().expect("UTF-8 path"),
        "--record",
    ]);

    let good = call(&proxy.url, "GET", "/books/1", None);
    assert_eq!((good.status, good.drift.as_str(), good.operation.as_str()), (200, "none", "getBook"));
    assert_eq!(serde_json::from_str::<Value>(&good.body).expect("JSON"), json!({"id": 1, "title": "One"}));

    let wrong_type = call(&proxy.url, "GET", "/books/2", None);
    assert_eq!(wrong_type.status, 200);
    assert_eq!(wrong_type.drift, "1 mismatch: body `/id`: expected integer, got string");

    let missing = call(&proxy.url, "GET", "/books/3", None);
    assert_eq!(missing.drift, "1 mismatch: body `/title`: required, missing");

    let teapot = call(&proxy.url, "GET", "/books/4", None);
    assert_eq!(teapot.status, 418, "the real API's status passes through");
    assert!(teapot.drift.starts_with("1 mismatch: status status 418 is not documented"), "{}", teapot.drift);

    let html = call(&proxy.url, "GET", "/books/5", None);
    assert_eq!(html.body, "<p>book five</p>");
    assert!(
        html.drift.contains("media-type media type text/html is not documented for status 200"),
        "{}",
        html.drift
    );

    let list = call(&proxy.url, "GET", "/books?limit=2", None);
    assert_eq!((list.status, list.drift.as_str()), (200, "none"));

    // The description refuses this body (no id, a title that is not a string); the real API
    // still gets it, and the answer says so.
    let refused = call(&proxy.url, "POST", "/books", Some(&json!({"title": 5})));
    assert_eq!(refused.status, 201);
    assert!(refused.drift.contains("request `/id`: "), "{}", refused.drift);
    assert!(refused.drift.contains("request `/title`: "), "{}", refused.drift);

    let received = real.received();
    let posted = received.iter().find(|r| r.method == "POST").expect("the POST reached the real API");
    assert_eq!(posted.body, br#"{"title":5}"#);
    // Credentials pass through to the real API.
    assert!(received.iter().all(|r| r.header("X-Api-Key") == Some(SECRET)), "{received:?}");
    assert!(received.iter().all(|r| r.header("Authorization").is_some_and(|a| a.contains(SECRET))));
    assert_eq!(
        received.iter().find(|r| r.target.starts_with("/books?")).map(|r| r.target.as_str()),
        Some("/books?limit=2")
    );
    proxy.stop();

    // One line per exchange, with operation, status and mismatches; nothing of the credentials.
    let text = std::fs::read_to_string(&log).expect("the log is written");
    assert!(!text.contains(SECRET), "{text}");
    let lines: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).expect("a JSON line")).collect();
    assert_eq!(lines.len(), 7, "{text}");
    assert_eq!(lines[1]["operation"], "getBook");
    assert_eq!(lines[1]["status"], 200);
    assert_eq!(
        lines[1]["mismatches"],
        json!([{"kind": "body", "pointer": "/id", "rule": "expected integer, got string"}])
    );
    assert_eq!(lines[3]["status"], 418);
    assert_eq!(lines[3]["mismatches"][0]["kind"], "status");
    assert_eq!(lines[5]["path"], "/books", "the query is left out");

    let summed = drift(&log);
    let out = String::from_utf8_lossy(&summed.stdout);
    assert!(summed.status.success(), "{}", String::from_utf8_lossy(&summed.stderr));
    let line_of = |operation: &str| {
        out.lines()
            .find(|l| l.starts_with(&format!("{operation} ")))
            .unwrap_or_else(|| panic!("{operation} in {out}"))
    };
    let get_book: Vec<&str> = line_of("getBook").split_whitespace().collect();
    assert_eq!(&get_book[..3], ["getBook", "5", "4"], "{out}");
    assert!(line_of("getBook").contains("status 1, media-type 1, body 2"), "{out}");
    assert!(line_of("createBook").contains("request 2"), "{out}");
    assert!(line_of("listBooks").ends_with("none"), "{out}");
    assert!(out.trim_end().ends_with("7 calls of 3 operations, 5 with mismatches"), "{out}");

    // Offline: the recorded answers, from the state file alone.
    drop(real);
    let offline = Mock::start(&[
        "--spec",
        spec.to_str().expect("UTF-8 path"),
        "--state",
        state.to_str().expect("UTF-8 path"),
    ]);
    let one = call(&offline.url, "GET", "/books/1", None);
    assert_eq!((one.status, one.drift.as_str()), (200, ""), "the mock answers, not a proxy");
    assert_eq!(serde_json::from_str::<Value>(&one.body).expect("JSON"), json!({"id": 1, "title": "One"}));
    let created = call(&offline.url, "GET", "/books/9", None);
    assert_eq!(
        serde_json::from_str::<Value>(&created.body).expect("JSON"),
        json!({"id": 9, "title": "Nine"})
    );
    let listed = call(&offline.url, "GET", "/books", None);
    let ids: Vec<Value> = serde_json::from_str::<Value>(&listed.body)
        .expect("JSON")
        .as_array()
        .expect("a list")
        .iter()
        .map(|b| b["id"].clone())
        .collect();
    assert!(ids.contains(&json!(1)) && ids.contains(&json!(2)) && ids.contains(&json!(9)), "{}", listed.body);
    offline.stop();
}

#[test]
fn an_unreachable_real_api_is_a_502_naming_it() {
    // A port that was free a moment ago: nothing listens there.
    let port = TcpListener::bind("127.0.0.1:0").expect("binds").local_addr().expect("an address").port();
    let spec = support::fixture("shelf.yaml");
    let proxy = Mock::start(&[
        "--spec",
        spec.to_str().expect("UTF-8 path"),
        "--proxy",
        &format!("http://127.0.0.1:{port}"),
    ]);
    let reply = call(&proxy.url, "GET", "/books/1", None);
    assert_eq!(reply.status, 502);
    let body: Value = serde_json::from_str(&reply.body).expect("the Error object");
    assert_eq!(body["code"], "bad_gateway");
    let message = body["message"].as_str().expect("a message");
    assert!(
        message.starts_with(&format!("The real API at http://127.0.0.1:{port} did not answer")),
        "{message}"
    );
    proxy.stop();
}

#[test]
fn bad_proxy_flags_are_clear_errors() {
    let spec = support::fixture("shelf.yaml");
    let spec = spec.to_str().expect("UTF-8 path");
    let run = |args: &[&str]| Command::new(BINARY).args(args).stdin(Stdio::null()).output().expect("runs");
    let bad_url = run(&["mock", "--port", "0", "--spec", spec, "--proxy", "ftp://example.com"]);
    assert!(!bad_url.status.success());
    let stderr = String::from_utf8_lossy(&bad_url.stderr);
    assert!(stderr.contains("--proxy ftp://example.com: only http and https"), "{stderr}");
    let record_without_state = run(&["mock", "--spec", spec, "--proxy", "http://127.0.0.1:1", "--record"]);
    assert!(!record_without_state.status.success());
    assert!(String::from_utf8_lossy(&record_without_state.stderr).contains("--state"));
    let missing_log = drift(Path::new("/nonexistent/drift.jsonl"));
    assert!(!missing_log.status.success());
    assert!(
        String::from_utf8_lossy(&missing_log.stderr).contains("cannot read the log /nonexistent/drift.jsonl")
    );
}
