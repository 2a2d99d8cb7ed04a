//! A real server's answer against the description: checked by the page's mock of the
//! description (the mock's drift check), and kept in that mock on request ("Keep in the mock",
//! or every answer while the Record switch is on).

use leptos::prelude::*;
use playground_http::{Request, Response};

use super::history::History;
use crate::mock::MockLink;
use crate::transport::{Drift, Exchange, Outcome};

/// Checks `exchange`, the answer of a real server to `sent`, against the description, and
/// keeps it in the mock when `record` (a success only); `sent` stays with it for a later
/// "Keep in the mock".
pub(super) fn check(exchange: &mut Exchange, mock: &MockLink, sent: Request, record: bool) {
    let Some(response) = response_of(&exchange.outcome) else {
        if let Outcome::Answer { .. } = exchange.outcome {
            exchange.drift =
                Some(Drift::NotChecked("the answer is not text, or too large to check here.".to_owned()));
        }
        return;
    };
    exchange.drift = Some(match mock.check(&sent, &response) {
        Ok(found) if found.is_empty() => Drift::Matches,
        Ok(found) => Drift::Mismatches(found),
        Err(why) => Drift::NotChecked(why),
    });
    if record && (200..300).contains(&response.status) {
        exchange.kept = Some(mock.keep(&sent, &response));
    }
    exchange.sent = Some(sent);
}

/// How long an answer waits for the page's mock to start before it is said to be unchecked.
const READY_WAIT_MS: u32 = 30_000;
/// How often it looks.
const READY_POLL_MS: u32 = 100;

/// Checks the answer `id` of `operation` (sent as `sent`) once `mock` has started, as
/// [`check`] does; unchecked, with why, when it has not after [`READY_WAIT_MS`].
pub(super) async fn check_when_ready(
    history: History,
    operation: StoredValue<String>,
    id: u64,
    mock: MockLink,
    sent: Request,
) {
    let mut waited = 0;
    while !mock.ready() && waited < READY_WAIT_MS {
        sleep(READY_POLL_MS).await;
        waited += READY_POLL_MS;
    }
    let Some(operation) = operation.try_get_value() else { return };
    let record = history.recording();
    history.update(&operation, id, |exchange| {
        if mock.ready() {
            check(exchange, &mock, sent, record);
        } else {
            exchange.drift = Some(Drift::NotChecked(
                "the description's mock did not start, so the answer was not checked.".to_owned(),
            ));
        }
    });
}

/// Resolves after `ms` milliseconds.
async fn sleep(ms: u32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        if let Some(window) = web_sys::window() {
            let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(
                &resolve,
                i32::try_from(ms).unwrap_or(i32::MAX),
            );
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// Keeps the answer `id` of `operation` in the mock ("Keep in the mock"), and says what was
/// kept beside it.
pub(super) fn keep(history: History, operation: &str, id: u64, mock: &MockLink) {
    let Some(exchange) = history.entry(operation, id) else { return };
    let (Some(sent), Some(response)) = (&exchange.sent, response_of(&exchange.outcome)) else { return };
    let kept = mock.keep(sent, &response);
    history.update(operation, id, |exchange| exchange.kept = Some(kept));
}

/// The answer as the mock reads it; `None` for a failure, and for a body shown only in part
/// or not as text (a file).
fn response_of(outcome: &Outcome) -> Option<Response> {
    match outcome {
        Outcome::Answer { status, headers, body, file: None, .. } => {
            Some(Response { status: *status, headers: headers.clone(), body: body.clone().into_bytes() })
        }
        _ => None,
    }
}
