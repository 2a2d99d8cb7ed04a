//! The JSON Schema Test Suite (`tests/fixtures/JSON-Schema-Test-Suite`, its commit in the
//! README there): every required test of `draft2020-12` with its schema as the root of an
//! OpenAPI 3.1 document, and those of `draft4` whose schemas use only keywords OpenAPI 3.0 takes
//! with their schema as the root of a 3.0 document. `format.json` is left out in both: formats
//! are read the OpenAPI way (`int32`, lenient `email`, ...), on purpose. Remote references are
//! served from the suite's `remotes/` as `http://localhost:1234/...`, and the meta-schemas from
//! the `referencing` crate's copies; nothing is fetched.
//!
//! Both readings are run: the default one (the mock's) and the strict one (the generator's).
//! Each test must pass in each but those in [`EXCEPTIONS`], which must fail there (so the list
//! stays true). `cargo test -p playground-validate --test suite -- --nocapture` prints the
//! figures by file. A `draft4` group whose schema uses anything 3.0 does not take
//! ([`outside_3_0`]) is left out and not counted.

#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;

use playground_validate::{Resources, Validator, compile_patterns};
use serde_json::Value;

const SUITE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/JSON-Schema-Test-Suite");

/// The checker's two readings ([`Validator::new`]'s and [`Validator::strict`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reading {
    Default,
    Strict,
}

/// Tests that fail, by `folder/file / group / test`: in which readings (`None`: both), and why.
const EXCEPTIONS: &[(&str, Option<Reading>, &str)] = &[
    (
        "draft2020-12/vocabulary.json / schema that uses custom metaschema with with no validation \
         vocabulary / no validation: invalid number, but it still validates",
        None,
        "a meta-schema's `$vocabulary` is not read: every 2020-12 vocabulary is on (an OpenAPI 3.1 \
         document names its dialect, not vocabularies), so `minimum` still holds",
    ),
    (
        "draft4/refRemote.json / Location-independent identifier in remote ref / integer is valid",
        None,
        "OpenAPI 3.0 has no `id`: the remote document's `\"id\": \"#foo\"` (draft 4's location-independent \
         identifier) names nothing there, so its `$ref: \"#foo\"` does not resolve",
    ),
    (
        "draft4/ref.json / ref overrides any sibling keywords / ref valid, maxItems ignored",
        Some(Reading::Default),
        "the default reading (the mock's) lays a 3.0 `$ref`'s siblings over its target, as their authors \
         mean them, where 3.0 and draft 4 ignore them; the strict reading ignores them",
    ),
];

/// The keywords of OpenAPI 3.0's Schema Object that come from JSON Schema, `$ref` (its
/// Reference Object), `definitions` (read as a place for `$ref` targets: 3.0 references reach
/// anywhere in a document) and `$comment` (a comment).
const OPENAPI_3_0: [&str; 30] = [
    "title",
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "maxItems",
    "minItems",
    "uniqueItems",
    "maxProperties",
    "minProperties",
    "required",
    "enum",
    "type",
    "allOf",
    "oneOf",
    "anyOf",
    "not",
    "items",
    "properties",
    "additionalProperties",
    "description",
    "format",
    "default",
    "$ref",
    "definitions",
    "$comment",
];

/// What a schema uses that OpenAPI 3.0 does not take: other keywords, `type` or `items` as a
/// list, boolean schemas.
fn outside_3_0(schema: &Value, out: &mut Vec<String>) {
    let Value::Object(map) = schema else {
        out.push("a boolean schema".into());
        return;
    };
    for (keyword, v) in map {
        if !OPENAPI_3_0.contains(&keyword.as_str()) {
            out.push(keyword.clone());
            continue;
        }
        match (keyword.as_str(), v) {
            ("type", Value::Array(_)) => out.push("type as a list".into()),
            ("items", Value::Array(_)) => out.push("items as a list".into()),
            ("allOf" | "anyOf" | "oneOf", Value::Array(list)) => {
                list.iter().for_each(|s| outside_3_0(s, out))
            }
            ("not" | "items" | "additionalProperties", s @ Value::Object(_)) => outside_3_0(s, out),
            ("properties" | "definitions", Value::Object(m)) => m.values().for_each(|s| outside_3_0(s, out)),
            _ => {}
        }
    }
}

