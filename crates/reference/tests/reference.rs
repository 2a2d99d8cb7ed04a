//! Operation views: every Petstore operation, the extensions the reference shows, examples that
//! the mock accepts, recursion, a third-party document (Swagger's petstore3), and what of a
//! view the try-it module is sent, and which build of it an operation needs.
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test, with its location

use petstore::document::PETSTORE_JSON;
use petstore::mock::Mock;
use playground_http::Request;
use playground_openapi::Catalog;
use playground_openapi::catalog::Method;
use playground_reference::{CodeSamples, OperationView, SchemaView, example_for};
use serde_json::{Value, json};

fn doc() -> Value {
    serde_json::from_str(PETSTORE_JSON).unwrap()
}

fn all_operations(doc: &Value) -> Vec<(Method, String)> {
    let catalog = Catalog::from_json(doc.to_string().as_bytes()).unwrap();
    catalog.operations().map(|o| (o.method, o.path.clone())).collect()
}

fn view(doc: &Value, id: &str) -> OperationView {
    all_operations(doc)
        .into_iter()
        .map(|(m, p)| OperationView::build(doc, m, &p).unwrap())
        .find(|v| v.operation_id.as_deref() == Some(id))
        .unwrap()
}

#[test]
fn every_petstore_operation_has_a_view() {
    let doc = doc();
    let ops = all_operations(&doc);
    assert_eq!(ops.len(), 18);
    for (method, path) in ops {
        let v = OperationView::build(&doc, method, &path).unwrap();
        assert!(v.summary.is_some() && v.description.is_some(), "{path}");
        assert!(v.responses.iter().any(|r| r.status.starts_with('2')), "{path}");
        assert_eq!(v.servers, ["https://api.petstore.example.com", "http://127.0.0.1:4010"]);
    }
}

