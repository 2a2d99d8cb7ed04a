//! Requests to the host's API: same-origin, the session cookie sent (`credentials:
//! "same-origin"`), JSON both ways, never cached, with a timeout. The host's CSRF rule asks for
//! an `Origin` header naming it on every change; the browser adds it itself to same-origin
//! `POST`, `PUT` and `DELETE` requests (and a page cannot forge it), so nothing else is sent.

use std::time::Duration;

use playground_domains::hosted::{error_text, needs_sign_in, unreachable_text};
use serde::de::DeserializeOwned;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

/// How long one request may take: Verify waits for two DNS lookups of up to 15 seconds each.
pub const HOST_TIMEOUT: Duration = Duration::from_secs(45);

/// Why a request did not give what was asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// The sentence to show.
    pub message: String,
    /// The HTTP status, if the host answered.
    pub status: Option<u16>,
    /// The host's error code (such as `session_expired`), if it sent its error JSON.
    pub code: Option<String>,
    /// Whether the owner must sign in (again): the session is missing or expired.
    pub sign_in: bool,
}

impl Failure {
    fn unanswered(message: String) -> Failure {
        Failure { message, status: None, code: None, sign_in: false }
    }
}

/// An HTTP method the page uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// Reads.
    Get,
    /// Sign-in and actions.
    Post,
    /// The role of a domain.
    Put,
    /// Sign-out and Remove.
    Delete,
}

impl Method {
    fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Post => "POST",
            Method::Put => "PUT",
            Method::Delete => "DELETE",
        }
    }
}

/// The answer's status, body and `Retry-After`.
struct Answer {
    status: u16,
    body: String,
    retry_after: Option<String>,
}

/// Sends `method path` with the JSON `body`, and reads a 2xx answer's JSON as `T` (a `204`
/// reads `null`).
///
/// # Errors
/// The host's refusal in words (its `{code, message}`), a 401 marked [`Failure::sign_in`], an
/// answer that is not the JSON expected, or no answer (offline, timeout).
pub async fn call<T: DeserializeOwned>(
    method: Method,
    path: &str,
    body: Option<&serde_json::Value>,
) -> Result<T, Failure> {
    let answer = send(method, path, body).await?;
    if !(200..300).contains(&answer.status) {
        let code =
            serde_json::from_str::<playground_domains::hosted::ApiError>(&answer.body).ok().map(|e| e.code);
        return Err(Failure {
            message: error_text(answer.status, &answer.body, answer.retry_after.as_deref()),
            status: Some(answer.status),
            sign_in: needs_sign_in(answer.status, code.as_deref()),
            code,
        });
    }
    let text = if answer.body.trim().is_empty() { "null" } else { answer.body.as_str() };
    serde_json::from_str(text).map_err(|e| Failure {
        message: format!("The host's answer could not be read ({e}); reload the page."),
        status: Some(answer.status),
        code: None,
        sign_in: false,
    })
}

async fn send(method: Method, path: &str, body: Option<&serde_json::Value>) -> Result<Answer, Failure> {
    let failed = |detail: &str| Failure::unanswered(unreachable_text(detail));
    let window = web_sys::window().ok_or_else(|| failed("no window"))?;
    if crate::browser::is_offline() {
        return Err(failed("you are offline"));
    }
    let controller = web_sys::AbortController::new().map_err(|_| failed(""))?;
    let init = web_sys::RequestInit::new();
    init.set_method(method.as_str());
    init.set_credentials(web_sys::RequestCredentials::SameOrigin);
    init.set_cache(web_sys::RequestCache::NoStore);
    init.set_signal(Some(&controller.signal()));
    let headers = web_sys::Headers::new().map_err(|_| failed(""))?;
    headers.set("Accept", "application/json").map_err(|_| failed(""))?;
    if let Some(body) = body {
        headers.set("Content-Type", "application/json").map_err(|_| failed(""))?;
        init.set_body(&JsValue::from_str(&body.to_string()));
    }
    init.set_headers(&headers);
    let request = web_sys::Request::new_with_str_and_init(path, &init).map_err(|_| failed(""))?;

    let abort = controller.clone();
    let on_timeout = Closure::once(move || abort.abort());
    let millis = i32::try_from(HOST_TIMEOUT.as_millis()).unwrap_or(i32::MAX);
    let timer = window
        .set_timeout_with_callback_and_timeout_and_arguments_0(on_timeout.as_ref().unchecked_ref(), millis)
        .ok();
    let result = read(&window, &request, &controller).await;
    if let Some(id) = timer {
        window.clear_timeout_with_handle(id);
    }
    drop(on_timeout);
    result
}

async fn read(
    window: &web_sys::Window,
    request: &web_sys::Request,
    controller: &web_sys::AbortController,
) -> Result<Answer, Failure> {
    let failed = |detail: &str| Failure::unanswered(unreachable_text(detail));
    let timed_out =
        || failed(&format!("no answer within {} seconds; nothing may have changed", HOST_TIMEOUT.as_secs()));
    let response: web_sys::Response = match JsFuture::from(window.fetch_with_request(request)).await {
        Ok(value) => value.unchecked_into(),
        Err(_) if controller.signal().aborted() => return Err(timed_out()),
        Err(_) => return Err(failed("")),
    };
    let status = response.status();
    let retry_after = response.headers().get("Retry-After").ok().flatten();
    let text = response.text().map_err(|_| failed(""))?;
    let body = JsFuture::from(text)
        .await
        .map_err(|_| if controller.signal().aborted() { timed_out() } else { failed("") })?
        .as_string()
        .unwrap_or_default();
    Ok(Answer { status, body, retry_after })
}
