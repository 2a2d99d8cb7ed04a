//! `DocumentBundle` in headless Chromium, driven as the page and the npm package drive it: a
//! description kept in hundreds of files, laid out as real ones are (made by
//! `crates/openapi/tests/support/many_files.rs`), fetched by URL, bundles into the same document
//! as the command line makes of the same files on a disk.
#![cfg(target_arch = "wasm32")]
#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed unwrap is a failed test, with its location

#[path = "../../../openapi/tests/support/many_files.rs"]
mod many_files;

use std::collections::HashMap;

use js_sys::{Array, Reflect, Uint8Array};
use playground_module_convert::DocumentBundle;
use playground_openapi::bundle::{Bundler, Limits};
use serde_json::Value;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// Where the page finds the description.
const BASE: &str = "https://api.test/specification/";

/// Resources in the description: 30 make 467 files and 150 operations.
const RESOURCES: usize = 30;

fn strings(result: &JsValue, key: &str) -> Vec<String> {
    let list = Reflect::get(result, &key.into()).unwrap().dyn_into::<Array>().unwrap();
    list.iter().map(|item| item.as_string().unwrap()).collect()
}

/// The page's bundle: the files fetched by URL, as JSON (the page reads YAML with js-yaml
/// first); gives the document, the problems and the files read.
fn page_bundle(files: &[(String, Value)]) -> (Value, Vec<String>, Vec<String>) {
    let by_url: HashMap<String, Vec<u8>> = files
        .iter()
        .map(|(path, value)| (format!("{BASE}{path}"), serde_json::to_vec(value).unwrap()))
        .collect();
    let root = format!("{BASE}{}", many_files::ROOT);
    let mut bundle = DocumentBundle::new(&root, &by_url[&root]).unwrap();
    loop {
        let wanted = bundle.wanted();
        if wanted.is_empty() {
            break;
        }
        for url in wanted {
            match by_url.get(&url) {
                Some(json) => {
                    let size = f64::from(u32::try_from(json.len()).unwrap());
                    bundle.provide(&url, Some(json.clone()), None, size);
                }
                None => bundle.provide(
                    &url,
                    None,
                    Some("could not be fetched: the server answered 404".into()),
                    0.0,
                ),
            }
        }
    }
    let result: JsValue = bundle.finish().into();
    let json = Reflect::get(&result, &"json".into()).unwrap().dyn_into::<Uint8Array>().unwrap().to_vec();
    (serde_json::from_slice(&json).unwrap(), strings(&result, "problems"), strings(&result, "files"))
}

/// The command line's bundle: the same `Bundler`, addresses joined as paths on a disk.
fn command_line_bundle(files: &[(String, Value)]) -> Value {
    let by_path: HashMap<String, &Value> =
        files.iter().map(|(path, value)| (format!("/specification/{path}"), value)).collect();
    let root = format!("/specification/{}", many_files::ROOT);
    let mut bundler = Bundler::new(&root, by_path[&root].clone(), 100, many_files::join, Limits::default());
    loop {
        let wanted = bundler.wanted();
        if wanted.is_empty() {
            break;
        }
        for path in wanted {
            let read =
                by_path.get(&path).map(|value| (*value).clone()).ok_or_else(|| "does not exist".to_owned());
            bundler.provide(&path, read, 100);
        }
    }
    let bundled = bundler.finish();
    assert!(bundled.problems.is_empty(), "{:?}", bundled.problems.first());
    bundled.document
}

#[wasm_bindgen_test]
fn a_description_of_hundreds_of_files_bundles_in_the_page_as_on_the_command_line() {
    let files = many_files::files(RESOURCES);
    let (document, problems, read) = page_bundle(&files);
    assert_eq!(problems, Vec::<String>::new());
    assert_eq!(read.len(), files.len());
    assert_eq!(read[0], format!("{BASE}{}", many_files::ROOT));
    assert!(!document.to_string().contains(".yml"), "a reference to a file is left");
    assert_eq!(document, command_line_bundle(&files));

    // The same operations, with their summaries and tags.
    let mut listed = 0;
    for (path, item) in document["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            assert!(operation["summary"].is_string(), "{method} {path}");
            assert_eq!(operation["tags"].as_array().map(Vec::len), Some(1), "{method} {path}");
            listed += 1;
        }
    }
    assert_eq!(listed, RESOURCES * many_files::OPERATIONS.len());
}
