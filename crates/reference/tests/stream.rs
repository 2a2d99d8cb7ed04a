//! Reading a document as it downloads (`playground_openapi::document::DocumentStream`): however its
//! chunks fall, it ends with what reading the whole text gives (the same list, views and
//! errors, lines and columns counted in the text as it came), and it gives the list as soon as
//! the fields the list needs have arrived.
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test, with its location

use petstore::document::PETSTORE_JSON;
use playground_openapi::document::{self, AnyDocument, DocumentError, DocumentStream, Read, Streamed};
use playground_reference::DocumentViews;
use serde_json::{Value, json};

#[cfg(not(target_arch = "wasm32"))]
mod common;

/// What streaming `bytes` in chunks of `sizes` (cycled) gave: the list, with the number of
/// bytes pushed when it came, and the end.
fn stream(
    bytes: &[u8],
    sizes: &[usize],
) -> (Option<(document::Listing, usize)>, Result<Streamed, DocumentError>) {
    let mut stream = DocumentStream::new(bytes.len());
    let mut listing = None;
    let mut at = 0;
    for size in sizes.iter().cycle() {
        if at >= bytes.len() {
            break;
        }
        let end = (at + size.max(&1)).min(bytes.len());
        if let Some(list) = stream.push(&bytes[at..end]).unwrap() {
            assert!(listing.is_none(), "the list is given once");
            listing = Some((list, end));
        }
        at = end;
    }
    (listing, stream.finish())
}

/// The end of a stream as [`document::read`] gives it.
fn read_of(streamed: Result<Streamed, DocumentError>) -> Result<Read, DocumentError> {
    match streamed? {
        Streamed::Json(read) => Ok(read),
        Streamed::Yaml(_) => panic!("read as YAML"),
    }
}

/// What reading the whole text as one value gives (the oracle): the value and its list,
/// `None` for a Swagger 2.0 document, or the error.
fn whole(text: &[u8]) -> Result<Option<(Value, playground_openapi::Catalog)>, DocumentError> {
    let value = document::parse_json(text)?;
    match document::validate(&value) {
        Ok(catalog) => Ok(Some((value, catalog))),
        Err(DocumentError::Swagger(version)) if version == "2.0" => Ok(None),
        Err(e) => Err(e),
    }
}

/// The root fields an indexed document keeps (not the large ones).
fn small_root(value: &Value) -> serde_json::Map<String, Value> {
    let mut root = value.as_object().cloned().unwrap_or_default();
    for large in ["paths", "components", "webhooks", "x-webhooks"] {
        root.remove(large);
    }
    root
}

/// Streamed, or parsed whole as one value, the same document: list, root fields, schema names
/// and every view; or the same error.
fn assert_same(text: &[u8], sizes: &[usize]) {
    let (listing, streamed) = stream(text, sizes);
    match (read_of(streamed), whole(text)) {
        (Ok(Read::OpenApi(got, catalog)), Ok(Some((value, expected_catalog)))) => {
            assert_eq!(catalog, expected_catalog);
            assert!(got.is_complete());
            let whole = AnyDocument::whole(value.clone());
            if matches!(got, AnyDocument::Indexed(_)) {
                assert_eq!(got.root(), Some(&small_root(&value)));
            }
            assert_eq!(got.schema_names(), whole.schema_names());
            for op in catalog.operations() {
                assert_eq!(got.view_of(op), whole.view_of(op), "{} {}", op.method.as_str(), op.path);
            }
            if let Some((listing, _)) = listing {
                // The early list is the whole one, but for webhooks after `paths`.
                let early: Vec<_> = listing.catalog.operations().filter(|o| !o.webhook).collect();
                let whole: Vec<_> = catalog.operations().filter(|o| !o.webhook).collect();
                assert_eq!(early, whole);
                assert_eq!(listing.catalog.title, catalog.title);
            }
        }
        (Ok(Read::Swagger2(got)), Ok(None)) => {
            assert_eq!(
                serde_json::from_str::<Value>(&got).unwrap(),
                serde_json::from_slice::<Value>(text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(text)).unwrap()
            );
            assert!(listing.is_none());
        }
        // A list may have come: the problem is in a part read after it (the page then says
        // what it is).
        (Err(got), Err(expected)) => assert_eq!(got, expected),
        (got, expected) => panic!("streamed: {got:?}\nwhole: {expected:?}"),
    }
}

