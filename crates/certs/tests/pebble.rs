//! End to end against Debian's Pebble (ACME CA) and pebble-challtestsrv (DNS) on loopback: DNS
//! answers, CAA, issuance over HTTP-01 (directly and through a CNAME), serving by SNI, and the
//! CA's own words when validation fails. Each test starts its own pair on free ports; dropping
//! it stops them. Without /usr/bin/pebble these tests fail and say how to install it.

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test, with its location

use std::net::{Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::{Duration, Instant};

use playground_certs::acme::{Acme, AcmeStep, Challenges, renew_due};
use playground_certs::dns::{CaaVerdict, Dns, DnsFailure, caa_allows};
use playground_certs::pebble::Pebble;
use playground_certs::sni::{CertError, Certificates, server_config};
use playground_domains::{DnsRecord, RecordKind, instructions, verify};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

const NAME: &str = "docs.example.com";
const TARGET: &str = "sites.platform.test";

/// A plain-HTTP listener on 127.0.0.1 that answers HTTP-01 requests from `challenges`, as the
/// host's port-80 listener does. Returns its port.
async fn responder(challenges: Challenges) -> u16 {
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            let challenges = challenges.clone();
            tokio::spawn(async move {
                let mut request = Vec::new();
                let mut buf = [0u8; 1024];
                let read = async {
                    while !request.windows(4).any(|w| w == b"\r\n\r\n") && request.len() < 8192 {
                        match stream.read(&mut buf).await {
                            Ok(0) | Err(_) => break,
                            Ok(n) => request.extend_from_slice(&buf[..n]),
                        }
                    }
                };
                let _ = tokio::time::timeout(Duration::from_secs(5), read).await;
                let text = String::from_utf8_lossy(&request);
                let path = text.lines().next().and_then(|line| line.split(' ').nth(1)).unwrap_or("");
                let response = match challenges.answer(path) {
                    Some(body) => format!(
                        "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                        body.len()
                    ),
                    None => {
                        "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".to_owned()
                    }
                };
                let _ = stream.write_all(response.as_bytes()).await;
                let _ = stream.shutdown().await;
            });
        }
    });
    port
}

/// A TLS listener on 127.0.0.1 serving `certificates` by SNI; each connection gets `hello`.
async fn tls_server(certificates: Arc<Certificates>) -> SocketAddr {
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).await.unwrap();
    let addr = listener.local_addr().unwrap();
    let acceptor = tokio_rustls::TlsAcceptor::from(server_config(certificates));
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let acceptor = acceptor.clone();
            tokio::spawn(async move {
                if let Ok(mut tls) = acceptor.accept(stream).await {
                    let _ = tls.write_all(b"hello").await;
                    let _ = tls.shutdown().await;
                }
            });
        }
    });
    addr
}

/// Connects to `addr` with SNI `name`, trusting only `root_pem`; the leaf the server sent.
async fn handshake(addr: SocketAddr, name: &str, root_pem: &str) -> Result<CertificateDer<'static>, String> {
    let mut roots = rustls::RootCertStore::empty();
    for cert in CertificateDer::pem_slice_iter(root_pem.as_bytes()) {
        roots.add(cert.unwrap()).unwrap();
    }
    let config =
        rustls::ClientConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_root_certificates(roots)
            .with_no_client_auth();
    let connector = tokio_rustls::TlsConnector::from(Arc::new(config));
    let stream = TcpStream::connect(addr).await.unwrap();
    let server_name = ServerName::try_from(name.to_owned()).unwrap();
    let mut tls = connector.connect(server_name, stream).await.map_err(|e| e.to_string())?;
    let leaf =
        tls.get_ref().1.peer_certificates().and_then(|c| c.first()).cloned().ok_or("no certificate")?;
    let mut hello = Vec::new();
    let _ = tls.read_to_end(&mut hello).await;
    assert_eq!(hello, b"hello");
    Ok(leaf)
}

/// Pebble, a responder for `challenges` on the port Pebble validates, and an account.
async fn setup(challenges: &Challenges) -> (Pebble, Acme, String) {
    let port = responder(challenges.clone()).await;
    let pebble = Pebble::start(port).await.unwrap_or_else(|e| panic!("{e}"));
    let (acme, credentials) = Acme::connect(
        &pebble.directory_url(),
        Some("ops@example.org"),
        None,
        Some(pebble.listener_root_pem()),
    )
    .await
    .unwrap_or_else(|e| panic!("{e}"));
    (pebble, acme, credentials)
}

