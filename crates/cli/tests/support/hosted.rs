//! `playground host` as a child process, and what the tests of crates/cli/tests/host.rs and
//! cluster.rs say to it: a configuration (one project, one owner), sign-in, the API over plain
//! HTTP on the admin host, HTTPS by SNI trusting a given root, and polling.

#![allow(dead_code, reason = "each test file uses its own part of the helpers")]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use playground_certs::pebble::Pebble;
use serde_json::Value;

pub const BINARY: &str = env!("CARGO_BIN_EXE_playground");
// A `*.localhost` admin host needs no certificate of its own: the API stays on plain HTTP.
pub const ADMIN: &str = "admin.docs-host.localhost";
pub const ORIGIN: &str = "https://admin.docs-host.localhost";
pub const PASSWORD: &str = "tr0ub4dor&3";

pub fn hash_password() -> String {
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

/// A UDP port nothing listens on (bound, then let go): a DNS server there fails at once.
pub fn closed_udp_port() -> u16 {
    let socket = std::net::UdpSocket::bind("127.0.0.1:0").expect("binds");
    socket.local_addr().expect("an address").port()
}

pub fn write_config(dir: &Path) -> std::path::PathBuf {
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
[dns]
server = "127.0.0.1:{}"
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
        closed_udp_port(),
        hash_password()
    );
    let path = dir.join("host.toml");
    std::fs::write(&path, config).expect("host.toml");
    path
}

/// A `playground host` child, killed when dropped.
pub struct Hosted {
    pub child: Child,
    /// The plain HTTP listener's address.
    pub address: String,
    /// The HTTPS listener's address, when it has one.
    pub https: Option<String>,
    /// What it wrote to stderr so far.
    pub stderr: Arc<Mutex<String>>,
}

impl Hosted {
    pub fn start(config: &Path) -> Result<Hosted, String> {
        Hosted::start_with(config, false)
    }

    /// Starts the host; `https`: wait for its HTTPS listener's line too.
    pub fn start_with(config: &Path, https: bool) -> Result<Hosted, String> {
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
        let mut second = String::new();
        if https {
            let _ = stdout.read_line(&mut second);
        }
        let https = second.trim().strip_prefix("playground listening on https://").map(str::to_owned);
        std::thread::spawn(move || {
            let mut rest = String::new();
            let _ = stdout.read_to_string(&mut rest);
        });
        match line.trim().strip_prefix("playground listening on http://") {
            Some(address) => Ok(Hosted { child, address: address.to_owned(), https, stderr }),
            None => {
                let status = child.wait().expect("waits");
                std::thread::sleep(Duration::from_millis(100));
                Err(format!("{status}: {}", stderr.lock().expect("buffer")))
            }
        }
    }

