//! What the Domains page asks of where the domains live: the simulated zone of the demo
//! ([`crate::state::Ctx`]) or the host's API ([`crate::host_state::HostCtx`]). The page
//! (`ui::page`) is one component over either; each module carries only the one of its mode.

use std::future::Future;

use leptos::prelude::*;
use playground_domains::{DomainConfig, DomainRole, Trouble};

use crate::ui::add_domain::AddRequest;
use crate::view::DomainView;

/// What a domain's card asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CardSend {
    /// Verify (`again` false) or Re-verify (`again` true).
    Check {
        /// Re-verify rather than Verify.
        again: bool,
    },
    /// Make it the primary.
    MakePrimary,
    /// Keep it attached as a 301 redirect to this domain instead of removing it.
    KeepAsRedirect(String),
    /// Set what it does while it serves and is not the primary.
    Role(DomainRole),
    /// Remove it.
    Remove,
}

/// Where the Domains page reads and sends: every method reads signals (tracked unless said)
/// or returns what to send. The parts only one mode has are views, empty by default.
pub trait DomainsBackend: Copy + Send + Sync + 'static {
    /// The page's `data-mode`: `demo` or `host`.
    const MODE: &'static str;

    /// Starts what runs with the page (saving and the clock, or the first request).
    fn run(self);

    /// Where the owner is (`checking`, `signed-out` or `signed-in`), the page's
    /// `data-session`; `None` where there is no sign-in.
    fn session(self) -> Option<&'static str> {
        None
    }

    /// What the page shows while not signed in (`session` is neither `None` nor `signed-in`).
    fn gate(self, _session: &'static str) -> AnyView {
        ().into_any()
    }

    /// Under the title, before the lead (the demo's label).
    fn label(self) -> AnyView {
        ().into_any()
    }

    /// Above the notices (the account on a host).
    fn header(self) -> AnyView {
        ().into_any()
    }

    /// Page-wide notices.
    fn notices(self) -> RwSignal<Vec<String>>;

    /// In the notices' region, after them (a failed load on a host).
    fn notices_more(self) -> AnyView {
        ().into_any()
    }

    /// Starts what runs while the domains are shown (on a host, asking again while a
    /// certificate is pending).
    fn follow(self) {}

    /// Between the notices and the project (the project's choice on a host).
    fn chooser(self) -> AnyView {
        ().into_any()
    }

    /// Whether the project is there to show; the page shows [`DomainsBackend::loading`] until
    /// then.
    fn loaded(self) -> bool {
        true
    }

    /// What the page shows until the project is there.
    fn loading(self) -> AnyView {
        ().into_any()
    }

    /// Where the project is published (and what keeps it from custom domains).
    fn published(self) -> AnyView;

    /// Before Add domain (the demo's settings).
    fn settings(self) -> AnyView {
        ().into_any()
    }

    /// After the troubleshooting (the demo's simulated zone).
    fn zone(self) -> AnyView {
        ().into_any()
    }

    /// Add domain: the name of `request`, then [`AddRequest::finish`].
    fn add_domain(self, request: AddRequest) -> impl Future<Output = ()>;

    /// What happened to a domain that is no longer listed (its removal).
    fn announcement(self) -> RwSignal<String>;

    /// The domains' names, in order.
    fn domain_names(self) -> Vec<String>;

    /// What the card of `name` shows now.
    fn card(self, name: &str) -> DomainView;

    /// Sends what the card of `name` asks for; the outcome is on the card.
    fn send(self, name: String, send: CardSend) -> impl Future<Output = ()>;

    /// The troubleshooting answers.
    fn troubles(self) -> Vec<Trouble>;

    /// The configuration as files.
    fn config(self) -> DomainConfig;

    /// The attached domains' names.
    fn attached(self) -> Vec<String>;

    /// The names served besides the published address.
    fn also_served(self) -> Vec<String>;
}
