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
pub mod versions;

use std::path::{Path, PathBuf};

use playground_reference::html::{WHOLE_LIST_PAGE, prerender_pages};
use playground_reference::site::SiteConfig;
use serde_json::{Map, Value, json};

use crate::check::CheckError;
use crate::config::{Config, ConfigError};
pub use crate::description::{DescriptionError, ReadFile};
use crate::page::{Head, PageError};
use crate::versions::Version;

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
    /// Earlier versions' descriptions (`--previous`), newest first, as the user named them.
    pub previous: &'a [PathBuf],
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
    /// The files written: `openapi.json`, `index.html` (and `all-operations.html` for a list
    /// longer than a screen), [`MARKER`] and the Markdown pages,
    /// each named relative to the site's top (`/` between folders: `operations/getPet.md`).
    pub files: Vec<(String, Vec<u8>)>,
    /// The app's entries copied as they are (folders with everything in them).
    pub copy: Vec<String>,
    /// The folders (`v/1.0/`, relative to the site's top) where the app's entries are copied
    /// too: each earlier version's page loads the app from its own folder.
    pub mounts: Vec<String>,
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
/// its images, to check them) with `read`. With earlier versions (`source.previous`, or the
/// configuration's `[[versions]]`), each is published under `v/NAME/` beside the newest
/// (`versions`); `serve` (`source.served_mock`) shows the newest only.
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
    let copy: Vec<String> = app
        .names
        .iter()
        .filter(|name| {
            !name.starts_with('.')
                && !PETSTORE_ONLY.contains(&name.as_str())
                && name.as_str() != "index.html"
                && name.as_str() != DOCUMENT
                && name.as_str() != versions::FOLDER
                && name.as_str() != VERSIONS_FILE
                // The Markdown pages' names are the site's own.
                && !playground_llms::TOP_NAMES.contains(&name.as_str())
        })
        .cloned()
        .collect();
    let earlier = if source.served_mock.is_some() { Vec::new() } else { earlier(source, &config, read)? };
    let mut read_files = description.files;
    read_files.extend(source.config.map(Path::to_owned));
    if earlier.is_empty() {
        let page = render(source, app, &config, &checked, &copy, String::new())?;
        return Ok(Site {
            files: page.files,
            copy,
            mounts: Vec::new(),
            images: page.images,
            built: Built {
                warnings: checked.warnings,
                title: page.title,
                operations: checked.catalog.operation_count(),
            },
            document: checked.document,
            read: read_files,
        });
    }
    versioned(source, app, &config, checked, &earlier, copy, read_files)
}

/// An earlier version read: its name (when the configuration gives one), its file and its
/// document as the page reads it.
struct Earlier {
    name: Option<String>,
    spec: PathBuf,
    checked: check::Checked,
}

/// The earlier versions `--previous` or `[[versions]]` name, newest first, read and checked.
fn earlier(source: &Source<'_>, config: &Config, read: &mut ReadFile<'_>) -> Result<Vec<Earlier>, SiteError> {
    let listed: Vec<(PathBuf, Option<String>)> = match (source.previous, config.versions.as_slice()) {
        ([], versions) => versions.iter().map(|v| (v.spec.clone(), v.name.clone())).collect(),
        (previous, []) => previous.iter().map(|p| (p.clone(), None)).collect(),
        (_, _) => {
            return Err(SiteError::Settings {
                path: source.config.unwrap_or(source.spec).to_owned(),
                problem:
                    "earlier versions are named both by --previous and by [[versions]]; give them one way"
                        .to_owned(),
            });
        }
    };
    if listed.len() > versions::MAX_VERSIONS {
        return Err(SiteError::Settings {
            path: source.config.unwrap_or(source.spec).to_owned(),
            problem: format!(
                "{} earlier versions are named; a site publishes at most {}",
                listed.len(),
                versions::MAX_VERSIONS
            ),
        });
    }
    let mut out = Vec::with_capacity(listed.len());
    for (spec, name) in listed {
        let root = match source.cwd {
            Some(cwd) if spec.is_relative() => cwd.join(&spec),
            _ => spec.clone(),
        };
        let description = description::load(&spec, &root, source.cwd, read)?;
        let checked = check::check(&spec, description.document)?;
        out.push(Earlier { name, spec, checked });
    }
    Ok(out)
}

/// The name of the top-level file that lists a versioned site's versions.
pub const VERSIONS_FILE: &str = "versions.json";

