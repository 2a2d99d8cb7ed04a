//! What the panels of one page share: each document's [`Vault`] and the answers of every
//! operation ([`History`]). [`crate::mount_try_it`] takes them from here and hands them to the
//! panel it renders; nothing below it reads this module.

use std::cell::RefCell;
use std::collections::HashMap;

use leptos::prelude::*;

use crate::panel::History;
use crate::vault::Vault;

/// The state that outlives a panel, under a reactive owner of its own.
struct Shared {
    owner: Owner,
    vaults: RefCell<HashMap<String, Vault>>,
    history: History,
}

thread_local! {
    /// The page's shared state. A static because nothing else lives as long: the page loads
    /// this module once and calls `mountTryIt` for every operation the reader opens, each call
    /// a Leptos root of its own that the page disposes when the operation closes. Credentials
    /// typed in one operation's panel are sent by the next operation that uses the scheme, and
    /// an operation's answers are there again when it is reopened; the page cannot keep them
    /// for the module (it hands `mountTryIt` only text and a function, across two wasm
    /// memories), so the module's instance does.
    static SHARED: Shared = {
        let owner = Owner::new_root(None);
        let history = owner.with(History::new);
        Shared { owner, vaults: RefCell::default(), history }
    };
}

/// The vault of the document `document_key` (made, with what this browser remembers for it,
/// the first time it is asked for) and the page's history.
#[must_use]
pub fn shared(document_key: &str) -> (Vault, History) {
    SHARED.with(|shared| {
        let known = shared.vaults.borrow().get(document_key).copied();
        let vault = known.unwrap_or_else(|| {
            let vault = shared.owner.with(|| {
                let vault = Vault::load(document_key);
                // Only this build changes credentials: the one without it has no Authorization
                // part, and would announce the remembered ones over those typed here.
                #[cfg(feature = "extras")]
                crate::authorize::announce(document_key, vault);
                vault
            });
            shared.vaults.borrow_mut().insert(document_key.to_owned(), vault);
            vault
        });
        (vault, shared.history)
    })
}
