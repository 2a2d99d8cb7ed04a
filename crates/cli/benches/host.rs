//! `make bench-host`: `playground host` behind Debian's HAProxy passing TCP through (each
//! connection with a PROXY protocol v2 header, as docs/hosting.md sets it up), with one host and
//! with two, on one PostgreSQL (Debian's, started here), certificates from Debian's
//! Pebble. Prints, in Markdown:
//! - requests per second for the Petstore's published page (`playground build` of the app in
//!   `dist/`) over HTTPS with keep-alive, through the balancer and straight to one host;
//! - TLS handshakes per second (a new connection each, full handshakes: no resumption);
//! - the time from a change answered by one host to every host serving it: a domain going live
//!   (answered "live" by the issuing host, then served over HTTPS by each host) and a removal
//!   (answered, then refused in the handshake by each host).
//!
//! Everything runs on this machine: the load generator, HAProxy and the hosts share its cores,
//! so the figures compare shapes in one run (one host against two, the balancer against none),
//! they are not a capacity. Rounds are interleaved (one host, two hosts, again) and each figure
//! is the median of [`ROUNDS`]. Run with `cargo bench --profile native -p playground --bench
//! host` after `make build` (the page is built from `dist/`).

#![allow(clippy::print_stdout, clippy::print_stderr, reason = "a benchmark prints its figures")]
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "a benchmark stops at the first failure")]

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use http_body_util::{BodyExt, Empty};
use hyper::body::Bytes;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName};
use tokio::net::TcpStream;
use tokio_rustls::TlsConnector;

#[path = "../tests/support/balancer.rs"]
mod balancer;
#[path = "../tests/support/hosted.rs"]
mod hosted;
#[path = "../../host/tests/support/postgres.rs"]
mod postgres;

use hosted::{Hosted, add, api, sign_in, state, verify, wait_for};

/// Rounds of each measurement; the median is printed.
const ROUNDS: usize = 3;
/// How long each load runs.
const LOAD: Duration = Duration::from_secs(4);
/// Connections kept open for the requests.
const CONNECTIONS: usize = 32;
/// Clients making new connections for the handshakes.
const HANDSHAKERS: usize = 16;
/// New connections timed from connecting to the page's last byte.
const FIRST_REQUESTS: usize = 50;
/// Changes timed from answer to every host.
const CHANGES: usize = 5;
/// The custom domain served.
const DOMAIN: &str = "docs.example.test";

