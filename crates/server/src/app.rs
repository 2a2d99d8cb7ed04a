//! The HTTP shell around the core mock: one fallback handler turns an axum request into a core
//! [`Request`], lets the shared [`Mock`] answer it and turns the core [`Response`] back.
//!
//! Routing, validation and every API error live in the core, so the browser mock and this
//! server answer the same request the same way. The shell only adds what needs a socket: a
//! cap on how much body it buffers, and CORS.

use std::sync::{Arc, Mutex, PoisonError};

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::header::{CONNECTION, CONTENT_LENGTH, CONTENT_TYPE, ORIGIN, TRANSFER_ENCODING};
use axum::http::request::Parts;
use axum::http::{HeaderName, HeaderValue, StatusCode};
use axum::response::Response as HttpResponse;
use http_body_util::BodyExt;
use petstore::error::{ApiError, ErrorCode};
use playground_http::{Request, Response};
use playground_mock::OversizedBody;

use crate::Served;
use crate::durable::Durable;

use crate::cors;

/// The Petstore's body limit (64 KiB); the core answers 413 `payload_too_large` above it.
pub const BODY_LIMIT: usize = 65_536;

/// How much body the server buffers past the mock's limit: 4 KiB, so that bodies just over it
/// reach the mock whole. A bigger body is never held in memory: the mock gets the request
/// without it and its size (`handle_oversized`), and refuses it as it refuses any body over its
/// limit.
pub const READ_CAP: usize = BODY_LIMIT + 4096;

/// Past [`READ_CAP`] the rest of a body is read and dropped, up to this much. Closing a socket
/// with unread data makes the kernel send a reset, and the client would then see a broken
/// connection instead of the 413.
const DRAIN_LIMIT: usize = 8 * 1024 * 1024;

/// The one mock every connection shares. Its `handle` is synchronous and quick, so a plain
/// mutex held only for the call is enough.
pub type SharedMock = Arc<Mutex<Served>>;

/// Where `serve --state` keeps the changes: handed over under the mock's lock after every
/// request, and committed before the answer is sent, so no change is answered unsaved.
pub type OnChange = Arc<Durable>;

#[derive(Clone)]
struct AppState {
    mock: SharedMock,
    on_change: Option<OnChange>,
}

/// The app: every method and path goes to the mock, wrapped in CORS.
pub fn router(mock: SharedMock) -> Router {
    router_with(mock, None)
}

/// [`router`], keeping every change in `on_change`'s database before its answer leaves.
pub fn router_with(mock: SharedMock, on_change: Option<OnChange>) -> Router {
    Router::new().fallback(dispatch).with_state(AppState { mock, on_change })
}

/// Locks the mock. A poisoned lock still holds a consistent mock (`handle` never panics, and
/// the state changes only at the end of a handler), so it is used rather than given up.
pub fn lock(mock: &SharedMock) -> std::sync::MutexGuard<'_, Served> {
    mock.lock().unwrap_or_else(PoisonError::into_inner)
}

async fn dispatch(State(state): State<AppState>, request: axum::extract::Request) -> HttpResponse {
    let (parts, body) = request.into_parts();
    if let Some(preflight) = cors::preflight(&parts.method, &parts.headers) {
        return preflight;
    }
    let origin = parts.headers.get(ORIGIN).cloned();
    let limit = lock(&state.mock).body_limit();
    let (request, oversized) = match read_body(&parts, body, limit).await {
        Ok(bytes) => (to_core(&parts, bytes), None),
        // The mock refuses it, with the status and shape the operation documents.
        Err(BodyRefusal::TooLarge { size, exact }) => {
            (to_core(&parts, Vec::new()), Some(OversizedBody { size, exact }))
        }
        Err(BodyRefusal::Unreadable) => {
            let unreadable =
                ApiError::new(ErrorCode::MalformedJson, "The body could not be read to its end.");
            let mut response = error_response(&unreadable);
            cors::decorate(response.headers_mut(), origin.as_ref());
            return response;
        }
    };
    // The lock is let go before any wait below.
    let (handled, kept) = {
        let mut mock = lock(&state.mock);
        let handled = match oversized {
            Some(body) => mock.handle_oversized(&request, body),
            None => mock.handle(&request),
        };
        (handled, state.on_change.as_ref().map(|durable| durable.after(&mut mock)))
    };
    if let (Some(durable), Some(change)) = (&state.on_change, kept) {
        durable.wait(change).await;
    }
    if handled.delay_ms > 0 {
        tokio::time::sleep(std::time::Duration::from_millis(u64::from(handled.delay_ms))).await;
    }
    if handled.network_error {
        return dropped_connection();
    }
    let mut response = from_core(handled.response);
    cors::decorate(response.headers_mut(), origin.as_ref());
    response
}

/// Why the body was not handed to the mock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BodyRefusal {
    /// Over [`READ_CAP`]: `size` bytes, or more when `exact` is false (not read to the end).
    TooLarge { size: usize, exact: bool },
    /// The connection broke or the chunked encoding was invalid.
    Unreadable,
}

/// Reads a body of at most `limit` bytes (a little more is read, so that the mock itself
/// answers bodies just over its limit).
pub(crate) async fn read_body(parts: &Parts, mut body: Body, limit: usize) -> Result<Vec<u8>, BodyRefusal> {
    let read_cap = limit + (READ_CAP - BODY_LIMIT);
    let declared = parts
        .headers
        .get(CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.parse::<usize>().ok());
    if let Some(size) = declared.filter(|size| *size > DRAIN_LIMIT) {
        // Not worth reading: the client gets the 413 and a closed connection.
        return Err(BodyRefusal::TooLarge { size, exact: true });
    }
    let mut bytes = Vec::with_capacity(declared.unwrap_or(0).min(read_cap));
    let mut total = 0_usize;
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|_| BodyRefusal::Unreadable)?;
        let Ok(data) = frame.into_data() else { continue };
        total = total.saturating_add(data.len());
        if total <= read_cap {
            bytes.extend_from_slice(&data);
        } else if total > DRAIN_LIMIT {
            return Err(BodyRefusal::TooLarge { size: DRAIN_LIMIT, exact: false });
        }
    }
    if total > read_cap { Err(BodyRefusal::TooLarge { size: total, exact: true }) } else { Ok(bytes) }
}

