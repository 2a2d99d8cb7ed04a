//! The credentials and settings the try-it panel keeps per document: the credential of each
//! security scheme (for the page's life; in this browser too for the schemes whose "Remember"
//! is ticked, until "Forget"), the OAuth 2 client settings, and the values of the servers'
//! `{variables}`. What a request gets from them is `playground_tryit_core::auth::apply`'s; the part of
//! the panel that fills them in is [`crate::authorize`].

use std::collections::{BTreeMap, BTreeSet};

use leptos::prelude::*;
use playground_http::Request;
use playground_openapi::servers::{Server, expand};
use playground_reference::OperationView;
use playground_tryit_core::auth::{self, Applied, Credential, Credentials, OAuthFlow};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// Where remembered credentials are kept: this prefix and the document's key (the reference
/// reads which schemes are there before it loads this module).
const STORAGE_PREFIX: &str = playground_browser::credentials::STORAGE_PREFIX;
/// Where the chosen values of server variables are kept: this prefix and the document's key.
const SERVERS_PREFIX: &str = "playground/try-it/servers/";
/// Saved credentials larger than this are not read back.
const MAX_SAVED: usize = playground_browser::credentials::MAX_SAVED;

/// What an OAuth 2 client sends besides the token: filled in by the reader.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Client {
    /// The flow chosen (its index in the scheme's flows).
    pub flow: usize,
    /// `client_id`.
    pub id: String,
    /// `client_secret` (empty for a public client).
    pub secret: String,
    /// The user name and password of the password flow.
    pub user: String,
    /// See `user`.
    pub password: String,
    /// The scopes asked for.
    pub scopes: BTreeSet<String>,
}

impl Client {
    /// The flow chosen among `flows` (the last when the choice is past them).
    #[must_use]
    pub fn chosen<'a>(&self, flows: &'a [OAuthFlow]) -> Option<&'a OAuthFlow> {
        flows.get(self.flow.min(flows.len().saturating_sub(1)))
    }
}

/// What is saved for the remembered schemes of a document.
#[derive(Debug, Default, PartialEq, Serialize, Deserialize)]
struct Saved {
    credentials: Credentials,
    clients: BTreeMap<String, Client>,
}

/// The credentials of one document. `Copy`: the page keeps one per document for its life
/// ([`crate::page::shared`]).
#[derive(Debug, Clone, Copy)]
pub struct Vault {
    key: StoredValue<String>,
    /// The credential of each scheme that has one.
    pub credentials: RwSignal<Credentials>,
    /// The OAuth 2 client settings per scheme.
    pub clients: RwSignal<BTreeMap<String, Client>>,
    /// The schemes kept in this browser.
    pub remembered: RwSignal<BTreeSet<String>>,
    /// The flows OpenID Connect discovery found, per scheme.
    pub discovered: RwSignal<BTreeMap<String, Vec<OAuthFlow>>>,
    /// Per scheme, the last thing a flow or discovery said (`Ok` for news, `Err` for problems).
    pub messages: RwSignal<BTreeMap<String, Result<String, String>>>,
    /// Whether the code samples show the credentials instead of placeholders.
    pub in_samples: RwSignal<bool>,
    /// The values of the servers' `{variables}` the reader chose, per server URL template;
    /// kept in this browser (they are addresses, not secrets).
    pub server_values: RwSignal<BTreeMap<String, BTreeMap<String, String>>>,
}

impl Vault {
    /// A vault for the document `key`, with what this browser remembers for it, owned by the
    /// current reactive owner. The page keeps one per document ([`crate::page::shared`]).
    #[must_use]
    pub fn load(key: &str) -> Self {
        let saved: Saved = read_saved(playground_browser::get(&storage_key(key)).ok().flatten());
        let server_values = read_saved(playground_browser::get(&servers_key(key)).ok().flatten());
        Self {
            key: StoredValue::new(key.to_owned()),
            remembered: RwSignal::new(saved.schemes()),
            credentials: RwSignal::new(saved.credentials),
            clients: RwSignal::new(saved.clients),
            discovered: RwSignal::new(BTreeMap::new()),
            messages: RwSignal::new(BTreeMap::new()),
            in_samples: RwSignal::new(false),
            server_values: RwSignal::new(server_values),
        }
    }

