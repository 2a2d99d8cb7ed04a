//! The Petstore mock's state as records: a change hands over the records it touched and no
//! others, and records that do not make a state are refused with the reason.
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test, with its location

use petstore::Mock;
use playground_http::Request;
use playground_mock::{Changes, SnapshotError};
use serde_json::json;

fn changed_keys(mock: &mut Mock) -> Vec<(String, bool)> {
    match mock.take_changes() {
        Changes::Records(records) => records.into_iter().map(|(key, text)| (key, text.is_some())).collect(),
        Changes::Everything => panic!("the whole state, where records were expected"),
    }
}

#[test]
fn a_change_hands_over_the_records_it_touched_only() {
    let mut mock = Mock::seeded();
    assert_eq!(mock.take_changes(), Changes::Everything, "a new mock is written whole");
    assert!(mock.take_changes().is_empty());
    for i in 0..500 {
        let body = json!({"name": format!("Pet {i}"), "categoryId": 1});
        assert_eq!(mock.handle(&Request::new("POST", "/pets").json(&body)).status, 201);
    }
    mock.take_changes();

    let created =
        mock.handle(&Request::new("POST", "/pets").json(&json!({"name": "Rex II", "categoryId": 2})));
    assert_eq!(created.status, 201);
    let id = created.json().unwrap()["id"].as_i64().unwrap();
    assert_eq!(
        changed_keys(&mut mock),
        [("meta".to_owned(), true), (format!("pet:{id}"), true), (format!("stock:{id}"), true)]
    );

    assert_eq!(mock.handle(&Request::new("GET", "/pets?limit=100")).status, 200);
    assert!(mock.take_changes().is_empty(), "a read changes no record");
    let refused = mock.handle(&Request::new("POST", "/pets").json(&json!({"name": "", "categoryId": 1})));
    assert_eq!(refused.status, 422);
    assert!(mock.take_changes().is_empty(), "a refused request changes no record");

    // An order moves the pet, its stock and the order counter; its cancel removes the order.
    let stock = json!({"quantity": 3});
    assert_eq!(mock.handle(&Request::new("PUT", format!("/store/inventory/{id}")).json(&stock)).status, 200);
    assert_eq!(changed_keys(&mut mock), [(format!("stock:{id}"), true)]);
    let order =
        mock.handle(&Request::new("POST", "/store/orders").json(&json!({"petId": id, "quantity": 2})));
    assert_eq!(order.status, 201);
    let order = order.json().unwrap()["id"].as_i64().unwrap();
    assert_eq!(
        changed_keys(&mut mock),
        [
            ("meta".to_owned(), true),
            (format!("pet:{id}"), true),
            (format!("stock:{id}"), true),
            (format!("order:{order}"), true)
        ]
    );
    assert_eq!(mock.handle(&Request::new("DELETE", format!("/store/orders/{order}"))).status, 204);
    assert_eq!(
        changed_keys(&mut mock),
        [(format!("pet:{id}"), true), (format!("stock:{id}"), true), (format!("order:{order}"), false)]
    );
    assert_eq!(mock.handle(&Request::new("DELETE", format!("/pets/{id}"))).status, 204);
    assert_eq!(changed_keys(&mut mock), [(format!("pet:{id}"), false), (format!("stock:{id}"), false)]);

    mock.reset(true);
    assert_eq!(mock.take_changes(), Changes::Everything);
    mock.restore(&Mock::new().snapshot()).unwrap();
    assert_eq!(mock.take_changes(), Changes::Everything);
}

fn restored(records: &[(&str, &str)]) -> Result<Mock, SnapshotError> {
    let mut mock = Mock::seeded();
    let before = mock.snapshot();
    let result =
        mock.restore_records(records.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect());
    if result.is_err() {
        assert_eq!(mock.snapshot(), before, "a refused set of records left the state alone");
    }
    result.map(|()| mock)
}

#[test]
fn records_that_do_not_make_a_state_are_refused_with_the_reason() {
    let meta = r#"{"version":1,"nextIds":{"category":2,"pet":2,"order":1}}"#;
    let dogs = r#"{"id":1,"name":"Dogs"}"#;
    let rex = r#"{"id":1,"name":"Rex","categoryId":1,"status":"available"}"#;
    let mock = restored(&[("meta", meta), ("category:1", dogs), ("pet:1", rex), ("stock:1", "4")]).unwrap();
    assert_eq!(mock.counts().stock, 4);

    let newer = restored(&[("meta", r#"{"version":7,"nextIds":{"category":1,"pet":1,"order":1}}"#)]);
    assert_eq!(newer.unwrap_err(), SnapshotError::UnsupportedVersion { found: 7, expected: 1 });
    let cases: [(&[(&str, &str)], &str); 5] = [
        (&[("category:1", dogs)], "no meta record"),
        (&[("meta", meta), ("category:2", dogs)], "the record \"category:2\" holds id 1"),
        (&[("meta", meta), ("cat:1", dogs)], "\"cat:1\" is not one of the Petstore's"),
        (&[("meta", meta), ("category:1", "{")], "the record \"category:1\""),
        (&[("meta", meta), ("category:1", dogs), ("pet:1", rex)], "pet 1 has no stock entry"),
    ];
    for (records, reason) in cases {
        let error = restored(records).unwrap_err().to_string();
        assert!(error.contains(reason), "{error:?} does not say {reason:?}");
    }
}
