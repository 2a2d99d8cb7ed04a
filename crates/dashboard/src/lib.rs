//! Project settings > Domains: the page that takes a project owner from "add a domain" to
//! "live" (DNS instructions, verification, certificate, primary and redirects, removal), built
//! as its own JavaScript module (`mountDomains`) so the API reference's first download does not
//! carry it.
//!
//! The page only renders [`playground_domains::Dashboard`] and sends the owner's intent back
//! as its calls. Three things are injected from the browser: the time (`Date.now()`), IDNA (the
//! URL parser) and DNS (the simulated zone, or DNS-over-HTTPS answers fetched first).
//!
//! Two modes, each a cargo feature and a module of its own (both features are on by default, for
//! tests and clippy; `scripts/build-modules.sh` builds each alone), so each page downloads only
//! its own. `www/domains.html` picks one:
//!
//! - `demo`, `dist/dashboard/playground_dashboard.js`: the static page (`make serve`, a copy of
//!   `dist/`) with its simulated zone, labelled as such. `state.rs` holds the signals around the
//!   core `Dashboard` and every action (read the clock, call the core, `tick`, record the core's
//!   `Event` and `Outcome`); a timer ticks every 5 seconds; the dashboard is saved with `to_json`
//!   after every change (an unreadable value is kept under `{key}/unreadable` and the page starts
//!   fresh with a notice), and the resolver choice apart under `{key}/resolver`. `doh_fetch.rs`
//!   fetches the DNS-over-HTTPS answers the core's checks ask for (5-second timeouts, a sentence
//!   for each failure) before it verifies against them.
//! - `host`, `dist/dashboard-host/playground_dashboard.js`: the page `playground host` serves on
//!   its admin host, which adds `<meta name="playground-host-api">` to it (a `<meta>` rather than a
//!   probe, so the demo sends no request). `host_state.rs` holds the session, the owner's
//!   projects, the chosen project as the host last answered and the requests in flight; every
//!   change is one request whose answer replaces what is shown. While a certificate is pending it
//!   asks again every 2 seconds, only while the tab is visible. `host_fetch.rs` sends
//!   same-origin, uncached JSON requests with a 45-second timeout.
//!
//! The page is one component over its backend (`backend.rs`, `DomainsBackend`: what the page
//! asks of where the domains live): `ui/page.rs` renders the sections every mode has, and
//! `ui/demo.rs` and `ui/host.rs` add what only one mode has (the demo's settings and zone; the
//! host's sign-in, account and project choice). `browser.rs` holds the clock, IDNA, the
//! clipboard and the page's sentences for `localStorage` (over `playground-browser`); `ui/` has
//! one section per file. Every control has a label and a `data-testid`; results are in
//! `role=status` or `alert` regions. The colours and base rules are `www/theme.css`, shared with
//! the reference.
//!
//! Tests: browser tests `tests/page.rs` (the walk, names and IDNA, conflicts and CAA, reload,
//! unreadable storage) and `tests/host_page.rs` (against a stand-in `fetch`), and the end-to-end
//! tests `tests/e2e/domains.test.mjs` and `tests/e2e/host.test.mjs`.
#![deny(missing_docs)]

#[cfg(not(any(feature = "demo", feature = "host")))]
compile_error!("playground-dashboard needs the feature demo, host, or both");

pub mod backend;
pub mod browser;
#[cfg(feature = "demo")]
pub mod doh_fetch;
#[cfg(feature = "host")]
pub mod host_fetch;
#[cfg(feature = "host")]
pub mod host_state;
#[cfg(feature = "demo")]
pub mod state;
pub mod ui;
pub mod view;

use leptos::prelude::*;
use wasm_bindgen::prelude::*;

pub use backend::DomainsBackend;
#[cfg(feature = "host")]
use host_state::HostCtx;
#[cfg(feature = "demo")]
use state::Ctx;
#[cfg(feature = "demo")]
pub use state::{PageOptions, ResolverChoice, STORAGE_KEY};
pub use ui::page::DomainsPage;

/// Mounts the Domains page into `root`: on a host (the document has the host's
/// `<meta name="playground-host-api">`, see [`playground_domains::hosted`]) the page works on the
/// host's state through its API; anywhere else it is the demo with the simulated zone, with
/// the default options (saved under `STORAGE_KEY`, a tick every 5 seconds). A module built with
/// one mode only (feature `demo` or `host`, as `scripts/build-modules.sh` builds them) mounts
/// that mode. The page stays mounted for the life of the document.
#[wasm_bindgen(js_name = mountDomains)]
pub fn mount_domains(root: web_sys::HtmlElement) {
    // The dashboard saved under the page's earlier prefix is read as it was.
    let _ = playground_browser::move_legacy_keys();
    #[cfg(feature = "host")]
    let root = match host_api() {
        Some(api) => return mount_host(root, api),
        None => root,
    };
    #[cfg(feature = "demo")]
    mount_domains_with(root, PageOptions::default());
    #[cfg(not(feature = "demo"))]
    mount_host(root, playground_domains::hosted::DEFAULT_API.to_owned());
}

/// The API's base path the host named in the document, if the page is on a host.
#[cfg(feature = "host")]
#[must_use]
pub fn host_api() -> Option<String> {
    let document = web_sys::window()?.document()?;
    let selector = format!("meta[name=\"{}\"]", playground_domains::hosted::HOST_META);
    let content = document.query_selector(&selector).ok()??.get_attribute("content")?;
    playground_domains::hosted::api_base(&content)
}

/// Mounts the host's Domains page into `root`, its API at `api` (tests mount it directly).
#[cfg(feature = "host")]
pub fn mount_host(root: web_sys::HtmlElement, api: String) {
    leptos::mount::mount_to(root, move || view! { <DomainsPage backend=HostCtx::new(&api) /> }).forget();
}

/// Mounts the Domains page into `root` with `options` (tests use their own storage key).
#[cfg(feature = "demo")]
pub fn mount_domains_with(root: web_sys::HtmlElement, options: PageOptions) {
    leptos::mount::mount_to(root, move || view! { <DomainsPage backend=Ctx::new(&options) /> }).forget();
}
