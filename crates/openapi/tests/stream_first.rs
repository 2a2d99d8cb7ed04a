//! A document's first rows listed while its `paths` still arrives
//! (`DocumentStream::list_first`): given only when they are final, that is when the whole
//! document's list starts with the very same rows, however the tags are declared, grouped or
//! used; then the whole list of `paths` follows.
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test, with its location

use playground_openapi::Catalog;
use playground_openapi::document::{self, DocumentStream, Listing};
use playground_openapi::outline::{self, Row};
use serde_json::{Value, json};

/// The listings `bytes` gave, streamed in chunks of `size` with a first list of `rows` rows
/// asked for: each with the number of bytes pushed when it came.
fn listings(bytes: &[u8], size: usize, rows: usize) -> Vec<(Listing, usize)> {
    let mut stream = DocumentStream::new(bytes.len()).list_first(rows);
    let mut given = Vec::new();
    for (i, chunk) in bytes.chunks(size.max(1)).enumerate() {
        if let Some(listing) = stream.push(chunk).unwrap() {
            given.push((listing, ((i + 1) * size).min(bytes.len())));
        }
    }
    stream.finish().unwrap();
    given
}

/// The whole document's list.
fn whole(bytes: &[u8]) -> Catalog {
    document::validate(&document::parse_json(bytes).unwrap()).unwrap()
}

/// A path item with a GET tagged `tags` (`None`: no `tags` field).
fn item(id: &str, tags: Option<&[&str]>) -> Value {
    let mut op = json!({"operationId": id, "summary": format!("Op {id}"), "responses": {"200": {"description": "ok"}}});
    if let Some(tags) = tags {
        op["tags"] = json!(tags);
    }
    json!({"get": op})
}

/// A document: `tags` declared, then `paths` (in this order), then large components.
fn doc(tags: Value, paths: Vec<(String, Value)>) -> Vec<u8> {
    let paths: serde_json::Map<String, Value> = paths.into_iter().collect();
    let filler: serde_json::Map<String, Value> = (0..50)
        .map(|i| (format!("S{i}"), json!({"type": "string", "description": "x".repeat(200)})))
        .collect();
    serde_json::to_vec_pretty(&json!({
        "openapi": "3.0.3",
        "info": {"title": "First rows", "version": "1"},
        "tags": tags,
        "paths": paths,
        "components": {"schemas": filler},
    }))
    .unwrap()
}

#[test]
fn the_first_tags_rows_come_before_the_rest_of_paths_then_the_whole_list() {
    // 60 operations of `a` spread among 240 of `b`: `a` (declared first) is the first tag.
    let paths: Vec<(String, Value)> = (0..300)
        .map(|i| (format!("/p{i}"), item(&format!("op{i}"), Some(if i % 5 == 0 { &["a"] } else { &["b"] }))))
        .collect();
    let bytes = doc(json!([{"name": "a"}, {"name": "b"}]), paths);
    let catalog = whole(&bytes);
    let given = listings(&bytes, 2048, 20);
    assert_eq!(given.len(), 2, "the first rows, then the whole of paths");
    let ((first, first_at), (all, all_at)) = (&given[0], &given[1]);
    assert!(first.catalog.partial);
    assert!(!all.catalog.partial);
    assert_eq!(all.catalog, catalog);
    let paths_end = String::from_utf8_lossy(&bytes).find("\"components\"").unwrap();
    assert!(*first_at < paths_end / 2, "first rows at byte {first_at} of {paths_end}");
    assert!(*all_at > *first_at);
    let (rows, expected) = (outline::rows(&first.catalog.groups), outline::rows(&catalog.groups));
    assert!(rows.len() >= 20);
    assert_eq!(rows[..20], expected[..20]);
    assert_eq!(first.root.get("info"), Some(&json!({"title": "First rows", "version": "1"})));
}

#[test]
fn no_first_rows_while_a_tag_declared_before_could_still_come() {
    // The first tag declared (`a`) has its operations last: until they are in, any rows of
    // `b` could be pushed down by them.
    let mut paths: Vec<(String, Value)> =
        (0..200).map(|i| (format!("/b{i}"), item(&format!("b{i}"), Some(&["b"])))).collect();
    paths.extend((0..30).map(|i| (format!("/a{i}"), item(&format!("a{i}"), Some(&["a"])))));
    let bytes = doc(json!([{"name": "a"}, {"name": "b"}]), paths);
    let given = listings(&bytes, 1024, 20);
    let first = &given[0].0;
    let rows = outline::rows(&first.catalog.groups);
    assert_eq!(rows.first(), Some(&Row::Group { name: "a".into(), tag: Some("a".into()) }));
    assert_eq!(rows[..20], outline::rows(&whole(&bytes).groups)[..20]);
}

