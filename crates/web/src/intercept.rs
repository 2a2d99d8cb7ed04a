//! Which URLs an installed `fetch` interceptor answers, and what path the mock then sees; plus
//! the reason phrases of the statuses the mock returns. Plain string work, tested on the host.

/// Why a prefix cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "The prefix {0:?} is not usable: give a path starting with \"/\" (such as \"/api\") or an absolute \
     http(s) URL (such as \"http://localhost:4010/api\")."
)]
pub struct PrefixError(pub String);

/// A URL prefix whose requests the mock answers: a path on the page's own origin (`/api`) or
/// an absolute URL (`https://api.example.com/v1`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prefix {
    text: String,
}

impl Prefix {
    /// Checks and keeps a prefix. A trailing `/` is ignored (`/api/` is `/api`).
    ///
    /// # Errors
    /// [`PrefixError`] for an empty prefix, a relative path, or another scheme.
    pub fn new(prefix: &str) -> Result<Self, PrefixError> {
        let trimmed = prefix.trim();
        let absolute = trimmed.starts_with("http://") || trimmed.starts_with("https://");
        if !(trimmed.starts_with('/') || absolute) || trimmed.starts_with("//") {
            return Err(PrefixError(prefix.to_owned()));
        }
        Ok(Self { text: trimmed.trim_end_matches('/').to_owned() })
    }

    /// The mock's target (path and query) for `url` (absolute, as the browser resolved it), or
    /// `None` when `url` is not under the prefix. `origin` is the page's origin
    /// (`http://127.0.0.1:8080`), which a path prefix is relative to.
    ///
    /// `/api` takes `/api`, `/api/pets` and `/api?x=1`, not `/apiary`.
    #[must_use]
    pub fn target(&self, url: &str, origin: &str) -> Option<String> {
        let candidate = if self.text.starts_with('/') || self.text.is_empty() {
            url.strip_prefix(origin).filter(|rest| rest.starts_with('/'))?
        } else {
            url
        };
        let rest = candidate.strip_prefix(self.text.as_str())?;
        let rest = rest.split('#').next().unwrap_or_default();
        if rest.is_empty() {
            Some("/".to_owned())
        } else if rest.starts_with('/') {
            Some(rest.to_owned())
        } else if rest.starts_with('?') {
            Some(format!("/{rest}"))
        } else {
            None
        }
    }
}

pub use playground_http::reason_phrase;

/// Whether a response with this status must not have a body (the `Response` constructor
/// throws on one).
#[must_use]
pub fn is_null_body_status(status: u16) -> bool {
    matches!(status, 101 | 103 | 204 | 205 | 304)
}
