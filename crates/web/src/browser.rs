//! The browser side of persistence: `localStorage` as a [`KeyValueStore`], and the `storage`
//! event listener that brings other tabs' writes in.

use std::rc::Weak;

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{Storage, StorageEvent, Window};

use crate::persistent::PersistentMock;
use crate::store::{KeyValueStore, StoreError};

/// This origin's `localStorage`.
#[derive(Debug, Clone)]
pub struct LocalStorage {
    storage: Storage,
}

impl LocalStorage {
    /// The page's `localStorage`.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] outside a window, or when the browser refuses storage
    /// (disabled, sandboxed frame).
    pub fn open() -> Result<Self, StoreError> {
        let window = web_sys::window()
            .ok_or_else(|| StoreError::Unavailable("there is no window (a worker?)".into()))?;
        match window.local_storage() {
            Ok(Some(storage)) => Ok(Self { storage }),
            Ok(None) => Err(StoreError::Unavailable("the browser gives this page no localStorage".into())),
            Err(error) => Err(StoreError::Unavailable(describe(&error))),
        }
    }
}

impl KeyValueStore for LocalStorage {
    fn get(&self, key: &str) -> Result<Option<String>, StoreError> {
        self.storage.get_item(key).map_err(|e| StoreError::Unavailable(describe(&e)))
    }

    fn set(&self, key: &str, value: &str) -> Result<(), StoreError> {
        self.storage.set_item(key, value).map_err(|error| {
            let quota = error.dyn_ref::<web_sys::DomException>().is_some_and(|e| {
                // Chromium and Safari say QuotaExceededError; old Firefox said NS_ERROR_DOM_QUOTA_REACHED.
                e.name() == "QuotaExceededError" || e.name() == "NS_ERROR_DOM_QUOTA_REACHED" || e.code() == 22
            });
            if quota {
                StoreError::QuotaExceeded(describe(&error))
            } else {
                StoreError::Unavailable(describe(&error))
            }
        })
    }
}

/// A readable line for a thrown JS value.
pub(crate) fn describe(error: &JsValue) -> String {
    if let Some(exception) = error.dyn_ref::<web_sys::DomException>() {
        return format!("{}: {}", exception.name(), exception.message());
    }
    if let Some(error) = error.dyn_ref::<js_sys::Error>() {
        return format!("{}: {}", error.name(), error.message());
    }
    error.as_string().unwrap_or_else(|| "an unknown error".to_owned())
}

/// Listens for `storage` events on the key and syncs the mock. Removed when dropped (with the
/// mock); it holds the mock weakly, so it never keeps it alive.
pub(crate) struct StorageListener {
    window: Window,
    callback: Closure<dyn FnMut(StorageEvent)>,
}

impl StorageListener {
    pub(crate) fn new(key: String, mock: Weak<crate::persistent::Inner>) -> Option<Self> {
        let window = web_sys::window()?;
        let callback = Closure::<dyn FnMut(StorageEvent)>::new(move |event: StorageEvent| {
            // `key` is null when another tab cleared the whole storage.
            if event.key().is_none_or(|k| k == key)
                && let Some(inner) = mock.upgrade()
            {
                PersistentMock::from_inner(inner).sync();
            }
        });
        window.add_event_listener_with_callback("storage", callback.as_ref().unchecked_ref()).ok()?;
        Some(Self { window, callback })
    }
}

impl Drop for StorageListener {
    fn drop(&mut self) {
        let _ = self
            .window
            .remove_event_listener_with_callback("storage", self.callback.as_ref().unchecked_ref());
    }
}
