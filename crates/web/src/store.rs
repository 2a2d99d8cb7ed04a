//! Where saved state lives: a small key-value interface that `localStorage` implements in the
//! browser and [`MemoryStore`] implements everywhere (host tests, a fake "other tab").

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use playground_browser::LocalStorage;
pub use playground_browser::StorageError;

/// A string key-value store shared by every tab of one origin.
pub trait KeyValueStore {
    /// The value under `key`, `None` when there is none.
    ///
    /// # Errors
    /// [`StorageError`] when the store cannot be read.
    fn get(&self, key: &str) -> Result<Option<String>, StorageError>;

    /// Writes `value` under `key`; on error the previous value is still there.
    ///
    /// # Errors
    /// [`StorageError::QuotaExceeded`] when the value does not fit.
    fn set(&self, key: &str, value: &str) -> Result<(), StorageError>;

    /// Removes the value under `key`. A store that cannot remove (a `storage` object without
    /// `removeItem`) keeps it: the saved mock only removes what no longer counts.
    ///
    /// # Errors
    /// [`StorageError`] when the store refused.
    fn remove(&self, _key: &str) -> Result<(), StorageError> {
        Ok(())
    }

    /// Whether `key` still holds the value this store last read or wrote under it (`false`
    /// when that is not known: read the value then).
    fn unchanged(&self, _key: &str) -> bool {
        false
    }
}

/// An in-memory store. Clones share the same entries, like two tabs share `localStorage`.
/// An optional quota (in characters of keys plus values, as browsers count) makes writes fail
/// the way a full `localStorage` does.
#[derive(Debug, Clone, Default)]
pub struct MemoryStore {
    inner: Rc<RefCell<Memory>>,
}

#[derive(Debug, Default)]
struct Memory {
    entries: BTreeMap<String, String>,
    quota: Option<usize>,
    written: Written,
}

impl MemoryStore {
    /// An empty store with no quota.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Limits the total size of keys plus values (`None`: no limit). Existing entries stay.
    pub fn set_quota(&self, quota: Option<usize>) {
        self.inner.borrow_mut().quota = quota;
    }

    /// The keys it holds, in order.
    #[must_use]
    pub fn keys(&self) -> Vec<String> {
        self.inner.borrow().entries.keys().cloned().collect()
    }

    /// How many writes (`set` calls) the store took, and how many characters of keys plus
    /// values they carried, since it was made (over all clones).
    #[must_use]
    pub fn written(&self) -> Written {
        self.inner.borrow().written
    }
}

/// What a [`MemoryStore`] was sent: see [`MemoryStore::written`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Written {
    /// `set` calls that succeeded.
    pub writes: u64,
    /// Characters of their keys and values.
    pub chars: u64,
}

impl KeyValueStore for MemoryStore {
    fn get(&self, key: &str) -> Result<Option<String>, StorageError> {
        Ok(self.inner.borrow().entries.get(key).cloned())
    }

    fn set(&self, key: &str, value: &str) -> Result<(), StorageError> {
        let mut memory = self.inner.borrow_mut();
        if let Some(quota) = memory.quota {
            let others: usize = memory
                .entries
                .iter()
                .filter(|(k, _)| k.as_str() != key)
                .map(|(k, v)| k.chars().count() + v.chars().count())
                .sum();
            let needed = others + key.chars().count() + value.chars().count();
            if needed > quota {
                return Err(StorageError::QuotaExceeded(format!(
                    "{needed} characters needed, {quota} allowed"
                )));
            }
        }
        memory.written.writes += 1;
        memory.written.chars += (key.chars().count() + value.chars().count()) as u64;
        memory.entries.insert(key.to_owned(), value.to_owned());
        Ok(())
    }

    fn remove(&self, key: &str) -> Result<(), StorageError> {
        self.inner.borrow_mut().entries.remove(key);
        Ok(())
    }
}

impl KeyValueStore for LocalStorage {
    fn get(&self, key: &str) -> Result<Option<String>, StorageError> {
        LocalStorage::get(self, key)
    }

    fn set(&self, key: &str, value: &str) -> Result<(), StorageError> {
        LocalStorage::set(self, key, value)
    }

    fn remove(&self, key: &str) -> Result<(), StorageError> {
        LocalStorage::remove(self, key)
    }
}

/// `localStorage` that keeps the value it last read or wrote under one key (the saved mock's
/// header) as the JavaScript string it is, so [`KeyValueStore::unchanged`] compares in
/// JavaScript: a mock that checks before every request whether another tab wrote does not copy
/// the value into WebAssembly each time to find it unchanged.
#[derive(Debug)]
pub struct WatchedStorage {
    storage: LocalStorage,
    watched: String,
    last: RefCell<Option<js_sys::JsString>>,
}

