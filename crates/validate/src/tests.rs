//! The validator's keywords, formats, patterns, directions and limits, one table per area.

use serde_json::{Value, json};

mod formats;
mod matcher;
mod patterns;
mod readings;
mod references;
mod unenforced;

use super::{MAX_DEPTH, Validator, compile_patterns};
use playground_openapi::schema::Direction;

/// The verdict on `value` for `schema`, inside a document whose `components.schemas` are
/// `schemas`, checked in `direction` (`None`: the Petstore's rule).
fn run(schemas: &Value, schema: &Value, value: &Value, direction: Option<Direction>) -> Result<(), String> {
    let doc = json!({ "openapi": "3.1.0", "components": { "schemas": schemas } });
    let (patterns, _) = compile_patterns(&json!([doc, schema]));
    let validator = Validator::new(&doc, &patterns);
    let validator = direction.map_or(validator, |d| validator.direction(d));
    validator.check(schema, value, "")
}

fn check(schema: Value, value: Value) -> Result<(), String> {
    run(&json!({}), &schema, &value, None)
}

fn error(schema: Value, value: Value) -> String {
    check(schema.clone(), value.clone()).expect_err(&format!("{value} should not match {schema}"))
}

/// Each row: a schema, values it accepts, values it rejects.
fn table(rows: &[(Value, Vec<Value>, Vec<Value>)]) {
    for (schema, good, bad) in rows {
        for v in good {
            assert_eq!(check(schema.clone(), v.clone()), Ok(()), "{v} against {schema}");
        }
        for v in bad {
            assert!(check(schema.clone(), v.clone()).is_err(), "{v} should fail {schema}");
        }
    }
}

#[test]
fn petstore_messages_are_unchanged() {
    let pet = json!({
        "type": "object", "required": ["name"], "additionalProperties": false,
        "properties": {
            "name": { "type": "string", "minLength": 1, "maxLength": 5, "pattern": "\\S" },
            "tags": { "type": "array", "items": { "type": "string" } },
            "id": { "type": "integer", "format": "int64", "minimum": 1 },
            "qty": { "type": "integer", "format": "int32", "maximum": 10 },
            "ship": { "type": "string", "format": "date-time" },
            "status": { "type": "string", "enum": ["available", "sold"] }
        }
    });
    let cases = [
        (json!({}), "name is required."),
        (json!({"name": "Rex", "tags": [1]}), "tags[0] must be a string; got an integer."),
        (json!({"name": "   "}), "name must contain a character other than a space."),
        (json!({"name": "Rexxxxx"}), "name must be at most 5 characters long; it has 7."),
        (json!({"name": ""}), "name must be at least 1 character long; it has 0."),
        (
            json!({"name": "R", "colour": 1}),
            "colour is not a field of the body; the fields are name, tags, id, qty, ship, status.",
        ),
        (json!({"name": "R", "id": 0}), "id must be at least 1; got 0."),
        (json!({"name": "R", "id": 1.5}), "id must be an integer; got 1.5."),
        (
            json!({"name": "R", "id": u64::MAX}),
            "id must be a 64-bit integer (at most 9223372036854775807); got 18446744073709551615.",
        ),
        (json!({"name": "R", "qty": 3_000_000_000_i64}), "qty must be a 32-bit integer; got 3000000000."),
        (json!({"name": "R", "qty": 11}), "qty must be at most 10; got 11."),
        (json!({"name": "R", "id": null}), "id must not be null."),
        (
            json!({"name": "R", "ship": "tomorrow"}),
            "ship must be an RFC 3339 date-time such as 2026-12-01T10:00:00Z; got \"tomorrow\".",
        ),
        (json!({"name": "R", "status": "lost"}), "status must be one of available, sold; got \"lost\"."),
        (json!([1]), "The body must be an object; got an array."),
    ];
    for (value, message) in cases {
        assert_eq!(check(pet.clone(), value.clone()), Err(message.to_owned()), "{value}");
    }
    // A number with no fraction is an integer (JSON Schema since draft 6, and 2020-12 as
    // OpenAPI 3.1 uses it), when it is in the format's range.
    assert_eq!(check(pet.clone(), json!({"name": "R", "id": 1.0})), Ok(()));
    assert_eq!(
        error(json!({"type": "array", "items": {"type": "boolean"}}), json!([true, 2])),
        "body[1] must be true or false; got an integer."
    );
    assert_eq!(
        error(json!({"type": "array", "uniqueItems": true}), json!(["a", "a"])),
        "The body must not repeat \"a\"."
    );
}

