//! The answers of each operation for as long as the page is open: the page's list, the shown
//! answer, and the "Recent" list to go back to an earlier one.

use std::collections::HashMap;

use leptos::prelude::*;
use playground_reference::html::escape;
use wasm_bindgen::JsCast;

pub use super::answer::Entry;
use super::answer::{AnswerHtml, exchange_html};
use crate::transport::{Exchange, Outcome};

/// Answers kept per operation.
const HISTORY_LEN: usize = 5;

/// The last answers of every operation, newest first. `Copy`: the page keeps one for every
/// panel it shows ([`crate::page::shared`]).
#[derive(Debug, Clone, Copy)]
pub struct History {
    entries: RwSignal<HashMap<String, Vec<Entry>>>,
    next_id: StoredValue<u64>,
    /// The Record switch: every answer of a real server is kept in the in-browser mock, for
    /// the page's life.
    pub record: RwSignal<bool>,
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
        Self {
            entries: RwSignal::new(HashMap::new()),
            next_id: StoredValue::new(1),
            record: RwSignal::new(false),
        }
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

    /// Whether the Record switch is on.
    #[must_use]
    pub fn recording(&self) -> bool {
        self.record.get_untracked()
    }

    /// Changes the answer `id` of `operation` with `change`, if it is still kept.
    pub fn update(&self, operation: &str, id: u64, change: impl FnOnce(&mut Exchange)) {
        self.entries.update(|all| {
            if let Some(entry) = all.get_mut(operation).and_then(|list| list.iter_mut().find(|e| e.id == id))
            {
                change(&mut entry.exchange);
            }
        });
    }

    /// The answer `id` of `operation`, if it is still kept.
    #[must_use]
    pub fn entry(&self, operation: &str, id: u64) -> Option<Exchange> {
        self.entries
            .with_untracked(|all| all.get(operation)?.iter().find(|e| e.id == id).map(|e| e.exchange.clone()))
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
    let status = match (&e.outcome, &e.drift) {
        (Outcome::Answer { status, .. }, Some(crate::transport::Drift::Mismatches(found))) => {
            let count = found.len();
            format!("{status} ≠ {count} {}", if count == 1 { "mismatch" } else { "mismatches" })
        }
        (Outcome::Answer { status, .. }, _) => status.to_string(),
        (Outcome::Failure(_), _) => "failed".to_owned(),
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

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use playground_tryit_core::ErrorSummary;

    use super::*;
    use crate::panel::answer::size_text;
    use crate::transport::{BodyFile, FileKind};

    fn exchange(url: &str, outcome: Outcome) -> Exchange {
        Exchange {
            at: "12:00:01".to_owned(),
            method: "GET".to_owned(),
            url: url.to_owned(),
            target: "In-browser mock".to_owned(),
            millis: 1.25,
            outcome,
            drift: None,
            sent: None,
            kept: None,
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
