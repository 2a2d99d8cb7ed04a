//! Unit tests of the generator by keyword family: formats, patterns and numbers here; objects,
//! combinators, directions, caps and determinism in `tests/structure.rs`; every schema of real
//! documents in `tests/corpus.rs`; random schemas in `tests/fuzz.rs`.

#[cfg(not(target_arch = "wasm32"))]
mod corpus;
#[cfg(not(target_arch = "wasm32"))]
mod fuzz;
mod structure;

use serde_json::{Value, json};

use super::{Generated, generate};
use playground_openapi::schema::Direction;

/// Seeds every test runs through.
const SEEDS: std::ops::Range<u64> = 0..40;

/// Generates for `schema` alone (no document), as a response.
fn one(schema: &Value, seed: u64) -> Generated {
    generate(&json!({}), schema, seed, Direction::Response)
}

/// The values for every seed, each asserted exact.
fn exact_values(schema: &Value) -> Vec<Value> {
    SEEDS
        .map(|seed| {
            let g = one(schema, seed);
            assert!(g.exact, "{schema} seed {seed}: {:?} {}", g.notes, g.value);
            assert!(g.notes.is_empty(), "{:?}", g.notes);
            g.value
        })
        .collect()
}

fn strings(schema: &Value) -> Vec<String> {
    exact_values(schema)
        .into_iter()
        .map(|v| v.as_str().unwrap_or_else(|| panic!("{v} is not a string")).to_owned())
        .collect()
}

fn matches(pattern: &str, text: &str) -> bool {
    regex_lite::Regex::new(pattern).unwrap().is_match(text)
}

#[test]
fn date_and_time_formats_follow_rfc_3339() {
    use time::format_description::well_known::Rfc3339;
    for s in strings(&json!({"type": "string", "format": "date-time"})) {
        assert!(time::OffsetDateTime::parse(&s, &Rfc3339).is_ok(), "{s}");
    }
    for s in strings(&json!({"type": "string", "format": "date"})) {
        assert!(matches(r"^\d{4}-\d{2}-\d{2}$", &s), "{s}");
        assert!(
            time::Date::parse(&s, time::macros::format_description!("[year]-[month]-[day]")).is_ok(),
            "{s}"
        );
    }
    for s in strings(&json!({"type": "string", "format": "time"})) {
        assert!(matches(r"^([01]\d|2[0-3]):[0-5]\d:[0-5]\dZ$", &s), "{s}");
    }
}

#[test]
fn network_formats_parse() {
    for s in strings(&json!({"type": "string", "format": "email"})) {
        let (local, domain) = s.split_once('@').unwrap();
        assert!(!local.is_empty() && domain.contains('.') && !s.contains(' '), "{s}");
    }
    for format in ["uri", "url"] {
        for s in strings(&json!({"type": "string", "format": format})) {
            assert!(s.starts_with("https://") && !s.contains(' '), "{s}");
        }
    }
    for s in strings(&json!({"type": "string", "format": "uuid"})) {
        let re = r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$";
        assert!(matches(re, &s), "{s}");
    }
    for s in strings(&json!({"type": "string", "format": "ipv4"})) {
        assert!(s.parse::<std::net::Ipv4Addr>().is_ok(), "{s}");
    }
    for s in strings(&json!({"type": "string", "format": "ipv6"})) {
        assert!(s.parse::<std::net::Ipv6Addr>().is_ok(), "{s}");
    }
    for s in strings(&json!({"type": "string", "format": "hostname"})) {
        assert!(matches(r"^[a-z0-9-]+(\.[a-z0-9-]+)+$", &s), "{s}");
    }
}

#[test]
fn byte_is_base64_and_binary_is_text() {
    use base64::Engine as _;
    for s in strings(&json!({"type": "string", "format": "byte", "minLength": 10, "maxLength": 20})) {
        assert!((10..=20).contains(&s.len()), "{s}");
        assert!(base64::engine::general_purpose::STANDARD.decode(&s).is_ok(), "{s}");
    }
    assert!(!strings(&json!({"type": "string", "format": "binary"}))[0].is_empty());
}

#[test]
fn numeric_formats_keep_their_ranges() {
    for v in exact_values(&json!({"type": "integer", "format": "int32", "minimum": 2147483000_i64})) {
        let n = v.as_i64().unwrap();
        assert!((2_147_483_000..=i64::from(i32::MAX)).contains(&n), "{n}");
    }
    for v in
        exact_values(&json!({"type": "integer", "format": "int64", "minimum": 9_000_000_000_000_000_000_i64}))
    {
        assert!(v.as_i64().unwrap() >= 9_000_000_000_000_000_000, "{v}");
    }
    for format in ["float", "double"] {
        for v in exact_values(&json!({"type": "number", "format": format, "maximum": -5})) {
            assert!(v.as_f64().unwrap() <= -5.0, "{v}");
        }
    }
}

