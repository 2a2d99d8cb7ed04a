//! A description kept in hundreds of files, laid out as real ones are (DigitalOcean's public
//! description is the model, about 2,900 YAML files): the root lists the paths and each
//! operation is a file of its own under `resources/<things>/`, beside the resource's parameters,
//! models, responses, examples and code samples; what every operation shares is under `common/`,
//! one or two folders up (`../../common/responses/unexpected_error.yml` is reached by every
//! operation's `default` response, and itself refers to `../headers.yml#/ratelimit-limit` and
//! `../models/error.yml`); models refer to each other within their file (`#/thing_base`) and
//! across resources (`../../gadgets/models/gadget.yml#/gadget_base`); an `examples` map has an
//! entry named `default`, and a schema a property named `default`.
//!
//! Made here rather than kept as files, so the repository stays lean: each test that needs it
//! includes this file (`#[path = ...] mod many_files;`) and writes the files where it reads
//! them (the disk, or memory). Only `serde_json` is used.

#![allow(dead_code, reason = "each test uses its own part")]

use serde_json::{Value, json};

/// Joins as the command line does: the reference's path from the folder of the file it stands
/// in, `.` and `..` taken away as written (the `join` every bundling test hands the `Bundler`).
///
/// # Errors
/// None: every reference here is a relative path.
pub fn join(base: &str, reference: &str) -> Result<String, String> {
    let mut parts: Vec<&str> = base.split('/').collect();
    parts.pop();
    for segment in reference.split('/') {
        match segment {
            "." | "" => {}
            ".." => {
                parts.pop();
            }
            other => parts.push(other),
        }
    }
    Ok(parts.join("/"))
}

/// The root file's name, beside `resources/`, `common/` and `description.yml`.
pub const ROOT: &str = "public.v2.yaml";

/// The description's title.
pub const TITLE: &str = "Many Files API";

/// The operations of each resource: the file's suffix, the method and whether on the item path.
pub const OPERATIONS: [(&str, &str, bool); 5] = [
    ("list", "get", false),
    ("create", "post", false),
    ("get", "get", true),
    ("update", "put", true),
    ("delete", "delete", true),
];

const WORDS: [&str; 32] = [
    "droplet",
    "volume",
    "domain",
    "firewall",
    "snapshot",
    "image",
    "key",
    "tag",
    "network",
    "bucket",
    "cluster",
    "database",
    "registry",
    "balancer",
    "certificate",
    "project",
    "region",
    "size",
    "alert",
    "function",
    "space",
    "record",
    "member",
    "invoice",
    "token",
    "policy",
    "route",
    "agent",
    "index",
    "trigger",
    "queue",
    "topic",
];

/// Resource `i`: its singular (`droplet`, `droplet2` after the words run out) and plural name.
#[must_use]
pub fn resource(i: usize) -> (String, String) {
    let word = WORDS[i % WORDS.len()];
    let singular = if i < WORDS.len() { word.to_owned() } else { format!("{word}{}", i / WORDS.len() + 1) };
    let plural = format!("{singular}s");
    (singular, plural)
}

/// The tag of resource `i`'s operations.
#[must_use]
pub fn tag(i: usize) -> String {
    let (_, plural) = resource(i);
    let mut chars = plural.chars();
    chars.next().map(|first| first.to_ascii_uppercase().to_string() + chars.as_str()).unwrap_or_default()
}

/// The summary of resource `i`'s operation `suffix` (one of [`OPERATIONS`]).
#[must_use]
pub fn summary(i: usize, suffix: &str) -> String {
    let (singular, plural) = resource(i);
    match suffix {
        "list" => format!("List All {plural}"),
        "create" => format!("Create a New {singular}"),
        "get" => format!("Retrieve an Existing {singular}"),
        "update" => format!("Update a {singular}"),
        _ => format!("Delete a {singular}"),
    }
}

/// The files of a description with `resources` resources (five operations and fifteen files
/// each), with their paths relative to the root's folder, the root first.
#[must_use]
pub fn files(resources: usize) -> Vec<(String, Value)> {
    let mut files = vec![(ROOT.to_owned(), root(resources))];
    files.push((
        "description.yml".to_owned(),
        json!({"introduction": "The API of many files: every operation is a file of its own."}),
    ));
    files.extend(common());
    for i in 0..resources {
        files.extend(resource_files(i, resources));
    }
    files
}

