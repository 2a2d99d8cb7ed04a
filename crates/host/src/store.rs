//! The host's state: projects, domains, certificates, sessions, sign-in attempts, the ACME
//! account and the HTTP-01 challenge answers, in one of two engines behind one API.
//!
//! - SQLite (`{data_dir}/host.sqlite3`, the default, one machine): WAL and `synchronous=FULL`,
//!   the schema counted by `PRAGMA user_version`, `{data_dir}/host.lock` held while a host runs
//!   so a second host on the same folder is refused.
//! - PostgreSQL (`[database] url = "postgres://..."`): tokio-postgres, the schema counted by the
//!   row of `schema_version`; a project's changes take the project's row lock
//!   (`SELECT ... FOR UPDATE`) inside their transaction instead of a lock file.
//!
//! In both, every change is one transaction, committed (synced to disk by SQLite, by the
//! server's WAL for PostgreSQL) before the caller answers, so a `kill -9` loses nothing
//! acknowledged; a database from a newer host is refused. Both pass the same tests
//! (`tests/store.rs`).

use std::path::{Path, PathBuf};

use playground_domains::{DnsRecord, DomainRole, DomainState, Plan};

use crate::config::ProjectConfig;
use crate::services::Issued;

mod columns;
mod postgres;
mod schema;
mod sqlite;

pub use self::postgres::CHANGES_CHANNEL;
use self::postgres::Postgres;
pub use self::schema::{MIGRATIONS, POSTGRES_MIGRATIONS, schema_version};
use self::sqlite::Sqlite;
pub use self::sqlite::database_path;

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
        "the database {database} has schema version {found}, written by a newer playground host; \
         this one knows versions up to {known}. Run the newer host, or restore a backup made by \
         this version."
    )]
    TooNew {
        /// The database file, or the PostgreSQL database (without its password).
        database: String,
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
    /// The `[database] url` cannot be used.
    #[error("the database url cannot be used: {reason}")]
    BadUrl {
        /// What is wrong with it.
        reason: String,
    },
    /// The PostgreSQL server could not be reached (or refused the connection).
    #[error(
        "cannot connect to the PostgreSQL database {database} (the [database] url): {message}. Is \
         the server running, and does it let this user in?"
    )]
    Unreachable {
        /// The database, without its password.
        database: String,
        /// What the driver or the server said.
        message: String,
    },
    /// SQLite refused.
    #[error("the state database: {0}")]
    Sql(#[from] rusqlite::Error),
    /// PostgreSQL refused.
    #[error("the state database (PostgreSQL): {0}")]
    Postgres(String),
    /// The connection to PostgreSQL was lost, or the server is shutting down or starting up;
    /// the next call connects again.
    #[error("the connection to the state database (PostgreSQL) was lost: {0}")]
    Lost(String),
    /// Another writer committed a change to the project since this change read it.
    #[error(
        "the project {project} was changed by another writer since this change read it; nothing \
         was written"
    )]
    Conflict {
        /// The project.
        project: String,
    },
    /// A domain name is another project's (attached there by another writer since this change
    /// checked); nothing was written.
    #[error("{name} is attached to the project {project}; nothing was written")]
    Taken {
        /// The domain name.
        name: String,
        /// The project it is attached to.
        project: String,
    },
    /// A row that this host did not write (or a damaged one).
    #[error("the state database holds a bad row: {0}")]
    Corrupt(String),
}

impl StoreError {
    /// Whether the database is out of reach for now (a lost connection, a server restarting):
    /// worth trying again shortly, unlike a refusal.
    #[must_use]
    pub fn is_unavailable(&self) -> bool {
        matches!(self, StoreError::Unreachable { .. } | StoreError::Lost(_))
    }
}

impl From<tokio_postgres::Error> for StoreError {
    fn from(e: tokio_postgres::Error) -> StoreError {
        // Class 08, connection exceptions; class 57, the server shutting down or starting up.
        let lost = e.is_closed()
            || e.as_db_error().is_some_and(|d| ["08", "57"].iter().any(|c| d.code().code().starts_with(c)))
            || std::error::Error::source(&e).is_some_and(|s| s.is::<std::io::Error>());
        if lost {
            StoreError::Lost(postgres::message(&e))
        } else {
            StoreError::Postgres(postgres::message(&e))
        }
    }
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
    /// How many changes were written to it: [`Store::write_project`] names the revision its
    /// change read, and is refused when it moved meanwhile.
    pub revision: u64,
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

/// The open state, in one of the two engines.
#[derive(Debug)]
pub struct Store {
    engine: Engine,
}

#[derive(Debug)]
enum Engine {
    Sqlite(Sqlite),
    Postgres(Box<Postgres>),
}

/// Calls the same method on either engine (SQLite's synchronously, PostgreSQL's awaited).
macro_rules! either {
    ($self:ident . $method:ident ( $($arg:expr),* )) => {
        match &$self.engine {
            Engine::Sqlite(e) => e.$method($($arg),*),
            Engine::Postgres(e) => e.$method($($arg),*).await,
        }
    };
}

impl Store {
    /// Opens (creating if needed) the SQLite state in `data_dir`: takes the lock, then brings
    /// the schema up to date.
    ///
    /// # Errors
    /// Another host holds the lock, the database is from a newer host, or a file step failed.
    pub fn open(data_dir: &Path) -> Result<Store, StoreError> {
        Ok(Store { engine: Engine::Sqlite(Sqlite::open(data_dir)?) })
    }