    pub fn kill(mut self) {
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

/// One API request; (status, headers, JSON body or Null). A host that is gone (killed between two
/// requests) answers status 0, as one killed mid-request does.
pub fn api(
    address: &str,
    method: &str,
    path: &str,
    cookie: Option<&str>,
    body: &str,
) -> (u16, String, Value) {
    let Ok(mut stream) = TcpStream::connect(address) else { return (0, String::new(), Value::Null) };
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
    if stream.write_all(request.as_bytes()).is_err() {
        return (0, String::new(), Value::Null);
    }
    let mut raw = String::new();
    // A killed host cuts the connection: whatever arrived is the answer (none: status 0).
    let _ = stream.read_to_string(&mut raw);
    let Some((head, body)) = raw.split_once("\r\n\r\n") else { return (0, String::new(), Value::Null) };
    let status = head.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    (status, head.to_owned(), serde_json::from_str(body).unwrap_or(Value::Null))
}

pub fn sign_in(address: &str) -> String {
    let body = format!(r#"{{"email":"ana@example.com","password":"{PASSWORD}"}}"#);
    let (status, head, json) = api(address, "POST", "/session", None, &body);
    assert_eq!(status, 200, "{json}");
    let cookie = head
        .lines()
        .find_map(|l| l.strip_prefix("set-cookie: ").or_else(|| l.strip_prefix("Set-Cookie: ")))
        .expect("a cookie");
    cookie.split(';').next().expect("name=value").to_owned()
}

/// Adds `name` to the project petstore; it must be answered 201.
pub fn add(address: &str, cookie: &str, name: &str) {
    let body = format!(r#"{{"name":"{name}"}}"#);
    let (status, _, json) = api(address, "POST", "/projects/petstore/domains", Some(cookie), &body);
    assert_eq!(status, 201, "{name}: {json}");
}

/// Verifies `name`; it must be answered 200. The answer's message.
pub fn verify(address: &str, cookie: &str, name: &str) -> String {
    let (status, _, json) =
        api(address, "POST", &format!("/projects/petstore/domains/{name}/verify"), Some(cookie), "");
    assert_eq!(status, 200, "{name}: {json}");
    json["message"].as_str().unwrap_or_default().to_owned()
}

/// Removes `name`; it must be answered 200.
pub fn remove(address: &str, cookie: &str, name: &str) {
    let (status, _, json) =
        api(address, "DELETE", &format!("/projects/petstore/domains/{name}"), Some(cookie), "");
    assert_eq!(status, 200, "{name}: {json}");
}

pub fn domain_names(address: &str, cookie: &str) -> Vec<String> {
    let (status, _, json) = api(address, "GET", "/projects/petstore/domains", Some(cookie), "");
    assert_eq!(status, 200, "{json}");
    json["domains"]
        .as_array()
        .expect("domains")
        .iter()
        .map(|d| d["name"].as_str().expect("name").to_owned())
        .collect()
}

/// `GET path` over HTTPS to `address` with SNI `name`, trusting only `root_pem`: the status
/// and body, or why the handshake failed.
pub fn https_get(
    address: &str,
    name: &str,
    path: &str,
    root_pem: &str,
) -> Result<(u16, String, String), String> {
    use rustls::pki_types::pem::PemObject;
    use rustls::pki_types::{CertificateDer, ServerName};
    let mut roots = rustls::RootCertStore::empty();
    for cert in CertificateDer::pem_slice_iter(root_pem.as_bytes()) {
        roots.add(cert.map_err(|e| e.to_string())?).map_err(|e| e.to_string())?;
    }
    let config =
        rustls::ClientConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
            .with_safe_default_protocol_versions()
            .map_err(|e| e.to_string())?
            .with_root_certificates(roots)
            .with_no_client_auth();
    let server = ServerName::try_from(name.to_owned()).map_err(|e| e.to_string())?;
    let connection = rustls::ClientConnection::new(Arc::new(config), server).map_err(|e| e.to_string())?;
    let socket = TcpStream::connect(address).map_err(|e| e.to_string())?;
    socket.set_read_timeout(Some(Duration::from_secs(20))).map_err(|e| e.to_string())?;
    let mut tls = rustls::StreamOwned::new(connection, socket);
    let request = format!("GET {path} HTTP/1.1\r\nHost: {name}\r\nConnection: close\r\n\r\n");
    tls.write_all(request.as_bytes()).map_err(|e| e.to_string())?;
    let mut raw = Vec::new();
    match tls.read_to_end(&mut raw) {
        Ok(_) => {}
        // A server that closes without close_notify: what arrived is the answer.
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof && !raw.is_empty() => {}
        Err(e) => return Err(e.to_string()),
    }
    let raw = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = raw.split_once("\r\n\r\n").ok_or_else(|| format!("no answer: {raw:?}"))?;
    let status = head.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    Ok((status, head.to_owned(), body.to_owned()))
}

/// Polls the domain until `check` holds of its view, for up to a minute.
pub fn wait_for(
    address: &str,
    cookie: &str,
    name: &str,
    what: &str,
    check: impl Fn(&Value) -> bool,
) -> Value {
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    loop {
        let (_, _, view) =
            api(address, "GET", &format!("/projects/petstore/domains/{name}"), Some(cookie), "");
        if check(&view) {
            return view;
        }
        assert!(std::time::Instant::now() < deadline, "{name} never became {what}: {view}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

pub fn state(view: &Value) -> &str {
    view["state"].as_str().or_else(|| view["domain"]["state"].as_str()).unwrap_or_default()
}

/// Polls `holds` every 20 ms for up to 2 s; how long it took, or the last failure.
pub fn within_2s(what: &str, holds: impl Fn() -> bool) -> Duration {
    let started = std::time::Instant::now();
    while started.elapsed() < Duration::from_secs(2) {
        if holds() {
            return started.elapsed();
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("{what}: not within 2 s");
}

/// `text` (a configuration [`write_config`] wrote) with Pebble as the certificate authority and
/// its DNS server as the resolver: `extra_root = "pebble.pem"`, which the caller writes beside
/// it ([`Pebble::listener_root_pem`]), looks renewals up every second.
pub fn with_pebble(text: &str, pebble: &Pebble) -> String {
    text.replacen("[dns]\nserver = ", &format!("[dns]\nserver = \"{}\"\n# was ", pebble.dns_addr()), 1)
        .replace(
            "directory_url = \"https://127.0.0.1:14000/dir\"",
            &format!(
                "directory_url = \"{}\"\nextra_root = \"pebble.pem\"\nrenew_check_secs = 1",
                pebble.directory_url()
            ),
        )
        .replace("ca_identifier = \"letsencrypt.org\"", "ca_identifier = \"pebble.letsencrypt.org\"")
}

/// A free TCP port of 127.0.0.1 that stays free for its server's restarts
/// ([`playground_certs::pebble::free_port`]).
pub fn free_port() -> u16 {
    playground_certs::pebble::free_port(false).expect("a free port")
}
