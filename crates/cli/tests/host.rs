//! `playground host` run as a user runs it: `host hash-password` makes the owner's hash, the
//! host serves and answers the API, a second host on the same state is refused, and `kill -9`
//! in the middle of changes loses none that was acknowledged.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;

const BINARY: &str = env!("CARGO_BIN_EXE_playground");
const ADMIN: &str = "admin.docs-host.test";
const ORIGIN: &str = "https://admin.docs-host.test";
const PASSWORD: &str = "tr0ub4dor&3";

fn hash_password() -> String {
    let mut child = Command::new(BINARY)
        .args(["host", "hash-password"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("playground starts");
    child.stdin.take().expect("stdin").write_all(format!("{PASSWORD}\n").as_bytes()).expect("writes");
    let out = child.wait_with_output().expect("waits");
    assert!(out.status.success());
    let hash = String::from_utf8(out.stdout).expect("UTF-8").trim().to_owned();
    assert!(hash.starts_with("$argon2id$"), "{hash}");
    hash
}

fn write_config(dir: &Path) -> std::path::PathBuf {
    let site = dir.join("site");
    std::fs::create_dir_all(&site).expect("site folder");
    std::fs::write(site.join("index.html"), "<h1>petstore</h1>").expect("index");
    let config = format!(
        r#"platform_domain = "docs-host.test"
cname_target = "cname.docs-host.test"
admin_host = "{ADMIN}"
data_dir = "data"
[listen]
http = "127.0.0.1:0"
[acme]
directory_url = "https://127.0.0.1:14000/dir"
contact = "mailto:ops@example.com"
ca_identifier = "letsencrypt.org"
[[owners]]
email = "ana@example.com"
password_hash = "{}"
[[projects]]
name = "petstore"
site = "site"
owner = "ana@example.com"
plan = "pro"
"#,
        hash_password()
    );
    let path = dir.join("host.toml");
    std::fs::write(&path, config).expect("host.toml");
    path
}

/// A `playground host` child, killed when dropped.
struct Hosted {
    child: Child,
    address: String,
    stderr: Arc<Mutex<String>>,
}

impl Hosted {
    fn start(config: &Path) -> Result<Hosted, String> {
        let mut child = Command::new(BINARY)
            .args(["host", "--config"])
            .arg(config)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("playground starts");
        let stderr = Arc::new(Mutex::new(String::new()));
        let mut pipe = child.stderr.take().expect("stderr");
        let sink = Arc::clone(&stderr);
        std::thread::spawn(move || {
            let mut buffer = [0_u8; 1024];
            while let Ok(read @ 1..) = pipe.read(&mut buffer) {
                sink.lock().expect("buffer").push_str(&String::from_utf8_lossy(&buffer[..read]));
            }
        });
        let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
        let mut line = String::new();
        let _ = stdout.read_line(&mut line);
        std::thread::spawn(move || {
            let mut rest = String::new();
            let _ = stdout.read_to_string(&mut rest);
        });
        match line.trim().strip_prefix("playground listening on http://") {
            Some(address) => Ok(Hosted { child, address: address.to_owned(), stderr }),
            None => {
                let status = child.wait().expect("waits");
                std::thread::sleep(Duration::from_millis(100));
                Err(format!("{status}: {}", stderr.lock().expect("buffer")))
            }
        }
    }

    fn kill(mut self) {
        // SIGKILL on Unix: no handler runs, nothing is flushed by the host.
        self.child.kill().expect("kills");
        self.child.wait().expect("waits");
    }
}

impl Drop for Hosted {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One API request; (status, headers, JSON body or Null).
fn api(address: &str, method: &str, path: &str, cookie: Option<&str>, body: &str) -> (u16, String, Value) {
    let mut stream = TcpStream::connect(address).expect("connects");
    stream.set_read_timeout(Some(Duration::from_secs(20))).expect("timeout");
    let mut request = format!(
        "{method} /_host/api{path} HTTP/1.1\r\nHost: {ADMIN}\r\nOrigin: {ORIGIN}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n",
        body.len()
    );
    if let Some(cookie) = cookie {
        request.push_str(&format!("Cookie: {cookie}\r\n"));
    }
    request.push_str("\r\n");
    request.push_str(body);
    stream.write_all(request.as_bytes()).expect("writes");
    let mut raw = String::new();
    // A killed host cuts the connection: whatever arrived is the answer (none: status 0).
    let _ = stream.read_to_string(&mut raw);
    let Some((head, body)) = raw.split_once("\r\n\r\n") else { return (0, String::new(), Value::Null) };
    let status = head.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    (status, head.to_owned(), serde_json::from_str(body).unwrap_or(Value::Null))
}

fn sign_in(address: &str) -> String {
    let body = format!(r#"{{"email":"ana@example.com","password":"{PASSWORD}"}}"#);
    let (status, head, json) = api(address, "POST", "/session", None, &body);
    assert_eq!(status, 200, "{json}");
    let cookie = head
        .lines()
        .find_map(|l| l.strip_prefix("set-cookie: ").or_else(|| l.strip_prefix("Set-Cookie: ")))
        .expect("a cookie");
    cookie.split(';').next().expect("name=value").to_owned()
}

fn domain_names(address: &str, cookie: &str) -> Vec<String> {
    let (status, _, json) = api(address, "GET", "/projects/petstore/domains", Some(cookie), "");
    assert_eq!(status, 200, "{json}");
    json["domains"]
        .as_array()
        .expect("domains")
        .iter()
        .map(|d| d["name"].as_str().expect("name").to_owned())
        .collect()
}

#[test]
fn kill_9_loses_nothing_acknowledged_and_a_second_host_is_refused() {
    let dir = tempfile::tempdir().expect("scratch");
    let config = write_config(dir.path());
    let host = Hosted::start(&config).expect("the host starts");

    // A second host on the same data dir is refused, saying why.
    let error = Hosted::start(&config).err().expect("refused");
    assert!(error.contains("another playground host is using the data directory"), "{error}");

    let cookie = sign_in(&host.address);
    let (status, _, json) = api(
        &host.address,
        "POST",
        "/projects/petstore/domains",
        Some(&cookie),
        r#"{"name":"keep.example.com"}"#,
    );
    assert_eq!(status, 201, "{json}");
    let (status, _, json) = api(
        &host.address,
        "POST",
        "/projects/petstore/domains",
        Some(&cookie),
        r#"{"name":"gone.example.com"}"#,
    );
    assert_eq!(status, 201, "{json}");
    let (status, _, json) =
        api(&host.address, "DELETE", "/projects/petstore/domains/gone.example.com", Some(&cookie), "");
    assert_eq!(status, 200, "{json}");
    // Verify with no resolver wired: the failed check is kept too.
    let (status, _, json) =
        api(&host.address, "POST", "/projects/petstore/domains/keep.example.com/verify", Some(&cookie), "");
    assert_eq!((status, json["code"].as_str()), (502, Some("dns_failed")), "{json}");

    // Changes keep coming while the host is killed, at a different moment each round.
    let mut host = host;
    let mut acknowledged: Vec<String> = Vec::new();
    for (round, pause_ms) in [150_u64, 320, 470, 610].into_iter().enumerate() {
        let acked = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let writers: Vec<_> = (0..2)
            .map(|w| {
                let (address, cookie, acked, stop) =
                    (host.address.clone(), cookie.clone(), Arc::clone(&acked), Arc::clone(&stop));
                std::thread::spawn(move || {
                    for i in 0..400 {
                        if stop.load(Ordering::SeqCst) {
                            break;
                        }
                        let name = format!("r{round}w{w}n{i}.example.com");
                        let body = format!(r#"{{"name":"{name}"}}"#);
                        let (status, _, json) =
                            api(&address, "POST", "/projects/petstore/domains", Some(&cookie), &body);
                        match status {
                            201 => acked.lock().expect("list").push(name),
                            0 => break,
                            other => panic!("{name}: {other} {json}"),
                        }
                    }
                })
            })
            .collect();
        std::thread::sleep(Duration::from_millis(pause_ms));
        let stderr = Arc::clone(&host.stderr);
        host.kill();
        stop.store(true, Ordering::SeqCst);
        for writer in writers {
            writer.join().expect("the writer ends");
        }
        let acked = acked.lock().expect("list").clone();
        assert!(
            !acked.is_empty(),
            "round {round}: nothing went through; stderr: {}",
            stderr.lock().expect("buffer")
        );
        acknowledged.extend(acked);

        host = Hosted::start(&config).expect("the host starts again after kill -9");
        // The session was acknowledged too: the same cookie still works.
        let names = domain_names(&host.address, &cookie);
        assert_eq!(names.first().map(String::as_str), Some("keep.example.com"));
        assert!(!names.contains(&"gone.example.com".to_owned()), "{names:?}");
        for name in &acknowledged {
            assert!(names.contains(name), "{name} was acknowledged before kill -9 but is missing");
        }
    }
    eprintln!("4 kills, {} acknowledged adds, none lost", acknowledged.len());
    let (_, _, view) =
        api(&host.address, "GET", "/projects/petstore/domains/keep.example.com", Some(&cookie), "");
    assert_eq!(view["lastCheck"]["ok"], false, "{view}");
    drop(host);
}

#[test]
fn a_bad_configuration_is_refused_naming_the_file_and_the_key() {
    let dir = tempfile::tempdir().expect("scratch");
    let config = write_config(dir.path());
    let text = std::fs::read_to_string(&config).expect("reads");
    std::fs::write(&config, text.replace("[listen]", "colour = \"red\"\n[listen]")).expect("writes");
    let error = Hosted::start(&config).err().expect("refused");
    assert!(error.contains("host.toml"), "{error}");
    assert!(error.contains("colour"), "{error}");
    // Nothing was created.
    assert!(!dir.path().join("data").exists());
}

#[test]
fn sigterm_stops_the_host_cleanly() {
    let dir = tempfile::tempdir().expect("scratch");
    let config = write_config(dir.path());
    let mut host = Hosted::start(&config).expect("the host starts");
    let cookie = sign_in(&host.address);
    let status =
        Command::new("kill").arg("-TERM").arg(host.child.id().to_string()).status().expect("kill runs");
    assert!(status.success());
    let mut exit = None;
    for _ in 0..100 {
        if let Some(code) = host.child.try_wait().expect("waits") {
            exit = Some(code);
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let exit = exit.expect("the host stops within 5 s of SIGTERM");
    assert!(exit.success(), "{exit}");
    std::thread::sleep(Duration::from_millis(100));
    assert!(host.stderr.lock().expect("buffer").contains("SIGTERM received"));
    // And it starts again on the same state, the session kept.
    let again = Hosted::start(&config).expect("starts again");
    assert_eq!(domain_names(&again.address, &cookie), Vec::<String>::new());
}
