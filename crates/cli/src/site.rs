//! The site of a description's reference and mock: `playground build` writes it beside `--out`
//! and renames it into place, so that a failed build leaves nothing behind; `playground serve`
//! writes it into a folder of its own ([`write_into`]) every time the description changes.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use playground_reference::html::prerender;
use playground_reference::site::SiteConfig;
use playground_server::description::{self, DescriptionError};
use serde_json::{Map, Value, json};

use crate::check::{self, CheckError};
use crate::config::{self, Config, ConfigError};
use crate::page::{self, Head, PageError};

/// The file that marks a folder as a site this tool built, which a later build may replace.
pub const MARKER: &str = ".playground-site";

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

/// What a site is made of (what `build` and `serve` share).
#[derive(Debug, Clone)]
pub struct Source {
    /// The description (JSON or YAML).
    pub spec: PathBuf,
    /// `playground.toml`, when given.
    pub config: Option<PathBuf>,
    /// The app's files (`trunk build --release`'s `dist/`).
    pub app: PathBuf,
    /// Where `serve` answers with the description's mock (`/mock`): the page's try-it panels
    /// send there when the configuration says "mock", so the page, `curl` and an app under
    /// development share one state. `None` for `build`: the site's in-browser mock.
    pub served_mock: Option<String>,
}

/// What `playground build` is asked to do.
#[derive(Debug, Clone)]
pub struct Build {
    /// What the site is made of.
    pub source: Source,
    /// The folder the site is written to.
    pub out: PathBuf,
}

/// A site written.
#[derive(Debug, Clone)]
pub struct Built {
    /// What the page will not show, one sentence each.
    pub warnings: Vec<String>,
    /// The page's title.
    pub title: String,
    /// How many operations the page lists.
    pub operations: usize,
}

/// Why no site was written.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
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
    /// The app's files are missing.
    #[error("{}: {problem}; run `make build` first (or give the app's folder with --app)", path.display())]
    App {
        /// The folder expected to hold the app.
        path: PathBuf,
        /// What is missing.
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
    /// `--out` is something this tool must not replace.
    #[error("{}: {problem}", path.display())]
    Out {
        /// The folder asked for.
        path: PathBuf,
        /// Why it is left alone.
        problem: String,
    },
    /// A file could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
}

fn io_error(path: &Path) -> impl FnOnce(io::Error) -> BuildError + '_ {
    move |source| BuildError::Io { path: path.to_owned(), source }
}

/// Builds the site `build` asks for: every check first, then the site in a temporary folder
/// beside `--out`, which replaces `--out` once complete.
///
/// # Errors
/// A [`BuildError`] naming the file at fault; `--out` is then as it was.
pub fn build(build: &Build) -> Result<Built, BuildError> {
    let prepared = prepare(&build.source)?;
    check_out(&build.out)?;

    let parent = match build.out.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_owned(),
        _ => PathBuf::from("."),
    };
    fs::create_dir_all(&parent).map_err(io_error(&parent))?;
    let name = build.out.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let staging = Staging::create(&parent, &name)?;
    let title = write_site(&build.source, &prepared.config, &prepared.checked, &staging.path)?;
    replace(&staging.path, &build.out)?;
    Ok(prepared.built(title))
}

/// A site written by [`write_into`], with what `serve` needs beyond the files.
#[derive(Debug)]
pub struct Written {
    /// What the build says of it.
    pub built: Built,
    /// The site's description (`openapi.json`): the document the mock is made from.
    pub document: Value,
    /// The description's files, the root first (what to watch for changes).
    pub files: Vec<PathBuf>,
}

/// Writes the site of `source` into `dir`, an empty folder of the caller's (`serve`'s own,
/// never a user's `--out`: no marker check, no renaming).
///
/// # Errors
/// A [`BuildError`] naming the file at fault; `dir` may then hold part of a site.
pub fn write_into(source: &Source, dir: &Path) -> Result<Written, BuildError> {
    let Prepared { config, checked, files } = prepare(source)?;
    let title = write_site(source, &config, &checked, dir)?;
    let built = Built { warnings: checked.warnings, title, operations: checked.catalog.operation_count() };
    Ok(Written { built, document: checked.document, files })
}

/// Everything a site is made of, read and checked before anything is written.
struct Prepared {
    config: Config,
    checked: check::Checked,
    files: Vec<PathBuf>,
}

impl Prepared {
    fn built(self, title: String) -> Built {
        let operations = self.checked.catalog.operation_count();
        Built { warnings: self.checked.warnings, title, operations }
    }
}

