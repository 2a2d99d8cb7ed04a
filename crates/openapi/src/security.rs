//! The security schemes a document declares (`components.securitySchemes`), the requirements
//! an operation names, URLs relative to a server, and OpenID Connect discovery.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The most security schemes [`schemes`] reads from one document.
pub const MAX_SCHEMES: usize = 200;

/// The most scopes read from one flow or one discovery document.
pub const MAX_SCOPES: usize = 1000;

/// The most security requirement alternatives, and scheme names in one, that a request builder reads.
pub const MAX_REQUIREMENTS: usize = 100;

/// Where an API key goes in a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ApiKeyIn {
    /// A request header named after the scheme's `name`.
    Header,
    /// A query parameter named after the scheme's `name`.
    Query,
    /// A cookie named after the scheme's `name`, sent in the `Cookie` header.
    Cookie,
}

/// An OAuth 2.0 grant a flow uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum FlowKind {
    /// The authorization code grant (`authorizationCode`), with PKCE in this console.
    AuthorizationCode,
    /// The client credentials grant (`clientCredentials`).
    ClientCredentials,
    /// The implicit grant (`implicit`): the token comes back in the redirect's fragment.
    Implicit,
    /// The resource owner password grant (`password`).
    Password,
}

/// One OAuth 2.0 flow of a scheme: its endpoints as the document wrote them (relative ones stay
/// relative; see [`resolve_url`]) and the scopes it offers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OAuthFlow {
    /// The grant.
    pub kind: FlowKind,
    /// Where the reader signs in (authorization code and implicit flows).
    pub authorization_url: Option<String>,
    /// Where tokens are requested (every flow but implicit).
    pub token_url: Option<String>,
    /// Where tokens are refreshed, when the document names a separate endpoint.
    pub refresh_url: Option<String>,
    /// Scope names and their descriptions, in document order.
    pub scopes: Vec<(String, String)>,
}

/// What kind of security scheme a document declares, with what the console needs of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum SchemeKind {
    /// `type: apiKey`.
    ApiKey {
        /// The header, query parameter or cookie name.
        name: String,
        /// Where the key goes.
        location: ApiKeyIn,
    },
    /// `type: http`.
    Http {
        /// The HTTP authentication scheme in lower case, e.g. `basic`, `bearer`, `digest`.
        scheme: String,
        /// A hint of how bearer tokens are formatted (e.g. `JWT`), for the reader only.
        bearer_format: Option<String>,
    },
    /// `type: oauth2`.
    OAuth2 {
        /// The flows the document declares, in document order.
        flows: Vec<OAuthFlow>,
    },
    /// `type: openIdConnect`.
    OpenIdConnect {
        /// The discovery document's URL as written (`openIdConnectUrl`).
        url: String,
        /// The flows [`read_discovery`] found; empty until the page has read the discovery
        /// document.
        flows: Vec<OAuthFlow>,
    },
    /// `type: mutualTLS`: the browser presents a client certificate itself, if it has one.
    MutualTls,
    /// A scheme this console cannot use, with a sentence saying why.
    Unsupported(String),
}

/// A security scheme of `components.securitySchemes`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scheme {
    /// Its key in `components.securitySchemes`, the name security requirements use.
    pub name: String,
    /// Its description (Markdown), if any.
    pub description: Option<String>,
    /// What it is.
    pub kind: SchemeKind,
}

/// The security schemes of `components.securitySchemes`, in document order, `$ref`s followed,
/// at most [`MAX_SCHEMES`]. A scheme that cannot be read is kept as
/// [`SchemeKind::Unsupported`] with the reason, so the panel can still name it.
#[must_use]
pub fn schemes(doc: &Value) -> Vec<Scheme> {
    let Some(map) = doc.get("components").and_then(|c| c.get("securitySchemes")).and_then(Value::as_object)
    else {
        return Vec::new();
    };
    map.iter().take(MAX_SCHEMES).map(|(name, value)| read_scheme(doc, name, value)).collect()
}

fn read_scheme(doc: &Value, name: &str, value: &Value) -> Scheme {
    // OpenAPI 3.1 lets a reference carry its own description, which wins over the target's.
    let own_description = value.get("description").and_then(Value::as_str).map(str::to_owned);
    let (description, kind) = match crate::pointer::resolve(doc, value) {
        Err(reason) => (own_description, SchemeKind::Unsupported(format!("The scheme {name}: {reason}."))),
        Ok(target) => {
            let description = own_description
                .or_else(|| target.get("description").and_then(Value::as_str).map(str::to_owned));
            (description, read_kind(name, target))
        }
    };
    Scheme { name: name.to_owned(), description, kind }
}

pub(super) fn text<'a>(value: &'a Value, key: &str) -> Option<&'a str> {
    value.get(key).and_then(Value::as_str).filter(|s| !s.is_empty())
}

