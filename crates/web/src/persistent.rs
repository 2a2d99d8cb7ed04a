//! [`PersistentMock`]: the core mock, saved to a shared store after every change and kept in
//! step with other tabs that use the same key.

use std::cell::{Cell, RefCell};
use std::fmt;
use std::rc::Rc;

use petstore::{Counts, Mock};
use playground_http::{Request, Response};
use playground_mock::Handled;
use playground_mock::SnapshotError;
use playground_mock::StatefulMock;

pub use crate::notice::Notice;
use crate::saving::Saving;
use crate::store::KeyValueStore;
use crate::sync::{self, Local, Start, Stored, Sync};

/// How to open a [`PersistentMock`] in the browser.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MockOptions {
    /// Start (and reset) with the demo data rather than an empty store.
    pub seed: bool,
    /// The `localStorage` key to save under; `None` keeps the state in memory only.
    pub storage_key: Option<String>,
}

/// Identifies a callback registered with [`PersistentMock::subscribe`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Subscription(u64);

/// A mock (the Petstore's by default, or any [`StatefulMock`] such as the mock of another
/// document), saved after every change under one key of a shared store (`localStorage` in the
/// browser) and keys below it, and restored from it on open. A change writes the records it
/// touched (one log entry and a small header, see [`crate::layout`]), not the whole state.
///
/// Tabs stay consistent: before every request, reset or restore the mock re-reads the key's
/// header, and
/// takes the stored state when another tab wrote since (so a change is always made on the
/// latest state); in the browser a `storage` event does the same as soon as another tab writes.
/// Two writes at the very same moment cannot both win: the tab whose write lost learns it from
/// the other's write and shows [`Notice::Overwritten`].
///
/// A cheap handle: clones share one mock.
pub struct PersistentMock<M: StatefulMock + 'static = Mock> {
    inner: Rc<Inner<M>>,
}

impl<M: StatefulMock + 'static> Clone for PersistentMock<M> {
    fn clone(&self) -> Self {
        Self { inner: Rc::clone(&self.inner) }
    }
}

type Callback<M> = Rc<dyn Fn(&PersistentMock<M>)>;

/// Makes the initial state: `true` with the demo data, where the mock has some.
type Initial<M> = Rc<dyn Fn(bool) -> M>;

struct Inner<M: StatefulMock + 'static> {
    state: RefCell<State<M>>,
    subscribers: RefCell<Vec<(u64, Callback<M>)>>,
    next_subscription: Cell<u64>,
    #[cfg(target_arch = "wasm32")]
    listener: RefCell<Option<crate::storage_events::StorageListener>>,
}

struct State<M> {
    mock: M,
    seed: bool,
    saving: Option<Saving>,
    start_notice: Option<Notice>,
    not_saved: Option<String>,
    overwritten: bool,
    /// A change the store refuses is undone and answered 503 rather than kept in memory
    /// ([`PersistentMock::with_own_store_of`]).
    refuse_unsaved: bool,
}

impl<M: StatefulMock + 'static> fmt::Debug for PersistentMock<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let state = self.inner.state.borrow();
        f.debug_struct("PersistentMock")
            .field("key", &state.saving.as_ref().map(|s| s.key.as_str()))
            .field("generation", &state.saving.as_ref().map(|s| s.local.generation))
            .field("revision", &state.mock.revision())
            .finish_non_exhaustive()
    }
}

/// The answer to a change the store refused (see [`PersistentMock::with_own_store_of`]): `503`
/// with the Error object, code `state_not_saved`.
fn not_saved_response(reason: &str) -> Response {
    let body = serde_json::json!({
        "code": "state_not_saved",
        "message": format!("The change was not made: the mock's state could not be saved ({reason})."),
    });
    Response {
        status: 503,
        headers: vec![("Content-Type".to_owned(), "application/json".to_owned())],
        body: serde_json::to_vec(&body).unwrap_or_default(),
    }
}

/// The Petstore's initial state: its demo data, or empty.
fn petstore(seed: bool) -> Mock {
    if seed { Mock::seeded() } else { Mock::new() }
}

