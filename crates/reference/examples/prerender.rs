//! Prints a site's first paint (`playground_reference::html::prerender`) of a JSON description,
//! for a look at it before `playground build` writes it:
//! `cargo run -p playground-reference --example prerender -- openapi.json ['{"document":…}']`.

use playground_reference::site::SiteConfig;

fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let path = args.next().ok_or("usage: prerender <openapi.json> [site configuration JSON]")?;
    let site = match args.next() {
        Some(json) => SiteConfig::parse(&json)?,
        None => SiteConfig::new("openapi.json"),
    };
    let text = std::fs::read(&path).map_err(|e| format!("{path}: {e}"))?;
    let (document, catalog) =
        playground_openapi::document::load_json(text).map_err(|e| format!("{path}: {e}"))?;
    let html = playground_reference::html::prerender(&document, &catalog, &site);
    std::io::Write::write_all(&mut std::io::stdout(), html.as_bytes()).map_err(|e| e.to_string())
}
