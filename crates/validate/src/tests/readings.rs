//! The strict reading (the generator's) beside the default one (the mock's), verdicts with
//! their sure and unsure passes and their budget, and the scalar checks of forms.

use serde_json::{Value, json};

use crate::{MAX_STEPS, Patterns, Validator, Verdict, check_scalar};
use playground_openapi::schema::Direction;

use Verdict::{Invalid, Unsure, Valid};

/// The verdicts on `value` for `schema` in `doc`: the default reading's, then the strict one's.
fn both(doc: &Value, schema: &Value, value: &Value) -> (Verdict, Verdict) {
    let patterns = Patterns::default();
    let lenient = Validator::new(doc, &patterns).direction(Direction::Request);
    let mut budget = MAX_STEPS;
    (lenient.verdict(schema, value, &mut budget), lenient.strict().verdict(schema, value, &mut budget))
}

fn table(doc: &Value, rows: &[(Value, Value, (Verdict, Verdict))]) {
    for (schema, value, expected) in rows {
        assert_eq!(both(doc, schema, value), *expected, "{value} against {schema}");
    }
}

#[test]
fn loose_formats_are_asserted_strictly() {
    let format = |f: &str| json!({"type": "string", "format": f});
    table(
        &json!({"openapi": "3.1.0"}),
        &[
            (format("hostname"), json!("api.example.com"), (Unsure, Valid)),
            (format("hostname"), json!("a_b"), (Unsure, Invalid)),
            (format("email"), json!("user@example.com"), (Unsure, Valid)),
            (format("email"), json!("a..b@example.com"), (Unsure, Invalid)),
            (format("email"), json!("user"), (Invalid, Invalid)),
            (format("byte"), json!("aGVsbG8="), (Unsure, Valid)),
            (format("byte"), json!("aGVsbG9="), (Unsure, Invalid)),
            (format("byte"), json!("abc"), (Unsure, Invalid)),
            (format("duration"), json!("P3DT4H"), (Unsure, Valid)),
            (format("duration"), json!("P1Y1D"), (Unsure, Invalid)),
            (format("uri-reference"), json!("/pets?limit=1"), (Unsure, Valid)),
            (format("uri-reference"), json!("a b"), (Unsure, Invalid)),
            (format("json-pointer"), json!("/a"), (Unsure, Unsure)),
            (format("date"), json!("2026-12-01"), (Valid, Valid)),
            (format("date"), json!("2026-02-30"), (Invalid, Invalid)),
        ],
    );
}

#[test]
fn nullable_strictly_adds_null_to_the_type_only() {
    table(
        &json!({"openapi": "3.0.3"}),
        &[
            (json!({"type": "string", "nullable": true}), json!(null), (Valid, Valid)),
            (json!({"type": "string", "nullable": true, "enum": ["a"]}), json!(null), (Valid, Invalid)),
            (json!({"type": "string", "nullable": true, "enum": ["a", null]}), json!(null), (Valid, Valid)),
            (json!({"allOf": [{"type": "string"}], "nullable": true}), json!(null), (Valid, Invalid)),
            (json!({"type": "string"}), json!(null), (Invalid, Invalid)),
        ],
    );
}

#[test]
fn reference_siblings_are_ignored_in_3_0_and_added_in_3_1() {
    let schemas = json!({
        "Names": { "type": "array", "items": { "type": "string" } },
        "Name": { "type": "string", "maxLength": 10 },
        "Id": { "type": "integer" },
        "Pet": { "type": "object", "required": ["id"],
                 "properties": { "id": { "$ref": "#/components/schemas/Id", "readOnly": true } } }
    });
    let names = json!({"$ref": "#/components/schemas/Names", "type": "object"});
    let nullable = json!({"$ref": "#/components/schemas/Name", "nullable": true});
    let longer = json!({"$ref": "#/components/schemas/Name", "maxLength": 20});
    let pet = json!({"$ref": "#/components/schemas/Pet"});
    let long = json!("x".repeat(15));
    let version = |v: &str| json!({"openapi": v, "components": {"schemas": schemas}});
    table(
        &version("3.0.3"),
        &[
            (names.clone(), json!(["a"]), (Invalid, Valid)),
            (nullable.clone(), json!(null), (Valid, Invalid)),
            (longer.clone(), long.clone(), (Valid, Invalid)),
            // `readOnly` beside a `$ref` still says what was meant.
            (pet.clone(), json!({}), (Valid, Valid)),
        ],
    );
    table(
        &version("3.1.0"),
        &[
            (names, json!(["a"]), (Invalid, Invalid)),
            (nullable, json!(null), (Valid, Invalid)),
            (longer, long, (Valid, Invalid)),
            (json!({"$ref": "#/components/schemas/Name", "maxLength": 3}), json!("abcd"), (Invalid, Invalid)),
            (pet, json!({}), (Valid, Valid)),
        ],
    );
}