#[test]
fn type_lists_null_and_nullable() {
    table(&[
        (json!({"type": ["string", "null"]}), vec![json!("a"), json!(null)], vec![json!(5), json!([])]),
        (json!({"type": "null"}), vec![json!(null)], vec![json!(0), json!("")]),
        (json!({"type": ["integer", "string"]}), vec![json!(1), json!("1")], vec![json!(1.5), json!(null)]),
        (json!({"type": "string", "nullable": true}), vec![json!(null), json!("a")], vec![json!(1)]),
        // 3.0: `nullable` lets null through whatever the enum says; 3.1 needs null in the enum.
        (
            json!({"type": "string", "nullable": true, "enum": ["a"]}),
            vec![json!(null), json!("a")],
            vec![json!("b")],
        ),
        (json!({"type": ["string", "null"], "enum": ["a"]}), vec![json!("a")], vec![json!(null)]),
        (
            json!({"type": ["string", "null"], "enum": ["a", null]}),
            vec![json!("a"), json!(null)],
            vec![json!("b")],
        ),
        (
            json!({"nullable": true, "allOf": [{"type": "object"}]}),
            vec![json!(null), json!({})],
            vec![json!(1)],
        ),
        (
            json!({"type": "integer"}),
            vec![json!(1), json!(1.0), json!(1e20), json!(u64::MAX)],
            vec![json!(1.5)],
        ),
        (json!({"type": "file"}), vec![json!(1), json!("x")], vec![]),
    ]);
    assert_eq!(
        error(json!({"type": ["string", "null"]}), json!(5)),
        "The body must be a string or null; got an integer."
    );
    assert_eq!(
        error(json!({"type": ["string", "integer", "array"]}), json!(true)),
        "The body must be a string, an integer or an array; got a boolean."
    );
    assert_eq!(error(json!({"type": "null"}), json!("x")), "The body must be null; got a string.");
    assert_eq!(
        error(json!({"type": ["string", "null"], "enum": ["a"]}), json!(null)),
        "The body must be one of a; got null."
    );
}

#[test]
fn const_enum_and_numeric_equality() {
    table(&[
        (json!({"const": "cat"}), vec![json!("cat")], vec![json!("dog"), json!(null)]),
        (json!({"const": {"a": [1, 2]}}), vec![json!({"a": [1.0, 2]})], vec![json!({"a": [2, 1]})]),
        (
            json!({"enum": [1, "one", null]}),
            vec![json!(1.0), json!("one"), json!(null)],
            vec![json!(2), json!("1")],
        ),
        (
            json!({"uniqueItems": true}),
            vec![json!([1, "1", [1], {"a": 1}])],
            vec![json!([1, 1.0]), json!([{"a": 1, "b": 2}, {"b": 2, "a": 1}])],
        ),
    ]);
    assert_eq!(error(json!({"const": "cat"}), json!("dog")), "The body must be \"cat\"; got \"dog\".");
}

