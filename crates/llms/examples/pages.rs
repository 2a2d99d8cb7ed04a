//! Writes the Markdown pages of a JSON OpenAPI 3 description into a folder:
//! `cargo run -p playground-llms --example pages -- openapi.json out/` (no folder: the
//! Petstore's, listed with their sizes).

use std::path::Path;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let document: serde_json::Value = match args.next() {
        Some(path) => serde_json::from_slice(&std::fs::read(path)?)?,
        None => (*petstore::document::petstore_value()).clone(),
    };
    let catalog = playground_openapi::Catalog::from_value(&document)?;
    let started = std::time::Instant::now();
    let pages = playground_llms::pages(&document, &catalog, &catalog.title);
    eprintln!("{} pages in {:?}", pages.len(), started.elapsed());
    match args.next() {
        Some(out) => {
            for page in &pages {
                let path = Path::new(&out).join(&page.path);
                if let Some(parent) = path.parent() {
                    std::fs::create_dir_all(parent)?;
                }
                std::fs::write(path, &page.text)?;
            }
        }
        None => {
            for page in &pages {
                eprintln!("{:>9} {}", page.text.len(), page.path);
            }
        }
    }
    Ok(())
}
