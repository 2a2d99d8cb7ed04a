use super::super::*;
use serde_json::json;

use super::apply::{creds, reqs, test_schemes};
use super::oauth::params;

fn doc() -> Value {
    json!({
        "openapi": "3.1.0",
        "components": {
            "securitySchemes": {
                "key_header": {"type": "apiKey", "name": "X-API-Key", "in": "header", "description": "Header key"},
                "key_query": {"type": "apiKey", "name": "api key", "in": "query"},
                "key_cookie": {"type": "apiKey", "name": "session", "in": "cookie"},
                "basic": {"type": "http", "scheme": "Basic"},
                "bearer": {"type": "http", "scheme": "bearer", "bearerFormat": "JWT"},
                "digest": {"type": "http", "scheme": "digest"},
                "oauth": {
                    "type": "oauth2",
                    "flows": {
                        "authorizationCode": {
                            "authorizationUrl": "/oauth/authorize",
                            "tokenUrl": "https://auth.example.com/token",
                            "refreshUrl": "https://auth.example.com/refresh",
                            "scopes": {"read:pets": "Read pets", "write:pets": "Change pets"}
                        },
                        "clientCredentials": {"tokenUrl": "/token", "scopes": {}},
                        "deviceAuthorization": {"deviceAuthorizationUrl": "/device", "tokenUrl": "/token", "scopes": {}}
                    }
                },
                "oidc": {"type": "openIdConnect", "openIdConnectUrl": "https://auth.example.com/.well-known/openid-configuration"},
                "mtls": {"type": "mutualTLS"},
                "referenced": {"$ref": "#/components/x-schemes/shared", "description": "Own words"},
                "referenced_plain": {"$ref": "#/components/x-schemes/shared"},
                "broken_ref": {"$ref": "#/components/x-schemes/nothing"},
                "weird": {"type": "kerberos"},
                "no_type": {"name": "x"},
                "bad_in": {"type": "apiKey", "name": "k", "in": "body"},
                "no_oidc_url": {"type": "openIdConnect"}
            },
            "x-schemes": {"shared": {"type": "http", "scheme": "BEARER", "description": "Shared"}}
        }
    })
}

fn find<'a>(schemes: &'a [Scheme], name: &str) -> &'a Scheme {
    schemes.iter().find(|s| s.name == name).unwrap()
}

fn unsupported(scheme: &Scheme) -> &str {
    match &scheme.kind {
        SchemeKind::Unsupported(reason) => reason,
        other => panic!("expected Unsupported, got {other:?}"),
    }
}

#[test]
fn schemes_are_read_in_document_order() {
    let all = schemes(&doc());
    let names: Vec<&str> = all.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "key_header",
            "key_query",
            "key_cookie",
            "basic",
            "bearer",
            "digest",
            "oauth",
            "oidc",
            "mtls",
            "referenced",
            "referenced_plain",
            "broken_ref",
            "weird",
            "no_type",
            "bad_in",
            "no_oidc_url"
        ]
    );
}

#[test]
fn api_key_and_http_schemes() {
    let all = schemes(&doc());
    assert_eq!(
        find(&all, "key_header"),
        &Scheme {
            name: "key_header".into(),
            description: Some("Header key".into()),
            kind: SchemeKind::ApiKey { name: "X-API-Key".into(), location: ApiKeyIn::Header },
        }
    );
    assert_eq!(
        find(&all, "key_query").kind,
        SchemeKind::ApiKey { name: "api key".into(), location: ApiKeyIn::Query }
    );
    assert_eq!(
        find(&all, "key_cookie").kind,
        SchemeKind::ApiKey { name: "session".into(), location: ApiKeyIn::Cookie }
    );
    assert_eq!(find(&all, "basic").kind, SchemeKind::Http { scheme: "basic".into(), bearer_format: None });
    assert_eq!(
        find(&all, "bearer").kind,
        SchemeKind::Http { scheme: "bearer".into(), bearer_format: Some("JWT".into()) }
    );
    assert_eq!(find(&all, "mtls").kind, SchemeKind::MutualTls);
    assert_eq!(find(&all, "mtls").description, None);
}