    /// Connects to the PostgreSQL database at `url` (`postgres://user@host:port/database`),
    /// then brings its schema up to date.
    ///
    /// # Errors
    /// A bad URL, an unreachable server, a refused login, or a database from a newer host.
    pub async fn connect(url: &str) -> Result<Store, StoreError> {
        Ok(Store { engine: Engine::Postgres(Box::new(Postgres::open(url).await?)) })
    }

    /// The engine the configuration names: PostgreSQL at `database_url`, else SQLite in
    /// `data_dir`.
    ///
    /// # Errors
    /// As [`Store::open`] or [`Store::connect`].
    pub async fn open_configured(data_dir: &Path, database_url: Option<&str>) -> Result<Store, StoreError> {
        match database_url {
            Some(url) => Store::connect(url).await,
            None => Store::open(data_dir),
        }
    }

    /// Where the state is, for messages: the SQLite file, or the PostgreSQL database without
    /// its password.
    #[must_use]
    pub fn describe(&self) -> String {
        match &self.engine {
            Engine::Sqlite(e) => e.path.display().to_string(),
            Engine::Postgres(e) => e.shown.clone(),
        }
    }

    /// The SQLite file, if the state is in SQLite.
    #[must_use]
    pub fn path(&self) -> Option<&Path> {
        match &self.engine {
            Engine::Sqlite(e) => Some(&e.path),
            Engine::Postgres(_) => None,
        }
    }

    /// Other writers' changes, with PostgreSQL: a `()` after each committed change that
    /// routing or the offered certificates depend on (`NOTIFY` on
    /// [`CHANGES_CHANNEL`], listened to on a connection of its own,
    /// listened to again after it was lost, with a `()` then too). `None` with SQLite, which
    /// one host holds alone.
    #[must_use]
    pub fn changes(&self) -> Option<tokio::sync::mpsc::UnboundedReceiver<()>> {
        match &self.engine {
            Engine::Sqlite(_) => None,
            Engine::Postgres(e) => Some(e.changes()),
        }
    }

    /// Whether this host is the one that asks the certificate authority now. With SQLite, one
    /// host holds the state: always. With PostgreSQL, the host that holds the issuance lease (a
    /// session-level advisory lock on a connection of its own, released by PostgreSQL when
    /// that connection ends, so a host that dies gives it up), taking it if it is free.
    ///
    /// # Errors
    /// The database cannot be reached.
    pub async fn lead_issuance(&self) -> Result<bool, StoreError> {
        match &self.engine {
            Engine::Sqlite(_) => Ok(true),
            Engine::Postgres(e) => e.lead_issuance().await,
        }
    }

    /// Gives the issuance lease up (when the host stops).
    pub async fn leave_issuance(&self) {
        if let Engine::Postgres(e) = &self.engine {
            e.leave_issuance().await;
        }
    }

    /// Writes the configured projects (owner, plan, site) over the stored ones, keeping their
    /// primary and domains.
    ///
    /// # Errors
    /// The database refused.
    pub async fn sync_projects(&self, projects: &[ProjectConfig]) -> Result<(), StoreError> {
        either!(self.sync_projects(projects))
    }

    /// The project called `name`.
    ///
    /// # Errors
    /// The database refused, or a bad row.
    pub async fn project(&self, name: &str) -> Result<Option<ProjectRow>, StoreError> {
        either!(self.project(name))
    }

    /// The domains of `project`, in the order they were added.
    ///
    /// # Errors
    /// The database refused, or a bad row.
    pub async fn domains_of(&self, project: &str) -> Result<Vec<DomainRow>, StoreError> {
        either!(self.domains(Some(project)))
    }

    /// Every stored domain, by project and in the order they were added.
    ///
    /// # Errors
    /// The database refused, or a bad row.
    pub async fn all_domains(&self) -> Result<Vec<DomainRow>, StoreError> {
        either!(self.domains(None))
    }

    /// The project `name` is attached to, if any.
    ///
    /// # Errors
    /// The database refused.
    pub async fn domain_project(&self, name: &str) -> Result<Option<String>, StoreError> {
        either!(self.domain_project(name))
    }

