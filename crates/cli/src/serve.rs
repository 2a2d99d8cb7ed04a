//! `playground serve`: the site `build` would write and the description's mock on one port,
//! rebuilt when the description changes, with open pages told to reload (or shown the error).
//!
//! The site is written by [`site::write_into`] into a temporary folder per version; only the
//! page (`index.html`, with the live-reload script) is held in memory. The mock is
//! `playground mock`'s router, nested under `/mock/`. Changes are found by polling the files'
//! modification times and sizes, which needs no dependency and sees every kind of edit
//! (editors that replace the file as well as those that write into it).

use std::fs;
use std::io::{self, Write};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError, RwLock};
use std::time::{Duration, SystemTime};

use axum::Router;
use axum::extract::State;
use axum::http::header::{ACCEPT, CACHE_CONTROL, CONTENT_TYPE, LOCATION, VARY};
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri};
use axum::middleware::map_response;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use playground_mock::{ApiMock, Clock};
use playground_server::cli::{DRAIN_TIME, StopSignals};
use playground_server::{SharedMock, router_with};
use tokio::net::TcpListener;
use tokio::sync::{broadcast, watch};

use crate::site::{self, BuildError, SiteError, Source};
use playground_site::check::MAX_WARNINGS;

/// Where pages listen for changes.
pub const EVENTS_PATH: &str = "/__playground/events";

/// Where the mock is served (its paths follow).
pub const MOCK_PATH: &str = "/mock";

/// At most this many pages listen at once; more are refused (503), each one holds a connection.
pub const MAX_EVENT_CLIENTS: usize = 64;

/// How often the description's files are looked at.
const POLL_INTERVAL: Duration = Duration::from_millis(300);

/// A change is read once the files have kept still this long, so that an editor's or a
/// generator's several writes make one version (and one reload), not a broken one between.
const SETTLE_TIME: Duration = Duration::from_millis(200);

/// Files that keep changing are read anyway after this long.
const MAX_SETTLE_TIME: Duration = Duration::from_secs(3);

/// The script added to the served page (never to a built site): reloads the page on `reload`,
/// shows a banner on `error`. The `error` listener also hears the connection's own errors,
/// which carry no data and are left to `EventSource`'s reconnection.
const LIVE_RELOAD_SCRIPT: &str = r#"<script data-playground-serve>(()=>{const s=new EventSource("/__playground/events");s.addEventListener("reload",()=>location.reload());s.addEventListener("error",e=>{if(typeof e.data!=="string")return;let b=document.getElementById("playground-serve-error");if(!b){b=document.createElement("div");b.id="playground-serve-error";b.setAttribute("role","alert");b.setAttribute("data-testid","playground-serve-error");b.style.cssText="position:fixed;top:0;left:0;right:0;z-index:2147483647;margin:0;padding:.75em 3em .75em 1em;background:#8b0000;color:#fff;font:14px/1.45 system-ui,sans-serif;white-space:pre-wrap;overflow-wrap:anywhere;max-height:50vh;overflow:auto;box-shadow:0 2px 8px rgba(0,0,0,.5)";const m=document.createElement("span");const x=document.createElement("button");x.type="button";x.textContent="\u00d7";x.setAttribute("aria-label","Dismiss");x.style.cssText="position:absolute;top:.3em;right:.5em;background:none;border:0;color:inherit;font-size:1.5em;line-height:1;cursor:pointer";x.onclick=()=>b.remove();b.append(m,x);document.body.prepend(b)}b.firstChild.textContent="playground serve: the description has an error; the last good version is shown.\n"+e.data})})()</script>"#;

/// What `playground serve` is asked to do.
#[derive(Debug, Clone)]
pub struct Serve {
    /// What the site is made of.
    pub source: Source,
    /// The address to listen on.
    pub host: String,
    /// The port; 0 picks a free one.
    pub port: u16,
}

