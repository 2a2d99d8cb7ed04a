//! The host's state in SQLite (`{data_dir}/host.sqlite3`): projects, domains, certificates,
//! sessions, sign-in attempts and the ACME account. Every change is one transaction, committed
//! (WAL, `synchronous=FULL`: synced to disk) before the caller answers, so a `kill -9` loses
//! nothing acknowledged. The schema is versioned with `PRAGMA user_version`; a database from a
//! newer host is refused. `{data_dir}/host.lock`, locked while a host runs, keeps a second host
//! off the same state.

use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, PoisonError};

use playground_domains::{DnsRecord, DomainRole, DomainState, Plan};
use rusqlite::{Connection, OptionalExtension, params};

use crate::config::ProjectConfig;
use crate::services::Issued;

mod columns;
mod schema;

use self::columns::{
    as_i64, as_u64, parse_plan, plan_text, read_certificate, read_domain, role_text, state_columns,
};
use self::schema::migrate;
pub use self::schema::{MIGRATIONS, schema_version};

/// Why the state could not be opened or changed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// Another host holds the lock.
    #[error(
        "another playground host is using the data directory {} (it holds {}). Stop that one, or \
         choose another data_dir in the configuration.",
        dir.display(),
        lock.display()
    )]
    Locked {
        /// The data directory.
        dir: PathBuf,
        /// The lock file.
        lock: PathBuf,
    },
    /// The database was written by a newer host.
    #[error(
        "the database {} has schema version {found}, written by a newer playground host; this one \
         knows versions up to {known}. Run the newer host, or restore a backup made by this version.",
        path.display()
    )]
    TooNew {
        /// The database file.
        path: PathBuf,
        /// Its version.
        found: u32,
        /// The newest this host knows.
        known: u32,
    },
    /// A file-system step failed.
    #[error("cannot use {}: {source}", path.display())]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// SQLite refused.
    #[error("the state database: {0}")]
    Sql(#[from] rusqlite::Error),
    /// A row that this host did not write (or a damaged one).
    #[error("the state database holds a bad row: {0}")]
    Corrupt(String),
}

/// A project as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectRow {
    /// Its name.
    pub name: String,
    /// Its owner's email.
    pub owner: String,
    /// Its plan.
    pub plan: Plan,
    /// Its site's folder.
    pub site_dir: PathBuf,
    /// The chosen primary domain.
    pub primary: Option<String>,
}

/// The last (re-)verification of a domain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    /// Whether it passed.
    pub ok: bool,
    /// What it found, as a sentence.
    pub message: String,
    /// When.
    pub at: u64,
}

/// A domain as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DomainRow {
    /// Its normalised name.
    pub name: String,
    /// Its project.
    pub project: String,
    /// What it does while live and not the primary.
    pub role: DomainRole,
    /// Its lifecycle state (never `none`: a removed domain has no row).
    pub state: DomainState,
    /// The last (re-)verification.
    pub check: Option<Check>,
    /// CAA records that forbid the certificate authority, found at the last verification.
    pub blocking_caa: Vec<DnsRecord>,
    /// The authority's message of the last failed issuance, and when.
    pub issue_error: Option<(String, u64)>,
}

/// A stored certificate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CertificateRow {
    /// The domain.
    pub name: String,
    /// The chain, PEM.
    pub chain_pem: String,
    /// The key, PEM.
    pub key_pem: String,
    /// Expiry (seconds since 1970).
    pub not_after: u64,
}

/// The open state: the database and the lock.
#[derive(Debug)]
pub struct Store {
    conn: Mutex<Connection>,
    path: PathBuf,
    _lock: File,
}

/// The database file in `data_dir`.
#[must_use]
pub fn database_path(data_dir: &Path) -> PathBuf {
    data_dir.join("host.sqlite3")
}

