//! Objects, lists, combinators, directions, examples, caps and determinism.

use serde_json::{Value, json};

use super::{SEEDS, exact_values, one};
use crate::generate;
use playground_openapi::schema::Direction;

/// A document with a polymorphic `Pet` (oneOf + discriminator), an inherited `Lion`, a user
/// with `readOnly`/`writeOnly` properties and recursive nodes.
fn doc() -> Value {
    json!({
        "openapi": "3.0.3",
        "components": {"schemas": {
            "Pet": {
                "oneOf": [{"$ref": "#/components/schemas/Cat"}, {"$ref": "#/components/schemas/Dog"}],
                "discriminator": {"propertyName": "petType", "mapping": {
                    "cat": "#/components/schemas/Cat", "dog": "#/components/schemas/Dog"}}
            },
            "Cat": {"type": "object", "required": ["petType", "huntingSkill"], "properties": {
                "petType": {"type": "string"},
                "huntingSkill": {"type": "string", "enum": ["lazy", "aggressive"]}}},
            "Dog": {"type": "object", "required": ["petType", "packSize"], "properties": {
                "petType": {"type": "string"},
                "packSize": {"type": "integer", "minimum": 1, "maximum": 9}}},
            "Animal": {"type": "object", "required": ["kind"], "properties": {"kind": {"type": "string"}},
                "discriminator": {"propertyName": "kind"}},
            "Lion": {"allOf": [{"$ref": "#/components/schemas/Animal"},
                {"type": "object", "properties": {"mane": {"type": "boolean"}}}]},
            "User": {"type": "object", "required": ["id", "password", "name"], "properties": {
                "id": {"type": "integer", "readOnly": true},
                "password": {"type": "string", "writeOnly": true, "minLength": 8},
                "name": {"type": "string"},
                "created": {"$ref": "#/components/schemas/Stamp"}},
                "example": {"id": 7, "name": "Ada", "password": "secret-pw", "created": "2024-01-01T00:00:00Z"}},
            "Stamp": {"type": "string", "format": "date-time", "readOnly": true},
            "Node": {"type": "object", "properties": {
                "label": {"type": "string"},
                "children": {"type": "array", "items": {"$ref": "#/components/schemas/Node"}}}},
            "Chain": {"type": "object", "required": ["next"], "properties": {
                "next": {"$ref": "#/components/schemas/Chain"}}}
        }}
    })
}

fn named(name: &str) -> Value {
    json!({ "$ref": format!("#/components/schemas/{name}") })
}

