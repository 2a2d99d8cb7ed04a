//! The Markdown of a description, for readers that want text rather than a page: `llms.txt`
//! (every page linked once, after <https://llmstxt.org>), `llms-full.txt` (the overview, every
//! operation and every schema in one file), the overview (`index.md`), and one page per
//! operation (webhooks too), tag and component schema, each file named as
//! [`playground_openapi::outline::markdown_file`] names it. A published site writes them beside
//! its page (`playground build`).
//!
//! - Pages are written from the reference's views (`playground_reference::OperationView`,
//!   `SchemaView`): their trees and generated examples are already bounded (12 levels, 2,000
//!   nodes), and a `$ref` that does not resolve is a sentence under "Not shown", as on the page.
//! - Links are relative (`../schemas/Pet.md` from an operation's page), so a site served under
//!   a folder keeps them; `llms-full.txt` writes them relative to the site's top.
//! - Bounds: a page is cut at [`MAX_PAGE_BYTES`] with a note, `llms.txt` at
//!   [`MAX_LLMS_TXT_BYTES`], an example over 64 KiB is left out; `llms-full.txt` stops adding
//!   pages at [`MAX_FULL_BYTES`] and says how many it left out.
//! - Schema trees are nested lists (`` - `name` (string, required): description ``), two spaces
//!   a level, a component's fields listed the first time a page shows it and named after that;
//!   parameters a table, its cells escaped.
//! - The views are most of the cost (GitHub's description: some 1,500 operations and 1,000
//!   schemas): on native targets the pages are written on as many threads as there are cores.
//!
//! `cargo run -p playground-llms --example pages -- openapi.json out/` writes a JSON
//! description's pages into `out/`.
//!
//! Tests: `tests/` (the Petstore, a small 3.1 description with a cycle, webhooks and odd names,
//! a generated one past the bound of `llms-full.txt`, broken references).
#![deny(missing_docs)]

mod operation;
mod schema;
mod site;
mod text;

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

use playground_openapi::Catalog;
use playground_openapi::catalog::{Method, OperationSummary};
use playground_openapi::outline::{SCHEMAS_ANCHOR, markdown_file, schema_anchor, tag_anchor};
use playground_reference::SchemaView;
use serde_json::Value;

use crate::schema::Base;

#[cfg(test)]
mod tests;

/// The index of a site's Markdown: every page, one link each.
pub const INDEX: &str = "llms.txt";

/// Every page of a site's Markdown in one file, bounded by [`MAX_FULL_BYTES`].
pub const FULL: &str = "llms-full.txt";

/// The names at a site's top that its Markdown takes: files, and the folders of the pages.
pub const TOP_NAMES: [&str; 6] = [INDEX, FULL, "index.md", "operations", "tags", "schemas"];

/// The largest page: one past it is cut, with a note (a tree is at most 2,000 nodes, but an
/// operation may have many of them).
pub const MAX_PAGE_BYTES: usize = 1024 * 1024;

/// The largest `llms.txt`: a line an operation is about 150 bytes, so 4 MiB lists some 25,000.
pub const MAX_LLMS_TXT_BYTES: usize = 4 * 1024 * 1024;

/// `llms-full.txt` stops adding pages past this size.
pub const MAX_FULL_BYTES: usize = 8 * 1024 * 1024;

/// Between two pages of `llms-full.txt`.
const SEPARATOR: &str = "\n---\n\n";

/// One Markdown file of a site, its path relative to the site's top (as
/// [`playground_openapi::outline::markdown_file`] names it, or [`INDEX`] or [`FULL`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page {
    /// The path, relative to the site's top, `/` between folders.
    pub path: String,
    /// The Markdown.
    pub text: String,
}

