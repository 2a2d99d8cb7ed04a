//! `playground host` run as a user runs it: `host hash-password` makes the owner's hash, the
//! host serves and answers the API, a second host on the same state is refused, and `kill -9`
//! in the middle of changes loses none that was acknowledged. With Debian's Pebble (the ACME
//! test CA) and pebble-challtestsrv (DNS) on 127.0.0.1: the whole walk from a domain added to
//! its site served over HTTPS, a redirect, a CAA record that forbids the CA, removal, and
//! `kill -9` during issuance; and two hosts on one PostgreSQL (Debian's, started by the test)
//! following each other's changes, the issuance lease's holder killed.

use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use hosted::{
    Hosted, add, api, domain_names, free_port, https_get, remove, sign_in, state, verify, wait_for,
    with_pebble, within_2s, write_config,
};

#[path = "support/hosted.rs"]
mod hosted;

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
    // Verify against a DNS server that is not there: the failed check is kept too.
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
fn an_unreachable_postgresql_is_refused_naming_the_file_and_the_database() {
    let dir = tempfile::tempdir().expect("scratch");
    let config = write_config(dir.path());
    let text = std::fs::read_to_string(&config).expect("reads");
    // Nothing listens at this port.
    let port = std::net::TcpListener::bind("127.0.0.1:0").expect("binds").local_addr().expect("port").port();
    let url = format!("postgres://host:secret@127.0.0.1:{port}/host");
    std::fs::write(&config, text.replace("[listen]", &format!("[database]\nurl = \"{url}\"\n[listen]")))
        .expect("writes");
    let error = Hosted::start(&config).err().expect("refused");
    assert!(error.contains(&config.display().to_string()), "{error}");
    assert!(
        error.contains(&format!(
            "cannot connect to the PostgreSQL database postgres://host@127.0.0.1:{port}/host"
        )),
        "{error}"
    );
    assert!(!error.contains("secret"), "{error}");
    assert!(!error.contains("panicked"), "{error}");
    // A URL that is not PostgreSQL's is refused when the configuration is read.
    std::fs::write(&config, text.replace("[listen]", "[database]\nurl = \"sqlite://host.db\"\n[listen]"))
        .expect("writes");
    let error = Hosted::start(&config).err().expect("refused");
    assert!(error.contains("host.toml: database.url is not a PostgreSQL URL"), "{error}");
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

/// What verify's answer (`message`), the domain's view and the host's log say of
/// `docs.blocked.test`, whose parent `blocked.test` has a CAA record allowing letsencrypt.org
/// only: the block, at once, named where the record is.
fn blocked_at_the_parent(host: &Hosted, cookie: &str, message: &str) {
    let reason = "the CAA records at blocked.test allow only letsencrypt.org to issue certificates, not pebble.letsencrypt.org, the certificate authority used here";
    assert!(message.contains(&format!("But its SSL certificate cannot be issued: {reason}.")), "{message}");
    assert!(!message.contains("issued automatically"), "{message}");
    let view = wait_for(&host.address, cookie, "docs.blocked.test", "blocked by CAA", |v| {
        v["certificate"]["status"] == "blocked_by_caa"
    });
    let records = &view["certificate"]["records"];
    assert_eq!(records[0]["name"], "blocked.test", "the record is named where it is: {view}");
    assert_eq!(records[0]["value"], "0 issue \"letsencrypt.org\"", "{view}");
    let logged = format!("playground host: no certificate is requested for docs.blocked.test: {reason}");
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while !host.stderr.lock().expect("buffer").contains(&logged) {
        assert!(
            std::time::Instant::now() < deadline,
            "not in the log: {}",
            host.stderr.lock().expect("buffer")
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn with_a_real_ca_and_dns_a_domain_goes_from_added_to_served_over_https_and_back() {
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    // The host's plain HTTP port, where Pebble's validation connects (HTTP-01).
    let http_port = free_port();
    let pebble = runtime.block_on(playground_certs::pebble::Pebble::start(http_port)).expect("Pebble starts");
    let target = "cname.docs-host.test";
    let localhost = std::net::Ipv4Addr::LOCALHOST;
    runtime.block_on(pebble.set_a(target, localhost)).expect("A of the target");
    for name in ["docs.example.test", "old.example.test", "slow.example.test"] {
        runtime.block_on(pebble.set_cname(name, target)).expect("CNAME");
    }
    // CAA at the parent (a name with a CNAME has no records of its own): found by climbing.
    runtime.block_on(pebble.set_caa("blocked.test", &[("issue", "letsencrypt.org")])).expect("CAA");
    runtime.block_on(pebble.set_cname("docs.blocked.test", target)).expect("CNAME");

    let dir = tempfile::tempdir().expect("scratch");
    let config = write_config(dir.path());
    std::fs::write(dir.path().join("pebble.pem"), pebble.listener_root_pem()).expect("the CA's root");
    let text = std::fs::read_to_string(&config).expect("reads");
    let text = with_pebble(&text, &pebble).replacen(
        "[listen]\nhttp = \"127.0.0.1:0\"",
        &format!("[listen]\nhttp = \"127.0.0.1:{http_port}\"\nhttps = \"127.0.0.1:0\""),
        1,
    );
    std::fs::write(&config, text).expect("host.toml");

    let host = Hosted::start_with(&config, true).expect("the host starts");
    let https = host.https.clone().expect("an HTTPS listener");
    let cookie = sign_in(&host.address);
    // Added only: no certificate, nothing served.
    add(&host.address, &cookie, "docs.example.test");
    assert!(https_get(&https, "docs.example.test", "/", pebble.issuing_root_pem()).is_err());
    // Verify (real DNS: the CNAME) and the certificate from Pebble: live, served over HTTPS.
    verify(&host.address, &cookie, "docs.example.test");
    let view = wait_for(&host.address, &cookie, "docs.example.test", "live", |v| state(v) == "live");
    assert_eq!(view["certificate"]["status"], "issued", "{view}");
    let (status, _, body) =
        https_get(&https, "docs.example.test", "/", pebble.issuing_root_pem()).expect("the site over HTTPS");
    assert_eq!((status, body.as_str()), (200, "<h1>petstore</h1>"));

    // A second domain, live, answers 301 to the primary, path and query kept.
    add(&host.address, &cookie, "old.example.test");
    verify(&host.address, &cookie, "old.example.test");
    wait_for(&host.address, &cookie, "old.example.test", "live", |v| state(v) == "live");
    let (status, head, _) =
        https_get(&https, "old.example.test", "/pets?page=2", pebble.issuing_root_pem()).expect("HTTPS");
    assert_eq!(status, 301, "{head}");
    let port = https.rsplit(':').next().expect("a port");
    assert!(
        head.to_ascii_lowercase()
            .contains(&format!("location: https://docs.example.test:{port}/pets?page=2")),
        "{head}"
    );

    // CAA that allows another authority only: verified, but no certificate, and why, at once
    // (in the answer and the log), naming the parent that holds the record.
    add(&host.address, &cookie, "docs.blocked.test");
    let message = verify(&host.address, &cookie, "docs.blocked.test");
    blocked_at_the_parent(&host, &cookie, &message);

    // Remove stops the domain at once: no certificate offered, nothing served.
    let (status, _, json) =
        api(&host.address, "DELETE", "/projects/petstore/domains/old.example.test", Some(&cookie), "");
    assert_eq!(status, 200, "{json}");
    assert!(https_get(&https, "old.example.test", "/", pebble.issuing_root_pem()).is_err());

    // kill -9 right after a verify is acknowledged, while the certificate is being asked
    // for: the verification stands, and the next start gets the certificate.
    add(&host.address, &cookie, "slow.example.test");
    verify(&host.address, &cookie, "slow.example.test");
    host.kill();
    let host = Hosted::start_with(&config, true).expect("the host starts again after kill -9");
    let https = host.https.clone().expect("an HTTPS listener");
    let view = wait_for(&host.address, &cookie, "slow.example.test", "live", |v| state(v) == "live");
    assert_eq!(view["certificate"]["status"], "issued", "{view}");
    // Its certificate is offered (it answers 301 to the primary, as a second domain does).
    let (status, _, _) = https_get(&https, "slow.example.test", "/", pebble.issuing_root_pem())
        .expect("HTTPS after the restart");
    assert_eq!(status, 301);
    // And the primary's certificate, stored before the kill, is offered again.
    let (status, _, body) = https_get(&https, "docs.example.test", "/", pebble.issuing_root_pem())
        .expect("the primary after the restart");
    assert_eq!((status, body.as_str()), (200, "<h1>petstore</h1>"));
    drop(host);
}

#[path = "../../host/tests/support/postgres.rs"]
mod postgres;

/// Two `playground host` processes on one PostgreSQL database (started by the test), with Pebble
/// and its DNS server: a domain made live through host A is served over HTTPS by host B within
/// 2 s (the HTTP-01 validation reaching B, which answers from the shared state); its removal
/// through A stops B's TLS handshake for it within 2 s; and `kill -9` of A, the issuance lease's
/// holder, right after a verification through B: B takes the lease over and issues.
#[test]
fn with_postgresql_two_hosts_follow_each_other_and_survive_the_issuers_kill() {
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    // B's plain HTTP port, where Pebble's validation connects (HTTP-01).
    let http_port = free_port();
    let pebble = runtime.block_on(playground_certs::pebble::Pebble::start(http_port)).expect("Pebble starts");
    let target = "cname.docs-host.test";
    runtime.block_on(pebble.set_a(target, std::net::Ipv4Addr::LOCALHOST)).expect("A of the target");
    for name in ["docs.example.test", "slow.example.test"] {
        runtime.block_on(pebble.set_cname(name, target)).expect("CNAME");
    }
    let url = runtime.block_on(postgres::cluster().database());
    let db = runtime.block_on(async { postgres::client(&url).await });

    let dir = tempfile::tempdir().expect("scratch");
    let config = write_config(dir.path());
    std::fs::write(dir.path().join("pebble.pem"), pebble.listener_root_pem()).expect("the CA's root");
    let text = std::fs::read_to_string(&config).expect("reads");
    let text = with_pebble(&text, &pebble);
    let with = |port: u16| {
        text.replacen(
            "[listen]\nhttp = \"127.0.0.1:0\"",
            &format!(
                "[database]\nurl = \"{url}\"\n[listen]\nhttp = \"127.0.0.1:{port}\"\nhttps = \"127.0.0.1:0\""
            ),
            1,
        )
    };
    let (config_a, config_b) = (dir.path().join("host-a.toml"), dir.path().join("host-b.toml"));
    std::fs::write(&config_a, with(0)).expect("host-a.toml");
    std::fs::write(&config_b, with(http_port)).expect("host-b.toml");

    // A first, and holding the issuance lease (its first look takes it) before B starts.
    let a = Hosted::start_with(&config_a, true).expect("host A starts");
    let leases = || {
        runtime
            .block_on(
                db.query_one("SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory' AND granted", &[]),
            )
            .expect("pg_locks")
            .get::<_, i64>(0)
    };
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while leases() != 1 {
        assert!(std::time::Instant::now() < deadline, "A never took the issuance lease");
        std::thread::sleep(Duration::from_millis(50));
    }
    let b = Hosted::start_with(&config_b, true).expect("host B starts");
    let b_https = b.https.clone().expect("B's HTTPS listener");
    let cookie = sign_in(&a.address);
    let root = pebble.issuing_root_pem();

    // Made live through A (issued by A, validated at B's port): B serves it within 2 s.
    add(&a.address, &cookie, "docs.example.test");
    verify(&a.address, &cookie, "docs.example.test");
    wait_for(&a.address, &cookie, "docs.example.test", "live", |v| state(v) == "live");
    let took = within_2s("B serves docs.example.test over HTTPS", || {
        https_get(&b_https, "docs.example.test", "/", root)
            .is_ok_and(|(s, _, body)| s == 200 && body == "<h1>petstore</h1>")
    });
    eprintln!("served by B {took:?} after A answered live");

    // Removed through A: B's handshake for it fails within 2 s.
    remove(&a.address, &cookie, "docs.example.test");
    let took = within_2s("B stops the handshake for docs.example.test", || {
        https_get(&b_https, "docs.example.test", "/", root).is_err()
    });
    eprintln!("B's handshake refused {took:?} after A answered the removal");

    // Verified through B, then A (the lease's holder) is killed: B takes the lease over.
    add(&b.address, &cookie, "slow.example.test");
    verify(&b.address, &cookie, "slow.example.test");
    a.kill();
    let view = wait_for(&b.address, &cookie, "slow.example.test", "live", |v| state(v) == "live");
    assert_eq!(view["certificate"]["status"], "issued", "{view}");
    let (status, _, body) = https_get(&b_https, "slow.example.test", "/", root).expect("B serves it");
    assert_eq!((status, body.as_str()), (200, "<h1>petstore</h1>"));
    assert!(b.stderr.lock().expect("buffer").contains("certificate issued for slow.example.test"));
    drop(b);
}
