//! A description kept in hundreds of files, laid out as real ones are (`support/many_files.rs`):
//! bundled whole, each file asked for once, whatever order the files arrive in.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed unwrap is a failed test, with its location

#[path = "support/many_files.rs"]
mod many_files;

use std::collections::{HashMap, HashSet};

use playground_openapi::bundle::{Bundled, Bundler, Limits, refers_to_other_files};
use playground_openapi::catalog::Catalog;
use serde_json::{Value, json};

/// Resources in the description: 30 make 467 files and 150 operations.
const RESOURCES: usize = 30;

/// The root's address: the description lies in a folder of its own, as on a disk.
fn root() -> String {
    format!("api/{}", many_files::ROOT)
}

/// Bundles the files as a caller does, each batch `wanted` gives handed over in `arrange`'s
/// order; gives the bundle and every address asked for.
fn bundle(files: &[(String, Value)], arrange: fn(&mut Vec<String>)) -> (Bundled, Vec<String>) {
    let by_address: HashMap<String, &Value> =
        files.iter().map(|(path, value)| (format!("api/{path}"), value)).collect();
    let root = root();
    let mut bundler =
        Bundler::new(&root, by_address[&root].clone(), 100, many_files::join, Limits::default());
    let mut asked = Vec::new();
    loop {
        let mut wanted = bundler.wanted();
        if wanted.is_empty() {
            break;
        }
        asked.extend(wanted.iter().cloned());
        arrange(&mut wanted);
        for address in wanted {
            match by_address.get(&address) {
                Some(value) => bundler.provide(&address, Ok((*value).clone()), 100),
                None => bundler.provide(&address, Err("does not exist".to_owned()), 0),
            }
        }
    }
    (bundler.finish(), asked)
}

fn problems(bundled: &Bundled) -> Vec<String> {
    bundled.problems.iter().take(5).map(ToString::to_string).collect()
}

#[test]
fn a_description_of_hundreds_of_files_is_bundled_whole() {
    let files = many_files::files(RESOURCES);
    assert_eq!(files.len(), 467);
    let (bundled, asked) = bundle(&files, |_| {});
    assert_eq!(bundled.problems.len(), 0, "{:?}", problems(&bundled));
    // Every file is read, once, though most are reached by many references.
    let unique: HashSet<&String> = asked.iter().collect();
    assert_eq!(unique.len(), asked.len(), "a file was asked for twice");
    assert_eq!(bundled.files.len(), files.len());
    assert_eq!(bundled.files[0], root());

    let doc = &bundled.document;
    assert!(!refers_to_other_files(doc));
    assert!(!doc.to_string().contains(".yml"), "a reference to a file is left");

    // Every operation is listed, with its tag and summary.
    let catalog = Catalog::from_json(doc.to_string().as_bytes()).unwrap();
    assert_eq!(catalog.title, many_files::TITLE);
    assert_eq!(catalog.operation_count(), RESOURCES * many_files::OPERATIONS.len());
    // Each tag's operations, as (operationId, summary).
    let by_tag: HashMap<&str, Vec<(String, String)>> = (catalog.groups.iter())
        .flat_map(|group| &group.tags)
        .map(|tag| {
            let operations = tag.operations.iter();
            let listed = operations.map(|o| (o.operation_id.clone().unwrap(), o.summary.clone().unwrap()));
            (tag.name.as_str(), listed.collect())
        })
        .collect();
    for i in 0..RESOURCES {
        let (_, plural) = many_files::resource(i);
        let expected: Vec<(String, String)> = (many_files::OPERATIONS.iter())
            .map(|(suffix, ..)| (format!("{plural}_{suffix}"), many_files::summary(i, suffix)))
            .collect();
        let listed = &by_tag[many_files::tag(i).as_str()];
        assert_eq!(listed, &expected);
    }

    // The response every operation shares is kept once, its headers and schema beside it.
    let responses = doc["components"]["responses"].as_object().unwrap();
    assert!(responses.contains_key("unexpected_error"));
    assert!(!responses.contains_key("unexpected_error-2"));
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            let default = &operation["responses"]["default"]["$ref"];
            assert_eq!(default, "#/components/responses/unexpected_error", "{method} {path}");
        }
    }
    let error = &doc["components"]["responses"]["unexpected_error"];
    assert_eq!(error["headers"]["ratelimit-limit"]["$ref"], "#/components/headers/ratelimit-limit");
    assert_eq!(error["content"]["application/json"]["schema"]["$ref"], "#/components/schemas/error");
    assert_eq!(doc["components"]["headers"]["ratelimit-limit"]["example"], 5000);

    // A property named `default` is a schema; an example named `default` is an example.
    let droplet = &doc["components"]["schemas"]["droplet_updatable"];
    assert_eq!(droplet["properties"]["default"]["$ref"], "#/components/schemas/is_default");
    let existing = &doc["components"]["responses"]["existing_droplet"]["content"]["application/json"];
    assert_eq!(existing["examples"]["default"]["$ref"], "#/components/examples/droplet");
    assert_eq!(doc["components"]["examples"]["droplet"]["value"]["droplet"]["region"], "nyc3");
    // Within a file, and across resources.
    let whole = &doc["components"]["schemas"]["droplet"]["allOf"];
    assert_eq!(whole[0]["$ref"], "#/components/schemas/droplet_base");
    assert_eq!(whole[3]["properties"]["related"]["$ref"], "#/components/schemas/volume_base");
    // What has no section is copied: code samples, a tag's description.
    assert_eq!(doc["paths"]["/v2/droplets"]["get"]["x-codeSamples"][0]["lang"], "cURL");
    assert_eq!(
        doc["tags"][0]["description"],
        json!("The API of many files: every operation is a file of its own.")
    );
}

