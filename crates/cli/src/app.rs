//! Where a site's app comes from: a folder (`--app DIR`, or the build tree's `dist/`), or the
//! app built into the program (feature `embed-app`, [`crate::embedded`]).

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use playground_site::MAX_INDEX_BYTES;

use crate::embedded::{self, EmbeddedApp, EmbeddedError};

/// The app's files, as `trunk build --release` leaves them in `dist/`.
#[derive(Debug, Clone)]
pub enum App {
    /// A folder on disk.
    Dir(PathBuf),
    /// The app built into the program (feature `embed-app`).
    Embedded(&'static EmbeddedApp),
}

/// What a problem with an app folder adds: how to make one.
const FOLDER_HINT: &str = "; run `make build` first (or give the app's folder with --app)";

/// Why the app cannot be used; the message names the file.
#[derive(Debug, thiserror::Error)]
#[error("{}: {problem}{hint}", path.display())]
pub struct AppError {
    /// The file or folder at fault.
    pub path: PathBuf,
    /// What is wrong with it.
    pub problem: String,
    /// How to mend it, for a folder ([`FOLDER_HINT`]); none for the app built in.
    hint: &'static str,
}

impl AppError {
    fn embedded(error: EmbeddedError) -> Self {
        let (path, problem) = error.into_parts();
        Self { path, problem, hint: "" }
    }

    fn folder(path: &Path, problem: String) -> Self {
        Self { path: path.to_owned(), problem, hint: FOLDER_HINT }
    }

    fn io(path: &Path) -> impl FnOnce(io::Error) -> Self + '_ {
        move |e| Self::folder(path, e.to_string())
    }
}

impl App {
    /// Where the app is, in words (its folder).
    #[must_use]
    pub fn describe(&self) -> String {
        match self {
            App::Dir(dir) => dir.display().to_string(),
            App::Embedded(app) => app.describe(),
        }
    }

    /// Its `index.html`'s name, for messages.
    #[must_use]
    pub fn index_path(&self) -> PathBuf {
        match self {
            App::Dir(dir) => dir.join("index.html"),
            App::Embedded(_) => Path::new(embedded::NAME).join("index.html"),
        }
    }

    /// Checks that the app is there.
    ///
    /// # Errors
    /// The folder does not exist or has no `index.html`.
    pub fn check(&self) -> Result<(), AppError> {
        match self {
            App::Dir(dir) => {
                let missing = |problem: &str| AppError::folder(dir, problem.to_owned());
                if !dir.is_dir() {
                    return Err(missing("the app's folder does not exist"));
                }
                if !dir.join("index.html").is_file() {
                    return Err(missing("the app's folder has no index.html"));
                }
                Ok(())
            }
            App::Embedded(app) => app.check().map_err(AppError::embedded),
        }
    }

    /// Its `index.html`, at most [`MAX_INDEX_BYTES`].
    ///
    /// # Errors
    /// It cannot be read, or is too large.
    pub fn index_html(&self) -> Result<String, AppError> {
        match self {
            App::Dir(dir) => {
                let path = dir.join("index.html");
                let size = fs::metadata(&path).map_err(AppError::io(&path))?.len();
                if size > MAX_INDEX_BYTES {
                    let problem = format!("it is {size} bytes; the limit is {MAX_INDEX_BYTES}");
                    return Err(AppError::folder(&path, problem));
                }
                fs::read_to_string(&path).map_err(AppError::io(&path))
            }
            App::Embedded(app) => app.index_html().map_err(AppError::embedded),
        }
    }

    /// The names at the app's top, sorted.
    ///
    /// # Errors
    /// The folder cannot be read.
    pub fn names(&self) -> Result<Vec<String>, AppError> {
        match self {
            App::Dir(dir) => {
                let mut names = Vec::new();
                for entry in fs::read_dir(dir).map_err(AppError::io(dir))? {
                    let entry = entry.map_err(AppError::io(dir))?;
                    names.push(entry.file_name().to_string_lossy().into_owned());
                }
                names.sort();
                Ok(names)
            }
            App::Embedded(app) => app.names().map_err(AppError::embedded),
        }
    }

    /// Copies the app's top entries `names` (folders with everything in them) into `site`.
    ///
    /// # Errors
    /// A file that cannot be read or written.
    pub fn copy_into(&self, names: &[String], site: &Path) -> Result<(), AppError> {
        match self {
            App::Dir(dir) => {
                for name in names {
                    copy(&dir.join(name), &site.join(name))?;
                }
                Ok(())
            }
            App::Embedded(app) => app.copy_into(names, site).map_err(AppError::embedded),
        }
    }
}

/// Copies a file, or a folder and everything in it (links followed).
fn copy(from: &Path, to: &Path) -> Result<(), AppError> {
    if from.is_dir() {
        fs::create_dir(to).map_err(AppError::io(to))?;
        for entry in fs::read_dir(from).map_err(AppError::io(from))? {
            let entry = entry.map_err(AppError::io(from))?;
            copy(&entry.path(), &to.join(entry.file_name()))?;
        }
        Ok(())
    } else {
        fs::copy(from, to).map(drop).map_err(AppError::io(from))
    }
}
