//! `playground mcp --spec FILE`: a Model Context Protocol server over the mock of any
//! description, on the official Rust SDK (`rmcp`). An agent finds an operation
//! (`search_operations`), reads it (`describe_operation`, the operation's Markdown page from
//! `playground-llms`) and sends it (`call_operation`) to the stateful mock in this process, or with
//! `--target URL` to the real server (the proxy's client, `playground_server::proxy::Proxy`,
//! credentials from `PLAYGROUND_AUTH_<SCHEME>` variables, each answer checked against the
//! description as `mock --proxy` checks it); `reset_mock` empties the mock. The tools are the same
//! four whatever the description's size, so a large API costs the model no more to load than a
//! small one; the pages of the description are resources (`playground://docs/llms.txt`, ...).
//!
//! - [`api`]: the description read once (Swagger 2.0 converted), its operations with what the
//!   search reads, views built when first used, pages made when first read.
//! - [`search`]: the ranking (exact names, then words weighed by field).
//! - [`call`]: a call's arguments, its request (built by `playground_tryit_core::request`), its
//!   answer as text (bounded).
//! - [`credentials`]: the environment's credentials per security scheme, blanked from answers.
//! - [`server`]: the tools, resources and instructions (`rmcp::ServerHandler`).
//!
//! Over stdio by default (one session); `--port N` serves streamable HTTP at `/mcp` (every session
//! shares the one mock) and prints `playground mcp listening on http://ADDRESS/mcp`. Bounds: a
//! call's arguments at most [`server::MAX_ARGUMENTS`] (refused with a message), a message at most
//! [`MAX_MESSAGE`] (the transports drop or refuse a longer one and keep serving), answers cut past
//! [`call::MAX_BODY_CHARS`]. A message that is not JSON-RPC gets the SDK's error, or is ignored
//! when it is not JSON at all, and the server goes on.
//!
//! Tests: `tests/units.rs` (search ranking, request building, the tools in process, malformed
//! messages on an in-memory session, a description or `--target` that cannot be used);
//! `tests/mcp/run.sh` drives the binary with the official Python SDK over stdio and HTTP.
//! `examples/bench.rs` measures the tool list's size and a call's round trip (`make bench-mcp`).
#![deny(missing_docs)]

pub mod api;
pub mod call;
pub mod credentials;
pub mod search;
pub mod server;

use std::io::{self, Write};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use clap::Args;
use playground_server::cli::{DRAIN_TIME, StopSignals};
use playground_server::proxy::{Proxy, ProxyError};
use rmcp::ServiceExt;
use rmcp::transport::async_rw::AsyncRwTransport;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::net::TcpListener;

pub use api::Api;
pub use credentials::Credentials;
pub use server::{Server, ToolAnswer};

/// The largest message read from a client (4 MiB): past a call's [`server::MAX_ARGUMENTS`], so a
/// call a little over it gets that bound's message; a longer line (stdio) is dropped and a longer
/// body (HTTP) refused with 413, and the server keeps serving.
pub const MAX_MESSAGE: usize = 4 * 1024 * 1024;

/// How long the HTTP server waits for a stop before it exits anyway, after the stop signal.
const SHUTDOWN_WAIT: Duration = DRAIN_TIME;

/// The flags of `playground mcp`.
#[derive(Debug, Args)]
pub struct McpArgs {
    /// The API description (OpenAPI 3.0 to 3.2 or Swagger 2.0; JSON or YAML).
    #[arg(long, value_name = "FILE")]
    pub spec: PathBuf,
    /// Serve streamable HTTP at http://HOST:PORT/mcp instead of stdio; 0 picks a free port (the
    /// URL printed at start tells which).
    #[arg(long)]
    pub port: Option<u16>,
    /// With --port: the address to listen on (only this one).
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Send call_operation to the real server at URL (http or https, with its base path) instead
    /// of the mock, with the credentials of the PLAYGROUND_AUTH_<SCHEME> variables, and check each
    /// answer against the description.
    #[arg(long, value_name = "URL")]
    pub target: Option<String>,
}

/// Serves the MCP server `args` describe until stdin closes (stdio) or Ctrl-C or SIGTERM (HTTP).
/// Messages on stderr start with `program`; stdout is the protocol's (stdio) or carries the one
/// line `PROGRAM mcp listening on http://ADDRESS/mcp` (HTTP).
#[must_use]
pub fn run(program: &'static str, args: McpArgs) -> ExitCode {
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("{program}: cannot start the async runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    let result = runtime.block_on(serve(program, args));
    // A read of stdin still pending on a blocking thread must not keep the process alive.
    runtime.shutdown_timeout(Duration::from_millis(100));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("{program}: {error}");
            ExitCode::FAILURE
        }
    }
}

async fn serve(program: &'static str, args: McpArgs) -> Result<(), String> {
    let server = load(program, &args.spec, args.target.as_deref(), &|name| std::env::var(name).ok())?;
    match args.port {
        None => serve_stdio(program, server).await,
        Some(port) => serve_http(program, server, &args.host, port).await,
    }
}

