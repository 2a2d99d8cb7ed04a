//! Who may ask: the session cookie, its owner, the `Origin` of a change, the owner's projects
//! and the plan. Handlers take [`SignedIn`], [`OwnedProject`] or [`OwnedDomain`], which make
//! these checks before the handler runs and answer an [`ApiError`] when one fails.

use std::marker::PhantomData;

use axum::extract::{FromRequestParts, Path};
use axum::http::header::{COOKIE, ORIGIN};
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode};
use playground_domains::Refusal;

use super::answer::{ApiError, path_params};
use crate::password;
use crate::request::{App, host_name};
use crate::store::ProjectRow;
use crate::{Shared, now};

/// The session cookie's name.
pub const SESSION_COOKIE: &str = "host_session";

pub(super) fn check_origin(shared: &Shared, headers: &HeaderMap) -> Result<(), ApiError> {
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

pub(super) fn session_token(headers: &HeaderMap) -> Option<String> {
    headers.get_all(COOKIE).iter().filter_map(|v| v.to_str().ok()).flat_map(|v| v.split(';')).find_map(
        |pair| {
            let (name, value) = pair.trim().split_once('=')?;
            (name == SESSION_COOKIE && value.len() == 64 && value.bytes().all(|b| b.is_ascii_hexdigit()))
                .then(|| value.to_owned())
        },
    )
}

/// The signed-in owner, or 401.
async fn owner(shared: &Shared, headers: &HeaderMap) -> Result<String, ApiError> {
    let unauthenticated = || ApiError::new(StatusCode::UNAUTHORIZED, "unauthenticated", "Sign in first.");
    let token = session_token(headers).ok_or_else(unauthenticated)?;
    let hash = password::token_hash(&token);
    let (owner, expires_at) = shared.store.session(&hash).await?.ok_or_else(unauthenticated)?;
    if expires_at <= now() {
        shared.store.delete_session(&hash).await?;
        return Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "session_expired",
            "Your session has expired; sign in again.",
        ));
    }
    Ok(owner)
}

/// The project `name` if `owner` owns it; 404 otherwise (another's project is not revealed).
pub(super) async fn owned_project(shared: &Shared, owner: &str, name: &str) -> Result<ProjectRow, ApiError> {
    let not_found =
        || ApiError::new(StatusCode::NOT_FOUND, "not_found", format!("You have no project named {name}."));
    if name.len() > 63 || shared.config.project(name).is_none() {
        return Err(not_found());
    }
    match shared.store.project(name).await? {
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

/// What a route checks before its handler runs, after reading its path (400), in this order:
/// the `Origin` of a change (403), the session (401), the project (404), the plan (403).
pub(super) trait Access: Send + Sync + 'static {
    /// The route changes state, so `Origin` must name the admin host.
    const CHANGES: bool;
    /// The project's plan must allow custom domains.
    const NEEDS_PLAN: bool;
}

/// A read: the session only.
#[derive(Debug)]
pub(super) enum Read {}

/// A change that any plan may make (sign-out, removing a domain).
#[derive(Debug)]
pub(super) enum Change {}

/// A change to custom domains, which the plan must allow.
#[derive(Debug)]
pub(super) enum CustomDomainChange {}

impl Access for Read {
    const CHANGES: bool = false;
    const NEEDS_PLAN: bool = false;
}

impl Access for Change {
    const CHANGES: bool = true;
    const NEEDS_PLAN: bool = false;
}

impl Access for CustomDomainChange {
    const CHANGES: bool = true;
    const NEEDS_PLAN: bool = true;
}

/// The signed-in owner; for a change, `Origin` is checked first. A plan belongs to a project,
/// so here it is not checked.
#[derive(Debug)]
pub(super) struct SignedIn<A: Access = Read> {
    pub(super) owner: String,
    access: PhantomData<A>,
}

/// The signed-in owner's project named by a `/projects/{project}` path.
#[derive(Debug)]
pub(super) struct OwnedProject<A: Access = Read> {
    pub(super) project: ProjectRow,
    access: PhantomData<A>,
}

/// The signed-in owner's project and the domain name of a `/projects/{project}/{name}` path,
/// as typed (the handler checks that the domain is attached).
#[derive(Debug)]
pub(super) struct OwnedDomain<A: Access = Read> {
    pub(super) project: ProjectRow,
    pub(super) name: String,
    access: PhantomData<A>,
}

impl<A: Access> FromRequestParts<App> for SignedIn<A> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &App) -> Result<Self, ApiError> {
        if A::CHANGES {
            check_origin(&app.shared, &parts.headers)?;
        }
        let owner = owner(&app.shared, &parts.headers).await?;
        Ok(SignedIn { owner, access: PhantomData })
    }
}

/// The project `name` of a path already read: signed in as `A` asks, the owner's, and on a
/// plan that allows custom domains when `A` needs it.
async fn open<A: Access>(parts: &mut Parts, app: &App, name: &str) -> Result<ProjectRow, ApiError> {
    let SignedIn { owner, .. } = SignedIn::<A>::from_request_parts(parts, app).await?;
    let project = owned_project(&app.shared, &owner, name).await?;
    if A::NEEDS_PLAN {
        plan_allows(&project)?;
    }
    Ok(project)
}

impl<A: Access> FromRequestParts<App> for OwnedProject<A> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &App) -> Result<Self, ApiError> {
        let name: String = path_params(Path::from_request_parts(parts, app).await)?;
        let project = open::<A>(parts, app, &name).await?;
        Ok(OwnedProject { project, access: PhantomData })
    }
}

impl<A: Access> FromRequestParts<App> for OwnedDomain<A> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &App) -> Result<Self, ApiError> {
        let (project_name, name): (String, String) = path_params(Path::from_request_parts(parts, app).await)?;
        let project = open::<A>(parts, app, &project_name).await?;
        Ok(OwnedDomain { project, name, access: PhantomData })
    }
}