impl PersistentMock<Mock> {
    /// A Petstore mock kept in memory only.
    #[must_use]
    pub fn in_memory(seed: bool) -> Self {
        Self::in_memory_of(Rc::new(petstore), seed)
    }

    /// A Petstore mock saved under `key` of `store` (see [`PersistentMock::with_store_of`]).
    pub fn with_store(
        store: impl KeyValueStore + 'static,
        key: impl Into<String>,
        seed: bool,
    ) -> (Self, Option<Notice>) {
        Self::with_store_of(Rc::new(petstore), store, key, seed)
    }

    /// Opens the Petstore mock in the browser (see [`PersistentMock::open_of`]).
    #[must_use]
    pub fn open(options: &MockOptions) -> (Self, Option<Notice>) {
        Self::open_of(Rc::new(petstore), options)
    }

    /// How many of each thing the mock holds now (does not read storage).
    #[must_use]
    pub fn counts(&self) -> Counts {
        self.inner.state.borrow().mock.counts()
    }
}

impl<M: StatefulMock + 'static> PersistentMock<M> {
    /// A mock kept in memory only; `initial(seed)` makes its first state and resets.
    #[must_use]
    pub fn in_memory_of(initial: Rc<dyn Fn(bool) -> M>, seed: bool) -> Self {
        Self::from_state(State::new(initial(seed), seed, None))
    }

    /// Runs `f` on the mock as it is now (does not read storage).
    pub fn with_mock<T>(&self, f: impl FnOnce(&M) -> T) -> T {
        f(&self.inner.state.borrow().mock)
    }

    /// A mock saved under `key` of `store`: restored from it when it holds a saved mock,
    /// otherwise started with the initial data. The notice says when the stored value was
    /// refused (the mock then starts fresh and replaces it) or the store cannot be read.
    pub fn with_store_of(
        initial: Rc<dyn Fn(bool) -> M>,
        store: impl KeyValueStore + 'static,
        key: impl Into<String>,
        seed: bool,
    ) -> (Self, Option<Notice>) {
        let fallback = Rc::clone(&initial);
        match State::open(initial, Box::new(store), key.into(), seed, false) {
            Ok((state, notice)) => (Self::from_state(state), notice),
            // Only a strict open fails; this one starts in memory as for a store that cannot
            // be used.
            Err(reason) => {
                let notice = Notice::StorageUnavailable { reason };
                let mut state = State::new(fallback(seed), seed, None);
                state.start_notice = Some(notice.clone());
                (Self::from_state(state), Some(notice))
            }
        }
    }

    /// A mock saved under `key` of a store the caller relies on (a file, say): as
    /// [`PersistentMock::with_store_of`], except that what cannot be read is not replaced (the
    /// mock does not open), and a change the store refuses is undone and answered `503` saying
    /// why, rather than kept in memory with [`Notice::NotSaved`]: every answered change is in
    /// the store.
    ///
    /// # Errors
    /// A sentence saying why the store, or what it holds, cannot be read.
    pub fn with_own_store_of(
        initial: Rc<dyn Fn(bool) -> M>,
        store: impl KeyValueStore + 'static,
        key: impl Into<String>,
        seed: bool,
    ) -> Result<Self, String> {
        let (mut state, _) = State::open(initial, Box::new(store), key.into(), seed, true)?;
        state.refuse_unsaved = true;
        Ok(Self::from_state(state))
    }

    /// Opens the mock in the browser: saved in `localStorage` under `options.storage_key` and
    /// following other tabs' writes through `storage` events. Storage that cannot be used
    /// (and any storage outside wasm32, where there is no browser) gives an in-memory mock and
    /// [`Notice::StorageUnavailable`].
    #[must_use]
    pub fn open_of(initial: Rc<dyn Fn(bool) -> M>, options: &MockOptions) -> (Self, Option<Notice>) {
        let Some(key) = options.storage_key.clone() else {
            return (Self::in_memory_of(initial, options.seed), None);
        };
        match Self::open_local_storage(Rc::clone(&initial), key, options.seed) {
            Ok(opened) => opened,
            Err(error) => {
                let notice = Notice::StorageUnavailable { reason: error.to_string() };
                let mut state = State::new(initial(options.seed), options.seed, None);
                state.start_notice = Some(notice.clone());
                (Self::from_state(state), Some(notice))
            }
        }
    }

    #[cfg(target_arch = "wasm32")]
    fn open_local_storage(
        initial: Initial<M>,
        key: String,
        seed: bool,
    ) -> Result<(Self, Option<Notice>), crate::StorageError> {
        let storage = crate::LocalStorage::open()?;
        let (mock, notice) = Self::with_store_of(
            initial,
            crate::store::WatchedStorage::new(storage, key.clone()),
            key.clone(),
            seed,
        );
        // Weak: the listener lives inside the mock and must not keep it alive.
        let inner = Rc::downgrade(&mock.inner);
        let listener = crate::storage_events::StorageListener::new(key, move || {
            if let Some(inner) = inner.upgrade() {
                Self { inner }.sync();
            }
        });
        *mock.inner.listener.borrow_mut() = listener;
        Ok((mock, notice))
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn open_local_storage(
        _initial: Initial<M>,
        _key: String,
        _seed: bool,
    ) -> Result<(Self, Option<Notice>), crate::StorageError> {
        Err(crate::StorageError::Unavailable("there is no browser storage outside the browser".into()))
    }

    fn from_state(state: State<M>) -> Self {
        Self {
            inner: Rc::new(Inner {
                state: RefCell::new(state),
                subscribers: RefCell::new(Vec::new()),
                next_subscription: Cell::new(0),
                #[cfg(target_arch = "wasm32")]
                listener: RefCell::new(None),
            }),
        }
    }

    /// Answers one request, on the latest stored state, and saves when it changed the state.
    pub fn handle(&self, request: &Request) -> Response {
        let (response, refused) = self.change(|mock| {
            let before = mock.revision();
            let response = mock.handle(request);
            let changed = mock.revision() != before;
            (response, changed)
        });
        refused.map_or(response, |reason| not_saved_response(&reason))
    }

    /// Runs `f` on the mock, on the latest stored state, and saves (telling other tabs) when it
    /// changed the state, as [`PersistentMock::handle`] does; the second value is the store's
    /// refusal with [`PersistentMock::with_own_store_of`] (the change is then undone).
    pub fn update<T>(&self, f: impl FnOnce(&mut M) -> T) -> (T, Option<String>) {
        self.change(|mock| {
            let before = mock.revision();
            let value = f(mock);
            let changed = mock.revision() != before;
            (value, changed)
        })
    }

    /// Answers one request as [`PersistentMock::handle`] does, with the delay or network failure
    /// the mock's options ask for.
    pub fn handle_timed(&self, request: &Request) -> Handled {
        let (mut handled, refused) = self.change(|mock| {
            let before = mock.revision();
            let handled = mock.handle_timed(request);
            let changed = mock.revision() != before;
            (handled, changed)
        });
        if let Some(reason) = refused {
            handled.response = not_saved_response(&reason);
        }
        handled
    }

    /// Replaces the state with the initial data (`seed`: the demo data, else empty) and saves.
    ///
    /// # Errors
    /// With [`PersistentMock::with_own_store_of`], the store's sentence when it refused the
    /// write; the state is then as it was.
    pub fn reset(&self, seed: bool) -> Result<(), String> {
        let ((), refused) = self.change(|mock| {
            mock.reset(seed);
            ((), true)
        });
        refused.map_or(Ok(()), Err)
    }

    /// Resets to the data the mock was opened with (see [`MockOptions::seed`]).
    ///
    /// # Errors
    /// As [`PersistentMock::reset`].
    pub fn reset_to_initial(&self) -> Result<(), String> {
        let seed = self.inner.state.borrow().seed;
        self.reset(seed)
    }

    /// Replaces the state with a snapshot and saves it.
    ///
    /// # Errors
    /// [`SnapshotError`] when the text is not a snapshot of this mock, or (with
    /// [`PersistentMock::with_own_store_of`]) the store refused it; the state is untouched.
    pub fn restore(&self, snapshot: &str) -> Result<(), SnapshotError> {
        let (restored, refused) = self.change(|mock| match mock.restore(snapshot) {
            Ok(()) => (Ok(()), true),
            Err(error) => (Err(error), false),
        });
        match refused {
            Some(reason) => Err(SnapshotError::NotSaved(reason)),
            None => restored,
        }
    }

    /// The whole state as versioned JSON, after taking in other tabs' writes.
    #[must_use]
    pub fn snapshot(&self) -> String {
        self.sync();
        self.inner.state.borrow().mock.snapshot()
    }

    /// What the user should know now: the notice from opening (until dismissed), a failing
    /// save (until a save succeeds), a change lost to another tab (until dismissed).
    #[must_use]
    pub fn notices(&self) -> Vec<Notice> {
        let state = self.inner.state.borrow();
        let mut notices: Vec<Notice> = state.start_notice.iter().cloned().collect();
        if let Some(reason) = &state.not_saved {
            notices.push(Notice::NotSaved { reason: reason.clone() });
        }
        if state.overwritten {
            notices.push(Notice::Overwritten);
        }
        notices
    }

    /// Hides the notices that report something past (the one from opening, a lost change).
    pub fn dismiss_notices(&self) {
        {
            let mut state = self.inner.state.borrow_mut();
            state.start_notice = None;
            state.overwritten = false;
        }
        self.notify();
    }

    /// The storage key, `None` when the state is kept in memory only.
    #[must_use]
    pub fn storage_key(&self) -> Option<String> {
        self.inner.state.borrow().saving.as_ref().map(|s| s.key.clone())
    }

    /// The generation of the stored state this tab's state is based on (0 before any write).
    #[must_use]
    pub fn generation(&self) -> u64 {
        self.inner.state.borrow().saving.as_ref().map_or(0, |s| s.local.generation)
    }

    /// Re-reads storage and takes another tab's newer state. Returns whether the state changed;
    /// subscribers are told when it did. Runs by itself before every change and on `storage`
    /// events.
    pub fn sync(&self) -> bool {
        let changed = self.inner.state.borrow_mut().sync();
        if changed {
            self.notify();
        }
        changed
    }

    /// Calls `callback` with this mock after every change of state or notices, whichever tab
    /// made it. The mock does not keep itself alive through its callbacks: read it from the
    /// argument rather than capturing a clone.
    pub fn subscribe(&self, callback: impl Fn(&PersistentMock<M>) + 'static) -> Subscription {
        let id = self.inner.next_subscription.get();
        self.inner.next_subscription.set(id + 1);
        self.inner.subscribers.borrow_mut().push((id, Rc::new(callback)));
        Subscription(id)
    }

    /// Stops calling a callback registered with [`PersistentMock::subscribe`].
    pub fn unsubscribe(&self, subscription: Subscription) {
        self.inner.subscribers.borrow_mut().retain(|(id, _)| *id != subscription.0);
    }

    /// Syncs, runs `f` on the mock, saves when `f` says it changed the state, then tells the
    /// subscribers (outside the borrow, so they may read the mock). With
    /// [`PersistentMock::with_own_store_of`], a change the store refused is undone and the
    /// second value says why.
    fn change<T>(&self, f: impl FnOnce(&mut M) -> (T, bool)) -> (T, Option<String>) {
        let (value, notify, refused) = {
            let mut state = self.inner.state.borrow_mut();
            let adopted = state.sync();
            let (value, changed) = f(&mut state.mock);
            let refused = if changed { state.save().err().filter(|_| state.refuse_unsaved) } else { None };
            if refused.is_some() {
                state.undo_unsaved();
            }
            (value, adopted || (changed && refused.is_none()), refused)
        };
        if notify {
            self.notify();
        }
        (value, refused)
    }

    fn notify(&self) {
        let callbacks: Vec<Callback<M>> =
            self.inner.subscribers.borrow().iter().map(|(_, callback)| Rc::clone(callback)).collect();
        for callback in callbacks {
            callback(self);
        }
    }
}

