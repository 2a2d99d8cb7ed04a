//! The PostgreSQL engine (`[database] url`): tokio-postgres over one connection for the state,
//! opened again when it was lost. Every change is one transaction, committed before the caller answers; a
//! project's changes take its row's lock (`SELECT ... FOR UPDATE`) first, so two writers of the
//! same project, in one host or several, go one after the other, and check there that the
//! project's revision is still the one they read (a writer overtaken meanwhile is refused). The schema's version is the
//! row of `schema_version`, brought up to date under an advisory lock so hosts starting together
//! migrate once.
//!
//! What several hosts on one database share beyond the rows (the changes announced, the
//! issuance lease) is in `postgres/hosts.rs`.

use std::path::PathBuf;

use tokio::sync::{Mutex, MutexGuard};
use tokio_postgres::{Client, Config, NoTls, Row};

use super::columns::{
    DOMAIN_COLUMNS, DomainColumns, as_i64, as_u64, parse_plan, plan_text, role_text, state_columns,
};
use super::schema::{POSTGRES_MIGRATIONS, schema_version};
use super::{CertificateRow, DomainRow, ProjectRow, StoreError};
use crate::config::ProjectConfig;
use crate::database_url::{parse_url, shown};
use crate::services::Issued;

mod hosts;

pub use hosts::CHANGES_CHANNEL;
use hosts::notify;

/// The advisory lock held while the schema is brought up to date (any constant of the host's).
const MIGRATION_LOCK: i64 = 0x0070_6c61_7967_726e;
pub(super) struct Postgres {
    config: Config,
    pub(super) shown: String,
    client: Mutex<Client>,
    /// The connection holding the issuance lease while this host is the one that issues.
    issuing: Mutex<Option<Client>>,
}

impl std::fmt::Debug for Postgres {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Postgres").field("database", &self.shown).finish_non_exhaustive()
    }
}

async fn connect(config: &Config, shown: &str) -> Result<Client, StoreError> {
    let (client, connection) = config
        .connect(NoTls)
        .await
        .map_err(|e| StoreError::Unreachable { database: shown.to_owned(), message: message(&e) })?;
    let shown = shown.to_owned();
    tokio::spawn(async move {
        if let Err(e) = connection.await {
            eprintln!("playground host: the connection to {shown} ended: {}", message(&e));
        }
    });
    Ok(client)
}

/// What PostgreSQL said, as a sentence: the server's message and detail, or the driver's.
pub(super) fn message(e: &tokio_postgres::Error) -> String {
    if let Some(db) = e.as_db_error() {
        match db.detail() {
            Some(detail) => format!("{} ({detail})", db.message()),
            None => db.message().to_owned(),
        }
    } else {
        let mut text = e.to_string();
        let mut source = std::error::Error::source(e);
        while let Some(s) = source {
            let more = s.to_string();
            if !text.contains(&more) {
                text = format!("{text}: {more}");
            }
            source = s.source();
        }
        text
    }
}

fn time(r: &Row, i: usize) -> Result<Option<u64>, tokio_postgres::Error> {
    Ok(r.try_get::<_, Option<i64>>(i)?.map(as_u64))
}

fn read_domain(r: &Row) -> Result<DomainColumns, tokio_postgres::Error> {
    Ok(DomainColumns {
        name: r.try_get(0)?,
        project: r.try_get(1)?,
        role: r.try_get(2)?,
        state: r.try_get(3)?,
        added_at: as_u64(r.try_get(4)?),
        verified_at: time(r, 5)?,
        live_at: time(r, 6)?,
        check_ok: r.try_get(7)?,
        check_message: r.try_get(8)?,
        checked_at: time(r, 9)?,
        caa: r.try_get(10)?,
        issue_error: r.try_get(11)?,
        issue_failed_at: time(r, 12)?,
    })
}

fn read_certificate(r: &Row) -> Result<CertificateRow, tokio_postgres::Error> {
    Ok(CertificateRow {
        name: r.try_get(0)?,
        chain_pem: r.try_get(1)?,
        key_pem: r.try_get(2)?,
        not_after: as_u64(r.try_get(3)?),
    })
}

const PUT_CERTIFICATE: &str =
    "INSERT INTO certificates (name, chain_pem, key_pem, not_after, issued_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (name) DO UPDATE SET chain_pem = EXCLUDED.chain_pem, key_pem = EXCLUDED.key_pem,
        not_after = EXCLUDED.not_after, issued_at = EXCLUDED.issued_at";

