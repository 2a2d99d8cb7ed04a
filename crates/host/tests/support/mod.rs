//! A host on 127.0.0.1 with fakes of the outside world (DNS, the certificate authority, the
//! TLS handshake), and a small HTTP/1.1 client that sets any `Host` header.
#![allow(dead_code, clippy::unwrap_used)]

pub mod postgres;

use std::collections::{HashMap, HashSet};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use playground_domains::{DnsRecord, RecordKind, RecordSet};
use playground_host::config::HostConfig;
use playground_host::services::{
    BoxFuture, CertificateStore, Challenges, Io, Issued, Issuer, Services, TlsAcceptor, Verifier,
};
use playground_host::{RunningHost, start};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::Semaphore;

/// The admin host: a `*.localhost` name, which needs no certificate of its own (browsers keep a
/// `Secure` cookie over plain HTTP there), so the API is reached over plain HTTP.
pub const ADMIN: &str = "admin.docs-host.localhost";
pub const ORIGIN: &str = "https://admin.docs-host.localhost";
pub const TARGET: &str = "cname.docs-host.test";
pub const PASSWORD: &str = "correct horse battery";

/// DNS as the test sets it.
#[derive(Default)]
pub struct FakeDns {
    pub records: Mutex<Vec<DnsRecord>>,
    pub fail: Mutex<Option<String>>,
}

impl FakeDns {
    pub fn cname(&self, name: &str, value: &str) {
        self.records.lock().unwrap().push(DnsRecord::new(name, RecordKind::Cname, value, 3600));
    }
    pub fn add(&self, name: &str, kind: RecordKind, value: &str) {
        self.records.lock().unwrap().push(DnsRecord::new(name, kind, value, 3600));
    }
}

impl Verifier for FakeDns {
    fn records<'a>(&'a self, name: &'a str) -> BoxFuture<'a, Result<RecordSet, String>> {
        Box::pin(async move {
            if let Some(e) = self.fail.lock().unwrap().clone() {
                return Err(e);
            }
            let all = self.records.lock().unwrap();
            Ok(RecordSet(
                all.iter().filter(|r| r.name == name && r.kind != RecordKind::Caa).cloned().collect(),
            ))
        })
    }
    fn caa<'a>(&'a self, name: &'a str) -> BoxFuture<'a, Result<RecordSet, String>> {
        Box::pin(async move {
            let all = self.records.lock().unwrap();
            let mut current = name.to_owned();
            loop {
                let set: Vec<DnsRecord> =
                    all.iter().filter(|r| r.name == current && r.kind == RecordKind::Caa).cloned().collect();
                if !set.is_empty() {
                    return Ok(RecordSet(set));
                }
                match current.split_once('.') {
                    Some((_, parent)) if parent.contains('.') => current = parent.to_owned(),
                    _ => return Ok(RecordSet::default()),
                }
            }
        })
    }
}

/// A certificate authority that issues at once (or fails with a set message), optionally
/// held until the test lets it go.
pub struct FakeCa {
    pub fail: Mutex<Option<String>>,
    pub gate: Semaphore,
    pub held: bool,
    pub asked: Mutex<Vec<String>>,
    /// How long the certificates issued last (seconds).
    pub validity: Mutex<u64>,
}

impl FakeCa {
    pub fn new(held: bool) -> FakeCa {
        FakeCa {
            fail: Mutex::new(None),
            gate: Semaphore::new(0),
            held,
            asked: Mutex::new(Vec::new()),
            validity: Mutex::new(90 * 86_400),
        }
    }
}

impl Issuer for FakeCa {
    fn issue<'a>(&'a self, name: &'a str) -> BoxFuture<'a, Result<Issued, String>> {
        Box::pin(async move {
            self.asked.lock().unwrap().push(name.to_owned());
            if self.held {
                self.gate.acquire().await.unwrap().forget();
            }
            if let Some(e) = self.fail.lock().unwrap().clone() {
                return Err(e);
            }
            Ok(Issued {
                chain_pem: format!("CHAIN {name} {}", self.asked.lock().unwrap().len()),
                key_pem: format!("KEY {name}"),
                not_after: playground_host::now() + *self.validity.lock().unwrap(),
            })
        })
    }
}

/// What the TLS side offers.
#[derive(Default)]
pub struct FakeCerts {
    pub offered: Mutex<HashMap<String, String>>,
}

impl CertificateStore for FakeCerts {
    fn install(&self, name: &str, chain_pem: &str, _key_pem: &str) -> Result<(), String> {
        self.offered.lock().unwrap().insert(name.to_owned(), chain_pem.to_owned());
        Ok(())
    }
    fn withdraw(&self, name: &str) {
        self.offered.lock().unwrap().remove(name);
    }
}

/// Pending HTTP-01 answers.
#[derive(Default)]
pub struct FakeChallenges(pub Mutex<HashMap<String, String>>);

impl Challenges for FakeChallenges {
    fn key_authorization(&self, token: &str) -> Option<String> {
        self.0.lock().unwrap().get(token).cloned()
    }
}

