//! The page's in-browser mock, as the reference lends it: `mock/petstore_mock.js`'s
//! `PetstoreMock`, which answers at once and tells the page about every change itself.

use js_sys::Function;
use petstore_http::{Request, Response};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

use crate::message_of;

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
        serde_json::from_str(&answer).map_err(|e| format!("The mock's answer could not be read: {e}."))
    }
}