async fn migrate(client: &mut Client, shown: &str) -> Result<(), StoreError> {
    let tx = client.transaction().await?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK]).await?;
    tx.batch_execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)").await?;
    let found = match tx.query_opt("SELECT version FROM schema_version", &[]).await? {
        Some(row) => u32::try_from(row.try_get::<_, i32>(0)?).unwrap_or(0),
        None => {
            tx.execute("INSERT INTO schema_version (version) VALUES (0)", &[]).await?;
            0
        }
    };
    let known = schema_version();
    if found > known {
        return Err(StoreError::TooNew { database: shown.to_owned(), found, known });
    }
    for (version, sql) in POSTGRES_MIGRATIONS.iter().enumerate().skip(found as usize) {
        tx.batch_execute(sql).await?;
        let version = i32::try_from(version + 1).unwrap_or(i32::MAX);
        tx.execute("UPDATE schema_version SET version = $1", &[&version]).await?;
    }
    tx.commit().await?;
    Ok(())
}

impl Postgres {
    pub(super) async fn open(url: &str) -> Result<Postgres, StoreError> {
        let config = parse_url(url).map_err(|reason| StoreError::BadUrl { reason })?;
        let shown = shown(&config);
        let mut client = connect(&config, &shown).await?;
        migrate(&mut client, &shown).await?;
        Ok(Postgres { config, shown, client: Mutex::new(client), issuing: Mutex::new(None) })
    }

