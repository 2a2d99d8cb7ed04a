//! The try-it panel of one operation: where to send (the in-browser mock, a server of the
//! document, or a base URL of the reader's), a form for its parameters, a JSON body editor and
//! extra headers; Send (also Ctrl/Cmd+Enter), Cancel and a timeout; the answer with its status,
//! time, headers and body (error objects shown as errors; network and CORS failures explained);
//! and the last answers of this operation. Sending is [`crate::transport`]'s.

mod answer;
#[cfg(feature = "extras")]
mod bodies;
mod drift;
mod fields;
mod form;
mod history;
mod target;

use std::sync::Arc;

use leptos::prelude::*;
use playground_http::Request;
use playground_reference::OperationView;
use playground_tryit_core::request::is_sendable;
use wasm_bindgen::JsCast;

pub use form::{BodyKind, TryItForm};
pub use history::History;
pub use target::{Target, check_base_url};

#[cfg(feature = "extras")]
use crate::authorize::Authorization;
use crate::mock::MockLink;
use crate::transport::{self, Abort, Destination, Exchange};
use fields::{BaseUrlField, BodyField, HeadersField, Ids, ParamField, TargetSelect};
use history::{Entry, Written};
#[cfg(feature = "extras")]
use playground_http::form::FormKind;

/// The try-it panel of `view`; `form` is shared with the code samples, and the answers are
/// kept in `history`.
#[component]
pub fn TryIt(
    view: Arc<OperationView>,
    form: TryItForm,
    history: History,
    mock_available: bool,
    mock: Option<MockLink>,
) -> impl IntoView {
    let anchor = view.anchor();
    let ids = Ids::new(&anchor);
    let answers = Answers::new(history, anchor);
    let mock = StoredValue::new_local(mock);
    prepare_mock(form, mock);
    let sender = Sender { form, ids, answers, mock, sending: Sending::new() };
    let on_keydown = move |ev: leptos::ev::KeyboardEvent| {
        if Press::of(&ev).sends() {
            ev.prevent_default();
            sender.submit();
        }
    };
    view! {
        <section class="try-it" data-testid="try-it" aria-labelledby=ids.of("title") on:keydown=on_keydown>
            <h3 id=ids.of("title")>"Try it"</h3>
            {(!mock_available).then(|| view! {
                <p class="hint" data-testid="try-mock-unavailable">
                    "The in-browser mock is not available on this page; send this request to a server."
                </p>
            })}
            <form class="try-form" on:submit=move |ev| ev.prevent_default()>
                <TargetSelect form=form ids=ids mock_available=mock_available />
                <BaseUrlField form=form ids=ids />
                <OperationInputs view=view form=form ids=ids />
                <HeadersField form=form ids=ids />
                <RecordSwitch form=form history=history mock=mock />
                <SendActions sender=sender />
            </form>
            <AnswerSlots answers=answers mock=mock />
        </section>
    }
}

/// A mock that starts on demand (a large document's) starts once it is the target, the
/// remembered one included, so it is ready by the time Send is pressed; an item path's id then
/// starts on one the mock holds ([`start_on_held_id`]).
fn prepare_mock(form: TryItForm, mock: StoredValue<Option<MockLink>, LocalStorage>) {
    // `try_`: the effect's first run is a task of its own, which may come after the panel was
    // closed.
    Effect::new(move |_| {
        if form.target.try_get() == Some(Target::Mock) {
            mock.try_with_value(|link| {
                if let Some(link) = link {
                    link.prepare();
                    start_on_held_id(form, link);
                }
            });
        }
    });
}

/// For an item path (`/books/{book_id}`) whose id the reader has not typed: the id last
/// created in its collection through a panel of this page, else the first the mock lists, so
/// that reading back works on the first try. Nothing changes when the mock is not ready, lists
/// nothing, or the id was typed.
fn start_on_held_id(form: TryItForm, link: &MockLink) {
    use playground_tryit_core::prefill::{held_id, item_collection};
    let Some(view) = form.view.try_get_value() else { return };
    let Some((collection, name)) = item_collection(&view) else { return };
    let initial = form::initial_params(&view);
    let params = form.params.get_untracked();
    let typed = params.iter().find(|p| p.is_for("path", &name)).is_some_and(|p| !initial.contains(p));
    if typed {
        return;
    }
    let mut path = collection;
    for param in params.iter().filter(|p| p.location == "path" && !p.text.is_empty()) {
        let encoded = String::from(js_sys::encode_uri_component(&param.text));
        path = path.replace(&format!("{{{}}}", param.name), &encoded);
    }
    if path.contains('{') {
        return;
    }
    let held = crate::mock::last_created(&path).or_else(|| {
        let answer = link.answer(&Request::new("GET", path)).ok()?;
        (answer.status == 200).then(|| answer.json()).flatten().and_then(|list| held_id(&list, &name))
    });
    if let Some(id) = held {
        form.params.update(|params| {
            if let Some(param) = params.iter_mut().find(|p| p.is_for("path", &name)) {
                param.text = id;
            }
        });
    }
}

