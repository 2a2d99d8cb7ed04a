//! Custom domains core: state machine, host names, DNS instructions and verification,
//! DNS-over-HTTPS fixtures, redirects and the saved dashboard state.

use petstore_core::domains::dns::{CNAME_TTL, Caa, caa_blocking};
use petstore_core::domains::doh::{DOH_ACCEPT, type_code};
use petstore_core::domains::machine::{
    CERTIFICATE_TROUBLESHOOT_AFTER_SECS, certificate_status, certificate_troubleshooting,
};
use petstore_core::domains::name::registrable_zone;
use petstore_core::domains::redirects::REDIRECT_STATUS;
use petstore_core::domains::*;

fn idna(input: &str) -> Result<String, String> {
    idna::domain_to_ascii(input).map_err(|e| format!("{e:?}"))
}

fn settings() -> Settings {
    Settings::example()
}

const TARGET: &str = "cname.docs-host.dev";

fn rec(name: &str, kind: RecordKind, value: &str) -> DnsRecord {
    DnsRecord::new(name, kind, value, 3600)
}

fn good_cname(name: &str) -> SimulatedZone {
    let mut zone = SimulatedZone::new();
    zone.add(rec(name, RecordKind::Cname, TARGET)).expect("a valid CNAME");
    zone
}

// ---------------------------------------------------------------- state machine

fn pass() -> Result<DnsRecord, VerifyFailure> {
    Ok(rec("docs.example.com", RecordKind::Cname, TARGET))
}

fn fail() -> Result<DnsRecord, VerifyFailure> {
    Err(VerifyFailure::NotFound { name: "docs.example.com".into(), expected: "CNAME".into() })
}

#[test]
fn every_state_times_every_action() {
    let none = DomainState::None;
    let added = DomainState::Added { added_at: 10 };
    let verified = DomainState::Verified { added_at: 10, verified_at: 20 };
    let live = DomainState::Live { added_at: 10, verified_at: 20, live_at: 30 };
    let now = 100;
    type Expect = Result<DomainState, &'static str>;
    let fresh_verified = DomainState::Verified { added_at: 10, verified_at: now };
    let cases: Vec<(DomainState, Action, Expect)> = vec![
        // none
        (none, Action::Add, Ok(DomainState::Added { added_at: now })),
        (
            none,
            Action::Verify(pass()),
            Err("docs.example.com is not attached to this project; add it first."),
        ),
        (none, Action::Verify(fail()), Err("not attached")),
        (none, Action::ReVerify(pass()), Err("not attached")),
        (none, Action::ReVerify(fail()), Err("not attached")),
        (none, Action::CertificateIssued, Err("not attached")),
        (none, Action::Remove, Err("not attached")),
        // added
        (added, Action::Add, Err("docs.example.com is already attached to this project (it is added).")),
        (added, Action::Verify(pass()), Ok(DomainState::Verified { added_at: 10, verified_at: now })),
        (added, Action::Verify(fail()), Err("could not be verified. No CNAME record was found")),
        (added, Action::ReVerify(pass()), Ok(fresh_verified)),
        (added, Action::ReVerify(fail()), Err("up to 48 hours")),
        (added, Action::CertificateIssued, Err("is not verified yet, so no certificate can be issued")),
        (added, Action::Remove, Ok(DomainState::None)),
        // verified
        (verified, Action::Add, Err("(it is verified)")),
        (
            verified,
            Action::Verify(pass()),
            Err("already verified and its certificate is being issued. Use Re-verify"),
        ),
        (verified, Action::Verify(fail()), Err("could not be verified")),
        (verified, Action::ReVerify(pass()), Ok(fresh_verified)),
        (verified, Action::ReVerify(fail()), Err("could not be verified")),
        (
            verified,
            Action::CertificateIssued,
            Ok(DomainState::Live { added_at: 10, verified_at: 20, live_at: now }),
        ),
        (verified, Action::Remove, Ok(DomainState::None)),
        // live
        (live, Action::Add, Err("(it is live)")),
        (live, Action::Verify(pass()), Err("docs.example.com is already live. Use Re-verify")),
        (live, Action::Verify(fail()), Err("could not be verified")),
        (live, Action::ReVerify(pass()), Ok(fresh_verified)),
        (live, Action::ReVerify(fail()), Err("could not be verified")),
        (live, Action::CertificateIssued, Err("already live")),
        (live, Action::Remove, Ok(DomainState::None)),
    ];
    assert_eq!(cases.len(), 4 * 7);
    for (state, action, expected) in cases {
        let label = format!("{} + {}", state.label(), action.label());
        let got = step("docs.example.com", &state, action, now);
        match (got, expected) {
            (Ok(s), Ok(e)) => assert_eq!(s, e, "{label}"),
            (Err(refusal), Err(text)) => {
                let message = refusal.to_string();
                assert!(message.contains(text), "{label}: {message:?} lacks {text:?}");
            }
            (got, expected) => panic!("{label}: got {got:?}, expected {expected:?}"),
        }
    }
}

