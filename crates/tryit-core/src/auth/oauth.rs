//! OAuth 2.0 exchanges, built and read (the page does the HTTP): PKCE, the authorization URL,
//! token requests and answers, and the redirect's answer.

use super::*;

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

/// Whether `kind` cannot run without a client ID: the sign-ins in a window (the authorization
/// code, with PKCE, and the implicit flow) name their client; the password and
/// client-credentials grants go without one when the reader gives none
/// ([`token_request`]).
#[must_use]
pub fn needs_client_id(kind: FlowKind) -> bool {
    matches!(kind, FlowKind::AuthorizationCode | FlowKind::Implicit)
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
/// one) it is a public client and `client_id` goes in the body. An empty `client_id` is no
/// client at all (the password and client-credentials grants of servers that need none, such
/// as FastAPI's `OAuth2PasswordRequestForm`): no `client_id` and no `Authorization` header are
/// sent, only a secret given alone, as `client_secret` in the body. `scopes` are sent (as
/// `scope`) for every grant but the authorization code, whose scopes the sign-in already chose.
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
        Some(secret) if auth == ClientAuth::Basic && !client_id.is_empty() => {
            let pair = format!("{}:{}", form_encode(client_id), form_encode(secret));
            request = request.header("Authorization", format!("Basic {}", STANDARD.encode(pair)));
        }
        Some(secret) => {
            if !client_id.is_empty() {
                body.append_pair("client_id", client_id);
            }
            body.append_pair("client_secret", secret);
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
    let Some(access_token) = non_empty(&json, "access_token") else {
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
        refresh_token: non_empty(&json, "refresh_token").map(str::to_owned),
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

/// The string at `key`, unless it is empty.
fn non_empty<'a>(value: &'a Value, key: &str) -> Option<&'a str> {
    value.get(key).and_then(Value::as_str).filter(|s| !s.is_empty())
}