fn read_kind(name: &str, scheme: &Value) -> SchemeKind {
    if !scheme.is_object() {
        return SchemeKind::Unsupported(format!("The scheme {name} is not an object."));
    }
    match scheme.get("type").and_then(Value::as_str) {
        None => SchemeKind::Unsupported(format!("The scheme {name} has no type.")),
        Some("apiKey") => {
            let Some(key_name) = text(scheme, "name") else {
                return SchemeKind::Unsupported(format!("The apiKey scheme {name} has no name."));
            };
            let location = match scheme.get("in").and_then(Value::as_str) {
                Some("header") => ApiKeyIn::Header,
                Some("query") => ApiKeyIn::Query,
                Some("cookie") => ApiKeyIn::Cookie,
                Some(other) => {
                    return SchemeKind::Unsupported(format!(
                        "The apiKey scheme {name} goes in {other}, which is not header, query or cookie."
                    ));
                }
                None => {
                    return SchemeKind::Unsupported(format!(
                        "The apiKey scheme {name} does not say where the key goes (in)."
                    ));
                }
            };
            SchemeKind::ApiKey { name: key_name.to_owned(), location }
        }
        Some("http") => match text(scheme, "scheme") {
            None => SchemeKind::Unsupported(format!(
                "The http scheme {name} does not name its authentication scheme (scheme)."
            )),
            Some(s) => SchemeKind::Http {
                scheme: s.to_ascii_lowercase(),
                bearer_format: text(scheme, "bearerFormat").map(str::to_owned),
            },
        },
        Some("oauth2") => SchemeKind::OAuth2 { flows: read_flows(scheme.get("flows")) },
        Some("openIdConnect") => match text(scheme, "openIdConnectUrl") {
            None => {
                SchemeKind::Unsupported(format!("The openIdConnect scheme {name} has no openIdConnectUrl."))
            }
            Some(url) => SchemeKind::OpenIdConnect { url: url.to_owned(), flows: Vec::new() },
        },
        Some("mutualTLS") => SchemeKind::MutualTls,
        Some(other) => SchemeKind::Unsupported(format!(
            "The scheme {name} has the type {other}, which this console does not know."
        )),
    }
}

fn read_flows(flows: Option<&Value>) -> Vec<OAuthFlow> {
    let Some(flows) = flows.and_then(Value::as_object) else {
        return Vec::new();
    };
    flows
        .iter()
        .filter_map(|(key, flow)| {
            let kind = match key.as_str() {
                "authorizationCode" => FlowKind::AuthorizationCode,
                "clientCredentials" => FlowKind::ClientCredentials,
                "implicit" => FlowKind::Implicit,
                "password" => FlowKind::Password,
                _ => return None,
            };
            let scopes = flow
                .get("scopes")
                .and_then(Value::as_object)
                .map(|scopes| {
                    scopes
                        .iter()
                        .take(MAX_SCOPES)
                        .map(|(s, d)| (s.clone(), d.as_str().unwrap_or_default().to_owned()))
                        .collect()
                })
                .unwrap_or_default();
            Some(OAuthFlow {
                kind,
                authorization_url: text(flow, "authorizationUrl").map(str::to_owned),
                token_url: text(flow, "tokenUrl").map(str::to_owned),
                refresh_url: text(flow, "refreshUrl").map(str::to_owned),
                scopes,
            })
        })
        .collect()
}

/// The security requirement alternatives of an operation, as [`apply`] takes them: the
/// operation's `security` when it has one (an empty list there turns security off), else the
/// document's. Each alternative lists its scheme names; the scopes are left out.
#[must_use]
pub fn security_requirements(doc: &Value, operation: &Value) -> Vec<Vec<String>> {
    let list = operation.get("security").or_else(|| doc.get("security")).and_then(Value::as_array);
    list.map(|alternatives| {
        alternatives
            .iter()
            .take(MAX_REQUIREMENTS)
            .map(|alt| {
                alt.as_object()
                    .map(|names| names.keys().take(MAX_REQUIREMENTS).cloned().collect())
                    .unwrap_or_default()
            })
            .collect()
    })
    .unwrap_or_default()
}

/// Security requirement alternatives by scheme name, as the operation list keeps them: each
/// alternative lists the schemes used together (an empty one: no credentials needed), and no
/// alternatives mean no security. Shared: the document's apply to every operation without its
/// own.
pub type Requirements = std::sync::Arc<[Vec<String>]>;

/// A `security` list as [`Requirements`]: the scheme names of each alternative, at most
/// [`MAX_REQUIREMENTS`] of each; a list that is not one (null, a string) needs nothing, as
/// [`security_requirements`] reads it, and an entry that is not an object is left out.
#[must_use]
pub fn read_requirements(list: &Value) -> Requirements {
    list.as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_object)
        .take(MAX_REQUIREMENTS)
        .map(|names| names.keys().take(MAX_REQUIREMENTS).cloned().collect())
        .collect()
}

