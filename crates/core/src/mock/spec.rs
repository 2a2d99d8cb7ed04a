//! What the mock reads from the document once: routes (through matchit), each operation's
//! parameters and body schema, and the deprecation headers. Handlers are bound by operationId.

use std::collections::HashMap;
use std::sync::OnceLock;

use openapiv3::{OpenAPI, Parameter, ParameterSchemaOrContent, ReferenceOr, RequestBody, Schema};
use serde_json::Value;

use crate::openapi::PETSTORE_JSON;
use crate::validate::{Validator, compile_patterns};

/// The operations the mock implements, one per operationId of the document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Op {
    ListPets,
    CreatePet,
    GetPet,
    UpdatePet,
    DeletePet,
    ListCategories,
    CreateCategory,
    GetCategory,
    UpdateCategory,
    DeleteCategory,
    ListOrders,
    PlaceOrder,
    GetOrder,
    CancelOrder,
    CompleteOrder,
    ListInventory,
    GetInventoryItem,
    SetInventory,
}

impl Op {
    fn from_operation_id(id: &str) -> Option<Self> {
        Some(match id {
            "listPets" => Op::ListPets,
            "createPet" => Op::CreatePet,
            "getPet" => Op::GetPet,
            "updatePet" => Op::UpdatePet,
            "deletePet" => Op::DeletePet,
            "listCategories" => Op::ListCategories,
            "createCategory" => Op::CreateCategory,
            "getCategory" => Op::GetCategory,
            "updateCategory" => Op::UpdateCategory,
            "deleteCategory" => Op::DeleteCategory,
            "listOrders" => Op::ListOrders,
            "placeOrder" => Op::PlaceOrder,
            "getOrder" => Op::GetOrder,
            "cancelOrder" => Op::CancelOrder,
            "completeOrder" => Op::CompleteOrder,
            "listInventory" => Op::ListInventory,
            "getInventoryItem" => Op::GetInventoryItem,
            "setInventory" => Op::SetInventory,
            _ => return None,
        })
    }
}

/// Where a parameter is read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Location {
    Path,
    Query,
    Header,
}

impl Location {
    pub(crate) fn label(self) -> &'static str {
        match self {
            Location::Path => "Path parameter",
            Location::Query => "Query parameter",
            Location::Header => "Header",
        }
    }
}

#[derive(Debug)]
pub(crate) struct ParamSpec {
    pub name: String,
    pub location: Location,
    pub required: bool,
    pub schema: ReferenceOr<Schema>,
}

#[derive(Debug)]
pub(crate) struct BodySpec {
    pub required: bool,
    pub schema: ReferenceOr<Schema>,
}

#[derive(Debug)]
pub(crate) struct OpSpec {
    pub method: &'static str,
    pub op: Op,
    pub params: Vec<ParamSpec>,
    pub body: Option<BodySpec>,
    /// `Deprecation` and `Sunset` header values for deprecated operations.
    pub deprecation: Vec<(String, String)>,
}

#[derive(Debug)]
pub(crate) struct PathSpec {
    pub template: String,
    pub ops: Vec<OpSpec>,
}

impl PathSpec {
    /// The methods of this path, for the `Allow` header.
    pub(crate) fn allow(&self) -> String {
        self.ops.iter().map(|o| o.method).collect::<Vec<_>>().join(", ")
    }
}

#[derive(Debug)]
pub(crate) struct Spec {
    pub doc: OpenAPI,
    pub router: matchit::Router<usize>,
    pub paths: Vec<PathSpec>,
    patterns: HashMap<String, regex_lite::Regex>,
}

impl Spec {
    pub(crate) fn validator(&self) -> Validator<'_> {
        Validator::new(&self.doc, &self.patterns)
    }
}

/// The compiled Petstore document, built on first use.
pub(crate) fn spec() -> &'static Spec {
    static SPEC: OnceLock<Spec> = OnceLock::new();
    // The embedded document is fixed at build time and the tests compile it, so a failure
    // here is a build defect, not a runtime condition.
    SPEC.get_or_init(|| compile(PETSTORE_JSON).unwrap_or_else(|e| panic!("the embedded document: {e}")))
}

