//! Catalog tests: grouping rules on small documents, and the Petstore document's navigation.
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test, with its location

use petstore::document::PETSTORE_JSON;
use playground_openapi::catalog::{Catalog, CatalogError, Method, Stability, UNTAGGED, anchor};
use serde_json::json;

fn catalog(doc: serde_json::Value) -> Result<Catalog, CatalogError> {
    Catalog::from_json(doc.to_string().as_bytes())
}

fn names(c: &Catalog) -> Vec<(String, Vec<String>)> {
    c.groups.iter().map(|g| (g.name.clone(), g.tags.iter().map(|t| t.name.clone()).collect())).collect()
}

#[test]
fn petstore_groups_child_tags_under_pets_and_store() {
    let c = Catalog::from_json(PETSTORE_JSON.as_bytes()).unwrap();
    assert_eq!(c.title, "Petstore API");
    assert_eq!(c.version, "1.0.0");
    assert_eq!(
        names(&c),
        vec![
            ("Pets".into(), vec!["Animals".into(), "Categories".into()]),
            ("Store".into(), vec!["Orders".into(), "Inventory".into()]),
        ]
    );
    assert_eq!(c.operation_count(), 18);

    let ops: Vec<_> = c.operations().collect();
    let get_pet = ops.iter().find(|o| o.operation_id.as_deref() == Some("getPet")).unwrap();
    assert!(get_pet.deprecated);
    assert_eq!((get_pet.method, get_pet.path.as_str()), (Method::Get, "/pets/{petId}"));
    let list_orders = ops.iter().find(|o| o.anchor() == "listOrders").unwrap();
    assert!(list_orders.hide_try_it);
    let stabilities: Vec<_> = ops.iter().filter_map(|o| o.stability.map(|s| (o.anchor(), s))).collect();
    assert_eq!(
        stabilities,
        vec![("completeOrder".into(), Stability::Experimental), ("setInventory".into(), Stability::Beta)]
    );
}

#[test]
fn standalone_undeclared_and_untagged_operations_all_get_a_place() {
    let c = catalog(json!({
        "openapi": "3.0.0",
        "info": {"title": "T", "version": "2"},
        "tags": [{"name": "pet"}, {"name": "child", "x-parent": "Ghost"}],
        "paths": {
            "/a": {"get": {"tags": ["pet"], "summary": "A"}, "post": {"tags": ["extra"]}},
            "/b": {"delete": {}},
            "/c": {"put": {"tags": ["child"], "x-stability": "gamma"}}
        }
    }))
    .unwrap();
    assert_eq!(
        names(&c),
        vec![
            ("pet".into(), vec!["pet".into()]),
            ("extra".into(), vec!["extra".into()]),
            (UNTAGGED.into(), vec![UNTAGGED.into()]),
            ("Ghost".into(), vec!["child".into()]),
        ]
    );
    assert_eq!(c.groups[3].tags[0].operations[0].stability, None, "unknown x-stability values are ignored");
    assert_eq!(c.groups[2].tags[0].operations[0].anchor(), "delete-/b");
}

#[test]
fn tags_nested_deeper_or_in_a_circle_are_listed_as_groups_of_their_own() {
    let c = catalog(json!({
        "openapi": "3.0.0",
        "info": {"title": "T", "version": "2"},
        "tags": [
            {"name": "top"}, {"name": "mid", "x-parent": "top"}, {"name": "deep", "x-parent": "mid"},
            {"name": "a", "x-parent": "b"}, {"name": "b", "x-parent": "a"}
        ],
        "paths": {
            "/t": {"get": {"tags": ["top"]}},
            "/m": {"get": {"tags": ["mid"]}},
            "/d": {"get": {"tags": ["deep"]}},
            "/ab": {"get": {"tags": ["a"]}, "put": {"tags": ["b"]}}
        }
    }))
    .unwrap();
    assert_eq!(
        names(&c),
        vec![
            ("top".into(), vec!["top".into(), "mid".into()]),
            ("deep".into(), vec!["deep".into()]),
            ("a".into(), vec!["a".into()]),
            ("b".into(), vec!["b".into()]),
        ]
    );
    assert_eq!(c.operation_count(), 5);
    assert_eq!(c.operations().count(), 5, "every operation has a row");
}

#[test]
fn an_operation_with_two_tags_is_listed_under_both_but_counted_once() {
    let c = catalog(json!({
        "openapi": "3.0.3", "info": {"title": "T", "version": "1"},
        "paths": {"/x": {"get": {"tags": ["a", "b"], "operationId": "x"}}}
    }))
    .unwrap();
    assert_eq!(c.groups.len(), 2);
    assert_eq!(c.operation_count(), 1);
}

