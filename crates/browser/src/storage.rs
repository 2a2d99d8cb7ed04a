//! This origin's `localStorage`, with errors that say whether the storage is full or cannot be
//! used at all.

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// A `Storage`, for reading values without copying them.
    type RawStorage;
    /// `Storage.getItem` as it answers: a string or `null`, left in JavaScript.
    #[wasm_bindgen(method, catch, js_name = getItem)]
    fn get_item(this: &RawStorage, key: &str) -> Result<JsValue, JsValue>;
    /// `Storage.setItem` with a string already in JavaScript.
    #[wasm_bindgen(method, catch, js_name = setItem)]
    fn set_item(this: &RawStorage, key: &str, value: &js_sys::JsString) -> Result<(), JsValue>;
}

use crate::describe;

/// Why `localStorage` refused a read or a write. Each carries what the browser said.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StorageError {
    /// The storage is full (`QuotaExceededError`).
    #[error("the browser's storage for this site is full ({0})")]
    QuotaExceeded(String),
    /// The storage cannot be used at all (disabled storage, a sandboxed frame, no window).
    #[error("the browser's storage cannot be used ({0})")]
    Unavailable(String),
    /// A store of the caller's own (an `ApiMock`'s `storage` option, such as a file) refused,
    /// in its own words.
    #[error("{0}")]
    Refused(String),
}

/// This origin's `localStorage`, shared by every tab of the origin.
#[derive(Debug, Clone)]
pub struct LocalStorage {
    storage: web_sys::Storage,
}

impl LocalStorage {
    /// The page's `localStorage`.
    ///
    /// # Errors
    /// [`StorageError::Unavailable`] outside a window, or when the browser refuses storage
    /// (disabled, sandboxed frame).
    pub fn open() -> Result<Self, StorageError> {
        let window = web_sys::window()
            .ok_or_else(|| StorageError::Unavailable("there is no window (a worker?)".into()))?;
        match window.local_storage() {
            Ok(Some(storage)) => Ok(Self { storage }),
            Ok(None) => Err(StorageError::Unavailable("the browser gives this page no localStorage".into())),
            Err(error) => Err(StorageError::Unavailable(describe(&error))),
        }
    }

    /// The value under `key`, `None` when there is none.
    ///
    /// # Errors
    /// [`StorageError::Unavailable`] when the browser refuses the read.
    pub fn get(&self, key: &str) -> Result<Option<String>, StorageError> {
        self.storage.get_item(key).map_err(|e| StorageError::Unavailable(describe(&e)))
    }

    /// The value under `key` as the JavaScript string it is (`None` when there is none): not
    /// copied into WebAssembly, for comparing with another such value in place.
    ///
    /// # Errors
    /// [`StorageError::Unavailable`] when the storage cannot be read.
    pub fn get_js(&self, key: &str) -> Result<Option<js_sys::JsString>, StorageError> {
        let storage: &RawStorage = self.storage.unchecked_ref();
        let value = storage.get_item(key).map_err(|e| StorageError::Unavailable(describe(&e)))?;
        Ok(value.dyn_into::<js_sys::JsString>().ok())
    }

    /// Writes `value` under `key`; on error the previous value is still there.
    ///
    /// # Errors
    /// [`StorageError::QuotaExceeded`] when the value does not fit, else
    /// [`StorageError::Unavailable`].
    pub fn set(&self, key: &str, value: &str) -> Result<(), StorageError> {
        self.storage.set_item(key, value).map_err(|error| write_error(&error))
    }

    /// [`LocalStorage::set`] with a value that is a JavaScript string already (kept by the
    /// caller to compare with later reads, see [`LocalStorage::get_js`]).
    ///
    /// # Errors
    /// As [`LocalStorage::set`].
    pub fn set_js(&self, key: &str, value: &js_sys::JsString) -> Result<(), StorageError> {
        let storage: &RawStorage = self.storage.unchecked_ref();
        storage.set_item(key, value).map_err(|error| write_error(&error))
    }