fn compile(json: &str) -> Result<Spec, String> {
    let raw: Value = serde_json::from_str(json).map_err(|e| e.to_string())?;
    let patterns = compile_patterns(&raw)?;
    let doc: OpenAPI = serde_json::from_value(raw).map_err(|e| e.to_string())?;
    let mut router = matchit::Router::new();
    let mut paths = Vec::new();
    for (template, item) in &doc.paths.paths {
        let ReferenceOr::Item(item) = item else { return Err(format!("{template}: path references")) };
        let mut ops = Vec::new();
        for (method, operation) in item.iter() {
            let id =
                operation.operation_id.as_deref().ok_or_else(|| format!("{template}: no operationId"))?;
            let op = Op::from_operation_id(id).ok_or_else(|| format!("no handler for {id}"))?;
            let mut params = Vec::new();
            for p in item.parameters.iter().chain(&operation.parameters) {
                params.push(param_spec(&doc, p)?);
            }
            let body = match &operation.request_body {
                None => None,
                Some(b) => Some(body_spec(&doc, b)?),
            };
            ops.push(OpSpec {
                method: upper(method),
                op,
                params,
                body,
                deprecation: deprecation_headers(operation)?,
            });
        }
        router.insert(template.clone(), paths.len()).map_err(|e| format!("{template}: {e}"))?;
        paths.push(PathSpec { template: template.clone(), ops });
    }
    Ok(Spec { doc, router, paths, patterns })
}

fn upper(method: &str) -> &'static str {
    match method {
        "get" => "GET",
        "put" => "PUT",
        "post" => "POST",
        "delete" => "DELETE",
        "options" => "OPTIONS",
        "head" => "HEAD",
        "patch" => "PATCH",
        _ => "TRACE",
    }
}

fn param_spec(doc: &OpenAPI, p: &ReferenceOr<Parameter>) -> Result<ParamSpec, String> {
    let param = match p {
        ReferenceOr::Item(p) => p,
        ReferenceOr::Reference { reference } => {
            let name = reference.strip_prefix("#/components/parameters/").ok_or("parameter reference")?;
            match doc.components.as_ref().and_then(|c| c.parameters.get(name)) {
                Some(ReferenceOr::Item(p)) => p,
                _ => return Err(format!("parameter {name} is not in the document")),
            }
        }
    };
    let (location, data) = match param {
        Parameter::Path { parameter_data, .. } => (Location::Path, parameter_data),
        Parameter::Query { parameter_data, .. } => (Location::Query, parameter_data),
        Parameter::Header { parameter_data, .. } => (Location::Header, parameter_data),
        Parameter::Cookie { parameter_data, .. } => {
            return Err(format!("cookie parameter {}", parameter_data.name));
        }
    };
    let ParameterSchemaOrContent::Schema(schema) = &data.format else {
        return Err(format!("parameter {} has content instead of a schema", data.name));
    };
    Ok(ParamSpec { name: data.name.clone(), location, required: data.required, schema: schema.clone() })
}

fn body_spec(doc: &OpenAPI, b: &ReferenceOr<RequestBody>) -> Result<BodySpec, String> {
    let body = match b {
        ReferenceOr::Item(b) => b,
        ReferenceOr::Reference { reference } => {
            let name =
                reference.strip_prefix("#/components/requestBodies/").ok_or("request body reference")?;
            match doc.components.as_ref().and_then(|c| c.request_bodies.get(name)) {
                Some(ReferenceOr::Item(b)) => b,
                _ => return Err(format!("request body {name} is not in the document")),
            }
        }
    };
    let schema = body
        .content
        .get("application/json")
        .and_then(|m| m.schema.clone())
        .ok_or("a request body without an application/json schema")?;
    Ok(BodySpec { required: body.required, schema })
}

/// `Deprecation: @<unix time>` (RFC 9745) from `x-deprecated-since` and `Sunset: <HTTP date>`
/// (RFC 8594) from `x-deprecated-sunset`, end of that day in UTC.
fn deprecation_headers(op: &openapiv3::Operation) -> Result<Vec<(String, String)>, String> {
    if !op.deprecated {
        return Ok(Vec::new());
    }
    let date = |key: &str| -> Result<Option<time::Date>, String> {
        let Some(v) = op.extensions.get(key) else { return Ok(None) };
        let text = v.as_str().ok_or_else(|| format!("{key} is not a string"))?;
        let format = time::macros::format_description!("[year]-[month]-[day]");
        time::Date::parse(text, &format).map(Some).map_err(|e| format!("{key} {text:?}: {e}"))
    };
    let mut headers = Vec::new();
    if let Some(since) = date("x-deprecated-since")? {
        let at = since.midnight().assume_utc().unix_timestamp();
        headers.push(("Deprecation".to_owned(), format!("@{at}")));
    }
    if let Some(sunset) = date("x-deprecated-sunset")? {
        let end = sunset.with_hms(23, 59, 59).map_err(|e| e.to_string())?.assume_utc();
        let format = time::macros::format_description!(
            "[weekday repr:short], [day] [month repr:short] [year] [hour]:[minute]:[second] GMT"
        );
        headers.push(("Sunset".to_owned(), end.format(&format).map_err(|e| e.to_string())?));
    }
    Ok(headers)
}
