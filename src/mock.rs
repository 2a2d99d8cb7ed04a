//! The app's handle on the in-browser mock. The page uses the same JavaScript modules that
//! frontend developers import: `mock/petstore_mock.js` (a `PetstoreMock` saved in
//! `localStorage`, shared by tabs) for the built-in document, and `api-mock/playground_api_mock.js`
//! (an `ApiMock` of the shown document, saved per document) for any other. The Petstore's is
//! loaded after the reference is on screen, so the reference's first download stays small;
//! another document's when it is mocked (see [`MockState::show`]). Counts and notices are
//! signals that follow every change, whichever tab made it.

use std::rc::Rc;

use js_sys::{Array, Function, Reflect, Uint8Array};
use leptos::prelude::*;
use playground_seam::{Counts, MockNotice, Request, Response};
use serde::Serialize;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

use crate::modules::message_of;

mod module;
use module::{load_api, load_petstore};

/// Where the app saves the mock (`localStorage`). Another version of the snapshot format gets
/// another key, so an old tab never reads a newer format.
pub const STORAGE_KEY: &str = "playground/mock/v1";

/// The mock's module, relative to the page.
pub const MODULE_PATH: &str = "mock/petstore_mock.js";

/// The module of the mock of any other document, relative to the page.
pub const API_MODULE_PATH: &str = "api-mock/playground_api_mock.js";

/// What a request to a mock that is not ready yet is told.
const STARTING: &str = "The in-browser mock is still starting; try again in a moment.";

/// Documents up to this size get their mock as soon as they are in; a larger one when a try-it
/// panel targets the in-browser mock or the Mock block's Start is pressed (its mock holds the
/// whole document parsed, which a reader who only reads should not pay for).
pub const START_AT_ONCE_BYTES: usize = 2 * 1024 * 1024;

/// The mock object the page opens and lends the try-it module (`playground_seam`'s binding).
pub use playground_seam::{MockHandle, ResourceCount};

/// The options of `new PetstoreMock(options)` the app opens its mock with.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Options<'a> {
    seed: bool,
    storage_key: &'a str,
}

/// Where the mock is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MockStatus {
    /// Not started: another document's mock starts when it is needed ([`MockState::start`]).
    Idle,
    /// The module is loading.
    Loading,
    /// Ready to answer.
    Ready,
    /// The module could not be loaded, or the document cannot be mocked; why.
    Failed(String),
}

/// Which mock the shown document gets.
#[derive(Clone)]
pub enum MockSource {
    /// The built-in document's `PetstoreMock`, with its demo data.
    Petstore,
    /// An `ApiMock` of a loaded document.
    Api(ApiSource),
}

/// A loaded document's JSON text as bytes for the mock module, once the whole of it is in
/// (`None` before). They are copied straight out of the page's WebAssembly memory, which keeps
/// the room of every copy made in it (a copy of GitHub's document held it 7 MB higher); given a
/// limit, a longer text is `Err(its length)` and not copied at all.
pub type SourceText = dyn Fn(Option<usize>) -> Option<Result<Uint8Array, usize>>;

/// A loaded document, as its mock is made from it.
#[derive(Clone)]
pub struct ApiSource {
    /// The document itself: a source is the same as another when it holds the very same
    /// document (see [`MockSource::same`]).
    pub document: playground_openapi::document::AnyDocument,
    /// Its name in file names: the title, as letters, digits and dashes.
    pub name: String,
    /// Its JSON text, once the whole of it is in (see [`SourceText`]).
    pub text: Rc<SourceText>,
}

impl std::fmt::Debug for MockSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Petstore => f.write_str("Petstore"),
            Self::Api(api) => f.debug_tuple("Api").field(api).finish(),
        }
    }
}

impl std::fmt::Debug for ApiSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ApiSource").field("name", &self.name).finish_non_exhaustive()
    }
}