#[test]
fn a_child_tag_still_to_come_keeps_its_parents_rows_from_being_final() {
    // `a` stands alone until an operation of its child `c` (x-parent) comes: then `a` gets a
    // heading row of its own under its group's, which moves every row after it.
    let mut paths: Vec<(String, Value)> =
        (0..100).map(|i| (format!("/a{i}"), item(&format!("a{i}"), Some(&["a"])))).collect();
    paths.push(("/c".into(), item("c", Some(&["c"]))));
    let bytes = doc(json!([{"name": "a"}, {"name": "c", "x-parent": "a"}]), paths);
    let whole_rows = outline::rows(&whole(&bytes).groups);
    assert!(matches!(&whole_rows[1], Row::Tag { .. }), "{:?}", &whole_rows[..2]);
    for (listing, _) in listings(&bytes, 512, 10) {
        let rows = outline::rows(&listing.catalog.groups);
        assert_eq!(rows[..10], whole_rows[..10], "partial: {}", listing.catalog.partial);
    }
}

#[test]
fn a_tag_nobody_declared_can_come_before_a_parent_nobody_declared() {
    // `c`'s parent `p` is not declared: its group comes after every tag used, so a tag first
    // used later (`x`) is listed before it.
    let mut paths: Vec<(String, Value)> =
        (0..100).map(|i| (format!("/c{i}"), item(&format!("c{i}"), Some(&["c"])))).collect();
    paths.push(("/x".into(), item("x", Some(&["x"]))));
    let bytes = doc(json!([{"name": "c", "x-parent": "p"}]), paths);
    let whole_rows = outline::rows(&whole(&bytes).groups);
    assert_eq!(whole_rows[0], Row::Group { name: "x".into(), tag: Some("x".into()) });
    for (listing, _) in listings(&bytes, 512, 10) {
        let rows = outline::rows(&listing.catalog.groups);
        assert_eq!(rows[..10], whole_rows[..10], "partial: {}", listing.catalog.partial);
    }
}

#[test]
fn without_a_first_list_asked_for_the_list_comes_once() {
    let paths: Vec<(String, Value)> =
        (0..300).map(|i| (format!("/p{i}"), item(&format!("op{i}"), Some(&["a"])))).collect();
    let bytes = doc(json!([{"name": "a"}]), paths);
    let mut stream = DocumentStream::new(bytes.len());
    let given = bytes.chunks(1024).filter_map(|chunk| stream.push(chunk).unwrap()).count();
    assert_eq!(given, 1);
}

#[cfg(not(target_arch = "wasm32"))]
mod properties {
    use super::*;
    use proptest::prelude::*;

    const TAGS: [&str; 5] = ["t0", "t1", "t2", "t3", "default"];

    /// Declared tags: a name, and maybe a parent among the names.
    fn declared() -> impl Strategy<Value = Vec<(usize, Option<usize>)>> {
        proptest::collection::vec((0..TAGS.len(), proptest::option::weighted(0.3, 0..TAGS.len())), 0..5)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// Whatever the tags (declared or not, nested by x-parent, grouped by x-tagGroups, none
        /// at all), a first list's first rows are the whole list's first rows.
        #[test]
        fn first_rows_are_the_whole_lists_first_rows(
            declared in declared(),
            groups in proptest::option::weighted(0.3, proptest::collection::vec(proptest::collection::vec(0..TAGS.len(), 0..3), 1..3)),
            ops in proptest::collection::vec(proptest::option::weighted(0.9, proptest::collection::vec(0..TAGS.len() + 1, 0..3)), 1..120),
            rows in 1..30_usize,
            size in 64..4096_usize,
        ) {
            // TAGS.len(): a tag nobody declares.
            let name = |i: usize| TAGS.get(i).copied().unwrap_or("undeclared");
            let tags: Vec<Value> = declared
                .iter()
                .map(|(tag, parent)| match parent {
                    Some(parent) => json!({"name": name(*tag), "x-parent": name(*parent)}),
                    None => json!({"name": name(*tag)}),
                })
                .collect();
            let paths: Vec<(String, Value)> = ops
                .iter()
                .enumerate()
                .map(|(i, tags)| {
                    let tags: Option<Vec<&str>> = tags.as_ref().map(|t| t.iter().map(|i| name(*i)).collect());
                    (format!("/p{i}"), item(&format!("op{i}"), tags.as_deref()))
                })
                .collect();
            let mut value: Value = serde_json::from_slice(&doc(json!(tags), paths)).unwrap();
            if let Some(groups) = &groups {
                let groups: Vec<Value> = groups
                    .iter()
                    .enumerate()
                    .map(|(i, tags)| json!({"name": format!("G{i}"), "tags": tags.iter().map(|t| name(*t)).collect::<Vec<_>>()}))
                    .collect();
                // Before `paths`, as the list needs it.
                let mut root = serde_json::Map::new();
                for (key, field) in value.as_object().unwrap() {
                    if key == "paths" {
                        root.insert("x-tagGroups".into(), json!(groups));
                    }
                    root.insert(key.clone(), field.clone());
                }
                value = Value::Object(root);
            }
            let bytes = serde_json::to_vec_pretty(&value).unwrap();
            let whole_rows = outline::rows(&whole(&bytes).groups);
            for (listing, _) in listings(&bytes, size, rows) {
                if listing.catalog.partial {
                    let got = outline::rows(&listing.catalog.groups);
                    prop_assert!(got.len() >= rows);
                    prop_assert_eq!(&got[..rows], &whole_rows[..rows]);
                }
            }
        }
    }
}
