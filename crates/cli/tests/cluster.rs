//! Two `playground host` processes on one PostgreSQL database behind Debian's HAProxy passing
//! TCP through (TLS ends at the hosts), with the real parts, all on loopback and started by the
//! tests: PostgreSQL 15 (initdb and pg_ctl in a temporary folder,
//! crates/host/tests/support/postgres.rs), HAProxy (tests/support/balancer.rs), Pebble and its
//! DNS server (playground_certs::pebble), whose HTTP-01 validation goes through the balancer.
//! The walk from a domain added to its site served by both hosts and back; `kill -9` of either
//! host during issuance; 20 kills of either host under two writers, no acknowledged change
//! lost; a PostgreSQL restart, the API answering 503 meanwhile and both hosts following again;
//! and with the PROXY protocol between HAProxy and the hosts, sign-in limits per client.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use balancer::{Balancer, free_ports};
use hosted::{
    Hosted, add, api, domain_names, https_get, remove, sign_in, state, verify, wait_for, with_pebble,
    within_2s, write_config,
};
use playground_certs::pebble::Pebble;

#[path = "support/balancer.rs"]
mod balancer;
#[path = "support/hosted.rs"]
mod hosted;
#[path = "../../host/tests/support/postgres.rs"]
mod postgres;

const SITE: &str = "<h1>petstore</h1>";
const TARGET: &str = "cname.docs-host.test";

/// Two hosts' configurations (host-a.toml, host-b.toml) on database `url`, each with fixed
/// ports (so that a host killed starts again on the same ones), the 301s to HTTPS naming the
/// balancer's HTTPS port; Pebble as the authority when given.
struct Pair {
    _dir: tempfile::TempDir,
    configs: [PathBuf; 2],
    /// Each host's plain HTTP and HTTPS ports.
    ports: [(u16, u16); 2],
    balancer: Balancer,
}

impl Pair {
    /// The balancer on four free ports for the hosts, and their configurations; `pebble`, given
    /// the balancer's plain HTTP port, is started by `authority` when wanted.
    fn new(url: &str, authority: impl FnOnce(u16) -> Option<Pebble>) -> (Pair, Option<Pebble>) {
        Pair::new_with(url, false, authority)
    }

    /// [`Pair::new`]; with `proxy`, the balancer sends a PROXY protocol header before each
    /// connection and the hosts read it (`proxy_protocol = true`), as docs/hosting.md says.
    fn new_with(
        url: &str,
        proxy: bool,
        authority: impl FnOnce(u16) -> Option<Pebble>,
    ) -> (Pair, Option<Pebble>) {
        let [ha, sa, hb, sb] = free_ports::<4>();
        let balancer = Balancer::start_with([ha, hb], [sa, sb], proxy);
        let pebble = authority(balancer.http);
        let dir = tempfile::tempdir().expect("scratch");
        let text = std::fs::read_to_string(write_config(dir.path())).expect("reads");
        let text = match &pebble {
            Some(pebble) => {
                std::fs::write(dir.path().join("pebble.pem"), pebble.listener_root_pem()).expect("root");
                with_pebble(&text, pebble)
            }
            None => text,
        };
        let ports = [(ha, sa), (hb, sb)];
        let configs = [("host-a.toml", ports[0]), ("host-b.toml", ports[1])].map(|(file, (http, https))| {
            let path = dir.path().join(file);
            let listen = format!(
                "[database]\nurl = \"{url}\"\n[listen]\nhttp = \"127.0.0.1:{http}\"\nhttps = \"127.0.0.1:{https}\"\npublic_https_port = {}\nproxy_protocol = {proxy}",
                balancer.https
            );
            std::fs::write(&path, text.replacen("[listen]\nhttp = \"127.0.0.1:0\"", &listen, 1)).expect("writes");
            path
        });
        (Pair { _dir: dir, configs, ports, balancer }, pebble)
    }

