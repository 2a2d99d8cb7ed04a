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
use axum::extract::rejection::{BytesRejection, PathRejection};
use axum::extract::{ConnectInfo, DefaultBodyLimit, Path, State};
use axum::http::header::{CONTENT_TYPE, COOKIE, ORIGIN, RETRY_AFTER, SET_COOKIE};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, put};
use petstore_domains::dns::caa_blocking;
use petstore_domains::machine::propagation_note;
use petstore_domains::{
    CertificateStatus, Dashboard, DomainConfig, DomainRole, DomainState, Event, RecordSet, Refusal,
    instructions, normalize_host, validate_config,
};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use crate::password::{self, MAX_PASSWORD_LEN};
use crate::routing::{App, Peer, host_name};
use crate::store::{Check, DomainRow, ProjectRow, StoreError};
use crate::{Shared, now};

/// Where the API lives on the admin host.
pub const API_PREFIX: &str = "/_host/api";
/// The session cookie's name.
pub const SESSION_COOKIE: &str = "host_session";
/// Largest request body (16 KiB).
pub const MAX_BODY: usize = 16 * 1024;
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

/// An error answer.
#[derive(Debug)]
pub(crate) struct ApiError {
    status: StatusCode,
    code: &'static str,
    message: String,
    retry_after: Option<u64>,
}

impl ApiError {
    fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError { status, code, message: message.into(), retry_after: None }
    }
}

impl From<StoreError> for ApiError {
    fn from(error: StoreError) -> ApiError {
        eprintln!("playground host: {error}");
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            "The host could not read or write its state; nothing was changed. Try again.",
        )
    }
}

impl From<Refusal> for ApiError {
    fn from(refusal: Refusal) -> ApiError {
        let (status, code) = match &refusal {
            Refusal::PlanRequired { .. } => (StatusCode::FORBIDDEN, "plan_required"),
            Refusal::NotDeployed => (StatusCode::CONFLICT, "not_deployed"),
            Refusal::InvalidName(petstore_domains::NameError::AlreadyAttached { .. }) => {
                (StatusCode::CONFLICT, "already_added")
            }
            Refusal::InvalidName(_) => (StatusCode::UNPROCESSABLE_ENTITY, "invalid_name"),
            Refusal::NotAttached { .. } => (StatusCode::NOT_FOUND, "not_found"),
            Refusal::AlreadyAdded { .. } => (StatusCode::CONFLICT, "already_added"),
            Refusal::AlreadyVerified { .. } => (StatusCode::CONFLICT, "already_verified"),
            Refusal::AlreadyLive { .. } => (StatusCode::CONFLICT, "already_live"),
            Refusal::VerificationFailed { .. } => (StatusCode::UNPROCESSABLE_ENTITY, "verification_failed"),
            Refusal::NotVerified { .. } => (StatusCode::CONFLICT, "not_verified"),
            Refusal::NotLive { .. } => (StatusCode::CONFLICT, "not_live"),
        };
        ApiError::new(status, code, refusal.to_string())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = json!({"code": self.code, "message": self.message, "status": self.status.as_u16()});
        let mut response = (self.status, json_response(&body)).into_response();
        if let Some(secs) = self.retry_after {
            response.headers_mut().insert(RETRY_AFTER, HeaderValue::from(secs));
        }
        response
    }
}

fn json_response(value: &Value) -> Response {
    let body = serde_json::to_vec(value).unwrap_or_default();
    ([(CONTENT_TYPE, HeaderValue::from_static("application/json"))], body).into_response()
}

type ApiResult = Result<Response, ApiError>;

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

fn json_body<T: DeserializeOwned>(
    headers: &HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<T, ApiError> {
    let body = body.map_err(|rejection| {
        if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                "payload_too_large",
                format!("The body is over {MAX_BODY} bytes."),
            )
        } else {
            ApiError::new(StatusCode::BAD_REQUEST, "bad_request", "The body could not be read.")
        }
    })?;
    let json = headers.get(CONTENT_TYPE).and_then(|v| v.to_str().ok()).is_some_and(|v| {
        v.split(';').next().is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"))
    });
    if !json {
        return Err(ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_media_type",
            "Send the body as JSON, with Content-Type: application/json.",
        ));
    }
    serde_json::from_slice(&body).map_err(|e| {
        if e.is_data() {
            ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "validation_failed",
                format!("The body does not fit: {e}."),
            )
        } else {
            ApiError::new(StatusCode::BAD_REQUEST, "malformed_json", format!("The body is not JSON: {e}."))
        }
    })
}

