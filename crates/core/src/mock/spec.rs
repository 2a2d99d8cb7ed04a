//! What the mock reads from the document once: routes (through matchit), each operation's
//! parameters and body schema, and the deprecation headers. Handlers are bound by operationId.

use std::collections::HashMap;
use std::sync::OnceLock;

use serde_json::Value;

use crate::openapi::petstore_value;
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
    pub schema: Value,
}

#[derive(Debug)]
pub(crate) struct BodySpec {
    pub required: bool,
    pub schema: Value,
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
    pub doc: std::sync::Arc<Value>,
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
    SPEC.get_or_init(|| compile(petstore_value()).unwrap_or_else(|e| panic!("the embedded document: {e}")))
}

/// The methods an OpenAPI path item may hold, as keys and as sent (both mocks read them).
pub(crate) const METHODS: [(&str, &str); 8] = [
    ("get", "GET"),
    ("put", "PUT"),
    ("post", "POST"),
    ("delete", "DELETE"),
    ("options", "OPTIONS"),
    ("head", "HEAD"),
    ("patch", "PATCH"),
    ("trace", "TRACE"),
];

use crate::openapi::resolve as deref;

fn compile(doc: std::sync::Arc<Value>) -> Result<Spec, String> {
    let (patterns, skipped) = compile_patterns(&doc);
    // The Petstore's own patterns must all be enforced.
    if let Some(pattern) = skipped.first() {
        return Err(format!("pattern {pattern:?} does not compile"));
    }
    let mut router = matchit::Router::new();
    let mut paths = Vec::new();
    for (template, item) in doc["paths"].as_object().ok_or("the document has no paths")? {
        let item = deref(&doc, item)?;
        let mut ops = Vec::new();
        for (key, method) in METHODS {
            let Some(operation) = item.get(key) else { continue };
            let id =
                operation["operationId"].as_str().ok_or_else(|| format!("{template}: no operationId"))?;
            let op = Op::from_operation_id(id).ok_or_else(|| format!("no handler for {id}"))?;
            let mut params: Vec<ParamSpec> = Vec::new();
            let listed = item["parameters"].as_array().into_iter().chain(operation["parameters"].as_array());
            for p in listed.flatten() {
                let spec = param_spec(&doc, p)?;
                params.retain(|q| !(q.name == spec.name && q.location == spec.location));
                params.push(spec);
            }
            let body = match operation.get("requestBody") {
                None => None,
                Some(b) => Some(body_spec(&doc, b)?),
            };
            ops.push(OpSpec { method, op, params, body, deprecation: deprecation_headers(operation)? });
        }
        router.insert(template.clone(), paths.len()).map_err(|e| format!("{template}: {e}"))?;
        paths.push(PathSpec { template: template.clone(), ops });
    }
    Ok(Spec { doc, router, paths, patterns })
}

fn param_spec(doc: &Value, p: &Value) -> Result<ParamSpec, String> {
    let p = deref(doc, p)?;
    let name = p["name"].as_str().ok_or("a parameter without a name")?.to_owned();
    let location = match p["in"].as_str() {
        Some("path") => Location::Path,
        Some("query") => Location::Query,
        Some("header") => Location::Header,
        other => return Err(format!("parameter {name} is in {other:?}, which the mock does not read")),
    };
    let schema = p.get("schema").cloned().ok_or_else(|| format!("parameter {name} has no schema"))?;
    let required = location == Location::Path || p["required"].as_bool().unwrap_or(false);
    Ok(ParamSpec { name, location, required, schema })
}

fn body_spec(doc: &Value, b: &Value) -> Result<BodySpec, String> {
    let b = deref(doc, b)?;
    let schema = b["content"]["application/json"]
        .get("schema")
        .cloned()
        .ok_or("a request body without an application/json schema")?;
    Ok(BodySpec { required: b["required"].as_bool().unwrap_or(false), schema })
}

/// `Deprecation: @<unix time>` (RFC 9745) from `x-deprecated-since` and `Sunset: <HTTP date>`
/// (RFC 8594) from `x-deprecated-sunset`, end of that day in UTC.
fn deprecation_headers(op: &Value) -> Result<Vec<(String, String)>, String> {
    if op["deprecated"].as_bool() != Some(true) {
        return Ok(Vec::new());
    }
    let date = |key: &str| -> Result<Option<time::Date>, String> {
        let Some(v) = op.get(key) else { return Ok(None) };
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
