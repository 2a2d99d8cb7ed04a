//! The page's deferred JavaScript modules (built from crates/modules): loaded with a dynamic
//! `import()` after the first paint, so the first download carries only the reference.

use js_sys::{Function, Promise, Reflect};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen(inline_js = r##"
export function import_module(url) { return import(url); }
export function after_paint() {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}
// Resolves the relative links and images matching `selector` under `root` against `base`.
export function resolve_links_in(root, base, selector) {
  let from;
  try {
    from = new URL(base, document.baseURI);
  } catch (e) {
    return;
  }
  for (const element of root.querySelectorAll(selector)) {
    const name = element.tagName === "IMG" ? "src" : "href";
    const value = element.getAttribute(name);
    if (!value || value.startsWith("#")) continue;
    try {
      element.setAttribute(name, new URL(value, from).href);
    } catch (e) {}
  }
}
// Resolves in a task of its own, so the page can paint and take input between two.
export function next_task() {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });
}
"##)]
extern "C" {
    #[wasm_bindgen(catch)]
    fn import_module(url: &str) -> Result<Promise, JsValue>;
    #[wasm_bindgen(js_name = after_paint)]
    fn after_paint_js() -> Promise;
    #[wasm_bindgen(js_name = next_task)]
    fn next_task_js() -> Promise;
    /// Resolves the relative links and images matching `selector` under `root` against `base`
    /// (in place: the descriptions' HTML is parsed once, by the page).
    pub(crate) fn resolve_links_in(root: &web_sys::Element, base: &str, selector: &str);
}

/// Long work is cut into slices of about this many milliseconds, with [`next_task`] between
/// two, so no task holds the page longer than a frame or two.
pub const SLICE_MS: f64 = 30.0;

/// Resolves in a task of its own (not a timer's, which browsers clamp to 4 ms once nested):
/// the page can paint and take input in between.
pub async fn next_task() {
    let _ = JsFuture::from(next_task_js()).await;
}

/// Resolves after the next paint: what was rendered before the call is on screen.
pub async fn after_paint() {
    let _ = JsFuture::from(after_paint_js()).await;
}

/// The text of a JavaScript error or rejection.
pub use playground_browser::message_of;

/// Waits for the next paint, then imports the wasm-bindgen module at `path` (relative to the
/// page) and starts its WebAssembly; resolves to the module's namespace.
///
/// # Errors
/// What failed, with the module's URL.
pub async fn load(path: &str) -> Result<JsValue, String> {
    // What the caller just rendered is painted before the module's download and compilation.
    after_paint().await;
    let window = web_sys::window().ok_or("there is no window")?;
    let base = window.document().and_then(|d| d.base_uri().ok().flatten()).unwrap_or_default();
    let url = web_sys::Url::new_with_base(path, &base).map_err(|e| message_of(&e))?.href();
    let module = JsFuture::from(import_module(&url).map_err(|e| message_of(&e))?)
        .await
        .map_err(|e| format!("{url} did not load ({})", message_of(&e)))?;
    let init: Function =
        Reflect::get(&module, &"default".into()).map_err(|e| message_of(&e))?.unchecked_into();
    let started: Promise = init.call0(&JsValue::UNDEFINED).map_err(|e| message_of(&e))?.unchecked_into();
    JsFuture::from(started)
        .await
        .map_err(|e| format!("its WebAssembly did not start ({})", message_of(&e)))?;
    Ok(module)
}
