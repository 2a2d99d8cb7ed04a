//! What the page takes from the browser: the clock, IDNA through the URL parser, localStorage,
//! the clipboard and file downloads. Each returns a plain result the page can show.

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// The current time in whole seconds (`Date.now() / 1000`), what the core's actions take.
#[must_use]
pub fn now_secs() -> u64 {
    let secs = js_sys::Date::now() / 1000.0;
    if secs.is_finite() && secs > 0.0 { secs as u64 } else { 0 }
}

/// IDNA to ASCII with the browser's URL parser (`new URL("http://" + name).hostname`), the
/// [`petstore_core::domains::ToAscii`] the page injects, so the wasm carries no Unicode tables.
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

/// `window.localStorage`, if this browser allows it.
#[must_use]
pub fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// Reads `key` from localStorage.
///
/// # Errors
/// Storage is not available in this browser.
pub fn load(key: &str) -> Result<Option<String>, String> {
    let storage = local_storage().ok_or_else(storage_unavailable)?;
    storage.get_item(key).map_err(|_| storage_unavailable())
}

/// Writes `value` under `key` in localStorage.
///
/// # Errors
/// Storage is not available, or full.
pub fn save(key: &str, value: &str) -> Result<(), String> {
    let storage = local_storage().ok_or_else(storage_unavailable)?;
    storage.set_item(key, value).map_err(|_| {
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

/// Offers `text` as a JSON file called `file_name` for download.
///
/// # Errors
/// The browser refused to make the file.
pub fn download_json(file_name: &str, text: &str) -> Result<(), String> {
    let fail = |_| "The browser refused to save the file.".to_owned();
    let parts = js_sys::Array::of1(&text.into());
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("application/json");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).map_err(fail)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(fail)?;
    let document = web_sys::window().and_then(|w| w.document()).ok_or("There is no page to save from.")?;
    let link: web_sys::HtmlAnchorElement = document.create_element("a").map_err(fail)?.unchecked_into();
    link.set_href(&url);
    link.set_download(file_name);
    link.click();
    let _ = web_sys::Url::revoke_object_url(&url);
    Ok(())
}
