//! The credentials and settings the try-it panel keeps per document: the credential of each
//! security scheme (for the page's life; in this browser too for the schemes whose "Remember"
//! is ticked, until "Forget"), the OAuth 2 client settings, and the values of the servers'
//! `{variables}`. What a request gets from them is `petstore_tryit_core::auth::apply`'s; the part of
//! the panel that fills them in is [`crate::authorize`].

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, HashMap};

use leptos::prelude::*;
use petstore_http::Request;
use petstore_reference::OperationView;
use petstore_tryit_core::auth::{self, Applied, Credential, Credentials, OAuthFlow};
use serde::{Deserialize, Serialize};

/// Where remembered credentials are kept: this prefix and the document's key.
const STORAGE_PREFIX: &str = "petstore-playground/auth/";
/// Where the chosen values of server variables are kept: this prefix and the document's key.
const SERVERS_PREFIX: &str = "petstore-playground/try-it/servers/";
/// Saved credentials larger than this are not read back.
const MAX_SAVED: usize = 64 * 1024;

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

/// What is saved for the remembered schemes of a document.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Saved {
    credentials: Credentials,
    clients: BTreeMap<String, Client>,
}

/// The credentials of one document. `Copy`: one per document for the page's life.
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

thread_local! {
    /// Every document's vault, under an owner of its own (closing a panel keeps them).
    static VAULTS: (Owner, RefCell<HashMap<String, Vault>>) = (Owner::new_root(None), RefCell::default());
}

impl Vault {
    /// The vault of the document `key`, with what this browser remembers for it.
    #[must_use]
    pub fn of(key: &str) -> Self {
        VAULTS.with(|(owner, vaults)| {
            if let Some(vault) = vaults.borrow().get(key) {
                return *vault;
            }
            let saved = petstore_browser::get(&storage_key(key))
                .ok()
                .flatten()
                .filter(|text| text.len() <= MAX_SAVED)
                .and_then(|text| serde_json::from_str::<Saved>(&text).ok())
                .unwrap_or_default();
            let vault = owner.with(|| Self {
                key: StoredValue::new(key.to_owned()),
                remembered: RwSignal::new(
                    saved.credentials.0.keys().chain(saved.clients.keys()).cloned().collect(),
                ),
                credentials: RwSignal::new(saved.credentials),
                clients: RwSignal::new(saved.clients),
                discovered: RwSignal::new(BTreeMap::new()),
                messages: RwSignal::new(BTreeMap::new()),
                in_samples: RwSignal::new(false),
                server_values: RwSignal::new(
                    petstore_browser::get(&format!("{SERVERS_PREFIX}{key}"))
                        .ok()
                        .flatten()
                        .filter(|text| text.len() <= MAX_SAVED)
                        .and_then(|text| serde_json::from_str(&text).ok())
                        .unwrap_or_default(),
                ),
            });
            vaults.borrow_mut().insert(key.to_owned(), vault);
            vault
        })
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
        let key = format!("{SERVERS_PREFIX}{}", self.key.get_value());
        if let Ok(text) = serde_json::to_string(&self.server_values.get_untracked()) {
            let _ = petstore_browser::set(&key, &text);
        }
    }

    /// The base URL of the server `template` with the reader's values, else the defaults.
    #[must_use]
    pub fn server_url(&self, template: &str, servers: &[petstore_openapi::servers::Server]) -> String {
        let chosen: Vec<(String, String)> = self
            .server_values
            .with(|all| all.get(template).map(|v| v.clone().into_iter().collect()).unwrap_or_default());
        match servers.iter().find(|s| s.url == template) {
            Some(server) => server.resolve(&chosen),
            None => petstore_openapi::servers::expand(template, &chosen),
        }
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
        let remembered = self.remembered.get_untracked();
        let saved = Saved {
            credentials: Credentials(
                self.credentials
                    .get_untracked()
                    .0
                    .into_iter()
                    .filter(|(name, _)| remembered.contains(name))
                    .collect(),
            ),
            clients: self
                .clients
                .get_untracked()
                .into_iter()
                .filter(|(name, _)| remembered.contains(name))
                .collect(),
        };
        let key = storage_key(&self.key.get_value());
        let _ = if saved.credentials.0.is_empty() && saved.clients.is_empty() {
            petstore_browser::remove(&key)
        } else {
            serde_json::to_string(&saved).map_or(Ok(()), |text| petstore_browser::set(&key, &text))
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

fn storage_key(document: &str) -> String {
    format!("{STORAGE_PREFIX}{document}")
}

pub(crate) fn now_ms() -> f64 {
    js_sys::Date::now()
}