#[test]
fn all_of_is_generated_as_one_merged_schema() {
    let schema = json!({"allOf": [
        {"type": "object", "required": ["a"], "properties": {"a": {"type": "string", "minLength": 2}}},
        {"required": ["b"], "properties": {"a": {"maxLength": 3}, "b": {"type": "integer", "minimum": 10}}}
    ]});
    for v in exact_values(&schema) {
        let a = v["a"].as_str().unwrap();
        assert!((2..=3).contains(&a.chars().count()), "{v}");
        assert!(v["b"].as_i64().unwrap() >= 10, "{v}");
    }
    // A closed part keeps the others' extra properties out, unless it declares them.
    let closed = json!({"allOf": [
        {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": false},
        {"properties": {"a": {"enum": ["x"]}, "b": {"type": "string"}}}
    ]});
    for v in exact_values(&closed) {
        assert_eq!(v, json!({"a": "x"}));
    }
}

#[test]
fn one_of_with_a_discriminator_sets_the_mapped_name() {
    let doc = doc();
    let mut kinds = std::collections::BTreeSet::new();
    for seed in SEEDS {
        let g = generate(&doc, &named("Pet"), seed, Direction::Response);
        assert!(g.exact, "{g:?}");
        let v = &g.value;
        match v["petType"].as_str() {
            Some("cat") => assert!(v.get("huntingSkill").is_some() && v.get("packSize").is_none(), "{v}"),
            Some("dog") => assert!(v["packSize"].as_i64().is_some_and(|n| (1..=9).contains(&n)), "{v}"),
            other => panic!("petType {other:?} in {v}"),
        }
        kinds.insert(v["petType"].as_str().unwrap_or_default().to_owned());
    }
    assert_eq!(kinds.len(), 2, "both branches across seeds");
    // Inherited through allOf: the schema's own name.
    let lion = generate(&doc, &named("Lion"), 4, Direction::Response);
    assert!(lion.exact && lion.value["kind"] == "Lion", "{lion:?}");
}

#[test]
fn one_of_avoids_values_that_match_several_branches() {
    let schema = json!({"oneOf": [{"type": "integer"}, {"type": "number", "minimum": 0}]});
    for v in exact_values(&schema) {
        let x = v.as_f64().unwrap();
        // An integer ≥ 0 would match both branches.
        assert!(x < 0.0 || x.fract() != 0.0, "{v}");
    }
    let overlapping = json!({"oneOf": [{"type": "string"}, {"type": "string", "maxLength": 100}]});
    let g = one(&overlapping, 0);
    assert!(!g.exact && g.notes.iter().any(|n| n.contains("more than one branch")), "{g:?}");
}

#[test]
fn one_of_open_objects_are_set_apart_by_a_property_of_another_branch() {
    // Three search results, none with `required`, their properties never in conflict: any
    // object of one is an object of the others too.
    let episode =
        json!({"type": "object", "properties": {"audio": {"type": "string"}, "title": {"type": "string"}}});
    let podcast = json!({"type": "object", "properties": {"genre_ids": {"type": "array", "items": {"type": "integer"}},
        "title": {"type": "string"}}});
    let list = json!({"type": "object", "properties": {"podcasts": {"type": "array"}, "total": {"type": "integer"}}});
    let schema = json!({"oneOf": [episode, podcast, list]});
    let validator_doc = json!({"openapi": "3.1.0"});
    let (patterns, _) = playground_validate::compile_patterns(&validator_doc);
    let validator = playground_validate::Validator::new(&validator_doc, &patterns);
    let mut branches_seen = [false; 3];
    for v in exact_values(&schema) {
        assert_eq!(validator.check(&schema, &v, ""), Ok(()), "{v}");
        let matching: Vec<usize> =
            (0..3).filter(|i| validator.check(&schema["oneOf"][*i], &v, "").is_ok()).collect();
        assert_eq!(matching.len(), 1, "{v}");
        branches_seen[matching[0]] = true;
    }
    assert_eq!(branches_seen, [true; 3], "every branch across the seeds");
    // A branch declaring nothing the other does not: still one value, with a note.
    let closed =
        json!({"type": "object", "additionalProperties": false, "properties": {"a": {"type": "string"}}});
    let open = json!({"type": "object", "properties": {"a": {"type": "string"}}});
    let g = one(&json!({"oneOf": [closed, open]}), 0);
    assert!(g.notes.iter().any(|n| n.contains("more than one branch")), "{g:?}");
}

#[test]
fn any_of_not_and_if_then() {
    for v in exact_values(&json!({"anyOf": [{"type": "string", "format": "uuid"}, {"type": "boolean"}]})) {
        assert!(v.is_boolean() || v.as_str().is_some_and(|s| s.len() == 36), "{v}");
    }
    for v in exact_values(&json!({"type": "integer", "minimum": 1, "maximum": 9, "not": {"enum": [1, 2, 3]}}))
    {
        assert!((4..=9).contains(&v.as_i64().unwrap()), "{v}");
    }
    for v in exact_values(&json!({"type": "string", "not": {"enum": ["amber", "birch", "cobalt"]}})) {
        assert!(!["amber", "birch", "cobalt"].contains(&v.as_str().unwrap()), "{v}");
    }
    let conditional = json!({"type": "object", "required": ["country", "zip"],
        "properties": {"country": {"enum": ["US", "FR"]}, "zip": {"type": "string"}},
        "if": {"properties": {"country": {"const": "US"}}},
        "then": {"properties": {"zip": {"pattern": "^[0-9]{5}$"}}}});
    for v in exact_values(&conditional) {
        assert_eq!(v["country"], "US", "{v}");
        assert!(v["zip"].as_str().is_some_and(|z| z.len() == 5), "{v}");
    }
}

#[test]
fn read_only_and_write_only_follow_the_direction() {
    let doc = doc();
    let schema = json!({"type": "object", "required": ["id", "password", "name"], "properties": {
        "id": {"type": "integer", "readOnly": true},
        "password": {"type": "string", "writeOnly": true, "minLength": 8},
        "name": {"type": "string"}, "created": {"$ref": "#/components/schemas/Stamp"}}});
    for seed in SEEDS {
        let request = generate(&doc, &schema, seed, Direction::Request);
        assert!(request.exact, "{request:?}");
        let keys: Vec<&String> = request.value.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["password", "name"], "readOnly left out, required or not (through $ref too)");
        let response = generate(&doc, &schema, seed, Direction::Response);
        assert!(response.exact, "{response:?}");
        let keys: Vec<&String> = response.value.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["id", "name", "created"]);
    }
    // The schema's example, with the other direction's properties taken out.
    let request = generate(&doc, &named("User"), 9, Direction::Request);
    assert_eq!(request.value, json!({"name": "Ada", "password": "secret-pw"}));
    let response = generate(&doc, &named("User"), 9, Direction::Response);
    assert_eq!(response.value, json!({"id": 7, "name": "Ada", "created": "2024-01-01T00:00:00Z"}));
}