#[test]
fn plan_and_deploy_rules() {
    for plan in Plan::ALL {
        let mut d = Dashboard::new(Settings { plan, ..settings() });
        let result = d.add("docs.example.com", 0, &idna);
        if plan == Plan::Free {
            let err = result.unwrap_err();
            assert_eq!(err, Refusal::PlanRequired { plan: Plan::Free });
            assert_eq!(
                err.to_string(),
                "Custom domains need a paid plan (Pro or above); this project is on the Free plan. Upgrade to add a domain."
            );
            assert!(d.domains.is_empty());
        } else {
            assert!(result.is_ok(), "{plan}");
        }
    }
    let mut d = Dashboard::new(Settings { deploy_succeeded: false, ..settings() });
    let err = d.add("docs.example.com", 0, &idna).unwrap_err();
    assert_eq!(err, Refusal::NotDeployed);
    assert!(err.to_string().contains("Deploy the project successfully"));
}

#[test]
fn default_address_until_a_domain_is_live() {
    let mut d = Dashboard::new(settings());
    assert_eq!(d.default_address(), "petstore.docs-host.dev");
    assert_eq!(d.published_address(), "petstore.docs-host.dev");
    d.add("Docs.Example.com.", 0, &idna).unwrap();
    let zone = good_cname("docs.example.com");
    d.verify("docs.example.com", 60, &zone).unwrap();
    assert_eq!(d.published_address(), "petstore.docs-host.dev");
    d.tick(60 + 119, &zone);
    assert_eq!(d.published_address(), "petstore.docs-host.dev", "not before the delay");
    assert_eq!(d.tick(60 + 120, &zone), vec!["docs.example.com".to_owned()]);
    assert_eq!(d.published_address(), "docs.example.com");
    assert!(matches!(d.domain("docs.example.com").unwrap().state, DomainState::Live { live_at: 180, .. }));
}

#[test]
fn full_lifecycle_through_the_dashboard() {
    let mut d = Dashboard::new(settings());
    let mut zone = SimulatedZone::new();
    let shown = d.add("docs.example.com", 0, &idna).unwrap();
    assert_eq!(shown.name.as_deref(), Some("docs"));
    // Verify before the record exists: not found, propagation note, state unchanged.
    let err = d.verify("docs.example.com", 5, &zone).unwrap_err();
    assert!(err.to_string().contains("can take up to 48 hours"), "{err}");
    assert_eq!(d.domain("docs.example.com").unwrap().state, DomainState::Added { added_at: 0 });
    zone.add(rec("docs.example.com", RecordKind::Cname, "cname.docs-host.dev.")).unwrap();
    assert_eq!(
        d.verify("docs.example.com", 10, &zone).unwrap(),
        DomainState::Verified { added_at: 0, verified_at: 10 }
    );
    assert_eq!(d.certificate("docs.example.com", 20, &zone), CertificateStatus::Issuing { expected_at: 130 });
    d.tick(130, &zone);
    assert_eq!(d.certificate("docs.example.com", 200, &zone), CertificateStatus::Issued { at: 130 });
    let warning = d.removal_warning("docs.example.com").unwrap();
    assert!(warning.message.contains("stops its traffic immediately"), "{}", warning.message);
    assert_eq!(warning.redirect_to, None);
    d.remove("docs.example.com", 300).unwrap();
    assert!(d.domains.is_empty());
    assert_eq!(d.published_address(), "petstore.docs-host.dev");
    assert_eq!(
        d.remove("docs.example.com", 301).unwrap_err().to_string(),
        "docs.example.com is not attached to this project; add it first."
    );
}

#[test]
fn caa_blocks_the_certificate_and_troubleshooting_after_30_minutes() {
    let mut d = Dashboard::new(settings());
    let mut zone = good_cname("docs.example.com");
    zone.add(rec("example.com", RecordKind::Caa, "0 issue \"digicert.com\"")).unwrap();
    d.add("docs.example.com", 0, &idna).unwrap();
    d.verify("docs.example.com", 0, &zone).unwrap();
    assert!(d.tick(600, &zone).is_empty(), "CAA of the parent blocks letsencrypt.org");
    match d.certificate("docs.example.com", 600, &zone) {
        CertificateStatus::BlockedByCaa { records } => {
            assert_eq!(records[0].value, "0 issue \"digicert.com\"")
        }
        other => panic!("{other:?}"),
    }
    match d.certificate("docs.example.com", CERTIFICATE_TROUBLESHOOT_AFTER_SECS, &zone) {
        CertificateStatus::Overdue { verified_at, blocking_caa, steps } => {
            assert_eq!(verified_at, 0);
            assert_eq!(blocking_caa.len(), 1);
            assert_eq!(steps.len(), 5);
            assert!(steps[0].contains("still verifies"));
            assert!(steps[1].contains("CAA") && steps[1].contains("letsencrypt.org"));
            assert!(steps[2].contains("Re-verify"));
            assert!(steps[3].contains("private-connection warning") && steps[3].contains("private window"));
            assert!(
                steps[4].contains("HEAD request") && steps[4].contains("curl -I https://docs.example.com")
            );
        }
        other => panic!("{other:?}"),
    }
    // Allowing the issuer and re-verifying lets the certificate through.
    zone.add(rec("example.com", RecordKind::Caa, "0 issue \"letsencrypt.org\"")).unwrap();
    d.reverify("docs.example.com", 2000, &zone).unwrap();
    assert_eq!(d.tick(2000 + 120, &zone), vec!["docs.example.com".to_owned()]);
}

