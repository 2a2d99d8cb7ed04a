use super::*;
use crate::dns::InstructionKind;

fn ascii(name: &str) -> Result<String, String> {
    idna::domain_to_ascii(name).map_err(|e| e.to_string())
}

const PROJECT: &str = r#"{
    "project": "petstore", "plan": "pro", "customDomains": true, "deployed": true,
    "defaultAddress": "petstore.docs-host.test", "publishedAddress": "docs.example.com",
    "cnameTarget": "cname.docs-host.test", "apexAddresses": ["192.0.2.10"],
    "certificateAuthority": "pebble.letsencrypt.org",
    "domains": [
        {"name": "docs.example.com", "state": "live", "serves": true, "addedAt": 10,
         "verifiedAt": 20, "liveAt": 30, "role": "redirect", "primary": true,
         "instruction": {"domain": "docs.example.com", "kind": "Cname", "name": "docs",
                         "value": "cname.docs-host.test", "ttl": 3600, "caveat": null},
         "propagationNote": null,
         "lastCheck": {"ok": true, "message": "verified", "at": 20},
         "certificate": {"status": "issued", "at": 30, "notAfter": 9999},
         "issueError": null,
         "removalWarning": {"message": "Removing it stops traffic.", "redirectTo": null}},
        {"name": "api.example.com", "state": "verified", "serves": false, "addedAt": 40,
         "verifiedAt": 50, "liveAt": null, "role": "redirect", "primary": false,
         "instruction": {"domain": "api.example.com", "kind": "Cname", "name": "api",
                         "value": "cname.docs-host.test", "ttl": 3600, "caveat": null},
         "certificate": {"status": "issuing", "expectedAt": 110},
         "issueError": null, "removalWarning": null}
    ],
    "alsoServed": [],
    "config": {"domains": {"primary": "docs.example.com", "redirects": []}},
    "troubleshooting": [
        {"symptom": "certificate", "title": "t", "answer": "wait", "appliesTo": ["api.example.com: x"]},
        {"symptom": "verification", "title": "t", "answer": "check", "appliesTo": []},
        {"symptom": "unknown-later", "title": "t", "answer": "?", "appliesTo": []}
    ]
}"#;

#[test]
fn reads_the_hosts_project() {
    let view: ProjectView = serde_json::from_str(PROJECT).unwrap();
    assert_eq!(view.platform_domain(), "docs-host.test");
    assert_eq!(view.domains.len(), 2);
    let live = &view.domains[0];
    assert_eq!(live.domain_state(), DomainState::Live { added_at: 10, verified_at: 20, live_at: 30 });
    assert_eq!(live.certificate.status(), CertificateStatus::Issued { at: 30 });
    assert_eq!(live.instruction.kind, InstructionKind::Cname);
    assert!(!live.certificate_pending());
    assert_eq!(live.removal().unwrap().message, "Removing it stops traffic.");
    let pending = &view.domains[1];
    assert_eq!(pending.domain_state(), DomainState::Verified { added_at: 40, verified_at: 50 });
    assert!(pending.certificate_pending());
    assert!(view.certificate_pending());
    let troubles = view.troubles();
    assert_eq!(troubles.len(), 2);
    assert_eq!(troubles[0].symptom, Symptom::VerificationFails);
    assert_eq!(troubles[1].applies_to, ["api.example.com: x"]);
    assert_eq!(view.attached_names(), ["petstore.docs-host.test", "docs.example.com", "api.example.com"]);
}

#[test]
fn a_failed_issuance_stops_the_polling() {
    let mut view: ProjectView = serde_json::from_str(PROJECT).unwrap();
    view.domains[1].issue_error = Some(IssueError { message: "rate limited".to_owned(), at: 60 });
    assert!(!view.certificate_pending());
}

