//! Sends a core [`Request`] to the in-browser mock or over the network (the browser's `fetch`)
//! and says what came back: the status, headers, body and time, or why there is no readable
//! answer, in words a reader can act on. No view: the try-it panel renders what it returns.

use std::cell::Cell;
use std::rc::Rc;
use std::time::Duration;

use leptos::prelude::set_timeout_with_handle;
use playground_http::Request;
use playground_http::reason_phrase;
use playground_tryit_core::{ErrorSummary, Reachability, error_summary, explain_failure};
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use crate::message_of;
use crate::mock::MockLink;

/// A request that gets no answer after this long is stopped.
pub const TIMEOUT: Duration = Duration::from_secs(30);

/// How long the second, CORS-free request that explains a failure may take.
const PROBE_TIMEOUT: Duration = Duration::from_secs(5);

/// Where a request goes.
#[derive(Debug, Clone)]
pub enum Destination {
    /// The in-browser mock; `None` when the page has none.
    Mock(Option<MockLink>),
    /// The network, at the address in the request's target. `credentialed`: the request
    /// carries the reader's credentials, so a redirect is not followed (it could lead them to
    /// another address).
    Network {
        /// See above.
        credentialed: bool,
    },
}

/// What a sent request got.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// An answer that could be read.
    Answer {
        /// HTTP status.
        status: u16,
        /// The server's status text, or the standard reason phrase.
        status_text: String,
        /// Header names and values, as received.
        headers: Vec<(String, String)>,
        /// The body as text; pretty-printed when it is JSON; the start of it when it is
        /// large; empty when it is not text.
        body: String,
        /// The error object in the body, if any.
        error: Option<ErrorSummary>,
        /// The whole body as a file, when it is not shown whole as text: an image, another
        /// binary, or text too large to show.
        file: Option<BodyFile>,
    },
    /// No readable answer: why, and what to do about it.
    Failure(String),
}

/// An answer's body kept by the browser (a `Blob`), offered through an object URL.
#[derive(Debug, Clone, PartialEq)]
pub struct BodyFile {
    /// The object URL of the body.
    pub url: String,
    /// Its size in bytes.
    pub size: f64,
    /// Its media type (`Content-Type` without parameters).
    pub media_type: String,
    /// The file name it is saved under (`Content-Disposition`'s, else one made up).
    pub name: String,
    /// How the page shows it.
    pub kind: FileKind,
}

/// How an answer's body that is not shown whole as text is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// An image, shown.
    Image,
    /// Text too large to show: its start is shown, the whole offered as a download.
    Truncated,
    /// Anything else: offered as a download with its size and type.
    Binary,
}

/// Text answers up to this size are shown whole (and JSON pretty-printed).
pub const SHOWN_WHOLE: f64 = 1024.0 * 1024.0;
/// Of a larger text answer, this much is shown.
pub const SHOWN_START: f64 = 256.0 * 1024.0;

/// One request and what it got.
#[derive(Debug, Clone, PartialEq)]
pub struct Exchange {
    /// When it was sent, `hh:mm:ss` on the reader's clock.
    pub at: String,
    /// The method.
    pub method: String,
    /// The URL, or the path for the mock.
    pub url: String,
    /// Where it went, in words: `In-browser mock` or the server's origin.
    pub target: String,
    /// How long until the answer, in milliseconds.
    pub millis: f64,
    /// The answer, or why there is none.
    pub outcome: Outcome,
    /// For an answer from a real server: how it compares with the description.
    pub drift: Option<Drift>,
    /// For an answer from a real server: the request as sent, to keep its answer in the mock
    /// ("Keep in the mock"); held in this page only, never shown (it carries the credentials).
    pub sent: Option<Request>,
    /// What "Keep in the mock" (or the Record switch) did with the answer: what was kept, or
    /// why nothing was.
    pub kept: Option<Result<String, String>>,
}

/// How a real server's answer compares with the operation's description (the mock's drift
/// check: the one schema checker, read for answers).
#[derive(Debug, Clone, PartialEq)]
pub enum Drift {
    /// As the description says.
    Matches,
    /// Where it departs from the description (and where the request did).
    Mismatches(Vec<crate::mock::Mismatch>),
    /// It could not be checked (why, in a sentence).
    NotChecked(String),
    /// The page's mock of the description is still starting: checked once it has.
    Pending,
}