#[test]
fn caa_rules() {
    let mut zone = SimulatedZone::new();
    assert!(caa_blocking("docs.example.com", "letsencrypt.org", &zone).is_empty(), "no CAA: anyone");
    zone.add(rec("example.com", RecordKind::Caa, "0 iodef \"mailto:x@example.com\"")).unwrap();
    assert!(caa_blocking("docs.example.com", "letsencrypt.org", &zone).is_empty(), "no issue tag");
    zone.add(rec("example.com", RecordKind::Caa, "0 issue \"letsencrypt.org; validationmethods=dns-01\""))
        .unwrap();
    assert!(caa_blocking("docs.example.com", "letsencrypt.org", &zone).is_empty());
    // The closest name with CAA records wins.
    zone.add(rec("docs.example.com", RecordKind::Caa, "0 issue \";\"")).unwrap();
    assert_eq!(caa_blocking("docs.example.com", "letsencrypt.org", &zone).len(), 1);
    assert!(caa_blocking("api.example.com", "letsencrypt.org", &zone).is_empty());
    assert_eq!(Caa::parse("128 issue letsencrypt.org").unwrap().flags, 128);
    assert!(Caa::parse("x issue y").is_err());
}

#[test]
fn overdue_without_caa_when_the_delay_is_long() {
    let state = DomainState::Verified { added_at: 0, verified_at: 100 };
    let at = |now| certificate_status("a.example.com", &state, now, 3600, "letsencrypt.org", Vec::new());
    assert_eq!(at(100 + 1799), CertificateStatus::Issuing { expected_at: 3700 });
    assert!(
        matches!(at(100 + 1800), CertificateStatus::Overdue { ref blocking_caa, .. } if blocking_caa.is_empty())
    );
    assert_eq!(certificate_troubleshooting("a.example.com", "ca.test").len(), 5);
}

#[test]
fn reverify_of_a_live_domain_requests_a_fresh_certificate() {
    let mut d = Dashboard::new(settings());
    let zone = good_cname("docs.example.com");
    d.add("docs.example.com", 0, &idna).unwrap();
    d.verify("docs.example.com", 0, &zone).unwrap();
    d.tick(120, &zone);
    d.set_primary("docs.example.com").unwrap();
    assert_eq!(
        d.reverify("docs.example.com", 500, &zone).unwrap(),
        DomainState::Verified { added_at: 0, verified_at: 500 }
    );
    assert!(d.check().is_ok(), "a primary being re-verified stays primary");
    // A failing re-verify leaves the state as it was.
    let err = d.reverify("docs.example.com", 600, &SimulatedZone::new()).unwrap_err();
    assert!(matches!(err, Refusal::VerificationFailed { .. }));
    assert_eq!(
        d.domain("docs.example.com").unwrap().state,
        DomainState::Verified { added_at: 0, verified_at: 500 }
    );
}

// ---------------------------------------------------------------- host names

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
    ];
    for (input, reason) in cases {
        let err = validate_new_domain(input, &idna, "docs-host.dev", &["taken.example.com"]).unwrap_err();
        assert!(err.to_string().contains(reason), "{input:?}: {:?} lacks {reason:?}", err.to_string());
    }
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
    use petstore_core::domains::name::is_apex;
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

// ---------------------------------------------------------------- DNS instructions

