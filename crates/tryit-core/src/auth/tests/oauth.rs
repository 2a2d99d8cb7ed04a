use super::super::*;

pub(super) fn params() -> AuthorizeParams {
    AuthorizeParams {
        client_id: "my app".into(),
        redirect_uri: "https://docs.example.com/callback?x=1".into(),
        scopes: vec!["read:pets".into(), "write:pets".into()],
        state: "st&ate".into(),
        code_challenge: Some("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM".into()),
        response_type: ResponseType::Code,
    }
}

#[test]
fn authorize_url_builds_the_query() {
    assert_eq!(
        authorize_url("https://auth.example.com/authorize", &params()),
        "https://auth.example.com/authorize?response_type=code&client_id=my+app\
             &redirect_uri=https%3A%2F%2Fdocs.example.com%2Fcallback%3Fx%3D1&scope=read%3Apets+write%3Apets\
             &state=st%26ate&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256"
    );
}

#[test]
fn authorize_url_appends_to_an_existing_query() {
    let p = AuthorizeParams {
        scopes: vec![],
        code_challenge: None,
        redirect_uri: String::new(),
        response_type: ResponseType::Token,
        ..params()
    };
    assert_eq!(
        authorize_url("https://auth.example.com/authorize?audience=api&state=old#x", &p),
        "https://auth.example.com/authorize?audience=api&response_type=token&client_id=my+app&state=st%26ate"
    );
    assert_eq!(
        authorize_url("https://auth.example.com/authorize?", &p),
        "https://auth.example.com/authorize?response_type=token&client_id=my+app&state=st%26ate"
    );
}

fn body(request: &Request) -> Vec<(String, String)> {
    form_urlencoded::parse(&request.body).into_owned().collect()
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter().map(|(a, b)| ((*a).to_owned(), (*b).to_owned())).collect()
}

const BASIC_CLIENT: &str = "Basic Y2xpZW50K2lkOnMlM0FlY3JldA=="; // "client+id:s%3Aecret"

#[test]
fn token_request_common_shape() {
    let request =
        token_request("https://auth/token", &Grant::ClientCredentials, "c", None, &[], ClientAuth::Body);
    assert_eq!(request.method, "POST");
    assert_eq!(request.target, "https://auth/token");
    assert_eq!(request.header_value("content-type"), Some("application/x-www-form-urlencoded"));
    assert_eq!(request.header_value("accept"), Some("application/json"));
    assert_eq!(String::from_utf8(request.body).unwrap(), "grant_type=client_credentials&client_id=c");
}

#[test]
fn token_request_authorization_code() {
    let grant = Grant::AuthorizationCode {
        code: "abc".into(),
        redirect_uri: "https://docs/cb".into(),
        code_verifier: Some("ver".into()),
    };
    let scopes = vec!["ignored".to_owned()];
    let request = token_request("/t", &grant, "client id", Some("s:ecret"), &scopes, ClientAuth::Basic);
    assert_eq!(request.header_value("Authorization"), Some(BASIC_CLIENT));
    assert_eq!(
        body(&request),
        pairs(&[
            ("grant_type", "authorization_code"),
            ("code", "abc"),
            ("redirect_uri", "https://docs/cb"),
            ("code_verifier", "ver")
        ])
    );
    let request = token_request("/t", &grant, "client id", Some("s:ecret"), &scopes, ClientAuth::Body);
    assert_eq!(request.header_value("Authorization"), None);
    assert_eq!(
        body(&request),
        pairs(&[
            ("grant_type", "authorization_code"),
            ("code", "abc"),
            ("redirect_uri", "https://docs/cb"),
            ("code_verifier", "ver"),
            ("client_id", "client id"),
            ("client_secret", "s:ecret")
        ])
    );
    // A public client names itself in the body whatever the client authentication.
    let request = token_request("/t", &grant, "pub", None, &[], ClientAuth::Basic);
    assert_eq!(request.header_value("Authorization"), None);
    assert_eq!(body(&request).last().unwrap(), &("client_id".to_owned(), "pub".to_owned()));
}

#[test]
fn token_request_client_credentials() {
    let scopes = vec!["read:pets".to_owned(), "write:pets".to_owned()];
    let request = token_request(
        "/t",
        &Grant::ClientCredentials,
        "client id",
        Some("s:ecret"),
        &scopes,
        ClientAuth::Basic,
    );
    assert_eq!(request.header_value("Authorization"), Some(BASIC_CLIENT));
    assert_eq!(
        body(&request),
        pairs(&[("grant_type", "client_credentials"), ("scope", "read:pets write:pets")])
    );
    let request = token_request(
        "/t",
        &Grant::ClientCredentials,
        "client id",
        Some("s:ecret"),
        &scopes,
        ClientAuth::Body,
    );
    assert_eq!(
        body(&request),
        pairs(&[
            ("grant_type", "client_credentials"),
            ("scope", "read:pets write:pets"),
            ("client_id", "client id"),
            ("client_secret", "s:ecret")
        ])
    );
}