fn path_params<T>(path: Result<Path<T>, PathRejection>) -> Result<T, ApiError> {
    path.map(|Path(p)| p).map_err(|e| {
        ApiError::new(StatusCode::BAD_REQUEST, "bad_request", format!("The path is not valid: {e}."))
    })
}

/// The `Origin` header must name the admin host (http or https, any port).
fn check_origin(shared: &Shared, headers: &HeaderMap) -> Result<(), ApiError> {
    let origin = headers.get(ORIGIN).and_then(|o| o.to_str().ok()).unwrap_or("");
    let host = origin.strip_prefix("https://").or_else(|| origin.strip_prefix("http://"));
    match host {
        Some(h) if !h.contains('/') && host_name(h) == shared.config.admin_host => Ok(()),
        _ => Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "csrf_refused",
            "This change must come from the Domains page: the request's Origin header is missing or names another site.",
        )),
    }
}

fn session_token(headers: &HeaderMap) -> Option<String> {
    headers.get_all(COOKIE).iter().filter_map(|v| v.to_str().ok()).flat_map(|v| v.split(';')).find_map(
        |pair| {
            let (name, value) = pair.trim().split_once('=')?;
            (name == SESSION_COOKIE && value.len() == 64 && value.bytes().all(|b| b.is_ascii_hexdigit()))
                .then(|| value.to_owned())
        },
    )
}

/// The signed-in owner, or 401.
fn owner(shared: &Shared, headers: &HeaderMap) -> Result<String, ApiError> {
    let unauthenticated = || ApiError::new(StatusCode::UNAUTHORIZED, "unauthenticated", "Sign in first.");
    let token = session_token(headers).ok_or_else(unauthenticated)?;
    let hash = password::token_hash(&token);
    let (owner, expires_at) = shared.store.session(&hash)?.ok_or_else(unauthenticated)?;
    if expires_at <= now() {
        shared.store.delete_session(&hash)?;
        return Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "session_expired",
            "Your session has expired; sign in again.",
        ));
    }
    Ok(owner)
}

/// The project `name` if `owner` owns it; 404 otherwise (another's project is not revealed).
fn owned_project(shared: &Shared, owner: &str, name: &str) -> Result<ProjectRow, ApiError> {
    let not_found =
        || ApiError::new(StatusCode::NOT_FOUND, "not_found", format!("You have no project named {name}."));
    if name.len() > 63 || shared.config.project(name).is_none() {
        return Err(not_found());
    }
    match shared.store.project(name)? {
        Some(p) if p.owner == owner => Ok(p),
        _ => Err(not_found()),
    }
}

fn plan_allows(project: &ProjectRow) -> Result<(), ApiError> {
    if project.plan.allows_custom_domains() {
        Ok(())
    } else {
        Err(Refusal::PlanRequired { plan: project.plan }.into())
    }
}

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
    let counts = shared.store.failed_attempts(&email, &ip, since)?;
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
    shared.store.record_attempt(&email, &ip, at, matches)?;
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
    shared.store.create_session(&password::token_hash(&token), &email, expires_at, at)?;
    let cookie =
        format!("{SESSION_COOKIE}={token}; HttpOnly; Secure; SameSite=Strict; Path=/; Max-Age={ttl}");
    let mut response = json_response(&json!({"email": email, "expiresAt": expires_at}));
    if let Ok(value) = HeaderValue::from_str(&cookie) {
        response.headers_mut().insert(SET_COOKIE, value);
    }
    Ok(response)
}

