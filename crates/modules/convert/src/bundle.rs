//! Descriptions kept in many files, in the page (in the converter's module, which the page loads
//! only when a document needs it): `DocumentBundle` follows
//! `playground_openapi::bundle`, with addresses joined as the browser joins URLs. The page's
//! JavaScript fetches the files it wants (YAML read by js-yaml first) and hands them over.

use js_sys::{Array, Object, Reflect, Uint8Array};
use playground_openapi::bundle::{Bundler, Limits};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

/// The most a page reads over all of a description's files (the one-file limit of the page's
/// reader, `MAX_DOCUMENT_BYTES`, is per file).
const MAX_BUNDLE_BYTES: u64 = 128 << 20;

#[wasm_bindgen(typescript_custom_section)]
const TS_RESULT: &'static str = r#"
/**
 * What `DocumentBundle.finish` gives: the one document as JSON (UTF-8), each reference that
 * could not be followed in a sentence (file, place, reference, why), and the files read.
 */
export type DocumentBundleResult = { json: Uint8Array; problems: string[]; files: string[] };
"#;

#[wasm_bindgen]
extern "C" {
    /// `DocumentBundleResult` (the TypeScript type above).
    #[wasm_bindgen(typescript_type = "DocumentBundleResult")]
    pub type BundleResult;
}

/// A description being bundled: `wanted()` names the files to fetch next, `provide` takes each,
/// `finish` gives the one document.
#[wasm_bindgen]
#[derive(Debug)]
pub struct DocumentBundle {
    bundler: Option<Bundler>,
}

#[wasm_bindgen]
impl DocumentBundle {
    /// The bundle of the description at `address` (an absolute http(s) or `file:` URL) whose root file
    /// reads as `json`.
    ///
    /// # Errors
    /// When `json` is not JSON.
    #[wasm_bindgen(constructor)]
    pub fn new(address: &str, json: &[u8]) -> Result<DocumentBundle, JsError> {
        let root =
            playground_openapi::document::parse_json(json).map_err(|e| JsError::new(&e.to_string()))?;
        let limits = Limits { bytes: MAX_BUNDLE_BYTES, ..Limits::default() };
        let size = u64::try_from(json.len()).unwrap_or(u64::MAX);
        Ok(Self { bundler: Some(Bundler::new(address, root, size, join, limits)) })
    }

    /// The addresses to fetch next; empty once every file that can be read is in.
    pub fn wanted(&mut self) -> Vec<String> {
        self.bundler.as_mut().map(Bundler::wanted).unwrap_or_default()
    }

    /// Hands over the file at `address`: its JSON (`size` bytes as fetched), or `error`, why it
    /// could not be read.
    pub fn provide(&mut self, address: &str, json: Option<Vec<u8>>, error: Option<String>, size: f64) {
        let Some(bundler) = self.bundler.as_mut() else { return };
        let read = match (json, error) {
            (Some(json), None) => playground_openapi::document::parse_json(&json).map_err(|e| e.to_string()),
            (_, Some(error)) => Err(error),
            (None, None) => Err("could not be read".to_owned()),
        };
        // Sizes are whole byte counts below 2^53.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let size = size.max(0.0) as u64;
        bundler.provide(address, read, size);
    }

    /// The one document, the references not followed and the files read; an empty document
    /// when called twice.
    pub fn finish(&mut self) -> BundleResult {
        let result = Object::new();
        if let Some(bundled) = self.bundler.take().map(Bundler::finish) {
            let json = serde_json::to_vec(&bundled.document).unwrap_or_default();
            let problems: Array =
                bundled.problems.iter().map(|p| JsValue::from_str(&p.to_string())).collect();
            let files: Array = bundled.files.iter().map(|f| JsValue::from_str(f)).collect();
            // Setting a property of a new plain object cannot fail.
            let _ = Reflect::set(&result, &"json".into(), &Uint8Array::from(json.as_slice()));
            let _ = Reflect::set(&result, &"problems".into(), &problems);
            let _ = Reflect::set(&result, &"files".into(), &files);
        }
        result.unchecked_into()
    }
}

/// A reference's file part joined to the URL of the file it stands in, as the browser joins
/// URLs; only http(s) addresses are fetched, and `file:` ones from a description read from
/// files (in Node, by the npm package), never from one read over the network.
fn join(base: &str, reference: &str) -> Result<String, String> {
    let url = web_sys::Url::new_with_base(reference, base).map_err(|_| "is not a URL".to_owned())?;
    let from_files = base.starts_with("file:");
    match url.protocol().as_str() {
        "http:" | "https:" => {
            // The fragment is the bundler's; the file is the address without it.
            url.set_hash("");
            Ok(url.href())
        }
        "file:" if from_files => {
            url.set_hash("");
            Ok(url.href())
        }
        "file:" => {
            Err("is a file: address, which a description read over the network cannot name".to_owned())
        }
        other => Err(format!("is a {other} address, which a page cannot read")),
    }
}