fn petstore_pretty() -> String {
    serde_json::to_string_pretty(&serde_json::from_str::<Value>(PETSTORE_JSON).unwrap()).unwrap()
}

#[test]
fn the_petstore_in_any_chunks_is_the_petstore() {
    let text = petstore_pretty();
    for sizes in [&[1][..], &[7, 13, 2], &[64], &[4096], &[text.len()]] {
        assert_same(text.as_bytes(), sizes);
    }
    // Characters of two to four bytes, split between chunks.
    let wide = text.replace("Petstore", "Pétstore λ 🐾");
    assert_ne!(wide, text);
    for sizes in [&[1][..], &[2, 3], &[5]] {
        assert_same(wide.as_bytes(), sizes);
    }
    // Tabs, carriage returns and a byte order mark split over chunks.
    let tabs = format!("\u{feff}{}", text.replace("  ", "\t").replace('\n', "\r\n"));
    for sizes in [&[1][..], &[2, 5], &[1000]] {
        assert_same(tabs.as_bytes(), sizes);
    }
}

#[test]
fn the_list_comes_once_paths_and_the_fields_it_needs_are_in() {
    let text = petstore_pretty();
    let (listing, streamed) = stream(text.as_bytes(), &[512]);
    let (listing, at) = listing.expect("listed before the end");
    let components = text.find("\n  \"components\"").unwrap();
    assert!(at < components + 2048, "listed at byte {at}, components start at {components}");
    assert!(at < text.len());
    let Ok(Streamed::Json(Read::OpenApi(_, catalog))) = streamed else { panic!("read") };
    assert_eq!(listing.catalog, catalog);
    assert_eq!(listing.root.get("info"), serde_json::from_str::<Value>(PETSTORE_JSON).unwrap().get("info"));
}

#[test]
fn components_before_paths_are_indexed_as_they_arrive() {
    let doc: Value = serde_json::from_str(PETSTORE_JSON).unwrap();
    let mut reordered = serde_json::Map::new();
    reordered.insert("components".into(), doc["components"].clone());
    for (key, value) in doc.as_object().unwrap() {
        reordered.entry(key.clone()).or_insert_with(|| value.clone());
    }
    // Something after `paths`, so the list can come before the end.
    reordered.insert("x-after".into(), Value::String("x".repeat(5000)));
    let text = serde_json::to_string_pretty(&reordered).unwrap();
    let (listing, streamed) = stream(text.as_bytes(), &[300]);
    assert!(listing.is_some(), "listed once `paths` is in");
    assert!(matches!(streamed, Ok(Streamed::Json(Read::OpenApi(..)))));
    assert_same(text.as_bytes(), &[3, 300]);
}

#[test]
fn numbers_cut_between_chunks_are_waited_for() {
    let text = r#"{"openapi": "3.0.3", "x-n": [1.5e-3, -2.25E+7, 0.5], "info": {"title": "T", "version": "1"}, "tags": [],
        "paths": {"/a": {"get": {"responses": {"200": {"description": "ok"}}}}}, "servers": [{"url": "https://example.com"}]}"#;
    let (listing, streamed) = stream(text.as_bytes(), &[1]);
    assert!(listing.is_some_and(|(_, at)| at < text.len()), "listed before the end");
    assert!(matches!(streamed, Ok(Streamed::Json(Read::OpenApi(..)))));
    assert_same(text.as_bytes(), &[1]);
}

