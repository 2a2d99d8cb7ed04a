//! `playground host`: serves each project's published site (the output of `playground build`)
//! at its default address `{project}.{platform}` and at its custom domains, and the Domains
//! page's JSON API on the admin host (see `API.md`). Native only.
//!
//! The lifecycle rules are the pure core's ([`playground_domains`]): every change loads the
//! project into a [`Dashboard`], applies the core's action (which goes through
//! [`playground_domains::step`]) and writes the project back in one transaction ([`store`]:
//! SQLite, or PostgreSQL with `[database] url`, where the write takes the project's row lock)
//! before answering, all under one write lock of the process; DNS is asked before the lock is
//! taken.
//! DNS, the certificate authority and TLS are traits ([`services`]: `Verifier`, `Issuer`,
//! `Challenges`, `CertificateStore`, `TlsAcceptor`) that `playground-certs` implements, wired in
//! `crates/cli/src/host_services.rs`; the certificate arriving is an action too (`issuance.rs`,
//! run only by the host holding the issuance lease: always with SQLite, a PostgreSQL advisory
//! lock with several hosts).
//!
//! Routing by `Host` (`routing.rs`, a table rebuilt from the database after every change, which
//! also installs and withdraws SNI certificates, so an answered removal has already stopped
//! traffic on the host that answered it; with PostgreSQL, every other host on the database
//! rebuilds it when the change's `NOTIFY` arrives (`Store::changes`, a `LISTEN` connection of
//! its own, listened to again after it was lost), and every host re-reads it every
//! [`RE_READ_EVERY`] in any case): the admin host answers the API and serves the Domains page with the
//! `<meta name="playground-host-api">` that selects its host mode; a default address serves its
//! site; a custom domain that serves (the primary, or one set to serve) serves the site over
//! HTTPS and answers 301 to HTTPS over plain HTTP; a redirect domain answers 301 to the primary,
//! path and query kept; any other name (added or verified only, removed, unknown) gets 404 and no
//! certificate.
//!
//! - State (`store.rs`, one async API over `store/sqlite.rs` and `store/postgres.rs`; the
//!   schemas in `store/schema.rs`): SQLite, WAL and `synchronous=FULL`, migrations in
//!   `MIGRATIONS` counted by `PRAGMA user_version` (add an entry, never edit an old one),
//!   `{data_dir}/host.lock` held with `File::try_lock` so a second host is refused; or
//!   PostgreSQL (tokio-postgres), `POSTGRES_MIGRATIONS` counted by the `schema_version` table,
//!   a project's writes under its row lock. The HTTP-01 answers an issuer publishes are kept
//!   there too (`challenges`, written through `playground-certs`' `ChallengeSink`), and the
//!   plain listener answers from its own issuer's map, then from the state.
//! - Access (`api.rs`, `api/access.rs`, `password.rs`): argon2id password hashes from
//!   `playground host hash-password`, 32-byte session tokens stored as SHA-256, `Origin` required
//!   on every change, failed sign-ins limited per account and per address (`sign_in_attempts`);
//!   the answers and body limits are `api/answer.rs`, the JSON views `api/view.rs`.
//!
//! Tests: `tests/store.rs` (the state on both engines; PostgreSQL started by the tests,
//! `tests/support/postgres.rs`), `tests/host.rs` with fakes of the services (`tests/support/`; a TLS stand-in that does
//! no handshake, so the HTTPS listener's routing is tested over plain TCP); the real walk with
//! Pebble is `crates/cli/tests/host.rs` and `tests/e2e/host.test.mjs`.
#![deny(missing_docs)]

pub mod admin;
mod api;
pub mod config;
mod database_url;
mod idle;
mod issuance;
pub mod password;
mod prepared;
mod proxy_protocol;
mod request;
mod routing;
pub mod services;
mod site;
pub mod store;

use std::collections::{HashMap, HashSet};
use std::io;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, PoisonError, RwLock};
use std::time::{SystemTime, UNIX_EPOCH};