/// On the Petstore, whose components hold no component with fields of its own below their
/// fields, a view for its text is the whole view without `schema_document`; where trees go
/// deeper, crates/llms/src/tests.rs checks that both write the same Markdown.
#[test]
fn a_view_for_its_text_is_the_whole_view_without_what_its_schemas_reach() {
    let doc = doc();
    for (method, path) in all_operations(&doc) {
        let whole = OperationView::build(&doc, method, &path).unwrap();
        let mut text = OperationView::build_text(&doc, method, &path, false).unwrap();
        assert!(text.schema_document.is_null(), "{path}");
        text.schema_document = whole.schema_document.clone();
        assert_eq!(text, whole, "{method:?} {path}");
    }
    // Webhooks (and their refusals) are the same as build_webhook's.
    let hooks = json!({
        "openapi": "3.1.0", "info": {"title": "T", "version": "1"}, "paths": {},
        "webhooks": {"petAdded": {"post": {"requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}}}, "responses": {"200": {"description": "ok"}}}}},
        "components": {"schemas": {"Pet": {"type": "object", "properties": {"name": {"type": "string"}}}}}
    });
    let whole = OperationView::build_webhook(&hooks, Method::Post, "petAdded").unwrap();
    assert!(!whole.schema_document.is_null());
    let mut text = OperationView::build_text(&hooks, Method::Post, "petAdded", true).unwrap();
    assert!(text.schema_document.is_null());
    text.schema_document = whole.schema_document.clone();
    assert_eq!(text, whole);
    assert!(OperationView::build_text(&hooks, Method::Get, "petAdded", true).is_err());
    assert!(OperationView::build_text(&hooks, Method::Post, "petAdded", false).is_err());

    // A component schema's view likewise.
    let whole = SchemaView::build(&hooks, "Pet").unwrap();
    assert_eq!(whole.schema_document["components"]["schemas"]["Pet"]["type"], "object");
    let mut text = SchemaView::build_text(&hooks, "Pet").unwrap();
    assert!(text.schema_document.is_null());
    text.schema_document = whole.schema_document.clone();
    assert_eq!(text, whole);
    assert!(SchemaView::build_text(&hooks, "Nobody").is_err());
}

#[test]
fn a_view_has_the_anchor_and_stability_of_its_row_in_the_list() {
    let doc = json!({
        "openapi": "3.0.3", "info": {"title": "T", "version": "1"},
        "paths": {"/a/{id}": {
            "get": {"operationId": "getA", "x-stability": "beta", "responses": {}},
            "put": {"x-stability": "experimental", "responses": {}},
            "delete": {"x-stability": "gamma", "responses": {}}
        }}
    });
    let catalog = Catalog::from_value(&doc).unwrap();
    let rows: Vec<_> = catalog.operations().collect();
    assert_eq!(rows.len(), 3);
    for row in rows {
        let view = OperationView::build(&doc, row.method, &row.path).unwrap();
        assert_eq!(view.anchor(), row.anchor());
        assert_eq!(view.stability, row.stability, "{}", row.anchor());
    }
    assert_eq!(view(&doc, "getA").anchor(), "getA");
}

#[test]
fn extensions_become_warnings_badges_and_switches() {
    let doc = doc();
    let get_pet = view(&doc, "getPet");
    assert_eq!(
        get_pet.deprecation_warning().as_deref(),
        Some("This operation is deprecated and will be sunset on 2027-06-30.")
    );
    assert!(view(&doc, "listOrders").hide_try_it);
    assert!(!view(&doc, "placeOrder").hide_try_it);
    let CodeSamples::Custom(samples) = view(&doc, "createPet").code_samples else { panic!("custom samples") };
    let labels: Vec<_> = samples.iter().map(|s| s.label.as_str()).collect();
    assert_eq!(labels, ["cURL", "JavaScript (fetch)", "Python (requests)"]);
    assert_eq!(view(&doc, "getCategory").code_samples, CodeSamples::Generated);
    assert_eq!(view(&doc, "deletePet").deprecation_warning(), None);
}

#[test]
fn parameters_and_schemas_carry_their_limits() {
    let doc = doc();
    let list = view(&doc, "listPets");
    let names: Vec<_> = list.parameters.iter().map(|p| (p.name.as_str(), p.location.as_str())).collect();
    assert_eq!(
        names,
        [("status", "query"), ("categoryId", "query"), ("limit", "query"), ("offset", "query")]
    );
    assert!(list.parameters[0].repeated);
    assert_eq!(
        list.parameters[0].schema.items.as_ref().unwrap().enumeration,
        [json!("available"), json!("pending"), json!("sold")]
    );
    assert_eq!(list.parameters[2].schema.constraints, ["1 to 100", "default 20"]);
    assert_eq!(list.responses[0].headers[0].0, "X-Total-Count");

    let get = view(&doc, "getPet");
    assert!(get.parameters[0].required && get.parameters[0].location == "path");

    let create = view(&doc, "createPet");
    let body = create.request_body.unwrap();
    assert_eq!(body.example, json!({"name": "Rex", "categoryId": 1, "status": "available"}));
    assert_eq!(body.schema.name.as_deref(), Some("NewPet"));
    assert!(body.schema.closed);
    let name = &body.schema.properties[0];
    assert_eq!((name.name.as_str(), name.required), ("name", true));
    assert_eq!(name.schema.constraints, ["1 to 100 characters", "pattern \\S"]);
    let statuses: Vec<_> = create.responses.iter().map(|r| r.status.as_str()).collect();
    assert_eq!(statuses, ["201", "400", "409", "413", "415", "422"]);
    assert_eq!(create.responses[5].examples.len(), 2, "named examples are listed");
}

#[test]
fn generated_examples_are_accepted_by_the_mock() {
    // Remove every example and default from the document, so only generation is left.
    fn strip(v: &mut Value) {
        match v {
            Value::Object(m) => {
                m.remove("example");
                m.remove("examples");
                m.values_mut().for_each(strip);
            }
            Value::Array(a) => a.iter_mut().for_each(strip),
            _ => {}
        }
    }
    let mut bare = doc();
    strip(&mut bare);
    for (id, method, target) in [
        ("createPet", "POST", "/pets"),
        ("updatePet", "PUT", "/pets/1"),
        ("createCategory", "POST", "/categories"),
        ("placeOrder", "POST", "/store/orders"),
        ("setInventory", "PUT", "/store/inventory/1"),
    ] {
        let example = view(&bare, id).request_body.unwrap().example;
        let mut mock = Mock::seeded();
        let r = mock.handle(&Request::new(method, target).json(&example));
        assert!(r.status < 300, "{id}: {example} -> {} {}", r.status, String::from_utf8_lossy(&r.body));
    }
    let schemas = &bare["components"]["schemas"];
    assert_eq!(example_for(&bare, &schemas["InventoryUpdate"]), json!({"quantity": 0}));
    assert_eq!(example_for(&bare, &json!({"$ref": "#/components/schemas/PetStatus"})), json!("available"));
}

#[test]
fn recursive_and_broken_schemas_do_not_loop_or_fail_the_view() {
    let doc = json!({
        "openapi": "3.0.0", "info": {"title": "T", "version": "1"},
        "paths": {"/tree": {"get": {
            "x-codeSamples": false,
            "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Node"}}}},
                          "500": {"description": "broken", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Nope"}}}}}
        }}},
        "components": {"schemas": {"Node": {"type": "object", "properties": {"children": {"type": "array", "items": {"$ref": "#/components/schemas/Node"}}}}}},
        "x-hideTryItPanel": true
    });
    let v = OperationView::build(&doc, Method::Get, "/tree").unwrap();
    let node = v.responses[0].schema.as_ref().unwrap();
    assert_eq!(node.name.as_deref(), Some("Node"));
    let child = node.properties[0].schema.items.as_ref().unwrap();
    assert!(child.truncated, "recursion stops at the first repeat");
    let mut depth = 0;
    let mut example = &v.responses[0].examples[0].1;
    while let Some(next) = example.get("children").and_then(|c| c.get(0)) {
        example = next;
        depth += 1;
    }
    assert!((2..=16).contains(&depth), "the generated example stops after a few levels: {depth}");
    assert!(
        v.responses[1]
            .schema
            .as_ref()
            .unwrap()
            .description
            .as_ref()
            .unwrap()
            .contains("#/components/schemas/Nope")
    );
    assert_eq!(v.code_samples, CodeSamples::Hidden);
    assert!(v.hide_try_it, "x-hideTryItPanel on the document root");
    assert!(OperationView::build(&doc, Method::Post, "/tree").is_err());
}

