//! The Petstore OpenAPI document, embedded as JSON (converted from `openapi/petstore.yaml`
//! by the build script, so the YAML file stays the single source of truth).

/// `openapi/petstore.yaml` as compact JSON, keys in document order.
pub const PETSTORE_JSON: &str = include_str!(concat!(env!("OUT_DIR"), "/petstore.json"));

/// The document as JSON, parsed once and shared: by the mock's routes and by the app's
/// reference.
#[must_use]
pub fn petstore_value() -> std::sync::Arc<serde_json::Value> {
    static DOC: std::sync::OnceLock<std::sync::Arc<serde_json::Value>> = std::sync::OnceLock::new();
    // The embedded document is fixed at build time and the document tests parse it, so a
    // failure here is a build defect, not a runtime condition.
    DOC.get_or_init(|| {
        std::sync::Arc::new(
            serde_json::from_str(PETSTORE_JSON).unwrap_or_else(|e| panic!("the embedded document: {e}")),
        )
    })
    .clone()
}