/// The TLS side's stand-in: no handshake, so the HTTPS listener's routing is reachable over
/// plain TCP (rustls comes with playground-certs).
pub struct NoHandshake;

impl TlsAcceptor for NoHandshake {
    fn accept(&self, stream: TcpStream) -> BoxFuture<'static, std::io::Result<Box<dyn Io>>> {
        Box::pin(async move { Ok(Box::new(stream) as Box<dyn Io>) })
    }
}

pub struct Fakes {
    pub dns: Arc<FakeDns>,
    pub ca: Arc<FakeCa>,
    pub certs: Arc<FakeCerts>,
    pub challenges: Arc<FakeChallenges>,
}

impl Fakes {
    pub fn new(held: bool) -> Fakes {
        Fakes {
            dns: Arc::new(FakeDns::default()),
            ca: Arc::new(FakeCa::new(held)),
            certs: Arc::new(FakeCerts::default()),
            challenges: Arc::new(FakeChallenges::default()),
        }
    }
    pub fn services(&self) -> Services {
        Services {
            verifier: self.dns.clone(),
            issuer: self.ca.clone(),
            challenges: self.challenges.clone(),
            certificates: self.certs.clone(),
            tls: Some(Arc::new(NoHandshake)),
        }
    }
}

pub fn password_hash() -> String {
    static HASH: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    HASH.get_or_init(|| playground_host::password::hash_password(PASSWORD).unwrap()).clone()
}

/// A scratch folder with three sites and a host.toml.
pub struct Scratch {
    pub dir: tempfile::TempDir,
}

impl Scratch {
    /// With its state in a fresh database of the tests' PostgreSQL cluster; and that database's URL.
    pub async fn on_postgres() -> (Scratch, String) {
        let url = postgres::cluster().database().await;
        (Scratch::new(&format!("[database]\nurl = \"{url}\"\n")), url)
    }

    pub fn new(extra: &str) -> Scratch {
        Scratch::with_admin(extra, ADMIN)
    }

    /// With another admin host.
    pub fn with_admin(extra: &str, admin: &str) -> Scratch {
        let dir = tempfile::tempdir().unwrap();
        for site in ["petstore", "freebie", "bostore"] {
            let root = dir.path().join(site);
            std::fs::create_dir_all(root.join("guide")).unwrap();
            std::fs::write(root.join("index.html"), format!("<h1>{site}</h1>")).unwrap();
            std::fs::write(root.join("app.js"), "console.log(1)").unwrap();
            std::fs::write(root.join("app.wasm"), b"\0asm").unwrap();
            std::fs::write(root.join("guide/index.html"), "guide").unwrap();
            // Markdown twins, as `playground build` writes them.
            std::fs::create_dir_all(root.join("operations")).unwrap();
            std::fs::write(root.join("index.md"), format!("# {site}")).unwrap();
            std::fs::write(root.join("llms.txt"), format!("# {site}\n> docs")).unwrap();
            std::fs::write(root.join("operations/listPets.md"), "# List pets").unwrap();
            // An earlier version and the Changes pages, as `playground build --previous` writes them.
            std::fs::create_dir_all(root.join("v/1.0/changes")).unwrap();
            std::fs::create_dir_all(root.join("changes")).unwrap();
            std::fs::write(root.join("v/1.0/index.html"), format!("<h1>{site} 1.0</h1>")).unwrap();
            std::fs::write(root.join("v/1.0/index.md"), format!("# {site} 1.0")).unwrap();
            std::fs::write(root.join("v/1.0/app.js"), "console.log(1.0)").unwrap();
            std::fs::write(root.join("changes/index.html"), "<h1>Changes in 2.0</h1>").unwrap();
            std::fs::write(root.join("changes/index.md"), "## Changes in 2.0").unwrap();
            std::fs::write(
                root.join("versions.json"),
                r#"[{"name":"2.0","path":""},{"name":"1.0","path":"v/1.0/"}]"#,
            )
            .unwrap();
        }
        std::fs::write(dir.path().join("secret.txt"), "outside").unwrap();
        let hash = password_hash();
        let config = format!(
            r#"
platform_domain = "docs-host.test"
cname_target = "{TARGET}"
apex_addresses = ["192.0.2.10", "2001:db8::10"]
admin_host = "{admin}"
data_dir = "data"
{extra}
[listen]
http = "127.0.0.1:0"
https = "127.0.0.1:0"
[acme]
directory_url = "https://127.0.0.1:14000/dir"
contact = "mailto:ops@example.com"
ca_identifier = "letsencrypt.org"
renew_check_secs = 1
[[owners]]
email = "ana@example.com"
password_hash = "{hash}"
[[owners]]
email = "bo@example.com"
password_hash = "{hash}"
[[projects]]
name = "petstore"
site = "petstore"
owner = "ana@example.com"
plan = "pro"
[[projects]]
name = "freebie"
site = "freebie"
owner = "ana@example.com"
plan = "free"
[[projects]]
name = "bostore"
site = "bostore"
owner = "bo@example.com"
plan = "business"
"#
        );
        std::fs::write(dir.path().join("host.toml"), config).unwrap();
        Scratch { dir }
    }

