//! Who answers a request, by its `Host`: the admin host (the API and the Domains page), a
//! project's default address, a custom domain that serves, a redirect domain, or no one.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use axum::Router;
use axum::extract::{Request, State};
use axum::http::header::{ACCEPT, CACHE_CONTROL, CONTENT_LENGTH, CONTENT_TYPE, LOCATION};
use axum::http::{HeaderValue, Method, StatusCode, Uri};
use axum::middleware::{Next, from_fn_with_state};
use axum::response::{IntoResponse, Response};
use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio::task::JoinHandle;

use crate::idle::IdleListener;
use crate::prepared::PreparedListener;
use crate::request::{App, Peer, request_host};
use crate::services::TlsAcceptor;
use crate::site::{self, text};
use crate::store::StoreError;
use crate::{Shared, api};

/// Where the HTTP-01 challenge answers live.
pub(crate) const CHALLENGE_PREFIX: &str = "/.well-known/acme-challenge/";

/// What answers at one host name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Target {
    /// A project's site; `custom`: at a custom domain (HTTPS only; plain HTTP redirects).
    Site { dir: PathBuf, custom: bool },
    /// 301 to the primary (https), path and query kept.
    Redirect { to: String },
}

/// The routing table, rebuilt after every change.
#[derive(Debug, Default)]
pub(crate) struct Routes {
    pub(crate) hosts: HashMap<String, Target>,
}

impl Routes {
    pub(crate) async fn build(shared: &Shared) -> Result<Routes, StoreError> {
        let mut hosts = HashMap::new();
        for p in &shared.config.projects {
            let Some(project) = shared.store.project(&p.name).await? else { continue };
            let rows = shared.store.domains_of(&p.name).await?;
            let dashboard = shared.dashboard(&project, &rows);
            let dir = project.site_dir.clone();
            let default = dashboard.default_address();
            let config = dashboard.config();
            if config.domains.primary == default {
                hosts.insert(default.clone(), Target::Site { dir: dir.clone(), custom: false });
            } else {
                // The default address serves until a custom domain is live, then points at it.
                hosts.insert(default.clone(), Target::Redirect { to: config.domains.primary.clone() });
                hosts.insert(config.domains.primary.clone(), Target::Site { dir: dir.clone(), custom: true });
            }
            for served in dashboard.also_served() {
                hosts.insert(served, Target::Site { dir: dir.clone(), custom: true });
            }
            for r in config.domains.redirects {
                hosts.insert(r.from, Target::Redirect { to: r.to });
            }
        }
        Ok(Routes { hosts })
    }
}

fn router(app: App) -> Router {
    Router::new()
        .nest(api::API_PREFIX, api::router(app.clone()))
        .fallback(admin_page)
        .layer(from_fn_with_state(app.clone(), gate))
        .with_state(app)
}

/// The admin host goes on to the API and the Domains page; every other host is a site.
async fn gate(State(app): State<App>, request: Request, next: Next) -> Response {
    let host = request_host(request.headers(), request.uri());
    let challenge = !app.secure && request.uri().path().starts_with(CHALLENGE_PREFIX);
    if host.as_deref() == Some(app.shared.config.admin_host.as_str()) && !challenge {
        if !app.secure && app.shared.admin_not_after.load(std::sync::atomic::Ordering::SeqCst) != 0 {
            let path_and_query = request.uri().path_and_query().map_or("/", |p| p.as_str());
            let port = https_port(&app.shared.config);
            return moved(&format!("https://{}{port}{path_and_query}", app.shared.config.admin_host));
        }
        return next.run(request).await;
    }
    let (parts, _) = request.into_parts();
    let accept = parts.headers.get(ACCEPT).and_then(|v| v.to_str().ok());
    site_for(&app, host.as_deref(), &parts.method, &parts.uri, accept).await
}

