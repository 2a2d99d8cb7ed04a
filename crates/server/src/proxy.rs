//! `mock --proxy URL`: every request goes on to the real API, and its answer comes back as the
//! real API gave it, with `X-Playground-Drift` naming how the request and the answer depart
//! from the description (the mock's checks, [`ApiMock::check_exchange`]). Each exchange can be
//! logged as one JSON line ([`ExchangeLine`], read back by `playground drift`), and its items
//! kept in the mock's state (`--record`, [`ApiMock::record`]) to be served offline.
//!
//! Credentials pass through to the real API untouched; the log never holds them (the query is
//! left out of the path logged, and any credential value the request carries is blanked from
//! what is written).
//!
//! `playground mcp --target URL` sends its calls through the same client ([`Proxy::exchange`])
//! and blanks credentials from its answers with [`redact`].

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::header::{
    ACCEPT_ENCODING, CONNECTION, CONTENT_LENGTH, CONTENT_TYPE, HOST, PROXY_AUTHENTICATE, TE, TRAILER,
    TRANSFER_ENCODING, UPGRADE,
};
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode, Uri};
use axum::response::Response as HttpResponse;
use http_body_util::{BodyExt, Full, Limited};
use hyper_rustls::HttpsConnector;
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use playground_http::{Request, Response};
use playground_mock::{ApiMock, Checked, ExchangeLine, Mismatch};

use crate::app::{BodyRefusal, lock, read_body, to_core};
use crate::{OnChange, Served, SharedMock};

/// The header of a proxied answer that names its mismatches (`none` when there are none).
pub const DRIFT_HEADER: &str = "x-playground-drift";

/// The header of a proxied answer that names the operation the request matched.
pub const OPERATION_HEADER: &str = "x-playground-operation";

/// The largest answer the proxy takes from the real API (16 MiB): it is read whole to be
/// checked, so a bigger one is refused with 502 rather than held.
pub const MAX_ANSWER_BODY: usize = 16 * 1024 * 1024;

/// How long the real API may take to answer, body included.
pub const UPSTREAM_TIMEOUT: Duration = Duration::from_secs(30);

/// The longest `X-Playground-Drift` value, in bytes; the rest is in the log.
const MAX_DRIFT_HEADER: usize = 4096;

/// Credential values shorter than this are not blanked from the log: they would blank common
/// words, and no real key is that short.
const MIN_SECRET: usize = 3;

/// Why the proxy could not be set up.
#[derive(Debug, thiserror::Error)]
pub enum ProxyError {
    /// The `--proxy` URL is not an `http` or `https` URL of a host.
    #[error("--proxy {url}: {why}")]
    Url {
        /// The URL given.
        url: String,
        /// What is wrong with it.
        why: String,
    },
    /// TLS could not be set up (the system's trusted roots could not be read).
    #[error("--proxy: cannot set up TLS: {0}")]
    Tls(String),
    /// The log file could not be opened.
    #[error("cannot open the log file {}: {source}", path.display())]
    Log {
        /// The log file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
}

/// Where requests go and what is done with the answers.
#[derive(Debug)]
pub struct Proxy {
    /// `scheme://host[:port][/base]`, without a trailing slash.
    upstream: String,
    client: Client<HttpsConnector<HttpConnector>, Full<Bytes>>,
    log: Option<Mutex<File>>,
    record: bool,
}

impl Proxy {
    /// A proxy to the real API at `url` (`http` or `https`, with a base path or not), appending
    /// to the log at `log` if given, recording answers into the mock's state when `record`.
    ///
    /// # Errors
    /// When the URL is not one of a host, TLS cannot be set up, or the log cannot be opened.
    pub fn new(url: &str, log: Option<&Path>, record: bool) -> Result<Self, ProxyError> {
        let upstream = upstream(url)?;
        let log = log
            .map(|path| {
                OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .map_err(|source| ProxyError::Log { path: path.to_owned(), source })
            })
            .transpose()?
            .map(Mutex::new);
        Ok(Self { upstream, client: client()?, log, record })
    }

    /// The real API's URL, as requests are sent to it (the request's path follows).
    #[must_use]
    pub fn upstream(&self) -> &str {
        &self.upstream
    }

