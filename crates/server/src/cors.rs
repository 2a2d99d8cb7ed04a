//! CORS for browser callers (a frontend on its own dev server, or the published docs' try-it
//! panel pointed at this server): any origin may call, with credentials.
//!
//! Written out rather than taken from tower-http's `CorsLayer`: that layer answers every
//! `OPTIONS` as a preflight with 200, while here only a real preflight (with `Origin` and
//! `Access-Control-Request-Method`) is answered, with 204; any other `OPTIONS` goes to the
//! mock, which answers 405 with `Allow` like for any other undocumented method.

use axum::http::header::{
    ACCESS_CONTROL_ALLOW_CREDENTIALS, ACCESS_CONTROL_ALLOW_HEADERS, ACCESS_CONTROL_ALLOW_METHODS,
    ACCESS_CONTROL_ALLOW_ORIGIN, ACCESS_CONTROL_EXPOSE_HEADERS, ACCESS_CONTROL_MAX_AGE,
    ACCESS_CONTROL_REQUEST_HEADERS, ACCESS_CONTROL_REQUEST_METHOD, ORIGIN, VARY,
};
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};

/// Every method the API uses.
pub const ALLOW_METHODS: &str = "GET, POST, PUT, DELETE, OPTIONS";

/// Response headers a page may read besides the CORS-safelisted ones: all the headers the API
/// documents (`Location`, `X-Total-Count`, `Deprecation`, `Sunset`), plus `Allow` of a 405.
pub const EXPOSE_HEADERS: &str = "Location, X-Total-Count, Deprecation, Sunset, Allow";

/// Chrome's Private Network Access: a page served from a public address must be allowed
/// explicitly to call a server on 127.0.0.1.
const REQUEST_PRIVATE_NETWORK: HeaderName = HeaderName::from_static("access-control-request-private-network");
const ALLOW_PRIVATE_NETWORK: HeaderName = HeaderName::from_static("access-control-allow-private-network");

const TRUE: HeaderValue = HeaderValue::from_static("true");

/// The answer to a preflight request, or `None` when the request is not one.
pub fn preflight(method: &Method, headers: &HeaderMap) -> Option<Response> {
    if method != Method::OPTIONS {
        return None;
    }
    let origin = headers.get(ORIGIN)?;
    headers.get(ACCESS_CONTROL_REQUEST_METHOD)?;
    let mut response = StatusCode::NO_CONTENT.into_response();
    let out = response.headers_mut();
    // The origin is echoed, never `*`: browsers refuse `*` on requests with credentials.
    out.insert(ACCESS_CONTROL_ALLOW_ORIGIN, origin.clone());
    out.insert(ACCESS_CONTROL_ALLOW_CREDENTIALS, TRUE);
    out.insert(ACCESS_CONTROL_ALLOW_METHODS, HeaderValue::from_static(ALLOW_METHODS));
    if let Some(requested) = headers.get(ACCESS_CONTROL_REQUEST_HEADERS) {
        out.insert(ACCESS_CONTROL_ALLOW_HEADERS, requested.clone());
    }
    if headers.get(REQUEST_PRIVATE_NETWORK).is_some_and(|value| value == "true") {
        out.insert(ALLOW_PRIVATE_NETWORK, TRUE);
    }
    out.insert(ACCESS_CONTROL_MAX_AGE, HeaderValue::from_static("600"));
    out.insert(
        VARY,
        HeaderValue::from_static("Origin, Access-Control-Request-Method, Access-Control-Request-Headers"),
    );
    Some(response)
}

/// Adds the CORS headers to an actual response. `Vary: Origin` goes on every response, with or
/// without an `Origin`, so that a cache never serves one origin's answer to another.
pub fn decorate(headers: &mut HeaderMap, origin: Option<&HeaderValue>) {
    headers.append(VARY, HeaderValue::from_static("Origin"));
    if let Some(origin) = origin {
        headers.insert(ACCESS_CONTROL_ALLOW_ORIGIN, origin.clone());
        headers.insert(ACCESS_CONTROL_ALLOW_CREDENTIALS, TRUE);
        headers.insert(ACCESS_CONTROL_EXPOSE_HEADERS, HeaderValue::from_static(EXPOSE_HEADERS));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        pairs
            .iter()
            .map(|(name, value)| (HeaderName::from_static(name), HeaderValue::from_static(value)))
            .collect()
    }

    #[test]
    fn preflight_echoes_origin_and_requested_headers() {
        let request = headers(&[
            ("origin", "http://localhost:5173"),
            ("access-control-request-method", "PUT"),
            ("access-control-request-headers", "content-type, x-trace"),
        ]);
        let response = preflight(&Method::OPTIONS, &request).unwrap();
        assert_eq!(response.status(), StatusCode::NO_CONTENT);
        let out = response.headers();
        assert_eq!(out[ACCESS_CONTROL_ALLOW_ORIGIN], "http://localhost:5173");
        assert_eq!(out[ACCESS_CONTROL_ALLOW_CREDENTIALS], "true");
        assert_eq!(out[ACCESS_CONTROL_ALLOW_METHODS], ALLOW_METHODS);
        assert_eq!(out[ACCESS_CONTROL_ALLOW_HEADERS], "content-type, x-trace");
        assert!(out[VARY].to_str().unwrap().contains("Origin"));
        assert!(out.get(ALLOW_PRIVATE_NETWORK).is_none());
    }

    #[test]
    fn preflight_allows_private_network_access_when_asked() {
        let request = headers(&[
            ("origin", "https://docs.example.com"),
            ("access-control-request-method", "GET"),
            ("access-control-request-private-network", "true"),
        ]);
        let response = preflight(&Method::OPTIONS, &request).unwrap();
        assert_eq!(response.headers()[ALLOW_PRIVATE_NETWORK], "true");
    }

    #[test]
    fn options_without_origin_or_requested_method_is_not_a_preflight() {
        assert!(preflight(&Method::OPTIONS, &headers(&[("access-control-request-method", "GET")])).is_none());
        assert!(preflight(&Method::OPTIONS, &headers(&[("origin", "http://a.test")])).is_none());
        let full = headers(&[("origin", "http://a.test"), ("access-control-request-method", "GET")]);
        assert!(preflight(&Method::GET, &full).is_none());
    }

    #[test]
    fn actual_response_echoes_origin_with_credentials_and_exposes_api_headers() {
        let mut out = HeaderMap::new();
        decorate(&mut out, Some(&HeaderValue::from_static("http://localhost:3000")));
        assert_eq!(out[ACCESS_CONTROL_ALLOW_ORIGIN], "http://localhost:3000");
        assert_eq!(out[ACCESS_CONTROL_ALLOW_CREDENTIALS], "true");
        assert_eq!(out[ACCESS_CONTROL_EXPOSE_HEADERS], EXPOSE_HEADERS);
        assert_eq!(out[VARY], "Origin");
    }

    #[test]
    fn no_origin_means_no_allow_origin_but_still_vary() {
        let mut out = HeaderMap::new();
        decorate(&mut out, None);
        assert!(out.get(ACCESS_CONTROL_ALLOW_ORIGIN).is_none());
        assert_eq!(out[VARY], "Origin");
    }
}