/// Why `serve` could not start, or stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The first version of the site could not be made.
    #[error(transparent)]
    Site(#[from] BuildError),
    /// The description could not be mocked.
    #[error("cannot mock {}: {problem}", path.display())]
    Mock {
        /// The description.
        path: PathBuf,
        /// What the mock says.
        problem: String,
    },
    /// The site's temporary folder could not be made.
    #[error("cannot make a temporary folder for the site: {0}")]
    Temporary(io::Error),
    /// The async runtime could not start.
    #[error("cannot start the async runtime: {0}")]
    Runtime(io::Error),
    /// The port is taken.
    #[error(
        "cannot listen on {host}:{port}: the port is already in use. Stop the program that uses \
         it, or choose another port with --port (--port 0 picks a free one)."
    )]
    PortInUse {
        /// The address asked for.
        host: String,
        /// The port asked for.
        port: u16,
    },
    /// The address cannot be listened on.
    #[error("cannot listen on {host}:{port}: {source}")]
    Listen {
        /// The address asked for.
        host: String,
        /// The port asked for.
        port: u16,
        /// What the system said.
        source: io::Error,
    },
    /// Ctrl-C and SIGTERM cannot be handled.
    #[error("cannot wait for Ctrl-C or SIGTERM: {0}")]
    Signal(io::Error),
    /// The server failed.
    #[error("the server stopped: {0}")]
    Serve(io::Error),
    /// Making a version of the site stopped short (a bug: it panicked).
    #[error("making the site stopped short: {0}")]
    Task(String),
}

/// Serves `serve` until Ctrl-C or SIGTERM, on a runtime of its own. Messages on stderr start
/// with `program`; the one line on stdout, `PROGRAM serving http://ADDRESS/`, tells the URL.
#[must_use]
pub fn run(program: &'static str, serve: Serve) -> ExitCode {
    let result = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(ServeError::Runtime)
        .and_then(|runtime| runtime.block_on(serve_until_stopped(program, serve)));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("{program}: {error}");
            ExitCode::FAILURE
        }
    }
}

/// One version of the site: its files, its page with the script, and what to watch.
struct Version {
    /// The site's files; removed when the last request using this version is done.
    dir: tempfile::TempDir,
    /// The page served at `/` and `/index.html`.
    index: String,
    /// The description's files.
    files: Vec<PathBuf>,
}

/// What pages are told.
#[derive(Debug, Clone)]
enum Notice {
    /// The site changed: load it again.
    Reload,
    /// The description is broken; the message names the file, place and problem.
    Error(String),
}

/// What every request and the watcher share.
struct Shared {
    version: RwLock<Arc<Version>>,
    /// The error of the last reading, while the last good version is served (told to pages
    /// that connect meanwhile).
    error: Mutex<Option<String>>,
    notices: broadcast::Sender<Notice>,
    clients: AtomicUsize,
    /// Becomes true on Ctrl-C or SIGTERM: the event streams end, so connections can close.
    stop: watch::Receiver<bool>,
}

impl Shared {
    fn version(&self) -> Arc<Version> {
        Arc::clone(&self.version.read().unwrap_or_else(PoisonError::into_inner))
    }

    fn set_error(&self, error: Option<String>) {
        *self.error.lock().unwrap_or_else(PoisonError::into_inner) = error;
    }

    fn error(&self) -> Option<String> {
        self.error.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }
}

async fn serve_until_stopped(program: &'static str, mut serve: Serve) -> Result<(), ServeError> {
    serve.source.served_mock = Some(MOCK_PATH.to_owned());
    let source = serve.source.clone();
    let (version, mock) =
        tokio::task::spawn_blocking(move || make_version(program, &source)).await.map_err(join_error)??;
    let mut signals = StopSignals::install().map_err(ServeError::Signal)?;
    let listener = TcpListener::bind((serve.host.as_str(), serve.port)).await.map_err(|source| {
        if source.kind() == io::ErrorKind::AddrInUse {
            ServeError::PortInUse { host: serve.host.clone(), port: serve.port }
        } else {
            ServeError::Listen { host: serve.host.clone(), port: serve.port, source }
        }
    })?;
    let address = listener.local_addr().map_err(|source| ServeError::Listen {
        host: serve.host.clone(),
        port: serve.port,
        source,
    })?;

    let (stop, stopping) = watch::channel(false);
    let (notices, _) = broadcast::channel(16);
    let shared = Arc::new(Shared {
        version: RwLock::new(Arc::new(version)),
        error: Mutex::new(None),
        notices,
        clients: AtomicUsize::new(0),
        stop: stopping.clone(),
    });
    let mock: SharedMock = Arc::new(Mutex::new(mock.into()));
    let app = Router::new()
        .route(EVENTS_PATH, get(events))
        .fallback(site_file)
        .with_state(Arc::clone(&shared))
        .nest(MOCK_PATH, router_with(Arc::clone(&mock), None).layer(map_response(under_mock)));
    announce(program, address);

    let watcher = tokio::spawn(watch_files(program, serve.source.clone(), Arc::clone(&shared), mock));
    let mut graceful = stopping.clone();
    let server = axum::serve(listener, app).with_graceful_shutdown(async move {
        let _ = graceful.wait_for(|stopped| *stopped).await;
    });
    let mut server = tokio::spawn(server.into_future());
    let result = tokio::select! {
        signal = signals.recv() => {
            eprintln!("{program}: {signal} received, stopping");
            let _ = stop.send(true);
            if tokio::time::timeout(DRAIN_TIME, &mut server).await.is_err() {
                eprintln!("{program}: connections still open after {DRAIN_TIME:?}, closing them");
                server.abort();
            }
            Ok(())
        }
        finished = &mut server => match finished {
            Ok(Err(error)) => Err(ServeError::Serve(error)),
            _ => Ok(()),
        },
    };
    let _ = stop.send(true);
    watcher.abort();
    result
}