/// Reads the settings and the description, checks the description as the page reads it, and
/// checks that the app is there.
fn prepare(source: &Source) -> Result<Prepared, BuildError> {
    let config = match &source.config {
        Some(path) => config::read(path)?,
        None => Config::default(),
    };
    let description = description::load(&source.spec)?;
    let checked = check::check(&source.spec, description.document)?;
    if !source.app.is_dir() {
        return Err(BuildError::App {
            path: source.app.clone(),
            problem: "the app's folder does not exist".to_owned(),
        });
    }
    if !source.app.join("index.html").is_file() {
        return Err(BuildError::App {
            path: source.app.clone(),
            problem: "the app's folder has no index.html".to_owned(),
        });
    }
    Ok(Prepared { config, checked, files: description.files })
}

/// Refuses an `--out` that is a file, or a folder with files that no build of this tool
/// wrote.
fn check_out(out: &Path) -> Result<(), BuildError> {
    let refuse = |problem: &str| BuildError::Out { path: out.to_owned(), problem: problem.to_owned() };
    if out.file_name().is_none() {
        return Err(refuse("--out must name a folder of its own (not `.`, `..` or a root)"));
    }
    let Ok(metadata) = fs::symlink_metadata(out) else { return Ok(()) };
    if !metadata.is_dir() {
        return Err(refuse("it exists and is not a folder; choose another --out"));
    }
    if out.join(MARKER).is_file() {
        return Ok(());
    }
    let mut entries = fs::read_dir(out).map_err(io_error(out))?;
    if entries.next().is_some() {
        return Err(refuse(&format!(
            "it is a folder with files, and not a site built by playground (it has no {MARKER}); \
             choose another --out, or empty it"
        )));
    }
    Ok(())
}

/// The folder a site is built in, beside `--out`; removed when dropped, unless it was renamed
/// into place already.
#[derive(Debug)]
struct Staging {
    path: PathBuf,
}

impl Staging {
    /// Creates `.NAME.building-PID-N` in `parent`. A plain folder, not a temporary one (which is
    /// private to its owner): the site it becomes is read by web servers running as others.
    fn create(parent: &Path, name: &str) -> Result<Self, BuildError> {
        let mut last = None;
        for attempt in 0..100_u32 {
            let path = parent.join(format!(".{name}.building-{}-{attempt}", std::process::id()));
            match fs::create_dir(&path) {
                Ok(()) => return Ok(Self { path }),
                Err(error) if error.kind() == io::ErrorKind::AlreadyExists => last = Some(error),
                Err(error) => return Err(BuildError::Io { path, source: error }),
            }
        }
        let source = last.unwrap_or_else(|| io::Error::other("no free name"));
        Err(BuildError::Io { path: parent.to_owned(), source })
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        // Once renamed into place there is nothing left here to remove.
        if fs::symlink_metadata(&self.path).is_ok() {
            let _ = fs::remove_dir_all(&self.path);
        }
    }
}

/// Puts the site built at `staging` in place of `out` (a previous site or an empty folder).
fn replace(staging: &Path, out: &Path) -> Result<(), BuildError> {
    if fs::symlink_metadata(out).is_ok() {
        let mut old = staging.as_os_str().to_owned();
        old.push(".old");
        let old = PathBuf::from(old);
        fs::rename(out, &old).map_err(io_error(out))?;
        if let Err(source) = fs::rename(staging, out) {
            // Put the previous site back rather than leave nothing.
            let _ = fs::rename(&old, out);
            return Err(BuildError::Io { path: out.to_owned(), source });
        }
        fs::remove_dir_all(&old).map_err(io_error(&old))?;
    } else {
        fs::rename(staging, out).map_err(io_error(out))?;
    }
    Ok(())
}