    /// Sends `request` (its target the path and query, put after the real API's URL) to the real
    /// API and reads its answer, as a forwarded request is sent: within [`UPSTREAM_TIMEOUT`] and
    /// [`MAX_ANSWER_BODY`], without the connection's own headers. `playground mcp --target` calls
    /// this; the log and recording are the router's, not done here.
    ///
    /// # Errors
    /// Why no answer came, in words that follow "the real API did not answer: ".
    pub async fn exchange(&self, request: &Request) -> Result<Response, String> {
        let method = Method::from_bytes(request.method.to_ascii_uppercase().as_bytes())
            .map_err(|_| format!("{:?} is not an HTTP method", request.method))?;
        let target = if request.target.starts_with('/') {
            request.target.clone()
        } else {
            format!("/{}", request.target)
        };
        let uri: Uri = target.parse().map_err(|_| format!("{target} is not a path and query"))?;
        let mut headers = HeaderMap::new();
        for (name, value) in &request.headers {
            let name = HeaderName::from_bytes(name.as_bytes())
                .map_err(|_| format!("{name:?} is not a header name"))?;
            let value = HeaderValue::from_str(value)
                .map_err(|_| format!("the header {name} has a value that cannot be sent"))?;
            headers.append(name, value);
        }
        let answer = send(self, &method, &uri, &headers, &request.body).await?;
        Ok(core_answer(&answer))
    }
}

/// The URL checked and without its trailing slash.
fn upstream(url: &str) -> Result<String, ProxyError> {
    let bad = |why: &str| ProxyError::Url { url: url.to_owned(), why: why.to_owned() };
    let uri: Uri = url.parse().map_err(|_| bad("not a URL (give e.g. https://api.example.com)"))?;
    match uri.scheme_str() {
        Some("http" | "https") => {}
        Some(_) => return Err(bad("only http and https URLs can be proxied to")),
        None => return Err(bad("give the scheme too (https://...)")),
    }
    if uri.host().is_none_or(str::is_empty) {
        return Err(bad("the URL names no host"));
    }
    if uri.query().is_some() || url.contains('#') {
        return Err(bad("the URL must not have a query or a fragment"));
    }
    Ok(url.trim_end_matches('/').to_owned())
}

/// The HTTP(S) client: the system's trusted roots, ring as the one crypto provider, HTTP/1.1.
fn client() -> Result<Client<HttpsConnector<HttpConnector>, Full<Bytes>>, ProxyError> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let verifier = rustls_platform_verifier::Verifier::new(Arc::clone(&provider))
        .map_err(|e| ProxyError::Tls(format!("cannot load the trusted roots: {e}")))?;
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| ProxyError::Tls(e.to_string()))?
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(verifier))
        .with_no_client_auth();
    let connector = hyper_rustls::HttpsConnectorBuilder::new()
        .with_tls_config(config)
        .https_or_http()
        .enable_http1()
        .build();
    Ok(Client::builder(TokioExecutor::new()).build(connector))
}

#[derive(Clone)]
struct ProxyState {
    mock: SharedMock,
    /// The mock's description, for the checks: they read it only, so they run side by side
    /// without the mock's lock (taken only to record). `None` for the Petstore's own mock.
    checker: Option<Arc<ApiMock>>,
    on_change: Option<OnChange>,
    proxy: Arc<Proxy>,
}

/// The app: every method and path is forwarded to the real API and checked.
pub fn router(mock: SharedMock, on_change: Option<OnChange>, proxy: Proxy) -> Router {
    let checker = match &*lock(&mock) {
        Served::Api(api) => {
            // The description without the state, which no check reads.
            let mut checker = (**api).clone();
            checker.reset();
            Some(Arc::new(checker))
        }
        Served::Petstore(_) => None,
    };
    Router::new().fallback(forward).with_state(ProxyState {
        mock,
        checker,
        on_change,
        proxy: Arc::new(proxy),
    })
}

