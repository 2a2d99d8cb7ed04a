//! Debian's HAProxy (`/usr/sbin/haproxy`; scripts/ensure-tools.sh installs it) as a TCP
//! balancer in front of two `playground host` processes, for crates/cli/tests/cluster.rs: one
//! frontend on a free port of 127.0.0.1 for plain HTTP and one for HTTPS, each passing TCP
//! through (TLS ends at the hosts) to the two hosts' ports, which it checks every 100 ms (one
//! failure takes a server out, one success puts it back); a connection that cannot reach its
//! server is tried again, on the other server. HAProxy runs in the foreground (`-db`), as the
//! user the tests run as (root or not: its configuration names no user, chroot or socket),
//! never as a service, and is killed when the [`Balancer`] is dropped.

#![allow(dead_code, reason = "each test file uses its own part of the helpers")]

use std::fs::File;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Where Debian installs HAProxy.
pub const HAPROXY: &str = "/usr/sbin/haproxy";

/// HAProxy, running until dropped.
pub struct Balancer {
    child: Child,
    dir: tempfile::TempDir,
    /// The plain HTTP frontend's port.
    pub http: u16,
    /// The HTTPS frontend's port (TCP passed through).
    pub https: u16,
}

/// `N` distinct free ports of 127.0.0.1 that stay free for their servers' restarts
/// ([`playground_certs::pebble::free_port`]).
pub fn free_ports<const N: usize>() -> [u16; N] {
    std::array::from_fn(|_| playground_certs::pebble::free_port(false).expect("a free port"))
}

/// The servers' lines say `send-proxy-v2` when `proxy`: a PROXY protocol v2 header before each
/// connection's first byte, naming the client (and before each check's).
fn config(
    socket: &Path,
    (http, https): (u16, u16),
    http_servers: [u16; 2],
    https_servers: [u16; 2],
    proxy: bool,
) -> String {
    let send_proxy = if proxy { " send-proxy-v2" } else { "" };
    let servers = |ports: [u16; 2]| {
        ports
            .iter()
            .zip(["a", "b"])
            .map(|(port, name)| {
                format!("    server {name} 127.0.0.1:{port}{send_proxy} check inter 100ms fall 1 rise 1\n")
            })
            .collect::<String>()
    };
    format!(
        "global
    nbthread 1
    maxconn 1000
    stats socket {} mode 600 level user
defaults
    mode tcp
    timeout connect 200ms
    timeout client 30s
    timeout server 30s
    retries 3
    option redispatch
frontend http
    bind 127.0.0.1:{http}
    default_backend http_hosts
frontend https
    bind 127.0.0.1:{https}
    default_backend https_hosts
backend http_hosts
{}backend https_hosts
{}",
        socket.display(),
        servers(http_servers),
        servers(https_servers)
    )
}

impl Balancer {
    /// Starts HAProxy in front of the hosts' plain HTTP ports `http_servers` and HTTPS ports
    /// `https_servers` (the hosts need not be up yet), once both frontends accept connections.
    /// Its frontends take free ports, other ones if those were taken meanwhile.
    pub fn start(http_servers: [u16; 2], https_servers: [u16; 2]) -> Balancer {
        Balancer::start_with(http_servers, https_servers, false)
    }

    /// [`Balancer::start`], with a PROXY protocol v2 header before each connection when `proxy`
    /// (for hosts with `[listen] proxy_protocol = true`).
    pub fn start_with(http_servers: [u16; 2], https_servers: [u16; 2], proxy: bool) -> Balancer {
        assert!(
            Path::new(HAPROXY).is_file(),
            "HAProxy is not installed ({HAPROXY}): run scripts/ensure-tools.sh test, or apt-get install haproxy"
        );
        let dir = tempfile::Builder::new().prefix("haproxy").tempdir().expect("a folder");
        let (cfg, log) = (dir.path().join("haproxy.cfg"), dir.path().join("haproxy.log"));
        for _ in 0..3 {
            let [http, https] = free_ports::<2>();
            std::fs::write(
                &cfg,
                config(&dir.path().join("stats.sock"), (http, https), http_servers, https_servers, proxy),
            )
            .expect("haproxy.cfg");
            let mut child = Command::new(HAPROXY)
                .arg("-f")
                .arg(&cfg)
                .arg("-db")
                .stdin(Stdio::null())
                .stdout(File::create(&log).expect("a log"))
                .stderr(File::create(dir.path().join("haproxy.err")).expect("a log"))
                .spawn()
                .expect("haproxy starts");
            let deadline = Instant::now() + Duration::from_secs(10);
            loop {
                if child.try_wait().expect("waits").is_some() {
                    // A port taken meanwhile: again, on others.
                    break;
                }
                let accepts = |port: u16| TcpStream::connect(("127.0.0.1", port)).is_ok();
                if accepts(http) && accepts(https) {
                    return Balancer { child, dir, http, https };
                }
                assert!(Instant::now() < deadline, "haproxy never accepted: {}", Balancer::errors_in(&dir));
                std::thread::sleep(Duration::from_millis(20));
            }
        }
        panic!("haproxy did not start three times: {}", Balancer::errors_in(&dir));
    }

    fn errors_in(dir: &tempfile::TempDir) -> String {
        std::fs::read_to_string(dir.path().join("haproxy.err")).unwrap_or_default()
    }

    /// What HAProxy said so far (servers going down and up).
    pub fn log(&self) -> String {
        Balancer::errors_in(&self.dir)
    }

    /// Each server's state in HAProxy's view (`show stat` on its stats socket): backend, server
    /// (`a` or `b`) and status (`UP`, `DOWN`, ...).
    pub fn states(&self) -> Vec<(String, String, String)> {
        let Ok(mut socket) = UnixStream::connect(self.dir.path().join("stats.sock")) else {
            return Vec::new();
        };
        let mut csv = String::new();
        if socket.write_all(b"show stat\n").is_err() || socket.read_to_string(&mut csv).is_err() {
            return Vec::new();
        }
        csv.lines()
            .filter(|line| !line.starts_with('#'))
            .filter_map(|line| {
                let fields: Vec<&str> = line.split(',').collect();
                let (backend, server, status) = (fields.first()?, fields.get(1)?, fields.get(17)?);
                ["a", "b"]
                    .contains(server)
                    .then(|| ((*backend).to_owned(), (*server).to_owned(), (*status).to_owned()))
            })
            .collect()
    }

    /// Waits until HAProxy sends connections to server `i` (0: `a`, 1: `b`) on both frontends
    /// again: its check found it up (within 100 ms of its start).
    pub fn wait_up(&self, i: usize) {
        let server = ["a", "b"][i];
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let states = self.states();
            let up = states.iter().filter(|(_, s, status)| s == server && status == "UP").count();
            if up == 2 {
                return;
            }
            assert!(Instant::now() < deadline, "HAProxy never saw {server} up: {states:?}\n{}", self.log());
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// The plain HTTP frontend's address.
    pub fn http_address(&self) -> String {
        format!("127.0.0.1:{}", self.http)
    }

    /// The HTTPS frontend's address.
    pub fn https_address(&self) -> String {
        format!("127.0.0.1:{}", self.https)
    }
}

impl Drop for Balancer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
