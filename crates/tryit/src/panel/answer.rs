//! An answer as the panel shows it: its markup (a success or a failure, in pieces with the parts
//! between them), written into its slot so that showing another answer of the same markup
//! rewrites only the parts that differ.

use playground_reference::html::escape;
use wasm_bindgen::JsCast;

use crate::transport::{Exchange, FileKind, Outcome};

/// An exchange as the history keeps it: `id` tells the shown one apart, also when the view of
/// another replaces it in place.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// Unique for this page's life.
    pub id: u64,
    /// The request and what it got.
    pub exchange: Exchange,
}

/// The markup of a failure: the parts go between its pieces (see [`AnswerHtml`]).
static FAILURE: &[&str] = &[
    r#"<div class="try-failure" role="alert" data-testid="try-failure"><p class="try-meta" data-text>"#,
    "</p><p data-text>",
    "</p></div>",
];

/// The markup of an answer. The error, a file body's link (or image) and the body's text are
/// parts of their own, empty when the answer has none; the text is written as text (a new
/// pet's JSON differs from the last one's by its id, and no HTML need be parsed for it), and
/// its `<pre>` is not shown while empty.
static ANSWER: &[&str] = &[
    r#"<div class="try-answer" data-testid="try-answer"><p class="try-status"><span data-part>"#,
    r#"</span><span class="try-meta" data-text>"#,
    r#"</span></p><div data-part>"#,
    r#"</div><div data-part>"#,
    r#"</div><details class="try-headers"><summary data-text>"#,
    r#"</summary><ul class="header-list" data-testid="try-response-headers" data-part>"#,
    r#"</ul></details><div data-part>"#,
    r#"</div><pre class="example try-body" data-testid="try-body-view"><code data-text>"#,
    "</code></pre></div>",
];

/// An answer as its markup and the parts that go in it: what the elements marked `data-part`
/// hold. Showing an answer in place of another of the same markup rewrites only the parts
/// that differ (the meta line, mostly): the elements stay, and so does a Headers list the
/// reader opened.
#[derive(Debug, Default)]
pub(super) struct AnswerHtml {
    markup: &'static [&'static str],
    parts: Vec<String>,
    /// An answer's headers (their list is part [`HEADERS_PART`]).
    headers: Vec<(String, String)>,
    id: u64,
    status: Option<u16>,
    /// Once written: the answer's root element and the elements that hold its parts (the slot
    /// is written only here, so they are kept rather than looked up again).
    elements: Option<(web_sys::Element, Vec<web_sys::Element>)>,
}

impl AnswerHtml {
    /// Makes `slot`, which shows `written`, show this answer; this answer is then `written`.
    pub(super) fn write(mut self, slot: &web_sys::Element, written: &mut Self) {
        // The markups are statics: one address each.
        let same = std::ptr::eq(self.markup, written.markup);
        let kept = match written
            .elements
            .take()
            .filter(|(_, elements)| same && elements.len() == self.parts.len())
        {
            Some((root, elements)) => {
                for ((i, element), (part, old)) in
                    (0..).zip(&elements).zip(self.parts.iter().zip(&written.parts))
                {
                    if part != old {
                        if i == HEADERS_PART && set_header_values(element, &self.headers, &written.headers) {
                            continue;
                        }
                        if is_text(self.markup, i) {
                            element.set_text_content(Some(part));
                        } else {
                            element.set_inner_html(part);
                        }
                    }
                }
                self.elements = Some((root, elements));
                true
            }
            None => {
                slot.set_inner_html(&self.html());
                self.elements = slot.first_element_child().map(|root| {
                    let found = root.query_selector_all("[data-part],[data-text]").ok();
                    let elements = found.map_or_else(Vec::new, |list| {
                        (0..list.length()).filter_map(|i| list.item(i)?.dyn_into().ok()).collect()
                    });
                    (root, elements)
                });
                false
            }
        };
        if let Some((root, _)) = &self.elements {
            let _ = root.set_attribute("data-exchange", &self.id.to_string());
            // A root written anew has no status yet; a kept one has the last answer's.
            if let Some(status) = self.status.filter(|s| !kept || written.status != Some(*s)) {
                let _ = root.set_attribute("data-status", &status.to_string());
            }
        }
        *written = self;
    }