use playground_domains::{Dashboard, DnsRecord, Domain, DomainRole, RecordKind, RecordSet, Settings};
use tokio::net::TcpListener;
use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;

use crate::config::HostConfig;
use crate::routing::Routes;
use crate::services::Services;
use crate::store::{DomainRow, ProjectRow, Store, StoreError};

pub use crate::api::API_PREFIX;

/// Why the host could not start.
#[derive(Debug, thiserror::Error)]
pub enum HostError {
    /// The state could not be opened.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A listener could not be bound.
    #[error("cannot listen on {address}: {source}")]
    Listen {
        /// The address.
        address: SocketAddr,
        /// What the system said.
        source: io::Error,
    },
}

/// Seconds since 1970.
#[must_use]
pub fn now() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

/// What every request and task shares.
pub(crate) struct Shared {
    pub(crate) config: HostConfig,
    pub(crate) store: Arc<Store>,
    pub(crate) services: Services,
    pub(crate) routes: RwLock<Arc<Routes>>,
    /// Serialises the read-modify-write of projects (each one a transaction).
    pub(crate) write: tokio::sync::Mutex<()>,
    /// Serialises [`Shared::refresh`], so a re-read that began before a change never replaces
    /// the table of one that began after it.
    pub(crate) refreshing: tokio::sync::Mutex<()>,
    /// Names whose certificate is being requested now.
    pub(crate) issuing: Mutex<HashSet<String>>,
    /// Certificates offered by SNI now, with their expiry.
    pub(crate) installed: Mutex<HashMap<String, u64>>,
    pub(crate) issue_queue: mpsc::UnboundedSender<String>,
    /// Tells the issuance task to look for pending certificates now (another host's change
    /// arrived: it may be a verification this host, holding the issuance lease, must act on).
    pub(crate) look_again: tokio::sync::Notify,
    /// The expiry of the admin host's certificate while one is offered, else 0 (plain HTTP
    /// to the admin host then moves to HTTPS).
    pub(crate) admin_not_after: std::sync::atomic::AtomicU64,
}

pub(crate) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Shared {
    /// The core's dashboard of a project, from its stored rows.
    pub(crate) fn dashboard(&self, project: &ProjectRow, rows: &[DomainRow]) -> Dashboard {
        let settings = Settings {
            project: project.name.clone(),
            platform_domain: self.config.platform_domain.clone(),
            cname_target: self.config.cname_target.clone(),
            plan: project.plan,
            deploy_succeeded: project.site_dir.join("index.html").is_file(),
            certificate_delay_secs: playground_domains::machine::DEFAULT_CERTIFICATE_DELAY_SECS,
            doh_resolver: playground_domains::doh::DEFAULT_DOH_RESOLVER.to_owned(),
            certificate_authority: self.config.acme.ca_identifier.clone(),
        };
        let mut dashboard = Dashboard::new(settings);
        dashboard.domains =
            rows.iter().map(|r| Domain { name: r.name.clone(), role: r.role, state: r.state }).collect();
        dashboard.primary = project.primary.clone();
        dashboard
    }

    /// The rows to write after the dashboard changed: its domains in order, keeping what the
    /// old rows knew beyond the core's state (checks, CAA, issuance errors).
    pub(crate) fn rows_after(project: &str, dashboard: &Dashboard, old: &[DomainRow]) -> Vec<DomainRow> {
        dashboard
            .domains
            .iter()
            .map(|d| {
                let mut row = old.iter().find(|r| r.name == d.name).cloned().unwrap_or_else(|| DomainRow {
                    name: d.name.clone(),
                    project: project.to_owned(),
                    role: DomainRole::default(),
                    state: d.state,
                    check: None,
                    blocking_caa: Vec::new(),
                    issue_error: None,
                });
                row.role = d.role;
                row.state = d.state;
                row
            })
            .collect()
    }

    /// What verification sees for `name`: the records DNS gave, plus the platform's apex
    /// addresses as the CNAME target's own records, so an apex whose A/AAAA are exactly the
    /// platform's addresses passes as a flattened ALIAS (the core's rule).
    pub(crate) fn verification_view(&self, mut records: RecordSet) -> RecordSet {
        for address in &self.config.apex_addresses {
            let kind = if address.is_ipv4() { RecordKind::A } else { RecordKind::Aaaa };
            records.0.push(DnsRecord::new(&self.config.cname_target, kind, &address.to_string(), 300));
        }
        records
    }

    /// Rebuilds the routing table and brings the offered certificates in line with the
    /// stored state: called after every change, before it is answered.
    pub(crate) async fn refresh(&self) -> Result<(), StoreError> {
        let _one_at_a_time = self.refreshing.lock().await;
        let routes = Routes::build(self).await?;
        *self.routes.write().unwrap_or_else(PoisonError::into_inner) = Arc::new(routes);
        let serving = self.store.serving_certificates().await?;
        let mut installed = lock(&self.installed);
        for gone in
            installed.keys().filter(|n| !serving.iter().any(|c| &c.name == *n)).cloned().collect::<Vec<_>>()
        {
            self.services.certificates.withdraw(&gone);
            installed.remove(&gone);
        }
        for c in serving {
            if installed.get(&c.name) != Some(&c.not_after) {
                match self.services.certificates.install(&c.name, &c.chain_pem, &c.key_pem) {
                    Ok(()) => {
                        installed.insert(c.name.clone(), c.not_after);
                    }
                    Err(e) => eprintln!("playground host: cannot offer the certificate of {}: {e}", c.name),
                }
            }
        }
        Ok(())
    }

    pub(crate) fn routes(&self) -> Arc<Routes> {
        Arc::clone(&self.routes.read().unwrap_or_else(PoisonError::into_inner))
    }
}

