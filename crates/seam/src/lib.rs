//! What crosses between the page's WebAssembly modules: the app (the reference), the try-it
//! module (`crates/tryit`) and the mock modules (`crates/modules/mock`: `PetstoreMock`;
//! `crates/modules/api-mock`: `ApiMock`). Each module is a wasm of its own, so a value crosses
//! as JavaScript; this crate is the one place both sides of each crossing take their types
//! from, so neither side reads strings the other wrote by hand.
//!
//! - The request and the answer are [`Request`] and [`Response`] (`playground_http`'s): the
//!   try-it panel and the page hand them to the mock object's `handleJson` as JSON text, one
//!   `serde_json` pass each way ([`MockHandle::answer`]).
//! - The drift check gives [`Checked`] (its [`Mismatch`]es' kind the enum [`MismatchKind`]),
//!   recording a real answer [`Recorded`], the Petstore's mock [`Counts`], another document's
//!   mock [`ResourceCount`]s, and both [`MockNotice`]s: the mock module writes them and the page
//!   and the try-it module read them with the same types.
//! - A try-it panel is mounted with [`MountOptions`] (the operation's view, its security, how
//!   the mock is offered as a target ([`MockOffer`]) and the document's key), one JSON text.
//! - [`MockHandle`] is the one binding of the mock object (`PetstoreMock` or `ApiMock`) the app
//!   opens and the try-it module borrows: the page lends it with [`lend`], the panel takes it
//!   with [`borrow`].
//!
//! Values cross as JSON text with the `serde_json` every module already carries, not as
//! JavaScript objects built by `serde-wasm-bindgen`: that would add its (de)serializer to the
//! reference's first download, and building and reading objects cost a try-it round trip more
//! than writing and reading the text (`docs/decisions.md`). The mock module's public `handle()` still
//! takes and gives objects; `handleJson` is the same call with text.
#![deny(missing_docs)]

use serde::{Deserialize, Serialize};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

pub use petstore::Counts;
pub use playground_http::{Request, Response};
pub use playground_mock::{Mismatch, MismatchKind, MockNotice, NoticeKind};

/// What the mock's drift check answers (`checkExchangeJson`): the operation the request named,
/// when one did, and every way the exchange departs from the description.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Checked {
    /// The operation (its `operationId`, else `METHOD template`), when the request names one.
    #[serde(default)]
    pub operation: Option<String>,
    /// What departs from the description; empty when nothing does.
    pub mismatches: Vec<Mismatch>,
}

impl From<playground_mock::Checked> for Checked {
    fn from(checked: playground_mock::Checked) -> Self {
        Self { operation: checked.operation, mismatches: checked.mismatches }
    }
}

/// What keeping a real server's answer in the mock did (`recordJson`): the items stored and
/// removed, and the same in words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Recorded {
    /// Items stored (new or replaced).
    pub stored: usize,
    /// Items removed.
    pub removed: usize,
    /// What was kept, as a sentence (`2 items stored.`).
    pub summary: String,
}

impl Recorded {
    /// Whether the answer changed nothing in the mock.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.stored + self.removed == 0
    }
}

impl From<playground_mock::Recorded> for Recorded {
    fn from(recorded: playground_mock::Recorded) -> Self {
        let items = |n: usize| if n == 1 { "1 item".to_owned() } else { format!("{n} items") };
        let summary = match (recorded.stored, recorded.removed) {
            (0, 0) => "the answer names no item of a resource the mock keeps.".to_owned(),
            (stored, 0) => format!("{} stored.", items(stored)),
            (0, removed) => format!("{} removed.", items(removed)),
            (stored, removed) => format!("{} stored, {} removed.", items(stored), items(removed)),
        };
        Self { stored: recorded.stored, removed: recorded.removed, summary }
    }
}

/// A resource another document's mock stores, with how many items it holds (what the page reads
/// of each of `ApiMock`'s `resources()`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResourceCount {
    /// The collection's path, such as `/things`.
    pub collection: String,
    /// How many items it holds.
    pub count: usize,
}

/// How a try-it panel offers the in-browser mock as a target. On the wire: `first`, `offered`,
/// `none`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MockOffer {
    /// The target a new panel starts with (the built-in document's mock).
    First,
    /// A target, but a new panel starts on the document's first server (a loaded document's
    /// mock: a reader of an API's reference expects its server first).
    Offered,
    /// Not offered (the page has no mock).
    None,
}

