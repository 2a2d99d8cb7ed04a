//! DNS: the record to configure, verification and its causes, the simulated zone, and
//! DNS-over-HTTPS queries and answers (fixtures from real resolvers).

mod common;

use playground_domains::dns::{CNAME_TTL, caa_blocking};
use playground_domains::doh::{DOH_ACCEPT, type_code};
use playground_domains::name::registrable_zone;
use playground_domains::*;

use common::*;

#[test]
fn instructions_for_subdomains_and_apexes() {
    let cases: [(&str, InstructionKind, Option<&str>, Option<u32>); 12] = [
        ("docs.example.com", InstructionKind::Cname, Some("docs"), Some(3600)),
        // Suffixes of more than two labels, and private suffixes, from the Public Suffix List
        // (a two-label guess took `example.kyoto.jp` for a subdomain of `kyoto.jp`).
        ("example.kyoto.jp", InstructionKind::AliasOrAname, None, None),
        ("docs.example.kyoto.jp", InstructionKind::Cname, Some("docs"), Some(3600)),
        ("myproject.github.io", InstructionKind::AliasOrAname, None, None),
        ("docs.myproject.github.io", InstructionKind::Cname, Some("docs"), Some(3600)),
        ("example.nom.br", InstructionKind::AliasOrAname, None, None),
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
        "A conflicting DNS record exists for docs.example.com: A 192.0.2.44. A CNAME record cannot share its name with any other record; delete it at your DNS provider, then verify again."
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
    // A CNAME shares its name with nothing: TXT and CAA beside it conflict too, named.
    for (kind, value) in [(RecordKind::Txt, "hello"), (RecordKind::Caa, "0 issue \"letsencrypt.org\"")] {
        let beside = set(vec![
            rec("docs.example.com", RecordKind::Cname, TARGET),
            rec("docs.example.com", kind, value),
        ]);
        match verify(&sub, &beside) {
            Err(VerifyFailure::Conflict { records, .. }) => {
                assert_eq!(records, [rec("docs.example.com", kind, value)])
            }
            other => panic!("{kind}: {other:?}"),
        }
    }
    // At an apex, other records live beside the ALIAS (mail, site verification...).
    let apex_txt = set(vec![
        rec("example.com", RecordKind::Alias, TARGET),
        rec("example.com", RecordKind::Txt, "v=spf1 -all"),
    ]);
    assert!(verify(&apex, &apex_txt).is_ok());
    // Records of a parent or another name never conflict.
    let parent = set(vec![
        rec("docs.example.com", RecordKind::Cname, TARGET),
        rec("example.com", RecordKind::Txt, "hello"),
    ]);
    assert!(verify(&sub, &parent).is_ok());
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
    use playground_domains::doh::{caa_queries, verification_queries};
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
    use playground_domains::machine::{DNS_PROPAGATION_MAX_SECS, PROPAGATION_NOTE, propagation_note};
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