#[test]
fn no_list_before_the_end_without_the_fields_it_needs() {
    // No `tags` at the root: the list waits for the whole root, which could still have them.
    let text =
        serde_json::to_string_pretty(&json!({"openapi": "3.0.3", "info": {"title": "T", "version": "1"},
        "paths": {"/a": {"get": {"responses": {"200": {"description": "ok"}}}}},
        "components": {"schemas": {"A": {"type": "string"}}}}))
        .unwrap();
    let (listing, streamed) = stream(text.as_bytes(), &[16]);
    let (_, at) = listing.unwrap();
    assert!(at + 16 >= text.trim_end().len(), "listed at {at} of {}", text.len());
    assert!(matches!(streamed, Ok(Streamed::Json(Read::OpenApi(..)))));
    // Swagger 2.0 is never listed early: it is converted first.
    let swagger = serde_json::to_string_pretty(
        &json!({"swagger": "2.0", "info": {"title": "T", "version": "1"}, "paths": {}, "definitions": {}}),
    )
    .unwrap();
    let (listing, streamed) = stream(swagger.as_bytes(), &[8]);
    assert!(listing.is_none());
    assert!(matches!(streamed, Ok(Streamed::Json(Read::Swagger2(_)))));
}

#[test]
fn errors_name_the_line_and_column_of_the_text_as_it_came() {
    let text = petstore_pretty();
    // A missing comma deep in the components, on an indented line.
    let at = text.rfind("\"format\": \"int64\"").unwrap();
    let broken = format!("{}\"oops\": 1 {}", &text[..at], &text[at..]);
    let expected = whole(broken.as_bytes()).unwrap_err();
    let DocumentError::Json { column, .. } = &expected else { panic!("{expected}") };
    assert!(*column > 10, "an indented line: {expected}");
    for sizes in [&[1][..], &[100], &[broken.len()]] {
        let (listing, streamed) = stream(broken.as_bytes(), sizes);
        assert_eq!(streamed.unwrap_err(), expected);
        // The list came before the error was reached; the page then says what is wrong.
        assert!(listing.is_some() || sizes[0] == broken.len());
    }
    // Cut short: the end of the text, where it stopped.
    let cut = &text[..text.len() / 2];
    assert_same(cut.as_bytes(), &[50]);
    assert_same(format!("{cut}\n      ").as_bytes(), &[50]);
    // Not UTF-8 inside a value.
    let mut bad = text.clone().into_bytes();
    let at = text.find("Petstore").unwrap();
    bad[at] = 0xFF;
    assert_same(&bad, &[33]);
    // Deeply indented lines (over 255 columns).
    let deep = text.replace("\n  ", &format!("\n{}", " ".repeat(300)));
    let at = deep.rfind("\"type\"").unwrap();
    let broken = format!("{}?{}", &deep[..at], &deep[at..]);
    assert_same(broken.as_bytes(), &[1000]);
    let DocumentError::Json { column, .. } = whole(broken.as_bytes()).unwrap_err() else {
        panic!("a syntax error")
    };
    assert!(column > 300);
}

