//! DNS-over-HTTPS from the page: fetches the JSON API answers for a list of questions (with a
//! timeout) and collects them into a [`RecordSet`] the core's sync `Resolver` can read.

use std::time::Duration;

use playground_domains::{DnsRecord, RecordKind, RecordSet, doh};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

/// How long one DNS-over-HTTPS request may take before it is given up.
pub const DOH_TIMEOUT: Duration = Duration::from_secs(5);

/// One DNS-over-HTTPS question: `GET {resolver}?name=..&type=..` and its parsed answer.
/// NXDOMAIN counts as no records (the name may not exist yet).
///
/// # Errors
/// A sentence for the owner: offline, unreachable (or no CORS), timeout, an HTTP error, or the
/// resolver's DNS status.
pub async fn query(resolver: &str, name: &str, kind: RecordKind) -> Result<Vec<DnsRecord>, String> {
    let url = doh::query_url(resolver, name, kind);
    let body = fetch_text(resolver, &url).await?;
    match doh::parse_answer(&body) {
        Ok(records) => Ok(records),
        Err(e) if e.is_not_found() => Ok(Vec::new()),
        Err(e) => Err(e.to_string()),
    }
}

/// Asks every question in turn and collects all the answers.
///
/// # Errors
/// The first question that could not be answered (see [`query`]).
pub async fn collect(resolver: &str, questions: &[(String, RecordKind)]) -> Result<RecordSet, String> {
    let mut records: Vec<DnsRecord> = Vec::new();
    for (name, kind) in questions {
        for record in query(resolver, name, *kind).await? {
            if !records.contains(&record) {
                records.push(record);
            }
        }
    }
    Ok(RecordSet(records))
}

fn unreachable_message(resolver: &str) -> String {
    if crate::browser::is_offline() {
        format!(
            "You are offline, so the DNS-over-HTTPS resolver {resolver} cannot be reached. Switch the resolver to the simulated zone in Settings to continue offline, or try again once you are connected."
        )
    } else {
        format!(
            "The DNS-over-HTTPS resolver {resolver} could not be reached: you may be offline, the address may be wrong, or it does not accept requests from this page (CORS). Nothing was changed; check the resolver URL in Settings or use the simulated zone."
        )
    }
}

async fn fetch_text(resolver: &str, url: &str) -> Result<String, String> {
    let window = web_sys::window().ok_or("There is no window to fetch from.")?;
    if crate::browser::is_offline() {
        return Err(unreachable_message(resolver));
    }
    let controller = web_sys::AbortController::new().map_err(|_| unreachable_message(resolver))?;
    let init = web_sys::RequestInit::new();
    init.set_method("GET");
    init.set_signal(Some(&controller.signal()));
    let headers = web_sys::Headers::new().map_err(|_| unreachable_message(resolver))?;
    headers.set("Accept", doh::DOH_ACCEPT).map_err(|_| unreachable_message(resolver))?;
    init.set_headers(&headers);
    let request = web_sys::Request::new_with_str_and_init(url, &init)
        .map_err(|_| format!("{resolver} is not a URL the browser can fetch; check it in Settings."))?;

    let abort = controller.clone();
    let on_timeout = Closure::once(move || abort.abort());
    let millis = i32::try_from(DOH_TIMEOUT.as_millis()).unwrap_or(i32::MAX);
    let timer = window
        .set_timeout_with_callback_and_timeout_and_arguments_0(on_timeout.as_ref().unchecked_ref(), millis)
        .ok();

    let result = read(resolver, &window, &request, &controller).await;
    if let Some(id) = timer {
        window.clear_timeout_with_handle(id);
    }
    drop(on_timeout);
    result
}

async fn read(
    resolver: &str,
    window: &web_sys::Window,
    request: &web_sys::Request,
    controller: &web_sys::AbortController,
) -> Result<String, String> {
    let timed_out = || {
        format!(
            "The DNS-over-HTTPS resolver {resolver} did not answer within {} seconds. Nothing was changed; try again, or use the simulated zone.",
            DOH_TIMEOUT.as_secs()
        )
    };
    let response: web_sys::Response = match JsFuture::from(window.fetch_with_request(request)).await {
        Ok(value) => value.unchecked_into(),
        Err(_) if controller.signal().aborted() => return Err(timed_out()),
        Err(_) => return Err(unreachable_message(resolver)),
    };
    if !response.ok() {
        return Err(format!(
            "The DNS-over-HTTPS resolver {resolver} answered with HTTP status {}; it may not serve the JSON API (application/dns-json). Nothing was changed.",
            response.status()
        ));
    }
    let text = response.text().map_err(|_| unreachable_message(resolver))?;
    let text = JsFuture::from(text).await.map_err(|_| {
        if controller.signal().aborted() { timed_out() } else { unreachable_message(resolver) }
    })?;
    text.as_string()
        .ok_or_else(|| format!("The DNS-over-HTTPS resolver {resolver} sent an answer that is not text."))
}
