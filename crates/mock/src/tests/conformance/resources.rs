//! Routing and stored resources: templates, nesting, ids, wrapped items and deleted paths.

use serde_json::{Value, json};

use super::{ApiMock, Request, api, body, ok, path_param};

#[test]
fn colliding_templates_route_by_method() {
    let mut mock = api(json!({
        "/v2/secrets/{name}": {"post": {"parameters": path_param("name", json!({"type": "string"})),
            "responses": ok("201")}},
        "/v2/secrets/{idOrName}": {"delete": {"parameters": path_param("idOrName", json!({"type": "string"})),
            "responses": ok("204")}},
        "/v2/secrets/latest": {"get": {"responses": ok("200")}}
    }));
    assert_eq!(mock.handle(&Request::new("POST", "/v2/secrets/abc")).status, 201);
    assert_eq!(mock.handle(&Request::new("DELETE", "/v2/secrets/abc")).status, 204);
    assert_eq!(mock.handle(&Request::new("GET", "/v2/secrets/latest")).status, 200, "literals win");
    assert_eq!(
        mock.handle(&Request::new("DELETE", "/v2/secrets/latest")).status,
        405,
        "the literal path is matched first, as OpenAPI says, and it has no DELETE"
    );
    let refused = mock.handle(&Request::new("PUT", "/v2/secrets/abc"));
    assert_eq!(refused.status, 405);
    assert_eq!(body(&refused)["code"], "method_not_allowed");
    assert_eq!(refused.header_value("Allow"), Some("POST, DELETE"), "templates of one shape together");
    let latest = mock.handle(&Request::new("PUT", "/v2/secrets/latest"));
    assert_eq!(latest.header_value("Allow"), Some("GET"), "the literal path's own methods");
}

#[test]
fn item_templates_with_other_parameter_names_share_one_resource() {
    let item = json!({"type": "object", "required": ["name"], "properties": {
        "id": {"type": "integer", "readOnly": true}, "name": {"type": "string"}}});
    let content = json!({"application/json": {"schema": item}});
    let mut mock = api(json!({
        "/items": {"post": {"requestBody": {"content": content}, "responses": {"201": {"description": "", "content": content}}}},
        "/items/{id}": {"get": {"parameters": path_param("id", json!({"type": "integer"})),
            "responses": {"200": {"description": "", "content": content}}}},
        "/items/{itemId}": {
            "put": {"parameters": path_param("itemId", json!({"type": "integer"})), "requestBody": {"content": content},
                "responses": {"200": {"description": "", "content": content}}},
            "delete": {"parameters": path_param("itemId", json!({"type": "integer"})), "responses": ok("204")}}
    }));
    let resources = mock.resources();
    assert_eq!(resources.len(), 1);
    assert_eq!((resources[0].collection.as_str(), resources[0].item.as_str()), ("/items", "/items/{id}"));
    let created = mock.handle(&Request::new("POST", "/items").json(&json!({"name": "a"})));
    assert_eq!(created.status, 201);
    let replaced = mock.handle(&Request::new("PUT", "/items/1").json(&json!({"name": "b"})));
    assert_eq!((replaced.status, body(&replaced)), (200, json!({"id": 1, "name": "b"})));
    assert_eq!(body(&mock.handle(&Request::new("GET", "/items/1"))), json!({"id": 1, "name": "b"}));
    assert_eq!(mock.handle(&Request::new("DELETE", "/items/1")).status, 204);
    assert_eq!(mock.handle(&Request::new("GET", "/items/1")).status, 404);
    assert_eq!(mock.handle(&Request::new("DELETE", "/items/1")).status, 404);
}