#[test]
fn yaml_and_empty_texts() {
    let yaml = "  # a comment\n  openapi: 3.0.3\n  info:\n    title: T\n";
    let (listing, streamed) = stream(yaml.as_bytes(), &[3]);
    assert!(listing.is_none());
    let Ok(Streamed::Yaml(bytes)) = streamed else { panic!("YAML") };
    assert_eq!(bytes, yaml.as_bytes(), "YAML is kept as it came, indentation and all");
    for empty in ["", "  \n\t ", "\u{feff}"] {
        assert_eq!(stream(empty.as_bytes(), &[1]).1.unwrap_err(), DocumentError::Empty);
    }
    assert_same(b"[1, 2]", &[1]);
    assert_same(b"{\"openapi\": \"3.0.3\"}", &[4]);
    assert_same(b"{\"openapi\": \"3.0.3\",}", &[4]);
    assert_same(b"{\"a\": 1 \"b\": 2}", &[4]);
    assert_same(b"{\"a\": 1} x", &[4]);
    // Text after the root object, and a root field after `paths` that undoes the list.
    let list_first = r#"{"openapi":"3.0.3","info":{"title":"T","version":"1"},"tags":[],"paths":{"/a":{"get":{}}},"servers":[]"#;
    assert_same(format!("{list_first}}} x").as_bytes(), &[5]);
    assert_same(format!(r#"{list_first},"openapi":"4.0.0"}}"#).as_bytes(), &[5]);
    assert_same(b"{\"paths\": [], \"openapi\": \"3.0.3\"}", &[4]);
    assert_same(
        br#"{"openapi": "3.0.3", "info": {"title": "T", "version": "1"}, "paths": {}, "x-webhooks": 1}"#,
        &[4],
    );
    assert_same(br#"{"openapi": "3.1.0", "info": {"title": "T", "version": "1"}, "webhooks": []}"#, &[4]);
}

#[test]
fn a_document_over_the_limit_is_refused() {
    let mut stream = DocumentStream::new(0);
    let chunk = vec![b' '; 1 << 20];
    let mut refused = None;
    for _ in 0..=(document::MAX_DOCUMENT_BYTES >> 20) {
        if let Err(e) = stream.push(&chunk) {
            refused = Some(e);
            break;
        }
    }
    let refused = refused.expect("refused");
    assert_eq!(refused, DocumentError::TooLarge { limit: document::MAX_DOCUMENT_BYTES });
    assert!(refused.to_string().contains("256 MB"), "{refused}");
}

#[test]
fn the_text_kept_is_smaller_than_the_text_received() {
    let text = petstore_pretty();
    let Ok(Streamed::Json(Read::OpenApi(AnyDocument::Indexed(doc), _))) = stream(text.as_bytes(), &[1000]).1
    else {
        panic!("read")
    };
    assert!(doc.text().len() * 10 < text.len() * 8, "{} of {} bytes kept", doc.text().len(), text.len());
    assert_eq!(
        serde_json::from_str::<Value>(doc.text()).unwrap(),
        serde_json::from_str::<Value>(&text).unwrap()
    );
    assert_eq!(doc.text().lines().count(), text.lines().count());
}

#[cfg(not(target_arch = "wasm32"))]
mod properties {
    use super::*;
    use proptest::prelude::*;

    const KEYS: &[&str] = &[
        "openapi",
        "swagger",
        "info",
        "title",
        "version",
        "paths",
        "components",
        "schemas",
        "webhooks",
        "x-webhooks",
        "tags",
        "name",
        "get",
        "post",
        "$ref",
        "responses",
        "200",
        "description",
        "servers",
    ];
    const STRINGS: &[&str] =
        &["3.0.3", "3.1.0", "2.0", "#/components/schemas/A", "#/paths/~1a", "#/components/pathItems/A", "ok"];

    fn texts(value: &Value) -> Vec<String> {
        let compact = value.to_string();
        let pretty = serde_json::to_string_pretty(value).unwrap();
        let tabs = pretty.replace("  ", "\t").replace('\n', "\r\n");
        vec![compact, pretty, tabs]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn arbitrary_documents_stream_as_they_read(
            version in proptest::sample::select(vec!["3.0.3", "3.1.0", "2.0", "4.0"]),
            paths in common::json_value(KEYS, STRINGS),
            components in common::json_value(KEYS, STRINGS),
            webhooks in common::json_value(KEYS, STRINGS),
            sizes in proptest::collection::vec(1..300_usize, 1..6),
            cut in any::<proptest::sample::Index>(),
        ) {
            let doc = json!({"openapi": version, "info": {"title": "T", "version": "1"}, "tags": [],
                "paths": paths, "webhooks": webhooks, "components": components});
            for text in texts(&doc) {
                assert_same(text.as_bytes(), &sizes);
                // Cut anywhere.
                let end = cut.index(text.len() + 1);
                assert_same(&text.as_bytes()[..end], &sizes);
            }
        }

        #[test]
        fn edited_petstores_stream_as_they_read(
            edits in proptest::collection::vec((any::<proptest::sample::Index>(), common::json_value(KEYS, STRINGS), any::<bool>()), 1..4),
            sizes in proptest::collection::vec(1..2000_usize, 1..4),
        ) {
            let doc = common::edited(serde_json::from_str(PETSTORE_JSON).unwrap(), edits);
            for text in texts(&doc) {
                assert_same(text.as_bytes(), &sizes);
            }
        }
    }
}
