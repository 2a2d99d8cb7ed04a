//! Our verdicts against the `jsonschema` crate's (JSON Schema 2020-12, formats asserted) on a
//! table of schemas, each with values either side of its rules. Host only: `jsonschema` does
//! not build for the browser here.

use serde_json::{Value, json};

use super::{Validator, compile_patterns};

fn theirs(schema: &Value, value: &Value) -> bool {
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .should_validate_formats(true)
        .build(schema)
        .unwrap_or_else(|e| panic!("{schema} does not compile: {e}"))
        .is_valid(value)
}

fn ours(schema: &Value, value: &Value) -> Result<(), String> {
    let (patterns, skipped) = compile_patterns(schema);
    assert!(skipped.is_empty(), "{skipped:?}");
    Validator::new(schema, &patterns).check(schema, value, "")
}

/// Each row: a schema and values to judge; each is valid to one side of a rule or the other.
#[allow(clippy::too_many_lines)] // a table
fn rows() -> Vec<(Value, Vec<Value>)> {
    vec![
        (json!({"type": ["string", "null"]}), vec![json!("a"), json!(null), json!(1), json!({})]),
        (json!({"type": "null"}), vec![json!(null), json!(0), json!(false)]),
        (
            json!({"type": "integer"}),
            vec![json!(1), json!(1.0), json!(-3), json!(1.5), json!("1"), json!(u64::MAX)],
        ),
        (json!({"type": ["integer", "boolean"]}), vec![json!(true), json!(2), json!(2.5), json!(null)]),
        (json!({"type": "object"}), vec![json!({}), json!([]), json!(null)]),
        (
            json!({"const": {"a": [1, 2]}}),
            vec![json!({"a": [1, 2]}), json!({"a": [1.0, 2]}), json!({"a": [2, 1]}), json!(null)],
        ),
        (
            json!({"enum": [1, "one", null, [1]]}),
            vec![json!(1), json!(1.0), json!("one"), json!(null), json!([1]), json!(2), json!([1, 1])],
        ),
        (json!({"type": ["string", "null"], "enum": ["a", null]}), vec![json!("a"), json!(null), json!("b")]),
        (json!({"type": ["string", "null"], "enum": ["a"]}), vec![json!("a"), json!(null)]),
        (
            json!({"minimum": 1, "exclusiveMaximum": 3}),
            vec![json!(1), json!(2.99), json!(3), json!(0.5), json!("x")],
        ),
        (json!({"exclusiveMinimum": 0, "maximum": 10}), vec![json!(0), json!(0.001), json!(10), json!(10.5)]),
        (json!({"multipleOf": 3}), vec![json!(9), json!(0), json!(-6), json!(10), json!(9.0), json!(4.5)]),
        (json!({"multipleOf": 0.5}), vec![json!(2.5), json!(3), json!(2.25), json!(-0.5)]),
        (
            json!({"minLength": 2, "maxLength": 3}),
            vec![json!("ab"), json!("éé"), json!("a"), json!("abcd"), json!(5)],
        ),
        (
            json!({"pattern": "^[a-z]+-\\d{2}$"}),
            vec![json!("ab-12"), json!("ab-1"), json!("AB-12"), json!(7)],
        ),
        (json!({"pattern": "^\\d+$"}), vec![json!("123"), json!("١٢٣"), json!("")]),
        (json!({"pattern": "^\\w+$"}), vec![json!("a_1"), json!("é"), json!("a b")]),
        (json!({"pattern": "\\S"}), vec![json!("  x "), json!("   "), json!("")]),
        (json!({"pattern": "^a.c$"}), vec![json!("abc"), json!("a\nc"), json!("ac")]),
        (
            json!({"minItems": 1, "maxItems": 2, "uniqueItems": true}),
            vec![json!([1]), json!([]), json!([1, 2, 3]), json!([1, 1.0]), json!([{"a": 1}, {"a": 2}])],
        ),
        (
            json!({"prefixItems": [{"type": "string"}, {"type": "integer"}], "items": false}),
            vec![json!(["a", 1]), json!(["a"]), json!([]), json!(["a", 1, 2]), json!([1]), json!("x")],
        ),
        (
            json!({"prefixItems": [{"const": "tag"}], "items": {"type": "integer"}}),
            vec![json!(["tag", 1, 2]), json!(["tag", "x"]), json!(["other"])],
        ),
        (
            json!({"items": {"type": "string"}}),
            vec![json!(["a", "b"]), json!(["a", 1]), json!({"0": 1}), json!(3)],
        ),
        (
            json!({"contains": {"type": "integer"}, "minContains": 2, "maxContains": 3}),
            vec![json!([1, 2]), json!([1, "a", 2, 3]), json!([1]), json!([1, 2, 3, 4]), json!([])],
        ),
        (
            json!({"contains": {"const": 0}}),
            vec![json!([0]), json!([1, 0]), json!([1]), json!([]), json!("0")],
        ),
        (json!({"contains": {"const": 0}, "minContains": 0}), vec![json!([]), json!([1])]),
        (
            json!({"properties": {"a": {"type": "integer"}}, "required": ["a"]}),
            vec![json!({"a": 1}), json!({"a": "1"}), json!({}), json!(5), json!("s")],
        ),
        (
            json!({"properties": {"a": {}}, "patternProperties": {"^x-": {"type": "string"}}, "additionalProperties": false}),
            vec![json!({"a": 1, "x-b": "c"}), json!({"x-b": 1}), json!({"b": 1}), json!({})],
        ),
        (
            json!({"additionalProperties": {"type": "boolean"}}),
            vec![json!({"a": true}), json!({"a": 1}), json!([])],
        ),
        (
            json!({"propertyNames": {"maxLength": 3, "pattern": "^[a-z]+$"}}),
            vec![json!({"abc": 1}), json!({"abcd": 1}), json!({"Ab": 1}), json!({})],
        ),
        (json!({"propertyNames": false}), vec![json!({}), json!({"a": 1})]),
        (
            json!({"dependentRequired": {"card": ["cvv"]}}),
            vec![json!({"card": 1, "cvv": 2}), json!({"cvv": 2}), json!({"card": 1})],
        ),
        (
            json!({"dependentSchemas": {"card": {"required": ["cvv"]}}}),
            vec![json!({"card": 1, "cvv": 2}), json!({"card": 1}), json!({})],
        ),
        (
            json!({"minProperties": 1, "maxProperties": 1}),
            vec![json!({"a": 1}), json!({}), json!({"a": 1, "b": 2})],
        ),
        (json!(true), vec![json!(1), json!(null)]),
        (json!(false), vec![json!(1), json!(null)]),
        (json!({"properties": {"gone": false}}), vec![json!({}), json!({"gone": null})]),
        (json!({"allOf": [{"minimum": 2}, {"multipleOf": 2}]}), vec![json!(4), json!(3), json!(0)]),
        (
            json!({"anyOf": [{"type": "string"}, {"minimum": 10}]}),
            vec![json!("a"), json!(11), json!(9), json!(null)],
        ),
        (
            json!({"oneOf": [{"type": "integer"}, {"minimum": 2}]}),
            vec![json!(1), json!(2.5), json!(3), json!(0.5)],
        ),
        (json!({"not": {"type": "null"}}), vec![json!(1), json!(null)]),
        (
            json!({"if": {"properties": {"kind": {"const": "dog"}}, "required": ["kind"]}, "then": {"required": ["bark"]}, "else": {"required": ["meow"]}}),
            vec![json!({"kind": "dog", "bark": 1}), json!({"kind": "dog"}), json!({"meow": 1}), json!({})],
        ),
        (
            json!({"$defs": {"Name": {"type": "string", "minLength": 2}}, "$ref": "#/$defs/Name", "maxLength": 3}),
            vec![json!("ab"), json!("a"), json!("abcd"), json!(1)],
        ),
        (
            json!({"$defs": {"Node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}}, "required": ["v"]}}, "$ref": "#/$defs/Node"}),
            vec![
                json!({"v": 1, "next": {"v": 2, "next": {"v": 3}}}),
                json!({"v": 1, "next": {"next": {"v": 3}}}),
            ],
        ),
        (
            json!({"format": "date"}),
            vec![
                json!("2024-02-29"),
                json!("2026-02-29"),
                json!("2026-13-01"),
                json!("2026-1-01"),
                json!(20240229),
            ],
        ),
        (
            json!({"format": "date-time"}),
            vec![
                json!("2026-12-01T10:00:00Z"),
                json!("2026-12-01T10:00:00.123+02:00"),
                json!("2026-12-01t10:00:00z"),
                json!("2026-12-01T10:00:00"),
                json!("2026-12-01"),
            ],
        ),
        (
            json!({"format": "time"}),
            vec![
                json!("10:00:00Z"),
                json!("10:00:00.25-05:30"),
                json!("23:59:60Z"),
                json!("22:59:60Z"),
                json!("10:00:00"),
                json!("25:00:00Z"),
            ],
        ),
        (
            json!({"format": "uuid"}),
            vec![
                json!("3fa85f64-5717-4562-b3fc-2c963f66afa6"),
                json!("3fa85f64571745 62b3fc2c963f66afa6"),
                json!("xyz"),
            ],
        ),
        (
            json!({"format": "ipv4"}),
            vec![json!("192.0.2.1"), json!("192.0.2.256"), json!("192.0.2"), json!("01.2.3.4")],
        ),
        (
            json!({"format": "uri"}),
            vec![
                json!("https://example.com/a?b=c#d"),
                json!("urn:isbn:0451450523"),
                json!("mailto:a@example.com"),
                json!(""),
                json!("/relative/path"),
                json!("not a uri"),
                json!("https://exa mple.com"),
                json!("1http://example.com"),
            ],
        ),
        (
            json!({"format": "ipv6"}),
            vec![
                json!("::1"),
                json!("2001:db8::8a2e:370:7334"),
                json!("::ffff:192.0.2.1"),
                json!("1::2::3"),
                json!("12345::"),
            ],
        ),
    ]
}

#[test]
fn verdicts_agree_with_the_jsonschema_crate() {
    let (mut valid, mut invalid) = (0, 0);
    let mut disagreements = Vec::new();
    for (schema, values) in rows() {
        for value in values {
            let expected = theirs(&schema, &value);
            let got = ours(&schema, &value);
            if got.is_ok() != expected {
                disagreements
                    .push(format!("{schema} with {value}: jsonschema says {expected}, we say {got:?}"));
            }
            if expected { valid += 1 } else { invalid += 1 }
        }
    }
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
    // Both sides of the rules are exercised, so a validator that says yes (or no) to all fails.
    assert!(valid > 50 && invalid > 50, "{valid} valid, {invalid} invalid");
}

/// Where we are knowingly laxer than `jsonschema`: loose formats are accepted as they are, and
/// an email address is read leniently (a quoted local part, an address the domain rules of
/// `jsonschema` refuse).
#[test]
fn loose_formats_are_accepted_where_jsonschema_rejects() {
    for (format, value) in [("hostname", "-bad-.example"), ("email", "ada@-bad-.example")] {
        let schema = json!({"format": format});
        assert!(!theirs(&schema, &json!(value)), "{format}");
        assert_eq!(ours(&schema, &json!(value)), Ok(()), "{format}");
    }
    for value in ["not an email", "@example.com"] {
        let schema = json!({"format": "email"});
        assert!(!theirs(&schema, &json!(value)) && ours(&schema, &json!(value)).is_err(), "{value}");
    }
}
