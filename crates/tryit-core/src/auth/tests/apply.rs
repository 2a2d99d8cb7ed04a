use super::super::*;

fn sch(name: &str, kind: SchemeKind) -> Scheme {
    Scheme { name: name.into(), description: None, kind }
}

pub(super) fn test_schemes() -> Vec<Scheme> {
    vec![
        sch("header", SchemeKind::ApiKey { name: "X-API-Key".into(), location: ApiKeyIn::Header }),
        sch("query", SchemeKind::ApiKey { name: "api key".into(), location: ApiKeyIn::Query }),
        sch("cookie", SchemeKind::ApiKey { name: "session".into(), location: ApiKeyIn::Cookie }),
        sch("basic", SchemeKind::Http { scheme: "basic".into(), bearer_format: None }),
        sch("bearer", SchemeKind::Http { scheme: "bearer".into(), bearer_format: None }),
        sch("digest", SchemeKind::Http { scheme: "digest".into(), bearer_format: None }),
        sch("oauth", SchemeKind::OAuth2 { flows: vec![] }),
        sch("oidc", SchemeKind::OpenIdConnect { url: "https://x/.well-known".into(), flows: vec![] }),
        sch("mtls", SchemeKind::MutualTls),
        sch("weird", SchemeKind::Unsupported("The scheme weird is odd.".into())),
    ]
}

fn token(value: &str) -> Credential {
    Credential::Token { value: value.into(), expires_at_ms: None, refresh_token: None, scopes: vec![] }
}

pub(super) fn creds(list: &[(&str, Credential)]) -> Credentials {
    Credentials(list.iter().map(|(n, c)| ((*n).to_owned(), c.clone())).collect())
}

pub(super) fn reqs(list: &[&[&str]]) -> Vec<Vec<String>> {
    list.iter().map(|alt| alt.iter().map(|s| (*s).to_owned()).collect()).collect()
}

fn run(
    target: &str,
    requirements: &[&[&str]],
    credentials: &Credentials,
    placeholders: bool,
) -> (Request, Applied) {
    let mut request = Request::new("GET", target);
    let applied =
        apply(&mut request, &reqs(requirements), &test_schemes(), credentials, 1000.0, placeholders);
    (request, applied)
}

#[test]
fn api_key_in_header() {
    let (request, applied) =
        run("/pets", &[&["header"]], &creds(&[("header", Credential::ApiKey("s3cret".into()))]), false);
    assert_eq!(request.headers, vec![("X-API-Key".to_owned(), "s3cret".to_owned())]);
    assert_eq!(
        applied,
        Applied { alternative: Some(0), used: vec!["header".into()], missing: vec![], notes: vec![] }
    );
}

#[test]
fn api_key_in_query_is_encoded_and_keeps_the_query() {
    let credentials = creds(&[("query", Credential::ApiKey("a&b =c".into()))]);
    let (request, _) = run("/pets", &[&["query"]], &credentials, false);
    assert_eq!(request.target, "/pets?api+key=a%26b+%3Dc");
    let (request, _) =
        run("https://h.example/pets?status=sold&limit=5#frag", &[&["query"]], &credentials, false);
    assert_eq!(request.target, "https://h.example/pets?status=sold&limit=5&api+key=a%26b+%3Dc");
    let (request, _) = run("/pets?api%20key=old&x=1", &[&["query"]], &credentials, false);
    assert_eq!(request.target, "/pets?x=1&api+key=a%26b+%3Dc");
}

#[test]
fn api_key_in_cookie_merges_with_existing_cookies() {
    let credentials = creds(&[("cookie", Credential::ApiKey("v a;l".into()))]);
    let mut request =
        Request::new("GET", "/pets").header("cookie", "theme=dark; session=old").header("Cookie", "lang=en");
    let applied = apply(&mut request, &reqs(&[&["cookie"]]), &test_schemes(), &credentials, 0.0, false);
    assert_eq!(
        request.headers,
        vec![("Cookie".to_owned(), "theme=dark; lang=en; session=v%20a%3Bl".to_owned())]
    );
    assert_eq!(applied.used, ["cookie"]);
    let (request, _) =
        run("/pets", &[&["cookie"]], &creds(&[("cookie", Credential::ApiKey("abc".into()))]), false);
    assert_eq!(request.header_value("cookie"), Some("session=abc"));
}

#[test]
fn http_schemes_write_authorization() {
    let (request, _) = run(
        "/p",
        &[&["basic"]],
        &creds(&[("basic", Credential::Basic { user: "aladdin".into(), password: "open sesame".into() })]),
        false,
    );
    assert_eq!(request.header_value("authorization"), Some("Basic YWxhZGRpbjpvcGVuIHNlc2FtZQ=="));
    let (request, _) = run("/p", &[&["bearer"]], &creds(&[("bearer", token("t0k"))]), false);
    assert_eq!(request.header_value("Authorization"), Some("Bearer t0k"));
    let (request, _) = run("/p", &[&["digest"]], &creds(&[("digest", token("d1"))]), false);
    assert_eq!(request.header_value("Authorization"), Some("Digest d1"));
    let (request, _) = run("/p", &[&["oauth"]], &creds(&[("oauth", token("acc"))]), false);
    assert_eq!(request.header_value("Authorization"), Some("Bearer acc"));
    let (request, _) = run("/p", &[&["oidc"]], &creds(&[("oidc", token("id"))]), false);
    assert_eq!(request.header_value("Authorization"), Some("Bearer id"));
}