/// What the operation itself takes: its credentials (with the feature `extras`), its
/// parameters and its body.
#[component]
fn OperationInputs(view: Arc<OperationView>, form: TryItForm, ids: Ids) -> impl IntoView {
    #[cfg(feature = "extras")]
    let authorization = view! {
        <Authorization view=Arc::clone(&view) vault=form.vault base=Signal::derive(move || form.server_base()) />
    };
    #[cfg(not(feature = "extras"))]
    let authorization = ();
    let params = view
        .parameters
        .iter()
        .filter(|p| is_sendable(p))
        .map(|p| view! { <ParamField form=form ids=ids param=p.clone() /> })
        .collect_view();
    let body = view.request_body.clone().map(|b| view! { <BodyField form=form ids=ids body=b /> });
    view! {
        {authorization}
        {params}
        {body}
    }
}

/// Send (which says "Sending…" while a request is in flight) and Cancel.
#[component]
fn SendActions(sender: Sender) -> impl IntoView {
    let pending = sender.sending.pending;
    view! {
        <div class="try-actions">
            <button type="button" class="button button-primary" data-testid="try-send" disabled=move || pending.get() on:click=move |_| sender.submit()>
                {move || if pending.get() { "Sending…" } else { "Send" }}
            </button>
            <Show when=move || pending.get()>
                <button type="button" class="button" data-testid="try-cancel" on:click=move |_| sender.sending.cancel()>"Cancel"</button>
            </Show>
            <span class="hint keys">"Ctrl/⌘ + Enter"</span>
        </div>
    }
}

/// The answer shown and the "Recent" list, written over what they showed (see `Written`).
/// The answer's region is announced whole (`aria-atomic`) when any part of it changes, as
/// when it was written anew.
#[component]
fn AnswerSlots(answers: Answers, mock: StoredValue<Option<MockLink>, LocalStorage>) -> impl IntoView {
    let Answers { entries, shown, history, operation } = answers;
    // "Keep in the mock" under a real server's answer (a button in the answer's markup).
    let keep = move |ev: leptos::ev::MouseEvent| {
        let id = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|t| t.closest("[data-keep]").ok().flatten())
            .and_then(|b| b.get_attribute("data-keep"))
            .and_then(|id| id.parse::<u64>().ok());
        if let Some(id) = id {
            mock.with_value(|link| {
                if let Some(link) = link {
                    operation.with_value(|operation| drift::keep(history, operation, id, link));
                }
            });
        }
    };
    let answer = NodeRef::<leptos::html::Div>::new();
    let recent = NodeRef::<leptos::html::Div>::new();
    let mut written = Written::default();
    let pick = move |ev: leptos::ev::MouseEvent| {
        if let Some(id) = history::picked(&ev) {
            shown.set(Some(id));
        }
    };
    // Runs now (before the elements exist), when they are mounted (`recent` is the later of the
    // two), and on every change of the answers or the one shown. Kept as long as the panel.
    let effect = RenderEffect::new(move |_| {
        recent.track();
        let shown = shown.get();
        entries.with(|list| {
            if let (Some(answer), Some(recent)) = (answer.get_untracked(), recent.get_untracked()) {
                written.write(&answer, &recent, list, shown);
            }
        });
    });
    StoredValue::new_local(effect);
    view! {
        <div class="try-result" aria-live="polite" aria-atomic="true" data-testid="try-result" node_ref=answer on:click=keep></div>
        <div class="try-history-slot" node_ref=recent on:click=pick></div>
    }
}

