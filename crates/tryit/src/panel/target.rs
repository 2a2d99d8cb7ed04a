//! Where the try-it panel sends: the mock, a server of the document or a base URL the reader
//! typed (checked), and what this browser remembers of the choice.

use crate::MockOffer;
use crate::transport::absolute;

pub(super) const TARGET_KEY: &str = "playground/try-it/target";
pub(super) const BASE_URL_KEY: &str = "playground/try-it/base-url";
pub(super) const HEADERS_KEY: &str = "playground/try-it/headers";

/// Where requests go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// The in-browser mock.
    Mock,
    /// A server URL of the document.
    Server(String),
    /// The reader's base URL.
    Custom,
}

impl Target {
    /// The value of this choice in the target list and in storage.
    #[must_use]
    pub fn key(&self) -> String {
        match self {
            Self::Mock => "mock".to_owned(),
            Self::Server(url) => format!("server:{url}"),
            Self::Custom => "custom".to_owned(),
        }
    }

    /// The choice a [`Target::key`] names.
    #[must_use]
    pub fn from_key(key: &str) -> Option<Self> {
        match key {
            "mock" => Some(Self::Mock),
            "custom" => Some(Self::Custom),
            _ => key.strip_prefix("server:").map(|url| Self::Server(url.to_owned())),
        }
    }
}

impl Target {
    /// Where a new panel sends: the `remembered` target when this panel offers it, else the
    /// mock when it is offered first, else the first of `servers`, else the mock when it is
    /// offered at all, else the reader's base URL.
    #[must_use]
    pub fn initial(remembered: Option<&str>, servers: &[String], offer: MockOffer) -> Self {
        remembered
            .and_then(Self::from_key)
            .filter(|t| match t {
                Self::Mock => offer != MockOffer::None,
                Self::Server(url) => servers.contains(url),
                Self::Custom => true,
            })
            .unwrap_or_else(|| match servers.first() {
                _ if offer == MockOffer::First => Self::Mock,
                Some(url) => Self::Server(url.clone()),
                None if offer == MockOffer::Offered => Self::Mock,
                None => Self::Custom,
            })
    }
}

pub(super) fn remembered(key: &str) -> Option<String> {
    playground_browser::get(key).ok().flatten()
}

/// Keeps `value` under `key` in this browser (`None` forgets it). Remembering is a convenience:
/// where storage is blocked or full the form still works, so a failure is not shown.
pub(super) fn remember(key: &str, value: Option<&str>) {
    let _ = match value {
        Some(value) => playground_browser::set(key, value),
        None => playground_browser::remove(key),
    };
}

/// Checks a base URL typed by the reader; returns it without a trailing slash.
///
/// # Errors
/// Why it cannot be used, in words a reader can act on.
pub fn check_base_url(text: &str) -> Result<String, String> {
    let text = text.trim();
    if text.is_empty() {
        return Err("Enter the server's base URL, such as http://127.0.0.1:4010.".to_owned());
    }
    let url = web_sys::Url::new(text).map_err(|_| {
        format!("\u{201c}{text}\u{201d} is not a full URL; write it like http://127.0.0.1:4010.")
    })?;
    let protocol = url.protocol();
    if protocol != "http:" && protocol != "https:" {
        return Err(format!("Use an http:// or https:// URL; {protocol} is not supported."));
    }
    if !url.search().is_empty() || !url.hash().is_empty() {
        return Err("Leave out the query (?…) and fragment (#…): each operation adds its own.".to_owned());
    }
    if !url.username().is_empty() || !url.password().is_empty() {
        return Err("Leave the user name and password out of the URL; send them in a header such as \
                    Authorization."
            .to_owned());
    }
    Ok(url.href().trim_end_matches('/').to_owned())
}

/// The base URL a document server names, resolved against this page when it is relative.
pub(super) fn server_base(url: &str) -> String {
    absolute(url).map_or_else(|| url.to_owned(), |u| u.href()).trim_end_matches('/').to_owned()
}