async fn forward(State(state): State<ProxyState>, request: axum::extract::Request) -> HttpResponse {
    let started = Instant::now();
    let (parts, body) = request.into_parts();
    let limit = lock(&state.mock).body_limit();
    let bytes = match read_body(&parts, body, limit).await {
        Ok(bytes) if bytes.len() <= limit => bytes,
        Ok(bytes) => {
            return refusal(
                413,
                format!("The body is {} bytes; the proxy forwards at most {limit} bytes.", bytes.len()),
            );
        }
        Err(BodyRefusal::TooLarge { size, .. }) => {
            return refusal(
                413,
                format!("The body is {size} bytes or more; the proxy forwards at most {limit} bytes."),
            );
        }
        Err(BodyRefusal::Unreadable) => {
            return refusal(400, "The body could not be read to its end.".to_owned());
        }
    };
    let core_request = to_core(&parts, bytes);
    let checker = state.checker.as_deref();
    let secrets = checker.map(|mock| mock.credentials_in(&core_request)).unwrap_or_default();
    let path = parts.uri.path().to_owned();
    let answer = send(&state.proxy, &parts.method, &parts.uri, &parts.headers, &core_request.body).await;
    let ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
    let (response, line) = match answer {
        Ok(answer) => {
            let core_response = core_answer(&answer);
            let checked =
                checker.map(|mock| mock.check_exchange(&core_request, &core_response)).unwrap_or_default();
            if state.proxy.record {
                let kept = {
                    let mut mock = lock(&state.mock);
                    record(&mut mock, &core_request, &core_response);
                    state.on_change.as_ref().map(|durable| durable.after(&mut mock))
                };
                if let (Some(durable), Some(change)) = (&state.on_change, kept) {
                    durable.wait(change).await;
                }
            }
            let status = answer.status.as_u16();
            let mut response = to_client(answer);
            mark(response.headers_mut(), &checked, &secrets);
            (response, line_of(&parts.method, &path, status, ms, checked, None))
        }
        Err(why) => {
            let message = format!("The real API at {} did not answer: {why}.", state.proxy.upstream);
            // No answer to check: the request alone.
            let checked = checker.map(|mock| mock.check_request(&core_request)).unwrap_or_default();
            let mut response = refusal(502, message.clone());
            mark(response.headers_mut(), &checked, &secrets);
            (response, line_of(&parts.method, &path, 502, ms, checked, Some(message)))
        }
    };
    if let Some(log) = &state.proxy.log {
        write_line(log, &redacted(line, &secrets));
    }
    response
}

/// What the real API answered, its body read whole.
struct Answer {
    status: StatusCode,
    headers: HeaderMap,
    body: Bytes,
}

/// Sends the request on to the real API and reads its answer, within [`UPSTREAM_TIMEOUT`] and
/// [`MAX_ANSWER_BODY`].
async fn send(
    proxy: &Proxy,
    method: &Method,
    uri: &Uri,
    headers: &HeaderMap,
    body: &[u8],
) -> Result<Answer, String> {
    let target = uri.path_and_query().map_or("/", |target| target.as_str());
    let url = format!("{}{target}", proxy.upstream);
    let mut request = axum::http::Request::builder().method(method.clone()).uri(&url);
    for (name, value) in headers {
        // The client's own framing and host are the proxy's; an encoding the answer might
        // come in is left to the real API's default (identity), so that the body can be read.
        if is_hop_by_hop(name) || [HOST, CONTENT_LENGTH, ACCEPT_ENCODING].contains(name) {
            continue;
        }
        request = request.header(name, value);
    }
    let request = request
        .body(Full::new(Bytes::copy_from_slice(body)))
        .map_err(|e| format!("the request to {url} cannot be made: {e}"))?;
    let exchange = async {
        let response = proxy.client.request(request).await.map_err(|e| describe_client_error(&e))?;
        let (parts, body) = response.into_parts();
        let body = Limited::new(body, MAX_ANSWER_BODY).collect().await.map_err(|e| {
            if e.downcast_ref::<http_body_util::LengthLimitError>().is_some() {
                format!("its answer is larger than {MAX_ANSWER_BODY} bytes, the most the proxy reads")
            } else {
                format!("its answer broke off: {e}")
            }
        })?;
        Ok::<Answer, String>(Answer { status: parts.status, headers: parts.headers, body: body.to_bytes() })
    };
    tokio::time::timeout(UPSTREAM_TIMEOUT, exchange)
        .await
        .map_err(|_| format!("no whole answer within {} seconds", UPSTREAM_TIMEOUT.as_secs()))?
}

