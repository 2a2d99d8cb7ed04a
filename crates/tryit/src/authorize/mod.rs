//! The Authorization part of the try-it panel (built with the feature `extras`, in the module
//! the reference loads for operations that name security schemes): the credentials of each
//! scheme an operation names, the OAuth 2 flows that obtain a token (client credentials,
//! password, authorization code with PKCE and implicit, through the page's
//! `oauth2-redirect.html`, and refresh), and OpenID Connect discovery. The credentials are
//! kept in the document's [`Vault`].

use std::cell::RefCell;
use std::collections::HashMap;

use leptos::prelude::*;
use petstore_http::Request;
use petstore_reference::OperationView;
use petstore_tryit_core::auth::{
    self, AuthorizeParams, Callback, ClientAuth, Credential, FlowKind, Grant, OAuthFlow, ResponseType,
    Scheme, SchemeKind,
};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

use crate::message_of;
use crate::vault::{Client, Vault, now_ms};

mod flows;

use flows::{fetch, obtain};

/// The Authorization part of the try-it panel of `view`: what the request sends, what is
/// missing, and the credentials of each scheme. `base` is the target's base URL (OAuth 2 and
/// discovery URLs in the document are relative to it).
#[component]
pub fn Authorization(
    view: std::sync::Arc<OperationView>,
    vault: Vault,
    base: Signal<String>,
) -> impl IntoView {
    if view.schemes.is_empty() {
        return None;
    }
    let status_view = std::sync::Arc::clone(&view);
    let status = Memo::new(move |_| {
        let mut probe = Request::new("GET", "http://localhost/");
        let applied = vault.apply(&status_view, &mut probe, false);
        let names = |list: &[String]| list.join(" and ");
        match (applied.alternative, applied.missing.as_slice()) {
            (_, []) if applied.used.is_empty() => {
                ("ok", "Sent without credentials: the operation allows it.".to_owned())
            }
            (_, []) => ("ok", format!("Sends {}.", names(&applied.used))),
            (_, missing) => (
                "missing",
                format!(
                    "Missing: {}. Fill in below; until then the request goes without them.",
                    names(missing)
                ),
            ),
        }
    });
    let ways = view.security.len();
    let cards = view
        .schemes
        .iter()
        .map(|scheme| view! { <SchemeCard scheme=scheme.clone() vault=vault base=base required=required_scopes(&view, &scheme.name) /> })
        .collect_view();
    Some(view! {
        <fieldset class="try-auth" data-testid="try-auth">
            <legend>"Authorization"</legend>
            <p class="hint">
                {if ways > 1 { "Any one of the ways the reference lists above will do." } else { "The operation needs the credentials below." }}
            </p>
            <p class="auth-status" data-testid="try-auth-status" data-state=move || status.get().0 aria-live="polite">
                {move || status.get().1}
            </p>
            {cards}
            <label class="check">
                <input
                    type="checkbox"
                    data-testid="auth-in-samples"
                    prop:checked=move || vault.in_samples.get()
                    on:change=move |ev| vault.in_samples.set(event_target_checked(&ev))
                />
                " Show my credentials in the code samples (placeholders otherwise)"
            </label>
        </fieldset>
    })
}

/// The scopes the operation names for `scheme`, in any of its ways in.
fn required_scopes(view: &OperationView, scheme: &str) -> Vec<String> {
    let mut scopes = Vec::new();
    for used in view.security.iter().flatten().filter(|u| u.name == scheme) {
        for scope in &used.scopes {
            if !scopes.contains(scope) {
                scopes.push(scope.clone());
            }
        }
    }
    scopes
}

