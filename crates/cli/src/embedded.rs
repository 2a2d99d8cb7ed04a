//! The app built into the program: with the feature `embed-app`, `build.rs` packs the app's
//! folder (`dist/`, or `PLAYGROUND_APP_DIR`) with `pack` into a gzip-compressed tar archive that
//! is compiled in, so `playground build` and `serve` need no `--app` and no file beside the
//! program.
//!
//! [`app`] gives it; the first call that needs its files unpacks the whole archive into memory
//! (about 7 MB for the release build), once, with bounds: no entry may leave the app's folder
//! (`..`, an absolute path), only files and folders, at most [`MAX_FILES`] files and
//! [`MAX_UNPACKED_BYTES`] in all. Its files are kept by their path relative to the app's folder,
//! parts separated by `/`.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use thiserror::Error;

/// The most bytes the app's files may hold together, unpacked.
pub const MAX_UNPACKED_BYTES: u64 = 256 * 1024 * 1024;

/// The most files the app may have.
pub const MAX_FILES: usize = 10_000;

/// The app's files by their path relative to its folder (`tryit/playground_tryit.js`).
type Files = BTreeMap<String, Vec<u8>>;

#[cfg(feature = "embed-app")]
static APP: EmbeddedApp = EmbeddedApp::new(include_bytes!(concat!(env!("OUT_DIR"), "/app.tar.gz")));

/// The app built into the program, or `None` when it was built without the feature `embed-app`.
pub fn app() -> Option<&'static EmbeddedApp> {
    #[cfg(feature = "embed-app")]
    {
        Some(&APP)
    }
    #[cfg(not(feature = "embed-app"))]
    {
        None
    }
}

/// An app's files packed by `pack`, unpacked into memory when first needed.
pub struct EmbeddedApp {
    archive: &'static [u8],
    files: OnceLock<Result<Files, String>>,
}

impl fmt::Debug for EmbeddedApp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EmbeddedApp")
            .field("archive_bytes", &self.archive.len())
            .field("unpacked", &self.files.get().map(|files| files.as_ref().map(BTreeMap::len)))
            .finish()
    }
}

/// What the app built into the program is called in messages.
pub const NAME: &str = "the app built into playground";

/// Why the app built into the program cannot be used.
#[derive(Debug, Error)]
pub enum EmbeddedError {
    /// The archive is damaged or breaks a bound (never, for the archive `build.rs` packed).
    #[error("the app built into playground cannot be unpacked: {0}")]
    Unpack(String),
    /// A file or top-level entry asked for is not in the app.
    #[error("the app built into playground has no {0}")]
    Missing(String),
    /// `index.html` is not UTF-8.
    #[error("the app built into playground has an index.html that is not UTF-8")]
    NotUtf8,
    /// Writing a file of the app failed.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        /// The file or folder written.
        path: PathBuf,
        /// Why it failed.
        source: io::Error,
    },
}

impl EmbeddedError {
    /// The file the error is about (the written file, or [`NAME`]) and what is wrong with it.
    pub fn into_parts(self) -> (PathBuf, String) {
        match self {
            Self::Write { path, source } => (path, source.to_string()),
            Self::Unpack(message) => (PathBuf::from(NAME), format!("cannot be unpacked: {message}")),
            Self::Missing(name) => (PathBuf::from(NAME), format!("has no {name}")),
            Self::NotUtf8 => (PathBuf::from(NAME), "its index.html is not UTF-8".to_owned()),
        }
    }
}

impl EmbeddedApp {
    /// The app packed in `archive` (by `pack::pack`); nothing is unpacked yet.
    pub const fn new(archive: &'static [u8]) -> Self {
        Self { archive, files: OnceLock::new() }
    }

    /// What the app is, for messages.
    pub fn describe(&self) -> String {
        format!("{NAME} ({} KB compressed)", self.archive.len().div_ceil(1024))
    }