#[test]
fn existing_headers_are_replaced_not_repeated() {
    let mut request = Request::new("GET", "/p")
        .header("authorization", "Bearer stale")
        .header("Accept", "application/json")
        .header("AUTHORIZATION", "Basic stale")
        .header("x-api-key", "old");
    let credentials = creds(&[("bearer", token("fresh")), ("header", Credential::ApiKey("new".into()))]);
    apply(&mut request, &reqs(&[&["bearer", "header"]]), &test_schemes(), &credentials, 0.0, false);
    assert_eq!(
        request.headers,
        vec![
            ("Authorization".to_owned(), "Bearer fresh".to_owned()),
            ("Accept".to_owned(), "application/json".to_owned()),
            ("X-API-Key".to_owned(), "new".to_owned()),
        ]
    );
}

#[test]
fn first_complete_alternative_wins() {
    let credentials = creds(&[
        ("query", Credential::ApiKey("q".into())),
        ("cookie", Credential::ApiKey("c".into())),
        ("bearer", token("b")),
    ]);
    // The first alternative lacks "header"; the second has both of its schemes.
    let (request, applied) =
        run("/p", &[&["header", "bearer"], &["query", "cookie"], &["bearer"]], &credentials, false);
    assert_eq!(applied.alternative, Some(1));
    assert_eq!(applied.used, ["query", "cookie"]);
    assert!(applied.missing.is_empty());
    assert_eq!(request.target, "/p?api+key=q");
    assert_eq!(request.header_value("Cookie"), Some("session=c"));
    assert_eq!(request.header_value("Authorization"), None);
}

#[test]
fn empty_alternative_sends_without_credentials() {
    let (request, applied) = run("/p", &[&["bearer"], &[]], &Credentials::default(), false);
    assert_eq!(applied, Applied { alternative: Some(1), used: vec![], missing: vec![], notes: vec![] });
    assert!(request.headers.is_empty());
    // Optional security: credentials are still sent when entered, even if {} comes first.
    let (request, applied) = run("/p", &[&[], &["bearer"]], &creds(&[("bearer", token("b"))]), false);
    assert_eq!(applied.alternative, Some(1));
    assert_eq!(request.header_value("Authorization"), Some("Bearer b"));
}

#[test]
fn no_security_writes_nothing() {
    let (request, applied) = run("/p", &[], &creds(&[("bearer", token("b"))]), false);
    assert_eq!(applied, Applied::default());
    assert!(request.headers.is_empty());
    assert_eq!(request.target, "/p");
}

#[test]
fn missing_names_the_closest_alternative_once() {
    let credentials = creds(&[("cookie", Credential::ApiKey("c".into()))]);
    let (request, applied) = run(
        "/p",
        &[&["header", "query", "header"], &["cookie", "bearer", "bearer"], &["basic", "digest"]],
        &credentials,
        false,
    );
    assert_eq!(applied.alternative, None);
    assert_eq!(applied.missing, ["bearer"]);
    assert!(applied.used.is_empty());
    assert!(request.headers.is_empty());
    // Ties go to the first.
    let (_, applied) =
        run("/p", &[&["header", "query"], &["basic", "digest"]], &Credentials::default(), false);
    assert_eq!(applied.missing, ["header", "query"]);
}

#[test]
fn expired_token_is_not_used_and_noted() {
    let expired = Credential::Token {
        value: "old".into(),
        expires_at_ms: Some(999.0),
        refresh_token: None,
        scopes: vec![],
    };
    let valid = Credential::Token {
        value: "new".into(),
        expires_at_ms: Some(1001.0),
        refresh_token: None,
        scopes: vec![],
    };
    let (request, applied) = run(
        "/p",
        &[&["oauth"], &["bearer"]],
        &creds(&[("oauth", expired.clone()), ("bearer", valid)]),
        false,
    );
    assert_eq!(applied.alternative, Some(1));
    assert_eq!(request.header_value("Authorization"), Some("Bearer new"));
    assert_eq!(applied.notes, ["The token for oauth has expired; authorize again."]);
    let (request, applied) = run("/p", &[&["oauth"]], &creds(&[("oauth", expired)]), false);
    assert_eq!(applied.missing, ["oauth"]);
    assert_eq!(request.header_value("Authorization"), None);
    assert_eq!(applied.notes.len(), 1);
}

