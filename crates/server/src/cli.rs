//! The `serve` command of `petstore-mock` (and `mock` of `playground`): the stateful Petstore
//! mock, or the mock of any OpenAPI document given with `--spec`, over HTTP on this machine.

use std::io::{self, Write};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use clap::Args;
use petstore::Mock;
use playground_mock::{ApiMock, Clock, Delay, FailureOptions, MockOptions};
use tokio::net::TcpListener;
use tokio::sync::oneshot;

use crate::durable::Durable;
use crate::proxy::{Proxy, ProxyError};
use crate::state_db::{self, Found, StateDb};
use crate::{Served, StateFileError, description, router_with, state_file};

/// Serves the mock `args` describe until Ctrl-C or SIGTERM, on a runtime of its own, and
/// saves the state (with `--state`). Messages on stderr start with `program` (the binary's
/// name), and so does the one line on stdout, `PROGRAM listening on http://ADDRESS`, that a
/// script reads to find the port.
#[must_use]
pub fn run(program: &'static str, args: ServeArgs) -> ExitCode {
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("{program}: cannot start the async runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(serve(program, args)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("{program}: {error}");
            ExitCode::FAILURE
        }
    }
}

/// How long open connections may run on after a stop signal before the state is saved anyway
/// (or, for `playground serve`, before they are closed).
pub const DRAIN_TIME: Duration = Duration::from_secs(5);

/// The flags of `serve`: where to listen, what to mock and how, where to keep the state.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address to listen on (only this one).
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// Port to listen on; 0 picks a free one (the URL printed at start tells which).
    #[arg(long, default_value_t = 4010)]
    port: u16,
    /// Start with the demo data instead of an empty store (unless --state loads a saved one).
    #[arg(long, conflicts_with = "spec")]
    seed: bool,
    /// Mock this OpenAPI document (3.0, 3.1 or Swagger 2.0; JSON or YAML) instead of the
    /// Petstore: resources inferred from its paths, answers from its examples or schemas.
    #[arg(long, value_name = "FILE")]
    spec: Option<PathBuf>,
    /// Answer requests without checking them against the document (the Petstore's business
    /// rules still apply).
    #[arg(long)]
    no_validation: bool,
    /// With --spec: do not ask for the credentials the document's security requires.
    #[arg(long, requires = "spec")]
    no_security: bool,
    /// With --spec: accept only this credential (an API key, a bearer token, or user:password
    /// for Basic); give it again for more. Without it, any value is accepted.
    #[arg(long = "credential", value_name = "VALUE", requires = "spec", conflicts_with = "no_security")]
    credentials: Vec<String>,
    /// Wait before every answer, MS or MIN-MAX milliseconds (e.g. 200 or 100-500).
    #[arg(long, value_name = "MS", value_parser = Delay::parse)]
    delay: Option<Delay>,
    /// The share of requests that fail (0 to 1), with a documented error status.
    #[arg(long, value_name = "RATE")]
    failure_rate: Option<f64>,
    /// With --failure-rate: the status of the failures (else the first server error the
    /// operation documents, else 500); 0 cuts the connection instead.
    #[arg(long, value_name = "STATUS", requires = "failure_rate")]
    failure_status: Option<u16>,
    /// The mock's options as JSON (validate, security, seed, delay, failure, and per
    /// operationId under "operations"); the flags above win over it.
    #[arg(long, value_name = "FILE")]
    behaviour: Option<PathBuf>,
    /// Keep the state in FILE, a SQLite database (created when missing): every change is
    /// committed there, synced to disk, before it is answered. A JSON state (an export, or the
    /// file of an earlier version) is imported once, and kept beside it. One server per FILE:
    /// FILE.lock keeps a second off.
    #[arg(long, value_name = "FILE")]
    state: Option<PathBuf>,
    /// With --state: when FILE cannot be read as a saved mock, move it aside to
    /// FILE.unreadable-SECONDS and start fresh (without it, the server refuses to start).
    #[arg(long, requires = "state")]
    reset: bool,
    /// With --spec: forward every request to the real API at URL (http or https, with its base
    /// path) instead of answering it; the request and the answer are checked against the
    /// document, and the answer comes back as the API gave it, with X-Playground-Drift naming
    /// what departs from the document. Credentials pass through.
    #[arg(long, value_name = "URL", requires = "spec", conflicts_with_all = ["delay", "failure_rate"])]
    proxy: Option<String>,
    /// With --proxy: append one JSON line per exchange (operation, status, mismatches) to FILE,
    /// without credentials; `playground drift FILE` sums it up.
    #[arg(long, value_name = "FILE", requires = "proxy")]
    log: Option<PathBuf>,
    /// With --proxy and --state: keep the items of the real answers in the state file, so that
    /// `mock --spec ... --state FILE` serves them offline.
    #[arg(long, requires_all = ["proxy", "state"])]
    record: bool,
}