/// Every Markdown file of the site of `document` (an OpenAPI 3.x document, Swagger already
/// converted) listed by `catalog`: [`INDEX`], [`FULL`], `index.md`, one page per operation
/// (webhooks too), per tag that the catalog's groups have, per component schema, and
/// `schemas/index.md`. `title` is the site's title.
#[must_use]
pub fn pages(document: &Value, catalog: &Catalog, title: &str) -> Vec<Page> {
    let schemas = schema_names(document);
    let tags = tags_of(catalog);
    let mut written = HashSet::new();
    let operations: Vec<&OperationSummary> =
        catalog.operations().filter(|op| written.insert(markdown_file(&op.anchor()))).collect();

    // The views are most of the work (GitHub's description: 1,200 operations, 900 schemas):
    // each page is written on its own, on as many threads as there are cores.
    let operation_pages = parallel_map(&operations, |op| {
        let view = operation::view(document, op);
        let tags = tags.get(&key(op)).map_or(&[][..], Vec::as_slice);
        let mut text = String::new();
        operation::page(&mut text, op, view.as_ref().map_err(String::as_str), tags, Base("../"));
        Page { path: markdown_file(&op.anchor()), text: bounded(text) }
    });
    let schema_pages = parallel_map(&schemas, |name| {
        let view = SchemaView::build_text(document, name).map_err(|e| e.to_string());
        let mut text = String::new();
        site::schema_page(&mut text, name, view.as_ref().map_err(Clone::clone), Base("../"));
        Page { path: markdown_file(&schema_anchor(name)), text: bounded(text) }
    });

    let overview = bounded(site::overview(document, catalog, title, Base("")));
    let mut full = Full::new();
    full.add(&overview);
    for page in operation_pages.iter().chain(&schema_pages) {
        full.add_nested(&page.text);
    }
    let index = text::bounded(
        site::llms_txt(document, catalog, title, &schemas),
        MAX_LLMS_TXT_BYTES,
        &format!(
            "This list is cut at {} MiB; the overview, index.md, links every tag.",
            MAX_LLMS_TXT_BYTES >> 20
        ),
    );

    let mut out = vec![
        Page { path: INDEX.to_owned(), text: index },
        Page { path: FULL.to_owned(), text: full.finish() },
        Page { path: "index.md".to_owned(), text: overview },
    ];
    out.extend(operation_pages);
    let facts = site::facts(document);
    for (name, _, _) in site::tag_names(catalog) {
        let text = site::tag_page(document, catalog, &facts, &name);
        out.push(Page { path: markdown_file(&tag_anchor(&name)), text: bounded(text) });
    }
    out.push(Page {
        path: markdown_file(SCHEMAS_ANCHOR),
        text: bounded(site::schema_list(document, &schemas)),
    });
    out.extend(schema_pages);
    out
}

/// `f` of each item, in order: on native targets spread over the cores (at most 8 threads),
/// on WebAssembly (the npm package's build, in Node) one after the other.
fn parallel_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    #[cfg(not(target_arch = "wasm32"))]
    {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let threads = std::thread::available_parallelism().map_or(1, usize::from).min(8).min(items.len());
        if threads > 1 {
            // Each thread takes the next item when done with its own: pages differ in cost.
            let next = AtomicUsize::new(0);
            let mut done: Vec<(usize, R)> = std::thread::scope(|scope| {
                let workers: Vec<_> = (0..threads)
                    .map(|_| {
                        scope.spawn(|| {
                            let mut mine = Vec::new();
                            loop {
                                let i = next.fetch_add(1, Ordering::Relaxed);
                                let Some(item) = items.get(i) else { break };
                                mine.push((i, f(item)));
                            }
                            mine
                        })
                    })
                    .collect();
                // A worker that panicked leaves its part out: the items are then done again
                // below, one after the other, where the panic surfaces.
                workers.into_iter().flat_map(|worker| worker.join().unwrap_or_default()).collect()
            });
            if done.len() == items.len() {
                done.sort_unstable_by_key(|(i, _)| *i);
                return done.into_iter().map(|(_, r)| r).collect();
            }
        }
    }
    items.iter().map(f).collect()
}