#[test]
fn token_request_password() {
    let grant = Grant::Password { username: "ann".into(), password: "p&w d".into() };
    let request = token_request("/t", &grant, "client id", Some("s:ecret"), &[], ClientAuth::Basic);
    assert_eq!(request.header_value("Authorization"), Some(BASIC_CLIENT));
    assert_eq!(
        body(&request),
        pairs(&[("grant_type", "password"), ("username", "ann"), ("password", "p&w d")])
    );
    let request = token_request("/t", &grant, "client id", Some("s:ecret"), &[], ClientAuth::Body);
    assert_eq!(
        body(&request),
        pairs(&[
            ("grant_type", "password"),
            ("username", "ann"),
            ("password", "p&w d"),
            ("client_id", "client id"),
            ("client_secret", "s:ecret")
        ])
    );
}

#[test]
fn token_request_password_and_client_credentials_with_and_without_a_client() {
    let password = Grant::Password { username: "ann".into(), password: "p&w d".into() };
    let scopes = vec!["read".to_owned(), "write".to_owned()];
    let raw = |request: &Request| String::from_utf8(request.body.clone()).unwrap();
    for auth in [ClientAuth::Basic, ClientAuth::Body] {
        // No client (FastAPI's `OAuth2PasswordRequestForm` needs none): the grant alone.
        let request = token_request("/token", &password, "", None, &[], auth);
        assert_eq!((request.method.as_str(), request.target.as_str()), ("POST", "/token"));
        assert_eq!(request.header_value("Content-Type"), Some("application/x-www-form-urlencoded"));
        assert_eq!(request.header_value("Authorization"), None);
        assert_eq!(raw(&request), "grant_type=password&username=ann&password=p%26w+d");
        let request = token_request("/token", &password, "", None, &scopes, auth);
        assert_eq!(raw(&request), "grant_type=password&username=ann&password=p%26w+d&scope=read+write");
        let request = token_request("/token", &Grant::ClientCredentials, "", None, &scopes, auth);
        assert_eq!(request.header_value("Authorization"), None);
        assert_eq!(raw(&request), "grant_type=client_credentials&scope=read+write");
        // A secret given without a client goes alone, in the body: no `Basic :secret`.
        for grant in [&password, &Grant::ClientCredentials] {
            let request = token_request("/token", grant, "", Some("s:ecret"), &[], auth);
            assert_eq!(request.header_value("Authorization"), None);
            assert_eq!(body(&request).last().unwrap(), &("client_secret".to_owned(), "s:ecret".to_owned()));
            assert!(body(&request).iter().all(|(name, _)| name != "client_id"));
        }
        // With a client ID, public: it names itself in the body, for both grants.
        let request = token_request("/token", &password, "app", None, &scopes, auth);
        assert_eq!(request.header_value("Authorization"), None);
        assert_eq!(
            raw(&request),
            "grant_type=password&username=ann&password=p%26w+d&scope=read+write&client_id=app"
        );
        let request = token_request("/token", &Grant::ClientCredentials, "app", None, &[], auth);
        assert_eq!(raw(&request), "grant_type=client_credentials&client_id=app");
    }
    // With a client ID and a secret: as before (Basic, or both in the body).
    let request = token_request(
        "/token",
        &Grant::ClientCredentials,
        "client id",
        Some("s:ecret"),
        &[],
        ClientAuth::Basic,
    );
    assert_eq!(request.header_value("Authorization"), Some(BASIC_CLIENT));
    assert_eq!(raw(&request), "grant_type=client_credentials");
}

#[test]
fn only_the_sign_ins_in_a_window_need_a_client_id() {
    assert!(!needs_client_id(FlowKind::Password));
    assert!(!needs_client_id(FlowKind::ClientCredentials));
    assert!(needs_client_id(FlowKind::AuthorizationCode));
    assert!(needs_client_id(FlowKind::Implicit));
}

#[test]
fn token_request_refresh() {
    let grant = Grant::RefreshToken { refresh_token: "rt".into() };
    let scopes = vec!["read:pets".to_owned()];
    let request = token_request("/t", &grant, "client id", Some("s:ecret"), &scopes, ClientAuth::Basic);
    assert_eq!(request.header_value("Authorization"), Some(BASIC_CLIENT));
    assert_eq!(
        body(&request),
        pairs(&[("grant_type", "refresh_token"), ("refresh_token", "rt"), ("scope", "read:pets")])
    );
    let request = token_request("/t", &grant, "client id", Some(""), &[], ClientAuth::Basic);
    assert_eq!(request.header_value("Authorization"), None);
    assert_eq!(
        body(&request),
        pairs(&[("grant_type", "refresh_token"), ("refresh_token", "rt"), ("client_id", "client id")])
    );
}