#[test]
fn swagger_petstore3_renders_every_operation() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/swagger-petstore3.yaml");
    let Ok(text) = std::fs::read_to_string(path) else {
        panic!("{path} is missing: the shared fixtures sit beside the repository");
    };
    let doc: Value = serde_yaml_ng::from_str(&text).unwrap();
    let catalog = Catalog::from_json(doc.to_string().as_bytes()).unwrap();
    let groups: Vec<_> = catalog.groups.iter().map(|g| g.name.as_str()).collect();
    assert_eq!(groups, ["pet", "store", "user"]);
    let ops = all_operations(&doc);
    assert_eq!(ops.len(), 19);
    for (method, path) in ops {
        let v = OperationView::build(&doc, method, &path).unwrap();
        assert!(!v.responses.is_empty(), "{path}");
    }
    let add = OperationView::build(&doc, Method::Post, "/pet").unwrap();
    assert_eq!(add.request_body.unwrap().schema.name.as_deref(), Some("Pet"));
}

#[test]
fn a_catalog_reads_the_same_from_bytes_and_from_a_parsed_value() {
    let doc = doc();
    assert_eq!(Catalog::from_value(&doc).unwrap(), Catalog::from_json(PETSTORE_JSON.as_bytes()).unwrap());
    assert!(Catalog::from_value(&json!({"swagger": "2.0"})).is_err());
}

#[test]
fn check_refuses_what_build_refuses_and_nothing_else() {
    let doc = serde_json::json!({
        "openapi": "3.1.0",
        "info": {"title": "T", "version": "1"},
        "paths": {
            "/good": {"get": {"responses": {"200": {"description": "ok"}}}},
            "/moved": {"$ref": "#/components/pathItems/missing"},
            "/odd": {"get": {"parameters": [{"$ref": "#/nowhere"}], "responses": {}}}
        },
        "webhooks": {"ping": {"post": {"responses": {"200": {"description": "ok"}}}}}
    });
    for (method, path, webhook) in [
        (Method::Get, "/good", false),
        (Method::Get, "/moved", false),
        (Method::Post, "/good", false),
        (Method::Get, "/odd", false),
        (Method::Get, "/absent", false),
        (Method::Post, "ping", true),
        (Method::Get, "ping", true),
    ] {
        let built = if webhook {
            OperationView::build_webhook(&doc, method, path)
        } else {
            OperationView::build(&doc, method, path)
        };
        let checked = OperationView::check(&doc, method, path, webhook);
        assert_eq!(
            checked.map_err(|e| e.to_string()),
            built.map(drop).map_err(|e| e.to_string()),
            "{method:?} {path}"
        );
    }
}

