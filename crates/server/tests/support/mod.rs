//! Runs the real `petstore-mock` binary for a test and talks HTTP to it.

#![allow(dead_code, reason = "each test file uses its own part of the helpers")]

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Command, ExitStatus, Output, Stdio};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use serde_json::Value;

pub const BINARY: &str = env!("CARGO_BIN_EXE_petstore-mock");

/// A `petstore-mock serve` child process, killed when dropped (a failed assertion included).
pub struct Server {
    child: Child,
    /// `http://127.0.0.1:PORT`, as the server printed it.
    pub url: String,
    stderr: Arc<Mutex<String>>,
    stderr_reader: Option<JoinHandle<()>>,
    // Held so that the server never writes into a closed pipe.
    _stdout: BufReader<ChildStdout>,
}

impl Server {
    /// Starts `petstore-mock serve --host 127.0.0.1 --port 0 ARGS...` and waits for the line
    /// with the URL it listens on.
    pub fn start(args: &[&str]) -> Server {
        let mut command = Command::new(BINARY);
        command.args(["serve", "--host", "127.0.0.1", "--port", "0"]).args(args);
        Self::start_command(command)
    }

    /// [`Server::start`] with the files it writes limited to `kib` KiB (`ulimit -f`; SIGXFSZ
    /// ignored, so a write past the limit fails as on a full disk instead of killing it).
    pub fn start_with_file_limit(kib: u64, args: &[&str]) -> Server {
        let mut command = Command::new("bash");
        command
            .arg("-c")
            .arg(format!("trap '' XFSZ; ulimit -f {kib}; exec \"$0\" \"$@\""))
            .arg(BINARY)
            .args(["serve", "--host", "127.0.0.1", "--port", "0"])
            .args(args);
        Self::start_command(command)
    }

    fn start_command(mut command: Command) -> Server {
        let mut child = command
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("petstore-mock starts");
        let stderr = Arc::new(Mutex::new(String::new()));
        let mut pipe = child.stderr.take().expect("stderr is piped");
        let sink = Arc::clone(&stderr);
        let stderr_reader = std::thread::spawn(move || {
            let mut buffer = [0_u8; 1024];
            while let Ok(read @ 1..) = pipe.read(&mut buffer) {
                sink.lock().expect("stderr buffer").push_str(&String::from_utf8_lossy(&buffer[..read]));
            }
        });
        let mut stdout = BufReader::new(child.stdout.take().expect("stdout is piped"));
        let mut line = String::new();
        stdout.read_line(&mut line).expect("reads the server's stdout");
        let mut server =
            Server { child, url: String::new(), stderr, stderr_reader: Some(stderr_reader), _stdout: stdout };
        let Some(url) = line.trim().strip_prefix("petstore-mock listening on ") else {
            let status = server.child.wait().expect("waits for the server");
            panic!("no listening line; got {line:?}, {status}, stderr: {}", server.stderr());
        };
        server.url = url.to_owned();
        server
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// What the server wrote on stderr so far (all of it, once it has exited).
    pub fn stderr(&mut self) -> String {
        self.stderr.lock().expect("stderr buffer").clone()
    }

    /// Waits for the server to exit on its own.
    pub fn wait(&mut self) -> ExitStatus {
        let status = self.child.wait().expect("waits for the server");
        if let Some(reader) = self.stderr_reader.take() {
            reader.join().expect("stderr reader ends");
        }
        status
    }

    /// Sends `signal` (e.g. `TERM`, `INT`) with kill(1) and waits for the exit.
    pub fn stop_with(&mut self, signal: &str) -> ExitStatus {
        let sent = Command::new("kill").arg(format!("-{signal}")).arg(self.pid().to_string()).status();
        assert!(sent.expect("runs kill").success(), "kill -{signal} failed");
        let status = self.child.wait().expect("waits for the server");
        if let Some(reader) = self.stderr_reader.take() {
            reader.join().expect("stderr reader ends");
        }
        status
    }

    pub fn get(&self, path: &str) -> Reply {
        send(agent().get(format!("{}{path}", self.url)).call())
    }

    pub fn post_json(&self, path: &str, body: &Value) -> Reply {
        self.post(path, "application/json", body.to_string().into_bytes())
    }

    pub fn post(&self, path: &str, content_type: &str, body: Vec<u8>) -> Reply {
        send(agent().post(format!("{}{path}", self.url)).header("Content-Type", content_type).send(body))
    }

    pub fn request(&self, method: &str, path: &str, headers: &[(&str, &str)]) -> Reply {
        send(agent().run(self.builder(method, path, headers).body(()).expect("a valid request")))
    }

    pub fn request_with_body(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: Vec<u8>,
    ) -> Reply {
        send(agent().run(self.builder(method, path, headers).body(body).expect("a valid request")))
    }

    fn builder(&self, method: &str, path: &str, headers: &[(&str, &str)]) -> ureq::http::request::Builder {
        let mut request = ureq::http::Request::builder().method(method).uri(format!("{}{path}", self.url));
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        request
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        // Already gone after `stop_with`; both calls are harmless then.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// POSTs JSON to `url` + `path`; `None` when no answer comes (the server died mid-request, or
/// was never there).
pub fn try_post_json(url: &str, path: &str, body: &Value) -> Option<Reply> {
    let result = agent()
        .post(format!("{url}{path}"))
        .header("Content-Type", "application/json")
        .send(body.to_string().into_bytes());
    let mut response = result.ok()?;
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let body = response.body_mut().read_to_string().ok()?;
    Some(Reply { status, headers, body })
}

/// Runs `petstore-mock ARGS...` to completion (for starts that must fail).
pub fn run(args: &[&str]) -> Output {
    Command::new(BINARY).args(args).stdin(Stdio::null()).output().expect("petstore-mock runs")
}

/// A response read whole.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub headers: ureq::http::HeaderMap,
    pub body: String,
}

impl Reply {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).map(|value| value.to_str().expect("a text header"))
    }

    /// All values of a header joined with ", ", as a browser reads them.
    pub fn header_all(&self, name: &str) -> String {
        let values: Vec<&str> =
            self.headers.get_all(name).iter().map(|value| value.to_str().expect("a text header")).collect();
        values.join(", ")
    }

    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|error| {
            panic!("status {} body is not JSON ({error}): {:?}", self.status, self.body)
        })
    }

    /// Asserts the answer is the `Error` object with this status and code; returns its message.
    pub fn assert_error(&self, status: u16, code: &str) -> String {
        assert_eq!(self.status, status, "body: {}", self.body);
        assert_eq!(self.header("content-type"), Some("application/json"), "{self:?}");
        let body = self.json();
        let object = body.as_object().expect("an object");
        let mut keys: Vec<&str> = object.keys().map(String::as_str).collect();
        keys.sort_unstable();
        assert_eq!(keys, ["code", "message", "status"], "{body}");
        assert_eq!(body["code"], code, "{body}");
        assert_eq!(body["status"], status, "{body}");
        body["message"].as_str().expect("a message").to_owned()
    }
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        // A guard against a hung server, not a measurement: no test asserts on time.
        .timeout_global(Some(Duration::from_secs(60)))
        .build()
        .into()
}

fn send(result: Result<ureq::http::Response<ureq::Body>, ureq::Error>) -> Reply {
    let mut response = result.expect("the request gets an answer");
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let body = response.body_mut().read_to_string().expect("reads the body");
    Reply { status, headers, body }
}

/// An empty directory for one test under Cargo's per-target scratch space.
pub fn scratch_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("petstore-mock-tests").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("creates the scratch directory");
    dir
}