/// What the page mounts a try-it panel with (`mountTryIt`'s options, one JSON text): the
/// operation's view (`V` is the reference's `OperationView`, borrowed where it is written and
/// owned where it is read), its security (`A` is the reference's `Access`; a reader that does
/// not use it gives `serde::de::IgnoredAny`, which skips it without code to read it), how the
/// mock is offered, and the key of the document (its address, or its title), under which
/// credentials are kept.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MountOptions<V, A> {
    /// The operation's view.
    pub view: V,
    /// The operation's security.
    pub access: A,
    /// How the in-browser mock is offered as a target.
    pub mock: MockOffer,
    /// The document's key.
    pub document_key: String,
}

impl<V: Serialize, A: Serialize> MountOptions<V, A> {
    /// The options as the JSON text `mountTryIt` takes.
    ///
    /// # Errors
    /// The view cannot be written as JSON (the message says why).
    pub fn to_json(&self) -> Result<String, String> {
        serde_json::to_string(self).map_err(|e| format!("The operation could not be written: {e}."))
    }
}

impl<V: serde::de::DeserializeOwned, A: serde::de::DeserializeOwned> MountOptions<V, A> {
    /// The options `to_json` wrote.
    ///
    /// # Errors
    /// The text is not such options (the message says why).
    pub fn from_json(text: &str) -> Result<Self, String> {
        serde_json::from_str(text).map_err(|e| format!("The operation could not be read: {e}."))
    }
}

#[wasm_bindgen]
extern "C" {
    /// A `PetstoreMock` of `mock/petstore_mock.js` or an `ApiMock` of
    /// `api-mock/playground_api_mock.js` (see their `.d.ts`): the page opens it, the try-it
    /// module borrows it.
    #[derive(Debug, Clone)]
    pub type MockHandle;

    #[wasm_bindgen(method, catch, js_name = handleJson)]
    fn handle_json(this: &MockHandle, request: &str) -> Result<String, JsValue>;
    #[wasm_bindgen(method, catch, js_name = checkExchangeJson)]
    fn check_exchange_json(this: &MockHandle, request: &str, response: &str) -> Result<String, JsValue>;
    #[wasm_bindgen(method, catch, js_name = recordJson)]
    fn record_json(this: &MockHandle, request: &str, response: &str) -> Result<String, JsValue>;
    #[wasm_bindgen(method, js_name = counts)]
    fn counts_js(this: &MockHandle) -> JsValue;
    #[wasm_bindgen(method, js_name = resources)]
    fn resources_js(this: &MockHandle) -> JsValue;
    #[wasm_bindgen(method, js_name = notices)]
    fn notices_js(this: &MockHandle) -> JsValue;

    /// Answers as `window.fetch` would: a promise of a `Response`.
    #[wasm_bindgen(method, catch)]
    pub fn fetch(this: &MockHandle, input: &web_sys::Request) -> Result<js_sys::Promise, JsValue>;
    /// Replaces the data with the demo data (`seed`, the Petstore's only) or nothing.
    #[wasm_bindgen(method)]
    pub fn reset(this: &MockHandle, seed: bool);
    /// The whole state as versioned JSON.
    #[wasm_bindgen(method)]
    pub fn snapshot(this: &MockHandle) -> String;
    /// Replaces the state with a snapshot; throws why it was refused.
    #[wasm_bindgen(method, catch)]
    pub fn restore(this: &MockHandle, snapshot: &str) -> Result<(), JsValue>;
    /// Hides the notices that report something past.
    #[wasm_bindgen(method, js_name = dismissNotices)]
    pub fn dismiss_notices(this: &MockHandle);
    /// Frees the WebAssembly side of the mock (wasm-bindgen's own method).
    #[wasm_bindgen(method)]
    pub fn free(this: &MockHandle);
    /// Calls `callback` after every change; returns the function that stops it.
    #[wasm_bindgen(method, js_name = onChange)]
    pub fn on_change(this: &MockHandle, callback: &js_sys::Function) -> js_sys::Function;
}

