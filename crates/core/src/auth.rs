//! The Authorize panel's logic: the security schemes a document declares, the credentials the
//! reader entered for them, writing those credentials into a try-it request, and building and
//! reading the OAuth 2.0 and OpenID Connect exchanges. The page does the HTTP; nothing here
//! touches the network or the browser.

use std::collections::BTreeMap;

use base64::Engine;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use percent_encoding::{AsciiSet, CONTROLS, utf8_percent_encode};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::http::Request;

/// The most security schemes [`schemes`] reads from one document.
pub const MAX_SCHEMES: usize = 200;

/// The most scopes read from one flow or one discovery document.
pub const MAX_SCOPES: usize = 1000;

/// The largest token response [`read_token_response`] reads, in bytes.
pub const MAX_TOKEN_RESPONSE: usize = 1024 * 1024;

/// The longest redirect query or fragment [`read_callback`] reads, in bytes.
pub const MAX_CALLBACK: usize = 64 * 1024;

/// The most security requirement alternatives, and scheme names in one, that [`apply`] reads.
pub const MAX_REQUIREMENTS: usize = 100;

/// What [`apply`] writes instead of an API key when asked for placeholders.
pub const PLACEHOLDER_API_KEY: &str = "<API_KEY>";

/// What [`apply`] writes instead of a bearer or access token when asked for placeholders.
pub const PLACEHOLDER_TOKEN: &str = "<TOKEN>";

/// What [`apply`] writes after `Basic ` instead of the encoded user name and password when asked
/// for placeholders.
pub const PLACEHOLDER_BASIC: &str = "<BASE64(USERNAME:PASSWORD)>";

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
    let (description, kind) = match crate::openapi::resolve(doc, value) {
        Err(reason) => (own_description, SchemeKind::Unsupported(format!("The scheme {name}: {reason}."))),
        Ok(target) => {
            let description = own_description
                .or_else(|| target.get("description").and_then(Value::as_str).map(str::to_owned));
            (description, read_kind(name, target))
        }
    };
    Scheme { name: name.to_owned(), description, kind }
}

fn text<'a>(value: &'a Value, key: &str) -> Option<&'a str> {
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
fn split_at_any<'a>(s: &'a str, stops: &[char]) -> (&'a str, &'a str) {
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

/// A credential the reader entered or obtained for one scheme.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Credential {
    /// An API key (apiKey schemes).
    ApiKey(String),
    /// A user name and password (http `basic`).
    Basic {
        /// The user name.
        user: String,
        /// The password.
        password: String,
    },
    /// A token: an http `bearer` (or other http scheme) token or an OAuth 2.0 access token.
    Token {
        /// The token itself.
        value: String,
        /// When it expires, in milliseconds since the Unix epoch, if known.
        expires_at_ms: Option<f64>,
        /// The refresh token that came with it, if any.
        refresh_token: Option<String>,
        /// The scopes granted, when the server said (empty when it did not).
        scopes: Vec<String>,
    },
}

/// The credentials entered in the Authorize panel, by scheme name.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Credentials(pub BTreeMap<String, Credential>);

/// What [`apply`] did to a request.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Applied {
    /// The index of the security requirement alternative used, if one was.
    pub alternative: Option<usize>,
    /// The schemes whose credentials (or placeholders) were written, in requirement order.
    pub used: Vec<String>,
    /// The schemes that still need a credential, each once, in requirement order.
    pub missing: Vec<String>,
    /// Sentences for the reader: expired tokens, unusable schemes, overwritten headers.
    pub notes: Vec<String>,
}

impl Applied {
    fn note(&mut self, note: String) {
        if !self.notes.contains(&note) {
            self.notes.push(note);
        }
    }
}

/// Why a scheme of a requirement cannot be written: `None` when it can.
fn unusable(
    name: &str,
    scheme: Option<&Scheme>,
    credential: Option<&Credential>,
    now_ms: f64,
) -> Option<Option<String>> {
    let Some(scheme) = scheme else {
        return Some(Some(format!(
            "The security requirement names {name}, which components.securitySchemes does not define."
        )));
    };
    let wants_token = |credential: Option<&Credential>| match credential {
        None => Some(None),
        Some(Credential::Token { value, expires_at_ms, .. }) => {
            if value.is_empty() {
                Some(None)
            } else if expires_at_ms.is_some_and(|at| at <= now_ms) {
                Some(Some(format!("The token for {name} has expired; authorize again.")))
            } else if !header_safe(value) {
                Some(Some(format!(
                    "The token for {name} contains a line break or control character, which a header cannot carry."
                )))
            } else {
                None
            }
        }
        Some(_) => Some(Some(format!("The credential saved for {name} is not a token."))),
    };
    match &scheme.kind {
        SchemeKind::ApiKey { location, .. } => match credential {
            None => Some(None),
            Some(Credential::ApiKey(key)) if key.is_empty() => Some(None),
            Some(Credential::ApiKey(key)) if *location == ApiKeyIn::Header && !header_safe(key) => {
                Some(Some(format!(
                    "The API key for {name} contains a line break or control character, which a header cannot carry."
                )))
            }
            Some(Credential::ApiKey(_)) => None,
            Some(_) => Some(Some(format!("The credential saved for {name} is not an API key."))),
        },
        SchemeKind::Http { scheme, .. } if scheme == "basic" => match credential {
            None => Some(None),
            Some(Credential::Basic { user, password }) if user.is_empty() && password.is_empty() => {
                Some(None)
            }
            Some(Credential::Basic { .. }) => None,
            Some(_) => {
                Some(Some(format!("The credential saved for {name} is not a user name and password.")))
            }
        },
        SchemeKind::Http { .. } | SchemeKind::OAuth2 { .. } | SchemeKind::OpenIdConnect { .. } => {
            wants_token(credential)
        }
        SchemeKind::MutualTls => None,
        SchemeKind::Unsupported(reason) => Some(Some(format!("{name} cannot be used: {reason}"))),
    }
}

/// A header value the browser accepts: no line breaks or other control characters but tab.
fn header_safe(value: &str) -> bool {
    !value.chars().any(|c| (c.is_control() && c != '\t') || c == '\u{7f}')
}

/// Writes the credentials of a security requirement into a try-it request (or a code sample's).
///
/// `requirements` are the operation's alternatives ([`security_requirements`]): each lists the
/// schemes used together; an empty alternative means the operation may be called without
/// credentials, and no alternatives at all mean it has no security. The first non-empty
/// alternative whose schemes all have usable credentials is written (a token past its
/// `expires_at_ms` is not usable, and `notes` says so); otherwise, when an empty alternative
/// exists, nothing is written and nothing is missing; otherwise nothing is written and `missing`
/// lists the schemes of the alternative that lacks the fewest (the first of equals).
///
/// API keys go in their header, in the query (form-encoded; a parameter of the same name is
/// replaced and any `#fragment` dropped, as it is never sent) or in the `Cookie` header (merged
/// with one already there; bytes a cookie cannot carry are percent-encoded). http `basic` writes
/// `Authorization: Basic base64(user:password)`, `bearer` and the other http schemes
/// `Authorization: <Scheme> <token>`, and oauth2 and openIdConnect `Authorization: Bearer
/// <token>`. A header of the same name, in any case, is replaced rather than repeated. mutualTLS
/// writes nothing: the browser presents its client certificate itself.
///
/// With `placeholders`, the secrets are replaced by [`PLACEHOLDER_API_KEY`],
/// [`PLACEHOLDER_TOKEN`] and `Basic` [`PLACEHOLDER_BASIC`] (written as they are, not encoded,
/// so a code sample reads well), and when no non-empty alternative is fully usable the first
/// non-empty one is written anyway, even over an empty alternative: code samples always show how
/// to authenticate. `missing` then still lists what the reader has not entered.
pub fn apply(
    request: &mut Request,
    requirements: &[Vec<String>],
    schemes: &[Scheme],
    credentials: &Credentials,
    now_ms: f64,
    placeholders: bool,
) -> Applied {
    let mut applied = Applied::default();
    let alternatives: Vec<Vec<&str>> = requirements
        .iter()
        .take(MAX_REQUIREMENTS)
        .map(|alt| {
            let mut names: Vec<&str> = Vec::new();
            for name in alt.iter().take(MAX_REQUIREMENTS) {
                if !names.contains(&name.as_str()) {
                    names.push(name);
                }
            }
            names
        })
        .collect();
    let find = |name: &str| schemes.iter().find(|s| s.name == name);
    let mut missing_by_alternative: Vec<Vec<&str>> = Vec::with_capacity(alternatives.len());
    for names in &alternatives {
        let mut missing = Vec::new();
        for name in names {
            if let Some(why) = unusable(name, find(name), credentials.0.get(*name), now_ms) {
                if let Some(note) = why {
                    applied.note(note);
                }
                missing.push(*name);
            }
        }
        missing_by_alternative.push(missing);
    }
    let complete = alternatives
        .iter()
        .zip(&missing_by_alternative)
        .position(|(names, missing)| !names.is_empty() && missing.is_empty());
    let chosen = match complete {
        Some(index) => Some(index),
        None if placeholders => alternatives.iter().position(|names| !names.is_empty()),
        None => None,
    };
    let Some(index) = chosen else {
        if let Some(empty) = alternatives.iter().position(Vec::is_empty) {
            applied.alternative = Some(empty);
        } else if let Some(fewest) = missing_by_alternative
            .iter()
            .enumerate()
            .min_by_key(|(i, missing)| (missing.len(), *i))
            .map(|(_, missing)| missing)
        {
            applied.missing = fewest.iter().map(|s| (*s).to_owned()).collect();
        }
        return applied;
    };
    applied.alternative = Some(index);
    let names = alternatives.get(index).cloned().unwrap_or_default();
    let missing = missing_by_alternative.get(index).cloned().unwrap_or_default();
    applied.missing = missing.iter().map(|s| (*s).to_owned()).collect();
    let mut authorization_by: Option<&str> = None;
    for name in names {
        let Some(scheme) = find(name) else { continue };
        let credential = credentials.0.get(name).filter(|_| !missing.contains(&name));
        let written = write_scheme(request, scheme, credential, placeholders);
        match written {
            Written::Nothing => continue,
            Written::Authorization => {
                if let Some(previous) = authorization_by.replace(name) {
                    applied.note(format!(
                        "{previous} and {name} both use the Authorization header; only {name}'s is sent."
                    ));
                }
            }
            Written::Elsewhere => {}
            Written::Browser => applied.note(format!(
                "{name} uses a client certificate, which the browser presents itself when it has one for the server."
            )),
        }
        applied.used.push(name.to_owned());
    }
    applied
}