    /// The connection, opened again if it was lost (a server restart).
    async fn client(&self) -> Result<MutexGuard<'_, Client>, StoreError> {
        let mut client = self.client.lock().await;
        if client.is_closed() {
            *client = connect(&self.config, &self.shown).await?;
        }
        Ok(client)
    }

    pub(super) async fn sync_projects(&self, projects: &[ProjectConfig]) -> Result<(), StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        for p in projects {
            let site = p.site.to_string_lossy();
            tx.execute(
                "INSERT INTO projects (name, owner, plan, site_dir) VALUES ($1, $2, $3, $4)
                 ON CONFLICT (name) DO UPDATE SET owner = EXCLUDED.owner, plan = EXCLUDED.plan,
                    site_dir = EXCLUDED.site_dir",
                &[&p.name, &p.owner, &plan_text(p.plan), &site.as_ref()],
            )
            .await?;
        }
        notify(&tx).await?;
        tx.commit().await?;
        Ok(())
    }

    pub(super) async fn project(&self, name: &str) -> Result<Option<ProjectRow>, StoreError> {
        let client = self.client().await?;
        let Some(r) = client
            .query_opt(
                "SELECT name, owner, plan, site_dir, primary_domain, revision FROM projects WHERE name = $1",
                &[&name],
            )
            .await?
        else {
            return Ok(None);
        };
        let plan: String = r.try_get(2)?;
        Ok(Some(ProjectRow {
            name: r.try_get(0)?,
            owner: r.try_get(1)?,
            plan: parse_plan(&plan)?,
            site_dir: PathBuf::from(r.try_get::<_, String>(3)?),
            primary: r.try_get(4)?,
            revision: as_u64(r.try_get(5)?),
        }))
    }

    pub(super) async fn domains(&self, project: Option<&str>) -> Result<Vec<DomainRow>, StoreError> {
        let client = self.client().await?;
        let rows = match project {
            Some(project) => {
                client
                    .query(
                        &format!("SELECT {DOMAIN_COLUMNS} FROM domains WHERE project = $1 ORDER BY position"),
                        &[&project],
                    )
                    .await?
            }
            None => {
                client
                    .query(&format!("SELECT {DOMAIN_COLUMNS} FROM domains ORDER BY project, position"), &[])
                    .await?
            }
        };
        rows.iter()
            .map(|r| read_domain(r).map_err(StoreError::from).and_then(DomainColumns::into_row))
            .collect()
    }

    pub(super) async fn domain_project(&self, name: &str) -> Result<Option<String>, StoreError> {
        let client = self.client().await?;
        let row = client.query_opt("SELECT project FROM domains WHERE name = $1", &[&name]).await?;
        Ok(row.map(|r| r.try_get(0)).transpose()?)
    }

    pub(super) async fn write_project(
        &self,
        read: &ProjectRow,
        primary: Option<&str>,
        domains: &[DomainRow],
        certificate: Option<(&str, &Issued, u64)>,
    ) -> Result<(), StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        // The project's row lock, held to the commit: another writer of this project (in this
        // host or another) waits here until this change is committed.
        let project = read.name.as_str();
        let locked =
            tx.query_opt("SELECT revision FROM projects WHERE name = $1 FOR UPDATE", &[&project]).await?;
        let revision = locked.map(|r| r.try_get::<_, i64>(0)).transpose()?;
        if revision.map(as_u64) != Some(read.revision) {
            return Err(StoreError::Conflict { project: project.to_owned() });
        }
        let names: Vec<String> = tx
            .query("SELECT name FROM domains WHERE project = $1", &[&project])
            .await?
            .iter()
            .map(|r| r.try_get(0))
            .collect::<Result<_, _>>()?;
        for gone in names.iter().filter(|n| !domains.iter().any(|d| &d.name == *n)) {
            tx.execute("DELETE FROM domains WHERE name = $1", &[gone]).await?;
            tx.execute("DELETE FROM certificates WHERE name = $1", &[gone]).await?;
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
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
                 ON CONFLICT (name) DO UPDATE SET project = $2, position = $3, state = $4, role = $5,
                    added_at = $6, verified_at = $7, live_at = $8, check_ok = $9, check_message = $10,
                    checked_at = $11, blocking_caa = $12, issue_error = $13, issue_failed_at = $14
                 WHERE domains.project = EXCLUDED.project",
                &[
                    &d.name,
                    &project,
                    &as_i64(position as u64),
                    &state,
                    &role_text(d.role),
                    &as_i64(added),
                    &verified.map(as_i64),
                    &live.map(as_i64),
                    &d.check.as_ref().map(|c| c.ok),
                    &d.check.as_ref().map(|c| c.message.as_str()),
                    &d.check.as_ref().map(|c| as_i64(c.at)),
                    &caa,
                    &d.issue_error.as_ref().map(|e| e.0.as_str()),
                    &d.issue_error.as_ref().map(|e| as_i64(e.1)),
                ],
            )
            .await?;
            if written == 0 {
                let owner = tx.query_opt("SELECT project FROM domains WHERE name = $1", &[&d.name]).await?;
                let owner = owner.map(|r| r.try_get::<_, String>(0)).transpose()?.unwrap_or_default();
                return Err(StoreError::Taken { name: d.name.clone(), project: owner });
            }
        }
        tx.execute(
            "UPDATE projects SET primary_domain = $2, revision = revision + 1 WHERE name = $1",
            &[&project, &primary],
        )
        .await?;
        if let Some((name, issued, now)) = certificate {
            tx.execute(
                PUT_CERTIFICATE,
                &[&name, &issued.chain_pem, &issued.key_pem, &as_i64(issued.not_after), &as_i64(now)],
            )
            .await?;
        }
        notify(&tx).await?;
        tx.commit().await?;
        Ok(())
    }

    pub(super) async fn put_certificate(
        &self,
        name: &str,
        issued: &Issued,
        now: u64,
    ) -> Result<(), StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        tx.execute(
            PUT_CERTIFICATE,
            &[&name, &issued.chain_pem, &issued.key_pem, &as_i64(issued.not_after), &as_i64(now)],
        )
        .await?;
        notify(&tx).await?;
        tx.commit().await?;
        Ok(())
    }

    pub(super) async fn certificate(&self, name: &str) -> Result<Option<CertificateRow>, StoreError> {
        let client = self.client().await?;
        let row = client
            .query_opt(
                "SELECT name, chain_pem, key_pem, not_after FROM certificates WHERE name = $1",
                &[&name],
            )
            .await?;
        Ok(row.as_ref().map(read_certificate).transpose()?)
    }

    pub(super) async fn serving_certificates(&self) -> Result<Vec<CertificateRow>, StoreError> {
        let client = self.client().await?;
        let rows = client
            .query(
                "SELECT c.name, c.chain_pem, c.key_pem, c.not_after FROM certificates c
                 JOIN domains d ON d.name = c.name WHERE d.state IN ('live', 'reverifying') ORDER BY c.name",
                &[],
            )
            .await?;
        Ok(rows.iter().map(read_certificate).collect::<Result<_, _>>()?)
    }

    pub(super) async fn create_session(
        &self,
        token_hash: &str,
        owner: &str,
        expires_at: u64,
        now: u64,
    ) -> Result<(), StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        tx.execute("DELETE FROM sessions WHERE expires_at <= $1", &[&as_i64(now)]).await?;
        tx.execute(
            "INSERT INTO sessions (token_hash, owner, expires_at) VALUES ($1, $2, $3)",
            &[&token_hash, &owner, &as_i64(expires_at)],
        )
        .await?;
        tx.commit().await?;
        Ok(())
    }

    pub(super) async fn session(&self, token_hash: &str) -> Result<Option<(String, u64)>, StoreError> {
        let client = self.client().await?;
        let row = client
            .query_opt("SELECT owner, expires_at FROM sessions WHERE token_hash = $1", &[&token_hash])
            .await?;
        Ok(row.map(|r| Ok::<_, tokio_postgres::Error>((r.try_get(0)?, as_u64(r.try_get(1)?)))).transpose()?)
    }

    pub(super) async fn delete_session(&self, token_hash: &str) -> Result<(), StoreError> {
        let client = self.client().await?;
        client.execute("DELETE FROM sessions WHERE token_hash = $1", &[&token_hash]).await?;
        Ok(())
    }

    pub(super) async fn record_attempt(
        &self,
        email: &str,
        ip: &str,
        at: u64,
        ok: bool,
    ) -> Result<(), StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        tx.execute("DELETE FROM sign_in_attempts WHERE at < $1", &[&as_i64(at.saturating_sub(86_400))])
            .await?;
        tx.execute(
            "INSERT INTO sign_in_attempts (email, ip, at, ok) VALUES ($1, $2, $3, $4)",
            &[&email, &ip, &as_i64(at), &ok],
        )
        .await?;
        tx.commit().await?;
        Ok(())
    }

    pub(super) async fn failed_attempts(
        &self,
        email: &str,
        ip: &str,
        since: u64,
    ) -> Result<[(u64, Option<u64>); 2], StoreError> {
        let client = self.client().await?;
        let mut counts = [(0, None); 2];
        for (count, (column, value)) in counts.iter_mut().zip([("email", email), ("ip", ip)]) {
            let row = client
                .query_one(
                    &format!(
                        "SELECT COUNT(*), MIN(at) FROM sign_in_attempts WHERE {column} = $1 AND at >= $2 AND NOT ok"
                    ),
                    &[&value, &as_i64(since)],
                )
                .await?;
            *count = (as_u64(row.try_get(0)?), time(&row, 1)?);
        }
        Ok(counts)
    }

    pub(super) async fn acme_credentials(&self, directory_url: &str) -> Result<Option<String>, StoreError> {
        let client = self.client().await?;
        let row = client
            .query_opt("SELECT credentials FROM acme_accounts WHERE directory_url = $1", &[&directory_url])
            .await?;
        Ok(row.map(|r| r.try_get(0)).transpose()?)
    }

    pub(super) async fn set_acme_credentials(
        &self,
        directory_url: &str,
        credentials: &str,
        now: u64,
    ) -> Result<(), StoreError> {
        let client = self.client().await?;
        client
            .execute(
                "INSERT INTO acme_accounts (directory_url, credentials, created_at) VALUES ($1, $2, $3)
                 ON CONFLICT (directory_url) DO UPDATE SET credentials = EXCLUDED.credentials",
                &[&directory_url, &credentials, &as_i64(now)],
            )
            .await?;
        Ok(())
    }

    pub(super) async fn put_challenge(
        &self,
        token: &str,
        key_authorization: &str,
        expires_at: u64,
        now: u64,
    ) -> Result<(), StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        tx.execute("DELETE FROM challenges WHERE expires_at <= $1", &[&as_i64(now)]).await?;
        tx.execute(
            "INSERT INTO challenges (token, key_authorization, expires_at) VALUES ($1, $2, $3)
             ON CONFLICT (token) DO UPDATE SET key_authorization = EXCLUDED.key_authorization,
                expires_at = EXCLUDED.expires_at",
            &[&token, &key_authorization, &as_i64(expires_at)],
        )
        .await?;
        tx.commit().await?;
        Ok(())
    }

    pub(super) async fn challenge(&self, token: &str, now: u64) -> Result<Option<String>, StoreError> {
        let client = self.client().await?;
        let row = client
            .query_opt(
                "SELECT key_authorization FROM challenges WHERE token = $1 AND expires_at > $2",
                &[&token, &as_i64(now)],
            )
            .await?;
        Ok(row.map(|r| r.try_get(0)).transpose()?)
    }

    pub(super) async fn delete_challenge(&self, token: &str) -> Result<(), StoreError> {
        let client = self.client().await?;
        client.execute("DELETE FROM challenges WHERE token = $1", &[&token]).await?;
        Ok(())
    }
}
