//! The operation list: groups (`Pets`, `Store`) and their child tags as heading rows, and each
//! operation's method, path, summary and markers. A virtual list: every row has the same
//! height, a spacer as tall as all rows keeps the scroll bar true, and only the rows in view
//! (plus a few either side) are in the page, so GitHub's thousand operations list at once.
//!
//! Leptos renders the frame; the rows inside the spacer are managed here, from the core's
//! `outline::row_html`: a row that stays in view keeps its element (focus stays on it while
//! Tab or scrolling moves the window), rows leaving the window are removed, rows entering it
//! are created. This keeps the initial download small (no view code per row kind) and the
//! scrolling cheap. The first window is in the page as soon as the list is mounted.

use std::collections::VecDeque;
use std::ops::Range;
use std::sync::Arc;

use leptos::html;
use leptos::prelude::*;
use playground_openapi::catalog::Group;
use playground_openapi::outline::{self, Row};
use playground_reference::html::row_html;

use playground_openapi::security::{Access, Requirements};

use crate::credentials::{Marking, access_of};
use crate::document::Arrivals;
use crate::layout::{ROW_HEIGHT, ROW_PX};

/// Rows rendered beyond each edge of the view, so scrolling and Tab find them ready.
const OVERSCAN: usize = 8;

/// The rendered rows, in order: their index in the list and their element.
type Rendered = VecDeque<(usize, web_sys::Element)>;

/// Every group of the document, in document order.
#[component]
pub fn OperationList(
    groups: Vec<Group>,
    /// The anchor of the operation shown, marked `aria-current` in the list.
    #[prop(optional, into)]
    selected: Signal<Option<String>>,
    /// When the rest of the document arrives, `regroup` gives the groups again (and the
    /// document's `security`): the rows in view that differ are made again in place, the
    /// others keep their elements (a click on one is not lost), and the list stays where it is
    /// scrolled to.
    #[prop(default = None)]
    arrivals: Option<Arrivals>,
    #[prop(optional)] regroup: Option<Callback<(), (Vec<Group>, Requirements)>>,
    /// Which operations need credentials and which have them: each row in view is marked.
    #[prop(optional)]
    marking: Option<Marking>,
) -> impl IntoView {
    let mut rows = Arc::new(outline::rows(&groups));
    let len = rows.len();
    let mut arrived = arrivals.map_or(0, |a| untrack(|| a.count()));
    let scroller = NodeRef::<html::Div>::new();
    let spacer = NodeRef::<html::Div>::new();
    // Until measured, assume the list fills the window.
    let guess =
        web_sys::window().and_then(|w| w.inner_height().ok()).and_then(|h| h.as_f64()).unwrap_or(900.0);
    let height = RwSignal::new(guess);
    // A selected row (a deep link) is in the first window: it is rendered at once where the
    // list is scrolled to in the first frame, so the rows rendered now are the ones seen then.
    let current = selected.get_untracked();
    let first_top = opening_top(&rows, current.as_deref(), guess);
    let scroll_top = RwSignal::new(first_top.unwrap_or(0.0));
    // `try_`: a measure asked for in a frame (see below) can come after the list is gone.
    let measure = move || {
        if let Some(Some(el)) = scroller.try_get_untracked() {
            scroll_top.set(f64::from(el.scroll_top()));
            height.set(f64::from(el.client_height()));
        }
    };

    // The first window, in the page at once; the effect below adopts its elements.
    let first = outline::visible_range(first_top.unwrap_or(0.0), guess, ROW_HEIGHT, len, OVERSCAN);
    let first_html: String =
        rows[first.clone()].iter().map(|row| row_html(row, current.as_deref())).collect();
    let first_style = spacer_style(len, &first);

    // One effect: a new selection scrolls its row into view (deep links, back and forward);
    // the window follows the scroll position; `aria-current` follows the selection.
    let mut rendered: Option<Rendered> = None;
    // Its `document` follows the rows (`regroup`).
    let mut marking = marking;
    Effect::new(move |previous: Option<Option<String>>| {
        let current = selected.get();
        let (top, view_height) = (scroll_top.get(), height.get());
        let now = arrivals.map_or(0, Arrivals::count);
        let (Some(list), Some(spacer)) = (scroller.get(), spacer.get()) else { return current };
        let rendered = rendered.get_or_insert_with(|| adopt(&spacer, first.start));
        if let Some(regroup) = regroup.filter(|_| now != arrived) {
            arrived = now;
            rows =
                regrouped(regroup, marking.as_mut(), (&list, &spacer), rendered, &rows, current.as_deref());
        }
        let len = rows.len();
        if previous.as_ref() != Some(&current) {
            let reveal = {
                let (rows, current) = (Arc::clone(&rows), current.clone());
                let opening = previous.is_none().then_some(first_top).flatten();
                move || {
                    scroll_to_row(&list, &rows, current.as_deref(), opening);
                    // Measured now the list is laid out (and maybe scrolled): this effect runs
                    // again.
                    measure();
                }
            };
            // Reading the layout at once would lay out the new page inside this task; at the
            // first run it is read in the next frame, laid out by then.
            if previous.is_none() { request_animation_frame(reveal) } else { reveal() }
        }
        let range = outline::visible_range(top, view_height, ROW_HEIGHT, len, OVERSCAN);
        let _ = spacer.set_attribute("style", &spacer_style(len, &range));
        sync(&spacer, rendered, &range, &rows, current.as_deref());
        if let Some(marking) = &marking {
            marking.filled.with(|filled| mark(rendered, &rows, &marking.document, filled));
        }
        current
    });
    let resize = window_event_listener(leptos::ev::resize, move |_| measure());
    on_cleanup(move || resize.remove());

    frame((scroller, spacer), len, first_style, first_html, measure)
}