enum Written {
    Nothing,
    Authorization,
    Elsewhere,
    Browser,
}

/// Writes one scheme's credential (or its placeholder when `credential` is `None` or
/// `placeholders` is set).
fn write_scheme(
    request: &mut Request,
    scheme: &Scheme,
    credential: Option<&Credential>,
    placeholders: bool,
) -> Written {
    let secret = |credential: Option<&Credential>| -> Option<String> {
        match credential {
            Some(Credential::ApiKey(v)) | Some(Credential::Token { value: v, .. }) => Some(v.clone()),
            _ => None,
        }
    };
    match &scheme.kind {
        SchemeKind::ApiKey { name, location } => {
            let key = if placeholders { None } else { secret(credential) };
            match location {
                ApiKeyIn::Header => {
                    set_header(request, name, key.as_deref().unwrap_or(PLACEHOLDER_API_KEY));
                }
                ApiKeyIn::Query => {
                    let pair = match &key {
                        Some(key) => form_pair(name, key),
                        None => format!("{}={PLACEHOLDER_API_KEY}", form_encode(name)),
                    };
                    request.target = set_query_pair(&request.target, name, &pair);
                }
                ApiKeyIn::Cookie => {
                    let value = match &key {
                        Some(key) => utf8_percent_encode(key, COOKIE_VALUE).to_string(),
                        None => PLACEHOLDER_API_KEY.to_owned(),
                    };
                    set_cookie(request, name, &value);
                }
            }
            if *location == ApiKeyIn::Header && name.eq_ignore_ascii_case("authorization") {
                Written::Authorization
            } else {
                Written::Elsewhere
            }
        }
        SchemeKind::Http { scheme: http, .. } if http == "basic" => {
            let encoded = match credential {
                Some(Credential::Basic { user, password }) if !placeholders => {
                    STANDARD.encode(format!("{user}:{password}"))
                }
                _ => PLACEHOLDER_BASIC.to_owned(),
            };
            set_header(request, "Authorization", &format!("Basic {encoded}"));
            Written::Authorization
        }
        SchemeKind::Http { scheme: http, .. } => {
            let token = if placeholders { None } else { secret(credential) };
            let value = format!("{} {}", capitalise(http), token.as_deref().unwrap_or(PLACEHOLDER_TOKEN));
            set_header(request, "Authorization", &value);
            Written::Authorization
        }
        SchemeKind::OAuth2 { .. } | SchemeKind::OpenIdConnect { .. } => {
            let token = if placeholders { None } else { secret(credential) };
            set_header(
                request,
                "Authorization",
                &format!("Bearer {}", token.as_deref().unwrap_or(PLACEHOLDER_TOKEN)),
            );
            Written::Authorization
        }
        SchemeKind::MutualTls => Written::Browser,
        SchemeKind::Unsupported(_) => Written::Nothing,
    }
}

/// `digest` -> `Digest`: the http scheme as an Authorization header writes it.
fn capitalise(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map(|first| first.to_ascii_uppercase().to_string() + chars.as_str()).unwrap_or_default()
}

/// Bytes outside RFC 6265's cookie-octet; `%` stays, so an already encoded value is kept.
const COOKIE_VALUE: &AsciiSet = &CONTROLS.add(b' ').add(b'"').add(b',').add(b';').add(b'\\');

/// Replaces every header named `name` (in any case) with one `name: value`, where the first was.
fn set_header(request: &mut Request, name: &str, value: &str) {
    let mut placed = false;
    request.headers.retain_mut(|(n, v)| {
        if !n.eq_ignore_ascii_case(name) {
            return true;
        }
        if placed {
            return false;
        }
        placed = true;
        *n = name.to_owned();
        *v = value.to_owned();
        true
    });
    if !placed {
        request.headers.push((name.to_owned(), value.to_owned()));
    }
}

/// Sets the cookie `name` in the request's `Cookie` header (merging several into one).
fn set_cookie(request: &mut Request, name: &str, value: &str) {
    let mut cookies: Vec<String> = request
        .headers
        .iter()
        .filter(|(n, _)| n.eq_ignore_ascii_case("cookie"))
        .flat_map(|(_, v)| v.split(';'))
        .map(str::trim)
        .filter(|c| !c.is_empty() && c.split('=').next().map(str::trim) != Some(name))
        .map(str::to_owned)
        .collect();
    cookies.push(format!("{name}={value}"));
    set_header(request, "Cookie", &cookies.join("; "));
}

fn form_encode(s: &str) -> String {
    form_urlencoded::byte_serialize(s.as_bytes()).collect()
}

fn form_pair(name: &str, value: &str) -> String {
    format!("{}={}", form_encode(name), form_encode(value))
}

/// The query segments of `target` (fragment dropped) without those named `name`, then `pair`.
fn set_query_pair(target: &str, name: &str, pair: &str) -> String {
    set_query_pairs(target, &[name], &[pair.to_owned()])
}

/// Drops the fragment, removes the query parameters named in `names` and appends `pairs`
/// (already encoded), keeping the other parameters exactly as written.
fn set_query_pairs(target: &str, names: &[&str], pairs: &[String]) -> String {
    let (without_fragment, _) = split_at_any(target, &['#']);
    let (path, query) = match without_fragment.split_once('?') {
        Some((path, query)) => (path, query),
        None => (without_fragment, ""),
    };
    let mut segments: Vec<String> = query
        .split('&')
        .filter(|segment| {
            if segment.is_empty() {
                return false;
            }
            let raw_name = segment.split('=').next().unwrap_or_default();
            let decoded: String = form_urlencoded::parse(raw_name.as_bytes())
                .next()
                .map(|(n, _)| n.into_owned())
                .unwrap_or_default();
            !names.contains(&decoded.as_str())
        })
        .map(str::to_owned)
        .collect();
    segments.extend(pairs.iter().cloned());
    if segments.is_empty() { path.to_owned() } else { format!("{path}?{}", segments.join("&")) }
}

/// A PKCE code verifier (RFC 7636) from 32 random bytes: base64url without padding, 43
/// characters. The page supplies the randomness (`crypto.getRandomValues`).
#[must_use]
pub fn code_verifier(random: &[u8; 32]) -> String {
    URL_SAFE_NO_PAD.encode(random)
}

/// The PKCE `S256` code challenge of a verifier: base64url (no padding) of its SHA-256.
#[must_use]
pub fn code_challenge(verifier: &str) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()))
}