/// The Record switch, beside a real server as the target (when the page has a mock): every
/// answer of a real server is kept in the in-browser mock, for the page's life, in every panel.
#[component]
fn RecordSwitch(
    form: TryItForm,
    history: History,
    mock: StoredValue<Option<MockLink>, LocalStorage>,
) -> impl IntoView {
    let offered = move || mock.with_value(Option::is_some) && form.target.get() != Target::Mock;
    let record = history.record;
    view! {
        <Show when=offered>
            <label class="try-record" data-testid="try-record">
                <input type="checkbox" prop:checked=move || record.get() on:change=move |ev| record.set(event_target_checked(&ev)) />
                " Record: keep every answer in the in-browser mock"
            </label>
        </Show>
    }
}

/// The answers of the panel's operation, and the one shown.
#[derive(Clone, Copy)]
struct Answers {
    history: History,
    operation: StoredValue<String>,
    entries: Memo<Vec<Entry>>,
    shown: RwSignal<Option<u64>>,
}

impl Answers {
    /// The answers of `operation` in `history`; the newest is shown.
    fn new(history: History, operation: String) -> Self {
        let entries = history.of(operation.clone());
        let shown = RwSignal::new(entries.get_untracked().first().map(|e| e.id));
        Self { history, operation: StoredValue::new(operation), entries, shown }
    }

    /// Files `exchange` first among the operation's answers, and shows it. Nothing is filed
    /// once the panel is gone.
    fn file(self, exchange: Exchange) -> Option<u64> {
        let id = self.operation.try_with_value(|operation| self.history.record(operation, exchange));
        if let Some(id) = id {
            self.shown.try_set(Some(id));
        }
        id
    }
}

/// What Send does (the button, and the keys that press it): checks the form, then sends its
/// request and files what it got.
#[derive(Clone, Copy)]
struct Sender {
    form: TryItForm,
    ids: Ids,
    answers: Answers,
    mock: StoredValue<Option<MockLink>, LocalStorage>,
    sending: Sending,
}

impl Sender {
    /// Sends the form's request, unless one is in flight; with problems, nothing is sent and
    /// the field of the first has focus.
    fn submit(self) {
        let form = self.form;
        if self.sending.pending.get_untracked() {
            return;
        }
        // Set once: every field's error line listens to it.
        if !form.attempted.get_untracked() {
            form.attempted.set(true);
        }
        let (request, problems) = form.request();
        if let Some(first) = problems.first() {
            focus(&self.ids.field(&first.field));
            return;
        }
        // Files are read, and expired tokens renewed, when the request is sent; everything
        // else is in it already.
        #[cfg(feature = "extras")]
        {
            let needs_files =
                matches!(untrack(|| form.body_kind()), BodyKind::File | BodyKind::Form(FormKind::Multipart));
            let needs_refresh = form.view.with_value(|v| form.vault.needs_refresh(v));
            if needs_files || needs_refresh {
                leptos::task::spawn_local(self.complete_and_send(request, needs_refresh));
                return;
            }
        }
        self.send(request);
    }

    /// Renews the expired tokens (with `refresh`) and reads the chosen files into `request`,
    /// then sends it; a file that cannot be read is the answer.
    #[cfg(feature = "extras")]
    async fn complete_and_send(self, request: Request, refresh: bool) {
        let form = self.form;
        if refresh {
            let view = form.view.get_value();
            form.vault.refresh_expired(&view, &untrack(|| form.server_base())).await;
        }
        match form.with_files(request.clone()).await {
            Ok(request) => self.send(request),
            Err(message) => {
                self.answers.file(transport::failed(&request, message));
            }
        }
    }

    /// Sends `request`, with the credentials the operation needs, to the target; files what it
    /// got.
    fn send(self, mut request: Request) {
        let form = self.form;
        // The history shows the address without the credentials a query may carry.
        let shown_url = request.target.clone();
        let applied = form.view.with_value(|v| form.vault.apply(v, &mut request, false));
        let to = match form.target.get_untracked() {
            Target::Mock => Destination::Mock(self.mock.get_value()),
            _ => Destination::Network { credentialed: !applied.used.is_empty() },
        };
        let answers = self.answers;
        // A real server's answer is checked against the description by the page's mock of
        // it: it starts now, to be ready when the answer comes.
        let checker = match to {
            Destination::Network { .. } => self.mock.get_value(),
            Destination::Mock(_) => None,
        };
        if let Some(mock) = &checker {
            mock.prepare();
        }
        let sent = checker.is_some().then(|| request.clone());
        self.sending.start(request, to, move |mut exchange| {
            exchange.url = shown_url;
            match (checker, sent) {
                (Some(mock), Some(sent)) if mock.ready() => {
                    drift::check(&mut exchange, &mock, sent, answers.history.recording());
                    answers.file(exchange);
                }
                (Some(mock), Some(sent)) => {
                    // Checked once the mock has started (a description's mock starts on demand).
                    exchange.drift = Some(transport::Drift::Pending);
                    if let Some(id) = answers.file(exchange) {
                        leptos::task::spawn_local(drift::check_when_ready(
                            answers.history,
                            answers.operation,
                            id,
                            mock,
                            sent,
                        ));
                    }
                }
                _ => {
                    answers.file(exchange);
                }
            }
        });
    }
}

