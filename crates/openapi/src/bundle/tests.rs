use std::collections::HashMap;

use serde_json::{Value, json};

use super::*;

/// Joins as a URL does for relative paths: `dir/root.yaml` + `../x.yaml` is `x.yaml`.
fn join(base: &str, reference: &str) -> Result<String, String> {
    if reference.starts_with("https://") {
        return Err("is on the network, which this test does not read".to_owned());
    }
    let mut parts: Vec<&str> = base.split('/').collect();
    parts.pop();
    for segment in reference.split('/') {
        match segment {
            "." => {}
            ".." => {
                parts.pop();
            }
            other => parts.push(other),
        }
    }
    Ok(parts.join("/"))
}

/// Bundles `root.yaml` from `files` as a caller does: read what is wanted until nothing is.
fn bundle_with(files: &[(&str, Value)], limits: Limits) -> (Bundled, Vec<String>) {
    let files: HashMap<&str, &Value> = files.iter().map(|(name, value)| (*name, value)).collect();
    let mut bundler = Bundler::new("root.yaml", files["root.yaml"].clone(), 10, join, limits);
    let mut asked = Vec::new();
    loop {
        let wanted = bundler.wanted();
        if wanted.is_empty() {
            break;
        }
        for address in wanted {
            asked.push(address.clone());
            match files.get(address.as_str()) {
                Some(value) => bundler.provide(&address, Ok((*value).clone()), 10),
                None => bundler.provide(&address, Err("does not exist".to_owned()), 0),
            }
        }
    }
    (bundler.finish(), asked)
}

fn bundle(files: &[(&str, Value)]) -> Bundled {
    bundle_with(files, Limits::default()).0
}

fn openapi(paths: Value) -> Value {
    json!({"openapi": "3.0.3", "info": {"title": "T", "version": "1"}, "paths": paths})
}

#[test]
fn schemas_of_other_files_are_kept_once_in_components_and_referred_to_locally() {
    let root = openapi(json!({
        "/pets": {"get": {"responses": {"200": {"description": "ok", "content": {"application/json": {
            "schema": {"type": "array", "items": {"$ref": "schemas/Pet.yaml"}}}}}}}},
        "/pets/{id}": {"get": {"responses": {"200": {"description": "ok", "content": {"application/json": {
            "schema": {"$ref": "./schemas/Pet.yaml"}}}}}}}
    }));
    let pet = json!({"type": "object", "properties": {
        "owner": {"$ref": "people.yaml#/components/schemas/Person"},
        "tag": {"$ref": "#/$defs/Tag"}
    }, "$defs": {"Tag": {"type": "string"}}});
    let people = json!({"components": {"schemas": {"Person": {"type": "object", "properties": {"name": {"type": "string"}}}}}});
    let bundled = bundle(&[("root.yaml", root), ("schemas/Pet.yaml", pet), ("schemas/people.yaml", people)]);
    assert_eq!(bundled.problems, []);
    assert_eq!(bundled.files, ["root.yaml", "schemas/Pet.yaml", "schemas/people.yaml"]);
    let doc = &bundled.document;
    let list = "/paths/~1pets/get/responses/200/content/application~1json/schema/items/$ref";
    let one = "/paths/~1pets~1{id}/get/responses/200/content/application~1json/schema/$ref";
    assert_eq!(doc.pointer(list), Some(&json!("#/components/schemas/Pet")));
    assert_eq!(doc.pointer(one), Some(&json!("#/components/schemas/Pet")));
    let pet = &doc["components"]["schemas"]["Pet"];
    assert_eq!(pet["properties"]["owner"]["$ref"], "#/components/schemas/Person");
    assert_eq!(doc["components"]["schemas"]["Person"]["properties"]["name"]["type"], "string");
    // A local reference inside the other file points to where that part now is.
    assert_eq!(pet["properties"]["tag"]["$ref"], "#/components/schemas/Tag");
    assert_eq!(doc["components"]["schemas"]["Tag"], json!({"type": "string"}));
    assert!(!refers_to_other_files(doc));
}

