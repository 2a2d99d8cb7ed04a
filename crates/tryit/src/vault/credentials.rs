//! The credentials of a document's vault (the build with the Authorization part): setting,
//! remembering and forgetting them, what of them is kept in this browser, and applying them to
//! a request.

use std::collections::{BTreeMap, BTreeSet};

use leptos::prelude::*;
use playground_http::Request;
use playground_reference::OperationView;
use playground_tryit_core::auth::{self, Applied, Credential, Credentials, OAuthFlow};
use serde::{Deserialize, Serialize};

use super::Vault;
#[cfg(all(test, not(target_arch = "wasm32")))]
use super::{MAX_SAVED, read_saved, servers_key};

/// Where remembered credentials are kept: this prefix and the document's key (the reference
/// reads which schemes are there before it loads this module).
const STORAGE_PREFIX: &str = playground_browser::credentials::STORAGE_PREFIX;

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
pub(super) struct Saved {
    pub(super) credentials: Credentials,
    pub(super) clients: BTreeMap<String, Client>,
}

impl Vault {
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
fn requirements(view: &OperationView) -> Vec<Vec<String>> {
    view.security.iter().map(|way| way.iter().map(|s| s.name.clone()).collect()).collect()
}

/// Where the remembered credentials of `document` are kept.
#[must_use]
pub fn storage_key(document: &str) -> String {
    format!("{STORAGE_PREFIX}{document}")
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
    pub(super) fn schemes(&self) -> BTreeSet<String> {
        self.credentials.0.keys().chain(self.clients.keys()).cloned().collect()
    }

    fn is_empty(&self) -> bool {
        self.credentials.0.is_empty() && self.clients.is_empty()
    }
}

/// Now, in milliseconds since the Unix epoch (as a token's expiry is kept).
pub(crate) fn now_ms() -> f64 {
    js_sys::Date::now()
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
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
