//! The answers of each operation for as long as the page is open: the page's list, the shown
//! answer, and the "Recent" list to go back to an earlier one.

use std::collections::HashMap;

use leptos::prelude::*;
use petstore_reference::html::escape;
use wasm_bindgen::JsCast;

use crate::transport::{Exchange, FileKind, Outcome};

/// Answers kept per operation.
const HISTORY_LEN: usize = 5;

/// An exchange as the history keeps it: `id` tells the shown one apart, also when the view of
/// another replaces it in place.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// Unique for this page's life.
    pub id: u64,
    /// The request and what it got.
    pub exchange: Exchange,
}

/// The last answers of every operation, newest first. `Copy`: the page keeps one for every
/// panel it shows ([`crate::page::shared`]).
#[derive(Debug, Clone, Copy)]
pub struct History {
    entries: RwSignal<HashMap<String, Vec<Entry>>>,
    next_id: StoredValue<u64>,
}

impl Default for History {
    fn default() -> Self {
        Self::new()
    }
}

impl History {
    /// An empty history.
    #[must_use]
    pub fn new() -> Self {
        Self { entries: RwSignal::new(HashMap::new()), next_id: StoredValue::new(1) }
    }

    /// The answers of `operation`, newest first.
    #[must_use]
    pub fn of(&self, operation: String) -> Memo<Vec<Entry>> {
        let entries = self.entries;
        Memo::new(move |_| entries.with(|all| all.get(&operation).cloned().unwrap_or_default()))
    }

    /// Files `exchange` first among the answers of `operation`; returns its id.
    pub fn record(&self, operation: &str, exchange: Exchange) -> u64 {
        let id = self.next_id.get_value();
        self.next_id.set_value(id + 1);
        self.entries.update(|all| {
            let list = all.entry(operation.to_owned()).or_default();
            list.insert(0, Entry { id, exchange });
            // An answer that drops out lets its body go (the object URL of a file answer).
            for gone in list.drain(HISTORY_LEN.min(list.len())..) {
                if let Outcome::Answer { file: Some(file), .. } = gone.exchange.outcome {
                    let _ = web_sys::Url::revoke_object_url(&file.url);
                }
            }
        });
        id
    }
}

/// The answer shown and the "Recent" list as written, so the next write changes only what
/// differs.
#[derive(Debug, Default)]
pub struct Written {
    answer: AnswerHtml,
    rows: Rows,
}

impl Written {
    /// Makes `answer` show the entry of `list` that is `shown`, and `recent` the "Recent" list:
    /// one button per answer, which shows it; nothing until there are two.
    pub fn write(
        &mut self,
        answer: &web_sys::Element,
        recent: &web_sys::Element,
        list: &[Entry],
        shown: Option<u64>,
    ) {
        list.iter()
            .find(|e| Some(e.id) == shown)
            .map(exchange_html)
            .unwrap_or_default()
            .write(answer, &mut self.answer);
        self.rows.write(recent, list, shown);
    }
}

/// The answer a click in the "Recent" list asks for.
pub fn picked(ev: &leptos::ev::MouseEvent) -> Option<u64> {
    ev.target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .and_then(|t| t.closest("[data-entry]").ok().flatten())
        .and_then(|b| b.get_attribute("data-entry"))
        .and_then(|id| id.parse().ok())
}

/// What the "Recent" list shows: its newest row and the row marked as shown. A new answer adds
/// its row and drops the oldest; the other rows stay.
///
/// The slot is written only here, so the list element and its rows, with what each shows, are
/// kept from one write to the next rather than looked up or read back: only what differs is
/// written.
#[derive(Debug, Default)]
struct Rows {
    newest: Option<u64>,
    /// The `<ul>` written, and its rows in order.
    list: Option<web_sys::Element>,
    rows: Vec<Row>,
}

/// A row of the "Recent" list (`<li>` of [`row_html`]) and what it shows.
#[derive(Debug)]
struct Row {
    id: u64,
    element: web_sys::Element,
    texts: [String; 3],
    pressed: bool,
}

impl Row {
    /// Makes this row (moved, or a copy of another) the row of `entry`.
    fn fill(&mut self, entry: &Entry) {
        let Some(button) = self.element.first_element_child() else { return };
        self.id = entry.id;
        let _ = button.set_attribute("data-entry", &entry.id.to_string());
        let spans = button.children();
        for ((i, text), old) in (0..).zip(row_texts(entry)).zip(&mut self.texts) {
            if text != *old {
                if let Some(span) = spans.item(i) {
                    span.set_text_content(Some(&text));
                }
                *old = text;
            }
        }
    }

    fn press(&mut self, pressed: bool) {
        if self.pressed != pressed {
            if let Some(button) = self.element.first_element_child() {
                let _ = button.set_attribute("aria-pressed", if pressed { "true" } else { "false" });
            }
            self.pressed = pressed;
        }
    }
}