impl MockSource {
    /// The mock `loaded` gets: the Petstore's for the built-in document, else an `ApiMock` of
    /// its JSON text (read when the mock starts, once the whole document is in).
    #[must_use]
    pub fn of(loaded: &crate::document::Loaded) -> Self {
        use playground_openapi::document::AnyDocument;
        if loaded.source.is_builtin() {
            return Self::Petstore;
        }
        let value = loaded.value.clone();
        let text = move |limit: Option<usize>| {
            let whole = match &value {
                AnyDocument::Arriving(doc) => doc.whole()?,
                whole => whole,
            };
            let serialized: Vec<u8>;
            let bytes = match whole {
                AnyDocument::Whole(value) => {
                    serialized = serde_json::to_vec(&**value).ok()?;
                    &serialized
                }
                whole => whole.text()?.as_bytes(),
            };
            Some(if limit.is_none_or(|limit| bytes.len() <= limit) {
                Ok(Uint8Array::from(bytes))
            } else {
                Err(bytes.len())
            })
        };
        let name: String = loaded
            .catalog
            .title
            .chars()
            .map(|c| if c.is_alphanumeric() { c.to_ascii_lowercase() } else { '-' })
            .collect::<String>()
            .split('-')
            .filter(|part| !part.is_empty())
            .take(8)
            .collect::<Vec<_>>()
            .join("-");
        Self::Api(ApiSource {
            document: loaded.value.clone(),
            name: if name.is_empty() { "api".to_owned() } else { name },
            text: std::rc::Rc::new(text),
        })
    }

    /// Whether both are the mock of one document: the Petstore's, or the very same loaded
    /// document (the same allocation, not equal text: a document loaded again is another one,
    /// with a mock of its own). A source holds its document, so the one compared with cannot
    /// have been freed and its address reused.
    fn same(&self, other: &Self) -> bool {
        use playground_openapi::document::AnyDocument;
        use std::sync::Arc;
        match (self, other) {
            (Self::Petstore, Self::Petstore) => true,
            (Self::Api(a), Self::Api(b)) => match (&a.document, &b.document) {
                (AnyDocument::Whole(a), AnyDocument::Whole(b)) => Arc::ptr_eq(a, b),
                (AnyDocument::Indexed(a), AnyDocument::Indexed(b)) => Arc::ptr_eq(a, b),
                (AnyDocument::Arriving(a), AnyDocument::Arriving(b)) => Arc::ptr_eq(a, b),
                _ => false,
            },
            _ => false,
        }
    }
}

/// What stops following a mock's changes, and the callback that follows them.
/// What stops following the open mock's changes, the callback it follows them with, and what
/// reads its state into the page's signals at once.
type Following = (Function, Closure<dyn Fn()>, std::rc::Rc<dyn Fn()>);

/// The mock and what the page shows of it. `Copy`: hand it to any component.
#[derive(Clone, Copy)]
pub struct MockState {
    handle: RwSignal<Option<MockHandle>, LocalStorage>,
    status: RwSignal<MockStatus>,
    /// Loading, another document's mock waits for the rest of its document to download.
    waiting: RwSignal<bool>,
    counts: RwSignal<Counts>,
    /// An `ApiMock`'s resources.
    resources: RwSignal<Vec<ResourceCount>>,
    notices: RwSignal<Vec<MockNotice>>,
    /// The mock of the document shown; `None` before the first.
    source: RwSignal<Option<MockSource>, LocalStorage>,
    /// Counts the mocks opened, so a load that ends after its document was left is dropped.
    ///
    /// A number rather than a Leptos `Action` or `Resource`, because it guards more than one
    /// task's result: the load (`open`), its wait for the rest of the document (a loop of
    /// paints, which stops when the document is left), and the reads of a followed mock's
    /// changes, scheduled for the next frame by the module's callback (`attach`), not a task.
    /// A mock loaded for a document left meanwhile is freed at once (it holds that document
    /// parsed), where an `Action` drops a stale result as it is; and a mock starts on demand
    /// ([`MockState::start`]), not whenever its source changes as a `Resource` would. Either
    /// would also bring its machinery into the first download (an `Action`, 3.6 KB gzip).
    generation: StoredValue<u64>,
    /// Whether the shown document's mock was asked for (not only started because it is small).
    wanted: StoredValue<bool>,
    /// What stops following the open mock's changes, and the callback it follows them with.
    unfollow: StoredValue<Option<Following>, LocalStorage>,
}

