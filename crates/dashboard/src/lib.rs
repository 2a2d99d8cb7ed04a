//! Project settings > Domains: the page that takes a project owner from "add a domain" to
//! "live" (DNS instructions, verification, certificate, primary and redirects, removal), built
//! as its own JavaScript module (`dist/dashboard/petstore_dashboard.js`, `mountDomains`) so the
//! API reference's first download does not carry it.
//!
//! The page only renders [`petstore_domains::Dashboard`] and sends the owner's intent back
//! as its calls. Three things are injected from the browser: the time (`Date.now()`), IDNA (the
//! URL parser) and DNS (the simulated zone, or DNS-over-HTTPS answers fetched first).
#![deny(missing_docs)]

pub mod browser;
pub mod doh_fetch;
pub mod host_fetch;
pub mod host_state;
pub mod state;
pub mod ui;

use leptos::prelude::*;
use wasm_bindgen::prelude::*;

pub use state::{PageOptions, ResolverChoice, STORAGE_KEY};
pub use ui::host_page::HostPage;
pub use ui::page::DomainsPage;

/// Mounts the Domains page into `root`: on a host (the document has the host's
/// `<meta name="petstore-host-api">`, see [`petstore_domains::hosted`]) the page works on the
/// host's state through its API; anywhere else it is the demo with the simulated zone, with
/// the default options (saved under [`STORAGE_KEY`], a tick every 5 seconds). The page stays
/// mounted for the life of the document.
#[wasm_bindgen(js_name = mountDomains)]
pub fn mount_domains(root: web_sys::HtmlElement) {
    match host_api() {
        Some(api) => mount_host(root, api),
        None => mount_domains_with(root, PageOptions::default()),
    }
}

/// The API's base path the host named in the document, if the page is on a host.
#[must_use]
pub fn host_api() -> Option<String> {
    let document = web_sys::window()?.document()?;
    let selector = format!("meta[name=\"{}\"]", petstore_domains::hosted::HOST_META);
    let content = document.query_selector(&selector).ok()??.get_attribute("content")?;
    petstore_domains::hosted::api_base(&content)
}

/// Mounts the host's Domains page into `root`, its API at `api` (tests mount it directly).
pub fn mount_host(root: web_sys::HtmlElement, api: String) {
    leptos::mount::mount_to(root, move || view! { <HostPage api=api /> }).forget();
}

/// Mounts the Domains page into `root` with `options` (tests use their own storage key).
pub fn mount_domains_with(root: web_sys::HtmlElement, options: PageOptions) {
    leptos::mount::mount_to(root, move || view! { <DomainsPage options=options /> }).forget();
}
