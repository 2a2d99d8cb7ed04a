//! Request and response values: what the mock takes and returns, with no network and no
//! framework types, so the browser, the native server and tests all drive it the same way.

/// An HTTP request as the mock sees it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Request {
    /// Method in any case (`get` and `GET` are the same).
    pub method: String,
    /// Path with optional query string, e.g. `/pets?status=available&limit=5`. A full URL
    /// (`http://host/pets`) is accepted too; its origin is ignored.
    pub target: String,
    /// Header names and values, names in any case.
    pub headers: Vec<(String, String)>,
    /// Raw body bytes (empty for none).
    pub body: Vec<u8>,
}

impl Request {
    /// A request with no headers and no body.
    pub fn new(method: impl Into<String>, target: impl Into<String>) -> Self {
        Self { method: method.into(), target: target.into(), headers: Vec::new(), body: Vec::new() }
    }

    /// Adds a header.
    #[must_use]
    pub fn header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }

    /// Sets a JSON body and `Content-Type: application/json`.
    #[must_use]
    pub fn json(self, body: &serde_json::Value) -> Self {
        self.header("Content-Type", "application/json").body(body.to_string())
    }

    /// Sets raw body bytes (no Content-Type is added).
    #[must_use]
    pub fn body(mut self, body: impl Into<Vec<u8>>) -> Self {
        self.body = body.into();
        self
    }

    /// The first value of a header, by case-insensitive name.
    #[must_use]
    pub fn header_value(&self, name: &str) -> Option<&str> {
        find_header(&self.headers, name)
    }
}

/// An HTTP response from the mock.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    /// HTTP status.
    pub status: u16,
    /// Header names (canonical case, e.g. `Content-Type`, `X-Total-Count`) and values.
    pub headers: Vec<(String, String)>,
    /// Body bytes: JSON when `Content-Type` is `application/json`, empty otherwise.
    pub body: Vec<u8>,
}

impl Response {
    /// The first value of a header, by case-insensitive name.
    #[must_use]
    pub fn header_value(&self, name: &str) -> Option<&str> {
        find_header(&self.headers, name)
    }

    /// The body parsed as JSON, or `None` when it is empty or not JSON.
    #[must_use]
    pub fn json(&self) -> Option<serde_json::Value> {
        serde_json::from_slice(&self.body).ok()
    }
}

fn find_header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
}

/// The standard reason phrase of an HTTP status (empty for an unknown one).
#[must_use]
pub fn reason_phrase(status: u16) -> &'static str {
    match status {
        200 => "OK",
        201 => "Created",
        202 => "Accepted",
        204 => "No Content",
        301 => "Moved Permanently",
        304 => "Not Modified",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        409 => "Conflict",
        410 => "Gone",
        413 => "Content Too Large",
        415 => "Unsupported Media Type",
        422 => "Unprocessable Content",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        501 => "Not Implemented",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        _ => "",
    }
}