impl<M: StatefulMock> State<M> {
    fn new(mock: M, seed: bool, saving: Option<Saving>) -> Self {
        Self {
            mock,
            seed,
            saving,
            start_notice: None,
            not_saved: None,
            overwritten: false,
            refuse_unsaved: false,
        }
    }

    /// Opens the state saved under `key`. `strict`: a store or a saved value that cannot be
    /// read is an error (the reason) rather than a fresh start; only then is there an error.
    fn open(
        initial: Initial<M>,
        store: Box<dyn KeyValueStore>,
        key: String,
        seed: bool,
        strict: bool,
    ) -> Result<(Self, Option<Notice>), String> {
        let stored = match store.get(&key) {
            Ok(stored) => stored,
            Err(error) if strict => return Err(error.to_string()),
            Err(error) => {
                let notice = Notice::StorageUnavailable { reason: error.to_string() };
                let mut state = Self::new(initial(seed), seed, None);
                state.start_notice = Some(notice.clone());
                return Ok((state, Some(notice)));
            }
        };
        let mut saving = Saving::new(store, key, Local { seen: stored.clone(), ..Local::default() });
        let mut mock = initial(seed);
        let refused = match sync::start(stored.as_deref()) {
            Start::Empty => None,
            Start::Saved(saved) => match saving.take(&mut mock, &saved) {
                Ok(generation) => {
                    saving.local.generation = generation;
                    None
                }
                Err(reason) => {
                    mock = initial(seed);
                    Some(reason)
                }
            },
            Start::Unreadable { reason } => Some(reason),
        };
        if let Some(reason) = refused.as_ref().filter(|_| strict) {
            return Err(reason.clone());
        }
        let mut state = Self::new(mock, seed, Some(saving));
        let notice = refused.map(|reason| Notice::StartedFresh { reason });
        if notice.is_some() {
            // Replace the unreadable value so the next start is clean and other tabs follow.
            let _ = state.save();
        }
        state.start_notice.clone_from(&notice);
        Ok((state, notice))
    }