    pub fn config_path(&self) -> PathBuf {
        self.dir.path().join("host.toml")
    }

    pub fn config(&self) -> HostConfig {
        HostConfig::load(&self.config_path()).unwrap()
    }

    pub async fn start(&self, fakes: &Fakes) -> RunningHost {
        start(self.config(), fakes.services()).await.unwrap()
    }
}

/// One answer.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Answer {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text()))
    }
    /// The `name=value` of the session cookie set.
    pub fn cookie(&self) -> String {
        let set = self.header("set-cookie").expect("a cookie");
        set.split(';').next().unwrap().to_owned()
    }
}

/// Sends one request over a fresh connection (`Connection: close`) and reads the answer.
pub async fn send(
    address: SocketAddr,
    method: &str,
    host: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> Answer {
    send_after(address, b"", method, host, path, headers, body).await.expect("an answer")
}

/// [`send`] with `prefix` first (a PROXY protocol header); `None` when the connection is closed
/// without an answer.
pub async fn send_after(
    address: SocketAddr,
    prefix: &[u8],
    method: &str,
    host: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> Option<Answer> {
    let mut stream = TcpStream::connect(address).await.unwrap();
    stream.write_all(prefix).await.unwrap();
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n");
    for (n, v) in headers {
        head.push_str(&format!("{n}: {v}\r\n"));
    }
    if !body.is_empty() || method != "GET" {
        head.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).await.unwrap();
    // A server may answer (413) before reading the whole body and close: ignore that.
    let _ = stream.write_all(body).await;
    let mut raw = Vec::new();
    tokio::time::timeout(Duration::from_secs(20), stream.read_to_end(&mut raw)).await.unwrap().unwrap_or(0);
    (!raw.is_empty()).then(|| parse(&raw))
}

fn parse(raw: &[u8]) -> Answer {
    let split = raw.windows(4).position(|w| w == b"\r\n\r\n").expect("a whole head");
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let mut lines = head.split("\r\n");
    let status = lines.next().unwrap().split(' ').nth(1).unwrap().parse().unwrap();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    let mut body = raw[split + 4..].to_vec();
    if headers.iter().any(|(n, v)| n == "transfer-encoding" && v.contains("chunked")) {
        body = dechunk(&body);
    }
    Answer { status, headers, body }
}

fn dechunk(mut data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let Some(end) = data.windows(2).position(|w| w == b"\r\n") else { return out };
        let size = usize::from_str_radix(String::from_utf8_lossy(&data[..end]).trim(), 16).unwrap_or(0);
        if size == 0 {
            return out;
        }
        out.extend_from_slice(&data[end + 2..end + 2 + size]);
        data = &data[end + 2 + size + 2..];
    }
}

/// The API as a signed-in owner.
pub struct Client {
    pub address: SocketAddr,
    pub cookie: String,
}

impl Client {
    pub async fn sign_in(address: SocketAddr, email: &str) -> Client {
        let body = format!(r#"{{"email":"{email}","password":"{PASSWORD}"}}"#);
        let answer = api(address, "POST", "/session", &[("Origin", ORIGIN)], body.as_bytes()).await;
        assert_eq!(answer.status, 200, "{}", answer.text());
        Client { address, cookie: answer.cookie() }
    }

    pub async fn call(&self, method: &str, path: &str, body: Option<&str>) -> Answer {
        let mut headers = vec![("Cookie", self.cookie.as_str()), ("Origin", ORIGIN)];
        if body.is_some() {
            headers.push(("Content-Type", "application/json"));
        }
        api(self.address, method, path, &headers, body.unwrap_or("").as_bytes()).await
    }

    pub async fn get(&self, path: &str) -> Answer {
        self.call("GET", path, None).await
    }

    pub async fn post(&self, path: &str, body: &str) -> Answer {
        self.call("POST", path, Some(body)).await
    }
}

/// A request to the API on the admin host (JSON content type when there is a body).
pub async fn api(
    address: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> Answer {
    let mut all: Vec<(&str, &str)> = headers.to_vec();
    if !body.is_empty() && !headers.iter().any(|(n, _)| n.eq_ignore_ascii_case("content-type")) {
        all.push(("Content-Type", "application/json"));
    }
    send(address, method, ADMIN, &format!("/_host/api{path}"), &all, body).await
}

/// Waits (at most 10 s) until the domain reaches `state`.
pub async fn wait_for_state(client: &Client, project: &str, name: &str, state: &str) -> Value {
    for _ in 0..200 {
        let answer = client.get(&format!("/projects/{project}/domains/{name}")).await;
        let view = answer.json();
        if view["state"] == state {
            return view;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("{name} never became {state}");
}

pub fn offered(fakes: &Fakes) -> HashSet<String> {
    fakes.certs.offered.lock().unwrap().keys().cloned().collect()
}

pub fn path_of(scratch: &Scratch, name: &str) -> PathBuf {
    Path::new(scratch.dir.path()).join(name)
}
