//! The state's tests, each run against both engines: SQLite in a temporary folder and
//! PostgreSQL in a fresh database of the cluster the tests start (`support/postgres.rs`).
#![allow(clippy::unwrap_used)]

mod support;

use std::path::PathBuf;
use std::time::Duration;

use playground_domains::{DomainRole, DomainState, Plan};
use playground_host::config::ProjectConfig;
use playground_host::services::Issued;
use playground_host::store::{
    Check, DomainRow, MIGRATIONS, POSTGRES_MIGRATIONS, Store, StoreError, database_path, schema_version,
};
use support::postgres::{client, cluster};

/// Where a test's state is, so it can be opened again.
enum Engine {
    Sqlite(tempfile::TempDir),
    Postgres(String),
}

impl Engine {
    fn sqlite() -> Engine {
        Engine::Sqlite(tempfile::tempdir().unwrap())
    }

    async fn postgres() -> Engine {
        Engine::Postgres(cluster().database().await)
    }

    async fn open(&self) -> Result<Store, StoreError> {
        match self {
            Engine::Sqlite(dir) => Store::open(dir.path()),
            Engine::Postgres(url) => Store::connect(url).await,
        }
    }

    /// Sets the stored schema version, as a newer host would have left it.
    async fn set_version(&self, version: u32) {
        match self {
            Engine::Sqlite(dir) => {
                let conn = rusqlite::Connection::open(database_path(dir.path())).unwrap();
                conn.pragma_update(None, "user_version", version).unwrap();
            }
            Engine::Postgres(url) => {
                let version = i32::try_from(version).unwrap();
                client(url)
                    .await
                    .execute("UPDATE schema_version SET version = $1", &[&version])
                    .await
                    .unwrap();
            }
        }
    }

    /// The stored schema version.
    async fn version(&self) -> u32 {
        match self {
            Engine::Sqlite(dir) => {
                let conn = rusqlite::Connection::open(database_path(dir.path())).unwrap();
                conn.pragma_query_value(None, "user_version", |r| r.get(0)).unwrap()
            }
            Engine::Postgres(url) => {
                let rows = client(url).await.query("SELECT version FROM schema_version", &[]).await.unwrap();
                assert_eq!(rows.len(), 1, "one version row");
                u32::try_from(rows[0].get::<_, i32>(0)).unwrap()
            }
        }
    }
}

/// `name::sqlite` and `name::postgres`, each running `name(engine)`.
macro_rules! both_engines {
    ($($name:ident),* $(,)?) => {$(
        mod $name {
            #[tokio::test]
            async fn sqlite() {
                super::$name(super::Engine::sqlite()).await;
            }
            #[tokio::test]
            async fn postgres() {
                super::$name(super::Engine::postgres().await).await;
            }
        }
    )*};
}

both_engines!(
    projects_and_domains_round_trip_and_reopen,
    a_project_written_again_keeps_only_its_domains,
    sessions_and_attempts,
    acme_credentials_and_other_certificates,
    migrations_run_once_and_a_newer_database_is_refused,
    bad_rows_are_reported_not_trusted,
    challenge_answers_are_kept_until_they_expire,
    a_write_from_a_stale_read_is_refused,
    a_version_1_database_is_brought_up_to_date,
    a_name_is_never_taken_from_another_project,
);