fn join_error(error: tokio::task::JoinError) -> ServeError {
    ServeError::Task(error.to_string())
}

/// Writes a version of the site and makes its mock; prints the build's warnings and what the
/// mock serves.
fn make_version(program: &str, source: &Source) -> Result<(Version, ApiMock), ServeError> {
    let dir =
        tempfile::Builder::new().prefix("playground-serve-").tempdir().map_err(ServeError::Temporary)?;
    let written = site::write_into(source, dir.path())?;
    let mock = ApiMock::from_document(written.document)
        .map_err(|e| ServeError::Mock { path: source.spec.clone(), problem: e.to_string() })?
        .with_clock(Clock::system());
    let index_path = dir.path().join("index.html");
    let index = fs::read_to_string(&index_path)
        .map_err(|source| BuildError::Io { path: index_path.clone(), source })?;
    let index = with_live_reload(&index);
    // The page is served from memory, with the script; the written one is never served.
    let _ = fs::remove_file(&index_path);
    for warning in written.built.warnings.iter().take(MAX_WARNINGS) {
        eprintln!("{program}: warning: {warning}");
    }
    if written.built.warnings.len() > MAX_WARNINGS {
        eprintln!("{program}: warning: and {} more", written.built.warnings.len() - MAX_WARNINGS);
    }
    let plural = if written.built.operations == 1 { "" } else { "s" };
    eprintln!(
        "{program}: site of {} ({}, {} operation{plural}); mock of {} at {MOCK_PATH}/ ({} stored resources)",
        source.spec.display(),
        written.built.title,
        written.built.operations,
        mock.api(),
        mock.resources().len(),
    );
    Ok((Version { dir, index, files: written.files }, mock))
}

/// The page with the live-reload script last in its `<body>`.
fn with_live_reload(index: &str) -> String {
    let at = index.rfind("</body>").unwrap_or(index.len());
    let mut page = String::with_capacity(index.len() + LIVE_RELOAD_SCRIPT.len());
    page.push_str(&index[..at]);
    page.push_str(LIVE_RELOAD_SCRIPT);
    page.push_str(&index[at..]);
    page
}

/// The mock's answer with its `Location` (`/notes/7` for a created note) made an address under
/// [`MOCK_PATH`], where the mock is served here.
async fn under_mock(mut response: Response) -> Response {
    let moved = response
        .headers()
        .get(LOCATION)
        .and_then(|value| value.to_str().ok())
        .filter(|location| location.starts_with('/') && !location.starts_with("//"))
        .and_then(|location| HeaderValue::from_str(&format!("{MOCK_PATH}{location}")).ok());
    if let Some(location) = moved {
        response.headers_mut().insert(LOCATION, location);
    }
    response
}

/// Prints the URL on stdout, the one line a script or test reads to find the port.
#[expect(clippy::print_stdout, reason = "the URL is this command's output")]
fn announce(program: &str, address: SocketAddr) {
    println!("{program} serving http://{address}/");
    // stdout is a pipe under a test or script, so block-buffered: the line must leave now.
    let _ = io::stdout().flush();
    eprintln!(
        "{program}: the mock answers at http://{address}{MOCK_PATH}/ (the page's try-it sends there); Ctrl-C stops"
    );
}

/// What a file looked like: its modification time and size, or nothing when it is missing.
type Stamp = Option<(Option<SystemTime>, u64)>;

fn stamp(file: &Path) -> Stamp {
    fs::metadata(file).ok().map(|m| (m.modified().ok(), m.len()))
}

fn stamps(files: &[PathBuf]) -> Vec<Stamp> {
    files.iter().map(|file| stamp(file)).collect()
}

