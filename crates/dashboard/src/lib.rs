//! Project settings > Domains: the page that takes a project owner from "add a domain" to
//! "live" (DNS instructions, verification, certificate, primary and redirects, removal), built
//! as its own JavaScript module (`dist/dashboard/playground_dashboard.js`, `mountDomains`) so the
//! API reference's first download does not carry it.
//!
//! The page only renders [`playground_domains::Dashboard`] and sends the owner's intent back
//! as its calls. Three things are injected from the browser: the time (`Date.now()`), IDNA (the
//! URL parser) and DNS (the simulated zone, or DNS-over-HTTPS answers fetched first).
#![deny(missing_docs)]

#[cfg(not(any(feature = "demo", feature = "host")))]
compile_error!("playground-dashboard needs the feature demo, host, or both");

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

#[cfg(feature = "demo")]
pub use state::{PageOptions, ResolverChoice, STORAGE_KEY};
#[cfg(feature = "host")]
pub use ui::host_page::HostPage;
#[cfg(feature = "demo")]
pub use ui::page::DomainsPage;

/// Mounts the Domains page into `root`: on a host (the document has the host's
/// `<meta name="playground-host-api">`, see [`playground_domains::hosted`]) the page works on the
/// host's state through its API; anywhere else it is the demo with the simulated zone, with
/// the default options (saved under `STORAGE_KEY`, a tick every 5 seconds). A module built with
/// one mode only (feature `demo` or `host`, as `scripts/build-modules.sh` builds them) mounts
/// that mode. The page stays mounted for the life of the document.
#[wasm_bindgen(js_name = mountDomains)]
pub fn mount_domains(root: web_sys::HtmlElement) {
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
    leptos::mount::mount_to(root, move || view! { <HostPage api=api /> }).forget();
}

/// Mounts the Domains page into `root` with `options` (tests use their own storage key).
#[cfg(feature = "demo")]
pub fn mount_domains_with(root: web_sys::HtmlElement, options: PageOptions) {
    leptos::mount::mount_to(root, move || view! { <DomainsPage options=options /> }).forget();
}
