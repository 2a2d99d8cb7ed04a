//! Requests of a conformance run that the mock once answered against its document, one test
//! for each kind of fault.

use serde_json::{Value, json};

use super::{ApiMock, Request, body};

fn api(paths: Value) -> ApiMock {
    api_with(paths, json!({}))
}

fn api_with(paths: Value, schemas: Value) -> ApiMock {
    let doc = json!({"openapi": "3.1.0", "info": {"title": "T", "version": "1"}, "paths": paths,
        "components": {"schemas": schemas}});
    ApiMock::from_document(doc).unwrap()
}

fn ok(status: &str) -> Value {
    json!({status: {"description": ""}})
}

fn path_param(name: &str, schema: Value) -> Value {
    json!([{"name": name, "in": "path", "required": true, "schema": schema}])
}

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
fn commas_split_path_values_only_for_lists_and_objects() {
    let mut mock = api(json!({
        "/things/{name}": {"get": {"parameters": path_param("name", json!({"type": "string", "enum": ["a,b"]})),
            "responses": ok("200")}},
        "/any/{value}": {"get": {"responses": ok("200")}},
        "/lists/{ids}": {"get": {"parameters": path_param("ids",
            json!({"type": "array", "maxItems": 2, "items": {"type": "integer"}})), "responses": ok("200")}},
        "/headers": {"get": {"parameters": [{"name": "X-Note", "in": "header", "schema": {"type": "string", "const": "a, b"}}],
            "responses": ok("200")}}
    }));
    let thing = mock.handle(&Request::new("GET", "/things/a,b"));
    assert_eq!(thing.status, 200, "{}", body(&thing));
    assert_eq!(mock.handle(&Request::new("GET", "/things/a%2Cb")).status, 200);
    assert_eq!(mock.handle(&Request::new("GET", "/any/x,y,z")).status, 200, "an untyped value is one text");
    assert_eq!(mock.handle(&Request::new("GET", "/lists/1,2")).status, 200);
    let three = mock.handle(&Request::new("GET", "/lists/1,2,3"));
    assert_eq!(three.status, 400, "a list is still split: {}", body(&three));
    let header = mock.handle(&Request::new("GET", "/headers").header("X-Note", "a, b"));
    assert_eq!(header.status, 200, "{}", body(&header));
}

#[test]
fn integers_beyond_64_bits_are_numbers() {
    let big = "123456789012345678901234567890";
    let mut mock = api(json!({
        "/big/{n}": {"get": {"parameters": [
            {"name": "n", "in": "path", "required": true, "schema": {"type": "integer"}},
            {"name": "q", "in": "query", "schema": {"type": "integer", "maximum": 100}},
            {"name": "r", "in": "query", "schema": {"type": ["integer", "string"], "minimum": 1}},
            {"name": "x", "in": "query", "schema": {"type": "number"}},
            {"name": "X-Big", "in": "header", "schema": {"type": "integer", "minimum": 0}}
        ], "responses": ok("200")}}
    }));
    let path = mock.handle(&Request::new("GET", format!("/big/{big}")));
    assert_eq!(path.status, 200, "{}", body(&path));
    assert_eq!(mock.handle(&Request::new("GET", format!("/big/-{big}"))).status, 200);
    let bounded = mock.handle(&Request::new("GET", format!("/big/1?q={big}")));
    assert_eq!(bounded.status, 400);
    assert!(body(&bounded)["message"].as_str().unwrap().contains("at most 100"), "{}", body(&bounded));
    assert_eq!(mock.handle(&Request::new("GET", format!("/big/1?r={big}&x={big}"))).status, 200);
    let negative = mock.handle(&Request::new("GET", format!("/big/1?r=-{big}")));
    assert_eq!(negative.status, 400, "read as a number, so its minimum applies: {}", body(&negative));
    let header = mock.handle(&Request::new("GET", "/big/1").header("X-Big", big));
    assert_eq!(header.status, 200, "{}", body(&header));
    assert_eq!(mock.handle(&Request::new("GET", "/big/1.5")).status, 400, "fractions are not integers");
}