async fn sign_out(State(app): State<App>, headers: HeaderMap) -> ApiResult {
    check_origin(&app.shared, &headers)?;
    owner(&app.shared, &headers)?;
    if let Some(token) = session_token(&headers) {
        app.shared.store.delete_session(&password::token_hash(&token))?;
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

async fn me(State(app): State<App>, headers: HeaderMap) -> ApiResult {
    let owner = owner(&app.shared, &headers)?;
    Ok(json_response(&json!({"email": owner, "projects": owned_names(&app.shared, &owner)})))
}

async fn projects(State(app): State<App>, headers: HeaderMap) -> ApiResult {
    let shared = &app.shared;
    let owner = owner(shared, &headers)?;
    let mut list = Vec::new();
    for name in owned_names(shared, &owner) {
        let project = owned_project(shared, &owner, &name)?;
        let rows = shared.store.domains_of(&name)?;
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

fn certificate_view(
    shared: &Shared,
    dashboard: &Dashboard,
    row: &DomainRow,
    at: u64,
) -> Result<Value, StoreError> {
    let caa = RecordSet(row.blocking_caa.clone());
    Ok(match dashboard.certificate(&row.name, at, &caa) {
        CertificateStatus::NotRequested => json!({"status": "not_requested"}),
        CertificateStatus::Issuing { expected_at } => json!({"status": "issuing", "expectedAt": expected_at}),
        CertificateStatus::BlockedByCaa { records } => {
            json!({"status": "blocked_by_caa", "records": records})
        }
        CertificateStatus::Overdue { verified_at, blocking_caa, steps } => json!({
            "status": "overdue", "verifiedAt": verified_at, "blockingCaa": blocking_caa, "steps": steps,
        }),
        CertificateStatus::Issued { at } => {
            let not_after = shared.store.certificate(&row.name)?.map(|c| c.not_after);
            json!({"status": "issued", "at": at, "notAfter": not_after})
        }
    })
}

fn domain_view(
    shared: &Shared,
    dashboard: &Dashboard,
    row: &DomainRow,
    at: u64,
) -> Result<Value, StoreError> {
    let (added_at, verified_at, live_at) = match row.state {
        DomainState::None => (None, None, None),
        DomainState::Added { added_at } => (Some(added_at), None, None),
        DomainState::Verified { added_at, verified_at } => (Some(added_at), Some(verified_at), None),
        DomainState::Reverifying { added_at, verified_at, live_at }
        | DomainState::Live { added_at, verified_at, live_at } => {
            (Some(added_at), Some(verified_at), Some(live_at))
        }
    };
    let published = dashboard.published_address();
    Ok(json!({
        "name": row.name,
        "state": row.state.label(),
        "serves": row.state.serves(),
        "addedAt": added_at,
        "verifiedAt": verified_at,
        "liveAt": live_at,
        "role": row.role,
        "primary": row.state.serves() && published == row.name,
        "instruction": instructions(&row.name, &shared.config.cname_target),
        "propagationNote": matches!(row.state, DomainState::Added { .. }).then(|| propagation_note(added_at.unwrap_or(at), at)),
        "lastCheck": row.check.as_ref().map(|c| json!({"ok": c.ok, "message": c.message, "at": c.at})),
        "certificate": certificate_view(shared, dashboard, row, at)?,
        "issueError": row.issue_error.as_ref().map(|(m, t)| json!({"message": m, "at": t})),
        "removalWarning": dashboard.removal_warning(&row.name).map(|w| json!({"message": w.message, "redirectTo": w.redirect_to})),
    }))
}

fn project_view(shared: &Shared, project: &ProjectRow) -> Result<Value, StoreError> {
    let rows = shared.store.domains_of(&project.name)?;
    let dashboard = shared.dashboard(project, &rows);
    let at = now();
    let domains =
        rows.iter().map(|r| domain_view(shared, &dashboard, r, at)).collect::<Result<Vec<_>, _>>()?;
    let troubleshooting: Vec<Value> = dashboard
        .troubleshooting(at)
        .into_iter()
        .map(|t| {
            let mut applies = t.applies_to;
            // What really happened: failed checks, the authority's errors, CAA.
            for r in &rows {
                match t.symptom {
                    petstore_domains::Symptom::VerificationFails => {
                        if let Some(c) = r.check.as_ref().filter(|c| !c.ok) {
                            applies.push(format!("{}: {}", r.name, c.message));
                        }
                    }
                    petstore_domains::Symptom::NoCertificate => {
                        if let Some((m, _)) = &r.issue_error {
                            applies.push(format!("{}: the certificate authority answered: {m}", r.name));
                        }
                        if !r.blocking_caa.is_empty() {
                            let list: Vec<String> = r.blocking_caa.iter().map(ToString::to_string).collect();
                            applies.push(format!(
                                "{}: CAA records forbid {}: {}",
                                r.name,
                                shared.config.acme.ca_identifier,
                                list.join("; ")
                            ));
                        }
                    }
                    _ => {}
                }
            }
            json!({"symptom": t.symptom.key(), "title": t.symptom.title(), "answer": t.answer, "appliesTo": applies})
        })
        .collect();
    Ok(json!({
        "project": project.name,
        "plan": project.plan,
        "customDomains": project.plan.allows_custom_domains(),
        "deployed": dashboard.settings.deploy_succeeded,
        "defaultAddress": dashboard.default_address(),
        "publishedAddress": dashboard.published_address(),
        "cnameTarget": shared.config.cname_target,
        "apexAddresses": shared.config.apex_addresses,
        "certificateAuthority": shared.config.acme.ca_identifier,
        "domains": domains,
        "alsoServed": dashboard.also_served(),
        "config": dashboard.config(),
        "troubleshooting": troubleshooting,
    }))
}

async fn list_domains(
    State(app): State<App>,
    headers: HeaderMap,
    path: Result<Path<String>, PathRejection>,
) -> ApiResult {
    let name = path_params(path)?;
    let owner = owner(&app.shared, &headers)?;
    let project = owned_project(&app.shared, &owner, &name)?;
    Ok(json_response(&project_view(&app.shared, &project)?))
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

async fn one_domain(
    State(app): State<App>,
    headers: HeaderMap,
    path: Result<Path<(String, String)>, PathRejection>,
) -> ApiResult {
    let (project_name, name) = path_params(path)?;
    let shared = &app.shared;
    let owner = owner(shared, &headers)?;
    let project = owned_project(shared, &owner, &project_name)?;
    let rows = shared.store.domains_of(&project.name)?;
    let name = attached(&rows, &name)?;
    let dashboard = shared.dashboard(&project, &rows);
    let row = rows
        .iter()
        .find(|r| r.name == name)
        .ok_or_else(|| ApiError::from(Refusal::NotAttached { name: name.clone() }))?;
    Ok(json_response(&domain_view(shared, &dashboard, row, now())?))
}

/// Signed in, `Origin` checked, the owner's project.
fn changing(shared: &Shared, headers: &HeaderMap, project: &str) -> Result<ProjectRow, ApiError> {
    check_origin(shared, headers)?;
    let owner = owner(shared, headers)?;
    owned_project(shared, &owner, project)
}

/// The project as stored now, once the write lock is held (another change may have set its
/// primary since it was first read).
fn reload(shared: &Shared, project: &ProjectRow) -> Result<ProjectRow, ApiError> {
    shared.store.project(&project.name)?.ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "not_found",
            format!("You have no project named {}.", project.name),
        )
    })
}

/// Writes the dashboard's domains back, then refreshes routes and certificates: the answer
/// goes out only after both.
fn commit(
    shared: &Shared,
    project: &ProjectRow,
    dashboard: &Dashboard,
    old: &[DomainRow],
) -> Result<Vec<DomainRow>, ApiError> {
    let rows = Shared::rows_after(&project.name, dashboard, old);
    shared.store.write_project(&project.name, dashboard.primary.as_deref(), &rows, None)?;
    shared.refresh()?;
    Ok(rows)
}

fn done(shared: &Shared, project: &ProjectRow, status: StatusCode, message: String) -> ApiResult {
    let view = project_view(shared, project)?;
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
    headers: HeaderMap,
    path: Result<Path<String>, PathRejection>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let project_name = path_params(path)?;
    let shared = &app.shared;
    let project = changing(shared, &headers, &project_name)?;
    plan_allows(&project)?;
    let input: AddDomain = json_body(&headers, body)?;
    if input.name.chars().count() > MAX_NAME_INPUT {
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_name",
            "The name is longer than any domain name.",
        ));
    }
    let _write = shared.write.lock().await;
    let project = reload(shared, &project)?;
    if let Ok(name) = normalize_host(&input.name, &to_ascii)
        && let Some(other) = shared.store.domain_project(&name)?
        && other != project.name
    {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "attached_elsewhere",
            format!("{name} is already attached to another project; remove it there first."),
        ));
    }
    let rows = shared.store.domains_of(&project.name)?;
    let mut dashboard = shared.dashboard(&project, &rows);
    let instruction = dashboard.add(&input.name, now(), &to_ascii)?;
    commit(shared, &project, &dashboard, &rows)?;
    let event = Event::Added { name: instruction.domain.clone(), kind: instruction.kind };
    done(shared, &project, StatusCode::CREATED, event.to_string())
}