impl std::fmt::Debug for MockState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MockState").field("status", &self.status.get_untracked()).finish_non_exhaustive()
    }
}

impl MockState {
    /// No mock yet: [`MockState::show`] says which one the shown document gets.
    #[must_use]
    pub fn deferred() -> Self {
        Self {
            handle: RwSignal::new_local(None),
            status: RwSignal::new(MockStatus::Idle),
            waiting: RwSignal::new(false),
            counts: RwSignal::new(Counts::default()),
            resources: RwSignal::new(Vec::new()),
            notices: RwSignal::new(Vec::new()),
            source: RwSignal::new_local(None),
            generation: StoredValue::new(0),
            wanted: StoredValue::new(false),
            unfollow: StoredValue::new_local(None),
        }
    }

    /// A state around a Petstore mock that is already open (tests link the module's Rust side).
    #[must_use]
    pub fn from_handle(handle: MockHandle) -> Self {
        let state = Self::deferred();
        state.source.set(Some(MockSource::Petstore));
        state.attach(handle, false);
        state
    }

    /// Makes `source` the mock of the page: the one open stays if it is that one already;
    /// otherwise it is closed (its state stays saved) and the new one waits for
    /// [`MockState::start`].
    pub fn show(&self, source: MockSource) {
        if self.source.with_untracked(|s| s.as_ref().is_some_and(|s| s.same(&source))) {
            return;
        }
        self.close();
        self.source.set(Some(source));
    }

    /// Stops following the open mock and forgets it.
    fn close(&self) {
        self.generation.update_value(|g| *g += 1);
        self.wanted.set_value(false);
        self.waiting.set(false);
        if let Some(Some((stop, _callback, _read))) = self.unfollow.try_update_value(Option::take) {
            let _ = stop.call0(&JsValue::UNDEFINED);
        }
        let api = self.source.with_untracked(|s| matches!(s, Some(MockSource::Api(_))));
        if let Some(handle) = self.handle.try_update_untracked(Option::take).flatten() {
            // Another document's mock holds that document parsed: give its memory back now
            // rather than when the collector gets to it. (Its state is saved already.)
            if api {
                handle.free();
            }
        }
        self.handle.set(None);
        self.status.set(MockStatus::Idle);
        self.counts.set(Counts::default());
        self.resources.set(Vec::new());
        self.notices.set(Vec::new());
    }

    /// Whether the mock, loading, waits for the rest of its document to download.
    #[must_use]
    pub fn waiting(&self) -> Signal<bool> {
        self.waiting.into()
    }

    /// Whether the page's mock is an `ApiMock` (another document's).
    #[must_use]
    pub fn is_api(&self) -> Signal<bool> {
        let source = self.source;
        Signal::derive(move || source.with(|s| matches!(s, Some(MockSource::Api(_)))))
    }

    /// The name of the shown document for file names (`petstore` for the built-in one).
    #[must_use]
    pub fn name(&self) -> String {
        self.source.with_untracked(|s| match s {
            Some(MockSource::Api(api)) => api.name.clone(),
            _ => "petstore".to_owned(),
        })
    }

    /// Loads the module and opens the shown document's mock (saved state, else the Petstore's
    /// demo data or nothing), unless it is loading, open or failed. Returns at once;
    /// [`MockState::status`] says when it is ready. Another document's mock waits until the
    /// whole document is in.
    pub fn start(&self) {
        self.open(None);
    }

    /// As [`MockState::start`], for a document of at most `bytes` (the mock goes back to
    /// waiting for [`MockState::start`] when it is larger).
    pub fn start_within(&self, bytes: usize) {
        self.open(Some(bytes));
    }

