//! Patterns: ECMA-262 meaning in our own matcher, compiled wherever they appear, the ones that
//! cannot be compiled left unenforced, and the approximated ones (Unicode properties, long
//! counts) sure only of what they can tell.

use serde_json::json;

use super::{check, table};
use crate::{Pattern, compile_patterns, ecma_to_regex};

#[test]
fn patterns_read_as_ecma_262() {
    let p = |pattern: &str| json!({"pattern": pattern});
    table(&[
        (p(r"^\d+$"), vec![json!("0123")], vec![json!("٣"), json!("1a")]),
        (p(r"^\w+$"), vec![json!("a_1")], vec![json!("é"), json!("a-b")]),
        (
            p(r"^\s$"),
            vec![json!(" "), json!("\u{a0}"), json!("\u{2028}"), json!("\u{feff}")],
            vec![json!("x")],
        ),
        (p(r"\S"), vec![json!("x")], vec![json!(" \u{a0}\u{3000}"), json!("")]),
        (p(r"^[\s\d]+$"), vec![json!("1\u{a0}2")], vec![json!("1x")]),
        (p(r"^[^\s]+$"), vec![json!("abc")], vec![json!("a\u{a0}b")]),
        (p(r"^[^\S]$"), vec![json!(" "), json!("\u{a0}")], vec![json!("x")]),
        (p(r"^[\S]+$"), vec![json!("a-b")], vec![json!("a\u{3000}b")]),
        (
            p(r"^a.c$"),
            vec![json!("abc"), json!("a\u{e9}c")],
            vec![json!("a\nc"), json!("a\rc"), json!("a\u{2029}c")],
        ),
        (p(r"^[+--]+$"), vec![json!("+,-")], vec![json!("a")]),
        (p(r"^[a&&b]+$"), vec![json!("a&b")], vec![json!("c")]),
        (p(r"^[[]$"), vec![json!("[")], vec![json!("a")]),
        (p(r"^\/\d{2}\/$"), vec![json!("/12/")], vec![json!("12")]),
        (p(r"^\cJ$"), vec![json!("\n")], vec![json!("J")]),
        (p(r"^a\0$"), vec![json!("a\u{0}")], vec![json!("a0")]),
        (p(r"^\<b\>$"), vec![json!("<b>")], vec![json!("b")]),
        (p(r"^[\b]$"), vec![json!("\u{8}")], vec![json!("b")]),
        (p(r"^\u00e9$"), vec![json!("é")], vec![json!("e")]),
        (p("^[a-z]{2,3}$"), vec![json!("ab"), json!(5)], vec![json!("a"), json!("abcd")]),
        // Not compiled (look-ahead, ECMA's empty class): not enforced.
        (p("^(?=a)b$"), vec![json!("anything")], vec![]),
        (p("^[]$"), vec![json!("anything")], vec![]),
        // Annex B: a `{` that starts no quantifier is itself.
        (p("^a{,2}$"), vec![json!("a{,2}")], vec![json!("aa")]),
        (p(r"^{\d}x{2}$"), vec![json!("{1}xx")], vec![json!("1xx")]),
        (p(r"^[\w-\.]+$"), vec![json!("a-b.c")], vec![json!("a b")]),
        (p(r"^[a-\d]+$"), vec![json!("a-1")], vec![json!("b")]),
    ]);
    assert_eq!(ecma_to_regex("[]"), None);
    assert_eq!(ecma_to_regex("[^]"), None);
    assert_eq!(ecma_to_regex(r"\d-\w").map(|t| t.text).as_deref(), Some(r"\d-\w"));
}

#[test]
fn patterns_are_compiled_anywhere_and_failures_listed() {
    let doc = json!({
        "a": { "pattern": "^x$" },
        "b": { "items": { "type": "string", "pattern": "^(?!no)" } },
        "c": { "patternProperties": { "^\\d+$": {}, "(?<=a)b": {} } },
        "d": { "pattern": "^x$" },
        "e": [{ "pattern": "(" }]
    });
    let (compiled, mut skipped) = compile_patterns(&doc);
    skipped.sort();
    assert_eq!(compiled.matches("^x$", "x"), Some(true));
    assert_eq!(compiled.matches(r"^\d+$", "x"), Some(false));
    assert_eq!(skipped, ["(", "(?<=a)b", "^(?!no)"]);
    let (_, petstore_skipped) = compile_patterns(
        &serde_yaml_ng::from_str::<serde_json::Value>(include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../openapi/petstore.yaml"
        )))
        .expect("openapi/petstore.yaml reads"),
    );
    assert!(petstore_skipped.is_empty(), "{petstore_skipped:?}");
    // An unknown patternProperties name may match: its field is not called additional.
    let open = json!({"patternProperties": {"(?<=a)b": {"type": "integer"}}, "additionalProperties": false});
    assert_eq!(check(open, json!({"zzz": "x"})), Ok(()));
}

#[test]
fn unicode_properties_are_read_for_ascii_and_long_counts_cut() {
    let answer = |pattern: &str, text: &str| Pattern::new(pattern).and_then(|p| p.matches(text));
    // A property becomes its ASCII members: a match is sure, a miss is not, unless the
    // property's ASCII members and every non-ASCII character miss too.
    assert_eq!(answer(r"^\p{L}+$", "abc"), Some(true));
    assert_eq!(answer(r"^\p{L}+$", "é"), None);
    assert_eq!(answer(r"^\p{Letter}+$", "123"), Some(false));
    assert_eq!(answer(r"^[^\p{Lu}]$", "A"), Some(false));
    assert_eq!(answer(r"^\P{L}$", "1"), Some(true));
    assert_eq!(answer(r"^\P{L}$", "é"), None);
    assert_eq!(answer(r"^[^\p{Lu}]$", "a"), Some(true));
    assert_eq!(answer(r"^[^\p{Lu}]$", "é"), None);
    assert_eq!(answer(r"^[\p{N}-]+$", "1-2"), Some(true));
    // A count past 4,096 is cut: texts up to that long are read the same, longer ones not.
    assert_eq!(answer("^a{5000}$", &"a".repeat(10)), Some(false));
    assert_eq!(answer("^a{5000}$", &"a".repeat(5000)), None);
    assert_eq!(answer("^a{2,}$", "aa"), Some(true));
    assert_eq!(answer("^a{0,99999999999}$", "aaa"), Some(true));
    assert_eq!(answer("^a{,2}$", "a{,2}"), Some(true));
    // Escapes ECMA reads its own way.
    assert_eq!(answer(r"^\uD83D\uDE00$", "\u{1F600}"), Some(true));
    assert_eq!(answer(r"^\x41\v$", "A\u{b}"), Some(true));
    assert_eq!(answer("^[a-b-c]+$", "a-c"), Some(true));
    assert_eq!(answer("^[a-b-c]+$", "d"), Some(false));
    assert_eq!(answer("^}$", "}"), Some(true));
    // No rewrite: a letter escaped for no reason, a back-reference, a look-behind.
    for pattern in [r"\Aa", r"(a)\1", "(?<=a)b", r"[\B]"] {
        assert!(ecma_to_regex(pattern).is_none(), "{pattern}");
    }
    let translated = ecma_to_regex(r"\p{L}{5000}").unwrap();
    assert!(translated.approximate && translated.cut, "{translated:?}");
}