/// Why `serve` stopped with an error.
#[derive(Debug, thiserror::Error)]
enum ServeError {
    #[error(transparent)]
    State(#[from] StateFileError),
    #[error("{0}")]
    Spec(String),
    #[error(transparent)]
    Proxy(#[from] ProxyError),
    #[error(
        "cannot listen on {host}:{port}: the port is already in use. Stop the program that uses \
         it, or choose another port with --port (--port 0 picks a free one)."
    )]
    PortInUse { host: String, port: u16 },
    #[error("cannot listen on {host}:{port}: {source}")]
    Listen { host: String, port: u16, source: io::Error },
    #[error("cannot wait for Ctrl-C or SIGTERM: {0}")]
    Signal(io::Error),
    #[error("the server stopped: {0}")]
    Serve(io::Error),
}

async fn serve(program: &'static str, args: ServeArgs) -> Result<(), ServeError> {
    // Held until the process ends (the system lets go of it however it ends).
    let _lock = args.state.as_deref().map(state_file::lock).transpose()?;
    let (mut mock, db) = initial_mock(program, &args)?;
    let durable = db.map(|db| Arc::new(Durable::start(program, db)));
    if let Some(durable) = &durable {
        // A fresh state is in the file before anyone is told the server listens.
        let change = durable.after(&mut mock);
        durable.wait(change).await;
    }
    let proxy =
        args.proxy.as_deref().map(|url| Proxy::new(url, args.log.as_deref(), args.record)).transpose()?;
    // Before the URL is printed: a signal sent as soon as a client sees the URL must already
    // mean "stop in order", not the default "die at once".
    let mut signals = StopSignals::install().map_err(ServeError::Signal)?;
    let listener = TcpListener::bind((args.host.as_str(), args.port)).await.map_err(|source| {
        if source.kind() == io::ErrorKind::AddrInUse {
            ServeError::PortInUse { host: args.host.clone(), port: args.port }
        } else {
            ServeError::Listen { host: args.host.clone(), port: args.port, source }
        }
    })?;
    let address = listener.local_addr().map_err(|source| ServeError::Listen {
        host: args.host.clone(),
        port: args.port,
        source,
    })?;
    announce(program, address);

    let shared = Arc::new(Mutex::new(mock));
    let (stop, stopped) = oneshot::channel::<()>();
    let app = match proxy {
        Some(proxy) => {
            eprintln!(
                "{program}: forwarding to {}, checking against the document{}{}",
                proxy.upstream(),
                args.log
                    .as_ref()
                    .map(|log| format!("; exchanges logged to {}", log.display()))
                    .unwrap_or_default(),
                if args.record { "; answers recorded into the state" } else { "" }
            );
            crate::proxy::router(Arc::clone(&shared), durable.clone(), proxy)
        }
        None => router_with(Arc::clone(&shared), durable.clone()),
    };
    let server = axum::serve(listener, app).with_graceful_shutdown(async {
        let _ = stopped.await;
    });
    let mut server = tokio::spawn(server.into_future());

    tokio::select! {
        signal = signals.recv() => {
            eprintln!("{program}: {signal} received, stopping");
            let _ = stop.send(());
            // Connections finish their requests; one that never does must not hold the stop.
            if tokio::time::timeout(DRAIN_TIME, &mut server).await.is_err() {
                eprintln!("{program}: connections still open after {DRAIN_TIME:?}, closing them");
                server.abort();
            }
        }
        finished = &mut server => {
            // `axum::serve` only returns on shutdown; an error here is the listener's.
            if let Ok(Err(error)) = finished {
                return Err(ServeError::Serve(error));
            }
        }
    }

    if let (Some(durable), Some(path)) = (&durable, &args.state) {
        // Every answered change is committed already; this commits any change whose answer was
        // cut off, and closes the database.
        let (changes, commits) = durable.close();
        eprintln!("{program}: state kept in {} ({changes} changes in {commits} commits)", path.display());
    }
    Ok(())
}

