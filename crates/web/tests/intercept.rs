//! Which URLs an installed interceptor answers and what path the mock sees.
#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test, with its location

use playground_web::intercept::{Prefix, is_null_body_status, reason_phrase};

const ORIGIN: &str = "http://127.0.0.1:8080";

#[test]
fn a_path_prefix_takes_its_own_subtree_on_the_page_origin_only() {
    let api = Prefix::new("/api").unwrap();
    let cases = [
        ("http://127.0.0.1:8080/api/pets", Some("/pets")),
        ("http://127.0.0.1:8080/api/pets?status=sold&limit=2", Some("/pets?status=sold&limit=2")),
        ("http://127.0.0.1:8080/api", Some("/")),
        ("http://127.0.0.1:8080/api?x=1", Some("/?x=1")),
        ("http://127.0.0.1:8080/api/pets#top", Some("/pets")),
        ("http://127.0.0.1:8080/apiary", None),
        ("http://127.0.0.1:8080/pets", None),
        ("http://127.0.0.1:8080/v1/api/pets", None),
        ("http://127.0.0.1:9999/api/pets", None),
        ("https://example.com/api/pets", None),
    ];
    for (url, expected) in cases {
        assert_eq!(api.target(url, ORIGIN).as_deref(), expected, "{url}");
    }
    assert_eq!(Prefix::new("/api/").unwrap(), api, "a trailing slash is ignored");
}

#[test]
fn the_root_prefix_takes_every_path_of_the_page_origin() {
    let root = Prefix::new("/").unwrap();
    assert_eq!(root.target("http://127.0.0.1:8080/pets/1", ORIGIN).as_deref(), Some("/pets/1"));
    assert_eq!(root.target("https://example.com/pets", ORIGIN), None);
}

#[test]
fn an_absolute_prefix_takes_that_host_and_path() {
    let remote = Prefix::new("https://api.example.com/v1").unwrap();
    assert_eq!(remote.target("https://api.example.com/v1/pets", ORIGIN).as_deref(), Some("/pets"));
    assert_eq!(remote.target("https://api.example.com/v2/pets", ORIGIN), None);
    assert_eq!(remote.target("https://api.example.com.evil/v1/pets", ORIGIN), None);
    assert_eq!(remote.target("http://127.0.0.1:8080/v1/pets", ORIGIN), None);
}

#[test]
fn unusable_prefixes_are_refused_with_a_sentence() {
    for prefix in ["", "   ", "api", "//cdn.example.com", "ftp://example.com", "./api"] {
        let error = Prefix::new(prefix).unwrap_err().to_string();
        assert!(error.contains("give a path starting with"), "{prefix:?}: {error}");
    }
}

#[test]
fn statuses_have_reason_phrases_and_null_body_statuses_are_known() {
    assert_eq!(reason_phrase(201), "Created");
    assert_eq!(reason_phrase(422), "Unprocessable Content");
    assert_eq!(reason_phrase(299), "");
    assert!(is_null_body_status(204));
    assert!(!is_null_body_status(200));
}