    /// Host `i` (0: A, 1: B), started on its ports, once the balancer sends connections to it.
    fn start(&self, i: usize) -> Hosted {
        let host =
            Hosted::start_with(&self.configs[i], true).unwrap_or_else(|e| panic!("host {i} starts: {e}"));
        self.balancer.wait_up(i);
        host
    }

    /// Host `i`'s HTTPS address, reached directly.
    fn https(&self, i: usize) -> String {
        format!("127.0.0.1:{}", self.ports[i].1)
    }

    /// Host `i`'s plain HTTP address, reached directly.
    fn http(&self, i: usize) -> String {
        format!("127.0.0.1:{}", self.ports[i].0)
    }

    fn front(&self) -> String {
        self.balancer.http_address()
    }
}

/// Pebble validating at `http01_port`, with `cname.docs-host.test` at 127.0.0.1 and `names`
/// pointing at it.
fn pebble(runtime: &tokio::runtime::Runtime, http01_port: u16, names: &[&str]) -> Pebble {
    let pebble = runtime.block_on(Pebble::start(http01_port)).expect("Pebble starts");
    runtime.block_on(pebble.set_a(TARGET, std::net::Ipv4Addr::LOCALHOST)).expect("A of the target");
    for name in names {
        runtime.block_on(pebble.set_cname(name, TARGET)).expect("CNAME");
    }
    pebble
}

/// Whether `address` serves the site over HTTPS for `name`, trusting `root`.
fn serves(address: &str, name: &str, root: &str) -> bool {
    https_get(address, name, "/", root).is_ok_and(|(status, _, body)| status == 200 && body == SITE)
}

/// `GET path` over plain HTTP to `address` for `host`: status and body (status 0: no answer).
fn http_get(address: &str, host: &str, path: &str) -> (u16, String) {
    use std::io::{Read, Write};
    let Ok(mut stream) = std::net::TcpStream::connect(address) else { return (0, String::new()) };
    stream.set_read_timeout(Some(Duration::from_secs(20))).expect("timeout");
    let request = format!("GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n");
    if stream.write_all(request.as_bytes()).is_err() {
        return (0, String::new());
    }
    let mut raw = String::new();
    let _ = stream.read_to_string(&mut raw);
    let Some((head, body)) = raw.split_once("\r\n\r\n") else { return (0, String::new()) };
    (head.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0), body.to_owned())
}

/// Which of `hosts` holds the issuance lease in `url`'s database, if one does: the advisory
/// lock's backend (pg_locks), its client port (pg_stat_activity), and the host process that
/// has the socket of that port open (/proc).
fn lease_holder(runtime: &tokio::runtime::Runtime, url: &str, hosts: &[&Hosted]) -> Option<usize> {
    // The host's ISSUANCE_LOCK, 0x0070_6c61_7969_7373: pg_locks shows a bigint key's halves.
    let query = format!(
        "SELECT a.client_port FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
         WHERE l.locktype = 'advisory' AND l.granted AND l.classid = {} AND l.objid = {} AND l.objsubid = 1
           AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())",
        0x0070_6c61_u32, 0x7969_7373_u32
    );
    let port: i32 = runtime.block_on(async {
        let db = postgres::client(url).await;
        db.query_opt(&query, &[]).await.expect("pg_locks").map(|row| row.get(0))
    })?;
    let server: u16 = url.rsplit(':').next()?.split('/').next()?.parse().ok()?;
    let tcp = std::fs::read_to_string("/proc/net/tcp").expect("/proc/net/tcp");
    // The open connection from that port to the server (not one in TIME_WAIT, whose inode is 0).
    let sockets: Vec<String> = tcp
        .lines()
        .skip(1)
        .filter_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let port_of = |field: usize| u16::from_str_radix(fields.get(field)?.rsplit(':').next()?, 16).ok();
            let ours = port_of(1)? == u16::try_from(port).ok()? && port_of(2)? == server;
            (ours && *fields.get(9)? != "0").then(|| format!("socket:[{}]", fields[9]))
        })
        .collect();
    hosts.iter().position(|host| {
        std::fs::read_dir(format!("/proc/{}/fd", host.child.id())).is_ok_and(|fds| {
            fds.flatten().any(|fd| {
                std::fs::read_link(fd.path())
                    .is_ok_and(|l| sockets.iter().any(|s| l.as_os_str() == s.as_str()))
            })
        })
    })
}

