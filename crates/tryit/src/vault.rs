//! The credentials and settings the try-it panel keeps per document: the values of the servers'
//! `{variables}` and, in the build with the Authorization part (`extras`, `credentials.rs`), the
//! credential of each security scheme (for the page's life; in this browser too for the schemes
//! whose "Remember" is ticked, until "Forget") and the OAuth 2 client settings. What a request
//! gets from them is `playground_tryit_core::auth::apply`'s; the part of the panel that fills
//! them in is `crate::authorize`. The build without it is mounted only for operations that name
//! no security scheme the document describes (`OperationView::needs_full_try_it`): its vault
//! has no credentials, and applies none.

#[cfg(feature = "extras")]
mod credentials;

use std::collections::BTreeMap;
#[cfg(feature = "extras")]
use std::collections::BTreeSet;

#[cfg(feature = "extras")]
pub use credentials::Client;
#[cfg(feature = "extras")]
pub(crate) use credentials::now_ms;
#[cfg(feature = "extras")]
pub use credentials::storage_key;
use leptos::prelude::*;
use playground_openapi::servers::{Server, expand};
#[cfg(feature = "extras")]
use playground_tryit_core::auth::{Credentials, OAuthFlow};
use serde::de::DeserializeOwned;

/// Where the chosen values of server variables are kept: this prefix and the document's key.
const SERVERS_PREFIX: &str = "playground/try-it/servers/";
/// Saved credentials and server values larger than this are not read back.
const MAX_SAVED: usize = playground_browser::credentials::MAX_SAVED;

/// The credentials and settings of one document. `Copy`: the page keeps one per document for
/// its life ([`crate::page::shared`]).
#[derive(Debug, Clone, Copy)]
pub struct Vault {
    key: StoredValue<String>,
    /// The credential of each scheme that has one.
    #[cfg(feature = "extras")]
    pub credentials: RwSignal<Credentials>,
    /// The OAuth 2 client settings per scheme.
    #[cfg(feature = "extras")]
    pub clients: RwSignal<BTreeMap<String, Client>>,
    /// The schemes kept in this browser.
    #[cfg(feature = "extras")]
    pub remembered: RwSignal<BTreeSet<String>>,
    /// The flows OpenID Connect discovery found, per scheme.
    #[cfg(feature = "extras")]
    pub discovered: RwSignal<BTreeMap<String, Vec<OAuthFlow>>>,
    /// Per scheme, the last thing a flow or discovery said (`Ok` for news, `Err` for problems).
    #[cfg(feature = "extras")]
    pub messages: RwSignal<BTreeMap<String, Result<String, String>>>,
    /// Whether the code samples show the credentials instead of placeholders.
    #[cfg(feature = "extras")]
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
        let server_values = read_saved(playground_browser::get(&servers_key(key)).ok().flatten());
        #[cfg(feature = "extras")]
        let saved: credentials::Saved =
            read_saved(playground_browser::get(&credentials::storage_key(key)).ok().flatten());
        Self {
            key: StoredValue::new(key.to_owned()),
            #[cfg(feature = "extras")]
            remembered: RwSignal::new(saved.schemes()),
            #[cfg(feature = "extras")]
            credentials: RwSignal::new(saved.credentials),
            #[cfg(feature = "extras")]
            clients: RwSignal::new(saved.clients),
            #[cfg(feature = "extras")]
            discovered: RwSignal::new(BTreeMap::new()),
            #[cfg(feature = "extras")]
            messages: RwSignal::new(BTreeMap::new()),
            #[cfg(feature = "extras")]
            in_samples: RwSignal::new(false),
            server_values: RwSignal::new(server_values),
        }
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

    /// Applies no credentials: this build is mounted only for operations that name no
    /// security scheme the document describes, which have none to apply.
    #[cfg(not(feature = "extras"))]
    #[allow(clippy::unused_self)]
    pub fn apply(
        &self,
        _view: &playground_reference::OperationView,
        _request: &mut playground_http::Request,
        _for_samples: bool,
    ) -> playground_tryit_core::auth::Applied {
        playground_tryit_core::auth::Applied::default()
    }
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

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use playground_openapi::servers::ServerVariable;

    use super::*;

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

    #[test]
    fn saved_server_values_too_large_or_unreadable_read_as_nothing() {
        type Values = BTreeMap<String, BTreeMap<String, String>>;
        assert!(read_saved::<Values>(Some("\"text\"".to_owned())).is_empty());
        let large = format!(r#"{{"t": {{"v": "{}"}}}}"#, "x".repeat(MAX_SAVED));
        assert!(read_saved::<Values>(Some(large)).is_empty());
        let values = read_saved::<Values>(Some(r#"{"t": {"v": "x"}}"#.to_owned()));
        assert_eq!(values["t"]["v"], "x");
    }
}
