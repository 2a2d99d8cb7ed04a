//! The app's handle on the in-browser mock: opened once at `App` and provided through context;
//! its counts and notices are signals that follow every change, whichever tab made it.

use leptos::prelude::*;
use petstore_core::{Counts, Request, Response};
use petstore_web::{MockOptions, Notice, PersistentMock};

/// Where the app saves the mock (`localStorage`). Another version of the snapshot format gets
/// another key, so an old tab never reads a newer format.
pub const STORAGE_KEY: &str = "petstore-playground/mock/v1";

/// The mock and what the page shows of it. `Copy`: hand it to any component.
#[derive(Debug, Clone, Copy)]
pub struct MockState {
    mock: StoredValue<PersistentMock, LocalStorage>,
    counts: RwSignal<Counts>,
    notices: RwSignal<Vec<Notice>>,
}

impl MockState {
    /// Opens the mock saved under `storage_key`, with the demo data on first start.
    #[must_use]
    pub fn open(storage_key: &str) -> Self {
        let options = MockOptions { seed: true, storage_key: Some(storage_key.to_owned()) };
        let (mock, _) = PersistentMock::open(&options);
        let counts = RwSignal::new(mock.counts());
        let notices = RwSignal::new(mock.notices());
        mock.subscribe(move |mock| {
            // Set only what changed, so an alert is not re-announced on every change. The
            // signals are gone only in a torn-down view: nothing to update then.
            let (now_counts, now_notices) = (mock.counts(), mock.notices());
            if counts.try_with_untracked(|c| *c != now_counts).unwrap_or(false) {
                counts.try_set(now_counts);
            }
            if notices.try_with_untracked(|n| *n != now_notices).unwrap_or(false) {
                notices.try_set(now_notices);
            }
        });
        Self { mock: StoredValue::new_local(mock), counts, notices }
    }

    /// The mock from the context `App` provides.
    ///
    /// # Panics
    /// Outside `App` (a component rendered on its own must be given a `MockState`).
    #[must_use]
    pub fn expect() -> Self {
        expect_context::<Self>()
    }

    /// How many of each thing the mock holds.
    #[must_use]
    pub fn counts(&self) -> Signal<Counts> {
        self.counts.into()
    }

    /// What the user should know about where the mock's state is kept.
    #[must_use]
    pub fn notices(&self) -> Signal<Vec<Notice>> {
        self.notices.into()
    }

    /// Answers a request (saved, and seen by other tabs, when it changes the state).
    #[must_use]
    pub fn handle(&self, request: &Request) -> Option<Response> {
        self.mock.try_get_value().map(|mock| mock.handle(request))
    }

    /// Replaces the data with the demo data (`seed`) or nothing.
    pub fn reset(&self, seed: bool) {
        if let Some(mock) = self.mock.try_get_value() {
            mock.reset(seed);
        }
    }

    /// Hides the notices that report something past.
    pub fn dismiss_notices(&self) {
        if let Some(mock) = self.mock.try_get_value() {
            mock.dismiss_notices();
        }
    }
}