#[test]
fn operations_and_path_items_are_copied_where_the_reference_stands_with_their_own_references() {
    // As DigitalOcean's description does: whole operations in files of their own.
    let root = openapi(json!({
        "/apps": {"get": {"$ref": "resources/apps/list.yml"}},
        "/droplets": {"$ref": "resources/droplets/path.yml"}
    }));
    let list = json!({"operationId": "apps_list", "tags": ["Apps"], "summary": "List apps",
        "responses": {"200": {"$ref": "../../shared/responses.yml#/ok"}}});
    let path = json!({"post": {"operationId": "droplets_create", "summary": "Create a droplet",
        "responses": {"201": {"description": "made"}}}});
    let responses = json!({"ok": {"description": "The list", "content": {"application/json": {"schema": {"$ref": "../models/app.yml"}}}}});
    let app = json!({"type": "object"});
    let bundled = bundle(&[
        ("root.yaml", root),
        ("resources/apps/list.yml", list),
        ("resources/droplets/path.yml", path),
        ("shared/responses.yml", responses),
        ("models/app.yml", app),
    ]);
    assert_eq!(bundled.problems, []);
    let doc = &bundled.document;
    let get = &doc["paths"]["/apps"]["get"];
    assert_eq!(get["operationId"], "apps_list");
    assert_eq!(get["tags"], json!(["Apps"]));
    assert_eq!(get["responses"]["200"]["$ref"], "#/components/responses/ok");
    assert_eq!(doc["components"]["responses"]["ok"]["description"], "The list");
    let schema = &doc["components"]["responses"]["ok"]["content"]["application/json"]["schema"];
    assert_eq!(schema["$ref"], "#/components/schemas/app");
    assert_eq!(doc["components"]["schemas"]["app"], json!({"type": "object"}));
    // A 3.0 path item has no section of its own: copied.
    assert_eq!(doc["paths"]["/droplets"]["post"]["summary"], "Create a droplet");
}

#[test]
fn a_schema_that_refers_to_itself_stays_a_loop_of_references() {
    let root = openapi(json!({"/tree": {"get": {"responses": {"200": {"description": "ok",
        "content": {"application/json": {"schema": {"$ref": "Tree.yaml"}}}}}}}}));
    let tree = json!({"type": "object", "properties": {"children": {"type": "array", "items": {"$ref": "Tree.yaml"}}}});
    let bundled = bundle(&[("root.yaml", root), ("Tree.yaml", tree)]);
    assert_eq!(bundled.problems, []);
    let tree = &bundled.document["components"]["schemas"]["Tree"];
    assert_eq!(tree["properties"]["children"]["items"]["$ref"], "#/components/schemas/Tree");
}

#[test]
fn a_missing_file_is_explained_where_it_is_used_and_the_rest_is_kept() {
    let root = openapi(json!({
        "/a": {"get": {"summary": "A", "responses": {"200": {"$ref": "missing.yaml#/ok"}}}},
        "/b": {"get": {"summary": "B", "responses": {"200": {"description": "fine"}}}}
    }));
    let bundled = bundle(&[("root.yaml", root)]);
    let doc = &bundled.document;
    assert_eq!(doc["paths"]["/b"]["get"]["summary"], "B");
    let kept = &doc["paths"]["/a"]["get"]["responses"]["200"];
    assert_eq!(kept["$ref"], "missing.yaml#/ok");
    assert_eq!(kept[UNRESOLVED], "missing.yaml#/ok does not exist");
    assert_eq!(
        bundled.problems,
        [Problem {
            at: "/paths/~1a/get/responses/200".to_owned(),
            reference: "missing.yaml#/ok".to_owned(),
            file: "root.yaml".to_owned(),
            in_file: "/paths/~1a/get/responses/200".to_owned(),
            reason: "does not exist".to_owned(),
        }]
    );
    assert_eq!(
        bundled.problems[0].to_string(),
        "root.yaml at /paths/~1a/get/responses/200: the reference missing.yaml#/ok does not exist"
    );
    // Where the reference is read, its reason is the error.
    assert_eq!(
        crate::pointer::resolve(doc, kept),
        Err("the reference missing.yaml#/ok does not exist".to_owned())
    );
}

