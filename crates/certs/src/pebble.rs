//! Test support (feature `pebble`): Debian's `pebble` (a small ACME CA) and
//! `pebble-challtestsrv` (its mock DNS server) on loopback, for tests of issuance, DNS checks
//! and serving, here and in the host's tests.
//!
//! [`Pebble::start`] runs both on free 127.0.0.1 ports: the DNS server answers only the records
//! a test sets (no default addresses), and Pebble resolves through it and validates HTTP-01 by
//! connecting to the test's own listener on the port given. Dropping the [`Pebble`] kills both
//! and removes their folder.

use std::fmt;
use std::fs;
use std::net::{Ipv4Addr, Ipv6Addr, SocketAddr, TcpListener, UdpSocket};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use bytes::Bytes;
use hyper_rustls::HttpsConnector;
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use instant_acme::BodyWrapper;
use serde_json::json;

/// Where Debian installs the CA.
pub const PEBBLE: &str = "/usr/bin/pebble";
/// Where Debian installs the mock DNS server.
pub const CHALLTESTSRV: &str = "/usr/bin/pebble-challtestsrv";
/// How long both servers may take to answer after they start.
const STARTUP_DEADLINE: Duration = Duration::from_secs(20);

/// Pebble could not be started or driven; the message says why (and how to install it).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct PebbleError(pub String);

/// Why one start failed: a child exited (worth another try on other ports), or anything else.
enum Start {
    Exited(PebbleError),
    Failed(PebbleError),
}

impl From<PebbleError> for Start {
    fn from(error: PebbleError) -> Start {
        Start::Failed(error)
    }
}

/// Pebble and pebble-challtestsrv, running until dropped.
pub struct Pebble {
    dir: PathBuf,
    children: Vec<Child>,
    acme_addr: SocketAddr,
    management_addr: SocketAddr,
    dns_addr: SocketAddr,
    dns_management_addr: SocketAddr,
    listener_root_pem: String,
    issuing_root_pem: String,
    http: Client<HttpsConnector<HttpConnector>, BodyWrapper<Bytes>>,
}

impl fmt::Debug for Pebble {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Pebble")
            .field("directory_url", &self.directory_url())
            .field("dns_addr", &self.dns_addr)
            .field("dir", &self.dir)
            .finish_non_exhaustive()
    }
}

/// A port of 127.0.0.1 free for TCP (and with `udp`, for UDP too), for a server a test starts
/// and may stop and start again on the same port.
///
/// It is taken below the kernel's ephemeral range (`ip_local_port_range`, from which outgoing
/// connections and `bind` to port 0 get theirs), so no connection of the test's own clients,
/// balancer or database can be given it between a server's stop and its restart. Ports are
/// handed out in turn from a start that differs per process, so one process never hands out a
/// port twice, and each is checked free by binding it first.
pub fn free_port(udp: bool) -> Result<u16, PebbleError> {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    // The 12,000 ports under the ephemeral range (fewer when the range starts low; none below
    // 1024, and with too few of them, a port the kernel picks, as before this picker): the
    // range's start and the span, read once.
    static RANGE: OnceLock<(u32, u32)> = OnceLock::new();
    let &(low, span) = RANGE.get_or_init(|| {
        let low = fs::read_to_string("/proc/sys/net/ipv4/ip_local_port_range")
            .ok()
            .and_then(|range| range.split_whitespace().next()?.parse::<u32>().ok())
            .unwrap_or(32768);
        (low, low.saturating_sub(1024).min(12_000))
    });
    let start = std::process::id().wrapping_mul(7919) % span.max(1);
    for _ in 0..200 {
        let port = if span < 100 {
            let tcp = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).map_err(|e| PebbleError(e.to_string()))?;
            tcp.local_addr().map_err(|e| PebbleError(e.to_string()))?.port()
        } else {
            (low - span + (start + NEXT.fetch_add(1, Ordering::Relaxed)) % span) as u16
        };
        let free = TcpListener::bind((Ipv4Addr::LOCALHOST, port)).is_ok()
            && (!udp || UdpSocket::bind((Ipv4Addr::LOCALHOST, port)).is_ok());
        if free {
            return Ok(port);
        }
    }
    Err(PebbleError("no free port on 127.0.0.1".to_owned()))
}

fn failed(what: &str) -> impl Fn(std::io::Error) -> PebbleError + '_ {
    move |e| PebbleError(format!("{what}: {e}"))
}