/// The list's frame: the scroller, which measures itself as it scrolls, and the spacer, which
/// holds the first window's rows (`style`, `html`) until the list's effect takes them over.
fn frame(
    (scroller, spacer): (NodeRef<html::Div>, NodeRef<html::Div>),
    len: usize,
    style: String,
    html: String,
    measure: impl Fn() + 'static,
) -> impl IntoView {
    view! {
        <nav class="operation-list" aria-label="Operations" data-testid="operation-list">
            <div
                class="list-scroller"
                node_ref=scroller
                data-testid="operation-scroller"
                data-rows=len
                on:scroll=move |_| measure()
            >
                <div class="list-spacer" node_ref=spacer style=style inner_html=html></div>
            </div>
        </nav>
    }
}

/// Where the list is scrolled to in the first frame: the `current` row (a deep link) in view,
/// with the list `height` tall.
fn opening_top(rows: &[Row], current: Option<&str>, height: f64) -> Option<f64> {
    current
        .and_then(|anchor| outline::position(rows, anchor))
        .and_then(|index| outline::scroll_to_show(index, 0.0, height, ROW_HEIGHT))
}

/// Scrolls the list to `opening` (its first frame), then as little as shows the `current` row.
fn scroll_to_row(list: &web_sys::Element, rows: &[Row], current: Option<&str>, opening: Option<f64>) {
    if let Some(top) = opening {
        // Scroll offsets are whole pixels well inside i32.
        #[allow(clippy::cast_possible_truncation)]
        list.set_scroll_top(top.round() as i32);
    }
    let index = current.and_then(|a| outline::position(rows, a));
    let to = index.and_then(|i| {
        outline::scroll_to_show(i, f64::from(list.scroll_top()), f64::from(list.client_height()), ROW_HEIGHT)
    });
    if let Some(to) = to {
        // Scroll offsets are whole pixels well inside i32.
        #[allow(clippy::cast_possible_truncation)]
        list.set_scroll_top(to.round() as i32);
    }
}

/// The rows `regroup` gives, which replace `old`: `marking` follows the document's `security`,
/// the rendered rows that differ are made again in place and the list's `data-rows` counts the
/// new ones.
fn regrouped(
    regroup: Callback<(), (Vec<Group>, Requirements)>,
    marking: Option<&mut Marking>,
    (list, spacer): (&web_sys::Element, &web_sys::Element),
    rendered: &mut Rendered,
    old: &[Row],
    current: Option<&str>,
) -> Arc<Vec<Row>> {
    let (groups, security) = regroup.run(());
    if let Some(marking) = marking {
        marking.document = security;
    }
    let new = Arc::new(outline::rows(&groups));
    remake_changed(spacer, rendered, old, &new, current);
    let _ = list.set_attribute("data-rows", &new.len().to_string());
    new
}

/// Marks each rendered operation that needs credentials (`data-access="needs"`) or has them
/// (`"filled"`) with a padlock and words for it; a row whose mark is already right is left
/// alone, so scrolling costs an attribute read per row.
fn mark(rendered: &Rendered, rows: &[Row], document: &Requirements, filled: &[String]) {
    for (index, element) in rendered {
        let Some(Row::Operation(op)) = rows.get(*index) else { continue };
        // A webhook is called by the API: nothing to send, nothing to fill in.
        let access = if op.webhook { Access::Open } else { access_of(op.requirements(document), filled) };
        let state = match access {
            Access::Open => "open",
            Access::Needs => "needs",
            Access::Filled => "filled",
        };
        if element.get_attribute("data-access").as_deref() == Some(state) {
            continue;
        }
        let _ = element.set_attribute("data-access", state);
        let Ok(Some(line)) = element.query_selector(".operation-line") else { continue };
        if let Ok(Some(old)) = line.query_selector(".op-lock") {
            old.remove();
        }
        if let Some(html) = lock_html(access) {
            let _ = line.insert_adjacent_html("beforeend", html);
        }
    }
}