#[test]
fn instructions_for_subdomains_and_apexes() {
    let cases: [(&str, InstructionKind, Option<&str>, Option<u32>); 7] = [
        ("docs.example.com", InstructionKind::Cname, Some("docs"), Some(3600)),
        ("api.docs.example.com", InstructionKind::Cname, Some("api.docs"), Some(3600)),
        ("www.example.co.uk", InstructionKind::Cname, Some("www"), Some(3600)),
        ("example.com", InstructionKind::AliasOrAname, None, None),
        ("example.co.uk", InstructionKind::AliasOrAname, None, None),
        ("xn--bcher-kva.example", InstructionKind::AliasOrAname, None, None),
        ("shop.xn--bcher-kva.example", InstructionKind::Cname, Some("shop"), Some(3600)),
    ];
    for (domain, kind, name, ttl) in cases {
        let i = instructions(domain, "CNAME.docs-host.dev.");
        assert_eq!((i.kind, i.name.as_deref(), i.ttl), (kind, name, ttl), "{domain}");
        assert_eq!(i.value, TARGET);
        assert_eq!(i.domain, domain);
        match kind {
            InstructionKind::Cname => assert_eq!(i.caveat, None),
            InstructionKind::AliasOrAname => {
                assert!(
                    i.caveat.as_deref().unwrap().contains("Not every DNS provider supports ALIAS or ANAME")
                )
            }
        }
    }
    assert_eq!(CNAME_TTL, 3600);
    assert_eq!(registrable_zone("a.b.example.com.au"), "example.com.au");
    assert_eq!(InstructionKind::AliasOrAname.label(), "ALIAS or ANAME");
}

// ---------------------------------------------------------------- verification

#[test]
fn verification_causes() {
    let sub = instructions("docs.example.com", TARGET);
    let apex = instructions("example.com", TARGET);
    let set = |records: Vec<DnsRecord>| RecordSet(records);
    // Pass: case and trailing dot ignored.
    let ok = set(vec![rec("Docs.Example.com.", RecordKind::Cname, "CNAME.docs-host.dev.")]);
    assert_eq!(verify(&sub, &ok).unwrap().kind, RecordKind::Cname);
    // A record beside a matching CNAME: conflict.
    let conflict = set(vec![
        rec("docs.example.com", RecordKind::Cname, TARGET),
        rec("docs.example.com", RecordKind::A, "192.0.2.44"),
    ]);
    let err = verify(&sub, &conflict).unwrap_err();
    assert_eq!(
        err.to_string(),
        "A conflicting DNS record exists for docs.example.com: A 192.0.2.44. An existing A or AAAA record blocks the CNAME; delete it at your DNS provider, then verify again."
    );
    // AAAA alone is a conflict too, not "not found".
    let only_aaaa = set(vec![rec("docs.example.com", RecordKind::Aaaa, "2001:db8::1")]);
    assert!(matches!(verify(&sub, &only_aaaa), Err(VerifyFailure::Conflict { .. })));
    // Another value: both shown.
    let differs = set(vec![rec("docs.example.com", RecordKind::Cname, "old-host.example.net.")]);
    assert_eq!(
        verify(&sub, &differs).unwrap_err().to_string(),
        "The CNAME record of docs.example.com points to old-host.example.net, but the dashboard shows cname.docs-host.dev. Change its value to cname.docs-host.dev, then verify again."
    );
    // Nothing, or records of another name only.
    let other_name = set(vec![rec("www.example.com", RecordKind::Cname, TARGET)]);
    let err = verify(&sub, &other_name).unwrap_err();
    assert_eq!(err, VerifyFailure::NotFound { name: "docs.example.com".into(), expected: "CNAME".into() });
    assert!(err.to_string().contains("usually propagate within a few minutes but can take up to 48 hours"));
    // TXT and CAA do not conflict.
    let harmless = set(vec![
        rec("docs.example.com", RecordKind::Cname, TARGET),
        rec("docs.example.com", RecordKind::Txt, "hello"),
    ]);
    assert!(verify(&sub, &harmless).is_ok());
    // Apex: ALIAS or ANAME.
    for kind in [RecordKind::Alias, RecordKind::Aname] {
        assert!(verify(&apex, &set(vec![rec("example.com", kind, TARGET)])).is_ok(), "{kind}");
    }
    let apex_err = verify(&apex, &set(vec![])).unwrap_err();
    assert!(apex_err.to_string().starts_with("No ALIAS or ANAME record was found for example.com yet."));
    assert!(matches!(
        verify(&apex, &set(vec![rec("example.com", RecordKind::Alias, "elsewhere.example.net")])),
        Err(VerifyFailure::ValueDiffers { .. })
    ));
    // Apex A records that are not the target's addresses conflict; a flattened ALIAS passes.
    let flattened = set(vec![
        rec("example.com", RecordKind::A, "203.0.113.7"),
        rec(TARGET, RecordKind::A, "203.0.113.7"),
    ]);
    assert!(verify(&apex, &flattened).is_ok());
    let stray =
        set(vec![rec("example.com", RecordKind::A, "192.0.2.1"), rec(TARGET, RecordKind::A, "203.0.113.7")]);
    assert!(matches!(verify(&apex, &stray), Err(VerifyFailure::Conflict { .. })));
}