#[test]
fn a_pointer_to_nothing_and_a_loop_of_copies_are_problems_not_hangs() {
    let root = openapi(json!({
        "/a": {"get": {"$ref": "a.yaml"}},
        "/b": {"get": {"responses": {"200": {"$ref": "r.yaml#/nothing/here"}}}}
    }));
    // An operation whose callback's path item is the operation's own file again.
    let a = json!({"summary": "A", "responses": {"200": {"description": "ok"}},
        "callbacks": {"done": {"{$request.body#/url}": {"post": {"$ref": "a.yaml"}}}}});
    let r = json!({"something": {}});
    let (bundled, asked) =
        bundle_with(&[("root.yaml", root), ("a.yaml", a), ("r.yaml", r)], Limits::default());
    assert_eq!(asked, ["a.yaml", "r.yaml"]);
    let reasons: Vec<&str> = bundled.problems.iter().map(|p| p.reason.as_str()).collect();
    assert_eq!(reasons.len(), 2, "{reasons:?}");
    assert!(reasons.contains(&"refers back to itself through copies of what has no section of its own"));
    assert!(reasons.contains(&"points to nothing: r.yaml has no #/nothing/here"));
    assert_eq!(bundled.document["paths"]["/a"]["get"]["summary"], "A");
    // The loop is told where it stands in its own file, and in the bundle.
    let looped = &bundled.problems[0];
    assert_eq!(looped.file, "a.yaml");
    assert_eq!(looped.in_file, "/callbacks/done/{$request.body#~1url}/post");
    assert_eq!(looped.at, "/paths/~1a/get/callbacks/done/{$request.body#~1url}/post");
}

#[test]
fn a_reference_back_into_the_root_becomes_local() {
    let root = openapi(json!({"/a": {"get": {"responses": {"200": {"$ref": "shared.yaml#/ok"}}}}}));
    let mut root = root;
    root["components"] = json!({"schemas": {"Pet": {"type": "object"}}});
    let shared = json!({"ok": {"description": "ok", "content": {"application/json": {
        "schema": {"$ref": "root.yaml#/components/schemas/Pet"}}}}});
    let bundled = bundle(&[("root.yaml", root), ("shared.yaml", shared)]);
    assert_eq!(bundled.problems, []);
    let ok = &bundled.document["components"]["responses"]["ok"];
    assert_eq!(ok["content"]["application/json"]["schema"]["$ref"], "#/components/schemas/Pet");
}

#[test]
fn a_name_the_root_uses_is_not_taken_again() {
    let mut root = openapi(json!({"/a": {"get": {"responses": {"200": {"description": "ok",
        "content": {"application/json": {"schema": {"$ref": "models/Pet.yaml"}}}}}}}}));
    root["components"] = json!({"schemas": {"Pet": {"type": "string"}}});
    let bundled = bundle(&[("root.yaml", root), ("models/Pet.yaml", json!({"type": "object"}))]);
    let doc = &bundled.document;
    assert_eq!(doc["components"]["schemas"]["Pet"], json!({"type": "string"}));
    assert_eq!(doc["components"]["schemas"]["Pet-2"], json!({"type": "object"}));
    let schema = "/paths/~1a/get/responses/200/content/application~1json/schema/$ref";
    assert_eq!(doc.pointer(schema), Some(&json!("#/components/schemas/Pet-2")));
}

#[test]
fn swagger_2_schemas_go_to_definitions() {
    let root = json!({"swagger": "2.0", "info": {"title": "T", "version": "1"}, "paths": {
        "/a": {"get": {"parameters": [{"$ref": "params.yaml#/limit"}],
            "responses": {"200": {"description": "ok", "schema": {"$ref": "Thing.json"}}}}}}});
    let bundled = bundle(&[
        ("root.yaml", root),
        ("params.yaml", json!({"limit": {"name": "limit", "in": "query", "type": "integer"}})),
        ("Thing.json", json!({"type": "object"})),
    ]);
    assert_eq!(bundled.problems, []);
    let doc = &bundled.document;
    assert_eq!(doc["definitions"]["Thing"], json!({"type": "object"}));
    assert_eq!(doc["parameters"]["limit"]["name"], "limit");
    assert_eq!(doc["paths"]["/a"]["get"]["parameters"][0]["$ref"], "#/parameters/limit");
}