fn read(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The suite's `remotes/` at `http://localhost:1234/`, and the meta-schemas the tests name.
fn remotes() -> Resources {
    fn add(dir: &Path, address: &str, resources: &mut Resources) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.expect("a folder entry").path())
            .collect();
        entries.sort();
        for path in entries {
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            if path.is_dir() {
                add(&path, &format!("{address}{name}/"), resources);
            } else if name.ends_with(".json") {
                resources.insert(&format!("{address}{name}"), read(&path));
            }
        }
    }
    let mut resources = Resources::new();
    add(&Path::new(SUITE).join("remotes"), "http://localhost:1234/", &mut resources);
    let metas: [(&str, &Value); 10] = [
        ("http://json-schema.org/draft-04/schema", &referencing::meta::DRAFT4),
        ("https://json-schema.org/draft/2020-12/schema", &referencing::meta::DRAFT202012),
        ("https://json-schema.org/draft/2020-12/meta/core", &referencing::meta::DRAFT202012_CORE),
        ("https://json-schema.org/draft/2020-12/meta/applicator", &referencing::meta::DRAFT202012_APPLICATOR),
        (
            "https://json-schema.org/draft/2020-12/meta/unevaluated",
            &referencing::meta::DRAFT202012_UNEVALUATED,
        ),
        ("https://json-schema.org/draft/2020-12/meta/validation", &referencing::meta::DRAFT202012_VALIDATION),
        ("https://json-schema.org/draft/2020-12/meta/meta-data", &referencing::meta::DRAFT202012_META_DATA),
        (
            "https://json-schema.org/draft/2020-12/meta/format-annotation",
            &referencing::meta::DRAFT202012_FORMAT_ANNOTATION,
        ),
        ("https://json-schema.org/draft/2020-12/meta/content", &referencing::meta::DRAFT202012_CONTENT),
        (
            "https://json-schema.org/draft/2020-12/meta/format-assertion",
            &referencing::meta::DRAFT202012_FORMAT_ASSERTION,
        ),
    ];
    for (address, schema) in metas {
        resources.insert(address, schema.clone());
    }
    resources
}

/// One test's name and verdict.
struct Outcome {
    file: String,
    name: String,
    passed: bool,
}

/// Runs the required tests of `folder` (`draft4`: as OpenAPI 3.0, those it takes) in `reading`.
fn run(folder: &str, reading: Reading) -> Vec<Outcome> {
    let resources = remotes();
    let dir = Path::new(SUITE).join("tests").join(folder);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a folder entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "json") && !p.ends_with("format.json"))
        .collect();
    files.sort();
    let mut outcomes = Vec::new();
    for path in files {
        let file = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        for group in read(&path).as_array().into_iter().flatten() {
            let mut schema = group["schema"].clone();
            if folder == "draft4" {
                let mut outside = Vec::new();
                outside_3_0(&schema, &mut outside);
                if !outside.is_empty() {
                    continue;
                }
                if let Some(map) = schema.as_object_mut() {
                    map.insert("openapi".into(), "3.0.3".into());
                }
            }
            let (patterns, _) = compile_patterns(&schema);
            let validator = Validator::new(&schema, &patterns).resources(&resources);
            let validator = if reading == Reading::Strict { validator.strict() } else { validator };
            for test in group["tests"].as_array().into_iter().flatten() {
                let verdict =
                    catch_unwind(AssertUnwindSafe(|| validator.check(&schema, &test["data"], "").is_ok()));
                let name = format!(
                    "{folder}/{file} / {} / {}",
                    group["description"].as_str().unwrap_or_default(),
                    test["description"].as_str().unwrap_or_default()
                );
                let passed = verdict.as_ref().ok() == test["valid"].as_bool().as_ref();
                assert!(verdict.is_ok(), "{name} panicked");
                outcomes.push(Outcome { file: file.clone(), name, passed });
            }
        }
    }
    outcomes
}

/// Prints the figures by file and in all; fails on a failure not excepted or an exception
/// that passes (or names no test).
fn verify(folder: &str, reading: Reading) {
    let outcomes = run(folder, reading);
    let mut by_file: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for outcome in &outcomes {
        let entry = by_file.entry(&outcome.file).or_default();
        entry.0 += usize::from(outcome.passed);
        entry.1 += 1;
    }
    for (file, (passed, all)) in &by_file {
        eprintln!("{folder} ({reading:?}) {file}: {passed}/{all}");
    }
    let passed = outcomes.iter().filter(|o| o.passed).count();
    let permille = 1000 * passed / outcomes.len().max(1);
    eprintln!(
        "{folder} ({reading:?}): {passed}/{} passed ({}.{}%)",
        outcomes.len(),
        permille / 10,
        permille % 10
    );
    let excepted: Vec<&str> = EXCEPTIONS
        .iter()
        .filter(|(name, readings, _)| {
            name.starts_with(&format!("{folder}/")) && readings.is_none_or(|r| r == reading)
        })
        .map(|(name, _, _)| *name)
        .collect();
    let failed: Vec<&str> = outcomes
        .iter()
        .filter(|o| !o.passed && !excepted.contains(&o.name.as_str()))
        .map(|o| o.name.as_str())
        .collect();
    assert!(failed.is_empty(), "{} failed:\n{}", failed.len(), failed.join("\n"));
    let passing: Vec<&str> = excepted
        .iter()
        .copied()
        .filter(|name| !outcomes.iter().any(|o| o.name == *name && !o.passed))
        .collect();
    assert!(passing.is_empty(), "excepted, but passing now (or no such test):\n{}", passing.join("\n"));
}

#[test]
fn draft2020_12_as_openapi_3_1() {
    verify("draft2020-12", Reading::Default);
    verify("draft2020-12", Reading::Strict);
}

#[test]
fn draft4_as_openapi_3_0() {
    verify("draft4", Reading::Default);
    verify("draft4", Reading::Strict);
}