#[test]
fn examples_are_used_when_they_validate() {
    let valid = json!({"type": "string", "maxLength": 5, "example": "hello"});
    assert!(exact_values(&valid).iter().all(|v| v == "hello"));
    let too_long = json!({"type": "string", "maxLength": 3, "example": "hello", "default": "abc"});
    assert!(exact_values(&too_long).iter().all(|v| v == "abc"), "the default, the example does not fit");
    let listed = json!({"type": "integer", "examples": [42, 7]});
    assert!(exact_values(&listed).iter().all(|v| v == 42));
    let enumerated: std::collections::BTreeSet<String> =
        exact_values(&json!({"enum": ["a", "b", "c", 1]})).iter().map(Value::to_string).collect();
    assert_eq!(enumerated.len(), 4, "enum values vary by seed: {enumerated:?}");
    assert!(exact_values(&json!({"const": {"k": [1]}})).iter().all(|v| v == &json!({"k": [1]})));
    let no_fit = one(&json!({"type": "string", "enum": ["long value"], "maxLength": 3}), 0);
    assert!(!no_fit.exact && no_fit.notes.iter().any(|n| n.contains("enum")), "{no_fit:?}");
}

#[test]
fn nullable_and_type_lists() {
    assert!(exact_values(&json!({"type": "string", "nullable": true})).iter().all(Value::is_string));
    assert!(exact_values(&json!({"type": ["string", "null"]})).iter().all(Value::is_string));
    assert!(exact_values(&json!({"type": "null"})).iter().all(Value::is_null));
    let kinds: std::collections::BTreeSet<&str> = exact_values(&json!({"type": ["integer", "boolean"]}))
        .iter()
        .map(|v| if v.is_boolean() { "boolean" } else { "integer" })
        .collect();
    assert_eq!(kinds.len(), 2);
}

#[test]
fn arrays_items_prefix_items_and_unique_items() {
    for v in exact_values(&json!({"type": "array", "items": {"type": "integer"}})) {
        let n = v.as_array().unwrap().len();
        assert!((1..=3).contains(&n), "{v}");
    }
    for v in exact_values(
        &json!({"type": "array", "items": {"type": "boolean"}, "minItems": 2, "uniqueItems": true}),
    ) {
        let mut items: Vec<bool> = v.as_array().unwrap().iter().map(|b| b.as_bool().unwrap()).collect();
        items.sort_unstable();
        assert_eq!(items, [false, true]);
    }
    let tuple = json!({"type": "array", "prefixItems": [{"type": "string", "format": "date"}, {"type": "integer"}],
        "items": false});
    for v in exact_values(&tuple) {
        let items = v.as_array().unwrap();
        assert!(items.len() <= 2 && items[0].is_string() && items.get(1).is_none_or(Value::is_i64), "{v}");
    }
    for v in exact_values(&json!({"type": "array", "contains": {"const": 5}, "items": {"type": "integer"}})) {
        assert!(v.as_array().unwrap().contains(&json!(5)), "{v}");
    }
}

#[test]
fn objects_properties_counts_and_maps() {
    for v in exact_values(&json!({"type": "object", "additionalProperties": {"type": "integer"}})) {
        let map = v.as_object().unwrap();
        assert!(!map.is_empty() && map.values().all(Value::is_i64), "{v}");
    }
    let counted = json!({"type": "object", "properties": {"a": {"type": "string"}}, "minProperties": 3,
        "additionalProperties": {"type": "boolean"}});
    for v in exact_values(&counted) {
        let map = v.as_object().unwrap();
        assert!(map.len() >= 3 && map["a"].is_string(), "{v}");
    }
    let few = json!({"type": "object", "properties": {"a": {}, "b": {}, "c": {}}, "required": ["b"], "maxProperties": 2});
    for v in exact_values(&few) {
        assert!(v.as_object().unwrap().len() <= 2 && v.get("b").is_some(), "{v}");
    }
    let closed =
        json!({"type": "object", "properties": {"a": {}}, "additionalProperties": false, "minProperties": 2});
    assert!(!one(&closed, 0).exact);
}

#[test]
fn recursion_stops_and_required_recursion_is_noted() {
    let doc = doc();
    for seed in SEEDS {
        let g = generate(&doc, &named("Node"), seed, Direction::Response);
        assert!(g.exact, "{g:?}");
        assert!(depth(&g.value) <= 6, "optional recursion is cut early: {}", g.value);
    }
    let g = generate(&doc, &named("Chain"), 0, Direction::Response);
    assert!(!g.exact && g.notes.iter().any(|n| n.contains("levels")), "{g:?}");
    assert!(depth(&g.value) <= 14, "{}", g.value);
}

fn depth(v: &Value) -> usize {
    match v {
        Value::Array(items) => 1 + items.iter().map(depth).max().unwrap_or(0),
        Value::Object(map) => 1 + map.values().map(depth).max().unwrap_or(0),
        _ => 0,
    }
}