/// What the authorization endpoint is asked to answer with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ResponseType {
    /// `code`: an authorization code in the redirect's query (authorization code flow).
    Code,
    /// `token`: an access token in the redirect's fragment (implicit flow).
    Token,
}

impl ResponseType {
    /// The `response_type` parameter's value.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Code => "code",
            Self::Token => "token",
        }
    }
}

/// The parameters of a sign-in at an authorization endpoint.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuthorizeParams {
    /// The client id the reader entered.
    pub client_id: String,
    /// Where the authorization server sends the reader back (the console's callback page); left
    /// out when empty.
    pub redirect_uri: String,
    /// The scopes asked for; left out when empty.
    pub scopes: Vec<String>,
    /// An unguessable value the callback must bring back unchanged.
    pub state: String,
    /// The PKCE `S256` challenge ([`code_challenge`]), for the authorization code flow.
    pub code_challenge: Option<String>,
    /// `code` or `token`.
    pub response_type: ResponseType,
}

/// The address to send the reader to for signing in: `authorization_url` with
/// `response_type`, `client_id`, `redirect_uri`, `scope` (space-separated), `state` and, with
/// PKCE, `code_challenge` and `code_challenge_method=S256` added to its query. Parameters it
/// already has are kept unless these replace them; a fragment is dropped (RFC 6749 3.1 allows
/// none).
#[must_use]
pub fn authorize_url(authorization_url: &str, p: &AuthorizeParams) -> String {
    let mut pairs: Vec<(&str, String)> =
        vec![("response_type", p.response_type.as_str().to_owned()), ("client_id", p.client_id.clone())];
    if !p.redirect_uri.is_empty() {
        pairs.push(("redirect_uri", p.redirect_uri.clone()));
    }
    if !p.scopes.is_empty() {
        pairs.push(("scope", p.scopes.join(" ")));
    }
    pairs.push(("state", p.state.clone()));
    if let Some(challenge) = &p.code_challenge {
        pairs.push(("code_challenge", challenge.clone()));
        pairs.push(("code_challenge_method", "S256".to_owned()));
    }
    let names: Vec<&str> = pairs.iter().map(|(n, _)| *n).collect();
    let encoded: Vec<String> = pairs.iter().map(|(n, v)| form_pair(n, v)).collect();
    set_query_pairs(authorization_url, &names, &encoded)
}

/// A token request's grant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Grant {
    /// Exchanges the code the callback brought.
    AuthorizationCode {
        /// The code from the callback.
        code: String,
        /// The `redirect_uri` the sign-in used.
        redirect_uri: String,
        /// The PKCE verifier whose challenge the sign-in sent.
        code_verifier: Option<String>,
    },
    /// Asks for a token for the client itself.
    ClientCredentials,
    /// Trades a user name and password for a token.
    Password {
        /// The user name.
        username: String,
        /// The password.
        password: String,
    },
    /// Trades a refresh token for a new access token.
    RefreshToken {
        /// The refresh token.
        refresh_token: String,
    },
}

/// How a confidential client proves its identity at the token endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ClientAuth {
    /// `Authorization: Basic` with the form-encoded id and secret (RFC 6749 2.3.1).
    Basic,
    /// `client_id` and `client_secret` in the request body.
    Body,
}

/// The token request for `grant`: `POST token_url` with a form-encoded body,
/// `Content-Type: application/x-www-form-urlencoded` and `Accept: application/json`.
///
/// With a client secret, the client authenticates as `auth` says; without one (or with an empty
/// one) it is a public client and `client_id` goes in the body. `scopes` are sent (as `scope`)
/// for every grant but the authorization code, whose scopes the sign-in already chose.
#[must_use]
pub fn token_request(
    token_url: &str,
    grant: &Grant,
    client_id: &str,
    client_secret: Option<&str>,
    scopes: &[String],
    auth: ClientAuth,
) -> Request {
    let mut body = form_urlencoded::Serializer::new(String::new());
    let mut with_scope = true;
    match grant {
        Grant::AuthorizationCode { code, redirect_uri, code_verifier } => {
            body.append_pair("grant_type", "authorization_code").append_pair("code", code);
            if !redirect_uri.is_empty() {
                body.append_pair("redirect_uri", redirect_uri);
            }
            if let Some(verifier) = code_verifier {
                body.append_pair("code_verifier", verifier);
            }
            with_scope = false;
        }
        Grant::ClientCredentials => {
            body.append_pair("grant_type", "client_credentials");
        }
        Grant::Password { username, password } => {
            body.append_pair("grant_type", "password")
                .append_pair("username", username)
                .append_pair("password", password);
        }
        Grant::RefreshToken { refresh_token } => {
            body.append_pair("grant_type", "refresh_token").append_pair("refresh_token", refresh_token);
        }
    }
    if with_scope && !scopes.is_empty() {
        body.append_pair("scope", &scopes.join(" "));
    }
    let mut request = Request::new("POST", token_url)
        .header("Content-Type", "application/x-www-form-urlencoded")
        .header("Accept", "application/json");
    match client_secret.filter(|s| !s.is_empty()) {
        Some(secret) if auth == ClientAuth::Basic => {
            let pair = format!("{}:{}", form_encode(client_id), form_encode(secret));
            request = request.header("Authorization", format!("Basic {}", STANDARD.encode(pair)));
        }
        Some(secret) => {
            body.append_pair("client_id", client_id).append_pair("client_secret", secret);
        }
        None => {
            if !client_id.is_empty() {
                body.append_pair("client_id", client_id);
            }
        }
    }
    request.body(body.finish())
}

/// A short, single-line excerpt of a body for a message.
fn excerpt(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(body.get(..200).unwrap_or(body));
    let line: String = text.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    let line = line.trim();
    if body.len() > 200 { format!("{line}…") } else { line.to_owned() }
}

/// The sentence for an OAuth 2.0 error answer (`error`, `error_description`, `error_uri`).
fn oauth_error(error: &str, description: Option<&str>, uri: Option<&str>) -> String {
    let mut message = format!("The authorization server refused: {error}");
    if let Some(description) = description.filter(|d| !d.is_empty()) {
        message.push_str(&format!(" ({description})"));
    }
    if let Some(uri) = uri.filter(|u| !u.is_empty()) {
        message.push_str(&format!("; see {uri}"));
    }
    message.push('.');
    message
}

/// `expires_in` (seconds, a number or a numeric string) as an expiry time.
fn expiry(expires_in: Option<&Value>, now_ms: f64) -> Option<f64> {
    let seconds = match expires_in? {
        Value::Number(n) => n.as_f64()?,
        Value::String(s) => s.trim().parse::<f64>().ok()?,
        _ => return None,
    };
    (seconds.is_finite() && seconds >= 0.0).then(|| now_ms + seconds.min(1e12) * 1000.0)
}

/// Checks `token_type`: only bearer tokens can be sent; a missing type is taken as bearer.
fn check_token_type(token_type: Option<&str>) -> Result<(), String> {
    match token_type {
        None => Ok(()),
        Some(t) if t.eq_ignore_ascii_case("bearer") => Ok(()),
        Some(t) => Err(format!(
            "The authorization server issued a {t} token; this console can only send bearer tokens."
        )),
    }
}

fn split_scopes(scope: Option<&str>) -> Vec<String> {
    scope
        .map(|s| s.split_ascii_whitespace().take(MAX_SCOPES).map(str::to_owned).collect())
        .unwrap_or_default()
}

