//! `buildSite` and `loadDescription`, over `playground_site`.

use std::path::{Path, PathBuf};

use js_sys::{Array, Function, Object, Reflect, Uint8Array};
use playground_site::{App, Source};
use wasm_bindgen::prelude::*;

/// `readFile(path, limit)` as a [`playground_site::ReadFile`].
fn reader(read_file: &Function) -> impl FnMut(&Path, u64) -> Result<Vec<u8>, String> + '_ {
    move |path, limit| {
        let path = JsValue::from_str(&path.to_string_lossy());
        #[expect(clippy::cast_precision_loss, reason = "limits are far below 2^53")]
        let limit = JsValue::from_f64(limit as f64);
        match read_file.call2(&JsValue::NULL, &path, &limit) {
            Ok(bytes) => match bytes.dyn_into::<Uint8Array>() {
                Ok(bytes) => Ok(bytes.to_vec()),
                Err(_) => Err("cannot be read: readFile did not give a Uint8Array".to_owned()),
            },
            Err(error) => Err(message(&error)),
        }
    }
}

/// An exception's message (an `Error`'s, or the value as text).
fn message(error: &JsValue) -> String {
    error
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| error.as_string())
        .unwrap_or_else(|| "cannot be read".to_owned())
}

/// A string property of `options`, when set.
fn text(options: &JsValue, key: &str) -> Option<String> {
    Reflect::get(options, &JsValue::from_str(key)).ok().and_then(|v| v.as_string())
}

/// An `Error` with `message`, thrown to the caller.
fn error(message: &str) -> JsValue {
    js_sys::Error::new(message).into()
}

/// Sets `key` of `object`.
fn set(object: &Object, key: &str, value: &JsValue) {
    // Setting a property of a plain object made here cannot fail.
    let _ = Reflect::set(object, &JsValue::from_str(key), value);
}

/// A list of strings as a JS array.
fn strings<'s>(items: impl IntoIterator<Item = &'s str>) -> Array {
    items.into_iter().map(JsValue::from_str).collect()
}

/// Makes the site of `options` (see the crate's documentation), reading files with
/// `readFile`.
///
/// # Errors
/// An `Error` whose message names the file at fault.
#[wasm_bindgen(js_name = buildSite)]
pub fn build_site(options: &JsValue, read_file: &Function) -> Result<Object, JsValue> {
    let spec = text(options, "spec").ok_or_else(|| error("buildSite: options.spec must be a path"))?;
    let index =
        text(options, "index").ok_or_else(|| error("buildSite: options.index must be the app's page"))?;
    let config = text(options, "config").map(PathBuf::from);
    let cwd = text(options, "cwd").map(PathBuf::from);
    let served_mock = text(options, "servedMock");
    let index_path = text(options, "indexPath").map_or_else(|| PathBuf::from("index.html"), PathBuf::from);
    let names: Vec<String> = Reflect::get(options, &JsValue::from_str("appNames"))
        .ok()
        .filter(Array::is_array)
        .map(|names| Array::from(&names).iter().filter_map(|name| name.as_string()).collect())
        .ok_or_else(|| error("buildSite: options.appNames must be the app's top names"))?;
    let spec_root = text(options, "specRoot").map_or_else(|| PathBuf::from(&spec), PathBuf::from);
    let spec = PathBuf::from(spec);
    let previous: Vec<PathBuf> = Reflect::get(options, &JsValue::from_str("previous"))
        .ok()
        .filter(Array::is_array)
        .map(|list| {
            Array::from(&list).iter().filter_map(|path| path.as_string()).map(PathBuf::from).collect()
        })
        .unwrap_or_default();
    let source = Source {
        spec: &spec,
        spec_root: &spec_root,
        config: config.as_deref(),
        cwd: cwd.as_deref(),
        served_mock: served_mock.as_deref(),
        previous: &previous,
    };
    let app = App { index_path: &index_path, index: &index, names: &names };
    let site =
        playground_site::make(&source, &app, &mut reader(read_file)).map_err(|e| error(&e.to_string()))?;

    let answer = Object::new();
    set(&answer, "title", &JsValue::from_str(&site.built.title));
    #[expect(clippy::cast_precision_loss, reason = "counts are far below 2^53")]
    set(&answer, "operations", &JsValue::from_f64(site.built.operations as f64));
    set(&answer, "warnings", &strings(site.built.warnings.iter().map(String::as_str)));
    let files: Array = site
        .files
        .iter()
        .map(|(name, bytes)| {
            let file = Object::new();
            set(&file, "name", &JsValue::from_str(name));
            set(&file, "bytes", &Uint8Array::from(bytes.as_slice()));
            JsValue::from(file)
        })
        .collect();
    set(&answer, "files", &files);
    set(&answer, "copy", &strings(site.copy.iter().map(String::as_str)));
    set(&answer, "mounts", &strings(site.mounts.iter().map(String::as_str)));
    let images: Array = site
        .images
        .iter()
        .map(|(from, name)| {
            let image = Object::new();
            set(&image, "from", &JsValue::from_str(&from.to_string_lossy()));
            set(&image, "name", &JsValue::from_str(name));
            JsValue::from(image)
        })
        .collect();
    set(&answer, "images", &images);
    let read: Vec<String> = site.read.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    set(&answer, "read", &strings(read.iter().map(String::as_str)));
    set(&answer, "document", &JsValue::from_str(&site.document.to_string()));
    Ok(answer)
}

/// Reads the description at `spec` (an absolute path) into one document, reading files with
/// `readFile`: `{document, files}`, its JSON text and the files read, the root first.
///
/// # Errors
/// An `Error` whose message names the file at fault.
#[wasm_bindgen(js_name = loadDescription)]
pub fn load_description(spec: &str, read_file: &Function, cwd: Option<String>) -> Result<Object, JsValue> {
    let spec = PathBuf::from(spec);
    let cwd = cwd.map(PathBuf::from);
    let description =
        playground_site::description::load(&spec, &spec, cwd.as_deref(), &mut reader(read_file))
            .map_err(|e| error(&e.to_string()))?;
    let answer = Object::new();
    set(&answer, "document", &JsValue::from_str(&description.document.to_string()));
    let files: Vec<String> = description.files.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    set(&answer, "files", &strings(files.iter().map(String::as_str)));
    Ok(answer)
}

/// The site file that answers `path` (relative to the site's top) when the request's `Accept`
/// asks for Markdown first: the page's Markdown twin, for the caller to serve when the site has
/// it; `undefined` when `accept` does not ask for Markdown (see `playground_site::twin`).
#[wasm_bindgen(js_name = markdownTwin)]
#[must_use]
pub fn markdown_twin(path: &str, accept: Option<String>) -> Option<String> {
    accept
        .as_deref()
        .is_some_and(playground_site::twin::prefers_markdown)
        .then(|| playground_site::twin::markdown_path(path))
}
