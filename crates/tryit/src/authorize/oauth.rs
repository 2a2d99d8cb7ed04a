//! The OAuth 2 inputs of a scheme (an OpenID Connect scheme's once discovered): the flow, the
//! client, the scopes, Get a token, and a token the reader already has.

use super::*;

use flows::obtain;

/// The OAuth 2 inputs of a scheme: the flow, the client, the scopes, Get a token, and a token
/// the reader already has.
#[component]
pub(super) fn OAuthInputs(
    scheme: Scheme,
    vault: Vault,
    base: Signal<String>,
    required: Vec<String>,
) -> impl IntoView {
    let name = scheme.name.clone();
    ask_for_required_scopes(vault, &name, &required);
    let oauth = OAuthScheme { scheme: StoredValue::new(scheme), vault };
    let has_flows = move || !oauth.flows().is_empty();
    let kind = move || oauth.chosen().map(|f| f.kind);
    let paste = secret_input(vault, &name, "token", "Or paste a token");
    view! {
        <div class="auth-flow" hidden=move || !has_flows()>
            <FlowSelect oauth=oauth />
            <ClientField oauth=oauth part="client-id" label="Client ID" kind="text" read=|c| c.id.clone() write=|c, v| c.id = v />
            <div hidden=move || kind() == Some(FlowKind::Implicit)>
                <ClientField oauth=oauth part="client-secret" label="Client secret (empty for a public client)" kind="password"
                    read=|c| c.secret.clone() write=|c, v| c.secret = v />
            </div>
            <div hidden=move || kind() != Some(FlowKind::Password)>
                <ClientField oauth=oauth part="username" label="User name" kind="text" read=|c| c.user.clone() write=|c, v| c.user = v />
                <ClientField oauth=oauth part="password" label="Password" kind="password"
                    read=|c| c.password.clone() write=|c, v| c.password = v />
            </div>
            <ScopeChoices oauth=oauth />
            <button type="button" class="button" data-testid="auth-get-token" on:click=move |_| oauth.get_token(base)>"Get a token"</button>
        </div>
        {paste}
        <p class="hint" data-testid="auth-token-state">
            {move || vault.credentials.with(|c| token_state(c.0.get(&name), now_ms()))}
        </p>
    }
}

/// The operation's scopes are asked for unless the reader chose others: a scheme without
/// client settings gets settings that ask for `required`.
fn ask_for_required_scopes(vault: Vault, scheme: &str, required: &[String]) {
    if vault.clients.with_untracked(|c| !c.contains_key(scheme)) && !required.is_empty() {
        vault.clients.update_untracked(|c| {
            c.insert(
                scheme.to_owned(),
                Client { scopes: required.iter().cloned().collect(), ..Client::default() },
            );
        });
    }
}

/// One scheme's OAuth 2 side as its inputs read and change it. `Copy`, for their handlers.
#[derive(Clone, Copy)]
struct OAuthScheme {
    scheme: StoredValue<Scheme>,
    vault: Vault,
}

impl OAuthScheme {
    fn name(self) -> String {
        self.scheme.with_value(|s| s.name.clone())
    }

    /// The flows the reader can use now.
    fn flows(self) -> Vec<OAuthFlow> {
        self.scheme.with_value(|s| self.vault.flows(s))
    }

    /// The client settings the reader gave.
    fn client(self) -> Client {
        self.scheme.with_value(|s| self.vault.clients.with(|c| c.get(&s.name).cloned().unwrap_or_default()))
    }

    /// The flow chosen, if the scheme has any.
    fn chosen(self) -> Option<OAuthFlow> {
        self.client().chosen(&self.flows()).cloned()
    }

    /// Changes the client settings.
    fn change(self, change: impl FnOnce(&mut Client)) {
        self.scheme.with_value(|s| self.vault.client(&s.name, change));
    }

    /// Runs the chosen flow (its URLs relative to `base`), or says why not.
    fn get_token(self, base: Signal<String>) {
        let (vault, name) = (self.vault, self.name());
        let Some(flow) = self.chosen() else {
            vault.note(&name, Err("Read the discovery document first.".to_owned()));
            return;
        };
        vault.note(&name, Ok("Asking for a token…".to_owned()));
        obtain(vault, name, flow, self.client(), base.get_untracked());
    }
}