/// The client's error with its causes (hyper's own text is only "client error (Connect)").
fn describe_client_error(error: &hyper_util::client::legacy::Error) -> String {
    let mut text = error.to_string();
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

/// Hop-by-hop headers (RFC 9110, 7.6.1): they concern one connection, not the exchange.
fn is_hop_by_hop(name: &HeaderName) -> bool {
    [CONNECTION, TE, TRAILER, TRANSFER_ENCODING, UPGRADE, PROXY_AUTHENTICATE].contains(name)
        || ["keep-alive", "proxy-connection"].contains(&name.as_str())
}

/// The answer as the mock's checks read it.
fn core_answer(answer: &Answer) -> Response {
    let headers = answer
        .headers
        .iter()
        .map(|(name, value)| {
            (name.as_str().to_owned(), String::from_utf8_lossy(value.as_bytes()).into_owned())
        })
        .collect();
    Response { status: answer.status.as_u16(), headers, body: answer.body.to_vec() }
}

/// The real API's answer, to the client: its status, headers (but the connection's own) and
/// body.
fn to_client(answer: Answer) -> HttpResponse {
    let mut response = HttpResponse::new(Body::from(answer.body));
    *response.status_mut() = answer.status;
    let headers = response.headers_mut();
    for (name, value) in &answer.headers {
        if is_hop_by_hop(name) || *name == CONTENT_LENGTH {
            continue;
        }
        headers.append(name, value.clone());
    }
    response
}

/// Adds the drift and operation headers.
fn mark(headers: &mut HeaderMap, checked: &Checked, secrets: &[String]) {
    if let Some(operation) = checked.operation.as_deref().and_then(|op| HeaderValue::from_str(op).ok()) {
        headers.insert(HeaderName::from_static(OPERATION_HEADER), operation);
    }
    let text = redact(&drift_text(&checked.mismatches), secrets);
    let value = HeaderValue::from_str(&text).unwrap_or_else(|_| HeaderValue::from_static("unreadable"));
    headers.insert(HeaderName::from_static(DRIFT_HEADER), value);
}

/// `none`, or `2 mismatches: body `/id`: expected integer, got string; status: ...`, in
/// visible ASCII and at most [`MAX_DRIFT_HEADER`] bytes.
fn drift_text(mismatches: &[Mismatch]) -> String {
    if mismatches.is_empty() {
        return "none".to_owned();
    }
    let plural = if mismatches.len() == 1 { "" } else { "es" };
    let listed: Vec<String> = mismatches.iter().map(|m| format!("{} {m}", m.kind)).collect();
    let text = format!("{} mismatch{plural}: {}", mismatches.len(), listed.join("; "));
    let mut visible: String =
        text.chars().map(|c| if c == ' ' || c.is_ascii_graphic() { c } else { '?' }).collect();
    if visible.len() > MAX_DRIFT_HEADER {
        visible.truncate(MAX_DRIFT_HEADER - 3);
        visible.push_str("...");
    }
    visible
}

fn line_of(
    method: &Method,
    path: &str,
    status: u16,
    ms: u64,
    checked: Checked,
    error: Option<String>,
) -> ExchangeLine {
    ExchangeLine {
        time: now(),
        method: method.as_str().to_owned(),
        path: path.to_owned(),
        operation: checked.operation,
        status,
        ms,
        mismatches: checked.mismatches,
        error,
    }
}

/// The time as RFC 3339 UTC text, to the second.
fn now() -> String {
    let format = time::macros::format_description!("[year]-[month]-[day]T[hour]:[minute]:[second]Z");
    time::OffsetDateTime::now_utc().format(&format).unwrap_or_default()
}

/// The line with every credential value blanked.
fn redacted(mut line: ExchangeLine, secrets: &[String]) -> ExchangeLine {
    line.path = redact(&line.path, secrets);
    for mismatch in &mut line.mismatches {
        mismatch.pointer = redact(&mismatch.pointer, secrets);
        mismatch.rule = redact(&mismatch.rule, secrets);
    }
    line.error = line.error.map(|error| redact(&error, secrets));
    line
}

/// `text` with each of `secrets` (at least 3 bytes long) replaced by `[credential]`, the longest
/// first.
#[must_use]
pub fn redact(text: &str, secrets: &[String]) -> String {
    let mut text = text.to_owned();
    // The longest first, so that a token inside a longer value goes with it.
    let mut secrets: Vec<&String> = secrets.iter().filter(|s| s.len() >= MIN_SECRET).collect();
    secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
    for secret in secrets {
        if text.contains(secret.as_str()) {
            text = text.replace(secret.as_str(), "[credential]");
        }
    }
    text
}

/// Appends one line; a log that cannot be written is said once per failure on stderr, and
/// the exchange still goes on (the client has its answer).
fn write_line(log: &Mutex<File>, line: &ExchangeLine) {
    let Ok(mut text) = serde_json::to_string(line) else { return };
    text.push('\n');
    let mut file = log.lock().unwrap_or_else(PoisonError::into_inner);
    if let Err(error) = file.write_all(text.as_bytes()) {
        eprintln!("the proxy's log could not be written: {error}");
    }
}

/// Keeps the answer's items in the mock's state (saved by the caller before the answer
/// leaves).
fn record(mock: &mut Served, request: &Request, response: &Response) {
    let Served::Api(api) = mock else { return };
    if let Err(error) = ApiMock::record(api, request, response) {
        eprintln!("an answer was not recorded: {error}");
    }
}

/// An answer of the proxy itself, as the Error object.
fn refusal(status: u16, message: String) -> HttpResponse {
    let code = match status {
        413 => "payload_too_large",
        502 => "bad_gateway",
        _ => "malformed_json",
    };
    let body = serde_json::json!({"code": code, "message": message, "status": status});
    let mut response = HttpResponse::new(Body::from(body.to_string()));
    *response.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_GATEWAY);
    response.headers_mut().insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

#[cfg(test)]
mod tests {
    use super::*;
    use playground_mock::MismatchKind;

    #[test]
    fn urls_of_a_host_over_http_or_https_are_taken() {
        assert_eq!(upstream("https://api.example.com/v1/").unwrap(), "https://api.example.com/v1");
        assert_eq!(upstream("http://127.0.0.1:8080").unwrap(), "http://127.0.0.1:8080");
        for (url, why) in [
            ("api.example.com", "scheme"),
            ("ftp://example.com", "only http and https"),
            ("https://example.com/?key=1", "query"),
            ("not a url", "not a URL"),
        ] {
            let error = upstream(url).unwrap_err().to_string();
            assert!(error.contains(why), "{url}: {error}");
            assert!(error.starts_with(&format!("--proxy {url}")), "{error}");
        }
    }

    #[test]
    fn the_drift_header_names_each_mismatch_in_visible_ascii() {
        assert_eq!(drift_text(&[]), "none");
        let mismatches = vec![
            Mismatch {
                kind: MismatchKind::Body,
                pointer: "/id".into(),
                rule: "expected integer, got string".into(),
            },
            Mismatch {
                kind: MismatchKind::Status,
                pointer: String::new(),
                rule: "status 418 is not documented".into(),
            },
        ];
        assert_eq!(
            drift_text(&mismatches),
            "2 mismatches: body `/id`: expected integer, got string; status status 418 is not documented"
        );
        let long =
            vec![Mismatch { kind: MismatchKind::Body, pointer: String::new(), rule: "é".repeat(5000) }];
        let text = drift_text(&long);
        assert!(text.len() <= MAX_DRIFT_HEADER && text.is_ascii(), "{}", text.len());
    }

    #[test]
    fn credentials_are_blanked_the_longest_first() {
        let secrets = vec!["Bearer abc123".to_owned(), "abc123".to_owned(), "ab".to_owned()];
        assert_eq!(
            redact("sent Bearer abc123 and abc123 ab", &secrets),
            "sent [credential] and [credential] ab"
        );
    }

    #[test]
    fn hop_by_hop_headers_are_known() {
        assert!(is_hop_by_hop(&CONNECTION));
        assert!(is_hop_by_hop(&HeaderName::from_static("keep-alive")));
        assert!(!is_hop_by_hop(&HeaderName::from_static("authorization")));
    }
}
