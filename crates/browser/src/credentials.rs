//! What the reference and its try-it module tell each other of a document's credentials: the
//! module keeps them (its vault) and announces, as an event on `window`, which schemes have a
//! usable credential whenever that changes; the reference marks the operations that need
//! credentials with it, and before the module is loaded reads which schemes this browser
//! remembers.

use wasm_bindgen::{JsCast, JsValue};

/// The event the try-it module sends on `window`; its `detail` is `{document, filled}`: the
/// document's key and the names of the schemes with a usable credential.
pub const EVENT: &str = "playground:credentials";

/// Where the credentials of the remembered schemes are kept: this prefix and the document's key.
pub const STORAGE_PREFIX: &str = "playground/auth/";

/// Saved credentials larger than this are not read back.
pub const MAX_SAVED: usize = 64 * 1024;

/// Sends [`EVENT`] for `document`: `filled` names its schemes with a usable credential.
pub fn announce(document: &str, filled: &[String]) {
    let Some(window) = web_sys::window() else { return };
    let detail = js_sys::Object::new();
    let names: js_sys::Array = filled.iter().map(|name| JsValue::from_str(name)).collect();
    let _ = js_sys::Reflect::set(&detail, &"document".into(), &document.into());
    let _ = js_sys::Reflect::set(&detail, &"filled".into(), &names);
    let init = web_sys::CustomEventInit::new();
    init.set_detail(&detail);
    if let Ok(event) = web_sys::CustomEvent::new_with_event_init_dict(EVENT, &init) {
        let _ = window.dispatch_event(&event);
    }
}

/// The document and the filled schemes [`announce`] sent in `event`; `None` for an event
/// without them.
#[must_use]
pub fn announced(event: &web_sys::Event) -> Option<(String, Vec<String>)> {
    let detail = js_sys::Reflect::get(event, &"detail".into()).ok()?;
    let document = js_sys::Reflect::get(&detail, &"document".into()).ok()?.as_string()?;
    let filled = js_sys::Reflect::get(&detail, &"filled".into()).ok()?.dyn_into::<js_sys::Array>().ok()?;
    Some((document, filled.iter().filter_map(|name| name.as_string()).collect()))
}

/// The schemes whose credentials this browser remembers for `document` (their names only;
/// nothing when the saved text is missing, larger than [`MAX_SAVED`] or not what the module
/// writes).
#[must_use]
pub fn remembered(document: &str) -> Vec<String> {
    let Ok(Some(text)) = crate::get(&format!("{STORAGE_PREFIX}{document}")) else { return Vec::new() };
    if text.len() > MAX_SAVED {
        return Vec::new();
    }
    let Ok(saved) = js_sys::JSON::parse(&text) else { return Vec::new() };
    let credentials = js_sys::Reflect::get(&saved, &"credentials".into()).unwrap_or(JsValue::UNDEFINED);
    match credentials.dyn_into::<js_sys::Object>() {
        Ok(credentials) if !js_sys::Array::is_array(&credentials) => {
            js_sys::Object::keys(&credentials).iter().filter_map(|name| name.as_string()).collect()
        }
        _ => Vec::new(),
    }
}