/// The mock to serve and, with `--state`, its open database.
fn initial_mock(program: &str, args: &ServeArgs) -> Result<(Served, Option<StateDb>), ServeError> {
    let fresh: Served = match &args.spec {
        Some(path) => api_mock(program, path, args)?.into(),
        None => {
            let mock = if args.seed { Mock::seeded() } else { Mock::new() };
            mock.with_options(mock_options(args)?).into()
        }
    };
    let Some(path) = &args.state else { return Ok((fresh, None)) };
    let opened = match open_state(program, path, &fresh) {
        Err(error) if args.reset && error.resettable() => {
            let aside = state_file::keep_aside(path)?;
            state_db::move_log(path, &aside);
            eprintln!(
                "{program}: {} could not be loaded ({}); it is kept as {} and the mock starts fresh",
                path.display(),
                error.reason(),
                aside.display()
            );
            None
        }
        opened => opened?,
    };
    if let Some((mut mock, db)) = opened {
        // What the file holds needs no writing again.
        let _ = mock.take_write();
        eprintln!(
            "{program}: state loaded from {} ({}){}",
            path.display(),
            mock.summary(),
            if args.seed { "; --seed ignored" } else { "" }
        );
        return Ok((mock, Some(db)));
    }
    let db = StateDb::open(path)?;
    eprintln!("{program}: keeping the state in {} (a new SQLite database)", path.display());
    Ok((fresh, Some(db)))
}

/// The state `path` holds, read into a copy of `fresh`: its database, or a JSON snapshot
/// imported into one; `None` when there is none yet.
fn open_state(
    program: &str,
    path: &Path,
    fresh: &Served,
) -> Result<Option<(Served, StateDb)>, StateFileError> {
    let invalid = |source| StateFileError::Invalid { path: path.to_owned(), source };
    match state_db::look(path)? {
        Found::Nothing => Ok(None),
        Found::Database => {
            let db = StateDb::open(path)?;
            let mut mock = fresh.clone();
            mock.restore_records(db.records()?).map_err(invalid)?;
            Ok(Some((mock, db)))
        }
        Found::Snapshot(text) => {
            let mut mock = fresh.clone();
            mock.restore(&text).map_err(invalid)?;
            let kept = state_db::import(path, mock.records())?;
            eprintln!(
                "{program}: imported the JSON state in {}; it is now a SQLite database, and the JSON \
                 is kept as {}",
                path.display(),
                kept.display()
            );
            Ok(Some((mock, StateDb::open(path)?)))
        }
    }
}