/// A self-signed certificate for 127.0.0.1 and localhost, and its key: the certificate of
/// Pebble's own listeners.
fn listener_certificate() -> Result<(rcgen::KeyPair, rcgen::Certificate), PebbleError> {
    let key = rcgen::KeyPair::generate().map_err(|e| PebbleError(e.to_string()))?;
    let mut params = rcgen::CertificateParams::new(vec!["127.0.0.1".to_owned(), "localhost".to_owned()])
        .map_err(|e| PebbleError(e.to_string()))?;
    params.distinguished_name.push(rcgen::DnType::CommonName, "Pebble listener (tests)");
    let cert = params.self_signed(&key).map_err(|e| PebbleError(e.to_string()))?;
    Ok((key, cert))
}

/// The last lines of a child's log, for error messages.
fn tail(path: &Path) -> String {
    let text = fs::read_to_string(path).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(15)..].join("\n")
}

impl Pebble {
    /// Starts pebble-challtestsrv (DNS and its management API) and Pebble (ACME and its
    /// management API), all on free 127.0.0.1 ports, with Pebble's HTTP-01 validation connecting
    /// to port `http01_port` of the addresses the DNS server gives, and waits until both answer.
    /// Pebble validates at once (`PEBBLE_VA_NOSLEEP`), never rejects nonces, and never reuses an
    /// authorization, so every issuance really validates.
    ///
    /// # Errors
    /// The binaries are missing (the message says to run `scripts/ensure-tools.sh test`), or a
    /// server does not start in time (the message has its log).
    pub async fn start(http01_port: u16) -> Result<Pebble, PebbleError> {
        for binary in [PEBBLE, CHALLTESTSRV] {
            if !Path::new(binary).is_file() {
                return Err(PebbleError(format!(
                    "{binary} is missing: run `scripts/ensure-tools.sh test` (it installs Debian's pebble package)"
                )));
            }
        }
        // A port found free can be taken before the child binds it (by another test's outgoing
        // connection, say): a child that exits at once is started again on other ports.
        let mut attempt = 1;
        loop {
            match Pebble::try_start(http01_port).await {
                Err(Start::Exited(why)) if attempt < 3 => {
                    eprintln!("pebble: starting again on other ports after: {why}");
                    attempt += 1;
                }
                Err(Start::Exited(why) | Start::Failed(why)) => return Err(why),
                Ok(pebble) => return Ok(pebble),
            }
        }
    }