impl Store {
    /// Opens (creating if needed) the state in `data_dir`: takes the lock, then brings the
    /// schema up to date.
    ///
    /// # Errors
    /// Another host holds the lock, the database is from a newer host, or a file step failed.
    pub fn open(data_dir: &Path) -> Result<Store, StoreError> {
        let io = |path: &Path| {
            let path = path.to_owned();
            move |source| StoreError::Io { path, source }
        };
        fs::create_dir_all(data_dir).map_err(io(data_dir))?;
        let lock_path = data_dir.join("host.lock");
        let lock = File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)
            .map_err(io(&lock_path))?;
        match lock.try_lock() {
            Ok(()) => {}
            Err(fs::TryLockError::WouldBlock) => {
                return Err(StoreError::Locked { dir: data_dir.to_owned(), lock: lock_path });
            }
            Err(fs::TryLockError::Error(source)) => return Err(StoreError::Io { path: lock_path, source }),
        }
        let path = database_path(data_dir);
        let conn = Connection::open(&path)?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        migrate(&conn, &path)?;
        Ok(Store { conn: Mutex::new(conn), path, _lock: lock })
    }

    /// The database file.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn conn(&self) -> MutexGuard<'_, Connection> {
        self.conn.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Writes the configured projects (owner, plan, site) over the stored ones, keeping their
    /// primary and domains.
    ///
    /// # Errors
    /// SQLite refused.
    pub fn sync_projects(&self, projects: &[ProjectConfig]) -> Result<(), StoreError> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        for p in projects {
            tx.execute(
                "INSERT INTO projects (name, owner, plan, site_dir) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT(name) DO UPDATE SET owner = ?2, plan = ?3, site_dir = ?4",
                params![p.name, p.owner, plan_text(p.plan), p.site.to_string_lossy()],
            )?;
        }
        tx.commit()?;
        Ok(())
    }

    /// The project called `name`.
    ///
    /// # Errors
    /// SQLite refused, or a bad row.
    pub fn project(&self, name: &str) -> Result<Option<ProjectRow>, StoreError> {
        let conn = self.conn();
        let row = conn
            .query_row(
                "SELECT name, owner, plan, site_dir, primary_domain FROM projects WHERE name = ?1",
                [name],
                |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        r.get::<_, String>(1)?,
                        r.get::<_, String>(2)?,
                        r.get::<_, String>(3)?,
                        r.get::<_, Option<String>>(4)?,
                    ))
                },
            )
            .optional()?;
        row.map(|(name, owner, plan, site, primary)| {
            Ok(ProjectRow { name, owner, plan: parse_plan(&plan)?, site_dir: PathBuf::from(site), primary })
        })
        .transpose()
    }

    /// The domains of `project`, in the order they were added.
    ///
    /// # Errors
    /// SQLite refused, or a bad row.
    pub fn domains_of(&self, project: &str) -> Result<Vec<DomainRow>, StoreError> {
        let conn = self.conn();
        let mut statement = conn.prepare(
            "SELECT name, project, role, state, added_at, verified_at, live_at, check_ok, check_message,
                    checked_at, blocking_caa, issue_error, issue_failed_at
             FROM domains WHERE project = ?1 ORDER BY position",
        )?;
        let rows = statement.query_map([project], read_domain)?;
        rows.map(|r| r.map_err(StoreError::from).and_then(|r| r)).collect()
    }

    /// Every stored domain.
    ///
    /// # Errors
    /// SQLite refused, or a bad row.
    pub fn all_domains(&self) -> Result<Vec<DomainRow>, StoreError> {
        let conn = self.conn();
        let mut statement = conn.prepare(
            "SELECT name, project, role, state, added_at, verified_at, live_at, check_ok, check_message,
                    checked_at, blocking_caa, issue_error, issue_failed_at
             FROM domains ORDER BY project, position",
        )?;
        let rows = statement.query_map([], read_domain)?;
        rows.map(|r| r.map_err(StoreError::from).and_then(|r| r)).collect()
    }

    /// The project `name` is attached to, if any.
    ///
    /// # Errors
    /// SQLite refused.
    pub fn domain_project(&self, name: &str) -> Result<Option<String>, StoreError> {
        Ok(self
            .conn()
            .query_row("SELECT project FROM domains WHERE name = ?1", [name], |r| r.get(0))
            .optional()?)
    }

    /// Writes a project's domains as a whole, in one transaction: `domains` in their order
    /// (inserted or updated), every other domain of the project deleted with its certificate,
    /// the primary set, and `certificate` (if any) stored.
    ///
    /// # Errors
    /// SQLite refused (nothing is written then).
    pub fn write_project(
        &self,
        project: &str,
        primary: Option<&str>,
        domains: &[DomainRow],
        certificate: Option<(&str, &Issued, u64)>,
    ) -> Result<(), StoreError> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        let names: Vec<String> = {
            let mut s = tx.prepare("SELECT name FROM domains WHERE project = ?1")?;
            s.query_map([project], |r| r.get::<_, String>(0))?.collect::<Result<_, _>>()?
        };
        for gone in names.iter().filter(|n| !domains.iter().any(|d| &d.name == *n)) {
            tx.execute("DELETE FROM domains WHERE name = ?1", [gone])?;
            tx.execute("DELETE FROM certificates WHERE name = ?1", [gone])?;
        }
        for (position, d) in domains.iter().enumerate() {
            let (state, added, verified, live) = state_columns(&d.state);
            let caa =
                serde_json::to_string(&d.blocking_caa).map_err(|e| StoreError::Corrupt(e.to_string()))?;
            tx.execute(
                "INSERT INTO domains (name, project, position, state, role, added_at, verified_at, live_at,
                                      check_ok, check_message, checked_at, blocking_caa, issue_error, issue_failed_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)
                 ON CONFLICT(name) DO UPDATE SET project = ?2, position = ?3, state = ?4, role = ?5,
                    added_at = ?6, verified_at = ?7, live_at = ?8, check_ok = ?9, check_message = ?10,
                    checked_at = ?11, blocking_caa = ?12, issue_error = ?13, issue_failed_at = ?14",
                params![
                    d.name,
                    project,
                    as_i64(position as u64),
                    state,
                    role_text(d.role),
                    as_i64(added),
                    verified.map(as_i64),
                    live.map(as_i64),
                    d.check.as_ref().map(|c| c.ok),
                    d.check.as_ref().map(|c| c.message.as_str()),
                    d.check.as_ref().map(|c| as_i64(c.at)),
                    caa,
                    d.issue_error.as_ref().map(|e| e.0.as_str()),
                    d.issue_error.as_ref().map(|e| as_i64(e.1)),
                ],
            )?;
        }
        tx.execute("UPDATE projects SET primary_domain = ?2 WHERE name = ?1", params![project, primary])?;
        if let Some((name, issued, now)) = certificate {
            tx.execute(
                "INSERT INTO certificates (name, chain_pem, key_pem, not_after, issued_at) VALUES (?1, ?2, ?3, ?4, ?5)
                 ON CONFLICT(name) DO UPDATE SET chain_pem = ?2, key_pem = ?3, not_after = ?4, issued_at = ?5",
                params![name, issued.chain_pem, issued.key_pem, as_i64(issued.not_after), as_i64(now)],
            )?;
        }
        tx.commit()?;
        Ok(())
    }

    /// Stores a certificate for `name` that is no custom domain's (the admin host's).
    ///
    /// # Errors
    /// SQLite refused.
    pub fn put_certificate(&self, name: &str, issued: &Issued, now: u64) -> Result<(), StoreError> {
        self.conn().execute(
            "INSERT INTO certificates (name, chain_pem, key_pem, not_after, issued_at) VALUES (?1, ?2, ?3, ?4, ?5)
             ON CONFLICT(name) DO UPDATE SET chain_pem = ?2, key_pem = ?3, not_after = ?4, issued_at = ?5",
            params![name, issued.chain_pem, issued.key_pem, as_i64(issued.not_after), as_i64(now)],
        )?;
        Ok(())
    }

    /// The certificate stored for `name`.
    ///
    /// # Errors
    /// SQLite refused.
    pub fn certificate(&self, name: &str) -> Result<Option<CertificateRow>, StoreError> {
        Ok(self
            .conn()
            .query_row(
                "SELECT name, chain_pem, key_pem, not_after FROM certificates WHERE name = ?1",
                [name],
                read_certificate,
            )
            .optional()?)
    }

    /// The certificates of the domains that serve (live or re-verifying).
    ///
    /// # Errors
    /// SQLite refused.
    pub fn serving_certificates(&self) -> Result<Vec<CertificateRow>, StoreError> {
        let conn = self.conn();
        let mut s = conn.prepare(
            "SELECT c.name, c.chain_pem, c.key_pem, c.not_after FROM certificates c
             JOIN domains d ON d.name = c.name WHERE d.state IN ('live', 'reverifying')",
        )?;
        let rows = s.query_map([], read_certificate)?.collect::<Result<_, _>>()?;
        Ok(rows)
    }

    /// Starts a session for `owner` until `expires_at`; `token_hash` is what is kept.
    ///
    /// # Errors
    /// SQLite refused.
    pub fn create_session(
        &self,
        token_hash: &str,
        owner: &str,
        expires_at: u64,
        now: u64,
    ) -> Result<(), StoreError> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        tx.execute("DELETE FROM sessions WHERE expires_at <= ?1", [as_i64(now)])?;
        tx.execute(
            "INSERT INTO sessions (token_hash, owner, expires_at) VALUES (?1, ?2, ?3)",
            params![token_hash, owner, as_i64(expires_at)],
        )?;
        tx.commit()?;
        Ok(())
    }

    /// The owner of a session and when it expires.
    ///
    /// # Errors
    /// SQLite refused.
    pub fn session(&self, token_hash: &str) -> Result<Option<(String, u64)>, StoreError> {
        Ok(self
            .conn()
            .query_row("SELECT owner, expires_at FROM sessions WHERE token_hash = ?1", [token_hash], |r| {
                Ok((r.get::<_, String>(0)?, as_u64(r.get(1)?)))
            })
            .optional()?)
    }

    /// Ends a session.
    ///
    /// # Errors
    /// SQLite refused.
    pub fn delete_session(&self, token_hash: &str) -> Result<(), StoreError> {
        self.conn().execute("DELETE FROM sessions WHERE token_hash = ?1", [token_hash])?;
        Ok(())
    }

    /// Records a sign-in attempt.
    ///
    /// # Errors
    /// SQLite refused.
    pub fn record_attempt(&self, email: &str, ip: &str, at: u64, ok: bool) -> Result<(), StoreError> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        // Attempts older than a day are of no use to the limit.
        tx.execute("DELETE FROM sign_in_attempts WHERE at < ?1", [as_i64(at.saturating_sub(86_400))])?;
        tx.execute(
            "INSERT INTO sign_in_attempts (email, ip, at, ok) VALUES (?1, ?2, ?3, ?4)",
            params![email, ip, as_i64(at), ok],
        )?;
        tx.commit()?;
        Ok(())
    }

    /// Failed attempts since `since` for the email and for the IP: (count, oldest time) each.
    ///
    /// # Errors
    /// SQLite refused.
    pub fn failed_attempts(
        &self,
        email: &str,
        ip: &str,
        since: u64,
    ) -> Result<[(u64, Option<u64>); 2], StoreError> {
        let conn = self.conn();
        let count = |column: &str, value: &str| -> Result<(u64, Option<u64>), StoreError> {
            Ok(conn.query_row(
                &format!("SELECT COUNT(*), MIN(at) FROM sign_in_attempts WHERE {column} = ?1 AND at >= ?2 AND ok = 0"),
                params![value, as_i64(since)],
                |r| Ok((as_u64(r.get(0)?), r.get::<_, Option<i64>>(1)?.map(as_u64))),
            )?)
        };
        Ok([count("email", email)?, count("ip", ip)?])
    }

    /// The ACME account's stored credentials for a directory.
    ///
    /// # Errors
    /// SQLite refused.
    pub fn acme_credentials(&self, directory_url: &str) -> Result<Option<String>, StoreError> {
        Ok(self
            .conn()
            .query_row(
                "SELECT credentials FROM acme_accounts WHERE directory_url = ?1",
                [directory_url],
                |r| r.get(0),
            )
            .optional()?)
    }

    /// Stores the ACME account's credentials for a directory.
    ///
    /// # Errors
    /// SQLite refused.
    pub fn set_acme_credentials(
        &self,
        directory_url: &str,
        credentials: &str,
        now: u64,
    ) -> Result<(), StoreError> {
        self.conn().execute(
            "INSERT INTO acme_accounts (directory_url, credentials, created_at) VALUES (?1, ?2, ?3)
             ON CONFLICT(directory_url) DO UPDATE SET credentials = ?2",
            params![directory_url, credentials, as_i64(now)],
        )?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn project() -> ProjectConfig {
        ProjectConfig {
            name: "petstore".to_owned(),
            site: PathBuf::from("/srv/site"),
            owner: "ana@example.com".to_owned(),
            plan: Plan::Pro,
        }
    }

    fn domain(name: &str, state: DomainState) -> DomainRow {
        DomainRow {
            name: name.to_owned(),
            project: "petstore".to_owned(),
            role: DomainRole::Redirect,
            state,
            check: Some(Check { ok: true, message: "matches".to_owned(), at: 5 }),
            blocking_caa: vec![],
            issue_error: None,
        }
    }

    #[test]
    fn a_second_store_on_the_same_dir_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let _first = Store::open(dir.path()).unwrap();
        let error = Store::open(dir.path()).unwrap_err();
        assert!(matches!(error, StoreError::Locked { .. }), "{error}");
        assert!(error.to_string().contains("another playground host"), "{error}");
    }

    #[test]
    fn a_newer_database_is_refused_with_the_reason() {
        let dir = tempfile::tempdir().unwrap();
        drop(Store::open(dir.path()).unwrap());
        let conn = Connection::open(database_path(dir.path())).unwrap();
        conn.pragma_update(None, "user_version", schema_version() + 1).unwrap();
        drop(conn);
        let error = Store::open(dir.path()).unwrap_err();
        assert!(matches!(error, StoreError::TooNew { .. }), "{error}");
        assert!(error.to_string().contains("newer playground host"), "{error}");
    }

    #[test]
    fn projects_and_domains_round_trip_and_reopen() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        store.sync_projects(&[project()]).unwrap();
        let issued = Issued { chain_pem: "chain".to_owned(), key_pem: "key".to_owned(), not_after: 99 };
        let rows = vec![
            domain("docs.example.com", DomainState::Live { added_at: 1, verified_at: 2, live_at: 3 }),
            domain("old.example.com", DomainState::Added { added_at: 4 }),
        ];
        store
            .write_project(
                "petstore",
                Some("docs.example.com"),
                &rows,
                Some(("docs.example.com", &issued, 3)),
            )
            .unwrap();
        drop(store);
        let store = Store::open(dir.path()).unwrap();
        assert_eq!(store.domains_of("petstore").unwrap(), rows);
        assert_eq!(store.project("petstore").unwrap().unwrap().primary.as_deref(), Some("docs.example.com"));
        assert_eq!(store.serving_certificates().unwrap().len(), 1);
        assert_eq!(store.domain_project("old.example.com").unwrap().as_deref(), Some("petstore"));
        store.write_project("petstore", None, &rows[1..], None).unwrap();
        assert!(store.certificate("docs.example.com").unwrap().is_none(), "removed with its domain");
    }

    #[test]
    fn sessions_and_attempts() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        store.create_session("h", "ana@example.com", 100, 10).unwrap();
        assert_eq!(store.session("h").unwrap(), Some(("ana@example.com".to_owned(), 100)));
        store.delete_session("h").unwrap();
        assert_eq!(store.session("h").unwrap(), None);
        for at in [10, 20, 30] {
            store.record_attempt("ana@example.com", "127.0.0.1", at, false).unwrap();
        }
        store.record_attempt("ana@example.com", "127.0.0.1", 40, true).unwrap();
        let [by_email, by_ip] = store.failed_attempts("ana@example.com", "127.0.0.1", 15).unwrap();
        assert_eq!(by_email, (2, Some(20)));
        assert_eq!(by_ip, (2, Some(20)));
    }
}