/// One scheme: what it is, its inputs, Remember and Forget.
#[component]
fn SchemeCard(scheme: Scheme, vault: Vault, base: Signal<String>, required: Vec<String>) -> impl IntoView {
    let name = scheme.name.clone();
    let (what, inputs) = match &scheme.kind {
        SchemeKind::ApiKey { name: key, location } => {
            let place = match location {
                auth::ApiKeyIn::Header => "header",
                auth::ApiKeyIn::Query => "query parameter",
                auth::ApiKeyIn::Cookie => "cookie",
            };
            (format!("API key, sent as the {place} {key}"), secret_input(vault, &name, "key", "API key").into_any())
        }
        SchemeKind::Http { scheme: http, bearer_format } if http == "basic" => {
            ("HTTP basic: user name and password".to_owned(), basic_inputs(vault, &name).into_any())
        }
        SchemeKind::Http { scheme: http, bearer_format } => {
            let format = bearer_format.as_ref().map(|f| format!(" ({f})")).unwrap_or_default();
            (format!("HTTP {http}{format}: a token"), secret_input(vault, &name, "token", "Token").into_any())
        }
        SchemeKind::OAuth2 { .. } => {
            ("OAuth 2".to_owned(), view! { <OAuthInputs scheme=scheme.clone() vault=vault base=base required=required /> }.into_any())
        }
        SchemeKind::OpenIdConnect { url, .. } => (
            "OpenID Connect".to_owned(),
            view! {
                <Discovery scheme=scheme.clone() url=url.clone() vault=vault base=base />
                <OAuthInputs scheme=scheme.clone() vault=vault base=base required=required />
            }
            .into_any(),
        ),
        SchemeKind::MutualTls => (
            "Mutual TLS".to_owned(),
            view! { <p class="hint">"The browser presents your client certificate itself, when the server asks."</p> }.into_any(),
        ),
        SchemeKind::Unsupported(reason) => {
            ("Not usable here".to_owned(), view! { <p class="hint">{reason.clone()}</p> }.into_any())
        }
    };
    let description = scheme.description.clone();
    let (remember_name, forget_name, message_name) = (name.clone(), name.clone(), name.clone());
    let is_set = {
        let name = name.clone();
        move || vault.credentials.with(|c| c.0.contains_key(&name))
    };
    view! {
        <div class="auth-scheme" data-testid="auth-scheme" data-scheme=name.clone() data-set=move || is_set().to_string()>
            <p class="auth-scheme-head"><strong>{name.clone()}</strong>" · "{what}</p>
            {description.map(|d| view! { <p class="hint">{d}</p> })}
            {inputs}
            <p class="auth-message" data-testid="auth-message" role="status">
                {move || vault.messages.with(|m| match m.get(&message_name) {
                    Some(Ok(news)) => news.clone(),
                    Some(Err(problem)) => problem.clone(),
                    None => String::new(),
                })}
            </p>
            <div class="auth-actions">
                <label class="check">
                    <input
                        type="checkbox"
                        data-testid="auth-remember"
                        prop:checked={
                            let name = remember_name.clone();
                            move || vault.remembered.with(|r| r.contains(&name))
                        }
                        on:change=move |ev| vault.remember(&remember_name, event_target_checked(&ev))
                    />
                    " Remember in this browser"
                </label>
                <button type="button" class="button" data-testid="auth-forget" on:click=move |_| vault.forget(&forget_name)>
                    "Forget"
                </button>
            </div>
        </div>
    }
}

/// A text of the credential of `scheme` (`part` names the input for tests and labels).
fn secret_input(
    vault: Vault,
    scheme: &str,
    part: &'static str,
    label: &'static str,
) -> impl IntoView + use<> {
    let (read, write) = (scheme.to_owned(), scheme.to_owned());
    let value = move || {
        vault.credentials.with(|c| match c.0.get(&read) {
            Some(Credential::ApiKey(key)) => key.clone(),
            Some(Credential::Token { value, .. }) => value.clone(),
            _ => String::new(),
        })
    };
    view! {
        <label class="auth-field">
            <span>{label}</span>
            <input
                type="password"
                autocomplete="off"
                spellcheck="false"
                data-testid="auth-input"
                data-part=part
                prop:value=value
                on:input=move |ev| {
                    let text = event_target_value(&ev);
                    let credential = (!text.is_empty()).then(|| if part == "key" {
                        Credential::ApiKey(text)
                    } else {
                        Credential::Token { value: text, expires_at_ms: None, refresh_token: None, scopes: Vec::new() }
                    });
                    vault.set(&write, credential);
                }
            />
        </label>
    }
}