    /// Sets (or, with `None`, clears) the credential of `scheme`, saved when it is remembered.
    pub fn set(&self, scheme: &str, credential: Option<Credential>) {
        self.credentials.update(|c| match credential {
            Some(credential) => {
                c.0.insert(scheme.to_owned(), credential);
            }
            None => {
                c.0.remove(scheme);
            }
        });
        self.save_if_remembered(scheme);
    }

    /// Changes the OAuth 2 client settings of `scheme`.
    pub fn client(&self, scheme: &str, change: impl FnOnce(&mut Client)) {
        self.clients.update(|c| change(c.entry(scheme.to_owned()).or_default()));
        self.save_if_remembered(scheme);
    }

    /// Storage holds only remembered schemes: a change to another one has nothing to write.
    fn save_if_remembered(&self, scheme: &str) {
        if self.remembered.with_untracked(|r| r.contains(scheme)) {
            self.save();
        }
    }

    /// Keeps (or stops keeping) `scheme`'s credentials in this browser.
    pub fn remember(&self, scheme: &str, keep: bool) {
        self.remembered.update(|r| {
            if keep {
                r.insert(scheme.to_owned());
            } else {
                r.remove(scheme);
            }
        });
        self.save();
    }

    /// Sets the value of the variable `name` of the server `template`, kept in this browser.
    pub fn set_server_value(&self, template: &str, name: &str, value: String) {
        self.server_values.update(|all| {
            all.entry(template.to_owned()).or_default().insert(name.to_owned(), value);
        });
        let key = servers_key(&self.key.get_value());
        if let Ok(text) = serde_json::to_string(&self.server_values.get_untracked()) {
            let _ = playground_browser::set(&key, &text);
        }
    }

    /// The base URL of the server `template` with the reader's values, else the defaults.
    #[must_use]
    pub fn server_url(&self, template: &str, servers: &[Server]) -> String {
        self.server_values.with(|all| server_url(template, all.get(template), servers))
    }

    /// Clears `scheme`'s credentials and client settings, here and in this browser.
    pub fn forget(&self, scheme: &str) {
        self.credentials.update(|c| {
            c.0.remove(scheme);
        });
        self.clients.update(|c| {
            c.remove(scheme);
        });
        self.messages.update(|m| {
            m.insert(scheme.to_owned(), Ok("Forgotten.".to_owned()));
        });
        self.remember(scheme, false);
    }

    /// Writes the remembered schemes' credentials to storage (removes the entry when none
    /// is). Storage that is blocked or full only means nothing is remembered.
    fn save(&self) {
        let saved = self.remembered.with_untracked(|remembered| {
            self.credentials.with_untracked(|credentials| {
                self.clients.with_untracked(|clients| Saved::of(credentials, clients, remembered))
            })
        });
        let key = storage_key(&self.key.get_value());
        let _ = if saved.is_empty() {
            playground_browser::remove(&key)
        } else {
            serde_json::to_string(&saved).map_or(Ok(()), |text| playground_browser::set(&key, &text))
        };
    }

    /// Applies the credentials `view` needs to `request` (placeholders instead of secrets for
    /// the code samples, unless the reader asked for the real ones).
    pub fn apply(&self, view: &OperationView, request: &mut Request, for_samples: bool) -> Applied {
        let requirements = requirements(view);
        let placeholders = for_samples && !self.in_samples.get();
        self.credentials
            .with(|c| auth::apply(request, &requirements, &view.schemes, c, now_ms(), placeholders))
    }
}

/// The names of the schemes of each way in of `view`.
#[must_use]
pub fn requirements(view: &OperationView) -> Vec<Vec<String>> {
    view.security.iter().map(|way| way.iter().map(|s| s.name.clone()).collect()).collect()
}

/// Where the remembered credentials of `document` are kept.
#[must_use]
pub fn storage_key(document: &str) -> String {
    format!("{STORAGE_PREFIX}{document}")
}

/// Where the chosen values of the server variables of `document` are kept.
#[must_use]
pub fn servers_key(document: &str) -> String {
    format!("{SERVERS_PREFIX}{document}")
}