impl Rows {
    /// Makes `slot` show `list` with `shown` marked. An operation's answers are only ever added
    /// in front, so rows written up to the second of `list` need only its newest.
    fn write(&mut self, slot: &web_sys::Element, list: &[Entry], shown: Option<u64>) {
        match (self.list.clone(), list) {
            (Some(ul), [newest, second, ..])
                if self.newest == Some(second.id) || self.newest == Some(newest.id) =>
            {
                if self.newest != Some(newest.id) {
                    // The newest row: the oldest moved to the front when the list is full,
                    // else a copy of the first; then filled in (no HTML to parse).
                    let row = if self.rows.len() >= list.len() {
                        self.rows.pop()
                    } else {
                        self.rows.first().and_then(|first| {
                            let element = first.element.clone_node_with_deep(true).ok()?.unchecked_into();
                            Some(Row {
                                id: first.id,
                                element,
                                texts: first.texts.clone(),
                                pressed: first.pressed,
                            })
                        })
                    };
                    if let Some(mut row) = row {
                        let _ = ul.prepend_with_node_1(&row.element);
                        row.fill(newest);
                        self.rows.insert(0, row);
                    }
                }
                for row in &mut self.rows {
                    row.press(shown == Some(row.id));
                }
            }
            _ => {
                slot.set_inner_html(&history_html(list, shown));
                self.list = slot.query_selector("ul").ok().flatten();
                let elements = self.list.as_ref().map(web_sys::Element::children);
                self.rows = list
                    .iter()
                    .zip(0..)
                    .filter_map(|(entry, i)| {
                        let element = elements.as_ref()?.item(i)?;
                        Some(Row {
                            id: entry.id,
                            element,
                            texts: row_texts(entry),
                            pressed: shown == Some(entry.id),
                        })
                    })
                    .collect();
            }
        }
        self.newest = list.first().map(|e| e.id);
    }
}