async fn verify(
    State(app): State<App>,
    headers: HeaderMap,
    path: Result<Path<(String, String)>, PathRejection>,
) -> ApiResult {
    check_dns(app.shared, headers, path, false).await
}

async fn reverify(
    State(app): State<App>,
    headers: HeaderMap,
    path: Result<Path<(String, String)>, PathRejection>,
) -> ApiResult {
    check_dns(app.shared, headers, path, true).await
}

async fn ask<T>(what: &str, future: impl Future<Output = Result<T, String>>) -> Result<T, String> {
    match tokio::time::timeout(DNS_TIME, future).await {
        Ok(result) => result.map_err(|e| format!("The DNS lookup of {what} failed: {e}")),
        Err(_) => Err(format!("The DNS lookup of {what} took longer than {} seconds.", DNS_TIME.as_secs())),
    }
}

async fn check_dns(
    shared: Arc<Shared>,
    headers: HeaderMap,
    path: Result<Path<(String, String)>, PathRejection>,
    again: bool,
) -> ApiResult {
    let (project_name, name) = path_params(path)?;
    let project = changing(&shared, &headers, &project_name)?;
    plan_allows(&project)?;
    let name = attached(&shared.store.domains_of(&project.name)?, &name)?;
    // DNS first, outside the write lock: a slow resolver holds up no other change.
    let records = ask(&name, shared.services.verifier.records(&name)).await;
    let caa = ask(&name, shared.services.verifier.caa(&name)).await;
    let _write = shared.write.lock().await;
    let project = reload(&shared, &project)?;
    let rows = shared.store.domains_of(&project.name)?;
    let name = attached(&rows, &name)?;
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
            shared.store.write_project(&project.name, project.primary.as_deref(), &rows, None)?;
            return Err(ApiError::new(StatusCode::BAD_GATEWAY, "dns_failed", message));
        }
    };
    let view = shared.verification_view(records);
    let result =
        if again { dashboard.reverify(&name, at, &view) } else { dashboard.verify(&name, at, &view) };
    match result {
        Ok(state) => {
            let blocking = match &caa {
                Ok(set) => caa_blocking(&name, &shared.config.acme.ca_identifier, set),
                Err(_) => Vec::new(),
            };
            let event = if matches!(state, DomainState::Reverifying { .. }) {
                Event::Reverified { name: name.clone() }
            } else {
                Event::Verified { name: name.clone(), again: again && was != DomainState::None, live: false }
            };
            let mut rows = Shared::rows_after(&project.name, &dashboard, &rows);
            if let Some(r) = rows.iter_mut().find(|r| r.name == name) {
                r.check = Some(Check { ok: true, message: event.to_string(), at });
                r.blocking_caa = blocking.clone();
                r.issue_error = None;
            }
            shared.store.write_project(&project.name, dashboard.primary.as_deref(), &rows, None)?;
            shared.refresh()?;
            if blocking.is_empty() {
                let _ = shared.issue_queue.send(name);
            }
            done(&shared, &project, StatusCode::OK, event.to_string())
        }
        Err(refusal @ Refusal::VerificationFailed { .. }) => {
            let mut rows = rows;
            if let Some(r) = rows.iter_mut().find(|r| r.name == name) {
                r.check = Some(Check { ok: false, message: refusal.to_string(), at });
            }
            shared.store.write_project(&project.name, project.primary.as_deref(), &rows, None)?;
            Err(refusal.into())
        }
        Err(refusal) => Err(refusal.into()),
    }
}