#[test]
fn the_bundle_is_the_same_whatever_order_the_files_arrive_in() {
    let files = many_files::files(RESOURCES);
    let (first, asked) = bundle(&files, |_| {});
    let (reversed, asked_reversed) = bundle(&files, |wanted| wanted.reverse());
    assert_eq!(reversed.problems.len(), 0, "{:?}", problems(&reversed));
    assert_eq!(first.document, reversed.document);
    let (mut asked, mut asked_reversed) = (asked, asked_reversed);
    asked.sort();
    asked_reversed.sort();
    assert_eq!(asked, asked_reversed);
}

#[test]
fn a_file_handed_over_before_it_is_asked_for_is_asked_for_in_its_turn() {
    let files = many_files::files(2);
    let by_address: HashMap<String, &Value> =
        files.iter().map(|(path, value)| (format!("api/{path}"), value)).collect();
    let root = root();
    let mut bundler =
        Bundler::new(&root, by_address[&root].clone(), 100, many_files::join, Limits::default());
    // Handed over too early (and one that is no file of the description): not taken.
    let early = "api/common/responses/unexpected_error.yml";
    bundler.provide(early, Ok(json!({"description": "too early"})), 100);
    bundler.provide("api/elsewhere.yml", Ok(json!({})), 100);
    let mut asked = Vec::new();
    loop {
        let wanted = bundler.wanted();
        if wanted.is_empty() {
            break;
        }
        for address in wanted {
            asked.push(address.clone());
            bundler.provide(&address, Ok(by_address[&address].clone()), 100);
            // Handed over twice: the first stays.
            bundler.provide(&address, Ok(json!({"description": "twice"})), 100);
        }
    }
    assert!(asked.iter().any(|address| address == early));
    assert!(!asked.iter().any(|address| address == "api/elsewhere.yml"));
    let bundled = bundler.finish();
    assert_eq!(bundled.problems.len(), 0, "{:?}", problems(&bundled));
    let error = &bundled.document["components"]["responses"]["unexpected_error"];
    assert_eq!(error["description"], "There was an unexpected error.");
    assert!(!bundled.files.iter().any(|file| file == "api/elsewhere.yml"));
}

#[test]
fn a_file_asked_for_and_never_handed_over_says_so() {
    let files = many_files::files(1);
    let root = root();
    let root_value = files.iter().find(|(path, _)| *path == many_files::ROOT).unwrap().1.clone();
    let mut bundler = Bundler::new(&root, root_value, 100, many_files::join, Limits::default());
    assert!(!bundler.wanted().is_empty());
    // Finished at once: every reference to another file says why it was not followed.
    let bundled = bundler.finish();
    assert!(!bundled.problems.is_empty());
    for problem in &bundled.problems {
        assert!(problem.reason.starts_with("was asked for and never handed over"), "{problem}");
    }
}

#[test]
fn the_limit_on_files_is_said_plainly() {
    let files = many_files::files(RESOURCES);
    let by_address: HashMap<String, &Value> =
        files.iter().map(|(path, value)| (format!("api/{path}"), value)).collect();
    let root = root();
    let limits = Limits { files: 100, ..Limits::default() };
    let mut bundler = Bundler::new(&root, by_address[&root].clone(), 100, many_files::join, limits);
    loop {
        let wanted = bundler.wanted();
        if wanted.is_empty() {
            break;
        }
        for address in wanted {
            bundler.provide(&address, Ok(by_address[&address].clone()), 100);
        }
    }
    let bundled = bundler.finish();
    assert_eq!(bundled.files.len(), 100);
    assert!(!bundled.problems.is_empty());
    for problem in &bundled.problems {
        assert_eq!(problem.reason, "was not read: the description has more files than the limit of 100");
    }
}