fn basic_inputs(vault: Vault, scheme: &str) -> impl IntoView + use<> {
    let current = {
        let scheme = scheme.to_owned();
        move || {
            vault.credentials.with(|c| match c.0.get(&scheme) {
                Some(Credential::Basic { user, password }) => (user.clone(), password.clone()),
                _ => (String::new(), String::new()),
            })
        }
    };
    let update = {
        let (scheme, current) = (scheme.to_owned(), current.clone());
        move |user: Option<String>, password: Option<String>| {
            let (old_user, old_password) = current();
            let (user, password) = (user.unwrap_or(old_user), password.unwrap_or(old_password));
            let credential =
                (!(user.is_empty() && password.is_empty())).then_some(Credential::Basic { user, password });
            vault.set(&scheme, credential);
        }
    };
    let (update_user, current_user, current_password) = (update.clone(), current.clone(), current.clone());
    view! {
        <label class="auth-field">
            <span>"User name"</span>
            <input type="text" autocomplete="off" spellcheck="false" data-testid="auth-input" data-part="user"
                prop:value=move || current_user().0
                on:input=move |ev| update_user(Some(event_target_value(&ev)), None) />
        </label>
        <label class="auth-field">
            <span>"Password"</span>
            <input type="password" autocomplete="off" data-testid="auth-input" data-part="password"
                prop:value=move || current_password().1
                on:input=move |ev| update(None, Some(event_target_value(&ev))) />
        </label>
    }
}

/// Reads an OpenID Connect scheme's discovery document, whose flows then work as OAuth 2's.
#[component]
fn Discovery(scheme: Scheme, url: String, vault: Vault, base: Signal<String>) -> impl IntoView {
    let name = scheme.name;
    let busy = RwSignal::new(false);
    let discover = move |_| {
        let (name, url) = (name.clone(), auth::resolve_url(&base.get_untracked(), &url));
        busy.set(true);
        leptos::task::spawn_local(async move {
            let request = Request::new("GET", url.clone()).header("Accept", "application/json");
            let read = match fetch(&request).await {
                Ok((200..=299, body)) => serde_json::from_slice::<serde_json::Value>(&body)
                    .map_err(|e| format!("The discovery document at {url} is not JSON: {e}."))
                    .and_then(|json| auth::read_discovery(&json)),
                Ok((status, _)) => Err(format!("The discovery document at {url} answered {status}.")),
                Err(reason) => Err(format!("The discovery document at {url} could not be read: {reason}")),
            };
            match read {
                Ok(flows) => {
                    let count = flows.len();
                    let _ = vault.discovered.try_update(|d| d.insert(name.clone(), flows));
                    vault.note(&name, Ok(format!("Discovery read: {count} way(s) to get a token.")));
                }
                Err(problem) => vault.note(&name, Err(problem)),
            }
            busy.try_set(false);
        });
    };
    view! {
        <button type="button" class="button" data-testid="auth-discover" disabled=move || busy.get() on:click=discover>
            "Read the discovery document"
        </button>
    }
}

