//! The Domains page's JSON API under [`API_PREFIX`], answered on the admin host only (routes in
//! `crates/host/API.md`). Errors are `{code, message, status}` as the mock's Error object.
//!
//! Sign-in gives a session cookie (`HttpOnly; Secure; SameSite=Strict; Path=/`) holding 32
//! random bytes; only their SHA-256 is stored. CSRF: every state-changing route (sign-in
//! included) needs an `Origin` header naming the admin host, besides the cookie; browsers
//! always send `Origin` on cross-site and same-origin POST/PUT/DELETE, and another site cannot
//! forge it. Reads need the session only.

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{ConnectInfo, DefaultBodyLimit, State};
use axum::http::header::SET_COOKIE;
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::IntoResponse;
use axum::routing::{get, post, put};
use playground_domains::dns::{caa_blocking, caa_blocking_reason};
use playground_domains::{
    Dashboard, DomainConfig, DomainRole, DomainState, Event, Refusal, normalize_host, validate_config,
};
use serde::Deserialize;
use serde_json::{Value, json};

mod access;
mod answer;
mod view;

pub use self::access::SESSION_COOKIE;
use self::access::{
    Change, CustomDomainChange, OwnedDomain, OwnedProject, SignedIn, check_origin, owned_project,
    session_token,
};
pub(crate) use self::answer::ApiError;
pub use self::answer::MAX_BODY;
use self::answer::{ApiResult, CHANGED_MEANWHILE, json_body, json_response};
use self::view::{domain_view, project_view};
use crate::password::{self, MAX_PASSWORD_LEN};
use crate::request::{App, Peer};
use crate::store::{Check, DomainRow, ProjectRow, StoreError};
use crate::{Shared, now};

/// Where the API lives on the admin host.
pub const API_PREFIX: &str = "/_host/api";
/// Failed sign-ins allowed per account and per client address in [`RATE_WINDOW_SECS`].
pub const MAX_FAILED_SIGN_INS: u64 = 5;
/// The rate limit's window (one minute).
pub const RATE_WINDOW_SECS: u64 = 60;
/// Longest domain name typed (longer is refused before any work).
const MAX_NAME_INPUT: usize = 300;
/// Most redirects in one configuration.
const MAX_REDIRECTS: usize = 100;
/// Longest a DNS question may take.
const DNS_TIME: Duration = Duration::from_secs(15);

pub(crate) fn router(_app: App) -> Router<App> {
    Router::new()
        .route("/session", post(sign_in).delete(sign_out))
        .route("/me", get(me))
        .route("/projects", get(projects))
        .route("/projects/{project}/domains", get(list_domains).post(add_domain))
        .route("/projects/{project}/domains/{name}", get(one_domain).delete(remove_domain))
        .route("/projects/{project}/domains/{name}/verify", post(verify))
        .route("/projects/{project}/domains/{name}/reverify", post(reverify))
        .route("/projects/{project}/domains/{name}/primary", post(set_primary))
        .route("/projects/{project}/domains/{name}/role", put(set_role))
        .route("/projects/{project}/config", get(export_config).put(put_config))
        .fallback(|| async {
            ApiError::new(StatusCode::NOT_FOUND, "not_found", "There is no such API route.")
        })
        .method_not_allowed_fallback(|| async {
            ApiError::new(
                StatusCode::METHOD_NOT_ALLOWED,
                "method_not_allowed",
                "This route does not take that method.",
            )
        })
        .layer(DefaultBodyLimit::max(MAX_BODY))
}

/// The `Origin` header must name the admin host (http or https, any port).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SignIn {
    email: String,
    password: String,
}

fn dummy_hash() -> &'static str {
    static DUMMY: OnceLock<String> = OnceLock::new();
    DUMMY.get_or_init(|| password::hash_password("no such owner").unwrap_or_default())
}