/// How many HTTP-01 answers are published in `url`'s database.
fn challenges(runtime: &tokio::runtime::Runtime, url: &str) -> i64 {
    runtime.block_on(async {
        let db = postgres::client(url).await;
        db.query_one("SELECT COUNT(*) FROM challenges", &[]).await.expect("challenges").get(0)
    })
}

/// The walk through the balancer: a domain added, verified and made live (Pebble validating
/// through the balancer's plain HTTP port, so at either host) is served over HTTPS by SNI
/// through the balancer and by each host directly; a second live domain answers 301 to it
/// naming the balancer's HTTPS port; its removal stops the TLS handshake for it on both hosts
/// within 2 s.
#[test]
fn through_haproxy_a_domain_goes_live_on_both_hosts_and_its_removal_stops_both_handshakes() {
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    let url = runtime.block_on(postgres::cluster().database());
    let (pair, pebble) =
        Pair::new(&url, |port| Some(pebble(&runtime, port, &["docs.example.test", "old.example.test"])));
    let pebble = pebble.expect("Pebble");
    let root = pebble.issuing_root_pem();
    let (_a, _b) = (pair.start(0), pair.start(1));
    let (front, secure) = (pair.front(), pair.balancer.https_address());
    let cookie = sign_in(&front);

    // Added only: no certificate anywhere.
    add(&front, &cookie, "docs.example.test");
    assert!(https_get(&secure, "docs.example.test", "/", root).is_err());
    verify(&front, &cookie, "docs.example.test");
    let view = wait_for(&front, &cookie, "docs.example.test", "live", |v| state(v) == "live");
    assert_eq!(view["certificate"]["status"], "issued", "{view}");
    // Through the balancer and by each host directly (the one that did not record it follows
    // within 2 s).
    within_2s("the balancer serves docs.example.test", || serves(&secure, "docs.example.test", root));
    for i in 0..2 {
        let took = within_2s(&format!("host {i} serves docs.example.test"), || {
            serves(&pair.https(i), "docs.example.test", root)
        });
        eprintln!("host {i} serves docs.example.test directly {took:?} after it was seen live");
    }

    // A second live domain answers 301 to the primary, naming the balancer's HTTPS port.
    add(&front, &cookie, "old.example.test");
    verify(&front, &cookie, "old.example.test");
    wait_for(&front, &cookie, "old.example.test", "live", |v| state(v) == "live");
    let location = format!("location: https://docs.example.test:{}/pets?page=2", pair.balancer.https);
    let redirects = |address: &str| {
        https_get(address, "old.example.test", "/pets?page=2", root)
            .is_ok_and(|(status, head, _)| status == 301 && head.to_ascii_lowercase().contains(&location))
    };
    within_2s("the balancer redirects old.example.test", || redirects(&secure));
    for i in 0..2 {
        within_2s(&format!("host {i} redirects old.example.test"), || redirects(&pair.https(i)));
    }

    // Removed through the balancer: neither host offers its certificate within 2 s.
    remove(&front, &cookie, "old.example.test");
    let took = within_2s("both hosts stop the handshake for old.example.test", || {
        (0..2).all(|i| https_get(&pair.https(i), "old.example.test", "/", root).is_err())
    });
    eprintln!("both hosts refused the handshake {took:?} after the removal was answered");
    assert!(https_get(&secure, "old.example.test", "/", root).is_err());
    assert!(serves(&secure, "docs.example.test", root), "the primary is still served");
}