/// The view the page hands the try-it module (`playground_seam::MountOptions`, as JSON) leaves
/// out what only the page shows: the summary and the badges, the parameters' and the body's
/// descriptions and display trees.
/// The module reads the schemas as the document has them (`schema_json`, `media_types`), and
/// the trees were most of the text: besides the schemas it reaches (`schema_document`),
/// Kubernetes' largest operation went from 546 KB to 48 KB.
#[test]
fn the_try_it_modules_view_leaves_the_display_trees_out() {
    let doc = json!({"openapi": "3.0.3", "info": {"title": "T", "version": "1"},
    "paths": {"/pets/{id}": {"put": {"summary": "Replace a pet", "deprecated": true, "x-stability": "beta",
        "parameters": [{"name": "id", "in": "path", "required": true, "description": "The pet's id.",
            "schema": {"type": "integer", "minimum": 1}}],
        "requestBody": {"description": "The pet as it is now.", "content": {"application/json": {"schema": {
            "type": "object", "required": ["name"],
            "properties": {"name": {"type": "string", "description": "What the pet answers to."}}}}}},
        "responses": {"200": {"description": "ok"}}
    }}}});
    let view = OperationView::build(&doc, Method::Put, "/pets/{id}").unwrap();
    assert_eq!(view.parameters[0].schema.kind, "integer", "the page's tree is there");
    assert_eq!(view.request_body.as_ref().unwrap().schema.properties[0].name, "name");

    let sent = serde_json::to_value(&view).unwrap();
    assert!(view.summary.is_some() && view.deprecated && view.stability.is_some());
    for badge in ["summary", "deprecated", "sunset", "stability"] {
        assert!(sent.get(badge).is_none(), "{badge}: {sent}");
    }
    let param = sent["parameters"][0].as_object().unwrap();
    let badge_or_display = ["schema", "description", "deprecated"];
    assert!(badge_or_display.iter().all(|key| !param.contains_key(*key)), "{param:?}");
    assert_eq!(param["schema_json"], json!({"type": "integer", "minimum": 1}));
    let body = sent["request_body"].as_object().unwrap();
    assert!(!body.contains_key("schema") && !body.contains_key("description"), "{body:?}");
    assert_eq!(body["media_types"][0]["schema"]["properties"]["name"]["type"], "string");
    let text = sent.to_string();
    assert!(!text.contains("The pet's id") && !text.contains("The pet as it is now"), "{text}");

    // The module reads it back with what it uses, the display parts empty.
    let read: OperationView = serde_json::from_value(sent).unwrap();
    assert_eq!(read.parameters[0].schema_json, view.parameters[0].schema_json);
    assert_eq!(read.parameters[0].schema.kind, "");
    assert_eq!(read.request_body.unwrap().media_types, view.request_body.unwrap().media_types);
}

#[test]
fn the_security_goes_beside_the_view_for_the_module_that_reads_it() {
    let doc = json!({"openapi": "3.0.3", "info": {"title": "T", "version": "1"},
    "components": {"securitySchemes": {"key": {"type": "apiKey", "in": "header", "name": "X-Key"}}},
    "paths": {
        "/keyed": {"get": {"security": [{"key": []}], "responses": {"200": {"description": "ok"}}}},
        "/unknown": {"get": {"security": [{"nowhere": []}], "responses": {"200": {"description": "ok"}}}},
        "/open": {"post": {"security": [{}],
            "requestBody": {"content": {"application/json": {"schema": {"type": "object"}}}},
            "responses": {"200": {"description": "ok"}}}},
        "/form": {"post": {
            "requestBody": {"content": {"application/x-www-form-urlencoded": {"schema": {"type": "object"}}}},
            "responses": {"200": {"description": "ok"}}}}
    }});
    let view = |method, path| OperationView::build(&doc, method, path).unwrap();
    let keyed = view(Method::Get, "/keyed");
    assert_eq!(keyed.schemes.len(), 1);
    assert!(keyed.needs_full_try_it());

    // The view's JSON leaves the security out; it goes beside, and is put back whole.
    let sent = serde_json::to_value(&keyed).unwrap();
    assert!(sent.get("schemes").is_none() && sent.get("security").is_none(), "{sent}");
    let access = serde_json::to_value(keyed.access()).unwrap();
    assert_eq!(access["schemes"][0]["name"], "key");
    assert_eq!(access["security"][0][0]["name"], "key");
    let mut read: OperationView = serde_json::from_value(sent).unwrap();
    assert!(read.schemes.is_empty() && read.security.is_empty() && !read.needs_full_try_it());
    read.set_access(serde_json::from_value(access).unwrap());
    assert_eq!((&read.schemes, &read.security), (&keyed.schemes, &keyed.security));

    // A requirement naming only a scheme the document does not define has nothing to fill in;
    // nor has an optional empty requirement with a JSON body; a form body needs the full build.
    let unknown = view(Method::Get, "/unknown");
    assert_eq!(unknown.security[0][0].kind, "not described in the document");
    assert!(unknown.schemes.is_empty() && !unknown.needs_full_try_it());
    assert!(!view(Method::Post, "/open").needs_full_try_it());
    assert!(view(Method::Post, "/form").needs_full_try_it());
}