#[test]
fn numbers_in_both_dialects() {
    table(&[
        (json!({"minimum": 1, "exclusiveMinimum": true}), vec![json!(1.5)], vec![json!(1), json!(0)]),
        (json!({"maximum": 1, "exclusiveMaximum": true}), vec![json!(0.5)], vec![json!(1)]),
        (json!({"exclusiveMinimum": 1}), vec![json!(1.01), json!("0")], vec![json!(1), json!(0)]),
        (json!({"exclusiveMaximum": 10, "maximum": 20}), vec![json!(9)], vec![json!(10), json!(15)]),
        (
            json!({"multipleOf": 5}),
            vec![json!(10), json!(0), json!(-15), json!(10.0)],
            vec![json!(7), json!(10.5)],
        ),
        (
            json!({"multipleOf": 0.1}),
            vec![json!(0.3), json!(1.1), json!(7), json!(-2.2)],
            vec![json!(0.35), json!(0.01)],
        ),
        (json!({"multipleOf": 0.0001}), vec![json!(0.0075), json!(19.9999)], vec![json!(0.00005)]),
        (json!({"multipleOf": 0.5}), vec![json!(1e12), json!(1e12 + 0.5)], vec![json!(1e12 + 0.25)]),
        (json!({"multipleOf": -1}), vec![json!(i64::MIN), json!(0.5)], vec![]),
        (json!({"multipleOf": 1e-308}), vec![json!(1e308)], vec![]),
        (
            json!({"type": "integer", "format": "int64"}),
            vec![json!(i64::MIN), json!(i64::MAX), json!(39245.0), json!(-1e15)],
            vec![json!(u64::MAX), json!(1e20), json!(1.5)],
        ),
        (
            json!({"type": "integer", "format": "int32"}),
            vec![json!(7.0), json!(2_147_483_647.0), json!(-2_147_483_648.0)],
            vec![json!(3e9), json!(2_147_483_648_i64), json!(2_147_483_648.0)],
        ),
        (
            // -2^63 as a float is what text one past int64 rounds to (-9223372036854775809);
            // the integer -2^63 is an i64 (accepted above).
            json!({"type": "integer", "format": "int64"}),
            vec![json!(-9.2e18)],
            vec![
                json!(9.3e18),
                json!(-9_223_372_036_854_775_808.0),
                serde_json::from_str::<Value>("-9223372036854775809").unwrap(),
            ],
        ),
        (json!({"type": "number", "format": "int32"}), vec![json!(0.5), json!(1e12)], vec![]),
    ]);
    assert_eq!(error(json!({"exclusiveMinimum": 1}), json!(1)), "The body must be greater than 1; got 1.");
    assert_eq!(error(json!({"exclusiveMaximum": 2.5}), json!(3)), "The body must be less than 2.5; got 3.");
    assert_eq!(
        error(json!({"multipleOf": 0.1}), json!(0.35)),
        "The body must be a multiple of 0.1; got 0.35."
    );
    // A value in its shortest form, a whole float without its `.0`.
    assert_eq!(error(json!({"maximum": 1}), json!(2.0)), "The body must be at most 1; got 2.");
    assert_eq!(error(json!({"maximum": 1}), json!(1e300)), "The body must be at most 1; got 1e+300.");
    assert_eq!(error(json!({"minimum": 1}), json!(-1.5e-7)), "The body must be at least 1; got -1.5e-7.");
}

