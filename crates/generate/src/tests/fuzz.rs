//! Random schemas built from real keywords with odd values: generation never panics, stays
//! within its caps, says why when it is not exact, and is the same for the same seed.

use proptest::prelude::*;
use serde_json::{Map, Value, json};

use crate::generate;
use playground_openapi::schema::Direction;

const KEYWORDS: [&str; 34] = [
    "type",
    "nullable",
    "enum",
    "const",
    "format",
    "pattern",
    "minLength",
    "maxLength",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "items",
    "prefixItems",
    "minItems",
    "maxItems",
    "uniqueItems",
    "properties",
    "required",
    "additionalProperties",
    "minProperties",
    "maxProperties",
    "allOf",
    "oneOf",
    "anyOf",
    "not",
    "$ref",
    "readOnly",
    "writeOnly",
    "example",
    "default",
    "discriminator",
    "contains",
];

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        (-1e6..1e6_f64).prop_map(Value::from),
        prop_oneof![
            Just("string"),
            Just("integer"),
            Just("number"),
            Just("object"),
            Just("array"),
            Just("boolean"),
            Just("null"),
            Just("date-time"),
            Just("uuid"),
            Just("^[a-z]{2,4}$"),
            Just("(a|b"),
            Just("\\d+"),
            Just("#/components/schemas/S"),
            Just("#/nowhere"),
            Just("int32"),
            Just("byte"),
            Just("a"),
        ]
        .prop_map(|s| Value::String(s.to_owned())),
        (0u64..5).prop_map(|n| json!(n)),
    ]
}

fn schema() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((prop::sample::select(&KEYWORDS[..]), inner), 0..6).prop_map(|pairs| {
                let mut map = Map::new();
                for (key, value) in pairs {
                    map.insert(key.to_owned(), value);
                }
                Value::Object(map)
            }),
        ]
    })
}

fn nodes(v: &Value) -> usize {
    match v {
        Value::Array(items) => 1 + items.iter().map(nodes).sum::<usize>(),
        Value::Object(map) => 1 + map.values().map(nodes).sum::<usize>(),
        _ => 1,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn random_schemas_never_panic(
        component in schema(),
        top in schema(),
        seed in any::<u64>(),
        request in any::<bool>(),
        version in prop::sample::select(&["3.0.3", "3.1.0"][..]),
    ) {
        let doc = json!({"openapi": version, "components": {"schemas": {"S": component}}});
        let direction = if request { Direction::Request } else { Direction::Response };
        let first = generate(&doc, &top, seed, direction);
        prop_assert!(first.exact || !first.notes.is_empty());
        prop_assert!(nodes(&first.value) <= 2_100, "{} nodes", nodes(&first.value));
        prop_assert_eq!(first, generate(&doc, &top, seed, direction));
    }
}
