//! What obtains and renews tokens: the OAuth 2 flows (client credentials and password at the
//! token URL; authorization code with PKCE and implicit through a window and the page's
//! `oauth2-redirect.html`; refresh), and the `fetch` they and discovery use.

use super::*;

/// A token answer or discovery document larger than this is refused.
const MAX_ANSWER: usize = 1024 * 1024;
/// The page the authorization server sends the reader back to, beside the reference.
const REDIRECT_PAGE: &str = "oauth2-redirect.html";
/// The message the redirect page posts to the reference.
const CALLBACK_MESSAGE: &str = "playground/oauth";

thread_local! {
    /// The sign-ins waiting for the redirect page, by `state`; `None` until the first sign-in,
    /// which starts the page's one `message` listener ([`listen_for_callbacks`]).
    ///
    /// A static, not a panel's: the redirect page posts to the window that opened the sign-in
    /// window, which is the page that every panel shares, and the reader may close the panel
    /// (open another operation) before signing in. The token then still belongs in the
    /// document's vault, which outlives the panel, so the sign-in waits here and one listener
    /// for the whole page finishes it, whichever panel started it.
    static SIGN_INS: RefCell<Option<HashMap<String, Pending>>> = const { RefCell::new(None) };
}

impl Vault {
    pub(super) fn note(&self, scheme: &str, message: Result<String, String>) {
        let _ = self.messages.try_update(|m| m.insert(scheme.to_owned(), message));
    }

    /// The flows of `scheme` as the reader can use them now (an OpenID Connect scheme's once
    /// discovered).
    pub(super) fn flows(&self, scheme: &Scheme) -> Vec<OAuthFlow> {
        match &scheme.kind {
            SchemeKind::OAuth2 { flows } => flows.clone(),
            SchemeKind::OpenIdConnect { .. } => {
                self.discovered.with(|d| d.get(&scheme.name).cloned().unwrap_or_default())
            }
            _ => Vec::new(),
        }
    }

    /// Whether a scheme `view` names holds an expired token that a refresh token can renew.
    #[must_use]
    pub fn needs_refresh(&self, view: &OperationView) -> bool {
        view.schemes.iter().any(|s| self.expired_refresh_token(&s.name).is_some())
    }

    fn expired_refresh_token(&self, scheme: &str) -> Option<String> {
        self.credentials.with_untracked(|c| match c.0.get(scheme) {
            Some(Credential::Token { expires_at_ms: Some(at), refresh_token: Some(token), .. })
                if *at <= now_ms() =>
            {
                Some(token.clone())
            }
            _ => None,
        })
    }

    /// Renews, with their refresh tokens, the expired tokens of the schemes `view` names (at
    /// the flow's refresh URL, else its token URL, relative to `base`).
    pub async fn refresh_expired(&self, view: &OperationView, base: &str) {
        for scheme in &view.schemes {
            let Some(refresh_token) = self.expired_refresh_token(&scheme.name) else { continue };
            let client = self.clients.with_untracked(|c| c.get(&scheme.name).cloned().unwrap_or_default());
            let flows = untrack(|| self.flows(scheme));
            let Some(flow) = client.chosen(&flows) else { continue };
            let Some(url) = flow.refresh_url.as_ref().or(flow.token_url.as_ref()) else { continue };
            let url = auth::resolve_url(base, url);
            exchange(*self, &scheme.name, &url, &Grant::RefreshToken { refresh_token }, &client, &[]).await;
        }
    }
}

/// A sign-in waiting for the redirect page.
struct Pending {
    vault: Vault,
    scheme: String,
    token_url: Option<String>,
    redirect_uri: String,
    verifier: Option<String>,
    client: Client,
}

