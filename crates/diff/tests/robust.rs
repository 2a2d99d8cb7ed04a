//! Odd shapes end in a report, never a panic or a walk without end: references that loop or
//! point nowhere, schemas nested far past the walk's depth, fields of the wrong type, and
//! every pair of the repository's own descriptions compared both ways.

use std::path::Path;

use playground_diff::{Options, compare};
use serde_json::{Value, json};

fn doc(schema: Value) -> Value {
    json!({
        "openapi": "3.1.0",
        "info": {"title": "T", "version": "1"},
        "paths": {"/x": {"post": {
            "requestBody": {"content": {"application/json": {"schema": schema.clone()}}},
            "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": schema}}}}
        }}},
        "components": {"schemas": {
            "Loop": {"type": "object", "properties": {"next": {"$ref": "#/components/schemas/Loop"}}},
            "A": {"$ref": "#/components/schemas/B"},
            "B": {"$ref": "#/components/schemas/A"}
        }}
    })
}

fn nested(depth: usize, leaf: Value) -> Value {
    (0..depth).fold(leaf, |inner, _| json!({"type": "object", "properties": {"x": inner}}))
}

#[test]
fn odd_shapes_end_in_a_report() {
    let shapes = [
        json!({"$ref": "#/components/schemas/Loop"}),
        json!({"$ref": "#/components/schemas/A"}),
        json!({"$ref": "#/nowhere"}),
        json!({"$ref": 7}),
        json!("not a schema"),
        json!(true),
        json!(false),
        json!({"type": 5, "enum": "x", "required": {"a": 1}, "properties": [1], "items": [1, 2]}),
        json!({"oneOf": "x", "allOf": [null, 3], "discriminator": {"mapping": 1}}),
        json!({"minimum": "1", "maxLength": -3, "multipleOf": 0, "pattern": 4}),
        nested(200, json!({"type": "string"})),
        nested(200, json!({"type": "integer"})),
        json!({"type": "object", "properties": {"self": {"$ref": "#/paths/~1x/post/requestBody/content/application~1json/schema"}}}),
    ];
    let options = Options::default();
    for a in &shapes {
        for b in &shapes {
            let (old, new) = (doc(a.clone()), doc(b.clone()));
            let report = compare(&old, &new, &options);
            assert_eq!(report, compare(&old, &new, &options), "the same input gives the same report");
            if a == b {
                assert_eq!(report.changes, [], "{a} against itself");
            }
        }
    }
    // Whole documents of the wrong shape.
    for odd in [
        json!(null),
        json!([]),
        json!({"paths": []}),
        json!({"paths": {"/x": 3}}),
        json!({"paths": {"/x": {"get": []}}}),
    ] {
        let good = doc(json!({"type": "string"}));
        let _ = compare(&odd, &good, &options);
        let _ = compare(&good, &odd, &options);
    }
}

/// Every OpenAPI 3 description under the repository's fixtures, as JSON or YAML.
fn descriptions() -> Vec<(String, Value)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut found = Vec::new();
    for folder in ["openapi", "tests/fixtures", "crates/diff/tests/fixtures/real"] {
        let mut stack = vec![root.join(folder)];
        while let Some(dir) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(&dir) else { continue };
            for entry in entries.flatten() {
                let path = entry.path();
                if path.is_dir() {
                    stack.push(path);
                    continue;
                }
                let Ok(text) = std::fs::read_to_string(&path) else { continue };
                let value: Option<Value> = match path.extension().and_then(|e| e.to_str()) {
                    Some("json") => serde_json::from_str(&text).ok(),
                    Some("yaml" | "yml") => serde_yaml_ng::from_str(&text).ok(),
                    _ => None,
                };
                if let Some(value) = value.filter(|v| v.get("openapi").is_some()) {
                    found.push((path.display().to_string(), value));
                }
            }
        }
    }
    found
}

#[test]
fn the_repositorys_descriptions_compare_with_each_other_and_themselves() {
    let all = descriptions();
    assert!(all.len() >= 5, "{} descriptions found", all.len());
    let options = Options::default();
    for (name, a) in &all {
        assert_eq!(compare(a, a, &options).changes, [], "{name} against itself");
        for (_, b) in all.iter().take(8) {
            let report = compare(a, b, &options);
            assert_eq!(report, compare(a, b, &options));
        }
    }
}