async fn sign_in(
    State(app): State<App>,
    ConnectInfo(peer): ConnectInfo<Peer>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let shared = &app.shared;
    check_origin(shared, &headers)?;
    let input: SignIn = json_body(&headers, body)?;
    if input.email.len() > 254 || input.password.len() > MAX_PASSWORD_LEN {
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "validation_failed",
            "The email or password is too long.",
        ));
    }
    let email = input.email.trim().to_ascii_lowercase();
    let ip = peer.0.ip().to_string();
    let at = now();
    let since = at.saturating_sub(RATE_WINDOW_SECS);
    let counts = shared.store.failed_attempts(&email, &ip, since).await?;
    if let Some(oldest) =
        counts.iter().filter(|(n, _)| *n >= MAX_FAILED_SIGN_INS).filter_map(|(_, o)| *o).min()
    {
        let wait = (oldest + RATE_WINDOW_SECS).saturating_sub(at).max(1);
        let mut error = ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "too_many_attempts",
            format!("Too many failed sign-ins; try again in {wait} seconds."),
        );
        error.retry_after = Some(wait);
        return Err(error);
    }
    let hash = shared.config.owners.iter().find(|o| o.email == email).map(|o| o.password_hash.clone());
    let password = input.password;
    // An unknown email costs the same hashing as a known one, so timing does not tell them apart.
    let matches = tokio::task::spawn_blocking(move || match hash {
        Some(hash) => password::verify_password(&password, &hash),
        None => {
            let _ = password::verify_password(&password, dummy_hash());
            false
        }
    })
    .await
    .unwrap_or(false);
    shared.store.record_attempt(&email, &ip, at, matches).await?;
    if !matches {
        return Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "bad_credentials",
            "The email or password is not right.",
        ));
    }
    let token =
        password::new_token().map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", e))?;
    let ttl = shared.config.session_ttl_secs;
    let expires_at = at.saturating_add(ttl);
    shared.store.create_session(&password::token_hash(&token), &email, expires_at, at).await?;
    let cookie =
        format!("{SESSION_COOKIE}={token}; HttpOnly; Secure; SameSite=Strict; Path=/; Max-Age={ttl}");
    let mut response = json_response(&json!({"email": email, "expiresAt": expires_at}));
    if let Ok(value) = HeaderValue::from_str(&cookie) {
        response.headers_mut().insert(SET_COOKIE, value);
    }
    Ok(response)
}

async fn sign_out(State(app): State<App>, _: SignedIn<Change>, headers: HeaderMap) -> ApiResult {
    if let Some(token) = session_token(&headers) {
        app.shared.store.delete_session(&password::token_hash(&token)).await?;
    }
    let mut response = StatusCode::NO_CONTENT.into_response();
    response.headers_mut().insert(
        SET_COOKIE,
        HeaderValue::from_static("host_session=; HttpOnly; Secure; SameSite=Strict; Path=/; Max-Age=0"),
    );
    Ok(response)
}

fn owned_names(shared: &Shared, owner: &str) -> Vec<String> {
    shared.config.projects.iter().filter(|p| p.owner == owner).map(|p| p.name.clone()).collect()
}

async fn me(State(app): State<App>, SignedIn { owner, .. }: SignedIn) -> ApiResult {
    Ok(json_response(&json!({"email": owner, "projects": owned_names(&app.shared, &owner)})))
}

async fn projects(State(app): State<App>, SignedIn { owner, .. }: SignedIn) -> ApiResult {
    let shared = &app.shared;
    let mut list = Vec::new();
    for name in owned_names(shared, &owner) {
        let project = owned_project(shared, &owner, &name).await?;
        let rows = shared.store.domains_of(&name).await?;
        let dashboard = shared.dashboard(&project, &rows);
        list.push(json!({
            "name": name,
            "plan": project.plan,
            "customDomains": project.plan.allows_custom_domains(),
            "deployed": dashboard.settings.deploy_succeeded,
            "defaultAddress": dashboard.default_address(),
            "publishedAddress": dashboard.published_address(),
            "domains": rows.len(),
        }));
    }
    Ok(json_response(&Value::Array(list)))
}

async fn list_domains(State(app): State<App>, OwnedProject { project, .. }: OwnedProject) -> ApiResult {
    Ok(json_response(&project_view(&app.shared, &project).await?))
}

/// The domain of a path, lower-cased; 404 when it is not one of the project's.
fn attached(rows: &[DomainRow], name: &str) -> Result<String, ApiError> {
    let name = name.trim().trim_end_matches('.').to_ascii_lowercase();
    if rows.iter().any(|r| r.name == name) {
        Ok(name)
    } else {
        let shown: String = name.chars().take(MAX_NAME_INPUT).collect();
        Err(Refusal::NotAttached { name: shown }.into())
    }
}