#[test]
fn wrong_undefined_and_unsupported_schemes_are_missing_with_notes() {
    let (_, applied) =
        run("/p", &[&["bearer"]], &creds(&[("bearer", Credential::ApiKey("k".into()))]), false);
    assert_eq!(applied.missing, ["bearer"]);
    assert_eq!(applied.notes, ["The credential saved for bearer is not a token."]);
    let (_, applied) = run("/p", &[&["ghost"]], &Credentials::default(), false);
    assert_eq!(applied.missing, ["ghost"]);
    assert!(applied.notes[0].contains("does not define"));
    let (_, applied) = run("/p", &[&["weird"]], &Credentials::default(), false);
    assert_eq!(applied.missing, ["weird"]);
    assert_eq!(applied.notes, ["weird cannot be used: The scheme weird is odd."]);
    let (request, applied) =
        run("/p", &[&["header"]], &creds(&[("header", Credential::ApiKey("a\r\nX-Evil: 1".into()))]), false);
    assert_eq!(applied.missing, ["header"]);
    assert!(request.headers.is_empty());
}

#[test]
fn mutual_tls_needs_nothing_from_the_page() {
    let (request, applied) = run("/p", &[&["mtls"]], &Credentials::default(), false);
    assert_eq!(applied.alternative, Some(0));
    assert_eq!(applied.used, ["mtls"]);
    assert!(request.headers.is_empty());
    assert_eq!(applied.notes.len(), 1);
}

#[test]
fn two_authorization_schemes_are_noted() {
    let credentials = creds(&[
        ("basic", Credential::Basic { user: "u".into(), password: "p".into() }),
        ("bearer", token("b")),
    ]);
    let (request, applied) = run("/p", &[&["basic", "bearer"]], &credentials, false);
    assert_eq!(request.headers, vec![("Authorization".to_owned(), "Bearer b".to_owned())]);
    assert_eq!(applied.notes, ["basic and bearer both use the Authorization header; only bearer's is sent."]);
}

#[test]
fn placeholders_hide_secrets() {
    let credentials = creds(&[
        ("header", Credential::ApiKey("s3cret".into())),
        ("query", Credential::ApiKey("s3cret".into())),
        ("cookie", Credential::ApiKey("s3cret".into())),
    ]);
    let (request, applied) = run("/p?a=1", &[&["header", "query", "cookie"]], &credentials, true);
    assert_eq!(request.target, "/p?a=1&api+key=<API_KEY>");
    assert_eq!(
        request.headers,
        vec![
            ("X-API-Key".to_owned(), "<API_KEY>".to_owned()),
            ("Cookie".to_owned(), "session=<API_KEY>".to_owned())
        ]
    );
    assert!(applied.missing.is_empty());
    let (request, _) = run(
        "/p",
        &[&["basic"]],
        &creds(&[("basic", Credential::Basic { user: "u".into(), password: "p".into() })]),
        true,
    );
    assert_eq!(request.header_value("Authorization"), Some("Basic <BASE64(USERNAME:PASSWORD)>"));
    let (request, _) = run("/p", &[&["oauth"]], &creds(&[("oauth", token("real"))]), true);
    assert_eq!(request.header_value("Authorization"), Some("Bearer <TOKEN>"));
}

#[test]
fn placeholders_show_the_first_alternative_when_credentials_are_missing() {
    let (request, applied) =
        run("/p", &[&[], &["digest", "header"], &["bearer"]], &Credentials::default(), true);
    assert_eq!(applied.alternative, Some(1));
    assert_eq!(applied.used, ["digest", "header"]);
    assert_eq!(applied.missing, ["digest", "header"]);
    assert_eq!(request.header_value("Authorization"), Some("Digest <TOKEN>"));
    assert_eq!(request.header_value("X-API-Key"), Some("<API_KEY>"));
    // A complete later alternative still wins over the first.
    let (request, applied) = run("/p", &[&["digest"], &["bearer"]], &creds(&[("bearer", token("b"))]), true);
    assert_eq!(applied.alternative, Some(1));
    assert_eq!(request.header_value("Authorization"), Some("Bearer <TOKEN>"));
}

#[test]
fn credentials_serialize_as_a_map() {
    let credentials = creds(&[("k", Credential::ApiKey("v".into()))]);
    let text = serde_json::to_string(&credentials).unwrap();
    assert_eq!(text, r#"{"k":{"ApiKey":"v"}}"#);
    assert_eq!(serde_json::from_str::<Credentials>(&text).unwrap(), credentials);
}

#[test]
fn pkce_matches_rfc_7636() {
    // RFC 7636 appendix B (the challenge as the RFC prints it).
    let random: [u8; 32] = [
        116, 24, 223, 180, 151, 153, 224, 37, 79, 250, 96, 125, 216, 173, 187, 186, 22, 212, 37, 77, 105,
        214, 191, 240, 91, 88, 5, 88, 83, 132, 141, 121,
    ];
    let verifier = code_verifier(&random);
    assert_eq!(verifier, "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk");
    assert_eq!(verifier.len(), 43);
    assert_eq!(code_challenge(&verifier), "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
}