fn main() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dist = repo.join("dist");
    assert!(dist.join("index.html").is_file(), "no app in {}: run `make build` first", dist.display());
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();

    // Fixed ports, so that a host stopped for the one-host rounds starts again where HAProxy
    // looks for it.
    let [a_http, a_https, b_http, b_https] = balancer::free_ports::<4>();
    let balancer = balancer::Balancer::start_with([a_http, b_http], [a_https, b_https], true);
    BALANCED.set(balancer.https_address()).unwrap();
    let pebble =
        runtime.block_on(playground_certs::pebble::Pebble::start(balancer.http)).expect("Pebble starts");
    runtime.block_on(pebble.set_a("cname.docs-host.test", std::net::Ipv4Addr::LOCALHOST)).unwrap();
    for i in 0..=CHANGES {
        runtime.block_on(pebble.set_cname(&name(i), "cname.docs-host.test")).unwrap();
    }
    let url = runtime.block_on(postgres::cluster().database());

    let dir = tempfile::tempdir().unwrap();
    let config = hosted::write_config(dir.path());
    std::fs::remove_dir_all(dir.path().join("site")).unwrap();
    let built = std::process::Command::new(hosted::BINARY)
        .args(["build", "--switch", "--spec"])
        .arg(dist.join("petstore.json"))
        .arg("--app")
        .arg(&dist)
        .arg("--out")
        .arg(dir.path().join("site"))
        .output()
        .unwrap();
    assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
    std::fs::write(dir.path().join("pebble.pem"), pebble.listener_root_pem()).unwrap();
    let text = hosted::with_pebble(&std::fs::read_to_string(&config).unwrap(), &pebble);
    let with = |http: u16, https: u16| {
        text.replacen(
            "[listen]\nhttp = \"127.0.0.1:0\"",
            &format!(
                "[database]\nurl = \"{url}\"\n[listen]\nhttp = \"127.0.0.1:{http}\"\nhttps = \"127.0.0.1:{https}\"\npublic_https_port = {}\nproxy_protocol = true",
                balancer.https
            ),
            1,
        )
    };
    let (config_a, config_b) = (dir.path().join("host-a.toml"), dir.path().join("host-b.toml"));
    std::fs::write(&config_a, with(a_http, a_https)).unwrap();
    std::fs::write(&config_b, with(b_http, b_https)).unwrap();
    let a = Hosted::start_with(&config_a, true).expect("host A starts");
    let mut b = Some(Hosted::start_with(&config_b, true).expect("host B starts"));

    let admin = balancer.http_address();
    // Until HAProxy's checks have found the hosts up.
    let since = Instant::now();
    until(since, || api(&admin, "GET", "/projects/petstore/domains", None, "").0 == 401);
    let cookie = sign_in(&admin);
    add(&admin, &cookie, DOMAIN);
    verify(&admin, &cookie, DOMAIN);
    wait_for(&admin, &cookie, DOMAIN, "live", |v| state(v) == "live");
    let root = Arc::new(roots(pebble.issuing_root_pem()));
    let page =
        runtime.block_on(fetch(&balancer.https_address(), &root)).expect("the page through the balancer");
    assert!(page.contains("<title>"), "{page:.200}");

    println!("# `playground host` behind HAProxy\n");
    println!(
        "The Petstore's published page ({} bytes) at a custom domain over HTTPS; HAProxy {} passing TCP \
         to the hosts (`send-proxy-v2`); PostgreSQL 15; {} cores, load average {} at the start. Median of {ROUNDS} \
         interleaved rounds of {} s each.\n",
        page.len(),
        version("/usr/sbin/haproxy", &["-v"]),
        std::thread::available_parallelism().map_or(0, usize::from),
        load_average(),
        LOAD.as_secs()
    );

    let direct = format!("127.0.0.1:{a_https}");
    let through = balancer.https_address();
    b = load_rounds(&runtime, &root, &through, &direct, b, &config_b);
    let (p50, p90) = runtime.block_on(first_requests(&through, &root, FIRST_REQUESTS));
    println!(
        "\n| A new connection: the handshake, then the page ({FIRST_REQUESTS}, one at a time, two hosts) | Median | 90th percentile |\n|---|---:|---:|"
    );
    println!("| Through HAProxy | {p50:.1} ms | {p90:.1} ms |");

    let hosts = [direct.clone(), format!("127.0.0.1:{b_https}")];
    let (live, removed) = change_times(&runtime, &admin, &cookie, &hosts, &root);
    println!(
        "\n| From the answer to every host ({CHANGES} changes, two hosts) | Median | Slowest |\n|---|---:|---:|"
    );
    println!(
        "| A domain answered live, until both hosts serve it over HTTPS | {:.0} ms | {:.0} ms |",
        median(&live),
        live.iter().copied().fold(0.0, f64::max)
    );
    println!(
        "| A removal answered, until both hosts refuse its handshake | {:.0} ms | {:.0} ms |",
        median(&removed),
        removed.iter().copied().fold(0.0, f64::max)
    );
    println!("\nLoad average at the end: {}.", load_average());
    drop(a);
    drop(b);
}

/// From a change's answer to every host of `hosts` serving it, in milliseconds, for [`CHANGES`]
/// domains: (made live, removed). "Live" is when the state first says so (polled every 5 ms
/// through the balancer), the certificate issued and stored.
fn change_times(
    runtime: &tokio::runtime::Runtime,
    admin: &str,
    cookie: &str,
    hosts: &[String],
    root: &rustls::RootCertStore,
) -> (Vec<f64>, Vec<f64>) {
    let mut live = Vec::new();
    let mut removed = Vec::new();
    for i in 1..=CHANGES {
        let domain = name(i);
        add(admin, cookie, &domain);
        verify(admin, cookie, &domain);
        let path = format!("/projects/petstore/domains/{domain}");
        until(Instant::now(), || state(&api(admin, "GET", &path, Some(cookie), "").2) == "live");
        let answered = Instant::now();
        live.push(until(answered, || hosts.iter().all(|h| runtime.block_on(serves(h, &domain, root)))));
        let (status, _, json) = api(admin, "DELETE", &path, Some(cookie), "");
        assert_eq!(status, 200, "{json}");
        let answered = Instant::now();
        removed.push(until(answered, || hosts.iter().all(|h| !runtime.block_on(serves(h, &domain, root)))));
    }
    (live, removed)
}