#[test]
fn sub_paths_of_a_deleted_item_are_not_found() {
    let thing = json!({"type": "object", "properties": {"id": {"type": "integer", "readOnly": true}}});
    let mut mock = api(json!({
        "/things": {"post": {"requestBody": {"content": {"application/json": {"schema": thing}}},
            "responses": {"201": {"description": "", "content": {"application/json": {"schema": thing}}}}}},
        "/things/{id}": {"parameters": path_param("id", json!({"type": "integer"})),
            "get": {"responses": {"200": {"description": "", "content": {"application/json": {"schema": thing}}}}},
            "post": {"responses": {"202": {"description": ""}}},
            "delete": {"responses": ok("204")}},
        "/things/{id}/anything": {"parameters": path_param("id", json!({"type": "integer"})),
            "get": {"responses": {"200": {"description": "", "content": {"application/json": {
                "example": {"ok": true}}}}}}},
        "/things/{thingId}/parts/{part}/state": {"get": {"responses": ok("200")}},
        "/things/{id}:archive": {"parameters": path_param("id", json!({"type": "integer"})),
            "post": {"responses": ok("200")}}
    }));
    assert_eq!(mock.handle(&Request::new("POST", "/things/7:archive")).status, 404, "a custom method");
    assert_eq!(mock.handle(&Request::new("POST", "/things").json(&json!({}))).status, 201);
    assert_eq!(mock.handle(&Request::new("POST", "/things/1:archive")).status, 200);
    let before = mock.handle(&Request::new("GET", "/things/1/anything"));
    assert_eq!((before.status, body(&before)), (200, json!({"ok": true})));
    assert_eq!(mock.handle(&Request::new("POST", "/things/1")).status, 202);
    assert_eq!(mock.handle(&Request::new("GET", "/things/1/parts/x/state")).status, 200);
    assert_eq!(mock.handle(&Request::new("DELETE", "/things/1")).status, 204);
    assert_eq!(mock.handle(&Request::new("POST", "/things/1:archive")).status, 404);
    for target in ["/things/1/anything", "/things/1/parts/x/state"] {
        let after = mock.handle(&Request::new("GET", target));
        assert_eq!(after.status, 404, "{target}");
        assert_eq!(
            body(&after),
            json!({"code": "not_found", "message": "Thing 1 does not exist.", "status": 404})
        );
    }
    assert_eq!(mock.handle(&Request::new("POST", "/things/1")).status, 404);
    assert_eq!(mock.handle(&Request::new("GET", "/things/2/anything")).status, 404, "never created");
    let asked = mock.handle(&Request::new("GET", "/things/1/anything").header("Prefer", "code=200"));
    assert_eq!(asked.status, 200, "Prefer asks for the document's answer");
}

#[test]
fn a_nested_collection_belongs_to_the_deepest_item_above_it() {
    let item = json!({"type": "object", "properties": {"id": {"type": "integer", "readOnly": true},
        "name": {"type": "string"}}});
    let content = json!({"application/json": {"schema": item}});
    let created = json!({"201": {"description": "", "content": content}});
    let read = json!({"200": {"description": "", "content": content}});
    let mut paths = serde_json::Map::new();
    for (collection, params) in [
        ("/orgs", vec![]),
        ("/orgs/{org}/teams", vec!["org"]),
        ("/orgs/{org}/teams/{team}/members", vec!["org", "team"]),
    ] {
        let param_list = |names: &[&str]| -> Value {
            names
                .iter()
                .map(|n| {
                    json!({"name": n, "in": "path", "required": true,
                "schema": {"type": "integer"}})
                })
                .collect()
        };
        let mut item_params = params.clone();
        item_params.push("id");
        paths.insert(
            collection.to_owned(),
            json!({
            "get": {"parameters": param_list(&params), "responses": read},
            "post": {"parameters": param_list(&params), "requestBody": {"content": content},
                "responses": created}}),
        );
        paths.insert(
            format!("{collection}/{{id}}"),
            json!({
            "get": {"parameters": param_list(&item_params), "responses": read},
            "delete": {"parameters": param_list(&item_params), "responses": ok("204")}}),
        );
    }
    let mut mock = api(Value::Object(paths));
    let post = |mock: &mut ApiMock, target: &str| {
        mock.handle(&Request::new("POST", target).json(&json!({"name": "x"}))).status
    };
    assert_eq!(post(&mut mock, "/orgs"), 201);
    assert_eq!(post(&mut mock, "/orgs/1/teams"), 201);
    assert_eq!(post(&mut mock, "/orgs/1/teams/1/members"), 201);
    assert_eq!(post(&mut mock, "/orgs/1/teams/2/members"), 404, "team 2 does not exist");
    assert_eq!(mock.handle(&Request::new("DELETE", "/orgs/1/teams/1")).status, 204);
    let counts: Vec<usize> = mock.resources().iter().map(|r| r.count).collect();
    assert_eq!(counts, [1, 0, 0], "deleting a team deletes its members, and leaves its org");
    assert_eq!(mock.handle(&Request::new("GET", "/orgs/1/teams/1/members/1")).status, 404);
}