/// `kill -9` of either host during an issuance verified through the balancer: the holder of
/// the issuance lease (A, which started first) inside the order (its challenge's answer
/// published, no certificate yet), then the new holder (B) likewise, then the host that does
/// not hold it; each time the other host issues the certificate, served through the balancer,
/// and the host killed starts again on its ports.
#[test]
fn through_haproxy_kill_9_of_either_host_during_issuance_and_the_other_finishes() {
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    let url = runtime.block_on(postgres::cluster().database());
    let names = ["one.example.test", "two.example.test", "three.example.test"];
    let (pair, pebble) = Pair::new(&url, |port| Some(pebble(&runtime, port, &names)));
    let pebble = pebble.expect("Pebble");
    let root = pebble.issuing_root_pem();
    let (front, secure) = (pair.front(), pair.balancer.https_address());

    // A first, holding the lease (its first look takes it) before B starts.
    let mut hosts = [Some(pair.start(0)), None];
    let deadline = Instant::now() + Duration::from_secs(10);
    while lease_holder(&runtime, &url, &[hosts[0].as_ref().expect("A")]) != Some(0) {
        assert!(Instant::now() < deadline, "A never took the issuance lease");
        std::thread::sleep(Duration::from_millis(50));
    }
    hosts[1] = Some(pair.start(1));
    let cookie = sign_in(&front);

    for (round, name) in names.into_iter().enumerate() {
        let holder = {
            let both = [hosts[0].as_ref().expect("A"), hosts[1].as_ref().expect("B")];
            lease_holder(&runtime, &url, &both).expect("a host holds the lease")
        };
        // Rounds 0 and 1: the holder (A, then B, which took over); round 2: the other one.
        let victim = if round < 2 { holder } else { 1 - holder };
        assert_eq!(victim, [0, 1, 1 - holder][round], "round {round}: the lease is not where expected");
        add(&front, &cookie, name);
        let published = challenges(&runtime, &url);
        verify(&front, &cookie, name);
        if victim == holder {
            // Inside the order: once the holder has published the challenge's answer (which a
            // kill leaves behind; it expires), before it has the certificate (the polls of the
            // order pause 200 ms at least).
            let deadline = Instant::now() + Duration::from_secs(10);
            while challenges(&runtime, &url) == published {
                assert!(Instant::now() < deadline, "{name}: the holder never published a challenge");
                std::thread::sleep(Duration::from_millis(5));
            }
            let view = api(&front, "GET", &format!("/projects/petstore/domains/{name}"), Some(&cookie), "").2;
            assert_eq!(view["certificate"]["status"], "issuing", "{name}: killed too late, {view}");
        }
        let killed_at = Instant::now();
        hosts[victim].take().expect("running").kill();
        let view = wait_for(&front, &cookie, name, "live", |v| state(v) == "live");
        let took = killed_at.elapsed();
        assert_eq!(view["certificate"]["status"], "issued", "{view}");
        // The first is the primary, served; the others answer 301 to it.
        let expected = if round == 0 { 200 } else { 301 };
        let answer = https_get(&secure, name, "/", root);
        assert_eq!(answer.as_ref().map(|a| a.0), Ok(expected), "{name} through the balancer: {answer:?}");
        let survivor = hosts[1 - victim].as_ref().expect("running");
        assert!(
            survivor.stderr.lock().expect("buffer").contains(&format!("certificate issued for {name}")),
            "the other host issued {name}"
        );
        eprintln!(
            "round {round}: killed {} ({}), {name} live {took:?} after the kill",
            ["A", "B"][victim],
            if victim == holder { "the lease holder, inside the order" } else { "not the holder" }
        );
        hosts[victim] = Some(pair.start(victim));
    }
    // Everything issued is served by both, the restarted ones too.
    for i in 0..2 {
        for name in names {
            within_2s(&format!("host {i} serves {name}"), || {
                https_get(&pair.https(i), name, "/", root).is_ok_and(|(s, _, _)| s == 200 || s == 301)
            });
        }
    }
}

/// What a writer saw: adds and removals acknowledged (2xx), and how many were not (cut by a
/// kill, or overtaken by the other writer: 409 `changed_meanwhile`, nothing changed).
#[derive(Default)]
struct Seen {
    added: Vec<String>,
    removed: Vec<String>,
    unknown: Vec<String>,
    cut: usize,
    overtaken: usize,
}