fn root(resources: usize) -> Value {
    let mut tags = vec![json!({"name": "Introduction", "x-traitTag": true,
        "description": {"$ref": "description.yml#/introduction"}})];
    let mut paths = serde_json::Map::new();
    for i in 0..resources {
        let (singular, plural) = resource(i);
        tags.push(json!({"name": tag(i), "description": format!("Manage your {plural}.")}));
        let file = |suffix: &str| json!({"$ref": format!("resources/{plural}/{plural}_{suffix}.yml")});
        paths.insert(format!("/v2/{plural}"), json!({"get": file("list"), "post": file("create")}));
        paths.insert(
            format!("/v2/{plural}/{{{singular}_id}}"),
            json!({"get": file("get"), "put": file("update"), "delete": file("delete")}),
        );
    }
    json!({
        "openapi": "3.0.0",
        "info": {"title": TITLE, "version": "2.0", "description": "Kept in many files, as large descriptions are."},
        "servers": [{"url": "https://api.many-files.test"}],
        "tags": tags,
        "paths": paths,
        "components": {"securitySchemes": {"bearer_auth": {"type": "http", "scheme": "bearer"}}},
        "security": [{"bearer_auth": []}]
    })
}

/// A common response with the rate-limit headers and the error body.
fn error_response(description: &str, id: &str) -> Value {
    json!({
        "description": description,
        "headers": rate_limit_headers("../headers.yml"),
        "content": {"application/json": {
            "schema": {"$ref": "../models/error.yml"},
            "example": {"id": id, "message": description}
        }}
    })
}

fn rate_limit_headers(file: &str) -> Value {
    json!({
        "ratelimit-limit": {"$ref": format!("{file}#/ratelimit-limit")},
        "ratelimit-remaining": {"$ref": format!("{file}#/ratelimit-remaining")},
        "ratelimit-reset": {"$ref": format!("{file}#/ratelimit-reset")}
    })
}

fn common() -> Vec<(String, Value)> {
    let header = |description: &str, example: u64| json!({"description": description, "schema": {"type": "integer"}, "example": example});
    vec![
        (
            "common/responses/unauthorized.yml".to_owned(),
            error_response("Authentication failed.", "unauthorized"),
        ),
        (
            "common/responses/not_found.yml".to_owned(),
            error_response("The resource was not found.", "not_found"),
        ),
        (
            "common/responses/too_many_requests.yml".to_owned(),
            error_response("Too many requests.", "too_many_requests"),
        ),
        ("common/responses/server_error.yml".to_owned(), error_response("Server error.", "server_error")),
        (
            "common/responses/unexpected_error.yml".to_owned(),
            error_response("There was an unexpected error.", "example_error"),
        ),
        (
            "common/responses/no_content.yml".to_owned(),
            json!({"description": "The action was successful and the response body is empty.",
                "headers": rate_limit_headers("../headers.yml")}),
        ),
        (
            "common/headers.yml".to_owned(),
            json!({
                "ratelimit-limit": header("Requests allowed per hour.", 5000),
                "ratelimit-remaining": header("Requests left this hour.", 4816),
                "ratelimit-reset": header("When the oldest request expires (Unix time).", 1_444_931_833)
            }),
        ),
        (
            "common/models/error.yml".to_owned(),
            json!({"type": "object", "required": ["id", "message"], "properties": {
                "id": {"type": "string", "description": "A short identifier of the status.", "example": "not_found"},
                "message": {"type": "string", "example": "The resource you were accessing could not be found."},
                "request_id": {"type": "string"}
            }}),
        ),
        (
            "common/parameters.yml".to_owned(),
            json!({
                "per_page": {"in": "query", "name": "per_page", "required": false,
                    "schema": {"type": "integer", "minimum": 1, "maximum": 200, "default": 20}},
                "page": {"in": "query", "name": "page", "required": false,
                    "schema": {"type": "integer", "minimum": 1, "default": 1}}
            }),
        ),
        (
            "common/pages.yml".to_owned(),
            json!({
                "pagination": {"type": "object", "properties": {"links": {"$ref": "#/page_links"}}},
                "page_links": {"type": "object", "properties": {
                    "first": {"type": "string", "format": "uri"},
                    "next": {"type": "string", "format": "uri"},
                    "last": {"type": "string", "format": "uri"}
                }}
            }),
        ),
        (
            "common/meta.yml".to_owned(),
            json!({"meta": {"type": "object", "required": ["total"], "properties": {"total": {"type": "integer"}}}}),
        ),
        (
            "common/attributes/created_at.yml".to_owned(),
            json!({"type": "string", "format": "date-time", "readOnly": true, "example": "2020-03-13T19:20:47.442049222Z"}),
        ),
        (
            "common/attributes/is_default.yml".to_owned(),
            json!({"type": "boolean", "description": "Whether it is the default of its region.", "readOnly": true}),
        ),
        (
            "common/attributes/tags_array.yml".to_owned(),
            json!({"type": "array", "nullable": true, "items": {"type": "string"}, "example": ["base-image", "prod"]}),
        ),
        (
            "common/attributes/region_slug.yml".to_owned(),
            json!({"type": "string", "enum": ["nyc1", "nyc3", "ams3", "sfo3"], "example": "nyc3"}),
        ),
    ]
}