pub(crate) fn to_core(parts: &Parts, body: Vec<u8>) -> Request {
    let target = parts.uri.path_and_query().map_or("/", |target| target.as_str());
    let headers = parts
        .headers
        .iter()
        .map(|(name, value)| {
            let value = match value.to_str() {
                Ok(text) => text.to_owned(),
                Err(_) => String::from_utf8_lossy(value.as_bytes()).into_owned(),
            };
            (name.as_str().to_owned(), value)
        })
        .collect();
    Request { method: parts.method.as_str().to_owned(), target: target.to_owned(), headers, body }
}

fn from_core(answer: Response) -> HttpResponse {
    let mut response = HttpResponse::new(Body::from(answer.body));
    *response.status_mut() = StatusCode::from_u16(answer.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let headers = response.headers_mut();
    for (name, value) in answer.headers {
        let (Ok(name), Ok(value)) = (HeaderName::from_bytes(name.as_bytes()), HeaderValue::from_str(&value))
        else {
            continue;
        };
        // hyper frames the body itself; a second opinion from the core could only disagree.
        if name == CONTENT_LENGTH || name == TRANSFER_ENCODING || name == CONNECTION {
            continue;
        }
        headers.append(name, value);
    }
    response
}

/// An answer whose body fails after the headers: the connection is cut, as a network failure
/// would cut it.
fn dropped_connection() -> HttpResponse {
    HttpResponse::new(Body::new(Cut))
}

/// A body that fails when first read.
struct Cut;

impl http_body::Body for Cut {
    type Data = Bytes;
    type Error = std::io::Error;

    fn poll_frame(
        self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<http_body::Frame<Self::Data>, Self::Error>>> {
        std::task::Poll::Ready(Some(Err(std::io::Error::new(
            std::io::ErrorKind::ConnectionAborted,
            "a network failure injected by the mock's options",
        ))))
    }
}

fn error_response(error: &ApiError) -> HttpResponse {
    let body = serde_json::to_vec(&error.body()).map(Bytes::from).unwrap_or_default();
    let mut response = HttpResponse::new(Body::from(body));
    *response.status_mut() = StatusCode::from_u16(error.status()).unwrap_or(StatusCode::BAD_REQUEST);
    response.headers_mut().insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::Method;

    fn parts(method: Method, target: &str, headers: &[(&str, &str)]) -> Parts {
        let mut builder = axum::http::Request::builder().method(method).uri(target);
        for (name, value) in headers {
            builder = builder.header(*name, *value);
        }
        builder.body(()).unwrap().into_parts().0
    }

    #[test]
    fn core_request_keeps_method_target_headers_and_body() {
        let parts = parts(
            Method::POST,
            "/pets?status=available&status=sold",
            &[("Content-Type", "application/json"), ("X-Trace", "1")],
        );
        let request = to_core(&parts, b"{}".to_vec());
        assert_eq!(request.method, "POST");
        assert_eq!(request.target, "/pets?status=available&status=sold");
        assert_eq!(request.header_value("content-type"), Some("application/json"));
        assert_eq!(request.header_value("x-trace"), Some("1"));
        assert_eq!(request.body, b"{}");
    }

    #[test]
    fn core_response_keeps_status_headers_and_body_but_not_framing() {
        let answer = Response {
            status: 201,
            headers: vec![
                ("Content-Type".into(), "application/json".into()),
                ("Location".into(), "/pets/3".into()),
                ("Content-Length".into(), "999".into()),
            ],
            body: b"{\"id\":3}".to_vec(),
        };
        let response = from_core(answer);
        assert_eq!(response.status(), StatusCode::CREATED);
        assert_eq!(response.headers()["location"], "/pets/3");
        assert_eq!(response.headers()["content-type"], "application/json");
        assert!(response.headers().get(CONTENT_LENGTH).is_none());
    }

    #[tokio::test]
    async fn body_up_to_the_cap_is_read_whole() {
        let parts = parts(Method::POST, "/pets", &[]);
        let body = vec![b'x'; READ_CAP];
        assert_eq!(read_body(&parts, Body::from(body.clone()), BODY_LIMIT).await, Ok(body));
    }

    #[tokio::test]
    async fn body_over_the_cap_is_refused_with_its_size() {
        let parts = parts(Method::POST, "/pets", &[]);
        let refusal = read_body(&parts, Body::from(vec![b'x'; READ_CAP + 1]), BODY_LIMIT).await;
        assert_eq!(refusal, Err(BodyRefusal::TooLarge { size: READ_CAP + 1, exact: true }));
    }

    #[tokio::test]
    async fn huge_declared_length_is_refused_unread() {
        let parts = parts(Method::POST, "/pets", &[("Content-Length", "100000000")]);
        let refusal = read_body(&parts, Body::empty(), BODY_LIMIT).await;
        assert_eq!(refusal, Err(BodyRefusal::TooLarge { size: 100_000_000, exact: true }));
    }

    #[test]
    fn error_response_is_the_error_object() {
        let response =
            error_response(&ApiError::new(ErrorCode::MalformedJson, "The body could not be read."));
        assert_eq!(response.status(), StatusCode::BAD_REQUEST);
        assert_eq!(response.headers()["content-type"], "application/json");
    }
}
