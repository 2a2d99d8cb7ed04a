//! Credentials from the environment: `PLAYGROUND_AUTH_<SCHEME>` for each security scheme of the
//! description (its name in upper case, anything not a letter or digit as `_`). A bearer, OAuth 2
//! or OpenID Connect scheme sends `Authorization: Bearer VALUE`, HTTP Basic takes `user:password`,
//! an API key goes in its header, query parameter or cookie. They are added to the calls of the
//! operations whose security names their scheme (unless the call carries that credential itself),
//! and blanked from everything a tool returns (`playground_server::proxy::redact`, as the
//! proxy's log blanks them).

use base64::Engine as _;
use playground_http::Request;
use playground_openapi::security::{ApiKeyIn, SchemeKind};
use serde_json::Value;

/// The prefix of the variables.
pub const PREFIX: &str = "PLAYGROUND_AUTH_";

/// Credential values shorter than this are not blanked from answers: they would blank common
/// words (the proxy's rule, `playground_server::proxy::redact`).
const MIN_SECRET: usize = 3;

/// Where a scheme's credential goes.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Place {
    /// `Authorization: <scheme> <token>` (the token as sent: base64 for Basic).
    Authorization { scheme: &'static str, token: String },
    /// A header of its own.
    Header(String),
    /// A query parameter.
    Query(String),
    /// A cookie.
    Cookie(String),
}

/// One scheme's credential.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Credential {
    scheme: String,
    place: Place,
    value: String,
}

/// The credentials found for a description's schemes.
#[derive(Debug, Clone, Default)]
pub struct Credentials {
    found: Vec<Credential>,
    /// Schemes whose variable is set but that cannot be sent (digest, mutual TLS, ...).
    pub unusable: Vec<String>,
}

/// The variable that holds the credential of the scheme `scheme`.
#[must_use]
pub fn variable(scheme: &str) -> String {
    let name: String = scheme
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_uppercase() } else { '_' })
        .collect();
    format!("{PREFIX}{name}")
}

impl Credentials {
    /// The credentials `env` gives (a variable's value, when set and not empty) for the
    /// security schemes of `document`.
    #[must_use]
    pub fn from_env(document: &Value, env: &dyn Fn(&str) -> Option<String>) -> Self {
        let mut credentials = Self::default();
        for scheme in playground_openapi::security::schemes(document) {
            let Some(value) =
                env(&variable(&scheme.name)).map(|v| v.trim().to_owned()).filter(|v| !v.is_empty())
            else {
                continue;
            };
            let place = match scheme.kind {
                SchemeKind::ApiKey { name, location: ApiKeyIn::Header } => Place::Header(name),
                SchemeKind::ApiKey { name, location: ApiKeyIn::Query } => Place::Query(name),
                SchemeKind::ApiKey { name, location: ApiKeyIn::Cookie } => Place::Cookie(name),
                SchemeKind::Http { scheme: http, .. } if http == "basic" => Place::Authorization {
                    scheme: "Basic",
                    token: base64::engine::general_purpose::STANDARD.encode(value.as_bytes()),
                },
                SchemeKind::Http { scheme: http, .. } if http == "bearer" => {
                    Place::Authorization { scheme: "Bearer", token: value.clone() }
                }
                SchemeKind::OAuth2 { .. } | SchemeKind::OpenIdConnect { .. } => {
                    Place::Authorization { scheme: "Bearer", token: value.clone() }
                }
                _ => {
                    credentials.unusable.push(scheme.name);
                    continue;
                }
            };
            credentials.found.push(Credential { scheme: scheme.name, place, value });
        }
        credentials
    }

    /// The schemes a credential was found for, by name.
    pub fn schemes(&self) -> impl Iterator<Item = &str> {
        self.found.iter().map(|c| c.scheme.as_str())
    }

    /// Whether no credential was found.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.found.is_empty()
    }

    /// Adds to `request` the credentials of the schemes `requirements` name (an operation's
    /// security alternatives), unless the request carries one in that place already; returns
    /// the schemes added.
    pub fn apply(&self, request: &mut Request, requirements: &[Vec<String>]) -> Vec<String> {
        let mut added = Vec::new();
        for credential in &self.found {
            if !requirements.iter().flatten().any(|name| *name == credential.scheme) {
                continue;
            }
            let applied = match &credential.place {
                Place::Authorization { scheme, token } => {
                    add_header(request, "Authorization", &format!("{scheme} {token}"))
                }
                Place::Header(name) => add_header(request, name, &credential.value),
                Place::Query(name) => add_query(request, name, &credential.value),
                Place::Cookie(name) => add_cookie(request, name, &credential.value),
            };
            if applied {
                added.push(credential.scheme.clone());
            }
        }
        added
    }

    /// Every form of every credential found, as it could appear in an answer: the value, and
    /// the `Authorization` value and token made of it.
    #[must_use]
    pub fn secrets(&self) -> Vec<String> {
        let mut secrets = Vec::new();
        for credential in &self.found {
            secrets.push(credential.value.clone());
            if let Place::Authorization { scheme, token } = &credential.place {
                secrets.push(token.clone());
                secrets.push(format!("{scheme} {token}"));
            }
            // The value as a query or cookie would carry it, percent-encoded.
            let encoded: String = form_urlencoded::byte_serialize(credential.value.as_bytes()).collect();
            secrets.push(encoded);
        }
        secrets.retain(|s| s.len() >= MIN_SECRET);
        secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
        secrets.dedup();
        secrets
    }
}