    /// The app's files, unpacked on the first call.
    ///
    /// # Errors
    ///
    /// The archive cannot be unpacked within the bounds.
    pub fn files(&self) -> Result<&BTreeMap<String, Vec<u8>>, EmbeddedError> {
        self.files
            .get_or_init(|| unpack(self.archive, MAX_UNPACKED_BYTES))
            .as_ref()
            .map_err(|message| EmbeddedError::Unpack(message.clone()))
    }

    /// Checks that the app unpacks and has an `index.html`.
    ///
    /// # Errors
    ///
    /// It does not unpack, or has no `index.html`.
    pub fn check(&self) -> Result<(), EmbeddedError> {
        if self.files()?.contains_key("index.html") {
            Ok(())
        } else {
            Err(EmbeddedError::Missing("index.html".to_owned()))
        }
    }

    /// The file at `path` (relative to the app's folder, parts separated by `/`); `None` when
    /// there is none, or the app does not unpack ([`EmbeddedApp::check`] says why). For the
    /// tests: a site is written with [`EmbeddedApp::copy_into`].
    #[cfg(test)]
    fn file(&self, path: &str) -> Option<&[u8]> {
        self.files().ok()?.get(path).map(Vec::as_slice)
    }

    /// The app's `index.html`.
    ///
    /// # Errors
    ///
    /// The app does not unpack, has no `index.html`, or it is not UTF-8.
    pub fn index_html(&self) -> Result<String, EmbeddedError> {
        let bytes =
            self.files()?.get("index.html").ok_or_else(|| EmbeddedError::Missing("index.html".to_owned()))?;
        String::from_utf8(bytes.clone()).map_err(|_| EmbeddedError::NotUtf8)
    }

    /// The names at the top of the app's folder (files and folders), in order.
    ///
    /// # Errors
    ///
    /// The app does not unpack.
    pub fn names(&self) -> Result<Vec<String>, EmbeddedError> {
        let names: BTreeSet<&str> = self.files()?.keys().map(|path| top(path)).collect();
        Ok(names.into_iter().map(str::to_owned).collect())
    }

    /// Writes the top-level entries `names` (files, and folders with everything in them) into
    /// the folder `site`, which exists.
    ///
    /// # Errors
    ///
    /// The app does not unpack, a name is not in it, or a file or folder cannot be written.
    pub fn copy_into(&self, names: &[String], site: &Path) -> Result<(), EmbeddedError> {
        let files = self.files()?;
        for name in names {
            let mut found = false;
            for (path, bytes) in files.iter().filter(|(path, _)| top(path) == name) {
                found = true;
                let to = site.join(path);
                if let Some(parent) = to.parent() {
                    fs::create_dir_all(parent)
                        .map_err(|source| EmbeddedError::Write { path: parent.to_owned(), source })?;
                }
                fs::write(&to, bytes).map_err(|source| EmbeddedError::Write { path: to, source })?;
            }
            if !found {
                return Err(EmbeddedError::Missing(name.clone()));
            }
        }
        Ok(())
    }
}

/// The first part of a relative path.
fn top(path: &str) -> &str {
    path.split_once('/').map_or(path, |(first, _)| first)
}

/// Without the feature `embed-app` there is no archive to unpack (and no tar reader).
#[cfg(not(any(feature = "embed-app", test)))]
fn unpack(_archive: &[u8], _limit: u64) -> Result<Files, String> {
    Err("playground was built without the feature embed-app".to_owned())
}