impl MockHandle {
    /// Answers `request` at once (saved, and seen by other tabs, when it changes the state): the
    /// request written once as JSON text, the answer read once.
    ///
    /// # Errors
    /// The mock refused the request, or its answer cannot be read (the message says why).
    pub fn answer(&self, request: &Request) -> Result<Response, String> {
        let asked = to_text(request)?;
        let answer = self.handle_json(&asked).map_err(|e| playground_browser::message_of(&e))?;
        serde_json::from_str(&answer).map_err(|e| format!("The mock's answer could not be read: {e}."))
    }

    /// How `response`, a real server's answer to `request`, compares with the description the
    /// mock was made from (the request too). Changes nothing.
    ///
    /// # Errors
    /// The mock could not check them (the message says why).
    pub fn check(&self, request: &Request, response: &Response) -> Result<Checked, String> {
        let checked = self
            .check_exchange_json(&to_text(request)?, &to_text(response)?)
            .map_err(|e| playground_browser::message_of(&e))?;
        serde_json::from_str(&checked).map_err(|e| format!("The mock's check could not be read: {e}."))
    }

    /// Keeps `response`, a real server's answer to `request`, in the mock (another document's:
    /// the Petstore's refuses).
    ///
    /// # Errors
    /// The mock kept nothing because it refused (the message says why).
    pub fn record(&self, request: &Request, response: &Response) -> Result<Recorded, String> {
        let recorded = self
            .record_json(&to_text(request)?, &to_text(response)?)
            .map_err(|e| playground_browser::message_of(&e))?;
        serde_json::from_str(&recorded).map_err(|e| format!("The mock's answer could not be read: {e}."))
    }

    /// How many of each thing the Petstore's mock holds (zeros for another document's).
    #[must_use]
    pub fn counts(&self) -> Counts {
        from_object(&self.counts_js()).unwrap_or_default()
    }

    /// The resources another document's mock stores (none for the Petstore's).
    #[must_use]
    pub fn resources(&self) -> Vec<ResourceCount> {
        from_object(&self.resources_js()).unwrap_or_default()
    }

    /// What the user should know about where the mock's state is kept.
    #[must_use]
    pub fn notices(&self) -> Vec<MockNotice> {
        from_object(&self.notices_js()).unwrap_or_default()
    }
}

/// What the page hands the try-it module when it asks for the mock: the mock, or why there is
/// none now (a string). [`borrow`] reads it.
#[must_use]
pub fn lend(mock: Result<&MockHandle, &str>) -> JsValue {
    match mock {
        Ok(handle) => JsValue::from(handle),
        Err(reason) => JsValue::from_str(reason),
    }
}

/// The mock [`lend`] handed over, or why there is none.
///
/// # Errors
/// The page has no mock now (why), or handed over something else.
pub fn borrow(lent: JsValue) -> Result<MockHandle, String> {
    if let Some(reason) = lent.as_string() {
        return Err(reason);
    }
    if !lent.is_object() {
        return Err("The in-browser mock is not available on this page.".to_owned());
    }
    Ok(lent.unchecked_into())
}

/// `value` as the JSON text the mock object's `…Json` methods take.
fn to_text<T: Serialize>(value: &T) -> Result<String, String> {
    serde_json::to_string(value).map_err(|e| e.to_string())
}

