//! The `--state FILE` database: the mock's state in SQLite, one row per record (an item, a pet,
//! a counter; see `playground_mock::records`), so that a write costs the records it touched
//! rather than the whole state. Commits are synced (WAL, `synchronous=FULL`) before a change is
//! answered ([`crate::durable`] groups concurrent writers into one commit).
//!
//! The schema is versioned with `PRAGMA user_version` and migrated forward at open; a file from
//! a newer server is refused with the reason. A JSON snapshot at FILE (the format earlier
//! versions kept there, and the format of exports) is imported once: the database replaces it
//! and the JSON is kept beside it as `FILE.imported-SECONDS.json`.

use std::fs::{self, File};
use std::io::Read;
use std::path::{Path, PathBuf};

use playground_mock::{Changes, Record};
use rusqlite::{Connection, OpenFlags, params};

use crate::state_file::{StateFileError, directory_of, sibling};

/// Marks the database as this project's (`PRAGMA application_id`, "PETS").
const APPLICATION_ID: i32 = 0x5045_5453;

/// The schema, one migration per version (`user_version` is the number applied).
const MIGRATIONS: &[&str] =
    &["CREATE TABLE records (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) WITHOUT ROWID"];

/// The largest JSON snapshot imported, and the most the records of a database may take
/// together when they are read (512 MiB).
pub const MAX_IMPORT_BYTES: u64 = 512 * 1024 * 1024;

/// The schema version this server writes.
#[must_use]
pub fn schema_version() -> u32 {
    u32::try_from(MIGRATIONS.len()).unwrap_or(u32::MAX)
}

/// What FILE holds before it is opened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Found {
    /// No file, or an empty one: a new database.
    Nothing,
    /// A SQLite database.
    Database,
    /// Something else, read as a JSON snapshot to import.
    Snapshot(String),
}

/// Looks at FILE: a database, a JSON snapshot (read, up to [`MAX_IMPORT_BYTES`]) or nothing.
///
/// # Errors
/// [`StateFileError::Read`] when it cannot be read; [`StateFileError::NoDirectory`] when its
/// directory is missing.
pub fn look(path: &Path) -> Result<Found, StateFileError> {
    let dir = directory_of(path);
    if !dir.is_dir() {
        return Err(StateFileError::NoDirectory { path: path.to_owned(), dir });
    }
    let read_error = |source| StateFileError::Read { path: path.to_owned(), source };
    let mut file = match File::open(path) {
        Ok(file) => file,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Found::Nothing),
        Err(source) => return Err(read_error(source)),
    };
    let size = file.metadata().map_err(read_error)?.len();
    if size == 0 {
        return Ok(Found::Nothing);
    }
    let mut head = [0_u8; 16];
    let got = file.read(&mut head).map_err(read_error)?;
    if head[..got] == *b"SQLite format 3\0" {
        return Ok(Found::Database);
    }
    if size > MAX_IMPORT_BYTES {
        return Err(StateFileError::Read {
            path: path.to_owned(),
            source: std::io::Error::other(format!(
                "it holds {size} bytes and is not a SQLite database; a JSON state is read up to \
                 {MAX_IMPORT_BYTES} bytes"
            )),
        });
    }
    fs::read_to_string(path).map(Found::Snapshot).map_err(read_error)
}

/// The open database.
#[derive(Debug)]
pub struct StateDb {
    conn: Connection,
    path: PathBuf,
}

impl StateDb {
    /// Opens (or creates) the database at `path` and brings its schema up to date.
    ///
    /// # Errors
    /// [`StateFileError::Database`] when SQLite refuses it, [`StateFileError::TooNew`] when a
    /// newer server wrote it, [`StateFileError::NotOurs`] when another program's database.
    pub fn open(path: &Path) -> Result<Self, StateFileError> {
        let failed = |source: rusqlite::Error| StateFileError::Database { path: path.to_owned(), source };
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_WRITE
                | OpenFlags::SQLITE_OPEN_CREATE
                | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(failed)?;
        let found = check_schema(&conn, path)?;
        conn.pragma_update(None, "journal_mode", "WAL").map_err(failed)?;
        conn.pragma_update(None, "synchronous", "FULL").map_err(failed)?;
        for (version, sql) in MIGRATIONS.iter().enumerate().skip(found as usize) {
            conn.execute_batch(&format!(
                "BEGIN IMMEDIATE; {sql}; PRAGMA application_id = {APPLICATION_ID}; PRAGMA user_version = {}; COMMIT;",
                version + 1
            ))
            .map_err(failed)?;
        }
        Ok(Self { conn, path: path.to_owned() })
    }

    /// Opens the database at `path` to read it only (while a server may write it).
    ///
    /// # Errors
    /// As [`StateDb::open`]; a database of an older schema is read as it is.
    pub fn open_read_only(path: &Path) -> Result<Self, StateFileError> {
        let failed = |source: rusqlite::Error| StateFileError::Database { path: path.to_owned(), source };
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(failed)?;
        check_schema(&conn, path)?;
        Ok(Self { conn, path: path.to_owned() })
    }