/// The Markdown of one operation: the text of its page (links relative to the `operations/`
/// folder, e.g. `../schemas/Pet.md`).
#[must_use]
pub fn operation_markdown(document: &Value, catalog: &Catalog, operation: &OperationSummary) -> String {
    let tags: Vec<(String, String)> = catalog
        .groups
        .iter()
        .flat_map(|g| &g.tags)
        .filter(|t| {
            t.name != playground_openapi::catalog::WEBHOOKS
                && t.operations.iter().any(|o| key(o) == key(operation))
        })
        .map(|t| (t.name.clone(), t.title.clone()))
        .collect();
    let view = operation::view(document, operation);
    let mut text = String::new();
    operation::page(&mut text, operation, view.as_ref().map_err(String::as_str), &tags, Base("../"));
    bounded(text)
}

/// A page cut at [`MAX_PAGE_BYTES`], with a note.
fn bounded(text: String) -> String {
    text::bounded(
        text,
        MAX_PAGE_BYTES,
        &format!("This page is cut at {} MiB; the description has the rest.", MAX_PAGE_BYTES >> 20),
    )
}

/// What tells two operations apart: a webhook's or a path's, its method, its path or name.
type Key<'a> = (bool, Method, &'a str);

fn key(op: &OperationSummary) -> Key<'_> {
    (op.webhook, op.method, op.path.as_str())
}

/// The tags (name and title) that list each operation, webhooks' list aside.
fn tags_of(catalog: &Catalog) -> HashMap<Key<'_>, Vec<(String, String)>> {
    let mut tags: HashMap<Key<'_>, Vec<(String, String)>> = HashMap::new();
    for section in catalog.groups.iter().flat_map(|g| &g.tags) {
        if section.name == playground_openapi::catalog::WEBHOOKS {
            continue;
        }
        for op in &section.operations {
            let list = tags.entry(key(op)).or_default();
            if !list.iter().any(|(name, _)| *name == section.name) {
                list.push((section.name.clone(), section.title.clone()));
            }
        }
    }
    tags
}

/// The names of `components.schemas`, in document order, each once by file.
fn schema_names(document: &Value) -> Vec<String> {
    let mut files = HashSet::new();
    document
        .pointer("/components/schemas")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .map(|(name, _)| name.clone())
        .filter(|name| files.insert(markdown_file(&schema_anchor(name))))
        .collect()
}

/// `llms-full.txt` as it is written: pages added until the next one would pass
/// [`MAX_FULL_BYTES`], then only counted.
#[derive(Debug)]
struct Full {
    text: String,
    left_out: usize,
}

impl Full {
    fn new() -> Self {
        Self { text: String::new(), left_out: 0 }
    }

    /// Whether pages are still added (the first one left out closes the file to the rest, so
    /// that it never skips a page and keeps a later one).
    fn open(&self) -> bool {
        self.left_out == 0
    }

    /// Adds a page of a folder (`operations/`, `schemas/`): its links to `../` are made links
    /// from the site's top, which name the same files (every page is one folder down).
    fn add_nested(&mut self, page: &str) {
        if self.open() {
            self.add(&page.replace("](../", "]("));
        } else {
            self.left_out += 1;
        }
    }

    fn add(&mut self, page: &str) {
        let needed = if self.text.is_empty() { 0 } else { SEPARATOR.len() } + page.len();
        if !self.open() || self.text.len() + needed > MAX_FULL_BYTES {
            self.left_out += 1;
            return;
        }
        if !self.text.is_empty() {
            self.text.push_str(SEPARATOR);
        }
        self.text.push_str(page);
    }

    fn finish(mut self) -> String {
        if self.left_out > 0 {
            let _ = writeln!(
                self.text,
                "{SEPARATOR}{} pages are left out of this file, which stops at {} MiB; {} links them all.",
                self.left_out,
                MAX_FULL_BYTES >> 20,
                text::link(INDEX, INDEX)
            );
        }
        self.text
    }
}