fn resource_files(i: usize, resources: usize) -> Vec<(String, Value)> {
    let mut files = operation_files(i);
    files.extend(model_files(i, resources));
    let (_, p) = resource(i);
    for (suffix, method, on_item) in OPERATIONS {
        let path = if on_item { format!("/v2/{p}/$ID") } else { format!("/v2/{p}") };
        files.push((
            format!("resources/{p}/examples/curl/{p}_{suffix}.yml"),
            json!({"lang": "cURL", "source": format!(
                "curl -X {} -H \"Authorization: Bearer $TOKEN\" \"https://api.many-files.test{path}\"",
                method.to_ascii_uppercase()
            )}),
        ));
    }
    files
}

/// A common response's reference, from an operation's file.
fn common_response(name: &str) -> Value {
    json!({"$ref": format!("../../common/responses/{name}.yml")})
}

/// Resource `i`'s operation `suffix`: `extra` with what every operation has.
fn operation(i: usize, suffix: &str, mut extra: Value, mut responses: Value, scope: &str) -> Value {
    let (s, p) = resource(i);
    responses["401"] = common_response("unauthorized");
    responses["429"] = common_response("too_many_requests");
    responses["500"] = common_response("server_error");
    responses["default"] = common_response("unexpected_error");
    let fields = extra.as_object_mut().expect("an object");
    fields.insert("operationId".to_owned(), json!(format!("{p}_{suffix}")));
    fields.insert("summary".to_owned(), json!(summary(i, suffix)));
    fields.insert("description".to_owned(), json!(format!("To {suffix} {p}, send a request to `/v2/{p}`.")));
    fields.insert("tags".to_owned(), json!([tag(i)]));
    fields.insert("responses".to_owned(), responses);
    fields.insert("x-codeSamples".to_owned(), json!([{"$ref": format!("examples/curl/{p}_{suffix}.yml")}]));
    fields.insert("security".to_owned(), json!([{"bearer_auth": [format!("{s}:{scope}")]}]));
    extra
}