/// A text of the client settings: `part` names the input for tests, `kind` is its type;
/// `read` and `write` are the setting's.
#[component]
fn ClientField(
    oauth: OAuthScheme,
    part: &'static str,
    label: &'static str,
    kind: &'static str,
    read: fn(&Client) -> String,
    write: fn(&mut Client, String),
) -> impl IntoView {
    view! {
        <label class="auth-field">
            <span>{label}</span>
            <input type=kind autocomplete="off" spellcheck="false" data-testid="auth-input" data-part=part
                prop:value=move || read(&oauth.client())
                on:input=move |ev| {
                    let text = event_target_value(&ev);
                    oauth.change(|c| write(c, text));
                } />
        </label>
    }
}

/// The choice of flow, when the scheme has several.
#[component]
fn FlowSelect(oauth: OAuthScheme) -> impl IntoView {
    move || {
        let flows = oauth.flows();
        let current = oauth.client().flow;
        (flows.len() > 1).then(|| {
            view! {
                <label class="auth-field">
                    <span>"Flow"</span>
                    <select data-testid="auth-input" data-part="flow" on:change=move |ev| {
                        let index = event_target_value(&ev).parse().unwrap_or(0);
                        oauth.change(|c| c.flow = index);
                    }>
                        {flows.iter().enumerate().map(|(i, f)| view! {
                            <option value=i.to_string() selected=i == current>{flow_name(f.kind)}</option>
                        }).collect_view()}
                    </select>
                </label>
            }
        })
    }
}

/// The scopes of the chosen flow, those asked for ticked.
#[component]
fn ScopeChoices(oauth: OAuthScheme) -> impl IntoView {
    move || {
        let flow = oauth.chosen()?;
        (!flow.scopes.is_empty()).then(|| {
            let picked = oauth.client().scopes;
            view! {
                <fieldset class="auth-scopes">
                    <legend>"Scopes"</legend>
                    {flow.scopes.iter().map(|(scope, description)| {
                        let scope_value = scope.clone();
                        view! {
                            <label class="check" title=description.clone()>
                                <input type="checkbox" data-testid="auth-scope" data-scope=scope.clone()
                                    prop:checked=picked.contains(scope)
                                    on:change=move |ev| {
                                        let on = event_target_checked(&ev);
                                        let scope = scope_value.clone();
                                        oauth.change(|c| { if on { c.scopes.insert(scope); } else { c.scopes.remove(&scope); } });
                                    } />
                                " "{scope.clone()}
                            </label>
                        }
                    }).collect_view()}
                </fieldset>
            }
        })
    }
}

/// What the reader is told of the token `credential` at `now_ms`: set, when it expires, or
/// that it has expired; nothing for another credential or none.
fn token_state(credential: Option<&Credential>, now_ms: f64) -> String {
    match credential {
        Some(Credential::Token { expires_at_ms: Some(at), .. }) => {
            let minutes = ((at - now_ms) / 60_000.0).floor();
            if minutes < 0.0 {
                "The token has expired: get a new one.".to_owned()
            } else {
                format!("A token is set; it expires in {minutes} min.")
            }
        }
        Some(Credential::Token { .. }) => "A token is set.".to_owned(),
        _ => String::new(),
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

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    fn token(expires_at_ms: Option<f64>) -> Credential {
        Credential::Token { value: "t".to_owned(), expires_at_ms, refresh_token: None, scopes: Vec::new() }
    }

    #[test]
    fn the_token_line_says_when_the_token_expires() {
        let now = 1_000_000.0;
        assert_eq!(token_state(Some(&token(None)), now), "A token is set.");
        assert_eq!(
            token_state(Some(&token(Some(now + 90_000.0))), now),
            "A token is set; it expires in 1 min."
        );
        assert_eq!(
            token_state(Some(&token(Some(now + 30_000.0))), now),
            "A token is set; it expires in 0 min."
        );
        assert_eq!(token_state(Some(&token(Some(now - 1.0))), now), "The token has expired: get a new one.");
        assert_eq!(token_state(Some(&Credential::ApiKey("k".to_owned())), now), "");
        assert_eq!(token_state(None, now), "");
    }
}