#[test]
fn references_in_examples_are_data_and_members_beside_a_reference_stay() {
    let root = json!({"openapi": "3.1.0", "info": {"title": "T", "version": "1"}, "paths": {
    "/a": {"get": {"responses": {"200": {"description": "ok", "content": {"application/json": {
        "schema": {"$ref": "Thing.yaml", "description": "The thing, here"},
        "example": {"$ref": "not/a/file.yaml"}
    }}}}}}}});
    let (bundled, asked) =
        bundle_with(&[("root.yaml", root), ("Thing.yaml", json!({"type": "object"}))], Limits::default());
    assert_eq!(asked, ["Thing.yaml"]);
    assert_eq!(bundled.problems, []);
    let media = &bundled.document["paths"]["/a"]["get"]["responses"]["200"]["content"]["application/json"];
    assert_eq!(media["example"], json!({"$ref": "not/a/file.yaml"}));
    assert_eq!(
        media["schema"],
        json!({"$ref": "#/components/schemas/Thing", "description": "The thing, here"})
    );
}

#[test]
fn limits_on_files_bytes_and_depth_are_problems() {
    let root = openapi(json!({
        "/a": {"get": {"$ref": "a.yaml"}},
        "/b": {"get": {"$ref": "b.yaml"}}
    }));
    let files = [
        ("root.yaml", root),
        ("a.yaml", json!({"summary": "A", "responses": {}})),
        ("b.yaml", json!({"summary": "B", "responses": {}})),
    ];
    let (bundled, asked) = bundle_with(&files, Limits { files: 2, ..Limits::default() });
    assert_eq!(asked.len(), 1);
    assert_eq!(bundled.problems.len(), 1);
    assert_eq!(
        bundled.problems[0].reason,
        "was not read: the description has more files than the limit of 2"
    );

    // Each file is 10 bytes, the root too: the second file passes 25.
    let (bundled, _) = bundle_with(&files, Limits { bytes: 25, ..Limits::default() });
    let reasons: Vec<&str> = bundled.problems.iter().map(|p| p.reason.as_str()).collect();
    assert_eq!(reasons, ["was not read: the description's files together pass the limit of 25 bytes"]);

    // A chain of copies: operation files that each hold a callback copying the next.
    let mut chain = vec![("root.yaml", openapi(json!({"/a": {"get": {"$ref": "0.yaml"}}})))];
    let names: Vec<String> = (0..10).map(|i| format!("{i}.yaml")).collect();
    for (i, name) in names.iter().enumerate() {
        let next = format!("{}.yaml", i + 1);
        chain.push((
            name.as_str(),
            json!({"summary": "x", "responses": {}, "callbacks": {"c": {"e": {"post": {"$ref": next}}}}}),
        ));
    }
    let (bundled, _) = bundle_with(&chain, Limits { depth: 3, ..Limits::default() });
    assert_eq!(bundled.problems.len(), 1, "{:?}", bundled.problems);
    assert_eq!(bundled.problems[0].reason, "was not followed: more than 3 references inside each other");
}

#[test]
fn a_reference_the_caller_does_not_read_says_why() {
    let root = openapi(json!({"/a": {"get": {"$ref": "https://example.com/op.yaml"}}}));
    let bundled = bundle(&[("root.yaml", root)]);
    assert_eq!(bundled.problems.len(), 1);
    assert_eq!(bundled.problems[0].reason, "is on the network, which this test does not read");
}