/// How often the routing table and the offered certificates are read again from the state
/// even when nothing announced a change: the safety net under PostgreSQL's notifications.
pub const RE_READ_EVERY: std::time::Duration = std::time::Duration::from_secs(30);

/// Keeps the routing table and the offered certificates in line with changes other hosts
/// commit: re-read when PostgreSQL announces one ([`Store::changes`]), and every
/// [`RE_READ_EVERY`] in any case. Notifications that arrive during a re-read are folded into
/// the next one.
fn follow(shared: Arc<Shared>, mut stop: watch::Receiver<bool>) -> JoinHandle<()> {
    tokio::spawn(async move {
        let mut changes = shared.store.changes();
        let mut every = tokio::time::interval(RE_READ_EVERY);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        every.tick().await;
        loop {
            tokio::select! {
                _ = stop.changed() => return,
                _ = every.tick() => {}
                Some(()) = async {
                    match changes.as_mut() {
                        Some(changes) => changes.recv().await,
                        None => std::future::pending().await,
                    }
                } => {
                    if let Some(changes) = changes.as_mut() {
                        while changes.try_recv().is_ok() {}
                    }
                    shared.look_again.notify_one();
                }
            }
            if *stop.borrow() {
                return;
            }
            if let Err(e) = shared.refresh().await {
                eprintln!("playground host: cannot read the routing table again: {e}");
            }
        }
    })
}

/// How long open requests may run on after [`RunningHost::stop`].
pub const DRAIN_TIME: std::time::Duration = std::time::Duration::from_secs(5);

/// A running host: its addresses, and the way to stop it.
#[derive(Debug)]
pub struct RunningHost {
    /// Where plain HTTP is served.
    pub http: SocketAddr,
    /// Where HTTPS is served, if it is.
    pub https: Option<SocketAddr>,
    stop: watch::Sender<bool>,
    tasks: Vec<JoinHandle<()>>,
}

impl RunningHost {
    /// Stops listening, lets open requests finish (at most [`DRAIN_TIME`], then their
    /// connections are closed) and ends the issuance task. Nothing is lost by the cut: every
    /// answered change is already committed.
    pub async fn stop(self) {
        let _ = self.stop.send(true);
        let deadline = tokio::time::Instant::now() + DRAIN_TIME;
        for mut task in self.tasks {
            if tokio::time::timeout_at(deadline, &mut task).await.is_err() {
                task.abort();
            }
        }
    }
}