/// Polls the description's files (and `playground.toml`) and makes a new version when one
/// changed: swapped in and pages reloaded when it is good, pages told the error otherwise.
async fn watch_files(program: &'static str, source: Source, shared: Arc<Shared>, mock: SharedMock) {
    // A version's files end with `playground.toml`.
    let mut files = shared.version().files.clone();
    let mut seen = stamps(&files);
    let mut stop = shared.stop.clone();
    let mut ticks = tokio::time::interval(POLL_INTERVAL);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = ticks.tick() => {}
            _ = stop.wait_for(|stopped| *stopped) => return,
        }
        let now = {
            let files = files.clone();
            match tokio::task::spawn_blocking(move || stamps(&files)).await {
                Ok(now) => now,
                Err(_) => continue,
            }
        };
        if now == seen {
            continue;
        }
        let now = settled(&files, now).await;
        let previous = files.clone();
        let again = source.clone();
        let made = tokio::task::spawn_blocking(move || make_version(program, &again)).await;
        match made {
            Ok(Ok((version, fresh))) => {
                files.clone_from(&version.files);
                *playground_server::app::lock(&mock) = fresh.into();
                *shared.version.write().unwrap_or_else(PoisonError::into_inner) = Arc::new(version);
                shared.set_error(None);
                eprintln!("{program}: reloaded; the mock starts again with an empty state");
                let _ = shared.notices.send(Notice::Reload);
            }
            Ok(Err(error)) => {
                // A file the description now names but that is missing is watched too, so that
                // creating it brings the site back.
                if let ServeError::Site(BuildError::Site(SiteError::Description(problem))) = &error
                    && !files.contains(&problem.path)
                    && problem.path.is_absolute()
                {
                    files.push(problem.path.clone());
                }
                let message = error.to_string();
                eprintln!("{program}: {message}");
                eprintln!("{program}: still serving the last good version");
                shared.set_error(Some(message.clone()));
                let _ = shared.notices.send(Notice::Error(message));
            }
            Err(error) => eprintln!("{program}: {}", join_error(error)),
        }
        // A file watched before keeps the look it had before this reading, so that an edit made
        // while it was read is seen at the next tick; a file new to the list is taken as it is.
        let before: Vec<(PathBuf, Stamp)> = previous.into_iter().zip(now).collect();
        seen = files
            .iter()
            .map(|file| {
                before.iter().find(|(old, _)| old == file).map_or_else(|| stamp(file), |(_, look)| *look)
            })
            .collect();
    }
}

/// The files' looks once they have not changed for [`SETTLE_TIME`] (or after
/// [`MAX_SETTLE_TIME`]), starting from `now`.
async fn settled(files: &[PathBuf], mut now: Vec<Stamp>) -> Vec<Stamp> {
    let started = tokio::time::Instant::now();
    while started.elapsed() < MAX_SETTLE_TIME {
        tokio::time::sleep(SETTLE_TIME).await;
        let files = files.to_vec();
        let Ok(later) = tokio::task::spawn_blocking(move || stamps(&files)).await else { break };
        if later == now {
            break;
        }
        now = later;
    }
    now
}

/// Counts an events client for as long as it is held.
struct Client(Arc<Shared>);