#[test]
fn a_format_and_a_length_that_exclude_each_other_are_noted() {
    let g = one(&json!({"type": "string", "format": "date", "maxLength": 4}), 1);
    assert!(!g.exact);
    assert!(g.notes.iter().any(|n| n.contains("date")), "{:?}", g.notes);
}

#[test]
fn patterns_generate_matching_strings() {
    for s in strings(&json!({"type": "string", "pattern": r"^[A-Z]{3}-\d{4}$"})) {
        assert!(matches(r"^[A-Z]{3}-[0-9]{4}$", &s), "{s}");
    }
    for s in strings(&json!({"type": "string", "pattern": r"^\S+@\S+$"})) {
        assert!(matches(r"^\S+@\S+$", &s) && s.is_ascii(), "{s}");
    }
    // OpenAPI patterns are unanchored: text around a match is free.
    for s in strings(&json!({"type": "string", "pattern": "[0-9]{3}", "minLength": 8, "maxLength": 8})) {
        assert!(s.chars().count() == 8 && matches("[0-9]{3}", &s), "{s}");
    }
}

#[test]
fn alternations_take_every_branch_across_seeds() {
    let seen: std::collections::BTreeSet<String> =
        strings(&json!({"type": "string", "pattern": "^(cat|dog|bird)$"})).into_iter().collect();
    assert_eq!(seen.into_iter().collect::<Vec<_>>(), ["bird", "cat", "dog"]);
    for s in strings(&json!({"type": "string", "pattern": r"^(?:[a-f]{2}|\d{5})(?:-x)?$"})) {
        assert!(matches(r"^(?:[a-f]{2}|\d{5})(?:-x)?$", &s), "{s}");
    }
}

#[test]
fn patterns_meet_min_and_max_length() {
    for s in strings(&json!({"type": "string", "pattern": "^[a-z]+$", "minLength": 30, "maxLength": 34})) {
        assert!((30..=34).contains(&s.len()) && matches("^[a-z]+$", &s), "{s}");
    }
    for s in strings(&json!({"type": "string", "pattern": r"^[A-Z][a-z]*( [A-Z][a-z]*)*$", "maxLength": 6})) {
        assert!(s.len() <= 6 && matches(r"^[A-Z][a-z]*( [A-Z][a-z]*)*$", &s), "{s}");
    }
}

#[test]
fn look_arounds_are_skipped_and_the_result_is_not_called_exact() {
    let g = one(&json!({"type": "string", "pattern": r"^(?=.*\d)[a-z\d]{8,10}$"}), 3);
    let s = g.value.as_str().unwrap();
    assert!(matches(r"^[a-z\d]{8,10}$", s), "{s}");
    assert!(!g.exact, "regex-lite cannot confirm a look-ahead");
    assert!(g.notes.iter().any(|n| n.contains("could not be confirmed")), "{:?}", g.notes);
}

#[test]
fn a_pattern_no_string_of_the_length_matches_is_noted() {
    let g = one(&json!({"type": "string", "pattern": "^[0-9]{3}$", "minLength": 5}), 0);
    assert!(!g.exact);
    assert!(g.notes.iter().any(|n| n.contains("matches the pattern")), "{:?}", g.notes);
    let g = one(&json!({"type": "string", "pattern": "([a-z"}), 0);
    assert!(!g.exact && g.value.is_string(), "{g:?}");
}

#[test]
fn multiple_of_integers_and_numbers() {
    for v in exact_values(&json!({"type": "integer", "multipleOf": 7, "minimum": 10, "maximum": 100})) {
        let n = v.as_i64().unwrap();
        assert!(n % 7 == 0 && (10..=100).contains(&n), "{n}");
    }
    // A fractional step for integers lets every integer through.
    for v in exact_values(&json!({"type": "integer", "multipleOf": 0.5})) {
        assert!(v.is_i64(), "{v}");
    }
    for v in exact_values(&json!({"type": "number", "multipleOf": 0.01, "minimum": 0.05, "maximum": 0.2})) {
        let text = v.to_string();
        let cents: f64 = text.parse::<f64>().unwrap() * 100.0;
        assert!((cents - cents.round()).abs() < 1e-9 && (5.0..=20.0).contains(&cents.round()), "{text}");
        // Written with two decimals at most: a multiple of 0.01 read as the decimal it is.
        assert!(super::scalar::decimal(&v).is_some_and(|(_, scale)| scale <= 2), "{text}");
    }
    for v in exact_values(&json!({"type": "number", "multipleOf": 2.5, "exclusiveMinimum": 0})) {
        let x = v.as_f64().unwrap();
        assert!(x > 0.0 && (x / 2.5).fract() == 0.0, "{x}");
    }
}

