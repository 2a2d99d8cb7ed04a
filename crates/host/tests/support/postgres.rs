//! A PostgreSQL cluster for the tests, started by them: Debian's PostgreSQL 15 (`initdb` and
//! `pg_ctl` from /usr/lib/postgresql/15/bin; scripts/ensure-tools.sh installs it) in a temporary
//! folder, listening on 127.0.0.1 at a free port and on a unix socket in that folder, with
//! `fsync` off (the tests check what is committed, not what survives a power cut). One cluster
//! per test binary, a fresh database per test. PostgreSQL refuses to run as root: as root (CI)
//! `initdb` and `pg_ctl` run as the `postgres` user through `runuser`, the folder given to it.
//!
//! The cluster lives in a static, whose `Drop` never runs, so a watcher process stops it
//! (`pg_ctl stop -m immediate`) and removes the folder when the test binary exits, however it
//! exits; a [`Cluster`] that is dropped stops at once.
#![allow(dead_code, clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

pub const BIN: &str = "/usr/lib/postgresql/15/bin";

/// A running cluster.
#[derive(Debug)]
pub struct Cluster {
    /// The folder: `data/` and the unix socket.
    pub dir: PathBuf,
    /// Its TCP port on 127.0.0.1.
    pub port: u16,
    /// Whether its tools run as the `postgres` user (the tests run as root).
    as_postgres: bool,
}

fn is_root() -> bool {
    let out = Command::new("id").arg("-u").output().expect("id -u");
    String::from_utf8_lossy(&out.stdout).trim() == "0"
}

/// `program` from PostgreSQL's folder, as the `postgres` user when the tests run as root.
fn tool(as_postgres: bool, program: &str) -> Command {
    let path = Path::new(BIN).join(program);
    if as_postgres {
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--"]).arg(path);
        c
    } else {
        Command::new(path)
    }
}

fn run(mut command: Command, what: &str) {
    let out = command.stdin(Stdio::null()).output().unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(
        out.status.success(),
        "{what} failed: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A port that no client's connection takes while the cluster is stopped and started again
/// ([`playground_certs::pebble::free_port`]).
fn free_port() -> u16 {
    playground_certs::pebble::free_port(false).expect("a free port")
}

impl Cluster {
    /// `initdb`, then `pg_ctl start` at a free port (tried again at another port if taken).
    pub fn start() -> Cluster {
        assert!(
            Path::new(BIN).join("initdb").is_file(),
            "PostgreSQL 15 is not installed ({BIN}/initdb): run scripts/ensure-tools.sh --test, or apt-get install postgresql"
        );
        let as_postgres = is_root();
        let dir = tempfile::Builder::new().prefix("pg").tempdir().unwrap().keep();
        if as_postgres {
            run(
                {
                    let mut c = Command::new("chown");
                    c.args(["postgres:postgres"]).arg(&dir);
                    c
                },
                "chown",
            );
        }
        let mut initdb = tool(as_postgres, "initdb");
        initdb.arg("-D").arg(dir.join("data")).args([
            "-A",
            "trust",
            "-U",
            "postgres",
            "-E",
            "UTF8",
            "--locale=C",
            "--no-sync",
        ]);
        run(initdb, "initdb");
        let mut cluster = Cluster { dir, port: 0, as_postgres };
        cluster.watch();
        for _ in 0..3 {
            cluster.port = free_port();
            if cluster.pg_start() {
                return cluster;
            }
        }
        let log = std::fs::read_to_string(cluster.dir.join("log")).unwrap_or_default();
        panic!("pg_ctl start failed three times:\n{log}");
    }

    /// `pg_ctl start` at `self.port`, waiting until it accepts connections.
    fn pg_start(&self) -> bool {
        let options = format!(
            "-F -p {} -c listen_addresses=127.0.0.1 -c unix_socket_directories={}",
            self.port,
            self.dir.display()
        );
        tool(self.as_postgres, "pg_ctl")
            .arg("-D")
            .arg(self.dir.join("data"))
            .arg("-l")
            .arg(self.dir.join("log"))
            .args(["-w", "-t", "30", "-o", &options, "start"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    }

    /// Starts a stopped cluster again, at the same port.
    pub fn start_again(&self) {
        assert!(self.pg_start(), "pg_ctl start failed again: {}", self.dir.display());
    }

    /// A process that stops the cluster and removes its folder once this test binary exits.
    #[expect(clippy::zombie_processes, reason = "the watcher outlives the test binary by design")]
    fn watch(&self) {
        let stop = format!(
            "{}{BIN}/pg_ctl -D '{}' -m immediate stop",
            if self.as_postgres { "runuser -u postgres -- " } else { "" },
            self.dir.join("data").display()
        );
        let script = format!(
            "while kill -0 {pid} 2>/dev/null; do sleep 0.5; done; {stop} >/dev/null 2>&1; rm -rf '{dir}'",
            pid = std::process::id(),
            dir = self.dir.display()
        );
        Command::new("sh")
            .args(["-c", &script])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
    }

    /// `pg_ctl stop -m immediate`: as a crash, nothing flushed.
    pub fn stop(&self) {
        let mut c = tool(self.as_postgres, "pg_ctl");
        c.arg("-D").arg(self.dir.join("data")).args(["-m", "immediate", "stop"]);
        run(c, "pg_ctl stop");
    }

    /// A URL for database `name` as the `postgres` user over TCP.
    pub fn url(&self, name: &str) -> String {
        format!("postgres://postgres@127.0.0.1:{}/{name}", self.port)
    }

    /// A new, empty database; its URL.
    pub async fn database(&self) -> String {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let name = format!("test_{}", NEXT.fetch_add(1, Ordering::SeqCst));
        let (client, connection) =
            tokio_postgres::connect(&self.url("postgres"), tokio_postgres::NoTls).await.unwrap();
        tokio::spawn(connection);
        client.batch_execute(&format!("CREATE DATABASE {name}")).await.unwrap();
        self.url(&name)
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let mut c = tool(self.as_postgres, "pg_ctl");
        c.arg("-D").arg(self.dir.join("data")).args(["-m", "immediate", "stop"]);
        let _ = c.stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null()).status();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The cluster this test binary shares, started at the first call.
pub fn cluster() -> &'static Cluster {
    static CLUSTER: OnceLock<Cluster> = OnceLock::new();
    CLUSTER.get_or_init(Cluster::start)
}

/// A client of `url`, its connection driven in the background.
pub async fn client(url: &str) -> tokio_postgres::Client {
    let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls).await.unwrap();
    tokio::spawn(connection);
    client
}