/// Reads the token endpoint's answer into a [`Credential::Token`]: `access_token`,
/// `token_type` (bearer, in any case; a missing one is taken as bearer), `expires_in` (as
/// `expires_at_ms` from `now_ms`), `refresh_token` and `scope`. OAuth error answers, bodies that
/// are not JSON, server failures and bodies over [`MAX_TOKEN_RESPONSE`] become a sentence. A
/// refresh answer may come without a refresh token: the caller keeps the old one then.
pub fn read_token_response(status: u16, body: &[u8], now_ms: f64) -> Result<Credential, String> {
    if body.len() > MAX_TOKEN_RESPONSE {
        return Err(format!(
            "The token endpoint answered HTTP {status} with {} bytes, more than the 1 MB this console reads.",
            body.len()
        ));
    }
    let json: Option<Value> = serde_json::from_slice(body).ok().filter(Value::is_object);
    let Some(json) = json else {
        let what = if body.iter().all(u8::is_ascii_whitespace) {
            "an empty body".to_owned()
        } else {
            format!("a body that is not a JSON object: {}", excerpt(body))
        };
        return Err(if status >= 500 {
            format!("The authorization server failed (HTTP {status}) and answered with {what}.")
        } else {
            format!("The token endpoint answered HTTP {status} with {what}.")
        });
    };
    if let Some(error) = json.get("error").and_then(Value::as_str) {
        return Err(oauth_error(
            error,
            json.get("error_description").and_then(Value::as_str),
            json.get("error_uri").and_then(Value::as_str),
        ));
    }
    if status >= 500 {
        return Err(format!("The authorization server failed (HTTP {status}) and issued no token."));
    }
    if !(200..300).contains(&status) {
        return Err(format!("The token endpoint answered HTTP {status} without a token or an error code."));
    }
    let Some(access_token) = text(&json, "access_token") else {
        return Err(format!("The token endpoint answered HTTP {status} without an access_token."));
    };
    match json.get("token_type") {
        None | Some(Value::Null) => {}
        Some(Value::String(t)) => check_token_type(Some(t))?,
        Some(_) => return Err("The token response's token_type is not a string.".into()),
    }
    Ok(Credential::Token {
        value: access_token.to_owned(),
        expires_at_ms: expiry(json.get("expires_in"), now_ms),
        refresh_token: text(&json, "refresh_token").map(str::to_owned),
        scopes: split_scopes(json.get("scope").and_then(Value::as_str)),
    })
}

/// What the authorization server's redirect back to the console brought.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Callback {
    /// An authorization code to exchange with [`token_request`].
    Code {
        /// The code.
        code: String,
        /// The state, to compare with the one the sign-in sent.
        state: String,
    },
    /// An access token (implicit flow).
    Token {
        /// The token as a [`Credential::Token`].
        credential: Credential,
        /// The state, to compare with the one the sign-in sent.
        state: String,
    },
    /// The authorization server refused; the message is a sentence for the reader.
    Error {
        /// What went wrong, with the server's `error` and `error_description`.
        message: String,
        /// The state, if the server sent it back.
        state: Option<String>,
    },
}

