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
pub mod state;
pub mod ui;

use leptos::prelude::*;
use wasm_bindgen::prelude::*;

pub use state::{PageOptions, ResolverChoice, STORAGE_KEY};
pub use ui::page::DomainsPage;

/// Mounts the Domains page into `root` with the default options (saved under [`STORAGE_KEY`],
/// a tick every 5 seconds). The page stays mounted for the life of the document.
#[wasm_bindgen(js_name = mountDomains)]
pub fn mount_domains(root: web_sys::HtmlElement) {
    mount_domains_with(root, PageOptions::default());
}

/// Mounts the Domains page into `root` with `options` (tests use their own storage key).
pub fn mount_domains_with(root: web_sys::HtmlElement, options: PageOptions) {
    leptos::mount::mount_to(root, move || view! { <DomainsPage options=options /> }).forget();
}