async fn one_domain(State(app): State<App>, OwnedDomain { project, name, .. }: OwnedDomain) -> ApiResult {
    let shared = &app.shared;
    let rows = shared.store.domains_of(&project.name).await?;
    let name = attached(&rows, &name)?;
    let dashboard = shared.dashboard(&project, &rows);
    let row = rows
        .iter()
        .find(|r| r.name == name)
        .ok_or_else(|| ApiError::from(Refusal::NotAttached { name: name.clone() }))?;
    Ok(json_response(&domain_view(shared, &dashboard, row, now()).await?))
}

/// The project as stored now, once the write lock is held (another change may have set its
/// primary since it was first read).
async fn reload(shared: &Shared, project: &ProjectRow) -> Result<ProjectRow, ApiError> {
    shared.store.project(&project.name).await?.ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "not_found",
            format!("You have no project named {}.", project.name),
        )
    })
}

/// How often a change overtaken by another writer is read and applied again.
const CHANGE_TRIES: usize = 3;

/// A change of a project's domains: reads the project, applies `change` to its dashboard (with
/// the rows read) and commits. When another writer (another host on the same PostgreSQL state)
/// committed in between, which the write's row lock and revision check find, it reads again and
/// applies `change` again, so the change is made on what the other committed; after
/// [`CHANGE_TRIES`] it answers 409. Called with the process's write lock held.
async fn change_project<T>(
    shared: &Shared,
    project: &ProjectRow,
    mut change: impl FnMut(&mut Dashboard, &[DomainRow]) -> Result<T, ApiError>,
) -> Result<(ProjectRow, Dashboard, T), ApiError> {
    let mut tries = 0;
    loop {
        tries += 1;
        let project = reload(shared, project).await?;
        let rows = shared.store.domains_of(&project.name).await?;
        let mut dashboard = shared.dashboard(&project, &rows);
        let value = change(&mut dashboard, &rows)?;
        let written = Shared::rows_after(&project.name, &dashboard, &rows);
        match shared.store.write_project(&project, dashboard.primary.as_deref(), &written, None).await {
            Ok(()) => {
                shared.refresh().await?;
                return Ok((project, dashboard, value));
            }
            Err(StoreError::Conflict { .. }) if tries < CHANGE_TRIES => {}
            Err(error) => return Err(error.into()),
        }
    }
}

async fn done(shared: &Shared, project: &ProjectRow, status: StatusCode, message: String) -> ApiResult {
    let view = project_view(shared, project).await?;
    let mut response = json_response(&json!({"message": message, "project": view}));
    *response.status_mut() = status;
    Ok(response)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AddDomain {
    name: String,
}

fn to_ascii(name: &str) -> Result<String, String> {
    idna::domain_to_ascii(name).map_err(|e| e.to_string())
}

async fn add_domain(
    State(app): State<App>,
    OwnedProject { project, .. }: OwnedProject<CustomDomainChange>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let shared = &app.shared;
    let input: AddDomain = json_body(&headers, body)?;
    if input.name.chars().count() > MAX_NAME_INPUT {
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_name",
            "The name is longer than any domain name.",
        ));
    }
    let _write = shared.write.lock().await;
    let project = reload(shared, &project).await?;
    if let Ok(name) = normalize_host(&input.name, &to_ascii)
        && let Some(other) = shared.store.domain_project(&name).await?
        && other != project.name
    {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "attached_elsewhere",
            format!("{name} is already attached to another project; remove it there first."),
        ));
    }
    let (project, _, instruction) =
        change_project(shared, &project, |dashboard, _| Ok(dashboard.add(&input.name, now(), &to_ascii)?))
            .await?;
    let event = Event::Added { name: instruction.domain.clone(), kind: instruction.kind };
    done(shared, &project, StatusCode::CREATED, event.to_string()).await
}

async fn verify(State(app): State<App>, domain: OwnedDomain<CustomDomainChange>) -> ApiResult {
    check_dns(app.shared, domain.project, domain.name, false).await
}

async fn reverify(State(app): State<App>, domain: OwnedDomain<CustomDomainChange>) -> ApiResult {
    check_dns(app.shared, domain.project, domain.name, true).await
}

async fn ask<T>(what: &str, future: impl Future<Output = Result<T, String>>) -> Result<T, String> {
    match tokio::time::timeout(DNS_TIME, future).await {
        Ok(result) => result.map_err(|e| format!("The DNS lookup of {what} failed: {e}")),
        Err(_) => Err(format!("The DNS lookup of {what} took longer than {} seconds.", DNS_TIME.as_secs())),
    }
}