/// Stops a request in flight: Cancel, the timeout, or its view going away.
#[derive(Debug, Clone)]
pub struct Abort {
    controller: Option<web_sys::AbortController>,
    timed_out: Rc<Cell<bool>>,
}

impl Default for Abort {
    fn default() -> Self {
        Self::new()
    }
}

impl Abort {
    /// A handle for one request.
    #[must_use]
    pub fn new() -> Self {
        Self { controller: web_sys::AbortController::new().ok(), timed_out: Rc::default() }
    }

    /// Stops the request (it ends as "Cancelled.").
    pub fn abort(&self) {
        if let Some(controller) = &self.controller {
            controller.abort();
        }
    }

    fn time_out(&self) {
        self.timed_out.set(true);
        self.abort();
    }

    fn signal(&self) -> Option<web_sys::AbortSignal> {
        self.controller.as_ref().map(web_sys::AbortController::signal)
    }

    fn aborted(&self) -> bool {
        self.signal().is_some_and(|s| s.aborted())
    }
}

/// Sends `request` to `destination` and waits for the outcome; `abort` stops it, as does
/// [`TIMEOUT`].
pub async fn send(request: &Request, destination: Destination, abort: &Abort) -> Exchange {
    let credentialed = match destination {
        Destination::Mock(mock) => return ask(request, mock.as_ref()),
        Destination::Network { credentialed } => credentialed,
    };
    let at = clock();
    let started = now_ms();
    let timer = {
        let abort = abort.clone();
        set_timeout_with_handle(move || abort.time_out(), TIMEOUT).ok()
    };
    let outcome = over_network(request, abort, credentialed).await;
    if let Some(timer) = timer {
        timer.clear();
    }
    Exchange::of(request, at, started, origin_of(&request.target), outcome)
}

/// Sends `request` to the in-browser mock (`None` when the page has none), which answers at
/// once: nothing to wait for, cancel or time out.
#[must_use]
pub fn ask(request: &Request, mock: Option<&MockLink>) -> Exchange {
    let at = clock();
    let started = now_ms();
    let outcome = ask_mock(mock, request);
    Exchange::of(request, at, started, "In-browser mock".to_owned(), outcome)
}

/// An exchange that never went out: `request` could not be made, for `reason`.
#[must_use]
pub fn failed(request: &Request, reason: String) -> Exchange {
    Exchange::of(request, clock(), now_ms(), origin_of(&request.target), Outcome::Failure(reason))
}

impl Exchange {
    /// `request`, sent at `at` (clock) and `started` (`now_ms`), to `target`, and what it got.
    fn of(request: &Request, at: String, started: f64, target: String, outcome: Outcome) -> Self {
        Self {
            at,
            method: request.method.clone(),
            url: request.target.clone(),
            target,
            millis: now_ms() - started,
            outcome,
            drift: None,
            sent: None,
            kept: None,
        }
    }
}

/// The URL `url` names, resolved against this page when it is relative.
#[must_use]
pub fn absolute(url: &str) -> Option<web_sys::Url> {
    let base = web_sys::window()?.document()?.base_uri().ok().flatten()?;
    web_sys::Url::new_with_base(url, &base).ok()
}

fn origin_of(url: &str) -> String {
    absolute(url).map_or_else(|| url.to_owned(), |u| u.origin())
}

fn page_origin() -> String {
    web_sys::window().and_then(|w| w.location().origin().ok()).unwrap_or_default()
}

fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

fn clock() -> String {
    let date = js_sys::Date::new_0();
    format!("{:02}:{:02}:{:02}", date.get_hours(), date.get_minutes(), date.get_seconds())
}

fn answer(status: u16, status_text: String, headers: Vec<(String, String)>, body: &str) -> Outcome {
    let json = serde_json::from_str::<serde_json::Value>(body).ok();
    let error = json.as_ref().and_then(|v| error_summary(status, v));
    let body = json.and_then(|v| serde_json::to_string_pretty(&v).ok()).unwrap_or_else(|| body.to_owned());
    let status_text = if status_text.is_empty() { reason_phrase(status).to_owned() } else { status_text };
    Outcome::Answer { status, status_text, headers, body, error, file: None }
}

