//! Offering text or bytes to the reader as a file to save, through a temporary `blob:` link.

use wasm_bindgen::JsCast;

use crate::describe;

/// Why a download could not be offered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DownloadError {
    /// Not in a page (a worker, or no document).
    #[error("There is no page to save from.")]
    NoPage,
    /// The browser refused to make the file or the link.
    #[error("The browser refused to save the file.")]
    Refused {
        /// What the browser said.
        reason: String,
    },
}

/// Offers `text` as a JSON file called `file_name` for download.
///
/// # Errors
/// [`DownloadError`] when there is no page or the browser refuses.
pub fn download_json(file_name: &str, text: &str) -> Result<(), DownloadError> {
    download(file_name, "application/json", text.as_bytes())
}

/// Offers `bytes` as a file of type `media_type` called `file_name` for download.
///
/// # Errors
/// [`DownloadError`] when there is no page or the browser refuses.
pub fn download(file_name: &str, media_type: &str, bytes: &[u8]) -> Result<(), DownloadError> {
    let refused = |error: wasm_bindgen::JsValue| DownloadError::Refused { reason: describe(&error) };
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(media_type);
    let blob = web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &options).map_err(refused)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(refused)?;
    let document = web_sys::window().and_then(|w| w.document()).ok_or(DownloadError::NoPage)?;
    let link: web_sys::HtmlAnchorElement = document.create_element("a").map_err(refused)?.unchecked_into();
    link.set_href(&url);
    link.set_download(file_name);
    link.click();
    let _ = web_sys::Url::revoke_object_url(&url);
    Ok(())
}