#[test]
fn unknown_or_incomplete_states_read_as_earlier_ones() {
    let mut view: ProjectView = serde_json::from_str(PROJECT).unwrap();
    let domain = &mut view.domains[0];
    domain.live_at = None;
    assert_eq!(domain.domain_state(), DomainState::Verified { added_at: 10, verified_at: 20 });
    domain.state = "later".to_owned();
    assert_eq!(domain.domain_state(), DomainState::Added { added_at: 10 });
}

#[test]
fn new_names_are_checked_as_the_host_checks_them() {
    let view: ProjectView = serde_json::from_str(PROJECT).unwrap();
    assert_eq!(view.check_new_name("Shop.Example.com", &ascii).unwrap(), "shop.example.com");
    for refused in ["docs.example.com", "x.docs-host.test", "docs-host.test", "co.uk", "bad name", ""] {
        assert!(view.check_new_name(refused, &ascii).is_err(), "{refused}");
    }
}

#[test]
fn certificates_of_every_status_are_read() {
    let cases = [
        (r#"{"status":"not_requested"}"#, CertificateStatus::NotRequested),
        (r#"{"status":"issuing","expectedAt":5}"#, CertificateStatus::Issuing { expected_at: 5 }),
        (
            r#"{"status":"blocked_by_caa","records":[{"name":"example.com","kind":"CAA","value":"0 issue \"other.ca\"","ttl":300}]}"#,
            CertificateStatus::BlockedByCaa {
                records: vec![DnsRecord::new(
                    "example.com",
                    crate::RecordKind::Caa,
                    "0 issue \"other.ca\"",
                    300,
                )],
            },
        ),
        (
            r#"{"status":"overdue","verifiedAt":7,"blockingCaa":[],"steps":["a"]}"#,
            CertificateStatus::Overdue { verified_at: 7, blocking_caa: vec![], steps: vec!["a".to_owned()] },
        ),
    ];
    for (json, status) in cases {
        let read: HostedCertificate = serde_json::from_str(json).unwrap();
        assert_eq!(read.status(), status, "{json}");
    }
}

#[test]
fn errors_read_as_sentences() {
    let body = r#"{"code":"bad_credentials","message":"The email or password is not right.","status":401}"#;
    assert_eq!(error_text(401, body, None), "The email or password is not right.");
    let body = r#"{"code":"too_many_attempts","message":"Too many failed sign-ins; try again in 42 seconds.","status":429}"#;
    assert_eq!(error_text(429, body, Some("42")), "Too many failed sign-ins; try again in 42 seconds.");
    assert_eq!(error_text(429, "", Some("7")), "Too many attempts. Try again in 7 seconds.");
    assert_eq!(error_text(429, "<html>", None), "Too many attempts. Try again in a minute.");
    assert!(error_text(502, "Bad Gateway", None).contains("HTTP 502"));
    assert!(error_text(418, "{}", None).contains("HTTP 418"));
    assert!(needs_sign_in(401, None));
    assert!(needs_sign_in(403, Some("session_expired")));
    assert!(!needs_sign_in(403, Some("plan_required")));
    assert!(unreachable_text("").contains("did not answer"));
}

#[test]
fn routes_cannot_be_bent_by_names() {
    assert_eq!(
        Route::Verify("petstore", "docs.example.com").path("/_host/api"),
        "/_host/api/projects/petstore/domains/docs.example.com/verify"
    );
    assert_eq!(Route::Domain("p", "a/../b?c").path("/x"), "/x/projects/p/domains/a%2F..%2Fb%3Fc");
    assert_eq!(Route::Me.path("/_host/api"), "/_host/api/me");
    assert_eq!(Route::Config("p").path("/a"), "/a/projects/p/config");
}

#[test]
fn the_api_base_is_a_path_on_the_same_host() {
    assert_eq!(api_base("/_host/api/").as_deref(), Some("/_host/api"));
    for refused in ["", "https://evil.test/api", "//evil.test/api", "api", "/a b", "/a\"b"] {
        assert_eq!(api_base(refused), None, "{refused}");
    }
}