/// The site with earlier versions: the newest at the top, each earlier one under `v/NAME/`,
/// each with its switcher, Changes page and marks.
fn versioned(
    source: &Source<'_>,
    app: &App<'_>,
    config: &Config,
    checked: check::Checked,
    earlier: &[Earlier],
    copy: Vec<String>,
    read_files: Vec<PathBuf>,
) -> Result<Site, SiteError> {
    let fallback =
        |spec: &Path| spec.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let version_of = |checked: &check::Checked, spec: &Path| {
        let version = checked.catalog.version.trim();
        if version.is_empty() { fallback(spec) } else { version.to_owned() }
    };
    let mut list = vec![Version::new(&version_of(&checked, source.spec))];
    list.extend(
        earlier.iter().map(|e| Version::new(e.name.as_deref().unwrap_or(&version_of(&e.checked, &e.spec)))),
    );
    for (i, version) in list.iter().enumerate() {
        if let Some(other) = list[..i].iter().find(|other| other.slug == version.slug) {
            return Err(SiteError::Settings {
                path: source.config.unwrap_or(source.spec).to_owned(),
                problem: format!(
                    "two versions would be published as {}/{} (\u{201c}{}\u{201d} and \u{201c}{}\u{201d}); name them apart ([[versions]] name = \"...\")",
                    versions::FOLDER,
                    version.slug,
                    other.name,
                    version.name
                ),
            });
        }
    }
    // Each version's document and file, newest first.
    let mut all: Vec<(&check::Checked, &Path)> = vec![(&checked, source.spec)];
    all.extend(earlier.iter().map(|e| (&e.checked, e.spec.as_path())));
    let options = playground_diff::Options::default();
    let mut files = Vec::new();
    let mut images = Vec::new();
    let mut mounts = Vec::new();
    let mut warnings = checked.warnings.clone();
    let mut title = String::new();
    for (at, (this, spec)) in all.iter().enumerate() {
        let before = all.get(at + 1);
        let report = before.map(|(old, _)| playground_diff::compare(&old.document, &this.document, &options));
        let page = render(source, app, config, this, &copy, versions::header(&list, at, report.as_ref()))?;
        let folder = versions::folder(&list, at);
        if at == 0 {
            title.clone_from(&page.title);
        } else {
            mounts.push(folder.clone());
            warnings.extend(this.warnings.iter().map(|w| format!("version {}: {w}", list[at].name)));
        }
        let section = versions::llms_section(&list, at, report.as_ref());
        files.extend(page.files.into_iter().map(|(name, mut bytes)| {
            // Tools that read llms.txt learn of the other versions and the changelog there.
            if name == playground_llms::INDEX {
                bytes.extend_from_slice(section.as_bytes());
            }
            (format!("{folder}{name}"), bytes)
        }));
        images.extend(page.images.into_iter().map(|(from, name)| (from, format!("{folder}{name}"))));
        if let (Some(report), Some((old, old_spec))) = (&report, before) {
            let old_side = playground_diff::render::Side::of(&old_spec.display().to_string(), &old.document);
            let new_side = playground_diff::render::Side::of(&spec.display().to_string(), &this.document);
            let html = versions::changes_page(&list, at, report, &old_side, &page.title);
            let markdown = playground_diff::render::markdown(report, &old_side, &new_side);
            files.push((format!("{folder}{}/index.html", versions::CHANGES), html.into_bytes()));
            files.push((format!("{folder}{}/index.md", versions::CHANGES), markdown.into_bytes()));
        }
    }
    // The newest is at the top, and at its own version's folder too, so that a link to a
    // version keeps its meaning once a newer one is published.
    files.push((
        format!("{}/{}/index.html", versions::FOLDER, list[0].slug),
        versions::redirect_page(&list[0]).into_bytes(),
    ));
    let listing: Vec<Value> = list
        .iter()
        .enumerate()
        .map(|(at, v)| json!({"name": v.name, "path": versions::folder(&list, at), "newest": at == 0}))
        .collect();
    files.push((VERSIONS_FILE.to_owned(), serde_json::to_vec_pretty(&listing).unwrap_or_default()));
    Ok(Site {
        files,
        copy,
        mounts,
        images,
        built: Built { warnings, title, operations: checked.catalog.operation_count() },
        document: checked.document,
        read: read_files,
    })
}

/// One version's own files: `openapi.json`, `index.html` with `banner` first in its body,
/// the marker and the Markdown; and its images.
struct Rendered {
    files: Vec<(String, Vec<u8>)>,
    images: Vec<(PathBuf, String)>,
    title: String,
}

fn render(
    source: &Source<'_>,
    app: &App<'_>,
    config: &Config,
    checked: &check::Checked,
    copy: &[String],
    banner: String,
) -> Result<Rendered, SiteError> {
    let title = title_of(config, checked);
    let image = |path: &Path, stem: &str| {
        let extension = config::image_extension(path).unwrap_or_else(|| "png".to_owned());
        (path.to_owned(), format!("{stem}.{extension}"))
    };
    let logo = config.logo.as_deref().map(|path| image(path, "playground-logo"));
    let favicon = config.favicon.as_deref().map(|path| image(path, "playground-favicon"));

    let site_config = site_config(source, config, &title, logo.as_ref().map(|(_, name)| name.as_str()));
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
        banner,
    };
    let mut names = copy.to_vec();
    names.push(DOCUMENT.to_owned());
    names.extend(logo.iter().chain(&favicon).map(|(_, name)| name.clone()));
    let page = |first_paint: &str| {
        page::rewrite(app.index, &head, first_paint, &names)
            .map_err(|source| SiteError::Page { path: app.index_path.to_owned(), source })
    };
    let (first_paint, whole_list) = prerender_pages(&checked.read, &checked.catalog, &site_settings);
    let html = page(&first_paint)?;

    let document = checked.document.to_string().into_bytes();
    let mut files = vec![
        (DOCUMENT.to_owned(), document),
        ("index.html".to_owned(), html.into_bytes()),
        (MARKER.to_owned(), MARKER_TEXT.as_bytes().to_vec()),
    ];
    // A list longer than a screen: index.html has the first screen's rows, this page every row
    // (the same page otherwise, so with JavaScript it is the reference too).
    if let Some(whole) = whole_list {
        files.push((WHOLE_LIST_PAGE.to_owned(), page(&whole)?.into_bytes()));
    }
    let markdown = playground_llms::pages(&checked.document, &checked.catalog, &title);
    files.extend(markdown.into_iter().map(|page| (page.path, page.text.into_bytes())));
    Ok(Rendered { files, images: logo.into_iter().chain(favicon).collect(), title })
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