    /// Removes the value under `key` (nothing happens when there is none).
    ///
    /// # Errors
    /// [`StorageError::Unavailable`] when the browser refuses.
    pub fn remove(&self, key: &str) -> Result<(), StorageError> {
        self.storage.remove_item(key).map_err(|e| StorageError::Unavailable(describe(&e)))
    }
}

/// What a refused write was: the storage full, or not usable.
fn write_error(error: &JsValue) -> StorageError {
    let quota = error.dyn_ref::<web_sys::DomException>().is_some_and(|e| {
        // Chromium and Safari say QuotaExceededError; old Firefox said NS_ERROR_DOM_QUOTA_REACHED.
        e.name() == "QuotaExceededError" || e.name() == "NS_ERROR_DOM_QUOTA_REACHED" || e.code() == 22
    });
    if quota {
        StorageError::QuotaExceeded(describe(error))
    } else {
        StorageError::Unavailable(describe(error))
    }
}

/// The prefix of every key the page keeps in `localStorage` (`playground/theme`,
/// `playground/try-it/target`, `playground/mock/v1`, ...).
pub const PREFIX: &str = "playground/";

/// The prefix the same keys had before: [`move_legacy_keys`] moves them under [`PREFIX`].
pub const LEGACY_PREFIX: &str = "petstore-playground/";

/// Moves every key saved under [`LEGACY_PREFIX`] to the same name under [`PREFIX`], so what a
/// reader saved before (theme, try-it target and headers, remembered credentials, the mock's
/// state, the Domains page) is read as it was. A key already saved under its new name keeps
/// its value, and the old one goes. Each old key is removed before its value is written again,
/// so a storage nearly full still has room; a write refused puts the old key back. The Domains
/// page calls it when it mounts, before it reads a key (the reference's `index.html` does the
/// same in its first script, so the app's first download does not carry it). Answers how many
/// keys moved.
///
/// # Errors
/// [`StorageError::Unavailable`] when the page may not use `localStorage`;
/// [`StorageError::QuotaExceeded`] when a value did not fit under its new name (it stays
/// under its old one).
pub fn move_legacy_keys() -> Result<usize, StorageError> {
    let storage = LocalStorage::open()?;
    let unavailable = |e: JsValue| StorageError::Unavailable(describe(&e));
    let count = storage.storage.length().map_err(unavailable)?;
    let mut legacy = Vec::new();
    for index in 0..count {
        if let Some(key) = storage.storage.key(index).map_err(unavailable)?
            && key.starts_with(LEGACY_PREFIX)
        {
            legacy.push(key);
        }
    }
    let mut moved = 0;
    for old in legacy {
        let new = format!("{PREFIX}{}", &old[LEGACY_PREFIX.len()..]);
        let Some(value) = storage.get_js(&old)? else { continue };
        storage.remove(&old)?;
        if storage.get(&new)?.is_some() {
            continue;
        }
        if let Err(error) = storage.set_js(&new, &value) {
            let _ = storage.set_js(&old, &value);
            return Err(error);
        }
        moved += 1;
    }
    Ok(moved)
}

/// The value under `key` in `localStorage`, `None` when there is none.
///
/// # Errors
/// [`StorageError::Unavailable`] when the page may not use `localStorage`.
pub fn get(key: &str) -> Result<Option<String>, StorageError> {
    LocalStorage::open()?.get(key)
}

/// Writes `value` under `key` in `localStorage`.
///
/// # Errors
/// [`StorageError::QuotaExceeded`] when it does not fit, [`StorageError::Unavailable`] when
/// the page may not use `localStorage`.
pub fn set(key: &str, value: &str) -> Result<(), StorageError> {
    LocalStorage::open()?.set(key, value)
}

/// Removes the value under `key` from `localStorage`.
///
/// # Errors
/// [`StorageError::Unavailable`] when the page may not use `localStorage`.
pub fn remove(key: &str) -> Result<(), StorageError> {
    LocalStorage::open()?.remove(key)
}
