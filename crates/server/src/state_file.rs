//! What `--state FILE` needs around its database ([`crate::state_db`]): the errors, the lock,
//! keeping an unreadable file aside, and writing a JSON file atomically (`export --out`).
//!
//! A file that cannot be loaded stops the server rather than being replaced by a fresh store:
//! it may hold someone's work. `--reset` keeps it aside and starts fresh. `FILE.lock`, locked
//! while a server uses FILE, keeps a second server off the same file.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use playground_mock::SnapshotError;

/// Why the state file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum StateFileError {
    /// The file exists but could not be read.
    #[error("cannot read the state file {}: {source}", path.display())]
    Read {
        /// The state file.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// The file was read but the mock refused it.
    #[error(
        "cannot load the state file {}: {source}\nThe file was left as it is: fix it, move it away, \
         choose another file with --state, or start with --reset to keep it aside and start fresh.",
        path.display()
    )]
    Invalid {
        /// The state file.
        path: PathBuf,
        /// Why the mock refused it.
        source: SnapshotError,
    },
    /// The directory that would hold the file is missing, so the state could not be saved.
    #[error("cannot keep state in {}: the directory {} does not exist", path.display(), dir.display())]
    NoDirectory {
        /// The state file.
        path: PathBuf,
        /// Its directory.
        dir: PathBuf,
    },
    /// Another server holds the file's lock.
    #[error(
        "another petstore-mock is serving the state file {} (it holds {}). Stop that one, or \
         choose another file with --state.",
        path.display(),
        lock.display()
    )]
    Locked {
        /// The state file.
        path: PathBuf,
        /// The lock file.
        lock: PathBuf,
    },
    /// The lock file could not be opened or locked.
    #[error("cannot lock the state file {} with {}: {source}", path.display(), lock.display())]
    Lock {
        /// The state file.
        path: PathBuf,
        /// The lock file.
        lock: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// SQLite refused to open, read or write the state database.
    #[error("cannot use the state database {}: {source}", path.display())]
    Database {
        /// The state file.
        path: PathBuf,
        /// What SQLite said.
        source: rusqlite::Error,
    },
    /// The database was written by a newer server.
    #[error(
        "the state file {} has schema version {found}, written by a newer petstore-mock; this one \
         knows versions up to {known}. Run the newer one, or export the state with it and import \
         the JSON here.",
        path.display()
    )]
    TooNew {
        /// The state file.
        path: PathBuf,
        /// Its version.
        found: u32,
        /// The newest this server knows.
        known: u32,
    },
    /// A SQLite database of another program.
    #[error(
        "the state file {} is a SQLite database of another program; choose another file with --state.",
        path.display()
    )]
    NotOurs {
        /// The state file.
        path: PathBuf,
    },
    /// Writing, syncing or renaming failed.
    #[error("cannot save the state to {}: {source}", path.display())]
    Write {
        /// The state file.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
}

impl StateFileError {
    /// Whether `--reset` may keep the file aside and start fresh: it was read, but it holds no
    /// state this server can use (a database of a newer server, or of another program, is
    /// refused rather than moved).
    #[must_use]
    pub fn resettable(&self) -> bool {
        matches!(self, Self::Invalid { .. } | Self::Database { .. })
    }

    /// Why the state was refused, without the advice around it.
    #[must_use]
    pub fn reason(&self) -> String {
        match self {
            Self::Invalid { source, .. } => source.to_string(),
            Self::Database { source, .. } => source.to_string(),
            other => other.to_string(),
        }
    }
}

/// Writes `snapshot` to `path` so that a crash at any moment leaves either the old file or the
/// new one whole: write `FILE.tmp` beside it, sync it, rename it over `FILE`, sync the directory.
///
/// # Errors
/// [`StateFileError::Write`] when any step fails; `FILE` is then untouched.
pub fn save(path: &Path, snapshot: &str) -> Result<(), StateFileError> {
    let failed = |source| StateFileError::Write { path: path.to_owned(), source };
    let temporary = temporary_path(path);
    let result = (|| {
        let mut file = File::create(&temporary)?;
        file.write_all(snapshot.as_bytes())?;
        file.sync_all()?;
        fs::rename(&temporary, path)
    })();
    if let Err(source) = result {
        // Best effort: a stale FILE.tmp is harmless, it is overwritten by the next save.
        let _ = fs::remove_file(&temporary);
        return Err(failed(source));
    }
    // The rename is durable only once the directory entry is on disk.
    File::open(directory_of(path)).and_then(|dir| dir.sync_all()).map_err(failed)
}