    async fn try_start(http01_port: u16) -> Result<Pebble, Start> {
        let (key, cert) = listener_certificate()?;
        let http = crate::http::client(Some(&cert.pem()), false).map_err(PebbleError)?;

        static STARTED: AtomicU32 = AtomicU32::new(0);
        let dir = std::env::temp_dir().join(format!(
            "petstore-pebble-{}-{}",
            std::process::id(),
            STARTED.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).map_err(failed("cannot create Pebble's folder"))?;
        // From here on, an early return drops `pebble`, which kills what started and removes `dir`.
        let mut pebble = Pebble {
            dir: dir.clone(),
            children: Vec::new(),
            acme_addr: (Ipv4Addr::LOCALHOST, free_port(false)?).into(),
            management_addr: (Ipv4Addr::LOCALHOST, free_port(false)?).into(),
            dns_addr: (Ipv4Addr::LOCALHOST, free_port(true)?).into(),
            dns_management_addr: (Ipv4Addr::LOCALHOST, free_port(false)?).into(),
            listener_root_pem: cert.pem(),
            issuing_root_pem: String::new(),
            http,
        };

        fs::write(dir.join("cert.pem"), cert.pem()).map_err(failed("cannot write Pebble's certificate"))?;
        fs::write(dir.join("key.pem"), key.serialize_pem()).map_err(failed("cannot write Pebble's key"))?;

        let challtestsrv_log = dir.join("challtestsrv.log");
        pebble.spawn_challtestsrv(&challtestsrv_log)?;
        let pebble_log = dir.join("pebble.log");
        pebble.spawn_pebble(http01_port, &pebble_log)?;
        pebble.wait_until_ready(&challtestsrv_log, &pebble_log).await?;
        let root = pebble.get(&format!("https://{}/roots/0", pebble.management_addr)).await?;
        pebble.issuing_root_pem = String::from_utf8_lossy(&root).into_owned();
        Ok(pebble)
    }

    /// Starts pebble-challtestsrv on the DNS and management addresses, answering only the
    /// records a test sets, logging to `log_path`.
    fn spawn_challtestsrv(&mut self, log_path: &Path) -> Result<(), PebbleError> {
        let log = fs::File::create(log_path).map_err(failed("cannot create the DNS server's log"))?;
        let child = Command::new(CHALLTESTSRV)
            .args(["-dns01", &self.dns_addr.to_string()])
            .args(["-management", &self.dns_management_addr.to_string()])
            .args(["-http01", "", "-https01", "", "-tlsalpn01", "", "-defaultIPv4", "", "-defaultIPv6", ""])
            .stdin(Stdio::null())
            .stdout(log.try_clone().map_err(failed("log"))?)
            .stderr(log)
            .spawn()
            .map_err(failed("cannot start pebble-challtestsrv"))?;
        self.children.push(child);
        Ok(())
    }

    /// Writes Pebble's configuration (HTTP-01 validation on `http01_port`) and starts Pebble,
    /// resolving through the DNS server, logging to `log_path`.
    fn spawn_pebble(&mut self, http01_port: u16, log_path: &Path) -> Result<(), PebbleError> {
        let dir = &self.dir;
        let tls_port = free_port(false)?;
        let config = json!({
            "pebble": {
                "listenAddress": self.acme_addr.to_string(),
                "managementListenAddress": self.management_addr.to_string(),
                "certificate": dir.join("cert.pem"),
                "privateKey": dir.join("key.pem"),
                "httpPort": http01_port,
                "tlsPort": tls_port,
                "ocspResponderURL": "",
                "externalAccountBindingRequired": false,
            }
        });
        fs::write(dir.join("pebble.json"), config.to_string())
            .map_err(failed("cannot write Pebble's configuration"))?;
        let log = fs::File::create(log_path).map_err(failed("cannot create Pebble's log"))?;
        let child = Command::new(PEBBLE)
            .arg("-config")
            .arg(dir.join("pebble.json"))
            .args(["-dnsserver", &self.dns_addr.to_string()])
            .env("PEBBLE_VA_NOSLEEP", "1")
            .env("PEBBLE_WFE_NONCEREJECT", "0")
            .env("PEBBLE_AUTHZREUSE", "0")
            .env_remove("PEBBLE_VA_ALWAYS_VALID")
            .current_dir(dir)
            .stdin(Stdio::null())
            .stdout(log.try_clone().map_err(failed("log"))?)
            .stderr(log)
            .spawn()
            .map_err(failed("cannot start pebble"))?;
        self.children.push(child);
        Ok(())
    }

    /// Waits until the DNS server and the ACME API both answer; [`Start::Exited`] when a child
    /// exits first, [`Start::Failed`] past [`STARTUP_DEADLINE`], either with the logs' last
    /// lines.
    async fn wait_until_ready(&mut self, challtestsrv_log: &Path, pebble_log: &Path) -> Result<(), Start> {
        let deadline = Instant::now() + STARTUP_DEADLINE;
        loop {
            let dns_ready = self.post_dns("/set-default-ipv4", json!({"ip": ""})).await.is_ok();
            let acme_ready = self.get(&self.directory_url()).await.is_ok();
            if dns_ready && acme_ready {
                return Ok(());
            }
            let exited = self.children.iter_mut().any(|c| matches!(c.try_wait(), Ok(Some(_))));
            if exited || Instant::now() > deadline {
                let why = PebbleError(format!(
                    "Pebble did not start (dns: {dns_ready}, acme: {acme_ready}).\npebble-challtestsrv:\n{}\npebble:\n{}",
                    tail(challtestsrv_log),
                    tail(pebble_log)
                ));
                return Err(if exited { Start::Exited(why) } else { Start::Failed(why) });
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// The ACME directory, `https://127.0.0.1:{port}/dir`.
    #[must_use]
    pub fn directory_url(&self) -> String {
        format!("https://{}/dir", self.acme_addr)
    }

    /// The certificate of Pebble's own listeners (PEM): the extra root that lets a client
    /// reach the ACME API.
    #[must_use]
    pub fn listener_root_pem(&self) -> &str {
        &self.listener_root_pem
    }

    /// The root that signs the certificates this Pebble issues (PEM), from its management API:
    /// what a test client trusts to check a served certificate.
    #[must_use]
    pub fn issuing_root_pem(&self) -> &str {
        &self.issuing_root_pem
    }

    /// The mock DNS server (UDP and TCP), for [`crate::dns::Dns::with_server`].
    #[must_use]
    pub fn dns_addr(&self) -> SocketAddr {
        self.dns_addr
    }

    /// Makes `name` a CNAME of `target` (the mock follows it one level for other types).
    ///
    /// # Errors
    /// The DNS server's management API refused or did not answer.
    pub async fn set_cname(&self, name: &str, target: &str) -> Result<(), PebbleError> {
        self.post_dns("/set-cname", json!({"host": name, "target": target})).await
    }

    /// Gives `name` exactly the A record `ip`.
    ///
    /// # Errors
    /// As [`Pebble::set_cname`].
    pub async fn set_a(&self, name: &str, ip: Ipv4Addr) -> Result<(), PebbleError> {
        self.post_dns("/clear-a", json!({"host": name})).await?;
        self.post_dns("/add-a", json!({"host": name, "addresses": [ip.to_string()]})).await
    }

    /// Gives `name` exactly the AAAA record `ip`.
    ///
    /// # Errors
    /// As [`Pebble::set_cname`].
    pub async fn set_aaaa(&self, name: &str, ip: Ipv6Addr) -> Result<(), PebbleError> {
        self.post_dns("/clear-aaaa", json!({"host": name})).await?;
        self.post_dns("/add-aaaa", json!({"host": name, "addresses": [ip.to_string()]})).await
    }

    /// Gives `name` exactly these CAA records, as `(tag, value)` pairs with flags 0, such as
    /// `[("issue", "letsencrypt.org")]`.
    ///
    /// # Errors
    /// As [`Pebble::set_cname`].
    pub async fn set_caa(&self, name: &str, policies: &[(&str, &str)]) -> Result<(), PebbleError> {
        self.post_dns("/clear-caa", json!({"host": name})).await?;
        let policies: Vec<_> =
            policies.iter().map(|(tag, value)| json!({"tag": tag, "value": value})).collect();
        self.post_dns("/add-caa", json!({"host": name, "policies": policies})).await
    }

    /// Makes every question about `name` answer SERVFAIL.
    ///
    /// # Errors
    /// As [`Pebble::set_cname`].
    pub async fn set_servfail(&self, name: &str) -> Result<(), PebbleError> {
        self.post_dns("/set-servfail", json!({"host": name})).await
    }

    /// Removes every mock record of `name` (A, AAAA, CNAME, CAA, SERVFAIL).
    ///
    /// # Errors
    /// As [`Pebble::set_cname`].
    pub async fn clear(&self, name: &str) -> Result<(), PebbleError> {
        for path in ["/clear-a", "/clear-aaaa", "/clear-cname", "/clear-caa", "/clear-servfail"] {
            self.post_dns(path, json!({"host": name})).await?;
        }
        Ok(())
    }

    async fn post_dns(&self, path: &str, body: serde_json::Value) -> Result<(), PebbleError> {
        let request = http::Request::post(format!("http://{}{path}", self.dns_management_addr))
            .header(http::header::CONTENT_TYPE, "application/json")
            .body(BodyWrapper::from(body.to_string().into_bytes()))
            .map_err(|e| PebbleError(e.to_string()))?;
        let (parts, answer) = crate::http::exchange(&self.http, request).await.map_err(PebbleError)?;
        if parts.status.is_success() {
            Ok(())
        } else {
            Err(PebbleError(format!(
                "pebble-challtestsrv {path} answered {}: {}",
                parts.status,
                String::from_utf8_lossy(&answer)
            )))
        }
    }

    async fn get(&self, url: &str) -> Result<Bytes, PebbleError> {
        let request =
            http::Request::get(url).body(BodyWrapper::default()).map_err(|e| PebbleError(e.to_string()))?;
        let (parts, body) = crate::http::exchange(&self.http, request).await.map_err(PebbleError)?;
        if parts.status.is_success() {
            Ok(body)
        } else {
            Err(PebbleError(format!("{url} answered {}", parts.status)))
        }
    }
}

impl Drop for Pebble {
    fn drop(&mut self) {
        for child in &mut self.children {
            let _ = child.kill();
            let _ = child.wait();
        }
        let _ = fs::remove_dir_all(&self.dir);
    }
}
