//! The matcher: ECMA-262's answers on the constructs it runs (assertions, empty loops, counted
//! repetitions), its bounds, and the same answers as `regex-lite` reading the same rewrite, for
//! patterns and texts drawn at random.

use crate::matcher::Program;
use crate::{Pattern, ecma_to_regex, pattern_tree};

fn answer(pattern: &str, text: &str) -> Option<bool> {
    Pattern::new(pattern).and_then(|p| p.matches(text))
}

#[test]
fn assertions_and_repetitions_match_as_in_ecma_262() {
    let cases: &[(&str, &[&str], &[&str])] = &[
        // Unanchored: a match anywhere.
        ("b+", &["abba", "b"], &["", "ac"]),
        ("^ab|cd$", &["abx", "xcd"], &["xab", "cdx"]),
        (r"\bcat\b", &["a cat.", "cat"], &["cats", "concat"]),
        (r"\Bcat\B", &["scats"], &["cat", "a cat", "cats"]),
        (r"^\B$", &[""], &[]),
        (r"^\b$", &[], &[""]),
        // Loops that can match nothing end.
        ("^(?:a*)*b$", &["b", "aab"], &["aa", ""]),
        ("^(?:a|)+$", &["", "aaa"], &["ab"]),
        ("^(?:a?){3}b$", &["b", "aaab"], &["aaaab"]),
        ("^(?:ab){2,3}$", &["abab", "ababab"], &["ab", "abababab"]),
        ("^a{2,}$", &["aa", "aaaaa"], &["a"]),
        ("^a{0}b$", &["b"], &["ab"]),
        // A backtracking engine takes exponential time on these texts; here they are linear.
        ("^(a+)+$", &["aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"], &["aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab"]),
        ("^(a|aa)*c$", &["aaac"], &["aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab"]),
        // Characters past ASCII, and classes of one range's two ends.
        ("^[à-é]$", &["à", "é"], &["a", "ê"]),
        ("^.$", &["\u{1F600}"], &["\n", ""]),
    ];
    for (pattern, hits, misses) in cases {
        for text in *hits {
            assert_eq!(answer(pattern, text), Some(true), "{pattern} on {text:?}");
        }
        for text in *misses {
            assert_eq!(answer(pattern, text), Some(false), "{pattern} on {text:?}");
        }
    }
}

#[test]
fn programs_are_bounded() {
    let compiled = |pattern: &str| Pattern::new(pattern).is_some();
    // Written out, a million steps: not compiled, so not enforced.
    assert!(!compiled("^(?:a{1000}){1000}$"));
    assert!(compiled("^(?:a{100}){100}$"));
    // Repetitions of nothing write no step, but their visits count.
    let tree = pattern_tree::parse("(?:(?:(?:){4000}){4000}){4000}").expect("reads");
    assert!(Program::new(&tree).is_none());
    // A class written out many times is kept once.
    let tree = pattern_tree::parse(r"[^\x{0}-\x{10}]{4000}").expect("reads");
    let program = Program::new(&tree).expect("compiles");
    assert!(program.is_match(&"a".repeat(4000)));
    assert!(!program.is_match(&"a".repeat(3999)));
    // The longest count that is not cut, in a repeated group, still compiles.
    assert!(compiled("^(?:[a-z]{1,4096}-){8}$"));
    assert!(!compiled("^(?:[a-z]{1,4096}-){40}$"));
}

#[cfg(not(target_arch = "wasm32"))]
mod against_regex_lite {
    use proptest::prelude::*;

    use super::answer;
    use crate::ecma_to_regex;

    /// ECMA-262 patterns of the constructs the rewrite and both engines read.
    fn pattern() -> impl Strategy<Value = String> {
        let atom = prop_oneof![
            prop::sample::select(vec![
                "a", "b", "-", "_", " ", "é", ".", r"\d", r"\D", r"\w", r"\W", r"\s", r"\S", r"\b", r"\B",
                "^", "$", "[ab]", "[^a-c]", r"[\d_]", "[-a]", r"[^\s]", "[é-ü]", r"\.", r"\u00e9", "}",
            ])
            .prop_map(str::to_owned),
        ];
        atom.prop_recursive(4, 24, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 1..4).prop_map(|items| items.concat()),
                (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("{a}|{b}")),
                inner.clone().prop_map(|a| format!("({a})")),
                inner.clone().prop_map(|a| format!("(?:{a})")),
                (inner, prop::sample::select(vec!["*", "+", "?", "{2}", "{0,2}", "{1,}", "*?", "{1,3}?"]))
                    .prop_map(|(a, q)| format!("(?:{a}){q}")),
            ]
        })
    }

    fn text() -> impl Strategy<Value = String> {
        prop::collection::vec(
            prop::sample::select(vec!['a', 'b', '-', '_', ' ', '1', '\n', 'é', 'ü', 'c']),
            0..12,
        )
        .prop_map(|chars| chars.into_iter().collect())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]
        #[test]
        fn the_same_answers_as_regex_lite(pattern in pattern(), texts in prop::collection::vec(text(), 1..6)) {
            let rewrite = ecma_to_regex(&pattern).expect("every drawn pattern has a rewrite");
            let reference = regex_lite::Regex::new(&rewrite.text).expect("regex-lite reads the rewrite");
            for text in &texts {
                prop_assert_eq!(
                    answer(&pattern, text),
                    Some(reference.is_match(text)),
                    "{} ({}) on {:?}", pattern, rewrite.text, text
                );
            }
        }
    }
}

#[test]
fn what_the_tree_refuses_is_not_compiled() {
    for pattern in ["a**", "a{2}{3}", "a+?+"] {
        assert!(ecma_to_regex(pattern).is_some(), "{pattern} has a rewrite");
        assert!(Pattern::new(pattern).is_none(), "{pattern}");
    }
}
