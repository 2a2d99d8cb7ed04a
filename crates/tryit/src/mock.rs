//! The page's in-browser mock, as the reference lends it: `mock/petstore_mock.js`'s
//! `PetstoreMock`, which answers at once and tells the page about every change itself.

use js_sys::Function;
use playground_http::{Request, Response};
use wasm_bindgen::JsCast;
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

#[wasm_bindgen]
extern "C" {
    /// A `PetstoreMock` of `petstore_mock.js` (see its `.d.ts`).
    type MockHandle;

    #[wasm_bindgen(method, catch, js_name = handleJson)]
    fn answer(this: &MockHandle, request: &str) -> Result<String, JsValue>;

    #[wasm_bindgen(method, catch, js_name = checkExchangeJson)]
    fn check_exchange(this: &MockHandle, request: &str, response: &str) -> Result<String, JsValue>;

    #[wasm_bindgen(method, catch, js_name = recordJson)]
    fn record(this: &MockHandle, request: &str, response: &str) -> Result<String, JsValue>;
}

/// One way an exchange departs from the description.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
pub struct Mismatch {
    /// What it is about: `operation`, `request`, `status`, `media-type`, `header` or `body`.
    pub kind: String,
    /// Where in the body, as a JSON pointer (empty for the status, a header, the whole body).
    pub pointer: String,
    /// The rule broken, in words.
    pub rule: String,
}

/// What the mock's drift check answers (`checkExchangeJson`).
#[derive(Debug, serde::Deserialize)]
struct Checked {
    mismatches: Vec<Mismatch>,
}

/// What the mock's `recordJson` answers: the items it stored and removed, in words too.
#[derive(Debug, serde::Deserialize)]
struct Recorded {
    stored: usize,
    removed: usize,
    summary: String,
}

/// A function that returns the page's mock, or a string saying why there is none yet.
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
        let handle = self.lend.call0(&JsValue::UNDEFINED).map_err(|e| message_of(&e))?;
        if let Some(reason) = handle.as_string() {
            return Err(reason);
        }
        if !handle.is_object() {
            return Err("The in-browser mock is not available on this page.".to_owned());
        }
        Ok(handle.unchecked_into())
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
        let handle = self.handle()?;
        let asked = serde_json::to_string(request).map_err(|e| e.to_string())?;
        let answered = serde_json::to_string(response).map_err(|e| e.to_string())?;
        let checked = handle.check_exchange(&asked, &answered).map_err(|e| message_of(&e))?;
        let checked: Checked = serde_json::from_str(&checked)
            .map_err(|e| format!("The mock's check could not be read: {e}."))?;
        Ok(checked.mismatches)
    }

    /// Keeps `response`, a real server's answer to `request`, in the mock: a read item becomes
    /// a record of its resource, a list's items records (saved, and seen by other tabs); says
    /// what was kept.
    ///
    /// # Errors
    /// There is no mock now, or it kept nothing (the message says why).
    pub fn keep(&self, request: &Request, response: &Response) -> Result<String, String> {
        let handle = self.handle()?;
        let asked = serde_json::to_string(request).map_err(|e| e.to_string())?;
        let answered = serde_json::to_string(response).map_err(|e| e.to_string())?;
        let recorded = handle.record(&asked, &answered).map_err(|e| message_of(&e))?;
        let recorded: Recorded = serde_json::from_str(&recorded)
            .map_err(|e| format!("The mock's answer could not be read: {e}."))?;
        if recorded.stored + recorded.removed == 0 {
            return Err(recorded.summary);
        }
        Ok(recorded.summary)
    }

    /// Answers `request` at once (saved, and seen by other tabs, when it changes the state).
    ///
    /// # Errors
    /// There is no mock now, or the request cannot be read (the message says why).
    pub fn answer(&self, request: &Request) -> Result<Response, String> {
        let handle = self.handle()?;
        // The request and the answer cross as JSON text, with the serde_json both sides carry:
        // no JavaScript object is built or read for them.
        let asked = serde_json::to_string(request).map_err(|e| e.to_string())?;
        let answer = handle.answer(&asked).map_err(|e| message_of(&e))?;
        let answer: Response = serde_json::from_str(&answer)
            .map_err(|e| format!("The mock's answer could not be read: {e}."))?;
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