/// A host whose state is open (locked, migrated, projects written from the configuration)
/// and that serves nothing yet: the place to read what the services need from the state (the
/// ACME account's credentials) before [`Host::serve`].
#[derive(Debug)]
pub struct Host {
    config: HostConfig,
    store: Arc<Store>,
}

impl Host {
    /// Takes the data directory's lock, brings the database up to date and writes the
    /// configured projects.
    ///
    /// # Errors
    /// Another host holds the lock, or the database is from a newer host or unusable.
    pub async fn open(config: HostConfig) -> Result<Host, HostError> {
        let store = Store::open_configured(&config.data_dir, config.database_url.as_deref()).await?;
        store.sync_projects(&config.projects).await?;
        Ok(Host { config, store: Arc::new(store) })
    }

    /// The state (for the ACME account's credentials, and for the issuer to publish its
    /// HTTP-01 answers in).
    #[must_use]
    pub fn store(&self) -> &Arc<Store> {
        &self.store
    }

    /// The configuration.
    #[must_use]
    pub fn config(&self) -> &HostConfig {
        &self.config
    }

    /// Binds the listeners, offers the stored certificates, starts serving and resumes
    /// pending issuance.
    ///
    /// # Errors
    /// A listener cannot be bound, or the state cannot be read.
    pub async fn serve(self, services: Services) -> Result<RunningHost, HostError> {
        let Host { mut config, store } = self;
        let http_listener = TcpListener::bind(config.http)
            .await
            .map_err(|source| HostError::Listen { address: config.http, source })?;
        let https_listener = match (config.https, &services.tls) {
            (Some(address), Some(_)) => Some(
                TcpListener::bind(address).await.map_err(|source| HostError::Listen { address, source })?,
            ),
            _ => None,
        };
        if let Some(listener) = &https_listener
            && config.public_https_port.is_none()
        {
            config.public_https_port = listener.local_addr().ok().map(|a| a.port());
        }
        let (issue_queue, queue) = mpsc::unbounded_channel();
        let shared = Arc::new(Shared {
            config,
            store,
            services,
            routes: RwLock::new(Arc::new(Routes::default())),
            write: tokio::sync::Mutex::new(()),
            refreshing: tokio::sync::Mutex::new(()),
            issuing: Mutex::new(HashSet::new()),
            installed: Mutex::new(HashMap::new()),
            issue_queue,
            look_again: tokio::sync::Notify::new(),
            admin_not_after: std::sync::atomic::AtomicU64::new(0),
        });
        shared.refresh().await?;
        let (stop, stopped) = watch::channel(false);
        let http = http_listener
            .local_addr()
            .map_err(|source| HostError::Listen { address: shared.config.http, source })?;
        let mut tasks = vec![routing::serve_plain(Arc::clone(&shared), http_listener, stopped.clone())];
        let mut https = None;
        if let (Some(listener), Some(tls)) = (https_listener, shared.services.tls.clone()) {
            let address =
                listener.local_addr().map_err(|source| HostError::Listen { address: http, source })?;
            https = Some(address);
            tasks.push(routing::serve_tls(Arc::clone(&shared), listener, tls, stopped.clone()));
        }
        if https.is_some() && admin::wants_certificate(&shared.config.admin_host) {
            tasks.push(admin::spawn(Arc::clone(&shared), stopped.clone()));
        }
        tasks.push(follow(Arc::clone(&shared), stopped.clone()));
        tasks.push(issuance::spawn(shared, queue, stopped));
        Ok(RunningHost { http, https, stop, tasks })
    }
}

/// [`Host::open`] then [`Host::serve`].
///
/// # Errors
/// The state is locked by another host or unusable, or a listener cannot be bound.
pub async fn start(config: HostConfig, services: Services) -> Result<RunningHost, HostError> {
    Host::open(config).await?.serve(services).await
}
