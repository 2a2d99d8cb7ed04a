//! The page's in-browser mock, as the reference lends it: `mock/petstore_mock.js`'s
//! `PetstoreMock` (or another document's `ApiMock`), which answers at once and tells the page
//! about every change itself. The mock object and what crosses to it are `playground_seam`'s.

use js_sys::Function;
use playground_http::{Request, Response};
use playground_seam::MockHandle;
pub use playground_seam::{Mismatch, MismatchKind};
use wasm_bindgen::prelude::*;

use crate::message_of;

thread_local! {
    /// The id the reader last created in each collection of the in-browser mock, this page
    /// (`/books` -> `7`, from a create's `Location`): an item path's id starts there.
    static CREATED: std::cell::RefCell<std::collections::HashMap<String, String>> = Default::default();
}

/// The id last created in `collection` through a panel of this page, if any.
#[must_use]
pub fn last_created(collection: &str) -> Option<String> {
    CREATED.with(|created| created.borrow().get(collection).cloned())
}

/// A function that returns the page's mock, or a string saying why there is none yet
/// (`playground_seam::lend`).
#[derive(Debug, Clone)]
pub struct MockLink {
    lend: Function,
}

impl MockLink {
    /// The mock `lend` returns.
    #[must_use]
    pub fn new(lend: Function) -> Self {
        Self { lend }
    }

    /// Asks for the mock without sending anything: a mock that starts on demand starts now, so
    /// it is ready by the time a request is sent.
    pub fn prepare(&self) {
        let _ = self.lend.call0(&JsValue::UNDEFINED);
    }

    /// The page's mock, if it is ready (else why not).
    fn handle(&self) -> Result<MockHandle, String> {
        playground_seam::borrow(self.lend.call0(&JsValue::UNDEFINED).map_err(|e| message_of(&e))?)
    }

    /// Whether the mock is there now (a mock that starts on demand may still be starting).
    #[must_use]
    pub fn ready(&self) -> bool {
        self.handle().is_ok()
    }

    /// How `response`, a real server's answer to `request`, compares with the description the
    /// mock was made from (the request too): the mismatches, none when it matches.
    ///
    /// # Errors
    /// There is no mock now, or it could not check them (the message says why).
    pub fn check(&self, request: &Request, response: &Response) -> Result<Vec<Mismatch>, String> {
        Ok(self.handle()?.check(request, response)?.mismatches)
    }

    /// Keeps `response`, a real server's answer to `request`, in the mock: a read item becomes
    /// a record of its resource, a list's items records (saved, and seen by other tabs); says
    /// what was kept.
    ///
    /// # Errors
    /// There is no mock now, or it kept nothing (the message says why).
    pub fn keep(&self, request: &Request, response: &Response) -> Result<String, String> {
        let recorded = self.handle()?.record(request, response)?;
        if recorded.is_empty() {
            return Err(recorded.summary);
        }
        Ok(recorded.summary)
    }

    /// Answers `request` at once (saved, and seen by other tabs, when it changes the state).
    ///
    /// # Errors
    /// There is no mock now, or the request cannot be read (the message says why).
    pub fn answer(&self, request: &Request) -> Result<Response, String> {
        let answer = self.handle()?.answer(request)?;
        if answer.status == 201
            && let Some((collection, id)) =
                answer.header_value("Location").and_then(playground_tryit_core::prefill::created_id)
        {
            CREATED.with(|created| {
                let mut created = created.borrow_mut();
                // Bounded: one entry per collection, and a page has few.
                if created.len() < 1_000 || created.contains_key(&collection) {
                    created.insert(collection, id);
                }
            });
        }
        Ok(answer)
    }
}