#[test]
fn declared_tags_without_operations_are_not_listed() {
    let c = catalog(json!({
        "openapi": "3.0.3", "info": {"title": "T", "version": "1"},
        "tags": [{"name": "Empty"}, {"name": "Group"}, {"name": "Child", "x-parent": "Group"}],
        "paths": {}
    }))
    .unwrap();
    assert!(c.groups.is_empty());
}

#[test]
fn bad_documents_are_refused_with_the_reason() {
    let swagger = catalog(json!({"swagger": "2.0", "info": {"title": "T", "version": "1"}})).unwrap_err();
    assert_eq!(swagger.to_string(), "Only OpenAPI 3 documents are supported; this one says swagger: 2.0.");

    let not_json = Catalog::from_json(b"{\"openapi\": ").unwrap_err();
    assert!(matches!(not_json, CatalogError::Malformed(ref m) if m.contains("line 1")), "{not_json}");

    let no_info = catalog(json!({"openapi": "3.0.3", "paths": {}})).unwrap_err();
    assert!(no_info.to_string().contains("info"), "{no_info}");

    let wrong_type = catalog(json!({"openapi": "3.0.3", "info": {"title": 5, "version": "1"}})).unwrap_err();
    assert!(matches!(wrong_type, CatalogError::Malformed(_)), "{wrong_type}");
}

#[test]
fn search_filters_by_path_summary_and_operation_id_and_drops_empty_sections() {
    let c = Catalog::from_json(PETSTORE_JSON.as_bytes()).unwrap();
    let ids = |groups: Vec<playground_openapi::catalog::Group>| -> Vec<String> {
        groups.iter().flat_map(|g| &g.tags).flat_map(|t| &t.operations).map(|o| o.anchor()).collect()
    };
    assert_eq!(ids(c.filter("")).len(), 18);
    assert_eq!(ids(c.filter("  ")).len(), 18);
    assert_eq!(ids(c.filter("COMPLETE")), ["completeOrder"], "case-insensitive, on the path");
    assert_eq!(ids(c.filter("stock of")), ["getInventoryItem", "setInventory"], "every word, on the summary");
    assert_eq!(ids(c.filter("deletecat")), ["deleteCategory"], "on the operationId");
    assert_eq!(ids(c.filter("put /pets")), ["updatePet"], "the method counts too");
    let groups = c.filter("inventory");
    assert_eq!(groups.iter().map(|g| g.name.as_str()).collect::<Vec<_>>(), ["Store"]);
    assert_eq!(groups[0].tags.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), ["Inventory"]);
    assert!(c.filter("no such thing").is_empty());
    // The folding given is the one used, on the query and on the operations alike.
    let exact = |s: &str| s.to_owned();
    assert!(c.filter_folded("COMPLETE", &exact).is_empty());
    assert_eq!(ids(c.filter_folded("complete", &exact)), ["completeOrder"]);
    let upper = |s: &str| s.to_uppercase();
    assert_eq!(ids(c.filter_folded("deletecat", &upper)), ["deleteCategory"]);
}

#[test]
fn an_anchor_is_the_operation_id_or_the_lower_case_method_and_the_path() {
    let cases: &[(Option<&str>, Method, &str, &str)] = &[
        (Some("getPet"), Method::Get, "/pets/{petId}", "getPet"),
        (Some("pulls/list"), Method::Get, "/repos/{owner}/pulls", "pulls/list"),
        (None, Method::Delete, "/b", "delete-/b"),
        (None, Method::Patch, "/pets/{petId}", "patch-/pets/{petId}"),
        (None, Method::Options, "/", "options-/"),
    ];
    for (id, method, path, expected) in cases {
        assert_eq!(anchor(*id, *method, path), *expected, "{id:?} {method:?} {path}");
    }
}

#[test]
fn x_stability_reads_experimental_and_beta_only() {
    let cases: &[(&str, Option<Stability>)] = &[
        ("experimental", Some(Stability::Experimental)),
        ("beta", Some(Stability::Beta)),
        ("Beta", None),
        ("gamma", None),
        ("", None),
        (" beta", None),
    ];
    for (value, expected) in cases {
        assert_eq!(Stability::parse(value), *expected, "{value:?}");
    }
    for stability in [Stability::Experimental, Stability::Beta] {
        assert_eq!(Stability::parse(stability.as_str()), Some(stability));
    }
    assert_eq!((Stability::Experimental.label(), Stability::Beta.label()), ("Experimental", "Beta"));
}