/// Writes every file of the site into `site`; gives the page's title.
fn write_site(
    source: &Source,
    config: &Config,
    checked: &check::Checked,
    site: &Path,
) -> Result<String, BuildError> {
    let entries = copy_app(&source.app, site)?;
    let write = |name: &str, bytes: &[u8]| {
        let path = site.join(name);
        fs::write(&path, bytes).map_err(io_error(&path))
    };
    let document = serde_json::to_vec(&checked.document)
        .map_err(|e| BuildError::Io { path: site.join(DOCUMENT), source: e.into() })?;
    write(DOCUMENT, &document)?;
    let logo = config.logo.as_deref().map(|path| copy_image(path, "playground-logo", site)).transpose()?;
    let favicon =
        config.favicon.as_deref().map(|path| copy_image(path, "playground-favicon", site)).transpose()?;

    let title = config.title.clone().unwrap_or_else(|| checked.catalog.title.trim().to_owned());
    let title = if title.is_empty() { "API reference".to_owned() } else { title };
    let mut links = Map::new();
    if let Some(home) = &config.home {
        links.insert("home".to_owned(), Value::from(home.as_str()));
    }
    if let Some(support) = &config.support {
        links.insert("support".to_owned(), Value::from(support.as_str()));
    }
    let site_config = json!({
        "document": DOCUMENT,
        "title": title,
        "tryIt": match (&config.try_it, &source.served_mock) {
            (config::TryIt::Mock, Some(served)) => served.as_str(),
            (try_it, _) => try_it.as_str(),
        },
        "mock": config.mock,
        "links": links,
        "logo": logo,
        "accent": config.accent,
    });
    // Read back as the page reads it: what the page would refuse is refused here, before any
    // site is written.
    let site_settings = SiteConfig::parse(&site_config.to_string()).map_err(|problem| {
        BuildError::Settings { path: source.config.clone().unwrap_or_else(|| source.spec.clone()), problem }
    })?;
    let head = Head {
        title: title.clone(),
        summary: checked.catalog.description.as_deref().and_then(page::summary),
        favicon,
        config: page::script_json(&site_config),
        document: DOCUMENT.to_owned(),
    };
    let index_path = source.app.join("index.html");
    let index = read_bounded(&index_path, MAX_INDEX_BYTES)?;
    let mut names = entries;
    names.extend([DOCUMENT.to_owned()]);
    names.extend(logo.iter().chain(&head.favicon).cloned());
    let first_paint = prerender(&checked.read, &checked.catalog, &site_settings);
    let html = page::rewrite(&index, &head, &first_paint, &names)
        .map_err(|source| BuildError::Page { path: index_path, source })?;
    write("index.html", html.as_bytes())?;
    write(
        MARKER,
        b"A site built by `playground build`; the next build of the same --out replaces this folder.\n",
    )?;
    Ok(title)
}

/// The largest app page read (1 MiB; the app's is a few KB).
const MAX_INDEX_BYTES: u64 = 1024 * 1024;

fn read_bounded(path: &Path, limit: u64) -> Result<String, BuildError> {
    let size = fs::metadata(path).map_err(io_error(path))?.len();
    if size > limit {
        return Err(BuildError::App {
            path: path.to_owned(),
            problem: format!("it is {size} bytes; the limit is {limit}"),
        });
    }
    fs::read_to_string(path).map_err(io_error(path))
}

/// Copies the app's files into `site`, but for [`PETSTORE_ONLY`] and hidden entries (a build
/// tool's staging folder, a previous site's marker); gives the names copied at the top.
fn copy_app(app: &Path, site: &Path) -> Result<Vec<String>, BuildError> {
    let mut names = Vec::new();
    for entry in fs::read_dir(app).map_err(io_error(app))? {
        let entry = entry.map_err(io_error(app))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.')
            || PETSTORE_ONLY.contains(&name.as_str())
            || name == "index.html"
            || name == DOCUMENT
        {
            continue;
        }
        copy(&entry.path(), &site.join(&name))?;
        names.push(name);
    }
    Ok(names)
}

/// Copies a file, or a folder and everything in it (links followed).
fn copy(from: &Path, to: &Path) -> Result<(), BuildError> {
    if from.is_dir() {
        fs::create_dir(to).map_err(io_error(to))?;
        for entry in fs::read_dir(from).map_err(io_error(from))? {
            let entry = entry.map_err(io_error(from))?;
            copy(&entry.path(), &to.join(entry.file_name()))?;
        }
        Ok(())
    } else {
        fs::copy(from, to).map(drop).map_err(io_error(from))
    }
}

/// Copies an image of the configuration as `stem.<its extension>`; gives that name.
fn copy_image(path: &Path, stem: &str, site: &Path) -> Result<String, BuildError> {
    let extension = config::image_extension(path).unwrap_or_else(|| "png".to_owned());
    let name = format!("{stem}.{extension}");
    let size = fs::metadata(path).map_err(io_error(path))?.len();
    if size > config::MAX_IMAGE_BYTES {
        return Err(BuildError::Io {
            path: path.to_owned(),
            source: io::Error::other(format!("it is {size} bytes; the limit is {}", config::MAX_IMAGE_BYTES)),
        });
    }
    fs::copy(path, site.join(&name)).map_err(io_error(path))?;
    Ok(name)
}