    /// The whole markup with its parts, the text parts escaped.
    pub(super) fn html(&self) -> String {
        let mut html = String::new();
        for (i, piece) in (0..).zip(self.markup) {
            html.push_str(piece);
            match self.parts.get(i as usize) {
                Some(text) if is_text(self.markup, i) => html.push_str(&escape(text)),
                Some(part) => html.push_str(part),
                None => {}
            }
        }
        html
    }
}

/// The part of [`ANSWER`] that lists the headers.
const HEADERS_PART: u32 = 5;

/// Writes the values of `headers` over those of `shown` in `list` (one `<li>` per header,
/// `": "` and its value the last text), when both have the same names in the same order: a created
/// record's answer differs from the one before by its `Location`, and no HTML is parsed for
/// it. `false` when the names differ.
fn set_header_values(
    list: &web_sys::Element,
    headers: &[(String, String)],
    shown: &[(String, String)],
) -> bool {
    let items = list.children();
    let same_names = headers.len() == shown.len()
        && items.length() as usize == headers.len()
        && headers.iter().zip(shown).all(|((name, _), (old, _))| name == old);
    if !same_names {
        return false;
    }
    for ((k, (_, value)), (_, old)) in (0..).zip(headers).zip(shown) {
        if value != old {
            match items.item(k).and_then(|item| item.last_child()) {
                Some(text) => text.set_node_value(Some(&format!(": {value}"))),
                None => return false,
            }
        }
    }
    true
}

/// Whether part `i` of `markup` is text (its element is marked `data-text`), not HTML.
fn is_text(markup: &[&str], i: u32) -> bool {
    markup.get(i as usize).is_some_and(|piece| piece.ends_with("data-text>"))
}

/// One answer: status, where it went, how long it took, headers and body; or why there was
/// none.
pub(super) fn exchange_html(entry: &Entry) -> AnswerHtml {
    let Entry { id, exchange: e } = entry;
    // Whole tenths of a millisecond, formatted as integers (no float formatting in the app).
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // a short duration
    let tenths = (e.millis * 10.0).round().max(0.0) as u64;
    let millis = if tenths < 100 {
        format!("{}.{} ms", tenths / 10, tenths % 10)
    } else {
        format!("{} ms", (tenths + 5) / 10)
    };
    let meta = format!("{} {} · {} · {millis} · {}", e.method, e.url, e.target, e.at);
    let (markup, parts, status) = match &e.outcome {
        Outcome::Failure(message) => (FAILURE, vec![meta, message.clone()], None),
        Outcome::Answer { status, status_text, headers, body, error, file } => {
            let class = if *status >= 400 { "status-error" } else { "status-ok" };
            let error = error.as_ref().map_or_else(String::new, |error| {
                let code = error.code.as_ref().map_or_else(|| "Error".to_owned(), |c| format!("Error {c}"));
                format!(
                    r#"<p class="try-error" data-testid="try-error"><strong>{}</strong>: {}</p>"#,
                    escape(&code),
                    escape(&error.message)
                )
            });
            let headers_html = headers
                .iter()
                .map(|(name, value)| format!("<li><code>{}</code>: {}</li>", escape(name), escape(value)))
                .collect();
            let file_html = match file {
                None => String::new(),
                Some(file) => {
                    let link = format!(
                        r#"<a href="{}" download="{}" data-testid="try-body-download">Download {}</a>"#,
                        escape(&file.url),
                        escape(&file.name),
                        escape(&file.name)
                    );
                    let what = format!(
                        "{}, {}",
                        if file.media_type.is_empty() { "no type" } else { &file.media_type },
                        size_text(file.size)
                    );
                    match file.kind {
                        FileKind::Image => format!(
                            r#"<p class="hint" data-testid="try-body-file">{} · {link}</p><img class="try-image" data-testid="try-body-image" src="{}" alt="The answer's image ({})">"#,
                            escape(&what),
                            escape(&file.url),
                            escape(&what)
                        ),
                        FileKind::Binary => format!(
                            r#"<p class="try-file" data-testid="try-body-file">A binary answer: {}. {link}</p>"#,
                            escape(&what)
                        ),
                        FileKind::Truncated => format!(
                            r#"<p class="hint" data-testid="try-body-truncated">The answer is {}: the first {} are shown. {link}</p>"#,
                            escape(&what),
                            size_text(crate::transport::SHOWN_START)
                        ),
                    }
                }
            };
            let status_html = format!(
                r#"<span class="status {class}" data-testid="try-status">{status} {}</span>"#,
                escape(status_text)
            );
            (
                ANSWER,
                vec![
                    status_html,
                    meta,
                    error,
                    drift_html(e, *id),
                    format!("Headers ({})", headers.len()),
                    headers_html,
                    file_html,
                    body.clone(),
                ],
                Some(*status),
            )
        }
    };
    let headers = match &e.outcome {
        Outcome::Answer { headers, .. } => headers.clone(),
        Outcome::Failure(_) => Vec::new(),
    };
    AnswerHtml { markup, parts, headers, id: *id, status, elements: None }
}

