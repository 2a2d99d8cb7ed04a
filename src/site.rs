//! Site mode: the page of a site `playground build` published, whose description is the page's
//! own. The build writes the configuration into `<script type="application/json"
//! id="playground-site">` (`playground_reference::site::SiteConfig`, read once at start) and the
//! reference's first paint into `#prerendered` (`playground_reference::html::prerender`), which
//! the app removes when its own page takes its place.

use std::sync::Arc;

use playground_reference::site::{CONFIG_ID, PRERENDERED_ID, SiteConfig, TryIt};

/// The site's configuration, in context when the page is a published site. A test may
/// provide it before mounting [`crate::App`]; otherwise the app reads the page's element.
#[derive(Debug, Clone)]
pub struct Site(pub Arc<SiteConfig>);

impl Site {
    /// Whether try-it panels offer the in-browser mock: when it is their target, or when the
    /// site shows the Mock block (a reader who sees the mock's data may want to send to it).
    #[must_use]
    pub fn offers_mock(&self) -> bool {
        self.0.try_it == TryIt::Mock || self.0.mock
    }
}

/// The page's configuration: `None` without the element (the Petstore demo), else the
/// configuration or why it cannot be read.
#[must_use]
pub fn read() -> Option<Result<Site, String>> {
    let element = web_sys::window()?.document()?.get_element_by_id(CONFIG_ID)?;
    let text = element.text_content().unwrap_or_default();
    Some(SiteConfig::parse(&text).map(|config| Site(Arc::new(config))))
}

/// Removes the first paint drawn before the app (the build's, or the first screen of a `?url=`
/// document, www/first-screen.js), once the app's page is there to replace it (call it while
/// rendering that page, so both happen in one task and no frame shows neither).
pub fn remove_prerendered() {
    if let Some(element) =
        web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id(PRERENDERED_ID))
    {
        element.remove();
    }
}

/// Gives the page the site's accent colour (the `--accent` variable of `www/theme.css`) and
/// title. index.html's first script does the same before the first paint; this covers a page
/// whose configuration comes after that script.
pub fn apply(site: &Site, title: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
    document.set_title(&format!("{title} reference"));
    if let (Some(accent), Some(root)) = (site.0.accent_value(), document.document_element())
        && let Ok(root) = wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(root)
    {
        let _ = root.style().set_property("--accent", &accent);
    }
}