/// A key pressed in the panel, as far as sending is concerned.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Press {
    key: String,
    ctrl: bool,
    meta: bool,
    shift: bool,
    alt: bool,
    composing: bool,
    /// Pressed in a one-line field (an `<input>`).
    in_line: bool,
}

impl Press {
    fn of(ev: &leptos::ev::KeyboardEvent) -> Self {
        Self {
            key: ev.key(),
            ctrl: ev.ctrl_key(),
            meta: ev.meta_key(),
            shift: ev.shift_key(),
            alt: ev.alt_key(),
            composing: ev.is_composing(),
            in_line: ev.target().is_some_and(|t| t.dyn_ref::<web_sys::HtmlInputElement>().is_some()),
        }
    }

    /// Whether the press sends: Ctrl/Cmd+Enter anywhere in the panel, and Enter alone in a
    /// one-line field, as a form's submit button would (Send is a plain button: a form
    /// submission costs the browser more than the mock's whole answer).
    fn sends(&self) -> bool {
        let plain = !(self.ctrl || self.meta || self.shift || self.alt || self.composing);
        self.key == "Enter" && (self.ctrl || self.meta || (plain && self.in_line))
    }
}

/// The request in flight, if any: Cancel stops it, and so does the panel going away.
#[derive(Clone, Copy)]
struct Sending {
    pending: RwSignal<bool>,
    in_flight: StoredValue<Option<Abort>, LocalStorage>,
}

impl Sending {
    fn new() -> Self {
        let sending = Self { pending: RwSignal::new(false), in_flight: StoredValue::new_local(None) };
        on_cleanup(move || sending.cancel());
        sending
    }

    /// Sends `request`; `answered` gets its exchange, unless the panel is gone by then. The
    /// in-browser mock answers at once, so nothing is pending then.
    fn start(self, request: Request, to: Destination, answered: impl FnOnce(Exchange) + 'static) {
        if let Destination::Mock(mock) = to {
            return answered(transport::ask(&request, mock.as_ref()));
        }
        let abort = Abort::new();
        self.in_flight.set_value(Some(abort.clone()));
        self.pending.set(true);
        leptos::task::spawn_local(async move {
            let exchange = transport::send(&request, to, &abort).await;
            // `try_set` hands the value back when the panel (the signal's owner) is gone.
            if self.pending.try_set(false).is_none() {
                answered(exchange);
            }
        });
    }

    fn cancel(self) {
        // `try_`: on cleanup the handle may already be gone, and nothing is in flight then.
        let _ = self.in_flight.try_with_value(|abort| {
            if let Some(abort) = abort {
                abort.abort();
            }
        });
    }
}

fn focus(id: &str) {
    if let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(id))
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
    {
        let _ = el.focus();
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    fn press(key: &str, in_line: bool) -> Press {
        Press { key: key.to_owned(), in_line, ..Press::default() }
    }

    #[test]
    fn ctrl_or_cmd_enter_sends_from_anywhere_in_the_panel() {
        for in_line in [false, true] {
            assert!(Press { ctrl: true, ..press("Enter", in_line) }.sends());
            assert!(Press { meta: true, ..press("Enter", in_line) }.sends());
            assert!(Press { ctrl: true, shift: true, ..press("Enter", in_line) }.sends());
        }
    }

    #[test]
    fn enter_alone_sends_only_from_a_one_line_field() {
        assert!(press("Enter", true).sends());
        assert!(!press("Enter", false).sends(), "a new line in the body or the headers");
        for modified in [
            Press { shift: true, ..press("Enter", true) },
            Press { alt: true, ..press("Enter", true) },
            Press { composing: true, ..press("Enter", true) },
        ] {
            assert!(!modified.sends(), "{modified:?}");
        }
        assert!(!press("a", true).sends());
        assert!(!Press { ctrl: true, ..press("s", false) }.sends());
    }
}
