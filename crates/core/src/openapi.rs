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

/// The document parsed into `openapiv3`'s typed model.
///
/// # Errors
/// Only if the embedded document stopped matching the OpenAPI 3.0 model, which the document
/// tests rule out.
pub fn petstore_document() -> Result<openapiv3::OpenAPI, serde_json::Error> {
    serde_json::from_str(PETSTORE_JSON)
}

/// What a local reference (`#/components/schemas/Pet`, `#/paths/~1jobs~1%7Bid%7D/get`) points
/// to in `doc`: the fragment is percent-decoded (a URI fragment), then read as a JSON pointer.
/// `None` for a reference to another document or one that points nowhere.
#[must_use]
pub fn pointer_target<'a>(doc: &'a serde_json::Value, reference: &str) -> Option<&'a serde_json::Value> {
    let fragment = reference.strip_prefix('#')?;
    if !fragment.contains('%') {
        return doc.pointer(fragment);
    }
    let decoded = percent_encoding::percent_decode_str(fragment).decode_utf8().ok()?;
    doc.pointer(&decoded)
}

/// Follows local `$ref`s (`#/...` JSON pointers, percent-encoded or not) from `value` to what
/// they point at.
///
/// # Errors
/// The reference that does not resolve, or a chain longer than 32, in words.
pub fn resolve<'a>(
    doc: &'a serde_json::Value,
    mut value: &'a serde_json::Value,
) -> Result<&'a serde_json::Value, String> {
    for _ in 0..32 {
        match value.get("$ref").and_then(serde_json::Value::as_str) {
            None => return Ok(value),
            Some(r) if !r.starts_with('#') => {
                return Err(format!(
                    "the reference {r} is to another document, which this reference does not read"
                ));
            }
            Some(r) => {
                value =
                    pointer_target(doc, r).ok_or_else(|| format!("the reference {r} does not resolve"))?;
            }
        }
    }
    Err("a chain of more than 32 references".into())
}

/// A JSON pointer segment: `~` and `/` escaped (`~0`, `~1`).
#[must_use]
pub fn escape_segment(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}

/// A JSON pointer segment with its escapes undone (`~1` is `/`, `~0` is `~`).
#[must_use]
pub fn unescape_segment(segment: &str) -> String {
    segment.replace("~1", "/").replace("~0", "~")
}
