//! The SQLite engine (`{data_dir}/host.sqlite3`, the one-machine default): one connection behind
//! a mutex, WAL and `synchronous=FULL`, the schema counted by `PRAGMA user_version`, and
//! `{data_dir}/host.lock` held while a host runs so a second host is refused.

use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, PoisonError};

use rusqlite::{Connection, OptionalExtension, Row, params};

use super::columns::{
    DOMAIN_COLUMNS, DomainColumns, as_i64, as_u64, parse_plan, plan_text, role_text, state_columns,
};
use super::schema::{MIGRATIONS, schema_version};
use super::{CertificateRow, DomainRow, ProjectRow, StoreError};
use crate::config::ProjectConfig;
use crate::services::Issued;

/// The database file in `data_dir`.
#[must_use]
pub fn database_path(data_dir: &Path) -> PathBuf {
    data_dir.join("host.sqlite3")
}

#[derive(Debug)]
pub(super) struct Sqlite {
    conn: Mutex<Connection>,
    pub(super) path: PathBuf,
    _lock: File,
}

fn read_certificate(r: &Row<'_>) -> rusqlite::Result<CertificateRow> {
    Ok(CertificateRow {
        name: r.get(0)?,
        chain_pem: r.get(1)?,
        key_pem: r.get(2)?,
        not_after: as_u64(r.get(3)?),
    })
}

fn read_domain(r: &Row<'_>) -> rusqlite::Result<DomainColumns> {
    let time = |i: usize| -> rusqlite::Result<Option<u64>> { Ok(r.get::<_, Option<i64>>(i)?.map(as_u64)) };
    Ok(DomainColumns {
        name: r.get(0)?,
        project: r.get(1)?,
        role: r.get(2)?,
        state: r.get(3)?,
        added_at: as_u64(r.get(4)?),
        verified_at: time(5)?,
        live_at: time(6)?,
        check_ok: r.get(7)?,
        check_message: r.get(8)?,
        checked_at: time(9)?,
        caa: r.get(10)?,
        issue_error: r.get(11)?,
        issue_failed_at: time(12)?,
    })
}

fn migrate(conn: &Connection, path: &Path) -> Result<(), StoreError> {
    let found: u32 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    let known = schema_version();
    if found > known {
        return Err(StoreError::TooNew { database: path.display().to_string(), found, known });
    }
    for (version, sql) in MIGRATIONS.iter().enumerate().skip(found as usize) {
        conn.execute_batch(&format!(
            "BEGIN IMMEDIATE; {sql}; PRAGMA user_version = {}; COMMIT;",
            version + 1
        ))?;
    }
    Ok(())
}

impl Sqlite {
    pub(super) fn open(data_dir: &Path) -> Result<Sqlite, StoreError> {
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
        Ok(Sqlite { conn: Mutex::new(conn), path, _lock: lock })
    }

    fn conn(&self) -> MutexGuard<'_, Connection> {
        self.conn.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub(super) fn sync_projects(&self, projects: &[ProjectConfig]) -> Result<(), StoreError> {
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

    pub(super) fn project(&self, name: &str) -> Result<Option<ProjectRow>, StoreError> {
        let conn = self.conn();
        let row = conn
            .query_row(
                "SELECT name, owner, plan, site_dir, primary_domain, revision FROM projects WHERE name = ?1",
                [name],
                |r| {
                    Ok((
                        (r.get(0)?, r.get(1)?),
                        (r.get::<_, String>(2)?, r.get::<_, String>(3)?),
                        (r.get(4)?, r.get::<_, i64>(5)?),
                    ))
                },
            )
            .optional()?;
        row.map(|((name, owner), (plan, site), (primary, revision))| {
            Ok(ProjectRow {
                name,
                owner,
                plan: parse_plan(&plan)?,
                site_dir: PathBuf::from(site),
                primary,
                revision: as_u64(revision),
            })
        })
        .transpose()
    }

    pub(super) fn domains(&self, project: Option<&str>) -> Result<Vec<DomainRow>, StoreError> {
        let conn = self.conn();
        let columns: Vec<DomainColumns> = match project {
            Some(project) => conn
                .prepare(&format!(
                    "SELECT {DOMAIN_COLUMNS} FROM domains WHERE project = ?1 ORDER BY position"
                ))?
                .query_map([project], read_domain)?
                .collect::<Result<_, _>>()?,
            None => conn
                .prepare(&format!("SELECT {DOMAIN_COLUMNS} FROM domains ORDER BY project, position"))?
                .query_map([], read_domain)?
                .collect::<Result<_, _>>()?,
        };
        columns.into_iter().map(DomainColumns::into_row).collect()
    }

    pub(super) fn domain_project(&self, name: &str) -> Result<Option<String>, StoreError> {
        Ok(self
            .conn()
            .query_row("SELECT project FROM domains WHERE name = ?1", [name], |r| r.get(0))
            .optional()?)
    }

    pub(super) fn write_project(
        &self,
        read: &ProjectRow,
        primary: Option<&str>,
        domains: &[DomainRow],
        certificate: Option<(&str, &Issued, u64)>,
    ) -> Result<(), StoreError> {
        let mut conn = self.conn();
        // IMMEDIATE: the write lock is taken at BEGIN, the SQLite counterpart of PostgreSQL's
        // row lock on the project (one writer at a time on the file).
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let project = read.name.as_str();
        let revision: Option<i64> = tx
            .query_row("SELECT revision FROM projects WHERE name = ?1", [project], |r| r.get(0))
            .optional()?;
        if revision.map(as_u64) != Some(read.revision) {
            return Err(StoreError::Conflict { project: project.to_owned() });
        }
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
            // A name is never taken from another project: the row is updated only while it is
            // this project's, else nothing is written and the transaction rolls back.
            let written = tx.execute(
                "INSERT INTO domains (name, project, position, state, role, added_at, verified_at, live_at,
                                      check_ok, check_message, checked_at, blocking_caa, issue_error, issue_failed_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)
                 ON CONFLICT(name) DO UPDATE SET project = ?2, position = ?3, state = ?4, role = ?5,
                    added_at = ?6, verified_at = ?7, live_at = ?8, check_ok = ?9, check_message = ?10,
                    checked_at = ?11, blocking_caa = ?12, issue_error = ?13, issue_failed_at = ?14
                 WHERE domains.project = excluded.project",
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
            if written == 0 {
                let owner: Option<String> = tx
                    .query_row("SELECT project FROM domains WHERE name = ?1", [&d.name], |r| r.get(0))
                    .optional()?;
                return Err(StoreError::Taken { name: d.name.clone(), project: owner.unwrap_or_default() });
            }
        }
        tx.execute(
            "UPDATE projects SET primary_domain = ?2, revision = revision + 1 WHERE name = ?1",
            params![project, primary],
        )?;
        if let Some((name, issued, now)) = certificate {
            put_certificate(&tx, name, issued, now)?;
        }
        tx.commit()?;
        Ok(())
    }