async fn site_for(
    app: &App,
    host: Option<&str>,
    method: &Method,
    uri: &Uri,
    accept: Option<&str>,
) -> Response {
    let path = uri.path();
    if !app.secure
        && let Some(token) = path.strip_prefix(CHALLENGE_PREFIX)
    {
        let valid = !token.is_empty()
            && token.len() <= 256
            && token.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        if !valid {
            return text(StatusCode::NOT_FOUND, "No such challenge.\n");
        }
        // This host's own issuance first, then the answers published in the state (by any host
        // on it).
        let answer = match app.shared.services.challenges.key_authorization(token) {
            Some(answer) => Some(answer),
            None => match app.shared.store.challenge(token, crate::now()).await {
                Ok(answer) => answer,
                Err(e) => {
                    eprintln!("playground host: cannot read the challenge answers: {e}");
                    return text(
                        StatusCode::SERVICE_UNAVAILABLE,
                        "The host cannot read its state just now.\n",
                    );
                }
            },
        };
        return match answer {
            Some(answer) => ([(CONTENT_TYPE, HeaderValue::from_static("application/octet-stream"))], answer)
                .into_response(),
            None => text(StatusCode::NOT_FOUND, "No such challenge.\n"),
        };
    }
    let routes = app.shared.routes();
    let Some(target) = host.and_then(|h| routes.hosts.get(h)) else {
        return text(StatusCode::NOT_FOUND, "No site is published at this address.\n");
    };
    let path_and_query = uri.path_and_query().map_or("/", |p| p.as_str());
    let port = https_port(&app.shared.config);
    match target {
        Target::Site { dir, custom } if app.secure || !custom => {
            site::serve_page(dir, method, path, accept).await
        }
        Target::Site { .. } => moved(&format!("https://{}{port}{path_and_query}", host.unwrap_or_default())),
        Target::Redirect { to } => moved(&format!("https://{to}{port}{path_and_query}")),
    }
}

/// `:PORT` for an address on the public HTTPS port, nothing for 443.
pub(crate) fn https_port(config: &crate::config::HostConfig) -> String {
    match config.public_https_port.unwrap_or(443) {
        443 => String::new(),
        port => format!(":{port}"),
    }
}

fn moved(location: &str) -> Response {
    let Ok(value) = HeaderValue::from_str(location) else {
        return text(StatusCode::BAD_REQUEST, "Bad request.\n");
    };
    (
        StatusCode::MOVED_PERMANENTLY,
        [(LOCATION, value), (CACHE_CONTROL, HeaderValue::from_static("no-store"))],
    )
        .into_response()
}

/// The admin host outside the API: the Domains page's files, if configured. Its HTML pages
/// get [`HOST_META`] naming the API, which is how the page knows it is on a host.
async fn admin_page(State(app): State<App>, method: Method, uri: Uri) -> Response {
    let Some(dir) = &app.shared.config.dashboard_dir else {
        return text(
            StatusCode::NOT_FOUND,
            "The Domains page is not installed on this host; its API is under /_host/api/.\n",
        );
    };
    let response = site::serve(dir, &method, uri.path()).await;
    let html = response
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/html"));
    if !html || method != Method::GET || response.status() != StatusCode::OK {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, usize::MAX).await else {
        return text(StatusCode::INTERNAL_SERVER_ERROR, "The page could not be read.\n");
    };
    let page = with_host_meta(&bytes);
    parts.headers.remove(CONTENT_LENGTH);
    parts.headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    Response::from_parts(parts, axum::body::Body::from(page))
}

/// The `<meta>` element the host adds to the Domains page's HTML: its `content` is the API's
/// path ([`api::API_PREFIX`]). A static copy of the page lacks it and runs as the demo.
pub(crate) const HOST_META: &str = "playground-host-api";