fn nodes(v: &Value) -> usize {
    match v {
        Value::Array(items) => 1 + items.iter().map(nodes).sum::<usize>(),
        Value::Object(map) => 1 + map.values().map(nodes).sum::<usize>(),
        _ => 1,
    }
}

#[test]
fn caps_bound_what_numbers_in_the_schema_ask_for() {
    let g = one(&json!({"type": "string", "minLength": 1_000_000}), 0);
    assert_eq!(g.value.as_str().unwrap().chars().count(), 4096);
    assert!(
        !g.exact
            && g.notes.contains(&"a string of at least 1000000 characters is shortened to 4096".to_owned())
    );
    let g = one(&json!({"type": "array", "minItems": 4_000_000_000_u64, "items": {"type": "integer"}}), 0);
    assert_eq!(g.value.as_array().unwrap().len(), 1000);
    assert!(!g.exact);
    let wide = json!({"type": "array", "minItems": 900, "items": {"type": "object", "required": ["a", "b", "c"],
        "properties": {"a": {"type": "integer"}, "b": {"type": "string"}, "c": {"type": "boolean"}}}});
    let g = one(&wide, 0);
    assert!(nodes(&g.value) <= 2_001 && !g.exact, "{} nodes", nodes(&g.value));
    let g = one(&json!({"type": "string", "pattern": "^a{1000000}$"}), 0);
    assert!(g.value.as_str().unwrap().len() <= 4096 && !g.exact);
}

#[test]
fn broken_schemas_give_a_value_and_a_note() {
    let doc = doc();
    let cases = [
        json!({"$ref": "#/components/schemas/Missing"}),
        json!({"$ref": "other.yaml#/Pet"}),
        json!(42),
        json!({"type": "file"}),
        json!(false),
        json!({"not": {}}),
        json!({"allOf": [{"type": "string"}, {"type": "integer"}]}),
        json!({"type": "object", "properties": {"a": {"$ref": "#/nowhere"}}, "required": ["a"]}),
        json!({"oneOf": []}),
        json!({"allOf": "not a list"}),
    ];
    for schema in cases {
        let g = generate(&doc, &schema, 1, Direction::Response);
        assert!(!g.exact && !g.notes.is_empty(), "{schema}: {g:?}");
    }
    // A schema that refers to itself through allOf ends too.
    let looped = json!({"components": {"schemas": {"A": {"allOf": [{"$ref": "#/components/schemas/A"}]}}}});
    let _ = generate(&looped, &json!({"$ref": "#/components/schemas/A"}), 0, Direction::Request);
}

#[test]
fn optional_properties_no_value_satisfies_are_left_out() {
    // `type: null` beside a `oneOf` of a number and a boolean: nothing is both.
    let contradiction = json!({"type": "null", "oneOf": [{"type": "number"}, {"type": "boolean"}]});
    let schema = json!({"type": "object", "required": ["id"], "minProperties": 2,
        "properties": {"id": {"type": "string"}, "at": contradiction, "name": {"type": "string"}}});
    for seed in SEEDS {
        let g = one(&schema, seed);
        assert!(g.value.get("at").is_none(), "seed {seed}: {}", g.value);
        assert!(g.value.get("id").is_some(), "seed {seed}: {}", g.value);
        assert!(g.exact, "seed {seed}: what was left out leaves no note: {:?}", g.notes);
    }
    // Required, it is still given (with a note): the object needs it.
    let required = json!({"type": "object", "required": ["at"], "properties": {"at": contradiction}});
    let g = one(&required, 0);
    assert!(g.value.get("at").is_some() && !g.exact, "{g:?}");
}

#[test]
fn the_same_seed_gives_the_same_value_and_seeds_differ() {
    let doc = serde_yaml_ng::from_str::<serde_json::Value>(include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../openapi/petstore.yaml"
    )))
    .expect("openapi/petstore.yaml reads");
    let pet = json!({"$ref": "#/components/schemas/Pet"});
    let values: Vec<Value> =
        (0..8).map(|seed| generate(&doc, &pet, seed, Direction::Response).value).collect();
    for (seed, value) in (0..8).zip(&values) {
        assert_eq!(&generate(&doc, &pet, seed, Direction::Response).value, value);
    }
    let plain = json!({"type": "object", "required": ["n", "s"], "properties": {
        "n": {"type": "integer"}, "s": {"type": "string", "format": "uuid"}}});
    let distinct: std::collections::BTreeSet<String> =
        (0..8).map(|seed| one(&plain, seed).value.to_string()).collect();
    assert_eq!(distinct.len(), 8, "{distinct:?}");
    // Pinned: splitmix64 and integer arithmetic give this on every platform, wasm32 included.
    assert_eq!(one(&json!({"type": "integer", "minimum": 0, "maximum": 1_000_000}), 42).value, json!(62));
}