#[test]
fn arrays() {
    table(&[
        (
            json!({"prefixItems": [{"type": "string"}, {"type": "integer"}]}),
            vec![json!(["a", 1, null]), json!(["a"]), json!([])],
            vec![json!([1, 1]), json!(["a", "b"])],
        ),
        (
            json!({"prefixItems": [{"type": "string"}], "items": false}),
            vec![json!(["a"]), json!([])],
            vec![json!(["a", 1])],
        ),
        (
            json!({"prefixItems": [{}], "items": {"type": "integer"}}),
            vec![json!(["x", 1, 2])],
            vec![json!(["x", 1, "y"])],
        ),
        (json!({"items": false}), vec![json!([]), json!("not an array")], vec![json!([1])]),
        (
            json!({"items": [{"type": "string"}], "additionalItems": false}),
            vec![json!(["a"])],
            vec![json!(["a", "b"]), json!([1])],
        ),
        (
            json!({"items": {"type": "integer"}}),
            vec![json!([1, 2]), json!({"a": "b"}), json!("x")],
            vec![json!([1, "2"])],
        ),
        (
            json!({"contains": {"type": "integer"}}),
            vec![json!(["a", 1]), json!("x")],
            vec![json!(["a"]), json!([])],
        ),
        (
            json!({"contains": {"const": 1}, "minContains": 2, "maxContains": 3}),
            vec![json!([1, 1, 2]), json!([1, 1, 1])],
            vec![json!([1]), json!([1, 1, 1, 1])],
        ),
        (json!({"contains": {"const": 1}, "minContains": 0}), vec![json!([]), json!([2])], vec![]),
        (
            json!({"contains": {"const": 1}, "minContains": 0, "maxContains": 1}),
            vec![json!([2])],
            vec![json!([1, 1])],
        ),
        (
            json!({"type": "array", "minItems": 1, "maxItems": 2}),
            vec![json!([1])],
            vec![json!([]), json!([1, 2, 3])],
        ),
    ]);
    assert_eq!(
        error(json!({"prefixItems": [{}], "items": false}), json!([1, 2, 3])),
        "The body must have at most 1 items; it has 3."
    );
    assert_eq!(
        error(json!({"contains": {"type": "integer"}}), json!(["a"])),
        "The body must contain at least 1 item of the required shape; it has 0."
    );
    assert_eq!(
        error(json!({"contains": {"const": 1}, "maxContains": 1}), json!([1, 1])),
        "The body must contain at most 1 items of the required shape; it has 2."
    );
    assert_eq!(
        error(json!({"prefixItems": [{"type": "string"}]}), json!([3])),
        "body[0] must be a string; got an integer."
    );
}

#[test]
fn objects() {
    table(&[
        (
            json!({"properties": {"a": {"type": "string"}}}),
            vec![json!({"a": "x"}), json!(5), json!("s"), json!([])],
            vec![json!({"a": 1})],
        ),
        (
            json!({"patternProperties": {"^x-": {"type": "integer"}}, "additionalProperties": false}),
            vec![json!({"x-a": 1})],
            vec![json!({"x-a": "1"}), json!({"y": 1})],
        ),
        (
            json!({"properties": {"a": {}}, "patternProperties": {"^b": {"minimum": 2}}, "additionalProperties": {"type": "string"}}),
            vec![json!({"a": 1, "b1": 3, "c": "x"})],
            vec![json!({"b1": 1}), json!({"c": 1})],
        ),
        (
            json!({"propertyNames": {"maxLength": 3, "pattern": "^[a-z]+$"}}),
            vec![json!({"abc": 1}), json!({})],
            vec![json!({"abcd": 1}), json!({"A": 1})],
        ),
        (json!({"propertyNames": false}), vec![json!({})], vec![json!({"a": 1})]),
        (
            json!({"dependentRequired": {"card": ["cvv", "expiry"]}}),
            vec![json!({}), json!({"card": 1, "cvv": 1, "expiry": 1})],
            vec![json!({"card": 1, "cvv": 1})],
        ),
        (
            json!({"dependentSchemas": {"card": {"required": ["cvv"]}}}),
            vec![json!({"cvv": 1}), json!({"card": 1, "cvv": 2})],
            vec![json!({"card": 1})],
        ),
        (
            json!({"minProperties": 1, "maxProperties": 2}),
            vec![json!({"a": 1})],
            vec![json!({}), json!({"a": 1, "b": 2, "c": 3})],
        ),
        (
            json!({"properties": {"a": false, "b": true}}),
            vec![json!({"b": [1]}), json!({})],
            vec![json!({"a": 1})],
        ),
        (
            json!({"additionalProperties": {"type": "integer"}}),
            vec![json!({"n": 1})],
            vec![json!({"n": "1"})],
        ),
    ]);
    assert_eq!(
        error(json!({"dependentRequired": {"card": ["cvv"]}}), json!({"card": 1})),
        "cvv is required when card is given."
    );
    assert_eq!(
        error(json!({"propertyNames": {"pattern": "^[a-z]+$"}}), json!({"A": 1})),
        "field name A must match the pattern ^[a-z]+$; got \"A\"."
    );
    assert_eq!(error(json!({"properties": {"a": false}}), json!({"a": 1})), "a is not allowed here.");
    assert_eq!(
        error(
            json!({"properties": {"a": {"properties": {"b": {"type": "string"}}}}}),
            json!({"a": {"b": 1}})
        ),
        "a.b must be a string; got an integer."
    );
}