    /// Takes another tab's write, if any; returns whether the state changed.
    fn sync(&mut self) -> bool {
        let Some(saving) = &mut self.saving else { return false };
        // `seen` is what the store last read or wrote (every read and successful write below
        // and in `open` sets it), so an unchanged store needs no read.
        if saving.store.unchanged(&saving.key) {
            return false;
        }
        let Ok(stored) = saving.store.get(&saving.key) else { return false };
        let (taken, discards_ours) = match sync::sync(&saving.local, stored.as_deref()) {
            Sync::UpToDate => return false,
            Sync::Unreadable => (None, false),
            Sync::Adopt { stored, discards_ours } => {
                let ours = saving.chain().cloned().filter(|_| saving.local.wrote_seen && discards_ours);
                let taken = saving.take(&mut self.mock, &stored).ok();
                if taken.is_some() {
                    saving.remove_lost_write(ours.as_ref());
                }
                (taken, discards_ours)
            }
        };
        let Some(generation) = taken else {
            // Not a state we can take: keep ours; our next write replaces it.
            saving.local.seen = stored;
            saving.local.wrote_seen = false;
            saving.forget_chain();
            return false;
        };
        saving.local = Local { generation, seen: stored, wrote_seen: false, unsaved: false };
        self.not_saved = None;
        self.overwritten |= discards_ours;
        true
    }

    /// Puts back the state the store holds (the change just made could not be saved), or the
    /// initial data when it holds none that can be read.
    fn undo_unsaved(&mut self) {
        let Some(saving) = &mut self.saving else { return };
        saving.local.unsaved = false;
        self.not_saved = None;
        let stored = saving.local.seen.clone();
        let restored = stored
            .as_deref()
            .and_then(|text| Stored::decode(text).ok())
            .is_some_and(|stored| saving.take(&mut self.mock, &stored).is_ok());
        if !restored {
            self.mock.reset(self.seed);
            saving.forget_chain();
            saving.clear_pending();
        }
    }

    /// Writes what changed under the next generation; on failure keeps it in memory and says
    /// so (the error is the store's sentence).
    fn save(&mut self) -> Result<(), String> {
        let Some(saving) = &mut self.saving else { return Ok(()) };
        match saving.save(&mut self.mock) {
            Ok(()) => {
                self.not_saved = None;
                Ok(())
            }
            Err(error) => {
                saving.local.unsaved = true;
                self.not_saved = Some(error.to_string());
                Err(error.to_string())
            }
        }
    }
}