async fn check_dns(shared: Arc<Shared>, project: ProjectRow, name: String, again: bool) -> ApiResult {
    let name = attached(&shared.store.domains_of(&project.name).await?, &name)?;
    // DNS first, outside the write lock: a slow resolver holds up no other change.
    let records = ask(&name, shared.services.verifier.records(&name)).await;
    let caa = ask(&name, shared.services.verifier.caa(&name)).await;
    let _write = shared.write.lock().await;
    // What DNS said is recorded on the project as read now; made again on what another writer
    // (another host on the same PostgreSQL state) committed meanwhile, if one did.
    let mut tries = 0;
    loop {
        tries += 1;
        match record_check(&shared, &project, &name, again, records.clone(), &caa).await {
            Err(e) if e.code == CHANGED_MEANWHILE && tries < CHANGE_TRIES => {}
            answer => return answer,
        }
    }
}

/// The part of a verification made under the write lock: the project read, the core's step
/// taken on what DNS said, the result written.
async fn record_check(
    shared: &Arc<Shared>,
    project: &ProjectRow,
    name: &str,
    again: bool,
    records: Result<playground_domains::RecordSet, String>,
    caa: &Result<playground_domains::RecordSet, String>,
) -> ApiResult {
    let project = reload(shared, project).await?;
    let rows = shared.store.domains_of(&project.name).await?;
    let name = attached(&rows, name)?;
    let mut dashboard = shared.dashboard(&project, &rows);
    let at = now();
    let was = dashboard.domain(&name).map_or(DomainState::None, |d| d.state);
    let records = match records {
        Ok(records) => records,
        Err(message) => {
            let mut rows = rows;
            if let Some(r) = rows.iter_mut().find(|r| r.name == name) {
                r.check = Some(Check { ok: false, message: message.clone(), at });
            }
            shared.store.write_project(&project, project.primary.as_deref(), &rows, None).await?;
            return Err(ApiError::new(StatusCode::BAD_GATEWAY, "dns_failed", message));
        }
    };
    let view = shared.verification_view(records);
    let result =
        if again { dashboard.reverify(&name, at, &view) } else { dashboard.verify(&name, at, &view) };
    match result {
        Ok(state) => {
            let authority = &shared.config.acme.ca_identifier;
            let blocking = match &caa {
                Ok(set) => caa_blocking(&name, authority, set),
                Err(_) => Vec::new(),
            };
            let serving = matches!(state, DomainState::Reverifying { .. });
            let again = again && was != DomainState::None;
            let event = if !blocking.is_empty() {
                Event::VerifiedBlockedByCaa {
                    name: name.clone(),
                    again,
                    serving,
                    authority: authority.clone(),
                    records: blocking.clone(),
                }
            } else if serving {
                Event::Reverified { name: name.clone() }
            } else {
                Event::Verified { name: name.clone(), again, live: false }
            };
            let mut rows = Shared::rows_after(&project.name, &dashboard, &rows);
            if let Some(r) = rows.iter_mut().find(|r| r.name == name) {
                r.check = Some(Check { ok: true, message: event.to_string(), at });
                r.blocking_caa = blocking.clone();
                r.issue_error = None;
            }
            shared.store.write_project(&project, dashboard.primary.as_deref(), &rows, None).await?;
            shared.refresh().await?;
            if blocking.is_empty() {
                let _ = shared.issue_queue.send(name);
            } else {
                // Said at once, in the answer and here: no certificate is asked for until the
                // records allow the authority and the domain is verified again.
                eprintln!(
                    "playground host: no certificate is requested for {name}: {}",
                    caa_blocking_reason(authority, &blocking)
                );
            }
            done(shared, &project, StatusCode::OK, event.to_string()).await
        }
        Err(refusal @ Refusal::VerificationFailed { .. }) => {
            let mut rows = rows;
            if let Some(r) = rows.iter_mut().find(|r| r.name == name) {
                r.check = Some(Check { ok: false, message: refusal.to_string(), at });
            }
            shared.store.write_project(&project, project.primary.as_deref(), &rows, None).await?;
            Err(refusal.into())
        }
        Err(refusal) => Err(refusal.into()),
    }
}

