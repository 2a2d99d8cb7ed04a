//! Host names typed by the owner: what is accepted, what is refused and why, and property tests
//! over names and action sequences.

mod common;

use playground_domains::*;

use common::*;

#[test]
fn good_names() {
    let cases = [
        ("docs.example.com", "docs.example.com"),
        ("  Docs.Example.COM.  ", "docs.example.com"),
        ("bücher.example", "xn--bcher-kva.example"),
        ("BÜCHER.example.", "xn--bcher-kva.example"),
        ("xn--bcher-kva.example", "xn--bcher-kva.example"),
        ("例え.テスト", "xn--r8jz45g.xn--zckzah"),
        ("a-b.c-d.example.co.uk", "a-b.c-d.example.co.uk"),
        ("123.example.com", "123.example.com"),
    ];
    let label_63 = format!("{}.example.com", "a".repeat(63));
    let cases = cases.into_iter().chain([(label_63.as_str(), label_63.as_str())]);
    for (input, expected) in cases {
        assert_eq!(
            validate_new_domain(input, &idna, "docs-host.dev", &[]).as_deref(),
            Ok(expected),
            "{input}"
        );
    }
    let long = format!("{}.{}.{}.{}", "a".repeat(63), "b".repeat(63), "c".repeat(63), "d".repeat(61));
    assert_eq!(long.len(), 253);
    assert_eq!(normalize_host(&long, &idna), Ok(long.clone()));
}

#[test]
fn bad_names_say_why() {
    let long_254 = format!("{}.{}.{}.{}", "a".repeat(63), "b".repeat(63), "c".repeat(63), "d".repeat(62));
    let label_64 = format!("{}.example.com", "a".repeat(64));
    let cases: Vec<(&str, &str)> = vec![
        ("", "Enter a domain name, such as docs.example.com."),
        ("   ", "Enter a domain name"),
        ("docs example.com", "contains a space"),
        ("https://docs.example.com", "Enter the domain name without \u{201c}https://\u{201d}"),
        ("http://docs.example.com/", "without \u{201c}http://\u{201d}"),
        ("user@docs.example.com", "\u{201c}user@\u{201d} is not part of a domain name"),
        ("docs.example.com/guide", "\u{201c}/guide\u{201d} is a path"),
        ("docs.example.com?x=1", "\u{201c}?x=1\u{201d} is a path, query or fragment"),
        ("docs.example.com#top", "\u{201c}#top\u{201d}"),
        ("docs.example.com:8080", "\u{201c}:8080\u{201d} is a port"),
        ("192.0.2.1", "\u{201c}192.0.2.1\u{201d} is an IP address"),
        ("192.0.2.1:80", "is a port"),
        ("[2001:db8::1]", "\u{201c}2001:db8::1\u{201d} is an IP address"),
        ("2001:db8::1", "is an IP address"),
        ("docs..example.com", "has an empty label"),
        (".example.com", "has an empty label"),
        ("docs.example.com..", "has an empty label"),
        (label_64.as_str(), "is 64 characters long; a label has at most 63"),
        (long_254.as_str(), "The name is 254 characters long; a domain name has at most 253."),
        ("docs_1.example.com", "The label \u{201c}docs_1\u{201d} contains \u{201c}_\u{201d}"),
        ("docs*.example.com", "contains \u{201c}*\u{201d}"),
        ("-docs.example.com", "The label \u{201c}-docs\u{201d} starts or ends with a hyphen"),
        ("docs-.example.com", "starts or ends with a hyphen"),
        ("localhost", "\u{201c}localhost\u{201d} has a single label"),
        ("docs.example.123", "The last label \u{201c}123\u{201d} is all digits"),
        ("docs-host.dev", "\u{201c}docs-host.dev\u{201d} is the platform's own domain"),
        ("DOCS-HOST.DEV.", "is the platform's own domain"),
        ("petstore.docs-host.dev", "is under the platform's domain docs-host.dev"),
        ("a.b.docs-host.dev", "under the platform's domain"),
        ("taken.example.com", "\u{201c}taken.example.com\u{201d} is already attached to this project."),
        ("Taken.Example.com.", "already attached"),
        ("bü cher.example", "contains a space"),
        ("xn--a.example\u{fffd}", "is not a valid internationalised name"),
        // Public suffixes (ICANN and private sections of the list) cannot be attached.
        (
            "co.uk",
            "\u{201c}co.uk\u{201d} is a public suffix: names are registered under it (such as example.co.uk)",
        ),
        ("github.io", "is a public suffix"),
        ("Kyoto.JP.", "\u{201c}kyoto.jp\u{201d} is a public suffix"),
        ("foo.kawasaki.jp", "is a public suffix"),
    ];
    for (input, reason) in cases {
        let err = validate_new_domain(input, &idna, "docs-host.dev", &["taken.example.com"]).unwrap_err();
        assert!(err.to_string().contains(reason), "{input:?}: {:?} lacks {reason:?}", err.to_string());
    }
    // The list's exceptions: `city.kawasaki.jp` is a registrable domain, not a suffix.
    assert_eq!(
        validate_new_domain("city.kawasaki.jp", &idna, "docs-host.dev", &[]),
        Ok("city.kawasaki.jp".to_owned())
    );
    // Not the platform's domain just because it ends with the same letters.
    assert!(validate_new_domain("mydocs-host.dev", &idna, "docs-host.dev", &[]).is_ok());
}