/// Unpacks `archive` (a tar archive compressed with gzip) into its files, refusing what would
/// leave the app's folder, anything but files and folders, names twice, more than [`MAX_FILES`]
/// files and more than `limit` bytes in all.
#[cfg(any(feature = "embed-app", test))]
fn unpack(archive: &[u8], limit: u64) -> Result<Files, String> {
    use std::io::Read as _;

    let mut tar = tar::Archive::new(flate2::read::GzDecoder::new(archive));
    let mut files = Files::new();
    let mut total: u64 = 0;
    for entry in tar.entries().map_err(|error| error.to_string())? {
        let mut entry = entry.map_err(|error| error.to_string())?;
        let raw = entry.path().map_err(|error| error.to_string())?.into_owned();
        let Some(path) = relative(&raw) else {
            return Err(format!("{}: not a path inside the app's folder", raw.display()));
        };
        let kind = entry.header().entry_type();
        if kind.is_dir() {
            continue;
        }
        if !kind.is_file() {
            return Err(format!("{path}: neither a file nor a folder"));
        }
        if files.len() >= MAX_FILES {
            return Err(format!("more than {MAX_FILES} files"));
        }
        let left = limit - total;
        let mut bytes = Vec::with_capacity(usize::try_from(entry.size().min(left)).unwrap_or(0));
        (&mut entry).take(left + 1).read_to_end(&mut bytes).map_err(|error| format!("{path}: {error}"))?;
        let size = bytes.len() as u64;
        if size > left {
            return Err(format!("more than {limit} bytes unpacked"));
        }
        total += size;
        if files.insert(path.clone(), bytes).is_some() {
            return Err(format!("{path}: in the archive twice"));
        }
    }
    Ok(files)
}

