//! References as JSON Schema 2020-12 reads them: base URIs from `$id`, anchors, other documents
//! lent as [`Resources`], `$dynamicRef` through the dynamic scope, and their bounds.

use serde_json::{Value, json};

use crate::{Patterns, Resources, Validator};

/// The verdict on `value` for `doc`, the root of a 3.1 document, with `resources` lent.
fn judge(doc: &Value, value: &Value, resources: &Resources) -> Result<(), String> {
    let patterns = Patterns::default();
    Validator::new(doc, &patterns).resources(resources).check(doc, value, "")
}

fn rows(doc: &Value, resources: &Resources, good: &[Value], bad: &[Value]) {
    for v in good {
        assert_eq!(judge(doc, v, resources), Ok(()), "{v} against {doc}");
    }
    for v in bad {
        assert!(judge(doc, v, resources).is_err(), "{v} should fail {doc}");
    }
}

#[test]
fn ids_give_the_base_references_resolve_against() {
    let none = Resources::new();
    let doc = json!({
        "$id": "http://example.com/root.json",
        "properties": {
            "a": {"$ref": "item.json"},
            "b": {"$ref": "#/$defs/tree/$defs/leaf"},
            "c": {"$ref": "http://example.com/nested/leaf.json"},
            "d": {"$ref": "nested/leaf.json#named"},
            "e": {"$ref": "urn:uuid:deadbeef-1234-ffff-ffff-4321feebdaed#/$defs/n"}
        },
        "$defs": {
            "item": {"$id": "item.json", "type": "integer"},
            "tree": {
                "$id": "nested/",
                "$defs": {"leaf": {"$id": "leaf.json", "type": "string", "$anchor": "named"}}
            },
            "urn": {"$id": "urn:uuid:deadbeef-1234-ffff-ffff-4321feebdaed", "$defs": {"n": {"type": "null"}}},
            "enum": {"enum": [{"$id": "http://example.com/root.json#fake", "type": "null"}]}
        }
    });
    rows(
        &doc,
        &none,
        &[json!({"a": 1, "b": "x", "c": "y", "d": "z", "e": null})],
        &[json!({"a": "1"}), json!({"b": 1}), json!({"c": 1}), json!({"d": 1}), json!({"e": 0})],
    );
}

#[test]
fn other_documents_are_read_from_the_resources_lent() {
    let mut resources = Resources::new();
    resources.insert("http://example.com/types.json", json!({"$defs": {"int": {"type": "integer"}}}));
    assert_eq!(resources.len(), 1);
    let doc = json!({"items": {"$ref": "http://example.com/types.json#/$defs/int"}});
    rows(&doc, &resources, &[json!([1, 2])], &[json!(["1"])]);
    let error = judge(&json!({"$ref": "http://example.com/other.json"}), &json!(1), &resources);
    assert_eq!(
        error,
        Err("The document is broken: the reference http://example.com/other.json is to another document, \
             which this reference does not read."
            .to_owned())
    );
    // Without them, as before.
    let error = judge(&doc, &json!([1]), &Resources::new());
    assert!(error.is_err_and(|e| e.contains("another document")));
}

#[test]
fn a_dynamic_reference_takes_the_outermost_dynamic_anchor() {
    let mut resources = Resources::new();
    resources.insert(
        "http://example.com/list.json",
        json!({
            "$id": "http://example.com/list.json",
            "type": "array",
            "items": {"$dynamicRef": "#item"},
            "$defs": {"item": {"$dynamicAnchor": "item"}}
        }),
    );
    let strings = json!({
        "$id": "http://example.com/strings.json",
        "$ref": "list.json",
        "$defs": {"item": {"$dynamicAnchor": "item", "type": "string"}}
    });
    rows(&strings, &resources, &[json!(["a"])], &[json!([1])]);
    // A `$ref` to a dynamic anchor is a plain one.
    let plain =
        json!({"$ref": "http://example.com/list.json#item", "$defs": {"x": {"$dynamicAnchor": "item"}}});
    rows(&plain, &resources, &[json!(1)], &[]);
}

#[test]
fn reference_cycles_and_depth_are_bounded() {
    let none = Resources::new();
    let looped = judge(&json!({"$dynamicAnchor": "a", "$dynamicRef": "#a"}), &json!(1), &none);
    assert!(looped.is_err_and(|e| e.contains("contains itself without end")));
    // Through the value's levels, a recursive schema stops at the depth bound.
    let mut deep = json!(1);
    for _ in 0..200 {
        deep = json!([deep]);
    }
    let recursive = json!({"$dynamicAnchor": "a", "items": {"$dynamicRef": "#a"}});
    let error = judge(&recursive, &deep, &none);
    assert!(error.is_err_and(|e| e.contains("nested too deep")));
    let chain =
        json!({"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"});
    assert!(judge(&chain, &json!(1), &none).is_err());
}

#[test]
fn boolean_targets_and_decimal_counts() {
    let none = Resources::new();
    rows(&json!({"$ref": "#/$defs/no", "$defs": {"no": false}}), &none, &[], &[json!(1), json!(null)]);
    rows(
        &json!({"maxItems": 2.0, "minLength": 1.0}),
        &none,
        &[json!([1, 2]), json!("a")],
        &[json!([1, 2, 3]), json!("")],
    );
    // Too large a quotient for floats: read as the decimals written.
    rows(&json!({"multipleOf": 0.123_456_789}), &none, &[], &[json!(1e308)]);
    rows(&json!({"multipleOf": 1e-308}), &none, &[json!(1e308)], &[]);
}

/// Arbitrary documents made of the keywords references use, checked in both readings: no
/// panic, and an answer within the bounds.
#[cfg(not(target_arch = "wasm32"))]
mod arbitrary {
    use proptest::prelude::*;
    use serde_json::Value;

    use crate::{Patterns, Resources, Validator};

    const KEYS: &[&str] = &[
        "$id",
        "$anchor",
        "$dynamicAnchor",
        "$ref",
        "$dynamicRef",
        "$defs",
        "a",
        "items",
        "prefixItems",
        "properties",
        "allOf",
        "anyOf",
        "oneOf",
        "not",
        "if",
        "then",
        "contains",
        "unevaluatedProperties",
        "unevaluatedItems",
        "type",
    ];

    const STRINGS: &[&str] = &[
        "#",
        "#a",
        "a",
        "x.json",
        "#/$defs/a",
        "#/$defs/a/$ref",
        "#/items/0",
        "urn:x:y",
        "urn:x:y#a",
        "http://h/x.json",
        "http://h/x.json#/$defs",
        "../y/#a",
        "#%zz",
        "integer",
        "object",
    ];

    fn json(keys: &'static [&'static str], strings: &'static [&'static str]) -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            (-2_i64..3).prop_map(Value::from),
            prop::sample::select(strings).prop_map(Value::from),
        ];
        leaf.prop_recursive(5, 64, 4, move |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                prop::collection::btree_map(prop::sample::select(keys), inner, 0..5)
                    .prop_map(|m| Value::Object(m.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())),
            ]
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        #[test]
        fn references_never_panic(doc in json(KEYS, STRINGS), value in json(&["a", "b"], &["a", "1"])) {
            let patterns = Patterns::default();
            let mut resources = Resources::new();
            resources.insert("http://h/x.json", doc.clone());
            let validator = Validator::new(&doc, &patterns).resources(&resources);
            let _ = validator.check(&doc, &value, "");
            let _ = validator.strict().problems(&doc, &value, "", 10);
            let mut budget = 20_000;
            let _ = validator.verdict(&doc, &value, &mut budget);
        }
    }
}
