//! The domain configuration: its JSON shape, its validation, and primary, redirects and
//! removal warnings through the dashboard.

mod common;

use playground_domains::redirects::REDIRECT_STATUS;
use playground_domains::*;

use common::*;

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
        domains: playground_domains::redirects::DomainsSection { primary: primary.into(), redirects },
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