#[test]
fn combinators_and_boolean_schemas() {
    table(&[
        (json!(true), vec![json!(1), json!(null)], vec![]),
        (json!(false), vec![], vec![json!(1), json!(null)]),
        (json!({"allOf": [{"minimum": 1}, {"maximum": 3}]}), vec![json!(2)], vec![json!(0), json!(4)]),
        (
            json!({"anyOf": [{"type": "string"}, {"type": "null"}]}),
            vec![json!("a"), json!(null)],
            vec![json!(1)],
        ),
        (json!({"oneOf": [{"type": "integer"}, {"minimum": 2}]}), vec![json!(1), json!(2.5)], vec![json!(3)]),
        (json!({"not": {"type": "string"}}), vec![json!(1)], vec![json!("a")]),
        (
            json!({"if": {"properties": {"kind": {"const": "dog"}}}, "then": {"required": ["bark"]}, "else": {"required": ["meow"]}}),
            vec![json!({"kind": "dog", "bark": 1}), json!({"kind": "cat", "meow": 1})],
            vec![json!({"kind": "dog"}), json!({"kind": "cat"})],
        ),
    ]);
    let branches: Vec<Value> = (0..500).map(|i| json!({"const": i})).collect();
    assert_eq!(check(json!({"oneOf": branches}), json!(499)), Ok(()));
    assert_eq!(error(json!(false), json!(1)), "The body is not allowed here.");
    assert_eq!(
        error(json!({"oneOf": [{}, {}]}), json!(1)),
        "The body must match exactly one of the allowed shapes; it matches 2."
    );
}

#[test]
fn references_with_siblings() {
    let schemas = json!({
        "Name": { "type": "string", "minLength": 2 },
        "Short": { "$ref": "#/components/schemas/Name", "maxLength": 4 },
        "Pet": { "type": "object", "properties": { "name": { "$ref": "#/components/schemas/Short", "description": "The name." } } }
    });
    let pet = json!({"$ref": "#/components/schemas/Pet"});
    assert_eq!(run(&schemas, &pet, &json!({"name": "Rex"}), None), Ok(()));
    assert_eq!(
        run(&schemas, &pet, &json!({"name": "R"}), None),
        Err("name must be at least 2 characters long; it has 1.".into())
    );
    assert_eq!(
        run(&schemas, &pet, &json!({"name": "Rexxx"}), None),
        Err("name must be at most 4 characters long; it has 5.".into())
    );
    let nullable = json!({"$ref": "#/components/schemas/Name", "nullable": true});
    assert_eq!(run(&schemas, &nullable, &json!(null), None), Ok(()));
    assert_eq!(
        run(&schemas, &json!({"$ref": "#/components/schemas/Missing"}), &json!(1), None),
        Err("The document is broken: the reference #/components/schemas/Missing does not resolve.".into())
    );
    assert!(error(json!({"$ref": "other.yaml#/X"}), json!(1)).contains("another document"));
}