fn project(name: &str, owner: &str) -> ProjectConfig {
    ProjectConfig {
        name: name.to_owned(),
        site: PathBuf::from(format!("/srv/{name}")),
        owner: owner.to_owned(),
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

/// Writes the project `name` as it reads now.
async fn write(
    store: &Store,
    name: &str,
    primary: Option<&str>,
    rows: &[DomainRow],
    certificate: Option<(&str, &Issued, u64)>,
) -> Result<(), StoreError> {
    let read = store.project(name).await.unwrap().unwrap();
    store.write_project(&read, primary, rows, certificate).await
}

fn issued(chain: &str, not_after: u64) -> Issued {
    Issued { chain_pem: chain.to_owned(), key_pem: format!("key of {chain}"), not_after }
}

async fn projects_and_domains_round_trip_and_reopen(engine: Engine) {
    let store = engine.open().await.unwrap();
    store.sync_projects(&[project("petstore", "ana@example.com")]).await.unwrap();
    let mut caa = domain("caa.example.com", DomainState::Verified { added_at: 6, verified_at: 7 });
    caa.blocking_caa = vec![playground_domains::DnsRecord::new(
        "example.com",
        playground_domains::RecordKind::Caa,
        "0 issue \"ca.test\"",
        300,
    )];
    caa.issue_error = Some(("rejected".to_owned(), 8));
    caa.check = None;
    caa.role = DomainRole::Serve;
    let rows = vec![
        domain("docs.example.com", DomainState::Live { added_at: 1, verified_at: 2, live_at: 3 }),
        domain("old.example.com", DomainState::Added { added_at: 4 }),
        caa,
        domain(
            "re.example.com",
            DomainState::Reverifying { added_at: 1, verified_at: 2, live_at: u64::from(u32::MAX) + 9 },
        ),
    ];
    let cert = issued("chain", 99);
    write(&store, "petstore", Some("docs.example.com"), &rows, Some(("docs.example.com", &cert, 3)))
        .await
        .unwrap();
    drop(store);

    let store = engine.open().await.unwrap();
    assert_eq!(store.domains_of("petstore").await.unwrap(), rows, "every column read back as written");
    assert_eq!(store.all_domains().await.unwrap(), rows);
    let stored = store.project("petstore").await.unwrap().unwrap();
    assert_eq!(stored.primary.as_deref(), Some("docs.example.com"));
    assert_eq!(stored.plan, Plan::Pro);
    assert_eq!(stored.site_dir, PathBuf::from("/srv/petstore"));
    assert_eq!(store.project("nothing").await.unwrap(), None);
    let certificate = store.certificate("docs.example.com").await.unwrap().unwrap();
    assert_eq!(
        (certificate.chain_pem.as_str(), certificate.key_pem.as_str(), certificate.not_after),
        ("chain", "key of chain", 99)
    );
    let serving = store.serving_certificates().await.unwrap();
    assert_eq!(serving.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(), ["docs.example.com"]);
    assert_eq!(store.domain_project("old.example.com").await.unwrap().as_deref(), Some("petstore"));
    assert_eq!(store.domain_project("nowhere.example.com").await.unwrap(), None);

    // The configuration changes the owner and plan; the primary and domains stay.
    let mut changed = project("petstore", "bo@example.com");
    changed.plan = Plan::Business;
    store.sync_projects(&[changed]).await.unwrap();
    let stored = store.project("petstore").await.unwrap().unwrap();
    assert_eq!((stored.owner.as_str(), stored.plan), ("bo@example.com", Plan::Business));
    assert_eq!(stored.primary.as_deref(), Some("docs.example.com"));
    assert_eq!(store.domains_of("petstore").await.unwrap().len(), 4);
}

async fn a_project_written_again_keeps_only_its_domains(engine: Engine) {
    let store = engine.open().await.unwrap();
    store
        .sync_projects(&[project("petstore", "ana@example.com"), project("bostore", "bo@example.com")])
        .await
        .unwrap();
    let live = DomainState::Live { added_at: 1, verified_at: 2, live_at: 3 };
    let rows = vec![domain("a.example.com", live), domain("b.example.com", live)];
    write(&store, "petstore", Some("a.example.com"), &rows, Some(("a.example.com", &issued("a", 50), 3)))
        .await
        .unwrap();
    let mut other = domain("c.example.com", live);
    other.project = "bostore".to_owned();
    write(
        &store,
        "bostore",
        None,
        std::slice::from_ref(&other),
        Some(("c.example.com", &issued("c", 60), 3)),
    )
    .await
    .unwrap();

    // Reordered, one removed: the removed one's certificate goes with it, the other project's stays.
    write(&store, "petstore", None, &[rows[1].clone()], None).await.unwrap();
    assert_eq!(store.domains_of("petstore").await.unwrap(), [rows[1].clone()]);
    assert!(store.certificate("a.example.com").await.unwrap().is_none(), "removed with its domain");
    assert_eq!(store.project("petstore").await.unwrap().unwrap().primary, None);
    assert_eq!(store.domains_of("bostore").await.unwrap(), [other]);
    assert_eq!(store.certificate("c.example.com").await.unwrap().unwrap().not_after, 60);

    // A renewal replaces the certificate.
    write(
        &store,
        "bostore",
        None,
        &store.domains_of("bostore").await.unwrap(),
        Some(("c.example.com", &issued("c2", 90), 4)),
    )
    .await
    .unwrap();
    let renewed = store.certificate("c.example.com").await.unwrap().unwrap();
    assert_eq!((renewed.chain_pem.as_str(), renewed.not_after), ("c2", 90));

    // A domain that stops serving takes its certificate out of the served ones.
    let mut back = store.domains_of("bostore").await.unwrap();
    back[0].state = DomainState::Added { added_at: 1 };
    write(&store, "bostore", None, &back, None).await.unwrap();
    assert!(store.serving_certificates().await.unwrap().is_empty());
}

async fn sessions_and_attempts(engine: Engine) {
    let store = engine.open().await.unwrap();
    store.create_session("h", "ana@example.com", 100, 10).await.unwrap();
    store.create_session("old", "ana@example.com", 20, 10).await.unwrap();
    assert_eq!(store.session("h").await.unwrap(), Some(("ana@example.com".to_owned(), 100)));
    // A new session deletes the expired ones.
    store.create_session("new", "bo@example.com", 200, 50).await.unwrap();
    assert_eq!(store.session("old").await.unwrap(), None);
    store.delete_session("h").await.unwrap();
    assert_eq!(store.session("h").await.unwrap(), None);
    assert_eq!(store.session("new").await.unwrap(), Some(("bo@example.com".to_owned(), 200)));
    let day = 86_400;
    store.record_attempt("ana@example.com", "192.0.2.1", 5, false).await.unwrap();
    for at in [day + 10, day + 20, day + 30] {
        store.record_attempt("ana@example.com", "127.0.0.1", at, false).await.unwrap();
    }
    store.record_attempt("bo@example.com", "127.0.0.1", day + 35, false).await.unwrap();
    store.record_attempt("ana@example.com", "127.0.0.1", day + 40, true).await.unwrap();
    let [by_email, by_ip] = store.failed_attempts("ana@example.com", "127.0.0.1", day + 15).await.unwrap();
    assert_eq!(by_email, (2, Some(day + 20)));
    assert_eq!(by_ip, (3, Some(day + 20)));
    // The attempt older than a day was deleted on the way.
    let [by_email, by_ip] = store.failed_attempts("ana@example.com", "192.0.2.1", 0).await.unwrap();
    assert_eq!((by_email.0, by_ip), (3, (0, None)));
}

async fn acme_credentials_and_other_certificates(engine: Engine) {
    let store = engine.open().await.unwrap();
    let directory = "https://ca.test/dir";
    assert_eq!(store.acme_credentials(directory).await.unwrap(), None);
    store.set_acme_credentials(directory, "{\"id\":1}", 10).await.unwrap();
    store.set_acme_credentials(directory, "{\"id\":2}", 20).await.unwrap();
    store.set_acme_credentials("https://other.test/dir", "{\"id\":3}", 20).await.unwrap();
    assert_eq!(store.acme_credentials(directory).await.unwrap().as_deref(), Some("{\"id\":2}"));
    store.put_certificate("admin.docs-host.test", &issued("admin", 70), 5).await.unwrap();
    store.put_certificate("admin.docs-host.test", &issued("admin2", 80), 6).await.unwrap();
    drop(store);
    let store = engine.open().await.unwrap();
    let admin = store.certificate("admin.docs-host.test").await.unwrap().unwrap();
    assert_eq!((admin.chain_pem.as_str(), admin.not_after), ("admin2", 80));
    assert!(store.serving_certificates().await.unwrap().is_empty(), "no custom domain's");
    assert_eq!(
        store.acme_credentials("https://other.test/dir").await.unwrap().as_deref(),
        Some("{\"id\":3}")
    );
}

async fn migrations_run_once_and_a_newer_database_is_refused(engine: Engine) {
    drop(engine.open().await.unwrap());
    assert_eq!(engine.version().await, schema_version());
    let store = engine.open().await.unwrap();
    store.sync_projects(&[project("petstore", "ana@example.com")]).await.unwrap();
    drop(store);
    // Opening again migrates nothing and loses nothing.
    let store = engine.open().await.unwrap();
    assert_eq!(engine.version().await, schema_version());
    assert!(store.project("petstore").await.unwrap().is_some());
    drop(store);
    engine.set_version(schema_version() + 1).await;
    let error = engine.open().await.unwrap_err();
    assert!(
        matches!(error, StoreError::TooNew { found, known, .. } if found == schema_version() + 1 && known == schema_version()),
        "{error}"
    );
    assert!(error.to_string().contains("newer playground host"), "{error}");
}

async fn bad_rows_are_reported_not_trusted(engine: Engine) {
    let store = engine.open().await.unwrap();
    store.sync_projects(&[project("petstore", "ana@example.com")]).await.unwrap();
    let sql = "UPDATE projects SET plan = 'platinum'";
    match &engine {
        Engine::Sqlite(dir) => {
            rusqlite::Connection::open(database_path(dir.path())).unwrap().execute(sql, []).unwrap();
        }
        Engine::Postgres(url) => {
            client(url).await.execute(sql, &[]).await.unwrap();
        }
    }
    let error = store.project("petstore").await.unwrap_err();
    assert!(matches!(error, StoreError::Corrupt(_)), "{error}");
    assert!(error.to_string().contains("platinum"), "{error}");
}

#[tokio::test]
async fn sqlite_a_second_store_on_the_same_dir_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let _first = Store::open(dir.path()).unwrap();
    let error = Store::open(dir.path()).unwrap_err();
    assert!(matches!(error, StoreError::Locked { .. }), "{error}");
    assert!(error.to_string().contains("another playground host"), "{error}");
}

/// No lock file with PostgreSQL: two stores share a database, and a project's writes wait for
/// its row lock.
#[tokio::test]
async fn postgres_a_projects_writes_wait_for_its_row_lock() {
    let url = cluster().database().await;
    let store = Store::connect(&url).await.unwrap();
    let second = Store::connect(&url).await.unwrap();
    store
        .sync_projects(&[project("petstore", "ana@example.com"), project("bostore", "bo@example.com")])
        .await
        .unwrap();

    // Another writer holds petstore's row, and adds a domain the waiting write must see (it
    // writes the project as a whole, so it removes it): its reads come after the lock.
    let mut holder = client(&url).await;
    let tx = holder.transaction().await.unwrap();
    tx.query("SELECT name FROM projects WHERE name = 'petstore' FOR UPDATE", &[]).await.unwrap();
    tx.execute(
        "INSERT INTO domains (name, project, position, state, role, added_at)
         VALUES ('held.example.com', 'petstore', 0, 'added', 'redirect', 1)",
        &[],
    )
    .await
    .unwrap();

    let rows = vec![domain("docs.example.com", DomainState::Added { added_at: 1 })];
    let read = second.project("petstore").await.unwrap().unwrap();
    let waiting = second.write_project(&read, None, &rows, None);
    tokio::pin!(waiting);
    assert!(
        tokio::time::timeout(Duration::from_millis(500), &mut waiting).await.is_err(),
        "the write went ahead of the row lock"
    );
    // Another project is not held up.
    let mut bo = domain("bo.example.com", DomainState::Added { added_at: 1 });
    bo.project = "bostore".to_owned();
    tokio::time::timeout(Duration::from_secs(5), write(&store, "bostore", None, &[bo], None))
        .await
        .expect("another project's write waits for nothing")
        .unwrap();
    assert!(store.domains_of("petstore").await.unwrap().is_empty(), "nothing of the waiting write is seen");
    tx.commit().await.unwrap();
    tokio::time::timeout(Duration::from_secs(5), &mut waiting)
        .await
        .expect("the write goes on after the commit")
        .unwrap();
    assert_eq!(
        store.domains_of("petstore").await.unwrap(),
        rows,
        "the held write's domain was seen and removed"
    );
}

/// Acknowledged = committed: what a store answered for is there for a new connection, even
/// after the server is killed (`pg_ctl stop -m immediate`) and started again.
#[tokio::test]
async fn postgres_answered_changes_survive_a_server_crash_and_the_store_reconnects() {
    // Its own cluster: the shared one is not stopped under the other tests.
    let own = support::postgres::Cluster::start();
    let url = own.database().await;
    let store = Store::connect(&url).await.unwrap();
    store.sync_projects(&[project("petstore", "ana@example.com")]).await.unwrap();
    let rows =
        vec![domain("docs.example.com", DomainState::Live { added_at: 1, verified_at: 2, live_at: 3 })];
    write(&store, "petstore", Some("docs.example.com"), &rows, None).await.unwrap();
    own.stop();
    let error = store.domains_of("petstore").await.unwrap_err();
    assert!(error.is_unavailable(), "{error:?}");
    assert!(error.to_string().contains("PostgreSQL"), "{error}");
    own.start_again();
    // The lost connection is opened again by the next call.
    let mut read = store.domains_of("petstore").await;
    if read.is_err() {
        read = store.domains_of("petstore").await;
    }
    assert_eq!(read.unwrap(), rows);
    assert_eq!(Store::connect(&url).await.unwrap().domains_of("petstore").await.unwrap(), rows);
}

#[tokio::test]
async fn postgres_bad_urls_and_unreachable_servers_are_clear_errors() {
    for (url, says) in [
        ("mysql://root@127.0.0.1/host", "must start with postgres://"),
        ("postgres://", "names no host"),
        ("postgres://ana@127.0.0.1:notaport/host", "invalid"),
    ] {
        let error = Store::connect(url).await.unwrap_err();
        assert!(matches!(error, StoreError::BadUrl { .. }), "{url}: {error}");
        assert!(error.to_string().contains(says), "{url}: {error}");
    }
    // Nothing listens at this port.
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let error = Store::connect(&format!("postgres://ana:secret@127.0.0.1:{port}/host")).await.unwrap_err();
    assert!(matches!(error, StoreError::Unreachable { .. }), "{error}");
    let text = error.to_string();
    assert!(text.contains(&format!("postgres://ana@127.0.0.1:{port}/host")), "{text}");
    assert!(text.contains("refused"), "{text}");
    assert!(!text.contains("secret"), "the password is never shown: {text}");
    // The server is there, the database is not.
    let missing = cluster().url("no_such_database");
    let error = Store::connect(&missing).await.unwrap_err();
    assert!(error.to_string().contains("no_such_database"), "{error}");
}

async fn challenge_answers_are_kept_until_they_expire(engine: Engine) {
    let store = engine.open().await.unwrap();
    store.put_challenge("tok-1", "tok-1.thumb", 100, 10).await.unwrap();
    store.put_challenge("tok-2", "tok-2.thumb", 50, 10).await.unwrap();
    assert_eq!(store.challenge("tok-1", 20).await.unwrap().as_deref(), Some("tok-1.thumb"));
    assert_eq!(store.challenge("tok-2", 50).await.unwrap(), None, "expired");
    assert_eq!(store.challenge("nothing", 20).await.unwrap(), None);
    // Published again: the new answer replaces the old.
    store.put_challenge("tok-1", "tok-1.other", 200, 20).await.unwrap();
    drop(store);
    let store = engine.open().await.unwrap();
    assert_eq!(store.challenge("tok-1", 150).await.unwrap().as_deref(), Some("tok-1.other"));
    store.delete_challenge("tok-1").await.unwrap();
    assert_eq!(store.challenge("tok-1", 150).await.unwrap(), None);
}

/// A database left by a host of schema version 1 (before the challenge answers) is migrated at
/// open, its rows kept.
async fn a_version_1_database_is_brought_up_to_date(engine: Engine) {
    let insert = "INSERT INTO projects (name, owner, plan, site_dir) VALUES ('petstore', 'ana@example.com', 'pro', '/srv')";
    match &engine {
        Engine::Sqlite(dir) => {
            let conn = rusqlite::Connection::open(database_path(dir.path())).unwrap();
            conn.execute_batch(MIGRATIONS[0]).unwrap();
            conn.pragma_update(None, "user_version", 1).unwrap();
            conn.execute(insert, []).unwrap();
        }
        Engine::Postgres(url) => {
            let client = client(url).await;
            client.batch_execute(POSTGRES_MIGRATIONS[0]).await.unwrap();
            client
                .batch_execute("CREATE TABLE schema_version (version INTEGER NOT NULL); INSERT INTO schema_version VALUES (1)")
                .await
                .unwrap();
            client.execute(insert, &[]).await.unwrap();
        }
    }
    assert_eq!(engine.version().await, 1);
    let store = engine.open().await.unwrap();
    assert_eq!(engine.version().await, schema_version());
    assert!(schema_version() >= 2);
    assert_eq!(store.project("petstore").await.unwrap().unwrap().owner, "ana@example.com");
    store.put_challenge("tok", "tok.thumb", 100, 10).await.unwrap();
    assert_eq!(store.challenge("tok", 20).await.unwrap().as_deref(), Some("tok.thumb"));
}

/// Two writers adding one name to two projects (two hosts, each having checked that no project
/// has it): the later is refused whole, and the name stays the first project's.
async fn a_name_is_never_taken_from_another_project(engine: Engine) {
    let store = engine.open().await.unwrap();
    store
        .sync_projects(&[project("petstore", "ana@example.com"), project("bostore", "bo@example.com")])
        .await
        .unwrap();
    let added = DomainState::Added { added_at: 1 };
    let mine = vec![domain("docs.example.com", added)];
    write(&store, "petstore", None, &mine, None).await.unwrap();
    let mut theirs = domain("docs.example.com", added);
    theirs.project = "bostore".to_owned();
    let mut also = domain("bo.example.com", added);
    also.project = "bostore".to_owned();
    let error = write(&store, "bostore", Some("docs.example.com"), &[also, theirs], None).await.unwrap_err();
    assert!(
        matches!(&error, StoreError::Taken { name, project } if name == "docs.example.com" && project == "petstore"),
        "{error}"
    );
    assert_eq!(store.domains_of("petstore").await.unwrap(), mine);
    assert!(store.domains_of("bostore").await.unwrap().is_empty(), "nothing of the refused write");
    assert_eq!(store.project("bostore").await.unwrap().unwrap().primary, None);
    assert_eq!(store.domain_project("docs.example.com").await.unwrap().as_deref(), Some("petstore"));
}

/// A change names the revision it read: one that another writer overtook is refused whole.
async fn a_write_from_a_stale_read_is_refused(engine: Engine) {
    let store = engine.open().await.unwrap();
    store.sync_projects(&[project("petstore", "ana@example.com")]).await.unwrap();
    let read = store.project("petstore").await.unwrap().unwrap();
    assert_eq!(read.revision, 0);
    let first = vec![domain("a.example.com", DomainState::Added { added_at: 1 })];
    store.write_project(&read, None, &first, None).await.unwrap();
    let now = store.project("petstore").await.unwrap().unwrap();
    assert_eq!(now.revision, 1, "each write counts");
    let late = vec![domain("b.example.com", DomainState::Added { added_at: 2 })];
    let cert = issued("b", 9);
    let error = store
        .write_project(&read, Some("b.example.com"), &late, Some(("b.example.com", &cert, 2)))
        .await
        .unwrap_err();
    assert!(matches!(&error, StoreError::Conflict { project } if project == "petstore"), "{error}");
    assert!(error.to_string().contains("changed by another writer"), "{error}");
    assert_eq!(store.domains_of("petstore").await.unwrap(), first, "nothing of the late write");
    assert!(store.certificate("b.example.com").await.unwrap().is_none());
    let after = store.project("petstore").await.unwrap().unwrap();
    assert_eq!((after.revision, after.primary), (1, None));
    // Configuration changes at start are no change of the project's domains.
    store.sync_projects(&[project("petstore", "bo@example.com")]).await.unwrap();
    store.write_project(&now, None, &late, None).await.unwrap();
    assert_eq!(store.domains_of("petstore").await.unwrap(), late);
}

/// A change committed by another host while a write waited for the row lock: the waiting write
/// is refused, not applied over it.
#[tokio::test]
async fn postgres_a_write_overtaken_while_it_waited_for_the_lock_is_refused() {
    let url = cluster().database().await;
    let store = Store::connect(&url).await.unwrap();
    store.sync_projects(&[project("petstore", "ana@example.com")]).await.unwrap();
    let read = store.project("petstore").await.unwrap().unwrap();
    let mut holder = client(&url).await;
    let tx = holder.transaction().await.unwrap();
    tx.execute("UPDATE projects SET revision = revision + 1 WHERE name = 'petstore'", &[]).await.unwrap();
    let rows = vec![domain("docs.example.com", DomainState::Added { added_at: 1 })];
    let write = store.write_project(&read, None, &rows, None);
    tokio::pin!(write);
    assert!(
        tokio::time::timeout(Duration::from_millis(300), &mut write).await.is_err(),
        "waits for the lock"
    );
    tx.commit().await.unwrap();
    let error = tokio::time::timeout(Duration::from_secs(5), &mut write).await.unwrap().unwrap_err();
    assert!(matches!(error, StoreError::Conflict { .. }), "{error}");
    assert!(store.domains_of("petstore").await.unwrap().is_empty());
}
