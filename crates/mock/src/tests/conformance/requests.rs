//! Requests read and checked as the document describes them: parameters, headers, JSON, form and
//! XML bodies, patches.

use serde_json::{Value, json};

use super::{ApiMock, Request, api, api_with, body, ok, path_param};

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
fn integers_beyond_64_bits_are_checked_for_multiple_of_by_their_digits() {
    let mut mock = api(json!({
        "/page": {"get": {"parameters": [
            {"name": "offset", "in": "query", "schema": {"type": "integer", "multipleOf": 20}}
        ], "responses": ok("200")}}
    }));
    // As an f64 this is a multiple of 2^37, and the quotient by 20 rounds to a whole number.
    let off = mock.handle(&Request::new("GET", "/page?offset=-1130672890133160457381347328"));
    assert_eq!(off.status, 400, "{}", body(&off));
    assert!(body(&off)["message"].as_str().unwrap().contains("multiple of 20"), "{}", body(&off));
    let on = mock.handle(&Request::new("GET", "/page?offset=-1130672890133160457381347320"));
    assert_eq!(on.status, 200, "{}", body(&on));
    assert_eq!(mock.handle(&Request::new("GET", "/page?offset=40")).status, 200);
    assert_eq!(mock.handle(&Request::new("GET", "/page?offset=41")).status, 400);
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
        // Text where an object or a list belongs is text, refused by the schema.
        ("<Pet><name>Rex</name><Category>5</Category></Pet>", 422),
        ("<Pet><name>Rex</name><photoUrl>a.png</photoUrl></Pet>", 422),
        ("<Pet><name>Rex</name><measures>null</measures></Pet>", 422),
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
    let mut mock = ApiMock::from_document(doc).unwrap().with_options(options);
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
fn an_optional_form_sent_empty_still_lacks_its_required_fields() {
    // Twilio's `POST /v1/Rooms/{Sid}` and Slack's `usergroups.enable`: an optional form body,
    // sent as a form with no field.
    let schema = json!({"type": "object", "required": ["Status"], "properties": {
        "Status": {"type": "string"}, "Countries": {"type": "object", "properties": {
            "list": {"type": "array", "items": {"type": "string"}}}}}});
    let mut mock = api(json!({"/rooms": {"post": {"requestBody": {"content": {
        "application/x-www-form-urlencoded": {"schema": schema}}}, "responses": ok("200")}}}));
    let mut post = |content_type: Option<&str>, text: &str| {
        let request = Request::new("POST", "/rooms").body(text);
        let request = content_type.map_or(request.clone(), |c| request.header("Content-Type", c));
        let answer = mock.handle(&request);
        (answer.status, body(&answer))
    };
    let form = Some("application/x-www-form-urlencoded");
    assert_eq!(post(form, "").0, 422, "a form with no field");
    assert_eq!(post(None, "").0, 200, "no body at all");
    assert_eq!(post(form, "Status=done").0, 200);
    // One value for a nested list, as for a top-level one (Stripe's filters[countries]=PT).
    for text in ["Status=a&Countries[list]=PT", "Status=a&Countries[list]=PT&Countries[list]=JP"] {
        let (status, answer) = post(form, text);
        assert_eq!(status, 200, "{text}: {answer}");
    }
}

#[test]
fn form_fields_holding_json_are_read_where_the_schema_takes_an_object() {
    // A multipart part of an object property is JSON (OpenAPI's default); a list is one field
    // per item, and an object item is its JSON.
    let entity =
        json!({"type": "object", "required": ["offset"], "properties": {"offset": {"type": "integer"}}});
    let schema = json!({"type": "object", "required": ["media", "entities", "ids"], "properties": {
        "media": {"oneOf": [{"type": "object", "required": ["kind"], "properties": {"kind": {"type": "string"}}}, {"type": "string", "format": "binary"}]},
        "entities": {"type": "array", "items": entity},
        "ids": {"type": "array", "items": {"type": "integer"}},
        "note": {"type": "string"}
    }});
    let mut mock = api(json!({"/send": {"post": {
        "requestBody": {"required": true, "content": {"application/x-www-form-urlencoded": {"schema": schema}}},
        "responses": {"200": {"description": "", "content": {"application/json": {"schema": {"type": "object"}}}}}}}}));
    let form = |body: &str| {
        Request::new("POST", "/send")
            .header("Content-Type", "application/x-www-form-urlencoded")
            .body(body.to_owned())
    };
    let sent = "media=%7B%22kind%22%3A%22photo%22%7D&entities=%7B%22offset%22%3A1%7D&entities=%7B%22offset%22%3A2%7D\
        &ids=1&ids=2&note=%7B%22stays%22%3A%22text%22%7D";
    let answer = mock.handle(&form(sent));
    assert_eq!(answer.status, 200, "{}", body(&answer));
    // The items are still checked: an entity without its offset is refused.
    let wrong = mock.handle(&form("media=%7B%22kind%22%3A%22photo%22%7D&entities=%7B%7D&ids=1"));
    assert_eq!(wrong.status, 422, "{}", body(&wrong));
    assert!(body(&wrong)["message"].as_str().unwrap().contains("offset"), "{}", body(&wrong));
}