    pub(super) fn put_certificate(&self, name: &str, issued: &Issued, now: u64) -> Result<(), StoreError> {
        put_certificate(&self.conn(), name, issued, now)
    }

    pub(super) fn certificate(&self, name: &str) -> Result<Option<CertificateRow>, StoreError> {
        Ok(self
            .conn()
            .query_row(
                "SELECT name, chain_pem, key_pem, not_after FROM certificates WHERE name = ?1",
                [name],
                read_certificate,
            )
            .optional()?)
    }

    pub(super) fn serving_certificates(&self) -> Result<Vec<CertificateRow>, StoreError> {
        let conn = self.conn();
        let mut s = conn.prepare(
            "SELECT c.name, c.chain_pem, c.key_pem, c.not_after FROM certificates c
             JOIN domains d ON d.name = c.name WHERE d.state IN ('live', 'reverifying') ORDER BY c.name",
        )?;
        let rows = s.query_map([], read_certificate)?.collect::<Result<_, _>>()?;
        Ok(rows)
    }

    pub(super) fn create_session(
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

    pub(super) fn session(&self, token_hash: &str) -> Result<Option<(String, u64)>, StoreError> {
        Ok(self
            .conn()
            .query_row("SELECT owner, expires_at FROM sessions WHERE token_hash = ?1", [token_hash], |r| {
                Ok((r.get::<_, String>(0)?, as_u64(r.get(1)?)))
            })
            .optional()?)
    }

    pub(super) fn delete_session(&self, token_hash: &str) -> Result<(), StoreError> {
        self.conn().execute("DELETE FROM sessions WHERE token_hash = ?1", [token_hash])?;
        Ok(())
    }

    pub(super) fn record_attempt(&self, email: &str, ip: &str, at: u64, ok: bool) -> Result<(), StoreError> {
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

    pub(super) fn failed_attempts(
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

    pub(super) fn acme_credentials(&self, directory_url: &str) -> Result<Option<String>, StoreError> {
        Ok(self
            .conn()
            .query_row(
                "SELECT credentials FROM acme_accounts WHERE directory_url = ?1",
                [directory_url],
                |r| r.get(0),
            )
            .optional()?)
    }

    pub(super) fn set_acme_credentials(
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

impl Sqlite {
    pub(super) fn put_challenge(
        &self,
        token: &str,
        key_authorization: &str,
        expires_at: u64,
        now: u64,
    ) -> Result<(), StoreError> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        tx.execute("DELETE FROM challenges WHERE expires_at <= ?1", [as_i64(now)])?;
        tx.execute(
            "INSERT INTO challenges (token, key_authorization, expires_at) VALUES (?1, ?2, ?3)
             ON CONFLICT(token) DO UPDATE SET key_authorization = ?2, expires_at = ?3",
            params![token, key_authorization, as_i64(expires_at)],
        )?;
        tx.commit()?;
        Ok(())
    }

    pub(super) fn challenge(&self, token: &str, now: u64) -> Result<Option<String>, StoreError> {
        Ok(self
            .conn()
            .query_row(
                "SELECT key_authorization FROM challenges WHERE token = ?1 AND expires_at > ?2",
                params![token, as_i64(now)],
                |r| r.get(0),
            )
            .optional()?)
    }

    pub(super) fn delete_challenge(&self, token: &str) -> Result<(), StoreError> {
        self.conn().execute("DELETE FROM challenges WHERE token = ?1", [token])?;
        Ok(())
    }
}

fn put_certificate(conn: &Connection, name: &str, issued: &Issued, now: u64) -> Result<(), StoreError> {
    conn.execute(
        "INSERT INTO certificates (name, chain_pem, key_pem, not_after, issued_at) VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT(name) DO UPDATE SET chain_pem = ?2, key_pem = ?3, not_after = ?4, issued_at = ?5",
        params![name, issued.chain_pem, issued.key_pem, as_i64(issued.not_after), as_i64(now)],
    )?;
    Ok(())
}