/// The mock's answer, at once.
fn ask_mock(mock: Option<&MockLink>, request: &Request) -> Outcome {
    let Some(mock) = mock else {
        return Outcome::Failure("The in-browser mock is not available on this page.".to_owned());
    };
    match mock.answer(request) {
        Ok(response) => {
            answer(response.status, String::new(), response.headers, &String::from_utf8_lossy(&response.body))
        }
        Err(message) => Outcome::Failure(message),
    }
}

async fn over_network(request: &Request, abort: &Abort, credentialed: bool) -> Outcome {
    let sent = match outgoing(request, abort, credentialed) {
        Ok(sent) => sent,
        Err(reason) => return Outcome::Failure(reason),
    };
    let Some(window) = web_sys::window() else {
        return Outcome::Failure("There is no window to send from.".to_owned());
    };
    let answered = JsFuture::from(window.fetch_with_request(&sent)).await;
    let response = match answered.and_then(|r| r.dyn_into::<web_sys::Response>()) {
        Ok(response) => response,
        Err(_) if abort.timed_out.get() => {
            return Outcome::Failure(format!(
                "No answer within {} seconds, so the request was stopped.",
                TIMEOUT.as_secs()
            ));
        }
        Err(_) if abort.aborted() => return Outcome::Failure("Cancelled.".to_owned()),
        Err(_) => {
            let target = origin_of(&request.target);
            return Outcome::Failure(explain_failure(&target, &page_origin(), reachable(&target).await));
        }
    };
    if response.type_() == web_sys::ResponseType::Opaqueredirect {
        return Outcome::Failure(
            "The server answered with a redirect, which was not followed: the request carries your \
             credentials, and they go only to the address you chose. Send the request to the address \
             it redirects to, if you trust it."
                .to_owned(),
        );
    }
    received(&response).await
}

/// The browser's request for `request`, stopped by `abort`; with `credentialed`, a redirect is
/// not followed. Why not, when the browser refuses it.
fn outgoing(request: &Request, abort: &Abort, credentialed: bool) -> Result<web_sys::Request, String> {
    let init = web_sys::RequestInit::new();
    init.set_method(&request.method);
    let headers = web_sys::Headers::new().map_err(|_| "The browser refused the headers.".to_owned())?;
    for (name, value) in &request.headers {
        // A page cannot write the Cookie header: the browser sends its own cookies instead.
        if name.eq_ignore_ascii_case("cookie") {
            set_cookies(&request.target, value)?;
            init.set_credentials(web_sys::RequestCredentials::Include);
            continue;
        }
        headers
            .append(name, value)
            .map_err(|e| format!("The header {name} cannot be sent: {}.", message_of(&e)))?;
    }
    init.set_headers(&headers);
    if credentialed {
        init.set_redirect(web_sys::RequestRedirect::Manual);
    }
    if !request.body.is_empty() {
        // Bytes as they are: a file or a multipart body is not text.
        init.set_body(&js_sys::Uint8Array::from(request.body.as_slice()));
    }
    init.set_signal(abort.signal().as_ref());
    web_sys::Request::new_with_str_and_init(&request.target, &init)
        .map_err(|e| format!("The request cannot be made: {}.", message_of(&e)))
}

/// What a server's `response` says: its status, headers and body, the body shown as text when
/// it is text of at most [`SHOWN_WHOLE`], else offered as a file.
async fn received(response: &web_sys::Response) -> Outcome {
    let mut headers = Vec::new();
    if let Ok(Some(entries)) = js_sys::try_iter(&response.headers()) {
        for entry in entries.flatten() {
            let pair: js_sys::Array = entry.unchecked_into();
            headers.push((
                pair.get(0).as_string().unwrap_or_default(),
                pair.get(1).as_string().unwrap_or_default(),
            ));
        }
    }
    let (status, status_text) = (response.status(), response.status_text());
    // The body stays the browser's (a Blob), not the page's memory: only text that is shown
    // crosses into the panel.
    let blob = match response.blob() {
        Ok(promise) => JsFuture::from(promise).await.ok().and_then(|b| b.dyn_into::<web_sys::Blob>().ok()),
        Err(_) => None,
    };
    let Some(blob) = blob else {
        return answer(status, status_text, headers, "");
    };
    let media_type = playground_http::find_header(&headers, "content-type")
        .map(|t| t.split(';').next().unwrap_or_default().trim().to_ascii_lowercase())
        .unwrap_or_default();
    let size = blob.size();
    let textual = is_text(&media_type);
    if textual && size <= SHOWN_WHOLE {
        let text = text_of(&blob).await;
        return answer(status, status_text, headers, &text);
    }
    let kind = match () {
        () if textual => FileKind::Truncated,
        () if media_type.starts_with("image/") => FileKind::Image,
        () => FileKind::Binary,
    };
    let shown = if kind == FileKind::Truncated {
        match blob.slice_with_f64_and_f64(0.0, SHOWN_START) {
            Ok(start) => text_of(&start).await,
            Err(_) => String::new(),
        }
    } else {
        String::new()
    };
    let name = file_name(&headers, &media_type);
    let file = web_sys::Url::create_object_url_with_blob(&blob).ok().map(|url| BodyFile {
        url,
        size,
        media_type,
        name,
        kind,
    });
    let status_text = if status_text.is_empty() { reason_phrase(status).to_owned() } else { status_text };
    Outcome::Answer { status, status_text, headers, body: shown, error: None, file }
}