/// What an operation asks of the reader's credentials, as the operation list marks it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// It may be called without credentials: it names no security, or an empty alternative.
    Open,
    /// Every alternative needs a credential the reader has not given.
    Needs,
    /// One alternative (not an empty one) has all its credentials: a request sends them.
    Filled,
}

/// The [`Access`] of an operation whose alternatives are `requirements`, `filled` saying which
/// schemes have a usable credential. Filled wins over open: an operation that may go without
/// credentials still sends those it has (`playground_tryit_core::auth::apply`).
#[must_use]
pub fn access(requirements: &[Vec<String>], filled: &dyn Fn(&str) -> bool) -> Access {
    if requirements.iter().any(|names| !names.is_empty() && names.iter().all(|name| filled(name))) {
        Access::Filled
    } else if requirements.is_empty() || requirements.iter().any(Vec::is_empty) {
        Access::Open
    } else {
        Access::Needs
    }
}

/// The index of the `:` ending a URL's scheme (`https:`), if it starts with one.
fn scheme_end(url: &str) -> Option<usize> {
    let end = url.find(':')?;
    let scheme = &url[..end];
    let mut chars = scheme.chars();
    let first = chars.next()?;
    (first.is_ascii_alphabetic() && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')))
        .then_some(end)
}

/// Splits at the first of `stops`: (before, from the stop on).
pub(super) fn split_at_any<'a>(s: &'a str, stops: &[char]) -> (&'a str, &'a str) {
    s.find(stops).map_or((s, ""), |i| s.split_at(i))
}

/// Removes `.` and `..` segments from a path (RFC 3986 5.2.4, simplified).
fn remove_dot_segments(path: &str) -> String {
    let (prefix, rest) = match path.strip_prefix('/') {
        Some(rest) => ("/", rest),
        None => ("", path),
    };
    let segments: Vec<&str> = rest.split('/').collect();
    let count = segments.len();
    let mut out: Vec<&str> = Vec::with_capacity(count);
    for (i, segment) in segments.into_iter().enumerate() {
        let last = i + 1 == count;
        match segment {
            "." => {}
            ".." => {
                out.pop();
            }
            other => {
                out.push(other);
                continue;
            }
        }
        if last {
            out.push("");
        }
    }
    format!("{prefix}{}", out.join("/"))
}

/// Resolves a URL the document wrote (an OAuth endpoint, a discovery URL) against the absolute
/// URL of the document or server: an absolute URL stays as it is, `//host/x` takes the base's
/// scheme, `/x` the base's origin, `?q` and `#f` the base's path, and `x` joins the base's
/// directory (`.` and `..` segments are removed).
#[must_use]
pub fn resolve_url(base: &str, url: &str) -> String {
    let url = url.trim();
    if scheme_end(url).is_some() {
        return url.to_owned();
    }
    let (base_no_fragment, _) = split_at_any(base, &['#']);
    if url.is_empty() {
        return base_no_fragment.to_owned();
    }
    if url.starts_with('#') {
        return format!("{base_no_fragment}{url}");
    }
    let (base_no_query, _) = split_at_any(base_no_fragment, &['?']);
    if url.starts_with('?') {
        return format!("{base_no_query}{url}");
    }
    let (scheme, after_scheme) = match scheme_end(base_no_query) {
        Some(end) => base_no_query.split_at(end + 1),
        None => ("", base_no_query),
    };
    if url.starts_with("//") {
        return format!("{scheme}{url}");
    }
    let (authority, base_path) = match after_scheme.strip_prefix("//") {
        Some(rest) => {
            let (host, path) = split_at_any(rest, &['/']);
            (format!("//{host}"), path)
        }
        None => (String::new(), after_scheme),
    };
    let origin = format!("{scheme}{authority}");
    let (path, tail) = split_at_any(url, &['?', '#']);
    if path.starts_with('/') {
        return format!("{origin}{}{tail}", remove_dot_segments(path));
    }
    let directory = match base_path.rfind('/') {
        Some(i) => &base_path[..=i],
        None if origin.is_empty() => "",
        None => "/",
    };
    format!("{origin}{}{tail}", remove_dot_segments(&format!("{directory}{path}")))
}

