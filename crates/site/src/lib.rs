//! The published site of an API description, made in memory: what `playground build` writes
//! and `playground serve` serves, for the native command line (`crates/cli`) and the npm
//! package's (`crates/modules/site`, the same code compiled to WebAssembly for Node). Nothing
//! here touches the disk: files are read through the caller's [`ReadFile`], and the site comes
//! back as a [`Site`], the files to write and the app's entries to copy.
//!
//! - [`description`]: the description read from its files, JSON or YAML, one file or many
//!   (relative `$ref`s bundled), every size bounded.
//! - [`check`]: the description read as the page reads it (Swagger 2.0 converted first), with
//!   what the page will not show as warnings.
//! - [`config`]: `playground.toml`, unknown keys refused.
//! - [`page`]: the app's `index.html` made the site's: title and summary, the configuration
//!   element the app reads, the early request pointed at `openapi.json`, the links to the
//!   site's Markdown, the pre-rendered reference, every address of the app's files made
//!   relative.
//! - The site's Markdown (`playground_llms::pages`): `llms.txt`, `llms-full.txt`, `index.md`
//!   and the pages in `operations/`, `tags/` and `schemas/`, among [`Site::files`].
//! - [`twin`]: which file answers `Accept: text/markdown` (a page's Markdown twin), for `serve`
//!   and `host` alike.
//!
//! Tests: the units here; the command lines' own tests (`crates/cli/tests/build.rs`,
//! `tests/cli-package`) build real sites from them.
#![deny(missing_docs)]

pub mod check;
pub mod config;
pub mod description;
pub mod page;
pub mod twin;

use std::path::{Path, PathBuf};

use playground_reference::html::prerender;
use playground_reference::site::SiteConfig;
use serde_json::{Map, Value, json};

use crate::check::CheckError;
use crate::config::{Config, ConfigError};
pub use crate::description::{DescriptionError, ReadFile};
use crate::page::{Head, PageError};

/// The file that marks a folder as a site this tool built, which a later build may replace.
pub const MARKER: &str = ".playground-site";

/// What the marker file says.
pub const MARKER_TEXT: &str =
    "A site built by `playground build`; the next build of the same --out replaces this folder.\n";

/// The site's description, as the page asks for it.
pub const DOCUMENT: &str = "openapi.json";

/// The app's files a site leaves out: the Petstore's own document, its mock module and the
/// page that demonstrates that module (the mock of any description, `api-mock/`, stays), and
/// the Domains page with its modules (a docs host serves that page, not the site).
pub const PETSTORE_ONLY: [&str; 7] = [
    "petstore.json",
    "mock",
    "mock-example.html",
    "domains.html",
    "domains.css",
    "dashboard",
    "dashboard-host",
];

/// The largest app page read (1 MiB; the app's is a few KB).
pub const MAX_INDEX_BYTES: u64 = 1024 * 1024;

/// What a site is made of.
#[derive(Debug, Clone, Copy)]
pub struct Source<'a> {
    /// The description, as the user named it (for messages).
    pub spec: &'a Path,
    /// The same file as an absolute path.
    pub spec_root: &'a Path,
    /// `playground.toml`, when given.
    pub config: Option<&'a Path>,
    /// The working folder: files under it are named relative to it in messages.
    pub cwd: Option<&'a Path>,
    /// Where `serve` answers with the description's mock (`/mock`): the page's try-it panels
    /// send there when the configuration says "mock". `None` for `build`: the site's in-browser
    /// mock.
    pub served_mock: Option<&'a str>,
}

/// The app a site is made from: `trunk build --release`'s `dist/`, wherever it is kept.
#[derive(Debug, Clone, Copy)]
pub struct App<'a> {
    /// Its `index.html`'s name, for messages.
    pub index_path: &'a Path,
    /// Its `index.html`.
    pub index: &'a str,
    /// The names at its top (files and folders).
    pub names: &'a [String],
}

/// A site, made in memory.
#[derive(Debug)]
pub struct Site {
    /// The files written: `openapi.json`, `index.html`, [`MARKER`] and the Markdown pages,
    /// each named relative to the site's top (`/` between folders: `operations/getPet.md`).
    pub files: Vec<(String, Vec<u8>)>,
    /// The app's entries copied as they are (folders with everything in them).
    pub copy: Vec<String>,
    /// The configuration's images, copied from the first path to the second name.
    pub images: Vec<(PathBuf, String)>,
    /// What the build says of it.
    pub built: Built,
    /// The site's description (`openapi.json`): the document the mock is made from.
    pub document: Value,
    /// The files read, the description's first (its root first), then `playground.toml`:
    /// what `serve` watches.
    pub read: Vec<PathBuf>,
}

/// What a build says of its site.
#[derive(Debug, Clone)]
pub struct Built {
    /// What the page will not show, one sentence each.
    pub warnings: Vec<String>,
    /// The page's title.
    pub title: String,
    /// How many operations the page lists.
    pub operations: usize,
}