async fn remove_domain(
    State(app): State<App>,
    OwnedDomain { project, name, .. }: OwnedDomain<Change>,
) -> ApiResult {
    let shared = &app.shared;
    let _write = shared.write.lock().await;
    let (project, dashboard, (name, was_live)) = change_project(shared, &project, |dashboard, rows| {
        let name = attached(rows, &name)?;
        let was_live = dashboard.domain(&name).is_some_and(|d| d.state.serves());
        dashboard.remove(&name, now())?;
        Ok((name, was_live))
    })
    .await?;
    let event = Event::Removed { name, was_live, published: dashboard.published_address() };
    done(shared, &project, StatusCode::OK, event.to_string()).await
}

async fn set_primary(
    State(app): State<App>,
    OwnedDomain { project, name, .. }: OwnedDomain<CustomDomainChange>,
) -> ApiResult {
    let shared = &app.shared;
    let _write = shared.write.lock().await;
    let (project, _, name) = change_project(shared, &project, |dashboard, rows| {
        let name = attached(rows, &name)?;
        dashboard.set_primary(&name)?;
        Ok(name)
    })
    .await?;
    let project = owned_project(shared, &project.owner, &project.name).await?;
    done(shared, &project, StatusCode::OK, Event::MadePrimary { name }.to_string()).await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SetRole {
    role: DomainRole,
}

async fn set_role(
    State(app): State<App>,
    OwnedDomain { project, name, .. }: OwnedDomain<CustomDomainChange>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let shared = &app.shared;
    let input: SetRole = json_body(&headers, body)?;
    let _write = shared.write.lock().await;
    let (project, dashboard, name) = change_project(shared, &project, |dashboard, rows| {
        let name = attached(rows, &name)?;
        dashboard.set_role(&name, input.role)?;
        Ok(name)
    })
    .await?;
    let event = Event::RoleChanged { name, role: input.role, primary: dashboard.published_address() };
    done(shared, &project, StatusCode::OK, event.to_string()).await
}

async fn export_config(State(app): State<App>, OwnedProject { project, .. }: OwnedProject) -> ApiResult {
    let rows = app.shared.store.domains_of(&project.name).await?;
    let config = app.shared.dashboard(&project, &rows).config();
    Ok(json_response(&serde_json::to_value(config).unwrap_or(Value::Null)))
}

async fn put_config(
    State(app): State<App>,
    OwnedProject { project, .. }: OwnedProject<CustomDomainChange>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let shared = &app.shared;
    let mut config: DomainConfig = json_body(&headers, body)?;
    if config.domains.redirects.len() > MAX_REDIRECTS {
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "validation_failed",
            format!("A configuration has at most {MAX_REDIRECTS} redirects."),
        ));
    }
    let lower = |s: &mut String| *s = s.trim().trim_end_matches('.').to_ascii_lowercase();
    lower(&mut config.domains.primary);
    for r in &mut config.domains.redirects {
        lower(&mut r.from);
        lower(&mut r.to);
    }
    let _write = shared.write.lock().await;
    let (project, _, ()) = change_project(shared, &project, |dashboard, _| {
        let attached_names = dashboard.attached_names();
        let attached: Vec<&str> = attached_names.iter().map(String::as_str).collect();
        validate_config(&config, &attached)
            .map_err(|e| ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, "invalid_config", e.to_string()))?;
        let primary = config.domains.primary.clone();
        let serving: Vec<String> =
            dashboard.domains.iter().filter(|d| d.state.serves()).map(|d| d.name.clone()).collect();
        if primary == dashboard.default_address() {
            if !serving.is_empty() {
                return Err(ApiError::new(
                    StatusCode::CONFLICT,
                    "not_live",
                    "The default address can be the primary only while no custom domain serves; remove them or choose one as the primary.",
                ));
            }
        } else {
            dashboard.set_primary(&primary)?;
        }
        for r in &config.domains.redirects {
            if !serving.contains(&r.from) {
                return Err(ApiError::new(
                    StatusCode::CONFLICT,
                    "not_live",
                    format!("{} is not live yet; only a live domain can redirect.", r.from),
                ));
            }
        }
        for name in serving.iter().filter(|n| **n != primary) {
            let role = if config.domains.redirects.iter().any(|r| &r.from == name) {
                DomainRole::Redirect
            } else {
                DomainRole::Serve
            };
            dashboard.set_role(name, role)?;
        }
        Ok(())
    })
    .await?;
    let project = owned_project(shared, &project.owner, &project.name).await?;
    done(shared, &project, StatusCode::OK, format!("The domain configuration of {} is saved.", project.name))
        .await
}