#[test]
fn a_text_is_told_to_refer_to_other_files_by_its_bytes() {
    assert!(text_may_refer_to_other_files(r#"{"a": {"$ref" : "b.yaml"}}"#));
    assert!(text_may_refer_to_other_files(r#"{"a":{"$ref":"b.yaml#/x"}}"#));
    assert!(text_may_refer_to_other_files(
        r##"{"$x": "$", "a$": {"$$ref": 1, "$ref": "#/y", "b": {"$ref": "c.json"}}}"##
    ));
    assert!(!text_may_refer_to_other_files(r##"{"a": "$ref$", "$ref": "#/b", "c": "$"##));
    assert!(!text_may_refer_to_other_files(r##"{"a": {"$ref": "#/components/schemas/A"}}"##));
    assert!(!text_may_refer_to_other_files(r#"{"description": "uses $ref", "x": "$ref"}"#));
    assert!(!text_may_refer_to_other_files(""));
}

#[test]
fn a_key_is_data_by_its_place_not_its_name() {
    // As DigitalOcean's operations do: the default response in a shared file two folders up.
    let root = openapi(json!({"/a": {"get": {"$ref": "resources/a/get.yml"}}}));
    let get = json!({"summary": "A", "responses": {
        "200": {"description": "ok", "content": {"application/json": {
            "schema": {"type": "object", "properties": {
                "default": {"$ref": "../../shared/flag.yml"},
                "example": {"$ref": "../../shared/flag.yml"}
            }, "default": {"$ref": "not/a/file.yml"}},
            "examples": {"default": {"$ref": "../../shared/examples.yml#/a"}}
        }}},
        "default": {"$ref": "../../shared/unexpected_error.yml"}
    }});
    let files = [
        ("root.yaml", root),
        ("resources/a/get.yml", get),
        ("shared/flag.yml", json!({"type": "boolean"})),
        ("shared/examples.yml", json!({"a": {"summary": "An A", "value": {"$ref": "data, not a file"}}})),
        ("shared/unexpected_error.yml", json!({"description": "There was an unexpected error."})),
    ];
    let (bundled, asked) = bundle_with(&files, Limits::default());
    assert_eq!(
        asked,
        ["resources/a/get.yml", "shared/flag.yml", "shared/examples.yml", "shared/unexpected_error.yml"]
    );
    assert_eq!(bundled.problems, []);
    let doc = &bundled.document;
    let get = &doc["paths"]["/a"]["get"];
    assert_eq!(get["responses"]["default"]["$ref"], "#/components/responses/unexpected_error");
    let media = &get["responses"]["200"]["content"]["application/json"];
    assert_eq!(media["schema"]["properties"]["default"]["$ref"], "#/components/schemas/flag");
    assert_eq!(media["schema"]["properties"]["example"]["$ref"], "#/components/schemas/flag");
    assert_eq!(media["schema"]["default"], json!({"$ref": "not/a/file.yml"}));
    assert_eq!(media["examples"]["default"]["$ref"], "#/components/examples/a");
    assert_eq!(doc["components"]["examples"]["a"]["value"], json!({"$ref": "data, not a file"}));

    // Whether a root needs a bundle is told the same way.
    let default_only = openapi(json!({"/a": {"get": {"responses": {"default": {"$ref": "e.yml"}}}}}));
    assert!(refers_to_other_files(&default_only));
    let data_only = openapi(json!({"/a": {"get": {"responses": {"200": {"description": "ok",
        "content": {"application/json": {"schema": {"default": {"$ref": "e.yml"}}}}}}}}}));
    assert!(!refers_to_other_files(&data_only));
}

#[test]
fn a_value_referred_to_as_two_kinds_is_kept_in_each_section() {
    let root = openapi(json!({"/a": {"post": {
        "requestBody": {"$ref": "shared.yaml#/thing"},
        "responses": {"200": {"$ref": "shared.yaml#/thing"}}
    }}}));
    let thing = json!({"thing": {"description": "A thing", "content": {"application/json": {"schema": {"type": "object"}}}}});
    let bundled = bundle(&[("root.yaml", root), ("shared.yaml", thing)]);
    assert_eq!(bundled.problems, []);
    let doc = &bundled.document;
    let post = &doc["paths"]["/a"]["post"];
    assert_eq!(post["requestBody"]["$ref"], "#/components/requestBodies/thing");
    assert_eq!(post["responses"]["200"]["$ref"], "#/components/responses/thing");
    assert_eq!(doc["components"]["requestBodies"]["thing"]["description"], "A thing");
    assert_eq!(doc["components"]["responses"]["thing"]["description"], "A thing");
}