    fn open(&self, limit: Option<usize>) {
        if limit.is_none() {
            self.wanted.set_value(true);
        }
        if self.status.get_untracked() != MockStatus::Idle {
            return;
        }
        let Some(source) = self.source.get_untracked() else { return };
        self.status.set(MockStatus::Loading);
        let state = *self;
        let generation = self.generation.get_value();
        let current = move || state.generation.try_get_value() == Some(generation);
        leptos::task::spawn_local(async move {
            let (opened, api) = match source {
                MockSource::Petstore => (load_petstore().await, false),
                MockSource::Api(api) => {
                    let text = loop {
                        if !current() {
                            return;
                        }
                        // The limit holds until the mock is asked for (it may be while waiting).
                        let wanted = state.wanted.try_get_value().unwrap_or(false);
                        if let Some(text) = (api.text)(limit.filter(|_| !wanted)) {
                            state.waiting.try_set(false);
                            let Ok(text) = text else {
                                // Too long to start on its own: it waits to be asked for.
                                state.status.try_set(MockStatus::Idle);
                                return;
                            };
                            break text;
                        }
                        if !state.waiting.try_get_untracked().unwrap_or(true) {
                            state.waiting.try_set(true);
                        }
                        crate::modules::after_paint().await;
                    };
                    (load_api(text).await, true)
                }
            };
            if !current() {
                // Its document was left while it loaded.
                if let (Ok(handle), true) = (&opened, api) {
                    handle.free();
                }
                return;
            }
            match opened {
                Ok(handle) => state.attach(handle, api),
                Err(reason) => {
                    let what = if api { "This document's" } else { "The" };
                    state.status.try_set(MockStatus::Failed(format!(
                        "{what} in-browser mock could not be started: {reason}. Reload the page, or \
                         send requests to a server instead."
                    )));
                }
            }
        });
    }

    fn attach(self, handle: MockHandle, api: bool) {
        let Self { counts, resources, notices, .. } = self;
        let follow = handle.clone();
        let read = move |handle: &MockHandle| {
            // Set only what changed, so an alert is not re-announced on every change. The
            // signals are gone only in a torn-down view: nothing to update then.
            if api {
                let now = handle.resources();
                if resources.try_with_untracked(|r| *r != now).unwrap_or(false) {
                    resources.try_set(now);
                }
            } else {
                let now = handle.counts();
                if counts.try_with_untracked(|c| *c != now).unwrap_or(false) {
                    counts.try_set(now);
                }
            }
            let now_notices = handle.notices();
            if notices.try_with_untracked(|n| *n != now_notices).unwrap_or(false) {
                notices.try_set(now_notices);
            }
        };
        read(&handle);
        // What changed is read at the next frame, once for any number of changes before it
        // (a page's script can send hundreds of requests in one task): the counts shown at
        // the next paint are the same, and a send does not wait for them.
        let generation = self.generation.get_value();
        let generations = self.generation;
        let scheduled = std::rc::Rc::new(std::cell::Cell::new(false));
        let callback = Closure::<dyn Fn()>::new(move || {
            if scheduled.replace(true) {
                return;
            }
            let (follow, scheduled) = (follow.clone(), std::rc::Rc::clone(&scheduled));
            request_animation_frame(move || {
                scheduled.set(false);
                // Not a mock closed (or freed) since.
                if generations.try_get_value() == Some(generation) {
                    read(&follow);
                }
            });
        });
        let stop = handle.on_change(callback.as_ref().unchecked_ref());
        let follow = handle.clone();
        let read_now: std::rc::Rc<dyn Fn()> = std::rc::Rc::new(move || read(&follow));
        // Kept while the mock is followed; `close` stops it and drops them.
        self.unfollow.try_set_value(Some((stop, callback, read_now)));
        self.handle.try_set(Some(handle));
        self.status.try_set(MockStatus::Ready);
    }

    /// The mock from the context `App` provides, if any.
    #[must_use]
    pub fn from_context() -> Option<Self> {
        use_context::<Self>()
    }

    /// The mock from the context `App` provides.
    ///
    /// # Panics
    /// Outside `App` (a component rendered on its own must be given a `MockState`).
    #[must_use]
    pub fn expect() -> Self {
        expect_context::<Self>()
    }

    /// Loading, ready, or why it failed.
    #[must_use]
    pub fn status(&self) -> Signal<MockStatus> {
        self.status.into()
    }

    /// How many of each thing the Petstore mock holds.
    #[must_use]
    pub fn counts(&self) -> Signal<Counts> {
        self.counts.into()
    }

