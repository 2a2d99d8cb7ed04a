//! What the page takes from the browser: the clock, IDNA through the URL parser, localStorage
//! (through `playground_browser`, with the page's own sentences), the clipboard and whether it is
//! offline. Each returns a plain result the page can show.

use wasm_bindgen_futures::JsFuture;

/// The current time in whole seconds (`Date.now() / 1000`), what the core's actions take.
#[must_use]
pub fn now_secs() -> u64 {
    let secs = js_sys::Date::now() / 1000.0;
    if secs.is_finite() && secs > 0.0 { secs as u64 } else { 0 }
}

/// IDNA to ASCII with the browser's URL parser (`new URL("http://" + name).hostname`), the
/// [`playground_domains::ToAscii`] the page injects, so the wasm carries no Unicode tables.
///
/// # Errors
/// The parser refused the name.
pub fn to_ascii(name: &str) -> Result<String, String> {
    let url = web_sys::Url::new(&format!("http://{name}"))
        .map_err(|_| "the browser could not convert it to its ASCII (punycode) form.".to_owned())?;
    let host = url.hostname();
    if host.is_empty() {
        return Err("the browser could not convert it to its ASCII (punycode) form.".to_owned());
    }
    Ok(host)
}

/// Reads `key` from localStorage.
///
/// # Errors
/// Storage is not available in this browser.
pub fn load(key: &str) -> Result<Option<String>, String> {
    playground_browser::get(key).map_err(|_| storage_unavailable())
}

/// Writes `value` under `key` in localStorage.
///
/// # Errors
/// Storage is not available, or full.
pub fn save(key: &str, value: &str) -> Result<(), String> {
    let storage = playground_browser::LocalStorage::open().map_err(|_| storage_unavailable())?;
    storage.set(key, value).map_err(|_| {
        "The domain settings could not be saved: the browser's storage for this page is full or blocked. Changes last until the page is closed.".to_owned()
    })
}

fn storage_unavailable() -> String {
    "This browser does not let the page use localStorage, so the domain settings last only until the page is closed.".to_owned()
}

/// Whether the browser says it is offline (`navigator.onLine` false).
#[must_use]
pub fn is_offline() -> bool {
    web_sys::window().is_some_and(|w| !w.navigator().on_line())
}

/// Copies `text` to the clipboard.
///
/// # Errors
/// The browser refused (no permission, or not a secure page).
pub async fn copy_text(text: &str) -> Result<(), String> {
    let refused = || "The browser did not allow copying; select the value and copy it by hand.".to_owned();
    let window = web_sys::window().ok_or_else(refused)?;
    let clipboard = window.navigator().clipboard();
    JsFuture::from(clipboard.write_text(text)).await.map(|_| ()).map_err(|_| refused())
}