/// The load figures, rounds interleaved: one host (B stopped, HAProxy sends everything to A),
/// then two; straight to A in the one-host rounds. Gives B back, running.
fn load_rounds(
    runtime: &tokio::runtime::Runtime,
    root: &rustls::RootCertStore,
    through: &str,
    direct: &str,
    mut b: Option<Hosted>,
    config_b: &Path,
) -> Option<Hosted> {
    // Interleaved: one host (B stopped, HAProxy sends everything to A), then two.
    let mut figures: [[Vec<f64>; 2]; 3] = Default::default();
    for _ in 0..ROUNDS {
        for hosts in [1, 2] {
            if hosts == 1 {
                if let Some(host) = b.take() {
                    host.kill();
                }
            } else if b.is_none() {
                b = Some(Hosted::start_with(config_b, true).expect("host B starts again"));
            }
            // Until HAProxy's check (every 100 ms) has seen B go or come.
            std::thread::sleep(Duration::from_millis(400));
            let i = hosts - 1;
            figures[0][i].push(runtime.block_on(requests(through, root, CONNECTIONS)));
            figures[1][i].push(runtime.block_on(handshakes(through, root, HANDSHAKERS)));
            if hosts == 1 {
                figures[2][0].push(runtime.block_on(requests(direct, root, CONNECTIONS)));
                figures[2][1].push(runtime.block_on(handshakes(direct, root, HANDSHAKERS)));
            }
        }
    }
    println!("| | One host | Two hosts |\n|---|---:|---:|");
    println!(
        "| Requests/s for the page, through HAProxy ({CONNECTIONS} keep-alive connections) | {:.0} | {:.0} |",
        median(&figures[0][0]),
        median(&figures[0][1])
    );
    println!(
        "| TLS handshakes/s through HAProxy ({HANDSHAKERS} clients, a new connection each) | {:.0} | {:.0} |",
        median(&figures[1][0]),
        median(&figures[1][1])
    );
    println!(
        "| Straight to host A, no balancer: requests/s, handshakes/s | {:.0}, {:.0} | |",
        median(&figures[2][0]),
        median(&figures[2][1])
    );

    b
}

fn name(i: usize) -> String {
    if i == 0 { DOMAIN.to_owned() } else { format!("change{i}.example.test") }
}

/// Polls `holds` every 5 ms for up to 30 s: the milliseconds from `since` until it held.
fn until(since: Instant, holds: impl Fn() -> bool) -> f64 {
    while !holds() {
        assert!(since.elapsed() < Duration::from_secs(30), "not within 30 s");
        std::thread::sleep(Duration::from_millis(5));
    }
    since.elapsed().as_secs_f64() * 1000.0
}

fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted.get(sorted.len() / 2).copied().unwrap_or(0.0)
}

fn roots(pem: &str) -> rustls::RootCertStore {
    let mut roots = rustls::RootCertStore::empty();
    for cert in CertificateDer::pem_slice_iter(pem.as_bytes()) {
        roots.add(cert.unwrap()).unwrap();
    }
    roots
}

/// A TLS client trusting `roots`, without session resumption (every handshake is a full one).
fn connector(roots: &rustls::RootCertStore) -> TlsConnector {
    let mut config =
        rustls::ClientConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_root_certificates(roots.clone())
            .with_no_client_auth();
    config.resumption = rustls::client::Resumption::disabled();
    TlsConnector::from(Arc::new(config))
}

/// A PROXY protocol v2 header with the LOCAL command (no client named), which a host with
/// `proxy_protocol` needs before anything else when it is reached without the balancer.
const LOCAL: [u8; 16] = *b"\r\n\r\n\0\r\nQUIT\n\x20\x00\x00\x00";

/// A TCP connection to `address`; straight to a host (not the balancer, whose port is
/// [`BALANCED`]'s), the LOCAL header first.
async fn tcp(address: &str) -> Result<TcpStream, String> {
    let mut tcp = TcpStream::connect(address).await.map_err(|e| e.to_string())?;
    tcp.set_nodelay(true).map_err(|e| e.to_string())?;
    if BALANCED.get().is_some_and(|b| b != address) {
        tokio::io::AsyncWriteExt::write_all(&mut tcp, &LOCAL).await.map_err(|e| e.to_string())?;
    }
    Ok(tcp)
}

/// The balancer's HTTPS address.
static BALANCED: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// An HTTP/1.1 connection over TLS to `address` for `name`.
async fn connect(
    address: &str,
    name: &str,
    connector: &TlsConnector,
) -> Result<hyper::client::conn::http1::SendRequest<Empty<Bytes>>, String> {
    let tcp = tcp(address).await?;
    let server = ServerName::try_from(name.to_owned()).map_err(|e| e.to_string())?;
    let tls = connector.connect(server, tcp).await.map_err(|e| e.to_string())?;
    let (sender, connection) = hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(tls))
        .await
        .map_err(|e| e.to_string())?;
    tokio::spawn(connection);
    Ok(sender)
}

