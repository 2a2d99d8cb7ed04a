//! `playground mock` run as a user runs it: it serves the mock of a description.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Command, Stdio};

const BINARY: &str = env!("CARGO_BIN_EXE_playground");

#[test]
fn the_mock_of_a_description_answers() {
    let spec = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/notes.yaml");
    let mut child = Command::new(BINARY)
        .args(["mock", "--host", "127.0.0.1", "--port", "0", "--spec"])
        .arg(&spec)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("playground starts");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout is piped"));
    let mut line = String::new();
    stdout.read_line(&mut line).expect("reads the URL line");
    let address = line.trim().strip_prefix("playground listening on http://");
    let Some(address) = address else {
        let _ = child.kill();
        panic!("no listening line: {line:?}");
    };

    let mut stream = TcpStream::connect(address).expect("connects");
    stream
        .write_all(b"GET /notes HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        .expect("sends the request");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).expect("reads the answer");

    let stopped = Command::new("kill").arg("-TERM").arg(child.id().to_string()).status();
    assert!(stopped.expect("runs kill").success());
    let status = child.wait().expect("waits for the mock");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains("application/json"), "{answer}");
    assert!(status.success(), "{status}");
}