/// Reads the redirect back to the console: the authorization code flow answers in the query
/// (`code`, `state`), the implicit flow in the fragment (`access_token`, `token_type`,
/// `expires_in`, `scope`, `state`), and a refusal (`error`, `error_description`, `error_uri`) in
/// either. A leading `?` or `#` is ignored. An answer with no state, or none of these, is an
/// error, as is a query or fragment over [`MAX_CALLBACK`] bytes.
pub fn read_callback(query: &str, fragment: &str, now_ms: f64) -> Result<Callback, String> {
    if query.len() > MAX_CALLBACK || fragment.len() > MAX_CALLBACK {
        return Err("The redirect's address is too long to be a sign-in answer.".into());
    }
    let parse = |s: &str| -> Vec<(String, String)> {
        form_urlencoded::parse(s.trim_start_matches(['?', '#']).as_bytes()).into_owned().collect()
    };
    let query = parse(query);
    let fragment = parse(fragment);
    let get = |pairs: &[(String, String)], key: &str| -> Option<String> {
        pairs.iter().find(|(k, v)| k == key && !v.is_empty()).map(|(_, v)| v.clone())
    };
    for pairs in [&fragment, &query] {
        if let Some(error) = get(pairs, "error") {
            return Ok(Callback::Error {
                message: oauth_error(
                    &error,
                    get(pairs, "error_description").as_deref(),
                    get(pairs, "error_uri").as_deref(),
                ),
                state: get(pairs, "state"),
            });
        }
    }
    let no_state =
        || "The sign-in answer has no state, so it cannot be matched to a sign-in this page started.";
    if let Some(token) = get(&fragment, "access_token") {
        check_token_type(get(&fragment, "token_type").as_deref())?;
        let state = get(&fragment, "state").ok_or_else(no_state)?;
        let expires_in = get(&fragment, "expires_in").map(Value::String);
        let credential = Credential::Token {
            value: token,
            expires_at_ms: expiry(expires_in.as_ref(), now_ms),
            refresh_token: None,
            scopes: split_scopes(get(&fragment, "scope").as_deref()),
        };
        return Ok(Callback::Token { credential, state });
    }
    for pairs in [&query, &fragment] {
        if let Some(code) = get(pairs, "code") {
            let state = get(pairs, "state").ok_or_else(no_state)?;
            return Ok(Callback::Code { code, state });
        }
    }
    Err("The redirect carries no authorization code, access token or error.".into())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use serde_json::json;

    fn doc() -> Value {
        json!({
            "openapi": "3.1.0",
            "components": {
                "securitySchemes": {
                    "key_header": {"type": "apiKey", "name": "X-API-Key", "in": "header", "description": "Header key"},
                    "key_query": {"type": "apiKey", "name": "api key", "in": "query"},
                    "key_cookie": {"type": "apiKey", "name": "session", "in": "cookie"},
                    "basic": {"type": "http", "scheme": "Basic"},
                    "bearer": {"type": "http", "scheme": "bearer", "bearerFormat": "JWT"},
                    "digest": {"type": "http", "scheme": "digest"},
                    "oauth": {
                        "type": "oauth2",
                        "flows": {
                            "authorizationCode": {
                                "authorizationUrl": "/oauth/authorize",
                                "tokenUrl": "https://auth.example.com/token",
                                "refreshUrl": "https://auth.example.com/refresh",
                                "scopes": {"read:pets": "Read pets", "write:pets": "Change pets"}
                            },
                            "clientCredentials": {"tokenUrl": "/token", "scopes": {}},
                            "deviceAuthorization": {"deviceAuthorizationUrl": "/device", "tokenUrl": "/token", "scopes": {}}
                        }
                    },
                    "oidc": {"type": "openIdConnect", "openIdConnectUrl": "https://auth.example.com/.well-known/openid-configuration"},
                    "mtls": {"type": "mutualTLS"},
                    "referenced": {"$ref": "#/components/x-schemes/shared", "description": "Own words"},
                    "referenced_plain": {"$ref": "#/components/x-schemes/shared"},
                    "broken_ref": {"$ref": "#/components/x-schemes/nothing"},
                    "weird": {"type": "kerberos"},
                    "no_type": {"name": "x"},
                    "bad_in": {"type": "apiKey", "name": "k", "in": "body"},
                    "no_oidc_url": {"type": "openIdConnect"}
                },
                "x-schemes": {"shared": {"type": "http", "scheme": "BEARER", "description": "Shared"}}
            }
        })
    }

    fn find<'a>(schemes: &'a [Scheme], name: &str) -> &'a Scheme {
        schemes.iter().find(|s| s.name == name).unwrap()
    }

    fn unsupported(scheme: &Scheme) -> &str {
        match &scheme.kind {
            SchemeKind::Unsupported(reason) => reason,
            other => panic!("expected Unsupported, got {other:?}"),
        }
    }

    #[test]
    fn schemes_are_read_in_document_order() {
        let all = schemes(&doc());
        let names: Vec<&str> = all.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "key_header",
                "key_query",
                "key_cookie",
                "basic",
                "bearer",
                "digest",
                "oauth",
                "oidc",
                "mtls",
                "referenced",
                "referenced_plain",
                "broken_ref",
                "weird",
                "no_type",
                "bad_in",
                "no_oidc_url"
            ]
        );
    }

    #[test]
    fn api_key_and_http_schemes() {
        let all = schemes(&doc());
        assert_eq!(
            find(&all, "key_header"),
            &Scheme {
                name: "key_header".into(),
                description: Some("Header key".into()),
                kind: SchemeKind::ApiKey { name: "X-API-Key".into(), location: ApiKeyIn::Header },
            }
        );
        assert_eq!(
            find(&all, "key_query").kind,
            SchemeKind::ApiKey { name: "api key".into(), location: ApiKeyIn::Query }
        );
        assert_eq!(
            find(&all, "key_cookie").kind,
            SchemeKind::ApiKey { name: "session".into(), location: ApiKeyIn::Cookie }
        );
        assert_eq!(
            find(&all, "basic").kind,
            SchemeKind::Http { scheme: "basic".into(), bearer_format: None }
        );
        assert_eq!(
            find(&all, "bearer").kind,
            SchemeKind::Http { scheme: "bearer".into(), bearer_format: Some("JWT".into()) }
        );
        assert_eq!(find(&all, "mtls").kind, SchemeKind::MutualTls);
        assert_eq!(find(&all, "mtls").description, None);
    }

    #[test]
    fn oauth2_and_openid_connect_schemes() {
        let all = schemes(&doc());
        let SchemeKind::OAuth2 { flows } = &find(&all, "oauth").kind else { panic!("not oauth2") };
        assert_eq!(
            flows,
            &[
                OAuthFlow {
                    kind: FlowKind::AuthorizationCode,
                    authorization_url: Some("/oauth/authorize".into()),
                    token_url: Some("https://auth.example.com/token".into()),
                    refresh_url: Some("https://auth.example.com/refresh".into()),
                    scopes: vec![
                        ("read:pets".into(), "Read pets".into()),
                        ("write:pets".into(), "Change pets".into())
                    ],
                },
                OAuthFlow {
                    kind: FlowKind::ClientCredentials,
                    authorization_url: None,
                    token_url: Some("/token".into()),
                    refresh_url: None,
                    scopes: vec![],
                },
            ]
        );
        assert_eq!(
            find(&all, "oidc").kind,
            SchemeKind::OpenIdConnect {
                url: "https://auth.example.com/.well-known/openid-configuration".into(),
                flows: vec![]
            }
        );
    }

    #[test]
    fn referenced_schemes_are_followed() {
        let all = schemes(&doc());
        let referenced = find(&all, "referenced");
        assert_eq!(referenced.kind, SchemeKind::Http { scheme: "bearer".into(), bearer_format: None });
        assert_eq!(referenced.description.as_deref(), Some("Own words"));
        assert_eq!(find(&all, "referenced_plain").description.as_deref(), Some("Shared"));
        assert!(unsupported(find(&all, "broken_ref")).contains("does not resolve"));
    }

    #[test]
    fn unreadable_schemes_say_why() {
        let all = schemes(&doc());
        assert_eq!(
            unsupported(find(&all, "weird")),
            "The scheme weird has the type kerberos, which this console does not know."
        );
        assert_eq!(unsupported(find(&all, "no_type")), "The scheme no_type has no type.");
        assert!(unsupported(find(&all, "bad_in")).contains("goes in body"));
        assert!(unsupported(find(&all, "no_oidc_url")).contains("openIdConnectUrl"));
    }

    #[test]
    fn schemes_are_bounded_and_absent_ones_are_empty() {
        assert!(schemes(&json!({"openapi": "3.0.3"})).is_empty());
        let many: serde_json::Map<String, Value> =
            (0..500).map(|i| (format!("s{i}"), json!({"type": "mutualTLS"}))).collect();
        let doc = json!({"components": {"securitySchemes": many}});
        let read = schemes(&doc);
        assert_eq!(read.len(), MAX_SCHEMES);
        assert_eq!(read.last().unwrap().name, "s199");
    }

    #[test]
    fn security_requirements_prefer_the_operation() {
        let doc = json!({"security": [{"a": []}, {"b": [], "c": ["x"]}]});
        assert_eq!(
            security_requirements(&doc, &json!({})),
            vec![vec!["a".to_owned()], vec!["b".into(), "c".into()]]
        );
        assert_eq!(security_requirements(&doc, &json!({"security": [{}]})), vec![Vec::<String>::new()]);
        assert!(security_requirements(&doc, &json!({"security": []})).is_empty());
    }

    #[test]
    fn odd_inputs_do_not_panic() {
        let odd = [
            "",
            ":",
            "//",
            "/",
            "#",
            "?",
            "é:ü",
            "ü/ä/../..",
            "a:b:c",
            "http://",
            "http://h",
            "?#",
            "%",
            "&&=&=",
            "..",
            "./",
        ];
        for base in odd {
            for url in odd {
                let _ = resolve_url(base, url);
                let _ = read_callback(base, url, f64::NAN);
                let _ = authorize_url(base, &params());
                let mut request = Request::new("GET", base).header("Cookie", url);
                let credentials = creds(&[
                    ("query", Credential::ApiKey(url.into())),
                    ("cookie", Credential::ApiKey(url.into())),
                ]);
                let _ = apply(
                    &mut request,
                    &reqs(&[&["query", "cookie"]]),
                    &test_schemes(),
                    &credentials,
                    f64::NAN,
                    false,
                );
                let _ = read_token_response(200, url.as_bytes(), f64::INFINITY);
            }
        }
        assert_eq!(resolve_url("http://h", "ü"), "http://h/ü");
        let body = br#"{"access_token":"a","expires_in":1e308}"#;
        let Ok(Credential::Token { expires_at_ms: Some(at), .. }) = read_token_response(200, body, 0.0)
        else {
            panic!("expected a token")
        };
        assert!(at.is_finite());
    }

    #[test]
    fn resolve_url_cases() {
        let base = "https://api.example.com:8443/v1/docs/openapi.json?x=1#top";
        assert_eq!(resolve_url(base, "https://auth.example.com/a"), "https://auth.example.com/a");
        assert_eq!(resolve_url(base, "/oauth/authorize"), "https://api.example.com:8443/oauth/authorize");
        assert_eq!(
            resolve_url(base, "oauth/token?a=b"),
            "https://api.example.com:8443/v1/docs/oauth/token?a=b"
        );
        assert_eq!(resolve_url(base, "../token"), "https://api.example.com:8443/v1/token");
        assert_eq!(resolve_url(base, "./../../../../token"), "https://api.example.com:8443/token");
        assert_eq!(resolve_url(base, "//other.example.com/t"), "https://other.example.com/t");
        assert_eq!(resolve_url(base, "?y=2"), "https://api.example.com:8443/v1/docs/openapi.json?y=2");
        assert_eq!(resolve_url("https://example.com", "token"), "https://example.com/token");
        assert_eq!(resolve_url("http://localhost:8080/", "token"), "http://localhost:8080/token");
        assert_eq!(resolve_url("/docs/openapi.json", "token"), "/docs/token");
    }

    fn sch(name: &str, kind: SchemeKind) -> Scheme {
        Scheme { name: name.into(), description: None, kind }
    }

    fn test_schemes() -> Vec<Scheme> {
        vec![
            sch("header", SchemeKind::ApiKey { name: "X-API-Key".into(), location: ApiKeyIn::Header }),
            sch("query", SchemeKind::ApiKey { name: "api key".into(), location: ApiKeyIn::Query }),
            sch("cookie", SchemeKind::ApiKey { name: "session".into(), location: ApiKeyIn::Cookie }),
            sch("basic", SchemeKind::Http { scheme: "basic".into(), bearer_format: None }),
            sch("bearer", SchemeKind::Http { scheme: "bearer".into(), bearer_format: None }),
            sch("digest", SchemeKind::Http { scheme: "digest".into(), bearer_format: None }),
            sch("oauth", SchemeKind::OAuth2 { flows: vec![] }),
            sch("oidc", SchemeKind::OpenIdConnect { url: "https://x/.well-known".into(), flows: vec![] }),
            sch("mtls", SchemeKind::MutualTls),
            sch("weird", SchemeKind::Unsupported("The scheme weird is odd.".into())),
        ]
    }

    fn token(value: &str) -> Credential {
        Credential::Token { value: value.into(), expires_at_ms: None, refresh_token: None, scopes: vec![] }
    }

    fn creds(list: &[(&str, Credential)]) -> Credentials {
        Credentials(list.iter().map(|(n, c)| ((*n).to_owned(), c.clone())).collect())
    }

    fn reqs(list: &[&[&str]]) -> Vec<Vec<String>> {
        list.iter().map(|alt| alt.iter().map(|s| (*s).to_owned()).collect()).collect()
    }

    fn run(
        target: &str,
        requirements: &[&[&str]],
        credentials: &Credentials,
        placeholders: bool,
    ) -> (Request, Applied) {
        let mut request = Request::new("GET", target);
        let applied =
            apply(&mut request, &reqs(requirements), &test_schemes(), credentials, 1000.0, placeholders);
        (request, applied)
    }

    #[test]
    fn api_key_in_header() {
        let (request, applied) =
            run("/pets", &[&["header"]], &creds(&[("header", Credential::ApiKey("s3cret".into()))]), false);
        assert_eq!(request.headers, vec![("X-API-Key".to_owned(), "s3cret".to_owned())]);
        assert_eq!(
            applied,
            Applied { alternative: Some(0), used: vec!["header".into()], missing: vec![], notes: vec![] }
        );
    }

    #[test]
    fn api_key_in_query_is_encoded_and_keeps_the_query() {
        let credentials = creds(&[("query", Credential::ApiKey("a&b =c".into()))]);
        let (request, _) = run("/pets", &[&["query"]], &credentials, false);
        assert_eq!(request.target, "/pets?api+key=a%26b+%3Dc");
        let (request, _) =
            run("https://h.example/pets?status=sold&limit=5#frag", &[&["query"]], &credentials, false);
        assert_eq!(request.target, "https://h.example/pets?status=sold&limit=5&api+key=a%26b+%3Dc");
        let (request, _) = run("/pets?api%20key=old&x=1", &[&["query"]], &credentials, false);
        assert_eq!(request.target, "/pets?x=1&api+key=a%26b+%3Dc");
    }

    #[test]
    fn api_key_in_cookie_merges_with_existing_cookies() {
        let credentials = creds(&[("cookie", Credential::ApiKey("v a;l".into()))]);
        let mut request = Request::new("GET", "/pets")
            .header("cookie", "theme=dark; session=old")
            .header("Cookie", "lang=en");
        let applied = apply(&mut request, &reqs(&[&["cookie"]]), &test_schemes(), &credentials, 0.0, false);
        assert_eq!(
            request.headers,
            vec![("Cookie".to_owned(), "theme=dark; lang=en; session=v%20a%3Bl".to_owned())]
        );
        assert_eq!(applied.used, ["cookie"]);
        let (request, _) =
            run("/pets", &[&["cookie"]], &creds(&[("cookie", Credential::ApiKey("abc".into()))]), false);
        assert_eq!(request.header_value("cookie"), Some("session=abc"));
    }

    #[test]
    fn http_schemes_write_authorization() {
        let (request, _) = run(
            "/p",
            &[&["basic"]],
            &creds(&[(
                "basic",
                Credential::Basic { user: "aladdin".into(), password: "open sesame".into() },
            )]),
            false,
        );
        assert_eq!(request.header_value("authorization"), Some("Basic YWxhZGRpbjpvcGVuIHNlc2FtZQ=="));
        let (request, _) = run("/p", &[&["bearer"]], &creds(&[("bearer", token("t0k"))]), false);
        assert_eq!(request.header_value("Authorization"), Some("Bearer t0k"));
        let (request, _) = run("/p", &[&["digest"]], &creds(&[("digest", token("d1"))]), false);
        assert_eq!(request.header_value("Authorization"), Some("Digest d1"));
        let (request, _) = run("/p", &[&["oauth"]], &creds(&[("oauth", token("acc"))]), false);
        assert_eq!(request.header_value("Authorization"), Some("Bearer acc"));
        let (request, _) = run("/p", &[&["oidc"]], &creds(&[("oidc", token("id"))]), false);
        assert_eq!(request.header_value("Authorization"), Some("Bearer id"));
    }

    #[test]
    fn existing_headers_are_replaced_not_repeated() {
        let mut request = Request::new("GET", "/p")
            .header("authorization", "Bearer stale")
            .header("Accept", "application/json")
            .header("AUTHORIZATION", "Basic stale")
            .header("x-api-key", "old");
        let credentials = creds(&[("bearer", token("fresh")), ("header", Credential::ApiKey("new".into()))]);
        apply(&mut request, &reqs(&[&["bearer", "header"]]), &test_schemes(), &credentials, 0.0, false);
        assert_eq!(
            request.headers,
            vec![
                ("Authorization".to_owned(), "Bearer fresh".to_owned()),
                ("Accept".to_owned(), "application/json".to_owned()),
                ("X-API-Key".to_owned(), "new".to_owned()),
            ]
        );
    }

    #[test]
    fn first_complete_alternative_wins() {
        let credentials = creds(&[
            ("query", Credential::ApiKey("q".into())),
            ("cookie", Credential::ApiKey("c".into())),
            ("bearer", token("b")),
        ]);
        // The first alternative lacks "header"; the second has both of its schemes.
        let (request, applied) =
            run("/p", &[&["header", "bearer"], &["query", "cookie"], &["bearer"]], &credentials, false);
        assert_eq!(applied.alternative, Some(1));
        assert_eq!(applied.used, ["query", "cookie"]);
        assert!(applied.missing.is_empty());
        assert_eq!(request.target, "/p?api+key=q");
        assert_eq!(request.header_value("Cookie"), Some("session=c"));
        assert_eq!(request.header_value("Authorization"), None);
    }

    #[test]
    fn empty_alternative_sends_without_credentials() {
        let (request, applied) = run("/p", &[&["bearer"], &[]], &Credentials::default(), false);
        assert_eq!(applied, Applied { alternative: Some(1), used: vec![], missing: vec![], notes: vec![] });
        assert!(request.headers.is_empty());
        // Optional security: credentials are still sent when entered, even if {} comes first.
        let (request, applied) = run("/p", &[&[], &["bearer"]], &creds(&[("bearer", token("b"))]), false);
        assert_eq!(applied.alternative, Some(1));
        assert_eq!(request.header_value("Authorization"), Some("Bearer b"));
    }

    #[test]
    fn no_security_writes_nothing() {
        let (request, applied) = run("/p", &[], &creds(&[("bearer", token("b"))]), false);
        assert_eq!(applied, Applied::default());
        assert!(request.headers.is_empty());
        assert_eq!(request.target, "/p");
    }

    #[test]
    fn missing_names_the_closest_alternative_once() {
        let credentials = creds(&[("cookie", Credential::ApiKey("c".into()))]);
        let (request, applied) = run(
            "/p",
            &[&["header", "query", "header"], &["cookie", "bearer", "bearer"], &["basic", "digest"]],
            &credentials,
            false,
        );
        assert_eq!(applied.alternative, None);
        assert_eq!(applied.missing, ["bearer"]);
        assert!(applied.used.is_empty());
        assert!(request.headers.is_empty());
        // Ties go to the first.
        let (_, applied) =
            run("/p", &[&["header", "query"], &["basic", "digest"]], &Credentials::default(), false);
        assert_eq!(applied.missing, ["header", "query"]);
    }

    #[test]
    fn expired_token_is_not_used_and_noted() {
        let expired = Credential::Token {
            value: "old".into(),
            expires_at_ms: Some(999.0),
            refresh_token: None,
            scopes: vec![],
        };
        let valid = Credential::Token {
            value: "new".into(),
            expires_at_ms: Some(1001.0),
            refresh_token: None,
            scopes: vec![],
        };
        let (request, applied) = run(
            "/p",
            &[&["oauth"], &["bearer"]],
            &creds(&[("oauth", expired.clone()), ("bearer", valid)]),
            false,
        );
        assert_eq!(applied.alternative, Some(1));
        assert_eq!(request.header_value("Authorization"), Some("Bearer new"));
        assert_eq!(applied.notes, ["The token for oauth has expired; authorize again."]);
        let (request, applied) = run("/p", &[&["oauth"]], &creds(&[("oauth", expired)]), false);
        assert_eq!(applied.missing, ["oauth"]);
        assert_eq!(request.header_value("Authorization"), None);
        assert_eq!(applied.notes.len(), 1);
    }

    #[test]
    fn wrong_undefined_and_unsupported_schemes_are_missing_with_notes() {
        let (_, applied) =
            run("/p", &[&["bearer"]], &creds(&[("bearer", Credential::ApiKey("k".into()))]), false);
        assert_eq!(applied.missing, ["bearer"]);
        assert_eq!(applied.notes, ["The credential saved for bearer is not a token."]);
        let (_, applied) = run("/p", &[&["ghost"]], &Credentials::default(), false);
        assert_eq!(applied.missing, ["ghost"]);
        assert!(applied.notes[0].contains("does not define"));
        let (_, applied) = run("/p", &[&["weird"]], &Credentials::default(), false);
        assert_eq!(applied.missing, ["weird"]);
        assert_eq!(applied.notes, ["weird cannot be used: The scheme weird is odd."]);
        let (request, applied) = run(
            "/p",
            &[&["header"]],
            &creds(&[("header", Credential::ApiKey("a\r\nX-Evil: 1".into()))]),
            false,
        );
        assert_eq!(applied.missing, ["header"]);
        assert!(request.headers.is_empty());
    }

    #[test]
    fn mutual_tls_needs_nothing_from_the_page() {
        let (request, applied) = run("/p", &[&["mtls"]], &Credentials::default(), false);
        assert_eq!(applied.alternative, Some(0));
        assert_eq!(applied.used, ["mtls"]);
        assert!(request.headers.is_empty());
        assert_eq!(applied.notes.len(), 1);
    }

    #[test]
    fn two_authorization_schemes_are_noted() {
        let credentials = creds(&[
            ("basic", Credential::Basic { user: "u".into(), password: "p".into() }),
            ("bearer", token("b")),
        ]);
        let (request, applied) = run("/p", &[&["basic", "bearer"]], &credentials, false);
        assert_eq!(request.headers, vec![("Authorization".to_owned(), "Bearer b".to_owned())]);
        assert_eq!(
            applied.notes,
            ["basic and bearer both use the Authorization header; only bearer's is sent."]
        );
    }

    #[test]
    fn placeholders_hide_secrets() {
        let credentials = creds(&[
            ("header", Credential::ApiKey("s3cret".into())),
            ("query", Credential::ApiKey("s3cret".into())),
            ("cookie", Credential::ApiKey("s3cret".into())),
        ]);
        let (request, applied) = run("/p?a=1", &[&["header", "query", "cookie"]], &credentials, true);
        assert_eq!(request.target, "/p?a=1&api+key=<API_KEY>");
        assert_eq!(
            request.headers,
            vec![
                ("X-API-Key".to_owned(), "<API_KEY>".to_owned()),
                ("Cookie".to_owned(), "session=<API_KEY>".to_owned())
            ]
        );
        assert!(applied.missing.is_empty());
        let (request, _) = run(
            "/p",
            &[&["basic"]],
            &creds(&[("basic", Credential::Basic { user: "u".into(), password: "p".into() })]),
            true,
        );
        assert_eq!(request.header_value("Authorization"), Some("Basic <BASE64(USERNAME:PASSWORD)>"));
        let (request, _) = run("/p", &[&["oauth"]], &creds(&[("oauth", token("real"))]), true);
        assert_eq!(request.header_value("Authorization"), Some("Bearer <TOKEN>"));
    }

    #[test]
    fn placeholders_show_the_first_alternative_when_credentials_are_missing() {
        let (request, applied) =
            run("/p", &[&[], &["digest", "header"], &["bearer"]], &Credentials::default(), true);
        assert_eq!(applied.alternative, Some(1));
        assert_eq!(applied.used, ["digest", "header"]);
        assert_eq!(applied.missing, ["digest", "header"]);
        assert_eq!(request.header_value("Authorization"), Some("Digest <TOKEN>"));
        assert_eq!(request.header_value("X-API-Key"), Some("<API_KEY>"));
        // A complete later alternative still wins over the first.
        let (request, applied) =
            run("/p", &[&["digest"], &["bearer"]], &creds(&[("bearer", token("b"))]), true);
        assert_eq!(applied.alternative, Some(1));
        assert_eq!(request.header_value("Authorization"), Some("Bearer <TOKEN>"));
    }

    #[test]
    fn credentials_serialize_as_a_map() {
        let credentials = creds(&[("k", Credential::ApiKey("v".into()))]);
        let text = serde_json::to_string(&credentials).unwrap();
        assert_eq!(text, r#"{"k":{"ApiKey":"v"}}"#);
        assert_eq!(serde_json::from_str::<Credentials>(&text).unwrap(), credentials);
    }

    #[test]
    fn pkce_matches_rfc_7636() {
        // RFC 7636 appendix B (the challenge as the RFC prints it).
        let random: [u8; 32] = [
            116, 24, 223, 180, 151, 153, 224, 37, 79, 250, 96, 125, 216, 173, 187, 186, 22, 212, 37, 77, 105,
            214, 191, 240, 91, 88, 5, 88, 83, 132, 141, 121,
        ];
        let verifier = code_verifier(&random);
        assert_eq!(verifier, "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk");
        assert_eq!(verifier.len(), 43);
        assert_eq!(code_challenge(&verifier), "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
    }

    fn params() -> AuthorizeParams {
        AuthorizeParams {
            client_id: "my app".into(),
            redirect_uri: "https://docs.example.com/callback?x=1".into(),
            scopes: vec!["read:pets".into(), "write:pets".into()],
            state: "st&ate".into(),
            code_challenge: Some("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM".into()),
            response_type: ResponseType::Code,
        }
    }

    #[test]
    fn authorize_url_builds_the_query() {
        assert_eq!(
            authorize_url("https://auth.example.com/authorize", &params()),
            "https://auth.example.com/authorize?response_type=code&client_id=my+app\
             &redirect_uri=https%3A%2F%2Fdocs.example.com%2Fcallback%3Fx%3D1&scope=read%3Apets+write%3Apets\
             &state=st%26ate&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256"
        );
    }

    #[test]
    fn authorize_url_appends_to_an_existing_query() {
        let p = AuthorizeParams {
            scopes: vec![],
            code_challenge: None,
            redirect_uri: String::new(),
            response_type: ResponseType::Token,
            ..params()
        };
        assert_eq!(
            authorize_url("https://auth.example.com/authorize?audience=api&state=old#x", &p),
            "https://auth.example.com/authorize?audience=api&response_type=token&client_id=my+app&state=st%26ate"
        );
        assert_eq!(
            authorize_url("https://auth.example.com/authorize?", &p),
            "https://auth.example.com/authorize?response_type=token&client_id=my+app&state=st%26ate"
        );
    }

    fn body(request: &Request) -> Vec<(String, String)> {
        form_urlencoded::parse(&request.body).into_owned().collect()
    }

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter().map(|(a, b)| ((*a).to_owned(), (*b).to_owned())).collect()
    }

    const BASIC_CLIENT: &str = "Basic Y2xpZW50K2lkOnMlM0FlY3JldA=="; // "client+id:s%3Aecret"

    #[test]
    fn token_request_common_shape() {
        let request =
            token_request("https://auth/token", &Grant::ClientCredentials, "c", None, &[], ClientAuth::Body);
        assert_eq!(request.method, "POST");
        assert_eq!(request.target, "https://auth/token");
        assert_eq!(request.header_value("content-type"), Some("application/x-www-form-urlencoded"));
        assert_eq!(request.header_value("accept"), Some("application/json"));
        assert_eq!(String::from_utf8(request.body).unwrap(), "grant_type=client_credentials&client_id=c");
    }

    #[test]
    fn token_request_authorization_code() {
        let grant = Grant::AuthorizationCode {
            code: "abc".into(),
            redirect_uri: "https://docs/cb".into(),
            code_verifier: Some("ver".into()),
        };
        let scopes = vec!["ignored".to_owned()];
        let request = token_request("/t", &grant, "client id", Some("s:ecret"), &scopes, ClientAuth::Basic);
        assert_eq!(request.header_value("Authorization"), Some(BASIC_CLIENT));
        assert_eq!(
            body(&request),
            pairs(&[
                ("grant_type", "authorization_code"),
                ("code", "abc"),
                ("redirect_uri", "https://docs/cb"),
                ("code_verifier", "ver")
            ])
        );
        let request = token_request("/t", &grant, "client id", Some("s:ecret"), &scopes, ClientAuth::Body);
        assert_eq!(request.header_value("Authorization"), None);
        assert_eq!(
            body(&request),
            pairs(&[
                ("grant_type", "authorization_code"),
                ("code", "abc"),
                ("redirect_uri", "https://docs/cb"),
                ("code_verifier", "ver"),
                ("client_id", "client id"),
                ("client_secret", "s:ecret")
            ])
        );
        // A public client names itself in the body whatever the client authentication.
        let request = token_request("/t", &grant, "pub", None, &[], ClientAuth::Basic);
        assert_eq!(request.header_value("Authorization"), None);
        assert_eq!(body(&request).last().unwrap(), &("client_id".to_owned(), "pub".to_owned()));
    }

    #[test]
    fn token_request_client_credentials() {
        let scopes = vec!["read:pets".to_owned(), "write:pets".to_owned()];
        let request = token_request(
            "/t",
            &Grant::ClientCredentials,
            "client id",
            Some("s:ecret"),
            &scopes,
            ClientAuth::Basic,
        );
        assert_eq!(request.header_value("Authorization"), Some(BASIC_CLIENT));
        assert_eq!(
            body(&request),
            pairs(&[("grant_type", "client_credentials"), ("scope", "read:pets write:pets")])
        );
        let request = token_request(
            "/t",
            &Grant::ClientCredentials,
            "client id",
            Some("s:ecret"),
            &scopes,
            ClientAuth::Body,
        );
        assert_eq!(
            body(&request),
            pairs(&[
                ("grant_type", "client_credentials"),
                ("scope", "read:pets write:pets"),
                ("client_id", "client id"),
                ("client_secret", "s:ecret")
            ])
        );
    }

    #[test]
    fn token_request_password() {
        let grant = Grant::Password { username: "ann".into(), password: "p&w d".into() };
        let request = token_request("/t", &grant, "client id", Some("s:ecret"), &[], ClientAuth::Basic);
        assert_eq!(request.header_value("Authorization"), Some(BASIC_CLIENT));
        assert_eq!(
            body(&request),
            pairs(&[("grant_type", "password"), ("username", "ann"), ("password", "p&w d")])
        );
        let request = token_request("/t", &grant, "client id", Some("s:ecret"), &[], ClientAuth::Body);
        assert_eq!(
            body(&request),
            pairs(&[
                ("grant_type", "password"),
                ("username", "ann"),
                ("password", "p&w d"),
                ("client_id", "client id"),
                ("client_secret", "s:ecret")
            ])
        );
    }

    #[test]
    fn token_request_refresh() {
        let grant = Grant::RefreshToken { refresh_token: "rt".into() };
        let scopes = vec!["read:pets".to_owned()];
        let request = token_request("/t", &grant, "client id", Some("s:ecret"), &scopes, ClientAuth::Basic);
        assert_eq!(request.header_value("Authorization"), Some(BASIC_CLIENT));
        assert_eq!(
            body(&request),
            pairs(&[("grant_type", "refresh_token"), ("refresh_token", "rt"), ("scope", "read:pets")])
        );
        let request = token_request("/t", &grant, "client id", Some(""), &[], ClientAuth::Basic);
        assert_eq!(request.header_value("Authorization"), None);
        assert_eq!(
            body(&request),
            pairs(&[("grant_type", "refresh_token"), ("refresh_token", "rt"), ("client_id", "client id")])
        );
    }

    #[test]
    fn token_response_success() {
        let body = br#"{"access_token":"at","token_type":"Bearer","expires_in":3600,"refresh_token":"rt","scope":"read:pets  write:pets"}"#;
        assert_eq!(
            read_token_response(200, body, 1_000.0).unwrap(),
            Credential::Token {
                value: "at".into(),
                expires_at_ms: Some(3_601_000.0),
                refresh_token: Some("rt".into()),
                scopes: vec!["read:pets".into(), "write:pets".into()],
            }
        );
        assert_eq!(
            read_token_response(
                200,
                br#"{"access_token":"at","token_type":"bearer","expires_in":"60"}"#,
                0.0
            )
            .unwrap(),
            Credential::Token {
                value: "at".into(),
                expires_at_ms: Some(60_000.0),
                refresh_token: None,
                scopes: vec![]
            }
        );
    }

    #[test]
    fn token_response_errors() {
        assert_eq!(
            read_token_response(
                400,
                br#"{"error":"invalid_grant","error_description":"PKCE verification failed"}"#,
                0.0
            ),
            Err("The authorization server refused: invalid_grant (PKCE verification failed).".into())
        );
        assert_eq!(
            read_token_response(401, br#"{"error":"invalid_client","error_uri":"https://auth/help"}"#, 0.0),
            Err("The authorization server refused: invalid_client; see https://auth/help.".into())
        );
        assert_eq!(
            read_token_response(200, b"<html>Sign in</html>", 0.0),
            Err("The token endpoint answered HTTP 200 with a body that is not a JSON object: <html>Sign in</html>.".into())
        );
        assert_eq!(
            read_token_response(500, b"Internal Server Error", 0.0),
            Err("The authorization server failed (HTTP 500) and answered with a body that is not a JSON object: \
                 Internal Server Error."
                .into())
        );
        assert_eq!(
            read_token_response(503, b"", 0.0),
            Err("The authorization server failed (HTTP 503) and answered with an empty body.".into())
        );
        assert_eq!(
            read_token_response(502, br#"{"message":"down"}"#, 0.0),
            Err("The authorization server failed (HTTP 502) and issued no token.".into())
        );
        assert_eq!(
            read_token_response(200, br#"{"access_token":"at","token_type":"mac"}"#, 0.0),
            Err("The authorization server issued a mac token; this console can only send bearer tokens."
                .into())
        );
        assert_eq!(
            read_token_response(200, br#"{"token_type":"bearer"}"#, 0.0),
            Err("The token endpoint answered HTTP 200 without an access_token.".into())
        );
        let huge = vec![b' '; MAX_TOKEN_RESPONSE + 1];
        assert!(read_token_response(200, &huge, 0.0).unwrap_err().contains("more than the 1 MB"));
    }

    #[test]
    fn callback_with_code() {
        assert_eq!(
            read_callback("?code=Spl%2Bx&state=xyz", "", 0.0),
            Ok(Callback::Code { code: "Spl+x".into(), state: "xyz".into() })
        );
        assert_eq!(
            read_callback("code=abc", "", 0.0),
            Err("The sign-in answer has no state, so it cannot be matched to a sign-in this page started."
                .into())
        );
    }

    #[test]
    fn callback_with_token() {
        assert_eq!(
            read_callback("", "#access_token=2YotnF&token_type=example&state=xyz", 0.0),
            Err("The authorization server issued a example token; this console can only send bearer tokens."
                .into())
        );
        assert_eq!(
            read_callback(
                "",
                "#access_token=2YotnF&token_type=Bearer&expires_in=3600&scope=a+b&state=xyz",
                500.0
            ),
            Ok(Callback::Token {
                credential: Credential::Token {
                    value: "2YotnF".into(),
                    expires_at_ms: Some(3_600_500.0),
                    refresh_token: None,
                    scopes: vec!["a".into(), "b".into()],
                },
                state: "xyz".into()
            })
        );
    }

    #[test]
    fn callback_with_error() {
        assert_eq!(
            read_callback("?error=access_denied&error_description=The+user+said+no&state=xyz", "", 0.0),
            Ok(Callback::Error {
                message: "The authorization server refused: access_denied (The user said no).".into(),
                state: Some("xyz".into())
            })
        );
        assert_eq!(
            read_callback("", "error=unsupported_response_type", 0.0),
            Ok(Callback::Error {
                message: "The authorization server refused: unsupported_response_type.".into(),
                state: None
            })
        );
        assert_eq!(
            read_callback("?foo=bar", "", 0.0),
            Err("The redirect carries no authorization code, access token or error.".into())
        );
        assert!(read_callback(&"a".repeat(MAX_CALLBACK + 1), "", 0.0).is_err());
    }

    #[test]
    fn discovery_reads_flows() {
        let discovery = json!({
            "issuer": "https://auth.example.com",
            "authorization_endpoint": "https://auth.example.com/authorize",
            "token_endpoint": "https://auth.example.com/token",
            "grant_types_supported": ["authorization_code", "refresh_token", "client_credentials"],
            "scopes_supported": ["openid", "pets"]
        });
        let scopes = vec![("openid".to_owned(), String::new()), ("pets".to_owned(), String::new())];
        assert_eq!(
            read_discovery(&discovery).unwrap(),
            vec![
                OAuthFlow {
                    kind: FlowKind::AuthorizationCode,
                    authorization_url: Some("https://auth.example.com/authorize".into()),
                    token_url: Some("https://auth.example.com/token".into()),
                    refresh_url: None,
                    scopes: scopes.clone(),
                },
                OAuthFlow {
                    kind: FlowKind::ClientCredentials,
                    authorization_url: None,
                    token_url: Some("https://auth.example.com/token".into()),
                    refresh_url: None,
                    scopes,
                },
            ]
        );
    }

    #[test]
    fn discovery_defaults_and_missing_endpoints() {
        let only_authorize = json!({"authorization_endpoint": "https://a/authorize"});
        let flows = read_discovery(&only_authorize).unwrap();
        // Default grants: authorization_code (needs the missing token endpoint) and implicit.
        assert_eq!(flows.len(), 1);
        assert_eq!(flows[0].kind, FlowKind::Implicit);
        assert_eq!(flows[0].authorization_url.as_deref(), Some("https://a/authorize"));
        assert_eq!(flows[0].token_url, None);
        assert_eq!(
            read_discovery(&json!({"issuer": "x"})),
            Err("The OpenID Connect discovery document has no authorization_endpoint, so none of its grant types can be used.".into())
        );
        assert_eq!(
            read_discovery(&json!({"authorization_endpoint": "a", "grant_types_supported": ["authorization_code", "password"]})),
            Err("The OpenID Connect discovery document has no token_endpoint, so none of its grant types can be used.".into())
        );
        assert!(
            read_discovery(&json!({"authorization_endpoint": "a", "token_endpoint": "t", "grant_types_supported": ["urn:x"]}))
                .unwrap_err()
                .contains("it lists: urn:x")
        );
        assert!(read_discovery(&json!([1])).is_err());
    }
}