/// Whether a media type is text to show (JSON, XML, YAML, text/*, forms).
fn is_text(media_type: &str) -> bool {
    media_type.is_empty()
        || media_type.starts_with("text/")
        || media_type.ends_with("json")
        || media_type.ends_with("xml")
        || media_type.ends_with("yaml")
        || media_type.ends_with("javascript")
        || media_type == "application/x-www-form-urlencoded"
}

async fn text_of(blob: &web_sys::Blob) -> String {
    JsFuture::from(blob.text()).await.ok().and_then(|t| t.as_string()).unwrap_or_default()
}

/// The name an answer's body is saved under: `Content-Disposition`'s `filename`, else
/// `answer` with an extension for its type.
fn file_name(headers: &[(String, String)], media_type: &str) -> String {
    let given = playground_http::find_header(headers, "content-disposition").and_then(|d| {
        d.split(';')
            .map(str::trim)
            .find_map(|p| p.strip_prefix("filename="))
            .map(|n| n.trim_matches('"').to_owned())
    });
    // Only a plain name: no path, nothing hidden.
    given.filter(|n| !n.is_empty() && !n.contains(['/', '\\']) && !n.starts_with('.')).unwrap_or_else(|| {
        let extension = media_type
            .rsplit(['/', '+'])
            .next()
            .filter(|e| e.len() <= 8 && e.chars().all(|c| c.is_ascii_alphanumeric()))
            .unwrap_or("bin");
        format!("answer.{extension}")
    })
}

/// Sets the cookies of a `Cookie` header (`a=1; b=2`) in this page, for the request to
/// `target` to carry: only possible when `target` is on this page's host (cookies do not tell
/// ports apart).
fn set_cookies(target: &str, cookies: &str) -> Result<(), String> {
    let page = web_sys::window().and_then(|w| w.location().hostname().ok()).unwrap_or_default();
    let host = absolute(target).map(|u| u.hostname()).unwrap_or_default();
    if host != page {
        return Err(format!(
            "This request needs a cookie, and a page can set cookies only for its own host ({page}), \
             not for {host}. Send it with a code sample instead (cURL sends the cookie as written)."
        ));
    }
    let document: web_sys::HtmlDocument = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.dyn_into().ok())
        .ok_or("There is no document to set the cookie in.")?;
    for pair in cookies.split(';').map(str::trim).filter(|p| !p.is_empty()) {
        document
            .set_cookie(&format!("{pair}; path=/; SameSite=Strict"))
            .map_err(|e| format!("The cookie cannot be set: {}.", message_of(&e)))?;
    }
    Ok(())
}

/// Whether anything answers at `origin` when CORS does not matter (an opaque request).
async fn reachable(origin: &str) -> Reachability {
    let Some(window) = web_sys::window() else { return Reachability::Unreachable };
    let probe = Abort::new();
    let stop = probe.clone();
    let _ = set_timeout_with_handle(move || stop.abort(), PROBE_TIMEOUT);
    let init = web_sys::RequestInit::new();
    init.set_mode(web_sys::RequestMode::NoCors);
    init.set_signal(probe.signal().as_ref());
    match JsFuture::from(window.fetch_with_str_and_init(&format!("{origin}/"), &init)).await {
        Ok(_) => Reachability::Answered,
        Err(_) => Reachability::Unreachable,
    }
}