    /// The resources another document's mock stores, with their counts.
    #[must_use]
    pub fn resources(&self) -> Signal<Vec<ResourceCount>> {
        self.resources.into()
    }

    /// What the user should know about where the mock's state is kept.
    #[must_use]
    pub fn notices(&self) -> Signal<Vec<MockNotice>> {
        self.notices.into()
    }

    fn with_handle<T>(&self, f: impl FnOnce(&MockHandle) -> T) -> Result<T, String> {
        match self.status.get_untracked() {
            MockStatus::Failed(reason) => Err(reason),
            MockStatus::Idle | MockStatus::Loading => {
                self.start();
                Err(STARTING.to_owned())
            }
            MockStatus::Ready => self
                .handle
                .try_with_untracked(|h| h.as_ref().map(f))
                .flatten()
                .ok_or_else(|| "The in-browser mock is closed.".to_owned()),
        }
    }

    /// The mock for the try-it panel (which asks it directly), or a string saying why there is
    /// none now.
    #[must_use]
    pub fn lend(&self) -> JsValue {
        const CLOSED: &str = "The in-browser mock is closed.";
        match self.status.try_get_untracked() {
            Some(MockStatus::Ready) => {}
            Some(MockStatus::Failed(reason)) => return playground_seam::lend(Err(&reason)),
            Some(MockStatus::Idle | MockStatus::Loading) => {
                self.start();
                return playground_seam::lend(Err(STARTING));
            }
            None => return playground_seam::lend(Err(CLOSED)),
        }
        self.handle
            .try_with_untracked(|h| h.as_ref().map(|h| playground_seam::lend(Ok(h))))
            .flatten()
            .unwrap_or_else(|| playground_seam::lend(Err(CLOSED)))
    }

    /// Answers `request` as `window.fetch` would (saved, and seen by other tabs, when it
    /// changes the state).
    ///
    /// # Errors
    /// The mock is not loaded, or the request cannot be read (the message says why).
    pub async fn fetch(&self, request: &web_sys::Request) -> Result<web_sys::Response, String> {
        let promise = self.with_handle(|h| h.fetch(request))?.map_err(|e| message_of(&e))?;
        let response = JsFuture::from(promise).await.map_err(|e| message_of(&e))?;
        response.dyn_into().map_err(|_| "The mock did not answer with a Response.".to_owned())
    }

    /// Answers a request at once (the module's `handleJson`, as the try-it panel asks it: no
    /// `Request`/`Response` objects, so no body stream to wait for, and one JSON pass each
    /// way); saved, and seen by other tabs, when it changes the state.
    ///
    /// # Errors
    /// The mock is not loaded, or the request cannot be read (the message says why).
    pub fn answer(&self, request: &Request) -> Result<Response, String> {
        self.with_handle(|h| h.answer(request))?
    }

    /// Replaces the data with the demo data (`seed`, the Petstore's only) or nothing.
    pub fn reset(&self, seed: bool) {
        let _ = self.with_handle(|h| h.reset(seed));
        self.read_now();
    }

    /// Reads the mock's counts and notices into the page at once (after the page's own
    /// action on it, rather than at the next frame as for requests).
    fn read_now(&self) {
        let read = self.unfollow.try_with_value(|f| f.as_ref().map(|(_, _, read)| std::rc::Rc::clone(read)));
        if let Some(read) = read.flatten() {
            read();
        }
    }

    /// The whole state as versioned JSON.
    ///
    /// # Errors
    /// The mock is not loaded.
    pub fn snapshot(&self) -> Result<String, String> {
        self.with_handle(MockHandle::snapshot)
    }

    /// Replaces the state with a snapshot; a snapshot that cannot be read or is inconsistent
    /// is refused with the reason, and the state stays as it was.
    ///
    /// # Errors
    /// Why the snapshot was refused.
    pub fn restore(&self, snapshot: &str) -> Result<(), String> {
        let restored = self.with_handle(|h| h.restore(snapshot))?.map_err(|e| message_of(&e));
        self.read_now();
        restored
    }

    /// Hides the notices that report something past.
    pub fn dismiss_notices(&self) {
        let _ = self.with_handle(MockHandle::dismiss_notices);
        self.read_now();
    }
}
