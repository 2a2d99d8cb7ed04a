//! What a request is: the client's address, whether the connection is HTTPS, and the host
//! name it asks for. A leaf that the router and the API both read.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::connect_info::Connected;
use axum::http::header::HOST;
use axum::http::{HeaderMap, Uri};
use axum::serve::IncomingStream;

use crate::Shared;
use crate::idle::IdleListener;
use crate::prepared::PreparedListener;

/// The client's address, for the sign-in rate limit.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Peer(pub(crate) SocketAddr);

impl Connected<IncomingStream<'_, IdleListener>> for Peer {
    fn connect_info(stream: IncomingStream<'_, IdleListener>) -> Self {
        Peer(*stream.remote_addr())
    }
}

impl Connected<IncomingStream<'_, PreparedListener>> for Peer {
    fn connect_info(stream: IncomingStream<'_, PreparedListener>) -> Self {
        Peer(*stream.remote_addr())
    }
}

/// What a handler is given: the host's state and whether the connection is HTTPS.
#[derive(Clone)]
pub(crate) struct App {
    pub(crate) shared: Arc<Shared>,
    pub(crate) secure: bool,
}

/// The request's host name: `Host` (or the URI's authority), lower-case, without port or
/// trailing dot.
pub(crate) fn request_host(headers: &HeaderMap, uri: &Uri) -> Option<String> {
    let raw =
        headers.get(HOST).and_then(|h| h.to_str().ok()).or_else(|| uri.authority().map(|a| a.as_str()))?;
    Some(host_name(raw))
}

/// `Example.com:8080.` -> `example.com`; `[::1]:80` -> `[::1]`.
pub(crate) fn host_name(raw: &str) -> String {
    let raw = raw.trim();
    let host = if raw.starts_with('[') {
        raw.split_inclusive(']').next().unwrap_or(raw)
    } else {
        raw.rsplit_once(':').map_or(raw, |(h, _)| h)
    };
    host.trim_end_matches('.').to_ascii_lowercase()
}