/// Runs `flow` for `scheme` and stores the token it gets (or says why not).
pub(super) fn obtain(vault: Vault, scheme: String, flow: OAuthFlow, client: Client, base: String) {
    let resolve = |url: &Option<String>| url.as_deref().map(|u| auth::resolve_url(&base, u));
    let token_url = resolve(&flow.token_url);
    let scopes: Vec<String> = client.scopes.iter().cloned().collect();
    // The password and client-credentials grants go without a client ID when the reader gives
    // none (FastAPI's `OAuth2PasswordRequestForm` takes none).
    if auth::needs_client_id(flow.kind) && client.id.trim().is_empty() {
        vault.note(&scheme, Err("Enter the client ID first.".to_owned()));
        return;
    }
    match flow.kind {
        FlowKind::ClientCredentials | FlowKind::Password => {
            let Some(token_url) = token_url else {
                vault.note(&scheme, Err("The document gives this flow no token URL.".to_owned()));
                return;
            };
            let grant = if flow.kind == FlowKind::Password {
                Grant::Password { username: client.user.clone(), password: client.password.clone() }
            } else {
                Grant::ClientCredentials
            };
            leptos::task::spawn_local(async move {
                exchange(vault, &scheme, &token_url, &grant, &client, &scopes).await;
            });
        }
        FlowKind::AuthorizationCode | FlowKind::Implicit => {
            let Some(authorization_url) = resolve(&flow.authorization_url) else {
                vault.note(&scheme, Err("The document gives this flow no authorization URL.".to_owned()));
                return;
            };
            let Some(redirect_uri) = redirect_uri() else {
                vault.note(&scheme, Err("This page's address cannot be read.".to_owned()));
                return;
            };
            let code = flow.kind == FlowKind::AuthorizationCode;
            let verifier = code.then(|| auth::code_verifier(&random()));
            let state = auth::code_verifier(&random());
            let params = AuthorizeParams {
                client_id: client.id.clone(),
                redirect_uri: redirect_uri.clone(),
                scopes,
                state: state.clone(),
                code_challenge: verifier.as_deref().map(auth::code_challenge),
                response_type: if code { ResponseType::Code } else { ResponseType::Token },
            };
            let url = auth::authorize_url(&authorization_url, &params);
            wait_for_callback(
                state,
                Pending { vault, scheme: scheme.clone(), token_url, redirect_uri, verifier, client },
            );
            let opened = web_sys::window()
                .and_then(|w| {
                    w.open_with_url_and_target_and_features(&url, "_blank", "popup,width=520,height=700").ok()
                })
                .flatten();
            if opened.is_none() {
                vault.note(
                    &scheme,
                    Err("The browser blocked the sign-in window: allow pop-ups for this page.".to_owned()),
                );
            } else {
                vault.note(&scheme, Ok("Sign in in the window that opened…".to_owned()));
            }
        }
    }
}

/// Exchanges `grant` for a token at `token_url` and stores it under `scheme`.
async fn exchange(
    vault: Vault,
    scheme: &str,
    token_url: &str,
    grant: &Grant,
    client: &Client,
    scopes: &[String],
) {
    let secret = Some(client.secret.as_str()).filter(|s| !s.is_empty());
    let auth = if secret.is_some() { ClientAuth::Basic } else { ClientAuth::Body };
    let request = auth::token_request(token_url, grant, client.id.trim(), secret, scopes, auth);
    let read = match fetch(&request).await {
        Ok((status, body)) => auth::read_token_response(status, &body, now_ms()),
        Err(reason) => Err(format!("The token endpoint {token_url} could not be reached: {reason}")),
    };
    match read {
        Ok(credential) => {
            vault.set(scheme, Some(credential));
            vault.note(scheme, Ok("Token received.".to_owned()));
        }
        Err(problem) => vault.note(scheme, Err(problem)),
    }
}

/// The redirect page's address, beside this page.
fn redirect_uri() -> Option<String> {
    let base = web_sys::window()?.document()?.base_uri().ok().flatten()?;
    web_sys::Url::new_with_base(REDIRECT_PAGE, &base).ok().map(|u| u.href())
}

fn random() -> [u8; 32] {
    let mut bytes = [0_u8; 32];
    if let Some(crypto) = web_sys::window().and_then(|w| w.crypto().ok()) {
        let _ = crypto.get_random_values_with_u8_array(&mut bytes);
    }
    bytes
}

/// Keeps `pending` until the redirect page's message with its `state` comes; the first sign-in
/// of the page starts listening for such messages.
fn wait_for_callback(state: String, pending: Pending) {
    let first = SIGN_INS.with(|sign_ins| {
        let mut sign_ins = sign_ins.borrow_mut();
        let first = sign_ins.is_none();
        sign_ins.get_or_insert_with(HashMap::new).insert(state, pending);
        first
    });
    if first {
        listen_for_callbacks();
    }
}