fn operation_files(i: usize) -> Vec<(String, Value)> {
    let (s, p) = resource(i);
    let dir = format!("resources/{p}");
    let id = json!({"$ref": format!("parameters.yml#/{s}_id")});
    let body = json!({"required": true, "content": {"application/json": {"schema": {
        "type": "object",
        "allOf": [{"$ref": format!("models/{s}.yml#/{s}_updatable")}, {"$ref": format!("models/{s}.yml#/{s}_create")}],
        "required": ["name", "region"]
    }}}});
    let existing = json!({"$ref": format!("responses/existing_{s}.yml")});
    let not_found = common_response("not_found");
    let list = json!({"parameters": [
        {"$ref": "../../common/parameters.yml#/per_page"},
        {"$ref": "../../common/parameters.yml#/page"}
    ]});
    vec![
        (
            format!("{dir}/{p}_list.yml"),
            operation(i, "list", list, json!({"200": {"$ref": format!("responses/all_{p}.yml")}}), "read"),
        ),
        (
            format!("{dir}/{p}_create.yml"),
            operation(i, "create", json!({"requestBody": body}), json!({"201": existing}), "create"),
        ),
        (
            format!("{dir}/{p}_get.yml"),
            operation(
                i,
                "get",
                json!({"parameters": [id]}),
                json!({"200": existing, "404": not_found}),
                "read",
            ),
        ),
        (
            format!("{dir}/{p}_update.yml"),
            operation(
                i,
                "update",
                json!({"parameters": [id], "requestBody": body}),
                json!({"200": existing, "404": not_found}),
                "update",
            ),
        ),
        (
            format!("{dir}/{p}_delete.yml"),
            operation(
                i,
                "delete",
                json!({"parameters": [id]}),
                json!({"204": common_response("no_content"), "404": not_found}),
                "delete",
            ),
        ),
        (
            format!("{dir}/parameters.yml"),
            json!({format!("{s}_id"): {"in": "path", "name": format!("{s}_id"), "required": true,
                "description": format!("A unique identifier for a {s}."),
                "schema": {"type": "string", "format": "uuid"}, "example": "4de7ac8b-495b-4884-9a69-1050c6793cd6"}}),
        ),
    ]
}

/// Resource `i`'s models, responses and examples.
fn model_files(i: usize, resources: usize) -> Vec<(String, Value)> {
    let (s, p) = resource(i);
    let (next_s, next_p) = resource((i + 1) % resources);
    let dir = format!("resources/{p}");
    vec![
        (
            format!("{dir}/models/{s}.yml"),
            json!({
                format!("{s}_base"): {"type": "object", "properties": {
                    "id": {"type": "string", "format": "uuid", "readOnly": true},
                    "created_at": {"$ref": "../../../common/attributes/created_at.yml"}
                }},
                format!("{s}_updatable"): {"type": "object", "properties": {
                    "name": {"type": "string", "maxLength": 255, "example": format!("my-{s}")},
                    "description": {"type": "string", "maxLength": 255},
                    // A property named `default`: a schema, whose reference is followed.
                    "default": {"$ref": "../../../common/attributes/is_default.yml"},
                    "tags": {"$ref": "../../../common/attributes/tags_array.yml"}
                }},
                format!("{s}_create"): {"type": "object", "properties": {
                    "region": {"$ref": "../../../common/attributes/region_slug.yml"}
                }},
                s.clone(): {"allOf": [
                    {"$ref": format!("#/{s}_base")},
                    {"$ref": format!("#/{s}_updatable")},
                    {"$ref": format!("#/{s}_create")},
                    {"type": "object", "properties": {
                        "related": {"$ref": format!("../../{next_p}/models/{next_s}.yml#/{next_s}_base")}
                    }}
                ]}
            }),
        ),
        (
            format!("{dir}/responses/all_{p}.yml"),
            json!({
                "description": format!("A JSON object with a key called `{p}`."),
                "headers": rate_limit_headers("../../../common/headers.yml"),
                "content": {"application/json": {"schema": {"allOf": [
                    {"type": "object", "properties": {p.clone(): {"type": "array", "items": {"$ref": format!("../models/{s}.yml#/{s}")}}}},
                    {"$ref": "../../../common/pages.yml#/pagination"},
                    {"$ref": "../../../common/meta.yml#/meta"}
                ]}}}
            }),
        ),
        (
            format!("{dir}/responses/existing_{s}.yml"),
            json!({
                "description": format!("A JSON object with a key called `{s}`."),
                "headers": rate_limit_headers("../../../common/headers.yml"),
                "content": {"application/json": {
                    "schema": {"type": "object", "properties": {s.clone(): {"$ref": format!("../models/{s}.yml#/{s}")}}},
                    // An examples map with an entry named `default`: an example, followed.
                    "examples": {"default": {"$ref": format!("../examples.yml#/{s}")}}
                }}
            }),
        ),
        (
            format!("{dir}/examples.yml"),
            json!({s.clone(): {"summary": format!("A {s}"), "value": {s.clone(): {
                "id": "4de7ac8b-495b-4884-9a69-1050c6793cd6", "name": format!("my-{s}"), "region": "nyc3",
                "created_at": "2020-03-13T19:20:47.442049222Z", "default": false, "tags": ["prod"]
            }}}}),
        ),
    ]
}