/// `path` as parts separated by `/` when it stays inside the folder it is relative to (no `..`,
/// not absolute, UTF-8, not empty); `.` parts are dropped.
#[cfg(any(feature = "embed-app", test))]
fn relative(path: &Path) -> Option<String> {
    use std::path::Component;

    let mut parts = Vec::new();
    for component in path.components() {
        match component {
            Component::Normal(part) => parts.push(part.to_str()?),
            Component::CurDir => {}
            Component::ParentDir | Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    if parts.is_empty() { None } else { Some(parts.join("/")) }
}

#[cfg(test)]
#[path = "pack.rs"]
mod pack;

#[cfg(test)]
mod tests {
    use super::*;

    /// A small app's folder: what is packed, and what is not (hidden, `*.d.ts`).
    fn app_folder() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::write(root.join("index.html"), "<!doctype html><title>app</title>").unwrap();
        fs::write(root.join("app.js"), "export {};").unwrap();
        fs::write(root.join("app.d.ts"), "export {};").unwrap();
        fs::write(root.join(".stage"), "x").unwrap();
        fs::create_dir_all(root.join("tryit/snippets/x")).unwrap();
        fs::write(root.join("tryit/snippets/x/inline0.js"), "let a;").unwrap();
        fs::write(root.join("tryit/tryit_bg.wasm"), [0u8, 97, 115, 109, 255]).unwrap();
        fs::write(root.join("tryit/tryit_bg.wasm.d.ts"), "export {};").unwrap();
        fs::create_dir_all(root.join(".hidden")).unwrap();
        fs::write(root.join(".hidden/file"), "x").unwrap();
        dir
    }

    fn packed(dir: &Path) -> &'static [u8] {
        pack::pack(dir, Vec::new()).unwrap().leak()
    }

    /// A tar.gz archive of one file named `name` exactly (no checks of the name).
    fn archive_of(name: &[u8], data: &[u8], kind: tar::EntryType) -> &'static [u8] {
        let mut header = tar::Header::new_old();
        header.as_old_mut().name[..name.len()].copy_from_slice(name);
        header.set_entry_type(kind);
        header.set_size(data.len() as u64);
        header.set_mode(0o644);
        header.set_cksum();
        let mut builder =
            tar::Builder::new(flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast()));
        builder.append(&header, data).unwrap();
        builder.into_inner().unwrap().finish().unwrap().leak()
    }

    #[test]
    fn unpacks_what_pack_packed_but_hidden_entries_and_declarations() {
        let dir = app_folder();
        let app = EmbeddedApp::new(packed(dir.path()));
        app.check().unwrap();
        let paths: Vec<&str> = app.files().unwrap().keys().map(String::as_str).collect();
        assert_eq!(paths, ["app.js", "index.html", "tryit/snippets/x/inline0.js", "tryit/tryit_bg.wasm"]);
        assert_eq!(app.names().unwrap(), ["app.js", "index.html", "tryit"]);
        assert_eq!(app.index_html().unwrap(), "<!doctype html><title>app</title>");
        assert_eq!(app.file("tryit/tryit_bg.wasm"), Some(&[0u8, 97, 115, 109, 255][..]));
        assert_eq!(app.file("app.d.ts"), None);
        assert!(app.describe().starts_with("the app built into playground"));
    }

    #[test]
    fn packing_is_the_same_for_the_same_files() {
        let dir = app_folder();
        let first = packed(dir.path());
        std::thread::sleep(std::time::Duration::from_millis(20));
        fs::write(dir.path().join("app.js"), "export {};").unwrap();
        assert_eq!(first, packed(dir.path()));
    }

    #[test]
    fn copies_the_named_entries_into_a_folder() {
        let dir = app_folder();
        let app = EmbeddedApp::new(packed(dir.path()));
        let site = tempfile::tempdir().unwrap();
        app.copy_into(&["tryit".to_owned(), "app.js".to_owned()], site.path()).unwrap();
        assert_eq!(fs::read_to_string(site.path().join("app.js")).unwrap(), "export {};");
        assert_eq!(fs::read_to_string(site.path().join("tryit/snippets/x/inline0.js")).unwrap(), "let a;");
        assert!(site.path().join("tryit/tryit_bg.wasm").is_file());
        assert!(!site.path().join("index.html").exists());
        let missing = app.copy_into(&["nothing".to_owned()], site.path()).unwrap_err();
        assert_eq!(missing.to_string(), "the app built into playground has no nothing");
        assert_eq!(missing.into_parts(), (PathBuf::from(NAME), "has no nothing".to_owned()));
    }

    #[test]
    fn refuses_entries_outside_the_folder_and_links() {
        for name in [&b"../evil"[..], b"/etc/evil", b"a/../../evil"] {
            let app = EmbeddedApp::new(archive_of(name, b"x", tar::EntryType::Regular));
            let error = app.check().unwrap_err().to_string();
            assert!(error.contains("not a path inside the app's folder"), "{error}");
            assert_eq!(app.file("evil"), None);
        }
        let app = EmbeddedApp::new(archive_of(b"link", b"", tar::EntryType::Symlink));
        assert!(app.check().unwrap_err().to_string().contains("neither a file nor a folder"));
        let app = EmbeddedApp::new(archive_of(b"./index.html", b"<html>", tar::EntryType::Regular));
        assert_eq!(app.index_html().unwrap(), "<html>");
    }

    #[test]
    fn refuses_more_than_the_limit() {
        let dir = app_folder();
        let archive = packed(dir.path());
        assert!(unpack(archive, 1000).is_ok());
        let error = unpack(archive, 40).unwrap_err();
        assert_eq!(error, "more than 40 bytes unpacked");
    }

    #[test]
    fn a_damaged_archive_or_one_without_index_html_is_refused() {
        let app = EmbeddedApp::new(b"not an archive");
        assert!(matches!(app.check(), Err(EmbeddedError::Unpack(_))));
        assert!(matches!(app.names(), Err(EmbeddedError::Unpack(_))));
        let app = EmbeddedApp::new(archive_of(b"app.js", b"x", tar::EntryType::Regular));
        assert_eq!(app.check().unwrap_err().to_string(), "the app built into playground has no index.html");
    }

    #[test]
    fn the_app_is_built_in_only_with_the_feature() {
        assert_eq!(app().is_some(), cfg!(feature = "embed-app"));
        if let Some(app) = app() {
            app.check().unwrap();
        }
    }
}