/// Listens for the redirect page's messages and finishes the sign-ins they name.
fn listen_for_callbacks() {
    let Some(window) = web_sys::window() else { return };
    let origin = window.location().origin().unwrap_or_default();
    let callback = Closure::<dyn Fn(web_sys::MessageEvent)>::new(move |event: web_sys::MessageEvent| {
        // Only this page's own redirect page is heard.
        if event.origin() != origin {
            return;
        }
        let data = event.data();
        let field = |name: &str| js_sys::Reflect::get(&data, &name.into()).ok().and_then(|v| v.as_string());
        if field("type").as_deref() != Some(CALLBACK_MESSAGE) {
            return;
        }
        let (query, fragment) = (field("query").unwrap_or_default(), field("fragment").unwrap_or_default());
        finish(&query, &fragment);
    });
    let _ = window.add_event_listener_with_callback("message", callback.as_ref().unchecked_ref());
    // The page keeps listening for as long as it is open.
    callback.forget();
}

fn finish(query: &str, fragment: &str) {
    let callback = match auth::read_callback(query, fragment, now_ms()) {
        Ok(callback) => callback,
        Err(_) => return,
    };
    let state = match &callback {
        Callback::Code { state, .. } | Callback::Token { state, .. } => Some(state.clone()),
        Callback::Error { state, .. } => state.clone(),
    };
    let taken = |state: String| {
        SIGN_INS.with(|sign_ins| sign_ins.borrow_mut().as_mut().and_then(|pending| pending.remove(&state)))
    };
    let Some(pending) = state.and_then(taken) else { return };
    let Pending { vault, scheme, token_url, redirect_uri, verifier, client } = pending;
    match callback {
        Callback::Error { message, .. } => vault.note(&scheme, Err(message)),
        Callback::Token { credential, .. } => {
            vault.set(&scheme, Some(credential));
            vault.note(&scheme, Ok("Token received.".to_owned()));
        }
        Callback::Code { code, .. } => {
            let Some(token_url) = token_url else {
                vault.note(&scheme, Err("The document gives this flow no token URL.".to_owned()));
                return;
            };
            let grant = Grant::AuthorizationCode { code, redirect_uri, code_verifier: verifier };
            leptos::task::spawn_local(async move {
                exchange(vault, &scheme, &token_url, &grant, &client, &[]).await;
            });
        }
    }
}

/// Sends `request` with the browser's `fetch` (no cookies, no redirects followed); its status
/// and body.
pub(super) async fn fetch(request: &Request) -> Result<(u16, Vec<u8>), String> {
    let init = web_sys::RequestInit::new();
    init.set_method(&request.method);
    let headers = web_sys::Headers::new().map_err(|e| message_of(&e))?;
    for (name, value) in &request.headers {
        headers.append(name, value).map_err(|e| message_of(&e))?;
    }
    init.set_headers(&headers);
    if !request.body.is_empty() {
        init.set_body(&js_sys::Uint8Array::from(request.body.as_slice()));
    }
    init.set_redirect(web_sys::RequestRedirect::Manual);
    let window = web_sys::window().ok_or("there is no window")?;
    let sent = web_sys::Request::new_with_str_and_init(&request.target, &init).map_err(|e| message_of(&e))?;
    let response: web_sys::Response =
        JsFuture::from(window.fetch_with_request(&sent)).await.map_err(|e| message_of(&e))?.unchecked_into();
    if response.type_() == web_sys::ResponseType::Opaqueredirect {
        return Err("it answered with a redirect, which is not followed.".to_owned());
    }
    let buffer = JsFuture::from(response.array_buffer().map_err(|e| message_of(&e))?)
        .await
        .map_err(|e| message_of(&e))?;
    let bytes = js_sys::Uint8Array::new(&buffer);
    if bytes.length() as usize > MAX_ANSWER {
        return Err(format!("its answer is larger than {} KB.", MAX_ANSWER / 1024));
    }
    Ok((response.status(), bytes.to_vec()))
}
