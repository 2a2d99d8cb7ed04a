//! The page's in-browser mock, as the reference lends it: `mock/petstore_mock.js`'s
//! `PetstoreMock`, which answers at once and tells the page about every change itself.

use js_sys::Function;
use petstore_http::{Request, Response};
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

    /// Answers `request` at once (saved, and seen by other tabs, when it changes the state).
    ///
    /// # Errors
    /// There is no mock now, or the request cannot be read (the message says why).
    pub fn answer(&self, request: &Request) -> Result<Response, String> {
        let handle = self.lend.call0(&JsValue::UNDEFINED).map_err(|e| message_of(&e))?;
        if let Some(reason) = handle.as_string() {
            return Err(reason);
        }
        if !handle.is_object() {
            return Err("The in-browser mock is not available on this page.".to_owned());
        }
        // The request and the answer cross as JSON text, with the serde_json both sides carry:
        // no JavaScript object is built or read for them.
        let asked = serde_json::to_string(request).map_err(|e| e.to_string())?;
        let answer = handle.unchecked_into::<MockHandle>().answer(&asked).map_err(|e| message_of(&e))?;
        let answer: Response = serde_json::from_str(&answer)
            .map_err(|e| format!("The mock's answer could not be read: {e}."))?;
        if answer.status == 201
            && let Some((collection, id)) =
                answer.header_value("Location").and_then(petstore_tryit_core::prefill::created_id)
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
