//! Other tabs' writes to `localStorage`, heard through the window's `storage` event.

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{StorageEvent, Window};

/// Calls a function whenever another tab changes one `localStorage` key (or clears the whole
/// storage). The listener is removed when this is dropped.
pub(crate) struct StorageListener {
    window: Window,
    callback: Closure<dyn FnMut(StorageEvent)>,
}

impl StorageListener {
    /// Listens for changes of `key`; `None` outside a window.
    pub(crate) fn new(key: String, mut on_change: impl FnMut() + 'static) -> Option<Self> {
        let window = web_sys::window()?;
        let callback = Closure::<dyn FnMut(StorageEvent)>::new(move |event: StorageEvent| {
            // `key` is null when another tab cleared the whole storage.
            if event.key().is_none_or(|k| k == key) {
                on_change();
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