#[test]
fn oauth2_and_openid_connect_schemes() {
    let all = schemes(&doc());
    let SchemeKind::OAuth2 { flows } = &find(&all, "oauth").kind else { panic!("not oauth2") };
    assert_eq!(
        flows,
        &[
            OAuthFlow {
                kind: FlowKind::AuthorizationCode,
                authorization_url: Some("/oauth/authorize".into()),
                token_url: Some("https://auth.example.com/token".into()),
                refresh_url: Some("https://auth.example.com/refresh".into()),
                scopes: vec![
                    ("read:pets".into(), "Read pets".into()),
                    ("write:pets".into(), "Change pets".into())
                ],
            },
            OAuthFlow {
                kind: FlowKind::ClientCredentials,
                authorization_url: None,
                token_url: Some("/token".into()),
                refresh_url: None,
                scopes: vec![],
            },
        ]
    );
    assert_eq!(
        find(&all, "oidc").kind,
        SchemeKind::OpenIdConnect {
            url: "https://auth.example.com/.well-known/openid-configuration".into(),
            flows: vec![]
        }
    );
}

#[test]
fn referenced_schemes_are_followed() {
    let all = schemes(&doc());
    let referenced = find(&all, "referenced");
    assert_eq!(referenced.kind, SchemeKind::Http { scheme: "bearer".into(), bearer_format: None });
    assert_eq!(referenced.description.as_deref(), Some("Own words"));
    assert_eq!(find(&all, "referenced_plain").description.as_deref(), Some("Shared"));
    assert!(unsupported(find(&all, "broken_ref")).contains("does not resolve"));
}

#[test]
fn unreadable_schemes_say_why() {
    let all = schemes(&doc());
    assert_eq!(
        unsupported(find(&all, "weird")),
        "The scheme weird has the type kerberos, which this console does not know."
    );
    assert_eq!(unsupported(find(&all, "no_type")), "The scheme no_type has no type.");
    assert!(unsupported(find(&all, "bad_in")).contains("goes in body"));
    assert!(unsupported(find(&all, "no_oidc_url")).contains("openIdConnectUrl"));
}

#[test]
fn schemes_are_bounded_and_absent_ones_are_empty() {
    assert!(schemes(&json!({"openapi": "3.0.3"})).is_empty());
    let many: serde_json::Map<String, Value> =
        (0..500).map(|i| (format!("s{i}"), json!({"type": "mutualTLS"}))).collect();
    let doc = json!({"components": {"securitySchemes": many}});
    let read = schemes(&doc);
    assert_eq!(read.len(), MAX_SCHEMES);
    assert_eq!(read.last().unwrap().name, "s199");
}

#[test]
fn security_requirements_prefer_the_operation() {
    let doc = json!({"security": [{"a": []}, {"b": [], "c": ["x"]}]});
    assert_eq!(
        security_requirements(&doc, &json!({})),
        vec![vec!["a".to_owned()], vec!["b".into(), "c".into()]]
    );
    assert_eq!(security_requirements(&doc, &json!({"security": [{}]})), vec![Vec::<String>::new()]);
    assert!(security_requirements(&doc, &json!({"security": []})).is_empty());
}

#[test]
fn odd_inputs_do_not_panic() {
    let odd = [
        "",
        ":",
        "//",
        "/",
        "#",
        "?",
        "é:ü",
        "ü/ä/../..",
        "a:b:c",
        "http://",
        "http://h",
        "?#",
        "%",
        "&&=&=",
        "..",
        "./",
    ];
    for base in odd {
        for url in odd {
            let _ = resolve_url(base, url);
            let _ = read_callback(base, url, f64::NAN);
            let _ = authorize_url(base, &params());
            let mut request = Request::new("GET", base).header("Cookie", url);
            let credentials = creds(&[
                ("query", Credential::ApiKey(url.into())),
                ("cookie", Credential::ApiKey(url.into())),
            ]);
            let _ = apply(
                &mut request,
                &reqs(&[&["query", "cookie"]]),
                &test_schemes(),
                &credentials,
                f64::NAN,
                false,
            );
            let _ = read_token_response(200, url.as_bytes(), f64::INFINITY);
        }
    }
    assert_eq!(resolve_url("http://h", "ü"), "http://h/ü");
    let body = br#"{"access_token":"a","expires_in":1e308}"#;
    let Ok(Credential::Token { expires_at_ms: Some(at), .. }) = read_token_response(200, body, 0.0) else {
        panic!("expected a token")
    };
    assert!(at.is_finite());
}