#[test]
fn simulated_zone_edits_are_checked() {
    let mut zone = SimulatedZone::new();
    let stored = zone
        .add(DnsRecord::new("Docs.Example.com.", RecordKind::Cname, "Cname.Docs-Host.dev.", 3600))
        .unwrap();
    assert_eq!(stored, rec("docs.example.com", RecordKind::Cname, TARGET));
    let refusals: Vec<(DnsRecord, &str)> = vec![
        (
            rec("docs..example.com", RecordKind::A, "192.0.2.1"),
            "The record name \u{201c}docs..example.com\u{201d} is not valid",
        ),
        (
            rec("docs.example.com", RecordKind::A, "999.0.2.1"),
            "\u{201c}999.0.2.1\u{201d} is not a valid A value",
        ),
        (rec("docs.example.com", RecordKind::Aaaa, "192.0.2.1"), "is not a valid AAAA value"),
        (rec("docs.example.com", RecordKind::Cname, "http://x"), "is not a valid CNAME value"),
        (rec("docs.example.com", RecordKind::Caa, "issue letsencrypt.org"), "is not a valid CAA value"),
        (rec("docs.example.com", RecordKind::Txt, "  "), "a TXT record needs some text"),
        (
            DnsRecord::new("docs.example.com", RecordKind::A, "192.0.2.1", 0),
            "A TTL of 0 seconds is out of range",
        ),
        (DnsRecord::new("docs.example.com", RecordKind::A, "192.0.2.1", 604_801), "out of range"),
        (
            rec("DOCS.example.com", RecordKind::Cname, TARGET),
            "The zone already has docs.example.com CNAME cname.docs-host.dev.",
        ),
    ];
    for (record, reason) in refusals {
        let err = zone.add(record.clone()).unwrap_err();
        assert!(err.to_string().contains(reason), "{record}: {err}");
    }
    assert_eq!(zone.records().len(), 1);
    // Service labels and wildcards are fine in a zone.
    zone.add(rec("_acme-challenge.docs.example.com", RecordKind::Txt, "token")).unwrap();
    zone.add(rec("*.example.com", RecordKind::A, "192.0.2.9")).unwrap();
    // Update and remove.
    zone.update(0, rec("docs.example.com", RecordKind::Cname, "other.example.net")).unwrap();
    assert_eq!(zone.records()[0].value, "other.example.net");
    assert_eq!(
        zone.update(9, rec("a.example.com", RecordKind::A, "192.0.2.1")).unwrap_err(),
        ZoneError::NoSuchRecord { index: 9 }
    );
    assert!(
        zone.update(1, rec("docs.example.com", RecordKind::Cname, "other.example.net")).is_err(),
        "duplicate"
    );
    assert!(
        zone.update(0, rec("docs.example.com", RecordKind::Cname, "other.example.net")).is_ok(),
        "itself"
    );
    assert_eq!(zone.remove(2).unwrap().kind, RecordKind::A);
    assert!(zone.remove(2).is_err());
    assert_eq!(Resolver::records(&zone, "DOCS.example.com.").len(), 1, "Resolver::records is by name");
}

// ---------------------------------------------------------------- DNS over HTTPS

fn fixture(name: &str) -> String {
    std::fs::read_to_string(format!("{}/tests/fixtures/doh/{name}", env!("CARGO_MANIFEST_DIR")))
        .expect("fixture exists")
}

#[test]
fn doh_query_urls() {
    assert_eq!(
        query_url("https://cloudflare-dns.com/dns-query", "docs.example.com.", RecordKind::Cname),
        "https://cloudflare-dns.com/dns-query?name=docs.example.com&type=CNAME"
    );
    assert_eq!(
        query_url("https://dns.google/resolve?cd=false", "xn--bcher-kva.example", RecordKind::Caa),
        "https://dns.google/resolve?cd=false&name=xn--bcher-kva.example&type=CAA"
    );
    assert_eq!(query_url("https://r.test/q", "a b&c", RecordKind::A), "https://r.test/q?name=a+b%26c&type=A");
    assert_eq!(DOH_ACCEPT, "application/dns-json");
    assert_eq!(
        [RecordKind::A, RecordKind::Aaaa, RecordKind::Cname, RecordKind::Caa, RecordKind::Txt].map(type_code),
        [Some(1), Some(28), Some(5), Some(257), Some(16)]
    );
    assert_eq!(type_code(RecordKind::Alias), None);
}

#[test]
fn doh_queries_for_verification_and_caa() {
    use petstore_core::domains::doh::{caa_queries, verification_queries};
    let q = verification_queries(&instructions("docs.example.com", TARGET));
    assert_eq!(
        q,
        vec![
            ("docs.example.com".to_owned(), RecordKind::Cname),
            ("docs.example.com".to_owned(), RecordKind::A),
            ("docs.example.com".to_owned(), RecordKind::Aaaa),
        ]
    );
    let q = verification_queries(&instructions("example.com", TARGET));
    assert_eq!(q.len(), 4);
    assert_eq!(q[2], (TARGET.to_owned(), RecordKind::A));
    assert_eq!(
        caa_queries("a.docs.example.com."),
        vec!["a.docs.example.com", "docs.example.com", "example.com"]
    );
    assert_eq!(caa_queries("example.com"), vec!["example.com"]);
}