/// What `text`, read from storage, holds: nothing (the default) when there is no text, when it
/// is larger than [`MAX_SAVED`] or when it is not the JSON of a `T`.
fn read_saved<T: DeserializeOwned + Default>(text: Option<String>) -> T {
    text.filter(|text| text.len() <= MAX_SAVED)
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_default()
}

impl Saved {
    /// What of `credentials` and `clients` is kept in this browser: the `remembered` schemes'.
    fn of(
        credentials: &Credentials,
        clients: &BTreeMap<String, Client>,
        remembered: &BTreeSet<String>,
    ) -> Self {
        let kept = |name: &String| remembered.contains(name);
        Self {
            credentials: Credentials(
                credentials
                    .0
                    .iter()
                    .filter(|(name, _)| kept(name))
                    .map(|(n, c)| (n.clone(), c.clone()))
                    .collect(),
            ),
            clients: clients
                .iter()
                .filter(|(name, _)| kept(name))
                .map(|(n, c)| (n.clone(), c.clone()))
                .collect(),
        }
    }

    /// The schemes saved: they were remembered.
    fn schemes(&self) -> BTreeSet<String> {
        self.credentials.0.keys().chain(self.clients.keys()).cloned().collect()
    }

    fn is_empty(&self) -> bool {
        self.credentials.0.is_empty() && self.clients.is_empty()
    }
}

/// The base URL of the server `template` with the `chosen` values of its variables, else the
/// defaults `servers` give them (a template `servers` does not describe keeps the names of
/// the variables no value is chosen for).
#[must_use]
pub fn server_url(template: &str, chosen: Option<&BTreeMap<String, String>>, servers: &[Server]) -> String {
    let chosen: Vec<(String, String)> =
        chosen.map(|values| values.iter().map(|(n, v)| (n.clone(), v.clone())).collect()).unwrap_or_default();
    match servers.iter().find(|s| s.url == template) {
        Some(server) => server.resolve(&chosen),
        None => expand(template, &chosen),
    }
}

