//! What the page says after each action: the sentences of events and the outcomes of refusals.

mod common;

use playground_domains::*;

use common::*;

#[test]
fn event_sentences() {
    let name = || "docs.example.com".to_owned();
    let cases = [
        (
            Event::Added { name: name(), kind: InstructionKind::Cname },
            "docs.example.com was added. Create the CNAME record shown below at your DNS provider, then select Verify.",
        ),
        (
            Event::Added { name: "example.com".to_owned(), kind: InstructionKind::AliasOrAname },
            "example.com was added. Create the ALIAS or ANAME record shown below at your DNS provider, then select Verify.",
        ),
        (
            Event::Verified { name: name(), again: false, live: false },
            "docs.example.com is verified: its DNS record matches. Its SSL certificate is now issued automatically, usually within a couple of minutes; there is nothing to install or renew.",
        ),
        (
            Event::Verified { name: name(), again: false, live: true },
            "docs.example.com is verified: its DNS record matches. Its SSL certificate has been issued: docs.example.com is live and serves the project over HTTPS.",
        ),
        (
            Event::Verified { name: name(), again: true, live: false },
            "A fresh verification of docs.example.com passed: its DNS record matches. Its SSL certificate is now issued automatically, usually within a couple of minutes; there is nothing to install or renew.",
        ),
        (
            Event::Verified { name: name(), again: true, live: true },
            "A fresh verification of docs.example.com passed: its DNS record matches. Its SSL certificate has been issued: docs.example.com is live and serves the project over HTTPS.",
        ),
        (
            Event::VerifiedBlockedByCaa {
                name: name(),
                again: false,
                serving: false,
                authority: "letsencrypt.org".to_owned(),
                records: vec![
                    rec("example.com", RecordKind::Caa, "0 issue \"digicert.com\""),
                    rec("example.com", RecordKind::Caa, "0 issue \"sectigo.com; account=1\""),
                ],
            },
            "docs.example.com is verified: its DNS record matches. But its SSL certificate cannot be issued: the CAA records at example.com allow only digicert.com, sectigo.com to issue certificates, not letsencrypt.org, the certificate authority used here. Add the CAA record 0 issue \"letsencrypt.org\" at example.com (or remove the records there that name other authorities), then select Re-verify.",
        ),
        (
            Event::VerifiedBlockedByCaa {
                name: name(),
                again: true,
                serving: true,
                authority: "letsencrypt.org".to_owned(),
                records: vec![rec("docs.example.com.", RecordKind::Caa, "0 issue \";\"")],
            },
            "A fresh verification of docs.example.com passed: its DNS record matches. But its SSL certificate cannot be issued: the CAA records at docs.example.com allow no certificate authority to issue certificates, so not letsencrypt.org, the certificate authority used here. Add the CAA record 0 issue \"letsencrypt.org\" at docs.example.com (or remove the records there that name other authorities), then select Re-verify. docs.example.com keeps serving the project with its current certificate meanwhile.",
        ),
        (
            Event::Reverified { name: name() },
            "A fresh verification of docs.example.com passed: its DNS record matches. docs.example.com keeps serving the project with its current certificate while a new one is issued, usually within a couple of minutes.",
        ),
        (
            Event::CertificateIssued { name: name() },
            "The SSL certificate of docs.example.com has been issued: docs.example.com is live and serves the project over HTTPS.",
        ),
        (
            Event::MadePrimary { name: name() },
            "docs.example.com is now the primary domain; every other live domain redirects to it with 301, except those set to serve the project themselves.",
        ),
        (
            Event::RoleChanged {
                name: name(),
                role: DomainRole::Serve,
                primary: "www.example.com".to_owned(),
            },
            "docs.example.com now serves the project itself (for a region or an audience of its own) instead of redirecting.",
        ),
        (
            Event::RoleChanged {
                name: name(),
                role: DomainRole::Redirect,
                primary: "www.example.com".to_owned(),
            },
            "docs.example.com now redirects to www.example.com with 301.",
        ),
        (
            Event::KeptAsRedirect { name: name(), target: "www.example.com".to_owned() },
            "docs.example.com stays attached and now redirects to www.example.com with 301, so inbound links keep working (see the domain configuration). Remove it later, once the links have moved.",
        ),
        (
            Event::Removed { name: name(), was_live: true, published: "petstore.docs-host.dev".to_owned() },
            "docs.example.com was removed and no longer serves the project. The project is published at petstore.docs-host.dev.",
        ),
        (
            Event::Removed { name: name(), was_live: false, published: "petstore.docs-host.dev".to_owned() },
            "docs.example.com was removed. You can delete its DNS record at your DNS provider.",
        ),
    ];
    for (event, sentence) in cases {
        assert_eq!(event.to_string(), sentence, "{event:?}");
        assert_eq!(Outcome::done(&event), Outcome { ok: true, message: sentence.to_owned(), differs: None });
    }
}

#[test]
fn a_record_that_points_elsewhere_gives_both_values() {
    let mut d = Dashboard::new(settings());
    d.add("docs.example.com", 0, &idna).unwrap();
    let mut zone = SimulatedZone::new();
    zone.add(rec("docs.example.com", RecordKind::Cname, "elsewhere.example.net.")).unwrap();
    let refusal = d.verify("docs.example.com", 10, &zone).unwrap_err();
    let outcome = Outcome::refused(&refusal);
    assert!(!outcome.ok);
    assert_eq!(outcome.message, refusal.to_string());
    assert!(outcome.message.contains("points to elsewhere.example.net"), "{}", outcome.message);
    assert_eq!(outcome.differs, Some((TARGET.to_owned(), "elsewhere.example.net".to_owned())));
}

#[test]
fn other_refusals_and_failures_give_the_sentence_alone() {
    let mut d = Dashboard::new(settings());
    d.add("docs.example.com", 0, &idna).unwrap();
    let refusal = d.verify("docs.example.com", 10, &SimulatedZone::new()).unwrap_err();
    let outcome = Outcome::refused(&refusal);
    assert_eq!((outcome.ok, outcome.differs), (false, None));
    assert!(outcome.message.starts_with("docs.example.com could not be verified. No CNAME record"));
    let refusal = d.set_primary("docs.example.com").unwrap_err();
    assert_eq!(
        Outcome::refused(&refusal).message,
        "docs.example.com is not live yet; only a live domain can be the primary."
    );
    let failed = Outcome::failed("The resolver could not be reached.".to_owned());
    assert_eq!(
        failed,
        Outcome { ok: false, message: "The resolver could not be reached.".to_owned(), differs: None }
    );
}
