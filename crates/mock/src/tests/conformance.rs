//! Requests of a conformance run that the mock once answered against its document, one test
//! for each kind of fault.

use serde_json::{Value, json};

use super::{ApiMock, Request, body};

mod answers;
mod requests;
mod resources;

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