#[test]
fn new_ids_fit_the_id_schema() {
    let item = json!({"type": "object", "properties": {"sid": {"type": "string", "readOnly": true},
        "name": {"type": "string"}}});
    let content = json!({"application/json": {"schema": item}});
    let sid = path_param("sid", json!({"type": "string", "pattern": "^RM[0-9a-f]{32}$", "minLength": 34}));
    let mut mock = api(json!({
        "/rooms": {"post": {"requestBody": {"content": content},
            "responses": {"201": {"description": "", "content": content}}}},
        "/rooms/{sid}": {"get": {"parameters": sid, "responses": {"200": {"description": "", "content": content}}}}
    }));
    let mut seen = Vec::new();
    for _ in 0..3 {
        let created = mock.handle(&Request::new("POST", "/rooms").json(&json!({"name": "a"})));
        assert_eq!(created.status, 201);
        let id = body(&created)["sid"].as_str().unwrap().to_owned();
        let pattern = regex_lite::Regex::new("^RM[0-9a-f]{32}$").unwrap();
        assert!(pattern.is_match(&id), "{id}");
        assert!(!seen.contains(&id), "{id} twice");
        assert_eq!(mock.handle(&Request::new("GET", format!("/rooms/{id}"))).status, 200, "read back");
        seen.push(id);
    }
}

#[test]
fn a_deleted_path_outside_resources_is_gone_until_put_back() {
    let key = path_param("key", json!({"type": "string"}));
    let setting =
        json!({"200": {"description": "", "content": {"application/json": {"example": {"on": true}}}}});
    let mut mock = api(json!({
        "/settings/{key}": {"parameters": key,
            "get": {"responses": setting}, "put": {"responses": setting}, "delete": {"responses": ok("204")}},
        "/settings/{key}/history": {"parameters": key, "get": {"responses": setting}}
    }));
    let get = |mock: &mut ApiMock, target: &str| mock.handle(&Request::new("GET", target)).status;
    assert_eq!(get(&mut mock, "/settings/a"), 200);
    assert_eq!(mock.handle(&Request::new("DELETE", "/settings/a")).status, 204);
    assert_eq!(mock.revision(), 1);
    let gone = mock.handle(&Request::new("GET", "/settings/a"));
    assert_eq!((gone.status, body(&gone)["message"].clone()), (404, json!("/settings/a was deleted.")));
    assert_eq!(get(&mut mock, "/settings/a/history"), 404, "and what is under it");
    assert_eq!(get(&mut mock, "/settings/b"), 200, "only that path");
    assert_eq!(mock.handle(&Request::new("DELETE", "/settings/a")).status, 404);
    let saved = mock.snapshot();
    let mut again = api(json!({
        "/settings/{key}": {"parameters": key,
            "get": {"responses": setting}, "put": {"responses": setting}, "delete": {"responses": ok("204")}},
        "/settings/{key}/history": {"parameters": key, "get": {"responses": setting}}
    }));
    again.restore(&saved).unwrap();
    assert_eq!(get(&mut again, "/settings/a"), 404, "a snapshot keeps it");
    assert_eq!(mock.handle(&Request::new("PUT", "/settings/a")).status, 200);
    assert_eq!(get(&mut mock, "/settings/a"), 200, "a PUT puts it back");
    again.reset();
    assert_eq!(get(&mut again, "/settings/a"), 200, "a reset forgets it");
}

#[test]
fn items_wrapped_in_one_property_are_stored_unwrapped() {
    let api_schema =
        json!({"type": "object", "properties": {"id": {"type": "string"}, "name": {"type": "string"}}});
    let wrapped = json!({"application/json": {"schema": {"type": "object", "properties": {"api": api_schema}},
        "example": {"api": {"id": "387c2863-6ee3-4a56-8210-225f774edade", "name": "Sync API"}}}});
    let id = path_param("apiId", json!({"type": "string"}));
    let mut mock = api(json!({
        "/apis": {"post": {"requestBody": {"content": wrapped}, "responses": {"200": {"description": "", "content": wrapped}}}},
        "/apis/{apiId}": {"parameters": id,
            "get": {"responses": {"200": {"description": "", "content": wrapped}}},
            "delete": {"responses": ok("200")}}
    }));
    let resources = mock.resources();
    assert_eq!(resources[0].id_field.as_deref(), Some("id"), "the id inside the wrapper");
    let created = mock.handle(&Request::new("POST", "/apis").json(&json!({"api": {"name": "Mine"}})));
    assert_eq!(created.status, 200);
    let made = body(&created);
    assert_eq!(made["api"]["name"], "Mine", "{made}");
    let id = made["api"]["id"].as_str().unwrap().to_owned();
    assert_ne!(id, "387c2863-6ee3-4a56-8210-225f774edade", "a new id, not the example's");
    assert_eq!(body(&mock.handle(&Request::new("GET", format!("/apis/{id}")))), made);
    assert_eq!(mock.handle(&Request::new("DELETE", format!("/apis/{id}"))).status, 200);
    assert_eq!(mock.handle(&Request::new("GET", format!("/apis/{id}"))).status, 404);
}