#[test]
fn multiple_of_across_all_of_takes_the_common_multiple() {
    let schema = json!({"allOf": [{"type": "integer", "multipleOf": 4}, {"multipleOf": 6, "minimum": 1}]});
    for v in exact_values(&schema) {
        let n = v.as_i64().unwrap();
        assert!(n % 12 == 0 && n >= 12, "{n}");
    }
    let g = one(&json!({"type": "integer", "multipleOf": 10, "minimum": 1, "maximum": 9}), 0);
    assert!(!g.exact && g.notes.iter().any(|n| n.contains("multipleOf")), "{g:?}");
}

#[test]
fn exclusive_bounds_in_both_dialects() {
    let open_3_0 = json!({"type": "integer", "minimum": 5, "exclusiveMinimum": true, "maximum": 7, "exclusiveMaximum": true});
    let open_3_1 = json!({"type": "integer", "exclusiveMinimum": 5, "exclusiveMaximum": 7});
    for schema in [open_3_0, open_3_1] {
        assert!(exact_values(&schema).iter().all(|v| v == &json!(6)), "{schema}");
    }
    let numbers_3_0 = json!({"type": "number", "minimum": 0, "exclusiveMinimum": true, "maximum": 0.001});
    let numbers_3_1 = json!({"type": "number", "exclusiveMinimum": 0, "maximum": 0.001});
    for schema in [numbers_3_0, numbers_3_1] {
        for v in exact_values(&schema) {
            let x = v.as_f64().unwrap();
            assert!(x > 0.0 && x <= 0.001, "{schema}: {x}");
        }
    }
    // A 3.0 `exclusiveMinimum: false` is an ordinary minimum.
    let closed = json!({"type": "integer", "minimum": 3, "exclusiveMinimum": false, "maximum": 3});
    assert!(exact_values(&closed).iter().all(|v| v == &json!(3)));
}

#[test]
fn bounds_that_exclude_each_other_are_noted() {
    for schema in [
        json!({"type": "integer", "minimum": 10, "maximum": 5}),
        json!({"type": "number", "exclusiveMinimum": 1, "exclusiveMaximum": 1}),
        json!({"type": "string", "minLength": 10, "maxLength": 5}),
        json!({"type": "array", "minItems": 4, "maxItems": 2}),
    ] {
        let g = one(&schema, 0);
        assert!(!g.exact && !g.notes.is_empty(), "{schema}: {g:?}");
    }
}

#[test]
fn plausible_values_by_property_name() {
    let doc = json!({});
    let schema = json!({"type": "object", "properties": {
        "id": {"type": "integer"}, "email": {"type": "string"}, "name": {"type": "string"},
        "homepageUrl": {"type": "string"}, "price": {"type": "number"}}});
    for seed in SEEDS {
        let g = generate(&doc, &schema, seed, Direction::Response);
        assert!(g.exact, "{g:?}");
        let v = &g.value;
        assert!(v["id"].as_i64().is_some_and(|id| id >= 1), "{v}");
        assert!(v["email"].as_str().is_some_and(|e| e.contains('@')), "{v}");
        assert!(v["name"].as_str().is_some_and(|n| n.contains(' ')), "{v}");
        assert!(v["homepageUrl"].as_str().is_some_and(|u| u.starts_with("https://")), "{v}");
        assert!(v["price"].as_f64().is_some_and(|p| p >= 1.0), "{v}");
    }
}

#[test]
fn more_values_look_like_data_by_name() {
    let schema = json!({"type": "object", "properties": {
        "title": {"type": "string"}, "zip": {"type": "string"}, "color": {"type": "string"},
        "street": {"type": "string"}, "locale": {"type": "string"}, "slug": {"type": "string", "maxLength": 5}}});
    for seed in SEEDS {
        let g = generate(&json!({}), &schema, seed, Direction::Request);
        assert!(g.exact, "{g:?}");
        let v = &g.value;
        assert!(
            v["title"].as_str().is_some_and(|t| t.starts_with("The ") && t.split(' ').count() == 3),
            "{v}"
        );
        assert!(
            v["zip"].as_str().is_some_and(|z| z.len() == 5 && z.chars().all(|c| c.is_ascii_digit())),
            "{v}"
        );
        assert!(v["color"].as_str().is_some_and(|c| c.len() == 7 && c.starts_with('#')), "{v}");
        assert!(v["street"].as_str().is_some_and(|s| s.ends_with(" Street")), "{v}");
        assert!(v["locale"].as_str().is_some_and(|l| l.len() == 2), "{v}");
        // A name's value that does not fit the schema's lengths gives way to one that does.
        assert!(v["slug"].as_str().is_some_and(|s| s.chars().count() <= 5), "{v}");
    }
}

