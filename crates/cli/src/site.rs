//! The site of a description's reference and mock: `playground build` writes it beside `--out`
//! and renames it into place, so that a failed build leaves nothing behind; `playground serve`
//! writes it into a folder of its own ([`write_into`]) every time the description changes.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

pub use playground_site::{Built, DOCUMENT, MARKER, PETSTORE_ONLY, SiteError};
use serde_json::Value;

use crate::app::{App, AppError};

pub mod switch;

/// What a site is made of (what `build` and `serve` share).
#[derive(Debug, Clone)]
pub struct Source {
    /// The description (JSON or YAML).
    pub spec: PathBuf,
    /// `playground.toml`, when given.
    pub config: Option<PathBuf>,
    /// The app's files (`trunk build --release`'s `dist/`).
    pub app: App,
    /// Where `serve` answers with the description's mock (`/mock`): the page's try-it panels
    /// send there when the configuration says "mock", so the page, `curl` and an app under
    /// development share one state. `None` for `build`: the site's in-browser mock.
    pub served_mock: Option<String>,
    /// Earlier versions' descriptions (`build --previous`), newest first.
    pub previous: Vec<PathBuf>,
}

/// What `playground build` is asked to do.
#[derive(Debug, Clone)]
pub struct Build {
    /// What the site is made of.
    pub source: Source,
    /// The folder the site is written to.
    pub out: PathBuf,
    /// Whether `out` is a link switched to each new build (see [`switch`]); a link there
    /// already is switched without it.
    pub switch: bool,
}

/// What `build` wrote.
#[derive(Debug)]
pub struct Wrote {
    /// What the build says of the site.
    pub built: Built,
    /// Where the link was switched to, when `out` is one.
    pub switched: Option<switch::Switched>,
    /// What went wrong after the switch (an earlier build that could not be removed).
    pub warnings: Vec<String>,
}

/// Why no site was written.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// The description, the settings or the app's page.
    #[error(transparent)]
    Site(#[from] SiteError),
    /// The app's files are missing.
    #[error(transparent)]
    App(#[from] AppError),
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
/// beside `--out`, which replaces `--out` once complete (or, with `switch` or when `--out` is a
/// link, in a new build the link is switched to).
///
/// # Errors
/// A [`BuildError`] naming the file at fault; `--out` is then as it was.
pub fn build(build: &Build) -> Result<Wrote, BuildError> {
    let site = make(&build.source)?;
    if build.switch || switch::is_link(&build.out) {
        let (switched, warnings) =
            switch::switch(&build.out, |dir| write_site(&build.source.app, &site, dir))?;
        return Ok(Wrote { built: site.built, switched: Some(switched), warnings });
    }
    check_out(&build.out)?;

    let parent = match build.out.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_owned(),
        _ => PathBuf::from("."),
    };
    fs::create_dir_all(&parent).map_err(io_error(&parent))?;
    let name = build.out.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let staging = Staging::create(&parent, &name)?;
    write_site(&build.source.app, &site, &staging.path)?;
    replace(&staging.path, &build.out)?;
    Ok(Wrote { built: site.built, switched: None, warnings: Vec::new() })
}

/// A site written by [`write_into`], with what `serve` needs beyond the files.
#[derive(Debug)]
pub struct Written {
    /// What the build says of it.
    pub built: Built,
    /// The site's description (`openapi.json`): the document the mock is made from.
    pub document: Value,
    /// The description's files, the root first, then `playground.toml` (what to watch for
    /// changes).
    pub files: Vec<PathBuf>,
}

/// Writes the site of `source` into `dir`, an empty folder of the caller's (`serve`'s own,
/// never a user's `--out`: no marker check, no renaming).
///
/// # Errors
/// A [`BuildError`] naming the file at fault; `dir` may then hold part of a site.
pub fn write_into(source: &Source, dir: &Path) -> Result<Written, BuildError> {
    let site = make(source)?;
    write_site(&source.app, &site, dir)?;
    Ok(Written { built: site.built, document: site.document, files: site.read })
}

/// Makes the site in memory: the settings and the description read from disk and checked,
/// the app's page made the site's. Nothing is written.
fn make(source: &Source) -> Result<playground_site::Site, BuildError> {
    source.app.check()?;
    let index = source.app.index_html()?;
    let names = source.app.names()?;
    let root = std::path::absolute(&source.spec)
        .map_err(|e| BuildError::Io { path: source.spec.clone(), source: e })?;
    let cwd = std::env::current_dir().ok();
    let site_source = playground_site::Source {
        spec: &source.spec,
        spec_root: &root,
        config: source.config.as_deref(),
        cwd: cwd.as_deref(),
        served_mock: source.served_mock.as_deref(),
        previous: &source.previous,
    };
    let index_path = source.app.index_path();
    let app = playground_site::App { index_path: &index_path, index: &index, names: &names };
    Ok(playground_site::make(&site_source, &app, &mut playground_server::description::read_file)?)
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

/// Writes every file of `site` into `dir`: the app's entries, the files made, the images.
fn write_site(app: &App, site: &playground_site::Site, dir: &Path) -> Result<(), BuildError> {
    app.copy_into(&site.copy, dir)?;
    // Each earlier version's page loads the app from its own folder.
    for mount in &site.mounts {
        let folder = dir.join(mount);
        fs::create_dir_all(&folder).map_err(io_error(&folder))?;
        app.copy_into(&site.copy, &folder)?;
    }
    for (name, bytes) in &site.files {
        let path = dir.join(name);
        // The Markdown pages are in folders of their own (`operations/getPet.md`).
        if let Some(parent) = path.parent().filter(|parent| *parent != dir) {
            fs::create_dir_all(parent).map_err(io_error(parent))?;
        }
        fs::write(&path, bytes).map_err(io_error(&path))?;
    }
    for (from, name) in &site.images {
        copy_image(from, &dir.join(name))?;
    }
    Ok(())
}

/// Copies an image of the configuration, at most `config::MAX_IMAGE_BYTES` (it may have
/// changed since it was checked).
fn copy_image(from: &Path, to: &Path) -> Result<(), BuildError> {
    let limit = playground_site::config::MAX_IMAGE_BYTES;
    let size = fs::metadata(from).map_err(io_error(from))?.len();
    if size > limit {
        return Err(BuildError::Io {
            path: from.to_owned(),
            source: io::Error::other(format!("it is {size} bytes; the limit is {limit}")),
        });
    }
    fs::copy(from, to).map(drop).map_err(io_error(from))
}