/// Reads a JavaScript value the mock module built (`counts()`, `resources()`, `notices()`) as
/// its serde type, through its JSON text: the `serde_json` reader of `Value` the page carries
/// anyway, not a second (de)serializer.
fn from_object<T: serde::de::DeserializeOwned>(value: &JsValue) -> Result<T, String> {
    let text = js_sys::JSON::stringify(value).map_err(|e| playground_browser::message_of(&e))?;
    let value: serde_json::Value = serde_json::from_str(&String::from(text)).map_err(|e| e.to_string())?;
    T::deserialize(&value).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use serde_json::json;

    #[test]
    fn mount_options_written_borrowed_are_read_owned() {
        let view = json!({"operationId": "listPets"});
        let access = json!({"schemes": [{"name": "key"}]});
        let written = MountOptions {
            view: &view,
            access: &access,
            mock: MockOffer::Offered,
            document_key: "doc".to_owned(),
        };
        let text = written.to_json().unwrap();
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&text).unwrap(),
            json!({"view": {"operationId": "listPets"}, "access": access, "mock": "offered", "documentKey": "doc"})
        );
        let read: MountOptions<serde_json::Value, serde_json::Value> =
            MountOptions::from_json(&text).unwrap();
        assert_eq!(
            read,
            MountOptions { view, access, mock: MockOffer::Offered, document_key: "doc".to_owned() }
        );
    }

    #[test]
    fn a_reader_without_the_security_skips_it() {
        let text = r#"{"view": {}, "access": {"schemes": [{"name": "key", "kind": [1, {"a": null}]}]},
            "mock": "none", "documentKey": "doc"}"#;
        let read = MountOptions::<serde_json::Value, serde::de::IgnoredAny>::from_json(text).unwrap();
        assert_eq!((read.view, read.mock, read.document_key.as_str()), (json!({}), MockOffer::None, "doc"));
        let missing = r#"{"view": {}, "mock": "none", "documentKey": "doc"}"#;
        let error = MountOptions::<serde_json::Value, serde::de::IgnoredAny>::from_json(missing).unwrap_err();
        assert!(error.contains("missing field `access`"), "{error}");
    }

    #[test]
    fn a_mock_offer_is_one_of_three_names() {
        for (offer, name) in
            [(MockOffer::First, "first"), (MockOffer::Offered, "offered"), (MockOffer::None, "none")]
        {
            assert_eq!(serde_json::to_value(offer).unwrap(), json!(name));
        }
        let unknown = r#"{"view": {}, "access": {}, "mock": "maybe", "documentKey": "doc"}"#;
        let error = MountOptions::<serde_json::Value, serde_json::Value>::from_json(unknown).unwrap_err();
        assert!(error.starts_with("The operation could not be read: unknown variant `maybe`"), "{error}");
    }

    #[test]
    fn the_drift_check_is_read_as_the_mock_writes_it() {
        let written = playground_mock::Checked {
            operation: Some("listPets".to_owned()),
            mismatches: vec![Mismatch {
                kind: MismatchKind::MediaType,
                pointer: String::new(),
                rule: "text/plain is not documented".to_owned(),
            }],
        };
        let text = serde_json::to_string(&Checked::from(written.clone())).unwrap();
        assert!(text.contains(r#""kind":"media-type""#), "{text}");
        let read: Checked = serde_json::from_str(&text).unwrap();
        assert_eq!((read.operation, read.mismatches), (written.operation, written.mismatches));
        // A kind the page does not know is refused, not shown as text.
        let unknown = r#"{"operation": null, "mismatches": [{"kind": "mood", "pointer": "", "rule": "x"}]}"#;
        assert!(serde_json::from_str::<Checked>(unknown).is_err());
    }

    #[test]
    fn recorded_says_what_was_kept() {
        let of = |stored, removed| Recorded::from(playground_mock::Recorded { stored, removed });
        assert_eq!(of(1, 0).summary, "1 item stored.");
        assert_eq!(of(0, 3).summary, "3 items removed.");
        assert_eq!(of(2, 1).summary, "2 items stored, 1 item removed.");
        assert!(of(0, 0).is_empty() && !of(0, 1).is_empty());
        let text = serde_json::to_string(&of(2, 0)).unwrap();
        assert_eq!(text, r#"{"stored":2,"removed":0,"summary":"2 items stored."}"#);
        assert_eq!(serde_json::from_str::<Recorded>(&text).unwrap(), of(2, 0));
    }

    #[test]
    fn counts_and_notices_read_their_wire_names() {
        let counts: Counts = serde_json::from_value(
            json!({"pets": 3, "categories": 2, "orders": 1, "openOrders": 1, "stock": 9}),
        )
        .unwrap();
        assert_eq!((counts.pets, counts.open_orders, counts.stock), (3, 1, 9));
        let notice: MockNotice =
            serde_json::from_value(json!({"kind": "not-saved", "message": "Full."})).unwrap();
        assert_eq!(notice.kind, NoticeKind::NotSaved);
        let resource: ResourceCount = serde_json::from_value(
            json!({"collection": "/things", "item": "/things/{id}", "idField": "id", "count": 4}),
        )
        .unwrap();
        assert_eq!(resource, ResourceCount { collection: "/things".to_owned(), count: 4 });
    }
}