#[test]
fn a_conflict_stays_409_and_a_post_brings_a_deleted_path_back() {
    let item =
        json!({"type": "object", "properties": {"id": {"type": "string"}, "name": {"type": "string"}}});
    let content = json!({"application/json": {"schema": item}});
    let mut mock = api(json!({
        "/things": {"post": {"requestBody": {"content": content},
            "responses": {"201": {"description": "", "content": content}, "400": {"description": ""}}}},
        "/things/{id}": {"parameters": path_param("id", json!({"type": "string"})),
            "get": {"responses": {"200": {"description": "", "content": content}}}},
        "/anything": {"post": {"responses": ok("200")}, "delete": {"responses": ok("200")}},
        "/anything/{x}": {"parameters": path_param("x", json!({"type": "string"})), "post": {"responses": ok("200")}}
    }));
    let post =
        |mock: &mut ApiMock| mock.handle(&Request::new("POST", "/things").json(&json!({"id": "a"}))).status;
    assert_eq!(post(&mut mock), 201);
    assert_eq!(post(&mut mock), 409, "not a bad request the client could fix");
    assert_eq!(mock.handle(&Request::new("DELETE", "/anything")).status, 200);
    assert_eq!(mock.handle(&Request::new("POST", "/anything/5")).status, 404);
    assert_eq!(mock.handle(&Request::new("POST", "/anything")).status, 200, "a POST to it brings it back");
    assert_eq!(mock.handle(&Request::new("POST", "/anything/5")).status, 200);
}

#[test]
fn a_create_brings_back_a_collection_deleted_outside_the_resources() {
    let item =
        json!({"type": "object", "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}});
    let content = json!({"application/json": {"schema": item}});
    let mut mock = api(json!({
        "/anything": {"post": {"requestBody": {"content": content}, "responses": {"200": {"description": "", "content": content}}},
            "delete": {"responses": ok("200")}},
        "/anything/{anything}": {"parameters": path_param("anything", json!({"type": "integer"})),
            "get": {"responses": {"200": {"description": "", "content": content}}},
            "post": {"responses": ok("200")}}
    }));
    assert_eq!(mock.handle(&Request::new("DELETE", "/anything")).status, 200);
    assert_eq!(mock.handle(&Request::new("POST", "/anything/5")).status, 404, "gone with what is under it");
    let created = mock.handle(&Request::new("POST", "/anything").json(&json!({"name": "a"})));
    assert_eq!(created.status, 200, "{}", body(&created));
    let under = mock.handle(&Request::new("POST", "/anything/1"));
    assert_eq!(under.status, 200, "the create put the path back: {}", body(&under));
}

#[test]
fn a_trailing_slash_ends_an_empty_id_where_only_the_item_has_the_method() {
    // Okta: `PUT /api/v1/meta/types/user/` (typeId "") was 405, the collection's methods.
    let id = json!({"type": "string"});
    let mut mock = api(json!({
        "/types": {"get": {"responses": ok("200")}, "post": {"responses": ok("201")}},
        "/types/{typeId}": {"parameters": path_param("typeId", id),
            "put": {"responses": ok("200")}, "delete": {"responses": ok("204")}},
        "/codes/{code}": {"parameters": path_param("code", json!({"type": "string", "minLength": 1})),
            "get": {"responses": ok("200")}}
    }));
    let status =
        |mock: &mut ApiMock, method: &str, path: &str| mock.handle(&Request::new(method, path)).status;
    assert_eq!(status(&mut mock, "GET", "/types/"), 200, "the collection's own method");
    assert_eq!(status(&mut mock, "PUT", "/types/"), 404, "no type has the empty id");
    assert_eq!(status(&mut mock, "DELETE", "/types/"), 404);
    assert_eq!(status(&mut mock, "PATCH", "/types/"), 405);
    assert_eq!(status(&mut mock, "GET", "/codes/"), 400, "an empty value its schema refuses");
}
