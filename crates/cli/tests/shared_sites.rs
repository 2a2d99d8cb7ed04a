//! Sites in storage every host reads: two `playground host` processes with one `sites_dir`, a
//! site published into it with `playground build --switch` while both serve it. Every answer
//! during the switches is a whole build's file (never a 404, never a mix), each host serves the
//! new build from the moment the build command returns, and a page of the previous build still
//! gets the scripts it names after the switch.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use hosted::{BINARY, Hosted};
use support::{fake_app, fixture};

#[path = "support/hosted.rs"]
mod hosted;
mod support;
const SITE: &str = "petstore.docs-host.test";

/// `GET path` of the project's default address at `address`: (status, body).
fn get(address: &str, path: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(address).expect("connects");
    stream.set_read_timeout(Some(Duration::from_secs(10))).expect("timeout");
    let request = format!("GET {path} HTTP/1.1\r\nHost: {SITE}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).expect("sends");
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).expect("reads");
    let raw = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = raw.split_once("\r\n\r\n").expect("an answer");
    (head.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0), body.to_owned())
}

fn write_config(dir: &Path, name: &str) -> std::path::PathBuf {
    let config = format!(
        r#"platform_domain = "docs-host.test"
cname_target = "cname.docs-host.test"
data_dir = "data-{name}"
sites_dir = "sites"
[listen]
http = "127.0.0.1:0"
[acme]
directory_url = "https://127.0.0.1:14000/dir"
contact = "mailto:ops@example.com"
ca_identifier = "letsencrypt.org"
[[owners]]
email = "ana@example.com"
password_hash = "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaA"
[[projects]]
name = "petstore"
owner = "ana@example.com"
plan = "pro"
"#
    );
    let path = dir.join(format!("host-{name}.toml"));
    std::fs::write(&path, config).expect("host.toml");
    path
}

/// `playground build --switch` the first time; then without the flag, as the link it made is
/// switched without it.
fn publish(app: &Path, spec: &Path, out: &Path) -> Output {
    let first = std::fs::symlink_metadata(out).is_err();
    let output = Command::new(BINARY)
        .arg("build")
        .args(if first { &["--switch"][..] } else { &[] })
        .arg("--spec")
        .arg(spec)
        .arg("--out")
        .arg(out)
        .arg("--app")
        .arg(app)
        .output()
        .expect("runs playground build");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    output
}

/// The app as `fake_app` makes it, with its script renamed to `app-{version}.js` (as a new
/// release of the app is: names change with content).
fn app_version(root: &Path, version: u32) -> std::path::PathBuf {
    let app = fake_app(&root.join(format!("v{version}")));
    let index = std::fs::read_to_string(app.join("index.html")).expect("reads");
    std::fs::write(app.join("index.html"), index.replace("/app-1.js", &format!("/app-{version}.js")))
        .expect("writes");
    std::fs::rename(app.join("app-1.js"), app.join(format!("app-{version}.js"))).expect("renames");
    app
}

#[test]
fn two_hosts_serve_a_shared_site_switched_whole() {
    let dir = tempfile::tempdir().expect("scratch");
    let (app_1, app_2) = (app_version(dir.path(), 1), app_version(dir.path(), 2));
    std::fs::create_dir(dir.path().join("sites")).expect("the shared folder");
    let out = dir.path().join("sites/petstore");
    let start = |name: &str| Hosted::start(&write_config(dir.path(), name)).expect("a host starts");
    let hosts = [start("a"), start("b")];

    // Nothing published yet: both say so.
    for host in &hosts {
        let (status, body) = get(&host.address, "/");
        assert_eq!((status, body.as_str()), (404, "This site is not published yet.\n"));
    }
    let (notes, shelf) = (fixture("notes.yaml"), fixture("shelf.yaml"));
    let output = publish(&app_1, &notes, &out);
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(said.contains("switched") && said.contains(".petstore.builds/"), "{said}");
    let documents: Vec<String> = {
        let first = std::fs::read_to_string(out.join("openapi.json")).expect("the first build's");
        publish(&app_1, &shelf, &out);
        vec![first, std::fs::read_to_string(out.join("openapi.json")).expect("the second build's")]
    };
    assert_ne!(documents[0], documents[1]);

    // Readers on both hosts while the site is switched back and forth.
    let stop = Arc::new(AtomicBool::new(false));
    let failures = Arc::new(Mutex::new(Vec::new()));
    let readers: Vec<_> = hosts
        .iter()
        .map(|host| {
            let (address, stop, failures, documents) =
                (host.address.clone(), Arc::clone(&stop), Arc::clone(&failures), documents.clone());
            std::thread::spawn(move || {
                let mut reads = 0_u32;
                while !stop.load(Ordering::SeqCst) {
                    let (status, body) = get(&address, "/openapi.json");
                    if status != 200 || !documents.contains(&body) {
                        failures.lock().expect("list").push(format!("{status}: {body:.80}"));
                    }
                    let (status, body) = get(&address, "/");
                    if status != 200 || !body.contains("<title>") {
                        failures.lock().expect("list").push(format!("/ {status}: {body:.80}"));
                    }
                    reads += 2;
                }
                reads
            })
        })
        .collect();
    for round in 0..6 {
        let spec = if round % 2 == 0 { &notes } else { &shelf };
        publish(&app_1, spec, &out);
        // The build has returned: every host serves the new one now, with no delay.
        let expected = &documents[round % 2];
        for host in &hosts {
            assert_eq!(&get(&host.address, "/openapi.json").1, expected, "round {round}");
        }
    }
    stop.store(true, Ordering::SeqCst);
    let reads: u32 = readers.into_iter().map(|r| r.join().expect("the reader ends")).sum();
    let failures = failures.lock().expect("list").clone();
    assert!(
        failures.is_empty(),
        "{} of {reads} reads failed: {:?}",
        failures.len(),
        &failures[..failures.len().min(5)]
    );
    assert!(reads > 0);
    eprintln!("{reads} reads during 6 switches, every one a whole build's file");

    // A new release of the app: a page loaded from the previous build still gets its script,
    // from the earlier build kept beside the current one; a page is never taken from there.
    std::fs::write(out.join("only-before.html"), "<p>old</p>").expect("a page of the old build");
    publish(&app_2, &notes, &out);
    for host in &hosts {
        let (_, index) = get(&host.address, "/");
        assert!(index.contains("/app-2.js") && !index.contains("/app-1.js"), "{index}");
        assert_eq!(get(&host.address, "/app-2.js").0, 200);
        assert_eq!(get(&host.address, "/app-1.js"), (200, "export default function init() {}".to_owned()));
        assert_eq!(get(&host.address, "/only-before.html").0, 404);
        assert_eq!(get(&host.address, "/nowhere.js").0, 404);
    }
    // Two builds later the release with app-1.js is no longer kept: gone.
    publish(&app_2, &shelf, &out);
    publish(&app_2, &notes, &out);
    let builds = std::fs::read_dir(dir.path().join("sites/.petstore.builds")).expect("lists").count();
    assert_eq!(builds, 3, "the newest three builds are kept");
    for host in &hosts {
        assert_eq!(get(&host.address, "/app-1.js").0, 404);
    }
}