    /// Writes a project's domains as a whole, in one transaction that first takes the
    /// project's write lock (its row's in PostgreSQL) and checks that its revision is still
    /// the one `project` was read at: `domains` in their order (inserted or updated), every
    /// other domain of the project deleted with its certificate, the primary set, `certificate`
    /// (if any) stored, and the revision counted up.
    ///
    /// # Errors
    /// [`StoreError::Taken`] when one of `domains` is another project's; [`StoreError::Conflict`]
    /// when another writer changed the project since it was read, or
    /// the database refused (nothing is written then).
    pub async fn write_project(
        &self,
        project: &ProjectRow,
        primary: Option<&str>,
        domains: &[DomainRow],
        certificate: Option<(&str, &Issued, u64)>,
    ) -> Result<(), StoreError> {
        either!(self.write_project(project, primary, domains, certificate))
    }

    /// Stores a certificate for `name` that is no custom domain's (the admin host's).
    ///
    /// # Errors
    /// The database refused.
    pub async fn put_certificate(&self, name: &str, issued: &Issued, now: u64) -> Result<(), StoreError> {
        either!(self.put_certificate(name, issued, now))
    }

    /// The certificate stored for `name`.
    ///
    /// # Errors
    /// The database refused.
    pub async fn certificate(&self, name: &str) -> Result<Option<CertificateRow>, StoreError> {
        either!(self.certificate(name))
    }

    /// The certificates of the domains that serve (live or re-verifying), by name.
    ///
    /// # Errors
    /// The database refused.
    pub async fn serving_certificates(&self) -> Result<Vec<CertificateRow>, StoreError> {
        either!(self.serving_certificates())
    }

    /// Starts a session for `owner` until `expires_at`; `token_hash` is what is kept. Expired
    /// sessions are deleted on the way.
    ///
    /// # Errors
    /// The database refused.
    pub async fn create_session(
        &self,
        token_hash: &str,
        owner: &str,
        expires_at: u64,
        now: u64,
    ) -> Result<(), StoreError> {
        either!(self.create_session(token_hash, owner, expires_at, now))
    }

    /// The owner of a session and when it expires.
    ///
    /// # Errors
    /// The database refused.
    pub async fn session(&self, token_hash: &str) -> Result<Option<(String, u64)>, StoreError> {
        either!(self.session(token_hash))
    }

    /// Ends a session.
    ///
    /// # Errors
    /// The database refused.
    pub async fn delete_session(&self, token_hash: &str) -> Result<(), StoreError> {
        either!(self.delete_session(token_hash))
    }

    /// Records a sign-in attempt (attempts older than a day are deleted on the way).
    ///
    /// # Errors
    /// The database refused.
    pub async fn record_attempt(&self, email: &str, ip: &str, at: u64, ok: bool) -> Result<(), StoreError> {
        either!(self.record_attempt(email, ip, at, ok))
    }

    /// Failed attempts since `since` for the email and for the IP: (count, oldest time) each.
    ///
    /// # Errors
    /// The database refused.
    pub async fn failed_attempts(
        &self,
        email: &str,
        ip: &str,
        since: u64,
    ) -> Result<[(u64, Option<u64>); 2], StoreError> {
        either!(self.failed_attempts(email, ip, since))
    }

    /// The ACME account's stored credentials for a directory.
    ///
    /// # Errors
    /// The database refused.
    pub async fn acme_credentials(&self, directory_url: &str) -> Result<Option<String>, StoreError> {
        either!(self.acme_credentials(directory_url))
    }

    /// Stores the ACME account's credentials for a directory.
    ///
    /// # Errors
    /// The database refused.
    pub async fn set_acme_credentials(
        &self,
        directory_url: &str,
        credentials: &str,
        now: u64,
    ) -> Result<(), StoreError> {
        either!(self.set_acme_credentials(directory_url, credentials, now))
    }

    /// Publishes an HTTP-01 answer until `expires_at` (expired ones are deleted on the way), so
    /// the plain-HTTP listener of any host on this state answers it.
    ///
    /// # Errors
    /// The database refused.
    pub async fn put_challenge(
        &self,
        token: &str,
        key_authorization: &str,
        expires_at: u64,
        now: u64,
    ) -> Result<(), StoreError> {
        either!(self.put_challenge(token, key_authorization, expires_at, now))
    }

    /// The key authorization published for `token`, unless it expired by `now`.
    ///
    /// # Errors
    /// The database refused.
    pub async fn challenge(&self, token: &str, now: u64) -> Result<Option<String>, StoreError> {
        either!(self.challenge(token, now))
    }

    /// Withdraws an HTTP-01 answer.
    ///
    /// # Errors
    /// The database refused.
    pub async fn delete_challenge(&self, token: &str) -> Result<(), StoreError> {
        either!(self.delete_challenge(token))
    }
}
