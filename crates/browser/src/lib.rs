//! The browser helpers the reference app, the mock module, the try-it module and the Domains
//! page share: `localStorage` whose errors tell a full storage (`QuotaExceededError`) from an
//! unusable one, and file downloads. Callers turn the errors into their own sentences for the
//! user. And what the reference and its try-it module say to each other of a document's
//! credentials ([`credentials`]: the `window` event a vault sends when its usable credentials
//! change, and the remembered schemes the page reads before the module is loaded).
//!
//! Every key the pages keep starts with [`PREFIX`] (`playground/`); [`move_legacy_keys`], called
//! once when a page starts, moves keys saved under the earlier prefix [`LEGACY_PREFIX`].
#![deny(missing_docs)]

pub mod credentials;
mod download;
mod storage;

pub use download::{DownloadError, download, download_json};
pub use storage::{LEGACY_PREFIX, LocalStorage, PREFIX, StorageError, get, move_legacy_keys, remove, set};

use wasm_bindgen::{JsCast, JsValue};

/// The message of a JavaScript error or rejection: an `Error`'s message, a thrown string, else
/// "unknown error" (for sentences that say what failed around it).
#[must_use]
pub fn message_of(error: &JsValue) -> String {
    error
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| error.as_string())
        .unwrap_or_else(|| "unknown error".to_owned())
}

/// A readable line for a thrown JavaScript value: `Name: message` for a `DOMException` or an
/// `Error`, the text of a thrown string.
#[must_use]
pub fn describe(error: &JsValue) -> String {
    if let Some(exception) = error.dyn_ref::<web_sys::DomException>() {
        return format!("{}: {}", exception.name(), exception.message());
    }
    if let Some(error) = error.dyn_ref::<js_sys::Error>() {
        return format!("{}: {}", error.name(), error.message());
    }
    error.as_string().unwrap_or_else(|| "an unknown error".to_owned())
}