#[test]
fn directions_read_read_only_and_write_only() {
    let schemas = json!({
        "Id": { "type": "integer", "readOnly": true },
        "Base": { "properties": { "id": { "$ref": "#/components/schemas/Id" }, "created": { "type": "string", "readOnly": true } } },
        "User": {
            "allOf": [
                { "$ref": "#/components/schemas/Base" },
                { "type": "object", "required": ["id", "created", "password", "name"],
                  "properties": { "password": { "type": "string", "writeOnly": true }, "name": { "type": "string" },
                                  "nick": { "$ref": "#/components/schemas/Id", "readOnly": false } } }
            ]
        }
    });
    let user = json!({"$ref": "#/components/schemas/User"});
    let go = |value: Value, direction| run(&schemas, &user, &value, direction);
    assert_eq!(go(json!({"password": "p", "name": "n"}), Some(Direction::Request)), Ok(()));
    assert_eq!(
        go(json!({"id": 1, "created": "c", "password": "p", "name": "n"}), Some(Direction::Request)),
        Ok(())
    );
    assert_eq!(go(json!({"name": "n"}), Some(Direction::Request)), Err("password is required.".into()));
    assert_eq!(go(json!({"id": 1, "created": "c", "name": "n"}), Some(Direction::Response)), Ok(()));
    assert_eq!(
        go(json!({"created": "c", "name": "n"}), Some(Direction::Response)),
        Err("id is required.".into())
    );
    assert_eq!(go(json!({"password": "p", "name": "n"}), None), Err("id is required.".into()));
    assert_eq!(go(json!({"id": 1, "created": "c", "name": "n"}), None), Err("password is required.".into()));
    // A readOnly property sent in a request is still checked against its schema.
    assert_eq!(
        go(json!({"id": "x", "password": "p", "name": "n"}), Some(Direction::Request)),
        Err("id must be an integer; got a string.".into())
    );
}

/// `[[[…leaf…]]]` `depth` levels deep, and a way to drop it without deep recursion.
fn nested(depth: usize, leaf: Value) -> Value {
    (0..depth).fold(leaf, |inner, _| Value::Array(vec![inner]))
}

fn dismantle(mut value: Value) {
    while let Value::Array(mut items) = value {
        value = items.pop().unwrap_or(Value::Null);
    }
}

#[test]
fn recursion_is_bounded() {
    // A small stack, like the browser's, proves no level is unbounded.
    let worker = std::thread::Builder::new().stack_size(1 << 20).spawn(|| {
        let schemas = json!({
            "Loop": { "allOf": [{ "$ref": "#/components/schemas/Loop" }] },
            "Fork": { "anyOf": [{ "$ref": "#/components/schemas/Fork" }, { "$ref": "#/components/schemas/Fork", "minimum": 1 }] },
            "Ping": { "$ref": "#/components/schemas/Pong" },
            "Pong": { "$ref": "#/components/schemas/Ping" },
            "Tree": { "type": "array", "items": { "$ref": "#/components/schemas/Tree" } },
            "Node": { "type": "object", "properties": { "next": { "$ref": "#/components/schemas/Node" } } }
        });
        let named = |name: &str| json!({ "$ref": format!("#/components/schemas/{name}") });
        let looped = run(&schemas, &named("Loop"), &json!(1), None).unwrap_err();
        assert_eq!(looped, "The document is broken: the schema #/components/schemas/Loop contains itself without end.");
        assert!(run(&schemas, &named("Fork"), &json!(1), None).is_err());
        assert!(run(&schemas, &named("Ping"), &json!(1), None).unwrap_err().contains("more than 32 references"));

        let deep = nested(10_000, json!(1));
        let too_deep = run(&schemas, &named("Tree"), &deep, None).unwrap_err();
        assert!(too_deep.ends_with(&format!("is nested too deep to check; the checker stops at {MAX_DEPTH} levels.")), "{too_deep}");
        assert!(too_deep.starts_with("body[0][0]"), "{too_deep}");
        assert_eq!(run(&schemas, &named("Tree"), &nested(40, json!([])), None), Ok(()));
        for schema in [json!({}), json!({"type": "array"}), json!({"uniqueItems": true}), json!({"not": {"enum": [[[[1]]]]}})] {
            assert_eq!(run(&schemas, &schema, &deep, None), Ok(()), "{schema}");
        }
        assert!(run(&schemas, &json!({"enum": [1]}), &deep, None).unwrap_err().ends_with("…."));
        assert!(run(&schemas, &json!({"const": 1}), &deep, None).is_err());
        let twins = Value::Array(vec![nested(5_000, json!(1)), nested(5_000, json!(1))]);
        assert_eq!(run(&schemas, &json!({"uniqueItems": true}), &twins, None), Ok(()));

        let mut chain = json!({});
        for _ in 0..300 {
            chain = json!({ "next": chain });
        }
        assert!(run(&schemas, &named("Node"), &chain, None).unwrap_err().contains("nested too deep"));
        dismantle(deep);
        if let Value::Array(items) = twins {
            items.into_iter().for_each(dismantle);
        }
    });
    worker.expect("a thread starts").join().expect("no stack overflow");
}