/// Why no site was made.
#[derive(Debug, thiserror::Error)]
pub enum SiteError {
    /// The description could not be read.
    #[error(transparent)]
    Description(#[from] DescriptionError),
    /// The page could not show the description.
    #[error(transparent)]
    Check(#[from] CheckError),
    /// `playground.toml` is not valid.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The site's settings are not what the page reads.
    #[error("{}: {problem}", path.display())]
    Settings {
        /// The configuration file (or the description, without one).
        path: PathBuf,
        /// What the page would refuse.
        problem: String,
    },
    /// The app's page has a shape this build does not know.
    #[error("{}: {source}", path.display())]
    Page {
        /// The app's `index.html`.
        path: PathBuf,
        /// What is wrong with it.
        source: PageError,
    },
}

/// Makes the site of `source` from `app`, reading the description and the configuration (and
/// its images, to check them) with `read`.
///
/// # Errors
/// A [`SiteError`] naming the file at fault.
pub fn make(source: &Source<'_>, app: &App<'_>, read: &mut ReadFile<'_>) -> Result<Site, SiteError> {
    let config = match source.config {
        Some(path) => config::read(path, read)?,
        None => Config::default(),
    };
    let description = description::load(source.spec, source.spec_root, source.cwd, read)?;
    let checked = check::check(source.spec, description.document)?;

    let title = title_of(&config, &checked);
    let copy: Vec<String> = app
        .names
        .iter()
        .filter(|name| {
            !name.starts_with('.')
                && !PETSTORE_ONLY.contains(&name.as_str())
                && name.as_str() != "index.html"
                && name.as_str() != DOCUMENT
                // The Markdown pages' names are the site's own.
                && !playground_llms::TOP_NAMES.contains(&name.as_str())
        })
        .cloned()
        .collect();
    let image = |path: &Path, stem: &str| {
        let extension = config::image_extension(path).unwrap_or_else(|| "png".to_owned());
        (path.to_owned(), format!("{stem}.{extension}"))
    };
    let logo = config.logo.as_deref().map(|path| image(path, "playground-logo"));
    let favicon = config.favicon.as_deref().map(|path| image(path, "playground-favicon"));

    let site_config = site_config(source, &config, &title, logo.as_ref().map(|(_, name)| name.as_str()));
    // Read back as the page reads it: what the page would refuse is refused here, before any
    // site is written.
    let site_settings = SiteConfig::parse(&site_config.to_string()).map_err(|problem| {
        SiteError::Settings { path: source.config.unwrap_or(source.spec).to_owned(), problem }
    })?;
    let head = Head {
        title: title.clone(),
        summary: checked.catalog.description.as_deref().and_then(page::summary),
        favicon: favicon.as_ref().map(|(_, name)| name.clone()),
        config: page::script_json(&site_config),
        document: DOCUMENT.to_owned(),
    };
    let mut names = copy.clone();
    names.push(DOCUMENT.to_owned());
    names.extend(logo.iter().chain(&favicon).map(|(_, name)| name.clone()));
    let first_paint = prerender(&checked.read, &checked.catalog, &site_settings);
    let html = page::rewrite(app.index, &head, &first_paint, &names)
        .map_err(|source| SiteError::Page { path: app.index_path.to_owned(), source })?;

    let document = checked.document.to_string().into_bytes();
    let mut read_files = description.files;
    read_files.extend(source.config.map(Path::to_owned));
    let mut files = vec![
        (DOCUMENT.to_owned(), document),
        ("index.html".to_owned(), html.into_bytes()),
        (MARKER.to_owned(), MARKER_TEXT.as_bytes().to_vec()),
    ];
    let markdown = playground_llms::pages(&checked.document, &checked.catalog, &title);
    files.extend(markdown.into_iter().map(|page| (page.path, page.text.into_bytes())));
    Ok(Site {
        files,
        copy,
        images: logo.into_iter().chain(favicon).collect(),
        built: Built { warnings: checked.warnings, title, operations: checked.catalog.operation_count() },
        document: checked.document,
        read: read_files,
    })
}

/// The site's title: the configuration's, else the description's, else "API reference".
fn title_of(config: &Config, checked: &check::Checked) -> String {
    let title = config.title.clone().unwrap_or_else(|| checked.catalog.title.trim().to_owned());
    if title.is_empty() { "API reference".to_owned() } else { title }
}

/// The site's configuration element, which the app reads.
fn site_config(source: &Source<'_>, config: &Config, title: &str, logo: Option<&str>) -> Value {
    let mut links = Map::new();
    if let Some(home) = &config.home {
        links.insert("home".to_owned(), Value::from(home.as_str()));
    }
    if let Some(support) = &config.support {
        links.insert("support".to_owned(), Value::from(support.as_str()));
    }
    json!({
        "document": DOCUMENT,
        "title": title,
        "tryIt": match (&config.try_it, source.served_mock) {
            (config::TryIt::Mock, Some(served)) => served,
            (try_it, _) => try_it.as_str(),
        },
        "mock": config.mock,
        "links": links,
        "logo": logo,
        "accent": config.accent,
    })
}
