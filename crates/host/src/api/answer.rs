//! The API's answers: the error object `{code, message, status}`, JSON answers, and reading a
//! request's JSON body and path, bounded.

use axum::body::Bytes;
use axum::extract::Path;
use axum::extract::rejection::{BytesRejection, PathRejection};
use axum::http::header::{CONTENT_TYPE, RETRY_AFTER};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use playground_domains::Refusal;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use crate::store::StoreError;

/// Largest request body (16 KiB).
pub const MAX_BODY: usize = 16 * 1024;

/// An error answer.
#[derive(Debug)]
pub(crate) struct ApiError {
    pub(super) status: StatusCode,
    pub(super) code: &'static str,
    pub(super) message: String,
    pub(super) retry_after: Option<u64>,
}

impl ApiError {
    pub(super) fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError { status, code, message: message.into(), retry_after: None }
    }
}

/// The code of a change overtaken by another writer.
pub(super) const CHANGED_MEANWHILE: &str = "changed_meanwhile";

/// `Retry-After` when the state database is out of reach.
const STATE_RETRY_SECS: u64 = 2;

impl From<StoreError> for ApiError {
    fn from(error: StoreError) -> ApiError {
        eprintln!("playground host: {error}");
        if let StoreError::Conflict { project } = &error {
            return ApiError::new(
                StatusCode::CONFLICT,
                CHANGED_MEANWHILE,
                format!(
                    "The project {project} was changed elsewhere while this change was made; nothing was changed. Reload and try again."
                ),
            );
        }
        if let StoreError::Taken { name, .. } = &error {
            // The same answer as when the name was already another project's when asked.
            return ApiError::new(
                StatusCode::CONFLICT,
                "attached_elsewhere",
                format!("{name} is already attached to another project; remove it there first."),
            );
        }
        if error.is_unavailable() {
            let mut answer = ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "state_unavailable",
                "The host cannot reach its state database just now; nothing was changed. Try again in a few seconds.",
            );
            answer.retry_after = Some(STATE_RETRY_SECS);
            return answer;
        }
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
            Refusal::InvalidName(playground_domains::NameError::AlreadyAttached { .. }) => {
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

pub(super) fn json_response(value: &Value) -> Response {
    let body = serde_json::to_vec(value).unwrap_or_default();
    ([(CONTENT_TYPE, HeaderValue::from_static("application/json"))], body).into_response()
}

pub(super) type ApiResult = Result<Response, ApiError>;

pub(super) fn json_body<T: DeserializeOwned>(
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

pub(super) fn path_params<T>(path: Result<Path<T>, PathRejection>) -> Result<T, ApiError> {
    path.map(|Path(p)| p).map_err(|e| {
        ApiError::new(StatusCode::BAD_REQUEST, "bad_request", format!("The path is not valid: {e}."))
    })
}