    /// Every record (in no particular order: the mocks read them in any).
    ///
    /// # Errors
    /// [`StateFileError::Database`] when they cannot be read; [`StateFileError::Read`] when they
    /// take more than [`MAX_IMPORT_BYTES`].
    pub fn records(&self) -> Result<Vec<Record>, StateFileError> {
        let failed = |source| StateFileError::Database { path: self.path.clone(), source };
        let mut statement = self.conn.prepare("SELECT key, value FROM records").map_err(failed)?;
        let mut rows = statement.query([]).map_err(failed)?;
        let mut records = Vec::new();
        let mut bytes = 0_u64;
        while let Some(row) = rows.next().map_err(failed)? {
            let record: Record = (row.get(0).map_err(failed)?, row.get(1).map_err(failed)?);
            bytes += (record.0.len() + record.1.len()) as u64;
            if bytes > MAX_IMPORT_BYTES {
                return Err(StateFileError::Read {
                    path: self.path.clone(),
                    source: std::io::Error::other(format!(
                        "its records take more than {MAX_IMPORT_BYTES} bytes, the most a state is read up to"
                    )),
                });
            }
            records.push(record);
        }
        Ok(records)
    }

    /// Writes these changes, in order, in one transaction, committed and synced when this
    /// returns.
    ///
    /// # Errors
    /// SQLite's error; nothing of the group is then kept.
    pub fn write(&mut self, group: &[Write]) -> Result<(), rusqlite::Error> {
        let transaction = self.conn.transaction()?;
        {
            let mut upsert = transaction.prepare_cached(
                "INSERT INTO records (key, value) VALUES (?1, ?2) \
                 ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            )?;
            let mut delete = transaction.prepare_cached("DELETE FROM records WHERE key = ?1")?;
            for write in group {
                match write {
                    Write::Replace(records) => {
                        transaction.execute("DELETE FROM records", [])?;
                        for (key, value) in records {
                            upsert.execute(params![key, value])?;
                        }
                    }
                    Write::Change(changes) => {
                        for (key, value) in changes {
                            match value {
                                Some(value) => upsert.execute(params![key, value])?,
                                None => delete.execute(params![key])?,
                            };
                        }
                    }
                }
            }
        }
        transaction.commit()
    }

    /// The file.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// The schema version of an open database of ours.
fn check_schema(conn: &Connection, path: &Path) -> Result<u32, StateFileError> {
    let failed = |source: rusqlite::Error| StateFileError::Database { path: path.to_owned(), source };
    let found: u32 = conn.pragma_query_value(None, "user_version", |r| r.get(0)).map_err(failed)?;
    let id: i32 = conn.pragma_query_value(None, "application_id", |r| r.get(0)).map_err(failed)?;
    let tables: i64 =
        conn.query_row("SELECT count(*) FROM sqlite_schema", [], |r| r.get(0)).map_err(failed)?;
    if id != APPLICATION_ID && tables > 0 {
        return Err(StateFileError::NotOurs { path: path.to_owned() });
    }
    let known = schema_version();
    if found > known {
        return Err(StateFileError::TooNew { path: path.to_owned(), found, known });
    }
    Ok(found)
}

/// One change of the state as the database takes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Write {
    /// The whole state, replacing every record.
    Replace(Vec<Record>),
    /// These records set (`Some`) or removed (`None`).
    Change(Vec<(String, Option<String>)>),
}

impl Write {
    /// The write for `changes`; `records` gives the whole state when everything changed.
    pub fn of(changes: Changes, records: impl FnOnce() -> Vec<Record>) -> Option<Self> {
        match changes {
            Changes::Everything => Some(Self::Replace(records())),
            Changes::Records(changes) if changes.is_empty() => None,
            Changes::Records(changes) => Some(Self::Change(changes)),
        }
    }
}

/// Replaces the JSON snapshot at `path` with a database of `records`, so that a crash at any
/// moment leaves either the JSON file or the whole database at `path`: the database is written
/// beside it and synced, the JSON is linked (or copied) to `FILE.imported-SECONDS.json`, then
/// the database is renamed over `path` and the directory synced. Returns where the JSON went.
///
/// # Errors
/// [`StateFileError`] when a step fails; `path` then still holds the JSON.
pub fn import(path: &Path, records: Vec<Record>) -> Result<PathBuf, StateFileError> {
    let io_failed = |source| StateFileError::Write { path: path.to_owned(), source };
    let building = sibling(path, ".importing");
    for stale in [building.clone(), sibling(&building, "-wal"), sibling(&building, "-shm")] {
        let _ = fs::remove_file(stale);
    }
    {
        let mut db = StateDb::open(&building)?;
        db.write(&[Write::Replace(records)])
            .map_err(|source| StateFileError::Database { path: building.clone(), source })?;
        // Fold the WAL into the file, so that the one file renamed below holds everything.
        db.conn
            .pragma_update(None, "journal_mode", "DELETE")
            .map_err(|source| StateFileError::Database { path: building.clone(), source })?;
    }
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_secs());
    let kept = sibling(path, &format!(".imported-{seconds}.json"));
    if fs::hard_link(path, &kept).is_err() {
        fs::copy(path, &kept).map_err(io_failed)?;
        File::open(&kept).and_then(|file| file.sync_all()).map_err(io_failed)?;
    }
    fs::rename(&building, path).map_err(io_failed)?;
    File::open(directory_of(path)).and_then(|dir| dir.sync_all()).map_err(io_failed)?;
    Ok(kept)
}

/// Moves the database's write-ahead log along with it (`FILE-wal` to `TO-wal`), so that what
/// it holds stays with the file; the shared-memory index is dropped (SQLite rebuilds it).
pub fn move_log(from: &Path, to: &Path) {
    let _ = fs::rename(sibling(from, "-wal"), sibling(to, "-wal"));
    let _ = fs::remove_file(sibling(from, "-shm"));
}
