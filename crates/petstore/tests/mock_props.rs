//! Property tests: any sequence of requests (valid, invalid or garbage) never panics, always
//! answers with a well-formed response, and keeps the store's invariants.
#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test, with its location

use std::collections::BTreeMap;

use petstore::Mock;
use playground_http::Request;
use playground_mock::Changes;
use proptest::prelude::*;
use serde_json::{Value, json};

fn id() -> impl Strategy<Value = String> {
    prop_oneof![
        8 => (1i64..8).prop_map(|i| i.to_string()),
        1 => Just("0".to_owned()),
        1 => Just("-3".to_owned()),
        1 => Just("9223372036854775808".to_owned()),
        1 => "[a-z%]{0,4}",
    ]
}

fn status() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!("available")),
        Just(json!("pending")),
        Just(json!("sold")),
        Just(json!("lost")),
        Just(json!(3))
    ]
}

fn small_int() -> impl Strategy<Value = Value> {
    prop_oneof![
        6 => (-2i64..12).prop_map(Value::from),
        1 => Just(json!(1_000_001)),
        1 => Just(json!(2.5)),
        1 => Just(json!("1")),
    ]
}

fn body() -> impl Strategy<Value = Option<Vec<u8>>> {
    let name = prop_oneof![
        Just(json!("Rex")),
        Just(json!("  ")),
        Just(json!("")),
        "[a-zA-Z ]{0,8}".prop_map(Value::from),
        Just(json!(null))
    ];
    let object = (
        proptest::option::of(name),
        proptest::option::of(small_int()),
        proptest::option::of(status()),
        proptest::option::of(small_int()),
        proptest::option::of(any::<bool>()),
        proptest::option::of(Just(json!("extra"))),
    )
        .prop_map(|(name, cat, st, qty, complete, extra)| {
            let mut o = serde_json::Map::new();
            let mut put = |k: &str, v: Option<Value>| {
                if let Some(v) = v {
                    o.insert(k.to_owned(), v);
                }
            };
            put("name", name);
            put("categoryId", cat.clone());
            put("petId", cat);
            put("status", st);
            put("quantity", qty);
            put("complete", complete.map(Value::from));
            put("colour", extra);
            Some(Value::Object(o).to_string().into_bytes())
        });
    prop_oneof![
        6 => object,
        1 => Just(None),
        1 => proptest::collection::vec(any::<u8>(), 0..40).prop_map(Some),
    ]
}

fn request() -> impl Strategy<Value = Request> {
    let method =
        prop_oneof![Just("GET"), Just("POST"), Just("PUT"), Just("DELETE"), Just("PATCH"), Just("get")];
    let path = prop_oneof![
        Just("/pets".to_owned()),
        id().prop_map(|i| format!("/pets/{i}")),
        Just("/categories".to_owned()),
        id().prop_map(|i| format!("/categories/{i}")),
        Just("/store/orders".to_owned()),
        id().prop_map(|i| format!("/store/orders/{i}")),
        id().prop_map(|i| format!("/store/orders/{i}/complete")),
        Just("/store/inventory".to_owned()),
        id().prop_map(|i| format!("/store/inventory/{i}")),
        Just("/pets?status=sold&status=available&limit=3&offset=1".to_owned()),
        Just("/pets?limit=&offset=x".to_owned()),
        "/[a-z/]{0,12}",
    ];
    let content_type =
        prop_oneof![4 => Just(Some("application/json")), 1 => Just(None), 1 => Just(Some("text/plain"))];
    (method, path, body(), content_type).prop_map(|(m, p, b, ct)| {
        let mut r = Request::new(m, p);
        if let Some(b) = b {
            if let Some(ct) = ct {
                r = r.header("Content-Type", ct);
            }
            r = r.body(b);
        }
        r
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn any_request_sequence_keeps_the_invariants(seeded in any::<bool>(), requests in proptest::collection::vec(request(), 1..40)) {
        let mut mock = if seeded { Mock::seeded() } else { Mock::new() };
        for request in &requests {
            let before = mock.snapshot();
            let response = mock.handle(request);
            prop_assert!(matches!(response.status, 200 | 201 | 204 | 400 | 404 | 405 | 409 | 413 | 415 | 422), "{request:?} -> {}", response.status);
            if response.status >= 400 {
                let error = response.json().unwrap();
                prop_assert_eq!(&error["status"], &json!(response.status));
                prop_assert_eq!(mock.snapshot(), before, "a refused request changed the state: {:?}", request);
            } else if response.status != 204 {
                prop_assert!(response.json().is_some(), "{:?}: success without a JSON body", request);
            }
            if let Err(broken) = mock.check_invariants() {
                prop_assert!(false, "after {:?}: {}", request, broken);
            }
        }
        // Whatever state was reached survives a snapshot round trip.
        let restored = Mock::from_snapshot(&mock.snapshot()).unwrap();
        prop_assert_eq!(restored.snapshot(), mock.snapshot());
    }

    /// A storage that writes only what `take_changes` hands it holds, after any sequence, the
    /// records of the whole state; and a mock read back from them is the same mock.
    #[test]
    fn the_changed_records_keep_a_storage_equal_to_the_state(seeded in any::<bool>(), requests in proptest::collection::vec(request(), 1..40)) {
        let mut mock = if seeded { Mock::seeded() } else { Mock::new() };
        let mut storage: BTreeMap<String, String> = BTreeMap::new();
        for request in &requests {
            mock.handle(request);
            match mock.take_changes() {
                Changes::Everything => storage = mock.records().into_iter().collect(),
                Changes::Records(changes) => {
                    for (key, value) in changes {
                        match value {
                            Some(text) => storage.insert(key, text),
                            None => storage.remove(&key),
                        };
                    }
                }
            }
            prop_assert_eq!(&storage, &mock.records().into_iter().collect::<BTreeMap<_, _>>(), "after {:?}", request);
        }
        let mut read = Mock::new();
        read.restore_records(storage.into_iter().collect()).unwrap();
        prop_assert_eq!(read.snapshot(), mock.snapshot());
        prop_assert_eq!(read.take_changes(), Changes::Records(Vec::new()), "records read back are not changes");
    }
}