/// Takes `FILE.lock` for as long as the returned file is open (the system drops the lock when
/// the process ends, however it ends).
///
/// # Errors
/// [`StateFileError::Locked`] when another process holds it; [`StateFileError::NoDirectory`]
/// when the file's directory is missing; [`StateFileError::Lock`] when it cannot be opened or
/// locked.
pub fn lock(path: &Path) -> Result<File, StateFileError> {
    let dir = directory_of(path);
    if !dir.is_dir() {
        return Err(StateFileError::NoDirectory { path: path.to_owned(), dir });
    }
    let lock = sibling(path, ".lock");
    let failed = |source| StateFileError::Lock { path: path.to_owned(), lock: lock.clone(), source };
    let file = File::options().create(true).truncate(false).write(true).open(&lock).map_err(failed)?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(fs::TryLockError::WouldBlock) => Err(StateFileError::Locked { path: path.to_owned(), lock }),
        Err(fs::TryLockError::Error(source)) => Err(failed(source)),
    }
}

/// Moves an unreadable state file aside, to `FILE.unreadable-SECONDS` (seconds since 1970), and
/// returns where it went.
///
/// # Errors
/// [`StateFileError::Write`] when the rename fails.
pub fn keep_aside(path: &Path) -> Result<PathBuf, StateFileError> {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_secs());
    let aside = sibling(path, &format!(".unreadable-{seconds}"));
    fs::rename(path, &aside).map_err(|source| StateFileError::Write { path: path.to_owned(), source })?;
    Ok(aside)
}

/// `path` with `suffix` added to its file name.
pub(crate) fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.file_name().map(ToOwned::to_owned).unwrap_or_default();
    name.push(suffix);
    path.with_file_name(name)
}

/// `FILE.tmp` in the same directory: a rename is only atomic within one file system.
#[must_use]
pub fn temporary_path(path: &Path) -> PathBuf {
    sibling(path, ".tmp")
}

/// The directory that holds `path` (`.` for a bare name).
pub(crate) fn directory_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_owned(),
        _ => PathBuf::from("."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("petstore-state-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn temporary_file_sits_beside_the_state_file() {
        assert_eq!(temporary_path(Path::new("/data/state.json")), Path::new("/data/state.json.tmp"));
        assert_eq!(temporary_path(Path::new("state.json")), Path::new("state.json.tmp"));
    }

    #[test]
    fn missing_file_is_a_fresh_start_and_a_missing_directory_is_refused_up_front() {
        let dir = scratch("missing");
        assert_eq!(crate::state_db::look(&dir.join("state.db")).unwrap(), crate::state_db::Found::Nothing);
        let error = crate::state_db::look(&dir.join("no/such/dir/state.db")).unwrap_err();
        assert!(matches!(error, StateFileError::NoDirectory { .. }), "{error}");
        assert!(error.to_string().contains("does not exist"), "{error}");
    }

    #[test]
    fn save_replaces_the_file_and_leaves_no_temporary() {
        let dir = scratch("save");
        let path = dir.join("state.json");
        fs::write(&path, "old").unwrap();
        save(&path, "new").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "new");
        assert!(!temporary_path(&path).exists());
    }

    #[test]
    fn failed_save_leaves_the_old_file() {
        let dir = scratch("failed");
        // A directory where the state file should be: the rename over it fails.
        let path = dir.join("state.json");
        fs::create_dir(&path).unwrap();
        let error = save(&path, "new").unwrap_err();
        assert!(matches!(error, StateFileError::Write { .. }), "{error}");
        assert!(path.is_dir());
        assert!(!temporary_path(&path).exists());
    }
}