impl Drop for Client {
    fn drop(&mut self) {
        self.0.clients.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The Server-Sent Events stream pages listen to: `reload`, or `error` with the message (sent
/// at once to a page that connects while the description is broken).
async fn events(State(shared): State<Arc<Shared>>) -> Response {
    if shared.clients.fetch_add(1, Ordering::SeqCst) >= MAX_EVENT_CLIENTS {
        shared.clients.fetch_sub(1, Ordering::SeqCst);
        return (StatusCode::SERVICE_UNAVAILABLE, "too many pages are listening for changes").into_response();
    }
    let client = Client(Arc::clone(&shared));
    let receiver = shared.notices.subscribe();
    let pending = shared.error().map(Notice::Error);
    let stop = shared.stop.clone();
    let stream = futures_util::stream::unfold(
        (client, receiver, pending, stop),
        |(client, mut receiver, pending, mut stop)| async move {
            if let Some(notice) = pending {
                return Some((
                    Ok::<_, std::convert::Infallible>(event(&notice)),
                    (client, receiver, None, stop),
                ));
            }
            let notice = tokio::select! {
                received = receiver.recv() => received,
                _ = stop.wait_for(|stopped| *stopped) => return None,
            };
            let notice = match notice {
                Ok(notice) => notice,
                // Missed notices: the page is behind, so it reloads.
                Err(broadcast::error::RecvError::Lagged(_)) => Notice::Reload,
                Err(broadcast::error::RecvError::Closed) => return None,
            };
            Some((Ok(event(&notice)), (client, receiver, None, stop)))
        },
    );
    let mut response = Sse::new(stream).keep_alive(KeepAlive::default()).into_response();
    response.headers_mut().insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

fn event(notice: &Notice) -> Event {
    match notice {
        Notice::Reload => Event::default().event("reload").data("reload"),
        // A carriage return would end the field; the page shows the lines as they are.
        Notice::Error(message) => {
            Event::default().event("error").data(message.replace("\r\n", "\n").replace('\r', "\n"))
        }
    }
}

/// The site's files: the page from memory, the rest from the version's folder; a client that
/// asks for Markdown (`Accept: text/markdown`) gets a page's Markdown twin where it has one.
async fn site_file(State(shared): State<Arc<Shared>>, uri: Uri, headers: HeaderMap) -> Response {
    let version = shared.version();
    let path = uri.path().trim_start_matches('/');
    let markdown = headers
        .get(ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(playground_site::twin::prefers_markdown);
    if markdown {
        let twin = playground_site::twin::markdown_path(path);
        if plain(&twin)
            && let Ok(bytes) = tokio::fs::read(version.dir.path().join(&twin)).await
        {
            return vary_accept(with_type(bytes, content_type(Path::new(&twin))));
        }
    }
    if path.is_empty() || path == "index.html" {
        return vary_accept(with_type(version.index.clone().into_bytes(), "text/html; charset=utf-8"));
    }
    if !plain(path) {
        return not_found();
    }
    let file = version.dir.path().join(path);
    match tokio::fs::read(&file).await {
        Ok(bytes) => with_type(bytes, content_type(&file)),
        Err(_) => not_found(),
    }
}

/// Only plain names below the site's folder: no `..`, no hidden files, no empty segments.
fn plain(path: &str) -> bool {
    !path.split('/').any(|segment| segment.is_empty() || segment.starts_with('.') || segment.contains('\\'))
}

/// The answer marked as chosen by the request's `Accept` (the page or its Markdown twin), so
/// that a cache keeps the two apart.
fn vary_accept(mut response: Response) -> Response {
    response.headers_mut().insert(VARY, HeaderValue::from_static("accept"));
    response
}

fn with_type(bytes: Vec<u8>, content_type: &'static str) -> Response {
    let mut response = bytes.into_response();
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    // Every file may change with the description (and the app with `make build`).
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

fn not_found() -> Response {
    (StatusCode::NOT_FOUND, "not found").into_response()
}

/// The content type of a site file, by its extension.
fn content_type(path: &Path) -> &'static str {
    let extension = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
    match extension.as_deref() {
        Some("html" | "htm") => "text/html; charset=utf-8",
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("json" | "map") => "application/json",
        Some("wasm") => "application/wasm",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("jpg" | "jpeg") => "image/jpeg",
        Some("gif") => "image/gif",
        Some("webp") => "image/webp",
        Some("ico") => "image/x-icon",
        Some("woff2") => "font/woff2",
        Some("woff") => "font/woff",
        Some("md") => "text/markdown; charset=utf-8",
        Some("txt") => "text/plain; charset=utf-8",
        Some("yaml" | "yml") => "application/yaml",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_script_goes_last_in_the_body() {
        let page = with_live_reload("<html><body><p>x</p></body></html>");
        assert!(page.ends_with(&format!("<p>x</p>{LIVE_RELOAD_SCRIPT}</body></html>")));
        assert!(with_live_reload("<p>no body</p>").ends_with(LIVE_RELOAD_SCRIPT));
    }

    #[test]
    fn content_types_follow_the_extension() {
        assert_eq!(content_type(Path::new("a/app_bg.wasm")), "application/wasm");
        assert_eq!(content_type(Path::new("openapi.json")), "application/json");
        assert_eq!(content_type(Path::new("style.CSS")), "text/css; charset=utf-8");
        assert_eq!(content_type(Path::new("LICENSE")), "application/octet-stream");
    }

    #[test]
    fn errors_keep_their_lines() {
        let text = event(&Notice::Error("a.yaml: at /paths\r\nbad".to_owned()));
        let text = format!("{text:?}");
        assert!(!text.contains("\\r"), "{text}");
    }
}