#[test]
fn propagation_note_after_48_hours() {
    use petstore_core::domains::machine::{DNS_PROPAGATION_MAX_SECS, PROPAGATION_NOTE, propagation_note};
    assert_eq!(propagation_note(100, 100 + DNS_PROPAGATION_MAX_SECS - 1), PROPAGATION_NOTE);
    assert!(PROPAGATION_NOTE.contains("up to 48 hours"));
    assert!(
        propagation_note(100, 100 + DNS_PROPAGATION_MAX_SECS).starts_with("It has been more than 48 hours")
    );
}

#[test]
fn doh_fixtures() {
    let cname = parse_answer(&fixture("cname_found.json")).unwrap();
    assert_eq!(cname, vec![rec("docs.example.com", RecordKind::Cname, TARGET)]);
    assert!(verify(&instructions("docs.example.com", TARGET), &RecordSet(cname)).is_ok());

    let err = parse_answer(&fixture("nxdomain.json")).unwrap_err();
    assert_eq!(err, DohError::NxDomain { name: "new.example.com".into() });
    assert!(err.is_not_found());
    assert!(err.to_string().contains("NXDOMAIN") && err.to_string().contains("48 hours"));

    let a = parse_answer(&fixture("a_conflict.json")).unwrap();
    assert_eq!(a.len(), 2);
    assert_eq!(a[0], DnsRecord::new("docs.example.com", RecordKind::A, "192.0.2.44", 300));
    match verify(&instructions("docs.example.com", TARGET), &RecordSet(a)) {
        Err(VerifyFailure::Conflict { records, .. }) => assert_eq!(records.len(), 2),
        other => panic!("{other:?}"),
    }

    let caa = parse_answer(&fixture("caa_google.json")).unwrap();
    assert_eq!(caa[0].value, "0 issue \"digicert.com\"");
    assert_eq!(caa_blocking("docs.example.com", "letsencrypt.org", &RecordSet(caa)).len(), 1);
    let caa = parse_answer(&fixture("caa_cloudflare.json")).unwrap();
    assert_eq!(caa, vec![DnsRecord::new("example.org", RecordKind::Caa, "0 issue \"letsencrypt.org\"", 300)]);

    let err = parse_answer(&fixture("servfail.json")).unwrap_err();
    assert_eq!(err, DohError::ServFail { name: "broken-dnssec.example.net".into() });
    assert!(err.to_string().contains("SERVFAIL"));
    assert!(!err.is_not_found());

    let err = parse_answer(&fixture("malformed.json")).unwrap_err();
    assert!(matches!(err, DohError::Malformed(_)));
    assert!(err.to_string().starts_with("The DNS resolver's answer could not be read: it is not JSON"));

    // An A query through a CNAME: the chain's records keep their own names; RRSIG is skipped.
    let chain = parse_answer(&fixture("cname_chain_a.json")).unwrap();
    assert_eq!(chain.len(), 2);
    assert!(
        verify(&instructions("www.example.com", TARGET), &RecordSet(chain)).is_ok(),
        "target's A is not a conflict"
    );

    let txt = parse_answer(&fixture("txt.json")).unwrap();
    assert_eq!(txt[0].value, "v=spf1 include:_spf.example.net -all");
}

