//! Random schemas built from real keywords with odd values: generation never panics, stays
//! within its caps, says why when it is not exact, and is the same for the same seed. Random
//! numbers: the generator's decimal readings agree with the standard library's.

use proptest::prelude::*;
use serde_json::{Map, Value, json};

use crate::generate;
use crate::scalar::{decimal, decimal_value};
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

    #[test]
    fn a_decimal_reads_as_its_text_does(digits in -(1_i128 << 53)..(1_i128 << 53), scale in 0_u32..=22) {
        // Both exact in a float: the correctly rounded value, as reading the text gives.
        let text = format!("{digits}e-{scale}");
        prop_assert_eq!(decimal_value(digits, scale).to_bits(), text.parse::<f64>().unwrap().to_bits(), "{}", text);
    }

    #[test]
    fn a_large_decimal_reads_within_a_few_last_places(digits in any::<i64>(), scale in 0_u32..=30) {
        let text = format!("{digits}e-{scale}");
        let (ours, read) = (decimal_value(i128::from(digits), scale), text.parse::<f64>().unwrap());
        prop_assert!((ours - read).abs() <= 4.0 * f64::EPSILON * read.abs(), "{} {} {}", text, ours, read);
    }

    #[test]
    fn a_number_is_the_decimal_its_shortest_text_writes(number in any::<f64>()) {
        // The standard library's shortest digits, against serde_json's (which `decimal` reads).
        let expected = number.is_finite().then(|| {
            let text = format!("{number:e}");
            let (digits, exponent) = text.split_once('e').unwrap();
            let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
            let mantissa: i128 = format!("{whole}{fraction}").parse().unwrap();
            let places = i32::try_from(fraction.len()).unwrap() - exponent.parse::<i32>().unwrap();
            if places >= 0 {
                u32::try_from(places).ok().filter(|p| *p <= 30).map(|p| (mantissa, p))
            } else {
                10_i128.checked_pow(u32::try_from(-places).unwrap()).and_then(|f| mantissa.checked_mul(f)).map(|m| (m, 0))
            }
        }).flatten();
        match (decimal(&json!(number)), expected) {
            (Some(ours), Some(std)) if ours != std => a_tie_written_either_way(number, ours, std)?,
            (ours, std) => prop_assert_eq!(ours, std, "{}", number),
        }
    }
}

/// A float halfway between two shortest texts (22497439634929.3125 is "22497439634929.312" or
/// "…313"): serde_json and the standard library may each write a different one. Both have as
/// many digits, and both read back as the float.
fn a_tie_written_either_way(number: f64, ours: (i128, u32), std: (i128, u32)) -> Result<(), TestCaseError> {
    let significant = |m: i128| m.unsigned_abs().to_string().trim_end_matches('0').len();
    let read = |(m, s): (i128, u32)| format!("{m}e-{s}").parse::<f64>().unwrap().to_bits();
    prop_assert_eq!(significant(ours.0), significant(std.0), "{} {:?} {:?}", number, ours, std);
    prop_assert_eq!(read(ours), number.to_bits(), "{} {:?}", number, ours);
    prop_assert_eq!(read(std), number.to_bits(), "{} {:?}", number, std);
    Ok(())
}

#[test]
fn a_float_halfway_between_two_shortest_texts_reads_as_either() {
    let number = 22_497_439_634_929.313_f64;
    assert_eq!(number.fract().to_bits(), 0.3125_f64.to_bits(), "the float is the tie, …929.3125");
    assert_eq!(decimal(&json!(number)), Some((22_497_439_634_929_312, 3)));
    a_tie_written_either_way(number, (22_497_439_634_929_312, 3), (22_497_439_634_929_313, 3)).unwrap();
    // A text that reads as another float, and one longer than the shortest, are not ties.
    let std = (22_497_439_634_929_313, 3);
    assert!(a_tie_written_either_way(number, (22_497_439_634_929_305, 3), std).is_err());
    assert!(a_tie_written_either_way(number, (224_974_396_349_293_125, 4), std).is_err());
}