fn now() -> i64 {
    i64::try_from(std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs())
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issues_a_certificate_and_serves_it_by_sni_until_removed() {
    let challenges = Challenges::new();
    let (pebble, acme, credentials) = setup(&challenges).await;
    pebble.set_a(NAME, Ipv4Addr::LOCALHOST).await.unwrap();

    let started = Instant::now();
    let issued = acme.issue(NAME, &challenges).await.unwrap_or_else(|e| panic!("{e}"));
    eprintln!("issued in {:?}", started.elapsed());
    assert!(challenges.is_empty(), "the token is removed after issuance");
    assert!(issued.not_before_unix <= now() + 60 && now() < issued.not_after_unix);
    assert!(!renew_due(issued.not_before_unix, issued.not_after_unix, now()));
    assert!(issued.chain_pem.matches("BEGIN CERTIFICATE").count() >= 2, "leaf and intermediate");

    let certificates = Arc::new(Certificates::new());
    certificates.insert(NAME, &issued.chain_pem, &issued.key_pem).unwrap();
    let refused = certificates.insert("other.example.com", &issued.chain_pem, &issued.key_pem);
    assert_eq!(refused, Err(CertError::WrongName("other.example.com".to_owned())));
    let addr = tls_server(certificates.clone()).await;
    let leaf = handshake(addr, NAME, pebble.issuing_root_pem()).await.unwrap_or_else(|e| panic!("{e}"));
    let issued_leaf = CertificateDer::pem_slice_iter(issued.chain_pem.as_bytes()).next().unwrap().unwrap();
    assert_eq!(leaf, issued_leaf);

    // Verification against the name itself: the client above checked the certificate names it.
    let other = handshake(addr, "other.example.com", pebble.issuing_root_pem()).await;
    assert!(other.is_err(), "an unknown name gets no certificate");

    assert!(certificates.remove(NAME));
    let removed = handshake(addr, NAME, pebble.issuing_root_pem()).await;
    assert!(removed.is_err(), "a removed name gets no certificate at once");

    // The stored account opens again without creating another.
    let (again, same) =
        Acme::connect(&pebble.directory_url(), None, Some(&credentials), Some(pebble.listener_root_pem()))
            .await
            .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(same, credentials);
    assert_eq!(again.directory_url(), pebble.directory_url());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cname_to_the_platform_verifies_and_issues() {
    let challenges = Challenges::new();
    let (pebble, acme, _) = setup(&challenges).await;
    pebble.set_cname(NAME, TARGET).await.unwrap();
    pebble.set_a(TARGET, Ipv4Addr::LOCALHOST).await.unwrap();

    let dns = Dns::with_server(pebble.dns_addr());
    let records = dns.records(NAME).await.unwrap();
    assert_eq!(
        records.0,
        vec![DnsRecord::new(NAME, RecordKind::Cname, TARGET, 0)],
        "only the records owned by the name"
    );
    assert_eq!(verify(&instructions(NAME, TARGET), &records).map(|r| r.value), Ok(TARGET.to_owned()));
    let target = dns.records(TARGET).await.unwrap();
    assert_eq!(target.0, vec![DnsRecord::new(TARGET, RecordKind::A, "127.0.0.1", 0)]);

    let issued = acme.issue(NAME, &challenges).await.unwrap_or_else(|e| panic!("{e}"));
    let certificates = Arc::new(Certificates::new());
    certificates.insert(NAME, &issued.chain_pem, &issued.key_pem).unwrap();
    let addr = tls_server(certificates).await;
    handshake(addr, NAME, pebble.issuing_root_pem()).await.unwrap_or_else(|e| panic!("{e}"));

    // A conflicting A record next to the CNAME is what verification reports.
    pebble.clear(NAME).await.unwrap();
    pebble.set_a(NAME, Ipv4Addr::new(192, 0, 2, 1)).await.unwrap();
    let records = dns.records(NAME).await.unwrap();
    assert_eq!(records.0, vec![DnsRecord::new(NAME, RecordKind::A, "192.0.2.1", 0)]);
    assert!(verify(&instructions(NAME, TARGET), &records).is_err());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dns_answers_empty_sets_and_errors() {
    let challenges = Challenges::new();
    let port = responder(challenges.clone()).await;
    let pebble = Pebble::start(port).await.unwrap_or_else(|e| panic!("{e}"));
    let dns = Dns::with_server(pebble.dns_addr());

    assert_eq!(dns.records("nothing.example.com").await.unwrap().0, vec![], "no records is an empty set");
    pebble.set_a(NAME, Ipv4Addr::new(192, 0, 2, 7)).await.unwrap();
    pebble.set_aaaa(NAME, "2001:db8::7".parse().unwrap()).await.unwrap();
    let mut records = dns.records(NAME).await.unwrap().0;
    records.sort_by_key(|r| r.kind.as_str());
    assert_eq!(
        records,
        vec![
            DnsRecord::new(NAME, RecordKind::A, "192.0.2.7", 0),
            DnsRecord::new(NAME, RecordKind::Aaaa, "2001:db8::7", 0)
        ]
    );
    // Changes show at once: nothing is cached.
    pebble.clear(NAME).await.unwrap();
    assert_eq!(dns.records(NAME).await.unwrap().0, vec![]);

    pebble.set_servfail("broken.example.com").await.unwrap();
    let error = dns.records("broken.example.com").await.unwrap_err();
    assert_eq!(error.failure, DnsFailure::Server("SERVFAIL".to_owned()));
    let message = error.to_string();
    assert!(
        message.contains("broken.example.com") && message.contains(&pebble.dns_addr().to_string()),
        "{message}"
    );
}

#[tokio::test]
async fn a_silent_dns_server_is_an_error_naming_it() {
    let silent = Dns::with_server("127.0.0.1:9".parse().unwrap());
    let started = Instant::now();
    let error = silent.records(NAME).await.unwrap_err();
    assert!(started.elapsed() < Duration::from_secs(15));
    assert!(error.to_string().contains("127.0.0.1:9"), "{error}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn caa_records_are_read_up_the_tree_and_judged() {
    let challenges = Challenges::new();
    let (pebble, acme, _) = setup(&challenges).await;
    let dns = Dns::with_server(pebble.dns_addr());
    assert_eq!(dns.caa(NAME).await.unwrap(), None);
    assert_eq!(caa_allows(&[], "pebble"), CaaVerdict::Allowed);

    // Found at the parent: named by the parent, where the owner must look.
    pebble.set_caa("example.com", &[("issue", "letsencrypt.org")]).await.unwrap();
    let set = dns.caa(NAME).await.unwrap().unwrap();
    assert_eq!(set.name, "example.com");
    assert_eq!(
        set.records.iter().map(ToString::to_string).collect::<Vec<_>>(),
        vec!["0 issue \"letsencrypt.org\""]
    );
    let verdict = caa_allows(&set.records, "pebble");
    assert_eq!(
        verdict,
        CaaVerdict::Forbidden { tag: "issue".to_owned(), allowed: vec!["letsencrypt.org".to_owned()] }
    );
    assert!(verdict.to_string().contains("letsencrypt.org"));

    // Pebble itself does not check CAA: it issues all the same, so the host must check first.
    pebble.set_a(NAME, Ipv4Addr::LOCALHOST).await.unwrap();
    acme.issue(NAME, &challenges).await.unwrap_or_else(|e| panic!("{e}"));

    // The closest set wins: one at the name itself overrides its parent's.
    pebble.set_caa(NAME, &[("issue", "pebble")]).await.unwrap();
    let set = dns.caa(NAME).await.unwrap().unwrap();
    assert_eq!(set.name, NAME);
    assert_eq!(caa_allows(&set.records, "pebble"), CaaVerdict::Allowed);

    // A failing CAA lookup is an error (issuance must not go ahead), not an empty set.
    pebble.set_servfail("example.com").await.unwrap();
    pebble.clear(NAME).await.unwrap();
    let error = dns.caa(NAME).await.unwrap_err();
    assert_eq!((error.record_type.as_str(), error.name.as_str()), ("CAA", "example.com"), "{error}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_validation_carries_pebbles_problem_detail() {
    // The name points at this machine, but the listener answers from another (empty) map.
    let challenges = Challenges::new();
    let port = responder(Challenges::new()).await;
    let pebble = Pebble::start(port).await.unwrap_or_else(|e| panic!("{e}"));
    let (acme_here, _) =
        Acme::connect(&pebble.directory_url(), None, None, Some(pebble.listener_root_pem())).await.unwrap();
    pebble.set_a(NAME, Ipv4Addr::LOCALHOST).await.unwrap();

    let error = acme_here.issue(NAME, &challenges).await.unwrap_err();
    assert_eq!(error.step, AcmeStep::Validation, "{error}");
    let problem = error.problem.clone().unwrap_or_else(|| panic!("no problem document: {error}"));
    assert!(
        problem.kind.as_deref().is_some_and(|k| k.starts_with("urn:ietf:params:acme:error:")),
        "{problem:?}"
    );
    let detail = problem.detail.clone().unwrap_or_default();
    assert!(!detail.is_empty());
    let message = error.to_string();
    assert!(message.contains(&detail) && message.contains(NAME), "{message}");
    eprintln!("{message}");
    assert!(challenges.is_empty(), "the token is removed after a failure too");

    // A name with no address at all fails too, with Pebble's words.
    let error = acme_here.issue("nowhere.example.com", &challenges).await.unwrap_err();
    assert!(error.problem.is_some(), "{error}");
    eprintln!("{error}");
    assert!(challenges.is_empty());
}

#[tokio::test]
async fn an_unreachable_ca_is_an_account_error_naming_it() {
    let error = Acme::connect("https://127.0.0.1:9/dir", None, None, None).await.unwrap_err();
    assert_eq!(error.step, AcmeStep::Account);
    assert!(error.to_string().contains("https://127.0.0.1:9/dir"), "{error}");
    let error = Acme::connect("http://127.0.0.1:9/dir", None, None, None).await.unwrap_err();
    assert!(error.to_string().contains("127.0.0.1:9"), "{error}");
    let error = Acme::connect("https://127.0.0.1:9/dir", None, Some("{not json"), None).await.unwrap_err();
    assert!(error.to_string().contains("stored account credentials"), "{error}");
}