#[test]
fn token_response_success() {
    let body = br#"{"access_token":"at","token_type":"Bearer","expires_in":3600,"refresh_token":"rt","scope":"read:pets  write:pets"}"#;
    assert_eq!(
        read_token_response(200, body, 1_000.0).unwrap(),
        Credential::Token {
            value: "at".into(),
            expires_at_ms: Some(3_601_000.0),
            refresh_token: Some("rt".into()),
            scopes: vec!["read:pets".into(), "write:pets".into()],
        }
    );
    assert_eq!(
        read_token_response(200, br#"{"access_token":"at","token_type":"bearer","expires_in":"60"}"#, 0.0)
            .unwrap(),
        Credential::Token {
            value: "at".into(),
            expires_at_ms: Some(60_000.0),
            refresh_token: None,
            scopes: vec![]
        }
    );
}

#[test]
fn token_response_errors() {
    assert_eq!(
        read_token_response(
            400,
            br#"{"error":"invalid_grant","error_description":"PKCE verification failed"}"#,
            0.0
        ),
        Err("The authorization server refused: invalid_grant (PKCE verification failed).".into())
    );
    assert_eq!(
        read_token_response(401, br#"{"error":"invalid_client","error_uri":"https://auth/help"}"#, 0.0),
        Err("The authorization server refused: invalid_client; see https://auth/help.".into())
    );
    assert_eq!(
            read_token_response(200, b"<html>Sign in</html>", 0.0),
            Err("The token endpoint answered HTTP 200 with a body that is not a JSON object: <html>Sign in</html>.".into())
        );
    assert_eq!(
        read_token_response(500, b"Internal Server Error", 0.0),
        Err(
            "The authorization server failed (HTTP 500) and answered with a body that is not a JSON object: \
                 Internal Server Error."
                .into()
        )
    );
    assert_eq!(
        read_token_response(503, b"", 0.0),
        Err("The authorization server failed (HTTP 503) and answered with an empty body.".into())
    );
    assert_eq!(
        read_token_response(502, br#"{"message":"down"}"#, 0.0),
        Err("The authorization server failed (HTTP 502) and issued no token.".into())
    );
    assert_eq!(
        read_token_response(200, br#"{"access_token":"at","token_type":"mac"}"#, 0.0),
        Err("The authorization server issued a mac token; this console can only send bearer tokens.".into())
    );
    assert_eq!(
        read_token_response(200, br#"{"token_type":"bearer"}"#, 0.0),
        Err("The token endpoint answered HTTP 200 without an access_token.".into())
    );
    let huge = vec![b' '; MAX_TOKEN_RESPONSE + 1];
    assert!(read_token_response(200, &huge, 0.0).unwrap_err().contains("more than the 1 MB"));
}

#[test]
fn callback_with_code() {
    assert_eq!(
        read_callback("?code=Spl%2Bx&state=xyz", "", 0.0),
        Ok(Callback::Code { code: "Spl+x".into(), state: "xyz".into() })
    );
    assert_eq!(
        read_callback("code=abc", "", 0.0),
        Err("The sign-in answer has no state, so it cannot be matched to a sign-in this page started.".into())
    );
}

#[test]
fn callback_with_token() {
    assert_eq!(
        read_callback("", "#access_token=2YotnF&token_type=example&state=xyz", 0.0),
        Err("The authorization server issued a example token; this console can only send bearer tokens."
            .into())
    );
    assert_eq!(
        read_callback(
            "",
            "#access_token=2YotnF&token_type=Bearer&expires_in=3600&scope=a+b&state=xyz",
            500.0
        ),
        Ok(Callback::Token {
            credential: Credential::Token {
                value: "2YotnF".into(),
                expires_at_ms: Some(3_600_500.0),
                refresh_token: None,
                scopes: vec!["a".into(), "b".into()],
            },
            state: "xyz".into()
        })
    );
}

#[test]
fn callback_with_error() {
    assert_eq!(
        read_callback("?error=access_denied&error_description=The+user+said+no&state=xyz", "", 0.0),
        Ok(Callback::Error {
            message: "The authorization server refused: access_denied (The user said no).".into(),
            state: Some("xyz".into())
        })
    );
    assert_eq!(
        read_callback("", "error=unsupported_response_type", 0.0),
        Ok(Callback::Error {
            message: "The authorization server refused: unsupported_response_type.".into(),
            state: None
        })
    );
    assert_eq!(
        read_callback("?foo=bar", "", 0.0),
        Err("The redirect carries no authorization code, access token or error.".into())
    );
    assert!(read_callback(&"a".repeat(MAX_CALLBACK + 1), "", 0.0).is_err());
}