/// `GET /` on `sender`: the body, or why not.
async fn get(
    sender: &mut hyper::client::conn::http1::SendRequest<Empty<Bytes>>,
    name: &str,
) -> Result<Bytes, String> {
    let request =
        hyper::Request::get("/").header("host", name).body(Empty::new()).map_err(|e| e.to_string())?;
    let response = sender.send_request(request).await.map_err(|e| e.to_string())?;
    if response.status() != 200 {
        return Err(format!("status {}", response.status()));
    }
    Ok(response.into_body().collect().await.map_err(|e| e.to_string())?.to_bytes())
}

async fn fetch(address: &str, roots: &rustls::RootCertStore) -> Result<String, String> {
    let mut sender = connect(address, DOMAIN, &connector(roots)).await?;
    Ok(String::from_utf8_lossy(&get(&mut sender, DOMAIN).await?).into_owned())
}

/// Whether `address` completes a handshake for `name` and answers 200 or 301.
async fn serves(address: &str, name: &str, roots: &rustls::RootCertStore) -> bool {
    let Ok(mut sender) = connect(address, name, &connector(roots)).await else { return false };
    let request = hyper::Request::get("/").header("host", name).body(Empty::new()).unwrap();
    sender.send_request(request).await.is_ok_and(|r| r.status() == 200 || r.status() == 301)
}

/// Milliseconds from connecting to the page's last byte on a new connection (the handshake and
/// the first request), one connection at a time, `count` times: (median, 90th percentile).
async fn first_requests(address: &str, roots: &rustls::RootCertStore, count: usize) -> (f64, f64) {
    let connector = connector(roots);
    let mut times = Vec::new();
    for _ in 0..count {
        let at = Instant::now();
        let mut sender = connect(address, DOMAIN, &connector).await.expect("connects");
        get(&mut sender, DOMAIN).await.expect("the page");
        times.push(at.elapsed().as_secs_f64() * 1000.0);
    }
    times.sort_by(f64::total_cmp);
    (median(&times), times[times.len() * 9 / 10])
}

/// Requests per second over `connections` keep-alive connections for [`LOAD`].
async fn requests(address: &str, roots: &rustls::RootCertStore, connections: usize) -> f64 {
    let done = Arc::new(AtomicU64::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let connector = connector(roots);
    let mut tasks = Vec::new();
    for _ in 0..connections {
        let (done, stop, connector, address) =
            (done.clone(), stop.clone(), connector.clone(), address.to_owned());
        tasks.push(tokio::spawn(async move {
            let mut sender = connect(&address, DOMAIN, &connector).await.expect("connects");
            while !stop.load(Ordering::Relaxed) {
                get(&mut sender, DOMAIN).await.expect("the page");
                done.fetch_add(1, Ordering::Relaxed);
            }
        }));
    }
    rate(done, stop, tasks).await
}

/// Full TLS handshakes per second by `clients`, each connecting, shaking hands, closing.
async fn handshakes(address: &str, roots: &rustls::RootCertStore, clients: usize) -> f64 {
    let done = Arc::new(AtomicU64::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let connector = connector(roots);
    let mut tasks = Vec::new();
    for _ in 0..clients {
        let (done, stop, connector, address) =
            (done.clone(), stop.clone(), connector.clone(), address.to_owned());
        tasks.push(tokio::spawn(async move {
            while !stop.load(Ordering::Relaxed) {
                let tcp = tcp(&address).await.expect("connects");
                let server = ServerName::try_from(DOMAIN).unwrap();
                let mut tls = connector.connect(server, tcp).await.expect("a handshake");
                let _ = tokio::io::AsyncWriteExt::shutdown(&mut tls).await;
                done.fetch_add(1, Ordering::Relaxed);
            }
        }));
    }
    rate(done, stop, tasks).await
}

/// Counts `done` over [`LOAD`] after a quarter second of warm-up, then stops the tasks.
async fn rate(done: Arc<AtomicU64>, stop: Arc<AtomicBool>, tasks: Vec<tokio::task::JoinHandle<()>>) -> f64 {
    tokio::time::sleep(Duration::from_millis(250)).await;
    let (start, at) = (done.load(Ordering::Relaxed), Instant::now());
    tokio::time::sleep(LOAD).await;
    let count = done.load(Ordering::Relaxed) - start;
    let elapsed = at.elapsed().as_secs_f64();
    stop.store(true, Ordering::Relaxed);
    for task in tasks {
        task.await.expect("a client ends cleanly");
    }
    count as f64 / elapsed
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".to_owned())
}

fn version(program: &str, args: &[&str]) -> String {
    std::process::Command::new(program)
        .args(args)
        .output()
        .ok()
        .and_then(|o| String::from_utf8_lossy(&o.stdout).split_whitespace().nth(2).map(str::to_owned))
        .unwrap_or_else(|| "unknown".to_owned())
}