/// The server of the description at `path`, read as `playground mock --spec` reads it, calling
/// `target` when given; says on stderr what it serves.
///
/// # Errors
/// A sentence naming the file when it cannot be read or mocked, or the URL when it is not one.
pub fn load(
    program: &str,
    path: &Path,
    target: Option<&str>,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Server, String> {
    let cannot = |why: String| format!("cannot serve {}: {why}", path.display());
    // The error names the file at fault when it is another than `path`.
    let document = playground_server::description::read(path)
        .map_err(|e| cannot(if e.path == path { e.problem } else { e.to_string() }))?;
    let api = Api::new(document).map_err(cannot)?;
    let proxy = target
        .map(|url| {
            Proxy::new(url, None, false).map_err(|e| match e {
                ProxyError::Url { url, why } => format!("--target {url}: {why}"),
                other => other.to_string().replace("--proxy", "--target"),
            })
        })
        .transpose()?;
    let credentials = Credentials::from_env(&api.document, env);
    for note in api.notes.iter().take(20) {
        eprintln!("{program}: note: converted from Swagger 2.0: {note}");
    }
    for scheme in &credentials.unusable {
        eprintln!(
            "{program}: warning: {} is set, but the scheme {scheme} is not one a call can fill (bearer, \
             basic, OAuth 2, OpenID Connect or an API key)",
            credentials::variable(scheme)
        );
    }
    let schemes: Vec<String> = credentials.schemes().map(str::to_owned).collect();
    let title = api.title().to_owned();
    let count = api.operations.len();
    let server = Server::new(api, proxy, credentials).map_err(cannot)?;
    eprintln!(
        "{program}: MCP server of {title} ({count} operations) from {}; calls go to {}{}",
        path.display(),
        target.map_or_else(|| "its mock".to_owned(), |url| format!("{url}, checked against it")),
        if schemes.is_empty() { String::new() } else { format!("; credentials for {}", schemes.join(", ")) }
    );
    Ok(server)
}

async fn serve_stdio(program: &str, server: Server) -> Result<(), String> {
    let (read, write) = rmcp::transport::stdio_pipes();
    let transport = AsyncRwTransport::new(read, write).with_max_line_length(MAX_MESSAGE);
    let running = server.serve(transport).await.map_err(|e| format!("the MCP session did not start: {e}"))?;
    let reason = running.waiting().await.map_err(|e| format!("the MCP session failed: {e}"))?;
    eprintln!("{program}: the session ended ({reason:?})");
    Ok(())
}

async fn serve_http(program: &str, server: Server, host: &str, port: u16) -> Result<(), String> {
    let mut signals =
        StopSignals::install().map_err(|e| format!("cannot wait for Ctrl-C or SIGTERM: {e}"))?;
    let listener = TcpListener::bind((host, port)).await.map_err(|e| {
        if e.kind() == io::ErrorKind::AddrInUse {
            format!(
                "cannot listen on {host}:{port}: the port is already in use. Choose another with --port \
                 (--port 0 picks a free one)."
            )
        } else {
            format!("cannot listen on {host}:{port}: {e}")
        }
    })?;
    let address = listener.local_addr().map_err(|e| format!("cannot listen on {host}:{port}: {e}"))?;
    let mut config = StreamableHttpServerConfig::default().with_max_request_body_bytes(MAX_MESSAGE);
    let unspecified = address.ip().is_unspecified();
    config = if unspecified {
        // Listening on every address means being called by any name this machine has.
        eprintln!("{program}: warning: listening on every address of this machine, without a check of Host");
        config.disable_allowed_hosts()
    } else {
        let mut hosts = config.allowed_hosts.clone();
        hosts.push(host.to_owned());
        config.with_allowed_hosts(hosts)
    };
    let stop = config.cancellation_token.clone();
    let service: StreamableHttpService<Server, LocalSessionManager> = StreamableHttpService::new(
        move || Ok(server.clone()),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    let app = axum::Router::new().nest_service("/mcp", service);
    announce(program, address);
    let stopping = stop.clone();
    let mut server = tokio::spawn(
        axum::serve(listener, app)
            .with_graceful_shutdown(async move { stopping.cancelled().await })
            .into_future(),
    );
    tokio::select! {
        signal = signals.recv() => {
            eprintln!("{program}: {signal} received, stopping");
            stop.cancel();
            if tokio::time::timeout(SHUTDOWN_WAIT, &mut server).await.is_err() {
                server.abort();
            }
            Ok(())
        }
        finished = &mut server => match finished {
            Ok(Err(error)) => Err(format!("the server stopped: {error}")),
            _ => Ok(()),
        },
    }
}

/// Prints the URL on stdout, the one line a script or test reads to find the port.
#[expect(clippy::print_stdout, reason = "the listening URL is this command's output")]
fn announce(program: &str, address: SocketAddr) {
    println!("{program} mcp listening on http://{address}/mcp");
    // stdout is a pipe under a test or script, so block-buffered: the line must leave now.
    let _ = io::stdout().flush();
}