/// Two writers through the balancer (adds, and removals of their own acknowledged adds) while
/// A and B are killed with `kill -9` in turn, 20 times, each started again on its ports: every
/// acknowledged add is there at the end, every acknowledged removal is not.
#[test]
fn through_haproxy_20_kills_of_either_host_under_two_writers_lose_no_acknowledged_change() {
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    let url = runtime.block_on(postgres::cluster().database());
    let (pair, _) = Pair::new(&url, |_| None);
    let mut hosts = [Some(pair.start(0)), Some(pair.start(1))];
    let front = pair.front();
    let cookie = sign_in(&front);

    let stop = Arc::new(AtomicBool::new(false));
    let writers: Vec<_> = (0..2)
        .map(|w| {
            let (front, cookie, stop) = (front.clone(), cookie.clone(), Arc::clone(&stop));
            std::thread::spawn(move || {
                let mut seen = Seen::default();
                let mut i = 0;
                while !stop.load(Ordering::SeqCst) {
                    i += 1;
                    // Every third change removes the oldest acknowledged add not removed yet.
                    let (method, path, body, name) =
                        match seen.added.get(seen.removed.len() + seen.unknown.len()) {
                            Some(name) if i % 3 == 0 => (
                                "DELETE",
                                format!("/projects/petstore/domains/{name}"),
                                String::new(),
                                name.clone(),
                            ),
                            _ => {
                                let name = format!("w{w}n{i}.example.com");
                                let body = format!(r#"{{"name":"{name}"}}"#);
                                ("POST", "/projects/petstore/domains".to_owned(), body, name)
                            }
                        };
                    let (status, _, json) = api(&front, method, &path, Some(&cookie), &body);
                    match (method, status) {
                        ("POST", 201) => seen.added.push(name),
                        ("DELETE", 200) => seen.removed.push(name),
                        (_, 0) => {
                            seen.cut += 1;
                            if method == "DELETE" {
                                seen.unknown.push(name);
                            }
                        }
                        (_, 409) if json["code"] == "changed_meanwhile" => seen.overtaken += 1,
                        _ => panic!("{method} {name}: {status} {json}"),
                    }
                }
                seen
            })
        })
        .collect();

    let started = Instant::now();
    for kill in 0..20_u64 {
        // At a different moment of the writers' requests each time (100 to 250 ms).
        std::thread::sleep(Duration::from_millis(100 + kill * 37 % 151));
        let i = usize::from(kill % 2 == 1);
        hosts[i].take().expect("running").kill();
        std::thread::sleep(Duration::from_millis(100));
        hosts[i] = Some(pair.start(i));
    }
    std::thread::sleep(Duration::from_millis(300));
    stop.store(true, Ordering::SeqCst);
    let seen: Vec<Seen> = writers.into_iter().map(|w| w.join().expect("a writer ends")).collect();
    let elapsed = started.elapsed();

    let names = domain_names(&front, &cookie);
    let (mut added, mut removed, mut cut, mut overtaken) = (0, 0, 0, 0);
    for seen in &seen {
        let removed_or_unknown: Vec<&String> = seen.removed.iter().chain(&seen.unknown).collect();
        for name in &seen.added {
            if !removed_or_unknown.contains(&name) {
                assert!(names.contains(name), "{name}'s add was acknowledged but it is missing");
            }
        }
        for name in &seen.removed {
            assert!(!names.contains(name), "{name}'s removal was acknowledged but it is there");
        }
        (added, removed) = (added + seen.added.len(), removed + seen.removed.len());
        (cut, overtaken) = (cut + seen.cut, overtaken + seen.overtaken);
    }
    assert!(added > 40 && removed > 10, "too few changes went through: {added} adds, {removed} removals");
    // Both hosts answer the same, the restarted ones too.
    for i in 0..2 {
        assert_eq!(domain_names(&pair.http(i), &cookie), names, "host {i}");
    }
    eprintln!(
        "20 kills in {elapsed:?}: {} acknowledged changes ({added} adds, {removed} removals), none lost; {cut} cut by a kill, {overtaken} overtaken (409)",
        added + removed
    );
}

/// A PostgreSQL restart under two hosts behind the balancer: meanwhile the API answers 503
/// `state_unavailable` with `Retry-After` through either host, and the sites are still served;
/// after it, changes succeed again through both hosts, issuance resumes, and a change through A
/// reaches B's routing within 2 s again (NOTIFY followed).
#[test]
fn through_haproxy_a_postgresql_restart_is_answered_503_meanwhile_and_survived() {
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    // A cluster of its own: the others' tests share theirs.
    let cluster = postgres::Cluster::start();
    let url = runtime.block_on(cluster.database());
    let names = ["docs.example.test", "old.example.test", "new.example.test"];
    let (pair, pebble) = Pair::new(&url, |port| Some(pebble(&runtime, port, &names)));
    let pebble = pebble.expect("Pebble");
    let root = pebble.issuing_root_pem();
    let (_a, _b) = (pair.start(0), pair.start(1));
    let (front, secure) = (pair.front(), pair.balancer.https_address());
    let cookie = sign_in(&front);
    for name in &names[..2] {
        add(&front, &cookie, name);
        verify(&front, &cookie, name);
        wait_for(&front, &cookie, name, "live", |v| state(v) == "live");
    }
    within_2s("both hosts serve old.example.test", || {
        (0..2).all(|i| https_get(&pair.https(i), "old.example.test", "/", root).is_ok())
    });

    cluster.stop();
    for address in [front.clone(), pair.http(0), pair.http(1)] {
        let (status, head, json) = api(&address, "GET", "/projects/petstore/domains", Some(&cookie), "");
        assert_eq!(status, 503, "{address}: {json}");
        assert_eq!(json["code"], "state_unavailable", "{json}");
        assert_eq!(json["status"], 503, "{json}");
        assert!(json["message"].as_str().is_some_and(|m| m.contains("state database")), "{json}");
        assert!(head.to_ascii_lowercase().contains("retry-after: 2"), "{head}");
        let body = r#"{"name":"meanwhile.example.com"}"#;
        let (status, _, json) = api(&address, "POST", "/projects/petstore/domains", Some(&cookie), body);
        assert_eq!((status, json["code"].as_str()), (503, Some("state_unavailable")), "{json}");
    }
    // The sites are still served, through the balancer and by each host.
    assert!(serves(&secure, "docs.example.test", root));
    for i in 0..2 {
        assert!(serves(&pair.https(i), "docs.example.test", root), "host {i}");
        assert_eq!(http_get(&pair.http(i), "petstore.docs-host.test", "/").0, 301, "host {i}");
    }

    cluster.start_again();
    let restarted = Instant::now();
    // Changes succeed again through each host, directly, within a bounded wait.
    for (i, name) in ["after-a.example.com", "after-b.example.com"].into_iter().enumerate() {
        let body = format!(r#"{{"name":"{name}"}}"#);
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let (status, _, json) =
                api(&pair.http(i), "POST", "/projects/petstore/domains", Some(&cookie), &body);
            if status == 201 {
                break;
            }
            assert_eq!((status, json["code"].as_str()), (503, Some("state_unavailable")), "{json}");
            assert!(Instant::now() < deadline, "host {i} never took a change after the restart");
            std::thread::sleep(Duration::from_millis(100));
        }
    }
    eprintln!("changes went through both hosts {:?} after the restart", restarted.elapsed());
    assert!(!domain_names(&front, &cookie).contains(&"meanwhile.example.com".to_owned()));

    // NOTIFY is followed again: removed through A, B stops its handshake within 2 s.
    remove(&pair.http(0), &cookie, "old.example.test");
    let took = within_2s("B stops the handshake for old.example.test after the restart", || {
        https_get(&pair.https(1), "old.example.test", "/", root).is_err()
    });
    eprintln!("B followed A's removal {took:?} after it was answered");
    // And issuance resumes: a domain verified now goes live and is served through the balancer.
    add(&front, &cookie, "new.example.test");
    verify(&front, &cookie, "new.example.test");
    wait_for(&front, &cookie, "new.example.test", "live", |v| state(v) == "live");
    within_2s("the balancer redirects new.example.test", || {
        https_get(&secure, "new.example.test", "/", root).is_ok_and(|(s, _, _)| s == 301)
    });
    drop(cluster);
}

/// A sign-in through `address` from the local address `source` (a 127.0.0.0/8 address of its
/// own): its status, 0 when the connection was closed unanswered.
fn sign_in_from(
    runtime: &tokio::runtime::Runtime,
    source: [u8; 4],
    address: &str,
    email: &str,
    password: &str,
) -> u16 {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let body = format!(r#"{{"email":"{email}","password":"{password}"}}"#);
    let request = format!(
        "POST /_host/api/session HTTP/1.1\r\nHost: {}\r\nOrigin: {}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        hosted::ADMIN,
        hosted::ORIGIN,
        body.len()
    );
    runtime.block_on(async {
        let socket = tokio::net::TcpSocket::new_v4().expect("a socket");
        socket.bind((std::net::Ipv4Addr::from(source), 0).into()).expect("binds the source address");
        let mut stream = socket.connect(address.parse().expect("an address")).await.expect("connects");
        stream.write_all(request.as_bytes()).await.expect("sends");
        let mut raw = String::new();
        let _ = tokio::time::timeout(Duration::from_secs(20), stream.read_to_string(&mut raw)).await;
        raw.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0)
    })
}

/// With HAProxy's `send-proxy-v2` and the hosts' `proxy_protocol = true`, as docs/hosting.md
/// sets them up: the hosts count sign-in failures per client (each test client from an address
/// of its own), not one count for everyone behind the balancer; Pebble's validations and the
/// site over HTTPS go through the header too; a connection straight to a host, without one, is
/// closed unanswered.
#[test]
fn through_haproxy_with_the_proxy_protocol_each_client_is_counted_apart() {
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    let url = runtime.block_on(postgres::cluster().database());
    let (pair, pebble) =
        Pair::new_with(&url, true, |port| Some(pebble(&runtime, port, &["docs.example.test"])));
    let pebble = pebble.expect("Pebble");
    let (_a, _b) = (pair.start(0), pair.start(1));
    let front = pair.front();

    for _ in 0..5 {
        assert_eq!(sign_in_from(&runtime, [127, 0, 0, 2], &front, "eve@example.com", "guess"), 401);
    }
    // That client waits, whatever the account, on either host (the count is in the database)...
    for _ in 0..2 {
        assert_eq!(sign_in_from(&runtime, [127, 0, 0, 2], &front, "ana@example.com", hosted::PASSWORD), 429);
    }
    // ...and another client through the same balancer does not.
    assert_eq!(sign_in_from(&runtime, [127, 0, 0, 3], &front, "ana@example.com", hosted::PASSWORD), 200);
    // Without the header (straight to a host), nothing is answered.
    assert_eq!(sign_in_from(&runtime, [127, 0, 0, 3], &pair.http(0), "ana@example.com", hosted::PASSWORD), 0);

    // The walk through the header: Pebble validates through the balancer, HTTPS is served.
    let cookie = sign_in(&front);
    add(&front, &cookie, "docs.example.test");
    verify(&front, &cookie, "docs.example.test");
    let view = wait_for(&front, &cookie, "docs.example.test", "live", |v| state(v) == "live");
    assert_eq!(view["certificate"]["status"], "issued", "{view}");
    let secure = pair.balancer.https_address();
    within_2s("the site through the balancer", || {
        serves(&secure, "docs.example.test", pebble.issuing_root_pem())
    });
    assert!(
        https_get(&pair.https(0), "docs.example.test", "/", pebble.issuing_root_pem()).is_err(),
        "no header, no handshake"
    );
}