async fn remove_domain(
    State(app): State<App>,
    headers: HeaderMap,
    path: Result<Path<(String, String)>, PathRejection>,
) -> ApiResult {
    let (project_name, name) = path_params(path)?;
    let shared = &app.shared;
    let project = changing(shared, &headers, &project_name)?;
    let _write = shared.write.lock().await;
    let project = reload(shared, &project)?;
    let rows = shared.store.domains_of(&project.name)?;
    let name = attached(&rows, &name)?;
    let mut dashboard = shared.dashboard(&project, &rows);
    let was_live = dashboard.domain(&name).is_some_and(|d| d.state.serves());
    dashboard.remove(&name, now())?;
    commit(shared, &project, &dashboard, &rows)?;
    let event = Event::Removed { name, was_live, published: dashboard.published_address() };
    done(shared, &project, StatusCode::OK, event.to_string())
}

async fn set_primary(
    State(app): State<App>,
    headers: HeaderMap,
    path: Result<Path<(String, String)>, PathRejection>,
) -> ApiResult {
    let (project_name, name) = path_params(path)?;
    let shared = &app.shared;
    let project = changing(shared, &headers, &project_name)?;
    plan_allows(&project)?;
    let _write = shared.write.lock().await;
    let project = reload(shared, &project)?;
    let rows = shared.store.domains_of(&project.name)?;
    let name = attached(&rows, &name)?;
    let mut dashboard = shared.dashboard(&project, &rows);
    dashboard.set_primary(&name)?;
    commit(shared, &project, &dashboard, &rows)?;
    let project = owned_project(shared, &project.owner, &project.name)?;
    done(shared, &project, StatusCode::OK, Event::MadePrimary { name }.to_string())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SetRole {
    role: DomainRole,
}

async fn set_role(
    State(app): State<App>,
    headers: HeaderMap,
    path: Result<Path<(String, String)>, PathRejection>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let (project_name, name) = path_params(path)?;
    let shared = &app.shared;
    let project = changing(shared, &headers, &project_name)?;
    plan_allows(&project)?;
    let input: SetRole = json_body(&headers, body)?;
    let _write = shared.write.lock().await;
    let project = reload(shared, &project)?;
    let rows = shared.store.domains_of(&project.name)?;
    let name = attached(&rows, &name)?;
    let mut dashboard = shared.dashboard(&project, &rows);
    dashboard.set_role(&name, input.role)?;
    commit(shared, &project, &dashboard, &rows)?;
    let event = Event::RoleChanged { name, role: input.role, primary: dashboard.published_address() };
    done(shared, &project, StatusCode::OK, event.to_string())
}

async fn export_config(
    State(app): State<App>,
    headers: HeaderMap,
    path: Result<Path<String>, PathRejection>,
) -> ApiResult {
    let project_name = path_params(path)?;
    let owner = owner(&app.shared, &headers)?;
    let project = owned_project(&app.shared, &owner, &project_name)?;
    let rows = app.shared.store.domains_of(&project.name)?;
    let config = app.shared.dashboard(&project, &rows).config();
    Ok(json_response(&serde_json::to_value(config).unwrap_or(Value::Null)))
}

async fn put_config(
    State(app): State<App>,
    headers: HeaderMap,
    path: Result<Path<String>, PathRejection>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let project_name = path_params(path)?;
    let shared = &app.shared;
    let project = changing(shared, &headers, &project_name)?;
    plan_allows(&project)?;
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
    let project = reload(shared, &project)?;
    let rows = shared.store.domains_of(&project.name)?;
    let mut dashboard = shared.dashboard(&project, &rows);
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
    commit(shared, &project, &dashboard, &rows)?;
    let project = owned_project(shared, &project.owner, &project.name)?;
    done(shared, &project, StatusCode::OK, format!("The domain configuration of {} is saved.", project.name))
}