#[test]
fn lengths_count_characters() {
    for s in strings(&json!({"type": "string", "minLength": 3, "maxLength": 3})) {
        assert_eq!(s.chars().count(), 3, "{s}");
    }
    for s in strings(&json!({"type": "string", "pattern": "^é{4}$"})) {
        assert_eq!(s, "éééé");
    }
}

#[test]
fn optional_properties_nothing_satisfies_are_left_out() {
    let schema = json!({"type": "object", "properties": {"name": {"type": "string"}, "contents": {"not": {}},
        "never": false}, "required": ["name"]});
    for seed in 0..20 {
        let value = one(&schema, seed).value;
        assert!(value.get("contents").is_none() && value.get("never").is_none(), "{value}");
        assert!(value["name"].is_string(), "{value}");
    }
}

#[test]
fn shapes_a_discriminator_misnames_are_left_out_where_they_may_be() {
    // Spotify: an implicit mapping names the branches TrackObject and EpisodeObject, while their
    // `type` enums say "track" and "episode": no value satisfies both, and clients reading the
    // discriminator refuse the enum's.
    let doc = json!({"components": {"schemas": {
        "TrackObject": {"type": "object", "required": ["type"],
            "properties": {"type": {"type": "string", "enum": ["track"]}}},
        "EpisodeObject": {"type": "object", "required": ["type"],
            "properties": {"type": {"type": "string", "enum": ["episode"]}}},
        "Named": {"type": "object", "required": ["kind"], "properties": {"kind": {"type": "string"}}}
    }}});
    let either = |d: Value| {
        json!({"discriminator": d, "oneOf": [
            {"$ref": "#/components/schemas/TrackObject"}, {"$ref": "#/components/schemas/EpisodeObject"}]})
    };
    let implicit = either(json!({"propertyName": "type"}));
    let schema = json!({"type": "object", "required": ["id", "queue"], "properties": {
        "id": {"type": "string"}, "item": implicit, "queue": {"type": "array", "items": implicit},
        "named": {"discriminator": {"propertyName": "kind"},
            "oneOf": [{"$ref": "#/components/schemas/Named"}]}}});
    let mut named = 0;
    for seed in 0..20 {
        let g = generate(&doc, &schema, seed, Direction::Response);
        assert!(g.value.get("item").is_none(), "{}", g.value);
        assert_eq!(g.value["queue"], json!([]), "{}", g.value);
        assert!(g.value["id"].is_string(), "{}", g.value);
        if let Some(kind) = g.value.get("named") {
            assert_eq!(kind["kind"], "Named", "a discriminator its property allows is set");
            named += 1;
        }
    }
    assert!(named > 0, "the optional property with a sound discriminator is generated");
    // A mapping that names the enum's values is sound.
    let mapped = either(json!({"propertyName": "type", "mapping": {
        "track": "#/components/schemas/TrackObject", "episode": "#/components/schemas/EpisodeObject"}}));
    let g = generate(&doc, &mapped, 1, Direction::Response);
    assert!(g.exact && ["track", "episode"].contains(&g.value["type"].as_str().unwrap_or_default()), "{g:?}");
    // Required, it is sent as the enum says, with a note.
    let g = generate(&doc, &implicit, 1, Direction::Response);
    assert!(!g.exact && g.notes.iter().any(|n| n.contains("discriminator")), "{g:?}");
    // A base schema generated for itself names no branch: its enum is just followed (Vonage's
    // report_request, whose `product` lists its subtypes).
    let base = json!({"components": {"schemas": {"Base": {"type": "object", "required": ["product"],
        "discriminator": {"propertyName": "product"},
        "properties": {"product": {"type": "string", "enum": ["SMS", "VOICE"]}}}}}});
    let g = generate(&base, &json!({"$ref": "#/components/schemas/Base"}), 1, Direction::Response);
    assert!(g.exact && g.notes.is_empty(), "{g:?}");
}