#[test]
fn the_injected_converter_is_used_and_its_errors_shown() {
    let refuse = |_: &str| -> Result<String, String> { Err("disallowed character".to_owned()) };
    let err = normalize_host("bücher.example", &refuse).unwrap_err();
    assert_eq!(
        err.to_string(),
        "\u{201c}bücher.example\u{201d} is not a valid internationalised name: disallowed character"
    );
    let never = |_: &str| -> Result<String, String> { panic!("ASCII names do not need the converter") };
    assert_eq!(normalize_host("Docs.Example.com", &never), Ok("docs.example.com".to_owned()));
    let broken = |_: &str| -> Result<String, String> { Ok("still-ünicode.example".to_owned()) };
    assert!(matches!(normalize_host("bücher.example", &broken), Err(NameError::Idna { .. })));
    let bad_output = |_: &str| -> Result<String, String> { Ok("a_b.example".to_owned()) };
    assert!(matches!(normalize_host("bücher.example", &bad_output), Err(NameError::InvalidCharacter { .. })));
}

// proptest is a host-only dev-dependency (no wasm32 RNG backend enabled).
#[cfg(not(target_arch = "wasm32"))]
mod props {
    use super::*;
    use playground_domains::name::is_apex;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn host_names_never_panic_and_accepted_names_are_normal(input in "\\PC{0,80}|[a-zA-Z0-9.:/@\\[\\]_-]{0,300}|([a-zA-Zäöü0-9-]{0,70}\\.){1,5}[a-zA-Z]{0,6}\\.?") {
            if let Ok(name) = normalize_host(&input, &idna) {
                prop_assert!(name.is_ascii());
                prop_assert_eq!(name.to_ascii_lowercase(), name.clone());
                prop_assert!(name.len() <= 253);
                for label in name.split('.') {
                    prop_assert!((1..=63).contains(&label.len()), "{}", label);
                    prop_assert!(label.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'));
                }
                prop_assert_eq!(normalize_host(&name, &idna), Ok(name.clone()), "idempotent");
                let _ = is_apex(&name);
                let _ = instructions(&name, TARGET);
            }
        }

        /// Any sequence of actions on a few domains, with DNS records coming and going: no
        /// panic, the invariants `from_json` checks always hold, and the JSON round-trips.
        #[test]
        fn action_sequences_keep_the_dashboard_consistent(
            ops in proptest::collection::vec((0u8..8, 0usize..4, 0u64..900), 1..40)
        ) {
            let names = ["docs.example.com", "example.com", "old.example.net", "bücher.example"];
            let mut d = Dashboard::new(settings());
            let mut now = 0;
            for (op, which, dt) in ops {
                now += dt;
                let typed = names[which];
                let name = normalize_host(typed, &idna).unwrap();
                let zone = d.zone.clone();
                match op {
                    0 => { let _ = d.add(typed, now, &idna); }
                    1 => { let _ = d.verify(&name, now, &zone); }
                    2 => { let _ = d.reverify(&name, now, &zone); }
                    3 => { let _ = d.tick(now, &zone); }
                    4 => { let _ = d.remove(&name, now); }
                    5 => { let _ = d.set_primary(&name); }
                    6 => {
                        let kind = if is_apex(&name) { RecordKind::Alias } else { RecordKind::Cname };
                        let _ = d.zone.add(rec(&name, kind, TARGET));
                    }
                    _ => {
                        if !d.zone.records().is_empty() {
                            let _ = d.zone.remove(which % d.zone.records().len());
                        }
                    }
                }
                prop_assert_eq!(d.check(), Ok(()));
                let config = d.config();
                let attached = d.attached_names();
                let attached: Vec<&str> = attached.iter().map(String::as_str).collect();
                prop_assert_eq!(validate_config(&config, &attached), Ok(()));
            }
            prop_assert_eq!(Dashboard::from_json(&d.to_json()), Ok(d));
        }

        #[test]
        fn saved_state_never_panics(text in "\\PC{0,200}") {
            let _ = Dashboard::from_json(&text);
            let _ = parse_answer(&text);
        }
    }
}
