//! Which credentials count as filled: what a request can send now.
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test, with its location

use std::collections::BTreeMap;

use playground_tryit_core::auth::{Credential, Credentials};

fn token(value: &str, expires_at_ms: Option<f64>) -> Credential {
    Credential::Token { value: value.to_owned(), expires_at_ms, refresh_token: None, scopes: Vec::new() }
}

#[test]
fn a_credential_is_usable_when_it_has_text_and_has_not_expired() {
    let credentials = Credentials(BTreeMap::from([
        ("key".to_owned(), Credential::ApiKey("k-1".to_owned())),
        ("emptyKey".to_owned(), Credential::ApiKey(String::new())),
        ("basic".to_owned(), Credential::Basic { user: "ann".to_owned(), password: String::new() }),
        ("emptyBasic".to_owned(), Credential::Basic { user: String::new(), password: String::new() }),
        ("bearer".to_owned(), token("t", None)),
        ("emptyBearer".to_owned(), token("", None)),
        ("fresh".to_owned(), token("t", Some(2_000.0))),
        ("expired".to_owned(), token("t", Some(1_000.0))),
    ]));
    assert_eq!(credentials.usable(1_000.0), ["basic", "bearer", "fresh", "key"]);
    assert_eq!(credentials.usable(5_000.0), ["basic", "bearer", "key"]);
    assert!(Credentials::default().usable(0.0).is_empty());
}
