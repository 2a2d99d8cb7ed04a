//! The Petstore OpenAPI document, embedded as JSON (converted from `openapi/petstore.yaml`
//! by the build script, so the YAML file stays the single source of truth).

/// `openapi/petstore.yaml` as compact JSON, keys in document order.
pub const PETSTORE_JSON: &str = include_str!(concat!(env!("OUT_DIR"), "/petstore.json"));

/// The document parsed into `openapiv3`'s typed model.
///
/// # Errors
/// Only if the embedded document stopped matching the OpenAPI 3.0 model, which the document
/// tests rule out.
pub fn petstore_document() -> Result<openapiv3::OpenAPI, serde_json::Error> {
    serde_json::from_str(PETSTORE_JSON)
}