/// The OAuth 2 inputs of a scheme: the flow, the client, the scopes, Get a token, and a token
/// the reader already has.
#[component]
fn OAuthInputs(scheme: Scheme, vault: Vault, base: Signal<String>, required: Vec<String>) -> impl IntoView {
    let name = scheme.name.clone();
    let scheme = StoredValue::new(scheme);
    let flows = move || scheme.with_value(|s| vault.flows(s));
    // The operation's scopes are asked for unless the reader chose others.
    if vault.clients.with_untracked(|c| !c.contains_key(&name)) && !required.is_empty() {
        vault.clients.update_untracked(|c| {
            c.insert(
                name.clone(),
                Client { scopes: required.iter().cloned().collect(), ..Client::default() },
            );
        });
    }
    let client = {
        let name = name.clone();
        move || vault.clients.with(|c| c.get(&name).cloned().unwrap_or_default())
    };
    let chosen = {
        let client = client.clone();
        move || {
            let flows = flows();
            let index = client().flow.min(flows.len().saturating_sub(1));
            flows.get(index).cloned()
        }
    };
    let field = {
        let (name, client) = (name.clone(), client.clone());
        move |part: &'static str,
              label: &'static str,
              kind: &'static str,
              read: fn(&Client) -> String,
              write: fn(&mut Client, String)| {
            let (name, client) = (name.clone(), client.clone());
            view! {
                <label class="auth-field">
                    <span>{label}</span>
                    <input type=kind autocomplete="off" spellcheck="false" data-testid="auth-input" data-part=part
                        prop:value=move || read(&client())
                        on:input=move |ev| {
                            let text = event_target_value(&ev);
                            vault.client(&name, |c| write(c, text));
                        } />
                </label>
            }
        }
    };
    let flow_select = {
        let (name, client) = (name.clone(), client.clone());
        move || {
            let flows = flows();
            let current = client().flow;
            (flows.len() > 1).then(|| {
                let name = name.clone();
                view! {
                    <label class="auth-field">
                        <span>"Flow"</span>
                        <select data-testid="auth-input" data-part="flow" on:change=move |ev| {
                            let index = event_target_value(&ev).parse().unwrap_or(0);
                            vault.client(&name, |c| c.flow = index);
                        }>
                            {flows.iter().enumerate().map(|(i, f)| view! {
                                <option value=i.to_string() selected=i == current>{flow_name(f.kind)}</option>
                            }).collect_view()}
                        </select>
                    </label>
                }
            })
        }
    };
    let scopes = {
        let (name, client, chosen) = (name.clone(), client.clone(), chosen.clone());
        move || {
            let flow = chosen()?;
            (!flow.scopes.is_empty()).then(|| {
                let picked = client().scopes;
                let name = name.clone();
                view! {
                    <fieldset class="auth-scopes">
                        <legend>"Scopes"</legend>
                        {flow.scopes.iter().map(|(scope, description)| {
                            let (name, scope_value) = (name.clone(), scope.clone());
                            view! {
                                <label class="check" title=description.clone()>
                                    <input type="checkbox" data-testid="auth-scope" data-scope=scope.clone()
                                        prop:checked=picked.contains(scope)
                                        on:change=move |ev| {
                                            let on = event_target_checked(&ev);
                                            let scope = scope_value.clone();
                                            vault.client(&name, |c| { if on { c.scopes.insert(scope); } else { c.scopes.remove(&scope); } });
                                        } />
                                    " "{scope.clone()}
                                </label>
                            }
                        }).collect_view()}
                    </fieldset>
                }
            })
        }
    };
    let kind = {
        let chosen = chosen.clone();
        move || chosen().map(|f| f.kind)
    };
    let get_token = {
        let (name, chosen, client) = (name.clone(), chosen.clone(), client.clone());
        move |_| {
            let Some(flow) = chosen() else {
                vault.note(&name, Err("Read the discovery document first.".to_owned()));
                return;
            };
            vault.note(&name, Ok("Asking for a token…".to_owned()));
            obtain(vault, name.clone(), flow, client(), base.get_untracked());
        }
    };
    let has_flows = move || !flows().is_empty();
    let (kind_secret, kind_user) = (kind.clone(), kind);
    let paste = secret_input(vault, &name, "token", "Or paste a token");
    view! {
        <div class="auth-flow" hidden=move || !has_flows()>
            {flow_select}
            {field("client-id", "Client ID", "text", |c| c.id.clone(), |c, v| c.id = v)}
            <div hidden=move || kind_secret() == Some(FlowKind::Implicit)>
                {field("client-secret", "Client secret (empty for a public client)", "password", |c| c.secret.clone(), |c, v| c.secret = v)}
            </div>
            <div hidden=move || kind_user() != Some(FlowKind::Password)>
                {field("username", "User name", "text", |c| c.user.clone(), |c, v| c.user = v)}
                {field("password", "Password", "password", |c| c.password.clone(), |c, v| c.password = v)}
            </div>
            {scopes}
            <button type="button" class="button" data-testid="auth-get-token" on:click=get_token>"Get a token"</button>
        </div>
        {paste}
        <p class="hint" data-testid="auth-token-state">{
            let name = name.clone();
            move || vault.credentials.with(|c| match c.0.get(&name) {
                Some(Credential::Token { expires_at_ms: Some(at), .. }) => {
                    let minutes = ((at - now_ms()) / 60_000.0).floor();
                    if minutes < 0.0 { "The token has expired: get a new one.".to_owned() } else { format!("A token is set; it expires in {minutes} min.") }
                }
                Some(Credential::Token { .. }) => "A token is set.".to_owned(),
                _ => String::new(),
            })
        }</p>
    }
}

fn flow_name(kind: FlowKind) -> &'static str {
    match kind {
        FlowKind::AuthorizationCode => "Authorization code (PKCE)",
        FlowKind::ClientCredentials => "Client credentials",
        FlowKind::Implicit => "Implicit",
        FlowKind::Password => "Password",
    }
}