fn add_header(request: &mut Request, name: &str, value: &str) -> bool {
    if request.header_value(name).is_some() {
        return false;
    }
    request.headers.push((name.to_owned(), value.to_owned()));
    true
}

fn add_query(request: &mut Request, name: &str, value: &str) -> bool {
    let (path, query) = request.target.split_once('?').unwrap_or((&request.target, ""));
    if form_urlencoded::parse(query.as_bytes()).any(|(k, _)| k == name) {
        return false;
    }
    let pair: String = form_urlencoded::Serializer::new(String::new()).append_pair(name, value).finish();
    request.target =
        if query.is_empty() { format!("{path}?{pair}") } else { format!("{path}?{query}&{pair}") };
    true
}

fn add_cookie(request: &mut Request, name: &str, value: &str) -> bool {
    let pair = format!("{name}={value}");
    match request.headers.iter_mut().find(|(n, _)| n.eq_ignore_ascii_case("cookie")) {
        Some((_, cookies)) => {
            if cookies.split(';').any(|c| c.split_once('=').is_some_and(|(k, _)| k.trim() == name)) {
                return false;
            }
            cookies.push_str("; ");
            cookies.push_str(&pair);
        }
        None => request.headers.push(("Cookie".to_owned(), pair)),
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn document() -> Value {
        json!({"openapi": "3.1.0", "info": {"title": "T", "version": "1"}, "paths": {},
        "components": {"securitySchemes": {
            "bearer-auth": {"type": "http", "scheme": "bearer"},
            "basic": {"type": "http", "scheme": "basic"},
            "key": {"type": "apiKey", "in": "query", "name": "api_key"},
            "session": {"type": "apiKey", "in": "cookie", "name": "sid"},
            "digest": {"type": "http", "scheme": "digest"}
        }}})
    }

    #[test]
    fn variables_are_the_scheme_in_upper_case() {
        assert_eq!(variable("bearer-auth"), "PLAYGROUND_AUTH_BEARER_AUTH");
        assert_eq!(variable("api_key"), "PLAYGROUND_AUTH_API_KEY");
    }

    #[test]
    fn each_scheme_puts_its_credential_in_its_place() {
        let env = |name: &str| match name {
            "PLAYGROUND_AUTH_BEARER_AUTH" => Some("tok123".to_owned()),
            "PLAYGROUND_AUTH_BASIC" => Some("user:pass".to_owned()),
            "PLAYGROUND_AUTH_KEY" => Some("k e y".to_owned()),
            "PLAYGROUND_AUTH_SESSION" => Some("s1d".to_owned()),
            "PLAYGROUND_AUTH_DIGEST" => Some("d".to_owned()),
            _ => None,
        };
        let credentials = Credentials::from_env(&document(), &env);
        assert_eq!(credentials.unusable, ["digest"]);
        let mut request = Request::new("GET", "/things?a=1").header("Cookie", "theme=dark");
        let all = vec![vec!["bearer-auth".to_owned(), "key".to_owned()], vec!["session".to_owned()]];
        assert_eq!(credentials.apply(&mut request, &all), ["bearer-auth", "key", "session"]);
        assert_eq!(request.header_value("authorization"), Some("Bearer tok123"));
        assert_eq!(request.target, "/things?a=1&api_key=k+e+y");
        assert_eq!(request.header_value("cookie"), Some("theme=dark; sid=s1d"));

        let mut basic = Request::new("GET", "/").header("authorization", "Bearer mine");
        let needs = vec![vec!["basic".to_owned()]];
        assert!(credentials.apply(&mut basic, &needs).is_empty(), "the call's own credential stays");
        let mut basic = Request::new("GET", "/");
        credentials.apply(&mut basic, &needs);
        assert_eq!(basic.header_value("Authorization"), Some("Basic dXNlcjpwYXNz"));

        let secrets = credentials.secrets();
        let text = playground_server::proxy::redact(
            "got Bearer tok123 and dXNlcjpwYXNz and k+e+y and user:pass",
            &secrets,
        );
        assert_eq!(text, "got [credential] and [credential] and [credential] and [credential]");
    }
}