/// The padlock of a row: closed when credentials are needed, open when they are filled, with
/// the words in the link's text (for screen readers) and as a tooltip. Shape and words, not
/// colour alone, tell the two apart.
fn lock_html(access: Access) -> Option<&'static str> {
    match access {
        Access::Open => None,
        Access::Needs => Some(concat!(
            r#"<span class="op-lock" data-testid="op-lock" data-access="needs" title="Needs credentials">"#,
            r#"<svg viewBox="0 0 16 16" width="12" height="12" aria-hidden="true" focusable="false"><path d="M5 7V5a3 3 0 0 1 6 0v2" fill="none" stroke="currentColor" stroke-width="1.6"/><rect x="3" y="7" width="10" height="7.5" rx="1.5" fill="currentColor"/></svg>"#,
            r#"<span class="visually-hidden">needs credentials</span></span>"#
        )),
        Access::Filled => Some(concat!(
            r#"<span class="op-lock" data-testid="op-lock" data-access="filled" title="Credentials filled">"#,
            r#"<svg viewBox="0 0 16 16" width="12" height="12" aria-hidden="true" focusable="false"><path d="M5 7V5a3 3 0 0 1 5.9-.8" fill="none" stroke="currentColor" stroke-width="1.6"/><rect x="3" y="7" width="10" height="7.5" rx="1.5" fill="currentColor"/><path d="M5.6 10.8l1.6 1.6 3.2-3.2" fill="none" stroke="var(--bg)" stroke-width="1.5"/></svg>"#,
            r#"<span class="visually-hidden">credentials filled</span></span>"#
        )),
    }
}

fn spacer_style(len: usize, range: &Range<usize>) -> String {
    format!("height:{}px;padding-top:{}px", len * ROW_PX, range.start * ROW_PX)
}

/// The rows the first render put in the spacer, from index `start`.
fn adopt(spacer: &web_sys::Element, start: usize) -> Rendered {
    let mut rendered = Rendered::new();
    let mut child = spacer.first_element_child();
    while let Some(element) = child {
        child = element.next_element_sibling();
        rendered.push_back((start + rendered.len(), element));
    }
    rendered
}

fn create(rows: &[Row], index: usize, current: Option<&str>) -> Option<web_sys::Element> {
    let holder = web_sys::window()?.document()?.create_element("div").ok()?;
    holder.set_inner_html(&row_html(rows.get(index)?, current));
    holder.first_element_child()
}

/// Makes again, in place, the rendered rows that differ between `old` and `new` (rows past
/// the end of `new` are left to [`sync`]).
fn remake_changed(
    spacer: &web_sys::Element,
    rendered: &mut Rendered,
    old: &[Row],
    new: &[Row],
    current: Option<&str>,
) {
    for (index, element) in rendered.iter_mut() {
        if new.get(*index).is_some()
            && old.get(*index) != new.get(*index)
            && let Some(made) = create(new, *index, current)
        {
            let _ = spacer.replace_child(&made, element);
            *element = made;
        }
    }
}

/// Makes the spacer hold exactly the rows of `range`, keeping the elements of rows that stay,
/// and marks the `current` operation.
fn sync(
    spacer: &web_sys::Element,
    rendered: &mut Rendered,
    range: &Range<usize>,
    rows: &[Row],
    current: Option<&str>,
) {
    while let Some((_, element)) = rendered.front().filter(|(i, _)| !range.contains(i)) {
        element.remove();
        rendered.pop_front();
    }
    while let Some((_, element)) = rendered.back().filter(|(i, _)| !range.contains(i)) {
        element.remove();
        rendered.pop_back();
    }
    let (first, end) = match (rendered.front(), rendered.back()) {
        (Some((first, _)), Some((last, _))) => (*first, last + 1),
        _ => (range.start, range.start),
    };
    for index in (range.start..first).rev() {
        if let Some(element) = create(rows, index, current) {
            let next = rendered.front().map(|(_, e)| web_sys::Node::from(e.clone()));
            let _ = spacer.insert_before(&element, next.as_ref());
            rendered.push_front((index, element));
        }
    }
    for index in end..range.end {
        if let Some(element) = create(rows, index, current) {
            let _ = spacer.append_child(&element);
            rendered.push_back((index, element));
        }
    }
    for (index, element) in rendered.iter() {
        if let (Some(Row::Operation(op)), Some(link)) = (rows.get(*index), element.first_element_child()) {
            let _ = if current == Some(op.anchor().as_str()) {
                link.set_attribute("aria-current", "page")
            } else {
                link.remove_attribute("aria-current")
            };
        }
    }
}
