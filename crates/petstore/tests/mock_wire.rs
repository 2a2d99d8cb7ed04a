//! The serde forms of what crosses between the mock module and a page (`handle()`'s request
//! and answer, `counts()`, `notices()`), checked through JSON: the shapes the module's
//! TypeScript declarations and the README document.
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test, with its location

use petstore::{Counts, Mock};
use playground_http::{Request, Response};
use playground_mock::{MockNotice, NoticeKind};
use serde_json::json;

#[test]
fn counts_are_camel_case() {
    let counts = Counts { pets: 1, categories: 2, orders: 3, open_orders: 4, stock: 5 };
    let wire = json!({"pets": 1, "categories": 2, "orders": 3, "openOrders": 4, "stock": 5});
    assert_eq!(serde_json::to_value(counts).unwrap(), wire);
    assert_eq!(serde_json::from_value::<Counts>(wire).unwrap(), counts);
    let seeded = Mock::seeded().counts();
    assert_eq!(serde_json::from_value::<Counts>(serde_json::to_value(seeded).unwrap()).unwrap(), seeded);
}

#[test]
fn notice_kinds_are_kebab_case_and_name_themselves_the_same_way() {
    for (kind, name, problem) in [
        (NoticeKind::StartedFresh, "started-fresh", false),
        (NoticeKind::StorageUnavailable, "storage-unavailable", true),
        (NoticeKind::NotSaved, "not-saved", true),
        (NoticeKind::Overwritten, "overwritten", false),
    ] {
        assert_eq!(kind.as_str(), name);
        assert_eq!(serde_json::to_value(kind).unwrap(), json!(name));
        assert_eq!(kind.is_problem(), problem, "{name}");
        let notice = MockNotice { kind, message: "Said.".into() };
        let wire = json!({"kind": name, "message": "Said."});
        assert_eq!(serde_json::to_value(&notice).unwrap(), wire);
        assert_eq!(serde_json::from_value::<MockNotice>(wire).unwrap(), notice);
    }
    assert!(serde_json::from_value::<NoticeKind>(json!("StartedFresh")).is_err());
}

#[test]
fn a_request_is_method_url_headers_and_a_text_body() {
    let request = Request::new("POST", "/pets").json(&json!({"name": "Rex"}));
    let wire = json!({
        "method": "POST",
        "url": "/pets",
        "headers": [["Content-Type", "application/json"]],
        "body": r#"{"name":"Rex"}"#,
    });
    assert_eq!(serde_json::to_value(&request).unwrap(), wire);
    assert_eq!(serde_json::from_value::<Request>(wire).unwrap(), request);
}

#[test]
fn a_request_reads_what_handle_accepts() {
    // Only a url: GET, no headers, no body; a null method or body is the same.
    let bare = Request::new("GET", "/pets");
    assert_eq!(serde_json::from_value::<Request>(json!({"url": "/pets"})).unwrap(), bare);
    let nulls = json!({"method": null, "url": "/pets", "headers": null, "body": null});
    assert_eq!(serde_json::from_value::<Request>(nulls).unwrap(), bare);
    // Headers as an object, in its order.
    let object = json!({"url": "/pets", "headers": {"X-One": "1", "Accept": "application/json"}});
    assert_eq!(
        serde_json::from_value::<Request>(object).unwrap().headers,
        vec![("X-One".to_owned(), "1".to_owned()), ("Accept".to_owned(), "application/json".to_owned())]
    );
    // No url reads as an empty one: the caller says what is missing.
    assert_eq!(serde_json::from_value::<Request>(json!({})).unwrap().target, "");
}

#[test]
fn malformed_headers_are_refused_with_the_shape_they_need() {
    for (headers, says) in [
        (json!(["x"]), "each header is a [name, value] pair of strings"),
        (json!([["X-One", 1]]), "each header is a [name, value] pair of strings"),
        (json!({"X-One": 1}), "header values are strings"),
    ] {
        let error =
            serde_json::from_value::<Request>(json!({"url": "/pets", "headers": headers})).unwrap_err();
        assert!(error.to_string().contains(says), "{error}");
    }
}

#[test]
fn an_answer_is_status_header_pairs_and_a_text_body() {
    let answer = Mock::seeded().handle(&Request::new("GET", "/pets/1"));
    let wire = serde_json::to_value(&answer).unwrap();
    assert_eq!(wire["status"], 200);
    assert!(wire["headers"].as_array().unwrap().iter().any(|pair| pair[0] == "Content-Type"));
    let body: serde_json::Value = serde_json::from_str(wire["body"].as_str().unwrap()).unwrap();
    assert_eq!(body["id"], 1);
    assert_eq!(serde_json::from_value::<Response>(wire).unwrap(), answer);
}
