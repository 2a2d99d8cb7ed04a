//! `buildSite`, `loadDescription` and `diffDescriptions`, over `playground_site` and
//! `playground_diff`.

use std::path::{Path, PathBuf};

use js_sys::{Array, Function, Object, Reflect, Uint8Array};
use playground_diff::render::{self, Side};
use playground_diff::{Level, Options};
use playground_site::{App, Source};
use serde_json::Value;
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

/// Compares two descriptions as `playground diff OLD NEW` does (crates/cli/src/diff.rs), reading
/// files with `readFile`. `options` is `{old, oldRoot, new, newRoot, cwd, format, failOn,
/// date}`: each description as the user named it and as an absolute path, the folder files are
/// named relative to in messages, `"text"`, `"markdown"` or `"json"`, `"breaking"`,
/// `"deprecation"`, `"any"` or nothing, and today as `YYYY-MM-DD` (for sunset dates). The answer
/// is `{text, failing}`: the report as written, and whether a change at the `failOn` level was
/// found.
///
/// # Errors
/// An `Error` whose message names the file (and the place) of a description that cannot be
/// read, the old one first when neither can; or one naming the option at fault.
#[wasm_bindgen(js_name = diffDescriptions)]
pub fn diff_descriptions(options: &JsValue, read_file: &Function) -> Result<Object, JsValue> {
    let path = |key: &str| {
        text(options, key)
            .map(PathBuf::from)
            .ok_or_else(|| error(&format!("diffDescriptions: options.{key} must be a path")))
    };
    let (old, new) = (path("old")?, path("new")?);
    let old_root = text(options, "oldRoot").map_or_else(|| old.clone(), PathBuf::from);
    let new_root = text(options, "newRoot").map_or_else(|| new.clone(), PathBuf::from);
    let cwd = text(options, "cwd").map(PathBuf::from);
    let fail_on = match text(options, "failOn").as_deref() {
        None => None,
        Some("breaking") => Some(Level::Breaking),
        Some("deprecation") => Some(Level::Deprecation),
        Some("any") => Some(Level::NonBreaking),
        Some(other) => return Err(error(&format!("diffDescriptions: options.failOn cannot be {other:?}"))),
    };
    let format = text(options, "format").unwrap_or_else(|| "text".to_owned());
    let mut read = reader(read_file);
    let mut load = |path: &Path, root: &Path| -> Result<Value, JsValue> {
        let description = playground_site::description::load(path, root, cwd.as_deref(), &mut read)
            .map_err(|e| error(&e.to_string()))?;
        let checked =
            playground_site::check::check(path, description.document).map_err(|e| error(&e.to_string()))?;
        Ok(checked.document)
    };
    let old_document = load(&old, &old_root)?;
    let new_document = load(&new, &new_root)?;
    let report =
        playground_diff::compare(&old_document, &new_document, &Options { today: text(options, "date") });
    let old_side = Side::of(&old.to_string_lossy(), &old_document);
    let new_side = Side::of(&new.to_string_lossy(), &new_document);
    let out = match format.as_str() {
        "text" => render::text(&report, &old_side, &new_side),
        "markdown" => render::markdown(&report, &old_side, &new_side),
        "json" => render::json(&report, &old_side, &new_side),
        other => return Err(error(&format!("diffDescriptions: options.format cannot be {other:?}"))),
    };
    // `any`: any change at all, whatever its level (NonBreaking is the lowest).
    let failing = fail_on.is_some_and(|level| report.any_at_least(level));

    let answer = Object::new();
    set(&answer, "text", &JsValue::from_str(&out));
    set(&answer, "failing", &JsValue::from_bool(failing));
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