#[test]
fn whole_numbers_are_answered_as_integers() {
    let item = json!({"type": "object", "properties": {"id": {"type": "integer", "readOnly": true},
        "size": {"type": "integer"}, "count": {"type": "integer", "format": "int32"}, "ratio": {"type": "number"}}});
    let content = json!({"application/json": {"schema": item}});
    let doc = json!({"openapi": "3.0.3", "info": {"title": "T", "version": "1"}, "paths": {
        "/items": {"post": {"requestBody": {"content": content}, "responses": {"201": {"description": "", "content": content}}}},
        "/items/{id}": {"get": {"parameters": path_param("id", json!({"type": "integer"})),
            "responses": {"200": {"description": "", "content": content}}}}
    }});
    let mut mock = ApiMock::from_document(doc).unwrap();
    let sent = r#"{"size": 1413939913300392681838224227442589696, "count": 39245.0, "ratio": 0.5}"#;
    let created =
        mock.handle(&Request::new("POST", "/items").body(sent).header("Content-Type", "application/json"));
    assert_eq!(created.status, 201, "{}", body(&created));
    let read = mock.handle(&Request::new("GET", "/items/1"));
    let text = String::from_utf8(read.body).unwrap();
    assert!(text.contains(r#""count":39245,"#), "{text}");
    // The nearest double, written out: an integer of the same 37 digits, its first 16 exact.
    let size = text.split(r#""size":"#).nth(1).and_then(|rest| rest.split(',').next()).unwrap();
    assert!(size.len() == 37 && size.bytes().all(|b| b.is_ascii_digit()), "{text}");
    assert!(size.starts_with("1413939913300392"), "{text}");
    assert!(text.contains(r#""ratio":0.5"#), "{text}");
}

#[test]
fn header_enums_and_bounds_are_enforced() {
    let mut mock = api_with(
        json!({
            "/h/{n}": {"get": {"parameters": [
                {"name": "n", "in": "path", "required": true, "schema": {"type": "integer", "maximum": 10}},
                {"name": "X-Mode", "in": "header", "schema": {"type": "string", "enum": ["fast", "slow"]}},
                {"name": "X-Level", "in": "header", "schema": {"$ref": "#/components/schemas/Level"}},
                {"name": "X-Count", "in": "header", "schema": {"type": "integer", "maximum": 5}}
            ], "responses": ok("200")}},
            "/form": {"post": {"requestBody": {"content": {"application/x-www-form-urlencoded": {"schema": {
                "type": "object", "properties": {"when": {"type": "string", "format": "date"},
                    "count": {"type": "integer", "maximum": 3}}}}}}, "responses": ok("201")}}
        }),
        json!({"Level": {"type": "integer", "enum": [1, 2]}}),
    );
    let get = |headers: &[(&str, &str)], n: u32| {
        headers.iter().fold(Request::new("GET", format!("/h/{n}")), |r, (k, v)| r.header(*k, *v))
    };
    assert_eq!(mock.handle(&get(&[("X-Mode", "fast"), ("X-Level", "1"), ("X-Count", "5")], 10)).status, 200);
    for (headers, n) in [
        (&[("X-Mode", "medium")][..], 1),
        (&[("X-Mode", "fast, slow")][..], 1),
        (&[("X-Level", "7")][..], 1),
        (&[("X-Count", "6")][..], 1),
        (&[][..], 11),
    ] {
        let refused = mock.handle(&get(headers, n));
        assert_eq!(
            (refused.status, body(&refused)["code"].clone()),
            (400, json!("invalid_parameter")),
            "{headers:?} {n}"
        );
    }
    let form = |text: &str| {
        Request::new("POST", "/form").header("Content-Type", "application/x-www-form-urlencoded").body(text)
    };
    assert_eq!(mock.handle(&form("when=2026-01-02&count=3")).status, 201);
    assert_eq!(mock.handle(&form("when=someday")).status, 422, "formats are checked in forms");
    assert_eq!(mock.handle(&form("count=4")).status, 422);
}

#[test]
fn answers_with_a_body_say_its_media_type() {
    let problem = json!({"application/problem+json": {"schema": {"type": "object", "properties": {
        "title": {"type": "string"}, "status": {"type": "integer"}}}}});
    let item =
        json!({"type": "object", "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}});
    let mut mock = api(json!({
        "/items": {"post": {"requestBody": {"content": {"application/json": {"schema": item}}},
            "responses": {"201": {"description": "", "content": {"application/json": {"schema": item}}},
                "422": {"description": "", "content": problem}}}},
        "/items/{id}": {"parameters": path_param("id", json!({"type": "integer"})),
            "get": {"responses": {"200": {"description": "", "content": {"*/*": {"schema": item}}},
                "404": {"description": "", "content": problem}}},
            "delete": {"responses": ok("204")}},
        "/text": {"get": {"responses": {"200": {"description": "", "content": {"text/*": {"schema": {"type": "string"}}}}}}}
    }));
    let created = mock.handle(&Request::new("POST", "/items").json(&json!({"name": "a"})));
    assert_eq!(created.header_value("Content-Type"), Some("application/json"));
    let read = mock.handle(&Request::new("GET", "/items/1"));
    assert_eq!(
        (read.status, read.header_value("Content-Type")),
        (200, Some("application/json")),
        "a concrete type for */*"
    );
    assert_eq!(body(&read)["name"], "a");
    let missing = mock.handle(&Request::new("GET", "/items/7"));
    assert_eq!(
        (missing.status, missing.header_value("Content-Type")),
        (404, Some("application/problem+json"))
    );
    assert_eq!(body(&missing)["status"], 404);
    let invalid = mock.handle(&Request::new("POST", "/items").json(&json!({"name": 5})));
    assert_eq!(
        (invalid.status, invalid.header_value("Content-Type")),
        (422, Some("application/problem+json"))
    );
    let deleted = mock.handle(&Request::new("DELETE", "/items/1"));
    assert_eq!((deleted.status, deleted.header_value("Content-Type"), deleted.body.len()), (204, None, 0));
    let refused = mock.handle(&Request::new("PATCH", "/items/1"));
    assert_eq!((refused.status, refused.header_value("Content-Type")), (405, Some("application/json")));
    let text = mock.handle(&Request::new("GET", "/text"));
    assert_eq!(text.header_value("Content-Type"), Some("text/plain"));
    let asked = mock.handle(&Request::new("GET", "/text").header("Accept", "text/csv"));
    assert_eq!(asked.header_value("Content-Type"), Some("text/csv"), "the type the client asked for");
}

#[test]
fn swagger_answers_without_a_body_carry_the_produced_media_type() {
    let pet =
        json!({"type": "object", "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}});
    let id = json!([{"name": "petId", "in": "path", "required": true, "type": "integer"}]);
    let body = json!([{"name": "body", "in": "body", "required": true, "schema": pet}]);
    let doc = json!({"swagger": "2.0", "info": {"title": "T", "version": "1"},
    "produces": ["application/xml", "application/json"],
    "paths": {
        "/pet": {"post": {"parameters": body, "responses": {"200": {"description": "", "schema": pet}}},
            "put": {"parameters": body, "responses": {"400": {"description": "Invalid ID"}}}},
        "/pet/{petId}": {"parameters": id,
            "get": {"responses": {"200": {"description": "", "schema": pet}}},
            "delete": {"produces": ["text/plain"], "responses": {"204": {"description": "gone"}}}},
        "/plain": {"get": {"responses": {"200": {"description": "", "schema": {"type": "string"}}}}}
    }});
    let mut mock = ApiMock::from_document(doc.clone()).unwrap();
    let created = mock.handle(&Request::new("POST", "/pet").json(&json!({"name": "a"})));
    assert_eq!(created.header_value("Content-Type"), Some("application/json"), "{}", super::body(&created));
    let deleted = mock.handle(&Request::new("DELETE", "/pet/1"));
    assert_eq!(
        (deleted.status, deleted.header_value("Content-Type"), deleted.body.len()),
        (204, Some("text/plain"), 0),
        "the operation's own produces"
    );
    let put = mock.handle(&Request::new("PUT", "/pet").json(&json!({"name": "b"})));
    assert_eq!((put.header_value("Content-Type"), put.body.len()), (Some("application/json"), 0));
    let converted = crate::convert::swagger2_to_openapi3(&doc).unwrap().document;
    assert_eq!(converted["paths"]["/pet/{petId}"]["delete"]["x-produces"], json!(["text/plain"]));
    assert_eq!(
        converted["paths"]["/pet"]["put"]["x-produces"],
        json!(["application/xml", "application/json"])
    );
    for (path, method) in [("/pet", "post"), ("/pet/{petId}", "get"), ("/plain", "get")] {
        assert!(
            converted["paths"][path][method].get("x-produces").is_none(),
            "{method} {path}: every answer has a body"
        );
    }
}

#[test]
fn patches_apply_as_the_document_allows() {
    let item = json!({"type": "object", "properties": {"id": {"type": "integer", "readOnly": true},
        "name": {"type": "string"}, "alias": {"type": ["string", "null"]}, "tags": {"type": "array", "items": {"type": "string"}}}});
    // The request's schema lets `alias` be a number, which the item's schema does not.
    let update = json!({"type": "object", "properties": {"name": {"type": "string"}, "alias": {"type": ["string", "number"]}}});
    let ops = json!({"type": "array", "items": {"type": "object", "required": ["op", "path"],
        "properties": {"op": {"type": "string"}, "path": {"type": "string"}, "value": {}}}});
    let content = json!({"application/json": {"schema": item}});
    let mut mock = api(json!({
        "/items": {"post": {"requestBody": {"content": content}, "responses": {"201": {"description": "", "content": content}}}},
        "/items/{id}": {"parameters": path_param("id", json!({"type": "integer"})),
            "get": {"responses": {"200": {"description": "", "content": content}}},
            "patch": {"requestBody": {"content": {"application/merge-patch+json": {"schema": update},
                    "application/json-patch+json": {"schema": ops}}},
                "responses": {"200": {"description": "", "content": content}, "409": {"description": ""}}}}
    }));
    let created = mock.handle(&Request::new("POST", "/items").json(&json!({"name": "a", "tags": ["x"]})));
    assert_eq!(created.status, 201, "{}", body(&created));
    let merge = |value: Value| {
        Request::new("PATCH", "/items/1")
            .header("Content-Type", "application/merge-patch+json")
            .body(value.to_string())
    };
    let fitted = mock.handle(&merge(json!({"name": "b", "alias": 5})));
    assert_eq!(fitted.status, 200, "a request the document allows is accepted: {}", body(&fitted));
    assert_eq!(
        (body(&fitted)["name"].clone(), body(&fitted).get("alias")),
        (json!("b"), body(&created).get("alias")),
        "the field the item cannot hold keeps its value"
    );
    let json_patch = |ops: Value| {
        Request::new("PATCH", "/items/1")
            .header("Content-Type", "application/json-patch+json")
            .body(ops.to_string())
    };
    let patched = mock.handle(&json_patch(json!([
        {"op": "replace", "path": "/name", "value": "c"},
        {"op": "add", "path": "/tags/-", "value": "y"},
        {"op": "test", "path": "/tags/0", "value": "x"}
    ])));
    assert_eq!(patched.status, 200, "{}", body(&patched));
    assert_eq!(body(&patched)["tags"], json!(["x", "y"]));
    assert_eq!(body(&mock.handle(&Request::new("GET", "/items/1")))["name"], "c", "kept");
    for (ops, says) in [
        (json!([{"op": "test", "path": "/name", "value": "z"}]), "did not match"),
        (json!([{"op": "remove", "path": "/missing"}]), "path"),
        (json!([{"op": "replace", "path": "/name", "value": 7}]), "invalid"),
    ] {
        let refused = mock.handle(&json_patch(ops.clone()));
        assert_eq!(refused.status, 409, "{ops}: {}", body(&refused));
        assert!(body(&refused)["message"].as_str().unwrap().contains(says), "{ops}: {}", body(&refused));
    }
    assert_eq!(
        body(&mock.handle(&Request::new("GET", "/items/1")))["name"],
        "c",
        "a refused patch changes nothing"
    );
}

#[test]
fn form_fields_in_bracket_notation_are_nested() {
    // Stripe's shape: nested objects behind `anyOf` with an empty-text branch, lists of objects.
    let schema = json!({"type": "object", "required": ["account_holder"], "additionalProperties": false, "properties": {
        "account_holder": {"type": "object", "required": ["type"], "properties": {
            "type": {"type": "string", "enum": ["account", "customer"]}, "id": {"type": "string"}}},
        "dims": {"anyOf": [{"type": "object", "properties": {"height": {"type": "number"}, "width": {"type": "number"}}},
            {"type": "string", "enum": [""]}]},
        "items": {"type": "array", "items": {"type": "object", "properties": {"price": {"type": "string"},
            "quantity": {"type": "integer"}}}},
        "tags": {"type": "array", "items": {"type": "string"}},
        "metadata": {"type": "object", "additionalProperties": {"type": "string"}}
    }});
    let mut mock = api(json!({"/sessions": {"post": {
        "requestBody": {"required": true, "content": {"application/x-www-form-urlencoded": {"schema": schema,
            "encoding": {"account_holder": {"style": "deepObject", "explode": true}}}}},
        "responses": {"200": {"description": "", "content": {"application/json": {"schema": {"type": "object", "properties": {
            "ok": {"type": "boolean"}}}}}}}}}}));
    let form = |body: &str| {
        Request::new("POST", "/sessions")
            .header("Content-Type", "application/x-www-form-urlencoded")
            .body(body.to_owned())
    };
    let sent = "account_holder%5Btype%5D=customer&account_holder[id]=c1&dims[height]=1.5&items[0][price]=p1\
        &items[0][quantity]=2&items[1][price]=p2&tags[]=a&tags[]=b&metadata[order]=7";
    let answer = mock.handle(&form(sent));
    assert_eq!(answer.status, 200, "{}", body(&answer));
    let missing = mock.handle(&form("account_holder[id]=c1"));
    assert_eq!(missing.status, 422);
    assert!(
        body(&missing)["message"].as_str().unwrap().contains("account_holder.type"),
        "{}",
        body(&missing)
    );
    let wrong = mock.handle(&form("account_holder[type]=customer&items[0][quantity]=two"));
    assert_eq!(wrong.status, 422, "the leaf is read as its schema says: {}", body(&wrong));
    let unknown = mock.handle(&form("account_holder[type]=customer&other[x]=1"));
    assert_eq!(unknown.status, 422, "{}", body(&unknown));
    let deep = format!("account_holder[type]=customer&metadata{}=1", "[a]".repeat(40));
    assert_eq!(mock.handle(&form(&deep)).status, 422, "too deep: read as one unknown field");
    // An empty list or object writes no field at all: a required one may be missing.
    let empties = json!({"type": "object", "required": ["features", "filters"], "properties": {
        "features": {"type": "array", "items": {"type": "string"}},
        "filters": {"type": "object", "required": ["countries"], "properties": {"countries": {"type": "array"}}},
        "needs": {"type": "object", "required": ["id"], "properties": {"id": {"type": "string"}}}}});
    let mut refresh = api(json!({"/refresh": {"post": {
        "requestBody": {"required": true, "content": {"application/x-www-form-urlencoded": {"schema": empties}}},
        "responses": ok("200")}}}));
    let post = |body: &str| {
        Request::new("POST", "/refresh")
            .header("Content-Type", "application/x-www-form-urlencoded")
            .body(body.to_owned())
    };
    assert_eq!(refresh.handle(&post("")).status, 200, "{}", body(&refresh.handle(&post(""))));
    assert_eq!(
        refresh.handle(&Request::new("POST", "/refresh")).status,
        200,
        "no body, no type: an empty form"
    );
    assert_eq!(refresh.handle(&post("features[]=a")).status, 200);
    assert_eq!(
        refresh.handle(&post("needs[other]=1")).status,
        422,
        "an object with a required text is not empty"
    );
    // Stripe's `shipping` (an object whose required `address` may be empty, or ""), and
    // `mandate_data[...][online]=`, an empty object written as an empty text.
    let address = json!({"type": "object", "properties": {"city": {"type": "string"}}});
    let alternatives = json!({"type": "object", "properties": {
        "shipping": {"anyOf": [{"type": "object", "required": ["address", "name"],
            "properties": {"address": address, "name": {"type": "string"}}}, {"type": "string", "enum": [""]}]},
        "mandate": {"type": "object", "properties": {"online": {"type": "object",
            "properties": {"ip": {"type": "string"}}}}}}});
    let mut customers = api(json!({"/customers": {"post": {
        "requestBody": {"content": {"application/x-www-form-urlencoded": {"schema": alternatives}}},
        "responses": ok("200")}}}));
    let post = |body: &str| {
        Request::new("POST", "/customers")
            .header("Content-Type", "application/x-www-form-urlencoded")
            .body(body.to_owned())
    };
    for sent in
        ["shipping[name]=", "shipping=", "shipping[name]=a&shipping[address][city]=b", "mandate[online]="]
    {
        let answer = customers.handle(&post(sent));
        assert_eq!(answer.status, 200, "{sent}: {}", body(&answer));
    }
    assert_eq!(customers.handle(&post("shipping[name]=a&shipping[address]=x")).status, 422);
    assert_eq!(customers.handle(&post("shipping[address][city]=b")).status, 422, "name is required");
}

#[test]
fn xml_bodies_are_read_as_their_schema_says_and_checked() {
    let category = json!({"type": "object", "xml": {"name": "Category"}, "properties": {
        "id": {"type": "integer"}, "name": {"type": "string"}}});
    let pet = json!({"type": "object", "required": ["name"], "additionalProperties": false, "xml": {"name": "Pet"},
        "properties": {
            "id": {"type": "integer", "xml": {"attribute": true}},
            "name": {"type": "string"},
            "category": {"$ref": "#/components/schemas/Category"},
            "photoUrls": {"type": "array", "xml": {"name": "photoUrl", "wrapped": true}, "items": {"type": "string", "xml": {"name": "photoUrl"}}},
            "tags": {"type": "array", "items": {"type": "string", "xml": {"name": "tag"}}},
            "status": {"type": "string", "enum": ["available", "sold"]},
            "measures": {"type": "object", "additionalProperties": {"type": "number"}},
            "born": {"type": ["string", "null"], "format": "date"}}});
    let mut mock = api_with(
        json!({"/pets": {"post": {
            "requestBody": {"required": true, "content": {"application/xml": {"schema": {"$ref": "#/components/schemas/Pet"}}}},
            "responses": {"200": {"description": "", "content": {"application/json": {"schema": {"type": "object"}}}}}}}}),
        json!({"Pet": pet, "Category": category}),
    );
    let xml = |body: &str| {
        Request::new("POST", "/pets").header("Content-Type", "application/xml").body(body.to_owned())
    };
    let valid = r#"<?xml version="1.0"?><Pet id="7"><name>Rex</name><Category><id>1</id><name>Dogs</name></Category>
        <photoUrl><photoUrl>a.png</photoUrl><photoUrl>b.png</photoUrl></photoUrl><tag>x</tag><tag>y</tag><status>sold</status></Pet>"#;
    let answer = mock.handle(&xml(valid));
    assert_eq!(answer.status, 200, "{}", body(&answer));
    for (sent, says) in [
        (r#"<Pet><name>Rex</name><status>AAA</status></Pet>"#, "status"),
        (r#"<Pet id="seven"><name>Rex</name></Pet>"#, "id"),
        (r#"<Pet><name>Rex</name><Category><id>one</id></Category></Pet>"#, "category.id"),
        (r#"<Pet><status>sold</status></Pet>"#, "name"),
        (r#"<Pet><name>Rex</name><extra>1</extra></Pet>"#, "extra"),
    ] {
        let refused = mock.handle(&xml(sent));
        assert_eq!(refused.status, 422, "{sent}: {}", body(&refused));
        assert!(body(&refused)["message"].as_str().unwrap().contains(says), "{sent}: {}", body(&refused));
    }
    let measured = mock
        .handle(&xml("<Pet><name>Rex</name><measures><mass>1.5</mass><height>2</height></measures></Pet>"));
    assert_eq!(
        measured.status,
        200,
        "a map's values as its additionalProperties read them: {}",
        body(&measured)
    );
    assert_eq!(
        mock.handle(&xml("<Pet><name>Rex</name><measures><mass>x</mass></measures></Pet>")).status,
        422
    );
    // An empty element is the empty text, checked as such, or null where only null fits.
    for (sent, status) in [
        ("<Pet><name>Rex</name><Category><id></id></Category></Pet>", 422),
        ("<Pet><name>Rex</name><status></status></Pet>", 422),
        ("<Pet><name></name></Pet>", 200),
        ("<Pet><name>Rex</name><Category></Category><photoUrl></photoUrl></Pet>", 200),
        ("<Pet><name>Rex</name><born></born></Pet>", 200),
    ] {
        let answer = mock.handle(&xml(sent));
        assert_eq!(answer.status, status, "{sent}: {}", body(&answer));
    }
    let broken = mock.handle(&xml("<Pet><name>Rex</Pet>"));
    assert_eq!(
        (broken.status, body(&broken)["code"].clone()),
        (400, json!("malformed_json")),
        "{}",
        body(&broken)
    );
    let deep = format!("{}{}", "<a>".repeat(30_000), "</a>".repeat(30_000));
    let deep = mock.handle(&xml(&deep));
    assert_eq!(deep.status, 400, "too many nodes: refused, not a crash");
    assert!(body(&deep)["message"].as_str().unwrap().contains("nodes limit"), "{}", body(&deep));
    let nested =
        format!("<Pet><name>Rex</name><extra>{}x{}</extra></Pet>", "<b>".repeat(500), "</b>".repeat(500));
    assert_eq!(mock.handle(&xml(&nested)).status, 422, "deep undeclared content is read to a bound");
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
fn failures_take_a_documented_status_of_the_same_meaning() {
    let item = json!({"type": "object", "properties": {"id": {"type": "integer", "readOnly": true},
        "name": {"type": "string"}}});
    let content = json!({"application/json": {"schema": item}});
    let id = path_param("id", json!({"type": "integer"}));
    let mut mock = api(json!({
        "/things": {"post": {"requestBody": {"content": content},
            "responses": {"201": {"description": "", "content": content}, "400": {"description": ""}}}},
        "/things/{id}": {
            "get": {"parameters": id, "responses": {"200": {"description": "", "content": content},
                "410": {"description": ""}}},
            "delete": {"parameters": id, "responses": ok("204")}}
    }));
    let gone = mock.handle(&Request::new("GET", "/things/7"));
    assert_eq!((gone.status, body(&gone)["code"].clone()), (410, json!("not_found")), "410 stands for 404");
    let refused = mock.handle(&Request::new("POST", "/things").json(&json!({"name": 5})));
    assert_eq!((refused.status, body(&refused)["code"].clone()), (400, json!("validation_failed")));
    assert_eq!(body(&refused)["status"], 400, "the Error object says the status sent");
    let undocumented = mock.handle(&Request::new("DELETE", "/things/7"));
    assert_eq!(undocumented.status, 404, "nothing alike is documented: the status itself");
}

#[test]
fn only_the_credentials_listed_are_accepted() {
    use super::super::MockOptions;
    let doc = json!({"openapi": "3.0.3", "info": {"title": "T", "version": "1"},
        "paths": {"/me": {"get": {"security": [{"basic": []}, {"key": []}], "responses": ok("200")}}},
        "components": {"securitySchemes": {
            "basic": {"type": "http", "scheme": "basic"},
            "key": {"type": "apiKey", "in": "query", "name": "api-key"}}}});
    let options =
        MockOptions { credentials: vec!["ann:pw".to_owned(), "k1".to_owned()], ..MockOptions::default() };
    let mut mock = super::ApiMock::from_document(doc).unwrap().with_options(options);
    let basic = |pair: &str| {
        use base64::Engine as _;
        let token = base64::engine::general_purpose::STANDARD.encode(pair);
        Request::new("GET", "/me").header("Authorization", format!("Basic {token}"))
    };
    assert_eq!(mock.handle(&basic("ann:pw")).status, 200, "user:password, sent as base64");
    assert_eq!(mock.handle(&Request::new("GET", "/me?api-key=k1")).status, 200);
    let wrong = mock.handle(&basic("ann:guess"));
    assert_eq!(wrong.status, 401);
    assert_eq!(
        body(&wrong)["message"],
        "GET /me: the credentials given are not among those this mock accepts."
    );
    assert_eq!(wrong.header_value("WWW-Authenticate"), Some("Basic realm=\"mock\""));
    assert_eq!(mock.handle(&Request::new("GET", "/me?api-key=k2")).status, 401);
    let none = mock.handle(&Request::new("GET", "/me"));
    assert!(body(&none)["message"].as_str().unwrap().contains("needs credentials"), "{}", body(&none));
    let too_many = MockOptions { credentials: vec!["x".to_owned(); 101], ..MockOptions::default() };
    assert_eq!(too_many.check(), Err("101 credentials: at most 100".to_owned()));
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
fn answers_leave_out_write_only_fields_and_ids_follow_the_parameter() {
    let mock_schema = json!({"type": "object", "properties": {"id": {"type": "string"},
        "uid": {"type": "string", "readOnly": true}, "name": {"type": "string"},
        "secret": {"type": "string", "writeOnly": true}}});
    let content = json!({"application/json": {"schema": mock_schema}});
    let uid = path_param("mock_uid", json!({"type": "string"}));
    let mut mock = api(json!({
        "/mocks": {"post": {"requestBody": {"content": content}, "responses": {"200": {"description": "", "content": content}}},
            "get": {"responses": {"200": {"description": "", "content": {"application/json": {
                "schema": {"type": "array", "items": mock_schema}}}}}}},
        "/mocks/{mock_uid}": {"parameters": uid,
            "get": {"responses": {"200": {"description": "", "content": content}}},
            "put": {"requestBody": {"content": content}, "responses": {"200": {"description": "", "content": content}}}}
    }));
    assert_eq!(mock.resources()[0].id_field.as_deref(), Some("uid"), "mock_uid names the uid");
    let created =
        body(&mock.handle(&Request::new("POST", "/mocks").json(&json!({"name": "m", "secret": "s3"}))));
    assert!(created.get("secret").is_none(), "writeOnly: {created}");
    let uid = created["uid"].as_str().unwrap();
    let read = body(&mock.handle(&Request::new("GET", format!("/mocks/{uid}"))));
    assert_eq!((read["name"].clone(), read.get("secret")), (json!("m"), None));
    let listed = body(&mock.handle(&Request::new("GET", "/mocks")));
    assert!(listed[0].get("secret").is_none(), "{listed}");
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
fn operations_that_document_only_errors_still_succeed() {
    let pet =
        json!({"type": "object", "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}});
    let content = json!({"application/json": {"schema": pet}});
    let mut mock = api(json!({
        "/pet": {"post": {"requestBody": {"content": content}, "responses": {"405": {"description": "Invalid input"}}},
            "get": {"responses": {"400": {"description": ""}}}},
        "/pet/{petId}": {"parameters": path_param("petId", json!({"type": "integer"})),
            "get": {"responses": {"404": {"description": ""}}},
            "delete": {"responses": {"400": {"description": ""}}}},
        "/pet/findByTags": {"get": {"responses": ok("200")}}
    }));
    let created = mock.handle(&Request::new("POST", "/pet").json(&json!({"name": "Rex"})));
    assert_eq!((created.status, created.header_value("Location")), (201, Some("/pet/1")));
    assert_eq!(created.header_value("Content-Type"), Some("application/json"));
    assert_eq!(body(&created), json!({"id": 1, "name": "Rex"}));
    assert_eq!(body(&mock.handle(&Request::new("GET", "/pet/1"))), json!({"id": 1, "name": "Rex"}));
    assert_eq!(body(&mock.handle(&Request::new("GET", "/pet"))), json!([{"id": 1, "name": "Rex"}]));
    assert_eq!(mock.handle(&Request::new("DELETE", "/pet/1")).status, 204);
    let literal = mock.handle(&Request::new("POST", "/pet/findByTags"));
    assert_eq!((literal.status, literal.header_value("Allow")), (405, Some("GET")), "the literal path first");
    // Outside the stored resources too: a valid request succeeds, a documented redirect is sent.
    let flag = json!([{"name": "production", "in": "query", "schema": {"enum": ["true", "false"]}}]);
    let mut outside = api(json!({
        "/status": {"get": {"parameters": flag, "responses": {"400": {"description": ""}, "403": {"description": ""}}}},
        "/go": {"get": {"responses": {"404": {"description": ""}, "302": {"description": ""}}}}
    }));
    let status = outside.handle(&Request::new("GET", "/status?production=false"));
    assert_eq!((status.status, status.body.len()), (200, 0), "{}", String::from_utf8_lossy(&status.body));
    assert_eq!(
        outside.handle(&Request::new("GET", "/status?production=no")).status,
        400,
        "the enum's texts only"
    );
    assert_eq!(outside.handle(&Request::new("GET", "/go")).status, 302);
}

#[test]
fn an_example_that_a_format_blind_reader_finds_ambiguous_is_not_served() {
    let schema = json!({"oneOf": [
        {"type": "object", "required": ["kind"], "properties": {"kind": {"type": "string"}}},
        {"type": "object", "required": ["kind", "mail"], "properties": {"mail": {"type": "string", "format": "email"}}}
    ]});
    let ambiguous = json!({"kind": "a", "mail": "not an address"});
    let mut mock = api(json!({"/who": {"get": {"responses": {"200": {"description": "", "content": {
        "application/json": {"schema": schema, "example": ambiguous}}}}}}}));
    let answer = body(&mock.handle(&Request::new("GET", "/who")));
    assert_ne!(answer, ambiguous, "generated instead");
    assert!(answer["kind"].is_string(), "{answer}");
}

#[test]
fn a_declared_content_type_parameter_is_checked() {
    // CircleCI's `POST /project/{username}/{project}/ssh-key` declares a required `Content-Type`
    // header; a body sent without one was taken as JSON.
    let mut mock = api(json!({"/keys": {"post": {
        "parameters": [{"name": "Content-Type", "in": "header", "required": true,
            "schema": {"type": "string", "enum": ["application/json"]}}],
        "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object"}}}},
        "responses": ok("200")}}}));
    let mut post = |content_type: Option<&str>| {
        let r = Request::new("POST", "/keys").body("{}");
        mock.handle(&content_type.map_or(r.clone(), |c| r.header("Content-Type", c))).status
    };
    assert_eq!(post(Some("application/json")), 200);
    assert_eq!(post(Some("application/json; charset=utf-8")), 200, "parameters of the media type aside");
    assert_eq!(post(None), 400);
    assert_eq!(post(Some("text/plain")), 400);
}

#[test]
fn email_addresses_are_checked() {
    let mut mock = api(json!({"/users": {"post": {
        "requestBody": {"content": {"application/json": {"schema": {"type": "object",
            "properties": {"mail": {"type": "string", "format": "email"}}}}}},
        "responses": ok("201")}}}));
    let mut post =
        |mail: &str| mock.handle(&Request::new("POST", "/users").json(&json!({"mail": mail}))).status;
    assert_eq!(post("ada@example.com"), 201);
    assert_eq!(post("ada"), 422);
    assert_eq!(post("ada @example.com"), 422);
}

#[test]
fn a_form_field_given_twice_for_one_value_is_refused() {
    let schema = json!({"type": "object", "properties": {
        "note": {"type": "string"}, "tags": {"type": "array", "items": {"type": "string"}}}});
    let mut mock = api(json!({"/notes": {"post": {"requestBody": {"content": {
        "application/x-www-form-urlencoded": {"schema": schema},
        "multipart/form-data": {"schema": schema}}}, "responses": ok("201")}}}));
    let mut form = |text: &str| {
        mock.handle(
            &Request::new("POST", "/notes")
                .header("Content-Type", "application/x-www-form-urlencoded")
                .body(text),
        )
        .status
    };
    assert_eq!(form("note=a&tags=x&tags=y&tags=z"), 201);
    assert_eq!(form("note=a&note=b"), 422);
    assert_eq!(form("note=a&note=b&note=c"), 422);
    let part = |name: &str, value: &str| {
        format!("--b\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n")
    };
    let multipart = format!("{}{}--b--\r\n", part("note", "a"), part("note", "b"));
    let answer = mock.handle(
        &Request::new("POST", "/notes")
            .header("Content-Type", "multipart/form-data; boundary=b")
            .body(multipart),
    );
    assert_eq!(answer.status, 422, "{}", body(&answer));
}
