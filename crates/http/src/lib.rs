//! Request and response values: what the mock takes and returns, with no network and no
//! framework types, so the browser, the native server and tests all drive it the same way.
//!
//! Their serde form is what crosses between WebAssembly modules and JavaScript: the mock module's
//! `handle()` and `handleJson()` take `{method, url, headers, body}` and answer `{status,
//! headers: [[name, value]], body}`. `form` reads and writes form bodies (URL-encoded and
//! multipart) and gives the fields a body's schema asks for (`form::fields_from_schema`).

#![deny(missing_docs)]

pub mod form;

use serde::{Deserialize, Serialize};

/// An HTTP request as the mock sees it.
///
/// Its serde form is the request of the mock module's `handle()`: `{method, url, headers,
/// body}`, the headers as `[name, value]` pairs (a `{name: value}` object is read too) and the
/// body as text. A missing or null method reads as `GET`, a missing url as an empty one.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Request {
    /// Method in any case (`get` and `GET` are the same).
    #[serde(default = "wire::get", deserialize_with = "wire::method")]
    pub method: String,
    /// Path with optional query string, e.g. `/pets?status=available&limit=5`. A full URL
    /// (`http://host/pets`) is accepted too; its origin is ignored.
    #[serde(rename = "url", default)]
    pub target: String,
    /// Header names and values, names in any case.
    #[serde(default, deserialize_with = "wire::headers")]
    pub headers: Vec<(String, String)>,
    /// Raw body bytes (empty for none).
    #[serde(default, with = "wire::text")]
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
///
/// Its serde form is the answer of the mock module's `handle()`: `{status, headers: [[name,
/// value]], body}`, the body as text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Response {
    /// HTTP status.
    pub status: u16,
    /// Header names (canonical case, e.g. `Content-Type`, `X-Total-Count`) and values.
    pub headers: Vec<(String, String)>,
    /// Body bytes: JSON when `Content-Type` is `application/json`, empty otherwise.
    #[serde(with = "wire::text")]
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
        // Read as text: the modules' other JSON is text, and one reader of `Value` is enough.
        serde_json::from_str(std::str::from_utf8(&self.body).ok()?).ok()
    }
}

/// The first value of the header `name` (any case) among `headers`.
#[must_use]
pub fn find_header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
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

/// The serde forms of [`Request`] and [`Response`] fields, as the mock module's JavaScript API
/// documents them.
mod wire {
    use std::fmt;

    use serde::Deserialize;
    use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};

    pub(super) fn get() -> String {
        "GET".to_owned()
    }

    pub(super) fn method<'de, D: Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
        Ok(Option::<String>::deserialize(deserializer)?.unwrap_or_else(get))
    }

    /// A body as text: binary bodies do not cross this way (the module's `fetch` takes them).
    pub(super) mod text {
        use serde::{Deserialize, Deserializer, Serializer};

        pub(crate) fn serialize<S: Serializer>(body: &[u8], serializer: S) -> Result<S::Ok, S::Error> {
            serializer.serialize_str(&String::from_utf8_lossy(body))
        }

        pub(crate) fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<u8>, D::Error> {
            Ok(Option::<String>::deserialize(deserializer)?.unwrap_or_default().into_bytes())
        }
    }

    /// `[name, value]` pairs or a `{name: value}` object (in its order); null for none.
    pub(super) fn headers<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Vec<(String, String)>, D::Error> {
        deserializer.deserialize_any(Headers)
    }

    struct Headers;

    impl<'de> Visitor<'de> for Headers {
        type Value = Vec<(String, String)>;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("[name, value] pairs or an object of header values")
        }

        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(Vec::new())
        }

        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(Vec::new())
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut pairs: A) -> Result<Self::Value, A::Error> {
            let mut headers = Vec::new();
            while let Some(pair) = pairs
                .next_element::<(String, String)>()
                .map_err(|_| de::Error::custom("each header is a [name, value] pair of strings"))?
            {
                headers.push(pair);
            }
            Ok(headers)
        }

        fn visit_map<A: MapAccess<'de>>(self, mut entries: A) -> Result<Self::Value, A::Error> {
            let mut headers = Vec::new();
            while let Some(entry) = entries
                .next_entry::<String, String>()
                .map_err(|_| de::Error::custom("header values are strings"))?
            {
                headers.push(entry);
            }
            Ok(headers)
        }
    }
}