#[test]
fn doh_shapes() {
    let cases = [
        ("{}", "the Status field is missing"),
        (r#"{"Status":0,"Answer":{}}"#, "Answer is not a list"),
        (r#"{"Status":0,"Answer":[{"name":"a.example","type":1,"TTL":60}]}"#, "answer 0 has no data"),
        (
            r#"{"Status":0,"Answer":[{"name":"a.example","type":"A","TTL":60,"data":"x"}]}"#,
            "type is not a number",
        ),
        (
            r#"{"Status":0,"Answer":[{"name":"a.example","type":257,"TTL":60,"data":"\\# 9 00 05 69"}]}"#,
            "CAA data length",
        ),
        (
            r#"{"Status":5,"Question":[{"name":"a.example.","type":5}]}"#,
            "The DNS resolver answered a.example with status 5 (REFUSED).",
        ),
    ];
    for (body, reason) in cases {
        let err = parse_answer(body).unwrap_err();
        assert!(err.to_string().contains(reason), "{body}: {err}");
    }
    assert_eq!(parse_answer(r#"{"Status":0}"#), Ok(Vec::new()));
}

// ---------------------------------------------------------------- redirects

#[test]
fn config_has_the_spec_shape() {
    let config = build_config("docs.example.com", &["docs.example.com", "old.example.com", "example.net"]);
    let json = serde_json::to_value(&config).unwrap();
    assert_eq!(
        json,
        serde_json::json!({"domains": {"primary": "docs.example.com", "redirects": [
            {"from": "old.example.com", "to": "docs.example.com", "status": 301},
            {"from": "example.net", "to": "docs.example.com", "status": 301}
        ]}})
    );
    let back: DomainConfig = serde_json::from_value(json).unwrap();
    assert_eq!(back, config);
    assert!(validate_config(&config, &["docs.example.com", "old.example.com", "example.net"]).is_ok());
    assert_eq!(REDIRECT_STATUS, 301);
}

#[test]
fn redirect_validation() {
    let attached = ["a.example.com", "b.example.com", "c.example.com", "p.example.com"];
    let r = |from: &str, to: &str, status: u16| Redirect { from: from.into(), to: to.into(), status };
    let cfg = |primary: &str, redirects: Vec<Redirect>| DomainConfig {
        domains: petstore_core::domains::redirects::DomainsSection { primary: primary.into(), redirects },
    };
    let cases: Vec<(DomainConfig, &str)> = vec![
        (cfg("x.example.com", vec![]), "The primary domain x.example.com is not attached to this project."),
        (
            cfg("p.example.com", vec![r("a.example.com", "a.example.com", 301)]),
            "a.example.com redirects to itself",
        ),
        (cfg("p.example.com", vec![r("a.example.com", "p.example.com", 302)]), "uses status 302; only 301"),
        (
            cfg(
                "p.example.com",
                vec![r("a.example.com", "p.example.com", 301), r("A.example.com", "p.example.com", 301)],
            ),
            "A.example.com has more than one redirect",
        ),
        (
            cfg("p.example.com", vec![r("z.example.com", "p.example.com", 301)]),
            "z.example.com is not attached to this project, so it cannot redirect",
        ),
        (
            cfg("p.example.com", vec![r("a.example.com", "gone.example.com", 301)]),
            "points to gone.example.com, which is not attached",
        ),
        (
            cfg("p.example.com", vec![r("p.example.com", "a.example.com", 301)]),
            "The primary domain p.example.com cannot redirect",
        ),
        (
            cfg(
                "p.example.com",
                vec![
                    r("a.example.com", "b.example.com", 301),
                    r("b.example.com", "c.example.com", 301),
                    r("c.example.com", "a.example.com", 301),
                ],
            ),
            "These redirects form a loop: a.example.com \u{2192} b.example.com \u{2192} c.example.com \u{2192} a.example.com.",
        ),
        (
            cfg(
                "p.example.com",
                vec![r("a.example.com", "b.example.com", 301), r("b.example.com", "p.example.com", 301)],
            ),
            "a.example.com redirects to b.example.com, which is not the primary p.example.com",
        ),
    ];
    for (config, reason) in cases {
        let err = validate_config(&config, &attached).unwrap_err();
        assert!(err.to_string().contains(reason), "{err}");
    }
    // Unknown fields are refused when reading a configuration.
    assert!(
        serde_json::from_str::<DomainConfig>(r#"{"domains":{"primary":"a","redirects":[],"x":1}}"#).is_err()
    );
}

#[test]
fn dashboard_config_primary_and_removal_warning() {
    let mut d = Dashboard::new(settings());
    let mut zone = SimulatedZone::new();
    for name in ["docs.example.com", "old.example.com", "example.net"] {
        d.add(name, 0, &idna).unwrap();
        if name == "example.net" {
            zone.add(rec(name, RecordKind::Alias, TARGET)).unwrap();
        } else {
            zone.add(rec(name, RecordKind::Cname, TARGET)).unwrap();
        }
    }
    // Nothing live: the default address is primary.
    assert_eq!(d.config().domains.primary, "petstore.docs-host.dev");
    assert_eq!(
        d.set_primary("docs.example.com").unwrap_err().to_string(),
        "docs.example.com is not live yet; only a live domain can be the primary."
    );
    assert!(matches!(d.set_primary("nope.example.com"), Err(Refusal::NotAttached { .. })));
    for name in ["docs.example.com", "old.example.com", "example.net"] {
        d.verify(name, 10, &zone).unwrap();
    }
    d.tick(200, &zone);
    d.set_primary("old.example.com").unwrap();
    d.set_primary("docs.example.com").unwrap();
    let config = d.config();
    assert_eq!(config.domains.primary, "docs.example.com");
    assert_eq!(config.domains.redirects.len(), 2);
    let attached = d.attached_names();
    let attached: Vec<&str> = attached.iter().map(String::as_str).collect();
    assert!(validate_config(&config, &attached).is_ok());
    let warning = d.removal_warning("old.example.com").unwrap();
    assert_eq!(warning.redirect_to.as_deref(), Some("docs.example.com"));
    assert!(warning.message.contains("Set up a 301 redirect from old.example.com to docs.example.com first"));
    let warning = d.removal_warning("docs.example.com").unwrap();
    assert_eq!(warning.redirect_to.as_deref(), Some("old.example.com"));
    d.remove("docs.example.com", 300).unwrap();
    assert_eq!(d.primary, None);
    assert_eq!(d.published_address(), "old.example.com");
    assert!(d.removal_warning("nope.example.com").is_none());
}

// ---------------------------------------------------------------- saved state

fn busy_dashboard() -> Dashboard {
    let mut d = Dashboard::new(settings());
    d.zone.add(rec("docs.example.com", RecordKind::Cname, TARGET)).expect("busy dashboard step");
    d.zone
        .add(rec("example.com", RecordKind::Caa, "0 issue \"letsencrypt.org\""))
        .expect("busy dashboard step");
    d.add("docs.example.com", 1_700_000_000, &idna).expect("busy dashboard step");
    d.add("bücher.example", 1_700_000_001, &idna).expect("busy dashboard step");
    let zone = d.zone.clone();
    d.verify("docs.example.com", 1_700_000_100, &zone).expect("busy dashboard step");
    d.tick(1_700_000_300, &zone);
    d.set_primary("docs.example.com").expect("busy dashboard step");
    d
}

#[test]
fn state_round_trip() {
    let d = busy_dashboard();
    let json = d.to_json();
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(value["version"], 1);
    assert_eq!(value["dashboard"]["settings"]["platformDomain"], "docs-host.dev");
    assert_eq!(value["dashboard"]["domains"][0]["state"], "live");
    assert_eq!(value["dashboard"]["domains"][0]["liveAt"], 1_700_000_300u64);
    assert_eq!(value["dashboard"]["domains"][1]["name"], "xn--bcher-kva.example");
    assert_eq!(value["dashboard"]["zone"]["records"][0]["kind"], "CNAME");
    assert_eq!(Dashboard::from_json(&json), Ok(d));
}

#[test]
fn corrupt_or_inconsistent_state_is_refused() {
    let good: serde_json::Value = serde_json::from_str(&busy_dashboard().to_json()).unwrap();
    let edit = |f: &dyn Fn(&mut serde_json::Value)| {
        let mut v = good.clone();
        f(&mut v);
        v.to_string()
    };
    let cases: Vec<(String, &str)> = vec![
        ("not json".to_owned(), "could not be read: it is not JSON"),
        ("{}".to_owned(), "the version is missing"),
        (edit(&|v| v["version"] = 2.into()), "have version 2; this page reads version 1"),
        (edit(&|v| v["dashboard"]["settings"]["plan"] = "gold".into()), "could not be read"),
        (edit(&|v| v["dashboard"]["extra"] = 1.into()), "could not be read"),
        (edit(&|v| v["dashboard"]["domains"][0]["state"] = "none".into()), "listed but not attached"),
        (edit(&|v| v["dashboard"]["domains"][0]["state"] = "sleeping".into()), "could not be read"),
        (edit(&|v| v["dashboard"]["domains"][1]["name"] = "docs.example.com".into()), "listed twice"),
        (edit(&|v| v["dashboard"]["domains"][1]["name"] = "Bad Name".into()), "is not valid"),
        (
            edit(&|v| v["dashboard"]["domains"][1]["name"] = "Docs2.example.com".into()),
            "is not in normal form",
        ),
        (edit(&|v| v["dashboard"]["domains"][1]["name"] = "x.docs-host.dev".into()), "platform's own domain"),
        (edit(&|v| v["dashboard"]["domains"][0]["liveAt"] = 5.into()), "times out of order"),
        (edit(&|v| v["dashboard"]["primary"] = "xn--bcher-kva.example".into()), "was never verified"),
        (edit(&|v| v["dashboard"]["primary"] = "gone.example.com".into()), "is not attached"),
        (edit(&|v| v["dashboard"]["settings"]["project"] = "Pet Store".into()), "the project name"),
        (edit(&|v| v["dashboard"]["settings"]["cnameTarget"] = "https://x".into()), "the CNAME target"),
        (
            edit(&|v| v["dashboard"]["settings"]["dohResolver"] = "http://dns".into()),
            "must be an https:// URL",
        ),
        (
            edit(&|v| v["dashboard"]["zone"]["records"][0]["value"] = "1.2.3.4.5".into()),
            "the DNS zone has a bad record",
        ),
        (edit(&|v| v["dashboard"]["zone"]["records"][1]["ttl"] = (-1).into()), "could not be read"),
    ];
    for (text, reason) in cases {
        let err = Dashboard::from_json(&text).unwrap_err();
        assert!(err.to_string().contains(reason), "{reason}: {err}");
    }
}
