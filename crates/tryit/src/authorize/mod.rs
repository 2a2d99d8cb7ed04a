//! The Authorization part of the try-it panel (built with the feature `extras`, in the module
//! the reference loads for operations that name security schemes): the credentials of each
//! scheme an operation names, the OAuth 2 flows that obtain a token (client credentials,
//! password, authorization code with PKCE and implicit, through the page's
//! `oauth2-redirect.html`, and refresh), and OpenID Connect discovery. The credentials are
//! kept in the document's [`Vault`].

use std::cell::RefCell;
use std::collections::HashMap;

use leptos::prelude::*;
use playground_http::Request;
use playground_reference::OperationView;
use playground_tryit_core::auth::{
    self, Applied, AuthorizeParams, Callback, ClientAuth, Credential, FlowKind, Grant, OAuthFlow,
    ResponseType, Scheme, SchemeKind,
};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

use crate::message_of;
use crate::vault::{Client, Vault, now_ms};

mod flows;
mod oauth;

use flows::fetch;
use oauth::OAuthInputs;

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
        status_of(&vault.apply(&status_view, &mut probe, false))
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

/// Every security scheme of a document, for the page's Authorize dialog: the same cards as the
/// panel's Authorization part, in the document's `vault`, so what is entered here is what the
/// next Send of any operation uses, and what a panel entered shows here. `base` is the base URL
/// OAuth 2 and discovery URLs in the document are relative to.
#[component]
pub fn AuthorizeAll(schemes: Vec<Scheme>, vault: Vault, base: Signal<String>) -> impl IntoView {
    let cards = schemes
        .into_iter()
        .map(|scheme| view! { <SchemeCard scheme=scheme vault=vault base=base required=Vec::new() /> })
        .collect_view();
    view! {
        <div class="authorize-all" data-testid="authorize-all">
            <p class="hint">"Each operation's Send uses the credentials of the schemes it names."</p>
            {cards}
        </div>
    }
}

/// Tells the page, from now on, which schemes of `document` have a usable credential
/// (`playground_browser::credentials`): once now, and at every change of the vault's credentials.
/// The operation list marks the operations that need credentials with it.
pub fn announce(document: &str, vault: Vault) {
    let document = document.to_owned();
    let filled = Memo::new(move |_| vault.credentials.with(|c| c.usable(now_ms())));
    // Immediate: the vault is made before the first panel is mounted, when this module's
    // instance has no task queue for a deferred effect yet; and the page hears of a change
    // in the same task.
    ImmediateEffect::new_scoped(move || {
        filled.with(|names| playground_browser::credentials::announce(&document, names))
    });
}

/// What the request sends, as the status line says it: its state (`ok` or `missing`) and its
/// sentence.
fn status_of(applied: &Applied) -> (&'static str, String) {
    let names = |list: &[String]| list.join(" and ");
    match applied.missing.as_slice() {
        [] if applied.used.is_empty() => {
            ("ok", "Sent without credentials: the operation allows it.".to_owned())
        }
        [] => ("ok", format!("Sends {}.", names(&applied.used))),
        missing => (
            "missing",
            format!("Missing: {}. Fill in below; until then the request goes without them.", names(missing)),
        ),
    }
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

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use playground_openapi::catalog::Method;
    use serde_json::json;

    use super::*;

    fn applied(used: &[&str], missing: &[&str]) -> Applied {
        Applied {
            alternative: Some(0),
            used: used.iter().map(|&s| s.to_owned()).collect(),
            missing: missing.iter().map(|&s| s.to_owned()).collect(),
            notes: Vec::new(),
        }
    }

    #[test]
    fn the_status_says_what_is_sent_and_what_is_missing() {
        assert_eq!(
            status_of(&applied(&[], &[])),
            ("ok", "Sent without credentials: the operation allows it.".to_owned())
        );
        assert_eq!(
            status_of(&applied(&["apiKey", "bearer"], &[])),
            ("ok", "Sends apiKey and bearer.".to_owned())
        );
        assert_eq!(
            status_of(&applied(&["apiKey"], &["bearer", "oauth"])),
            (
                "missing",
                "Missing: bearer and oauth. Fill in below; until then the request goes without them."
                    .to_owned()
            )
        );
    }

    #[test]
    fn the_scopes_asked_for_are_those_any_way_in_names_once_each() {
        let doc = json!({
            "openapi": "3.0.3",
            "info": {"title": "Scopes", "version": "1"},
            "components": {"securitySchemes": {
                "oauth": {"type": "oauth2", "flows": {"clientCredentials": {
                    "tokenUrl": "/token", "scopes": {"read": "", "write": "", "admin": ""}
                }}},
                "key": {"type": "apiKey", "in": "header", "name": "X-Key"}
            }},
            "paths": {"/things": {"get": {
                "security": [{"oauth": ["read", "write"]}, {"oauth": ["write", "admin"], "key": []}],
                "responses": {"200": {"description": "ok"}}
            }}}
        });
        let view = OperationView::build(&doc, Method::Get, "/things").unwrap();
        assert_eq!(required_scopes(&view, "oauth"), ["read", "write", "admin"]);
        assert!(required_scopes(&view, "key").is_empty());
        assert!(required_scopes(&view, "absent").is_empty());
    }
}
