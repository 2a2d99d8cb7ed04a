//! The lifecycle: every state with every action, plan and deploy rules, certificates and CAA
//! through the dashboard, and the saved state.

mod common;

use playground_domains::dns::{Caa, caa_blocking, caa_blocking_reason};
use playground_domains::machine::{
    CERTIFICATE_TROUBLESHOOT_AFTER_SECS, certificate_status, certificate_troubleshooting,
};
use playground_domains::*;

use common::*;

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
    let reverifying = DomainState::Reverifying { added_at: 10, verified_at: 40, live_at: 30 };
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
        // A live domain keeps serving while it is verified again and its certificate renewed.
        (
            live,
            Action::ReVerify(pass()),
            Ok(DomainState::Reverifying { added_at: 10, verified_at: now, live_at: 30 }),
        ),
        (live, Action::ReVerify(fail()), Err("could not be verified")),
        (live, Action::CertificateIssued, Err("already live")),
        (live, Action::Remove, Ok(DomainState::None)),
        // reverifying
        (reverifying, Action::Add, Err("(it is reverifying)")),
        (reverifying, Action::Verify(pass()), Err("docs.example.com is already live. Use Re-verify")),
        (reverifying, Action::Verify(fail()), Err("could not be verified")),
        (
            reverifying,
            Action::ReVerify(pass()),
            Ok(DomainState::Reverifying { added_at: 10, verified_at: now, live_at: 30 }),
        ),
        (reverifying, Action::ReVerify(fail()), Err("could not be verified")),
        (
            reverifying,
            Action::CertificateIssued,
            Ok(DomainState::Live { added_at: 10, verified_at: 40, live_at: now }),
        ),
        (reverifying, Action::Remove, Ok(DomainState::None)),
    ];
    assert_eq!(cases.len(), 5 * 7);
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
fn caa_found_at_a_parent_keeps_the_parents_name_up_to_the_top_level_domain() {
    let blocking = |records: Vec<DnsRecord>| caa_blocking("docs.caa-sub.test", "pebble", &RecordSet(records));
    let found = blocking(vec![rec("caa-sub.test", RecordKind::Caa, "0 issue \"letsencrypt.org\"")]);
    assert_eq!(found, vec![rec("caa-sub.test", RecordKind::Caa, "0 issue \"letsencrypt.org\"")]);
    assert_eq!(
        caa_blocking_reason("pebble", &found),
        "the CAA records at caa-sub.test allow only letsencrypt.org to issue certificates, not pebble, the certificate authority used here"
    );
    // The walk goes on to the top-level domain, as the records a resolver gives do.
    let found = blocking(vec![rec("test", RecordKind::Caa, "0 issue \"letsencrypt.org\"")]);
    assert_eq!(found.iter().map(|r| r.name.as_str()).collect::<Vec<_>>(), ["test"]);
    assert!(blocking(vec![rec("test", RecordKind::Caa, "0 issue \"pebble\"")]).is_empty());
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
fn reverify_of_a_live_primary_keeps_it_serving_and_primary() {
    let mut d = Dashboard::new(settings());
    let zone = good_cname("docs.example.com");
    for name in ["docs.example.com", "www.example.com"] {
        d.add(name, 0, &idna).unwrap();
    }
    let both = {
        let mut z = zone.clone();
        z.add(rec("www.example.com", RecordKind::Cname, TARGET)).unwrap();
        z
    };
    d.verify("docs.example.com", 0, &both).unwrap();
    d.verify("www.example.com", 0, &both).unwrap();
    d.tick(120, &both);
    d.set_primary("www.example.com").unwrap();
    let config = |d: &Dashboard| serde_json::to_value(d.config()).unwrap();
    let before = config(&d);
    assert_eq!(before["domains"]["primary"], "www.example.com");

    assert_eq!(
        d.reverify("www.example.com", 500, &both).unwrap(),
        DomainState::Reverifying { added_at: 0, verified_at: 500, live_at: 120 }
    );
    d.check().unwrap();
    // It still serves: still published, still primary, the configuration unchanged (it never
    // points the chosen primary away from itself, nor sends it to the default address).
    assert_eq!(d.published_address(), "www.example.com");
    assert_eq!(config(&d), before);
    assert_eq!(d.certificate("www.example.com", 510, &both), CertificateStatus::Issuing { expected_at: 620 });
    // A failing re-verify leaves the state as it was.
    let err = d.reverify("www.example.com", 600, &SimulatedZone::new()).unwrap_err();
    assert!(matches!(err, Refusal::VerificationFailed { .. }));
    assert!(matches!(
        d.domain("www.example.com").unwrap().state,
        DomainState::Reverifying { verified_at: 500, .. }
    ));
    // The new certificate: live again, from then.
    assert_eq!(d.tick(620, &both), vec!["www.example.com".to_owned()]);
    assert_eq!(
        d.domain("www.example.com").unwrap().state,
        DomainState::Live { added_at: 0, verified_at: 500, live_at: 620 }
    );
    assert_eq!(config(&d), before);
    // A re-verifying domain can be made primary, and the saved state reads back.
    d.reverify("docs.example.com", 700, &both).unwrap();
    d.set_primary("docs.example.com").unwrap();
    assert_eq!(d.published_address(), "docs.example.com");
    assert_eq!(Dashboard::from_json(&d.to_json()), Ok(d.clone()));
}

#[test]
fn only_domains_that_serve_redirect_in_the_configuration() {
    let mut d = Dashboard::new(settings());
    let zone = good_cname("docs.example.com");
    for name in ["docs.example.com", "old.example.com", "new.example.com"] {
        d.add(name, 0, &idna).unwrap();
    }
    let config = |d: &Dashboard| serde_json::to_value(d.config()).unwrap();
    // Nothing serves yet: the default address is primary and nothing redirects (before, the
    // added domains, whose DNS is not even pointed, were listed as redirect sources).
    assert_eq!(
        config(&d),
        serde_json::json!({"domains": {"primary": "petstore.docs-host.dev", "redirects": []}})
    );
    d.verify("docs.example.com", 0, &zone).unwrap();
    assert_eq!(config(&d)["domains"]["redirects"], serde_json::json!([]), "verified, no certificate yet");
    d.tick(120, &zone);
    assert_eq!(
        config(&d),
        serde_json::json!({"domains": {"primary": "docs.example.com", "redirects": []}}),
        "the only live domain is primary; the ones waiting for DNS redirect nothing"
    );
    let mut both = zone.clone();
    both.add(rec("old.example.com", RecordKind::Cname, TARGET)).unwrap();
    d.verify("old.example.com", 200, &both).unwrap();
    d.tick(320, &both);
    assert_eq!(
        config(&d)["domains"]["redirects"],
        serde_json::json!([{"from": "old.example.com", "to": "docs.example.com", "status": 301}])
    );
    let attached = d.attached_names();
    let attached: Vec<&str> = attached.iter().map(String::as_str).collect();
    assert_eq!(validate_config(&d.config(), &attached), Ok(()));
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

#[test]
fn a_live_domain_can_serve_the_project_instead_of_redirecting() {
    let mut d = Dashboard::new(settings());
    let mut zone = SimulatedZone::new();
    for name in ["docs.example.com", "eu.example.com", "old.example.com"] {
        d.add(name, 0, &idna).unwrap();
        zone.add(rec(name, RecordKind::Cname, TARGET)).unwrap();
        d.verify(name, 0, &zone).unwrap();
    }
    d.tick(120, &zone);
    d.set_primary("docs.example.com").unwrap();
    let redirects = |d: &Dashboard| serde_json::to_value(d.config()).unwrap()["domains"]["redirects"].clone();
    assert_eq!(redirects(&d).as_array().unwrap().len(), 2, "every live domain redirects by default");
    d.set_role("eu.example.com", DomainRole::Serve).unwrap();
    assert_eq!(
        redirects(&d),
        serde_json::json!([{"from": "old.example.com", "to": "docs.example.com", "status": 301}]),
        "a serving domain is in neither part of the configuration"
    );
    assert_eq!(d.also_served(), ["eu.example.com"]);
    let attached = d.attached_names();
    let attached: Vec<&str> = attached.iter().map(String::as_str).collect();
    assert_eq!(validate_config(&d.config(), &attached), Ok(()));
    // Saved and read back; a saved state from before the choice existed reads as redirect.
    let json = d.to_json();
    assert_eq!(Dashboard::from_json(&json), Ok(d.clone()));
    let mut old: serde_json::Value = serde_json::from_str(&json).unwrap();
    old["dashboard"]["domains"][1].as_object_mut().unwrap().remove("role");
    let read = Dashboard::from_json(&old.to_string()).unwrap();
    assert_eq!(read.domain("eu.example.com").unwrap().role, DomainRole::Redirect);
    // Made primary, it is the primary; back to redirecting, it redirects again.
    d.set_primary("eu.example.com").unwrap();
    assert_eq!(d.also_served(), Vec::<String>::new());
    d.set_primary("docs.example.com").unwrap();
    d.set_role("eu.example.com", DomainRole::Redirect).unwrap();
    assert_eq!(redirects(&d).as_array().unwrap().len(), 2);
    assert_eq!(
        d.set_role("nope.example.com", DomainRole::Serve),
        Err(Refusal::NotAttached { name: "nope.example.com".to_owned() })
    );
}