#[test]
fn resolve_url_cases() {
    let base = "https://api.example.com:8443/v1/docs/openapi.json?x=1#top";
    assert_eq!(resolve_url(base, "https://auth.example.com/a"), "https://auth.example.com/a");
    assert_eq!(resolve_url(base, "/oauth/authorize"), "https://api.example.com:8443/oauth/authorize");
    assert_eq!(resolve_url(base, "oauth/token?a=b"), "https://api.example.com:8443/v1/docs/oauth/token?a=b");
    assert_eq!(resolve_url(base, "../token"), "https://api.example.com:8443/v1/token");
    assert_eq!(resolve_url(base, "./../../../../token"), "https://api.example.com:8443/token");
    assert_eq!(resolve_url(base, "//other.example.com/t"), "https://other.example.com/t");
    assert_eq!(resolve_url(base, "?y=2"), "https://api.example.com:8443/v1/docs/openapi.json?y=2");
    assert_eq!(resolve_url("https://example.com", "token"), "https://example.com/token");
    assert_eq!(resolve_url("http://localhost:8080/", "token"), "http://localhost:8080/token");
    assert_eq!(resolve_url("/docs/openapi.json", "token"), "/docs/token");
}

#[test]
fn discovery_reads_flows() {
    let discovery = json!({
        "issuer": "https://auth.example.com",
        "authorization_endpoint": "https://auth.example.com/authorize",
        "token_endpoint": "https://auth.example.com/token",
        "grant_types_supported": ["authorization_code", "refresh_token", "client_credentials"],
        "scopes_supported": ["openid", "pets"]
    });
    let scopes = vec![("openid".to_owned(), String::new()), ("pets".to_owned(), String::new())];
    assert_eq!(
        read_discovery(&discovery).unwrap(),
        vec![
            OAuthFlow {
                kind: FlowKind::AuthorizationCode,
                authorization_url: Some("https://auth.example.com/authorize".into()),
                token_url: Some("https://auth.example.com/token".into()),
                refresh_url: None,
                scopes: scopes.clone(),
            },
            OAuthFlow {
                kind: FlowKind::ClientCredentials,
                authorization_url: None,
                token_url: Some("https://auth.example.com/token".into()),
                refresh_url: None,
                scopes,
            },
        ]
    );
}

#[test]
fn discovery_defaults_and_missing_endpoints() {
    let only_authorize = json!({"authorization_endpoint": "https://a/authorize"});
    let flows = read_discovery(&only_authorize).unwrap();
    // Default grants: authorization_code (needs the missing token endpoint) and implicit.
    assert_eq!(flows.len(), 1);
    assert_eq!(flows[0].kind, FlowKind::Implicit);
    assert_eq!(flows[0].authorization_url.as_deref(), Some("https://a/authorize"));
    assert_eq!(flows[0].token_url, None);
    assert_eq!(
            read_discovery(&json!({"issuer": "x"})),
            Err("The OpenID Connect discovery document has no authorization_endpoint, so none of its grant types can be used.".into())
        );
    assert_eq!(
            read_discovery(&json!({"authorization_endpoint": "a", "grant_types_supported": ["authorization_code", "password"]})),
            Err("The OpenID Connect discovery document has no token_endpoint, so none of its grant types can be used.".into())
        );
    assert!(
        read_discovery(
            &json!({"authorization_endpoint": "a", "token_endpoint": "t", "grant_types_supported": ["urn:x"]})
        )
        .unwrap_err()
        .contains("it lists: urn:x")
    );
    assert!(read_discovery(&json!([1])).is_err());
}
