//! Keywords the validator does not enforce (loose formats, patterns that cannot be compiled) let
//! values through, and never turn into a rejection where a pass would count against the value:
//! `oneOf`, `not`, `if`, `maxContains`.

use serde_json::json;

use super::{check, table};

#[test]
fn unsure_passes_never_reject() {
    let loose = |format: &str| json!({"type": "string", "format": format});
    table(&[
        // "harbor" is no base64 text: a strict reader sees one match, not two.
        (json!({"oneOf": [loose("byte"), loose("hostname")]}), vec![json!("harbor")], vec![json!(1)]),
        (json!({"oneOf": [{"type": "string"}, loose("hostname")]}), vec![json!("x")], vec![json!(null)]),
        (
            json!({"oneOf": [{"type": "string"}, {"type": "string", "pattern": "(?=a)"}]}),
            vec![json!("b")],
            vec![],
        ),
        (
            json!({"oneOf": [{"type": "string"}, {"minLength": 1}, loose("hostname")]}),
            vec![json!(5)],
            vec![json!("x")],
        ),
        (json!({"not": loose("hostname")}), vec![json!("x"), json!(1)], vec![]),
        (json!({"not": {"type": "object", "unevaluatedProperties": false}}), vec![json!({"a": 1})], vec![]),
        (json!({"not": {"type": "string"}}), vec![json!(1)], vec![json!("x")]),
        (
            json!({"if": loose("hostname"), "then": {"minLength": 10}, "else": {"maxLength": 2}}),
            vec![json!("abcdefghijkl"), json!("ab")],
            vec![json!("abcde")],
        ),
        (json!({"if": loose("hostname"), "then": {"minLength": 10}}), vec![json!("ab")], vec![]),
        (json!({"contains": loose("hostname"), "maxContains": 1}), vec![json!(["a", "b"])], vec![]),
        (
            json!({"contains": loose("hostname"), "minContains": 2}),
            vec![json!(["a", "b"])],
            vec![json!(["a", 1])],
        ),
        (
            json!({"contains": {"type": "string"}, "maxContains": 1}),
            vec![json!(["a", 1])],
            vec![json!(["a", "b"])],
        ),
        (
            json!({"type": "object", "unevaluatedProperties": false, "properties": {"a": {}}}),
            vec![json!({"a": 1})],
            vec![json!({"b": 1})],
        ),
    ]);
    assert_eq!(
        check(json!({"oneOf": [{"type": "string"}, {"type": "string"}, loose("hostname")]}), json!("x")),
        Err("The body must match exactly one of the allowed shapes; it matches 3.".into())
    );
}

#[test]
fn a_value_served_as_written_must_not_be_ambiguous() {
    let doc = json!({"openapi": "3.1.0"});
    let patterns = crate::Patterns::default();
    let validator = super::Validator::new(&doc, &patterns);
    let loose = |format: &str| json!({"type": "string", "format": format});
    let schema = json!({"oneOf": [{"type": "string"}, loose("hostname")]});
    assert_eq!(validator.check(&schema, &json!("x"), ""), Ok(()), "a strict reader sees one match");
    assert_eq!(
        validator.check_unambiguous(&schema, &json!("x"), ""),
        Err("The value matches more than one of the shapes a oneOf allows, counting formats as passing."
            .to_owned()),
        "a reader that skips formats sees two"
    );
    // A format the validator asserts (date-time) is an annotation to most validators.
    let dated = json!({"oneOf": [{"type": "string"}, {"type": "string", "format": "date-time"}]});
    assert_eq!(validator.check(&dated, &json!("x"), ""), Ok(()));
    assert!(validator.check_unambiguous(&dated, &json!("x"), "").is_err());
    let clear = json!({"oneOf": [{"type": "string"}, {"type": "integer"}]});
    assert_eq!(validator.check_unambiguous(&clear, &json!("x"), ""), Ok(()));
}