impl WatchedStorage {
    /// `storage`, watching `key`; nothing read or written yet.
    #[must_use]
    pub fn new(storage: LocalStorage, key: impl Into<String>) -> Self {
        Self { storage, watched: key.into(), last: RefCell::new(None) }
    }

    fn remember(&self, key: &str, value: Option<js_sys::JsString>) {
        if key == self.watched {
            *self.last.borrow_mut() = value;
        }
    }
}

impl KeyValueStore for WatchedStorage {
    fn get(&self, key: &str) -> Result<Option<String>, StorageError> {
        let value = self.storage.get_js(key)?;
        let text = value.as_ref().map(String::from);
        self.remember(key, value);
        Ok(text)
    }

    fn set(&self, key: &str, value: &str) -> Result<(), StorageError> {
        // The string written is the one kept: the storage holds it as given (another tab's
        // write arrives as a task of its own, never inside this call).
        let value = js_sys::JsString::from(value);
        self.storage.set_js(key, &value)?;
        self.remember(key, Some(value));
        Ok(())
    }

    fn remove(&self, key: &str) -> Result<(), StorageError> {
        self.storage.remove(key)?;
        self.remember(key, None);
        Ok(())
    }

    fn unchanged(&self, key: &str) -> bool {
        let last = self.last.borrow();
        let Some(last) = last.as_ref() else { return false };
        key == self.watched && self.storage.get_js(key).ok().flatten().is_some_and(|now| now == *last)
    }
}
/// A store of the caller's own, given to `new ApiMock(.., {storage})` or `new PetstoreMock({storage})`:
/// any object with `getItem(key)` and `setItem(key, value)` as `localStorage` has them (the npm
/// package's file store in Node, `sessionStorage`), and `removeItem(key)` when it has one. What
/// they throw is said in their own words.
#[cfg(target_arch = "wasm32")]
pub mod js {
    use wasm_bindgen::prelude::*;

    use super::{KeyValueStore, StorageError};

    #[wasm_bindgen]
    extern "C" {
        /// `{getItem(key), setItem(key, value)}`.
        #[derive(Debug, Clone)]
        pub type StorageLike;
        #[wasm_bindgen(method, catch, js_name = getItem)]
        fn get_item(this: &StorageLike, key: &str) -> Result<JsValue, JsValue>;
        #[wasm_bindgen(method, catch, js_name = setItem)]
        fn set_item(this: &StorageLike, key: &str, value: &str) -> Result<(), JsValue>;
        #[wasm_bindgen(method, catch, js_name = removeItem)]
        fn remove_item(this: &StorageLike, key: &str) -> Result<(), JsValue>;
    }

    /// The `storage` option: a checked [`StorageLike`].
    #[derive(Debug, Clone)]
    pub struct JsStorage {
        storage: StorageLike,
        /// The storage's `name` (a file store names its file), for messages.
        pub name: Option<String>,
        /// Whether it has `removeItem` (optional: without it, values no longer needed stay).
        removes: bool,
    }

    impl JsStorage {
        /// `value` when it has `getItem` and `setItem` functions.
        ///
        /// # Errors
        /// A sentence naming what is missing.
        pub fn new(value: &JsValue) -> Result<Self, String> {
            let has = |name: &str| js_sys::Reflect::get(value, &name.into()).is_ok_and(|f| f.is_function());
            if !value.is_object() || !has("getItem") || !has("setItem") {
                return Err(
                    "The storage option must have getItem(key) and setItem(key, value), as localStorage has."
                        .to_owned(),
                );
            }
            let name = js_sys::Reflect::get(value, &"name".into()).ok().and_then(|n| n.as_string());
            Ok(Self { storage: value.clone().unchecked_into(), name, removes: has("removeItem") })
        }
    }

    impl KeyValueStore for JsStorage {
        fn get(&self, key: &str) -> Result<Option<String>, StorageError> {
            let value = self
                .storage
                .get_item(key)
                .map_err(|e| StorageError::Refused(playground_browser::message_of(&e)))?;
            if value.is_null() || value.is_undefined() {
                return Ok(None);
            }
            value.as_string().map(Some).ok_or_else(|| {
                StorageError::Refused("the storage's getItem gave something other than a string".to_owned())
            })
        }

        fn set(&self, key: &str, value: &str) -> Result<(), StorageError> {
            self.storage
                .set_item(key, value)
                .map_err(|e| StorageError::Refused(playground_browser::message_of(&e)))
        }

        fn remove(&self, key: &str) -> Result<(), StorageError> {
            if !self.removes {
                return Ok(());
            }
            self.storage
                .remove_item(key)
                .map_err(|e| StorageError::Refused(playground_browser::message_of(&e)))
        }
    }
}