/// `problems` on `value` against `schema`, at most `limit`.
fn problems(schema: &Value, value: &Value, limit: usize) -> Vec<super::Problem> {
    let doc = json!({ "openapi": "3.1.0", "components": { "schemas": {} } });
    let (patterns, _) = compile_patterns(&json!([doc, schema]));
    Validator::new(&doc, &patterns).direction(Direction::Request).problems(schema, value, "", limit)
}

#[test]
fn problems_list_every_part_with_its_place_and_keyword() {
    use super::Step::{Field, Item};
    let schema = json!({
        "type": "object",
        "required": ["title", "isbn", "tags"],
        "properties": {
            "title": {"type": "string", "minLength": 1},
            "isbn": {"type": "string", "pattern": "^97[89][0-9]{10}$"},
            "year": {"anyOf": [{"type": "integer", "minimum": 1450, "maximum": 2100}, {"type": "null"}]},
            "tags": {"type": "array", "items": {"type": "object", "required": ["name"],
                "properties": {"name": {"type": "string", "maxLength": 3}}}},
            "kind": {"enum": ["a", "b"]},
            "n": {"type": "number", "exclusiveMinimum": 0}
        },
        "additionalProperties": false
    });
    let value = json!({
        "title": 3, "isbn": "123", "year": 1000, "tags": [{"name": "long"}, {}, {"name": "ok"}],
        "kind": "c", "n": 0, "extra": true
    });
    let found = problems(&schema, &value, 50);
    let seen: Vec<(Vec<super::Step>, &str, Option<&str>)> =
        found.iter().map(|p| (p.at.clone(), p.keyword, p.expected)).collect();
    let field = |f: &str| Field(f.to_owned());
    assert_eq!(
        seen,
        vec![
            (vec![field("title")], "type", Some("string")),
            (vec![field("isbn")], "pattern", None),
            (vec![field("year")], "minimum", None),
            (vec![field("tags"), Item(0), field("name")], "maxLength", None),
            (vec![field("tags"), Item(1), field("name")], "required", None),
            (vec![field("kind")], "enum", None),
            (vec![field("n")], "exclusiveMinimum", None),
            (vec![field("extra")], "additionalProperties", None),
        ]
    );
    // The sentences are `check`'s, and the first is the one `check` gives.
    assert_eq!(found[0].message, error(schema.clone(), value.clone()));
    assert_eq!(found[4].message, "tags[1].name is required.");
    // Bounded, and one at most gives `check`'s first.
    assert_eq!(problems(&schema, &value, 3).len(), 3);
    assert_eq!(problems(&schema, &value, 1).len(), 1);
    assert_eq!(problems(&schema, &value, 0).len(), 1);
    // A missing field is placed at its name; a valid value has none.
    let missing = problems(&schema, &json!({"title": "t"}), 50);
    let places: Vec<&[super::Step]> = missing.iter().map(|p| p.at.as_slice()).collect();
    assert_eq!(places, vec![&[field("isbn")][..], &[field("tags")][..]]);
    assert!(missing.iter().all(|p| p.keyword == "required"));
    assert!(problems(&schema, &json!({"title": "t", "isbn": "9780000000000", "tags": []}), 50).is_empty());
    // A whole value of the wrong type is one problem at the top.
    let top = problems(&schema, &json!([1]), 50);
    assert_eq!((top.len(), top[0].at.is_empty(), top[0].expected), (1, true, Some("object")));
}
