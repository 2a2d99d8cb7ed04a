//! Who may ask: the session cookie, its owner, the `Origin` of a change, the owner's projects
//! and the plan.

use axum::http::header::{COOKIE, ORIGIN};
use axum::http::{HeaderMap, StatusCode};
use playground_domains::Refusal;

use super::answer::ApiError;
use crate::password;
use crate::request::host_name;
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
pub(super) fn owner(shared: &Shared, headers: &HeaderMap) -> Result<String, ApiError> {
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
pub(super) fn owned_project(shared: &Shared, owner: &str, name: &str) -> Result<ProjectRow, ApiError> {
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

pub(super) fn plan_allows(project: &ProjectRow) -> Result<(), ApiError> {
    if project.plan.allows_custom_domains() {
        Ok(())
    } else {
        Err(Refusal::PlanRequired { plan: project.plan }.into())
    }
}