pub(crate) fn now_ms() -> f64 {
    js_sys::Date::now()
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use playground_openapi::servers::ServerVariable;
    use playground_tryit_core::auth::FlowKind;

    use super::*;

    fn names(list: &[&str]) -> BTreeSet<String> {
        list.iter().map(|&n| n.to_owned()).collect()
    }

    fn credentials() -> Credentials {
        Credentials(BTreeMap::from([
            ("apiKey".to_owned(), Credential::ApiKey("k-1".to_owned())),
            ("basic".to_owned(), Credential::Basic { user: "ann".to_owned(), password: "pw".to_owned() }),
        ]))
    }

    fn clients() -> BTreeMap<String, Client> {
        BTreeMap::from([(
            "oauth".to_owned(),
            Client { id: "app".to_owned(), scopes: names(&["read"]), ..Client::default() },
        )])
    }

    #[test]
    fn only_the_remembered_schemes_are_saved() {
        let saved = Saved::of(&credentials(), &clients(), &names(&["apiKey", "oauth"]));
        assert_eq!(saved.credentials.0.keys().collect::<Vec<_>>(), ["apiKey"]);
        assert_eq!(saved.clients.keys().collect::<Vec<_>>(), ["oauth"]);
        assert_eq!(saved.schemes(), names(&["apiKey", "oauth"]));

        let nothing = Saved::of(&credentials(), &clients(), &names(&["other"]));
        assert!(nothing.is_empty(), "{nothing:?}");
        assert!(!saved.is_empty());
    }

    #[test]
    fn what_is_saved_reads_back_whole() {
        let saved = Saved::of(&credentials(), &clients(), &names(&["apiKey", "basic", "oauth"]));
        let text = serde_json::to_string(&saved).unwrap();
        let read: Saved = read_saved(Some(text));
        assert_eq!(read, saved);
        assert_eq!(read.schemes(), names(&["apiKey", "basic", "oauth"]), "restored as remembered");
        assert_eq!(read.credentials.0.get("basic"), credentials().0.get("basic"));
        assert_eq!(read.clients.get("oauth").map(|c| c.id.as_str()), Some("app"));
    }

    #[test]
    fn saved_text_too_large_or_unreadable_reads_as_nothing() {
        let large = Saved {
            credentials: Credentials(BTreeMap::from([(
                "apiKey".to_owned(),
                Credential::ApiKey("k".repeat(MAX_SAVED)),
            )])),
            clients: BTreeMap::new(),
        };
        let text = serde_json::to_string(&large).unwrap();
        assert!(text.len() > MAX_SAVED);
        assert_eq!(read_saved::<Saved>(Some(text)), Saved::default());

        // Up to the bound it is read: the same JSON, padded to exactly MAX_SAVED bytes.
        let small =
            serde_json::to_string(&Saved::of(&credentials(), &clients(), &names(&["apiKey"]))).unwrap();
        let padded = format!("{small}{}", " ".repeat(MAX_SAVED - small.len()));
        assert_eq!(padded.len(), MAX_SAVED);
        assert_eq!(read_saved::<Saved>(Some(padded)).schemes(), names(&["apiKey"]));

        for broken in ["", "{", "[1, 2]", r#"{"credentials": 3}"#, "null"] {
            assert_eq!(read_saved::<Saved>(Some(broken.to_owned())), Saved::default(), "{broken:?}");
        }
        assert_eq!(read_saved::<Saved>(None), Saved::default());
        let values: BTreeMap<String, BTreeMap<String, String>> = read_saved(Some("\"text\"".to_owned()));
        assert!(values.is_empty());
    }

    #[test]
    fn each_document_has_keys_of_its_own() {
        assert_eq!(storage_key("https://a.example/api.json"), "playground/auth/https://a.example/api.json");
        assert_eq!(servers_key("Petstore"), "playground/try-it/servers/Petstore");
        assert_ne!(storage_key("a"), storage_key("b"));
        assert_ne!(storage_key("a"), servers_key("a"));
    }

    fn server() -> Server {
        Server {
            url: "https://{region}.api.example/{version}".to_owned(),
            description: None,
            variables: vec![
                ServerVariable {
                    name: "region".to_owned(),
                    default: "eu".to_owned(),
                    choices: vec!["eu".to_owned(), "us".to_owned()],
                    description: None,
                },
                ServerVariable {
                    name: "version".to_owned(),
                    default: "v1".to_owned(),
                    choices: vec![],
                    description: None,
                },
            ],
        }
    }

    #[test]
    fn the_server_url_takes_the_chosen_values_else_the_defaults() {
        let servers = [server()];
        let template = servers[0].url.as_str();
        assert_eq!(server_url(template, None, &servers), "https://eu.api.example/v1");
        let chosen = BTreeMap::from([("version".to_owned(), "v2".to_owned())]);
        assert_eq!(server_url(template, Some(&chosen), &servers), "https://eu.api.example/v2");
        let both = BTreeMap::from([
            ("region".to_owned(), "us".to_owned()),
            ("version".to_owned(), "beta".to_owned()),
        ]);
        assert_eq!(server_url(template, Some(&both), &servers), "https://us.api.example/beta");
        // A template the document does not describe: only the chosen values fill it.
        assert_eq!(server_url("http://{host}:8080", None, &servers), "http://{host}:8080");
        let host = BTreeMap::from([("host".to_owned(), "localhost".to_owned())]);
        assert_eq!(server_url("http://{host}:8080", Some(&host), &servers), "http://localhost:8080");
    }

    fn flow(kind: FlowKind) -> OAuthFlow {
        OAuthFlow { kind, authorization_url: None, token_url: None, refresh_url: None, scopes: Vec::new() }
    }

    #[test]
    fn the_chosen_flow_is_the_last_when_the_choice_is_past_them() {
        let flows = [flow(FlowKind::ClientCredentials), flow(FlowKind::Password)];
        let choose = |index| Client { flow: index, ..Client::default() }.chosen(&flows).map(|f| f.kind);
        assert_eq!(choose(0), Some(FlowKind::ClientCredentials));
        assert_eq!(choose(1), Some(FlowKind::Password));
        assert_eq!(choose(7), Some(FlowKind::Password));
        assert_eq!(Client::default().chosen(&[]), None);
    }
}