/// Reads an OpenID Connect discovery document (`.well-known/openid-configuration`) into the
/// flows the console can run: `authorization_endpoint` and `token_endpoint` become the flows'
/// URLs, `grant_types_supported` (by default `authorization_code` and `implicit`, as the
/// discovery specification says) chooses the flows, and `scopes_supported` their scopes (with
/// empty descriptions). A grant whose endpoint is missing is left out; when that leaves no flow
/// the error says which endpoint is missing.
pub fn read_discovery(json: &Value) -> Result<Vec<OAuthFlow>, String> {
    if !json.is_object() {
        return Err("The OpenID Connect discovery document is not a JSON object.".into());
    }
    let authorization = text(json, "authorization_endpoint");
    let token = text(json, "token_endpoint");
    let scopes: Vec<(String, String)> = json
        .get("scopes_supported")
        .and_then(Value::as_array)
        .map(|list| {
            list.iter()
                .filter_map(Value::as_str)
                .take(MAX_SCOPES)
                .map(|s| (s.to_owned(), String::new()))
                .collect()
        })
        .unwrap_or_default();
    let grants: Vec<&str> = match json.get("grant_types_supported").and_then(Value::as_array) {
        Some(list) => list.iter().filter_map(Value::as_str).take(MAX_REQUIREMENTS).collect(),
        None => vec!["authorization_code", "implicit"],
    };
    let mut flows: Vec<OAuthFlow> = Vec::new();
    let mut missing: Vec<&str> = Vec::new();
    let mut note_missing = |endpoint: &'static str| {
        if !missing.contains(&endpoint) {
            missing.push(endpoint);
        }
    };
    for grant in &grants {
        let (kind, needs_authorization, needs_token) = match *grant {
            "authorization_code" => (FlowKind::AuthorizationCode, true, true),
            "implicit" => (FlowKind::Implicit, true, false),
            "client_credentials" => (FlowKind::ClientCredentials, false, true),
            "password" => (FlowKind::Password, false, true),
            _ => continue,
        };
        if flows.iter().any(|f| f.kind == kind) {
            continue;
        }
        if needs_authorization && authorization.is_none() {
            note_missing("authorization_endpoint");
            continue;
        }
        if needs_token && token.is_none() {
            note_missing("token_endpoint");
            continue;
        }
        flows.push(OAuthFlow {
            kind,
            authorization_url: authorization.filter(|_| needs_authorization).map(str::to_owned),
            token_url: token.filter(|_| needs_token).map(str::to_owned),
            refresh_url: None,
            scopes: scopes.clone(),
        });
    }
    if !flows.is_empty() {
        return Ok(flows);
    }
    if !missing.is_empty() {
        return Err(format!(
            "The OpenID Connect discovery document has no {}, so none of its grant types can be used.",
            missing.join(" and no ")
        ));
    }
    Err(format!(
        "The OpenID Connect discovery document lists no grant type this console supports \
         (authorization_code, implicit, client_credentials, password); it lists: {}.",
        if grants.is_empty() { "none".to_owned() } else { grants.join(", ") }
    ))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // a failed unwrap is a failed test, with its location

    use serde_json::json;

    use super::*;

    fn names(list: &[&[&str]]) -> Vec<Vec<String>> {
        list.iter().map(|alt| alt.iter().map(|&n| n.to_owned()).collect()).collect()
    }

    #[test]
    fn requirements_are_the_scheme_names_of_each_alternative() {
        let read = read_requirements(&json!([{"key": [], "jwt": ["a"]}, {}, "junk", {"oauth": ["read"]}]));
        assert_eq!(&*read, names(&[&["key", "jwt"], &[], &["oauth"]]).as_slice());
        for none in [json!(null), json!("key"), json!({}), json!([])] {
            assert!(read_requirements(&none).is_empty(), "{none}");
        }
        let many: Vec<_> = (0..MAX_REQUIREMENTS + 5).map(|i| json!({ format!("s{i}"): [] })).collect();
        assert_eq!(read_requirements(&json!(many)).len(), MAX_REQUIREMENTS);
    }

    #[test]
    fn access_is_filled_by_a_whole_alternative_and_open_without_one() {
        let filled = |set: &'static [&'static str]| move |name: &str| set.contains(&name);
        let key_or_both = names(&[&["key"], &["jwt", "oauth"]]);
        assert_eq!(access(&key_or_both, &filled(&[])), Access::Needs);
        assert_eq!(access(&key_or_both, &filled(&["jwt"])), Access::Needs, "half of an alternative");
        assert_eq!(access(&key_or_both, &filled(&["jwt", "oauth"])), Access::Filled);
        assert_eq!(access(&key_or_both, &filled(&["key"])), Access::Filled);

        assert_eq!(access(&[], &filled(&["key"])), Access::Open, "no security");
        let optional = names(&[&["key"], &[]]);
        assert_eq!(access(&optional, &filled(&[])), Access::Open, "an empty alternative");
        assert_eq!(access(&optional, &filled(&["key"])), Access::Filled, "what it has it sends");
        assert_eq!(access(&names(&[&[]]), &filled(&["key"])), Access::Open);
    }
}