#[test]
fn unevaluated_properties_are_enforced_in_both_readings() {
    let closed = |more: Value| {
        let mut schema = json!({"type": "object", "properties": {"a": {}}, "unevaluatedProperties": false});
        if let (Some(schema), Some(more)) = (schema.as_object_mut(), more.as_object()) {
            schema.extend(more.clone());
        }
        schema
    };
    table(
        &json!({"openapi": "3.1.0"}),
        &[
            (closed(json!({})), json!({"a": 1}), (Valid, Valid)),
            (closed(json!({})), json!({"b": 1}), (Invalid, Invalid)),
            (closed(json!({"allOf": [{"properties": {"b": {}}}]})), json!({"b": 1}), (Valid, Valid)),
            (closed(json!({"patternProperties": {"^b": {}}})), json!({"b": 1}), (Valid, Valid)),
            (closed(json!({"anyOf": [{"properties": {"b": {}}}, {}]})), json!({"b": 1}), (Valid, Valid)),
            // A branch that fails evaluates nothing.
            (
                closed(json!({"anyOf": [{"properties": {"b": {"type": "string"}}}, {}]})),
                json!({"b": 1}),
                (Invalid, Invalid),
            ),
            (closed(json!({"not": {"not": {"properties": {"b": {}}}}})), json!({"b": 1}), (Invalid, Invalid)),
            (json!({"unevaluatedProperties": false}), json!("no object"), (Valid, Valid)),
            (json!({"prefixItems": [{}], "unevaluatedItems": false}), json!([1]), (Valid, Valid)),
            (json!({"prefixItems": [{}], "unevaluatedItems": false}), json!([1, 2]), (Invalid, Invalid)),
            (
                json!({"contains": {"type": "string"}, "unevaluatedItems": {"type": "integer"}}),
                json!(["a", 2, "b"]),
                (Valid, Valid),
            ),
        ],
    );
}

#[test]
fn verdicts_spend_a_budget_and_are_unsure_past_it() {
    let doc = json!({"openapi": "3.1.0", "components": {"schemas": {
        "Loop": {"allOf": [{"$ref": "#/components/schemas/Loop"}]}
    }}});
    let patterns = Patterns::default();
    let validator = Validator::new(&doc, &patterns);
    let schema = json!({"type": "array", "items": {"type": "integer"}});
    let value = json!([1, 2, 3, 4, 5, 6, 7, 8]);
    let mut budget = 100;
    assert_eq!(validator.verdict(&schema, &value, &mut budget), Valid);
    assert_eq!(budget, 91, "one visit for the list and one per item");
    let mut budget = 4;
    assert_eq!(validator.verdict(&schema, &value, &mut budget), Unsure);
    assert_eq!(budget, 0);
    assert_eq!(validator.verdict(&json!({"type": "integer"}), &json!(1), &mut budget), Unsure);
    // A schema that contains itself is broken, not unsure.
    let mut budget = 100;
    assert_eq!(
        validator.verdict(&json!({"$ref": "#/components/schemas/Loop"}), &json!(1), &mut budget),
        Invalid
    );
    // Deep nesting stops at the depth cap: unsure too.
    let mut deep = json!(1);
    let mut nested = json!({});
    for _ in 0..200 {
        deep = json!([deep]);
        nested = json!({"items": nested});
    }
    let mut budget = MAX_STEPS;
    assert_eq!(validator.verdict(&nested, &deep, &mut budget), Unsure);
}

#[test]
fn scalars_are_checked_without_their_document() {
    let lowercase = |pattern: &str, text: &str| {
        (pattern == "^[a-z]+$").then(|| text.bytes().all(|b| b.is_ascii_lowercase()))
    };
    let check = |schema: Value, value: Value| check_scalar(&schema, &value, "x", &lowercase);
    assert_eq!(
        check(json!({"enum": ["a", "b"]}), json!("c")),
        Err("x must be one of a, b; got \"c\".".into())
    );
    assert_eq!(check(json!({"const": 2}), json!(2.0)), Ok(()));
    assert_eq!(
        check(json!({"type": "integer", "minimum": 1}), json!(0)),
        Err("x must be at least 1; got 0.".into())
    );
    assert_eq!(check(json!({"multipleOf": 5}), json!(12)), Err("x must be a multiple of 5; got 12.".into()));
    assert_eq!(
        check(json!({"type": "integer", "format": "int32"}), json!(3_000_000_000_i64)),
        Err("x must be a 32-bit integer; got 3000000000.".into())
    );
    assert_eq!(
        check(json!({"minLength": 2}), json!("a")),
        Err("x must be at least 2 characters long; it has 1.".into())
    );
    assert_eq!(
        check(json!({"pattern": "^[a-z]+$"}), json!("A")),
        Err("x must match the pattern ^[a-z]+$; got \"A\".".into())
    );
    // A pattern the matcher cannot read is not enforced; formats are not read here.
    assert_eq!(check(json!({"pattern": "(?<=a)"}), json!("A")), Ok(()));
    assert_eq!(check(json!({"format": "date"}), json!("A")), Ok(()));
}