/// Reads `--spec` and the behaviour flags into a mock, and says on stderr what it mocks.
fn api_mock(program: &str, path: &Path, args: &ServeArgs) -> Result<ApiMock, ServeError> {
    let cannot = |why: String| ServeError::Spec(format!("cannot mock {}: {why}", path.display()));
    // The error names the file at fault when it is another than `path`.
    let document = description::read(path)
        .map_err(|e| cannot(if e.path == path { e.problem } else { e.to_string() }))?;
    let options = mock_options(args)?;
    // The times the server makes (an item's `createdAt`) are the request's.
    let mock = ApiMock::from_document(document)
        .map_err(|e| cannot(e.to_string()))?
        .with_options(options)
        .with_clock(Clock::system());
    let resources = mock.resources();
    eprintln!(
        "{program}: mocking {} from {}; {} stored resources{}",
        mock.api(),
        path.display(),
        resources.len(),
        if resources.is_empty() {
            String::new()
        } else {
            let names: Vec<&str> = resources.iter().take(8).map(|r| r.collection.as_str()).collect();
            let more = resources.len().saturating_sub(names.len());
            let more = if more > 0 { format!(" and {more} more") } else { String::new() };
            format!(": {}{more}", names.join(", "))
        }
    );
    for note in mock.notes().iter().take(20) {
        eprintln!("{program}: note: {note}");
    }
    Ok(mock)
}

/// The mock's options: --behaviour, with the flags winning over it.
fn mock_options(args: &ServeArgs) -> Result<MockOptions, ServeError> {
    let mut options = match &args.behaviour {
        Some(file) => {
            let text = std::fs::read_to_string(file)
                .map_err(|e| ServeError::Spec(format!("cannot read {}: {e}", file.display())))?;
            serde_json::from_str::<MockOptions>(&text)
                .map_err(|e| ServeError::Spec(format!("{} is not the mock's options: {e}", file.display())))?
        }
        None => MockOptions::default(),
    };
    options.validate &= !args.no_validation;
    options.security &= !args.no_security;
    options.credentials.extend(args.credentials.iter().cloned());
    if let Some(delay) = args.delay {
        options.delay = Some(delay);
    }
    if let Some(rate) = args.failure_rate {
        let network = args.failure_status == Some(0);
        let status = args.failure_status.filter(|s| *s != 0);
        options.failure = Some(FailureOptions { rate, status, network });
    }
    options.check().map_err(|e| ServeError::Spec(format!("the mock's options: {e}")))?;
    Ok(options)
}

/// Prints the URL on stdout, the one line a script or test reads to find the port.
#[expect(clippy::print_stdout, reason = "the listening URL is this command's output")]
fn announce(program: &str, address: SocketAddr) {
    println!("{program} listening on http://{address}");
    // stdout is a pipe under a test or script, so block-buffered: the line must leave now.
    let _ = io::stdout().flush();
}

/// Ctrl-C and SIGTERM, handled from the moment [`StopSignals::install`] returns (shared with
/// `playground serve`).
#[derive(Debug)]
pub struct StopSignals {
    #[cfg(unix)]
    interrupt: tokio::signal::unix::Signal,
    #[cfg(unix)]
    terminate: tokio::signal::unix::Signal,
}

impl StopSignals {
    /// Starts handling them: from now on they no longer end the process at once.
    ///
    /// # Errors
    /// When the system does not let the signals be handled.
    #[cfg(unix)]
    pub fn install() -> io::Result<Self> {
        use tokio::signal::unix::{SignalKind, signal};
        Ok(Self { interrupt: signal(SignalKind::interrupt())?, terminate: signal(SignalKind::terminate())? })
    }

    /// Nothing to install outside Unix: Ctrl-C is registered on first wait.
    ///
    /// # Errors
    /// None; the signature is Unix's.
    #[cfg(not(unix))]
    pub fn install() -> io::Result<Self> {
        Ok(Self {})
    }

    /// Waits for the first of them and names it.
    #[cfg(unix)]
    pub async fn recv(&mut self) -> &'static str {
        tokio::select! {
            _ = self.interrupt.recv() => "Ctrl-C",
            _ = self.terminate.recv() => "SIGTERM",
        }
    }

    /// Waits for Ctrl-C (registered on first poll there: no SIGTERM outside Unix).
    #[cfg(not(unix))]
    pub async fn recv(&mut self) -> &'static str {
        if tokio::signal::ctrl_c().await.is_err() {
            // No way to be told: serve until killed rather than stop at once.
            std::future::pending::<()>().await;
        }
        "Ctrl-C"
    }
}
