//! The credentials the reader entered, and writing them into a try-it request for the way in
//! an operation's requirements allow.

use super::*;

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

impl Credentials {
    /// The schemes with a credential a request can send now: a key, a user name or password,
    /// a token not past its `expires_at_ms` (what the operation list counts as filled; [`apply`]
    /// still checks each against its scheme).
    #[must_use]
    pub fn usable(&self, now_ms: f64) -> Vec<String> {
        self.0
            .iter()
            .filter(|(_, credential)| match credential {
                Credential::ApiKey(key) => !key.is_empty(),
                Credential::Basic { user, password } => !(user.is_empty() && password.is_empty()),
                Credential::Token { value, expires_at_ms, .. } => {
                    !value.is_empty() && expires_at_ms.is_none_or(|at| at > now_ms)
                }
            })
            .map(|(name, _)| name.clone())
            .collect()
    }
}

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

pub(super) fn form_encode(s: &str) -> String {
    form_urlencoded::byte_serialize(s.as_bytes()).collect()
}

pub(super) fn form_pair(name: &str, value: &str) -> String {
    format!("{}={}", form_encode(name), form_encode(value))
}

/// The query segments of `target` (fragment dropped) without those named `name`, then `pair`.
fn set_query_pair(target: &str, name: &str, pair: &str) -> String {
    set_query_pairs(target, &[name], &[pair.to_owned()])
}

/// Drops the fragment, removes the query parameters named in `names` and appends `pairs`
/// (already encoded), keeping the other parameters exactly as written.
pub(super) fn set_query_pairs(target: &str, names: &[&str], pairs: &[String]) -> String {
    let without_fragment = target.split('#').next().unwrap_or_default();
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