/// How a real server's answer compares with the description, and "Keep in the mock" (a button
/// that names the answer it keeps, `data-keep`) or what it kept; empty for the mock's answers.
fn drift_html(e: &crate::transport::Exchange, id: u64) -> String {
    use crate::transport::Drift;
    let Some(drift) = &e.drift else { return String::new() };
    let mut html = match drift {
        Drift::Matches => r#"<p class="hint try-drift" data-testid="try-drift" data-state="matches">✓ The answer matches the description.</p>"#.to_owned(),
        Drift::Pending => r#"<p class="hint try-drift" data-testid="try-drift" data-state="pending">Checking the answer against the description…</p>"#.to_owned(),
        Drift::NotChecked(why) => format!(
            r#"<p class="hint try-drift" data-testid="try-drift" data-state="unchecked">Not checked against the description: {}</p>"#,
            escape(why)
        ),
        Drift::Mismatches(found) => {
            let items: String = found
                .iter()
                .map(|m| match m.pointer.as_str() {
                    "" => format!(r#"<li data-kind="{}">{}</li>"#, escape(m.kind.as_str()), escape(&m.rule)),
                    at => format!(
                        r#"<li data-kind="{}"><code>{}</code>: {}</li>"#,
                        escape(m.kind.as_str()),
                        escape(at),
                        escape(&m.rule)
                    ),
                })
                .collect();
            let count = found.len();
            format!(
                r#"<div class="try-drift try-drift-off" data-testid="try-drift" data-state="mismatches" role="note"><p><strong>Does not match the description</strong> ({count} {}):</p><ul>{items}</ul></div>"#,
                if count == 1 { "mismatch" } else { "mismatches" }
            )
        }
    };
    let success = matches!(e.outcome, Outcome::Answer { status, .. } if (200..300).contains(&status));
    match &e.kept {
        Some(Ok(what)) => {
            html.push_str(&format!(
                r#"<p class="hint" data-testid="try-kept">Kept in the mock: {}</p>"#,
                escape(what)
            ));
        }
        Some(Err(why)) => {
            html.push_str(&format!(
                r#"<p class="try-error" role="alert" data-testid="try-kept-failed">Not kept in the mock: {}</p>"#,
                escape(why)
            ));
        }
        None if success && e.sent.is_some() => {
            html.push_str(&format!(
                r#"<p class="try-keep"><button type="button" class="button" data-testid="try-keep" data-keep="{id}">Keep in the mock</button> <span class="hint">Its items become records of the in-browser mock, served offline and exported with it.</span></p>"#
            ));
        }
        None => {}
    }
    html
}

/// A size in bytes, KB or MB, in words.
pub(super) fn size_text(bytes: f64) -> String {
    // Whole tenths, formatted as integers (no float formatting in the module).
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // sizes are small
    let tenths = |unit: f64| (bytes / unit * 10.0).round().max(0.0) as u64;
    if bytes < 1024.0 {
        format!("{} bytes", tenths(1.0) / 10)
    } else if bytes < 1024.0 * 1024.0 {
        let t = tenths(1024.0);
        format!("{}.{} KB", t / 10, t % 10)
    } else {
        let t = tenths(1024.0 * 1024.0);
        format!("{}.{} MB", t / 10, t % 10)
    }
}