/// `html` with `<meta name="playground-host-api" content="/_host/api">` right after the `<head>`
/// tag, or after `<html>` or the doctype when a (minified) page has no `<head>` tag, or first.
fn with_host_meta(html: &[u8]) -> Vec<u8> {
    let meta = format!("<meta name=\"{HOST_META}\" content=\"{}\">", api::API_PREFIX);
    let lower = html.to_ascii_lowercase();
    let after = |tag: &[u8]| {
        lower
            .windows(tag.len())
            .position(|w| w == tag)
            .filter(|&i| matches!(lower.get(i + tag.len()), Some(b'>' | b' ' | b'\t' | b'\n' | b'\r')))
            .and_then(|i| lower[i..].iter().position(|&b| b == b'>').map(|j| i + j + 1))
    };
    let at = after(b"<head").or_else(|| after(b"<html")).or_else(|| after(b"<!doctype")).unwrap_or(0);
    let mut out = Vec::with_capacity(html.len() + meta.len());
    out.extend_from_slice(&html[..at]);
    out.extend_from_slice(meta.as_bytes());
    out.extend_from_slice(&html[at..]);
    out
}

async fn stopped(mut stop: watch::Receiver<bool>) {
    let _ = stop.wait_for(|s| *s).await;
}

pub(crate) fn serve_plain(
    shared: Arc<Shared>,
    listener: TcpListener,
    stop: watch::Receiver<bool>,
) -> JoinHandle<()> {
    let limit = shared.config.idle_timeout;
    if shared.config.proxy_protocol {
        return serve_prepared(shared, listener, None, stop);
    }
    let app = router(App { shared, secure: false });
    let listener = IdleListener { inner: listener, limit };
    tokio::spawn(async move {
        let server = axum::serve(listener, app.into_make_service_with_connect_info::<Peer>())
            .with_graceful_shutdown(stopped(stop));
        if let Err(e) = server.await {
            eprintln!("playground host: the HTTP server stopped: {e}");
        }
    })
}

pub(crate) fn serve_tls(
    shared: Arc<Shared>,
    listener: TcpListener,
    tls: Arc<dyn TlsAcceptor>,
    stop: watch::Receiver<bool>,
) -> JoinHandle<()> {
    serve_prepared(shared, listener, Some(tls), stop)
}

/// Serves connections prepared in tasks of their own: the PROXY header read (with
/// `proxy_protocol`), then the TLS handshake when `tls` is given.
fn serve_prepared(
    shared: Arc<Shared>,
    listener: TcpListener,
    tls: Option<Arc<dyn TlsAcceptor>>,
    stop: watch::Receiver<bool>,
) -> JoinHandle<()> {
    let (limit, proxy, secure) = (shared.config.idle_timeout, shared.config.proxy_protocol, tls.is_some());
    let name = if secure { "HTTPS" } else { "HTTP" };
    let app = router(App { shared, secure });
    tokio::spawn(async move {
        let listener = match PreparedListener::new(listener, tls, proxy, limit) {
            Ok(l) => l,
            Err(e) => {
                eprintln!("playground host: the {name} listener failed: {e}");
                return;
            }
        };
        let server = axum::serve(listener, app.into_make_service_with_connect_info::<Peer>())
            .with_graceful_shutdown(stopped(stop));
        if let Err(e) = server.await {
            eprintln!("playground host: the {name} server stopped: {e}");
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::request::host_name;

    #[test]
    fn the_page_learns_where_the_api_is() {
        let meta = r#"<meta name="playground-host-api" content="/_host/api">"#;
        let page = |html: &str| String::from_utf8(with_host_meta(html.as_bytes())).unwrap();
        assert_eq!(page("<html><head><title>x</title>"), format!("<html><head>{meta}<title>x</title>"));
        assert_eq!(page("<HEAD lang=en>x"), format!("<HEAD lang=en>{meta}x"));
        assert_eq!(
            page("<!DOCTYPE html><html lang=en><title>x"),
            format!("<!DOCTYPE html><html lang=en>{meta}<title>x")
        );
        assert_eq!(page("<!doctype html><title>x"), format!("<!doctype html>{meta}<title>x"));
        assert_eq!(page("<header>no head</header>"), format!("{meta}<header>no head</header>"));
        assert_eq!(page(""), meta);
    }

    #[test]
    fn host_names() {
        assert_eq!(host_name("Docs.Example.com:8080"), "docs.example.com");
        assert_eq!(host_name("docs.example.com."), "docs.example.com");
        assert_eq!(host_name("[::1]:80"), "[::1]");
        assert_eq!(host_name("127.0.0.1"), "127.0.0.1");
    }
}