fn history_html(list: &[Entry], shown: Option<u64>) -> String {
    if list.len() < 2 {
        return String::new();
    }
    let mut out = String::from(r#"<div class="try-history" data-testid="try-history"><h4>Recent</h4><ul>"#);
    for entry in list {
        out.push_str(&row_html(entry, shown));
    }
    out.push_str("</ul></div>");
    out
}

/// What the row of `entry` in the "Recent" list says of it.
fn row_texts(Entry { exchange: e, .. }: &Entry) -> [String; 3] {
    let status = match &e.outcome {
        Outcome::Answer { status, .. } => status.to_string(),
        Outcome::Failure(_) => "failed".to_owned(),
    };
    [e.at.clone(), status, format!("{} {}", e.method, e.url)]
}

/// The row of `entry` in the "Recent" list, pressed when it is the one shown.
fn row_html(entry: &Entry, shown: Option<u64>) -> String {
    let [at, status, request] = row_texts(entry);
    format!(
        r#"<li><button type="button" class="history-entry" data-entry="{}" aria-pressed="{}"><span class="history-time">{}</span> <span class="history-status">{status}</span> <span class="history-url">{}</span></button></li>"#,
        entry.id,
        shown == Some(entry.id),
        escape(&at),
        escape(&request),
    )
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
struct AnswerHtml {
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
    fn write(mut self, slot: &web_sys::Element, written: &mut Self) {
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
    fn html(&self) -> String {
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
const HEADERS_PART: u32 = 4;

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
fn exchange_html(entry: &Entry) -> AnswerHtml {
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

/// A size in bytes, KB or MB, in words.
fn size_text(bytes: f64) -> String {
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

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use petstore_tryit_core::ErrorSummary;

    use super::*;
    use crate::transport::BodyFile;

    fn exchange(url: &str, outcome: Outcome) -> Exchange {
        Exchange {
            at: "12:00:01".to_owned(),
            method: "GET".to_owned(),
            url: url.to_owned(),
            target: "In-browser mock".to_owned(),
            millis: 1.25,
            outcome,
        }
    }

    fn ok(body: &str) -> Outcome {
        Outcome::Answer {
            status: 200,
            status_text: "OK".to_owned(),
            headers: vec![("Content-Type".to_owned(), "application/json".to_owned())],
            body: body.to_owned(),
            error: None,
            file: None,
        }
    }

    fn urls(entries: &[Entry]) -> Vec<&str> {
        entries.iter().map(|e| e.exchange.url.as_str()).collect()
    }

    #[test]
    fn answers_are_filed_newest_first_per_operation() {
        let owner = Owner::new();
        owner.with(|| {
            let history = History::new();
            let (pets, orders) = (history.of("listPets".to_owned()), history.of("getOrder".to_owned()));
            assert!(pets.get_untracked().is_empty());
            let first = history.record("listPets", exchange("/pets?limit=1", ok("[]")));
            let other = history.record("getOrder", exchange("/orders/1", ok("{}")));
            let second = history.record("listPets", exchange("/pets?limit=2", ok("[]")));
            assert!(first < other && other < second, "ids grow: {first} {other} {second}");
            assert_eq!(urls(&pets.get_untracked()), ["/pets?limit=2", "/pets?limit=1"]);
            assert_eq!(pets.get_untracked().iter().map(|e| e.id).collect::<Vec<_>>(), [second, first]);
            assert_eq!(urls(&orders.get_untracked()), ["/orders/1"]);
            // A view of the same operation made later sees what was filed before it.
            assert_eq!(history.of("listPets".to_owned()).get_untracked().len(), 2);
        });
    }

    #[test]
    fn each_operation_keeps_its_last_five_answers() {
        let owner = Owner::new();
        owner.with(|| {
            let history = History::new();
            let ids: Vec<u64> =
                (1..=7).map(|n| history.record("op", exchange(&format!("/items/{n}"), ok("{}")))).collect();
            let kept = history.of("op".to_owned()).get_untracked();
            assert_eq!(kept.len(), HISTORY_LEN);
            assert_eq!(urls(&kept), ["/items/7", "/items/6", "/items/5", "/items/4", "/items/3"]);
            assert_eq!(kept.first().map(|e| e.id), ids.last().copied());
        });
    }

    const HOSTILE: &str = r#"<img src=x onerror="alert(1)">"#;
    const ESCAPED: &str = "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;";

    #[test]
    fn the_recent_list_shows_document_values_as_text() {
        let entries: Vec<Entry> = [3, 2]
            .into_iter()
            .map(|id| Entry { id, exchange: exchange(&format!("/pets/{HOSTILE}"), ok("")) })
            .collect();
        let html = history_html(&entries, Some(2));
        assert!(!html.contains("<img"), "{html}");
        assert!(html.contains(&format!("GET /pets/{ESCAPED}")), "{html}");
        assert!(
            html.starts_with(r#"<div class="try-history" data-testid="try-history"><h4>Recent</h4><ul>"#)
        );
        assert_eq!(html.matches("<li>").count(), 2);
        assert!(html.contains(r#"data-entry="3" aria-pressed="false""#), "{html}");
        assert!(html.contains(r#"data-entry="2" aria-pressed="true""#), "{html}");
        // One answer is shown on its own, with no list.
        assert_eq!(history_html(&entries[..1], Some(3)), "");
        assert_eq!(
            row_texts(&entries[0]),
            ["12:00:01".to_owned(), "200".to_owned(), format!("GET /pets/{HOSTILE}")]
        );
    }

    #[test]
    fn an_answer_shows_document_values_as_text() {
        let answer = Outcome::Answer {
            status: 418,
            status_text: HOSTILE.to_owned(),
            headers: vec![(HOSTILE.to_owned(), HOSTILE.to_owned())],
            body: HOSTILE.to_owned(),
            error: Some(ErrorSummary { code: Some(HOSTILE.to_owned()), message: HOSTILE.to_owned() }),
            file: Some(BodyFile {
                url: format!("blob:{HOSTILE}"),
                size: 2048.0,
                media_type: HOSTILE.to_owned(),
                name: HOSTILE.to_owned(),
                kind: FileKind::Image,
            }),
        };
        let entry = Entry { id: 9, exchange: exchange(&format!("/teapot/{HOSTILE}"), answer) };
        let html = exchange_html(&entry).html();
        assert!(!html.contains("<img src=x"), "{html}");
        assert!(!html.contains("onerror=\""), "{html}");
        // Status text, meta line, error code and message, header, file and body: each escaped.
        assert!(html.matches(ESCAPED).count() >= 10, "{html}");
        assert!(html.contains(&format!(
            r#"<span class="status status-error" data-testid="try-status">418 {ESCAPED}</span>"#
        )));
        assert!(html.contains(&format!("<strong>Error {ESCAPED}</strong>: {ESCAPED}")), "{html}");
        assert!(html.contains(&format!("<li><code>{ESCAPED}</code>: {ESCAPED}</li>")), "{html}");
        assert!(html.contains(&format!(r#"<code data-text>{ESCAPED}</code>"#)), "{html}");
        assert!(html.contains("GET /teapot/&lt;img"), "{html}");
        assert!(html.contains("2.0 KB"), "{html}");

        let failed = Entry { id: 10, exchange: exchange("/x", Outcome::Failure(HOSTILE.to_owned())) };
        let html = exchange_html(&failed).html();
        assert!(!html.contains("<img"), "{html}");
        assert!(html.contains(&format!("<p data-text>{ESCAPED}</p>")), "{html}");
        assert!(html.starts_with(r#"<div class="try-failure" role="alert" data-testid="try-failure">"#));
    }

    #[test]
    fn an_answer_says_its_status_time_and_size() {
        let mut slow = exchange("/pets", ok(r#"{"id": 1}"#));
        slow.millis = 12.34;
        let html = exchange_html(&Entry { id: 1, exchange: slow }).html();
        assert!(html.contains("GET /pets · In-browser mock · 12 ms · 12:00:01"), "{html}");
        assert!(html.contains(r#"<span class="status status-ok" data-testid="try-status">200 OK</span>"#));
        assert!(html.contains("Headers (1)"));
        let quick = exchange_html(&Entry { id: 2, exchange: exchange("/pets", ok("")) }).html();
        assert!(quick.contains("· 1.3 ms ·"), "{quick}");
        assert_eq!(size_text(512.0), "512 bytes");
        assert_eq!(size_text(1536.0), "1.5 KB");
        assert_eq!(size_text(3.0 * 1024.0 * 1024.0), "3.0 MB");
    }
}
